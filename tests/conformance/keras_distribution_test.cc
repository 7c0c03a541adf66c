// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Keras conformance: DataParallel, ModelParallel, num_data_shards and
// data_shard_id (keras_cases.md K15, K17, K19, K21, K23, K25, K27, K29, K53
// (ids), K77, K79, K89, K115, K129, K145, K147, K149, K151, K159).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/distribution.h"
#include "core/layout_map.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/conformance/keras_conformance.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using conformance::Forced;
using conformance::MakeDistribution;
using conformance::Policy;
using testing::CpuMesh;
using testing::CpuNames;
using testing::Cpus;
using testing::IsOk;
using testing::Layout;
using testing::ScopedCpuDevices;
using testing::StatusIs;
using testing::Unwrap;

// ---------------------------------------------------------------------------
// num_data_shards = min(R, P); data_shard_id = pid if R >= P else
// pid // (P // R) (HEAD's contiguous replica groups).
struct ShardIdCase {
  const char* name;
  Policy policy;
  std::vector<int64_t> mesh;  // R = mesh[0] (DataParallel: all devices)
  int64_t num_processes;
  int64_t num_data_shards;
  std::vector<int64_t> shard_ids;  // by process id
};

// Failure messages name the vector, not the bytes of the row.
void PrintTo(const ShardIdCase& c, std::ostream* os) { *os << c.name; }

const ShardIdCase kShardIdCases[] = {
    // K15: R=2, P=4.
    {"K15_TwoReplicasFourProcesses", Policy::kDataParallel, {2}, 4, 2, {0, 0, 1, 1}},
    // K159: (P=6, R=2), (P=3, R=8), (P=1, R=any).
    {"K159_SixProcessesTwoReplicas", Policy::kDataParallel, {2}, 6, 2, {0, 0, 0, 1, 1, 1}},
    {"K159_ThreeProcessesEightReplicas", Policy::kDataParallel, {8}, 3, 3, {0, 1, 2}},
    {"K159_OneProcessDataParallel", Policy::kDataParallel, {8}, 1, 1, {0}},
    {"K159_OneProcessModelParallel", Policy::kModelParallel, {2, 4}, 1, 1, {0}},
    // K129: mesh (2, 4), P=4: HEAD's pid // (P // R). (Keras 3.5-3.14 used
    // pid % (P // R) = 0,1,0,1; Tessera has no mode for that interim bug.)
    {"K129_ContiguousReplicaGroups", Policy::kModelParallel, {2, 4}, 4, 2, {0, 0, 1, 1}},
    // K53's ids: mesh (2, 4), P=8; pid 5 reads shard 5 // 4 = 1.
    {"K53_EightProcessesTwoReplicas", Policy::kModelParallel, {2, 4}, 8, 2, {0, 0, 0, 0, 1, 1, 1, 1}},
};

class ShardIdTest : public ::testing::TestWithParam<ShardIdCase> {};

TEST_P(ShardIdTest, ShardsAndIdsMatchKeras) {
  const ShardIdCase& c = GetParam();
  std::vector<int64_t> ids;
  for (int64_t pid = 0; pid < c.num_processes; ++pid) {
    DistributionPtr dist = Unwrap(MakeDistribution(c.policy, c.mesh, Forced(c.num_processes, pid)));
    EXPECT_EQ(dist->num_data_shards(), c.num_data_shards) << "pid " << pid;
    ids.push_back(dist->data_shard_id());
  }
  EXPECT_THAT(ids, ElementsAreArray(c.shard_ids));
}

INSTANTIATE_TEST_SUITE_P(Keras, ShardIdTest, ::testing::ValuesIn(kShardIdCases),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// DataParallel (DP = DeviceMesh((8,), ["data"], devs(8))).

// K17: DataParallel(devices=devs(8)).
TEST(KerasDataParallelTest, K17_DevicesMakeAOneAxisBatchMesh) {
  ScopedCpuDevices cpus(8);
  DistributionPtr dist = Unwrap(Distribution::DataParallelOverDevices(Unwrap(ParseDevices(CpuNames(8)))));
  EXPECT_EQ(dist->mesh()->size(), 8);
  EXPECT_THAT(dist->mesh()->axis_names(), ElementsAre("batch"));
  EXPECT_EQ(dist->batch_dim_name(), "batch");
}

// K19: get_data_layout((4, 2, 2)) on DP.
TEST(KerasDataParallelTest, K19_DataLayoutShardsTheFirstDimension) {
  MeshPtr dp = CpuMesh({8}, {"data"});
  TensorLayout layout = Unwrap(Unwrap(Distribution::DataParallel(dp))->DataLayout({4, 2, 2}));
  EXPECT_EQ(layout.mesh(), dp);
  EXPECT_EQ(layout, Layout({"data", "", ""}, dp));
}

// K21: a variable of shape (3,) with explicit layout E = TensorLayout(["x"],
// X), X = DeviceMesh((8,), ["x"], devs(8)). Keras returns E as is. Tessera
// checks layouts against shapes (ARCHITECTURE.md): in the default strict mode
// 3 rows over 8 devices is refused; in chunk mode E comes back unchanged.
TEST(KerasDataParallelTest, K21_ExplicitLayoutIsReturnedAsIsInChunkMode) {
  auto e = std::make_shared<const TensorLayout>(Layout({"x"}, CpuMesh({8}, {"x"})));
  DistributionOptions chunk;
  chunk.shape_check = ShapeCheck::kChunk;
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"data"}), chunk));
  LayoutPtr layout = Unwrap(dist->VariableLayout("v", {3}, e));
  EXPECT_EQ(layout, e);
  EXPECT_EQ(layout->mesh(), e->mesh());
}

TEST(KerasDataParallelTest, K21_StrictModeRefusesTheUnevenExplicitLayout) {
  auto e = std::make_shared<const TensorLayout>(Layout({"x"}, CpuMesh({8}, {"x"})));
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"data"})));
  EXPECT_THAT(dist->VariableLayout("v", {3}, e),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not divisible by 8")));
}

// K23: DataParallel has no tensor layouts.
TEST(KerasDataParallelTest, K23_TensorLayoutIsNone) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"data"})));
  EXPECT_EQ(Unwrap(dist->TensorLayoutForPath("path/to/tensor")), nullptr);
}

// K77: DataParallel() replicates every weight of the MNIST model.
TEST(KerasDataParallelTest, K77_EveryWeightIsReplicated) {
  ScopedCpuDevices cpus(8);
  DistributionPtr dist = Unwrap(Distribution::DataParallelOverAllDevices());
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense/kernel", {784, 200})), Layout({"", ""}, dist->mesh()));
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense_1/kernel", {200, 10})), Layout({"", ""}, dist->mesh()));
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense_1/bias", {10})), Layout({""}, dist->mesh()));
}

// keras.md §1.7: DataParallel(device_mesh=<2-D mesh>) meant to warn and use
// the first axis, but raises TypeError (warnings.warn(msg, ndim)). Tessera
// decides against Keras's accident (ARCHITECTURE.md): it warns and goes on,
// with every device a replica.
TEST(KerasDataParallelTest, MultiAxisMeshWarnsInsteadOfTypeError) {
  testing::ScopedLogCapture log;
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({4, 2}, {"batch", "model"})));
  EXPECT_EQ(dist->batch_dim_name(), "batch");
  EXPECT_EQ(dist->num_model_replicas(), 8);
  EXPECT_THAT(log.entries(),
              ElementsAre(::testing::Pair(LogLevel::kWarning,
                                          HasSubstr("Expect the input mesh to be 1D, but received "
                                                    "mesh.devices.ndim=2."))));
}

// K149: DataParallel(device_mesh=<not a DeviceMesh>). In C++ the only
// non-mesh is a null pointer.
TEST(KerasDataParallelTest, K149_NonMeshIsRejected) {
  EXPECT_THAT(Distribution::DataParallel(nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'mesh' is NULL")));
}

// K151: DataParallel(devices=[]) falls back to list_devices().
TEST(KerasDataParallelTest, K151_EmptyDeviceListMeansAllDevices) {
  ScopedCpuDevices cpus(8);
  DistributionPtr dist = Unwrap(Distribution::DataParallelOverDevices({}));
  EXPECT_EQ(dist->mesh()->devices(), Cpus(8));
}

// ---------------------------------------------------------------------------
// ModelParallel (MP = DeviceMesh((2, 4), ["data", "model"], devs(8))).

// K25: empty LayoutMap(MP), batch_dim_name="data", get_data_layout((4, 2, 2)).
TEST(KerasModelParallelTest, K25_DataLayoutShardsOnTheBatchAxis) {
  MeshPtr mp = CpuMesh({2, 4}, {"data", "model"});
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(LayoutMap(mp), "data"));
  TensorLayout layout = Unwrap(dist->DataLayout({4, 2, 2}));
  EXPECT_EQ(layout.mesh(), mp);
  EXPECT_EQ(layout, Layout({"data", "", ""}, mp));
}

// K27: lm[".*kernel"] = (None, "model"); variable "kernel" of shape (3,)
// with an explicit layout on an ["x"] mesh of 8: the explicit layout wins.
// As K21, Tessera's strict check refuses 3 over 8; chunk mode returns it.
TEST(KerasModelParallelTest, K27_ExplicitLayoutWinsOverTheMap) {
  LayoutMap map(CpuMesh({2, 4}, {"data", "model"}));
  ASSERT_THAT(map.Set(".*kernel", Layout({"", "model"})), IsOk());
  auto e = std::make_shared<const TensorLayout>(Layout({"x"}, CpuMesh({8}, {"x"})));
  DistributionOptions chunk;
  chunk.shape_check = ShapeCheck::kChunk;
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map, "data", chunk));
  LayoutPtr layout = Unwrap(dist->VariableLayout("kernel", {3}, e));
  EXPECT_EQ(layout, e);
  EXPECT_THAT(layout->mesh()->axis_names(), ElementsAre("x"));
}

TEST(KerasModelParallelTest, K27_StrictModeRefusesTheUnevenExplicitLayout) {
  LayoutMap map(CpuMesh({2, 4}, {"data", "model"}));
  ASSERT_THAT(map.Set(".*kernel", Layout({"", "model"})), IsOk());
  auto e = std::make_shared<const TensorLayout>(Layout({"x"}, CpuMesh({8}, {"x"})));
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map, "data"));
  EXPECT_THAT(dist->VariableLayout("kernel", {3}, e),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not divisible by 8")));
}

// K29: the backend reports 2 processes; mesh (4, 2), batch "data".
class KerasRuntimeTest : public ::testing::Test {
 protected:
  void TearDown() override { SetRuntimeProcessInfo(ProcessInfo{1, 0}); }
};

TEST_F(KerasRuntimeTest, K29_ReplicasAndProcessesFromTheRuntime) {
  SetRuntimeProcessInfo(ProcessInfo{2, 0});
  DistributionPtr dist =
      Unwrap(Distribution::ModelParallel(LayoutMap(CpuMesh({4, 2}, {"data", "model"})), "data"));
  EXPECT_EQ(dist->num_model_replicas(), 4);
  EXPECT_EQ(dist->num_processes(), 2);
}

// K79 (with K78's map): the Dense output path "<layer path>/output" gets
// ("batch", None); kernels and biases their rules. HEAD's fullmatch keys.
TEST(KerasModelParallelTest, K79_OutputPathGetsItsRule) {
  MeshPtr mesh = CpuMesh({4, 2}, {"batch", "model"});
  LayoutMap map(mesh, KeyMatch::kFullMatch);
  ASSERT_THAT(map.Set(".*dense.*kernel", Layout({"", "model"})), IsOk());
  ASSERT_THAT(map.Set(".*dense.*bias", Layout({"model"})), IsOk());
  ASSERT_THAT(map.Set(".*dense.*output", Layout({"batch", ""})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  EXPECT_EQ(*Unwrap(dist->TensorLayoutForPath("dense/output")), Layout({"batch", ""}, mesh));
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense/kernel", {784, 200})), Layout({"", "model"}, mesh));
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense_1/bias", {10})), Layout({"model"}, mesh));
}

// K89: mesh (8 / m, m), empty LayoutMap, ModelParallel(layout_map=lm): batch
// axis "batch", R = 8 / m, every weight replicated.
class K89Test : public ::testing::TestWithParam<int64_t> {};

TEST_P(K89Test, EmptyMapReplicatesEveryWeight) {
  const int64_t model_dim = GetParam();
  MeshPtr mesh = CpuMesh({8 / model_dim, model_dim}, {"batch", "model"});
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(LayoutMap(mesh)));
  EXPECT_EQ(dist->batch_dim_name(), "batch");
  EXPECT_EQ(dist->num_model_replicas(), 8 / model_dim);
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense/kernel", {784, 200})), Layout({"", ""}, mesh));
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense/bias", {200})), Layout({""}, mesh));
}

INSTANTIATE_TEST_SUITE_P(Keras, K89Test, ::testing::Values(1, 2, 4, 8),
                         [](const auto& info) { return "K89_ModelDim" + std::to_string(info.param); });

// K115: R=3, P=4: Keras 3.15's constructor check. Keras raises ValueError;
// Tessera reports FAILED_PRECONDITION with Keras's message.
TEST(KerasModelParallelTest, K115_ProcessesNotAMultipleOfReplicasAreRejected) {
  EXPECT_THAT(Distribution::ModelParallel(LayoutMap(CpuMesh({3, 2}, {"batch", "model"})), "",
                                          Forced(4, 3)),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("If `num_processes` is greater than `num_model_replicas`, "
                                 "`num_processes` must be divisible by `num_model_replicas`. "
                                 "Got num_processes=4, num_model_replicas=3.")));
}

// K145: the mesh comes from the layout map (Keras ignores a device_mesh
// keyword; the C++ call has no such argument).
TEST(KerasModelParallelTest, K145_MeshComesFromTheLayoutMap) {
  LayoutMap map(CpuMesh({2, 4}, {"data", "model"}));
  EXPECT_EQ(Unwrap(Distribution::ModelParallel(map))->mesh(), map.mesh());
}

// K147: batch_dim_name="x". Keras constructs (single process) and fails
// later; Tessera decides against Keras and rejects the unknown batch axis at
// construction (ARCHITECTURE.md), single- and multi-process alike.
TEST(KerasModelParallelTest, K147_UnknownBatchAxisIsRejectedAtConstruction) {
  LayoutMap map(CpuMesh({2, 4}, {"data", "model"}));
  const auto unknown_axis = HasSubstr("Argument 'batch_dim_name' 'x' is not an axis of the mesh");
  EXPECT_THAT(Distribution::ModelParallel(map, "x"),
              StatusIs(absl::StatusCode::kInvalidArgument, unknown_axis));
  EXPECT_THAT(Distribution::ModelParallel(map, "x", Forced(2, 0)),
              StatusIs(absl::StatusCode::kInvalidArgument, unknown_axis));
}

}  // namespace
}  // namespace tessera
