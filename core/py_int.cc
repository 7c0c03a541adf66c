// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/py_int.h"

#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/py_repr.h"

namespace tessera {
namespace {

// str.strip()'s ASCII whitespace, which int() skips (\x1c-\x1f included).
bool IsPythonSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f'); }

}  // namespace

absl::StatusOr<int64_t> ParsePythonInt(absl::string_view text, absl::string_view what) {
  const auto invalid = [&] {
    return absl::InvalidArgumentError(absl::StrCat("invalid literal for int() with base 10: ", PyStrRepr(text)));
  };
  const auto too_large = [&] {
    return absl::OutOfRangeError(absl::StrCat(what, " ", PyStrRepr(text), " is outside the 64-bit integer range"));
  };
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && IsPythonSpace(text[begin])) ++begin;
  while (end > begin && IsPythonSpace(text[end - 1])) --end;
  bool negative = false;
  if (begin < end && (text[begin] == '+' || text[begin] == '-')) negative = text[begin++] == '-';
  if (begin == end) return invalid();
  // Accumulated as a negative number so that INT64_MIN fits.
  int64_t value = 0;
  bool previous_digit = false;
  for (size_t i = begin; i < end; ++i) {
    const char c = text[i];
    if (c == '_') {
      if (!previous_digit || i + 1 == end) return invalid();
      previous_digit = false;
      continue;
    }
    if (c < '0' || c > '9') return invalid();
    const int digit = c - '0';
    if (value < (std::numeric_limits<int64_t>::min() + digit) / 10) return too_large();
    value = value * 10 - digit;
    previous_digit = true;
  }
  if (negative) return value;
  if (value == std::numeric_limits<int64_t>::min()) return too_large();
  return -value;
}

}  // namespace tessera
