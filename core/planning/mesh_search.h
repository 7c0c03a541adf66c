// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Which mesh shapes a checkpoint fits on: every ordered factorization of a
// device count over named axes (8 devices over (data, model): 1x8, 2x4,
// 4x2, 8x1), each planned with each of several layout maps, ranked.
//
// A candidate is rejected when a tensor's layout does not fit it (the first
// such tensor and why: a rank mismatch, a shard count that does not divide a
// dimension in strict mode, a quantized block cut) or when a device's peak
// exceeds its capacity (the first such device, its peak, capacity and
// largest term). The fitting ones come first, by their largest per-device
// peak, ties in enumeration order (first axis smallest first, then the
// maps' order); the rejected follow in enumeration order.
#ifndef TESSERA_CORE_PLANNING_MESH_SEARCH_H_
#define TESSERA_CORE_PLANNING_MESH_SEARCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/checkpoint/checkpoint.h"
#include "core/layout_map.h"
#include "core/planning/memory_plan.h"

namespace tessera::planning {

struct Candidate {
  std::vector<int64_t> mesh_shape;
  size_t map_index = 0;
  int64_t peak_bytes = 0;  // the largest device's peak
  std::string problem;     // empty when it fits
};

// Every ordered factorization of `n` into `num_factors` factors >= 1, the
// first factor smallest first (then the next, and so on).
std::vector<std::vector<int64_t>> MeshShapes(int64_t n, size_t num_factors);

// Searches the shapes of `maps[0]`'s mesh: its devices (row-major) and axis
// names, every factorization of its device count. Each map's rules are
// matched against the tensor names once and re-laid on each candidate
// mesh. INVALID_ARGUMENT for no maps, a map without a mesh, or maps whose
// meshes differ in axis names or devices; PlanMemory's errors otherwise.
absl::StatusOr<std::vector<Candidate>> SearchMeshes(const checkpoint::Checkpoint& checkpoint,
                                                    absl::Span<const LayoutMap* const> maps,
                                                    const PlanSettings& settings);

}  // namespace tessera::planning

#endif  // TESSERA_CORE_PLANNING_MESH_SEARCH_H_
