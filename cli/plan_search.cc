// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/plan_search.h"

#include "cli/plan.h"
#include "cli/plan_checkpoint.h"
#include "cli/report.h"
#include "cli/text_input.h"

namespace tessera_cli {
namespace {

using PlanSearch = std::unique_ptr<tessera_checkpoint_plan_search,
                                   Destroyer<tessera_checkpoint_plan_search, tessera_checkpoint_plan_search_destroy>>;

// The maps need a mesh with the axes; its shape does not matter to the
// search, which tries them all: N on the first axis, 1 on the others.
MeshSpec SearchMesh(const PlanOptions& options) {
  std::string text;
  for (size_t i = 0; i < options.search_axes.size(); ++i) {
    text += (i ? "," : "") + options.search_axes[i] + "=" + (i ? "1" : std::to_string(options.search));
  }
  return ParseMeshSpec(text);
}

std::string MeshText(const std::vector<std::string>& axes, const std::vector<int64_t>& shape) {
  std::string text;
  for (size_t i = 0; i < axes.size(); ++i) text += (i ? "," : "") + axes[i] + "=" + std::to_string(shape[i]);
  return text;
}

}  // namespace

Search SearchMeshes(const PlanOptions& options) {
  Checkpoint checkpoint = OpenCheckpoint(options.checkpoint_path);
  Mesh mesh = CreateMesh(SearchMesh(options));
  std::vector<std::string> rule_paths = options.rules_paths;
  if (rule_paths.empty()) rule_paths.push_back("");
  std::vector<LayoutMap> maps;
  std::vector<const tessera_layout_map*> map_pointers;
  for (const std::string& path : rule_paths) {
    maps.push_back(CreateLayoutMap(mesh.get(), CheckpointRules(path), options.match));
    map_pointers.push_back(maps.back().get());
  }
  Search search{options.search, options.search_axes, options.checkpoint_path, options.recipe, "", {}, 0};
  const Capacities capacities = ResolveCapacities(options, options.search);
  search.capacity = capacities.source;
  CheckpointPlanOptions plan_options = MakeCheckpointPlanOptions(options, capacities);
  tessera_error* error = nullptr;
  PlanSearch handle(tessera_checkpoint_plan_search_create(checkpoint.get(), map_pointers.data(), map_pointers.size(),
                                                         plan_options.get(), &error));
  if (!handle) throw InputError("--search: " + TakeMessage(error));
  for (size_t i = 0; i < tessera_checkpoint_plan_search_num_candidates(handle.get(), nullptr); ++i) {
    Candidate candidate;
    candidate.shape.resize(options.search_axes.size());
    tessera_checkpoint_plan_search_candidate_mesh_shape(handle.get(), i, candidate.shape.data(),
                                                        candidate.shape.size(), nullptr);
    candidate.mesh = MeshText(options.search_axes, candidate.shape);
    const std::string& path = rule_paths[tessera_checkpoint_plan_search_candidate_layout_map(handle.get(), i, nullptr)];
    candidate.rules = path.empty() ? "none" : path;
    candidate.peak_bytes = tessera_checkpoint_plan_search_candidate_peak_bytes(handle.get(), i, nullptr);
    candidate.problem = tessera_checkpoint_plan_search_candidate_problem(handle.get(), i, nullptr);
    if (candidate.problem.empty()) candidate.rank = ++search.fitting;
    search.candidates.push_back(std::move(candidate));
  }
  return search;
}

std::string FormatSearch(const Search& search) {
  std::vector<std::vector<std::string>> rows;
  for (const Candidate& c : search.candidates) {
    rows.push_back({c.rank > 0 ? std::to_string(c.rank) : "-", c.mesh, c.rules, WithThousands(c.peak_bytes),
                    Mebibytes(c.peak_bytes), c.problem.empty() ? "fits" : c.problem});
  }
  std::string axes;
  for (size_t i = 0; i < search.axes.size(); ++i) axes += (i ? ", " : "") + search.axes[i];
  return "checkpoint: " + search.checkpoint + "\n" + "search:     " + std::to_string(search.num_devices) +
         " devices over (" + axes + "), " + std::to_string(search.candidates.size()) + " candidates, recipe " +
         search.recipe + "\n" + "capacity:   " + (search.capacity.empty() ? "unknown" : search.capacity) + "\n\n" +
         FormatTable({{"RANK", true},
                      {"MESH", false},
                      {"RULES", false},
                      {"PEAK BYTES", true},
                      {"", false},
                      {"VERDICT", false}},
                     rows) +
         "\nsummary: " + std::to_string(search.fitting) + " of " + std::to_string(search.candidates.size()) +
         " candidates fit\n";
}

}  // namespace tessera_cli
