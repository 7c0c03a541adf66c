// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Mesh construction: JAX's make_mesh / create_device_mesh / hybrid meshes,
// DTensor's create_mesh / create_distributed_mesh, PyTorch's slicing. The
// framework vectors (S39-S45, D85-D99) are in
// tests/conformance/mesh_construction_test.cc; these are the other rules.
#include "core/mesh_construction.h"

#include <optional>
#include <string>
#include <vector>

#include "core/distribution.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::Cpu;
using testing::CpuMesh;
using testing::ScopedCpuDevices;
using testing::ScopedEnv;
using testing::StatusIs;
using testing::Unwrap;

Device Gpu(int64_t id, int64_t process) { return Device{id, Platform::kGpu, process, id % 4}; }

std::vector<int64_t> Ids(const std::vector<Device>& devices) {
  std::vector<int64_t> ids;
  for (const Device& d : devices) ids.push_back(d.id);
  return ids;
}

// The runtime's process info for one test.
class ScopedProcess {
 public:
  ScopedProcess(int64_t n, int64_t id) : old_(RuntimeProcessInfo()) {
    SetRuntimeProcessInfo(ProcessInfo{n, id});
  }
  ~ScopedProcess() { SetRuntimeProcessInfo(old_); }

 private:
  ProcessInfo old_;
};

TEST(CreateDeviceMeshTest, SortsGpuDevicesById) {
  EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh({2, 2}, {Gpu(3, 1), Gpu(0, 0), Gpu(2, 1), Gpu(1, 0)}))),
              ElementsAre(0, 1, 2, 3));
}

TEST(CreateDeviceMeshTest, KeepsCpuOrderWithinAProcessAndGroupsProcesses) {
  std::vector<Device> devices = {Device{5, Platform::kCpu, 1, 0}, Cpu(2), Cpu(0),
                                 Device{4, Platform::kCpu, 1, 1}};
  EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh({4}, devices))), ElementsAre(2, 0, 5, 4));
}

TEST(CreateDeviceMeshTest, RejectsANonPositiveDimension) {
  EXPECT_THAT(CreateDeviceMesh({2, 0}, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "`mesh_shape` passed to `create_device_mesh` should be a sequence of "
                       "positive ints, got (2, 0)"));
}

TEST(CreateDeviceMeshTest, AnOverflowingShapeIsACountMismatch) {
  EXPECT_THAT(CreateDeviceMesh({int64_t{1} << 62, 8}, {Cpu(0)}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Number of devices 1 must equal the product of mesh_shape")));
}

TEST(CreateDeviceMeshTest, TrayRingNeedsEightDevicesOrAnEightWideLastAxis) {
  std::vector<Device> devices;
  for (int64_t i = 0; i < 4; ++i) devices.push_back(Device{i, Platform::kTpu, 0, i});
  EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh({4}, devices, "TPU v3"))), ElementsAre(0, 1, 2, 3));
}

TEST(MakeMeshTest, DefaultsToEveryListedDevice) {
  ScopedCpuDevices cpus(4);
  const MeshPtr mesh = Unwrap(MakeMesh({2, 2}, {"x", "y"}));
  EXPECT_THAT(Ids(mesh->devices()), ElementsAre(0, 1, 2, 3));
}

TEST(MakeMeshTest, DeviceMeshChecksStillApply) {
  ScopedCpuDevices cpus(4);
  EXPECT_THAT(MakeMesh({2, 2}, {"x", "x"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("x")));
}

TEST(MakeHybridMeshTest, RejectsShapesOfDifferentLengths) {
  EXPECT_THAT(MakeHybridMesh({2, 2}, {2}, {"a", "b"}, std::vector<Device>{Gpu(0, 0)}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "mesh_shape (2, 2) and dcn_mesh_shape (2,) must have the same length"));
}

TEST(MakeHybridMeshTest, UnsortedGranulesKeepTheirFirstAppearanceOrder) {
  std::vector<Device> devices = {Gpu(4, 1), Gpu(5, 1), Gpu(0, 0), Gpu(1, 0)};
  HybridMeshOptions options;
  options.sort_granules_by_key = false;
  const MeshPtr mesh = Unwrap(MakeHybridMesh({2}, {2}, {"x"}, devices, options));
  EXPECT_THAT(Ids(mesh->devices()), ElementsAre(4, 5, 0, 1));
}

TEST(MakeHybridMeshTest, AGranuleOfTheWrongSizeFails) {
  std::vector<Device> devices = {Gpu(0, 0), Gpu(1, 0), Gpu(4, 1)};
  EXPECT_THAT(MakeHybridMesh({2}, {2}, {"x"}, devices),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Number of devices 1 must equal the product of mesh_shape (2,)"));
}

TEST(DTensorLocalDevicesTest, MultiClientJobIsWorkerAndTaskIsTheClient) {
  ScopedCpuDevices cpus(2);
  ScopedProcess process(2, 1);
  EXPECT_THAT(Unwrap(DTensorLocalDevices("cpu")),
              ElementsAre("/job:worker/replica:0/task:1/device:CPU:0",
                          "/job:worker/replica:0/task:1/device:CPU:1"));
}

TEST(DTensorCreateMeshTest, AcceptsEveryDeviceSpecForm) {
  ScopedCpuDevices cpus(4);
  DTensorCreateMeshOptions options;
  options.devices = std::vector<std::string>{"CPU:0", "/device:CPU:1", "cpu:2",
                                             "/job:localhost/replica:0/task:0/device:CPU:3"};
  const DTensorMesh mesh = Unwrap(DTensorCreateMesh(options));
  EXPECT_THAT(mesh.local_devices(), ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0",
                                                "/job:localhost/replica:0/task:0/device:CPU:1",
                                                "/job:localhost/replica:0/task:0/device:CPU:2",
                                                "/job:localhost/replica:0/task:0/device:CPU:3"));
}

TEST(DTensorCreateMeshTest, RejectsAnUnknownDeviceSpecAttribute) {
  DTensorCreateMeshOptions options;
  options.devices = std::vector<std::string>{"/host:CPU:0"};
  EXPECT_THAT(DTensorCreateMesh(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Unknown attribute 'host' is encountered while parsing the device spec: "
                       "'/host:CPU:0'."));
}

TEST(DTensorCreateMeshTest, RejectsAnEmptyDeviceList) {
  DTensorCreateMeshOptions options;
  options.devices = std::vector<std::string>{};
  EXPECT_THAT(DTensorCreateMesh(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Argument 'devices' must list at least one device, got []"));
}

TEST(DTensorCreateMeshTest, RejectsEmptyDims) {
  ScopedCpuDevices cpus(1);
  DTensorCreateMeshOptions options;
  options.dims = std::vector<DTensorMeshDim>{};
  EXPECT_THAT(DTensorCreateMesh(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Argument 'dims' must name at least one mesh dimension"));
}

TEST(DTensorCreateMeshTest, KeepsTheMeshName) {
  ScopedCpuDevices cpus(2);
  DTensorCreateMeshOptions options;
  options.name = "m";
  EXPECT_EQ(Unwrap(DTensorCreateMesh(options)).name(), "m");
}

TEST(DTensorCreateDistributedMeshTest, TpuWithoutDevicesIsUnimplemented) {
  DTensorDistributedMeshOptions options;
  options.dims = {{"x", 2}};
  options.device_type = "TPU";
  EXPECT_THAT(DTensorCreateDistributedMesh(options),
              StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("TPU meshes")));
}

TEST(DTensorCreateDistributedMeshTest, ExplicitDevicesOfAnotherTypeAreConflicting) {
  DTensorDistributedMeshOptions options;
  options.dims = {{"x", 1}};
  options.local_devices = std::vector<std::string>{"GPU:0"};
  options.device_type = "CPU";
  EXPECT_THAT(DTensorCreateDistributedMesh(options),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Conflicting devices ['GPU:0'] and device_type CPU"));
}

TEST(DTensorCreateLegacyDistributedMeshTest, OtherDeviceTypesAreRejected) {
  DTensorLegacyDistributedMeshOptions options;
  options.dims = {{"x", 2}};
  options.device_type = "XPU";
  EXPECT_THAT(DTensorCreateLegacyDistributedMesh(options),
              StatusIs(absl::StatusCode::kInvalidArgument, "Device type XPU is not CPU, GPU or TPU"));
}

TEST(SliceMeshTest, RejectsNoNames) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  EXPECT_THAT(SliceMesh(*mesh, {}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Argument 'axis_names' must name at least one mesh dimension, got ()"));
}

TEST(SliceMeshTest, UnknownNameListsTheValidNames) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  EXPECT_THAT(SliceMesh(*mesh, {"pp"}, 0),
              StatusIs(absl::StatusCode::kNotFound,
                       "Invalid mesh_dim_names ('pp',) specified. Valid mesh_dim_names are "
                       "('dp', 'tp')."));
}

TEST(SliceMeshTest, RepeatedNameIsNotAscending) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  EXPECT_THAT(SliceMesh(*mesh, {"dp", "dp"}, 0),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Invalid mesh_dim_names ('dp', 'dp') specified. Mesh dim indices should "
                       "be in ascending order."));
}

TEST(SliceMeshTest, DeviceOutsideTheMeshIsNotFound) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  EXPECT_THAT(SliceMesh(*mesh, {"tp"}, 99), StatusIs(absl::StatusCode::kNotFound, HasSubstr("99")));
}

TEST(SliceMeshTest, AllNamesGiveTheWholeMesh) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  EXPECT_EQ(*Unwrap(SliceMesh(*mesh, {"dp", "tp"}, 5)), *mesh);
}

TEST(FlattenMeshTest, ExplicitNameIsUsed) {
  const MeshPtr mesh = CpuMesh({2, 2}, {"dp", "cp"});
  const MeshPtr flat = Unwrap(FlattenMesh(*mesh, "dcp"));
  EXPECT_THAT(flat->axis_names(), ElementsAre("dcp"));
  EXPECT_THAT(flat->shape(), ElementsAre(4));
}

TEST(FlattenMeshTest, RejectsAnExistingDimName) {
  const MeshPtr mesh = CpuMesh({2, 2}, {"dp", "cp"});
  EXPECT_THAT(FlattenMesh(*mesh, "dp"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Flattened mesh dim name 'dp' already exists in the mesh's mesh_dim_names "
                       "('dp', 'cp')"));
}

TEST(LocalRankOfTest, UnknownAxisIsNotFound) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  EXPECT_THAT(LocalRankOf(*mesh, "pp", 0), StatusIs(absl::StatusCode::kNotFound, HasSubstr("pp")));
}

TEST(AxisGroupsTest, MiddleAxisOfThreeSwapsWithTheLast) {
  // torch: mesh.swapdims(-1, 1) of arange(8).view(2, 2, 2) reshaped (-1, 2).
  const MeshPtr mesh = CpuMesh({2, 2, 2}, {"a", "b", "c"});
  EXPECT_THAT(Unwrap(AxisGroups(*mesh, "b")),
              ElementsAre(ElementsAre(0, 2), ElementsAre(1, 3), ElementsAre(4, 6),
                          ElementsAre(5, 7)));
}

}  // namespace
}  // namespace tessera
