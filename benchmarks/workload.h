// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Reading the layout-map workload that layout_map_workload.py writes, for the
// Google Benchmark programs (standard library only, so the core and the C ABI
// programs share it).
#ifndef TESSERA_BENCHMARKS_WORKLOAD_H_
#define TESSERA_BENCHMARKS_WORKLOAD_H_

#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tessera_bench {

// Rule-set sizes the generator writes.
inline const std::vector<int>& RuleCounts() {
  static const std::vector<int> counts = {10, 100, 1000};
  return counts;
}

inline std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The patterns of rules_<count>.txt in `dir`.
inline std::vector<std::string> ReadRules(const std::string& dir, int count) {
  return ReadLines(dir + "/rules_" + std::to_string(count) + ".txt");
}

// The (kind, path) probes of probes_<count>.txt: kind is exact, regex or none.
inline std::vector<std::pair<std::string, std::string>> ReadProbes(const std::string& dir,
                                                                   int count) {
  std::vector<std::pair<std::string, std::string>> probes;
  for (const std::string& line : ReadLines(dir + "/probes_" + std::to_string(count) + ".txt")) {
    size_t space = line.find(' ');
    if (space == std::string::npos) throw std::runtime_error("bad probe line: " + line);
    probes.emplace_back(line.substr(0, space), line.substr(space + 1));
  }
  return probes;
}

// distinct_paths.txt in `dir`: more different paths than a map remembers.
inline std::vector<std::string> ReadDistinctPaths(const std::string& dir) {
  return ReadLines(dir + "/distinct_paths.txt");
}

// The shared main of the layout-map benchmarks: for every rule count, Find
// and Get on each probe path and Find over the distinct paths, named
// "<prefix>/Find/rules:N/<kind>". The core and C ABI programs differ only in
// how they build a map and call it.
template <typename BuildFn, typename FindFn, typename GetFn, typename FindDistinctFn>
int LayoutMapBenchMain(int argc, char** argv, const std::string& prefix, BuildFn build,
                       FindFn find, GetFn get, FindDistinctFn find_distinct) {
  benchmark::Initialize(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s WORKLOAD_DIR [--benchmark_* flags]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  auto distinct = std::make_shared<const std::vector<std::string>>(ReadDistinctPaths(dir));
  for (int count : RuleCounts()) {
    auto map = build(dir, count);
    const std::string rules = "/rules:" + std::to_string(count) + "/";
    for (const auto& [kind, path] : ReadProbes(dir, count)) {
      benchmark::RegisterBenchmark((prefix + "/Find" + rules + kind).c_str(), find, map, path);
      benchmark::RegisterBenchmark((prefix + "/Get" + rules + kind).c_str(), get, map, path);
    }
    benchmark::RegisterBenchmark((prefix + "/Find" + rules + "distinct").c_str(), find_distinct,
                                 map, distinct);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace tessera_bench

#endif  // TESSERA_BENCHMARKS_WORKLOAD_H_
