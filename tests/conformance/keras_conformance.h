// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shared by the Keras conformance tests (vectors K1-K159 of
// shared/conformance/keras_cases.md): building the distributions the vectors
// describe, and the pure arithmetic that turns a dataset plan or a shard
// count and id into the rows or batches a Keras test observes.
#ifndef TESSERA_TESTS_CONFORMANCE_KERAS_CONFORMANCE_H_
#define TESSERA_TESTS_CONFORMANCE_KERAS_CONFORMANCE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/dataset_plan.h"
#include "core/distribution.h"
#include "core/layout_map.h"
#include "tests/core/testing.h"

namespace tessera {
namespace conformance {

// Keras's "forced P/pid": the test overrides what the distribution read from
// the runtime.
inline DistributionOptions Forced(int64_t num_processes, int64_t process_id,
                                  DatasetMode mode = DatasetMode::kCurrent) {
  DistributionOptions options;
  options.process = ProcessInfo{num_processes, process_id};
  options.dataset_mode = mode;
  return options;
}

enum class Policy { kDataParallel, kModelParallel };

// DataParallel(devices=devs(mesh[0])) for a one-entry mesh shape; otherwise
// ModelParallel(layout_map=LayoutMap(DeviceMesh(mesh, ["batch", "model"])))
// with the default batch axis. Several-entry shapes with kDataParallel use
// the mesh directly (DataParallel(device_mesh=...)).
inline absl::StatusOr<DistributionPtr> MakeDistribution(Policy policy,
                                                        const std::vector<int64_t>& mesh_shape,
                                                        const DistributionOptions& options) {
  std::vector<std::string> names = {"batch", "model", "extra"};
  names.resize(mesh_shape.size());
  MeshPtr mesh = testing::CpuMesh(mesh_shape, names);
  if (policy == Policy::kDataParallel) {
    if (mesh_shape.size() == 1) return Distribution::DataParallelOverDevices(mesh->devices(), options);
    return Distribution::DataParallel(mesh, options);
  }
  return Distribution::ModelParallel(LayoutMap(mesh), "", options);
}

// The rows of range(num_rows).batch(G) a process reads under `plan`, one
// vector per global step: the whole batch (passthrough, replicate), or rows
// [t*G + index*per, t*G + (index+1)*per) (shard; keras.md §3.1 step 5).
// Partial last batches are left out, as the vectors do.
inline std::vector<std::vector<int64_t>> RowsRead(const DatasetPlan& plan, int64_t num_rows) {
  const int64_t g = plan.global_batch_size;
  const bool shard = plan.kind == DatasetPlan::Kind::kShard;
  const int64_t per = shard ? plan.per_process_batch_size : g;
  const int64_t offset = shard ? plan.shard_index * per : 0;
  std::vector<std::vector<int64_t>> batches;
  for (int64_t start = 0; start + g <= num_rows; start += g) {
    std::vector<int64_t> batch;
    for (int64_t row = start + offset; row < start + offset + per; ++row) batch.push_back(row);
    batches.push_back(std::move(batch));
  }
  return batches;
}

// Indices i of range(n) with i % num_shards == shard_id: Keras HEAD's
// batch-level interleave (array and PyDataset adapters), the iterable torch
// loader filter, and DistributedBatchSampler(drop_last=False).
inline std::vector<int64_t> Interleave(int64_t n, int64_t num_shards, int64_t shard_id) {
  std::vector<int64_t> picked;
  for (int64_t i = shard_id; i < n; i += num_shards) picked.push_back(i);
  return picked;
}

}  // namespace conformance
}  // namespace tessera

#endif  // TESSERA_TESTS_CONFORMANCE_KERAS_CONFORMANCE_H_
