// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/dataset_plan.h"

#include <algorithm>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tessera {
namespace {

absl::Status UnknownBatchSize() {
  return absl::InvalidArgumentError(
      "The batch size of the input dataset is unknown. Please config the batch size for "
      "the input dataset, e.g via `dataset.batch(batch_size)` (argument "
      "'global_batch_size' is negative)");
}

DatasetPlan Passthrough(int64_t g) {
  DatasetPlan plan;
  plan.kind = DatasetPlan::Kind::kPassthrough;
  plan.global_batch_size = g;
  plan.per_process_batch_size = g;
  return plan;
}

DatasetPlan Replicate(int64_t g) {
  DatasetPlan plan = Passthrough(g);
  plan.kind = DatasetPlan::Kind::kReplicate;
  return plan;
}

DatasetPlan Shard(int64_t g, int64_t per_process, int64_t num_shards, int64_t index) {
  DatasetPlan plan;
  plan.kind = DatasetPlan::Kind::kShard;
  plan.global_batch_size = g;
  plan.per_process_batch_size = per_process;
  plan.num_shards = num_shards;
  plan.shard_index = index;
  return plan;
}

absl::Status CheckJob(const DatasetJob& job) {
  const auto positive = [](int64_t value, const char* name) -> absl::Status {
    if (value >= 1) return absl::OkStatus();
    return absl::InvalidArgumentError(
        absl::StrCat("Argument 'job' has ", name, "=", value, "; expected at least 1"));
  };
  if (absl::Status s = positive(job.num_processes, "num_processes"); !s.ok()) return s;
  if (absl::Status s = positive(job.num_model_replicas, "num_model_replicas"); !s.ok()) return s;
  if (absl::Status s = positive(job.mesh_batch_size, "mesh_batch_size"); !s.ok()) return s;
  if (absl::Status s = positive(job.mesh_size, "mesh_size"); !s.ok()) return s;
  if (job.process_id < 0 || job.process_id >= job.num_processes) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'job' has process_id=",
                                                   job.process_id, "; expected 0 to ",
                                                   job.num_processes - 1));
  }
  return absl::OkStatus();
}

// Keras HEAD: TFDatasetAdapter._distribute_dataset with num_data_shards and
// data_shard_id.
absl::StatusOr<DatasetPlan> PlanCurrent(const DatasetJob& job, int64_t g) {
  if (!job.auto_shard || job.num_processes <= 1) return Passthrough(g);
  if (g < 0) return UnknownBatchSize();
  const int64_t r = job.num_model_replicas;
  const int64_t p = job.num_processes;
  if (r == 1) return Replicate(g);
  const int64_t shards = NumDataShards(r, p);
  const int64_t index = DataShardId(r, p, job.process_id);
  if (index >= shards) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Process ", job.process_id, " maps to data shard ", index, " but there are only ",
        shards, " shards: num_processes=", p, " is not divisible by num_model_replicas=", r));
  }
  if (g % shards != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Global batch size must be divisible by the number of shards. `global_batch_size`=",
        g, " and `num_shards`=", shards));
  }
  return Shard(g, g / shards, shards, index);
}

// TF's legacy rebatch, which its auto-shard rewrite puts in place of the
// rebatch Keras 3.0 asks for: each global batch cut into `shards` slices of
// ceil(G / shards) rows, so the last slices are short or empty (see the header).
DatasetPlan LegacyRebatchShard(int64_t g, int64_t shards, int64_t index) {
  const int64_t slice = g / shards + (g % shards != 0 ? 1 : 0);
  // index * slice < shards * slice <= G + shards - 1: no overflow.
  const int64_t rows = std::clamp(g - index * slice, int64_t{0}, slice);
  return Shard(g, rows, shards, index);
}

// Keras 3.0-3.4 DataParallel.distribute_dataset, as TF runs it.
absl::StatusOr<DatasetPlan> PlanKeras30DataParallel(const DatasetJob& job, int64_t g) {
  DatasetPlan plan = LegacyRebatchShard(g, job.num_processes, job.process_id);
  plan.rebatch_sizes = BatchSizesForWorker(g, job.num_processes, 1, job.process_id);
  return plan;
}

// Keras 3.0-3.4 ModelParallel.distribute_dataset: shards from the local
// device count (the flaw documented in the header is kept on purpose).
absl::StatusOr<DatasetPlan> PlanKeras30ModelParallel(const DatasetJob& job, int64_t g) {
  const int64_t b = job.mesh_batch_size;
  const int64_t local = job.mesh_size / job.num_processes;
  if (b < local) return Replicate(g);
  if (local == 0 || b % local != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The Batch dimension of the mesh is not compatible with the local worker device "
        "count. Mesh batch dim = ", b, " and local device count = ", local));
  }
  const int64_t shards = b / local;
  return LegacyRebatchShard(g, shards, job.process_id % shards);
}

absl::StatusOr<DatasetPlan> PlanKeras30(const DatasetJob& job, int64_t g) {
  if (!job.auto_shard || job.num_processes <= 1) return Passthrough(g);
  if (g < 0) return UnknownBatchSize();
  return job.model_parallel ? PlanKeras30ModelParallel(job, g)
                            : PlanKeras30DataParallel(job, g);
}

}  // namespace

int64_t NumDataShards(int64_t num_model_replicas, int64_t num_processes) {
  return std::min(num_model_replicas, num_processes);
}

int64_t DataShardId(int64_t num_model_replicas, int64_t num_processes, int64_t process_id) {
  if (num_model_replicas >= num_processes) return process_id;
  return process_id / (num_processes / num_model_replicas);
}

std::vector<int64_t> BatchSizesForWorker(int64_t global_batch_size, int64_t num_workers,
                                         int64_t num_replicas_per_worker,
                                         int64_t worker_index) {
  if (num_workers < 1 || num_replicas_per_worker < 1 || global_batch_size < 0 ||
      worker_index < 0 || worker_index >= num_workers ||
      num_workers > std::numeric_limits<int64_t>::max() / num_replicas_per_worker) {
    return {};
  }
  const int64_t n = num_workers * num_replicas_per_worker;
  const int64_t offset = worker_index * num_replicas_per_worker;
  const int64_t floor = global_batch_size / n;
  const int64_t num_ceil = global_batch_size - n * floor;
  std::vector<int64_t> sizes(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = (i + offset) % n;  // rotate left by `offset`
    sizes[i] = floor + (j < num_ceil ? 1 : 0);
  }
  return sizes;
}

absl::StatusOr<DatasetPlan> PlanDataset(const DatasetJob& job, int64_t global_batch_size,
                                        DatasetMode mode) {
  if (absl::Status s = CheckJob(job); !s.ok()) return s;
  if (mode == DatasetMode::kKeras30) return PlanKeras30(job, global_batch_size);
  absl::StatusOr<DatasetPlan> plan = PlanCurrent(job, global_batch_size);
  if (plan.ok() && job.auto_shard) {
    plan->interleave_num_shards = NumDataShards(job.num_model_replicas, job.num_processes);
    plan->interleave_shard_index =
        DataShardId(job.num_model_replicas, job.num_processes, job.process_id);
  }
  return plan;
}

}  // namespace tessera
