// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Checked arithmetic on shapes: every product of dimensions goes through here,
// so an overflowing shape is an error, never undefined behaviour.
#ifndef TESSERA_CORE_SHAPE_H_
#define TESSERA_CORE_SHAPE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessera {

// The most dimensions a tensor shape, a layout or a mesh may have. Far above
// any real model (XLA kernels stop at a few dozen); it keeps a hostile rank
// from turning into a huge allocation.
inline constexpr size_t kMaxRank = 1024;

// INVALID_ARGUMENT naming `what` when rank > kMaxRank.
absl::Status CheckRank(size_t rank, absl::string_view what);

// Python's tuple repr of a shape: "()", "(8,)", "(4, 2)".
std::string ShapeToString(absl::Span<const int64_t> shape);

// Product of `dims`, failing with INVALID_ARGUMENT when it exceeds int64.
// `what` names the argument in the message ("shape", "devices").
absl::StatusOr<int64_t> CheckedProduct(absl::Span<const int64_t> dims,
                                       absl::string_view what);

// a * b, or INVALID_ARGUMENT naming `what` when it overflows (both >= 0).
absl::StatusOr<int64_t> CheckedMul(int64_t a, int64_t b, absl::string_view what);

// Rank within kMaxRank and every dimension >= 0 (tensor shapes: 0 is a
// legal empty dimension).
absl::Status CheckTensorShape(absl::Span<const int64_t> shape,
                              absl::string_view what);

}  // namespace tessera

#endif  // TESSERA_CORE_SHAPE_H_
