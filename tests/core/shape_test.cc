// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Checked shape arithmetic: Python's tuple repr, products that refuse to
// overflow, and the non-negative check on tensor shapes.
#include "core/shape.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::IsOk;
using testing::StatusIs;
using testing::Unwrap;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

TEST(ShapeToStringTest, EmptyShapeIsAnEmptyTuple) {
  EXPECT_EQ(ShapeToString(std::vector<int64_t>{}), "()");
}

TEST(ShapeToStringTest, OneDimensionHasATrailingComma) {
  EXPECT_EQ(ShapeToString(std::vector<int64_t>{8}), "(8,)");
}

TEST(ShapeToStringTest, DimensionsAreCommaSpaceSeparated) {
  EXPECT_EQ(ShapeToString(std::vector<int64_t>{4, 2}), "(4, 2)");
  EXPECT_EQ(ShapeToString(std::vector<int64_t>{1, 0, -3}), "(1, 0, -3)");
}

TEST(CheckedProductTest, MultipliesTheDimensions) {
  EXPECT_EQ(Unwrap(CheckedProduct(std::vector<int64_t>{4, 2, 3}, "shape")), 24);
}

TEST(CheckedProductTest, EmptyProductIsOne) {
  EXPECT_EQ(Unwrap(CheckedProduct(std::vector<int64_t>{}, "shape")), 1);
}

TEST(CheckedProductTest, LargestRepresentableProductIsFine) {
  EXPECT_EQ(Unwrap(CheckedProduct(std::vector<int64_t>{kMax, 1}, "shape")), kMax);
}

TEST(CheckedProductTest, OverflowFailsNamingTheArgument) {
  constexpr int64_t kBig = int64_t{1} << 32;
  EXPECT_THAT(CheckedProduct(std::vector<int64_t>{kBig, kBig}, "devices"),
              StatusIs(kInvalid, AllOf(HasSubstr("devices"), HasSubstr("overflow"))));
}

TEST(CheckedMulTest, MultipliesTwoValues) {
  EXPECT_EQ(Unwrap(CheckedMul(int64_t{1} << 31, int64_t{1} << 31, "shape")), int64_t{1} << 62);
  EXPECT_EQ(Unwrap(CheckedMul(0, kMax, "shape")), 0);
}

TEST(CheckedMulTest, OverflowFailsNamingTheArgument) {
  EXPECT_THAT(CheckedMul(int64_t{1} << 32, int64_t{1} << 31, "shape"),
              StatusIs(kInvalid, AllOf(HasSubstr("shape"), HasSubstr("overflow"))));
  EXPECT_THAT(CheckedMul(kMax, 2, "shape"), StatusIs(kInvalid, HasSubstr("shape")));
}

TEST(CheckTensorShapeTest, AcceptsZeroAndPositiveDimensions) {
  EXPECT_THAT(CheckTensorShape(std::vector<int64_t>{0, 3, 1}, "shape"), IsOk());
  EXPECT_THAT(CheckTensorShape(std::vector<int64_t>{}, "shape"), IsOk());
}

TEST(CheckTensorShapeTest, RejectsANegativeDimensionNamingTheArgumentAndValue) {
  EXPECT_THAT(CheckTensorShape(std::vector<int64_t>{4, -2}, "data_shape"),
              StatusIs(kInvalid, AllOf(HasSubstr("data_shape"), HasSubstr("-2"))));
}

TEST(CheckTensorShapeTest, AcceptsTheMaximumRank) {
  EXPECT_THAT(CheckTensorShape(std::vector<int64_t>(kMaxRank, 1), "shape"), IsOk());
}

TEST(CheckTensorShapeTest, RejectsARankAboveTheMaximumNamingIt) {
  EXPECT_THAT(CheckTensorShape(std::vector<int64_t>(kMaxRank + 1, 1), "shape"),
              StatusIs(kInvalid, HasSubstr("Argument 'shape' has rank 1025; expected at most 1024")));
}

}  // namespace
}  // namespace tessera
