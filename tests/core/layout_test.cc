// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TensorLayout: axes per dimension, validation against a mesh, attaching a
// mesh once, shard counts, the check against a tensor shape, repr, equality.
#include "core/layout.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::CpuMesh;
using testing::IsOk;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kPrecondition = absl::StatusCode::kFailedPrecondition;

class TensorLayoutTest : public ::testing::Test {
 protected:
  MeshPtr mesh_ = CpuMesh({4, 2}, {"data", "model"});
};

TEST_F(TensorLayoutTest, KeepsAxesAndMesh) {
  TensorLayout layout = Unwrap(TensorLayout::Create({{"data"}, {}, {"model"}}, mesh_));
  EXPECT_THAT(layout.axes(), ElementsAre(ElementsAre("data"), IsEmpty(), ElementsAre("model")));
  EXPECT_EQ(layout.rank(), 3u);
  EXPECT_EQ(layout.mesh(), mesh_);
}

TEST_F(TensorLayoutTest, OneDimensionMaySpanAGroupOfAxes) {
  TensorLayout layout = Unwrap(TensorLayout::Create({{"data", "model"}, {}}, mesh_));
  EXPECT_THAT(layout.axes(), ElementsAre(ElementsAre("data", "model"), IsEmpty()));
}

TEST_F(TensorLayoutTest, WithoutAMeshAxesAreNotValidated) {
  TensorLayout layout = Unwrap(TensorLayout::Create({{"data"}, {"unknown"}, {}}));
  EXPECT_EQ(layout.mesh(), nullptr);
  EXPECT_THAT(layout.axes(), ElementsAre(ElementsAre("data"), ElementsAre("unknown"), IsEmpty()));
}

TEST_F(TensorLayoutTest, RankZeroLayoutIsAllowed) {
  TensorLayout layout = Unwrap(TensorLayout::Create({}, mesh_));
  EXPECT_EQ(layout.rank(), 0u);
}

TEST_F(TensorLayoutTest, AxisTheMeshLacksIsRejectedWithKerasMessage) {
  EXPECT_THAT(TensorLayout::Create({{"data"}, {"unknown"}, {}}, mesh_),
              StatusIs(kInvalid, HasSubstr("Invalid axis names for Layout. Valid axis names: "
                                           "{'data', 'model'}, Got {'data', 'unknown'}")));
}

TEST_F(TensorLayoutTest, EmptyAxisNameIsRejected) {
  EXPECT_THAT(TensorLayout::Create({{""}}), StatusIs(kInvalid, HasSubstr("empty axis")));
}

TEST_F(TensorLayoutTest, AxisUsedByTwoDimensionsIsRejected) {
  EXPECT_THAT(TensorLayout::Create({{"model"}, {"model"}}, mesh_), StatusIs(kInvalid, HasSubstr("axis 'model' twice")));
}

// Keras checks the names against the mesh before anything else (issue 11).
TEST_F(TensorLayoutTest, UnknownAxisNamedTwiceIsAnInvalidNameFirst) {
  EXPECT_THAT(TensorLayout::Create({{"x"}, {"x"}}, mesh_),
              StatusIs(kInvalid, "Invalid axis names for Layout. Valid axis names: {'data', 'model'}, Got {'x'}"));
}

TEST_F(TensorLayoutTest, AxisUsedTwiceInOneGroupIsRejected) {
  EXPECT_THAT(TensorLayout::Create({{"data", "data"}}), StatusIs(kInvalid, HasSubstr("axis 'data' twice")));
}

TEST_F(TensorLayoutTest, ReplicatedHasOneEmptyGroupPerDimension) {
  TensorLayout layout = Unwrap(TensorLayout::Replicated(3, mesh_));
  EXPECT_THAT(layout.axes(), ElementsAre(IsEmpty(), IsEmpty(), IsEmpty()));
  EXPECT_EQ(layout.mesh(), mesh_);
}

TEST_F(TensorLayoutTest, WithMeshAttachesTheMesh) {
  TensorLayout layout = Layout({"data", ""});
  TensorLayout attached = Unwrap(layout.WithMesh(mesh_));
  EXPECT_EQ(attached.mesh(), mesh_);
  EXPECT_EQ(attached.axes(), layout.axes());
}

TEST_F(TensorLayoutTest, WithMeshLeavesTheOriginalUnchanged) {
  TensorLayout layout = Layout({"data", ""});
  ASSERT_THAT(layout.WithMesh(mesh_), IsOk());
  EXPECT_EQ(layout.mesh(), nullptr);
}

TEST_F(TensorLayoutTest, WithMeshOnALayoutThatHasOneFailsWithKerasMessage) {
  TensorLayout layout = Layout({"data", ""}, mesh_);
  EXPECT_THAT(layout.WithMesh(CpuMesh({2, 4}, {"data", "model"})),
              StatusIs(kPrecondition,
                       HasSubstr("Cannot override device mesh value. Existing value is "
                                 "<DeviceMesh shape=(4, 2), axis_names=['data', 'model']>")));
}

TEST_F(TensorLayoutTest, WithMeshRejectsANullMesh) {
  EXPECT_THAT(Layout({"data"}).WithMesh(nullptr), StatusIs(kInvalid, HasSubstr("'mesh' is NULL")));
}

TEST_F(TensorLayoutTest, WithMeshValidatesTheAxes) {
  TensorLayout layout = Layout({"data", "unknown", ""});
  EXPECT_THAT(layout.WithMesh(mesh_), StatusIs(kInvalid, HasSubstr("Invalid axis names for Layout")));
}

TEST_F(TensorLayoutTest, ShardCountIsTheAxisSize) {
  TensorLayout layout = Layout({"data", "model"}, mesh_);
  EXPECT_EQ(Unwrap(layout.ShardCount(0)), 4);
  EXPECT_EQ(Unwrap(layout.ShardCount(1)), 2);
}

TEST_F(TensorLayoutTest, ShardCountOfAGroupIsTheProductOfItsAxes) {
  EXPECT_EQ(Unwrap(Layout({"data+model"}, mesh_).ShardCount(0)), 8);
}

TEST_F(TensorLayoutTest, ShardCountOfAReplicatedDimensionIsOne) {
  EXPECT_EQ(Unwrap(Layout({"", "model"}, mesh_).ShardCount(0)), 1);
}

TEST_F(TensorLayoutTest, ShardCountWithoutAMeshFails) {
  EXPECT_THAT(Layout({"data"}).ShardCount(0), StatusIs(kPrecondition, HasSubstr("has no device mesh")));
}

TEST_F(TensorLayoutTest, ShardCountOfADimensionBeyondTheRankIsOutOfRange) {
  EXPECT_THAT(Layout({"data", ""}, mesh_).ShardCount(2),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("'dim' is 2")));
}

TEST_F(TensorLayoutTest, CheckShapeAcceptsDivisibleDimensions) {
  EXPECT_THAT(Layout({"data", "model"}, mesh_).CheckShape({8, 6}), IsOk());
}

TEST_F(TensorLayoutTest, CheckShapeAcceptsAZeroSizedShardedDimension) {
  EXPECT_THAT(Layout({"data", ""}, mesh_).CheckShape({0, 3}), IsOk());
}

TEST_F(TensorLayoutTest, CheckShapeRejectsADifferentRank) {
  EXPECT_THAT(Layout({"data", ""}, mesh_).CheckShape({8}),
              StatusIs(kInvalid, AllOf(HasSubstr("has rank 1"), HasSubstr("expects rank 2"))));
}

TEST_F(TensorLayoutTest, CheckShapeRejectsANegativeDimension) {
  EXPECT_THAT(Layout({"data", ""}, mesh_).CheckShape({8, -1}), StatusIs(kInvalid, HasSubstr("-1")));
}

TEST_F(TensorLayoutTest, CheckShapeNeedsAMesh) {
  EXPECT_THAT(Layout({"data", ""}).CheckShape({8, 3}), StatusIs(kPrecondition, HasSubstr("has no device mesh")));
}

TEST_F(TensorLayoutTest, StrictCheckRejectsAnIndivisibleDimensionNamingIt) {
  // Dimension 1 (size 3) over 'model' (2 shards): keras-hub#1613's failure.
  EXPECT_THAT(Layout({"data", "model"}, mesh_).CheckShape({8, 3}, ShapeCheck::kStrict),
              StatusIs(kInvalid, AllOf(HasSubstr("dimension 1"), HasSubstr("3"), HasSubstr("'model'"),
                                       HasSubstr("2"))));
}

TEST_F(TensorLayoutTest, StrictIsTheDefaultCheck) {
  EXPECT_THAT(Layout({"", "model"}, mesh_).CheckShape({8, 3}), StatusIs(kInvalid, HasSubstr("not divisible")));
}

TEST_F(TensorLayoutTest, StrictCheckUsesTheShardCountOfAGroup) {
  // 12 is divisible by 4 and by 2, not by 8.
  EXPECT_THAT(Layout({"data+model"}, mesh_).CheckShape({12}),
              StatusIs(kInvalid, AllOf(HasSubstr("not divisible by 8"), HasSubstr("('data', 'model')"))));
}

TEST_F(TensorLayoutTest, ChunkCheckAllowsUnevenShards) {
  EXPECT_THAT(Layout({"data", "model"}, mesh_).CheckShape({10, 3}, ShapeCheck::kChunk), IsOk());
}

TEST_F(TensorLayoutTest, ChunkCheckStillRejectsADifferentRank) {
  EXPECT_THAT(Layout({"data", "model"}, mesh_).CheckShape({10}, ShapeCheck::kChunk),
              StatusIs(kInvalid, HasSubstr("expects rank 2")));
}

TEST_F(TensorLayoutTest, MaxShardShapeIsTheCeilingPerDimension) {
  EXPECT_THAT(Unwrap(Layout({"data", "model", ""}, mesh_).MaxShardShape({10, 3, 5})),
              ElementsAre(3, 2, 5));
}

TEST_F(TensorLayoutTest, MaxShardShapeOfAnEvenShapeIsTheShardShape) {
  EXPECT_THAT(Unwrap(Layout({"data+model", ""}, mesh_).MaxShardShape({16, 4})), ElementsAre(2, 4));
}

TEST_F(TensorLayoutTest, MaxShardShapeRejectsADifferentRank) {
  EXPECT_THAT(Layout({"data", ""}, mesh_).MaxShardShape({8}), StatusIs(kInvalid, HasSubstr("expects rank 2")));
}

TEST_F(TensorLayoutTest, ToStringIsKerasRepr) {
  EXPECT_EQ(Layout({"data", ""}, mesh_).ToString(),
            "<TensorLayout axes=('data', None), device_mesh=<DeviceMesh shape=(4, 2), "
            "axis_names=['data', 'model']>>");
}

TEST_F(TensorLayoutTest, ToStringWithoutAMeshPrintsNone) {
  EXPECT_EQ(Layout({"model"}).ToString(), "<TensorLayout axes=('model',), device_mesh=None>");
}

TEST_F(TensorLayoutTest, ToStringPrintsAGroupAsATuple) {
  EXPECT_EQ(Layout({"data+model", ""}).ToString(),
            "<TensorLayout axes=(('data', 'model'), None), device_mesh=None>");
}

TEST_F(TensorLayoutTest, LayoutsWithTheSameAxesAndEqualMeshesAreEqual) {
  EXPECT_EQ(Layout({"data", ""}, mesh_), Layout({"data", ""}, CpuMesh({4, 2}, {"data", "model"})));
  EXPECT_EQ(Layout({"data", ""}), Layout({"data", ""}));
}

TEST_F(TensorLayoutTest, LayoutsDifferingInAxesOrMeshAreNotEqual) {
  EXPECT_NE(Layout({"data", ""}, mesh_), Layout({"", "data"}, mesh_));
  EXPECT_NE(Layout({"data", ""}, mesh_), Layout({"data", ""}));
  EXPECT_NE(Layout({"data", ""}, mesh_), Layout({"data", ""}, CpuMesh({2, 4}, {"data", "model"})));
  EXPECT_NE(Layout({"data+model"}, mesh_), Layout({"model+data"}, mesh_));
}

}  // namespace
}  // namespace tessera
