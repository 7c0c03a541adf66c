// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// XLA HloSharding text and OpSharding bytes for layouts, and back
// (core/formats/hlo_sharding.h). The S vectors are in
// tests/conformance/sharding_interop_test.cc; these pin each rule.
#include "core/formats/hlo_sharding.h"

#include <string>
#include <vector>

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

std::string V2(const TensorLayout& layout, size_t rank) {
  return Unwrap(LayoutToHloShardingText(layout, rank, /*v2=*/true));
}
std::string V1(const TensorLayout& layout, size_t rank) {
  return Unwrap(LayoutToHloShardingText(layout, rank, /*v2=*/false));
}
// The printed form of a parsed text (XLA's parse-then-print).
std::string Reprint(const std::string& text) {
  return HloShardingToString(Unwrap(ParseHloSharding(text)));
}
std::string Hex(const std::string& bytes) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}
std::string Unhex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

// --- Export: JAX's construction and XLA's normalisations ---------------------

TEST(HloShardingExport, NothingSplitIsReplicated) {
  EXPECT_EQ(V2(Layout({"", ""}, CpuMesh({2, 4}, {"x", "y"})), 2), "{replicated}");
}

TEST(HloShardingExport, EveryAxisUsedIsAPlainIota) {
  EXPECT_EQ(V2(Layout({"x", "y"}, CpuMesh({2, 4}, {"x", "y"})), 2), "{devices=[2,4]<=[8]}");
}

TEST(HloShardingExport, AxesAgainstMeshOrderTranspose) {
  EXPECT_EQ(V2(Layout({"y", "x"}, CpuMesh({2, 4}, {"x", "y"})), 2),
            "{devices=[4,2]<=[2,4]T(1,0)}");
}

TEST(HloShardingExport, UnusedAxesFormTheLastTileDimReplicateGroup) {
  EXPECT_EQ(V2(Layout({"", "y"}, CpuMesh({2, 4}, {"x", "y"})), 2),
            "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}");
}

TEST(HloShardingExport, SplitReplicationGroupIsRegroupedAsXlaDoes) {
  // GroupMinorIotaDimsSorted keeps T(1,0,2): the group {a, c} ascends.
  EXPECT_EQ(V2(Layout({"b"}, CpuMesh({2, 2, 2}, {"a", "b", "c"})), 1),
            "{devices=[2,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}");
}

TEST(HloShardingExport, JaxSourceCommentExample) {
  // named_sharding.py: mesh a,b,c,d = 2,2,2,2 and P(None, ('d','b'), 'c').
  EXPECT_EQ(V2(Layout({"", "d+b", "c"}, CpuMesh({2, 2, 2, 2}, {"a", "b", "c", "d"})), 4),
            "{devices=[1,4,2,1,2]<=[2,4,2]T(2,1,0) last_tile_dim_replicate}");
}

TEST(HloShardingExport, IotaRunsAreMerged) {
  // perm (2,0,1) over [2,2,2] canonicalises to [4,2]T(1,0).
  EXPECT_EQ(V2(Layout({"c+a", "b"}, CpuMesh({2, 2, 2}, {"a", "b", "c"})), 2),
            "{devices=[4,2]<=[4,2]T(1,0)}");
}

TEST(HloShardingExport, SizeOneMeshAxesAreDropped) {
  EXPECT_EQ(V2(Layout({"x", "y"}, CpuMesh({2, 1}, {"x", "y"})), 2), "{devices=[2,1]<=[2]}");
}

TEST(HloShardingExport, AxesOfSizeOneOnlyAreReplicated) {
  EXPECT_EQ(V2(Layout({"y"}, CpuMesh({2, 1}, {"x", "y"})), 1), "{replicated}");
}

TEST(HloShardingExport, ShortLayoutIsPaddedToTheRank) {
  EXPECT_EQ(V2(Layout({"x"}, CpuMesh({2, 4}, {"x", "y"})), 3),
            "{devices=[2,1,1,4]<=[8] last_tile_dim_replicate}");
}

TEST(HloShardingExport, RankBelowTheLayoutIsAnError) {
  EXPECT_THAT(LayoutToHloShardingText(Layout({"x", ""}, CpuMesh({2, 4}, {"x", "y"})), 1, true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("only valid for tensors of rank at least 2")));
}

TEST(HloShardingExport, LayoutWithoutMeshIsAnError) {
  EXPECT_THAT(LayoutToHloShardingText(Layout({"x"}), 1, true),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("has no mesh")));
}

TEST(HloShardingExport, V1WritesTheLogicalIndices) {
  EXPECT_EQ(V1(Layout({"y", "x"}, CpuMesh({2, 4}, {"x", "y"})), 2),
            "{devices=[4,2]0,4,1,5,2,6,3,7}");
}

TEST(HloShardingExport, V1ReplicationGroupsAscend) {
  EXPECT_EQ(V1(Layout({"b"}, CpuMesh({2, 2, 2}, {"a", "b", "c"})), 1),
            "{devices=[2,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}");
}

TEST(HloShardingExport, ReplicatedV1IsReplicated) {
  EXPECT_EQ(V1(Layout({""}, CpuMesh({2, 4}, {"x", "y"})), 1), "{replicated}");
}

TEST(HloShardingExport, DeviceOrderIsTheMeshDeviceIdsRowMajor) {
  std::vector<Device> devices;
  for (int64_t id : {0, 1, 2, 3, 6, 7, 4, 5}) devices.push_back(testing::Cpu(id));
  MeshPtr mesh = Unwrap(DeviceMesh::Create({8}, {"x"}, devices));
  EXPECT_EQ(V2(Layout({"x"}, mesh), 1), "{devices=[8]<=[8]}");
  EXPECT_THAT(DeviceOrder(*mesh), ::testing::ElementsAre(0, 1, 2, 3, 6, 7, 4, 5));
}

// --- Text parsing -------------------------------------------------------------

TEST(HloShardingParse, XlaTestStringsPrintBackUnchanged) {
  for (const char* text : {"{replicated}", "{maximal device=7}", "{devices=[3,4]<=[2,2,3]T(2,1,0)}",
                           "{devices=[2,1,2]2,3,5,7}",
                           "{devices=[4,1,2]0,1,2,3,4,5,6,7 last_tile_dim_replicate}",
                           "{devices=[2,2]<=[4] last_tile_dim_replicate}"}) {
    EXPECT_EQ(Reprint(text), text);
  }
}

TEST(HloShardingParse, IotaIsCanonicalisedAsXlaDoes) {
  EXPECT_EQ(Reprint("{devices=[8]<=[2,4]}"), "{devices=[8]<=[8]}");
  EXPECT_EQ(Reprint("{devices=[4,2]<=[2,2,2]T(2,0,1)}"), "{devices=[4,2]<=[4,2]T(1,0)}");
  EXPECT_EQ(Reprint("{devices=[2,4]<=[2,1,4]T(0,1,2)}"), "{devices=[2,4]<=[8]}");
}

TEST(HloShardingParse, SpacesBetweenTokensAreAllowed) {
  EXPECT_EQ(Reprint(" { devices = [2, 4] <= [8] } "), "{devices=[2,4]<=[8]}");
}

// Each expected string is what jax 0.10.2's xla_client.HloSharding.from_string
// prints for the same text.
TEST(HloShardingParse, ManualUnknownAndUnreducedPrintBack) {
  for (const char* text : {"{manual}", "{unknown}", "{unreduced}", "{maximal device=7}"}) {
    EXPECT_EQ(Reprint(text), text);
  }
}

TEST(HloShardingParse, TileAssignmentsNoLayoutProducesPrintBack) {
  EXPECT_EQ(Reprint("{devices=[2,1,2]2,3,5,7}"), "{devices=[2,1,2]2,3,5,7}");
  EXPECT_EQ(Reprint("{devices=[6]<=[2,3]T(1,0)}"), "{devices=[6]<=[2,3]T(1,0)}");
}

TEST(HloShardingParse, ManualSubgroupsPrintBack) {
  EXPECT_EQ(Reprint("{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}"),
            "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}");
  EXPECT_EQ(Reprint("{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}"),
            "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}");
}

TEST(HloShardingParse, SubgroupTypesAreReorderedReplicatedLast) {
  EXPECT_EQ(Reprint("{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}"),
            "{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}");
  EXPECT_EQ(Reprint("{devices=[2,2,2]<=[8] last_tile_dims={unreduced, manual}}"),
            "{devices=[2,2,2]<=[2,2,2]T(0,2,1) last_tile_dims={manual, unreduced}}");
}

TEST(HloShardingParse, SubgroupsOfOneAreDroppedAndEqualTypesMerged) {
  EXPECT_EQ(Reprint("{devices=[2,1,1,2]<=[4] last_tile_dims={manual, replicated}}"),
            "{devices=[2,1,2]<=[4] last_tile_dim_replicate}");
  EXPECT_EQ(Reprint("{devices=[2,2,1]<=[4] last_tile_dims={manual}}"), "{devices=[2,2]<=[4]}");
  EXPECT_EQ(Reprint("{devices=[2,2,2]<=[8] last_tile_dims={manual, manual}}"),
            "{devices=[2,4]<=[8] last_tile_dims={manual}}");
}

TEST(HloShardingParse, OneSubgroupTypeWithoutDataSplitIsThatSharding) {
  EXPECT_EQ(Reprint("{devices=[1,2]<=[2] last_tile_dims={manual}}"), "{manual}");
  EXPECT_EQ(Reprint("{devices=[1,4]<=[4] last_tile_dims={replicated}}"), "{replicated}");
}

TEST(HloShardingParse, SubgroupIotaXlaCannotTransposeBecomesV1) {
  EXPECT_EQ(Reprint("{devices=[2,3,2]<=[3,4]T(1,0) last_tile_dims={replicated, manual}}"),
            "{devices=[2,2,3]0,5,8,1,4,9,2,7,10,3,6,11 last_tile_dims={manual, replicated}}");
}

TEST(HloShardingParse, V1ReplicationGroupsAreSorted) {
  EXPECT_EQ(Reprint("{devices=[2,4]3,2,1,0,7,6,5,4 last_tile_dim_replicate}"),
            "{devices=[2,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}");
  EXPECT_EQ(Reprint("{devices=[2,2,2]3,2,1,0,7,6,5,4 last_tile_dims={replicated, manual}}"),
            "{devices=[2,2,2]1,3,0,2,5,7,4,6 last_tile_dims={manual, replicated}}");
}

TEST(HloShardingParse, ReplicationGroupOfEveryDeviceIsReplicated) {
  EXPECT_EQ(Reprint("{devices=[1,4]<=[4] last_tile_dim_replicate}"), "{replicated}");
  EXPECT_EQ(Reprint("{devices=[4,1]<=[4] last_tile_dim_replicate}"), "{devices=[4]<=[4]}");
}

TEST(HloShardingExport, ManualAxesFormAManualSubgroup) {
  MeshPtr mesh = CpuMesh({2, 2, 2}, {"a", "b", "c"});
  EXPECT_EQ(HloShardingToString(Unwrap(HloShardingFromLayout(Layout({"a"}, mesh), 2, {"b"}))),
            "{devices=[2,1,2,2]<=[8] last_tile_dims={manual, replicated}}");
}

TEST(HloShardingExport, OnlyManualAxesLeftIsManual) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(HloShardingToString(Unwrap(HloShardingFromLayout(Layout({""}, mesh), 1, {"x", "y"}))), "{manual}");
}

TEST(HloShardingExport, ManualAndReplicatedAxesWithoutSplit) {  // reference/sharding.md §3.1
  MeshPtr mesh = CpuMesh({2, 2}, {"x", "y"});
  EXPECT_EQ(HloShardingToString(Unwrap(HloShardingFromLayout(Layout({""}, mesh), 2, {"x"}))),
            "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}");
}

TEST(HloShardingExport, AManualAxisMayNotShardADimension) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_THAT(HloShardingFromLayout(Layout({"x"}, mesh), 1, {"x"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Argument 'manual_axes' names 'x', which layout ('x',) shards dimension 0 over")));
}

TEST(HloShardingToLayout, ManualHasNoLayout) {
  EXPECT_THAT(LayoutFromHloShardingText("{manual}", CpuMesh({2}, {"x"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("HloSharding {manual}: 'manual' sharding has no layout equivalent")));
}

TEST(HloShardingToLayout, ManualSubgroupsHaveNoLayout) {
  EXPECT_THAT(LayoutFromHloShardingText("{devices=[2,2]<=[4] last_tile_dims={manual}}", CpuMesh({4}, {"x"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'manual' subgroups have no layout")));
}

TEST(HloShardingParse, LastTileDimsReplicatedMeansLastTileDimReplicate) {
  EXPECT_EQ(Reprint("{devices=[2,2]<=[4] last_tile_dims={replicated}}"),
            "{devices=[2,2]<=[4] last_tile_dim_replicate}");
}

struct ParseErrorCase {
  const char* text;
  const char* message;
};

class HloShardingParseError : public ::testing::TestWithParam<ParseErrorCase> {};

TEST_P(HloShardingParseError, NamesThePositionAndToken) {
  EXPECT_THAT(ParseHloSharding(GetParam().text),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(GetParam().message)));
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, HloShardingParseError,
    ::testing::Values(
        ParseErrorCase{"", "at position 0: expected '{', got the end of the text"},
        ParseErrorCase{"replicated", "at position 0: expected '{', got 'replicated'"},
        ParseErrorCase{"{}", "at position 1: expected 'replicated', 'maximal' or 'devices', got '}'"},
        ParseErrorCase{"{tiled}", "at position 1: 'tiled' is not a sharding"},
        ParseErrorCase{"{mesh[a=2], [{a}]}", "at position 1: 'mesh' (V3 named) sharding is not read"},
        ParseErrorCase{"{{replicated}}", "at position 1: '{' starts a tuple sharding"},
        ParseErrorCase{"{replicated", "at position 11: expected '}', got the end of the text"},
        ParseErrorCase{"{replicated} x", "at position 13: expected the end of the text, got 'x'"},
        ParseErrorCase{"{maximal dev=1}", "at position 9: expected 'device', got 'dev'"},
        ParseErrorCase{"{maximal device=-1}", "at position 16: expected an integer, got '-'"},
        ParseErrorCase{"{devices[2]0,1}", "at position 8: expected '=', got '['"},
        ParseErrorCase{"{devices=[2,x]0,1}", "at position 12: expected an integer, got 'x'"},
        ParseErrorCase{"{devices=[2}", "at position 11: expected ']', got '}'"},
        ParseErrorCase{"{devices=[4]<=[2,2]T(0,1}", "at position 24: expected ')', got '}'"},
        // XLA's parser reads no transpose after a one-dim reshape.
        ParseErrorCase{"{devices=[2]<=[2]T(0)}", "at position 17: 'T' is unexpected: a one-dim iota has no transpose"},
        ParseErrorCase{"{devices=[2]0,}", "at position 14: expected an integer, got '}'"},
        ParseErrorCase{"{devices=[2]0,1 last}", "at position 16: expected '}', got 'last'"},
        ParseErrorCase{"{devices=[2,2]<=[4] last_tile_dims={tuple}}",
                       "at position 36: 'tuple' is not a subgroup type"},
        ParseErrorCase{"{devices=[2,2]<=[4] last_tile_dim_replicate last_tile_dims={manual}}",
                       "at position 44: 'last_tile_dims' conflicts: last_tile_dim_replicate and last_tile_dims"},
        ParseErrorCase{"{devices=[1,1]0}", "non-maximal shardings must have more than one device assigned"},
        ParseErrorCase{"{devices=[99999999999999999999]<=[1]}",
                       "at position 10: expected an integer that fits in int64, got "
                       "'99999999999999999999'"}));

INSTANTIATE_TEST_SUITE_P(
    Validation, HloShardingParseError,
    ::testing::Values(
        ParseErrorCase{"{devices=[2,0]<=[1]}", "have a dim of 0; expected every dim >= 1"},
        ParseErrorCase{"{devices=[2,4]<=[2,2]}", "hold 4 devices; expected the tile dims' 8"},
        ParseErrorCase{"{devices=[4]<=[2,2]T(0,0)}", "(0,0) is not a permutation of 0..1"},
        ParseErrorCase{"{devices=[4]0,1,2}", "lists 3 devices; tile dims (4,) need 4"},
        ParseErrorCase{"{devices=[2]1,1}", "device 1 is not unique"},
        ParseErrorCase{"{devices=[3037000500,3037000500]<=[1]}", "overflows int64"}));

// --- Back to a layout -----------------------------------------------------------

TEST(HloShardingToLayout, IotaRoundTrips) {
  MeshPtr mesh = CpuMesh({2, 2, 2}, {"a", "b", "c"});
  TensorLayout layout = Layout({"c+a", "", "b"}, mesh);
  EXPECT_EQ(Unwrap(LayoutFromHloShardingText(V2(layout, 3), mesh, 3)), layout);
}

TEST(HloShardingToLayout, V1RoundTrips) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  TensorLayout layout = Layout({"", "y"}, mesh);
  EXPECT_EQ(Unwrap(LayoutFromHloShardingText(V1(layout, 2), mesh, 2)), layout);
}

TEST(HloShardingToLayout, ReplicationGroupsCompareAsSets) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromHloShardingText(
                "{devices=[2,1,4]3,2,1,0,7,6,5,4 last_tile_dim_replicate}", mesh, 2)),
            Layout({"x", ""}, mesh));
}

TEST(HloShardingToLayout, ReplicationGroupOfOneIsNoGroup) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromHloShardingText("{devices=[2,4,1]<=[8] last_tile_dim_replicate}",
                                             mesh, 2)),
            Layout({"x", "y"}, mesh));
}

TEST(HloShardingToLayout, ReplicatedTakesTheRequestedRank) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromHloShardingText("{replicated}", mesh, 3)), Layout({"", "", ""}, mesh));
}

TEST(HloShardingToLayout, SizeOneAxesDoNotComeBack) {
  MeshPtr mesh = CpuMesh({2, 1}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromHloShardingText("{devices=[2,1]<=[2]}", mesh, 2)),
            Layout({"x", ""}, mesh));
}

TEST(HloShardingToLayout, MaximalDeviceZeroOnAOneDeviceMeshIsReplicated) {
  MeshPtr mesh = CpuMesh({1}, {"x"});
  EXPECT_EQ(Unwrap(LayoutFromHloShardingText("{maximal device=0}", mesh, 1)), Layout({""}, mesh));
}

TEST(HloShardingToLayout, MaximalOnALargerMeshIsAnError) {
  EXPECT_THAT(LayoutFromHloShardingText("{maximal device=3}", CpuMesh({2, 4}, {"x", "y"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("{maximal device=3} is not produced by any layout")));
}

TEST(HloShardingToLayout, DeviceCountMustMatchTheMesh) {
  EXPECT_THAT(LayoutFromHloShardingText("{devices=[4]<=[4]}", CpuMesh({2, 4}, {"x", "y"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("it covers 4 devices; the mesh has 8")));
}

TEST(HloShardingToLayout, IndicesBeyondTheMeshAreAnError) {
  EXPECT_THAT(LayoutFromHloShardingText("{devices=[2,1,2]2,3,5,7}", CpuMesh({4}, {"x"}), 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("it uses logical index 5; the mesh has 4 devices")));
}

TEST(HloShardingToLayout, DataRankMustMatch) {
  EXPECT_THAT(LayoutFromHloShardingText("{devices=[2,4]<=[8]}", CpuMesh({2, 4}, {"x", "y"}), 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("has 2 data dims; expected the tensor rank 3")));
}

TEST(HloShardingToLayout, AnAssignmentNoLayoutProducesIsNamed) {
  EXPECT_THAT(LayoutFromHloShardingText("{devices=[2,4]0,2,1,3,4,5,6,7}",
                                        CpuMesh({2, 4}, {"x", "y"}), 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("HloSharding {devices=[2,4]0,2,1,3,4,5,6,7} is not produced by "
                                 "any layout on <DeviceMesh shape=(2, 4)")));
}

TEST(HloShardingToLayout, StepsThatMoveTwoAxesAreNotALayout) {
  EXPECT_THAT(LayoutFromHloShardingText("{devices=[2,4]0,1,2,3,5,4,7,6}",
                                        CpuMesh({2, 4}, {"x", "y"}), 2),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is not produced")));
}

TEST(HloShardingToLayout, NullMeshIsAnError) {
  EXPECT_THAT(LayoutFromHloShardingText("{replicated}", nullptr, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'mesh' is NULL")));
}

// --- OpSharding bytes --------------------------------------------------------------

TEST(OpSharding, IotaBytesMatchJax) {
  // jax 0.10.2: NamedSharding(mesh (2,2,2) a,b,c, P('b'))._to_xla_hlo_sharding(1)
  //   .to_proto().SerializeToString().
  EXPECT_EQ(Hex(Unwrap(LayoutToOpSharding(Layout({"b"}, CpuMesh({2, 2, 2}, {"a", "b", "c"})), 1,
                                          /*v2=*/true))),
            "08031a02020430014a030202025203010002");
}

TEST(OpSharding, V1BytesListTheDevices) {
  // type=OTHER, dims [2], devices [0,1].
  EXPECT_EQ(Hex(Unwrap(LayoutToOpSharding(Layout({"x"}, CpuMesh({2}, {"x"})), 1, false))),
            "08031a0102220200" "01");
}

TEST(OpSharding, ReplicatedIsTheEmptyMessage) {
  EXPECT_EQ(Unwrap(LayoutToOpSharding(Layout({""}, CpuMesh({2}, {"x"})), 1, true)), "");
}

TEST(OpSharding, BytesRoundTripToTheLayout) {
  MeshPtr mesh = CpuMesh({2, 2, 2}, {"a", "b", "c"});
  TensorLayout layout = Layout({"b", "c+a"}, mesh);
  for (bool v2 : {true, false}) {
    EXPECT_EQ(Unwrap(LayoutFromOpSharding(Unwrap(LayoutToOpSharding(layout, 2, v2)), mesh, 2)),
              layout);
  }
}

TEST(OpSharding, MaximalRoundTrips) {
  HloSharding maximal;
  maximal.kind = HloSharding::Kind::kMaximal;
  maximal.maximal_device = 3;
  EXPECT_EQ(Unwrap(ParseOpSharding(HloShardingToOpSharding(maximal))), maximal);
}

TEST(OpSharding, OneDeviceTilingIsReplicated) {
  // type=OTHER, dims [1], devices [0].
  EXPECT_EQ(HloShardingToString(Unwrap(ParseOpSharding(Unhex("08031a0101220100")))),
            "{replicated}");
}

class OpShardingError : public ::testing::TestWithParam<ParseErrorCase> {};

TEST_P(OpShardingError, IsInvalidArgument) {
  EXPECT_THAT(ParseOpSharding(Unhex(GetParam().text)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(GetParam().message)));
}

INSTANTIATE_TEST_SUITE_P(
    Bytes, OpShardingError,
    ::testing::Values(
        ParseErrorCase{"ff", "the 1 bytes are not a valid OpSharding message"},
        ParseErrorCase{"08031a0502", "the 5 bytes are not a valid OpSharding message"},
        ParseErrorCase{"720100", "field 14 is not supported"},
        ParseErrorCase{"0863", "type 99 is not an OpSharding.Type"},
        ParseErrorCase{"0804", "type MANUAL has no layout equivalent"},
        ParseErrorCase{"0802", "type TUPLE has no layout equivalent"},
        ParseErrorCase{"1a0102", "type REPLICATED with tile fields set"},
        ParseErrorCase{"0801", "type MAXIMAL needs exactly one tile_assignment_devices entry"},
        ParseErrorCase{"08011a01012201033001", "type MAXIMAL needs exactly one"},
        ParseErrorCase{"0803", "type OTHER needs tile_assignment_devices or iota_reshape_dims"},
        ParseErrorCase{"08031a010222020001" "4a0102" "520100",
                       "both tile_assignment_devices and iota fields are set"},
        ParseErrorCase{"08031a01024a0102", "iota_reshape_dims has 1 entries and iota_transpose_perm 0"},
        ParseErrorCase{"08031a0202024a0104520100" "3001" "420100",
                       "replicate_on_last_tile_dim and last_tile_dims are both set"},
        ParseErrorCase{"08031a0202024a0104520100" "420104", "last_tile_dims type 4 has no layout"},
        ParseErrorCase{"08031a0202024a0104520100" "42020000", "last_tile_dims has 2 subgroups"},
        ParseErrorCase{"08031a0102220201" "01", "device 1 is not unique"},
        ParseErrorCase{"08031a0102220100", "lists 1 devices"},
        ParseErrorCase{"08031a0100220100", "have a dim of 0"}));

}  // namespace
}  // namespace tessera
