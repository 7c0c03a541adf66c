// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// DTensor layouts: the transforms and queries of core/dtensor_layout.h, one
// behaviour per test, with the departures from DTensor (errors where DTensor
// aborts). The D vectors run through the C ABI in
// tests/capi/conformance_dtensor.c.
#include "core/dtensor_layout.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/formats/dtensor_text.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;
using testing::StatusIs;
using testing::Unwrap;

using Type = DTensorLayout::Type;
constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kOutOfRange = absl::StatusCode::kOutOfRange;

DTensorLayout L(const std::string& text) { return Unwrap(DTensorLayout::Parse(text)); }
std::string Text(const absl::StatusOr<DTensorLayout>& layout) {
  return Unwrap(absl::StatusOr<DTensorLayout>(layout)).ToString();
}

const std::string kXY = " mesh:|x=2,y=2|*CPU";
const std::string kXYText =
    " mesh:|x=2,y=2|0,1,2,3|0,1,2,3|/job:localhost/task:0/device:CPU:0,"
    "/job:localhost/task:0/device:CPU:1,/job:localhost/task:0/device:CPU:2,"
    "/job:localhost/task:0/device:CPU:3";

TEST(DTensorLayoutCreate, ScalarAloneIsRankZero) {
  EXPECT_EQ(L("sharding_specs:scalar," + kXY).rank(), 0u);
}

TEST(DTensorLayoutCreate, FromDeviceIsSingleDevice) {
  const DTensorLayout layout = Unwrap(DTensorLayout::FromDevice("/job:a/task:0/device:CPU:0"));
  EXPECT_EQ(layout.type(), Type::kSingleDevice);
  EXPECT_EQ(layout.ToString(), "maximal:true, mesh:/job:a/task:0/device:CPU:0");
}

TEST(DTensorLayoutCreate, FromEmptyDeviceFails) {
  EXPECT_THAT(DTensorLayout::FromDevice(""), StatusIs(kInvalid, "Single device is empty."));
}

TEST(DTensorLayoutTransform, ToPartedKeepsSpecsAndMesh) {
  EXPECT_EQ(Text(L("sharding_specs:x,unsharded," + kXY).ToParted()),
            "parted:x,unsharded," + kXYText);
}

TEST(DTensorLayoutTransform, ToPartedOfSingleDeviceFails) {
  EXPECT_THAT(Unwrap(DTensorLayout::FromDevice("/job:a/task:0/device:CPU:0")).ToParted(),
              StatusIs(kInvalid, StartsWith("type is single device, but mesh is not single")));
}

TEST(DTensorLayoutTransform, ToDeviceTypeRenamesLocalDevicesWithReplica) {
  EXPECT_EQ(Text(L("parted:x," + kXY).ToDeviceType("TPU")),
            "parted:x, mesh:|x=2,y=2|0,1,2,3|0,1,2,3|/job:localhost/replica:0/task:0/device:TPU:0,"
            "/job:localhost/replica:0/task:0/device:TPU:1,/job:localhost/replica:0/task:0/device:"
            "TPU:2,/job:localhost/replica:0/task:0/device:TPU:3");
}

TEST(DTensorLayoutTransform, ToDeviceTypeDropsTheMeshName) {
  EXPECT_EQ(L("sharding_specs:x, mesh:named|x=2|*GPU").ToDeviceType("CPU")->mesh().name(), "");
}

TEST(DTensorLayoutTransform, ToBadDeviceTypeFails) {
  EXPECT_THAT(L("sharding_specs:x," + kXY).ToDeviceType("C P"),
              StatusIs(kInvalid, HasSubstr("Argument 'device_type' 'C P'")));
}

TEST(DTensorLayoutTransform, TruncateKeepsTheFront) {
  EXPECT_THAT(Unwrap(L("sharding_specs:x,unsharded,y," + kXY).Truncate(1, false)).specs(),
              ElementsAre("x"));
}

TEST(DTensorLayoutTransform, TruncateAtEndKeepsTheBack) {
  EXPECT_THAT(Unwrap(L("sharding_specs:x,unsharded,y," + kXY).Truncate(1, true)).specs(),
              ElementsAre("unsharded", "y"));
}

TEST(DTensorLayoutTransform, TruncatePastTheRankIsOutOfRange) {
  EXPECT_THAT(L("sharding_specs:x," + kXY).Truncate(2, false),
              StatusIs(kOutOfRange, "Argument 'split' is 2; expected at most the layout's rank 1"));
}

TEST(DTensorLayoutTransform, LeftPadPrependsUnsharded) {
  EXPECT_THAT(L("sharding_specs:x," + kXY).LeftPad(3).specs(),
              ElementsAre("unsharded", "unsharded", "x"));
}

TEST(DTensorLayoutTransform, LeftPadToASmallerRankChangesNothing) {
  EXPECT_THAT(L("sharding_specs:x,y," + kXY).LeftPad(1).specs(), ElementsAre("x", "y"));
}

TEST(DTensorLayoutTransform, ReducedDimsCountNegativeIndicesFromTheEnd) {
  EXPECT_THAT(Unwrap(L("sharding_specs:x,unsharded,y," + kXY).WithReducedDims({-1}, false))
                  .specs(),
              ElementsAre("x", "unsharded"));
}

TEST(DTensorLayoutTransform, ReducedDimsWithKeepDimsReplicate) {
  EXPECT_THAT(Unwrap(L("sharding_specs:x,y," + kXY).WithReducedDims({0}, true)).specs(),
              ElementsAre("unsharded", "y"));
}

TEST(DTensorLayoutTransform, ReducedDimsAreStatic) {
  EXPECT_EQ(Unwrap(L("parted:x,y," + kXY).WithReducedDims({0}, false)).type(), Type::kStatic);
}

TEST(DTensorLayoutTransform, ReducedDimsIgnoreIndicesOfNoAxis) {
  EXPECT_THAT(Unwrap(L("sharding_specs:x,y," + kXY).WithReducedDims({5, -3}, false)).specs(),
              ElementsAre("x", "y"));
}

TEST(DTensorLayoutTransform, DeleteDropsListedAxes) {
  EXPECT_THAT(Unwrap(L("sharding_specs:x,unsharded,y," + kXY).Delete({0, 2})).specs(),
              ElementsAre("unsharded"));
}

TEST(DTensorLayoutTransform, DeleteDoesNotCountFromTheEnd) {
  EXPECT_THAT(Unwrap(L("sharding_specs:x,y," + kXY).Delete({-1})).specs(), ElementsAre("x", "y"));
}

TEST(DTensorLayoutTransform, Transposed2DOfRankOneFails) {
  EXPECT_THAT(L("sharding_specs:x," + kXY).Transposed2D(),
              StatusIs(kInvalid, "Transposed2D requires rank to be >= 2"));
}

TEST(DTensorLayoutTransform, ConcatenateKeepsTheFirstType) {
  EXPECT_EQ(Unwrap(ConcatenateDTensorLayouts(L("parted:x," + kXY), L("sharding_specs:y," + kXY)))
                .type(),
            Type::kParted);
}

TEST(DTensorLayoutTransform, ConcatenateAllowsUnshardedTwice) {
  EXPECT_THAT(Unwrap(ConcatenateDTensorLayouts(L("sharding_specs:unsharded," + kXY),
                                               L("sharding_specs:unsharded," + kXY)))
                  .specs(),
              ElementsAre("unsharded", "unsharded"));
}

TEST(DTensorLayoutTransform, ConcatenateRefusesAnyTwice) {
  EXPECT_THAT(ConcatenateDTensorLayouts(L("sharding_specs:any," + kXY),
                                        L("sharding_specs:any," + kXY)),
              StatusIs(kInvalid, "unable to concatenate layouts as they use the same meshes "
                                 "dimension: any is used in both layouts."));
}

TEST(DTensorLayoutMerge, MostShardedTakesEachAxisOnlyMeshDim) {
  const std::vector<DTensorLayout> layouts = {L("sharding_specs:x,unsharded," + kXY),
                                              L("sharding_specs:unsharded,y," + kXY)};
  EXPECT_THAT(Unwrap(MostShardedDTensorLayout(layouts)).specs(), ElementsAre("x", "y"));
}

TEST(DTensorLayoutMerge, MostShardedDropsAMeshDimUsedOnTwoAxes) {
  const std::vector<DTensorLayout> layouts = {L("sharding_specs:x,unsharded," + kXY),
                                              L("sharding_specs:unsharded,x," + kXY)};
  EXPECT_THAT(Unwrap(MostShardedDTensorLayout(layouts)).specs(),
              ElementsAre("unsharded", "unsharded"));
}

TEST(DTensorLayoutMerge, MostShardedDropsAnAxisOverTwoMeshDims) {
  const std::vector<DTensorLayout> layouts = {L("sharding_specs:x," + kXY),
                                              L("sharding_specs:y," + kXY)};
  EXPECT_THAT(Unwrap(MostShardedDTensorLayout(layouts)).specs(), ElementsAre("unsharded"));
}

TEST(DTensorLayoutMerge, NoLayoutsFail) {
  EXPECT_THAT(MostShardedDTensorLayout({}), StatusIs(kInvalid, "Layout should not be empty"));
  EXPECT_THAT(LeastShardedDTensorLayout({}), StatusIs(kInvalid, "Layout should not be empty"));
}

TEST(DTensorLayoutMerge, LeastShardedKeepsAgreedSpecs) {
  const std::vector<DTensorLayout> layouts = {L("sharding_specs:x,y," + kXY),
                                              L("sharding_specs:x,unsharded," + kXY)};
  EXPECT_THAT(Unwrap(LeastShardedDTensorLayout(layouts)).specs(), ElementsAre("x", "unsharded"));
}

TEST(DTensorLayoutMerge, LeastShardedNeedsOneRank) {
  const std::vector<DTensorLayout> layouts = {L("sharding_specs:x,y," + kXY),
                                              L("sharding_specs:x," + kXY)};
  EXPECT_THAT(LeastShardedDTensorLayout(layouts),
              StatusIs(kInvalid, "Not all layouts to GetLeastShardedLayout are of the same rank."));
}

TEST(DTensorLayoutQuery, NumShardsOfMatchIsMinusOne) {
  EXPECT_EQ(Unwrap(L("sharding_specs:match," + kXY).NumShardsForDim(0)), -1);
}

TEST(DTensorLayoutQuery, NumShardsOfAnyFails) {
  EXPECT_THAT(L("sharding_specs:any," + kXY).NumShardsForDim(0),
              StatusIs(kInvalid, HasSubstr("sharding spec 'any'")));
}

TEST(DTensorLayoutQuery, NumShardsPastTheRankIsOutOfRange) {
  EXPECT_THAT(L("sharding_specs:x," + kXY).NumShardsForDim(1), StatusIs(kOutOfRange, ::testing::_));
}

TEST(DTensorLayoutQuery, SingleDeviceIsNotFullyReplicated) {
  EXPECT_FALSE(Unwrap(DTensorLayout::FromDevice("/job:a/task:0/device:CPU:0")).IsFullyReplicated());
}

TEST(DTensorLayoutQuery, EmptyLayoutIsFullyReplicated) {
  EXPECT_TRUE(DTensorLayout().IsFullyReplicated());
}

TEST(DTensorLayoutQuery, LastDimReplicated) {
  EXPECT_TRUE(L("sharding_specs:x,unsharded," + kXY).IsLastDimReplicated());
  EXPECT_FALSE(L("sharding_specs:unsharded,x," + kXY).IsLastDimReplicated());
}

TEST(DTensorLayoutQuery, BatchParallelNeedsOnlyTheFirstAxisSharded) {
  EXPECT_TRUE(L("sharding_specs:x,unsharded," + kXY).IsBatchParallel());
  EXPECT_FALSE(L("sharding_specs:x,y," + kXY).IsBatchParallel());
  EXPECT_FALSE(L("sharding_specs:unsharded,unsharded," + kXY).IsBatchParallel());
}

TEST(DTensorLayoutQuery, BatchParallelOverTheLastAxesCountsShards) {
  EXPECT_TRUE(Unwrap(L("sharding_specs:x,y, mesh:|x=2,y=1|*CPU").IsBatchParallel(1)));
  EXPECT_FALSE(Unwrap(L("sharding_specs:x,y," + kXY).IsBatchParallel(1)));
}

TEST(DTensorLayoutQuery, EquivalenceNeedsTheSameType) {
  EXPECT_FALSE(L("parted:x," + kXY).IsEquivalent(L("sharding_specs:x," + kXY)));
  EXPECT_TRUE(L("parted:x," + kXY).IsEquivalentIgnoringType(L("sharding_specs:x," + kXY)));
}

TEST(DTensorLayoutQuery, OffsetToShardGivesMeshCoordinatesOfShardedAxes) {
  EXPECT_THAT(Unwrap(L("sharding_specs:y,unsharded," + kXY).OffsetToShard(1)), ElementsAre(1, 0));
}

TEST(DTensorLayoutQuery, OffsetToShardPastTheMeshIsOutOfRange) {
  EXPECT_THAT(L("sharding_specs:x," + kXY).OffsetToShard(4),
              StatusIs(kOutOfRange, "Mesh offset cannot be negative or exceed Mesh's size. "
                                    "Offset size:4 and Mesh size:4"));
}

TEST(DTensorLayoutQuery, OffsetTupleToGlobalIndexIsRowMajorOverShards) {
  EXPECT_EQ(Unwrap(L("sharding_specs:x,y, mesh:|x=2,y=3|*CPU").OffsetTupleToGlobalIndex({1, 2})),
            5);
}

TEST(DTensorLayoutQuery, LocalShapeOfWrongLengthFails) {
  EXPECT_THAT(L("sharding_specs:x," + kXY).LocalShapeFromGlobalShape({4, 4}),
              StatusIs(kInvalid, HasSubstr("Argument 'global_shape' has 2 entries")));
}

TEST(DTensorLayoutQuery, LocalShapeKeepsMlirDynamicSize) {
  const int64_t dynamic = std::numeric_limits<int64_t>::min();
  EXPECT_THAT(Unwrap(L("sharding_specs:x," + kXY).LocalShapeFromGlobalShape({dynamic})),
              ElementsAre(dynamic));
}

TEST(DTensorLayoutQuery, LocalShapeOverMatchFails) {
  EXPECT_THAT(L("sharding_specs:match," + kXY).LocalShapeFromGlobalShape({4}),
              StatusIs(kInvalid, HasSubstr("sharding spec 'match'")));
}

TEST(DTensorLayoutQuery, GlobalShapeSumsDynamicLocalShapes) {
  // x,unsharded on x=2,y=2: local devices 0 and 2 hold the two x shards.
  const std::vector<std::vector<int64_t>> locals = {{3, 5}, {3, 5}, {4, 5}, {4, 5}};
  EXPECT_THAT(Unwrap(L("sharding_specs:x,unsharded," + kXY).GlobalShapeFromLocalShape({-1, 5},
                                                                                     &locals)),
              ElementsAre(7, 5));
}

TEST(DTensorLayoutQuery, GlobalShapeOfRemoteMeshWithoutLocalShapesFails) {
  const std::vector<std::vector<int64_t>> none;
  EXPECT_THAT(L("sharding_specs:x, mesh:|x=2|0,1||").GlobalShapeFromLocalShape({-1}, &none),
              StatusIs(kInvalid, HasSubstr("Argument 'local_shapes' has 0 entries")));
}

TEST(DTensorLayoutQuery, GlobalShapeOfReplicatedDynamicIsTheFirstLocalShape) {
  const std::vector<std::vector<int64_t>> locals = {{3}, {4}, {5}, {6}};
  EXPECT_THAT(Unwrap(L("sharding_specs:unsharded," + kXY).GlobalShapeFromLocalShape({-1},
                                                                                   &locals)),
              ElementsAre(3));
}

TEST(DTensorLayoutQuery, ReducedMeshNeedsAGlobalDevicePerId) {
  EXPECT_THAT(L("sharding_specs:x, mesh:|x=2|0,1|0|/job:localhost/task:0/device:CPU:0|"
                "/job:localhost/task:0/device:CPU:1")
                  .ReducedMesh(),
              StatusIs(kInvalid, HasSubstr("has 1 global devices for 2 global ids")));
}

TEST(DTensorLayoutQuery, ReducedMeshKeepsGlobalDevicesOfKeptPositions) {
  const DTensorMesh reduced =
      Unwrap(L("sharding_specs:unsharded, mesh:|x=2|0,1|0|/job:localhost/task:0/device:CPU:0|"
               "/job:localhost/task:0/device:CPU:0,/job:localhost/task:1/device:CPU:0")
                 .ReducedMesh());
  EXPECT_THAT(reduced.global_devices(), ElementsAre("/job:localhost/task:0/device:CPU:0"));
}

TEST(DTensorLayoutQuery, ReducedMeshOfSingleDeviceIsEmpty) {
  EXPECT_TRUE(Unwrap(Unwrap(DTensorLayout::FromDevice("/job:a/task:0/device:CPU:0")).ReducedMesh())
                  .is_empty());
}

TEST(DTensorLayoutQuery, ShardVectorOfAnyFails) {
  EXPECT_THAT(L("sharding_specs:any," + kXY).ShardVector(), StatusIs(kInvalid, ::testing::_));
}

TEST(DTensorShardVector, EqualAfterRefinement) {
  const DTensorShardVector coarse{{{1, 1}}, {1, 1}};
  const DTensorShardVector fine{{{1, 1}, {1, 2}, {2, 1}, {2, 2}}, {2, 2}};
  EXPECT_EQ(coarse, fine);
  EXPECT_NE(coarse, (DTensorShardVector{{{1, 1}}, {2, 2}}));
}

TEST(DTensorMeshQuery, HostsInFirstSeenOrder) {
  const DTensorMesh mesh = Unwrap(ParseDTensorMesh(
      "|x=3|0,1,2|0,1,2|/job:w/task:1/device:CPU:0,/job:w/task:0/device:CPU:0,"
      "/job:w/task:1/device:CPU:1"));
  EXPECT_THAT(DTensorMeshHosts(mesh), ElementsAre("/job:w/task:1", "/job:w/task:0"));
}

TEST(DTensorMeshQuery, EmptyMeshHasNoHosts) {
  EXPECT_THAT(DTensorMeshHosts(DTensorMesh()), IsEmpty());
}

TEST(DTensorMeshQuery, SingleDeviceToDeviceTypeFails) {
  EXPECT_THAT(DTensorMeshToDeviceType(Unwrap(DTensorMesh::SingleDevice("/job:a/task:0/device:CPU:0")),
                                      "CPU"),
              StatusIs(kInvalid, HasSubstr("single-device mesh")));
}

}  // namespace
}  // namespace tessera
