// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// What every fuzz target asserts, without GoogleTest: a violated property
// traps (libFuzzer reports the input as a crash), it never just logs.
#ifndef TESSERA_TESTS_FUZZ_FUZZ_CHECK_H_
#define TESSERA_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessera::fuzz {

inline void Check(bool property) {
  if (!property) __builtin_trap();
}

// A rejected input must say why: a non-OK code and a message.
inline void CheckRejection(const absl::Status& status) {
  Check(status.code() != absl::StatusCode::kOk);
  Check(!status.message().empty());
}

// The value of a parse of text the library itself printed: must succeed.
template <typename T>
T MustParse(absl::StatusOr<T> parsed) {
  Check(parsed.ok());
  return *std::move(parsed);
}

inline absl::string_view AsText(const uint8_t* data, size_t size) {
  return absl::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace tessera::fuzz

#endif  // TESSERA_TESTS_FUZZ_FUZZ_CHECK_H_
