// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/slurm_nodelist.h"

#include <cstdint>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"

namespace tessera::cluster {
namespace {

// lo..hi printed with at least `width` digits.
struct Range {
  uint64_t lo = 0;
  uint64_t hi = 0;
  int width = 0;
  uint64_t count() const { return hi - lo + 1; }
};

// A name is literal text and bracket groups in turn.
struct Segment {
  std::string literal;       // used when ranges is empty
  std::vector<Range> ranges;  // a bracket group
};
using Pattern = std::vector<Segment>;

absl::Status Malformed(absl::string_view nodelist, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Slurm node list \"", nodelist, "\" is malformed: ", why));
}

bool AllDigits(absl::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

absl::StatusOr<uint64_t> Number(absl::string_view nodelist, absl::string_view text) {
  uint64_t value = 0;
  // 18 digits keep every later +1 and product inside uint64_t.
  if (!AllDigits(text) || text.size() > 18 || !absl::SimpleAtoi(text, &value)) {
    return Malformed(nodelist, absl::StrCat("\"", text, "\" is not a number in a bracket group"));
  }
  return value;
}

absl::StatusOr<std::vector<Range>> ParseGroup(absl::string_view nodelist, absl::string_view group) {
  std::vector<Range> ranges;
  for (absl::string_view item : absl::StrSplit(group, ',')) {
    Range range;
    const std::pair<absl::string_view, absl::string_view> bounds = absl::StrSplit(item, absl::MaxSplits('-', 1));
    const bool is_range = item.find('-') != absl::string_view::npos;
    TESSERA_ASSIGN_OR_RETURN(range.lo, Number(nodelist, bounds.first));
    range.hi = range.lo;
    if (is_range) {
      TESSERA_ASSIGN_OR_RETURN(range.hi, Number(nodelist, bounds.second));
      if (range.hi < range.lo) {
        return Malformed(nodelist, absl::StrCat("range \"", item, "\" ends before it starts"));
      }
    }
    range.width = static_cast<int>(bounds.first.size());
    ranges.push_back(range);
  }
  return ranges;
}

// Splits on commas outside brackets and parses each name.
absl::StatusOr<std::vector<Pattern>> Parse(absl::string_view nodelist) {
  std::vector<Pattern> patterns;
  Pattern current;
  std::string literal;
  size_t i = 0;
  auto finish_name = [&]() -> absl::Status {
    if (!literal.empty()) current.push_back(Segment{std::move(literal), {}});
    literal.clear();
    if (current.empty()) return Malformed(nodelist, "empty host name");
    patterns.push_back(std::move(current));
    current.clear();
    return absl::OkStatus();
  };
  if (nodelist.empty()) return Malformed(nodelist, "empty");
  while (i < nodelist.size()) {
    const char c = nodelist[i];
    if (c == '[') {
      const size_t close = nodelist.find(']', i);
      if (close == absl::string_view::npos) return Malformed(nodelist, "'[' without ']'");
      const absl::string_view group = nodelist.substr(i + 1, close - i - 1);
      if (group.find('[') != absl::string_view::npos) return Malformed(nodelist, "nested '['");
      if (!literal.empty()) current.push_back(Segment{std::move(literal), {}});
      literal.clear();
      TESSERA_ASSIGN_OR_RETURN(std::vector<Range> ranges, ParseGroup(nodelist, group));
      current.push_back(Segment{"", std::move(ranges)});
      i = close + 1;
    } else if (c == ']') {
      return Malformed(nodelist, "']' without '['");
    } else if (c == ',') {
      TESSERA_RETURN_IF_ERROR(finish_name());
      ++i;
    } else if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      return Malformed(nodelist, "whitespace in a host name");
    } else {
      literal.push_back(c);
      ++i;
    }
  }
  TESSERA_RETURN_IF_ERROR(finish_name());
  return patterns;
}

std::string Format(uint64_t value, int width) { return absl::StrFormat("%0*d", width, value); }

// Appends every host of `pattern` from segment `index` on, after `prefix`.
absl::Status ExpandFrom(const Pattern& pattern, size_t index, const std::string& prefix, size_t max_hosts,
                        absl::string_view nodelist, std::vector<std::string>& out) {
  if (index == pattern.size()) {
    if (out.size() >= max_hosts) {
      return absl::OutOfRangeError(
          absl::StrCat("Slurm node list \"", nodelist, "\" names more than ", max_hosts, " hosts"));
    }
    out.push_back(prefix);
    return absl::OkStatus();
  }
  const Segment& segment = pattern[index];
  if (segment.ranges.empty()) {
    return ExpandFrom(pattern, index + 1, prefix + segment.literal, max_hosts, nodelist, out);
  }
  for (const Range& range : segment.ranges) {
    for (uint64_t value = range.lo; value <= range.hi; ++value) {
      TESSERA_RETURN_IF_ERROR(
          ExpandFrom(pattern, index + 1, prefix + Format(value, range.width), max_hosts, nodelist, out));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<std::string>> ExpandSlurmNodelist(absl::string_view nodelist, size_t max_hosts) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<Pattern> patterns, Parse(nodelist));
  std::vector<std::string> hosts;
  for (const Pattern& pattern : patterns) {
    TESSERA_RETURN_IF_ERROR(ExpandFrom(pattern, 0, "", max_hosts, nodelist, hosts));
  }
  return hosts;
}

absl::StatusOr<std::string> FirstSlurmHost(absl::string_view nodelist) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<Pattern> patterns, Parse(nodelist));
  std::string host;
  for (const Segment& segment : patterns.front()) {
    host += segment.ranges.empty() ? segment.literal
                                   : Format(segment.ranges.front().lo, segment.ranges.front().width);
  }
  return host;
}

}  // namespace tessera::cluster
