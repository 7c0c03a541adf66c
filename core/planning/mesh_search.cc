// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/planning/mesh_search.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera::planning {
namespace {

void Factorize(int64_t n, size_t num_factors, std::vector<int64_t>* prefix,
               std::vector<std::vector<int64_t>>* out) {
  if (prefix->size() + 1 == num_factors) {
    prefix->push_back(n);
    out->push_back(*prefix);
    prefix->pop_back();
    return;
  }
  for (int64_t f = 1; f <= n; ++f) {
    if (n % f != 0) continue;
    prefix->push_back(f);
    Factorize(n / f, num_factors, prefix, out);
    prefix->pop_back();
  }
}

absl::Status CheckSameMeshes(absl::Span<const LayoutMap* const> maps) {
  if (maps.empty()) return absl::InvalidArgumentError("Argument 'maps' is empty; expected at least one layout map");
  for (size_t i = 0; i < maps.size(); ++i) {
    if (maps[i] == nullptr || maps[i]->mesh() == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'maps[", i, "]' has no mesh; expected a layout map with a mesh"));
    }
    const DeviceMesh& first = *maps[0]->mesh();
    const DeviceMesh& mesh = *maps[i]->mesh();
    if (mesh.axis_names() != first.axis_names() || mesh.devices() != first.devices()) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'maps[", i, "]' has the mesh ", mesh.ToString(),
                                                     "; expected the axes and devices of maps[0]'s mesh ",
                                                     first.ToString()));
    }
  }
  return absl::OkStatus();
}

// Why a planned candidate does not fit, or "" when it does.
std::string Rejection(const MemoryPlan& plan) {
  for (const TensorPlan& tensor : plan.tensors) {
    if (!tensor.problem.empty()) return absl::StrCat("tensor '", tensor.name, "': ", tensor.problem);
  }
  for (size_t d = 0; d < plan.devices.size(); ++d) {
    const DeviceMemory& device = plan.devices[d];
    if (device.verdict() != Verdict::kDoesNotFit) continue;
    size_t largest = 0;
    for (size_t t = 1; t < kNumTerms; ++t) {
      if (device.terms[t] > device.terms[largest]) largest = t;
    }
    return absl::StrCat("device ", d, ": peak ", device.peak, " bytes exceeds its capacity ", device.capacity,
                        " by ", device.peak - device.capacity, " (largest term: ",
                        TermName(static_cast<Term>(largest)), " ", device.terms[largest], " bytes)");
  }
  return "";
}

}  // namespace

std::vector<std::vector<int64_t>> MeshShapes(int64_t n, size_t num_factors) {
  std::vector<std::vector<int64_t>> shapes;
  if (num_factors == 0 || n < 1) return shapes;
  std::vector<int64_t> prefix;
  Factorize(n, num_factors, &prefix, &shapes);
  return shapes;
}

absl::StatusOr<std::vector<Candidate>> SearchMeshes(const checkpoint::Checkpoint& checkpoint,
                                                    absl::Span<const LayoutMap* const> maps,
                                                    const PlanSettings& settings) {
  TESSERA_RETURN_IF_ERROR(CheckSameMeshes(maps));
  const DeviceMesh& base = *maps[0]->mesh();
  std::vector<RuleMatches> matches;
  for (const LayoutMap* map : maps) matches.push_back(MatchRules(checkpoint, *map));
  std::vector<Candidate> fitting, rejected;
  for (std::vector<int64_t>& shape : MeshShapes(base.size(), base.rank())) {
    TESSERA_ASSIGN_OR_RETURN(MeshPtr mesh, DeviceMesh::Create(shape, base.axis_names(), base.devices()));
    for (size_t m = 0; m < maps.size(); ++m) {
      std::vector<LayoutPtr> layouts;
      for (size_t r = 0; r < maps[m]->size(); ++r) {
        TESSERA_ASSIGN_OR_RETURN(TensorLayout layout, TensorLayout::Create(maps[m]->layout(r)->axes(), mesh));
        layouts.push_back(std::make_shared<const TensorLayout>(std::move(layout)));
      }
      TESSERA_ASSIGN_OR_RETURN(MemoryPlan plan, PlanMemory(checkpoint, matches[m], layouts, mesh, settings));
      Candidate candidate{shape, m, 0, Rejection(plan)};
      for (const DeviceMemory& device : plan.devices) candidate.peak_bytes = std::max(candidate.peak_bytes, device.peak);
      (candidate.problem.empty() ? fitting : rejected).push_back(std::move(candidate));
    }
  }
  std::stable_sort(fitting.begin(), fitting.end(),
                   [](const Candidate& a, const Candidate& b) { return a.peak_bytes < b.peak_bytes; });
  fitting.insert(fitting.end(), std::make_move_iterator(rejected.begin()), std::make_move_iterator(rejected.end()));
  return fitting;
}

}  // namespace tessera::planning
