// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Keras conformance: LayoutMap (keras_cases.md K31, K33, K37, K39, K137,
// K141, K143).
//
// Tessera's default key match is re.search (Keras 3.0-3.13). The HEAD
// vectors K31 and K39 are written for re.fullmatch (Keras 3.14+) and run with
// KeyMatch::kFullMatch; the legacy vector K37 runs with KeyMatch::kSearch.
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/layout_map.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::HasSubstr;
using testing::CpuMesh;
using testing::IsOk;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

// The vectors' mesh-less layouts, as compact specs (see testing::Layout).
const std::vector<std::string> kS2 = {"", "model"};  // TensorLayout([None, "model"])
const std::vector<std::string> kS1 = {"model"};      // TensorLayout(["model"])
const std::vector<std::string> kR2 = {"", ""};       // TensorLayout([None, None])
const std::vector<std::string> kR1 = {""};           // TensorLayout([None])
const std::vector<std::string> kConv = {"", "", "", "model"};

struct Lookup {
  const char* path;
  // The key whose layout the path selects; nullptr for "no match" or an error.
  const char* key;
  // For a multi-match error: the list of matching keys in the message.
  const char* matching_keys = nullptr;
};

struct LayoutMapCase {
  const char* name;
  KeyMatch match;
  std::vector<std::pair<std::string, std::vector<std::string>>> rules;  // insertion order
  std::vector<Lookup> lookups;
};

// Failure messages name the vector, not the bytes of the row.
void PrintTo(const LayoutMapCase& c, std::ostream* os) { *os << c.name; }

const LayoutMapCase kLayoutMapCases[] = {
    // K31 (HEAD, fullmatch): exact keys win; a path matching two patterns fails.
    {"K31_FullMatch",
     KeyMatch::kFullMatch,
     {{"dense/kernel", kS2}, {"dense/bias", kS1}, {".*dense.*kernel", kR2}, {".*dense.*bias", kR1}, {".*bias", kS1}},
     {{"dense/kernel", "dense/kernel"},
      {"dense/bias", "dense/bias"},
      {"dense_2/kernel", ".*dense.*kernel"},
      {"dense_2/bias", nullptr, "['.*dense.*bias', '.*bias']"},
      {"conv2d/kernel", nullptr},
      {"conv2d/bias", ".*bias"}}},
    // K37 (v3.0-v3.13, re.search): the same map with unanchored keys.
    {"K37_Search",
     KeyMatch::kSearch,
     {{"dense/kernel", kS2}, {"dense/bias", kS1}, {"dense.*kernel", kR2}, {"dense.*bias", kR1}, {"bias", kS1}},
     {{"dense/kernel", "dense/kernel"},
      {"dense/bias", "dense/bias"},
      {"dense_2/kernel", "dense.*kernel"},
      {"dense_2/bias", nullptr, "['dense.*bias', 'bias']"},
      {"conv2d/kernel", nullptr},
      {"conv2d/bias", "bias"}}},
    // K39 (HEAD LayoutMap docstring, fullmatch).
    {"K39_Docstring",
     KeyMatch::kFullMatch,
     {{".*dense.*kernel", kS2}, {".*dense.*bias", kS1}, {".*conv2d.*kernel", kConv}, {".*conv2d.*bias", kS1}},
     {{"dense_1.kernel", ".*dense.*kernel"},
      {"dense_1.bias", ".*dense.*bias"},
      {"dense_2.kernel", ".*dense.*kernel"},
      {"dense_2.bias", ".*dense.*bias"},
      {"my_model/conv2d_123/kernel", ".*conv2d.*kernel"},
      {"my_model/conv2d_123/bias", ".*conv2d.*bias"},
      {"my_model/conv3d_1/kernel", nullptr},
      {"my_model/conv3d_1/bias", nullptr}}},
};

class LayoutMapCaseTest : public ::testing::TestWithParam<LayoutMapCase> {
 protected:
  MeshPtr mesh_ = CpuMesh({4, 2}, {"data", "model"});
};

TEST_P(LayoutMapCaseTest, EveryLookupSelectsTheExpectedRule) {
  const LayoutMapCase& c = GetParam();
  LayoutMap map(mesh_, c.match);
  for (const auto& [key, spec] : c.rules) ASSERT_THAT(map.Set(key, Layout(spec)), IsOk()) << key;
  for (const Lookup& lookup : c.lookups) {
    SCOPED_TRACE(lookup.path);
    auto found = map.Get(lookup.path);
    if (lookup.matching_keys != nullptr) {
      EXPECT_THAT(found, StatusIs(absl::StatusCode::kFailedPrecondition,
                                  HasSubstr(std::string("Path '") + lookup.path +
                                            "' matches multiple layout specification keys: " +
                                            lookup.matching_keys)));
      continue;
    }
    LayoutPtr layout = Unwrap(found);
    if (lookup.key == nullptr) {
      EXPECT_EQ(layout, nullptr);
      continue;
    }
    // "is": the very layout stored under the expected key.
    size_t index = 0;
    while (index < map.size() && map.key(index) != lookup.key) ++index;
    ASSERT_LT(index, map.size());
    EXPECT_EQ(layout, map.layout(index));
    EXPECT_EQ(Unwrap(map.Find(lookup.path)), static_cast<int64_t>(index));
  }
}

INSTANTIATE_TEST_SUITE_P(Keras, LayoutMapCaseTest, ::testing::ValuesIn(kLayoutMapCases),
                         [](const auto& info) { return std::string(info.param.name); });

class KerasLayoutMapTest : public ::testing::Test {
 protected:
  MeshPtr mesh_ = CpuMesh({4, 2}, {"data", "model"});
};

// K33: len counts the rules.
TEST_F(KerasLayoutMapTest, K33_SizeCountsTheRules) {
  LayoutMap map(mesh_);
  EXPECT_EQ(map.size(), 0u);
  ASSERT_THAT(map.Set("dense/kernel", Layout(kS2)), IsOk());
  ASSERT_THAT(map.Set("dense/bias", Layout(kS1)), IsOk());
  EXPECT_EQ(map.size(), 2u);
}

// K137: mesh injection validates the axes; the key is not inserted.
TEST_F(KerasLayoutMapTest, K137_InjectionFailureInsertsNothing) {
  LayoutMap map(mesh_);
  EXPECT_THAT(map.Set("k", Layout({"data", "bogus"})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Invalid axis names for Layout")));
  EXPECT_EQ(map.size(), 0u);
}

// K141: Keras stores the invalid pattern "dense[" and fails at lookup.
// Tessera decides against Keras (ARCHITECTURE.md): the pattern is refused at
// insertion, so lookups never fail on it.
TEST_F(KerasLayoutMapTest, K141_InvalidPatternIsRefusedAtInsertion) {
  LayoutMap map(mesh_);
  EXPECT_THAT(map.Set("dense[", Layout(kS1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Argument 'key' 'dense[' is not a valid Python regular expression: "
                                 "unterminated character set at position 5")));
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(Unwrap(map.Get("other")), nullptr);
}

// K143: no match is None, never an error.
TEST_F(KerasLayoutMapTest, K143_NoMatchIsNone) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("dense.*kernel", Layout(kS2)), IsOk());
  EXPECT_EQ(Unwrap(map.Get("nomatch")), nullptr);
  EXPECT_EQ(Unwrap(map.Find("nomatch")), -1);
}

}  // namespace
}  // namespace tessera
