#include "core/formats/keras_repr.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/distribution.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "core/shape.h"

namespace tessera {

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
  return absl::StrCat(
      "[", absl::StrJoin(items, ", ", [](std::string* out, const std::string& s) {
        out->append(PyStrRepr(s));
      }),
      "]");
}

std::string PyStrSetRepr(std::vector<std::string> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  if (items.empty()) return "set()";
  return absl::StrCat(
      "{", absl::StrJoin(items, ", ", [](std::string* out, const std::string& s) {
        out->append(PyStrRepr(s));
      }),
      "}");
}

std::string PyAxisGroupRepr(absl::Span<const std::string> group) {
  if (group.empty()) return "None";
  if (group.size() == 1) return PyStrRepr(group[0]);
  std::vector<std::string> parts;
  for (const std::string& axis : group) parts.push_back(PyStrRepr(axis));
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

std::string PyAxesRepr(absl::Span<const std::vector<std::string>> axes) {
  std::vector<std::string> parts;
  for (const auto& group : axes) parts.push_back(PyAxisGroupRepr(group));
  if (parts.size() == 1) return absl::StrCat("(", parts[0], ",)");
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

std::string KerasRepr(const DeviceMesh& mesh) {
  return absl::StrCat("<DeviceMesh shape=", ShapeToString(mesh.shape()),
                      ", axis_names=", PyStrListRepr(mesh.axis_names()), ">");
}

std::string KerasRepr(const TensorLayout& layout) {
  return absl::StrCat("<TensorLayout axes=", PyAxesRepr(layout.axes()), ", device_mesh=",
                      layout.mesh() ? KerasRepr(*layout.mesh()) : "None", ">");
}

std::string KerasRepr(const Distribution& distribution) {
  const char* name = distribution.kind() == DistributionKind::kDataParallel
                         ? "DataParallel"
                         : "ModelParallel";
  return absl::StrCat("<", name, " device_mesh=", KerasRepr(*distribution.mesh()), ">");
}

}  // namespace tessera
