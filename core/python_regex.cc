// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/python_regex.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/py_repr.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

// The parser below follows CPython 3.11's Lib/re/_parser.py function by
// function (its names in comments), so that it refuses exactly what Python
// refuses, with Python's message and position.

// Python's flag bits (re.TEMPLATE, re.IGNORECASE, ...).
constexpr unsigned kTemplate = 1, kIgnoreCase = 2, kLocale = 4, kMultiline = 8, kDotAll = 16,
                   kUnicode = 32, kVerbose = 64, kAscii = 256;
constexpr unsigned kTypeFlags = kAscii | kLocale | kUnicode;

constexpr uint64_t kPyMaxRepeat = 4294967295u;  // _sre.MAXREPEAT; also "unbounded"
constexpr uint64_t kRe2MaxRepeat = 1000;        // RE2's kMaxRepeat
constexpr int kMaxGroupDepth = 200;
constexpr uint32_t kMaxCodePoint = 0x10FFFF;

using Ranges = std::vector<std::pair<uint32_t, uint32_t>>;

enum class Category { kDigit, kNotDigit, kSpace, kNotSpace, kWord, kNotWord };
enum class At { kBeginning, kEnd, kBeginningString, kEndString, kBoundary, kNonBoundary };

struct Node;
using Seq = std::vector<Node>;

struct Node {
  enum Kind { kLiteral, kAny, kSet, kAt, kGroup, kRepeat, kUnsupported };
  explicit Node(Kind k) : kind(k) {}
  Kind kind;
  unsigned flags = 0;  // the flags in effect here
  size_t byte = 0;     // where the construct starts in the pattern
  uint32_t c = 0;      // kLiteral
  bool negate = false;  // kSet
  Ranges ranges;        // kSet
  std::vector<Category> categories;  // kSet
  At at = At::kBeginning;            // kAt
  std::vector<Seq> branches;         // kGroup: alternatives; kRepeat: one, the item
  uint64_t min = 0, max = 0;         // kRepeat
  bool possessive = false;           // kRepeat
  std::string text;                  // kUnsupported: the construct; kRepeat: the quantifier
  std::string why;                   // kUnsupported
};

Node Unsupported(size_t byte, std::string text, std::string why) {
  Node n{Node::kUnsupported};
  n.byte = byte;
  n.text = std::move(text);
  n.why = std::move(why);
  return n;
}

absl::Status UnsupportedError(size_t byte, absl::string_view text, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("a Python regular expression RE2 cannot run: ",
                                                 text, " at byte ", byte, " (", why, ")"));
}

// Decodes UTF-8; false on malformed input.
bool DecodeUtf8(absl::string_view s, std::vector<uint32_t>* cps, std::vector<size_t>* bytes) {
  size_t i = 0;
  while (i < s.size()) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    uint32_t cp;
    size_t len;
    if (b0 < 0x80) {
      cp = b0, len = 1;
    } else if (b0 >= 0xC2 && b0 <= 0xDF) {
      cp = b0 & 0x1F, len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      cp = b0 & 0x0F, len = 3;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      cp = b0 & 0x07, len = 4;
    } else {
      return false;
    }
    if (i + len > s.size()) return false;
    for (size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    const uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[len] || cp > kMaxCodePoint || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    cps->push_back(cp);
    bytes->push_back(i);
    i += len;
  }
  bytes->push_back(s.size());
  return true;
}

std::string CodePointToUtf8(uint32_t cp) {
  std::string out;
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

bool IsDigit(uint32_t c) { return c >= '0' && c <= '9'; }
bool IsOctDigit(uint32_t c) { return c >= '0' && c <= '7'; }
bool IsHexDigit(uint32_t c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsAsciiLetter(uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsWhitespace(uint32_t c) {  // _parser.WHITESPACE
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool IsAsciiIdentifier(absl::string_view s) {
  if (s.empty() || IsDigit(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (!IsAsciiLetter(c) && !IsDigit(c) && c != '_') return false;
  }
  return true;
}
// Whether str.isidentifier() could hold for `s`: its ASCII characters are
// identifier characters and it does not start with a digit. (The non-ASCII
// ones need Unicode's XID tables, which Tessera lacks.)
bool MaybeIdentifier(absl::string_view s) {
  if (s.empty() || IsDigit(static_cast<unsigned char>(s[0]))) return false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x80 && !IsAsciiLetter(c) && !IsDigit(c) && c != '_') return false;
  }
  return true;
}
// Python's int() of an ASCII string: surrounding whitespace, a sign, and
// single underscores between digits.
std::optional<int64_t> PyInt(absl::string_view s) {
  while (!s.empty() && IsWhitespace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && IsWhitespace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || !IsDigit(static_cast<unsigned char>(s.back()))) return std::nullopt;
  int64_t value = 0;
  bool after_digit = false;
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '_' && after_digit) {
      after_digit = false;
      continue;
    }
    if (!IsDigit(c)) return std::nullopt;
    value = std::min<int64_t>(value * 10 + (c - '0'), int64_t{1} << 40);
    after_digit = true;
  }
  return negative ? -value : value;
}
size_t CodePointCount(absl::string_view s) {
  return std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; });
}
bool IsAscii(absl::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// A token: one character, or a backslash and the character after it.
struct Token {
  bool escape = false;
  uint32_t c = 0;
  bool Is(char ch) const { return !escape && c == static_cast<unsigned char>(ch); }
  std::string Text() const { return (escape ? "\\" : "") + CodePointToUtf8(c); }
};

// _parser.Tokenizer over code points; positions count code points.
class Tokenizer {
 public:
  Tokenizer(std::vector<uint32_t> cps, std::vector<size_t> bytes)
      : cps_(std::move(cps)), bytes_(std::move(bytes)) {}

  absl::Status Start() { return Advance(); }

  const std::optional<Token>& next() const { return next_; }
  bool NextIs(char ch) const { return next_ && next_->Is(ch); }
  bool NextIsDigit() const { return next_ && !next_->escape && IsDigit(next_->c); }

  absl::StatusOr<bool> Match(char ch) {
    if (!NextIs(ch)) return false;
    TESSERA_RETURN_IF_ERROR(Advance());
    return true;
  }
  absl::StatusOr<std::optional<Token>> Get() {
    std::optional<Token> t = next_;
    TESSERA_RETURN_IF_ERROR(Advance());
    return t;
  }
  // getwhile: up to n plain characters satisfying `pred`.
  template <typename Pred>
  absl::StatusOr<std::vector<uint32_t>> GetWhile(int n, Pred pred) {
    std::vector<uint32_t> out;
    for (int i = 0; i < n; ++i) {
      if (!next_ || next_->escape || !pred(next_->c)) break;
      out.push_back(next_->c);
      TESSERA_RETURN_IF_ERROR(Advance());
    }
    return out;
  }
  // getuntil: the tokens' text up to `terminator`.
  absl::StatusOr<std::string> GetUntil(char terminator, absl::string_view name) {
    std::string result;
    size_t length = 0;  // in code points, as Python counts
    while (true) {
      std::optional<Token> c = next_;
      TESSERA_RETURN_IF_ERROR(Advance());
      if (!c) {
        if (length == 0) return Error(absl::StrCat("missing ", name));
        return Error(absl::StrCat("missing ", std::string(1, terminator), ", unterminated name"),
                     length);
      }
      if (c->Is(terminator)) {
        if (length == 0) return Error(absl::StrCat("missing ", name), 1);
        break;
      }
      result += c->Text();
      length += c->escape ? 2 : 1;
    }
    return result;
  }

  size_t tell() const { return index_ - (next_ ? (next_->escape ? 2 : 1) : 0); }
  absl::Status Seek(size_t index) {
    index_ = index;
    return Advance();
  }
  size_t ByteOf(size_t pos) const { return bytes_[std::min(pos, cps_.size())]; }
  // The pattern's text from code point `from` up to `to`.
  std::string Text(size_t from, size_t to) const {
    std::string out;
    for (size_t i = from; i < to && i < cps_.size(); ++i) out += CodePointToUtf8(cps_[i]);
    return out;
  }

  // source.error(msg, offset): Python's re.error text.
  absl::Status Error(absl::string_view msg, size_t offset = 0) const {
    return ErrorAt(msg, tell() - offset);
  }
  absl::Status ErrorAt(absl::string_view msg, size_t pos) const {
    std::string text = absl::StrCat(msg, " at position ", pos);
    if (std::find(cps_.begin(), cps_.end(), '\n') != cps_.end()) {
      const size_t line = std::count(cps_.begin(), cps_.begin() + pos, '\n') + 1;
      size_t column = pos + 1;
      for (size_t i = pos; i > 0; --i) {
        if (cps_[i - 1] == '\n') {
          column = pos - (i - 1);
          break;
        }
      }
      absl::StrAppend(&text, " (line ", line, ", column ", column, ")");
    }
    if (ByteOf(pos) != pos) absl::StrAppend(&text, " (byte ", ByteOf(pos), ")");
    return absl::InvalidArgumentError(
        absl::StrCat("not a valid Python regular expression: ", text));
  }

 private:
  absl::Status Advance() {
    if (index_ >= cps_.size()) {
      next_.reset();
      return absl::OkStatus();
    }
    Token t;
    size_t index = index_;
    t.c = cps_[index];
    if (t.c == '\\') {
      ++index;
      if (index >= cps_.size()) {
        return ErrorAt("bad escape (end of pattern)", cps_.size() - 1);
      }
      t.escape = true;
      t.c = cps_[index];
    }
    index_ = index + 1;
    next_ = t;
    return absl::OkStatus();
  }

  const std::vector<uint32_t> cps_;
  const std::vector<size_t> bytes_;  // bytes_[i]: byte offset of code point i
  size_t index_ = 0;
  std::optional<Token> next_;
};

// _combine_flags: a scoped type flag (a, u) replaces the outer one.
unsigned CombineFlags(unsigned flags, unsigned add, unsigned del) {
  if (add & kTypeFlags) flags &= ~kTypeFlags;
  return (flags | add) & ~del;
}

std::optional<unsigned> FlagBit(const Token& t) {
  if (t.escape) return std::nullopt;
  switch (t.c) {
    case 'i': return kIgnoreCase;
    case 'L': return kLocale;
    case 'm': return kMultiline;
    case 's': return kDotAll;
    case 'x': return kVerbose;
    case 'a': return kAscii;
    case 't': return kTemplate;
    case 'u': return kUnicode;
    default: return std::nullopt;
  }
}

bool IsAlpha(const Token& t) { return !t.escape && IsAsciiLetter(t.c); }

class Parser {
 public:
  explicit Parser(Tokenizer* source) : source_(*source) {}

  // parse()
  absl::StatusOr<Node> Parse() {
    TESSERA_RETURN_IF_ERROR(source_.Start());
    TESSERA_ASSIGN_OR_RETURN(Node p, ParseSub(false, 0, 0));
    if (global_flags_ & kLocale) {
      return absl::InvalidArgumentError(
          "not a valid Python regular expression: cannot use LOCALE flag with a str pattern");
    }
    if ((global_flags_ & kAscii) && (global_flags_ & kUnicode)) {
      return absl::InvalidArgumentError(
          "not a valid Python regular expression: ASCII and UNICODE flags are incompatible");
    }
    if (source_.next()) return source_.Error("unbalanced parenthesis");
    for (const auto& [group, pos] : group_ref_pos_) {
      if (group >= groups()) {
        return source_.ErrorAt(absl::StrCat("invalid group reference ", group), pos);
      }
    }
    return p;
  }

  // The first construct RE2 cannot run that only the parser sees (names,
  // \N{...}, the TEMPLATE flag); the emitter finds the others.
  const std::optional<Node>& unsupported() const { return unsupported_; }

 private:
  size_t groups() const { return group_closed_.size(); }

  absl::Status CheckGroupName(const std::string& name, size_t offset) {
    if (!IsAscii(name) && MaybeIdentifier(name)) {
      RecordUnsupported(source_.ByteOf(source_.tell() - CodePointCount(name) - offset),
                        absl::StrCat("group name ", PyStrRepr(name)),
                        "Python's Unicode identifier rules are not reproduced; use an ASCII name");
      return absl::OkStatus();
    }
    if (!IsAsciiIdentifier(name)) {
      return source_.Error(absl::StrCat("bad character in group name ", PyStrRepr(name)),
                           CodePointCount(name) + offset);
    }
    return absl::OkStatus();
  }

  bool CheckGroup(uint64_t gid) const { return gid < groups() && group_closed_[gid]; }

  absl::Status CheckLookbehindGroup(uint64_t gid) {
    if (!lookbehind_groups_) return absl::OkStatus();
    if (!CheckGroup(gid)) return source_.Error("cannot refer to an open group");
    if (gid >= *lookbehind_groups_) {
      return source_.Error("cannot refer to group defined in the same lookbehind subpattern");
    }
    return absl::OkStatus();
  }

  void RecordUnsupported(size_t byte, std::string text, std::string why) {
    if (!unsupported_) unsupported_ = Unsupported(byte, std::move(text), std::move(why));
  }

  // The hex digits after \x, \u, \U (exactly `n`).
  absl::StatusOr<uint32_t> HexEscape(std::string escape, int n) {
    TESSERA_ASSIGN_OR_RETURN(std::vector<uint32_t> digits, source_.GetWhile(n, IsHexDigit));
    uint64_t value = 0;
    for (uint32_t d : digits) {
      escape += static_cast<char>(d);
      value = value * 16 + (IsDigit(d) ? d - '0' : (d | 0x20) - 'a' + 10);
    }
    if (static_cast<int>(digits.size()) != n) {
      return source_.Error(absl::StrCat("incomplete escape ", escape), escape.size());
    }
    if (value > kMaxCodePoint) return source_.Error(absl::StrCat("bad escape ", escape), escape.size());
    return static_cast<uint32_t>(value);
  }

  // \N{name}: Python looks the name up in unicodedata, which Tessera lacks.
  absl::Status NamedEscape(size_t start) {
    TESSERA_ASSIGN_OR_RETURN(bool brace, source_.Match('{'));
    if (!brace) return source_.Error("missing {");
    TESSERA_ASSIGN_OR_RETURN(std::string name, source_.GetUntil('}', "character name"));
    RecordUnsupported(source_.ByteOf(start), absl::StrCat("named character escape '\\N{", name, "}'"),
                      "Tessera has no Unicode name table; write the character or \\uXXXX");
    return absl::OkStatus();
  }

  // Escapes shared by _escape and _class_escape; nullopt when not one of them.
  absl::StatusOr<std::optional<Node>> CommonEscape(const Token& t, size_t start) {
    Node lit{Node::kLiteral};
    lit.byte = source_.ByteOf(start);
    switch (t.c) {
      case 'a': lit.c = '\a'; return lit;
      case 'f': lit.c = '\f'; return lit;
      case 'n': lit.c = '\n'; return lit;
      case 'r': lit.c = '\r'; return lit;
      case 't': lit.c = '\t'; return lit;
      case 'v': lit.c = '\v'; return lit;
      case '\\': lit.c = '\\'; return lit;
      case 'x': { TESSERA_ASSIGN_OR_RETURN(lit.c, HexEscape("\\x", 2)); return lit; }
      case 'u': { TESSERA_ASSIGN_OR_RETURN(lit.c, HexEscape("\\u", 4)); return lit; }
      case 'U': { TESSERA_ASSIGN_OR_RETURN(lit.c, HexEscape("\\U", 8)); return lit; }
      default: break;
    }
    Node set{Node::kSet};
    set.byte = lit.byte;
    switch (t.c) {
      case 'd': set.categories = {Category::kDigit}; return set;
      case 'D': set.categories = {Category::kNotDigit}; return set;
      case 's': set.categories = {Category::kSpace}; return set;
      case 'S': set.categories = {Category::kNotSpace}; return set;
      case 'w': set.categories = {Category::kWord}; return set;
      case 'W': set.categories = {Category::kNotWord}; return set;
      default: return std::nullopt;
    }
  }

  // _class_escape: a literal or a category.
  absl::StatusOr<Node> ClassEscape(const Token& t, size_t start) {
    if (t.c == 'b') {
      Node lit{Node::kLiteral};
      lit.c = '\b';
      return lit;
    }
    TESSERA_ASSIGN_OR_RETURN(std::optional<Node> common, CommonEscape(t, start));
    if (common) return *std::move(common);
    if (t.c == 'N') {
      TESSERA_RETURN_IF_ERROR(NamedEscape(start));
      return Node{Node::kLiteral};  // never emitted: the pattern is refused
    }
    std::string escape = t.Text();
    if (IsOctDigit(t.c)) {
      TESSERA_ASSIGN_OR_RETURN(std::vector<uint32_t> more, source_.GetWhile(2, IsOctDigit));
      uint32_t value = t.c - '0';
      for (uint32_t d : more) {
        escape += static_cast<char>(d);
        value = value * 8 + (d - '0');
      }
      if (value > 0377) {
        return source_.Error(
            absl::StrCat("octal escape value ", escape, " outside of range 0-0o377"), escape.size());
      }
      Node lit{Node::kLiteral};
      lit.c = value;
      return lit;
    }
    if (!IsDigit(t.c) && !IsAsciiLetter(t.c)) {
      Node lit{Node::kLiteral};
      lit.c = t.c;
      return lit;
    }
    return source_.Error(absl::StrCat("bad escape ", escape), 2);
  }

  // _escape: outside sets.
  absl::StatusOr<Node> Escape(const Token& t, size_t start) {
    Node at{Node::kAt};
    at.byte = source_.ByteOf(start);
    switch (t.c) {
      case 'A': at.at = At::kBeginningString; return at;
      case 'Z': at.at = At::kEndString; return at;
      case 'b': at.at = At::kBoundary; return at;
      case 'B': at.at = At::kNonBoundary; return at;
      default: break;
    }
    TESSERA_ASSIGN_OR_RETURN(std::optional<Node> common, CommonEscape(t, start));
    if (common) return *std::move(common);
    if (t.c == 'N') {
      TESSERA_RETURN_IF_ERROR(NamedEscape(start));
      return Node{Node::kLiteral};
    }
    std::string escape = t.Text();
    if (t.c == '0') {
      TESSERA_ASSIGN_OR_RETURN(std::vector<uint32_t> more, source_.GetWhile(2, IsOctDigit));
      uint32_t value = 0;
      for (uint32_t d : more) value = value * 8 + (d - '0');
      Node lit{Node::kLiteral};
      lit.byte = at.byte;
      lit.c = value;
      return lit;
    }
    if (IsDigit(t.c)) {
      // An octal escape or a group reference.
      if (source_.NextIsDigit()) {
        TESSERA_ASSIGN_OR_RETURN(std::optional<Token> d2, source_.Get());
        escape += static_cast<char>(d2->c);
        if (IsOctDigit(t.c) && IsOctDigit(d2->c) && source_.next() && !source_.next()->escape &&
            IsOctDigit(source_.next()->c)) {
          TESSERA_ASSIGN_OR_RETURN(std::optional<Token> d3, source_.Get());
          escape += static_cast<char>(d3->c);
          const uint32_t value = (t.c - '0') * 64 + (d2->c - '0') * 8 + (d3->c - '0');
          if (value > 0377) {
            return source_.Error(
                absl::StrCat("octal escape value ", escape, " outside of range 0-0o377"),
                escape.size());
          }
          Node lit{Node::kLiteral};
          lit.byte = at.byte;
          lit.c = value;
          return lit;
        }
      }
      const uint64_t group = std::stoull(escape.substr(1));
      if (group < groups()) {
        if (!CheckGroup(group)) return source_.Error("cannot refer to an open group", escape.size());
        TESSERA_RETURN_IF_ERROR(CheckLookbehindGroup(group));
        return Unsupported(at.byte, absl::StrCat("backreference '", escape, "'"),
                           "RE2 has no backreferences");
      }
      return source_.Error(absl::StrCat("invalid group reference ", group), escape.size() - 1);
    }
    if (!IsAsciiLetter(t.c)) {
      Node lit{Node::kLiteral};
      lit.byte = at.byte;
      lit.c = t.c;
      return lit;
    }
    return source_.Error(absl::StrCat("bad escape ", escape), 2);
  }

  // _parse_sub: an alternation.
  absl::StatusOr<Node> ParseSub(bool verbose, int nested, unsigned flags) {
    Node group{Node::kGroup};
    group.flags = flags;
    group.byte = source_.ByteOf(source_.tell());
    while (true) {
      TESSERA_ASSIGN_OR_RETURN(Seq item,
                               ParseSeq(verbose, nested + 1, nested == 0 && group.branches.empty(), flags));
      group.branches.push_back(std::move(item));
      TESSERA_ASSIGN_OR_RETURN(bool bar, source_.Match('|'));
      if (!bar) break;
      if (nested == 0) {
        verbose = global_flags_ & kVerbose;
        flags = global_flags_;
      }
    }
    return group;
  }

  // _parse_flags: returns nullopt for global flags, else (add, del).
  absl::StatusOr<std::optional<std::pair<unsigned, unsigned>>> ParseFlags(Token ch) {
    unsigned add = 0, del = 0;
    if (!ch.Is('-')) {
      while (true) {
        const unsigned flag = *FlagBit(ch);
        if (ch.c == 'L') {
          return source_.Error("bad inline flags: cannot use 'L' flag with a str pattern");
        }
        add |= flag;
        if ((flag & kTypeFlags) && (add & kTypeFlags) != flag) {
          return source_.Error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
        }
        TESSERA_ASSIGN_OR_RETURN(std::optional<Token> next, source_.Get());
        if (!next) return source_.Error("missing -, : or )");
        ch = *next;
        if (ch.Is(')') || ch.Is('-') || ch.Is(':')) break;
        if (!FlagBit(ch)) {
          return source_.Error(IsAlpha(ch) ? "unknown flag" : "missing -, : or )",
                               ch.escape ? 2 : 1);
        }
      }
    }
    if (ch.Is(')')) {
      global_flags_ |= add;
      return std::nullopt;
    }
    if (add & kTemplate) return source_.Error("bad inline flags: cannot turn on global flag", 1);
    if (ch.Is('-')) {
      TESSERA_ASSIGN_OR_RETURN(std::optional<Token> next, source_.Get());
      if (!next) return source_.Error("missing flag");
      ch = *next;
      if (!FlagBit(ch)) {
        return source_.Error(IsAlpha(ch) ? "unknown flag" : "missing flag", ch.escape ? 2 : 1);
      }
      while (true) {
        const unsigned flag = *FlagBit(ch);
        if (flag & kTypeFlags) {
          return source_.Error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
        }
        del |= flag;
        TESSERA_ASSIGN_OR_RETURN(std::optional<Token> next2, source_.Get());
        if (!next2) return source_.Error("missing :");
        ch = *next2;
        if (ch.Is(':')) break;
        if (!FlagBit(ch)) {
          return source_.Error(IsAlpha(ch) ? "unknown flag" : "missing :", ch.escape ? 2 : 1);
        }
      }
    }
    if (del & kTemplate) return source_.Error("bad inline flags: cannot turn off global flag", 1);
    if (add & del) return source_.Error("bad inline flags: flag turned on and off", 1);
    return std::make_pair(add, del);
  }

  // The character set after '['; `here` is the position of '['.
  absl::StatusOr<Node> ParseSet(size_t here, unsigned flags) {
    Node set{Node::kSet};
    set.flags = flags;
    set.byte = source_.ByteOf(here);
    TESSERA_ASSIGN_OR_RETURN(set.negate, source_.Match('^'));
    bool empty = true;
    auto add = [&](const Node& item) {
      empty = false;
      if (item.kind == Node::kLiteral) {
        set.ranges.emplace_back(item.c, item.c);
      } else {
        set.categories.push_back(item.categories[0]);
      }
    };
    const auto unterminated = [&] {
      return source_.Error("unterminated character set", source_.tell() - here);
    };
    while (true) {
      const size_t this_pos = source_.tell();
      TESSERA_ASSIGN_OR_RETURN(std::optional<Token> t, source_.Get());
      if (!t) return unterminated();
      if (t->Is(']') && !empty) break;
      Node code1{Node::kLiteral};
      if (t->escape) {
        TESSERA_ASSIGN_OR_RETURN(code1, ClassEscape(*t, this_pos));
      } else {
        code1.c = t->c;
      }
      TESSERA_ASSIGN_OR_RETURN(bool dash, source_.Match('-'));
      if (!dash) {
        add(code1);
        continue;
      }
      const size_t that_pos = source_.tell();
      TESSERA_ASSIGN_OR_RETURN(std::optional<Token> that, source_.Get());
      if (!that) return unterminated();
      if (that->Is(']')) {
        add(code1);
        Node dash_literal{Node::kLiteral};
        dash_literal.c = '-';
        add(dash_literal);
        break;
      }
      Node code2{Node::kLiteral};
      if (that->escape) {
        TESSERA_ASSIGN_OR_RETURN(code2, ClassEscape(*that, that_pos));
      } else {
        code2.c = that->c;
      }
      const std::string range_text = absl::StrCat(t->Text(), "-", that->Text());
      const size_t range_length = (t->escape ? 2 : 1) + 1 + (that->escape ? 2 : 1);
      if (code1.kind != Node::kLiteral || code2.kind != Node::kLiteral || code2.c < code1.c) {
        return source_.Error(absl::StrCat("bad character range ", range_text), range_length);
      }
      empty = false;
      set.ranges.emplace_back(code1.c, code2.c);
    }
    return set;
  }

  // A quantifier after `this` (one of * + ? {) applied to the last item.
  // Returns false when '{' turned out to be a literal.
  absl::StatusOr<bool> ParseRepeat(const Token& this_token, size_t this_pos, Seq* subpattern) {
    const size_t here = source_.tell();
    uint64_t min = 0, max = kPyMaxRepeat;
    if (this_token.Is('?')) {
      max = 1;
    } else if (this_token.Is('+')) {
      min = 1;
    } else if (this_token.Is('{')) {
      if (source_.NextIs('}')) return false;
      std::string lo, hi;
      while (source_.NextIsDigit()) {
        TESSERA_ASSIGN_OR_RETURN(std::optional<Token> d, source_.Get());
        lo += static_cast<char>(d->c);
      }
      TESSERA_ASSIGN_OR_RETURN(bool comma, source_.Match(','));
      if (comma) {
        while (source_.NextIsDigit()) {
          TESSERA_ASSIGN_OR_RETURN(std::optional<Token> d, source_.Get());
          hi += static_cast<char>(d->c);
        }
      } else {
        hi = lo;
      }
      TESSERA_ASSIGN_OR_RETURN(bool close, source_.Match('}'));
      if (!close) {
        TESSERA_RETURN_IF_ERROR(source_.Seek(here));
        return false;
      }
      const auto number = [](const std::string& digits) {
        uint64_t v = 0;
        for (char d : digits) v = std::min<uint64_t>(v * 10 + (d - '0'), uint64_t{1} << 40);
        return v;
      };
      const auto too_large = [&] {
        return absl::InvalidArgumentError(absl::StrCat(
            "not a valid Python regular expression: the repetition number is too large (byte ",
            source_.ByteOf(this_pos), ")"));
      };
      if (!lo.empty()) {
        min = number(lo);
        if (min >= kPyMaxRepeat) return too_large();
      }
      if (!hi.empty()) {
        max = number(hi);
        if (max >= kPyMaxRepeat) return too_large();
        if (max < min) return source_.Error("min repeat greater than max repeat", source_.tell() - here);
      }
    }
    const size_t length = source_.tell() - here + 1;
    if (subpattern->empty() || subpattern->back().kind == Node::kAt) {
      return source_.Error("nothing to repeat", length);
    }
    if (subpattern->back().kind == Node::kRepeat) return source_.Error("multiple repeat", length);
    Node repeat{Node::kRepeat};
    repeat.byte = source_.ByteOf(this_pos);
    repeat.min = min;
    repeat.max = max;
    TESSERA_ASSIGN_OR_RETURN(bool lazy, source_.Match('?'));
    if (!lazy) {
      TESSERA_ASSIGN_OR_RETURN(repeat.possessive, source_.Match('+'));
    }
    repeat.text = source_.Text(this_pos, source_.tell());
    repeat.branches.push_back(Seq{std::move(subpattern->back())});
    subpattern->back() = std::move(repeat);
    return true;
  }

  // The group after '(' at `start`; appends to `subpattern`, or nothing for
  // comments and global flags.
  absl::Status ParseGroup(size_t start, bool* verbose, int nested, bool first, unsigned* flags,
                          Seq* subpattern) {
    const size_t start_byte = source_.ByteOf(start);
    bool capture = true;
    bool atomic = false;
    std::optional<std::string> name;
    unsigned add = 0, del = 0;
    if (++depth_ > kMaxGroupDepth) {
      return UnsupportedError(start_byte, "group nesting deeper than 200",
                              "Tessera's limit; Python itself gives up near 400");
    }
    TESSERA_ASSIGN_OR_RETURN(bool question, source_.Match('?'));
    if (question) {
      TESSERA_ASSIGN_OR_RETURN(std::optional<Token> ch, source_.Get());
      if (!ch) return source_.Error("unexpected end of pattern");
      if (ch->Is('P')) {
        TESSERA_ASSIGN_OR_RETURN(bool lt, source_.Match('<'));
        if (lt) {
          TESSERA_ASSIGN_OR_RETURN(name, source_.GetUntil('>', "group name"));
          TESSERA_RETURN_IF_ERROR(CheckGroupName(*name, 1));
        } else {
          TESSERA_ASSIGN_OR_RETURN(bool eq, source_.Match('='));
          if (!eq) {
            TESSERA_ASSIGN_OR_RETURN(std::optional<Token> c2, source_.Get());
            if (!c2) return source_.Error("unexpected end of pattern");
            return source_.Error(absl::StrCat("unknown extension ?P", c2->Text()),
                                 (c2->escape ? 2 : 1) + 2);
          }
          TESSERA_ASSIGN_OR_RETURN(std::string ref, source_.GetUntil(')', "group name"));
          TESSERA_RETURN_IF_ERROR(CheckGroupName(ref, 1));
          auto it = group_names_.find(ref);
          if (it == group_names_.end()) {
            return source_.Error(absl::StrCat("unknown group name ", PyStrRepr(ref)),
                                 CodePointCount(ref) + 1);
          } else {
            if (!CheckGroup(it->second)) {
              return source_.Error("cannot refer to an open group", CodePointCount(ref) + 1);
            }
            TESSERA_RETURN_IF_ERROR(CheckLookbehindGroup(it->second));
          }
          subpattern->push_back(Unsupported(start_byte, absl::StrCat("backreference '(?P=", ref, ")'"),
                                            "RE2 has no backreferences"));
          --depth_;
          return absl::OkStatus();
        }
      } else if (ch->Is(':')) {
        capture = false;
      } else if (ch->Is('#')) {
        while (true) {
          if (!source_.next()) {
            return source_.Error("missing ), unterminated comment", source_.tell() - start);
          }
          TESSERA_ASSIGN_OR_RETURN(std::optional<Token> c2, source_.Get());
          if (c2->Is(')')) break;
        }
        --depth_;
        return absl::OkStatus();
      } else if (ch->Is('=') || ch->Is('!') || ch->Is('<')) {
        std::string kind = ch->Text();
        const std::optional<size_t> saved_lookbehind = lookbehind_groups_;
        bool behind = false;
        if (ch->Is('<')) {
          TESSERA_ASSIGN_OR_RETURN(std::optional<Token> c2, source_.Get());
          if (!c2) return source_.Error("unexpected end of pattern");
          if (!c2->Is('=') && !c2->Is('!')) {
            return source_.Error(absl::StrCat("unknown extension ?<", c2->Text()),
                                 (c2->escape ? 2 : 1) + 2);
          }
          kind += c2->Text();
          behind = true;
          if (!lookbehind_groups_) lookbehind_groups_ = groups();
        }
        TESSERA_ASSIGN_OR_RETURN(Node p, ParseSub(*verbose, nested + 1, *flags));
        if (behind && !saved_lookbehind) lookbehind_groups_.reset();
        TESSERA_ASSIGN_OR_RETURN(bool close, source_.Match(')'));
        if (!close) return source_.Error("missing ), unterminated subpattern", source_.tell() - start);
        subpattern->push_back(Unsupported(
            start_byte,
            absl::StrCat(behind ? "lookbehind" : "lookahead", " assertion '(?", kind, "'"),
            "RE2 has no lookarounds"));
        --depth_;
        return absl::OkStatus();
      } else if (ch->Is('(')) {
        TESSERA_RETURN_IF_ERROR(ParseConditional(start, *verbose, nested, *flags, subpattern));
        --depth_;
        return absl::OkStatus();
      } else if (ch->Is('>')) {
        capture = false;
        atomic = true;
      } else if (FlagBit(*ch) || ch->Is('-')) {
        TESSERA_ASSIGN_OR_RETURN(auto parsed, ParseFlags(*ch));
        if (!parsed) {
          if (!first || !subpattern->empty()) {
            return source_.Error("global flags not at the start of the expression",
                                 source_.tell() - start);
          }
          if (global_flags_ & kTemplate) {
            RecordUnsupported(start_byte, "the TEMPLATE flag '(?t)'",
                              "Python's undocumented, deprecated flag");
          }
          *verbose = global_flags_ & kVerbose;
          *flags = CombineFlags(*flags, global_flags_, 0);
          --depth_;
          return absl::OkStatus();
        }
        add = parsed->first;
        del = parsed->second;
        capture = false;
      } else {
        return source_.Error(absl::StrCat("unknown extension ?", ch->Text()),
                             (ch->escape ? 2 : 1) + 1);
      }
    }
    std::optional<uint64_t> gid;
    if (capture) {
      gid = groups();
      group_closed_.push_back(false);
      if (name) {
        auto [it, inserted] = group_names_.emplace(*name, *gid);
        if (!inserted) {
          return source_.Error(absl::StrFormat("redefinition of group name %s as group %d; was group %d",
                                               PyStrRepr(*name), *gid, it->second),
                               CodePointCount(*name) + 1);
        }
      }
    }
    const bool sub_verbose = (*verbose || (add & kVerbose)) && !(del & kVerbose);
    TESSERA_ASSIGN_OR_RETURN(Node p, ParseSub(sub_verbose, nested + 1, CombineFlags(*flags, add, del)));
    TESSERA_ASSIGN_OR_RETURN(bool close, source_.Match(')'));
    if (!close) return source_.Error("missing ), unterminated subpattern", source_.tell() - start);
    if (gid) group_closed_[*gid] = true;
    p.byte = start_byte;
    if (atomic) {
      subpattern->push_back(Unsupported(start_byte, "atomic group '(?>'", "RE2 has no atomic groups"));
    } else {
      subpattern->push_back(std::move(p));
    }
    --depth_;
    return absl::OkStatus();
  }

  // (?(id/name)yes|no)
  absl::Status ParseConditional(size_t start, bool verbose, int nested, unsigned flags,
                                Seq* subpattern) {
    TESSERA_ASSIGN_OR_RETURN(std::string cond, source_.GetUntil(')', "group name"));
    uint64_t group = 0;
    if (IsAsciiIdentifier(cond) || (!IsAscii(cond) && MaybeIdentifier(cond))) {
      auto it = group_names_.find(cond);
      if (it == group_names_.end()) {
        return source_.Error(absl::StrCat("unknown group name ", PyStrRepr(cond)), CodePointCount(cond) + 1);
      }
      group = it->second;
    } else {
      const std::optional<int64_t> number = IsAscii(cond) ? PyInt(cond) : std::nullopt;
      if (!number || *number < 0) {
        return source_.Error(absl::StrCat("bad character in group name ", PyStrRepr(cond)),
                             CodePointCount(cond) + 1);
      }
      group = static_cast<uint64_t>(*number);
      if (group == 0) return source_.Error("bad group number", CodePointCount(cond) + 1);
      if (group >= (uint64_t{1} << 30)) {  // MAXGROUPS on 64-bit builds
        return source_.Error(absl::StrCat("invalid group reference ", group), CodePointCount(cond) + 1);
      }
      if (!group_ref_pos_.count(group)) {
        group_ref_pos_[group] = source_.tell() - CodePointCount(cond) - 1;
      }
    }
    TESSERA_RETURN_IF_ERROR(CheckLookbehindGroup(group));
    TESSERA_ASSIGN_OR_RETURN(Seq yes, ParseSeq(verbose, nested + 1, false, flags));
    TESSERA_ASSIGN_OR_RETURN(bool bar, source_.Match('|'));
    if (bar) {
      TESSERA_ASSIGN_OR_RETURN(Seq no, ParseSeq(verbose, nested + 1, false, flags));
      if (source_.NextIs('|')) {
        return source_.Error("conditional backref with more than two branches");
      }
    }
    TESSERA_ASSIGN_OR_RETURN(bool close, source_.Match(')'));
    if (!close) return source_.Error("missing ), unterminated subpattern", source_.tell() - start);
    subpattern->push_back(Unsupported(source_.ByteOf(start), "conditional group '(?('",
                                      "RE2 has no conditionals"));
    return absl::OkStatus();
  }

  // _parse: a sequence.
  absl::StatusOr<Seq> ParseSeq(bool verbose, int nested, bool first, unsigned flags) {
    Seq subpattern;
    while (true) {
      const std::optional<Token>& next = source_.next();
      if (!next) break;
      if (next->Is('|') || next->Is(')')) break;
      const size_t this_pos = source_.tell();
      TESSERA_ASSIGN_OR_RETURN(std::optional<Token> t, source_.Get());
      const Token this_token = *t;
      if (verbose) {
        if (!this_token.escape && IsWhitespace(this_token.c)) continue;
        if (this_token.Is('#')) {
          while (true) {
            TESSERA_ASSIGN_OR_RETURN(std::optional<Token> c, source_.Get());
            if (!c || c->Is('\n')) break;
          }
          continue;
        }
      }
      if (this_token.escape) {
        TESSERA_ASSIGN_OR_RETURN(Node n, Escape(this_token, this_pos));
        n.flags = flags;
        subpattern.push_back(std::move(n));
        continue;
      }
      const uint32_t c = this_token.c;
      if (c == '[') {
        TESSERA_ASSIGN_OR_RETURN(Node set, ParseSet(this_pos, flags));
        subpattern.push_back(std::move(set));
      } else if (c == '*' || c == '+' || c == '?' || c == '{') {
        TESSERA_ASSIGN_OR_RETURN(bool repeated, ParseRepeat(this_token, this_pos, &subpattern));
        if (!repeated) {
          Node lit{Node::kLiteral};
          lit.flags = flags;
          lit.byte = source_.ByteOf(this_pos);
          lit.c = '{';
          subpattern.push_back(lit);
        }
      } else if (c == '.') {
        Node any{Node::kAny};
        any.flags = flags;
        any.byte = source_.ByteOf(this_pos);
        subpattern.push_back(any);
      } else if (c == '(') {
        TESSERA_RETURN_IF_ERROR(ParseGroup(this_pos, &verbose, nested, first, &flags, &subpattern));
      } else if (c == '^' || c == '$') {
        Node at{Node::kAt};
        at.flags = flags;
        at.byte = source_.ByteOf(this_pos);
        at.at = c == '^' ? At::kBeginning : At::kEnd;
        subpattern.push_back(at);
      } else {
        Node lit{Node::kLiteral};
        lit.flags = flags;
        lit.byte = source_.ByteOf(this_pos);
        lit.c = c;
        subpattern.push_back(lit);
      }
    }
    return subpattern;
  }

  Tokenizer& source_;
  std::optional<Node> unsupported_;
  unsigned global_flags_ = 0;
  std::vector<bool> group_closed_{true};  // group 0
  std::map<std::string, uint64_t> group_names_;
  std::map<uint64_t, size_t> group_ref_pos_;
  std::optional<size_t> lookbehind_groups_;
  int depth_ = 0;
};

// ---------------------------------------------------------------------------
// Emitting RE2 syntax.

void Normalize(Ranges* r) {
  std::sort(r->begin(), r->end());
  Ranges out;
  for (const auto& [lo, hi] : *r) {
    if (!out.empty() && lo <= out.back().second + 1) {
      out.back().second = std::max(out.back().second, hi);
    } else {
      out.emplace_back(lo, hi);
    }
  }
  *r = std::move(out);
}

Ranges Complement(Ranges r) {
  Normalize(&r);
  Ranges out;
  uint32_t next = 0;
  for (const auto& [lo, hi] : r) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  if (next <= kMaxCodePoint) out.emplace_back(next, kMaxCodePoint);
  return out;
}

// Python's str.isspace set, which \s matches in str patterns.
const Ranges& UnicodeSpace() {
  static const Ranges* const kSpace = new Ranges{
      {0x09, 0x0D}, {0x1C, 0x20}, {0x85, 0x85},     {0xA0, 0xA0},     {0x1680, 0x1680},
      {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}};
  return *kSpace;
}
const Ranges& AsciiSpace() {
  static const Ranges* const kSpace = new Ranges{{0x09, 0x0D}, {0x20, 0x20}};
  return *kSpace;
}
const Ranges& AsciiDigit() {
  static const Ranges* const kDigit = new Ranges{{'0', '9'}};
  return *kDigit;
}
const Ranges& AsciiWord() {
  static const Ranges* const kWord = new Ranges{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  return *kWord;
}

// What Python's IGNORECASE matches for an ASCII character (str.lower plus
// re._casefix): computed from CPython 3.11 over all of Unicode.
void AddCaseVariants(uint32_t c, bool ascii_only, Ranges* out) {
  out->emplace_back(c, c);
  if (!IsAsciiLetter(c)) return;
  const uint32_t other = c ^ 0x20;
  out->emplace_back(other, other);
  if (ascii_only) return;
  switch (c | 0x20) {
    case 'i':
      out->emplace_back(0x130, 0x131);  // İ (lowercases to i), ı (uppercases to I)
      break;
    case 'k':
      out->emplace_back(0x212A, 0x212A);  // KELVIN SIGN
      break;
    case 's':
      out->emplace_back(0x17F, 0x17F);  // LONG S
      break;
    default:
      break;
  }
}

std::string ClassChar(uint32_t c) {
  if (c < 0x80 && (IsAsciiLetter(c) || IsDigit(c))) return std::string(1, static_cast<char>(c));
  return absl::StrFormat("\\x{%X}", c);
}

std::string ClassBody(const Ranges& ranges) {
  std::string out;
  for (const auto& [lo, hi] : ranges) {
    absl::StrAppend(&out, ClassChar(lo));
    if (hi != lo) absl::StrAppend(&out, hi == lo + 1 ? "" : "-", ClassChar(hi));
  }
  return out;
}

std::string ClassOf(const Ranges& ranges) {
  if (ranges.empty()) return "[^\\x{0}-\\x{10FFFF}]";  // matches nothing
  if (ranges.size() == 1 && ranges[0].first == ranges[0].second) return ClassChar(ranges[0].first);
  return absl::StrCat("[", ClassBody(ranges), "]");
}

class Emitter {
 public:
  explicit Emitter(PythonRegexUse use) : use_(use) {}

  absl::Status Alternation(const std::vector<Seq>& branches, bool final, uint64_t budget,
                           std::string* out) {
    for (size_t i = 0; i < branches.size(); ++i) {
      if (i > 0) out->push_back('|');
      TESSERA_RETURN_IF_ERROR(Sequence(branches[i], final, budget, out));
    }
    return absl::OkStatus();
  }

 private:
  absl::Status Sequence(const Seq& seq, bool final, uint64_t budget, std::string* out) {
    for (size_t i = 0; i < seq.size(); ++i) {
      TESSERA_RETURN_IF_ERROR(One(seq[i], final && i + 1 == seq.size(), budget, out));
    }
    return absl::OkStatus();
  }

  absl::Status One(const Node& n, bool final, uint64_t budget, std::string* out) {
    switch (n.kind) {
      case Node::kUnsupported:
        return UnsupportedError(n.byte, n.text, n.why);
      case Node::kLiteral:
      case Node::kSet:
        return Set(n, out);
      case Node::kAny:
        absl::StrAppend(out, (n.flags & kDotAll) ? "(?s:.)" : "[^\\n]");
        return absl::OkStatus();
      case Node::kAt:
        return Assertion(n, final, out);
      case Node::kGroup:
        absl::StrAppend(out, "(?:");
        TESSERA_RETURN_IF_ERROR(Alternation(n.branches, final, budget, out));
        absl::StrAppend(out, ")");
        return absl::OkStatus();
      case Node::kRepeat:
        return Repeat(n, final, budget, out);
    }
    return absl::OkStatus();
  }

  absl::Status Assertion(const Node& n, bool final, std::string* out) {
    const bool multiline = n.flags & kMultiline;
    switch (n.at) {
      case At::kBeginning:
        absl::StrAppend(out, multiline ? "(?m:^)" : "^");
        return absl::OkStatus();
      case At::kBeginningString:
        absl::StrAppend(out, "\\A");
        return absl::OkStatus();
      case At::kEndString:
        absl::StrAppend(out, "\\z");
        return absl::OkStatus();
      case At::kEnd:
        if (multiline) {
          absl::StrAppend(out, "(?m:$)");
        } else if (!final) {
          return UnsupportedError(n.byte, "'$' followed by more of the pattern",
                                  "Python's '$' also matches before a final newline, which RE2 "
                                  "can express only at the end of the pattern; use \\Z for the "
                                  "end of the path");
        } else {
          // Nothing follows, so consuming the final newline changes no answer.
          absl::StrAppend(out, use_ == PythonRegexUse::kSearch ? "\\n?\\z" : "\\z");
        }
        return absl::OkStatus();
      case At::kBoundary:
      case At::kNonBoundary: {
        const bool boundary = n.at == At::kBoundary;
        if (!(n.flags & kAscii)) {
          return UnsupportedError(
              n.byte, boundary ? "word boundary '\\b'" : "non-boundary '\\B'",
              "Python's counts non-ASCII letters and digits as word characters, RE2's only "
              "ASCII ones; write (?a) for ASCII word boundaries");
        }
        absl::StrAppend(out, boundary ? "\\b" : "\\B");
        return absl::OkStatus();
      }
    }
    return absl::OkStatus();
  }

  absl::Status Repeat(const Node& n, bool final, uint64_t budget, std::string* out) {
    if (n.possessive) {
      return UnsupportedError(n.byte, absl::StrCat("possessive quantifier '", n.text, "'"),
                              "RE2 has no possessive quantifiers");
    }
    std::string quantifier;
    const bool unbounded = n.max == kPyMaxRepeat;
    if (n.min == 0 && unbounded) {
      quantifier = "*";
    } else if (n.min == 1 && unbounded) {
      quantifier = "+";
    } else if (n.min == 0 && n.max == 1) {
      quantifier = "?";
    } else {
      if (n.min > kRe2MaxRepeat || (!unbounded && n.max > kRe2MaxRepeat)) {
        return UnsupportedError(n.byte, absl::StrCat("repetition count '", n.text, "' above 1000"),
                                "RE2's limit");
      }
      // RE2 divides its budget of 1000 by each nested count (RepetitionWalker).
      const uint64_t m = unbounded ? n.min : n.max;
      if (m > 0) budget /= m;
      if (budget == 0) {
        return UnsupportedError(
            n.byte, absl::StrCat("repetition '", n.text, "' nested in counts multiplying past 1000"),
            "RE2's limit");
      }
      quantifier = unbounded ? absl::StrCat("{", n.min, ",}")
                   : n.min == n.max ? absl::StrCat("{", n.min, "}")
                                    : absl::StrCat("{", n.min, ",", n.max, "}");
    }
    absl::StrAppend(out, "(?:");
    TESSERA_RETURN_IF_ERROR(Alternation(n.branches, final && n.max <= 1, budget, out));
    absl::StrAppend(out, ")", quantifier);
    return absl::OkStatus();
  }

  // A literal or a set, with Python's meaning of categories and IGNORECASE.
  absl::Status Set(const Node& n, std::string* out) {
    const bool ascii = n.flags & kAscii;
    Ranges ranges = n.ranges;
    bool negate = n.negate;
    if (n.kind == Node::kLiteral) ranges = {{n.c, n.c}};
    if (n.flags & kIgnoreCase) {
      Ranges folded;
      for (const auto& [lo, hi] : ranges) {
        if (!ascii && hi >= 0x80) {
          return UnsupportedError(n.byte, "case-insensitive non-ASCII character",
                                  "Python folds case with its own Unicode tables; write the "
                                  "cases out, or add (?a) for ASCII-only folding");
        }
        for (uint32_t c = lo; c <= hi && c < 0x80; ++c) AddCaseVariants(c, ascii, &folded);
        if (hi >= 0x80) folded.emplace_back(std::max<uint32_t>(lo, 0x80), hi);
      }
      ranges = std::move(folded);
    }
    // Categories: in ASCII mode and for \s, explicit ranges; Unicode \d and
    // \w stay RE2 properties. Negated properties are kept apart (`negated`).
    std::vector<std::string> positive_props;
    std::optional<Category> negated;  // kDigit or kWord
    for (Category cat : n.categories) {
      switch (cat) {
        case Category::kSpace:
          Append(ascii ? AsciiSpace() : UnicodeSpace(), &ranges);
          break;
        case Category::kNotSpace:
          Append(Complement(ascii ? AsciiSpace() : UnicodeSpace()), &ranges);
          break;
        case Category::kDigit:
          if (ascii) {
            Append(AsciiDigit(), &ranges);
          } else {
            positive_props.push_back("\\p{Nd}");
          }
          break;
        case Category::kWord:
          if (ascii) {
            Append(AsciiWord(), &ranges);
          } else {
            positive_props.push_back("\\p{L}\\p{N}_");
          }
          break;
        case Category::kNotDigit:
          if (ascii) {
            Append(Complement(AsciiDigit()), &ranges);
          } else {
            negated = Category::kDigit;  // not-digit covers not-word: Nd is within \w
          }
          break;
        case Category::kNotWord:
          if (ascii) {
            Append(Complement(AsciiWord()), &ranges);
          } else if (!negated) {
            negated = Category::kWord;
          }
          break;
      }
    }
    Normalize(&ranges);
    std::string body = ClassBody(ranges);
    for (const std::string& p : positive_props) absl::StrAppend(&body, p);
    if (!negated) {
      if (positive_props.empty()) {
        absl::StrAppend(out, negate ? ClassOf(Complement(ranges)) : ClassOf(ranges));
      } else {
        absl::StrAppend(out, "[", negate ? "^" : "", body, "]");
      }
      return absl::OkStatus();
    }
    // X = ranges and positive properties; Q = the negated category.
    // [X\Q] is X or not-Q; [^X\Q] is Q and not X, i.e. each part q of Q
    // minus X, which RE2 writes as [^<not q>X].
    const std::vector<std::string> not_parts =
        *negated == Category::kDigit
            ? std::vector<std::string>{"\\P{Nd}"}
            : std::vector<std::string>{"\\P{L}", "\\P{N}", ClassBody(Complement({{'_', '_'}}))};
    if (!negate) {
      const std::string not_q = *negated == Category::kDigit ? "\\P{Nd}" : "[^\\p{L}\\p{N}_]";
      if (body.empty()) {
        absl::StrAppend(out, not_q);
      } else {
        absl::StrAppend(out, "(?:[", body, "]|", not_q, ")");
      }
      return absl::OkStatus();
    }
    absl::StrAppend(out, "(?:");
    for (size_t i = 0; i < not_parts.size(); ++i) {
      absl::StrAppend(out, i > 0 ? "|" : "", "[^", not_parts[i], body, "]");
    }
    absl::StrAppend(out, ")");
    return absl::OkStatus();
  }

  static void Append(const Ranges& from, Ranges* to) { to->insert(to->end(), from.begin(), from.end()); }

  const PythonRegexUse use_;
};

// `.*` (any flags, greedy or lazy): it matches every run of characters on a
// line, the empty one included.
bool IsAnyStar(const Node& n) {
  return n.kind == Node::kRepeat && n.min == 0 && n.max == kPyMaxRepeat && !n.possessive &&
         n.branches.size() == 1 && n.branches[0].size() == 1 &&
         n.branches[0][0].kind == Node::kAny;
}

// re.search tries every start, so a `.*` opening an alternative changes no
// answer (it may match the empty string there). RE2 runs it as a thread alive
// at every byte of the path, and a layout map's RE2::Set then builds every DFA
// state around the threads of all such patterns: with 1,000 rules opening
// with `.*`, a lookup of a never-seen path cost 4x what it cost without them.
void DropLeadingAnyStars(Node* root) {
  for (Seq& branch : root->branches) {
    auto first = branch.begin();
    while (first != branch.end() && IsAnyStar(*first)) ++first;
    branch.erase(branch.begin(), first);
  }
}

}  // namespace

absl::StatusOr<std::string> TranslatePythonRegex(absl::string_view pattern, PythonRegexUse use) {
  std::vector<uint32_t> cps;
  std::vector<size_t> bytes;
  if (!DecodeUtf8(pattern, &cps, &bytes)) {
    return absl::InvalidArgumentError("not a valid Python regular expression: it is not valid UTF-8");
  }
  Tokenizer source(std::move(cps), std::move(bytes));
  Parser parser(&source);
  TESSERA_ASSIGN_OR_RETURN(Node root, parser.Parse());
  if (const std::optional<Node>& unsupported = parser.unsupported()) {
    return UnsupportedError(unsupported->byte, unsupported->text, unsupported->why);
  }
  if (use == PythonRegexUse::kSearch) DropLeadingAnyStars(&root);
  std::string out;
  Emitter emitter(use);
  TESSERA_RETURN_IF_ERROR(emitter.Alternation(root.branches, true, kRe2MaxRepeat, &out));
  return out;
}

}  // namespace tessera
