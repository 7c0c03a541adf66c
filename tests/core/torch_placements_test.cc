// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// PyTorch DTensor placements (core/formats/torch_placements.h).
#include "core/formats/torch_placements.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::HasSubstr;
using testing::CpuMesh;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

std::string Placements(const TensorLayout& layout) {
  return Unwrap(LayoutToTorchPlacementsText(layout));
}
std::string Canonical(const std::string& text) {
  return TorchPlacementsText(Unwrap(ParseTorchPlacements(text)));
}

// --- From a layout -----------------------------------------------------------

TEST(TorchPlacements, OnePerMeshDimUnusedAxesReplicate) {
  EXPECT_EQ(Placements(Layout({"", "y"}, CpuMesh({2, 4}, {"x", "y"}))),
            "[Replicate(), Shard(dim=1)]");
}

TEST(TorchPlacements, GroupInMeshOrderIsShardTwice) {
  EXPECT_EQ(Placements(Layout({"x+y"}, CpuMesh({2, 4}, {"x", "y"}))),
            "[Shard(dim=0), Shard(dim=0)]");
}

TEST(TorchPlacements, GroupAgainstMeshOrderIsStrided) {
  EXPECT_EQ(Placements(Layout({"y+x"}, CpuMesh({2, 4}, {"x", "y"}))),
            "[_StridedShard(dim=0, sf=4), Shard(dim=0)]");
}

TEST(TorchPlacements, SplitFactorCountsOnlyLaterMeshAxesBefore) {
  // (c, a, b): a has c before it (sf 2); b has c before it (sf 2); c none.
  EXPECT_EQ(Placements(Layout({"c+a+b"}, CpuMesh({2, 2, 2}, {"a", "b", "c"}))),
            "[_StridedShard(dim=0, sf=2), _StridedShard(dim=0, sf=2), "
            "Shard(dim=0)]");
}

TEST(TorchPlacements, LayoutWithoutMeshIsAnError) {
  EXPECT_THAT(LayoutToTorchPlacementsText(Layout({"x"})),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("has no mesh")));
}

// --- Parsing -------------------------------------------------------------------

TEST(ParseTorchPlacements, AcceptsEverySpelling) {
  EXPECT_EQ(Canonical("[Shard(0), Shard(dim=1), S(2), Replicate(), R]"),
            "[Shard(dim=0), Shard(dim=1), Shard(dim=2), Replicate(), Replicate()]");
  EXPECT_EQ(Canonical("(_StridedShard(0, split_factor=2), _StridedShard(dim=1, sf=4), _S(2, 8),)"),
            "[_StridedShard(dim=0, sf=2), _StridedShard(dim=1, sf=4), _StridedShard(dim=2, sf=8)]");
  EXPECT_EQ(Canonical("[]"), "[]");
}

TEST(ParseTorchPlacements, NegativeDimsAreKept) { EXPECT_EQ(Canonical("[Shard(-1)]"), "[Shard(dim=-1)]"); }

struct ErrorCase {
  const char* text;
  const char* message;
};
class TorchPlacementsError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(TorchPlacementsError, NamesThePositionAndToken) {
  EXPECT_THAT(ParseTorchPlacements(GetParam().text),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(GetParam().message)));
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, TorchPlacementsError,
    ::testing::Values(
        ErrorCase{"", "PyTorch placements text: at position 0: expected '[' or '(', got the end "
                      "of the text"},
        ErrorCase{"[Shard(0)", "at position 9: expected ']', got the end of the text"},
        ErrorCase{"[Shard(0))", "at position 9: expected ']', got ')'"},
        ErrorCase{"[Shard(x)]", "at position 7: expected an integer, got 'x'"},
        ErrorCase{"[Shard(dim 0)]", "at position 11: expected '=', got '0'"},
        ErrorCase{"[Replicate]", "at position 10: expected '(', got ']'"},
        ErrorCase{"[Partial()]", "at position 1: 'Partial' placements (pending reductions) have "
                                 "no layout equivalent"},
        ErrorCase{"[Split(0)]", "at position 1: 'Split' is not a placement"},
        ErrorCase{"[1]", "at position 1: expected a placement (Shard, Replicate or "
                         "_StridedShard), got '1'"},
        ErrorCase{"[_StridedShard(0)]", "at position 16: expected ',', got ')'"},
        ErrorCase{"[_StridedShard(0, split_factor=0)]",
                  "at position 31: '0' is not a split factor"},
        ErrorCase{"[R] R", "at position 4: expected the end of the text, got 'R'"}));

// --- Onto a mesh -----------------------------------------------------------------

TEST(LayoutFromTorchPlacements, ShardAndReplicate) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromTorchPlacementsText("[Replicate(), Shard(1)]", mesh, 2)),
            Layout({"", "y"}, mesh));
}

TEST(LayoutFromTorchPlacements, StridedShardRecoversTheGroupOrder) {
  MeshPtr mesh = CpuMesh({2, 2, 2}, {"a", "b", "c"});
  for (const auto& spec : std::vector<std::vector<std::string>>{
           {"c+b+a"}, {"c+a+b"}, {"b+c+a"}, {"a+c+b"}, {"b+a+c"}, {"a+b+c"}, {"c+a", "b"}}) {
    TensorLayout layout = Layout(spec, mesh);
    EXPECT_EQ(Unwrap(LayoutFromTorchPlacementsText(Placements(layout), mesh, spec.size())), layout);
  }
}

TEST(LayoutFromTorchPlacements, NegativeDimCountsFromTheEnd) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromTorchPlacementsText("[Shard(-1), R]", mesh, 2)),
            Layout({"", "x"}, mesh));
}

TEST(LayoutFromTorchPlacements, StridedShardOfOneIsShard) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromTorchPlacementsText("[_S(0, 1), R]", mesh, 1)), Layout({"x"}, mesh));
}

TEST(LayoutFromTorchPlacements, OnePlacementPerMeshDim) {
  EXPECT_THAT(LayoutFromTorchPlacementsText("[Shard(0)]", CpuMesh({2, 4}, {"x", "y"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("`placements` must have the same length as `device_mesh.ndim`! "
                                 "Found placements length: 1, and device_mesh.ndim: 2.")));
}

TEST(LayoutFromTorchPlacements, DimOutsideTheRankIsAnError) {
  EXPECT_THAT(LayoutFromTorchPlacementsText("[Shard(2), R]", CpuMesh({2, 4}, {"x", "y"}), 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("shard dim 2 of a tensor of rank 2; expected -2 to 1")));
}

TEST(LayoutFromTorchPlacements, SplitFactorNoOrderProducesIsAnError) {
  EXPECT_THAT(LayoutFromTorchPlacementsText("[_S(0, 3), Shard(0)]", CpuMesh({2, 4}, {"x", "y"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("give mesh dim 0 a split factor of 3 that no order of the dim's "
                                 "mesh axes produces")));
}

TEST(LayoutFromTorchPlacements, StridedShardWithNothingAfterItIsAnError) {
  EXPECT_THAT(LayoutFromTorchPlacementsText("[Shard(0), _S(0, 2)]", CpuMesh({2, 4}, {"x", "y"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("split factor of 2")));
}

TEST(LayoutFromTorchPlacements, NullMeshIsAnError) {
  EXPECT_THAT(LayoutFromTorchPlacementsText("[]", nullptr, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'mesh' is NULL")));
}

}  // namespace
}  // namespace tessera
