// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Python's int(text) for base 10, as the Python libraries Tessera reproduces
// read integers from environment variables (Keras's initialize, DTensor's
// config.py): one reader, so both agree on what an integer is.
#ifndef TESSERA_CORE_PY_INT_H_
#define TESSERA_CORE_PY_INT_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessera {

// int(text) within int64: surrounding whitespace as str.strip() removes it
// (ASCII only), an optional sign, digits with single '_' between digits.
// Otherwise Python's "invalid literal for int() with base 10: '<text>'"
// (INVALID_ARGUMENT); a value beyond int64 is OUT_OF_RANGE naming `what`.
absl::StatusOr<int64_t> ParsePythonInt(absl::string_view text, absl::string_view what);

}  // namespace tessera

#endif  // TESSERA_CORE_PY_INT_H_
