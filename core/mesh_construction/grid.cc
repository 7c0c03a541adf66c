// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/mesh_construction/grid.h"

namespace tessera::mesh_construction {

std::optional<int64_t> Product(absl::Span<const int64_t> shape) {
  int64_t product = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(product, d, &product)) return std::nullopt;
  }
  return product;
}

bool ProductIs(absl::Span<const int64_t> shape, int64_t n) {
  const std::optional<int64_t> product = Product(shape);
  return product.has_value() && *product == n;
}

std::vector<int64_t> Strides(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i > 1; --i) strides[i - 2] = strides[i - 1] * shape[i - 1];
  return strides;
}

}  // namespace tessera::mesh_construction
