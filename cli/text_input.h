// Reading the CLI's line-oriented input files (rules and variables) and the
// small parsers they share.
#ifndef TESSERA_CLI_TEXT_INPUT_H_
#define TESSERA_CLI_TEXT_INPUT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

// 1234567 -> "1,234,567".
std::string WithThousands(int64_t value);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_TEXT_INPUT_H_
