// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The contiguous byte runs of a box copied from one row-major array into
// another: a box of a tensor read out of a stored array (the whole tensor in
// a file, or a stored piece of it) into a destination shard's bytes. Both
// arrays and the box are given in global tensor indices, so a box is copied
// between arrays that cover different parts of the tensor.
//
// A run joins the innermost dimensions the box covers whole in both arrays
// with the first one it does not: a row shard out of a whole tensor is one
// run, a column shard one run per row. Block-packed types (GGUF's quantized
// ones) count the innermost dimension in blocks; every range of that
// dimension must then start and stop on a block boundary (callers check).
#ifndef TESSERA_CORE_CHECKPOINT_BOX_RUNS_H_
#define TESSERA_CORE_CHECKPOINT_BOX_RUNS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint/read_plan.h"
#include "core/shard.h"

namespace tessera::checkpoint {

// The bytes of an array of type `type` covering `ranges` of a tensor, laid
// out row-major (the innermost dimension counted in blocks).
uint64_t BoxBytes(const ElementType& type, absl::Span<const IndexRange> ranges);

// [start0, stop0, start1, stop1, ...]: ranges as a hash key.
std::vector<int64_t> RangesKey(absl::Span<const IndexRange> ranges);

// Appends to `runs` the runs that copy `box` out of the stored array
// covering `stored` (its first byte at `file_offset` of its file) into the
// destination array covering `destination`, tagged with distinct piece
// `distinct`: file offsets inside the stored array, piece offsets inside the
// destination's bytes, in row-major order of the box. `box` lies inside
// both; an empty box appends nothing; a rank-0 box is one run of one block.
void AppendBoxRuns(const ElementType& type, absl::Span<const IndexRange> box,
                   absl::Span<const IndexRange> stored, uint64_t file_offset,
                   absl::Span<const IndexRange> destination, size_t distinct, std::vector<Run>* runs);

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_BOX_RUNS_H_
