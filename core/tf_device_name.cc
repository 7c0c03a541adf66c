// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/tf_device_name.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/strip.h"

namespace tessera {

std::optional<int64_t> ParseCanonicalCount(absl::string_view token) {
  if (token.empty() || token.size() > 19 ||
      token.find_first_not_of("0123456789") != absl::string_view::npos ||
      (token.size() > 1 && token[0] == '0')) {
    return std::nullopt;
  }
  int64_t value = 0;
  if (!absl::SimpleAtoi(token, &value)) return std::nullopt;
  return value;
}

bool IsTfIdentifier(absl::string_view s) {
  if (s.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::optional<TfDeviceName> ParseTfDeviceName(absl::string_view s) {
  TfDeviceName name;
  auto take_identifier = [&s](std::optional<std::string>* out) {
    const size_t end = std::min(s.find('/'), s.find(':'));
    const absl::string_view word = s.substr(0, end);
    if (out->has_value() || !IsTfIdentifier(word)) return false;
    *out = std::string(word);
    s.remove_prefix(word.size());
    return true;
  };
  auto take_number = [&s](std::optional<int64_t>* out) {
    const absl::string_view digits = s.substr(0, s.find_first_not_of("0123456789"));
    const std::optional<int64_t> value = ParseCanonicalCount(digits);
    if (out->has_value() || !value) return false;
    *out = *value;
    s.remove_prefix(digits.size());
    return true;
  };
  while (!s.empty()) {
    bool ok = false;
    if (absl::ConsumePrefix(&s, "/job:")) {
      ok = take_identifier(&name.job);
    } else if (absl::ConsumePrefix(&s, "/replica:")) {
      ok = take_number(&name.replica);
    } else if (absl::ConsumePrefix(&s, "/task:")) {
      ok = take_number(&name.task);
    } else if (absl::ConsumePrefix(&s, "/device:")) {
      ok = take_identifier(&name.type) && absl::ConsumePrefix(&s, ":") &&
           take_number(&name.index);
    }
    if (!ok) return std::nullopt;
  }
  return name;
}

}  // namespace tessera
