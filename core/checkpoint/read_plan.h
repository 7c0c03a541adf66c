// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A read plan: which bytes of a checkpoint's files one process of a job must
// read so that each of its devices gets its shard of every tensor, and
// nothing more.
//
// Devices and processes (issue 12, contract 2): a mesh of D devices has
// logical devices 0..D-1 in row-major mesh order; process P of N owns the
// contiguous block [P*D/N, (P+1)*D/N) (N must divide D).
//
// A tensor's layout is the layout map's answer for the tensor's name (no
// rule: fully replicated). A device's shard is its box of the tensor (per
// dimension [start, stop) from Sharding::DeviceRanges) as row-major
// contiguous bytes in the checkpoint's element type (numpy's
// `array[box].tobytes()`). For a type packed in blocks (GGUF's quantized
// types) the box must start and stop on a block boundary of the innermost
// dimension.
//
// In the file a box is a set of runs: the innermost dimensions the box
// covers whole, together with the first one it does not, are contiguous, so
// a row shard is one run and a column shard one run per row. Devices of the
// process holding the same box (replicas) share one "distinct piece", whose
// runs are read once per process. The runs of all distinct pieces of a file,
// sorted by offset, are coalesced into reads: two runs separated by a gap of
// at most `coalesce_gap_bytes` (default 64 KiB: one read of the gap costs
// less than another request at a disk's or the page cache's granularity) go
// in one read, gap included. The plan's bytes are the bytes those reads
// cover, gaps included: exactly what executing it reads.
//
// Cost: O(tensors x local devices x rank) for the pieces, plus the runs.
// Nothing of the tensor data is read or held.
#ifndef TESSERA_CORE_CHECKPOINT_READ_PLAN_H_
#define TESSERA_CORE_CHECKPOINT_READ_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/checkpoint/checkpoint.h"
#include "core/layout_map.h"
#include "core/mesh.h"
#include "core/shard.h"

namespace tessera::checkpoint {

struct ReadPlanOptions {
  int64_t process_index = 0;
  int64_t num_processes = 1;
  ShardMode mode = ShardMode::kStrict;
  uint64_t coalesce_gap_bytes = 64 * 1024;
};

// One (device of the process, tensor): what the caller receives.
struct Piece {
  int64_t device = 0;                // logical index in the mesh
  size_t tensor = 0;                 // position in Checkpoint::tensors
  std::vector<IndexRange> box;       // one range per tensor dimension
  std::vector<int64_t> shape;        // stop - start per dimension
  uint64_t size = 0;                 // bytes of the shard
  size_t distinct = 0;               // the distinct piece holding its bytes
};

// The bytes several pieces of the process share (one box of one tensor).
struct DistinctPiece {
  size_t tensor = 0;
  uint64_t size = 0;
  std::vector<size_t> pieces;        // holders, in mesh order
};

// A contiguous part of a distinct piece in its file.
struct Run {
  uint64_t file_offset = 0;          // absolute in the file
  uint64_t piece_offset = 0;         // inside the shard's bytes
  uint64_t size = 0;
  size_t distinct = 0;
};

// One read: [offset, offset + size) of a file, covering runs
// [first_run, end_run) of ReadPlan::runs (sorted by file offset).
struct Read {
  size_t file = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  size_t first_run = 0;
  size_t end_run = 0;
};

struct ReadPlan {
  std::vector<File> files;           // the checkpoint's, for the loader
  int64_t num_devices = 0;           // of the mesh
  std::vector<int64_t> devices;      // the process's, in mesh order
  std::vector<Piece> pieces;         // device-major (mesh order), then tensor order
  std::vector<DistinctPiece> distinct;
  std::vector<Run> runs;             // file by file, each file's by offset
  std::vector<Read> reads;           // file by file, each file's by offset
  uint64_t total_bytes = 0;          // sum of the reads' sizes
  uint64_t piece_bytes = 0;          // sum of the distinct pieces' sizes

  // The reads of file `file` (a contiguous part of `reads`).
  std::vector<Read> FileReads(size_t file) const;
};

// Errors (INVALID_ARGUMENT unless said): num_processes < 1, a process index
// outside [0, num_processes), num_processes not dividing the mesh's devices;
// FAILED_PRECONDITION for a map without a mesh; per tensor (its name first):
// a layout on another mesh, a rank other than the tensor's, a dimension the
// mode cannot split (Sharding::Create's message), a box of a block-packed
// type not on a block boundary, a tensor whose size does not match its shape
// and type.
absl::StatusOr<ReadPlan> MakeReadPlan(const Checkpoint& checkpoint, const LayoutMap& layouts,
                                      const ReadPlanOptions& options);

// --- The steps of a plan, shared with plans over other stored forms (a
// sharded checkpoint's restore plan, core/checkpoint/sharded/restore_plan.h).

// The devices of process options.process_index (errors as MakeReadPlan's).
absl::StatusOr<std::vector<int64_t>> ProcessDevices(int64_t num_devices, const ReadPlanOptions& options);

// The sharding of tensor `name` of `shape` under the map's rule for its name
// on the map's mesh (which must be set); no rule: replicated. Errors as
// MakeReadPlan's per tensor.
absl::StatusOr<Sharding> ShardingOf(absl::string_view name, const std::vector<int64_t>& shape,
                                    const LayoutMap& layouts, ShardMode mode);

// INVALID_ARGUMENT unless `inner` (device `device`'s range of the innermost
// dimension) starts and stops on a block boundary of `type`.
absl::Status CheckBlockBoundary(absl::string_view name, const ElementType& type, const std::vector<int64_t>& shape,
                                const IndexRange& inner, int64_t device);

// INVALID_ARGUMENT unless the innermost dimension of `shape` (if any) is a
// multiple of `type`'s elements per block ("Tensor 'w' has innermost
// dimension 3 (shape [2, 3]); expected a multiple of 2, the elements per
// block of F4").
absl::Status CheckInnermostBlocks(absl::string_view name, const ElementType& type,
                                  const std::vector<int64_t>& shape);

// INVALID_ARGUMENT unless every shard of `sharding` is whole blocks of
// `type`, as a plan reads them: a rank of at least 1, the innermost dimension
// a multiple of the block (CheckInnermostBlocks) and each distinct shard's
// range of it on block boundaries (CheckBlockBoundary, naming its first
// holder). Visits every device for a block-packed type; nothing otherwise.
absl::Status CheckWholeBlocks(absl::string_view name, const ElementType& type, const Sharding& sharding);

// Called once per new distinct piece with its index, its first holder and
// its box; its error stops the plan.
using NewDistinctFn =
    std::function<absl::Status(size_t distinct, int64_t device, absl::Span<const IndexRange> box)>;

// Fills plan->pieces[l * num_tensors + tensor] for each device l of
// plan->devices (pieces must already hold devices x tensors entries) and
// appends the tensor's distinct pieces, calling `new_distinct` for each.
absl::Status AddTensorPieces(size_t tensor, size_t num_tensors, absl::string_view name, const ElementType& type,
                             const Sharding& sharding, ReadPlan* plan, const NewDistinctFn& new_distinct);

// Sorts each file's runs by offset, appends them to plan->runs and
// coalesces them into plan->reads (gaps up to `coalesce_gap_bytes`); sets
// total_bytes.
void AddReads(std::vector<std::vector<Run>> file_runs, uint64_t coalesce_gap_bytes, ReadPlan* plan);

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_READ_PLAN_H_
