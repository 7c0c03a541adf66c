// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Saving a sharded checkpoint (docs/checkpoint-index.md): each process of a
// job writes the distinct shards it stores to its own safetensors file, then
// process 0 writes the index, last.
//
// Which process stores what: for each tensor, its Sharding's distinct shards
// that have elements; each is written by its first holder in mesh order
// (replica id 0), in that device's process (process P of N owns logical
// devices [P*D/N, (P+1)*D/N)). So every element is stored exactly once in
// the job.
//
// Crash safety: every file is written under FINAL.tmp.<pid>, fsynced,
// renamed to FINAL and the directory fsynced (files.h), and the index is
// written the same way only after every process file is complete. A
// directory is a checkpoint exactly when tessera-index.json is in it, and
// that index names only files that were complete before it was renamed in.
//
// Generations: a save into a directory that already holds a checkpoint
// must not touch the files that checkpoint's index names, or a crash would
// leave an index pointing at half-overwritten files. Each save has a
// generation: 0 when the directory has no index, else one more than the
// generation of the index's files. Generation 0's files are named
// process-PPPPP-of-NNNNN.safetensors, generation G's
// process-PPPPP-of-NNNNN.gG.safetensors. Every process derives the same G
// from the same old index, which only FinishSave replaces, after all of them
// wrote. Once the new index is in place, FinishSave removes the files of
// other generations and the temporary files crashed saves left.
#ifndef TESSERA_CORE_CHECKPOINT_SHARDED_WRITER_H_
#define TESSERA_CORE_CHECKPOINT_SHARDED_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint/sharded/index.h"
#include "core/shard.h"

namespace tessera::checkpoint::sharded {

// A tensor to save: its name, safetensors element type and its sharding
// (mesh, layout, global shape, mode).
struct SaveTensor {
  std::string name;
  ElementType type;
  Sharding sharding;
};

// Checks a tensor before it is saved (INVALID_ARGUMENT naming it): a name
// that is not empty and valid UTF-8 ('@' is allowed: piece names split at
// the last one), and, for a type packed in blocks (F4, F6_*), shards of whole
// blocks (CheckWholeBlocks in core/checkpoint/read_plan.h, the loader's
// words).
absl::Status CheckSaveTensor(const SaveTensor& tensor);

// One piece a process stores.
struct SavePiece {
  size_t tensor = 0;               // position in the saved tensors
  int64_t device = 0;              // the holder that writes it (replica id 0)
  std::vector<IndexRange> ranges;  // its box, one range per dimension
  uint64_t size = 0;               // bytes
};

// The pieces process `process_index` of `num_processes` stores, tensor by
// tensor, each tensor's sorted by ranges. INVALID_ARGUMENT when the process
// count does not divide a tensor's mesh's devices or the process index is
// out of range.
absl::StatusOr<std::vector<SavePiece>> ProcessPieces(absl::Span<const SaveTensor> tensors, int64_t process_index,
                                                     int64_t num_processes);

// The file name of a process in a generation (see the file comment).
std::string ProcessFileName(int64_t process_index, int64_t num_processes, int64_t generation);

// The generation of a save into `directory` (see the file comment);
// 0 when the directory or its index does not exist. An index that cannot
// be read is an error (the index's own), so that a save never guesses which
// files a damaged checkpoint uses.
absl::StatusOr<int64_t> NextGeneration(const std::string& directory);

// Fills `out` with bytes [offset, offset + out.size()) of `piece`'s box as
// row-major contiguous bytes (numpy's array[box].tobytes()).
using FillPiece = std::function<absl::Status(const SavePiece& piece, uint64_t offset, absl::Span<char> out)>;

struct WriteOptions {
  int64_t process_index = 0;
  int64_t num_processes = 1;
  int64_t generation = 0;
  // The most bytes asked of `fill` at once (and held in memory).
  uint64_t chunk_bytes = uint64_t{64} << 20;
};

// Writes the file of one process (creating `directory` if it does not
// exist, not its parents), crash-safely: the safetensors header (pieces
// named PieceName in ProcessPieces' order, __metadata__ "format",
// "tessera.process", "tessera.num_processes", "tessera.layouts"), then each
// piece's bytes as `fill` gives them. Returns the pieces as the index will
// list them (file = the process index, absolute offsets). A `fill` error is
// returned as it is, and leaves no file behind.
absl::StatusOr<std::vector<IndexPiece>> WriteProcessFile(const std::string& directory,
                                                         absl::Span<const SaveTensor> tensors,
                                                         const WriteOptions& options, const FillPiece& fill);

// Process 0's last step, once every process's WriteProcessFile returned:
// reads every process file's header (FAILED_PRECONDITION "FILE: missing;
// process 1 has not written its file" when one is missing), builds the
// index, checks it as a reader would (ParseIndex and VerifyIndexFiles: each
// piece stored once, the pieces tiling every tensor), writes
// tessera-index.json crash-safely and removes what other generations and
// crashed saves left in the directory. Returns the index written.
absl::StatusOr<Index> FinishSave(const std::string& directory, absl::Span<const SaveTensor> tensors,
                                 int64_t num_processes, int64_t generation);

}  // namespace tessera::checkpoint::sharded

#endif  // TESSERA_CORE_CHECKPOINT_SHARDED_WRITER_H_
