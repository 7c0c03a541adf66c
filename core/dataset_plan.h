// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Which part of the dataset each process reads: Keras's auto-sharding
// arithmetic, as a pure function of the global batch size and the job.
//
// kCurrent follows Keras HEAD (num_data_shards = min(R, P), contiguous
// replica groups). kKeras30 reproduces Keras 3.0-3.4 (read from v3.3.3's
// distribute_dataset) on TensorFlow, including its known flaw: for
// ModelParallel the shard count is derived from the local device count, so
// mesh (4, 2) over 2 processes yields ONE shard and every process reads the
// whole global batch (fixed upstream in Keras 3.5). A global batch the
// shard count does not divide: Keras asks tf.data to rebatch (DataParallel
// into batch_sizes_for_worker(G, P, 1, pid), ModelParallel into G // shards),
// but TF's auto-shard rewrite turns that rebatch into the legacy one, which
// cuts each global batch into one slice per shard of ceil(G / shards) rows:
// the first shards read whole slices, the last ones fewer rows or none (8
// devices in 4 processes, batch 9: 3, 3, 3, 0 rows). Shard i's rows of each
// global batch start at i * ceil(G / shards). Checked against keras 3.3.3 on
// TensorFlow 2.21 (tests/differential, keras30_cases.py).
#ifndef TESSERA_CORE_DATASET_PLAN_H_
#define TESSERA_CORE_DATASET_PLAN_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace tessera {

// Numbers match tessera_dataset_mode_t in the C ABI.
enum class DatasetMode { kCurrent = 0, kKeras30 = 1 };

struct DatasetPlan {
  // Numbers match tessera_dataset_plan_kind_t in the C ABI.
  enum class Kind {
    kPassthrough = 0,  // leave the dataset as it is
    kReplicate = 1,    // every process reads every global batch
    kShard = 2,        // process reads shard `shard_index` of `num_shards`
  };
  Kind kind = Kind::kPassthrough;
  int64_t global_batch_size = 0;
  // Rows this process reads per global step (G for passthrough/replicate).
  int64_t per_process_batch_size = 0;
  int64_t num_shards = 1;
  int64_t shard_index = 0;
  // kKeras30 DataParallel only: the sub-batch sizes Keras 3.0 asks tf.data to
  // rebatch into, TF's batch_sizes_for_worker(G, P, 1, pid) (P entries; they
  // differ by at most one when G % P != 0; TF's auto-shard rewrite then
  // delivers per_process_batch_size rows instead, see above). Empty otherwise.
  // In every kShard plan, this process's rows of each global batch start at
  // shard_index * ceil(global_batch_size / num_shards).
  std::vector<int64_t> rebatch_sizes;
  // How arrays and PyDatasets are split (interleave.h): whole batches
  // round-robin over interleave_num_shards, this process reading those at
  // interleave_shard_index. Current Keras: num_data_shards and data_shard_id
  // when auto-sharding (whatever the global batch), else 1 and 0; Keras 3.0
  // sharded only tf.data: 1 and 0.
  int64_t interleave_num_shards = 1;
  int64_t interleave_shard_index = 0;
};

// What the plan depends on, gathered by the distribution.
struct DatasetJob {
  bool model_parallel = false;
  bool auto_shard = true;
  int64_t num_processes = 1;
  int64_t process_id = 0;
  int64_t num_model_replicas = 1;  // R
  int64_t mesh_batch_size = 1;     // size of the batch axis (kKeras30)
  int64_t mesh_size = 1;           // devices in the mesh (kKeras30)
};

// S = min(R, P): how many distinct slices of each global batch are read.
int64_t NumDataShards(int64_t num_model_replicas, int64_t num_processes);

// The slice process `process_id` reads: its own id when R >= P, else the
// contiguous replica group's, process_id / (P / R) (Keras 3.15+).
int64_t DataShardId(int64_t num_model_replicas, int64_t num_processes, int64_t process_id);

// Errors (INVALID_ARGUMENT): a job with fewer than one process, replica or
// device, or a process id outside [0, P); unknown batch size (global_batch_size < 0, as an
// unbatched or dynamically batched dataset), a batch not divisible by the
// shard count, and (kKeras30) a mesh batch axis incompatible with the local
// device count. Messages follow Keras's.
absl::StatusOr<DatasetPlan> PlanDataset(const DatasetJob& job,
                                        int64_t global_batch_size,
                                        DatasetMode mode);

// TF's batch_sizes_for_worker(G, W, R, worker_index): W*R sizes summing to G,
// differing by at most one, rotated so the worker's own sub-batches come first.
// Empty unless W >= 1, R >= 1, G >= 0 and 0 <= worker_index < W.
std::vector<int64_t> BatchSizesForWorker(int64_t global_batch_size,
                                         int64_t num_workers,
                                         int64_t num_replicas_per_worker,
                                         int64_t worker_index);

}  // namespace tessera

#endif  // TESSERA_CORE_DATASET_PLAN_H_
