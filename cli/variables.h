// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The variables to plan: one "name shape" per line, or the built-in GPT-2
// small (124M) with its Hugging Face names and shapes.
#ifndef TESSERA_CLI_VARIABLES_H_
#define TESSERA_CLI_VARIABLES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera_cli {

struct Variable {
  std::string name;
  std::vector<int64_t> dims;
  int line;  // where it was read (0 for built-in variables)
};

struct VariableSet {
  std::string source;  // the file name, or a description of the built-in set
  std::vector<Variable> variables;
};

// Parses a variables file: "name shape" per line, the shape as comma-separated
// sizes ("768,2304"; spaces and surrounding parentheses allowed, "()" for a
// scalar). Blank lines and '#' lines are skipped; names must be distinct.
// InputError "<source>:<line>: <problem>".
VariableSet ParseVariables(std::string_view text, const std::string& source);

// GPT-2 small as Hugging Face's GPT2Model names it: 148 variables,
// 124,439,808 parameters.
VariableSet DefaultVariables();

// A shape as comma-separated sizes: "768,2304", "(768, 2304)", "(768,)", "()".
// InputError "shape '<text>': <problem>".
std::vector<int64_t> ParseShape(std::string_view text);

// Python's tuple form: (50257, 768), (768,), ().
std::string FormatShape(const std::vector<int64_t>& dims);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_VARIABLES_H_
