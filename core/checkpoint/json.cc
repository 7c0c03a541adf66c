#include "core/checkpoint/json.h"

#include <cmath>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tessera::checkpoint::json {

const Value* Value::Find(absl::string_view key) const {
  for (const Member& member : object) {
    if (member.key == key) return &member.value;
  }
  return nullptr;
}

absl::string_view Value::KindName() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "a boolean";
    case Kind::kInteger:
      return "an integer";
    case Kind::kNumber:
      return "a number";
    case Kind::kString:
      return "a string";
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "a value";
}

size_t FirstInvalidUtf8(absl::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t length;
    uint32_t code_point;
    uint32_t minimum;
    if ((c & 0xE0) == 0xC0) {
      length = 2, code_point = c & 0x1F, minimum = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3, code_point = c & 0x0F, minimum = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4, code_point = c & 0x07, minimum = 0x10000;
    } else {
      return i;
    }
    if (n - i < length) return i;
    for (size_t k = 1; k < length; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return i;
      code_point = (code_point << 6) | (s[i + k] & 0x3F);
    }
    if (code_point < minimum || code_point > 0x10FFFF ||
        (code_point >= 0xD800 && code_point <= 0xDFFF)) {
      return i;
    }
    i += length;
  }
  return n;
}

namespace {

void AppendUtf8(uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

// Text for a byte in a message: printable ASCII as itself, anything else as
// its hex value, so a message never carries raw control or invalid bytes.
std::string Describe(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F) return absl::StrCat("'", std::string(1, c), "'");
  return absl::StrFormat("byte 0x%02X", u);
}

class Parser {
 public:
  Parser(absl::string_view text, uint64_t base, Error* error, int max_depth)
      : text_(text), base_(base), error_(error), max_depth_(max_depth) {}

  absl::StatusOr<Value> ParseDocument() {
    SkipWhitespace();
    Value value;
    if (absl::Status status = ParseValue(0, &value); !status.ok()) return status;
    SkipWhitespace();
    if (pos_ != text_.size()) {
      return Error(pos_, absl::StrCat("trailing characters after the JSON value: ", Describe(text_[pos_])));
    }
    return value;
  }

 private:
  absl::Status Error(size_t at, absl::string_view what) const {
    if (error_ != nullptr) *error_ = json::Error{base_ + at, std::string(what)};
    return absl::InvalidArgumentError(absl::StrCat("byte ", base_ + at, ": ", what));
  }
  absl::Status EndOfInput(absl::string_view expected) const {
    return Error(pos_, absl::StrCat("unexpected end of input, expected ", expected));
  }

  void SkipWhitespace() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  absl::Status ParseValue(int depth, Value* out) {
    if (pos_ >= text_.size()) return EndOfInput("a value");
    out->offset = base_ + pos_;
    const char c = text_[pos_];
    switch (c) {
      case '{':
      case '[':
        if (depth >= max_depth_) {
          return Error(pos_, absl::StrCat("nesting deeper than ", max_depth_, " arrays and objects"));
        }
        return c == '{' ? ParseObject(depth + 1, out) : ParseArray(depth + 1, out);
      case '"':
        out->kind = Value::Kind::kString;
        return ParseString(&out->string);
      case 't':
        out->kind = Value::Kind::kBool;
        out->boolean = true;
        return ParseLiteral("true");
      case 'f':
        out->kind = Value::Kind::kBool;
        return ParseLiteral("false");
      case 'n':
        out->kind = Value::Kind::kNull;
        return ParseLiteral("null");
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(out);
        return Error(pos_, absl::StrCat("expected a value, found ", Describe(c)));
    }
  }

  absl::Status ParseLiteral(absl::string_view literal) {
    if (text_.substr(pos_, literal.size()) != literal) {
      return Error(pos_, absl::StrCat("invalid literal, expected '", literal, "'"));
    }
    pos_ += literal.size();
    return absl::OkStatus();
  }

  bool IsDigit(size_t at) const { return at < text_.size() && text_[at] >= '0' && text_[at] <= '9'; }

  absl::Status ParseNumber(Value* out) {
    const size_t start = pos_;
    if (text_[pos_] == '-') ++pos_;
    if (!IsDigit(pos_)) return Error(pos_, "invalid number: expected a digit");
    if (text_[pos_] == '0') {
      ++pos_;
      if (IsDigit(pos_)) return Error(pos_, "invalid number: leading zero");
    } else {
      while (IsDigit(pos_)) ++pos_;
    }
    bool integral = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      integral = false;
      ++pos_;
      if (!IsDigit(pos_)) return Error(pos_, "invalid number: expected a digit after '.'");
      while (IsDigit(pos_)) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (!IsDigit(pos_)) return Error(pos_, "invalid number: expected a digit in the exponent");
      while (IsDigit(pos_)) ++pos_;
    }
    const absl::string_view literal = text_.substr(start, pos_ - start);
    if (integral && absl::SimpleAtoi(literal, &out->integer)) {
      out->kind = Value::Kind::kInteger;
      return absl::OkStatus();
    }
    out->kind = Value::Kind::kNumber;
    if (!absl::SimpleAtod(literal, &out->number) || !std::isfinite(out->number)) {
      return Error(start, absl::StrCat("number out of range: ", literal));
    }
    return absl::OkStatus();
  }

  // Four hex digits at pos_, which is past "\u".
  absl::Status ParseHex4(uint32_t* out) {
    if (text_.size() - pos_ < 4) return EndOfInput("four hex digits");
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = text_[pos_ + i];
      uint32_t digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        digit = c - 'A' + 10;
      } else {
        return Error(pos_ + i, absl::StrCat("invalid \\u escape: expected a hex digit, found ", Describe(c)));
      }
      value = value * 16 + digit;
    }
    pos_ += 4;
    *out = value;
    return absl::OkStatus();
  }

  absl::Status ParseString(std::string* out) {
    ++pos_;  // the opening quote
    while (true) {
      const size_t run = pos_;
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\' &&
             static_cast<unsigned char>(text_[pos_]) >= 0x20) {
        ++pos_;
      }
      const absl::string_view raw = text_.substr(run, pos_ - run);
      if (const size_t bad = FirstInvalidUtf8(raw); bad != raw.size()) {
        return Error(run + bad, "invalid UTF-8 in string");
      }
      out->append(raw.data(), raw.size());
      if (pos_ >= text_.size()) return EndOfInput("'\"' to close the string");
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return absl::OkStatus();
      }
      if (c != '\\') {
        return Error(pos_, absl::StrFormat("control character U+%04X in string (must be escaped)",
                                           static_cast<unsigned char>(c)));
      }
      const size_t escape = pos_;
      ++pos_;
      if (pos_ >= text_.size()) return EndOfInput("an escape character");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out->push_back(e);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t unit;
          if (absl::Status s = ParseHex4(&unit); !s.ok()) return s;
          if (unit >= 0xDC00 && unit <= 0xDFFF) {
            return Error(escape, absl::StrFormat("lone trailing surrogate \\u%04X", unit));
          }
          if (unit >= 0xD800 && unit <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") {
              return Error(escape, absl::StrFormat("lone leading surrogate \\u%04X (no \\u escape follows)", unit));
            }
            pos_ += 2;
            uint32_t low;
            if (absl::Status s = ParseHex4(&low); !s.ok()) return s;
            if (low < 0xDC00 || low > 0xDFFF) {
              return Error(escape, absl::StrFormat(
                                       "lone leading surrogate \\u%04X (followed by \\u%04X, not a trailing one)",
                                       unit, low));
            }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(unit, out);
          break;
        }
        default:
          return Error(escape, absl::StrCat("invalid escape \\", Describe(e)));
      }
    }
  }

  absl::Status ParseArray(int depth, Value* out) {
    out->kind = Value::Kind::kArray;
    ++pos_;
    SkipWhitespace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return absl::OkStatus();
    }
    while (true) {
      SkipWhitespace();
      Value item;
      if (absl::Status s = ParseValue(depth, &item); !s.ok()) return s;
      out->array.push_back(std::move(item));
      SkipWhitespace();
      if (pos_ >= text_.size()) return EndOfInput("',' or ']'");
      if (text_[pos_] == ']') {
        ++pos_;
        return absl::OkStatus();
      }
      if (text_[pos_] != ',') return Error(pos_, absl::StrCat("expected ',' or ']', found ", Describe(text_[pos_])));
      ++pos_;
    }
  }

  absl::Status ParseObject(int depth, Value* out) {
    out->kind = Value::Kind::kObject;
    ++pos_;
    SkipWhitespace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return absl::OkStatus();
    }
    absl::flat_hash_map<std::string, uint64_t> seen;
    while (true) {
      SkipWhitespace();
      if (pos_ >= text_.size()) return EndOfInput("a '\"' to open a key");
      if (text_[pos_] != '"') return Error(pos_, absl::StrCat("expected a string key, found ", Describe(text_[pos_])));
      Member member;
      member.key_offset = base_ + pos_;
      if (absl::Status s = ParseString(&member.key); !s.ok()) return s;
      if (auto [it, inserted] = seen.emplace(member.key, member.key_offset); !inserted) {
        return Error(member.key_offset - base_,
                     absl::StrCat("duplicate key \"", absl::CEscape(member.key), "\" (first at byte ", it->second, ")"));
      }
      SkipWhitespace();
      if (pos_ >= text_.size()) return EndOfInput("':'");
      if (text_[pos_] != ':') return Error(pos_, absl::StrCat("expected ':', found ", Describe(text_[pos_])));
      ++pos_;
      SkipWhitespace();
      if (absl::Status s = ParseValue(depth, &member.value); !s.ok()) return s;
      out->object.push_back(std::move(member));
      SkipWhitespace();
      if (pos_ >= text_.size()) return EndOfInput("',' or '}'");
      if (text_[pos_] == '}') {
        ++pos_;
        return absl::OkStatus();
      }
      if (text_[pos_] != ',') return Error(pos_, absl::StrCat("expected ',' or '}', found ", Describe(text_[pos_])));
      ++pos_;
    }
  }

  absl::string_view text_;
  uint64_t base_;
  json::Error* error_;
  int max_depth_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<Value> Parse(absl::string_view text, uint64_t base_offset, Error* error, int max_depth) {
  return Parser(text, base_offset, error, max_depth).ParseDocument();
}

std::string Quote(absl::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          absl::StrAppendFormat(&out, "\\u%04x", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

namespace {

void SerializeTo(const Value& value, std::string* out) {
  switch (value.kind) {
    case Value::Kind::kNull:
      *out += "null";
      return;
    case Value::Kind::kBool:
      *out += value.boolean ? "true" : "false";
      return;
    case Value::Kind::kInteger:
      absl::StrAppend(out, value.integer);
      return;
    case Value::Kind::kNumber:
      absl::StrAppendFormat(out, "%.17g", value.number);
      return;
    case Value::Kind::kString:
      *out += Quote(value.string);
      return;
    case Value::Kind::kArray:
      *out += '[';
      for (size_t i = 0; i < value.array.size(); ++i) {
        if (i > 0) *out += ',';
        SerializeTo(value.array[i], out);
      }
      *out += ']';
      return;
    case Value::Kind::kObject:
      *out += '{';
      for (size_t i = 0; i < value.object.size(); ++i) {
        if (i > 0) *out += ',';
        *out += Quote(value.object[i].key);
        *out += ':';
        SerializeTo(value.object[i].value, out);
      }
      *out += '}';
      return;
  }
}

}  // namespace

std::string Serialize(const Value& value) {
  std::string out;
  SerializeTo(value, &out);
  return out;
}

}  // namespace tessera::checkpoint::json
