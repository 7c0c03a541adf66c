// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/py_repr.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace tessera {
namespace {

std::vector<std::string> StrReprs(absl::Span<const std::string> items) {
  std::vector<std::string> reprs;
  reprs.reserve(items.size());
  for (const std::string& item : items) reprs.push_back(PyStrRepr(item));
  return reprs;
}

}  // namespace

std::string PyStrRepr(absl::string_view s) {
  // Python picks double quotes only when the text has a single quote and no
  // double quote.
  const bool has_single = s.find('\'') != absl::string_view::npos;
  const bool has_double = s.find('"') != absl::string_view::npos;
  const char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (const char c : s) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == quote || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      absl::StrAppendFormat(&out, "\\x%02x", u);
    } else {
      out += c;  // printable ASCII and UTF-8 bytes pass through
    }
  }
  out += quote;
  return out;
}

std::string PyStrListRepr(absl::Span<const std::string> items) {
  return absl::StrCat("[", absl::StrJoin(StrReprs(items), ", "), "]");
}

std::string PyIntListRepr(absl::Span<const int64_t> values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

std::string PyStrSetRepr(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  if (items.empty()) return "set()";
  return absl::StrCat("{", absl::StrJoin(StrReprs(items), ", "), "}");
}

std::string PyTupleRepr(absl::Span<const std::string> item_reprs) {
  // A one-item tuple needs its trailing comma to stay a tuple.
  if (item_reprs.size() == 1) return absl::StrCat("(", item_reprs[0], ",)");
  return absl::StrCat("(", absl::StrJoin(item_reprs, ", "), ")");
}

std::string PyStrTupleRepr(absl::Span<const std::string> items) {
  return PyTupleRepr(StrReprs(items));
}

std::string PyAxisGroupRepr(absl::Span<const std::string> group) {
  if (group.empty()) return "None";
  if (group.size() == 1) return PyStrRepr(group[0]);
  return absl::StrCat("(", absl::StrJoin(StrReprs(group), ", "), ")");
}

std::string PyAxesRepr(absl::Span<const std::vector<std::string>> axes) {
  std::vector<std::string> parts;
  parts.reserve(axes.size());
  for (const auto& group : axes) parts.push_back(PyAxisGroupRepr(group));
  return PyTupleRepr(parts);
}

}  // namespace tessera
