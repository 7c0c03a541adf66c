// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Layout-map lookup through the public C ABI: the same rules and paths as
// layout_map_bench (the core), so the difference is the ABI's cost.
//
// Usage: layout_map_capi_bench WORKLOAD_DIR [--benchmark_* flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/workload.h"
#include "tessera/tessera.h"

namespace {

using MapPtr = std::shared_ptr<tessera_layout_map>;

std::string Consume(tessera_error* error) {
  std::string message = tessera_error_message(error);
  tessera_error_destroy(error);
  return message;
}

MapPtr BuildMap(const std::string& dir, int count) {
  const int64_t shape[] = {2, 4};
  const char* axes[] = {"batch", "model"};
  const char* devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                           "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
  tessera_error* error = nullptr;
  tessera_mesh_options* mesh_options = tessera_mesh_options_create();
  tessera_mesh* mesh = tessera_mesh_options_set_devices(mesh_options, devices, 8, &error)
                           ? tessera_mesh_create(shape, axes, 2, mesh_options, &error)
                           : nullptr;
  if (mesh == nullptr) throw std::runtime_error(Consume(error));
  MapPtr map(tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, &error),
             tessera_layout_map_destroy);
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(mesh_options);
  if (map == nullptr) throw std::runtime_error(Consume(error));
  const char* layout_axes[] = {nullptr, "model"};
  for (const std::string& key : tessera_bench::ReadRules(dir, count)) {
    tessera_layout* layout = tessera_layout_create(layout_axes, 2, nullptr, &error);
    bool ok = layout != nullptr && tessera_layout_map_set(map.get(), key.c_str(), layout, &error);
    tessera_layout_destroy(layout);
    if (!ok) throw std::runtime_error(Consume(error));
  }
  return map;
}

// tessera_layout_map_lookup_rule: the rule index, no allocation.
void BM_Find(benchmark::State& state, MapPtr map, std::string path) {
  for (auto _ : state) {
    size_t index = 0;
    bool ok = tessera_layout_map_lookup_rule(map.get(), path.c_str(), &index, nullptr);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(index);
  }
}

// tessera_layout_map_lookup_rule over paths the map has not seen lately.
void BM_FindDistinct(benchmark::State& state, MapPtr map,
                     std::shared_ptr<const std::vector<std::string>> paths) {
  size_t next = 0;
  for (auto _ : state) {
    size_t index = 0;
    bool ok = tessera_layout_map_lookup_rule(map.get(), (*paths)[next].c_str(), &index, nullptr);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(index);
    next = next + 1 == paths->size() ? 0 : next + 1;
  }
}

// tessera_layout_map_lookup + destroy: a new layout handle, as Keras's __getitem__.
void BM_Get(benchmark::State& state, MapPtr map, std::string path) {
  for (auto _ : state) {
    tessera_layout* layout = tessera_layout_map_lookup(map.get(), path.c_str(), nullptr);
    benchmark::DoNotOptimize(layout);
    tessera_layout_destroy(layout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return tessera_bench::LayoutMapBenchMain(argc, argv, "CApi", BuildMap, BM_Find, BM_Get,
                                           BM_FindDistinct);
}
