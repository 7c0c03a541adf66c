// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Early-return helpers for absl::Status and absl::StatusOr.
//
// Abseil keeps its own RETURN_IF_ERROR/ASSIGN_OR_RETURN internal, so the core
// carries these two small macros instead of nesting `if (!ok)` everywhere.
#ifndef TESSERA_CORE_STATUS_MACROS_H_
#define TESSERA_CORE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define TESSERA_CONCAT_INNER_(a, b) a##b
#define TESSERA_CONCAT_(a, b) TESSERA_CONCAT_INNER_(a, b)

#define TESSERA_RETURN_IF_ERROR(expr)            \
  do {                                           \
    ::absl::Status tessera_status_ = (expr);     \
    if (!tessera_status_.ok()) return tessera_status_; \
  } while (0)

#define TESSERA_ASSIGN_OR_RETURN(lhs, expr) \
  TESSERA_ASSIGN_OR_RETURN_IMPL_(TESSERA_CONCAT_(tessera_statusor_, __LINE__), lhs, expr)

#define TESSERA_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                   \
  if (!tmp.ok()) return std::move(tmp).status();       \
  lhs = std::move(tmp).value()

#endif  // TESSERA_CORE_STATUS_MACROS_H_
