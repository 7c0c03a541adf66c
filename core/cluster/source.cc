// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/source.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/status_macros.h"

namespace tessera::cluster {

const std::string* FindVar(const Environment& env, absl::string_view name) {
  const auto it = env.find(name);
  return it == env.end() ? nullptr : &it->second;
}

Presence CheckPresence(const Environment& env, absl::Span<const char* const> names) {
  Presence presence;
  for (const char* name : names) {
    (FindVar(env, name) != nullptr ? presence.present : presence.missing).emplace_back(name);
  }
  return presence;
}

std::string DescribePartial(const Presence& presence) {
  return absl::StrCat(absl::StrJoin(presence.present, ", "), " present but ", absl::StrJoin(presence.missing, ", "),
                      " missing");
}

std::string DescribeAbsent(absl::Span<const char* const> names) {
  return absl::StrCat("none of ", absl::StrJoin(names, ", "), " set");
}

absl::StatusOr<int64_t> ParseIntVar(absl::string_view name, absl::string_view value) {
  int64_t parsed = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(value), &parsed)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Environment variable ", name, " must be an integer, got \"", value, "\""));
  }
  return parsed;
}

absl::StatusOr<int64_t> ParseIntVarAtLeast(absl::string_view name, absl::string_view value, int64_t min) {
  TESSERA_ASSIGN_OR_RETURN(const int64_t parsed, ParseIntVar(name, value));
  if (parsed < min) {
    return absl::InvalidArgumentError(
        absl::StrCat("Environment variable ", name, " must be >= ", min, ", got ", parsed));
  }
  return parsed;
}

}  // namespace tessera::cluster
