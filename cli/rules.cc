// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/rules.h"

#include <cctype>

#include "cli/handles.h"
#include "cli/text_input.h"

namespace tessera_cli {
namespace {

// The built-in rules, in the file format so that they go through the same
// parser as a user's file. Conv1D weights in Hugging Face's GPT-2 are stored
// (in, out), so "column-parallel" shards dimension 1 and "row-parallel"
// dimension 0.
constexpr char kDefaultRules[] = R"(# GPT-2 small, Megatron-style tensor parallelism over the 'model' axis.
# Token embedding: vocabulary rows split over 'model' (VocabParallelEmbedding).
# 50257 rows do not divide by 4: the strict check flags it.
wte\.weight -> (model, None)
# Attention: fused q/k/v projection column-parallel, its bias split with it.
attn\.c_attn\.weight -> (None, model)
attn\.c_attn\.bias -> (model,)
# Output projections of attention and MLP, row-parallel: one rule for both.
# No rule names c_proj.bias: a row-parallel layer adds its bias after the
# all-reduce, so both c_proj biases fall through to "no rule" (replicated),
# as does wpe.weight (position embeddings are small and replicated).
c_proj\.weight -> (model, None)
# MLP: first projection column-parallel, its bias split with it.
mlp\.c_fc\.weight -> (None, model)
mlp\.c_fc\.bias -> (model,)
# Layer norms replicated, written out rather than left to the default.
ln_(1|2|f)\.(weight|bias) -> (None,)
)";

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

std::string FormatEntry(const AxisGroup& group) {
  if (group.empty()) return "None";
  if (group.size() == 1) return group[0];
  std::string text = "(";
  for (size_t i = 0; i < group.size(); ++i) text += (i ? ", " : "") + group[i];
  return text + ")";
}

// Recursive descent over the tuple grammar:
//   tuple := '(' [entry (',' entry)* [',']] ')'
//   entry := 'None' | name | '(' name (',' name)* [','] ')'
// A one-entry tuple needs its trailing comma, as in Python: "(model)" is a
// parenthesised name there, not a tuple.
class AxesParser {
 public:
  explicit AxesParser(std::string_view text) : text_(text) {}

  std::vector<AxisGroup> Parse() {
    bool trailing_comma = false;
    std::vector<AxisGroup> axes;
    Expect('(');
    if (!Accept(')')) {
      do {
        if (Peek() == ')') break;  // a trailing comma
        axes.push_back(Entry());
        trailing_comma = false;
      } while ((trailing_comma = Accept(',')));
      Expect(')');
    }
    if (axes.size() == 1 && !trailing_comma) {
      Fail("a one-entry tuple needs a trailing comma, as in (" + FormatEntry(axes[0]) + ",)");
    }
    SkipSpace();
    if (pos_ != text_.size()) Fail("unexpected '" + std::string(text_.substr(pos_)) + "' after ')'");
    return axes;
  }

 private:
  AxisGroup Entry() {
    if (Accept('(')) {
      AxisGroup group;
      do {
        if (Peek() == ')' && !group.empty()) break;
        std::string name = Name();
        if (name == "None") Fail("None cannot be part of an axis group");
        group.push_back(name);
      } while (Accept(','));
      Expect(')');
      return group;
    }
    std::string name = Name();
    if (name == "None") return {};
    return {name};
  }

  std::string Name() {
    SkipSpace();
    if (pos_ < text_.size() && (text_[pos_] == '\'' || text_[pos_] == '"')) {
      char quote = text_[pos_++];
      size_t end = text_.find(quote, pos_);
      if (end == std::string_view::npos) Fail("unterminated quoted axis name");
      std::string name(text_.substr(pos_, end - pos_));
      pos_ = end + 1;
      if (name.empty()) Fail("empty axis name");
      return name;
    }
    size_t start = pos_;
    while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
    if (start == pos_) Fail("expected an axis name or None at " + Where());
    return std::string(text_.substr(start, pos_ - start));
  }

  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  bool Accept(char c) {
    if (Peek() != c) return false;
    ++pos_;
    return true;
  }

  void Expect(char c) {
    if (!Accept(c)) Fail(std::string("expected '") + c + "' at " + Where());
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  std::string Where() const {
    if (pos_ >= text_.size()) return "the end";
    return "column " + std::to_string(pos_ + 1) + " ('" + std::string(text_.substr(pos_)) + "')";
  }

  [[noreturn]] void Fail(const std::string& problem) const {
    throw InputError("axes '" + std::string(text_) + "': " + problem);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// Splits "pattern -> axes  # comment". The pattern is everything before the
// last "->" (axes never contain one); a comment may follow the axes only,
// since '#' is an ordinary character in a pattern.
Rule ParseRuleLine(const Line& line) {
  size_t arrow = line.text.rfind("->");
  if (arrow == std::string::npos) {
    throw InputError("expected 'pattern -> axes', found no '->' in '" + line.text + "'");
  }
  std::string_view pattern = Trim(std::string_view(line.text).substr(0, arrow));
  std::string_view axes = std::string_view(line.text).substr(arrow + 2);
  axes = Trim(axes.substr(0, axes.find('#')));
  if (pattern.empty()) throw InputError("empty pattern before '->'");
  if (axes.empty()) throw InputError("no axes after '->' for pattern '" + std::string(pattern) + "'");
  return {std::string(pattern), ParseAxes(axes), line.number};
}

}  // namespace

RuleSet ParseRules(std::string_view text, const std::string& source) {
  RuleSet set{source, {}};
  for (const Line& line : ContentLines(text)) {
    try {
      set.rules.push_back(ParseRuleLine(line));
    } catch (const InputError& e) {
      throw InputError(source + ":" + std::to_string(line.number) + ": " + e.what());
    }
  }
  return set;
}

RuleSet DefaultRules() { return ParseRules(kDefaultRules, "built-in GPT-2 rules"); }

std::vector<AxisGroup> ParseAxes(std::string_view text) { return AxesParser(text).Parse(); }

std::string FormatAxes(const std::vector<AxisGroup>& axes) {
  std::string text = "(";
  for (size_t i = 0; i < axes.size(); ++i) text += (i ? ", " : "") + FormatEntry(axes[i]);
  return text + (axes.size() == 1 ? ",)" : ")");
}

}  // namespace tessera_cli
