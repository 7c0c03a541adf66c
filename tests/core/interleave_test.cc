// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Interleave sharding: Keras's array, PyDataset and batch-sampler split and
// torch's DistributedSampler, unshuffled and shuffled (keras.md §3.1;
// keras_cases.md K53 K57 K59 K61).
#include "core/interleave.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::StatusIs;
using testing::Unwrap;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(InterleavedBatchesTest, K61DealsBatchesRoundRobin) {
  EXPECT_THAT(Unwrap(InterleavedBatches(11, 3, 0, false)), ElementsAre(0, 3, 6, 9));
  EXPECT_THAT(Unwrap(InterleavedBatches(11, 3, 1, false)), ElementsAre(1, 4, 7, 10));
  EXPECT_THAT(Unwrap(InterleavedBatches(11, 3, 2, false)), ElementsAre(2, 5, 8));
}

TEST(InterleavedBatchesTest, DropLastStopsAtAMultipleOfTheShards) {
  EXPECT_THAT(Unwrap(InterleavedBatches(11, 3, 1, true)), ElementsAre(1, 4, 7));
}

TEST(InterleavedBatchesTest, CountsMatchKerasLenWithoutOverflow) {
  EXPECT_EQ(Unwrap(NumInterleavedBatches(kMax, 2, 1, false)), kMax / 2);
  EXPECT_EQ(Unwrap(NumInterleavedBatches(kMax, kMax, kMax - 1, false)), 1);
  EXPECT_EQ(Unwrap(NumInterleavedBatches(3, 5, 4, false)), 0);
}

TEST(InterleavedBatchesTest, KerasErrorsForTheShardArguments) {
  EXPECT_THAT(InterleavedBatches(4, 0, 0, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "num_data_shards must be >= 1. Received: 0"));
  EXPECT_THAT(InterleavedBatches(4, 2, -1, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "data_shard_id must be in [0, 1]. Received: -1"));
}

TEST(InterleavedBatchItemsTest, K53ReadsWholeBatchesOfItems) {
  const std::vector<int64_t> items = Unwrap(InterleavedBatchItems(100, 10, 2, 1, false));
  ASSERT_EQ(items.size(), 50u);
  EXPECT_EQ(items[0], 10);
  EXPECT_EQ(items[10], 30);
  EXPECT_EQ(items[40], 90);
}

TEST(InterleavedBatchItemsTest, CountIncludesThePartialLastBatch) {
  EXPECT_EQ(Unwrap(NumInterleavedBatchItems(25, 10, 2, 0, false)), 15);
  EXPECT_EQ(Unwrap(NumInterleavedBatchItems(25, 10, 2, 1, false)), 10);
  EXPECT_EQ(Unwrap(NumInterleavedBatchItems(25, 10, 2, 0, true)), 10);
}

TEST(InterleavedSamplesTest, K57InterleavesSamples) {
  const std::vector<int64_t> samples = Unwrap(InterleavedSamples(100, 2, 1, false));
  ASSERT_EQ(samples.size(), 50u);
  EXPECT_EQ(samples[10], 21);
}

TEST(InterleavedSamplesTest, PadsFromTheStartOrDrops) {
  EXPECT_THAT(Unwrap(InterleavedSamples(10, 4, 3, false)), ElementsAre(3, 7, 1));
  EXPECT_THAT(Unwrap(InterleavedSamples(10, 4, 3, true)), ElementsAre(3, 7));
  EXPECT_THAT(Unwrap(InterleavedSamples(2, 5, 3, true)), IsEmpty());
  EXPECT_THAT(Unwrap(InterleavedSamples(0, 5, 3, false)), IsEmpty());
}

// torch 2.15's ValueError texts (torch/utils/data/distributed.py): Keras
// hands its shard to DistributedSampler unchecked, so these are what a Keras
// user meets.
TEST(InterleavedSamplesTest, RankPastTheEndIsTorchsError) {
  EXPECT_THAT(InterleavedSamples(5, 3, 3, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid rank 3, rank should be in the interval [0, 2]"));
  EXPECT_THAT(NumInterleavedSamples(5, 3, 3, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid rank 3, rank should be in the interval [0, 2]"));
}

TEST(InterleavedSamplesTest, NegativeRankIsTorchsError) {
  EXPECT_THAT(InterleavedSamples(5, 3, -1, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid rank -1, rank should be in the interval [0, 2]"));
}

TEST(InterleavedSamplesTest, NoReplicasFailsOnTheRankAsInTorch) {
  EXPECT_THAT(InterleavedSamples(5, 0, 0, true),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid rank 0, rank should be in the interval [0, -1]"));
  EXPECT_THAT(InterleavedSamples(5, -2, 0, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid rank 0, rank should be in the interval [0, -3]"));
}

TEST(InterleavedSamplesTest, TheLowestReplicaCountPrintsPythonsDifference) {
  EXPECT_THAT(InterleavedSamples(5, std::numeric_limits<int64_t>::min(), 0, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Invalid rank 0, rank should be in the interval [0, -9223372036854775809]"));
}

TEST(InterleavedSamplesTest, NegativeCountIsInvalid) {
  EXPECT_THAT(InterleavedSamples(-1, 2, 0, false),
              StatusIs(absl::StatusCode::kInvalidArgument, "Argument 'num_items' is -1; expected at least 0"));
}

// Shuffled expectations are torch 2.15's list(DistributedSampler(range(N),
// num_replicas=S, rank=i, shuffle=True, seed=seed, drop_last=d)) after
// set_epoch(epoch).
TEST(InterleavedShuffledSamplesTest, ReadsTorchsSeededPermutationRoundRobin) {
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 4, 3, false, 0, 0)), ElementsAre(5, 8, 1));
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 4, 3, true, 0, 0)), ElementsAre(5, 8));
}

TEST(InterleavedShuffledSamplesTest, K59TheEpochReseeds) {
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 4, 0, false, 0, 1)), ElementsAre(5, 0, 7));
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 4, 0, false, 0, 2)), ElementsAre(8, 6, 2));
}

// Only seed + epoch reaches the generator: seed 2, epoch 3 is seed 5, epoch 0.
TEST(InterleavedShuffledSamplesTest, SeedAndEpochCountOnlyAsTheirSum) {
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 3, 2, false, 2, 3)), ElementsAre(9, 5, 8, 4));
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 3, 2, false, 5, 0)), ElementsAre(9, 5, 8, 4));
}

// seed=-1 with set_epoch(1) is torch's manual_seed(0).
TEST(InterleavedShuffledSamplesTest, TheSumWrapsAsTorchReadsANegativeSeed) {
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 3, 2, false, UINT64_MAX, 1)), ElementsAre(7, 9, 6, 1));
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(10, 3, 2, false, 0, 0)), ElementsAre(7, 9, 6, 1));
}

TEST(InterleavedShuffledSamplesTest, PadsFromTheStartOfThePermutation) {
  EXPECT_THAT(Unwrap(InterleavedShuffledSamples(2, 5, 4, false, 7, 0)), ElementsAre(1));
}

TEST(InterleavedShuffledSamplesTest, K55EveryRankReadsOnePermutation) {
  std::vector<int64_t> all;
  for (int64_t rank = 0; rank < 3; ++rank) {
    const std::vector<int64_t> samples = Unwrap(InterleavedShuffledSamples(12, 3, rank, true, 9, 1));
    all.insert(all.end(), samples.begin(), samples.end());
  }
  EXPECT_THAT(all, ::testing::UnorderedElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
}

TEST(InterleavedShuffledSamplesTest, RankPastTheEndIsTorchsError) {
  EXPECT_THAT(InterleavedShuffledSamples(5, 3, 3, false, 0, 0),
              StatusIs(absl::StatusCode::kInvalidArgument, "Invalid rank 3, rank should be in the interval [0, 2]"));
}

}  // namespace
}  // namespace tessera
