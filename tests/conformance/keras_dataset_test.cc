// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Keras conformance: the dataset-sharding arithmetic (keras_cases.md G table
// K101-K125 in the current and Keras 3.0 modes; the rows each process reads
// in K35, K41, K45, K47, K51, K83, K85, K87; the errors of K49 and K115; the
// pure index arithmetic of K53, K57 and K61; the single-process half of
// K127).
//
// Data pipelines are out of scope: where a vector iterates a tf.data dataset
// or a loader, the rows come from the plan by conformance::RowsRead or
// conformance::Interleave, and the plan (or the shard count and id) is what
// is under test.
#include <ostream>
#include <string>
#include <vector>

#include "core/dataset_plan.h"
#include "core/distribution.h"
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
using conformance::Interleave;
using conformance::MakeDistribution;
using conformance::Policy;
using conformance::RowsRead;
using testing::StatusIs;
using testing::Unwrap;

using Kind = DatasetPlan::Kind;
using Batches = std::vector<std::vector<int64_t>>;

constexpr DatasetMode kCurrent = DatasetMode::kCurrent;
constexpr DatasetMode kKeras30 = DatasetMode::kKeras30;
constexpr Policy kDP = Policy::kDataParallel;
constexpr Policy kMP = Policy::kModelParallel;

// ---------------------------------------------------------------------------
// G table. DataParallel rows use DataParallel(devices=devs(mesh[0]));
// ModelParallel rows an empty LayoutMap over mesh (b, m) with batch axis b.
// The table gives R and the mesh; where it gives only R (K111) the mesh is
// (2, 3), which makes the Keras 3.0 local device count 1.
struct PlanCase {
  const char* name;
  Policy policy;
  std::vector<int64_t> mesh;
  int64_t global_batch_size;
  int64_t num_processes;
  bool auto_shard;
  DatasetMode mode;
  Kind kind;
  int64_t per_process_batch_size;
  int64_t num_shards;
  std::vector<int64_t> shard_index;             // by process id
  std::vector<int64_t> rebatch_sizes = {};      // Keras 3.0 DataParallel; same for each pid here
};

// Failure messages name the vector, not the bytes of the row.
void PrintTo(const PlanCase& c, std::ostream* os) { *os << c.name; }

const PlanCase kPlanCases[] = {
    // HEAD semantics (TFDatasetAdapter, num_data_shards, data_shard_id).
    {"K101_Current", kDP, {8}, 8, 4, false, kCurrent, Kind::kPassthrough, 8, 1, {0, 0, 0, 0}},
    {"K103_Current", kMP, {1, 8}, 8, 4, true, kCurrent, Kind::kReplicate, 8, 1, {0, 0, 0, 0}},
    {"K105_Current", kMP, {4, 2}, 8, 4, true, kCurrent, Kind::kShard, 2, 4, {0, 1, 2, 3}},
    {"K107_Current", kDP, {4}, 8, 2, true, kCurrent, Kind::kShard, 4, 2, {0, 1}},
    {"K109_Current", kMP, {2, 4}, 8, 8, true, kCurrent, Kind::kShard, 4, 2, {0, 0, 0, 0, 1, 1, 1, 1}},
    {"K111_Current", kMP, {2, 3}, 12, 6, true, kCurrent, Kind::kShard, 6, 2, {0, 0, 0, 1, 1, 1}},
    {"K113_Current", kMP, {6, 1}, 24, 4, true, kCurrent, Kind::kShard, 6, 4, {0, 1, 2, 3}},
    {"K117_Current", kMP, {8, 1}, 24, 2, true, kCurrent, Kind::kShard, 12, 2, {0, 1}},
    {"K119_Current", kMP, {4, 2}, 24, 2, true, kCurrent, Kind::kShard, 12, 2, {0, 1}},
    {"K121_Current", kMP, {2, 4}, 24, 4, true, kCurrent, Kind::kShard, 12, 2, {0, 0, 1, 1}},
    {"K123_Current", kMP, {1, 8}, 24, 8, true, kCurrent, Kind::kReplicate, 24, 1, {0, 0, 0, 0, 0, 0, 0, 0}},
    {"K125_Current", kMP, {2, 2}, 24, 4, true, kCurrent, Kind::kShard, 12, 2, {0, 0, 1, 1}},
    // Keras 3.0-3.4 semantics. Keras 3.0 had no auto_shard_dataset switch;
    // Tessera's switch turns sharding off in both modes (K101).
    {"K101_Keras30", kDP, {8}, 8, 4, false, kKeras30, Kind::kPassthrough, 8, 1, {0, 0, 0, 0}},
    // Mesh batch 1 < 2 local devices: every process reads the whole batch.
    {"K103_Keras30", kMP, {1, 8}, 8, 4, true, kKeras30, Kind::kReplicate, 8, 1, {0, 0, 0, 0}},
    // Batch 4 over 2 local devices: 2 shards, index pid % 2.
    {"K105_Keras30", kMP, {4, 2}, 8, 4, true, kKeras30, Kind::kShard, 4, 2, {0, 1, 0, 1}},
    // DataParallel: batch_sizes_for_worker(8, 2, 1, pid) = [4, 4], shard(2, pid).
    {"K107_Keras30", kDP, {4}, 8, 2, true, kKeras30, Kind::kShard, 4, 2, {0, 1}, {4, 4}},
    {"K109_Keras30", kMP, {2, 4}, 8, 8, true, kKeras30, Kind::kShard, 4, 2, {0, 1, 0, 1, 0, 1, 0, 1}},
    {"K111_Keras30", kMP, {2, 3}, 12, 6, true, kKeras30, Kind::kShard, 6, 2, {0, 1, 0, 1, 0, 1}},
    // 6 devices // 4 processes = 1 local device: 6 shards of 24 // 6 = 4.
    {"K113_Keras30", kMP, {6, 1}, 24, 4, true, kKeras30, Kind::kShard, 4, 6, {0, 1, 2, 3}},
    {"K117_Keras30", kMP, {8, 1}, 24, 2, true, kKeras30, Kind::kShard, 12, 2, {0, 1}},
    // The flaw fixed in Keras 3.5: one shard, every worker reads all 24 rows.
    {"K119_Keras30", kMP, {4, 2}, 24, 2, true, kKeras30, Kind::kShard, 24, 1, {0, 0}},
    {"K121_Keras30", kMP, {2, 4}, 24, 4, true, kKeras30, Kind::kShard, 24, 1, {0, 0, 0, 0}},
    // One shard of 24 (equivalent to replicating).
    {"K123_Keras30", kMP, {1, 8}, 24, 8, true, kKeras30, Kind::kShard, 24, 1, {0, 0, 0, 0, 0, 0, 0, 0}},
    {"K125_Keras30", kMP, {2, 2}, 24, 4, true, kKeras30, Kind::kShard, 12, 2, {0, 1, 0, 1}},
};

class PlanTableTest : public ::testing::TestWithParam<PlanCase> {};

TEST_P(PlanTableTest, EveryProcessGetsTheExpectedPlan) {
  const PlanCase& c = GetParam();
  std::vector<int64_t> indices;
  for (int64_t pid = 0; pid < c.num_processes; ++pid) {
    SCOPED_TRACE(::testing::Message() << "pid " << pid);
    DistributionOptions options = Forced(c.num_processes, pid, c.mode);
    options.auto_shard_dataset = c.auto_shard;
    DistributionPtr dist = Unwrap(MakeDistribution(c.policy, c.mesh, options));
    DatasetPlan plan = Unwrap(dist->PlanDataset(c.global_batch_size));
    EXPECT_EQ(plan.kind, c.kind);
    EXPECT_EQ(plan.global_batch_size, c.global_batch_size);
    EXPECT_EQ(plan.per_process_batch_size, c.per_process_batch_size);
    EXPECT_EQ(plan.num_shards, c.num_shards);
    EXPECT_THAT(plan.rebatch_sizes, ElementsAreArray(c.rebatch_sizes));
    indices.push_back(plan.shard_index);
  }
  EXPECT_THAT(indices, ElementsAreArray(c.shard_index));
}

INSTANTIATE_TEST_SUITE_P(Keras, PlanTableTest, ::testing::ValuesIn(kPlanCases),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// The rows of range(num_rows).batch(G) each process reads.
struct RowsCase {
  const char* name;
  Policy policy;
  std::vector<int64_t> mesh;
  int64_t num_processes;
  int64_t num_rows;
  int64_t global_batch_size;
  DatasetMode mode;
  std::vector<Batches> batches;  // by process id
};

// Failure messages name the vector, not the bytes of the row.
void PrintTo(const RowsCase& c, std::ostream* os) { *os << c.name; }

const RowsCase kRowsCases[] = {
    // K35 = K51 with N=4: R = 2, P = 4, range(8).batch(4). Keras builds the
    // mesh on rep("cpu:0", 2), which Tessera rejects (see
    // keras_mesh_layout_test.cc); the arithmetic runs on distinct devices.
    {"K35_K51_N4", kDP, {2}, 4, 8, 4, kCurrent,
     {{{0, 1}, {4, 5}}, {{0, 1}, {4, 5}}, {{2, 3}, {6, 7}}, {{2, 3}, {6, 7}}}},
    // K51 with N=8 (R = 4, P = 8, range(16).batch(8)), derived from HEAD's
    // formula, as K35 is for N=4.
    {"K51_N8", kDP, {4}, 8, 16, 8, kCurrent,
     {{{0, 1}, {8, 9}}, {{0, 1}, {8, 9}}, {{2, 3}, {10, 11}}, {{2, 3}, {10, 11}},
      {{4, 5}, {12, 13}}, {{4, 5}, {12, 13}}, {{6, 7}, {14, 15}}, {{6, 7}, {14, 15}}}},
    // K41 (v3.15) and K47 (HEAD): R = 4, P = 2, range(16).batch(8). Keras
    // 3.0's DataParallel arithmetic gives the same rows.
    {"K41_K47_Current", kDP, {4}, 2, 16, 8, kCurrent,
     {{{0, 1, 2, 3}, {8, 9, 10, 11}}, {{4, 5, 6, 7}, {12, 13, 14, 15}}}},
    {"K41_Keras30", kDP, {4}, 2, 16, 8, kKeras30,
     {{{0, 1, 2, 3}, {8, 9, 10, 11}}, {{4, 5, 6, 7}, {12, 13, 14, 15}}}},
    // K45: R = 1, multi-process: every process reads every batch.
    {"K45_OneReplica", kDP, {1}, 2, 16, 8, kCurrent,
     {{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}},
      {{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}}}},
    // K83: DataParallel over 8 devices, P = 4, range(32).batch(8).
    {"K83_DataParallel", kDP, {8}, 4, 32, 8, kCurrent,
     {{{0, 1}, {8, 9}, {16, 17}, {24, 25}},
      {{2, 3}, {10, 11}, {18, 19}, {26, 27}},
      {{4, 5}, {12, 13}, {20, 21}, {28, 29}},
      {{6, 7}, {14, 15}, {22, 23}, {30, 31}}}},
    // K85: mesh (4, 2), R = 4: as K83.
    {"K85_DataModel", kMP, {4, 2}, 4, 32, 8, kCurrent,
     {{{0, 1}, {8, 9}, {16, 17}, {24, 25}},
      {{2, 3}, {10, 11}, {18, 19}, {26, 27}},
      {{4, 5}, {12, 13}, {20, 21}, {28, 29}},
      {{6, 7}, {14, 15}, {22, 23}, {30, 31}}}},
    // K87: mesh (1, 8), R = 1: replicated.
    {"K87_ModelOnly", kMP, {1, 8}, 4, 32, 8, kCurrent,
     std::vector<Batches>(4, Batches{{0, 1, 2, 3, 4, 5, 6, 7},
                                     {8, 9, 10, 11, 12, 13, 14, 15},
                                     {16, 17, 18, 19, 20, 21, 22, 23},
                                     {24, 25, 26, 27, 28, 29, 30, 31}})},
};

class RowsTest : public ::testing::TestWithParam<RowsCase> {};

TEST_P(RowsTest, EveryProcessReadsTheExpectedRows) {
  const RowsCase& c = GetParam();
  ASSERT_EQ(c.batches.size(), static_cast<size_t>(c.num_processes));
  for (int64_t pid = 0; pid < c.num_processes; ++pid) {
    DistributionPtr dist = Unwrap(MakeDistribution(c.policy, c.mesh, Forced(c.num_processes, pid, c.mode)));
    DatasetPlan plan = Unwrap(dist->PlanDataset(c.global_batch_size));
    EXPECT_EQ(RowsRead(plan, c.num_rows), c.batches[pid]) << "pid " << pid;
  }
}

INSTANTIATE_TEST_SUITE_P(Keras, RowsTest, ::testing::ValuesIn(kRowsCases),
                         [](const auto& info) { return std::string(info.param.name); });

// ---------------------------------------------------------------------------
// Errors.

// K49: R = 1, P = 2, an unbatched dataset: the unknown batch size is
// reported before the one-replica shortcut.
TEST(KerasDatasetTest, K49_UnknownBatchSizeFailsBeforeReplicating) {
  DistributionPtr dist = Unwrap(MakeDistribution(kDP, {1}, Forced(2, 0)));
  EXPECT_THAT(dist->PlanDataset(-1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("The batch size of the input dataset is unknown. Please config the "
                                 "batch size for the input dataset, e.g via `dataset.batch(batch_size)`")));
}

// K115: R = 3, P = 4, pid 3. The ModelParallel constructor refuses the job
// (keras_distribution_test.cc); planned anyway, pid 3 maps to shard 3 // 1 =
// 3 >= S = 3, which TF's shard() rejects and Tessera reports.
TEST(KerasDatasetTest, K115_ForcedPlanPastTheLastShardFails) {
  DatasetJob job;
  job.model_parallel = true;
  job.num_processes = 4;
  job.process_id = 3;
  job.num_model_replicas = 3;
  job.mesh_batch_size = 3;
  job.mesh_size = 6;
  EXPECT_THAT(PlanDataset(job, 8, kCurrent),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("maps to data shard 3")));
}

// K127 (single-process half): in Keras 3.0 a single process leaves the
// dataset alone, for DataParallel and ModelParallel. (The tf.data type check
// that precedes it belongs to data pipelines, out of scope.)
TEST(KerasDatasetTest, K127_Keras30SingleProcessIsPassthrough) {
  for (Policy policy : {kDP, kMP}) {
    std::vector<int64_t> mesh = policy == kDP ? std::vector<int64_t>{8} : std::vector<int64_t>{4, 2};
    DistributionPtr dist = Unwrap(MakeDistribution(policy, mesh, Forced(1, 0, kKeras30)));
    EXPECT_EQ(Unwrap(dist->PlanDataset(8)).kind, Kind::kPassthrough);
  }
}

// ---------------------------------------------------------------------------
// Interleaving by shard count and id (HEAD's array, PyDataset and torch
// adapters). The distribution supplies S and id; Interleave the rest.

// K53: mesh (2, 4) data/model (distinct devices: Tessera rejects K53's
// rep("cpu:0", 8)), ModelParallel batch "data", P = 8, pid = 5; 100 samples
// in batches of 10: global batches 1, 3, 5, 7, 9.
TEST(KerasDatasetTest, K53_ArrayAdapterReadsEveryOtherBatch) {
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(
      LayoutMap(testing::CpuMesh({2, 4}, {"data", "model"})), "data", Forced(8, 5)));
  ASSERT_EQ(dist->num_model_replicas(), 2);
  ASSERT_EQ(dist->num_data_shards(), 2);
  ASSERT_EQ(dist->data_shard_id(), 1);
  std::vector<int64_t> first_values;
  for (int64_t batch : Interleave(10, dist->num_data_shards(), dist->data_shard_id())) {
    first_values.push_back(batch * 10);
  }
  EXPECT_THAT(first_values, ElementsAre(10, 30, 50, 70, 90));
}

// K57: the same job through the torch DataLoader adapter: sample-level
// interleave, rank 1 of 2, batches of 10: first samples 1, 21, 41, 61, 81.
TEST(KerasDatasetTest, K57_TorchLoaderReadsEveryOtherSample) {
  DistributionPtr dist = Unwrap(Distribution::ModelParallel(
      LayoutMap(testing::CpuMesh({2, 4}, {"data", "model"})), "data", Forced(8, 5)));
  std::vector<int64_t> samples = Interleave(100, dist->num_data_shards(), dist->data_shard_id());
  ASSERT_EQ(samples.size(), 50u);
  std::vector<int64_t> first_samples;
  for (size_t i = 0; i < samples.size(); i += 10) first_samples.push_back(samples[i]);
  EXPECT_THAT(first_samples, ElementsAre(1, 21, 41, 61, 81));
}

// K61: DistributedBatchSampler over 11 batches with S = 3, drop_last=False:
// S and the ids come from a job of 3 replicas and 3 processes.
TEST(KerasDatasetTest, K61_UnevenBatchSamplerSharding) {
  const std::vector<std::vector<int64_t>> expected = {{0, 3, 6, 9}, {1, 4, 7, 10}, {2, 5, 8}};
  for (int64_t pid = 0; pid < 3; ++pid) {
    DistributionPtr dist = Unwrap(MakeDistribution(kDP, {3}, Forced(3, pid)));
    ASSERT_EQ(dist->num_data_shards(), 3);
    EXPECT_EQ(Interleave(11, dist->num_data_shards(), dist->data_shard_id()), expected[pid])
        << "pid " << pid;
  }
}

}  // namespace
}  // namespace tessera
