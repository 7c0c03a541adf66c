// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Row-major grid arithmetic that the mesh constructions of every framework
// share (core/mesh_construction.h).
#ifndef TESSERA_CORE_MESH_CONSTRUCTION_GRID_H_
#define TESSERA_CORE_MESH_CONSTRUCTION_GRID_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"

namespace tessera::mesh_construction {

// The product of `shape`; nullopt when it overflows int64 (then it cannot
// equal any device count).
std::optional<int64_t> Product(absl::Span<const int64_t> shape);

bool ProductIs(absl::Span<const int64_t> shape, int64_t n);

// Row-major strides of `shape`.
std::vector<int64_t> Strides(absl::Span<const int64_t> shape);

}  // namespace tessera::mesh_construction

#endif  // TESSERA_CORE_MESH_CONSTRUCTION_GRID_H_
