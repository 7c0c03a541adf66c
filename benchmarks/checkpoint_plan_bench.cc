// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Planning a synthetic 1-trillion-parameter checkpoint for 4,096 devices
// (issue 12: under 1 s, per-device totals included), through the C ABI.
//
// The checkpoint is written once into a temporary directory: a sharded
// safetensors model, model.safetensors.index.json over 200 files of 500
// tensors each (100,000 tensors), headers only, each file ftruncate'd to its
// full length so the data area is a hole. The model: 250 mixture-of-experts
// layers of width 8,192, each with q/k/v/o projections and 132 experts of
// three (FFN, 8192) BF16 projections: 100,000 tensors, 1.075e12 parameters
// with FFN 1,280 ("even": every split dimension divides by 64) and 1.008e12
// with FFN 1,200 ("uneven": 1,200 does not divide by 64; chunk-flat shards,
// so the expert projections take the per-device path).
//
// Mesh data=64, model=64; rules: attention split over model, experts over
// both axes. Benchmarks: opening the index (200 headers); planning the
// open checkpoint (rule lookups, shards, per-device totals read back for
// all 4,096 devices) for inference and for training; and both in one
// (BM_OpenAndPlan, the number issue 12 bounds by 1 s).
//
// Usage: checkpoint_plan_bench [--benchmark_* flags]; TMPDIR picks the
// directory (about 2 TB of holes, 12 MB of headers).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tessera/tessera.h"

namespace {

constexpr int kFiles = 200;
constexpr int kLayers = 250;
constexpr int kExperts = 132;
constexpr int64_t kWidth = 8192;
constexpr int64_t kKvWidth = 1024;
constexpr int64_t kMeshSide = 64;

std::string Consume(tessera_error* error) {
  std::string message = error == nullptr ? "unknown error" : tessera_error_message(error);
  tessera_error_destroy(error);
  return message;
}

struct TensorSpec {
  std::string name;
  int64_t rows, cols;
};

std::vector<TensorSpec> Tensors(int64_t ffn) {
  std::vector<TensorSpec> tensors;
  for (int layer = 0; layer < kLayers; ++layer) {
    const std::string p = "model.layers." + std::to_string(layer) + ".";
    tensors.push_back({p + "self_attn.q_proj.weight", kWidth, kWidth});
    tensors.push_back({p + "self_attn.k_proj.weight", kKvWidth, kWidth});
    tensors.push_back({p + "self_attn.v_proj.weight", kKvWidth, kWidth});
    tensors.push_back({p + "self_attn.o_proj.weight", kWidth, kWidth});
    for (int e = 0; e < kExperts; ++e) {
      const std::string x = p + "mlp.experts." + std::to_string(e) + ".";
      tensors.push_back({x + "gate_proj.weight", ffn, kWidth});
      tensors.push_back({x + "up_proj.weight", ffn, kWidth});
      tensors.push_back({x + "down_proj.weight", kWidth, ffn});
    }
  }
  return tensors;
}

std::string FileName(int file) {
  char name[64];
  std::snprintf(name, sizeof name, "model-%05d-of-%05d.safetensors", file + 1, kFiles);
  return name;
}

// Writes the index and its 200 files (headers, then a hole) under `dir`.
void WriteCheckpoint(const std::string& dir, int64_t ffn) {
  std::vector<TensorSpec> tensors = Tensors(ffn);
  const size_t per_file = tensors.size() / kFiles;
  std::string weight_map;
  uint64_t total = 0;
  for (int file = 0; file < kFiles; ++file) {
    std::string header = "{";
    uint64_t offset = 0;
    for (size_t i = file * per_file; i < (file + 1) * per_file; ++i) {
      const TensorSpec& t = tensors[i];
      const uint64_t size = static_cast<uint64_t>(t.rows * t.cols * 2);
      header += (offset ? ",\"" : "\"") + t.name + "\":{\"dtype\":\"BF16\",\"shape\":[" + std::to_string(t.rows) +
                "," + std::to_string(t.cols) + "],\"data_offsets\":[" + std::to_string(offset) + "," +
                std::to_string(offset + size) + "]}";
      offset += size;
      weight_map += (weight_map.empty() ? "\"" : ",\"") + t.name + "\":\"" + FileName(file) + "\"";
    }
    header += "}";
    total += offset;
    const std::string path = dir + "/" + FileName(file);
    int fd = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0644);
    unsigned char length[8];
    for (int b = 0; b < 8; ++b) length[b] = static_cast<unsigned char>(uint64_t{header.size()} >> (8 * b));
    if (fd < 0 || write(fd, length, 8) != 8 ||
        write(fd, header.data(), header.size()) != static_cast<ssize_t>(header.size()) ||
        ftruncate(fd, static_cast<off_t>(8 + header.size() + offset)) != 0) {
      throw std::runtime_error("cannot write " + path);
    }
    close(fd);
  }
  std::ofstream index(dir + "/model.safetensors.index.json");
  index << "{\"metadata\":{\"total_size\":" << total << "},\"weight_map\":{" << weight_map << "}}";
}

struct Fixture {
  std::string dir;
  tessera_checkpoint* checkpoint = nullptr;
  tessera_layout_map* map = nullptr;
};

tessera_layout_map* Rules() {
  const int64_t shape[] = {kMeshSide, kMeshSide};
  const char* axes[] = {"data", "model"};
  std::vector<std::string> names;
  for (int i = 0; i < kMeshSide * kMeshSide; ++i) names.push_back("cpu:" + std::to_string(i));
  std::vector<const char*> devices;
  for (const std::string& n : names) devices.push_back(n.c_str());
  tessera_error* error = nullptr;
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_mesh* mesh = tessera_mesh_options_set_devices(options, devices.data(), devices.size(), &error)
                           ? tessera_mesh_create(shape, axes, 2, options, &error)
                           : nullptr;
  tessera_mesh_options_destroy(options);
  if (mesh == nullptr) throw std::runtime_error(Consume(error));
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, &error);
  struct Rule {
    const char* pattern;
    const char* dim0;
    const char* dim1;
  };
  const Rule rules[] = {{R"(self_attn\.(q|k|v)_proj)", "model", nullptr},
                        {R"(self_attn\.o_proj)", nullptr, "model"},
                        {R"(experts\.\d+\.(gate|up)_proj)", "model", "data"},
                        {R"(experts\.\d+\.down_proj)", "data", "model"}};
  for (const Rule& rule : rules) {
    const char* layout_axes[] = {rule.dim0, rule.dim1};
    tessera_layout* layout = tessera_layout_create(layout_axes, 2, mesh, &error);
    if (layout == nullptr || !tessera_layout_map_set(map, rule.pattern, layout, &error)) {
      throw std::runtime_error(Consume(error));
    }
    tessera_layout_destroy(layout);
  }
  tessera_mesh_destroy(mesh);
  return map;
}

Fixture* Make(int64_t ffn) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/tessera_plan_bench_XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  auto* fixture = new Fixture{pattern};
  WriteCheckpoint(fixture->dir, ffn);
  tessera_error* error = nullptr;
  fixture->checkpoint = tessera_checkpoint_open((fixture->dir + "/model.safetensors.index.json").c_str(), &error);
  if (fixture->checkpoint == nullptr) throw std::runtime_error(Consume(error));
  fixture->map = Rules();
  return fixture;
}

Fixture* even = nullptr;
Fixture* uneven = nullptr;

void BM_OpenIndex(benchmark::State& state) {
  const std::string path = even->dir + "/model.safetensors.index.json";
  for (auto _ : state) {
    tessera_error* error = nullptr;
    tessera_checkpoint* checkpoint = tessera_checkpoint_open(path.c_str(), &error);
    if (checkpoint == nullptr) state.SkipWithError(Consume(error).c_str());
    benchmark::DoNotOptimize(checkpoint);
    tessera_checkpoint_destroy(checkpoint);
  }
}

// Plans, then reads every device's peak back through the C ABI.
void PlanOnce(benchmark::State& state, const Fixture& fixture, const tessera_checkpoint_plan_options* options) {
  tessera_error* error = nullptr;
  tessera_checkpoint_plan* plan = tessera_checkpoint_plan_create(fixture.checkpoint, fixture.map, options, &error);
  if (plan == nullptr) {
    state.SkipWithError(Consume(error).c_str());
    return;
  }
  int64_t largest = 0;
  const size_t devices = tessera_checkpoint_plan_num_devices(plan, nullptr);
  for (size_t d = 0; d < devices; ++d) {
    largest = std::max(largest, tessera_checkpoint_plan_device_peak_bytes(plan, d, nullptr));
  }
  state.counters["devices"] = static_cast<double>(devices);
  state.counters["tensors"] = static_cast<double>(tessera_checkpoint_plan_num_tensors(plan, nullptr));
  state.counters["parameters"] = static_cast<double>(tessera_checkpoint_plan_num_parameters(plan, nullptr));
  state.counters["peak_GiB"] = static_cast<double>(largest) / (1 << 30);
  tessera_checkpoint_plan_destroy(plan);
}

void BM_Plan(benchmark::State& state) {
  const bool is_uneven = state.range(0) != 0;
  const bool training = state.range(1) != 0;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  tessera_checkpoint_plan_options_set_shard_mode(
      options, is_uneven ? TESSERA_SHARD_MODE_CHUNK_FLAT : TESSERA_SHARD_MODE_STRICT, nullptr);
  tessera_checkpoint_plan_options_set_recipe(
      options, training ? TESSERA_PLAN_RECIPE_TRAINING : TESSERA_PLAN_RECIPE_INFERENCE, nullptr);
  tessera_checkpoint_plan_options_set_capacity(options, int64_t{80} << 30, nullptr);
  for (auto _ : state) PlanOnce(state, is_uneven ? *uneven : *even, options);
  tessera_checkpoint_plan_options_destroy(options);
}

// From the index's path to every device's totals: open, plan, read back.
void BM_OpenAndPlan(benchmark::State& state) {
  const std::string path = even->dir + "/model.safetensors.index.json";
  for (auto _ : state) {
    tessera_error* error = nullptr;
    Fixture opened{even->dir, tessera_checkpoint_open(path.c_str(), &error), even->map};
    if (opened.checkpoint == nullptr) {
      state.SkipWithError(Consume(error).c_str());
      break;
    }
    PlanOnce(state, opened, nullptr);
    tessera_checkpoint_destroy(opened.checkpoint);
  }
}

BENCHMARK(BM_OpenIndex)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK(BM_Plan)
    ->ArgNames({"uneven", "training"})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_OpenAndPlan)->Unit(benchmark::kMillisecond)->Repetitions(5)->ReportAggregatesOnly(true);

void Remove(Fixture* fixture) {
  if (fixture == nullptr) return;
  tessera_checkpoint_destroy(fixture->checkpoint);
  tessera_layout_map_destroy(fixture->map);
  std::error_code ignored;
  std::filesystem::remove_all(fixture->dir, ignored);
  delete fixture;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  int status = 0;
  try {
    even = Make(1280);
    uneven = Make(1200);
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "checkpoint_plan_bench: %s\n", e.what());
    status = 1;
  }
  benchmark::Shutdown();
  Remove(even);
  Remove(uneven);
  return status;
}
