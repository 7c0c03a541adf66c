// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The resharding plan on 4,096 devices against one index map on the same
// mesh (the target: the plan in under 10x the index map's time).
//
// Each iteration times one FillIndexMap of the destination sharding and one
// ReshardPlan::Create, alternately, in thread CPU time; the reported time is
// the plan's and the counter `vs_index_map` is plan time / index-map time
// over the run (FillIndexMap into a buffer allocated once);
// `vs_index_map_alloc` compares with IndexMap(), which returns a new vector as
// the plan does.
//
// Pairs, on a (16, 16, 16) mesh "a", "b", "c" and a (64, 64) mesh "x", "y"
// over the same devices, tensor (4096, 4096, 4096):
//   move_axes  P('a', 'b', 'c') -> P('b', 'a', 'c'), same mesh: one piece
//              per destination, from another device of the process.
//   remesh     P('a', 'b', 'c') on (16,16,16) -> P('x', 'y', None) on (64, 64):
//              16 pieces per destination (65,536 transfers).
//   all_gather P('a', 'b', 'c') -> P(('a', 'b'), None, None): 256 pieces per
//              destination (1M transfers): the output dominates.
//
// Usage: reshard_bench [--benchmark_* flags]; report medians with
//   --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <time.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "core/reshard_plan.h"
#include "core/shard.h"

namespace {

template <typename T>
T OrThrow(absl::StatusOr<T> value) {
  if (!value.ok()) throw std::runtime_error(value.status().ToString());
  return *std::move(value);
}

// 4,096 devices, 8 per process.
tessera::MeshPtr Mesh(std::vector<int64_t> shape, std::vector<std::string> names) {
  std::vector<tessera::Device> devices(4096);
  for (int64_t id = 0; id < 4096; ++id) {
    devices[static_cast<size_t>(id)].id = id;
    devices[static_cast<size_t>(id)].process_index = id / 8;
    devices[static_cast<size_t>(id)].local_ordinal = id % 8;
  }
  return OrThrow(
      tessera::DeviceMesh::Create(std::move(shape), std::move(names), std::move(devices)));
}

tessera::Sharding Make(tessera::MeshPtr mesh, std::vector<tessera::AxisGroup> axes) {
  tessera::TensorLayout layout = OrThrow(tessera::TensorLayout::Create(std::move(axes), mesh));
  return OrThrow(
      tessera::Sharding::Create(layout, {4096, 4096, 4096}, tessera::ShardMode::kStrict));
}

enum class Pair { kMoveAxes, kRemesh, kAllGather };

// This thread's CPU time: the machine is shared, and a wall clock charges a
// 500 us plan for every preemption while a 30 us index map rarely sees one.
double ThreadSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

void BM_ReshardPlan(benchmark::State& state, Pair pair) {
  const tessera::MeshPtr cube = Mesh({16, 16, 16}, {"a", "b", "c"});
  const tessera::Sharding source = Make(cube, {{"a"}, {"b"}, {"c"}});
  const tessera::Sharding destination =
      pair == Pair::kMoveAxes ? Make(cube, {{"b"}, {"a"}, {"c"}})
      : pair == Pair::kRemesh ? Make(Mesh({64, 64}, {"x", "y"}), {{"x"}, {"y"}, {}})
                              : Make(cube, {{"a", "b"}, {}, {}});
  std::vector<int64_t> map(OrThrow(destination.IndexMapSize()));
  double map_seconds = 0;
  double alloc_seconds = 0;  // IndexMap(): the map in a new vector
  double plan_seconds = 0;
  size_t transfers = 0;
  for (auto _ : state) {
    double start = ThreadSeconds();
    absl::Status status = destination.FillIndexMap(absl::MakeSpan(map));
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(map.data());
    map_seconds += ThreadSeconds() - start;
    start = ThreadSeconds();
    std::vector<int64_t> allocated = OrThrow(destination.IndexMap());
    benchmark::DoNotOptimize(allocated.data());
    allocated = {};
    alloc_seconds += ThreadSeconds() - start;
    start = ThreadSeconds();
    tessera::ReshardPlan plan = OrThrow(tessera::ReshardPlan::Create(source, destination, 4));
    benchmark::DoNotOptimize(plan.transfers().data());
    const double seconds = ThreadSeconds() - start;
    plan_seconds += seconds;
    state.SetIterationTime(seconds);
    transfers = plan.size();
  }
  state.counters["vs_index_map"] = plan_seconds / map_seconds;
  state.counters["vs_index_map_alloc"] = plan_seconds / alloc_seconds;
  state.counters["index_map_us"] = map_seconds / static_cast<double>(state.iterations()) * 1e6;
  state.counters["transfers"] = static_cast<double>(transfers);
}

}  // namespace

BENCHMARK_CAPTURE(BM_ReshardPlan, move_axes, Pair::kMoveAxes)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ReshardPlan, remesh, Pair::kRemesh)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ReshardPlan, all_gather, Pair::kAllGather)->UseManualTime()->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
