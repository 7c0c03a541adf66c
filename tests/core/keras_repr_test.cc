// Python repr helpers and the Keras reprs of meshes, layouts and
// distributions, so a C or Go caller sees what a Keras user sees.
#include "core/formats/keras_repr.h"

#include <string>
#include <vector>

#include "core/distribution.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using testing::CpuMesh;
using testing::Layout;
using testing::Unwrap;

TEST(PyStrReprTest, QuotesWithSingleQuotes) {
  EXPECT_EQ(PyStrRepr("abc"), "'abc'");
  EXPECT_EQ(PyStrRepr(""), "''");
}

TEST(PyStrReprTest, UsesDoubleQuotesWhenTheTextHasOnlySingleQuotes) {
  EXPECT_EQ(PyStrRepr("it's"), "\"it's\"");
}

TEST(PyStrReprTest, EscapesSingleQuotesWhenTheTextHasBothKinds) {
  EXPECT_EQ(PyStrRepr("a'b\"c"), "'a\\'b\"c'");
}

TEST(PyStrReprTest, KeepsDoubleQuotesInsideSingleQuotes) {
  EXPECT_EQ(PyStrRepr("say \"hi\""), "'say \"hi\"'");
}

TEST(PyStrReprTest, EscapesBackslashes) {
  EXPECT_EQ(PyStrRepr("a\\b"), "'a\\\\b'");
}

TEST(PyStrReprTest, EscapesNamedControlCharacters) {
  EXPECT_EQ(PyStrRepr("a\nb\tc\rd"), "'a\\nb\\tc\\rd'");
}

TEST(PyStrReprTest, EscapesOtherControlCharactersInHex) {
  EXPECT_EQ(PyStrRepr(std::string("a\x01z\x7f", 4)), "'a\\x01z\\x7f'");
  EXPECT_EQ(PyStrRepr(std::string("\0", 1)), "'\\x00'");
}

TEST(PyStrListReprTest, PrintsAPythonList) {
  EXPECT_EQ(PyStrListRepr(std::vector<std::string>{"batch", "model"}), "['batch', 'model']");
  EXPECT_EQ(PyStrListRepr(std::vector<std::string>{"x"}), "['x']");
}

TEST(PyStrListReprTest, EmptyListIsBrackets) {
  EXPECT_EQ(PyStrListRepr(std::vector<std::string>{}), "[]");
}

TEST(PyStrSetReprTest, PrintsASortedPythonSet) {
  EXPECT_EQ(PyStrSetRepr({"model", "data"}), "{'data', 'model'}");
}

TEST(PyStrSetReprTest, DropsDuplicates) {
  EXPECT_EQ(PyStrSetRepr({"b", "a", "b"}), "{'a', 'b'}");
}

TEST(PyStrSetReprTest, EmptySetIsSetCall) {
  EXPECT_EQ(PyStrSetRepr({}), "set()");
}

TEST(PyAxisGroupReprTest, ReplicatedIsNone) {
  EXPECT_EQ(PyAxisGroupRepr(std::vector<std::string>{}), "None");
}

TEST(PyAxisGroupReprTest, OneAxisIsItsName) {
  EXPECT_EQ(PyAxisGroupRepr(std::vector<std::string>{"model"}), "'model'");
}

TEST(PyAxisGroupReprTest, SeveralAxesAreATuple) {
  EXPECT_EQ(PyAxisGroupRepr(std::vector<std::string>{"data", "model"}), "('data', 'model')");
}

TEST(PyAxesReprTest, PrintsAPythonTuple) {
  std::vector<std::vector<std::string>> axes = {{"data"}, {}};
  EXPECT_EQ(PyAxesRepr(axes), "('data', None)");
}

TEST(PyAxesReprTest, OneDimensionHasATrailingComma) {
  std::vector<std::vector<std::string>> axes = {{"model"}};
  EXPECT_EQ(PyAxesRepr(axes), "('model',)");
}

TEST(PyAxesReprTest, NoDimensionsIsAnEmptyTuple) {
  EXPECT_EQ(PyAxesRepr(std::vector<std::vector<std::string>>{}), "()");
}

TEST(KerasReprTest, Mesh) {
  EXPECT_EQ(KerasRepr(*CpuMesh({4, 2}, {"batch", "model"})),
            "<DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>");
}

TEST(KerasReprTest, OneAxisMeshShapeHasATrailingComma) {
  EXPECT_EQ(KerasRepr(*CpuMesh({8}, {"batch"})), "<DeviceMesh shape=(8,), axis_names=['batch']>");
}

TEST(KerasReprTest, MeshAxisNamesAreEscaped) {
  EXPECT_EQ(KerasRepr(*CpuMesh({2}, {"it's"})), "<DeviceMesh shape=(2,), axis_names=[\"it's\"]>");
}

TEST(KerasReprTest, LayoutWithMesh) {
  EXPECT_EQ(KerasRepr(Layout({"data", ""}, CpuMesh({4, 2}, {"data", "model"}))),
            "<TensorLayout axes=('data', None), device_mesh=<DeviceMesh shape=(4, 2), "
            "axis_names=['data', 'model']>>");
}

TEST(KerasReprTest, LayoutWithoutMesh) {
  EXPECT_EQ(KerasRepr(Layout({"", "model"})), "<TensorLayout axes=(None, 'model'), device_mesh=None>");
}

TEST(KerasReprTest, DataParallel) {
  EXPECT_EQ(KerasRepr(*Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})))),
            "<DataParallel device_mesh=<DeviceMesh shape=(8,), axis_names=['batch']>>");
}

TEST(KerasReprTest, ModelParallel) {
  EXPECT_EQ(KerasRepr(*Unwrap(Distribution::ModelParallel(LayoutMap(CpuMesh({2, 4}, {"batch", "model"}))))),
            "<ModelParallel device_mesh=<DeviceMesh shape=(2, 4), axis_names=['batch', 'model']>>");
}

}  // namespace
}  // namespace tessera
