// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Distributions: DataParallel and ModelParallel construction, replicas and
// data shards, the layouts they answer with, the dataset plan they build, and
// their repr.
#include "core/distribution.h"

#include <cstdint>
#include <memory>
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
using ::testing::IsEmpty;
using ::testing::Pair;
using testing::Cpu;
using testing::CpuMesh;
using testing::Cpus;
using testing::IsOk;
using testing::Layout;
using testing::ScopedCpuDevices;
using testing::ScopedLogCapture;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

DistributionOptions ForcedProcess(int64_t num_processes, int64_t process_id) {
  DistributionOptions options;
  options.process = ProcessInfo{num_processes, process_id};
  return options;
}

// Restores the runtime's process info after tests that change it.
class RuntimeProcessTest : public ::testing::Test {
 protected:
  void TearDown() override { SetRuntimeProcessInfo(ProcessInfo{1, 0}); }
};

TEST(DataParallelTest, UsesTheMeshAndItsFirstAxis) {
  MeshPtr mesh = CpuMesh({8}, {"data"});
  DistributionPtr dist = Unwrap(Distribution::DataParallel(mesh));
  EXPECT_EQ(dist->kind(), DistributionKind::kDataParallel);
  EXPECT_EQ(dist->mesh(), mesh);
  EXPECT_EQ(dist->batch_dim_name(), "data");
  EXPECT_EQ(dist->layout_map(), nullptr);
}

TEST(DataParallelTest, ReplicasAreEveryDeviceOfTheMesh) {
  EXPECT_EQ(Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})))->num_model_replicas(), 8);
}

// Keras means to warn here, but its warnings.warn(msg, ndim) call raises
// TypeError; Tessera decides to warn through the log (ARCHITECTURE.md).
TEST(DataParallelTest, MultiAxisMeshLogsAWarningAndUsesTheFirstAxis) {
  ScopedLogCapture log;
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({4, 2}, {"batch", "model"})));
  EXPECT_EQ(dist->batch_dim_name(), "batch");
  EXPECT_THAT(log.entries(),
              ElementsAre(Pair(LogLevel::kWarning,
                               "Expect the input mesh to be 1D, but received mesh.devices.ndim=2. "
                               "The first axis will be used for data-parallel sharding.")));
}

TEST(DataParallelTest, OneAxisMeshLogsNothing) {
  ScopedLogCapture log;
  ASSERT_THAT(Distribution::DataParallel(CpuMesh({8}, {"batch"})), IsOk());
  EXPECT_THAT(log.entries(), IsEmpty());
}

// Keras counts every device as a replica, whatever the mesh's rank.
TEST(DataParallelTest, MultiAxisMeshStillCountsEveryDeviceAsAReplica) {
  ScopedLogCapture log;
  EXPECT_EQ(Unwrap(Distribution::DataParallel(CpuMesh({4, 2}, {"batch", "model"})))->num_model_replicas(), 8);
}

TEST(DataParallelTest, NullMeshIsRejected) {
  EXPECT_THAT(Distribution::DataParallel(nullptr), StatusIs(kInvalid, HasSubstr("'mesh' is NULL")));
}

TEST(DataParallelTest, OverDevicesBuildsAOneAxisBatchMesh) {
  DistributionPtr dist = Unwrap(Distribution::DataParallelOverDevices(Cpus(4)));
  EXPECT_THAT(dist->mesh()->shape(), ElementsAre(4));
  EXPECT_THAT(dist->mesh()->axis_names(), ElementsAre("batch"));
  EXPECT_EQ(dist->mesh()->devices(), Cpus(4));
  EXPECT_EQ(dist->batch_dim_name(), "batch");
}

// Keras: an empty device list is falsy, so DataParallel(devices=[]) falls back
// to every device (K151).
TEST(DataParallelTest, OverNoDevicesFallsBackToAllDevices) {
  ScopedCpuDevices cpus(4);
  DistributionPtr dist = Unwrap(Distribution::DataParallelOverDevices({}));
  EXPECT_EQ(dist->mesh()->devices(), Cpus(4));
}

TEST(DataParallelTest, OverDuplicateDevicesIsRejected) {
  EXPECT_THAT(Distribution::DataParallelOverDevices({Cpu(0), Cpu(0)}), StatusIs(kInvalid, HasSubstr("cpu:0")));
}

TEST(DataParallelTest, OverAllDevicesUsesTheListedDevices) {
  ScopedCpuDevices cpus(8);
  DistributionPtr dist = Unwrap(Distribution::DataParallelOverAllDevices());
  EXPECT_EQ(dist->mesh()->devices(), Cpus(8));
  EXPECT_THAT(dist->mesh()->axis_names(), ElementsAre("batch"));
}

TEST(DataParallelTest, OverAllDevicesWithoutAnyDeviceIsAFailedPrecondition) {
  SetGlobalDevices(std::vector<Device>{});
  auto dist = Distribution::DataParallelOverAllDevices();
  SetGlobalDevices(std::nullopt);
  EXPECT_THAT(dist, StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("No devices")));
}

TEST(ModelParallelTest, TakesTheMeshFromTheLayoutMap) {
  MeshPtr mesh = CpuMesh({2, 4}, {"data", "model"});
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(LayoutMap(mesh), "data"));
  EXPECT_EQ(dist->kind(), DistributionKind::kModelParallel);
  EXPECT_EQ(dist->mesh(), mesh);
  EXPECT_EQ(dist->batch_dim_name(), "data");
}

TEST(ModelParallelTest, BatchAxisDefaultsToTheFirstAxis) {
  DistributionPtr dist =
      Unwrap(Distribution::ModelParallel(LayoutMap(CpuMesh({2, 4}, {"batch", "model"}))));
  EXPECT_EQ(dist->batch_dim_name(), "batch");
}

TEST(ModelParallelTest, ReplicasAreTheSizeOfTheBatchAxis) {
  MeshPtr mesh = CpuMesh({2, 4}, {"data", "model"});
  EXPECT_EQ(Unwrap(Distribution::ModelParallel(LayoutMap(mesh), "data"))->num_model_replicas(), 2);
  EXPECT_EQ(Unwrap(Distribution::ModelParallel(LayoutMap(mesh), "model"))->num_model_replicas(), 4);
}

// Keras constructs and fails later ('x' is not in list); Tessera rejects the
// unknown batch axis at construction (ARCHITECTURE.md).
TEST(ModelParallelTest, UnknownBatchAxisIsRejected) {
  EXPECT_THAT(Distribution::ModelParallel(LayoutMap(CpuMesh({2, 4}, {"data", "model"})), "x"),
              StatusIs(kInvalid, HasSubstr("'batch_dim_name' 'x' is not an axis of the mesh")));
}

TEST(ModelParallelTest, LayoutMapWithoutAMeshIsAFailedPrecondition) {
  EXPECT_THAT(Distribution::ModelParallel(LayoutMap(nullptr)),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("'layout_map' has no device mesh")));
}

TEST(ModelParallelTest, MoreProcessesThanReplicasMustBeAMultipleWithKerasMessage) {
  EXPECT_THAT(Distribution::ModelParallel(LayoutMap(CpuMesh({3, 2}, {"batch", "model"})), "",
                                          ForcedProcess(4, 0)),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("If `num_processes` is greater than `num_model_replicas`, "
                                           "`num_processes` must be divisible by `num_model_replicas`. "
                                           "Got num_processes=4, num_model_replicas=3.")));
}

TEST(ModelParallelTest, MoreProcessesThanReplicasIsFineWhenAMultiple) {
  EXPECT_THAT(Distribution::ModelParallel(LayoutMap(CpuMesh({2, 4}, {"batch", "model"})), "",
                                          ForcedProcess(4, 3)),
              IsOk());
}

TEST(ModelParallelTest, FewerProcessesThanReplicasNeedNotDivide) {
  EXPECT_THAT(Distribution::ModelParallel(LayoutMap(CpuMesh({3, 2}, {"batch", "model"})), "",
                                          ForcedProcess(2, 1)),
              IsOk());
}

TEST(ModelParallelTest, SnapshotsTheLayoutMap) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  ASSERT_THAT(map.Set("bias", Layout({"model"})), IsOk());
  EXPECT_EQ(dist->layout_map()->size(), 1u);
  EXPECT_EQ(Unwrap(dist->TensorLayoutForPath("dense/bias")), nullptr);
}

TEST(ProcessOptionTest, OverrideSetsProcessCountAndId) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"}), ForcedProcess(4, 3)));
  EXPECT_EQ(dist->num_processes(), 4);
  EXPECT_EQ(dist->process_id(), 3);
}

TEST(ProcessOptionTest, ZeroProcessesAreRejected) {
  EXPECT_THAT(Distribution::DataParallel(CpuMesh({8}, {"batch"}), ForcedProcess(0, 0)),
              StatusIs(kInvalid, HasSubstr("'num_processes' is 0")));
}

TEST(ProcessOptionTest, ProcessIdOutsideTheJobIsRejected) {
  EXPECT_THAT(Distribution::DataParallel(CpuMesh({8}, {"batch"}), ForcedProcess(2, 2)),
              StatusIs(kInvalid, HasSubstr("'process_id' is 2")));
  EXPECT_THAT(Distribution::DataParallel(CpuMesh({8}, {"batch"}), ForcedProcess(2, -1)),
              StatusIs(kInvalid, HasSubstr("'process_id' is -1")));
}

TEST_F(RuntimeProcessTest, RuntimeDefaultsToOneProcess) {
  ProcessInfo info = RuntimeProcessInfo();
  EXPECT_EQ(info.num_processes, 1);
  EXPECT_EQ(info.process_id, 0);
}

TEST_F(RuntimeProcessTest, WithoutAnOverrideTheRuntimeIsRead) {
  SetRuntimeProcessInfo(ProcessInfo{4, 1});
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})));
  EXPECT_EQ(dist->num_processes(), 4);
  EXPECT_EQ(dist->process_id(), 1);
}

TEST_F(RuntimeProcessTest, RuntimeIsReadOnceAtConstruction) {
  SetRuntimeProcessInfo(ProcessInfo{4, 1});
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})));
  SetRuntimeProcessInfo(ProcessInfo{2, 0});
  EXPECT_EQ(dist->num_processes(), 4);
  EXPECT_EQ(dist->process_id(), 1);
}

TEST(DataShardsTest, ShardsAreTheSmallerOfReplicasAndProcesses) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  EXPECT_EQ(Unwrap(Distribution::ModelParallel(LayoutMap(mesh), "", ForcedProcess(4, 0)))->num_data_shards(), 2);
  EXPECT_EQ(Unwrap(Distribution::ModelParallel(LayoutMap(mesh), "model", ForcedProcess(2, 0)))->num_data_shards(), 2);
  EXPECT_EQ(Unwrap(Distribution::ModelParallel(LayoutMap(mesh)))->num_data_shards(), 1);
}

TEST(DataShardsTest, ShardIdIsTheProcessIdWhenReplicasCoverProcesses) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"}), ForcedProcess(4, 3)));
  EXPECT_EQ(dist->data_shard_id(), 3);
}

TEST(DataShardsTest, ProcessesShareAShardInContiguousGroups) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  std::vector<int64_t> ids;
  for (int64_t pid = 0; pid < 8; ++pid) {
    ids.push_back(Unwrap(Distribution::ModelParallel(LayoutMap(mesh), "", ForcedProcess(8, pid)))->data_shard_id());
  }
  EXPECT_THAT(ids, ElementsAre(0, 0, 0, 0, 1, 1, 1, 1));
}

TEST(DataLayoutTest, ShardsTheFirstDimensionOnTheBatchAxis) {
  MeshPtr mesh = CpuMesh({2, 4}, {"data", "model"});
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(LayoutMap(mesh), "data"));
  TensorLayout layout = Unwrap(dist->DataLayout({4, 2, 2}));
  EXPECT_EQ(layout, Layout({"data", "", ""}, mesh));
  EXPECT_EQ(layout.mesh(), mesh);
}

TEST(DataLayoutTest, RankOneShapeIsShardedOnly) {
  MeshPtr mesh = CpuMesh({8}, {"batch"});
  EXPECT_EQ(Unwrap(Unwrap(Distribution::DataParallel(mesh))->DataLayout({16})), Layout({"batch"}, mesh));
}

TEST(DataLayoutTest, RankZeroShapeIsRejected) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})));
  EXPECT_THAT(dist->DataLayout({}), StatusIs(kInvalid, HasSubstr("rank")));
}

TEST(DataLayoutTest, NegativeDimensionIsRejected) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})));
  EXPECT_THAT(dist->DataLayout({16, -2}), StatusIs(kInvalid, HasSubstr("-2")));
}

TEST(VariableLayoutTest, DataParallelReplicatesEveryVariable) {
  MeshPtr mesh = CpuMesh({8}, {"batch"});
  DistributionPtr dist = Unwrap(Distribution::DataParallel(mesh));
  EXPECT_EQ(*Unwrap(dist->VariableLayout("dense/kernel", {784, 200})), Layout({"", ""}, mesh));
}

TEST(VariableLayoutTest, ModelParallelReturnsTheMatchingRulesLayout) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("dense.*kernel", Layout({"", "model"})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  EXPECT_EQ(Unwrap(dist->VariableLayout("dense_1/kernel", {16, 8})), dist->layout_map()->layout(0));
}

TEST(VariableLayoutTest, ModelParallelReplicatesAVariableNoRuleMatches) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  LayoutMap map(mesh);
  ASSERT_THAT(map.Set("dense.*kernel", Layout({"", "model"})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  EXPECT_EQ(*Unwrap(dist->VariableLayout("conv2d/bias", {7})), Layout({""}, mesh));
}

TEST(VariableLayoutTest, ExplicitLayoutWinsOverTheLayoutMap) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  auto explicit_layout = std::make_shared<const TensorLayout>(Layout({"x"}, CpuMesh({8}, {"x"})));
  EXPECT_EQ(Unwrap(dist->VariableLayout("kernel", {16}, explicit_layout)), explicit_layout);
}

// Keras never checks a layout against the variable's shape (keras-hub#1613);
// Tessera does, strictly by default (ARCHITECTURE.md).
TEST(VariableLayoutTest, StrictModeRejectsARuleThatDoesNotDivideTheShape) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  EXPECT_THAT(dist->VariableLayout("dense/kernel", {16, 6}),
              StatusIs(kInvalid, AllOf(HasSubstr("'dense/kernel'"), HasSubstr("dimension 1 has size 6"),
                                       HasSubstr("not divisible by 4"), HasSubstr("'model'"))));
}

TEST(VariableLayoutTest, StrictModeChecksAnExplicitLayoutToo) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})));
  auto explicit_layout = std::make_shared<const TensorLayout>(Layout({"x"}, CpuMesh({8}, {"x"})));
  EXPECT_THAT(dist->VariableLayout("v", {3}, explicit_layout),
              StatusIs(kInvalid, HasSubstr("not divisible by 8")));
}

TEST(VariableLayoutTest, ChunkModeAllowsUnevenShards) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  DistributionOptions options;
  options.shape_check = ShapeCheck::kChunk;
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map, "", options));
  EXPECT_EQ(Unwrap(dist->VariableLayout("dense/kernel", {16, 6})), dist->layout_map()->layout(0));
}

TEST(VariableLayoutTest, RankMismatchIsRejectedInEveryMode) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  DistributionOptions options;
  options.shape_check = ShapeCheck::kChunk;
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map, "", options));
  EXPECT_THAT(dist->VariableLayout("dense/kernel", {16}), StatusIs(kInvalid, HasSubstr("expects rank 2")));
}

TEST(VariableLayoutTest, SeveralMatchingRulesFail) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("kernel", Layout({"", "model"})), IsOk());
  ASSERT_THAT(map.Set("dense", Layout({"model", ""})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  EXPECT_THAT(dist->VariableLayout("dense/kernel", {16, 8}),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("['kernel', 'dense']")));
}

TEST(TensorLayoutForPathTest, DataParallelHasNone) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})));
  EXPECT_EQ(Unwrap(dist->TensorLayoutForPath("dense/output")), nullptr);
}

TEST(TensorLayoutForPathTest, ModelParallelReturnsTheMatchingRule) {
  LayoutMap map(CpuMesh({2, 4}, {"batch", "model"}));
  ASSERT_THAT(map.Set("dense.*output", Layout({"batch", ""})), IsOk());
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(map));
  EXPECT_EQ(Unwrap(dist->TensorLayoutForPath("dense/output")), dist->layout_map()->layout(0));
  EXPECT_EQ(Unwrap(dist->TensorLayoutForPath("conv/output")), nullptr);
}

TEST(PlanDatasetTest, SingleProcessLeavesTheDatasetAlone) {
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})));
  EXPECT_EQ(Unwrap(dist->PlanDataset(16)).kind, DatasetPlan::Kind::kPassthrough);
}

TEST(PlanDatasetTest, AutoShardOffLeavesTheDatasetAlone) {
  DistributionOptions options = ForcedProcess(4, 1);
  options.auto_shard_dataset = false;
  DistributionPtr dist = Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"}), options));
  EXPECT_EQ(Unwrap(dist->PlanDataset(16)).kind, DatasetPlan::Kind::kPassthrough);
}

TEST(PlanDatasetTest, ShardsByReplicasAndProcesses) {
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(
      LayoutMap(CpuMesh({2, 4}, {"batch", "model"})), "", ForcedProcess(4, 2)));
  DatasetPlan plan = Unwrap(dist->PlanDataset(8));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kShard);
  EXPECT_EQ(plan.global_batch_size, 8);
  EXPECT_EQ(plan.per_process_batch_size, 4);
  EXPECT_EQ(plan.num_shards, 2);
  EXPECT_EQ(plan.shard_index, 1);
}

TEST(PlanDatasetTest, Keras30ModeUsesTheLocalDeviceCountRule) {
  DistributionOptions options = ForcedProcess(2, 1);
  options.dataset_mode = DatasetMode::kKeras30;
  DistributionPtr dist =
      Unwrap(Distribution::ModelParallel(LayoutMap(CpuMesh({4, 2}, {"batch", "model"})), "", options));
  // Mesh batch 4, local devices 8 / 2 = 4: one shard, the whole batch each.
  DatasetPlan plan = Unwrap(dist->PlanDataset(24));
  EXPECT_EQ(plan.num_shards, 1);
  EXPECT_EQ(plan.per_process_batch_size, 24);
  EXPECT_EQ(plan.shard_index, 0);
}

TEST(DistributionToStringTest, DataParallelIsKerasRepr) {
  EXPECT_EQ(Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"})))->ToString(),
            "<DataParallel device_mesh=<DeviceMesh shape=(8,), axis_names=['batch']>>");
}

TEST(DistributionToStringTest, ModelParallelIsKerasRepr) {
  EXPECT_EQ(Unwrap(Distribution::ModelParallel(LayoutMap(CpuMesh({2, 4}, {"data", "model"}))))->ToString(),
            "<ModelParallel device_mesh=<DeviceMesh shape=(2, 4), axis_names=['data', 'model']>>");
}

}  // namespace
}  // namespace tessera
