// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shard math in the C++ core: the full device -> index-ranges map of a
// rank-3 tensor (what JAX's devices_indices_map returns) on a 512-device mesh
// (8x8x8) and on a 16,384-device mesh (16x32x32), and the per-device queries
// (ranges, replica id) that avoid building it.
//
// Two layouts per mesh: every dimension on its own axis ("tiled",
// P('a', 'b', 'c')), and one dimension over a reversed group with an unused
// axis ("grouped", P(('c', 'a'), None, None): replica ids from 'b').
//
// Usage: shard_bench [--benchmark_* flags]; report medians with
//   --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "core/shard.h"

namespace {

template <typename T>
T OrThrow(absl::StatusOr<T> value) {
  if (!value.ok()) throw std::runtime_error(value.status().ToString());
  return *std::move(value);
}

tessera::MeshPtr Mesh(std::vector<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  std::vector<tessera::Device> devices(static_cast<size_t>(count));
  for (int64_t id = 0; id < count; ++id) {
    devices[static_cast<size_t>(id)].id = id;
    devices[static_cast<size_t>(id)].local_ordinal = id;
  }
  return OrThrow(tessera::DeviceMesh::Create(std::move(shape), {"a", "b", "c"},
                                             std::move(devices)));
}

enum class Spec { kTiled, kGrouped };

tessera::Sharding MakeSharding(const std::vector<int64_t>& mesh_shape, Spec spec) {
  std::vector<tessera::AxisGroup> axes =
      spec == Spec::kTiled ? std::vector<tessera::AxisGroup>{{"a"}, {"b"}, {"c"}}
                           : std::vector<tessera::AxisGroup>{{"c", "a"}, {}, {}};
  tessera::TensorLayout layout =
      OrThrow(tessera::TensorLayout::Create(std::move(axes), Mesh(mesh_shape)));
  return OrThrow(tessera::Sharding::Create(layout, {8192, 8192, 8192},
                                           tessera::ShardMode::kStrict));
}

const std::vector<int64_t> k512 = {8, 8, 8};
const std::vector<int64_t> k16k = {16, 32, 32};

// The whole map into a caller's buffer.
void BM_IndexMapFill(benchmark::State& state, std::vector<int64_t> mesh, Spec spec) {
  const tessera::Sharding sharding = MakeSharding(mesh, spec);
  std::vector<int64_t> out(OrThrow(sharding.IndexMapSize()));
  for (auto _ : state) {
    absl::Status status = sharding.FillIndexMap(absl::MakeSpan(out));
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["devices"] = static_cast<double>(sharding.num_devices());
}

// From a layout and a shape to the map, as devices_indices_map does on a
// cache miss: Sharding::Create plus an allocated map.
void BM_IndexMapFromLayout(benchmark::State& state, std::vector<int64_t> mesh, Spec spec) {
  const tessera::Sharding prototype = MakeSharding(mesh, spec);
  const tessera::TensorLayout layout = prototype.layout();
  for (auto _ : state) {
    tessera::Sharding sharding =
        OrThrow(tessera::Sharding::Create(layout, prototype.shape(), tessera::ShardMode::kStrict));
    std::vector<int64_t> map = OrThrow(sharding.IndexMap());
    benchmark::DoNotOptimize(map.data());
  }
  state.counters["devices"] = static_cast<double>(prototype.num_devices());
}

// One device's ranges, cycling over the devices.
void BM_DeviceRanges(benchmark::State& state, std::vector<int64_t> mesh, Spec spec) {
  const tessera::Sharding sharding = MakeSharding(mesh, spec);
  std::vector<tessera::IndexRange> out(sharding.rank());
  int64_t device = 0;
  for (auto _ : state) {
    absl::Status status = sharding.DeviceRanges(device, absl::MakeSpan(out));
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(out.data());
    if (++device == sharding.num_devices()) device = 0;
  }
}

// One device's replica id, cycling over the devices.
void BM_ReplicaId(benchmark::State& state, std::vector<int64_t> mesh, Spec spec) {
  const tessera::Sharding sharding = MakeSharding(mesh, spec);
  int64_t device = 0;
  for (auto _ : state) {
    auto id = sharding.ReplicaId(device);
    benchmark::DoNotOptimize(id);
    if (++device == sharding.num_devices()) device = 0;
  }
}

// The distinct shards with their holders.
void BM_DistinctShards(benchmark::State& state, std::vector<int64_t> mesh, Spec spec) {
  const tessera::Sharding sharding = MakeSharding(mesh, spec);
  for (auto _ : state) {
    std::vector<tessera::DistinctShard> shards = sharding.DistinctShards();
    benchmark::DoNotOptimize(shards.data());
  }
}

}  // namespace

BENCHMARK_CAPTURE(BM_IndexMapFill, tiled_512, k512, Spec::kTiled);
BENCHMARK_CAPTURE(BM_IndexMapFill, grouped_512, k512, Spec::kGrouped);
BENCHMARK_CAPTURE(BM_IndexMapFill, tiled_16384, k16k, Spec::kTiled);
BENCHMARK_CAPTURE(BM_IndexMapFill, grouped_16384, k16k, Spec::kGrouped);
BENCHMARK_CAPTURE(BM_IndexMapFromLayout, tiled_512, k512, Spec::kTiled);
BENCHMARK_CAPTURE(BM_IndexMapFromLayout, tiled_16384, k16k, Spec::kTiled);
BENCHMARK_CAPTURE(BM_DeviceRanges, tiled_512, k512, Spec::kTiled);
BENCHMARK_CAPTURE(BM_DeviceRanges, tiled_16384, k16k, Spec::kTiled);
BENCHMARK_CAPTURE(BM_DeviceRanges, grouped_16384, k16k, Spec::kGrouped);
BENCHMARK_CAPTURE(BM_ReplicaId, grouped_512, k512, Spec::kGrouped);
BENCHMARK_CAPTURE(BM_ReplicaId, grouped_16384, k16k, Spec::kGrouped);
BENCHMARK_CAPTURE(BM_DistinctShards, grouped_16384, k16k, Spec::kGrouped);

BENCHMARK_MAIN();
