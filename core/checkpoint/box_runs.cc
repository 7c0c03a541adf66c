// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/box_runs.h"

#include <vector>

namespace tessera::checkpoint {
namespace {

// Bytes per index of each dimension of a row-major array covering `ranges`.
std::vector<uint64_t> Strides(const ElementType& type, absl::Span<const IndexRange> ranges) {
  const size_t rank = ranges.size();
  std::vector<uint64_t> stride(rank, 0);
  uint64_t step = static_cast<uint64_t>(type.block_bytes);
  for (size_t d = rank; d-- > 0;) {
    stride[d] = step;
    const int64_t extent = d + 1 == rank ? ranges[d].size() / type.block_elements : ranges[d].size();
    step *= static_cast<uint64_t>(extent);
  }
  return stride;
}

// The byte offset of a range start inside dimension `d` of an array with
// `stride` whose range of d starts at `origin`.
uint64_t Offset(const ElementType& type, size_t d, size_t rank, int64_t index, int64_t origin,
                const std::vector<uint64_t>& stride) {
  const int64_t steps = d + 1 == rank ? (index - origin) / type.block_elements : index - origin;
  return static_cast<uint64_t>(steps) * stride[d];
}

}  // namespace

uint64_t BoxBytes(const ElementType& type, absl::Span<const IndexRange> ranges) {
  uint64_t bytes = static_cast<uint64_t>(type.block_bytes);
  for (size_t d = 0; d < ranges.size(); ++d) {
    const int64_t extent = d + 1 == ranges.size() ? ranges[d].size() / type.block_elements : ranges[d].size();
    bytes *= static_cast<uint64_t>(extent);
  }
  return bytes;
}

std::vector<int64_t> RangesKey(absl::Span<const IndexRange> ranges) {
  std::vector<int64_t> key;
  key.reserve(2 * ranges.size());
  for (const IndexRange& range : ranges) {
    key.push_back(range.start);
    key.push_back(range.stop);
  }
  return key;
}

void AppendBoxRuns(const ElementType& type, absl::Span<const IndexRange> box,
                   absl::Span<const IndexRange> stored, uint64_t file_offset,
                   absl::Span<const IndexRange> destination, size_t distinct, std::vector<Run>* runs) {
  const size_t rank = box.size();
  if (rank == 0) {
    runs->push_back(Run{file_offset, 0, static_cast<uint64_t>(type.block_bytes), distinct});
    return;
  }
  for (const IndexRange& range : box) {
    if (range.size() == 0) return;
  }
  const std::vector<uint64_t> from = Strides(type, stored);
  const std::vector<uint64_t> to = Strides(type, destination);
  // Innermost-to-outer, dimensions the box covers whole in both arrays join
  // the run; `k` is the outermost dimension of the run.
  size_t k = rank - 1;
  while (k > 0 && box[k] == stored[k] && box[k] == destination[k]) --k;
  const uint64_t run_bytes = BoxBytes(type, box.subspan(k));
  std::vector<int64_t> index(k, 0);  // odometer over dimensions [0, k), row-major
  while (true) {
    uint64_t source = file_offset;
    uint64_t target = 0;
    for (size_t d = 0; d <= k; ++d) {
      const int64_t at = box[d].start + (d < k ? index[d] : 0);
      source += Offset(type, d, rank, at, stored[d].start, from);
      target += Offset(type, d, rank, at, destination[d].start, to);
    }
    runs->push_back(Run{source, target, run_bytes, distinct});
    size_t d = k;
    while (true) {
      if (d == 0) return;
      --d;
      if (++index[d] < box[d].size()) break;
      index[d] = 0;
    }
  }
}

}  // namespace tessera::checkpoint
