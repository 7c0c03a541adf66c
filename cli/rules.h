// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Layout rules as the CLI reads them: one "pattern -> axes" per line, axes
// written as a Python tuple: (None, model), (model,), ((batch, model), None).
#ifndef TESSERA_CLI_RULES_H_
#define TESSERA_CLI_RULES_H_

#include <string>
#include <string_view>
#include <vector>

namespace tessera_cli {

// The mesh axes one tensor dimension is split over; empty = replicated (None).
using AxisGroup = std::vector<std::string>;

struct Rule {
  std::string pattern;
  std::vector<AxisGroup> axes;
  int line;  // where the rule was read, for error messages
};

struct RuleSet {
  std::string source;  // the file name, or a description of the built-in set
  std::vector<Rule> rules;
};

// Parses a rules file. Blank lines and lines starting with '#' are skipped; a
// '#' after the axes starts a comment. InputError "<source>:<line>: <problem>".
RuleSet ParseRules(std::string_view text, const std::string& source);

// Megatron-style rules for GPT-2 small on a (batch, model) mesh.
RuleSet DefaultRules();

// The axes tuple `text`, e.g. "((batch, model), None)". Axis names are bare
// identifiers or quoted strings. InputError describing the problem.
std::vector<AxisGroup> ParseAxes(std::string_view text);

// The inverse of ParseAxes, without quotes: "((batch, model), None)".
std::string FormatAxes(const std::vector<AxisGroup>& axes);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_RULES_H_
