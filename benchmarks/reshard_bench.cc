// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The resharding plan on 4,096 devices against one index map on the same
// mesh (issue 13's target: the plan in under 10x the index map's time for
// every pair of layouts).
//
// BM_ReshardPlan times, alternately in each iteration and in thread CPU
// time, one FillIndexMap of the destination sharding (into a buffer
// allocated once) and one ReshardIntervals::Create: the plan with its piece
// counts and its bytes by locality, pieces listed only on request. The
// reported time is the plan's; the counter `vs_index_map` is plan time /
// index-map time over the run. `with_first_query` adds the plan's first
// Piece query, which builds what only per-device queries need (each source
// device's chunk positions, the shards each process holds, each
// destination's first piece): a restore pays it once per plan.
// BM_ReshardPlanListed times ReshardPlan::Create,
// which lists every transfer, for the pairs where that is affordable: its
// cost is the number of transfers. At exit the program prints each pair's
// ratio and the worst.
//
// 4,096 devices, 8 per process (process p holds ids 8p..8p+7), on a
// (16, 16, 16) mesh "a", "b", "c", a (64, 64) mesh "x", "y" and a (4096,)
// mesh "all" over the same devices; tensor (4096, 4096, 4096) unless said:
//   same          P(a, b, c) -> P(a, b, c): every device keeps its shard.
//   move_axes     P(a, b, c) -> P(b, a, c): one piece per destination, from
//                 another device of the process.
//   transpose     P(a, b, c) -> P(c, b, a): one piece, across processes.
//   remesh        P(a, b, c) on the cube -> P(x, y, None) on (64, 64): 16
//                 pieces per destination.
//   gather_two    P(a, b, c) -> P((a, b), None, None): two dimensions
//                 gathered whole, 256 pieces per destination.
//   gather_all    P(a, b, c) -> P(None, None, None): 4,096 pieces per
//                 destination (16.7M in all).
//   swap_1d       P(all, None, None) -> P(None, all, None) on (4096,): 4,096
//                 pieces per destination.
//   groups        P((c, a), b, None) -> P(a, (b, c), None): axis groups
//                 against mesh order on both sides.
//   replicated    P(a, None, None) (256 replicas) -> P(x, y, None).
//   uneven        chunk-flat (4095, 4097, 1000): P(a, b, c) -> P(x, y, None).
//   uneven_nested chunk-nested (4095, 4097, 1000): P((a, b), c, None) ->
//                 P(x, None, y).
//   strided_procs remesh's pair with process p holding ids p, p+512, ...:
//                 no process holds a box of source shards.
//   uneven_groups chunk-flat (4095, 4097, 1000) P((c, a), b, None) ->
//                 chunk-nested P(a, (b, c), None): uneven, groups against
//                 mesh order, two modes.
//   uneven_procs  remesh's pair with processes of 7 and 9 devices in turn:
//                 no regular process pattern, so the same-process bytes walk
//                 the devices (the same-device bytes are digit sums).
//   reordered     remesh's pair with the (64, 64) mesh listing the ids column
//                 by column: a transpose of the source's order, so the
//                 digits of one index are the other's reordered.
// Every pair but uneven_procs sums its totals over digits of the device
// index (core/reshard_plan.h).
//
// Usage: reshard_bench [--benchmark_* flags]; report medians with
//   --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
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

constexpr int64_t kDevices = 4096;

// How the 4,096 devices fall into processes and into the mesh.
enum class Devices {
  kBlocks,      // 8 per process, process p holds ids 8p..8p+7; mesh order = id order
  kStrided,     // 8 per process, process p holds ids p, p+512, ...
  kUneven,      // processes of 7 and 9 devices in turn (blocks of ids)
  kTransposed,  // blocks of 8, but a 2-D mesh lists the ids column by column
};

tessera::MeshPtr Mesh(std::vector<int64_t> shape, std::vector<std::string> names,
                      Devices kind = Devices::kBlocks) {
  std::vector<tessera::Device> devices(kDevices);
  for (int64_t i = 0; i < kDevices; ++i) {
    tessera::Device& d = devices[static_cast<size_t>(i)];
    d.id = i;
    if (kind == Devices::kTransposed && shape.size() == 2) {
      d.id = i % shape[0] * shape[1] + i / shape[0];
    }
    switch (kind) {
      case Devices::kStrided:
        d.process_index = d.id % (kDevices / 8);
        break;
      case Devices::kUneven:  // 16 ids per two processes: 7 then 9
        d.process_index = d.id / 16 * 2 + (d.id % 16 < 7 ? 0 : 1);
        break;
      default:
        d.process_index = d.id / 8;
    }
    d.local_ordinal = i;  // unused by the plan
  }
  return OrThrow(
      tessera::DeviceMesh::Create(std::move(shape), std::move(names), std::move(devices)));
}

tessera::Sharding Make(tessera::MeshPtr mesh, std::vector<tessera::AxisGroup> axes,
                       std::vector<int64_t> shape = {4096, 4096, 4096},
                       tessera::ShardMode mode = tessera::ShardMode::kStrict) {
  tessera::TensorLayout layout = OrThrow(tessera::TensorLayout::Create(std::move(axes), mesh));
  return OrThrow(tessera::Sharding::Create(layout, std::move(shape), mode));
}

enum class Pair {
  kSame, kMoveAxes, kTranspose, kRemesh, kGatherTwo, kGatherAll, kSwap1d, kGroups,
  kReplicated, kUneven, kUnevenNested, kStridedProcesses, kUnevenGroups, kUnevenProcesses,
  kReordered,
};

struct Shardings {
  tessera::Sharding source, destination;
};

Shardings PairOf(Pair pair) {
  const Devices kind = pair == Pair::kStridedProcesses ? Devices::kStrided
                       : pair == Pair::kUnevenProcesses ? Devices::kUneven
                       : pair == Pair::kReordered       ? Devices::kTransposed
                                                        : Devices::kBlocks;
  const tessera::MeshPtr cube = Mesh({16, 16, 16}, {"a", "b", "c"},
                                     kind == Devices::kTransposed ? Devices::kBlocks : kind);
  const tessera::MeshPtr square = Mesh({64, 64}, {"x", "y"}, kind);
  const tessera::MeshPtr line = Mesh({kDevices}, {"all"});
  const std::vector<int64_t> odd = {4095, 4097, 1000};
  const tessera::ShardMode flat = tessera::ShardMode::kChunkFlat;
  const tessera::ShardMode nested = tessera::ShardMode::kChunkNested;
  switch (pair) {
    case Pair::kSame:
      return {Make(cube, {{"a"}, {"b"}, {"c"}}), Make(cube, {{"a"}, {"b"}, {"c"}})};
    case Pair::kMoveAxes:
      return {Make(cube, {{"a"}, {"b"}, {"c"}}), Make(cube, {{"b"}, {"a"}, {"c"}})};
    case Pair::kTranspose:
      return {Make(cube, {{"a"}, {"b"}, {"c"}}), Make(cube, {{"c"}, {"b"}, {"a"}})};
    case Pair::kRemesh:
    case Pair::kStridedProcesses:
    case Pair::kUnevenProcesses:
    case Pair::kReordered:
      return {Make(cube, {{"a"}, {"b"}, {"c"}}), Make(square, {{"x"}, {"y"}, {}})};
    case Pair::kGatherTwo:
      return {Make(cube, {{"a"}, {"b"}, {"c"}}), Make(cube, {{"a", "b"}, {}, {}})};
    case Pair::kGatherAll:
      return {Make(cube, {{"a"}, {"b"}, {"c"}}), Make(cube, {{}, {}, {}})};
    case Pair::kSwap1d:
      return {Make(line, {{"all"}, {}, {}}), Make(line, {{}, {"all"}, {}})};
    case Pair::kGroups:
      return {Make(cube, {{"c", "a"}, {"b"}, {}}), Make(cube, {{"a"}, {"b", "c"}, {}})};
    case Pair::kReplicated:
      return {Make(cube, {{"a"}, {}, {}}), Make(square, {{"x"}, {"y"}, {}})};
    case Pair::kUneven:
      return {Make(cube, {{"a"}, {"b"}, {"c"}}, odd, flat),
              Make(square, {{"x"}, {"y"}, {}}, odd, flat)};
    case Pair::kUnevenNested:
      return {Make(cube, {{"a", "b"}, {"c"}, {}}, odd, nested),
              Make(square, {{"x"}, {}, {"y"}}, odd, nested)};
    case Pair::kUnevenGroups:
      return {Make(cube, {{"c", "a"}, {"b"}, {}}, odd, flat),
              Make(cube, {{"a"}, {"b", "c"}, {}}, odd, nested)};
  }
  throw std::logic_error("unknown pair");
}

// This thread's CPU time: the machine is shared, and a wall clock charges a
// plan for every preemption while a 15 us index map rarely sees one.
double ThreadSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// The last run's ratios per pair (the plan; the plan and its first
// per-device query), printed at exit.
std::map<std::string, std::pair<double, double>>& Ratios() {
  static std::map<std::string, std::pair<double, double>> ratios;
  return ratios;
}

void BM_ReshardPlan(benchmark::State& state, Pair pair, const char* name) {
  const Shardings s = PairOf(pair);
  std::vector<int64_t> map(OrThrow(s.destination.IndexMapSize()));
  double map_seconds = 0;
  double plan_seconds = 0;
  double query_seconds = 0;
  size_t pieces = 0;
  for (auto _ : state) {
    double start = ThreadSeconds();
    absl::Status status = s.destination.FillIndexMap(absl::MakeSpan(map));
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(map.data());
    map_seconds += ThreadSeconds() - start;
    start = ThreadSeconds();
    tessera::ReshardIntervals plan =
        OrThrow(tessera::ReshardIntervals::Create(s.source, s.destination, 4));
    benchmark::DoNotOptimize(plan);
    const double seconds = ThreadSeconds() - start;
    plan_seconds += seconds;
    state.SetIterationTime(seconds);
    pieces = plan.num_pieces();
    // The first per-device query builds what only queries need.
    start = ThreadSeconds();
    tessera::ReshardPiece piece;
    absl::Status queried = plan.Piece(0, piece);
    benchmark::DoNotOptimize(queried);
    query_seconds += ThreadSeconds() - start;
  }
  state.counters["vs_index_map"] = plan_seconds / map_seconds;
  state.counters["index_map_us"] = map_seconds / static_cast<double>(state.iterations()) * 1e6;
  state.counters["pieces"] = static_cast<double>(pieces);
  state.counters["with_first_query"] = (plan_seconds + query_seconds) / map_seconds;
  Ratios()[name] = {plan_seconds / map_seconds, (plan_seconds + query_seconds) / map_seconds};
}

// Every transfer listed (ReshardPlan::Create).
void BM_ReshardPlanListed(benchmark::State& state, Pair pair) {
  const Shardings s = PairOf(pair);
  size_t transfers = 0;
  for (auto _ : state) {
    const double start = ThreadSeconds();
    tessera::ReshardPlan plan = OrThrow(tessera::ReshardPlan::Create(s.source, s.destination, 4));
    benchmark::DoNotOptimize(plan.transfers().data());
    state.SetIterationTime(ThreadSeconds() - start);
    transfers = plan.size();
  }
  state.counters["transfers"] = static_cast<double>(transfers);
}

}  // namespace

#define TESSERA_RESHARD_PAIR(name, pair) \
  BENCHMARK_CAPTURE(BM_ReshardPlan, name, pair, #name)   \
      ->UseManualTime()                                  \
      ->Unit(benchmark::kMicrosecond)
TESSERA_RESHARD_PAIR(same, Pair::kSame);
TESSERA_RESHARD_PAIR(move_axes, Pair::kMoveAxes);
TESSERA_RESHARD_PAIR(transpose, Pair::kTranspose);
TESSERA_RESHARD_PAIR(remesh, Pair::kRemesh);
TESSERA_RESHARD_PAIR(gather_two, Pair::kGatherTwo);
TESSERA_RESHARD_PAIR(gather_all, Pair::kGatherAll);
TESSERA_RESHARD_PAIR(swap_1d, Pair::kSwap1d);
TESSERA_RESHARD_PAIR(groups, Pair::kGroups);
TESSERA_RESHARD_PAIR(replicated, Pair::kReplicated);
TESSERA_RESHARD_PAIR(uneven, Pair::kUneven);
TESSERA_RESHARD_PAIR(uneven_nested, Pair::kUnevenNested);
TESSERA_RESHARD_PAIR(strided_procs, Pair::kStridedProcesses);
TESSERA_RESHARD_PAIR(uneven_groups, Pair::kUnevenGroups);
TESSERA_RESHARD_PAIR(uneven_procs, Pair::kUnevenProcesses);
TESSERA_RESHARD_PAIR(reordered, Pair::kReordered);
BENCHMARK_CAPTURE(BM_ReshardPlanListed, move_axes, Pair::kMoveAxes)
    ->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ReshardPlanListed, remesh, Pair::kRemesh)
    ->UseManualTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  const auto worst = std::max_element(
      Ratios().begin(), Ratios().end(),
      [](const auto& a, const auto& b) { return a.second.first < b.second.first; });
  const auto worst_queried = std::max_element(
      Ratios().begin(), Ratios().end(),
      [](const auto& a, const auto& b) { return a.second.second < b.second.second; });
  for (const auto& [name, ratio] : Ratios()) {
    std::printf("%-14s %8.2fx one index map (%.2fx with the first query)\n", name.c_str(),
                ratio.first, ratio.second);
  }
  if (worst != Ratios().end()) {
    std::printf("worst pair: %s at %.2fx one index map (target: under 10x)\n",
                worst->first.c_str(), worst->second.first);
    std::printf("worst with the first query: %s at %.2fx\n", worst_queried->first.c_str(),
                worst_queried->second.second);
  }
  return 0;
}
