// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Host scatter and gather of a 1 GiB float32 tensor (16384 x 16384) over a
// 2x4 mesh, against memcpy of the same bytes in the same run.
//
// Each iteration times one memcpy of the 1 GiB and one scatter (or gather),
// alternately, so both see the same machine load; the reported time is the
// copy's, and the counter `vs_memcpy` is memcpy time / copy time over the
// run (1.0: as fast as memcpy; the target is >= 0.8).
//
// Layouts: "rows" P(('batch', 'model'), None) (each shard one contiguous
// block of 2048 rows) and
// "tiled" P('batch', 'model') (each shard 8192 strided rows of 16 KiB).
//
// Usage: copy_bench [--benchmark_* flags]; report medians with
//   --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "core/scatter_gather.h"
#include "core/shard.h"

namespace {

template <typename T>
T OrThrow(absl::StatusOr<T> value) {
  if (!value.ok()) throw std::runtime_error(value.status().ToString());
  return *std::move(value);
}

void OrThrow(const absl::Status& status) {
  if (!status.ok()) throw std::runtime_error(status.ToString());
}

constexpr int64_t kSide = 16384;  // 16384^2 float32 = 1 GiB
constexpr size_t kElement = 4;

// Every device holds 1/8 of the tensor, so each shard buffer is 128 MiB.
tessera::Sharding MakeSharding(bool tiled) {
  std::vector<tessera::Device> devices(8);
  for (int64_t id = 0; id < 8; ++id) devices[static_cast<size_t>(id)].id = id;
  tessera::MeshPtr mesh =
      OrThrow(tessera::DeviceMesh::Create({2, 4}, {"batch", "model"}, std::move(devices)));
  std::vector<tessera::AxisGroup> axes =
      tiled ? std::vector<tessera::AxisGroup>{{"batch"}, {"model"}}
            : std::vector<tessera::AxisGroup>{{"batch", "model"}, {}};
  tessera::TensorLayout layout = OrThrow(tessera::TensorLayout::Create(std::move(axes), mesh));
  return OrThrow(tessera::Sharding::Create(layout, {kSide, kSide}, tessera::ShardMode::kStrict));
}

// The buffers, allocated and touched once for every benchmark (3 GiB).
struct Buffers {
  std::vector<char> global;
  std::vector<char> other;  // memcpy target, and gather's output
  std::vector<std::vector<char>> shards;

  static Buffers& Get() {
    static Buffers* buffers = [] {
      auto* b = new Buffers;
      const size_t bytes = static_cast<size_t>(kSide * kSide) * kElement;
      b->global.assign(bytes, 1);
      b->other.assign(bytes, 2);
      b->shards.assign(8, std::vector<char>(bytes / 8, 3));
      return b;
    }();
    return *buffers;
  }
};

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void Run(benchmark::State& state, bool tiled, bool scatter, size_t threads) {
  const tessera::Sharding sharding = MakeSharding(tiled);
  Buffers& b = Buffers::Get();
  std::vector<void*> shards;
  std::vector<const void*> const_shards;
  for (auto& shard : b.shards) {
    shards.push_back(shard.data());
    const_shards.push_back(shard.data());
  }
  tessera::CopyOptions options;
  options.threads = threads;
  double memcpy_seconds = 0;
  double copy_seconds = 0;
  for (auto _ : state) {
    Clock::time_point start = Clock::now();
    std::memcpy(b.other.data(), b.global.data(), b.global.size());
    benchmark::ClobberMemory();
    memcpy_seconds += Seconds(start);
    start = Clock::now();
    if (scatter) {
      OrThrow(tessera::Scatter(sharding, b.global.data(), b.global.size(), kElement, shards,
                               options));
    } else {
      OrThrow(tessera::Gather(sharding, const_shards, kElement, b.other.data(), b.other.size(),
                              options));
    }
    benchmark::ClobberMemory();
    const double seconds = Seconds(start);
    copy_seconds += seconds;
    state.SetIterationTime(seconds);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(b.global.size()));
  state.counters["vs_memcpy"] = memcpy_seconds / copy_seconds;
  state.counters["memcpy_GiBps"] =
      static_cast<double>(state.iterations()) / memcpy_seconds;  // 1 GiB per iteration
}

void BM_Scatter(benchmark::State& state, bool tiled, size_t threads) {
  Run(state, tiled, true, threads);
}
void BM_Gather(benchmark::State& state, bool tiled, size_t threads) {
  Run(state, tiled, false, threads);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Scatter, rows_1thread, false, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Scatter, tiled_1thread, true, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Scatter, tiled_2threads, true, 2)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gather, rows_1thread, false, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gather, tiled_1thread, true, 1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Gather, tiled_2threads, true, 2)->UseManualTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
