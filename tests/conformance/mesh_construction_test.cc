// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Mesh-creation conformance: sharding_cases.md S39, S41, S43, S45 and the
// mesh-creation error table after D99's; dtensor_cases.md D85, D89-D99.
// Each row names its vector.
//
// D87 (DTENSOR_JOBS) is initialize_env_test.cc's.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/device_discovery.h"
#include "core/distribution.h"
#include "core/mesh_construction.h"
#include "core/shape.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::StartsWith;
using testing::CpuMesh;
using testing::IsOk;
using testing::ScopedCpuDevices;
using testing::ScopedEnv;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

std::vector<int64_t> Ids(const std::vector<Device>& devices) {
  std::vector<int64_t> ids;
  for (const Device& d : devices) ids.push_back(d.id);
  return ids;
}

std::vector<Device> Tpus(int64_t n) {
  std::vector<Device> devices;
  for (int64_t i = 0; i < n; ++i) devices.push_back(Device{i, Platform::kTpu, 0, i});
  return devices;
}

// 8 GPU-like devices, process 0 owning 0-3 and process 1 owning 4-7 (S43).
std::vector<Device> TwoHostGpus() {
  std::vector<Device> devices;
  for (int64_t i = 0; i < 8; ++i) devices.push_back(Device{i, Platform::kGpu, i / 4, i % 4});
  return devices;
}

class ScopedProcess {
 public:
  ScopedProcess(int64_t n, int64_t id) : old_(RuntimeProcessInfo()) {
    SetRuntimeProcessInfo(ProcessInfo{n, id});
  }
  ~ScopedProcess() { SetRuntimeProcessInfo(old_); }

 private:
  ProcessInfo old_;
};

// ------------------------------------------------------------------ S39

struct TrayRingCase {
  const char* vector;
  std::vector<int64_t> shape;
  int64_t devices;
  std::vector<int64_t> expected;
};

TEST(MeshCreationConformance, TpuV3TrayRing) {
  const TrayRingCase cases[] = {
      {"S39 [8]", {8}, 8, {0, 1, 2, 3, 6, 7, 4, 5}},
      {"S39 [2,4]", {2, 4}, 8, {0, 1, 2, 3, 6, 7, 4, 5}},
      {"S39 [4,2]", {4, 2}, 8, {0, 1, 2, 3, 6, 7, 4, 5}},
      {"S39 [2,8] ring on the last axis",
       {2, 8},
       16,
       {0, 1, 2, 3, 6, 7, 4, 5, 8, 9, 10, 11, 14, 15, 12, 13}},
      {"S39 [4,4] other shapes reshape", {4, 4}, 16, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
  };
  for (const TrayRingCase& c : cases) {
    SCOPED_TRACE(c.vector);
    EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh(c.shape, Tpus(c.devices), "TPU v3"))),
                ElementsAreArray(c.expected));
  }
}

// ------------------------------------------------------------------ S41

// TPU devices with chip coordinates, from a TESSERA_DEVICES entry
// ("tpu*64:TPU v4@4x4x4": x varies fastest, as JAX lists a host's chips).
std::vector<Device> PlacedTpus(const std::string& spec) {
  return ToLocalDevices(Unwrap(ParseDeviceListSpec(spec)));
}

ChipCoords CoordsOf(const Device& d) {
  EXPECT_TRUE(d.coords.has_value()) << d.ToString();
  return d.coords.value_or(ChipCoords{-1, -1, -1});
}

TEST(MeshCreationConformance, TpuV4TorusAssignsLogicalAxesLastFirst) {
  // S41: axis 2 (4) takes x, axis 1 (16) takes (y, z), axis 0 (1) none.
  using Axes = std::vector<std::vector<size_t>>;
  EXPECT_EQ(Unwrap(TpuTorusAxisAssignment({4, 4, 4}, {1, 16, 4})), (Axes{{}, {1, 2}, {0}}));
}

TEST(MeshCreationConformance, TpuV4TorusDeviceAtEachMeshIndex) {
  // S41: the device at [0][j][k] is the chip (x=k, y=j // 4, z=j % 4).
  const std::vector<Device> mesh = Unwrap(CreateDeviceMesh({1, 16, 4}, PlacedTpus("tpu*64:TPU v4@4x4x4"), "TPU v4"));
  ASSERT_EQ(mesh.size(), 64u);
  for (int64_t j = 0; j < 16; ++j) {
    for (int64_t k = 0; k < 4; ++k) {
      EXPECT_EQ(CoordsOf(mesh[j * 4 + k]), (ChipCoords{k, j / 4, j % 4})) << "[0][" << j << "][" << k << "]";
    }
  }
}

TEST(MeshCreationConformance, TpuV4TorusFollowsCoordinatesNotListOrder) {
  // S41: the physical mesh is built from the coordinates, so the order the
  // devices come in does not matter.
  std::vector<Device> reversed = PlacedTpus("tpu*64:TPU v4@4x4x4");
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(Unwrap(CreateDeviceMesh({1, 16, 4}, reversed, "TPU v4")),
            Unwrap(CreateDeviceMesh({1, 16, 4}, PlacedTpus("tpu*64:TPU v4@4x4x4"), "TPU v4")));
}

TEST(MeshCreationConformance, TpuV4TorusOfAnOffsetBlock) {
  // S41's rule on the second host of a v4 2x2x2 slice (chips z = 1): the
  // coordinates count from the block's corner.
  const std::vector<Device> mesh = Unwrap(CreateDeviceMesh({2, 2}, PlacedTpus("tpu*4:TPU v4@2x2x1+0.0.1"), "TPU v4"));
  // Axis 1 (2) takes x and z (size 1), axis 0 (2) takes y.
  std::vector<ChipCoords> coords;
  for (const Device& d : mesh) coords.push_back(CoordsOf(d));
  EXPECT_THAT(coords, ElementsAre(ChipCoords{0, 0, 1}, ChipCoords{1, 0, 1}, ChipCoords{0, 1, 1}, ChipCoords{1, 1, 1}));
}

// Upstream test_create_device_mesh_for_nd_torus's table, with the
// assignments jax 0.10.2's _create_device_mesh_for_nd_torus returns.
struct TorusCase {
  const char* name;
  std::vector<int64_t> physical;
  std::vector<int64_t> mesh;
  std::vector<std::vector<size_t>> assignment;
};

TEST(MeshCreationConformance, TpuTorusAssignmentTable) {
  const TorusCase cases[] = {
      {"2x2x1", {2, 2, 1}, {1, 1, 4}, {{}, {}, {0, 1, 2}}},
      {"2x2x4", {2, 2, 4}, {1, 4, 4}, {{}, {2}, {0, 1}}},
      {"4x4x4 (S41)", {4, 4, 4}, {1, 16, 4}, {{}, {1, 2}, {0}}},
      {"4x4x8a", {4, 4, 8}, {1, 16, 8}, {{}, {0, 1}, {2}}},
      {"4x4x8b", {4, 4, 8}, {1, 8, 16}, {{}, {2}, {0, 1}}},
      {"4x4x8c", {4, 4, 8}, {16, 8, 1}, {{0, 1}, {2}, {}}},
      {"4x8x8", {4, 8, 8}, {1, 32, 8}, {{}, {0, 2}, {1}}},
      {"8x8x8", {8, 8, 8}, {1, 64, 8}, {{}, {1, 2}, {0}}},
      {"8x8x16", {8, 8, 16}, {1, 64, 16}, {{}, {0, 1}, {2}}},
      {"4x4x4 cube", {4, 4, 4}, {4, 4, 4}, {{2}, {1}, {0}}},
      {"4x4x4 flat", {4, 4, 4}, {64}, {{0, 1, 2}}},
      {"2x2x2x2 (two cores per chip)", {2, 2, 2, 2}, {4, 4}, {{2, 3}, {0, 1}}},
  };
  for (const TorusCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Unwrap(TpuTorusAxisAssignment(c.physical, c.mesh)), c.assignment);
  }
}

TEST(MeshCreationConformance, TpuTorusShapeThatWouldSplitAPhysicalAxis) {
  // S41's rule cannot make 32 of whole 4s: JAX's message, word for word.
  EXPECT_THAT(
      CreateDeviceMesh({2, 32}, PlacedTpus("tpu*64:TPU v4@4x4x4"), "TPU v4"),
      StatusIs(kInvalid,
               "Failed to find assignment for logical_axis_index 1 of size 32 with remaining assignable mesh [4, 4, "
               "4]. The size of each axis in your logical mesh must be equal to the product of some subset of the "
               "physical mesh axis sizes. E.g. logical mesh (4, 16) is compatible with physical mesh 4x4x4 since "
               "4=4 and 16=4x4. If you want to split physical axes, set  allow_split_physical_axes to True."));
  EXPECT_THAT(CreateDeviceMesh({8, 8}, PlacedTpus("tpu*64:TPU v4@4x4x4"), "TPU v4"),
              StatusIs(kInvalid, StartsWith("Failed to find assignment for logical_axis_index 1 of size 8 with "
                                            "remaining assignable mesh [4, 4, 4].")));
}

// jax 0.10.2's _create_device_mesh_for_nd_torus_splitting_axes, as
// [physical axis][logical axis] sizes.
struct SplitCase {
  std::vector<int64_t> physical;
  std::vector<int64_t> mesh;
  std::vector<std::vector<int64_t>> assignment;
};

TEST(MeshCreationConformance, TpuTorusSplitAssignmentTable) {
  const SplitCase cases[] = {
      {{4, 4, 4}, {2, 32}, {{1, 4}, {1, 4}, {2, 2}}},
      {{4, 4}, {2, 2, 4}, {{1, 1, 4}, {2, 2, 1}}},
      {{8, 8}, {2, 2, 16}, {{1, 1, 8}, {2, 2, 2}}},
      {{4, 4, 4}, {8, 8}, {{1, 4}, {2, 2}, {4, 1}}},
      {{2, 2, 4}, {8, 2}, {{1, 2}, {2, 1}, {4, 1}}},
      {{4, 4, 8}, {2, 64}, {{1, 4}, {2, 2}, {1, 8}}},
      {{4, 4, 4}, {32, 2}, {{2, 2}, {4, 1}, {4, 1}}},
      {{16, 16}, {4, 64}, {{1, 16}, {4, 4}}},
      {{2, 2, 2}, {2, 2, 2}, {{1, 1, 2}, {1, 2, 1}, {2, 1, 1}}},
  };
  for (const SplitCase& c : cases) {
    SCOPED_TRACE(absl::StrCat(ShapeToString(c.physical), " -> ", ShapeToString(c.mesh)));
    EXPECT_EQ(Unwrap(TpuTorusSplitAssignment(c.physical, c.mesh)), c.assignment);
  }
  EXPECT_THAT(TpuTorusSplitAssignment({4, 4}, {2, 2, 2}),
              StatusIs(kInvalid, "The number of devices in physical mesh (4, 4) does not match the number of devices "
                                 "in logical mesh (2, 2, 2)."));
  EXPECT_THAT(TpuTorusSplitAssignment({1 << 16, 1 << 16}, {1 << 16, 1 << 16}),
              StatusIs(kInvalid, "Argument 'physical_shape' (65536, 65536) has more than 16777216 devices"));
}

TEST(MeshCreationConformance, TpuTorusSplitsPhysicalAxesWhenAllowed) {
  // 32 of a 4x4x4 slice: z split in two, y and x whole; jax's device order
  // as physical indices x * 16 + y * 4 + z.
  const std::vector<Device> mesh = Unwrap(
      CreateDeviceMesh({2, 32}, PlacedTpus("tpu*64:TPU v4@4x4x4"), "TPU v4", /*allow_split_physical_axes=*/true));
  std::vector<int64_t> physical;
  for (const Device& d : mesh) physical.push_back(CoordsOf(d)[0] * 16 + CoordsOf(d)[1] * 4 + CoordsOf(d)[2]);
  physical.resize(16);
  EXPECT_THAT(physical, ElementsAre(0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29));
}

TEST(MeshCreationConformance, MakeMeshSplitsPhysicalAxesOnV5e) {
  // jax.make_mesh passes allow_split_physical_axes=True for v5e only.
  ScopedEnv devices("TESSERA_DEVICES", "tpu*64:TPU v5 lite@8x8x1");
  EXPECT_THAT(MakeMesh({2, 32}, {"a", "b"}, std::nullopt, "TPU v5 lite"), IsOk());
  ScopedEnv v4("TESSERA_DEVICES", "tpu*64:TPU v4@4x4x4");
  EXPECT_THAT(MakeMesh({2, 32}, {"a", "b"}, std::nullopt, "TPU v4"),
              StatusIs(kInvalid, StartsWith("Failed to find assignment for logical_axis_index 1 of size 32")));
}

// JAX's per-kind orders for small slices, before the torus (jax 0.10.2's
// create_device_mesh over the same stand-in devices).
struct KindCase {
  const char* spec;
  const char* kind;
  std::vector<int64_t> shape;
  std::vector<int64_t> expected;
};

TEST(MeshCreationConformance, TpuKindOrdersForSmallSlices) {
  const KindCase cases[] = {
      {"tpu*4:TPU v5 lite@2x2x1", "TPU v5 lite", {2, 2}, {0, 1, 3, 2}},
      {"tpu*8:TPU v5 lite@4x2x1", "TPU v5 lite", {8}, {0, 1, 2, 3, 7, 6, 5, 4}},
      {"tpu*8:TPU v5 lite@2x2x2", "TPU v5 lite", {2, 4}, {0, 4, 2, 6, 1, 5, 3, 7}},
      {"tpu*16:TPU v5 lite@4x4x1", "TPU v5 lite", {16}, {0, 1, 2, 3, 7, 6, 5, 9, 10, 11, 15, 14, 13, 12, 8, 4}},
      {"tpu*16:TPU v5 lite@4x4x1", "TPU v5 lite", {4, 4}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}},
      {"tpu*8:TPU v6 lite@4x2x1", "TPU v6 lite", {2, 4}, {0, 1, 2, 3, 7, 6, 5, 4}},
      {"tpu*8:TPU v5p@2x2x2", "TPU v5p", {8}, {0, 1, 3, 2, 6, 7, 5, 4}},
      {"tpu*16:TPU7x@2x2x2x2", "TPU7x", {16}, {0, 1, 2, 3, 6, 7, 4, 5, 8, 9, 10, 11, 14, 15, 12, 13}},
  };
  for (const KindCase& c : cases) {
    SCOPED_TRACE(absl::StrCat(c.spec, " ", ShapeToString(c.shape)));
    EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh(c.shape, PlacedTpus(c.spec), c.kind))), ElementsAreArray(c.expected));
  }
  // v5e and v5p sort by chip (z, y, x) first: the list order does not matter.
  std::vector<Device> reversed = PlacedTpus("tpu*8:TPU v5p@2x2x2");
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh({8}, reversed, "TPU v5p"))), ElementsAre(0, 1, 3, 2, 6, 7, 5, 4));
}

TEST(MeshCreationConformance, TpuTorusNeedsAWholeCuboid) {
  // A missing chip: JAX's "hole".
  std::vector<Device> missing = PlacedTpus("tpu*64:TPU v4@4x4x4");
  missing.erase(missing.begin() + 5);
  EXPECT_THAT(CreateDeviceMesh({63}, missing, "TPU v4"),
              StatusIs(kInvalid, "Constructed mesh contains a \"hole\"; probable cause: coordinates of the devices "
                                 "are not a contiguous cuboid: 63 devices span 4x4x4 chips with 1 core per chip (64 "
                                 "places)"));
  // Two devices on one chip, so another chip has none.
  std::vector<Device> twice = PlacedTpus("tpu*4:TPU v4@2x2x1");
  twice[3].coords = ChipCoords{0, 0, 0};
  EXPECT_THAT(CreateDeviceMesh({4}, twice, "TPU v4"),
              StatusIs(kInvalid, "Constructed mesh contains a \"hole\"; probable cause: coordinates of the devices "
                                 "are not a contiguous cuboid: tpu:0 and tpu:3 are both at coords (0, 0, 0), core 0"));
  // Chips far apart.
  std::vector<Device> apart = PlacedTpus("tpu*2:TPU v4@1x1x2");
  apart[1].coords = ChipCoords{0, 0, INT64_MAX};
  apart[0].coords = ChipCoords{0, 0, INT64_MIN};
  EXPECT_THAT(CreateDeviceMesh({2}, apart, "TPU v4"),
              StatusIs(kInvalid, absl::StrCat("Constructed mesh contains a \"hole\"; probable cause: coordinates of "
                                              "the devices are not a contiguous cuboid: 2 devices span coords (0, 0, ",
                                              INT64_MIN, ") to (0, 0, ", INT64_MAX,
                                              ") and cores 0 to 0: more places than devices")));
}

TEST(MeshCreationConformance, TpuV4NeedsOneDevicePerChip) {
  EXPECT_THAT(CreateDeviceMesh({2, 2, 2}, PlacedTpus("tpu*8:TPU v4@2x2x1x2"), "TPU v4"),
              StatusIs(kInvalid, "Creating meshes for TPU >v3 requires one device per chip (\"megacore\" mode). "
                                 "Got device id 1 for a device of kind TPU v4: tpu:1."));
  // Two-core kinds place each core: TPU v5p with two cores per chip.
  const std::vector<Device> v5p = Unwrap(CreateDeviceMesh({2, 4}, PlacedTpus("tpu*8:TPU v5p@2x2x1x2"), "TPU v5p"));
  // Physical (2, 2, 1, 2): axis 1 (4) takes x, y and z (size 1), axis 0 (2) the core.
  std::vector<int64_t> cores;
  for (const Device& d : v5p) cores.push_back(d.core_on_chip);
  EXPECT_THAT(cores, ElementsAre(0, 0, 0, 0, 1, 1, 1, 1));
}

TEST(MeshCreationConformance, TpuTorusNeedsEveryDevicesCoordinates) {
  std::vector<Device> devices = PlacedTpus("tpu*4:TPU v4@2x2x1");
  devices[2].coords.reset();
  EXPECT_THAT(CreateDeviceMesh({4}, devices, "TPU v4"),
              StatusIs(kInvalid, StartsWith("Device tpu:2 has no coordinates, but other TPU devices of the mesh "
                                            "have")));
  // None at all: no topology to follow, so the devices keep their order.
  EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh({2, 2}, Tpus(4), "TPU v4"))), ElementsAre(0, 1, 2, 3));
}

TEST(MeshCreationConformance, TpuV3TrayRingIgnoresCoordinates) {
  // S39 comes first for v2/v3 whatever the devices carry.
  EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh({8}, PlacedTpus("tpu*8:TPU v3@2x2x1x2"), "TPU v3"))),
              ElementsAre(0, 1, 2, 3, 6, 7, 4, 5));
}

TEST(MeshCreationConformance, TpuV4LiteRing) {
  // JAX's _v4i_v8i_create_device_mesh: 4 devices in the ring (0, 1, 3, 2).
  EXPECT_THAT(Ids(Unwrap(CreateDeviceMesh({2, 2}, Tpus(4), "TPU v4 lite"))), ElementsAre(0, 1, 3, 2));
}

// ------------------------------------------------------------------ S43

TEST(MeshCreationConformance, HybridMeshPlacesGranulesInTheDcnGrid) {
  // S43: dcn (1,2) → [[0,1,4,5],[2,3,6,7]].
  const MeshPtr wide = Unwrap(MakeHybridMesh({2, 2}, {1, 2}, {"a", "b"}, TwoHostGpus()));
  EXPECT_THAT(wide->shape(), ElementsAre(2, 4));
  EXPECT_THAT(Ids(wide->devices()), ElementsAre(0, 1, 4, 5, 2, 3, 6, 7));
  // S43: dcn (2,1) → [[0,1],[2,3],[4,5],[6,7]].
  const MeshPtr tall = Unwrap(MakeHybridMesh({2, 2}, {2, 1}, {"a", "b"}, TwoHostGpus()));
  EXPECT_THAT(tall->shape(), ElementsAre(4, 2));
  EXPECT_THAT(Ids(tall->devices()), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
}

TEST(MeshCreationConformance, HybridMeshNeedsOneGranulePerDcnPosition) {
  // S43
  EXPECT_THAT(MakeHybridMesh({2, 2}, {1, 1}, {"a", "b"}, TwoHostGpus()),
              StatusIs(kInvalid, "Number of slices 2 must equal the product of dcn_mesh_shape (1, 1)"));
}

TEST(MeshCreationConformance, HybridMeshSortsGranulesByProcess) {
  // S43: should_sort_granules_by_key=True whatever the input order.
  std::vector<Device> shuffled = TwoHostGpus();
  std::rotate(shuffled.begin(), shuffled.begin() + 4, shuffled.end());
  const MeshPtr mesh = Unwrap(MakeHybridMesh({2, 2}, {1, 2}, {"a", "b"}, shuffled));
  EXPECT_THAT(Ids(mesh->devices()), ElementsAre(0, 1, 4, 5, 2, 3, 6, 7));
}

// ---------------------------------------- mesh-creation table after D99's

TEST(MeshCreationConformance, JaxDeviceCountErrorsAndTruncation) {
  std::vector<Device> six = TwoHostGpus();
  six.resize(6);
  EXPECT_THAT(CreateDeviceMesh({2, 4}, six),
              StatusIs(kInvalid, "Number of devices 6 must equal the product of mesh_shape (2, 4)"));
  EXPECT_THAT(MakeMesh({2, 4}, {"x", "y"}, six),
              StatusIs(kInvalid, "Number of devices 6 must be >= the product of mesh_shape (2, 4)"));
  std::vector<Device> sixteen;
  for (int64_t i = 0; i < 16; ++i) sixteen.push_back(Device{i, Platform::kGpu, i / 8, i % 8});
  const MeshPtr truncated = Unwrap(MakeMesh({2, 4}, {"x", "y"}, sixteen));
  EXPECT_THAT(Ids(truncated->devices()), ElementsAre(0, 1, 2, 3, 4, 5, 6, 7));
}

// ------------------------------------------------------------------ S45

TEST(MeshCreationConformance, TorchCoordinateLocalRankAndGroups) {
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  // S45: rank 6.
  EXPECT_THAT(Unwrap(mesh->CoordinatesOf(6)), ElementsAre(1, 2));
  EXPECT_EQ(Unwrap(LocalRankOf(*mesh, "dp", 6)), 1);
  EXPECT_EQ(Unwrap(LocalRankOf(*mesh, "tp", 6)), 2);
  EXPECT_THAT(Unwrap(AxisGroups(*mesh, "dp")),
              ElementsAre(ElementsAre(0, 4), ElementsAre(1, 5), ElementsAre(2, 6),
                          ElementsAre(3, 7)));
  EXPECT_THAT(Unwrap(AxisGroups(*mesh, "tp")),
              ElementsAre(ElementsAre(0, 1, 2, 3), ElementsAre(4, 5, 6, 7)));
  EXPECT_THAT(Ids(Unwrap(SliceMesh(*mesh, {"tp"}, 6))->devices()), ElementsAre(4, 5, 6, 7));
  EXPECT_THAT(Ids(Unwrap(SliceMesh(*mesh, {"dp"}, 6))->devices()), ElementsAre(2, 6));
}

struct SliceCase {
  int64_t rank;
  std::vector<int64_t> expected;
};

TEST(MeshCreationConformance, TorchTwoDimSliceDependsOnTheRank) {
  // S45: (2,2,2) ("dp","pp","cp"), mesh["dp","cp"].
  const MeshPtr mesh = CpuMesh({2, 2, 2}, {"dp", "pp", "cp"});
  const SliceCase cases[] = {{0, {0, 1, 4, 5}}, {1, {0, 1, 4, 5}}, {4, {0, 1, 4, 5}},
                             {5, {0, 1, 4, 5}}, {2, {2, 3, 6, 7}}, {3, {2, 3, 6, 7}},
                             {6, {2, 3, 6, 7}}, {7, {2, 3, 6, 7}}};
  for (const SliceCase& c : cases) {
    SCOPED_TRACE(c.rank);
    const MeshPtr sub = Unwrap(SliceMesh(*mesh, {"dp", "cp"}, c.rank));
    EXPECT_THAT(sub->shape(), ElementsAre(2, 2));
    EXPECT_THAT(sub->axis_names(), ElementsAre("dp", "cp"));
    EXPECT_THAT(Ids(sub->devices()), ElementsAreArray(c.expected));
  }
}

TEST(MeshCreationConformance, TorchSliceNamesMustBeAscending) {
  // S45
  const MeshPtr mesh = CpuMesh({2, 2, 2}, {"dp", "pp", "cp"});
  EXPECT_THAT(SliceMesh(*mesh, {"cp", "dp"}, 0),
              StatusIs(kInvalid, "Invalid mesh_dim_names ('cp', 'dp') specified. Mesh dim "
                                 "indices should be in ascending order."));
}

TEST(MeshCreationConformance, TorchFlattenNamesTheJoinedDims) {
  // S45: (2,2,2) ("dp","cp","tp"), mesh["dp","cp"]._flatten().
  const MeshPtr mesh = CpuMesh({2, 2, 2}, {"dp", "cp", "tp"});
  const SliceCase cases[] = {{0, {0, 2, 4, 6}}, {2, {0, 2, 4, 6}}, {4, {0, 2, 4, 6}},
                             {6, {0, 2, 4, 6}}, {1, {1, 3, 5, 7}}, {3, {1, 3, 5, 7}},
                             {5, {1, 3, 5, 7}}, {7, {1, 3, 5, 7}}};
  for (const SliceCase& c : cases) {
    SCOPED_TRACE(c.rank);
    const MeshPtr flat = Unwrap(FlattenMesh(*Unwrap(SliceMesh(*mesh, {"dp", "cp"}, c.rank))));
    EXPECT_THAT(flat->axis_names(), ElementsAre("dp_cp"));
    EXPECT_THAT(Ids(flat->devices()), ElementsAreArray(c.expected));
  }
}

TEST(MeshCreationConformance, TorchRankOutsideTheMeshHasNoCoordinate) {
  // S45: get_coordinate() is None; Tessera answers NOT_FOUND.
  const MeshPtr mesh = CpuMesh({2, 4}, {"dp", "tp"});
  EXPECT_THAT(mesh->CoordinatesOf(8), StatusIs(absl::StatusCode::kNotFound, ::testing::_));
}

// ------------------------------------------------------------- DTensor

TEST(MeshCreationConformance, DTensorLocalDevicesWithTwoLogicalDevices) {
  // D85, for each type T.
  const ProcessInfo before = RuntimeProcessInfo();
  {
    ScopedCpuDevices cpus(2);
    EXPECT_THAT(Unwrap(DTensorLocalDevices("CPU")),
                ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0",
                            "/job:localhost/replica:0/task:0/device:CPU:1"));
  }
  {
    ScopedEnv gpus("TESSERA_DEVICES", "gpu*2");
    EXPECT_THAT(Unwrap(DTensorLocalDevices("GPU")),
                ElementsAre("/job:localhost/replica:0/task:0/device:GPU:0",
                            "/job:localhost/replica:0/task:0/device:GPU:1"));
  }
  {
    ScopedEnv tpus("TESSERA_DEVICES", "tpu*2");
    EXPECT_THAT(Unwrap(DTensorLocalDevices("TPU")),
                ElementsAre("/job:localhost/replica:0/task:0/device:TPU:0",
                            "/job:localhost/replica:0/task:0/device:TPU:1"));
  }
  // None of these calls initialises the runtime.
  EXPECT_EQ(RuntimeProcessInfo().num_processes, before.num_processes);
}

TEST(MeshCreationConformance, DTensorCreateMeshDefaults) {
  // D89: n = 4 local CPUs.
  ScopedCpuDevices cpus(4);
  const DTensorMesh mesh = Unwrap(DTensorCreateMesh({}));
  EXPECT_THAT(mesh.dims(), ElementsAre(DTensorMeshDim{"x", 4}));
  EXPECT_EQ(mesh.name(), "");
  EXPECT_THAT(mesh.global_ids(), ElementsAre(0, 1, 2, 3));
  EXPECT_THAT(mesh.local_ids(), ElementsAre(0, 1, 2, 3));
  EXPECT_EQ(mesh.local_devices().size(), 4u);
}

TEST(MeshCreationConformance, DTensorCreateMeshErrorsAndWildcard) {
  ScopedCpuDevices cpus(4);
  DTensorCreateMeshOptions three;  // D91
  three.dims = std::vector<DTensorMeshDim>{{"x", 3}};
  EXPECT_THAT(DTensorCreateMesh(three),
              StatusIs(kInvalid, "length of devices (4) must be equal to total size of the mesh of "
                                 "shape [3]"));
  DTensorCreateMeshOptions wildcard;  // D91
  wildcard.dims = std::vector<DTensorMeshDim>{{"x", -1}};
  EXPECT_THAT(Unwrap(DTensorCreateMesh(wildcard)).dims(), ElementsAre(DTensorMeshDim{"x", 4}));
  DTensorCreateMeshOptions conflicting;  // D91
  conflicting.devices = std::vector<std::string>{"CPU:0"};
  conflicting.device_type = "GPU";
  EXPECT_THAT(DTensorCreateMesh(conflicting), StatusIs(kInvalid, StartsWith("Conflicting devices")));
}

TEST(MeshCreationConformance, DTensorSingleClientDistributedMesh) {
  ScopedCpuDevices cpus(4);
  DTensorDistributedMeshOptions list;  // D93
  list.dims = {{"x", 4}};
  const DTensorMesh x = Unwrap(DTensorCreateDistributedMesh(list));
  EXPECT_EQ(x.local_ids().size(), 4u);
  EXPECT_EQ(x.global_ids().size(), 4u);
  DTensorDistributedMeshOptions dict;  // D93: {"x": n, "y": 1} keeps insertion order
  dict.dims = {{"x", 4}, {"y", 1}};
  const DTensorMesh xy = Unwrap(DTensorCreateDistributedMesh(dict));
  EXPECT_THAT(xy.dims(), ElementsAre(DTensorMeshDim{"x", 4}, DTensorMeshDim{"y", 1}));
  EXPECT_EQ(xy.global_ids().size(), 4u);
  DTensorDistributedMeshOptions wrong;  // D95
  wrong.dims = {{"x", 8}};
  EXPECT_THAT(DTensorCreateDistributedMesh(wrong),
              StatusIs(kInvalid, "Global number of devices (4 per client * 1 clients = 4) must be "
                                 "equal to total size of the mesh of shape (8,)"));
  DTensorDistributedMeshOptions spmd;  // D97
  spmd.dims = {{"x", 2}};
  spmd.local_devices = std::vector<std::string>{"CPU:0", "CPU:1"};
  spmd.use_xla_spmd = true;
  EXPECT_THAT(DTensorCreateDistributedMesh(spmd),
              StatusIs(kInvalid, StartsWith("XLA SPMD is not currently not supported for")));
}

struct DistributedCase {
  const char* vector;
  std::vector<DTensorMeshDim> dims;
  int64_t num_clients;
  int64_t client_id;
  int64_t local_devices;
  std::vector<int64_t> global_ids;
  std::vector<int64_t> local_ids;
  const char* error;  // nullptr: success
};

TEST(MeshCreationConformance, DTensorDistributedMeshCurrent) {
  const DistributedCase cases[] = {
      {"D99 x=8 2 clients, client 0", {{"x", 8}}, 2, 0, 4, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3},
       nullptr},
      {"D99 x=8 2 clients, client 1", {{"x", 8}}, 2, 1, 4, {0, 1, 2, 3, 4, 5, 6, 7}, {4, 5, 6, 7},
       nullptr},
      {"D99 batch=2,model=4 4 clients, client 3", {{"batch", 2}, {"model", 4}}, 4, 3, 2,
       {0, 1, 2, 3, 4, 5, 6, 7}, {6, 7}, nullptr},
      {"D99 batch=2,model=4 4 clients, client 1", {{"batch", 2}, {"model", 4}}, 4, 1, 2,
       {0, 1, 2, 3, 4, 5, 6, 7}, {2, 3}, nullptr},
      {"D99 3 devices per client", {{"x", 8}}, 2, 0, 3, {}, {},
       "Global number of devices (3 per client * 2 clients = 6) must be equal to total size of "
       "the mesh of shape (8,)"},
  };
  for (const DistributedCase& c : cases) {
    SCOPED_TRACE(c.vector);
    ScopedCpuDevices cpus(c.local_devices);
    ScopedProcess process(c.num_clients, c.client_id);
    DTensorDistributedMeshOptions options;
    options.dims = c.dims;
    auto mesh = DTensorCreateDistributedMesh(options);
    if (c.error != nullptr) {
      EXPECT_THAT(mesh, StatusIs(kInvalid, c.error));
      continue;
    }
    ASSERT_TRUE(mesh.ok()) << mesh.status();
    EXPECT_THAT(mesh->global_ids(), ElementsAreArray(c.global_ids));
    EXPECT_THAT(mesh->local_ids(), ElementsAreArray(c.local_ids));
    EXPECT_EQ(mesh->local_devices().front(),
              absl::StrCat("/job:worker/replica:0/task:", c.client_id, "/device:CPU:0"));
  }
}

TEST(MeshCreationConformance, DTensorDistributedMeshCurrentDeviceTypeErrors) {
  ScopedCpuDevices cpus(2);
  DTensorDistributedMeshOptions tpu;  // D99
  tpu.dims = {{"x", 2}};
  tpu.device_type = "TPU";
  tpu.local_devices = std::vector<std::string>{"TPU:0"};
  EXPECT_THAT(DTensorCreateDistributedMesh(tpu),
              StatusIs(kInvalid, "Do not specify devices for TPU meshes. Using a partial list of "
                                 "devices for TPU is not supported."));
  DTensorDistributedMeshOptions xpu;  // D99
  xpu.dims = {{"x", 2}};
  xpu.device_type = "XPU";
  EXPECT_THAT(DTensorCreateDistributedMesh(xpu),
              StatusIs(kInvalid, "Device type XPU is not CPU, GPU, or TPU."));
}

struct LegacyCase {
  const char* vector;
  std::vector<DTensorMeshDim> dims;
  std::optional<int64_t> num_global;
  int64_t num_clients;
  int64_t client_id;
  int64_t local_devices;     // this host's CPU count
  int64_t runtime_processes; // 1: multi-client never initialised
  std::vector<int64_t> global_ids;
  std::vector<int64_t> local_ids;
  absl::StatusCode code;
  const char* error;  // nullptr: success
};

TEST(MeshCreationConformance, DTensorDistributedMeshLegacy) {
  const std::vector<int64_t> eight = {0, 1, 2, 3, 4, 5, 6, 7};
  const absl::StatusCode ok = absl::StatusCode::kOk;
  const LegacyCase cases[] = {
      {"D99 legacy client 0", {{"x", 8}}, 8, 2, 0, 4, 2, eight, {0, 1, 2, 3}, ok, nullptr},
      {"D99 legacy client 1", {{"x", 8}}, 8, 2, 1, 4, 2, eight, {4, 5, 6, 7}, ok, nullptr},
      {"D99 legacy b,m client 3", {{"b", 2}, {"m", 4}}, 8, 4, 3, 2, 4, eight, {6, 7}, ok, nullptr},
      {"D99 legacy one client", {{"x", 4}}, 4, 1, 0, 4, 1, {0, 1, 2, 3}, {0, 1, 2, 3}, ok, nullptr},
      {"D99 legacy 0 devices", {{"x", 8}}, 0, 2, 0, 4, 2, {}, {}, kInvalid,
       "num_global_devices (0) must be > 0"},
      {"D99 legacy 6 devices", {{"x", 8}}, 6, 2, 0, 4, 2, {}, {}, kInvalid,
       "num_global_devices (6) must be equal to total size of the mesh of shape (8,)"},
      {"D99 legacy 6 devices 2-D", {{"b", 2}, {"m", 4}}, 6, 2, 0, 4, 2, {}, {}, kInvalid,
       "num_global_devices (6) must be equal to total size of the mesh of shape (2, 4)"},
      {"D99 legacy 0 clients", {{"x", 8}}, 8, 0, 0, 4, 2, {}, {}, kInvalid,
       "num_clients (0) must be > 0"},
      {"D99 legacy client -1", {{"x", 8}}, 8, 2, -1, 4, 2, {}, {}, kInvalid,
       "client_id (-1) must be >= 0"},
      {"D99 legacy client 2", {{"x", 8}}, 8, 2, 2, 4, 2, {}, {}, kInvalid,
       "client_id (2) must be < 2"},
      {"D99 legacy 3 clients", {{"x", 8}}, 8, 3, 0, 4, 3, {}, {}, kInvalid,
       "num_global_devices (8) must be divisible by num_clients (3)"},
      {"D99 legacy 2 local devices", {{"x", 8}}, 8, 2, 0, 2, 2, {}, {}, kInvalid,
       "Not enough devices; 4 needed, only 2 available"},
      {"D99 legacy never initialised", {{"x", 8}}, 8, 2, 0, 4, 1, {}, {},
       absl::StatusCode::kFailedPrecondition,
       "Invalid multi-client topology, run dtensor.initialize_multi_client() first"},
  };
  for (const LegacyCase& c : cases) {
    SCOPED_TRACE(c.vector);
    ScopedCpuDevices cpus(c.local_devices);
    ScopedProcess process(c.runtime_processes, 0);
    DTensorLegacyDistributedMeshOptions options;
    options.dims = c.dims;
    options.num_global_devices = c.num_global;
    options.num_clients = c.num_clients;
    options.client_id = c.client_id;
    auto mesh = DTensorCreateLegacyDistributedMesh(options);
    if (c.error != nullptr) {
      EXPECT_THAT(mesh, StatusIs(c.code, c.error));
      continue;
    }
    ASSERT_TRUE(mesh.ok()) << mesh.status();
    EXPECT_THAT(mesh->global_ids(), ElementsAreArray(c.global_ids));
    EXPECT_THAT(mesh->local_ids(), ElementsAreArray(c.local_ids));
    // The first num_global / num_clients of this client's devices.
    EXPECT_EQ(mesh->local_devices().size(), c.local_ids.size());
  }
}

TEST(MeshCreationConformance, DTensorDistributedMeshLegacyTpuArguments) {
  // D99: TPU meshes take their topology from the environment.
  DTensorLegacyDistributedMeshOptions options;
  options.dims = {{"x", 8}};
  options.device_type = "TPU";
  options.num_global_devices = 8;
  EXPECT_THAT(DTensorCreateLegacyDistributedMesh(options),
              StatusIs(kInvalid, "Do not specify num_global_devices for TPU meshes. It will be "
                                 "filled in automatically from environmental variables.See api.py "
                                 "for the list of environmental variables for DTensor."));
}

}  // namespace
}  // namespace tessera
