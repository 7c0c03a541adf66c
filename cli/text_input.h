// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Reading the CLI's line-oriented input files (rules and variables) and the
// small parsers they share.
#ifndef TESSERA_CLI_TEXT_INPUT_H_
#define TESSERA_CLI_TEXT_INPUT_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/handles.h"

namespace tessera_cli {

// One line that carries content: 1-based number, text without surrounding
// whitespace. Blank lines and lines starting with '#' are left out.
struct Line {
  int number;
  std::string text;
};

// The whole file at `path`. InputError "<option> '<path>': cannot read: <reason>".
std::string ReadFile(const std::string& path, const std::string& option);

// The lines of `text` that carry content, in order.
std::vector<Line> ContentLines(std::string_view text);

std::string_view Trim(std::string_view text);

// A decimal integer in [0, INT64_MAX]: digits only, no sign, no spaces.
bool ParseNonNegative(std::string_view text, int64_t* out);

// The whole number `text` given to `option`, from `min` to `max`. InputError
// "<option> '<text>': expected a whole number of <what> from <min> to <max>".
int64_t ParseBounded(const std::string& option, const std::string& text, int64_t min, int64_t max,
                     const std::string& what);

// The whole number `text` given to `option`, at least `min`. InputError
// "<option> '<text>': expected a whole number >= <min>".
int64_t ParseAtLeast(const std::string& option, const std::string& text, int64_t min);

// "a", "a or b", "a, b or c".
std::string OneOf(const std::vector<std::string>& names);

// The value of the choice named `text` for `option`. InputError
// "<option> '<text>': expected a, b or c".
template <typename T>
T ParseChoice(const std::string& option, const std::string& text,
              std::initializer_list<std::pair<const char*, T>> choices) {
  std::vector<std::string> names;
  for (const auto& choice : choices) {
    if (text == choice.first) return choice.second;
    names.push_back(choice.first);
  }
  throw InputError(option + " '" + text + "': expected " + OneOf(names));
}

// 1234567 -> "1,234,567".
std::string WithThousands(int64_t value);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_TEXT_INPUT_H_
