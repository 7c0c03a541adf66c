// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Layout-map lookup in the C++ core: 10, 100 and 1,000 rules over
// transformer-style paths, for a path that is a key (exact), one that exactly
// one pattern matches (regex) and one that none matches (none), each asked
// again and again (answered from the map's memo after the first time), and
// for a stream of paths the map has not seen lately (distinct).
//
// Usage: layout_map_bench WORKLOAD_DIR [--benchmark_* flags]
// (WORKLOAD_DIR as written by layout_map_workload.py; meson passes it.)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "benchmarks/workload.h"
#include "core/layout_map.h"

namespace {

std::shared_ptr<const tessera::LayoutMap> BuildMap(const std::string& dir, int count) {
  auto mesh = tessera::DeviceMesh::CreateFromStrings(
      {2, 4}, {"batch", "model"},
      {"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5", "cpu:6", "cpu:7"});
  if (!mesh.ok()) throw std::runtime_error(mesh.status().ToString());
  auto map = std::make_shared<tessera::LayoutMap>(*mesh);
  for (const std::string& key : tessera_bench::ReadRules(dir, count)) {
    auto layout = tessera::TensorLayout::Create({{}, {"model"}});
    if (!layout.ok()) throw std::runtime_error(layout.status().ToString());
    absl::Status status = map->Set(key, *std::move(layout));
    if (!status.ok()) throw std::runtime_error(status.ToString());
  }
  return map;
}

// Find: the rule index, what a distribution needs to pick a layout.
void BM_Find(benchmark::State& state, std::shared_ptr<const tessera::LayoutMap> map,
             std::string path) {
  for (auto _ : state) {
    auto index = map->Find(path);
    benchmark::DoNotOptimize(index);
  }
}

// Find over paths it has not seen lately (cycling through more than the map
// remembers): the matcher's own cost.
void BM_FindDistinct(benchmark::State& state, std::shared_ptr<const tessera::LayoutMap> map,
                     std::shared_ptr<const std::vector<std::string>> paths) {
  size_t next = 0;
  for (auto _ : state) {
    auto index = map->Find((*paths)[next]);
    benchmark::DoNotOptimize(index);
    next = next + 1 == paths->size() ? 0 : next + 1;
  }
}

// Get: the layout itself (a shared_ptr copy), as Keras's __getitem__.
void BM_Get(benchmark::State& state, std::shared_ptr<const tessera::LayoutMap> map,
            std::string path) {
  for (auto _ : state) {
    auto layout = map->Get(path);
    benchmark::DoNotOptimize(layout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return tessera_bench::LayoutMapBenchMain(argc, argv, "Core", BuildMap, BM_Find, BM_Get,
                                           BM_FindDistinct);
}
