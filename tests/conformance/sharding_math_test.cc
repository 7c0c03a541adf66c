// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shard-math conformance: the S vectors of shared/conformance/sharding_cases.md
// that are about index ranges, shard shapes, replica ids and full
// replication (S1 S3 S5 S7 S9 S11 S13 S15 S17 S19 S21 S23 S25 S27 S29 S31),
// and the error vectors that reach shard math (S33 S35).
//
// Each row names its vector. A spec shorter than the rank is written padded
// with None, and UNCONSTRAINED as None (S21): both are the JAX-spec helper's
// concern, not shard math's. S37 (spec canonicalisation, nested tuples, mesh
// construction) has no shard-math input: it is tested with the JAX spec
// helper and the mesh.
//
// Strict vectors hold in every mode (the modes agree on divisible sizes).
// Chunk vectors give a flat (XLA) and a nested (DTensor) column; strict mode
// rejects them with JAX's IndivisibleError. Their replica-id column counts
// identical ranges, so it holds for the nested column as well (S24's note:
// empty shards of different indices are replicas).
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "core/shard.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {

void PrintTo(const IndexRange& r, std::ostream* os) { *os << "[" << r.start << ":" << r.stop << "]"; }

namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using testing::Cpu;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

// One row of a vector's table: the device (by id; rows are in mesh order),
// its ranges, shard shape and replica id, and for chunk vectors the nested
// (DTensor) ranges and shape.
struct Row {
  int64_t device_id;
  std::vector<IndexRange> ranges;
  std::vector<int64_t> shape;
  int64_t replica_id;
  std::vector<IndexRange> nested_ranges = {};  // empty: same as `ranges`
  std::vector<int64_t> nested_shape = {};
};

struct MathCase {
  const char* name;
  std::vector<int64_t> mesh_shape;
  std::vector<std::string> axis_names;
  std::vector<int64_t> device_ids;  // row-major
  std::vector<std::string> spec;    // testing::Layout's form: "" = None, "a+b" = ('a', 'b')
  std::vector<int64_t> shape;
  std::vector<Row> rows;
  std::vector<int64_t> max_shard_shape;
  bool fully_replicated;
};

void PrintTo(const MathCase& c, std::ostream* os) { *os << c.name; }

// Divisible: every mode gives the table.
const MathCase kStrictCases[] = {
    // S1: fully replicated. P() (padded with None)
    {"S1_FullyReplicated",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"", ""}, {8, 8},
     {
         {0, {{0, 8}, {0, 8}}, {8, 8}, 0},
         {1, {{0, 8}, {0, 8}}, {8, 8}, 1},
         {2, {{0, 8}, {0, 8}}, {8, 8}, 2},
         {3, {{0, 8}, {0, 8}}, {8, 8}, 3},
         {4, {{0, 8}, {0, 8}}, {8, 8}, 4},
         {5, {{0, 8}, {0, 8}}, {8, 8}, 5},
         {6, {{0, 8}, {0, 8}}, {8, 8}, 6},
         {7, {{0, 8}, {0, 8}}, {8, 8}, 7},
     },
     {8, 8}, true},
    // S3: 2-D tiled, axes transposed. P('y', 'x')
    {"S3_TiledAxesTransposed",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"y", "x"}, {8, 16},
     {
         {0, {{0, 2}, {0, 8}}, {2, 8}, 0},
         {1, {{2, 4}, {0, 8}}, {2, 8}, 0},
         {2, {{4, 6}, {0, 8}}, {2, 8}, 0},
         {3, {{6, 8}, {0, 8}}, {2, 8}, 0},
         {4, {{0, 2}, {8, 16}}, {2, 8}, 0},
         {5, {{2, 4}, {8, 16}}, {2, 8}, 0},
         {6, {{4, 6}, {8, 16}}, {2, 8}, 0},
         {7, {{6, 8}, {8, 16}}, {2, 8}, 0},
     },
     {2, 8}, false},
    // S5: partial replication (leading unused axis). P(None, 'y')
    {"S5_LeadingUnusedAxis",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"", "y"}, {8, 16},
     {
         {0, {{0, 8}, {0, 4}}, {8, 4}, 0},
         {1, {{0, 8}, {4, 8}}, {8, 4}, 0},
         {2, {{0, 8}, {8, 12}}, {8, 4}, 0},
         {3, {{0, 8}, {12, 16}}, {8, 4}, 0},
         {4, {{0, 8}, {0, 4}}, {8, 4}, 1},
         {5, {{0, 8}, {4, 8}}, {8, 4}, 1},
         {6, {{0, 8}, {8, 12}}, {8, 4}, 1},
         {7, {{0, 8}, {12, 16}}, {8, 4}, 1},
     },
     {8, 4}, false},
    // S7: two axes on one dim, reversed order. P(('y', 'x')) (padded with None)
    {"S7_TwoAxesReversed",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"y+x", ""}, {16, 4},
     {
         {0, {{0, 2}, {0, 4}}, {2, 4}, 0},
         {1, {{4, 6}, {0, 4}}, {2, 4}, 0},
         {2, {{8, 10}, {0, 4}}, {2, 4}, 0},
         {3, {{12, 14}, {0, 4}}, {2, 4}, 0},
         {4, {{2, 4}, {0, 4}}, {2, 4}, 0},
         {5, {{6, 8}, {0, 4}}, {2, 4}, 0},
         {6, {{10, 12}, {0, 4}}, {2, 4}, 0},
         {7, {{14, 16}, {0, 4}}, {2, 4}, 0},
     },
     {2, 4}, false},
    // S9: 3-D mesh, one axis used (split replication group). P('b')
    {"S9_OneAxisOfThreeSplitReplicaGroup",
     {2, 2, 2}, {"a", "b", "c"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"b"}, {8},
     {
         {0, {{0, 4}}, {4}, 0},
         {1, {{0, 4}}, {4}, 1},
         {2, {{4, 8}}, {4}, 0},
         {3, {{4, 8}}, {4}, 1},
         {4, {{0, 4}}, {4}, 2},
         {5, {{0, 4}}, {4}, 3},
         {6, {{4, 8}}, {4}, 2},
         {7, {{4, 8}}, {4}, 3},
     },
     {4}, false},
    // S11: 3-D mesh, one axis on dim 1. P(None, 'a')
    {"S11_OneAxisOnDim1",
     {2, 2, 2}, {"a", "b", "c"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"", "a"}, {4, 8},
     {
         {0, {{0, 4}, {0, 4}}, {4, 4}, 0},
         {1, {{0, 4}, {0, 4}}, {4, 4}, 1},
         {2, {{0, 4}, {0, 4}}, {4, 4}, 2},
         {3, {{0, 4}, {0, 4}}, {4, 4}, 3},
         {4, {{0, 4}, {4, 8}}, {4, 4}, 0},
         {5, {{0, 4}, {4, 8}}, {4, 4}, 1},
         {6, {{0, 4}, {4, 8}}, {4, 4}, 2},
         {7, {{0, 4}, {4, 8}}, {4, 4}, 3},
     },
     {4, 4}, false},
    // S13: three axes reversed. P(('c', 'b', 'a'))
    {"S13_ThreeAxesReversed",
     {2, 2, 2}, {"a", "b", "c"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"c+b+a"}, {16},
     {
         {0, {{0, 2}}, {2}, 0},
         {1, {{8, 10}}, {2}, 0},
         {2, {{4, 6}}, {2}, 0},
         {3, {{12, 14}}, {2}, 0},
         {4, {{2, 4}}, {2}, 0},
         {5, {{10, 12}}, {2}, 0},
         {6, {{6, 8}}, {2}, 0},
         {7, {{14, 16}}, {2}, 0},
     },
     {2}, false},
    // S15: size-1 mesh axis is dropped. P('x', 'y')
    {"S15_SizeOneAxis",
     {2, 1}, {"x", "y"}, {0, 1},
     {"x", "y"}, {8, 8},
     {
         {0, {{0, 4}, {0, 8}}, {4, 8}, 0},
         {1, {{4, 8}, {0, 8}}, {4, 8}, 0},
     },
     {4, 8}, false},
    // S17: single-device mesh. P('x')
    {"S17_SingleDevice",
     {1}, {"x"}, {5},
     {"x"}, {4},
     {
         {5, {{0, 4}}, {4}, 0},
     },
     {4}, true},
    // S19: scalar. P()
    {"S19_Scalar",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {}, {},
     {
         {0, {}, {}, 0},
         {1, {}, {}, 1},
         {2, {}, {}, 2},
         {3, {}, {}, 3},
         {4, {}, {}, 4},
         {5, {}, {}, 5},
         {6, {}, {}, 6},
         {7, {}, {}, 7},
     },
     {}, true},
    // S21: UNCONSTRAINED dim. P(UNCONSTRAINED, 'y') (UNCONSTRAINED is None for shard math)
    {"S21_UnconstrainedIsNone",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"", "y"}, {8, 16},
     {
         {0, {{0, 8}, {0, 4}}, {8, 4}, 0},
         {1, {{0, 8}, {4, 8}}, {8, 4}, 0},
         {2, {{0, 8}, {8, 12}}, {8, 4}, 0},
         {3, {{0, 8}, {12, 16}}, {8, 4}, 0},
         {4, {{0, 8}, {0, 4}}, {8, 4}, 1},
         {5, {{0, 8}, {4, 8}}, {8, 4}, 1},
         {6, {{0, 8}, {8, 12}}, {8, 4}, 1},
         {7, {{0, 8}, {12, 16}}, {8, 4}, 1},
     },
     {8, 4}, false},
    // S31: right-to-left sharding = _StridedShard. P(('tp', 'dp')) (padded with None)
    {"S31_RightToLeftGroup",
     {2, 2}, {"dp", "tp"}, {0, 1, 2, 3},
     {"tp+dp", ""}, {8, 8},
     {
         {0, {{0, 2}, {0, 8}}, {2, 8}, 0, {{0, 2}, {0, 8}}, {2, 8}},
         {1, {{4, 6}, {0, 8}}, {2, 8}, 0, {{4, 6}, {0, 8}}, {2, 8}},
         {2, {{2, 4}, {0, 8}}, {2, 8}, 0, {{2, 4}, {0, 8}}, {2, 8}},
         {3, {{6, 8}, {0, 8}}, {2, 8}, 0, {{6, 8}, {0, 8}}, {2, 8}},
     },
     {2, 8}, false},
};

// Uneven: the flat column in kChunkFlat, the nested one in kChunkNested.
const MathCase kChunkCases[] = {
    // S23: uneven, one axis (chunk). P(None, 'y')
    {"S23_UnevenOneAxis",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"", "y"}, {4, 10},
     {
         {0, {{0, 4}, {0, 3}}, {4, 3}, 0, {{0, 4}, {0, 3}}, {4, 3}},
         {1, {{0, 4}, {3, 6}}, {4, 3}, 0, {{0, 4}, {3, 6}}, {4, 3}},
         {2, {{0, 4}, {6, 9}}, {4, 3}, 0, {{0, 4}, {6, 9}}, {4, 3}},
         {3, {{0, 4}, {9, 10}}, {4, 1}, 0, {{0, 4}, {9, 10}}, {4, 1}},
         {4, {{0, 4}, {0, 3}}, {4, 3}, 1, {{0, 4}, {0, 3}}, {4, 3}},
         {5, {{0, 4}, {3, 6}}, {4, 3}, 1, {{0, 4}, {3, 6}}, {4, 3}},
         {6, {{0, 4}, {6, 9}}, {4, 3}, 1, {{0, 4}, {6, 9}}, {4, 3}},
         {7, {{0, 4}, {9, 10}}, {4, 1}, 1, {{0, 4}, {9, 10}}, {4, 1}},
     },
     {4, 3}, false},
    // S25: uneven, last shard empty. P('x')
    {"S25_UnevenLastShardEmpty",
     {4}, {"x"}, {0, 1, 2, 3},
     {"x"}, {5},
     {
         {0, {{0, 2}}, {2}, 0, {{0, 2}}, {2}},
         {1, {{2, 4}}, {2}, 0, {{2, 4}}, {2}},
         {2, {{4, 5}}, {1}, 0, {{4, 5}}, {1}},
         {3, {{5, 5}}, {0}, 0, {{5, 5}}, {0}},
     },
     {2}, false},
    // S27: uneven in two dims. P('x', 'y')
    {"S27_UnevenTwoDims",
     {2, 4}, {"x", "y"}, {0, 1, 2, 3, 4, 5, 6, 7},
     {"x", "y"}, {3, 10},
     {
         {0, {{0, 2}, {0, 3}}, {2, 3}, 0, {{0, 2}, {0, 3}}, {2, 3}},
         {1, {{0, 2}, {3, 6}}, {2, 3}, 0, {{0, 2}, {3, 6}}, {2, 3}},
         {2, {{0, 2}, {6, 9}}, {2, 3}, 0, {{0, 2}, {6, 9}}, {2, 3}},
         {3, {{0, 2}, {9, 10}}, {2, 1}, 0, {{0, 2}, {9, 10}}, {2, 1}},
         {4, {{2, 3}, {0, 3}}, {1, 3}, 0, {{2, 3}, {0, 3}}, {1, 3}},
         {5, {{2, 3}, {3, 6}}, {1, 3}, 0, {{2, 3}, {3, 6}}, {1, 3}},
         {6, {{2, 3}, {6, 9}}, {1, 3}, 0, {{2, 3}, {6, 9}}, {1, 3}},
         {7, {{2, 3}, {9, 10}}, {1, 1}, 0, {{2, 3}, {9, 10}}, {1, 1}},
     },
     {2, 3}, false},
    // S29: PyTorch docstring example (2,5) on (2,2) [Shard(1), Shard(1)]. P(None, ('dp', 'tp'))
    {"S29_PyTorchDocstring",
     {2, 2}, {"dp", "tp"}, {0, 1, 2, 3},
     {"", "dp+tp"}, {2, 5},
     {
         {0, {{0, 2}, {0, 2}}, {2, 2}, 0, {{0, 2}, {0, 2}}, {2, 2}},
         {1, {{0, 2}, {2, 4}}, {2, 2}, 0, {{0, 2}, {2, 3}}, {2, 1}},
         {2, {{0, 2}, {4, 5}}, {2, 1}, 0, {{0, 2}, {3, 4}}, {2, 1}},
         {3, {{0, 2}, {5, 5}}, {2, 0}, 0, {{0, 2}, {4, 5}}, {2, 1}},
     },
     {2, 2}, false},
};

MeshPtr MeshOf(const MathCase& c) {
  std::vector<Device> devices;
  for (int64_t id : c.device_ids) devices.push_back(Cpu(id));
  return Unwrap(DeviceMesh::Create(c.mesh_shape, c.axis_names, std::move(devices)));
}

Sharding ShardingOf(const MathCase& c, ShardMode mode) {
  return Unwrap(Sharding::Create(Layout(c.spec, MeshOf(c)), c.shape, mode));
}

// The flat column, or the nested one where the vector gives it.
const std::vector<IndexRange>& ExpectedRanges(const Row& row, bool nested) {
  return nested && !row.nested_ranges.empty() ? row.nested_ranges : row.ranges;
}
const std::vector<int64_t>& ExpectedShape(const Row& row, bool nested) {
  return nested && !row.nested_ranges.empty() ? row.nested_shape : row.shape;
}

// Every per-device query, then the bulk ones, against one column.
void ExpectColumn(const Sharding& s, const MathCase& c, bool nested) {
  ASSERT_EQ(s.num_devices(), static_cast<int64_t>(c.rows.size()));
  std::vector<int64_t> map;
  for (size_t i = 0; i < c.rows.size(); ++i) {
    const Row& row = c.rows[i];
    const int64_t device = static_cast<int64_t>(i);
    SCOPED_TRACE(absl::StrCat("device id ", row.device_id));
    EXPECT_EQ(s.mesh().devices()[i].id, row.device_id);
    EXPECT_THAT(Unwrap(s.DeviceRanges(device)), ElementsAreArray(ExpectedRanges(row, nested)));
    EXPECT_THAT(Unwrap(s.ShardShape(device)), ElementsAreArray(ExpectedShape(row, nested)));
    EXPECT_EQ(Unwrap(s.ReplicaId(device)), row.replica_id);
    for (const IndexRange& r : ExpectedRanges(row, nested)) {
      map.push_back(r.start);
      map.push_back(r.stop);
    }
  }
  EXPECT_THAT(Unwrap(s.IndexMap()), ElementsAreArray(map));
  // A device's replica id is its position among its distinct shard's holders.
  for (const DistinctShard& shard : s.DistinctShards()) {
    for (size_t k = 0; k < shard.devices.size(); ++k) {
      const Row& row = c.rows[static_cast<size_t>(shard.devices[k])];
      EXPECT_THAT(shard.ranges, ElementsAreArray(ExpectedRanges(row, nested)));
      EXPECT_EQ(row.replica_id, static_cast<int64_t>(k));
    }
  }
}

std::string CaseName(const ::testing::TestParamInfo<MathCase>& info) {
  return info.param.name;
}

class StrictVectorTest : public ::testing::TestWithParam<MathCase> {};

TEST_P(StrictVectorTest, HoldsInEveryMode) {
  const MathCase& c = GetParam();
  for (ShardMode mode : {ShardMode::kStrict, ShardMode::kChunkFlat, ShardMode::kChunkNested}) {
    SCOPED_TRACE(ShardModeName(mode));
    ExpectColumn(ShardingOf(c, mode), c, mode == ShardMode::kChunkNested);
  }
}

TEST_P(StrictVectorTest, MaxShardShapeAndFullReplication) {
  const MathCase& c = GetParam();
  Sharding s = ShardingOf(c, ShardMode::kStrict);
  EXPECT_THAT(s.max_shard_shape(), ElementsAreArray(c.max_shard_shape));
  EXPECT_EQ(s.is_fully_replicated(), c.fully_replicated);
}

INSTANTIATE_TEST_SUITE_P(Sharding, StrictVectorTest, ::testing::ValuesIn(kStrictCases), CaseName);

class ChunkVectorTest : public ::testing::TestWithParam<MathCase> {};

TEST_P(ChunkVectorTest, FlatColumnInChunkFlat) {
  ExpectColumn(ShardingOf(GetParam(), ShardMode::kChunkFlat), GetParam(), /*nested=*/false);
}

TEST_P(ChunkVectorTest, NestedColumnInChunkNested) {
  ExpectColumn(ShardingOf(GetParam(), ShardMode::kChunkNested), GetParam(), /*nested=*/true);
}

TEST_P(ChunkVectorTest, IndivisibleInStrictMode) {
  const MathCase& c = GetParam();
  EXPECT_THAT(Sharding::Create(Layout(c.spec, MeshOf(c)), c.shape, ShardMode::kStrict),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("times, but the dimension size is")));
}

TEST_P(ChunkVectorTest, MaxShardShapeAndFullReplication) {
  const MathCase& c = GetParam();
  for (ShardMode mode : {ShardMode::kChunkFlat, ShardMode::kChunkNested}) {
    Sharding s = ShardingOf(c, mode);
    EXPECT_THAT(s.max_shard_shape(), ElementsAreArray(c.max_shard_shape)) << ShardModeName(mode);
    EXPECT_EQ(s.is_fully_replicated(), c.fully_replicated) << ShardModeName(mode);
  }
}

INSTANTIATE_TEST_SUITE_P(Sharding, ChunkVectorTest, ::testing::ValuesIn(kChunkCases), CaseName);

// S23's note: strict mode names the dimension, its partitions and size.
TEST(ShardingMathErrorTest, S23_StrictNamesDimensionPartitionsAndSize) {
  const MathCase& s23 = kChunkCases[0];
  ASSERT_STREQ(s23.name, "S23_UnevenOneAxis");
  EXPECT_THAT(Sharding::Create(Layout(s23.spec, MeshOf(s23)), s23.shape, ShardMode::kStrict),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("implies that array axis 1 is partitioned 4 times, but the "
                                 "dimension size is 10")));
}

// S33: P('x', 'x') is DuplicateAxis; the layout is rejected before any shard
// math can be asked of it.
TEST(ShardingMathErrorTest, S33_AxisUsedTwiceIsRejected) {
  MeshPtr mesh = testing::CpuMesh({2, 4}, {"x", "y"});
  EXPECT_THAT(TensorLayout::Create({{"x"}, {"x"}}, mesh),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("uses mesh axis 'x' twice (dimensions 0 and 1)")));
}

// S35: P('z') on a mesh of (x, y) is UnknownAxis (Keras's message).
TEST(ShardingMathErrorTest, S35_UnknownAxisIsRejected) {
  MeshPtr mesh = testing::CpuMesh({2, 4}, {"x", "y"});
  EXPECT_THAT(TensorLayout::Create({{"z"}}, mesh),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid axis names for Layout. Valid axis names: {'x', 'y'}, "
                                 "Got {'z'}")));
}

}  // namespace
}  // namespace tessera
