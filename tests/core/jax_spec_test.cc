// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// JAX PartitionSpec and Mesh text (core/formats/jax_spec.h). The reprs were
// checked against jax 0.10.2: repr(P('x', None)) == "P('x', None)".
#include "core/formats/jax_spec.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::Eq;
using ::testing::HasSubstr;
using testing::CpuMesh;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

std::string Canonical(const std::string& text) {
  return PartitionSpecText(Unwrap(ParsePartitionSpec(text)));
}

// --- Printing ----------------------------------------------------------------

TEST(PartitionSpecText, IsJaxsRepr) {
  EXPECT_EQ(PartitionSpecText(Layout({"x", ""})), "P('x', None)");
  EXPECT_EQ(PartitionSpecText(Layout({"x+y"})), "P(('x', 'y'),)");
  EXPECT_EQ(PartitionSpecText(Layout({"z"})), "P('z',)");
  EXPECT_EQ(PartitionSpecText(Layout({})), "P()");
  EXPECT_EQ(PartitionSpecText(Layout({"", "c+a", "b"})), "P(None, ('c', 'a'), 'b')");
}

TEST(PartitionSpecText, QuotesNamesAsPythonDoes) {
  EXPECT_EQ(PartitionSpecText(Layout({"it's"})), "P(\"it's\",)");
}

// --- Parsing -------------------------------------------------------------------

TEST(ParsePartitionSpec, AcceptsBothSpellings) {
  EXPECT_EQ(Canonical("PartitionSpec('x', None)"), "P('x', None)");
  EXPECT_EQ(Canonical("P('x', None)"), "P('x', None)");
}

TEST(ParsePartitionSpec, FalsyEntriesAreNone) {
  EXPECT_EQ(Canonical("P((), '', [], None, 'x')"), "P(None, None, None, None, 'x')");
}

TEST(ParsePartitionSpec, OneTupleIsItsAxis) { EXPECT_EQ(Canonical("P(('x',))"), "P('x',)"); }

TEST(ParsePartitionSpec, ListIsATuple) { EXPECT_EQ(Canonical("P(['x', 'y'])"), "P(('x', 'y'),)"); }

TEST(ParsePartitionSpec, UnconstrainedIsNoneForALayout) {
  EXPECT_EQ(Canonical("P(UNCONSTRAINED, P.UNCONSTRAINED, PartitionSpec.UNCONSTRAINED, 'y')"),
            "P(None, None, None, 'y')");
}

TEST(ParsePartitionSpec, DoubleQuotesEscapesSpacesAndTrailingCommas) {
  EXPECT_EQ(Canonical(" P ( \"x\" , ( 'a\\'b' , ) , ) "), "P('x', \"a'b\")");
}

struct ErrorCase {
  const char* text;
  const char* message;
};
class PartitionSpecError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(PartitionSpecError, NamesThePositionAndToken) {
  EXPECT_THAT(ParsePartitionSpec(GetParam().text),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(GetParam().message)));
}

INSTANTIATE_TEST_SUITE_P(
    Syntax, PartitionSpecError,
    ::testing::Values(
        ErrorCase{"", "PartitionSpec text: at position 0: expected 'P(' or 'PartitionSpec(', got "
                      "the end of the text"},
        ErrorCase{"Q('x')", "at position 0: expected 'P(' or 'PartitionSpec(', got 'Q'"},
        ErrorCase{"P'x'", "at position 1: expected '(', got '''"},
        ErrorCase{"P(x)", "at position 2: expected an axis name, a tuple of axis names, None or "
                          "UNCONSTRAINED, got 'x'"},
        // jax 0.10.2's whole message: the entry, then its first nested member.
        ErrorCase{"P((('x',),))",
                  "at position 3: A tuple inside PartitionSpec cannot contain a nested tuple. Got "
                  "partition: (('x',),) and the nested tuple: ('x',)"},
        ErrorCase{"P(['x', None, ['y'], ('z',)])",
                  "A tuple inside PartitionSpec cannot contain a nested tuple. Got partition: "
                  "['x', None, ['y'], ('z',)] and the nested tuple: ['y']"},
        ErrorCase{"P(('x', ()))",
                  "Got partition: ('x', ()) and the nested tuple: ()"},
        ErrorCase{"P(('x', None))", "at position 8: 'None' is not an axis name inside a tuple"},
        ErrorCase{"P(('x', ''))", "at position 8: '''' is not an axis name inside a tuple"},
        ErrorCase{"P('x'", "at position 5: expected ')', got the end of the text"},
        ErrorCase{"P('x' 'y')", "at position 6: expected ')', got '''"},
        ErrorCase{"P('x) ", "at position 2: expected a closed string, got '''"},
        ErrorCase{"P('\\q')", "at position 2: expected a string with valid escapes"},
        ErrorCase{"P(('x' 'y'))", "at position 7: expected ')', got '''"},
        ErrorCase{"P('x') extra", "at position 7: expected the end of the text, got 'extra'"},
        ErrorCase{"P('x', unreduced={'y'})", "at position 7: 'unreduced' sets have no layout"}));

// --- Onto a mesh ---------------------------------------------------------------

TEST(LayoutFromPartitionSpec, PadsWithNoneToTheRank) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromPartitionSpec("P('x')", mesh, 3)), Layout({"x", "", ""}, mesh));
}

TEST(LayoutFromPartitionSpec, RoundTripsThroughTheText) {
  MeshPtr mesh = CpuMesh({2, 2, 2}, {"a", "b", "c"});
  TensorLayout layout = Layout({"", "c+a", "b"}, mesh);
  EXPECT_EQ(Unwrap(LayoutFromPartitionSpec(PartitionSpecText(layout), mesh, 3)), layout);
}

TEST(LayoutFromPartitionSpec, WithoutMeshGivesAMeshlessLayout) {
  EXPECT_EQ(Unwrap(LayoutFromPartitionSpec("P('x')", nullptr, 1)), Layout({"x"}));
}

TEST(LayoutFromPartitionSpec, SpecLongerThanTheRankIsAnError) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('x', None)", nullptr, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       EndsWith("P('x', None) is only valid for values of rank at least 2, but "
                                "was applied to a value of rank 1.")));
}

TEST(LayoutFromPartitionSpec, NonEmptySpecOnAScalarAddsJaxsHint) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('x')", nullptr, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       EndsWith("P('x',) is only valid for values of rank at least 1, but was applied to a "
                                "value of rank 0. For scalars the PartitionSpec should be P()")));
}

TEST(LayoutFromPartitionSpec, DuplicateAxisIsJaxsDuplicateSpecError) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('x', 'x')", CpuMesh({2, 4}, {"x", "y"}), 2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("A single NamedSharding spec specification can map every mesh axis to at most one "
                          "positional dimension, but P('x', 'x') has duplicate entries for `x`")));
}

TEST(LayoutFromPartitionSpec, EveryRepeatedAxisIsListedSorted) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('y', ('x', 'y'), 'x')", CpuMesh({2, 4}, {"x", "y"}), 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       EndsWith("but P('y', ('x', 'y'), 'x') has duplicate entries for `x`, `y`")));
}

TEST(LayoutFromPartitionSpec, RepetitionIsReportedBeforeAnUnknownAxis) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('z', 'z')", CpuMesh({2, 4}, {"x", "y"}), 2),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("has duplicate entries for `z`")));
}

TEST(LayoutFromPartitionSpec, NoneInsideATupleIsJaxsResourceAxisError) {
  EXPECT_THAT(LayoutFromPartitionSpec("P(('x', None))", CpuMesh({2, 4}, {"x", "y"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Resource axis: None of P(('x', None),) is not found in mesh: ('x', 'y').")));
}

TEST(LayoutFromPartitionSpec, NoneTwiceInsideTuplesIsADuplicate) {
  EXPECT_THAT(LayoutFromPartitionSpec("P(('x', None), ('y', None))", CpuMesh({2, 4}, {"x", "y"}), 2),
              StatusIs(absl::StatusCode::kInvalidArgument, EndsWith("has duplicate entries for `None`")));
}

TEST(LayoutFromPartitionSpec, OneTupleOfNoneIsNone) {
  MeshPtr mesh = CpuMesh({2, 4}, {"x", "y"});
  EXPECT_EQ(Unwrap(LayoutFromPartitionSpec("P([None], 'x')", mesh, 2)), Layout({"", "x"}, mesh));
}

TEST(LayoutFromPartitionSpec, UnknownAxisIsJaxsResourceAxisError) {
  EXPECT_THAT(LayoutFromPartitionSpec("P('z')", CpuMesh({2, 4}, {"x", "y"}), 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Resource axis: z of P('z',) is not found in mesh: ('x', 'y').")));
}

// --- Mesh text -----------------------------------------------------------------

TEST(JaxMeshText, IsJaxsStrWithoutAxisTypes) {
  EXPECT_EQ(JaxMeshText(*CpuMesh({2, 4}, {"x", "y"})), "Mesh('x': 2, 'y': 4)");
}

TEST(ParseJaxMesh, ReadsTheStrForm) {
  JaxMeshDescription mesh = Unwrap(ParseJaxMesh("Mesh('x': 2, 'y': 4)"));
  EXPECT_THAT(mesh.shape, ElementsAre(2, 4));
  EXPECT_THAT(mesh.axis_names, ElementsAre("x", "y"));
}

TEST(ParseJaxMesh, ReadsJaxsCurrentStrWithAxisTypes) {
  // str(jax.make_mesh((2, 4), ('x', 'y'))) in jax 0.10.2.
  JaxMeshDescription mesh =
      Unwrap(ParseJaxMesh("Mesh('x': 2, 'y': 4, axis_types=(Explicit, Explicit))"));
  EXPECT_THAT(mesh.shape, ElementsAre(2, 4));
}

TEST(ParseJaxMesh, ReadsTheReprForm) {
  JaxMeshDescription mesh = Unwrap(ParseJaxMesh(
      "Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, AxisType.Auto))"));
  EXPECT_THAT(mesh.shape, ElementsAre(2, 4));
  EXPECT_THAT(mesh.axis_names, ElementsAre("x", "y"));
}

TEST(ParseJaxMesh, SizesAndNamesMustPair) {
  EXPECT_THAT(ParseJaxMesh("Mesh(axis_sizes=(2, 4), axis_names=('x',))"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("axis_sizes has 2 entries and axis_names 1")));
}

TEST(ParseJaxMesh, ErrorsNameThePositionAndToken) {
  EXPECT_THAT(ParseJaxMesh("Mesh('x' 2)"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("jax Mesh text: at position 9: expected ':', got '2'")));
  EXPECT_THAT(ParseJaxMesh("Mesh('x': 2, axis_types=(Fast,))"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at position 25: expected an axis type (Auto, Explicit or "
                                 "Manual), got 'Fast'")));
  EXPECT_THAT(ParseJaxMesh("DeviceMesh()"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("at position 0: expected 'Mesh(', got 'DeviceMesh'")));
}

TEST(MeshFromJaxText, UsesTheGivenDevicesRowMajor) {
  MeshPtr mesh = Unwrap(MeshFromJaxText("Mesh('x': 2, 'y': 2)", testing::Cpus(4)));
  EXPECT_EQ(*mesh, *CpuMesh({2, 2}, {"x", "y"}));
}

TEST(MeshFromJaxText, MeshErrorsComeFromTheMesh) {
  EXPECT_THAT(MeshFromJaxText("Mesh('x': 2, 'x': 2)", testing::Cpus(4)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'x'")));
}

TEST(MeshFromJaxText, RoundTripsThroughTheText) {
  MeshPtr mesh = CpuMesh({2, 1, 4}, {"data", "seq", "model"});
  EXPECT_EQ(*Unwrap(MeshFromJaxText(JaxMeshText(*mesh), testing::Cpus(8))), *mesh);
}

}  // namespace
}  // namespace tessera
