// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shardy text (core/formats/shardy.h). The printed forms follow Shardy's
// printers (printers.cc, attrs.td assembly formats); the examples in
// attrs.td's MeshAttr description are quoted verbatim below.
#include "core/formats/shardy.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Cpu;
using testing::CpuMesh;
using testing::Cpus;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

constexpr char kMesh2x4[] = R"(sdy.mesh @mesh = <["x"=2, "y"=4]>)";

MeshPtr MeshOver(std::vector<int64_t> shape, std::vector<std::string> names, std::vector<int64_t> ids) {
  std::vector<Device> devices;
  for (const int64_t id : ids) devices.push_back(Cpu(id));
  return Unwrap(DeviceMesh::Create(std::move(shape), std::move(names), std::move(devices)));
}

absl::StatusOr<std::vector<AxisGroup>> AxesOf(const std::string& sharding,
                                              const std::string& mesh = kMesh2x4) {
  absl::StatusOr<TensorLayout> layout = LayoutFromShardyText(sharding, mesh, Cpus(8));
  if (!layout.ok()) return layout.status();
  return layout->axes();
}

// --- Printing a sharding -------------------------------------------------------

TEST(ShardyShardingText, OneAxisPerDimAndAnEmptyDim) {
  EXPECT_EQ(Unwrap(ShardyShardingText(Layout({"x", ""}))), R"(#sdy.sharding<@mesh, [{"x"}, {}]>)");
}

TEST(ShardyShardingText, AxisGroupMajorFirst) {
  EXPECT_EQ(Unwrap(ShardyShardingText(Layout({"y+x", ""}))), R"(#sdy.sharding<@mesh, [{"y", "x"}, {}]>)");
}

TEST(ShardyShardingText, ScalarHasNoDims) {
  EXPECT_EQ(Unwrap(ShardyShardingText(Layout({}))), "#sdy.sharding<@mesh, []>");
}

TEST(ShardyShardingText, NamesTheGivenMesh) {
  EXPECT_EQ(Unwrap(ShardyShardingText(Layout({"x"}), "m1")), R"(#sdy.sharding<@m1, [{"x"}]>)");
}

TEST(ShardyShardingText, QuotesAMeshNameThatIsNotABareIdentifier) {
  EXPECT_EQ(Unwrap(ShardyShardingText(Layout({"x"}), "my mesh")), R"(#sdy.sharding<@"my mesh", [{"x"}]>)");
}

TEST(ShardyShardingText, KeepsDollarAndDotInABareMeshName) {
  EXPECT_EQ(Unwrap(ShardyShardingText(Layout({"x"}), "_m.1$a")), R"(#sdy.sharding<@_m.1$a, [{"x"}]>)");
}

TEST(ShardyShardingText, EscapesAxisNamesAsMlirPrintsStrings) {
  EXPECT_EQ(Unwrap(ShardyShardingText(Layout({"a\"b\\c\n"}))), R"(#sdy.sharding<@mesh, [{"a\22b\\c\0A"}]>)");
}

TEST(ShardyShardingText, RefusesAnEmptyMeshName) {
  EXPECT_THAT(ShardyShardingText(Layout({"x"}), ""),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Argument 'mesh_name' is \"\": expected a non-empty name for the Shardy mesh"));
}

// --- Printing a mesh -------------------------------------------------------------

TEST(ShardyMeshText, AxesInOrderWithSizes) {
  EXPECT_EQ(Unwrap(ShardyMeshText(*CpuMesh({2, 4}, {"x", "y"}))), kMesh2x4);
}

TEST(ShardyMeshText, DeviceIdsWhenTheOrderIsNotIota) {
  EXPECT_EQ(Unwrap(ShardyMeshText(*MeshOver({3, 2}, {"a", "b"}, {0, 2, 4, 1, 3, 5}))),
            R"(sdy.mesh @mesh = <["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>)");
}

TEST(ShardyMeshText, DeviceIdsAreRanksAmongTheMeshsIds) {
  EXPECT_EQ(Unwrap(ShardyMeshText(*MeshOver({2, 2}, {"x", "y"}, {7, 5, 6, 4}))),
            R"(sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 1, 2, 0]>)");
}

TEST(ShardyMeshText, NoDeviceIdsForIncreasingIdsThatAreNotIota) {
  EXPECT_EQ(Unwrap(ShardyMeshText(*MeshOver({1}, {"x"}, {5}))), R"(sdy.mesh @mesh = <["x"=1]>)");
}

TEST(ShardyMeshText, NamesTheGivenMesh) {
  EXPECT_EQ(Unwrap(ShardyMeshText(*CpuMesh({2}, {"x"}), "m")), R"(sdy.mesh @m = <["x"=2]>)");
}

TEST(ShardyMeshText, RefusesAnEmptyMeshName) {
  EXPECT_THAT(ShardyMeshText(*CpuMesh({2}, {"x"}), ""),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'mesh_name'")));
}

// --- Parsing a mesh ----------------------------------------------------------------

TEST(ParseShardyMesh, ReadsNameAxesAndSize) {
  const ShardyMeshDescription mesh = Unwrap(ParseShardyMesh(kMesh2x4));
  EXPECT_EQ(mesh.name, "mesh");
  EXPECT_THAT(mesh.shape, ElementsAre(2, 4));
  EXPECT_THAT(mesh.axis_names, ElementsAre("x", "y"));
  EXPECT_THAT(mesh.device_ids, ElementsAre());
  EXPECT_EQ(mesh.size, 8);
}

TEST(ParseShardyMesh, RefusesASizeThatOverflows) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=4294967296, "y"=4294967296]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy mesh text: at position 39: '4294967296' makes the mesh's size overflow int64"));
}

TEST(ParseShardyMesh, ReadsDeviceIds) {
  EXPECT_THAT(Unwrap(ParseShardyMesh(R"(sdy.mesh @mesh = <["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>)"))
                  .device_ids,
              ElementsAre(0, 2, 4, 1, 3, 5));
}

TEST(ParseShardyMesh, AllowsSpacesAnywhereBetweenTokens) {
  EXPECT_THAT(Unwrap(ParseShardyMesh(R"( sdy.mesh  @ m =< [ "x" = 2 ] , device_ids = [ 1 , 0 ] > )")).device_ids,
              ElementsAre(1, 0));
}

TEST(ParseShardyMesh, ReadsAQuotedNameAndEscapes) {
  const ShardyMeshDescription mesh = Unwrap(ParseShardyMesh(R"(sdy.mesh @"my mesh" = <["a\22\\"=2]>)"));
  EXPECT_EQ(mesh.name, "my mesh");
  EXPECT_THAT(mesh.axis_names, ElementsAre("a\"\\"));
}

TEST(ParseShardyMesh, RefusesADuplicateAxisName) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=2, "x"=2]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       R"(Shardy mesh text: at position 26: '"x"' names an axis twice: duplicate axis name: "x")"));
}

TEST(ParseShardyMesh, RefusesAnAxisSizeBelowOne) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=0]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy mesh text: at position 23: '0' is not an axis size: axis size must be at least 1, "
                       "got: 0"));
}

TEST(ParseShardyMesh, RefusesAMeshWithoutAxes) {
  EXPECT_THAT(ParseShardyMesh("sdy.mesh @mesh = <[]>"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy mesh text: at position 17: '<' opens a mesh without axes (an empty or maximal "
                       "Shardy mesh): a Tessera mesh has at least one axis"));
}

TEST(ParseShardyMesh, RefusesAMaximalMesh) {
  EXPECT_THAT(ParseShardyMesh("sdy.mesh @mesh = <[], device_ids=[3]>"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("mesh without axes")));
}

TEST(ParseShardyMesh, RefusesANegativeDeviceId) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=2], device_ids=[1, -1]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy mesh text: at position 27: 'device_ids' holds a negative id: device id must be "
                       "non-negative, got: -1"));
}

TEST(ParseShardyMesh, RefusesDeviceIdsOfTheWrongCount) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=2], device_ids=[1, 0, 2]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("total product of axis sizes must match total number of device ids, got: 2 != "
                                 "3")));
}

TEST(ParseShardyMesh, RefusesDeviceIdsThatAreNotAPermutationOfIota) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=2], device_ids=[2, 0]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("sorted device ids must be iota(product(axes)), got: [0, 2]")));
}

TEST(ParseShardyMesh, RefusesIotaDeviceIdsAsShardyDoes) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=2], device_ids=[0, 1]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("if the ordered device ids are the same as iota(product(axes)), no need to "
                                 "specify them for simplicity")));
}

TEST(ParseShardyMesh, RefusesAnEmptyName) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @"" = <["x"=2]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       R"(Shardy mesh text: at position 10: '""' is an empty mesh name: expected a non-empty name)"));
}

TEST(ParseShardyMesh, NamesThePositionOfASyntaxError) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x":2]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy mesh text: at position 22: expected '=', got ':'"));
}

TEST(ParseShardyMesh, RefusesTrailingText) {
  EXPECT_THAT(ParseShardyMesh(R"(sdy.mesh @mesh = <["x"=2]> x)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy mesh text: at position 27: expected the end of the text, got 'x'"));
}

// --- A mesh from text ------------------------------------------------------------------

TEST(MeshFromShardyText, PlacesTheAssignmentsDevicesByLogicalId) {
  const MeshPtr mesh =
      Unwrap(MeshFromShardyText(R"(sdy.mesh @mesh = <["x"=4], device_ids=[0, 2, 1, 3]>)",
                                {Cpu(10), Cpu(11), Cpu(12), Cpu(13)}));
  std::vector<int64_t> ids;
  for (const Device& device : mesh->devices()) ids.push_back(device.id);
  EXPECT_THAT(ids, ElementsAre(10, 12, 11, 13));
}

TEST(MeshFromShardyText, RoundTripsAMeshOverItsSortedDevices) {
  const MeshPtr mesh = MeshOver({2, 2}, {"x", "y"}, {3, 1, 2, 0});
  EXPECT_EQ(*Unwrap(MeshFromShardyText(Unwrap(ShardyMeshText(*mesh)), Cpus(4))), *mesh);
}

TEST(MeshFromShardyText, RefusesAnAssignmentOfAnotherSize) {
  EXPECT_THAT(MeshFromShardyText(kMesh2x4, Cpus(4)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The Shardy mesh @mesh has 8 devices, but the device assignment has 4"));
}

// --- Parsing a sharding ----------------------------------------------------------------

TEST(LayoutFromShardyText, ReadsDimsAndGroups) {
  EXPECT_THAT(Unwrap(AxesOf(R"(#sdy.sharding<@mesh, [{"y", "x"}, {}]>)")),
              ElementsAre(AxisGroup{"y", "x"}, AxisGroup{}));
}

TEST(LayoutFromShardyText, ReadsAScalar) {
  EXPECT_THAT(Unwrap(AxesOf("#sdy.sharding<@mesh, []>")), ElementsAre());
}

TEST(LayoutFromShardyText, GivesTheLayoutTheMesh) {
  const TensorLayout layout = Unwrap(LayoutFromShardyText(R"(#sdy.sharding<@mesh, [{"x"}]>)", kMesh2x4, Cpus(8)));
  EXPECT_EQ(*layout.mesh(), *CpuMesh({2, 4}, {"x", "y"}));
}

TEST(LayoutFromShardyText, ReadsAnOpenDimAsItsAxes) {
  EXPECT_THAT(Unwrap(AxesOf(R"(#sdy.sharding<@mesh, [{?}, {"y", ?}]>)")),
              ElementsAre(AxisGroup{}, AxisGroup{"y"}));
}

TEST(LayoutFromShardyText, AcceptsTheStrippedForm) {
  EXPECT_THAT(Unwrap(AxesOf(R"(<@mesh, [{"x"}]>)")), ElementsAre(AxisGroup{"x"}));
}

TEST(LayoutFromShardyText, AcceptsAnEqualInlineMesh) {
  EXPECT_THAT(Unwrap(AxesOf(R"(#sdy.sharding<mesh<["x"=2, "y"=4]>, [{"x"}]>)")), ElementsAre(AxisGroup{"x"}));
}

TEST(LayoutFromShardyText, RefusesAnotherInlineMesh) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<mesh<["x"=8]>, [{"x"}]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy sharding text: at position 14: 'mesh' inlines a mesh other than the one given "
                       "(@mesh)"));
}

TEST(LayoutFromShardyText, DropsReplicatedAxes) {
  EXPECT_THAT(Unwrap(AxesOf(R"(#sdy.sharding<@mesh, [{}], replicated={"x", "y"}>)")), ElementsAre(AxisGroup{}));
}

TEST(LayoutFromShardyText, RefusesReplicatedAxesOutOfMeshOrder) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{}], replicated={"y", "x"}>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       R"(Shardy sharding text: at position 44: '"x"' is out of mesh order: replicated axes are not )"
                       "ordered w.r.t. mesh"));
}

TEST(LayoutFromShardyText, RefusesAReplicatedAxisThatShardsADim) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"x"}], replicated={"x"}>)"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(R"(duplicate axis ref: "x")")));
}

TEST(LayoutFromShardyText, RefusesUnreducedAxes) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"x"}], unreduced={"y"}>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy sharding text: at position 30: 'unreduced' lists unreduced axes: Tessera layouts "
                       "have none"));
}

TEST(LayoutFromShardyText, RefusesUnreducedAxesAfterReplicatedOnes) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{}], replicated={"x"}, unreduced={"y"}>)"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at position 45: 'unreduced'")));
}

TEST(LayoutFromShardyText, RefusesASubAxis) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"y":(2)2}]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       R"(Shardy sharding text: at position 26: ':' starts a sub-axis of "y": Tessera layouts )"
                       "have no sub-axes"));
}

TEST(LayoutFromShardyText, RefusesAPriority) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"x"}p1]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy sharding text: at position 27: 'p1' is a priority: Tessera layouts have no "
                       "sharding priorities"));
}

TEST(LayoutFromShardyText, RefusesAnAxisTheMeshLacks) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"z"}]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       R"(Shardy sharding text: at position 23: '"z"' is not an axis of the mesh: unknown axis )"
                       R"(name: "z")"));
}

TEST(LayoutFromShardyText, RefusesAnAxisUsedTwice) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"x"}, {"y", "x"}]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       R"(Shardy sharding text: at position 35: '"x"' is used twice: duplicate axis ref: "x")"));
}

TEST(LayoutFromShardyText, RefusesAnotherMeshName) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@other, [{"x"}]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy sharding text: at position 14: '@other' is not the mesh given (@mesh): unknown "
                       "mesh: @other"));
}

TEST(LayoutFromShardyText, RefusesAQuestionMarkBeforeAnAxis) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{?, "x"}]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy sharding text: at position 24: expected '}', got ','"));
}

TEST(LayoutFromShardyText, RefusesAnUnclosedString) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"x}]>)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shardy sharding text: at position 23: expected a closed string, got '\"'"));
}

TEST(LayoutFromShardyText, ReportsAMeshTextErrorFirst) {
  EXPECT_THAT(AxesOf(R"(#sdy.sharding<@mesh, [{"x"}]>)", "sdy.mesh @mesh = <[]>"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Shardy mesh text: at position 17")));
}

// --- Round trips ----------------------------------------------------------------------

TEST(ShardyRoundTrip, LayoutThroughTextIsTheSameLayout) {
  const MeshPtr mesh = MeshOver({2, 2, 2}, {"a", "b", "c"}, {0, 1, 4, 5, 2, 3, 6, 7});
  const TensorLayout layout = Layout({"c+a", "", "b"}, mesh);
  EXPECT_EQ(Unwrap(LayoutFromShardyText(Unwrap(ShardyShardingText(layout)), Unwrap(ShardyMeshText(*mesh)),
                                        Cpus(8))),
            layout);
}

}  // namespace
}  // namespace tessera
