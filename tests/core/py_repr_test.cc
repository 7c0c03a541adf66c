// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Python repr helpers: the quoting and punctuation every Keras-style
// ToString builds on.
#include "core/py_repr.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tessera {
namespace {

TEST(PyStrReprTest, QuotesWithSingleQuotes) {
  EXPECT_EQ(PyStrRepr("abc"), "'abc'");
  EXPECT_EQ(PyStrRepr(""), "''");
}

TEST(PyStrReprTest, UsesDoubleQuotesWhenTheTextHasOnlySingleQuotes) {
  EXPECT_EQ(PyStrRepr("it's"), "\"it's\"");
}

TEST(PyStrReprTest, EscapesSingleQuotesWhenTheTextHasBothKinds) {
  EXPECT_EQ(PyStrRepr("a'b\"c"), "'a\\'b\"c'");
}

TEST(PyStrReprTest, KeepsDoubleQuotesInsideSingleQuotes) {
  EXPECT_EQ(PyStrRepr("say \"hi\""), "'say \"hi\"'");
}

TEST(PyStrReprTest, EscapesBackslashes) {
  EXPECT_EQ(PyStrRepr("a\\b"), "'a\\\\b'");
}

TEST(PyStrReprTest, EscapesNamedControlCharacters) {
  EXPECT_EQ(PyStrRepr("a\nb\tc\rd"), "'a\\nb\\tc\\rd'");
}

TEST(PyStrReprTest, EscapesOtherControlCharactersInHex) {
  EXPECT_EQ(PyStrRepr(std::string("a\x01z\x7f", 4)), "'a\\x01z\\x7f'");
  EXPECT_EQ(PyStrRepr(std::string("\0", 1)), "'\\x00'");
}

TEST(PyStrListReprTest, PrintsAPythonList) {
  EXPECT_EQ(PyStrListRepr(std::vector<std::string>{"batch", "model"}), "['batch', 'model']");
  EXPECT_EQ(PyStrListRepr(std::vector<std::string>{"x"}), "['x']");
}

TEST(PyStrListReprTest, EmptyListIsBrackets) {
  EXPECT_EQ(PyStrListRepr(std::vector<std::string>{}), "[]");
}

TEST(PyStrSetReprTest, PrintsASortedPythonSet) {
  EXPECT_EQ(PyStrSetRepr({"model", "data"}), "{'data', 'model'}");
}

TEST(PyStrSetReprTest, DropsDuplicates) {
  EXPECT_EQ(PyStrSetRepr({"b", "a", "b"}), "{'a', 'b'}");
}

TEST(PyStrSetReprTest, EmptySetIsSetCall) {
  EXPECT_EQ(PyStrSetRepr({}), "set()");
}

TEST(PyIntListReprTest, PrintsAPythonList) {
  EXPECT_EQ(PyIntListRepr(std::vector<int64_t>{2, -1}), "[2, -1]");
  EXPECT_EQ(PyIntListRepr(std::vector<int64_t>{}), "[]");
}

TEST(PyTupleReprTest, JoinsItemsAlreadyInReprForm) {
  EXPECT_EQ(PyTupleRepr(std::vector<std::string>{"'a'", "None"}), "('a', None)");
}

TEST(PyTupleReprTest, OneItemHasATrailingComma) {
  EXPECT_EQ(PyTupleRepr(std::vector<std::string>{"None"}), "(None,)");
}

TEST(PyTupleReprTest, NoItemsIsAnEmptyTuple) {
  EXPECT_EQ(PyTupleRepr(std::vector<std::string>{}), "()");
}

TEST(PyStrTupleReprTest, QuotesEachItem) {
  EXPECT_EQ(PyStrTupleRepr(std::vector<std::string>{"dp", "it's"}), "('dp', \"it's\")");
  EXPECT_EQ(PyStrTupleRepr(std::vector<std::string>{"tp"}), "('tp',)");
}

TEST(PyAxisGroupReprTest, ReplicatedIsNone) {
  EXPECT_EQ(PyAxisGroupRepr(std::vector<std::string>{}), "None");
}

TEST(PyAxisGroupReprTest, OneAxisIsItsName) {
  EXPECT_EQ(PyAxisGroupRepr(std::vector<std::string>{"model"}), "'model'");
}

TEST(PyAxisGroupReprTest, SeveralAxesAreATuple) {
  EXPECT_EQ(PyAxisGroupRepr(std::vector<std::string>{"data", "model"}), "('data', 'model')");
}

TEST(PyAxesReprTest, PrintsAPythonTuple) {
  std::vector<std::vector<std::string>> axes = {{"data"}, {}};
  EXPECT_EQ(PyAxesRepr(axes), "('data', None)");
}

TEST(PyAxesReprTest, OneDimensionHasATrailingComma) {
  std::vector<std::vector<std::string>> axes = {{"model"}};
  EXPECT_EQ(PyAxesRepr(axes), "('model',)");
}

TEST(PyAxesReprTest, NoDimensionsIsAnEmptyTuple) {
  EXPECT_EQ(PyAxesRepr(std::vector<std::vector<std::string>>{}), "()");
}

}  // namespace
}  // namespace tessera
