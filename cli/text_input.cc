// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/text_input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

#include "cli/handles.h"

namespace tessera_cli {

std::string ReadFile(const std::string& path, const std::string& option) {
  // stdio rather than ifstream: reading a directory must fail ("Is a
  // directory"), not yield an empty file.
  auto fail = [&](int error) {
    throw InputError(option + " '" + path + "': cannot read: " + std::strerror(error));
  };
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) fail(errno);
  std::string text;
  char chunk[65536];
  size_t n = 0;
  while ((n = std::fread(chunk, 1, sizeof chunk, file)) > 0) text.append(chunk, n);
  int error = std::ferror(file) ? errno : 0;
  std::fclose(file);
  if (error != 0) fail(error);
  return text;
}

std::vector<Line> ContentLines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++number;
    std::string_view content = Trim(raw);
    if (content.empty() || content.front() == '#') continue;
    lines.push_back({number, std::string(content)});
  }
  return lines;
}

std::string_view Trim(std::string_view text) {
  const char* kSpace = " \t\r\n\f\v";
  size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  size_t last = text.find_last_not_of(kSpace);
  return text.substr(first, last - first + 1);
}

bool ParseNonNegative(std::string_view text, int64_t* out) {
  if (text.empty()) return false;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    int digit = c - '0';
    if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) return false;
    value = value * 10 + digit;
  }
  *out = value;
  return true;
}

int64_t ParseBounded(const std::string& option, const std::string& text, int64_t min, int64_t max,
                     const std::string& what) {
  int64_t value = 0;
  if (!ParseNonNegative(text, &value) || value < min || value > max) {
    throw InputError(option + " '" + text + "': expected a whole number of " + what + " from " +
                     std::to_string(min) + " to " + std::to_string(max));
  }
  return value;
}

int64_t ParseAtLeast(const std::string& option, const std::string& text, int64_t min) {
  int64_t value = 0;
  if (!ParseNonNegative(text, &value) || value < min) {
    throw InputError(option + " '" + text + "': expected a whole number >= " + std::to_string(min));
  }
  return value;
}

std::string OneOf(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return text;
}

std::string WithThousands(int64_t value) {
  std::string digits = std::to_string(value);
  size_t first_digit = digits[0] == '-' ? 1 : 0;
  for (size_t pos = digits.size(); pos > first_digit + 3; pos -= 3) {
    digits.insert(pos - 3, ",");
  }
  return digits;
}

}  // namespace tessera_cli
