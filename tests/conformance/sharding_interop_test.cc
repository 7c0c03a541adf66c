// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Sharding interop conformance: ../shared/conformance/sharding_cases.md, the
// HloSharding (V1 and V2), OpSharding and round-trip lines of every odd S
// vector that has them, and the interop strings of S47. Each row names its
// vector. The PyTorch placements are compared after parsing (the vectors
// write Shard(0) and _StridedShard(0, split_factor=4); Tessera prints
// torch 2.15's reprs Shard(dim=0), _StridedShard(dim=0, sf=4)).
//
// Size-1 mesh axes cannot travel in an HloSharding (JAX drops them, S15,
// S17), so for those rows the layout that comes back lacks them; every other
// row round-trips to the very layout it started from.
#include <ostream>
#include <string>
#include <vector>

#include "core/formats/hlo_sharding.h"
#include "core/formats/jax_spec.h"
#include "core/formats/torch_placements.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tessera/v1/xla_op_sharding.pb.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAreArray;
using testing::Layout;
using testing::Unwrap;

struct InteropCase {
  const char* id;
  std::vector<int64_t> mesh_shape;
  std::vector<std::string> axis_names;
  std::vector<int64_t> device_ids;  // row-major
  std::vector<std::string> spec;    // testing::Layout's compact form
  size_t rank;
  const char* v2;
  const char* v1;
  // OpSharding of the V2 form (empty dims: type REPLICATED) and V1 devices.
  std::vector<int64_t> op_dims;
  std::vector<int64_t> op_reshape;
  std::vector<int64_t> op_perm;
  bool op_replicate_last;
  std::vector<int64_t> op_devices;
  // The layout parsed back from the text ("-" = the same as spec).
  std::vector<std::string> back;
  // The vector's spec and PyTorch placements, as the vector writes them.
  const char* spec_text;
  const char* placements;
};

std::ostream& operator<<(std::ostream& os, const InteropCase& c) { return os << c.id; }

const std::vector<std::string> kSame = {"-"};
const std::vector<int64_t> k8 = {0, 1, 2, 3, 4, 5, 6, 7};

const InteropCase kCases[] = {
    {"S1", {2, 4}, {"x", "y"}, k8, {}, 2, "{replicated}", "{replicated}", {}, {}, {}, false, {}, {"", ""},
     "P()", "[Replicate(), Replicate()]"},
    {"S3", {2, 4}, {"x", "y"}, k8, {"y", "x"}, 2, "{devices=[4,2]<=[2,4]T(1,0)}",
     "{devices=[4,2]0,4,1,5,2,6,3,7}", {4, 2}, {2, 4}, {1, 0}, false, {0, 4, 1, 5, 2, 6, 3, 7}, kSame,
     "P('y', 'x')", "[Shard(1), Shard(0)]"},
    {"S5", {2, 4}, {"x", "y"}, k8, {"", "y"}, 2,
     "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
     "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}", {1, 4, 2}, {2, 4}, {1, 0}, true,
     {0, 4, 1, 5, 2, 6, 3, 7}, kSame,
     "P(None, 'y')", "[Replicate(), Shard(1)]"},
    {"S7", {2, 4}, {"x", "y"}, k8, {"y+x"}, 2, "{devices=[8,1]<=[2,4]T(1,0)}",
     "{devices=[8,1]0,4,1,5,2,6,3,7}", {8, 1}, {2, 4}, {1, 0}, false, {0, 4, 1, 5, 2, 6, 3, 7},
     {"y+x", ""},
     "P(('y', 'x'))", "[_StridedShard(0, split_factor=4), Shard(0)]"},
    {"S9", {2, 2, 2}, {"a", "b", "c"}, k8, {"b"}, 1,
     "{devices=[2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}",
     "{devices=[2,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}", {2, 4}, {2, 2, 2}, {1, 0, 2}, true,
     {0, 1, 4, 5, 2, 3, 6, 7}, kSame,
     "P('b')", "[Replicate(), Shard(0), Replicate()]"},
    {"S11", {2, 2, 2}, {"a", "b", "c"}, k8, {"", "a"}, 2,
     "{devices=[1,2,4]<=[8] last_tile_dim_replicate}",
     "{devices=[1,2,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}", {1, 2, 4}, {8}, {0}, true, k8, kSame,
     "P(None, 'a')", "[Shard(1), Replicate(), Replicate()]"},
    {"S13", {2, 2, 2}, {"a", "b", "c"}, k8, {"c+b+a"}, 1, "{devices=[8]<=[2,2,2]T(2,1,0)}",
     "{devices=[8]0,4,2,6,1,5,3,7}", {8}, {2, 2, 2}, {2, 1, 0}, false, {0, 4, 2, 6, 1, 5, 3, 7}, kSame,
     "P(('c', 'b', 'a'))", "[_StridedShard(0, split_factor=4), _StridedShard(0, split_factor=2), Shard(0)]"},
    {"S15", {2, 1}, {"x", "y"}, {0, 1}, {"x", "y"}, 2, "{devices=[2,1]<=[2]}", "{devices=[2,1]0,1}",
     {2, 1}, {2}, {0}, false, {0, 1}, {"x", ""},
     "P('x', 'y')", "[Shard(0), Shard(1)]"},
    {"S17", {1}, {"x"}, {5}, {"x"}, 1, "{replicated}", "{replicated}", {}, {}, {}, false, {}, {""},
     "P('x')", "[Shard(0)]"},
    {"S19", {2, 4}, {"x", "y"}, k8, {}, 0, "{replicated}", "{replicated}", {}, {}, {}, false, {}, kSame,
     "P()", "[Replicate(), Replicate()]"},
    // S21: UNCONSTRAINED is None for a layout, so the strings are S5's.
    {"S21", {2, 4}, {"x", "y"}, k8, {"", "y"}, 2,
     "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
     "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}", {1, 4, 2}, {2, 4}, {1, 0}, true,
     {0, 4, 1, 5, 2, 6, 3, 7}, kSame,
     "P(UNCONSTRAINED, 'y')", "[Replicate(), Shard(1)]"},
    {"S23", {2, 4}, {"x", "y"}, k8, {"", "y"}, 2,
     "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}",
     "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}", {1, 4, 2}, {2, 4}, {1, 0}, true,
     {0, 4, 1, 5, 2, 6, 3, 7}, kSame,
     "P(None, 'y')", "[Replicate(), Shard(1)]"},
    {"S25", {4}, {"x"}, {0, 1, 2, 3}, {"x"}, 1, "{devices=[4]<=[4]}", "{devices=[4]0,1,2,3}", {4},
     {4}, {0}, false, {0, 1, 2, 3}, kSame,
     "P('x')", "[Shard(0)]"},
    {"S27", {2, 4}, {"x", "y"}, k8, {"x", "y"}, 2, "{devices=[2,4]<=[8]}",
     "{devices=[2,4]0,1,2,3,4,5,6,7}", {2, 4}, {8}, {0}, false, k8, kSame,
     "P('x', 'y')", "[Shard(0), Shard(1)]"},
    {"S29", {2, 2}, {"dp", "tp"}, {0, 1, 2, 3}, {"", "dp+tp"}, 2, "{devices=[1,4]<=[4]}",
     "{devices=[1,4]0,1,2,3}", {1, 4}, {4}, {0}, false, {0, 1, 2, 3}, kSame,
     "P(None, ('dp', 'tp'))", "[Shard(1), Shard(1)]"},
    {"S31", {2, 2}, {"dp", "tp"}, {0, 1, 2, 3}, {"tp+dp"}, 2, "{devices=[4,1]<=[2,2]T(1,0)}",
     "{devices=[4,1]0,2,1,3}", {4, 1}, {2, 2}, {1, 0}, false, {0, 2, 1, 3}, {"tp+dp", ""},
     "P(('tp', 'dp'))", "[_StridedShard(0, split_factor=2), Shard(0)]"},
};

MeshPtr MeshOf(const InteropCase& c) {
  std::vector<Device> devices;
  for (int64_t id : c.device_ids) devices.push_back(testing::Cpu(id));
  return Unwrap(DeviceMesh::Create(c.mesh_shape, c.axis_names, devices));
}

TensorLayout BackLayout(const InteropCase& c, const MeshPtr& mesh) {
  const std::vector<std::string>& spec = c.back == kSame ? c.spec : c.back;
  return Layout(spec, mesh);
}

// The spec padded with None to the tensor rank, as jax applies it.
TensorLayout PaddedLayout(const InteropCase& c, const MeshPtr& mesh) {
  std::vector<std::string> spec = c.spec;
  spec.resize(c.rank);
  return Layout(spec, mesh);
}

class SVector : public ::testing::TestWithParam<InteropCase> {};

TEST_P(SVector, SpecTextGivesTheLayout) {
  const InteropCase& c = GetParam();
  const MeshPtr mesh = MeshOf(c);
  EXPECT_EQ(Unwrap(LayoutFromPartitionSpec(c.spec_text, mesh, c.rank)), PaddedLayout(c, mesh));
}

TEST_P(SVector, PrintedSpecParsesBack) {
  const InteropCase& c = GetParam();
  const MeshPtr mesh = MeshOf(c);
  const TensorLayout layout = PaddedLayout(c, mesh);
  EXPECT_EQ(Unwrap(LayoutFromPartitionSpec(PartitionSpecText(layout), mesh, c.rank)), layout);
}

TEST_P(SVector, HloShardingV2) {
  const InteropCase& c = GetParam();
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout(c.spec, MeshOf(c)), c.rank, true)), c.v2);
}

TEST_P(SVector, HloShardingV1) {
  const InteropCase& c = GetParam();
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout(c.spec, MeshOf(c)), c.rank, false)), c.v1);
}

TEST_P(SVector, OpShardingFields) {
  const InteropCase& c = GetParam();
  const TensorLayout layout = Layout(c.spec, MeshOf(c));
  v1::OpSharding v2, v1;
  ASSERT_TRUE(v2.ParseFromString(Unwrap(LayoutToOpSharding(layout, c.rank, true))));
  ASSERT_TRUE(v1.ParseFromString(Unwrap(LayoutToOpSharding(layout, c.rank, false))));
  EXPECT_EQ(v2.type(), c.op_dims.empty() ? v1::OpSharding::REPLICATED : v1::OpSharding::OTHER);
  EXPECT_THAT(v2.tile_assignment_dimensions(), ElementsAreArray(c.op_dims));
  EXPECT_THAT(v2.iota_reshape_dims(), ElementsAreArray(c.op_reshape));
  EXPECT_THAT(v2.iota_transpose_perm(), ElementsAreArray(c.op_perm));
  EXPECT_EQ(v2.replicate_on_last_tile_dim(), c.op_replicate_last);
  EXPECT_THAT(v2.tile_assignment_devices(), ::testing::IsEmpty());
  EXPECT_THAT(v1.tile_assignment_devices(), ElementsAreArray(c.op_devices));
  EXPECT_THAT(v1.iota_reshape_dims(), ::testing::IsEmpty());
}

TEST_P(SVector, TorchPlacements) {
  const InteropCase& c = GetParam();
  const TensorLayout layout = Layout(c.spec, MeshOf(c));
  EXPECT_EQ(Unwrap(TorchPlacementsFromLayout(layout)), Unwrap(ParseTorchPlacements(c.placements)));
}

TEST_P(SVector, TorchPlacementsRoundTrip) {
  const InteropCase& c = GetParam();
  const MeshPtr mesh = MeshOf(c);
  EXPECT_EQ(Unwrap(LayoutFromTorchPlacementsText(c.placements, mesh, c.rank)), PaddedLayout(c, mesh));
}

TEST_P(SVector, TextRoundTrips) {
  const InteropCase& c = GetParam();
  const MeshPtr mesh = MeshOf(c);
  for (const char* text : {c.v2, c.v1}) {
    EXPECT_EQ(Unwrap(LayoutFromHloShardingText(text, mesh, c.rank)), BackLayout(c, mesh)) << text;
  }
}

TEST_P(SVector, OpShardingRoundTrips) {
  const InteropCase& c = GetParam();
  const MeshPtr mesh = MeshOf(c);
  const TensorLayout layout = Layout(c.spec, mesh);
  for (bool v2 : {true, false}) {
    const std::string bytes = Unwrap(LayoutToOpSharding(layout, c.rank, v2));
    EXPECT_EQ(Unwrap(LayoutFromOpSharding(bytes, mesh, c.rank)), BackLayout(c, mesh));
  }
}

INSTANTIATE_TEST_SUITE_P(ShardingCases, SVector, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.id); });

// S7: jax's repr of the vector's spec keeps the 1-tuple comma.
TEST(S7, SpecPrintsAsJaxRepr) {
  EXPECT_EQ(PartitionSpecText(Layout({"y+x"})), "P(('y', 'x'),)");
}

// S31: the _StridedShard docstring's right-to-left sharding, printed.
TEST(S31, StridedShardPrints) {
  EXPECT_EQ(Unwrap(LayoutToTorchPlacementsText(
                Layout({"tp+dp"}, testing::CpuMesh({2, 2}, {"dp", "tp"})))),
            "[_StridedShard(dim=0, sf=2), Shard(dim=0)]");
}

// S37 (torch row): one placement per mesh dim, with PyTorch's message.
TEST(S37, PlacementsMustCoverTheMesh) {
  EXPECT_THAT(LayoutFromTorchPlacementsText("[Shard(0)]", testing::CpuMesh({2, 4}, {"x", "y"}), 1),
              testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                ::testing::HasSubstr("`placements` must have the same length as "
                                                     "`device_mesh.ndim`! Found placements length: "
                                                     "1, and device_mesh.ndim: 2.")));
}

// S21: UNCONSTRAINED is None for shard math and GSPMD text.
TEST(S21, UnconstrainedPrintsAsNone) {
  EXPECT_EQ(PartitionSpecText(Unwrap(ParsePartitionSpec("P(UNCONSTRAINED, 'y')"))), "P(None, 'y')");
}

// S33: an axis used twice is a DuplicateAxis error, in jax's words.
TEST(S33, AxisUsedTwiceIsAnError) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('x', 'x')", testing::CpuMesh({2, 4}, {"x", "y"}), 2),
              testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                ::testing::HasSubstr("A single NamedSharding spec specification can map every mesh "
                                                     "axis to at most one positional dimension, but P('x', 'x') has "
                                                     "duplicate entries for `x`")));
}

// S35: an axis the mesh lacks is an UnknownAxis error, in jax's words.
TEST(S35, UnknownAxisIsAnError) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('z')", testing::CpuMesh({2, 4}, {"x", "y"}), 1),
              testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                ::testing::HasSubstr("Resource axis: z of P('z',) is not found in mesh: ('x', 'y').")));
}

// S37: canonical equalities, and a nested tuple is a NestedTuple error.
TEST(S37, CanonicalEqualities) {
  EXPECT_EQ(Unwrap(ParsePartitionSpec("P((), 'x')")), Unwrap(ParsePartitionSpec("P(None, 'x')")));
  EXPECT_EQ(Unwrap(ParsePartitionSpec("P(('x',))")), Unwrap(ParsePartitionSpec("P('x')")));
  EXPECT_EQ(Unwrap(ParsePartitionSpec("P(['x', 'y'])")),
            Unwrap(ParsePartitionSpec("P(('x', 'y'))")));
}

TEST(S37, NestedTupleIsAnError) {
  EXPECT_THAT(ParsePartitionSpec("P((('x',),))"),
              testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                ::testing::HasSubstr(
                                    "A tuple inside PartitionSpec cannot contain a nested tuple. Got partition: ")));
}

// --- S18 (logical indices) is even; its rule is S47's device-list note. ---

// S47: DTensor's ConvertLayoutToXlaOpSharding gives the V1 strings of S4 and S3.
TEST(S47, DTensorV1StringsAreTesserasV1) {
  MeshPtr mesh = testing::CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({"x", ""}, mesh), 2, false)),
            "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}");
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({"y", "x"}, mesh), 2, false)),
            "{devices=[4,2]0,4,1,5,2,6,3,7}");
}

TEST(S47, PaddedSpecIsEquivalent) {
  MeshPtr mesh = testing::CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({"x"}, mesh), 2, true)),
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({"x", ""}, mesh), 2, true)),
            "{devices=[2,1,4]<=[8] last_tile_dim_replicate}");
}

TEST(S47, SizeOneAxisMakesNoDifference) {
  MeshPtr mesh = testing::CpuMesh({2, 1}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({"x", "y"}, mesh), 2, true)),
            Unwrap(LayoutToHloShardingText(Layout({"x"}, mesh), 2, true)));
}

TEST(S47, GroupedAxesAreNotOneAxis) {
  MeshPtr mesh = testing::CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({"x+y"}, mesh), 2, true)), "{devices=[8,1]<=[8]}");
  EXPECT_NE(Unwrap(LayoutToHloShardingText(Layout({"x+y"}, mesh), 2, true)),
            Unwrap(LayoutToHloShardingText(Layout({"x"}, mesh), 2, true)));
}

TEST(S47, FullyReplicatedLayoutsAreEquivalent) {
  MeshPtr mesh = testing::CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({}, mesh), 2, true)), "{replicated}");
  EXPECT_EQ(Unwrap(LayoutToHloShardingText(Layout({"", ""}, mesh), 2, true)), "{replicated}");
}

TEST(S47, IotaTileAndItsV1Equivalent) {
  const HloSharding iota = Unwrap(ParseHloSharding("{devices=[3,4]<=[2,2,3]T(2,1,0)}"));
  EXPECT_EQ(HloShardingToString(iota), "{devices=[3,4]<=[2,2,3]T(2,1,0)}");
  EXPECT_EQ(HloShardingToString(ToV1(iota)), "{devices=[3,4]0,6,3,9,1,7,4,10,2,8,5,11}");
}

TEST(S47, V1ListIsKeptAsV1) {
  EXPECT_EQ(HloShardingToString(Unwrap(ParseHloSharding("{devices=[2,1,2]2,3,5,7}"))),
            "{devices=[2,1,2]2,3,5,7}");
}

TEST(S47, OpShardingIotaPrints) {
  v1::OpSharding proto;
  proto.set_type(v1::OpSharding::OTHER);
  for (int64_t d : {6, 35}) proto.add_tile_assignment_dimensions(d);
  for (int64_t d : {7, 10, 3}) proto.add_iota_reshape_dims(d);
  for (int32_t p : {2, 1, 0}) proto.add_iota_transpose_perm(p);
  EXPECT_EQ(HloShardingToString(Unwrap(ParseOpSharding(proto.SerializeAsString()))),
            "{devices=[6,35]<=[7,10,3]T(2,1,0)}");
}

TEST(S47, OpShardingDeviceListWithReplicationPrints) {
  v1::OpSharding proto;
  proto.set_type(v1::OpSharding::OTHER);
  for (int64_t d : {4, 1, 2}) proto.add_tile_assignment_dimensions(d);
  for (int64_t d : k8) proto.add_tile_assignment_devices(d);
  proto.set_replicate_on_last_tile_dim(true);
  EXPECT_EQ(HloShardingToString(Unwrap(ParseOpSharding(proto.SerializeAsString()))),
            "{devices=[4,1,2]0,1,2,3,4,5,6,7 last_tile_dim_replicate}");
}

TEST(S47, V1AndV2FormsOfOneShardingAreEqual) {
  const HloSharding v1 = Unwrap(ParseHloSharding("{devices=[2,2]0,2,1,3}"));
  const HloSharding v2 = Unwrap(ParseHloSharding("{devices=[2,2]<=[2,2]T(1,0)}"));
  EXPECT_EQ(ToV1(v2), v1);
  MeshPtr mesh = testing::CpuMesh({2, 2}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromHloSharding(v1, mesh, 2)), Unwrap(LayoutFromHloSharding(v2, mesh, 2)));
}

}  // namespace
}  // namespace tessera
