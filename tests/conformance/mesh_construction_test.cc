// Mesh-creation conformance: sharding_cases.md S39, S43, S45 and the
// mesh-creation error table after D99's; dtensor_cases.md D85, D89-D99.
// Each row names its vector.
//
// Deferred: S41 (TPU v4 torus axis assignment needs chip coordinates, which
// Device does not carry). D87 (DTENSOR_JOBS) is initialize_env_test.cc's.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/distribution.h"
#include "core/mesh_construction.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::StartsWith;
using testing::CpuMesh;
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
