// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Keras conformance: devices, DeviceMesh and TensorLayout
// (keras_cases.md K5, K7, K9, K11, K65, K73, K75, K81, K91, K95, K97, K131,
// K135, K155, and the mesh half of K51/K53).
#include <ostream>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/conformance/keras_conformance.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using testing::Cpu;
using testing::CpuMesh;
using testing::CpuNames;
using testing::Cpus;
using testing::Layout;
using testing::Repeated;
using testing::ScopedCpuDevices;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kPrecondition = absl::StatusCode::kFailedPrecondition;

// ---------------------------------------------------------------------------
// DeviceMesh construction errors: Keras's vectors, then the places where
// Tessera is stricter than Keras (ARCHITECTURE.md).
struct MeshErrorCase {
  const char* name;
  std::vector<int64_t> shape;
  std::vector<std::string> axis_names;
  std::vector<std::string> devices;
  const char* message;  // the part of the message the case pins
};

// Failure messages name the vector, not the bytes of the row.
void PrintTo(const MeshErrorCase& c, std::ostream* os) { *os << c.name; }

const MeshErrorCase kMeshErrors[] = {
    // K5: DeviceMesh((4,), "", devs(4)); Keras's "" is an empty sequence.
    {"K5_EmptyAxisNames", {4}, {}, CpuNames(4),
     "Shape and axis_names cannot be empty. Received: shape=(4,), axis_names="},
    // K7: DeviceMesh((4, 2), ["batch", "model"], devs(4)).
    {"K7_DeviceCountDiffersFromShape", {4, 2}, {"batch", "model"}, CpuNames(4),
     "Shape does not match the number of devices. Received: shape=(4, 2); devices.shape=(4,)"},
    // K51/K53 build meshes on rep("cpu:0", n), which Keras allows. Tessera
    // decides against Keras: duplicate devices are rejected.
    {"K53_RepeatedDeviceRejectedByTessera", {2, 4}, {"data", "model"}, Repeated("cpu:0", 8),
     "lists 'cpu:0' twice"},
    {"K51_RepeatedDeviceRejectedByTessera", {2}, {"batch"}, Repeated("cpu:0", 2),
     "lists 'cpu:0' twice"},
    // keras.md §1.4: Keras does not check axis names for duplicates; Tessera
    // decides against Keras and rejects them.
    {"DuplicateAxisNamesRejectedByTessera", {2, 2}, {"x", "x"}, CpuNames(4),
     "names axis 'x' twice"},
    // keras.md §1.4: shape (0,) with no devices passes in Keras; Tessera
    // needs positive dimensions.
    {"ZeroDimensionRejectedByTessera", {0}, {"batch"}, {}, "dimension 0 equal to 0"},
};

class MeshErrorTest : public ::testing::TestWithParam<MeshErrorCase> {};

TEST_P(MeshErrorTest, FailsWithInvalidArgument) {
  const MeshErrorCase& c = GetParam();
  EXPECT_THAT(DeviceMesh::CreateFromStrings(c.shape, c.axis_names, c.devices),
              StatusIs(kInvalid, HasSubstr(c.message)));
}

INSTANTIATE_TEST_SUITE_P(Keras, MeshErrorTest, ::testing::ValuesIn(kMeshErrors),
                         [](const auto& info) { return std::string(info.param.name); });

// K51/K53 with distinct devices instead: the mesh the vectors mean.
TEST(KerasMeshTest, K53_DistinctDevicesBuildTheMesh) {
  MeshPtr mesh = Unwrap(DeviceMesh::CreateFromStrings({2, 4}, {"data", "model"}, CpuNames(8)));
  EXPECT_THAT(mesh->shape(), ElementsAre(2, 4));
  EXPECT_EQ(mesh->size(), 8);
}

// K131: the shape is kept as given.
TEST(KerasMeshTest, K131_ShapeIsKeptAsGiven) {
  EXPECT_THAT(CpuMesh({4, 2}, {"a", "b"})->shape(), ElementsAre(4, 2));
}

// K65: list_devices() and list_devices(default backend) both see n devices.
TEST(KerasDeviceTest, K65_ListDevicesSeesEveryDevice) {
  ScopedCpuDevices cpus(8);
  EXPECT_THAT(Unwrap(ListDevices()), SizeIs(8));
  EXPECT_THAT(Unwrap(ListDevices("cpu")), SizeIs(8));
}

// K73: DeviceMesh((n/2, 2), ["batch", "model"]) over the default devices.
TEST(KerasDeviceTest, K73_MeshOverDefaultDevices) {
  ScopedCpuDevices cpus(8);
  MeshPtr mesh = Unwrap(DeviceMesh::CreateOverAllDevices({4, 2}, {"batch", "model"}));
  EXPECT_THAT(mesh->shape(), ElementsAre(4, 2));
  EXPECT_THAT(mesh->axis_names(), ElementsAre("batch", "model"));
  EXPECT_EQ(mesh->devices(), Cpus(8));
}

// K81: each list_devices() string converts back to the same device.
TEST(KerasDeviceTest, K81_ListedNamesParseBackToTheSameDevice) {
  ScopedCpuDevices cpus(8);
  for (const Device& device : Unwrap(ListDevices())) {
    EXPECT_EQ(Unwrap(ParseDevice(device.ToString())), device) << device.ToString();
  }
}

// K91: an explicit type lists "<type>:i" for i below its count.
TEST(KerasDeviceTest, K91_ExplicitTypeListsTypeColonIndex) {
  ScopedCpuDevices cpus(1);
  std::vector<std::string> names;
  for (const Device& device : Unwrap(ListDevices("cpu"))) names.push_back(device.ToString());
  EXPECT_THAT(names, ElementsAre("cpu:0"));
  EXPECT_THAT(Unwrap(ListDevices("gpu")), IsEmpty());
  EXPECT_EQ(Unwrap(GetDeviceCount("gpu")), 0);
}

// K95: DeviceMesh((1,), ["x"], ["cpu:0"]) keeps its device type and axis name.
TEST(KerasDeviceTest, K95_OneDeviceMeshKeepsTypeAndAxisName) {
  const std::vector<std::string> devices = {"cpu:0"};
  MeshPtr mesh = Unwrap(DeviceMesh::CreateFromStrings({1}, {"x"}, devices));
  EXPECT_EQ(mesh->platform(), Platform::kCpu);
  EXPECT_THAT(mesh->axis_names(), ElementsAre("x"));
}

// K155: "cpu" means id 0. Keras's JAX backend then rejects an absent
// "cpu:99" ("Device not found"); Tessera decides against Keras so meshes over
// simulated devices can be planned anywhere: process 0, ordinal 99.
TEST(KerasDeviceTest, K155_DeviceWithoutIdIsIdZero) {
  ScopedCpuDevices cpus(8);
  EXPECT_EQ(Unwrap(ParseDevice("cpu")), Cpu(0));
}

TEST(KerasDeviceTest, K155_AbsentDeviceIsPlannedByTessera) {
  ScopedCpuDevices cpus(8);
  EXPECT_EQ(Unwrap(ParseDevice("cpu:99")), Cpu(99));
}

// ---------------------------------------------------------------------------
// TensorLayout (mesh M = DeviceMesh((4, 2), ["data", "model"], devs(8))).
class KerasLayoutTest : public ::testing::Test {
 protected:
  MeshPtr m_ = CpuMesh({4, 2}, {"data", "model"});
};

// K9: TensorLayout(("data", "unknown", None), M).
TEST_F(KerasLayoutTest, K9_UnknownAxisIsRejected) {
  EXPECT_THAT(TensorLayout::Create({{"data"}, {"unknown"}, {}}, m_),
              StatusIs(kInvalid, HasSubstr("Invalid axis names for Layout. Valid axis names: "
                                           "{'data', 'model'}, Got {'data', 'unknown'}")));
}

// K11: without a mesh nothing is validated; attaching M validates.
TEST_F(KerasLayoutTest, K11_ValidationWaitsForTheMesh) {
  TensorLayout layout = Unwrap(TensorLayout::Create({{"data"}, {"unknown"}, {}}));
  EXPECT_EQ(layout.mesh(), nullptr);
  EXPECT_THAT(layout.axes(), ElementsAre(ElementsAre("data"), ElementsAre("unknown"), IsEmpty()));
  EXPECT_THAT(layout.WithMesh(m_), StatusIs(kInvalid, HasSubstr("Invalid axis names for Layout")));
}

// K135: a layout that has a mesh cannot be given another.
TEST_F(KerasLayoutTest, K135_MeshCannotBeOverridden) {
  TensorLayout layout = Layout({"data", ""}, m_);
  EXPECT_THAT(layout.WithMesh(CpuMesh({8}, {"data"})),
              StatusIs(kPrecondition, HasSubstr("Cannot override device mesh value. Existing value is "
                                                "<DeviceMesh shape=(4, 2), axis_names=['data', 'model']>")));
}

// K75 / K97 (first half): turning a mesh-less layout into shards fails
// (JAX: "Cannot create sharding when device mesh is not set"; torch: "the
// 'device_mesh' is not specified"). Tessera's shard questions need the mesh.
TEST_F(KerasLayoutTest, K75_K97_MeshlessLayoutCannotBeSharded) {
  TensorLayout layout = Layout({"data", ""});
  EXPECT_THAT(layout.ShardCount(0), StatusIs(kPrecondition, HasSubstr("has no device mesh")));
  EXPECT_THAT(layout.CheckShape({8, 2}), StatusIs(kPrecondition, HasSubstr("has no device mesh")));
  EXPECT_THAT(layout.MaxShardShape({8, 2}), StatusIs(kPrecondition, HasSubstr("has no device mesh")));
}

// K97 (second half): torch meets axes ("invalid",) on mesh ["data"] only
// because its test bypasses validation; Tessera cannot bypass it, so the
// layout is refused when created.
TEST_F(KerasLayoutTest, K97_InvalidAxisIsRefusedAtCreation) {
  EXPECT_THAT(TensorLayout::Create({{"invalid"}}, CpuMesh({2}, {"data"})),
              StatusIs(kInvalid, HasSubstr("Invalid axis names for Layout. Valid axis names: "
                                           "{'data'}, Got {'invalid'}")));
}

}  // namespace
}  // namespace tessera
