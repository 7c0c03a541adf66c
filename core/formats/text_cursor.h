// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A cursor over the small text formats Tessera parses (HloSharding,
// PartitionSpec, PyTorch placements): tokens separated by optional spaces,
// and errors that name the byte position and the offending token.
#ifndef TESSERA_CORE_FORMATS_TEXT_CURSOR_H_
#define TESSERA_CORE_FORMATS_TEXT_CURSOR_H_

#include <cstdint>
#include <limits>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace tessera {

class TextCursor {
 public:
  // `what` names the format in messages ("HloSharding text").
  TextCursor(absl::string_view text, absl::string_view what) : text_(text), what_(what) {}

  size_t position() const { return pos_; }

  // True when only spaces are left.
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }

  // Consumes `literal` (after spaces) when it comes next.
  bool TryConsume(absl::string_view literal) {
    SkipSpace();
    if (text_.substr(pos_, literal.size()) != literal) return false;
    pos_ += literal.size();
    return true;
  }

  // Consumes the identifier `word` when it comes next as a whole word.
  bool TryConsumeWord(absl::string_view word) {
    SkipSpace();
    if (PeekToken() != word) return false;
    pos_ += word.size();
    return true;
  }

  absl::Status Expect(absl::string_view literal) {
    if (TryConsume(literal)) return absl::OkStatus();
    return Error(absl::StrCat("'", literal, "'"));
  }

  absl::Status ExpectEnd() {
    if (AtEnd()) return absl::OkStatus();
    return Error("the end of the text");
  }

  // A decimal integer >= 0 that fits int64.
  absl::StatusOr<int64_t> ExpectInt() {
    SkipSpace();
    const size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && absl::ascii_isdigit(text_[pos_])) {
      const int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        pos_ = start;
        return Error("an integer that fits in int64");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) return Error("an integer");
    return value;
  }

  // [A-Za-z_][A-Za-z0-9_]*
  absl::StatusOr<std::string> ExpectIdentifier() {
    SkipSpace();
    absl::string_view token = PeekToken();
    if (token.empty() || !(absl::ascii_isalpha(token[0]) || token[0] == '_')) {
      return Error("a name");
    }
    pos_ += token.size();
    return std::string(token);
  }

  // A Python str literal, '...' or "...", with the escapes Python's repr
  // writes (\\ \' \" \n \r \t \xNN).
  absl::StatusOr<std::string> ExpectPyString() {
    SkipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) {
      return Error("a quoted string");
    }
    const size_t start = pos_;
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      c = text_[pos_++];
      switch (c) {
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case '\\': case '\'': case '"': out += c; break;
        case 'x': {
          int value = 0;
          for (int i = 0; i < 2; ++i) {
            if (pos_ >= text_.size() || !absl::ascii_isxdigit(text_[pos_])) {
              pos_ = start;
              return Error("a string with valid escapes");
            }
            const char h = absl::ascii_tolower(text_[pos_++]);
            value = value * 16 + (absl::ascii_isdigit(h) ? h - '0' : h - 'a' + 10);
          }
          out += static_cast<char>(value);
          break;
        }
        default:
          pos_ = start;
          return Error("a string with valid escapes");
      }
    }
    if (pos_ >= text_.size()) {
      pos_ = start;
      return Error("a closed string");
    }
    ++pos_;  // the closing quote
    return out;
  }

  // An MLIR string literal, "...", with the escapes MLIR's lexer reads (a doubled backslash,
  // \" \n \t and two hex digits); a raw newline ends it in error, as there.
  absl::StatusOr<std::string> ExpectMlirString() {
    SkipSpace();
    if (pos_ >= text_.size() || text_[pos_] != '"') return Error("a quoted string");
    const size_t start = pos_++;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') {
      char c = text_[pos_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      c = text_[pos_++];
      if (c == '\\' || c == '"') {
        out += c;
      } else if (c == 'n') {
        out += '\n';
      } else if (c == 't') {
        out += '\t';
      } else if (absl::ascii_isxdigit(c) && pos_ < text_.size() && absl::ascii_isxdigit(text_[pos_])) {
        const auto nibble = [](char h) {
          h = absl::ascii_tolower(h);
          return absl::ascii_isdigit(h) ? h - '0' : h - 'a' + 10;
        };
        out += static_cast<char>(nibble(c) * 16 + nibble(text_[pos_++]));
      } else {
        pos_ = start;
        return Error("a string with valid escapes");
      }
    }
    if (pos_ >= text_.size() || text_[pos_] != '"') {
      pos_ = start;
      return Error("a closed string");
    }
    ++pos_;  // the closing quote
    return out;
  }

  // An MLIR symbol name after '@': a bare identifier [A-Za-z_][A-Za-z0-9_$.]*
  // or a string literal.
  absl::StatusOr<std::string> ExpectMlirSymbolName() {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '"') return ExpectMlirString();
    if (pos_ >= text_.size() || !(absl::ascii_isalpha(text_[pos_]) || text_[pos_] == '_')) {
      return Error("a symbol name");
    }
    const size_t start = pos_;
    while (pos_ < text_.size() && (absl::ascii_isalnum(text_[pos_]) || text_[pos_] == '_' ||
                                   text_[pos_] == '$' || text_[pos_] == '.')) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  // INVALID_ARGUMENT "<what>: at position N: expected <expected>, got 'tok'".
  absl::Status Error(absl::string_view expected) {
    SkipSpace();
    absl::string_view token = PeekToken();
    return absl::InvalidArgumentError(absl::StrCat(
        what_, ": at position ", pos_, ": expected ", expected, ", got ",
        token.empty() ? std::string("the end of the text") : absl::StrCat("'", token, "'")));
  }

  // As Error, for a well-formed token that is not allowed here.
  absl::Status ErrorAt(size_t position, absl::string_view token, absl::string_view problem) const {
    return absl::InvalidArgumentError(
        absl::StrCat(what_, ": at position ", position, ": '", token, "' ", problem));
  }

  // The next token without consuming it (spaces must be skipped already): a
  // run of name characters, or one other character; empty at the end.
  absl::string_view PeekToken() const {
    if (pos_ >= text_.size()) return {};
    size_t end = pos_;
    while (end < text_.size() && (absl::ascii_isalnum(text_[end]) || text_[end] == '_')) ++end;
    if (end == pos_) end = pos_ + 1;
    return text_.substr(pos_, end - pos_);
  }

  void SkipSpace() {
    while (pos_ < text_.size() && absl::ascii_isspace(text_[pos_])) ++pos_;
  }

 private:
  absl::string_view text_;
  absl::string_view what_;
  size_t pos_ = 0;
};

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_TEXT_CURSOR_H_
