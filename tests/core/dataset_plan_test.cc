// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// PlanDataset: which part of each global batch a process reads, in the
// current Keras arithmetic and in the Keras 3.0 arithmetic; and TF's
// batch_sizes_for_worker.
#include "core/dataset_plan.h"

#include <cstdint>
#include <numeric>
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
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr char kUnknownBatch[] =
    "The batch size of the input dataset is unknown. Please config the batch size for the input "
    "dataset, e.g via `dataset.batch(batch_size)`";

DatasetJob Job(int64_t num_processes, int64_t process_id, int64_t replicas) {
  DatasetJob job;
  job.num_processes = num_processes;
  job.process_id = process_id;
  job.num_model_replicas = replicas;
  return job;
}

DatasetJob DataParallelJob(int64_t num_processes, int64_t process_id, int64_t devices) {
  DatasetJob job = Job(num_processes, process_id, devices);
  job.mesh_batch_size = devices;
  job.mesh_size = devices;
  return job;
}

DatasetJob ModelParallelJob(int64_t num_processes, int64_t process_id, int64_t mesh_batch,
                            int64_t mesh_size) {
  DatasetJob job = Job(num_processes, process_id, mesh_batch);
  job.model_parallel = true;
  job.mesh_batch_size = mesh_batch;
  job.mesh_size = mesh_size;
  return job;
}

TEST(PlanDatasetCurrentTest, AutoShardOffIsPassthrough) {
  DatasetJob job = Job(4, 1, 8);
  job.auto_shard = false;
  DatasetPlan plan = Unwrap(PlanDataset(job, 8, DatasetMode::kCurrent));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kPassthrough);
  EXPECT_EQ(plan.per_process_batch_size, 8);
}

TEST(PlanDatasetCurrentTest, SingleProcessIsPassthrough) {
  DatasetPlan plan = Unwrap(PlanDataset(Job(1, 0, 8), 8, DatasetMode::kCurrent));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kPassthrough);
  EXPECT_EQ(plan.global_batch_size, 8);
  EXPECT_EQ(plan.per_process_batch_size, 8);
  EXPECT_EQ(plan.num_shards, 1);
  EXPECT_EQ(plan.shard_index, 0);
}

TEST(PlanDatasetCurrentTest, OneReplicaIsReplicateWithTheWholeBatch) {
  DatasetPlan plan = Unwrap(PlanDataset(Job(4, 2, 1), 8, DatasetMode::kCurrent));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kReplicate);
  EXPECT_EQ(plan.per_process_batch_size, 8);
  EXPECT_EQ(plan.num_shards, 1);
  EXPECT_EQ(plan.shard_index, 0);
}

TEST(PlanDatasetCurrentTest, UnknownBatchSizeFailsWithKerasMessage) {
  EXPECT_THAT(PlanDataset(Job(2, 0, 4), -1, DatasetMode::kCurrent),
              StatusIs(kInvalid, HasSubstr(kUnknownBatch)));
}

// Keras checks the batch size before the one-replica shortcut (K49).
TEST(PlanDatasetCurrentTest, UnknownBatchSizeFailsEvenWithOneReplica) {
  EXPECT_THAT(PlanDataset(Job(2, 0, 1), -1, DatasetMode::kCurrent),
              StatusIs(kInvalid, HasSubstr(kUnknownBatch)));
}

TEST(PlanDatasetCurrentTest, UnknownBatchSizeIsFineWhenNotSharding) {
  EXPECT_EQ(Unwrap(PlanDataset(Job(1, 0, 4), -1, DatasetMode::kCurrent)).kind,
            DatasetPlan::Kind::kPassthrough);
}

TEST(PlanDatasetCurrentTest, ReplicasAtLeastProcessesShardByProcess) {
  DatasetPlan plan = Unwrap(PlanDataset(Job(2, 1, 4), 8, DatasetMode::kCurrent));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kShard);
  EXPECT_EQ(plan.global_batch_size, 8);
  EXPECT_EQ(plan.per_process_batch_size, 4);
  EXPECT_EQ(plan.num_shards, 2);
  EXPECT_EQ(plan.shard_index, 1);
}

TEST(PlanDatasetCurrentTest, FewerReplicasThanProcessesShardByContiguousGroups) {
  // R = 2, P = 6: processes 0-2 read shard 0, processes 3-5 shard 1.
  std::vector<int64_t> indices;
  for (int64_t pid = 0; pid < 6; ++pid) {
    DatasetPlan plan = Unwrap(PlanDataset(Job(6, pid, 2), 12, DatasetMode::kCurrent));
    EXPECT_EQ(plan.num_shards, 2);
    EXPECT_EQ(plan.per_process_batch_size, 6);
    indices.push_back(plan.shard_index);
  }
  EXPECT_THAT(indices, ElementsAre(0, 0, 0, 1, 1, 1));
}

TEST(PlanDatasetCurrentTest, BatchNotDivisibleByTheShardsFailsWithKerasMessage) {
  EXPECT_THAT(PlanDataset(Job(4, 0, 4), 10, DatasetMode::kCurrent),
              StatusIs(kInvalid, HasSubstr("Global batch size must be divisible by the number of "
                                           "shards. `global_batch_size`=10 and `num_shards`=4")));
}

// Keras's constructor check forbids this job (P > R, P % R != 0); planned
// anyway, process 3 would map to shard 3 of 3 (K115).
TEST(PlanDatasetCurrentTest, ProcessMappingPastTheLastShardFails) {
  EXPECT_THAT(PlanDataset(Job(4, 3, 3), 6, DatasetMode::kCurrent),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(HasSubstr("Process 3 maps to data shard 3"), HasSubstr("only 3 shards"))));
}

TEST(PlanDatasetCurrentTest, RebatchSizesAreEmpty) {
  EXPECT_THAT(Unwrap(PlanDataset(Job(2, 1, 4), 8, DatasetMode::kCurrent)).rebatch_sizes, IsEmpty());
}

TEST(PlanDatasetCurrentTest, ModelParallelFlagDoesNotChangeTheArithmetic) {
  DatasetPlan plan = Unwrap(PlanDataset(ModelParallelJob(4, 3, 2, 8), 8, DatasetMode::kCurrent));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kShard);
  EXPECT_EQ(plan.per_process_batch_size, 4);
  EXPECT_EQ(plan.num_shards, 2);
  EXPECT_EQ(plan.shard_index, 1);
}

TEST(PlanDatasetKeras30Test, SingleProcessIsPassthrough) {
  EXPECT_EQ(Unwrap(PlanDataset(ModelParallelJob(1, 0, 4, 8), 8, DatasetMode::kKeras30)).kind,
            DatasetPlan::Kind::kPassthrough);
  EXPECT_EQ(Unwrap(PlanDataset(DataParallelJob(1, 0, 8), 8, DatasetMode::kKeras30)).kind,
            DatasetPlan::Kind::kPassthrough);
}

TEST(PlanDatasetKeras30Test, UnknownBatchSizeFailsWithKerasMessage) {
  EXPECT_THAT(PlanDataset(DataParallelJob(2, 0, 8), -1, DatasetMode::kKeras30),
              StatusIs(kInvalid, HasSubstr(kUnknownBatch)));
  EXPECT_THAT(PlanDataset(ModelParallelJob(2, 0, 4, 8), -1, DatasetMode::kKeras30),
              StatusIs(kInvalid, HasSubstr(kUnknownBatch)));
}

TEST(PlanDatasetKeras30Test, DataParallelShardsByProcessWithTfBatchSizes) {
  DatasetPlan plan = Unwrap(PlanDataset(DataParallelJob(4, 1, 8), 8, DatasetMode::kKeras30));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kShard);
  EXPECT_EQ(plan.per_process_batch_size, 2);
  EXPECT_EQ(plan.num_shards, 4);
  EXPECT_EQ(plan.shard_index, 1);
  EXPECT_THAT(plan.rebatch_sizes, ElementsAre(2, 2, 2, 2));
}

// Keras 3.0's DataParallel does not need G % P == 0: it asks for TF's
// rebatch sizes, which differ by one.
TEST(PlanDatasetKeras30Test, DataParallelAcceptsAnUnevenBatch) {
  DatasetPlan plan = Unwrap(PlanDataset(DataParallelJob(4, 1, 8), 10, DatasetMode::kKeras30));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kShard);
  // TF's legacy rebatch delivers slices of ceil(10 / 4) = 3 rows.
  EXPECT_EQ(plan.per_process_batch_size, 3);
  EXPECT_EQ(plan.num_shards, 4);
  EXPECT_EQ(plan.shard_index, 1);
  EXPECT_THAT(plan.rebatch_sizes, ElementsAre(3, 2, 2, 3));
}

// Keras 3.3.3 on TF 2.21, 8 devices in 4 processes, batch 9 (issue 11):
// slices of 3 rows, the last process none.
TEST(PlanDatasetKeras30Test, DataParallelUnevenBatchGivesWholeSlicesFirst) {
  std::vector<int64_t> rows;
  for (int64_t pid = 0; pid < 4; ++pid) {
    rows.push_back(Unwrap(PlanDataset(DataParallelJob(4, pid, 8), 9, DatasetMode::kKeras30)).per_process_batch_size);
  }
  EXPECT_THAT(rows, ElementsAre(3, 3, 3, 0));
}

// Keras 3.3.3 on TF 2.21: ModelParallel's rebatch(G // shards) is rewritten
// the same way: mesh (2, 2) over 4 processes, 2 shards, 25 rows: 13 and 12.
TEST(PlanDatasetKeras30Test, ModelParallelUnevenBatchGivesWholeSlicesFirst) {
  EXPECT_EQ(Unwrap(PlanDataset(ModelParallelJob(4, 0, 2, 4), 25, DatasetMode::kKeras30)).per_process_batch_size, 13);
  EXPECT_EQ(Unwrap(PlanDataset(ModelParallelJob(4, 1, 2, 4), 25, DatasetMode::kKeras30)).per_process_batch_size, 12);
}

TEST(PlanDatasetTest, CurrentModeInterleavesByDataShard) {
  DatasetPlan plan = Unwrap(PlanDataset(Job(6, 4, 2), 12, DatasetMode::kCurrent));
  EXPECT_EQ(plan.interleave_num_shards, 2);
  EXPECT_EQ(plan.interleave_shard_index, 1);
}

TEST(PlanDatasetTest, NoAutoShardInterleavesNothing) {
  DatasetJob job = Job(6, 4, 2);
  job.auto_shard = false;
  DatasetPlan plan = Unwrap(PlanDataset(job, 12, DatasetMode::kCurrent));
  EXPECT_EQ(plan.interleave_num_shards, 1);
  EXPECT_EQ(plan.interleave_shard_index, 0);
}

// Keras 3.0 shards by processes even when there are fewer replicas.
TEST(PlanDatasetKeras30Test, DataParallelIgnoresTheReplicaCount) {
  DatasetPlan plan = Unwrap(PlanDataset(DataParallelJob(4, 3, 2), 8, DatasetMode::kKeras30));
  EXPECT_EQ(plan.num_shards, 4);
  EXPECT_EQ(plan.shard_index, 3);
  EXPECT_EQ(plan.per_process_batch_size, 2);
}

TEST(PlanDatasetKeras30Test, ModelParallelReplicatesWhenTheBatchAxisIsSmallerThanTheLocalDevices) {
  // Mesh (1, 8) over 4 processes: 2 local devices, batch axis 1.
  DatasetPlan plan = Unwrap(PlanDataset(ModelParallelJob(4, 2, 1, 8), 8, DatasetMode::kKeras30));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kReplicate);
  EXPECT_EQ(plan.per_process_batch_size, 8);
}

TEST(PlanDatasetKeras30Test, ModelParallelShardsByBatchAxisOverLocalDevices) {
  // Mesh (2, 2) over 4 processes: 1 local device, 2 shards, index pid % 2.
  DatasetPlan plan = Unwrap(PlanDataset(ModelParallelJob(4, 3, 2, 4), 24, DatasetMode::kKeras30));
  EXPECT_EQ(plan.kind, DatasetPlan::Kind::kShard);
  EXPECT_EQ(plan.per_process_batch_size, 12);
  EXPECT_EQ(plan.num_shards, 2);
  EXPECT_EQ(plan.shard_index, 1);
  EXPECT_THAT(plan.rebatch_sizes, IsEmpty());
}

// The documented flaw, kept on purpose: mesh (4, 2) over 2 processes has 4
// local devices, so one shard, and every process reads the whole batch.
TEST(PlanDatasetKeras30Test, ModelParallelReproducesTheOneShardFlaw) {
  DatasetPlan plan = Unwrap(PlanDataset(ModelParallelJob(2, 1, 4, 8), 24, DatasetMode::kKeras30));
  EXPECT_EQ(plan.num_shards, 1);
  EXPECT_EQ(plan.per_process_batch_size, 24);
  EXPECT_EQ(plan.shard_index, 0);
}

TEST(PlanDatasetKeras30Test, ModelParallelBatchAxisIncompatibleWithLocalDevicesFails) {
  // Mesh (6, 2) over 3 processes: 4 local devices, 6 % 4 != 0.
  EXPECT_THAT(PlanDataset(ModelParallelJob(3, 0, 6, 12), 24, DatasetMode::kKeras30),
              StatusIs(kInvalid, AllOf(HasSubstr("is not compatible with the local worker device count"),
                                       HasSubstr("Mesh batch dim = 6 and local device count = 4"))));
}

TEST(BatchSizesForWorkerTest, EvenSplitGivesEqualSizes) {
  EXPECT_THAT(BatchSizesForWorker(8, 2, 1, 1), ElementsAre(4, 4));
}

TEST(BatchSizesForWorkerTest, FirstWorkerGetsTheLargerSubBatchesFirst) {
  EXPECT_THAT(BatchSizesForWorker(10, 4, 1, 0), ElementsAre(3, 3, 2, 2));
}

TEST(BatchSizesForWorkerTest, WorkerIndexRotatesLeft) {
  EXPECT_THAT(BatchSizesForWorker(10, 4, 1, 1), ElementsAre(3, 2, 2, 3));
  EXPECT_THAT(BatchSizesForWorker(10, 4, 1, 3), ElementsAre(2, 3, 3, 2));
}

TEST(BatchSizesForWorkerTest, RotationStepIsTheReplicasPerWorker) {
  // 6 sub-batches of 8 rows: [2, 2, 1, 1, 1, 1], rotated by 1 * 2.
  EXPECT_THAT(BatchSizesForWorker(8, 3, 2, 1), ElementsAre(1, 1, 1, 1, 2, 2));
}

TEST(BatchSizesForWorkerTest, SmallBatchGivesEmptySubBatches) {
  EXPECT_THAT(BatchSizesForWorker(2, 4, 1, 0), ElementsAre(1, 1, 0, 0));
}

TEST(BatchSizesForWorkerTest, SizesSumToTheGlobalBatch) {
  std::vector<int64_t> sizes = BatchSizesForWorker(1001, 7, 3, 5);
  EXPECT_EQ(sizes.size(), 21u);
  EXPECT_EQ(std::accumulate(sizes.begin(), sizes.end(), int64_t{0}), 1001);
}

TEST(BatchSizesForWorkerTest, NoWorkersGiveNoSizes) {
  EXPECT_THAT(BatchSizesForWorker(8, 0, 1, 0), IsEmpty());
}

TEST(BatchSizesForWorkerTest, WorkerIndexOutsideTheWorkersGivesNoSizes) {
  EXPECT_THAT(BatchSizesForWorker(8, 2, 1, 2), IsEmpty());
}

TEST(PlanDatasetTest, JobWithoutReplicasIsInvalidArgument) {
  EXPECT_THAT(PlanDataset(Job(2, 0, 0), 8, DatasetMode::kCurrent),
              StatusIs(kInvalid, HasSubstr("num_model_replicas=0; expected at least 1")));
}

TEST(PlanDatasetTest, ProcessIdOutsideTheJobIsInvalidArgument) {
  EXPECT_THAT(PlanDataset(Job(2, 2, 4), 8, DatasetMode::kCurrent),
              StatusIs(kInvalid, HasSubstr("process_id=2; expected 0 to 1")));
}

TEST(DataShardsTest, ShardCountIsTheSmallerOfReplicasAndProcesses) {
  EXPECT_EQ(NumDataShards(8, 3), 3);
  EXPECT_EQ(NumDataShards(2, 6), 2);
}

TEST(DataShardsTest, ShardIdGroupsContiguousProcessesWhenThereAreMoreProcesses) {
  EXPECT_EQ(DataShardId(2, 6, 2), 0);
  EXPECT_EQ(DataShardId(2, 6, 3), 1);
  EXPECT_EQ(DataShardId(8, 3, 2), 2);
}

}  // namespace
}  // namespace tessera
