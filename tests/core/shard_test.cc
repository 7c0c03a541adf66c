// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shard math (core/shard.h): per-device ranges, shapes and replica ids in the
// three modes, the bulk maps, and a randomized comparison with a brute-force
// model that cuts explicit index lists the way XLA and torch.chunk do.
#include "core/shard.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {

// Readable failures: "[2:4]".
void PrintTo(const IndexRange& r, std::ostream* os) { *os << "[" << r.start << ":" << r.stop << "]"; }

namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::Cpu;
using testing::CpuMesh;
using testing::IsOk;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kOutOfRange = absl::StatusCode::kOutOfRange;
constexpr absl::StatusCode kPrecondition = absl::StatusCode::kFailedPrecondition;

IndexRange R(int64_t start, int64_t stop) { return {start, stop}; }

Sharding Make(const std::vector<std::string>& spec, MeshPtr mesh, std::vector<int64_t> shape,
              ShardMode mode = ShardMode::kStrict) {
  return Unwrap(Sharding::Create(Layout(spec, std::move(mesh)), std::move(shape), mode));
}

// Ranges of every device, in mesh order.
std::vector<std::vector<IndexRange>> AllRanges(const Sharding& s) {
  std::vector<std::vector<IndexRange>> all;
  for (int64_t i = 0; i < s.num_devices(); ++i) all.push_back(Unwrap(s.DeviceRanges(i)));
  return all;
}

std::vector<int64_t> AllReplicaIds(const Sharding& s) {
  std::vector<int64_t> ids;
  for (int64_t i = 0; i < s.num_devices(); ++i) ids.push_back(Unwrap(s.ReplicaId(i)));
  return ids;
}

// ---------------------------------------------------------------------------
// Creation errors.

TEST(ShardingCreateTest, LayoutWithoutMeshIsFailedPrecondition) {
  EXPECT_THAT(Sharding::Create(Layout({"x"}), {8}, ShardMode::kStrict),
              StatusIs(kPrecondition, HasSubstr("has no device mesh")));
}

TEST(ShardingCreateTest, RankMismatchNamesShapeAndBothRanks) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_THAT(Sharding::Create(Layout({"x", "y"}, mesh), {8}, ShardMode::kChunkFlat),
              StatusIs(kInvalid, HasSubstr("Argument 'shape' (8,) has rank 1; the layout "
                                           "('x', 'y') expects rank 2")));
}

TEST(ShardingCreateTest, NegativeDimensionNamesShape) {
  MeshPtr mesh = CpuMesh({2}, {"x"});
  EXPECT_THAT(Sharding::Create(Layout({"x"}, mesh), {-2}, ShardMode::kChunkFlat),
              StatusIs(kInvalid, HasSubstr("Argument 'shape' (-2,) has dimension 0 equal to -2")));
}

TEST(ShardingCreateTest, StrictIndivisibleFollowsJaxIndivisibleError) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_THAT(
      Sharding::Create(Layout({"", "y"}, mesh), {4, 10}, ShardMode::kStrict),
      StatusIs(kInvalid,
               HasSubstr("implies that array axis 1 is partitioned 4 times, but the dimension "
                         "size is 10 (full shape: (4, 10), per-dimension tiling factors: [1, 4] "
                         "should evenly divide the shape)")));
}

// torch's placements for (('b', 'a'),) on mesh (3, 2) are [_StridedShard(dim=0,
// sf=2), Shard(dim=0)]; for size 13 the third row of devices gets elements
// 6 and 11.
TEST(ShardingCreateTest, ChunkNestedRefusesWhereTorchGivesADeviceNoSingleRange) {
  MeshPtr mesh = CpuMesh({3, 2}, {"a", "b"});
  EXPECT_THAT(Sharding::Create(Layout({"b+a"}, mesh), {13}, ShardMode::kChunkNested),
              StatusIs(kInvalid,
                       "Argument 'mode': chunk-nested cannot place dimension 0 (size 13) of layout "
                       "(('b', 'a'),) as PyTorch does: its axes ('b', 'a') run against mesh order, which "
                       "PyTorch shards by _StridedShard, and PyTorch gives device 4 (mesh coordinate (2, 0)) "
                       "elements [6, 7) and [11, 12), not one range; expected a size divisible by 6, the "
                       "chunk-flat mode, or the axes in mesh order"));
}

TEST(ShardingCreateTest, ChunkNestedAcceptsAGroupAgainstMeshOrderOfDivisibleSize) {
  MeshPtr mesh = CpuMesh({3, 2}, {"a", "b"});
  EXPECT_THAT(Sharding::Create(Layout({"b+a"}, mesh), {12}, ShardMode::kChunkNested), IsOk());
}

TEST(ShardingCreateTest, ChunkNestedAcceptsAnIndivisibleGroupInMeshOrder) {
  MeshPtr mesh = CpuMesh({3, 2}, {"a", "b"});
  EXPECT_THAT(Sharding::Create(Layout({"a+b"}, mesh), {7}, ShardMode::kChunkNested), IsOk());
}

TEST(ShardingCreateTest, ChunkFlatAcceptsAnIndivisibleGroupAgainstMeshOrder) {
  MeshPtr mesh = CpuMesh({3, 2}, {"a", "b"});
  EXPECT_THAT(Sharding::Create(Layout({"b+a"}, mesh), {7}, ShardMode::kChunkFlat), IsOk());
}

TEST(ShardingCreateTest, ChunkModesAcceptIndivisibleSizes) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_THAT(Sharding::Create(Layout({"", "y"}, mesh), {4, 10}, ShardMode::kChunkFlat), IsOk());
  EXPECT_THAT(Sharding::Create(Layout({"", "y"}, mesh), {4, 10}, ShardMode::kChunkNested),
              IsOk());
}

TEST(ShardingCreateTest, UnknownModeIsInvalidArgument) {
  MeshPtr mesh = CpuMesh({2}, {"x"});
  EXPECT_THAT(Sharding::Create(Layout({"x"}, mesh), {4}, static_cast<ShardMode>(7)),
              StatusIs(kInvalid, HasSubstr("Argument 'mode' is 7")));
}

TEST(ShardingCreateTest, KeepsShapeModeAndCounts) {
  Sharding s = Make({"x", ""}, CpuMesh({2, 3}, {"x", "y"}), {4, 5}, ShardMode::kChunkNested);
  EXPECT_THAT(s.shape(), ElementsAre(4, 5));
  EXPECT_EQ(s.mode(), ShardMode::kChunkNested);
  EXPECT_EQ(s.rank(), 2u);
  EXPECT_EQ(s.num_devices(), 6);
}

TEST(ShardModeNameTest, NamesEachMode) {
  EXPECT_STREQ(ShardModeName(ShardMode::kStrict), "strict");
  EXPECT_STREQ(ShardModeName(ShardMode::kChunkFlat), "chunk-flat");
  EXPECT_STREQ(ShardModeName(ShardMode::kChunkNested), "chunk-nested");
}

// ---------------------------------------------------------------------------
// Per-device ranges and shapes.

TEST(DeviceRangesTest, GroupIsMajorFirstInGroupOrder) {
  // (y, x) on a 2x3 mesh: shard index = y * 2 + x.
  Sharding s = Make({"y+x"}, CpuMesh({2, 3}, {"x", "y"}), {12});
  EXPECT_THAT(AllRanges(s), ElementsAre(ElementsAre(R(0, 2)), ElementsAre(R(4, 6)),
                                        ElementsAre(R(8, 10)), ElementsAre(R(2, 4)),
                                        ElementsAre(R(6, 8)), ElementsAre(R(10, 12))));
}

TEST(DeviceRangesTest, FlatChunkingCutsTheGroupOnce) {
  // 5 over 4 shards, c = 2: [0:2] [2:4] [4:5] [5:5].
  Sharding s = Make({"x+y"}, CpuMesh({2, 2}, {"x", "y"}), {5}, ShardMode::kChunkFlat);
  EXPECT_THAT(AllRanges(s), ElementsAre(ElementsAre(R(0, 2)), ElementsAre(R(2, 4)),
                                        ElementsAre(R(4, 5)), ElementsAre(R(5, 5))));
}

TEST(DeviceRangesTest, NestedChunkingRecutsEachPiece) {
  // 5 -> 3 | 2 over x, then 3 -> 2 | 1 and 2 -> 1 | 1 over y.
  Sharding s = Make({"x+y"}, CpuMesh({2, 2}, {"x", "y"}), {5}, ShardMode::kChunkNested);
  EXPECT_THAT(AllRanges(s), ElementsAre(ElementsAre(R(0, 2)), ElementsAre(R(2, 3)),
                                        ElementsAre(R(3, 4)), ElementsAre(R(4, 5))));
}

TEST(DeviceRangesTest, NestedFollowsTheGroupOrderNotTheMeshOrder) {
  // (y, x): y is major; device (x=1, y=0) takes the second piece of y's
  // first chunk (a size the shards divide; for other sizes PyTorch's
  // _StridedShard pieces differ, as the next test shows).
  Sharding s = Make({"y+x"}, CpuMesh({2, 2}, {"x", "y"}), {8}, ShardMode::kChunkNested);
  EXPECT_THAT(AllRanges(s), ElementsAre(ElementsAre(R(0, 2)), ElementsAre(R(4, 6)),
                                        ElementsAre(R(2, 4)), ElementsAre(R(6, 8))));
}

// torch 2.15: [_StridedShard(dim=0, sf=2), Shard(dim=0)] cut 7 into 4 | 3,
// then each piece by b into 2 | 2 and 2 | 1, then device (a, b) takes
// chunk a of its 3 or 2 elements (issue 11's example; nested chunking would
// give device 1 [2, 4)).
TEST(DeviceRangesTest, NestedGivesTorchsStridedPiecesForAnIndivisibleGroupAgainstMeshOrder) {
  Sharding s = Make({"b+a"}, CpuMesh({3, 2}, {"a", "b"}), {7}, ShardMode::kChunkNested);
  EXPECT_THAT(AllRanges(s), ElementsAre(ElementsAre(R(0, 2)), ElementsAre(R(4, 5)),
                                        ElementsAre(R(2, 4)), ElementsAre(R(5, 6)),
                                        ElementsAre(R(6, 7)), ElementsAre(R(7, 7))));
}

TEST(DeviceRangesTest, EmptyNestedShardStartsAtTheGlobalSize) {
  // 3 over (2, 2) nested: 3 -> 2 | 1, then 1 -> 1 | 0: the last is [3:3],
  // not [2:2] (PyTorch #150862).
  Sharding s = Make({"x+y"}, CpuMesh({2, 2}, {"x", "y"}), {3}, ShardMode::kChunkNested);
  EXPECT_THAT(Unwrap(s.DeviceRanges(3)), ElementsAre(R(3, 3)));
}

TEST(DeviceRangesTest, EmptyFlatShardStartsAtTheGlobalSize) {
  Sharding s = Make({"x"}, CpuMesh({4}, {"x"}), {2}, ShardMode::kChunkFlat);
  EXPECT_THAT(Unwrap(s.DeviceRanges(3)), ElementsAre(R(2, 2)));
}

TEST(DeviceRangesTest, ZeroSizeDimensionGivesEmptyRangesEverywhere) {
  Sharding s = Make({"x"}, CpuMesh({4}, {"x"}), {0}, ShardMode::kStrict);
  EXPECT_THAT(AllRanges(s), ElementsAre(ElementsAre(R(0, 0)), ElementsAre(R(0, 0)),
                                        ElementsAre(R(0, 0)), ElementsAre(R(0, 0))));
}

TEST(DeviceRangesTest, HugeDimensionDoesNotOverflow) {
  const int64_t n = INT64_MAX;  // c = ceil(n / 3); (i + 1) * c would overflow
  Sharding s = Make({"x"}, CpuMesh({3}, {"x"}), {n}, ShardMode::kChunkFlat);
  const int64_t c = n / 3 + 1;
  EXPECT_THAT(Unwrap(s.DeviceRanges(2)), ElementsAre(R(2 * c, n)));
}

TEST(DeviceRangesTest, DeviceIndexOutsideTheMeshIsOutOfRange) {
  Sharding s = Make({"x"}, CpuMesh({4}, {"x"}), {8});
  EXPECT_THAT(s.DeviceRanges(4), StatusIs(kOutOfRange, HasSubstr("Argument 'device_index' is 4; "
                                                                 "expected 0 to 3")));
  EXPECT_THAT(s.DeviceRanges(-1), StatusIs(kOutOfRange, HasSubstr("'device_index' is -1")));
}

TEST(DeviceRangesTest, OutputOfTheWrongSizeIsInvalidArgument) {
  Sharding s = Make({"x", ""}, CpuMesh({4}, {"x"}), {8, 2});
  std::vector<IndexRange> out(3);
  EXPECT_THAT(s.DeviceRanges(0, absl::MakeSpan(out)),
              StatusIs(kInvalid, HasSubstr("Argument 'out' has 3 entries; expected the rank 2")));
}

TEST(DeviceRangesTest, ScalarHasNoRanges) {
  Sharding s = Make({}, CpuMesh({2}, {"x"}), {});
  EXPECT_THAT(Unwrap(s.DeviceRanges(1)), IsEmpty());
}

TEST(ShardShapeTest, IsStopMinusStartPerDimension) {
  Sharding s = Make({"", "y"}, CpuMesh({2, 4}, {"x", "y"}), {4, 10}, ShardMode::kChunkFlat);
  EXPECT_THAT(Unwrap(s.ShardShape(2)), ElementsAre(4, 3));
  EXPECT_THAT(Unwrap(s.ShardShape(3)), ElementsAre(4, 1));
}

TEST(ShardShapeTest, BadDeviceIndexIsOutOfRange) {
  Sharding s = Make({"x"}, CpuMesh({4}, {"x"}), {8});
  EXPECT_THAT(s.ShardShape(9), StatusIs(kOutOfRange, HasSubstr("'device_index' is 9")));
}

TEST(MaxShardShapeTest, IsTheCeilingInEveryMode) {
  // Nested: ceil(ceil(5/2)/2) = 2 = ceil(5/4).
  for (ShardMode mode : {ShardMode::kChunkFlat, ShardMode::kChunkNested}) {
    Sharding s = Make({"x+y", ""}, CpuMesh({2, 2}, {"x", "y"}), {5, 3}, mode);
    EXPECT_THAT(s.max_shard_shape(), ElementsAre(2, 3)) << ShardModeName(mode);
  }
}

TEST(FullyReplicatedTest, TrueWithoutShardedDimensions) {
  EXPECT_TRUE(Make({"", ""}, CpuMesh({2, 4}, {"x", "y"}), {8, 8}).is_fully_replicated());
}

TEST(FullyReplicatedTest, TrueWhenTheMappedAxesHaveSizeOne) {
  EXPECT_TRUE(Make({"y"}, CpuMesh({2, 1}, {"x", "y"}), {8}).is_fully_replicated());
}

TEST(FullyReplicatedTest, FalseWhenAnyDimensionIsSplit) {
  EXPECT_FALSE(Make({"", "x"}, CpuMesh({2, 1}, {"x", "y"}), {8, 8}).is_fully_replicated());
}

// ---------------------------------------------------------------------------
// Replica ids.

TEST(ReplicaIdTest, CountsTheUnusedAxesInMeshOrder) {
  // Mesh (a=2, b=3, c=2), 'b' used: the id is a * 2 + c.
  Sharding s = Make({"b"}, CpuMesh({2, 3, 2}, {"a", "b", "c"}), {6});
  EXPECT_THAT(AllReplicaIds(s), ElementsAre(0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3));
}

TEST(ReplicaIdTest, EmptyShardsOfDifferentIndicesAreReplicas) {
  // 1 over 4 shards: [0:1] then three [1:1]; the empty ones count each other.
  Sharding s = Make({"x+y"}, CpuMesh({2, 2}, {"x", "y"}), {1}, ShardMode::kChunkFlat);
  EXPECT_THAT(AllReplicaIds(s), ElementsAre(0, 0, 1, 2));
}

TEST(ReplicaIdTest, EmptyShardsCombineWithUnusedAxesAndOtherDimensions) {
  // Mesh (r=2, x=3): dim 0 over x, 1 row, so x=1 and x=2 hold [1:1]; r
  // replicates. Order: (0,0) (0,1) (0,2) (1,0) (1,1) (1,2).
  Sharding s = Make({"x", ""}, CpuMesh({2, 3}, {"r", "x"}), {1, 4}, ShardMode::kChunkFlat);
  EXPECT_THAT(AllReplicaIds(s), ElementsAre(0, 0, 1, 1, 2, 3));
}

TEST(ReplicaIdTest, BadDeviceIndexIsOutOfRange) {
  Sharding s = Make({"x"}, CpuMesh({4}, {"x"}), {8});
  EXPECT_THAT(s.ReplicaId(-3), StatusIs(kOutOfRange, HasSubstr("'device_index' is -3")));
}

// ---------------------------------------------------------------------------
// Processes.

MeshPtr TwoProcessMesh() {
  // Process 0 owns devices 0-3, process 1 owns 4-7 (ordinal = id - 4).
  std::vector<Device> devices;
  for (int64_t id = 0; id < 8; ++id) {
    Device d = Cpu(id);
    d.process_index = id / 4;
    d.local_ordinal = id % 4;
    devices.push_back(d);
  }
  return Unwrap(DeviceMesh::Create({2, 4}, {"x", "y"}, std::move(devices)));
}

TEST(DeviceInProcessTest, FollowsTheMeshDevicesProcessIndex) {
  Sharding s = Make({"y"}, TwoProcessMesh(), {8});
  EXPECT_TRUE(Unwrap(s.DeviceInProcess(4, 1)));
  EXPECT_FALSE(Unwrap(s.DeviceInProcess(4, 0)));
  EXPECT_TRUE(Unwrap(s.DeviceInProcess(3, 0)));
}

TEST(DeviceInProcessTest, UnknownProcessIsFalse) {
  Sharding s = Make({"y"}, TwoProcessMesh(), {8});
  EXPECT_FALSE(Unwrap(s.DeviceInProcess(0, 5)));
}

TEST(DeviceInProcessTest, NegativeProcessIsInvalidArgument) {
  Sharding s = Make({"y"}, TwoProcessMesh(), {8});
  EXPECT_THAT(s.DeviceInProcess(0, -1),
              StatusIs(kInvalid, HasSubstr("Argument 'process_index' is -1")));
}

TEST(DeviceInProcessTest, BadDeviceIndexIsOutOfRange) {
  Sharding s = Make({"y"}, TwoProcessMesh(), {8});
  EXPECT_THAT(s.DeviceInProcess(8, 0), StatusIs(kOutOfRange, HasSubstr("'device_index' is 8")));
}

TEST(AddressableShardsTest, ListsTheProcessDevicesWithRangesAndReplicaIds) {
  Sharding s = Make({"y"}, TwoProcessMesh(), {8});
  std::vector<AddressableShard> shards = Unwrap(s.AddressableShards(1));
  ASSERT_EQ(shards.size(), 4u);
  EXPECT_EQ(shards[0].device_index, 4);
  EXPECT_THAT(shards[0].ranges, ElementsAre(R(0, 2)));
  EXPECT_EQ(shards[0].replica_id, 1);
  EXPECT_EQ(shards[3].device_index, 7);
  EXPECT_THAT(shards[3].ranges, ElementsAre(R(6, 8)));
}

TEST(AddressableShardsTest, UnknownProcessHasNone) {
  Sharding s = Make({"y"}, TwoProcessMesh(), {8});
  EXPECT_THAT(Unwrap(s.AddressableShards(2)), IsEmpty());
}

TEST(AddressableShardsTest, NegativeProcessIsInvalidArgument) {
  Sharding s = Make({"y"}, TwoProcessMesh(), {8});
  EXPECT_THAT(s.AddressableShards(-1), StatusIs(kInvalid, HasSubstr("'process_index' is -1")));
}

// ---------------------------------------------------------------------------
// Bulk maps.

TEST(IndexMapTest, IsStartStopPerDimensionPerDevice) {
  Sharding s = Make({"x", ""}, CpuMesh({2}, {"x"}), {4, 3});
  EXPECT_EQ(Unwrap(s.IndexMapSize()), 8u);
  EXPECT_THAT(Unwrap(s.IndexMap()), ElementsAre(0, 2, 0, 3, 2, 4, 0, 3));
}

TEST(IndexMapTest, ScalarMapIsEmpty) {
  Sharding s = Make({}, CpuMesh({2}, {"x"}), {});
  EXPECT_THAT(Unwrap(s.IndexMap()), IsEmpty());
}

TEST(IndexMapTest, FillWithTheWrongSizeIsInvalidArgument) {
  Sharding s = Make({"x"}, CpuMesh({2}, {"x"}), {4});
  std::vector<int64_t> out(3);
  EXPECT_THAT(s.FillIndexMap(absl::MakeSpan(out)),
              StatusIs(kInvalid, HasSubstr("Argument 'out' has 3 entries; expected 4")));
}

TEST(DistinctShardsTest, InOrderOfFirstAppearanceWithHoldersInMeshOrder) {
  // Mesh (x=2, y=2), dim 0 over y: shards [0:2] on {0, 2}, [2:4] on {1, 3}.
  Sharding s = Make({"y"}, CpuMesh({2, 2}, {"x", "y"}), {4});
  std::vector<DistinctShard> shards = s.DistinctShards();
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_THAT(shards[0].ranges, ElementsAre(R(0, 2)));
  EXPECT_THAT(shards[0].devices, ElementsAre(0, 2));
  EXPECT_THAT(shards[1].ranges, ElementsAre(R(2, 4)));
  EXPECT_THAT(shards[1].devices, ElementsAre(1, 3));
}

TEST(DistinctShardsTest, EmptyShardsOfDifferentIndicesAreOneShard) {
  Sharding s = Make({"x+y"}, CpuMesh({2, 2}, {"x", "y"}), {1}, ShardMode::kChunkNested);
  std::vector<DistinctShard> shards = s.DistinctShards();
  ASSERT_EQ(shards.size(), 2u);
  EXPECT_THAT(shards[1].ranges, ElementsAre(R(1, 1)));
  EXPECT_THAT(shards[1].devices, ElementsAre(1, 2, 3));
}

TEST(DistinctShardsTest, NestedEmptyShardNeedNotBeTheLast) {
  // 11 over (3, 3) nested: 4 | 4 | 3, then 4 -> 2 | 2 | 0 and 3 -> 1 | 1 | 1:
  // shard indices 2 and 5 are empty, the last one (8) is not.
  Sharding s = Make({"a+b"}, CpuMesh({3, 3}, {"a", "b"}), {11}, ShardMode::kChunkNested);
  std::vector<DistinctShard> shards = s.DistinctShards();
  ASSERT_EQ(shards.size(), 8u);
  EXPECT_THAT(shards[2].ranges, ElementsAre(R(11, 11)));
  EXPECT_THAT(shards[2].devices, ElementsAre(2, 5));
  EXPECT_THAT(shards[7].ranges, ElementsAre(R(10, 11)));
  EXPECT_EQ(Unwrap(s.ReplicaId(5)), 1);
}

TEST(DistinctShardsTest, FullyReplicatedIsOneShardOnEveryDevice) {
  Sharding s = Make({""}, CpuMesh({3}, {"x"}), {5});
  std::vector<DistinctShard> shards = s.DistinctShards();
  ASSERT_EQ(shards.size(), 1u);
  EXPECT_THAT(shards[0].devices, ElementsAre(0, 1, 2));
}

// ---------------------------------------------------------------------------
// Randomized comparison with a brute-force model.

// The slice of [0, n) `indices` describe, as a range: [n, n) when empty.
IndexRange RangeOfIndices(const std::vector<int64_t>& indices, int64_t n) {
  if (indices.empty()) return {n, n};
  return {indices.front(), indices.back() + 1};
}

// Whether `indices` run up by one.
bool IsRange(const std::vector<int64_t>& indices) {
  for (size_t i = 1; i < indices.size(); ++i) {
    if (indices[i] != indices[i - 1] + 1) return false;
  }
  return true;
}

// torch.chunk: pieces of ceil(len / k), trailing ones short or empty.
std::vector<int64_t> ChunkPiece(const std::vector<int64_t>& items, int64_t k, int64_t i) {
  const int64_t len = static_cast<int64_t>(items.size());
  const int64_t c = (len + k - 1) / k;
  std::vector<int64_t> piece;
  for (int64_t j = i * c; j < std::min(len, (i + 1) * c); ++j) piece.push_back(items[j]);
  return piece;
}

// torch's _StridedShard._split_tensor: chunk i of each of sf chunks, in
// order (sf = 1 is Shard).
std::vector<int64_t> StridedPiece(const std::vector<int64_t>& items, int64_t sf, int64_t k, int64_t i) {
  std::vector<int64_t> piece;
  for (int64_t j = 0; j < sf; ++j) {
    const std::vector<int64_t> part = ChunkPiece(ChunkPiece(items, sf, j), k, i);
    piece.insert(piece.end(), part.begin(), part.end());
  }
  return piece;
}

struct Model {
  std::vector<int64_t> mesh_shape;
  std::vector<std::vector<size_t>> groups;  // mesh axis indices per dim, major first
  std::vector<int64_t> shape;
  ShardMode mode;

  // The elements of dimension d that device `device` holds. Chunk-nested is
  // torch's placements (tessera/torch.h) applied in mesh-dim order.
  std::vector<int64_t> Items(int64_t device, size_t d) const {
    std::vector<int64_t> coords(mesh_shape.size());
    for (size_t j = mesh_shape.size(); j-- > 0;) {
      coords[j] = device % mesh_shape[j];
      device /= mesh_shape[j];
    }
    std::vector<int64_t> items(static_cast<size_t>(shape[d]));
    for (int64_t i = 0; i < shape[d]; ++i) items[i] = i;
    if (mode == ShardMode::kChunkNested) {
      for (size_t axis = 0; axis < mesh_shape.size(); ++axis) {
        auto at = std::find(groups[d].begin(), groups[d].end(), axis);
        if (at == groups[d].end()) continue;
        int64_t sf = 1;
        for (auto before = groups[d].begin(); before != at; ++before) {
          if (*before > axis) sf *= mesh_shape[*before];
        }
        items = StridedPiece(items, sf, mesh_shape[axis], coords[axis]);
      }
      return items;
    }
    int64_t k = 1, index = 0;
    for (size_t axis : groups[d]) {
      k *= mesh_shape[axis];
      index = index * mesh_shape[axis] + coords[axis];
    }
    return ChunkPiece(items, k, index);
  }

  std::vector<IndexRange> Ranges(int64_t device) const {
    std::vector<IndexRange> ranges;
    for (size_t d = 0; d < shape.size(); ++d) ranges.push_back(RangeOfIndices(Items(device, d), shape[d]));
    return ranges;
  }

  // Some device's elements of some dimension are not one range (only
  // torch's _StridedShard does that).
  bool SomePieceIsNoRange() const {
    int64_t devices = 1;
    for (int64_t n : mesh_shape) devices *= n;
    for (int64_t i = 0; i < devices; ++i) {
      for (size_t d = 0; d < shape.size(); ++d) {
        if (!IsRange(Items(i, d))) return true;
      }
    }
    return false;
  }
};

TEST(ShardingRandomTest, AgreesWithBruteForceModel) {
  std::mt19937 rng(20261130);
  const std::vector<std::string> names = {"a", "b", "c", "d"};
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int refused = 0;
  for (int round = 0; round < 2000; ++round) {
    SCOPED_TRACE(absl::StrCat("round ", round));
    Model model;
    const size_t mesh_rank = static_cast<size_t>(uniform(1, 4));
    for (size_t j = 0; j < mesh_rank; ++j) model.mesh_shape.push_back(uniform(1, 4));
    const size_t rank = static_cast<size_t>(uniform(0, 3));
    model.groups.resize(rank);
    std::vector<size_t> axes(mesh_rank);
    for (size_t j = 0; j < mesh_rank; ++j) axes[j] = j;
    std::shuffle(axes.begin(), axes.end(), rng);
    for (size_t axis : axes) {
      const int dim = uniform(-1, static_cast<int>(rank) - 1);  // -1: unused
      if (dim >= 0) model.groups[static_cast<size_t>(dim)].push_back(axis);
    }
    model.mode = static_cast<ShardMode>(uniform(0, 2));
    std::vector<std::string> spec;
    for (size_t d = 0; d < rank; ++d) {
      int64_t k = 1;
      std::string group;
      for (size_t axis : model.groups[d]) {
        k *= model.mesh_shape[axis];
        group += (group.empty() ? "" : "+") + names[axis];
      }
      spec.push_back(group);
      model.shape.push_back(model.mode == ShardMode::kStrict ? k * uniform(0, 3) : uniform(0, 13));
    }
    std::vector<std::string> mesh_names(names.begin(), names.begin() + mesh_rank);
    if (model.SomePieceIsNoRange()) {
      EXPECT_THAT(Sharding::Create(Layout(spec, CpuMesh(model.mesh_shape, mesh_names)), model.shape, model.mode),
                  StatusIs(kInvalid, HasSubstr("not one range")));
      ++refused;
      continue;
    }
    Sharding s = Make(spec, CpuMesh(model.mesh_shape, mesh_names), model.shape, model.mode);
    SCOPED_TRACE(absl::StrCat("spec [", absl::StrJoin(spec, ", "), "] mesh (",
                              absl::StrJoin(model.mesh_shape, ", "), ") shape (",
                              absl::StrJoin(model.shape, ", "), ") ", ShardModeName(model.mode)));

    // Ranges, and replica ids as JAX defines them: earlier identical ranges.
    std::vector<std::vector<IndexRange>> expected;
    std::vector<int64_t> expected_map;
    for (int64_t i = 0; i < s.num_devices(); ++i) {
      expected.push_back(model.Ranges(i));
      for (const IndexRange& r : expected.back()) {
        expected_map.push_back(r.start);
        expected_map.push_back(r.stop);
      }
      const int64_t replicas = std::count(expected.begin(), expected.end() - 1, expected.back());
      ASSERT_THAT(Unwrap(s.DeviceRanges(i)), ElementsAreArray(expected.back())) << "device " << i;
      ASSERT_EQ(Unwrap(s.ReplicaId(i)), replicas) << "device " << i;
    }
    ASSERT_THAT(Unwrap(s.IndexMap()), ElementsAreArray(expected_map));

    // Distinct shards: first appearance, holders in mesh order.
    std::vector<std::vector<IndexRange>> distinct;
    std::vector<std::vector<int64_t>> holders;
    for (int64_t i = 0; i < s.num_devices(); ++i) {
      auto it = std::find(distinct.begin(), distinct.end(), expected[i]);
      if (it == distinct.end()) {
        distinct.push_back(expected[i]);
        holders.emplace_back();
        it = distinct.end() - 1;
      }
      holders[it - distinct.begin()].push_back(i);
    }
    std::vector<DistinctShard> shards = s.DistinctShards();
    ASSERT_EQ(shards.size(), distinct.size());
    for (size_t j = 0; j < shards.size(); ++j) {
      ASSERT_THAT(shards[j].ranges, ElementsAreArray(distinct[j]));
      ASSERT_THAT(shards[j].devices, ElementsAreArray(holders[j]));
    }
  }
  EXPECT_GT(refused, 0);  // the rounds reach torch's pieces that are no range
}

}  // namespace
}  // namespace tessera
