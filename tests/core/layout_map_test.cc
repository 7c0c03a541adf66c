// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// LayoutMap: insertion order, mesh injection, insertion errors, exact-key
// precedence, search and fullmatch semantics, multi-match errors, deletion,
// copies and concurrent lookups.
#include "core/layout_map.h"

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::CpuMesh;
using testing::IsOk;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

class LayoutMapTest : public ::testing::Test {
 protected:
  MeshPtr mesh_ = CpuMesh({4, 2}, {"data", "model"});
};

TEST_F(LayoutMapTest, NewMapIsEmptyAndKeepsItsMeshAndMatchMode) {
  LayoutMap map(mesh_, KeyMatch::kFullMatch);
  EXPECT_EQ(map.size(), 0u);
  EXPECT_EQ(map.mesh(), mesh_);
  EXPECT_EQ(map.match(), KeyMatch::kFullMatch);
}

TEST_F(LayoutMapTest, DefaultMatchIsSearch) {
  EXPECT_EQ(LayoutMap(mesh_).match(), KeyMatch::kSearch);
}

TEST_F(LayoutMapTest, SetAppendsRulesInInsertionOrder) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("b", Layout({"model"})), IsOk());
  ASSERT_THAT(map.Set("a", Layout({"", "model"})), IsOk());
  ASSERT_EQ(map.size(), 2u);
  EXPECT_EQ(map.key(0), "b");
  EXPECT_EQ(map.key(1), "a");
  EXPECT_EQ(*map.layout(1), Layout({"", "model"}, mesh_));
}

TEST_F(LayoutMapTest, SetGivesAMeshlessLayoutTheMapsMesh) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("k", Layout({"model"})), IsOk());
  EXPECT_EQ(map.layout(0)->mesh(), mesh_);
}

TEST_F(LayoutMapTest, SetKeepsALayoutsOwnMesh) {
  MeshPtr other = CpuMesh({8}, {"x"});
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("k", Layout({"x"}, other)), IsOk());
  EXPECT_EQ(map.layout(0)->mesh(), other);
}

TEST_F(LayoutMapTest, MapWithoutAMeshKeepsLayoutsMeshless) {
  LayoutMap map(nullptr);
  ASSERT_THAT(map.Set("k", Layout({"anything"})), IsOk());
  EXPECT_EQ(map.layout(0)->mesh(), nullptr);
}

TEST_F(LayoutMapTest, DuplicateKeyIsAlreadyExistsWithKerasMessage) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("dense/kernel", Layout({"", "model"})), IsOk());
  EXPECT_THAT(map.Set("dense/kernel", Layout({"model", ""})),
              StatusIs(absl::StatusCode::kAlreadyExists,
                       HasSubstr("dense/kernel already exist in the LayoutMap with value "
                                 "<TensorLayout axes=(None, 'model'), device_mesh=<DeviceMesh "
                                 "shape=(4, 2), axis_names=['data', 'model']>>. Please make sure "
                                 "to not use duplicated keys.")));
  EXPECT_EQ(map.size(), 1u);
}

TEST_F(LayoutMapTest, EmptyKeyIsRejected) {
  LayoutMap map(mesh_);
  EXPECT_THAT(map.Set("", Layout({"model"})), StatusIs(kInvalid, HasSubstr("'key' is empty")));
  EXPECT_EQ(map.size(), 0u);
}

// Keras stores any key and fails at lookup; Tessera rejects a pattern RE2
// cannot compile when it is inserted (ARCHITECTURE.md).
TEST_F(LayoutMapTest, InvalidPatternIsRejectedAtInsertionNamingTheKeyAndTheReason) {
  LayoutMap map(mesh_);
  EXPECT_THAT(map.Set("dense[", Layout({"model"})),
              StatusIs(kInvalid, "Argument 'key' 'dense[' is not a valid Python regular expression: "
                                 "unterminated character set at position 5"));
  EXPECT_EQ(map.size(), 0u);
}

TEST_F(LayoutMapTest, LayoutWithAxesTheMeshLacksIsRejectedAndNotInserted) {
  LayoutMap map(mesh_);
  EXPECT_THAT(map.Set("k", Layout({"data", "bogus"})),
              StatusIs(kInvalid, HasSubstr("Invalid axis names for Layout")));
  EXPECT_EQ(map.size(), 0u);
}

TEST_F(LayoutMapTest, ExactKeyWinsOverPatterns) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("dense.*", Layout({"model"})), IsOk());
  ASSERT_THAT(map.Set("dense/kernel", Layout({"", "model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), 1);
}

TEST_F(LayoutMapTest, AKeyIsItsOwnExactMatchEvenWhenItsPatternWouldNotMatchIt) {
  LayoutMap map(mesh_, KeyMatch::kFullMatch);
  ASSERT_THAT(map.Set("a+b", Layout({"model"})), IsOk());  // as a pattern: "ab", "aab", ...
  EXPECT_EQ(Unwrap(map.Find("a+b")), 0);
}

TEST_F(LayoutMapTest, SearchMatchesAnywhereInThePath) {
  LayoutMap map(mesh_, KeyMatch::kSearch);
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("decoder/dense_3/kernel_a")), 0);
}

TEST_F(LayoutMapTest, SearchHonoursAnchors) {
  LayoutMap map(mesh_, KeyMatch::kSearch);
  ASSERT_THAT(map.Set("^dense/", Layout({"", "model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), 0);
  EXPECT_EQ(Unwrap(map.Find("model/dense/kernel")), -1);
}

TEST_F(LayoutMapTest, FullMatchNeedsTheWholePath) {
  LayoutMap map(mesh_, KeyMatch::kFullMatch);
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), -1);
  ASSERT_THAT(map.Set(".*dense.*kernel", Layout({"model", ""})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), 1);
}

// re.fullmatch("a|b", "ab") is None: the whole alternation is anchored, not
// its first and last branches.
TEST_F(LayoutMapTest, FullMatchAnchorsTheWholeAlternation) {
  LayoutMap map(mesh_, KeyMatch::kFullMatch);
  ASSERT_THAT(map.Set("dense|conv", Layout({"model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("conv")), 0);
  EXPECT_EQ(Unwrap(map.Find("dense")), 0);
  EXPECT_EQ(Unwrap(map.Find("denseconv")), -1);
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), -1);
}

TEST_F(LayoutMapTest, NoMatchIsMinusOneAndANullLayout) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("dense.*kernel", Layout({"", "model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("conv2d/bias")), -1);
  EXPECT_EQ(Unwrap(map.Get("conv2d/bias")), nullptr);
}

TEST_F(LayoutMapTest, EmptyMapMatchesNothing) {
  LayoutMap map(mesh_);
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), -1);
}

TEST_F(LayoutMapTest, GetReturnsTheStoredLayout) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("dense.*kernel", Layout({"", "model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Get("dense_1/kernel")), map.layout(0));
}

TEST_F(LayoutMapTest, SeveralMatchesFailListingEveryKeyInInsertionOrder) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("bias", Layout({"model"})), IsOk());
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  ASSERT_THAT(map.Set("dense.*bias", Layout({""})), IsOk());
  EXPECT_THAT(map.Find("dense_2/bias"),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Path 'dense_2/bias' matches multiple layout specification keys: "
                                 "['bias', 'dense.*bias']. Please make sure each tensor/variable "
                                 "path only matches at most one layout specification key in the "
                                 "LayoutMap.")));
  EXPECT_THAT(map.Get("dense_2/bias"), StatusIs(absl::StatusCode::kFailedPrecondition,
                                                HasSubstr("['bias', 'dense.*bias']")));
}

// Keras's f"Path '{key}'": the path as it is, only the key list through repr.
TEST_F(LayoutMapTest, SeveralMatchesPrintThePathRawAndTheKeysAsRepr) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("a.b", Layout({"model"})), IsOk());
  ASSERT_THAT(map.Set("a..", Layout({""})), IsOk());
  EXPECT_THAT(map.Get("a\\b"), StatusIs(absl::StatusCode::kFailedPrecondition,
                                        HasSubstr("Path 'a\\b' matches multiple layout specification keys: "
                                                  "['a.b', 'a..']")));
}

// Rules opening with `.*` run without it under re.search (python_regex.h);
// the error still names them as written.
TEST_F(LayoutMapTest, SeveralMatchesListRulesOpeningWithDotStarAsWritten) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set(".*dense.*", Layout({"model"})), IsOk());
  ASSERT_THAT(map.Set("conv", Layout({""})), IsOk());
  ASSERT_THAT(map.Set(".*?kernel$", Layout({"", "model"})), IsOk());
  EXPECT_THAT(map.Find("dense/kernel"),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Path 'dense/kernel' matches multiple layout specification keys: "
                                 "['.*dense.*', '.*?kernel$']")));
}

// re.search(".*", p) matches every path, the empty one and one with a newline.
TEST_F(LayoutMapTest, DotStarAloneMatchesEveryPathInSearch) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set(".*", Layout({"model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("")), 0);
  EXPECT_EQ(Unwrap(map.Find("dense\nkernel")), 0);
}

// re.search(".*kernel", "dense\nkernel") matches (from after the newline);
// re.fullmatch does not ('.' is not a newline).
TEST_F(LayoutMapTest, LeadingDotStarKeepsItsMeaningAcrossANewline) {
  LayoutMap search(mesh_, KeyMatch::kSearch);
  LayoutMap full(mesh_, KeyMatch::kFullMatch);
  for (LayoutMap* map : {&search, &full}) {
    ASSERT_THAT(map->Set(".*kernel", Layout({"", "model"})), IsOk());
  }
  EXPECT_EQ(Unwrap(search.Find("dense\nkernel")), 0);
  EXPECT_EQ(Unwrap(full.Find("dense\nkernel")), -1);
  EXPECT_EQ(Unwrap(full.Find("dense/kernel")), 0);
}

TEST_F(LayoutMapTest, LeadingDotStarInEveryAlternativeOfARule) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set(".*query|.*key", Layout({"", "model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("attention/key/kernel")), 0);
  EXPECT_EQ(Unwrap(map.Find("attention/value/kernel")), -1);
}

// Per-layer rules, a third of them opening with `.*`: a path that three of
// the 1,000 match names those three in insertion order.
TEST_F(LayoutMapTest, ThousandRulesListEveryMatchInInsertionOrder) {
  LayoutMap map(mesh_);
  for (int layer = 0; layer < 1000; ++layer) {
    const std::string key = layer % 3 == 0   ? absl::StrCat(".*layers\\.", layer, "\\.mlp")
                            : layer % 3 == 1 ? absl::StrCat("^model\\.layers\\.", layer, "\\.")
                                             : absl::StrCat("layers\\.", layer, "\\.(q|k)_proj$");
    ASSERT_THAT(map.Set(key, Layout({"model"})), IsOk());
  }
  ASSERT_EQ(map.size(), 1000u);
  EXPECT_EQ(Unwrap(map.Find("model.layers.998.v_proj")), -1);
  EXPECT_EQ(Unwrap(map.Find("model.layers.999.mlp")), 999);
  EXPECT_EQ(Unwrap(map.Find("model.layers.997.self_attn")), 997);
  EXPECT_EQ(Unwrap(map.Find("x.layers.998.k_proj")), 998);
  EXPECT_THAT(map.Find("model.layers.4.mlp/layers.3.mlp/layers.5.q_proj"),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("keys: ['.*layers\\\\.3\\\\.mlp', '^model\\\\.layers\\\\.4\\\\.', "
                                 "'layers\\\\.5\\\\.(q|k)_proj$']")));
}

TEST_F(LayoutMapTest, LookupSeesRulesAddedAfterAnEarlierLookup) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  ASSERT_EQ(Unwrap(map.Find("dense/bias")), -1);
  ASSERT_THAT(map.Set("bias", Layout({"model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("dense/bias")), 1);
}

TEST_F(LayoutMapTest, DeleteRemovesTheRuleAndShiftsLaterOnes) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  ASSERT_THAT(map.Set("bias", Layout({"model"})), IsOk());
  ASSERT_EQ(Unwrap(map.Find("dense/kernel")), 0);
  ASSERT_THAT(map.Delete("kernel"), IsOk());
  EXPECT_EQ(map.size(), 1u);
  EXPECT_EQ(map.key(0), "bias");
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), -1);
  EXPECT_EQ(Unwrap(map.Find("dense/bias")), 0);
}

TEST_F(LayoutMapTest, DeletedKeyMayBeInsertedAgain) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  ASSERT_THAT(map.Delete("kernel"), IsOk());
  EXPECT_THAT(map.Set("kernel", Layout({"model", ""})), IsOk());
}

TEST_F(LayoutMapTest, DeleteOfAnAbsentKeyIsNotFound) {
  LayoutMap map(mesh_);
  EXPECT_THAT(map.Delete("kernel"), StatusIs(absl::StatusCode::kNotFound, HasSubstr("kernel")));
}

TEST_F(LayoutMapTest, DeleteNeedsTheExactKeyNotAMatchingPath) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  EXPECT_THAT(map.Delete("dense/kernel"), StatusIs(absl::StatusCode::kNotFound, HasSubstr("dense/kernel")));
  EXPECT_EQ(map.size(), 1u);
}

TEST_F(LayoutMapTest, CopyIsIndependentOfTheOriginal) {
  LayoutMap original(mesh_);
  ASSERT_THAT(original.Set("kernel", Layout({"", "model"})), IsOk());
  ASSERT_EQ(Unwrap(original.Find("dense/kernel")), 0);
  LayoutMap copy(original);
  ASSERT_THAT(copy.Set("bias", Layout({"model"})), IsOk());
  ASSERT_THAT(copy.Delete("kernel"), IsOk());
  EXPECT_EQ(original.size(), 1u);
  EXPECT_EQ(Unwrap(original.Find("dense/kernel")), 0);
  EXPECT_EQ(Unwrap(original.Find("dense/bias")), -1);
  EXPECT_EQ(Unwrap(copy.Find("dense/bias")), 0);
  EXPECT_EQ(Unwrap(copy.Find("dense/kernel")), -1);
}

TEST_F(LayoutMapTest, CopyAssignmentReplacesRulesMeshAndMatchMode) {
  LayoutMap source(mesh_, KeyMatch::kFullMatch);
  ASSERT_THAT(source.Set("dense/.*", Layout({"model"})), IsOk());
  LayoutMap target(nullptr, KeyMatch::kSearch);
  ASSERT_THAT(target.Set("bias", Layout({"x"})), IsOk());
  ASSERT_EQ(Unwrap(target.Find("dense/bias")), 0);
  target = source;
  EXPECT_EQ(target.mesh(), mesh_);
  EXPECT_EQ(target.match(), KeyMatch::kFullMatch);
  EXPECT_EQ(target.size(), 1u);
  EXPECT_EQ(Unwrap(target.Find("dense/bias")), 0);
  EXPECT_EQ(Unwrap(target.Find("x/dense/bias")), -1);
}

TEST_F(LayoutMapTest, ConcurrentLookupsAgree) {
  LayoutMap map(mesh_);
  for (int i = 0; i < 50; ++i) {
    ASSERT_THAT(map.Set(absl::StrCat("^layer_", i, "/"), Layout({"model"})), IsOk());
  }
  std::vector<int64_t> found(8, -2);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&map, &found, t] {
      for (int rep = 0; rep < 100; ++rep) {
        auto index = map.Find(absl::StrCat("layer_", t * 6, "/kernel"));
        found[t] = index.ok() ? *index : -3;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_THAT(found, ElementsAre(0, 6, 12, 18, 24, 30, 36, 42));
}

// More distinct paths than the answer memo holds (16,384): answers stay right
// while the memo fills, refuses entries, and starts over.
TEST_F(LayoutMapTest, AnswersStayRightPastTheMemoCapacity) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("^even_", Layout({"model"})), IsOk());
  ASSERT_THAT(map.Set("^odd_", Layout({"data"})), IsOk());
  constexpr int kPaths = 100000;
  int wrong = 0;
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < kPaths; ++i) {
      const bool even = i % 2 == 0;
      const int64_t want = (i % 3 == 0) ? -1 : (even ? 0 : 1);
      const std::string path =
          want < 0 ? absl::StrCat("none_", i) : absl::StrCat(even ? "even_" : "odd_", i);
      auto got = map.Find(path);
      if (!got.ok() || *got != want) ++wrong;
    }
  }
  EXPECT_EQ(wrong, 0);
}

// A remembered answer must not survive a change of the rules.
TEST_F(LayoutMapTest, RememberedAnswersAreForgottenWhenRulesChange) {
  LayoutMap map(mesh_);
  ASSERT_THAT(map.Set("kernel", Layout({"model"})), IsOk());
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), 0);
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), 0);  // now remembered
  ASSERT_THAT(map.Set("^dense/", Layout({"data"})), IsOk());
  EXPECT_THAT(map.Find("dense/kernel"),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("multiple")));
  ASSERT_THAT(map.Delete("kernel"), IsOk());
  EXPECT_EQ(Unwrap(map.Find("dense/kernel")), 0);
}

}  // namespace
}  // namespace tessera
