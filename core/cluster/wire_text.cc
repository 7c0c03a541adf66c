// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/wire_text.h"

#include <google/protobuf/stubs/common.h>

#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace tessera::cluster {
namespace {

bool IsUtf8(absl::string_view text) {
  // Protobuf's own check (what its parser applies), which takes an int: text
  // longer than that is no identifier, and free text that long is escaped.
  if (text.size() > static_cast<size_t>(std::numeric_limits<int>::max())) return false;
  return google::protobuf::internal::IsStructurallyValidUTF8(text.data(), static_cast<int>(text.size()));
}

void AppendEscaped(std::string* out, absl::string_view text) {
  for (const char c : text) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') {
      absl::StrAppendFormat(out, "\\x%02x", u);
    } else {
      out->push_back(c);
    }
  }
}

}  // namespace

std::string ShownText(absl::string_view text) {
  constexpr size_t kShown = 64;
  std::string out = "\"";
  AppendEscaped(&out, text.substr(0, kShown));
  out += text.size() > kShown ? "\"..." : "\"";
  return out;
}

absl::Status CheckWireId(absl::string_view argument, absl::string_view text) {
  if (text.size() > kMaxIdBytes) {
    return absl::InvalidArgumentError(absl::StrCat("Argument '", argument, "' ", ShownText(text), " has ",
                                                   text.size(), " bytes; expected at most ", kMaxIdBytes,
                                                   " bytes (the length limit of keys and ids)"));
  }
  if (!IsUtf8(text)) {
    return absl::InvalidArgumentError(absl::StrCat("Argument '", argument, "' is ", ShownText(text),
                                                   ", which is not UTF-8 text; expected valid UTF-8"));
  }
  return absl::OkStatus();
}

std::string AsWireText(absl::string_view text) {
  if (IsUtf8(text)) return std::string(text);
  std::string out;
  AppendEscaped(&out, text);
  return out;
}

}  // namespace tessera::cluster
