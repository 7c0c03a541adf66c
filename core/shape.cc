// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/shape.h"

#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessera {

std::string ShapeToString(absl::Span<const int64_t> shape) {
  if (shape.size() == 1) return absl::StrCat("(", shape[0], ",)");
  return absl::StrCat("(", absl::StrJoin(shape, ", "), ")");
}

absl::StatusOr<int64_t> CheckedMul(int64_t a, int64_t b, absl::string_view what) {
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument '", what, "': the product of its dimensions overflows int64 (",
        a, " * ", b, "); expected at most ", std::numeric_limits<int64_t>::max()));
  }
  return a * b;
}

absl::StatusOr<int64_t> CheckedProduct(absl::Span<const int64_t> dims,
                                       absl::string_view what) {
  int64_t product = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument '", what, "' ", ShapeToString(dims),
          " has a negative dimension ", d, "; expected sizes >= 0"));
    }
    auto next = CheckedMul(product, d, what);
    if (!next.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument '", what, "' ", ShapeToString(dims),
          ": the product of its dimensions overflows int64; expected at most ",
          std::numeric_limits<int64_t>::max()));
    }
    product = *next;
  }
  return product;
}

absl::Status CheckRank(size_t rank, absl::string_view what) {
  if (rank <= kMaxRank) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument '", what, "' has rank ", rank,
                                                 "; expected at most ", kMaxRank));
}

absl::Status CheckTensorShape(absl::Span<const int64_t> shape,
                              absl::string_view what) {
  if (absl::Status s = CheckRank(shape.size(), what); !s.ok()) return s;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument '", what, "' ", ShapeToString(shape), " has dimension ", i,
          " equal to ", shape[i], "; expected sizes >= 0"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tessera
