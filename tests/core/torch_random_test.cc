// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// torch's seeded CPU permutation (torch_random.h). Expected values are what
// torch 2.15 prints for `g = torch.Generator(); g.manual_seed(seed);
// torch.randperm(n, generator=g).tolist()`.
#include "core/torch_random.h"

#include <cstdint>
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

TEST(TorchRandpermTest, MatchesTorchForSeedZero) {
  EXPECT_THAT(Unwrap(TorchRandperm(10, 0)), ElementsAre(4, 1, 7, 5, 3, 9, 0, 8, 6, 2));
}

TEST(TorchRandpermTest, MatchesTorchForSeed42) {
  EXPECT_THAT(Unwrap(TorchRandperm(10, 42)), ElementsAre(2, 6, 1, 8, 4, 5, 0, 9, 3, 7));
}

// at::mt19937 keeps the seed's low 32 bits: manual_seed(2**32 + 3) and
// manual_seed(3) give one order.
TEST(TorchRandpermTest, OnlyTheLow32BitsOfTheSeedCount) {
  EXPECT_THAT(Unwrap(TorchRandperm(7, (uint64_t{1} << 32) + 3)), ElementsAre(5, 3, 4, 6, 0, 2, 1));
  EXPECT_THAT(Unwrap(TorchRandperm(7, 3)), ElementsAre(5, 3, 4, 6, 0, 2, 1));
}

// manual_seed(-1) is manual_seed(2**64 - 1).
TEST(TorchRandpermTest, ANegativeSeedIsItsTwosComplement) {
  EXPECT_THAT(Unwrap(TorchRandperm(5, UINT64_MAX)), ElementsAre(1, 3, 4, 2, 0));
}

TEST(TorchRandpermTest, NoItemsAndOneItem) {
  EXPECT_THAT(Unwrap(TorchRandperm(0, 7)), IsEmpty());
  EXPECT_THAT(Unwrap(TorchRandperm(1, 7)), ElementsAre(0));
}

TEST(TorchRandpermTest, NegativeCountIsTorchsError) {
  EXPECT_THAT(TorchRandperm(-1, 0), StatusIs(absl::StatusCode::kInvalidArgument,
                                             "Trying to create tensor with negative dimension -1: [-1]"));
}

}  // namespace
}  // namespace tessera
