// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Restoring a sharded checkpoint (core/checkpoint/sharded/index.h)
// on any mesh and layout: the read plan of one process, which the loader
// (core/checkpoint/loader.h) executes like any other.
//
// Each restored tensor gets the layout the map's rule for its name gives (no
// rule: replicated) on the map's mesh, which need not be the mesh it was
// saved on; process P of N owns logical devices [P*D/N, (P+1)*D/N) of it, and
// a piece is one (device of the process, tensor) whose bytes are the
// device's box as row-major contiguous bytes (as MakeReadPlan's). For each
// distinct box the process needs, the resharding plan between the saved and
// the target sharding (ReshardPlan) gives the overlap of the box with each
// saved shard; the saved shard is the stored piece of the same ranges, and
// each contiguous row of the overlap inside that piece's bytes is a Run
// landing where it belongs in the box's bytes. A process reads exactly the
// overlaps of its boxes (plus the coalescing gaps), each once however many of
// its devices hold the box.
//
// Cost: the resharding plan of each restored tensor (today every device's
// transfers; filtered to the process's), plus its runs.
#ifndef TESSERA_CORE_CHECKPOINT_SHARDED_RESTORE_PLAN_H_
#define TESSERA_CORE_CHECKPOINT_SHARDED_RESTORE_PLAN_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/checkpoint/read_plan.h"
#include "core/checkpoint/sharded/index.h"
#include "core/layout_map.h"

namespace tessera::checkpoint::sharded {

// A checkpoint opened for restoring: its index, checked against its files
// (VerifyIndexFiles), and the files' paths and sizes as the loader checks
// them.
struct RestoreSource {
  std::string directory;
  Index index;
  std::vector<File> files;  // index.files joined to the directory, with their sizes
};

// Opens the checkpoint at `path`: its directory, or the directory's
// tessera-index.json. Errors those of ReadIndex and VerifyIndexFiles.
absl::StatusOr<RestoreSource> OpenRestoreSource(const std::string& path);

// "[0:4, 8:16]": ranges as Python slices, for messages.
std::string RangesText(absl::Span<const IndexRange> ranges);

// A tensor the caller asks for, with what it expects of it.
struct RestoreRequest {
  std::string name;
  std::string dtype;            // safetensors name ("F32"); empty: any
  std::vector<int64_t> shape;   // checked when check_shape
  bool check_shape = false;
};

// The read plan of process options.process_index of options.num_processes
// restoring `requests` (empty: every tensor of the index, in its order) under
// `layouts`. Piece::tensor is the tensor's position in `requests` (or in
// the index). Errors: those of MakeReadPlan for the processes and the
// layouts; NOT_FOUND for a requested tensor the index does not hold
// ("Tensor 'w' is not in the checkpoint DIR"); INVALID_ARGUMENT for a
// requested dtype or shape other than the index's (both named) or a tensor
// requested twice.
absl::StatusOr<ReadPlan> MakeRestorePlan(const RestoreSource& source, const LayoutMap& layouts,
                                         const ReadPlanOptions& options,
                                         absl::Span<const RestoreRequest> requests = {});

}  // namespace tessera::checkpoint::sharded

#endif  // TESSERA_CORE_CHECKPOINT_SHARDED_RESTORE_PLAN_H_
