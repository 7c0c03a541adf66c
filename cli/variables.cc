// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/variables.h"

#include <unordered_map>

#include "cli/handles.h"
#include "cli/text_input.h"

namespace tessera_cli {

std::vector<int64_t> ParseShape(std::string_view text) {
  std::string compact;
  for (char c : text) {
    if (c != ' ' && c != '\t') compact += c;
  }
  std::string_view inner = compact;
  if (inner.size() >= 2 && inner.front() == '(' && inner.back() == ')') {
    inner = inner.substr(1, inner.size() - 2);
  }
  if (!inner.empty() && inner.back() == ',') inner.remove_suffix(1);  // "(768,)"
  std::vector<int64_t> dims;
  if (inner.empty()) {
    if (compact != "()") {
      throw InputError("shape '" + std::string(Trim(text)) + "' has no sizes (a scalar is '()')");
    }
    return dims;
  }
  while (true) {
    size_t comma = inner.find(',');
    std::string_view size = inner.substr(0, comma);
    int64_t dim = 0;
    if (!ParseNonNegative(size, &dim)) {
      throw InputError("shape '" + std::string(Trim(text)) + "': '" + std::string(size) +
                       "' is not a size (a whole number >= 0 that fits in int64)");
    }
    dims.push_back(dim);
    if (comma == std::string_view::npos) break;
    inner = inner.substr(comma + 1);
  }
  return dims;
}

namespace {

Variable ParseVariableLine(const Line& line) {
  std::string_view text = line.text;
  size_t space = text.find_first_of(" \t");
  if (space == std::string_view::npos) {
    throw InputError("expected 'name shape', found only '" + line.text + "'");
  }
  return {std::string(text.substr(0, space)), ParseShape(text.substr(space + 1)), line.number};
}

}  // namespace

VariableSet ParseVariables(std::string_view text, const std::string& source) {
  VariableSet set{source, {}};
  std::unordered_map<std::string, int> first_line;
  for (const Line& line : ContentLines(text)) {
    std::string where = source + ":" + std::to_string(line.number) + ": ";
    try {
      set.variables.push_back(ParseVariableLine(line));
    } catch (const InputError& e) {
      throw InputError(where + e.what());
    }
    auto [it, inserted] = first_line.emplace(set.variables.back().name, line.number);
    if (!inserted) {
      throw InputError(where + "variable '" + it->first + "' already defined on line " +
                       std::to_string(it->second));
    }
  }
  return set;
}

VariableSet DefaultVariables() {
  constexpr int64_t kVocab = 50257, kPositions = 1024, kWidth = 768, kLayers = 12;
  VariableSet set{"built-in GPT-2 small (124M)", {}};
  auto add = [&set](std::string name, std::vector<int64_t> dims) {
    set.variables.push_back({std::move(name), std::move(dims), 0});
  };
  add("wte.weight", {kVocab, kWidth});
  add("wpe.weight", {kPositions, kWidth});
  for (int64_t layer = 0; layer < kLayers; ++layer) {
    std::string h = "h." + std::to_string(layer) + ".";
    add(h + "ln_1.weight", {kWidth});
    add(h + "ln_1.bias", {kWidth});
    add(h + "attn.c_attn.weight", {kWidth, 3 * kWidth});
    add(h + "attn.c_attn.bias", {3 * kWidth});
    add(h + "attn.c_proj.weight", {kWidth, kWidth});
    add(h + "attn.c_proj.bias", {kWidth});
    add(h + "ln_2.weight", {kWidth});
    add(h + "ln_2.bias", {kWidth});
    add(h + "mlp.c_fc.weight", {kWidth, 4 * kWidth});
    add(h + "mlp.c_fc.bias", {4 * kWidth});
    add(h + "mlp.c_proj.weight", {4 * kWidth, kWidth});
    add(h + "mlp.c_proj.bias", {kWidth});
  }
  add("ln_f.weight", {kWidth});
  add("ln_f.bias", {kWidth});
  return set;
}

std::string FormatShape(const std::vector<int64_t>& dims) {
  std::string text = "(";
  for (size_t i = 0; i < dims.size(); ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + (dims.size() == 1 ? ",)" : ")");
}

}  // namespace tessera_cli
