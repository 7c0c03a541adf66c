// Reading the layout-map workload that layout_map_workload.py writes, for the
// Google Benchmark programs (standard library only, so the core and the C ABI
// programs share it).
#ifndef TESSERA_BENCHMARKS_WORKLOAD_H_
#define TESSERA_BENCHMARKS_WORKLOAD_H_

#include <fstream>
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

}  // namespace tessera_bench

#endif  // TESSERA_BENCHMARKS_WORKLOAD_H_
