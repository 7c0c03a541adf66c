// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// DeviceMesh: construction, Keras's validation order and messages, Tessera's
// stricter checks, row-major placement and coordinate queries.
#include "core/mesh.h"

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
using testing::Cpu;
using testing::CpuMesh;
using testing::CpuNames;
using testing::Cpus;
using testing::ScopedCpuDevices;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

Device Gpu(int64_t id) {
  Device device = Cpu(id);
  device.platform = Platform::kGpu;
  return device;
}

// Devices cpu:7 ... cpu:0, so that positions and ids differ.
std::vector<Device> ReversedCpus(int64_t n) {
  std::vector<Device> devices;
  for (int64_t i = n - 1; i >= 0; --i) devices.push_back(Cpu(i));
  return devices;
}

TEST(DeviceMeshTest, KeepsShapeAxisNamesAndDevices) {
  MeshPtr mesh = Unwrap(DeviceMesh::Create({4, 2}, {"batch", "model"}, Cpus(8)));
  EXPECT_THAT(mesh->shape(), ElementsAre(4, 2));
  EXPECT_THAT(mesh->axis_names(), ElementsAre("batch", "model"));
  EXPECT_EQ(mesh->devices(), Cpus(8));
}

TEST(DeviceMeshTest, SizeIsTheDeviceCountAndRankTheNumberOfAxes) {
  MeshPtr mesh = CpuMesh({2, 2, 2}, {"a", "b", "c"});
  EXPECT_EQ(mesh->size(), 8);
  EXPECT_EQ(mesh->rank(), 3u);
}

TEST(DeviceMeshTest, PlatformIsTheDevicesPlatform) {
  MeshPtr mesh = Unwrap(DeviceMesh::Create({2}, {"x"}, {Gpu(0), Gpu(1)}));
  EXPECT_EQ(mesh->platform(), Platform::kGpu);
}

TEST(DeviceMeshTest, PlacesDevicesRowMajor) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  EXPECT_EQ(Unwrap(mesh->DeviceAt({0, 1})), Cpu(1));
  EXPECT_EQ(Unwrap(mesh->DeviceAt({1, 0})), Cpu(2));
  EXPECT_EQ(Unwrap(mesh->DeviceAt({3, 1})), Cpu(7));
}

TEST(DeviceMeshTest, AxisQueriesByName) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  EXPECT_EQ(Unwrap(mesh->AxisIndex("model")), 1u);
  EXPECT_EQ(Unwrap(mesh->AxisSize("batch")), 4);
  EXPECT_TRUE(mesh->HasAxis("batch"));
  EXPECT_FALSE(mesh->HasAxis("data"));
}

TEST(DeviceMeshTest, UnknownAxisIsNotFoundNamingItAndTheMeshAxes) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  const auto names_all = AllOf(HasSubstr("data"), HasSubstr("batch"), HasSubstr("model"));
  EXPECT_THAT(mesh->AxisIndex("data"), StatusIs(absl::StatusCode::kNotFound, names_all));
  EXPECT_THAT(mesh->AxisSize("data"), StatusIs(absl::StatusCode::kNotFound, names_all));
}

TEST(DeviceMeshTest, CoordinatesOfFindsADeviceByGlobalId) {
  MeshPtr mesh = Unwrap(DeviceMesh::Create({4, 2}, {"batch", "model"}, ReversedCpus(8)));
  // cpu:2 sits at position 5 = (2, 1).
  EXPECT_THAT(Unwrap(mesh->CoordinatesOf(2)), ElementsAre(2, 1));
}

TEST(DeviceMeshTest, CoordinatesOfAnAbsentDeviceIsNotFound) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  EXPECT_THAT(mesh->CoordinatesOf(99), StatusIs(absl::StatusCode::kNotFound, HasSubstr("99")));
}

TEST(DeviceMeshTest, CoordinatesOfIndexIsRowMajor) {
  MeshPtr mesh = Unwrap(DeviceMesh::Create({4, 2}, {"batch", "model"}, ReversedCpus(8)));
  EXPECT_THAT(Unwrap(mesh->CoordinatesOfIndex(5)), ElementsAre(2, 1));
  EXPECT_THAT(Unwrap(mesh->CoordinatesOfIndex(0)), ElementsAre(0, 0));
  EXPECT_THAT(Unwrap(mesh->CoordinatesOfIndex(7)), ElementsAre(3, 1));
}

TEST(DeviceMeshTest, CoordinatesOfIndexOutsideTheMeshIsOutOfRange) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  EXPECT_THAT(mesh->CoordinatesOfIndex(8), StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("8")));
  EXPECT_THAT(mesh->CoordinatesOfIndex(-1), StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("-1")));
}

TEST(DeviceMeshTest, DeviceAtWithWrongRankIsInvalidArgument) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  EXPECT_THAT(mesh->DeviceAt({1}), StatusIs(kInvalid, HasSubstr("'coords' has 1 entries")));
  EXPECT_THAT(mesh->DeviceAt({1, 0, 0}), StatusIs(kInvalid, HasSubstr("'coords' has 3 entries")));
}

TEST(DeviceMeshTest, DeviceAtOutsideAnAxisIsOutOfRange) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  EXPECT_THAT(mesh->DeviceAt({4, 0}), StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("entry 0 is 4")));
  EXPECT_THAT(mesh->DeviceAt({0, 2}), StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("entry 1 is 2")));
  EXPECT_THAT(mesh->DeviceAt({-1, 0}), StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("entry 0 is -1")));
}

TEST(DeviceMeshTest, EmptyShapeIsRejected) {
  EXPECT_THAT(DeviceMesh::Create({}, {"batch"}, Cpus(1)),
              StatusIs(kInvalid, HasSubstr("Shape and axis_names cannot be empty. Received: shape=")));
}

TEST(DeviceMeshTest, EmptyAxisNamesAreRejected) {
  EXPECT_THAT(DeviceMesh::Create({4}, {}, Cpus(4)),
              StatusIs(kInvalid, HasSubstr("Shape and axis_names cannot be empty. Received: shape=(4,)")));
}

TEST(DeviceMeshTest, ShapeAndAxisNamesOfDifferentLengthsAreRejected) {
  EXPECT_THAT(DeviceMesh::Create({4, 2}, {"batch"}, Cpus(8)),
              StatusIs(kInvalid, AllOf(HasSubstr("Shape and axis_names should have same size."),
                                       HasSubstr("shape=(4, 2)"), HasSubstr("'batch'"))));
}

TEST(DeviceMeshTest, DeviceCountDifferentFromTheShapeIsRejected) {
  EXPECT_THAT(DeviceMesh::Create({4, 2}, {"batch", "model"}, Cpus(4)),
              StatusIs(kInvalid, HasSubstr("Shape does not match the number of devices. "
                                           "Received: shape=(4, 2); devices.shape=(4,)")));
}

// Keras lets numpy decide ((0,) with no devices passes); Tessera needs
// positive dimensions.
TEST(DeviceMeshTest, ZeroDimensionIsRejected) {
  EXPECT_THAT(DeviceMesh::Create({0}, {"batch"}, {}), StatusIs(kInvalid, HasSubstr("dimension 0 equal to 0")));
}

TEST(DeviceMeshTest, NegativeDimensionIsRejected) {
  EXPECT_THAT(DeviceMesh::Create({-2, -4}, {"a", "b"}, Cpus(8)), StatusIs(kInvalid, HasSubstr("dimension 0 equal to -2")));
}

TEST(DeviceMeshTest, OverflowingShapeIsRejected) {
  constexpr int64_t kBig = int64_t{1} << 32;
  EXPECT_THAT(DeviceMesh::Create({kBig, kBig}, {"a", "b"}, Cpus(1)),
              StatusIs(kInvalid, HasSubstr("overflow")));
}

TEST(DeviceMeshTest, EmptyAxisNameIsRejected) {
  EXPECT_THAT(DeviceMesh::Create({4, 2}, {"batch", ""}, Cpus(8)),
              StatusIs(kInvalid, HasSubstr("'axis_names' entry 1 is empty")));
}

// Keras accepts duplicate axis names; Tessera rejects them (ARCHITECTURE.md).
TEST(DeviceMeshTest, DuplicateAxisNameIsRejected) {
  EXPECT_THAT(DeviceMesh::Create({4, 2}, {"x", "x"}, Cpus(8)), StatusIs(kInvalid, HasSubstr("names axis 'x' twice")));
}

// Keras accepts duplicate devices (its tests use ["cpu:0"] * n); Tessera
// rejects them (ARCHITECTURE.md).
TEST(DeviceMeshTest, DuplicateDeviceIsRejected) {
  EXPECT_THAT(DeviceMesh::Create({2}, {"x"}, {Cpu(1), Cpu(1)}), StatusIs(kInvalid, HasSubstr("lists 'cpu:1' twice")));
}

TEST(DeviceMeshTest, DevicesOfSeveralPlatformsAreRejected) {
  EXPECT_THAT(DeviceMesh::Create({2}, {"x"}, {Cpu(0), Gpu(0)}),
              StatusIs(kInvalid, AllOf(HasSubstr("cpu"), HasSubstr("gpu"))));
}

TEST(DeviceMeshTest, CreateFromStringsParsesKerasNames) {
  ScopedCpuDevices cpus(8);
  MeshPtr mesh = Unwrap(DeviceMesh::CreateFromStrings({4, 2}, {"batch", "model"}, CpuNames(8)));
  EXPECT_EQ(mesh->devices(), Cpus(8));
}

TEST(DeviceMeshTest, CreateFromStringsRejectsAMalformedName) {
  const std::vector<std::string> names = {"cpu:0", "cpu:x"};
  EXPECT_THAT(DeviceMesh::CreateFromStrings({2}, {"batch"}, names), StatusIs(kInvalid, HasSubstr("cpu:x")));
}

TEST(DeviceMeshTest, CreateOverAllDevicesUsesTheListedDevices) {
  ScopedCpuDevices cpus(8);
  MeshPtr mesh = Unwrap(DeviceMesh::CreateOverAllDevices({4, 2}, {"batch", "model"}));
  EXPECT_EQ(mesh->devices(), Cpus(8));
}

TEST(DeviceMeshTest, CreateOverAllDevicesRejectsAShapeOfAnotherSize) {
  ScopedCpuDevices cpus(8);
  EXPECT_THAT(DeviceMesh::CreateOverAllDevices({4}, {"batch"}),
              StatusIs(kInvalid, HasSubstr("Shape does not match the number of devices")));
}

TEST(DeviceMeshTest, ToStringIsKerasRepr) {
  EXPECT_EQ(CpuMesh({4, 2}, {"batch", "model"})->ToString(),
            "<DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>");
  EXPECT_EQ(CpuMesh({8}, {"batch"})->ToString(), "<DeviceMesh shape=(8,), axis_names=['batch']>");
}

TEST(DeviceMeshTest, ToStringEscapesAxisNamesAsPython) {
  EXPECT_EQ(CpuMesh({2}, {"it's"})->ToString(), "<DeviceMesh shape=(2,), axis_names=[\"it's\"]>");
}

TEST(DeviceMeshTest, MeshesWithTheSameShapeNamesAndDevicesAreEqual) {
  EXPECT_EQ(*CpuMesh({4, 2}, {"batch", "model"}), *CpuMesh({4, 2}, {"batch", "model"}));
}

TEST(DeviceMeshTest, MeshesDifferingInAnyPartAreNotEqual) {
  MeshPtr base = CpuMesh({4, 2}, {"batch", "model"});
  EXPECT_NE(*base, *CpuMesh({2, 4}, {"batch", "model"}));
  EXPECT_NE(*base, *CpuMesh({4, 2}, {"data", "model"}));
  EXPECT_NE(*base, *Unwrap(DeviceMesh::Create({4, 2}, {"batch", "model"}, ReversedCpus(8))));
}

}  // namespace
}  // namespace tessera
