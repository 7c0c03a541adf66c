// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The current distribution: a process-wide default plus a per-thread scope
// stack (Keras's set_distribution and `with distribution.scope():`).
#include <stdexcept>
#include <thread>

#include "core/distribution.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::HasSubstr;
using testing::CpuMesh;
using testing::IsOk;
using testing::StatusIs;
using testing::Unwrap;

class CurrentDistributionTest : public ::testing::Test {
 protected:
  void TearDown() override {
    while (PopDistributionScope().ok()) {
    }
    SetDefaultDistribution(nullptr);
  }

  DistributionPtr NewDistribution() { return Unwrap(Distribution::DataParallel(CpuMesh({8}, {"batch"}))); }

  // CurrentDistribution() as another thread sees it.
  static DistributionPtr CurrentOnAnotherThread() {
    DistributionPtr seen;
    std::thread thread([&seen] { seen = CurrentDistribution(); });
    thread.join();
    return seen;
  }
};

TEST_F(CurrentDistributionTest, NoneByDefault) {
  EXPECT_EQ(CurrentDistribution(), nullptr);
}

TEST_F(CurrentDistributionTest, DefaultIsCurrentOnEveryThread) {
  DistributionPtr dist = NewDistribution();
  SetDefaultDistribution(dist);
  EXPECT_EQ(CurrentDistribution(), dist);
  EXPECT_EQ(CurrentOnAnotherThread(), dist);
}

TEST_F(CurrentDistributionTest, SettingNullClearsTheDefault) {
  SetDefaultDistribution(NewDistribution());
  SetDefaultDistribution(nullptr);
  EXPECT_EQ(CurrentDistribution(), nullptr);
}

TEST_F(CurrentDistributionTest, ScopeOverridesTheDefaultUntilPopped) {
  DistributionPtr fallback = NewDistribution();
  DistributionPtr scoped = NewDistribution();
  SetDefaultDistribution(fallback);
  PushDistributionScope(scoped);
  EXPECT_EQ(CurrentDistribution(), scoped);
  ASSERT_THAT(PopDistributionScope(), IsOk());
  EXPECT_EQ(CurrentDistribution(), fallback);
}

TEST_F(CurrentDistributionTest, InnermostScopeWins) {
  DistributionPtr outer = NewDistribution();
  DistributionPtr inner = NewDistribution();
  PushDistributionScope(outer);
  PushDistributionScope(inner);
  EXPECT_EQ(CurrentDistribution(), inner);
  ASSERT_THAT(PopDistributionScope(), IsOk());
  EXPECT_EQ(CurrentDistribution(), outer);
}

TEST_F(CurrentDistributionTest, PopWithoutAScopeIsAFailedPrecondition) {
  EXPECT_THAT(PopDistributionScope(), StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("scope")));
}

TEST_F(CurrentDistributionTest, ScopesBelongToTheThreadThatOpensThem) {
  DistributionPtr fallback = NewDistribution();
  SetDefaultDistribution(fallback);
  PushDistributionScope(NewDistribution());
  EXPECT_EQ(CurrentOnAnotherThread(), fallback);
}

TEST_F(CurrentDistributionTest, AnotherThreadCannotPopThisThreadsScope) {
  PushDistributionScope(NewDistribution());
  absl::Status popped;
  std::thread thread([&popped] { popped = PopDistributionScope(); });
  thread.join();
  EXPECT_THAT(popped, StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("scope")));
}

TEST_F(CurrentDistributionTest, ScopeObjectPopsOnDestruction) {
  DistributionPtr dist = NewDistribution();
  {
    DistributionScope scope(dist);
    EXPECT_EQ(CurrentDistribution(), dist);
  }
  EXPECT_EQ(CurrentDistribution(), nullptr);
}

TEST_F(CurrentDistributionTest, ScopeObjectPopsDuringUnwinding) {
  DistributionPtr outer = NewDistribution();
  DistributionScope outer_scope(outer);
  try {
    DistributionScope inner_scope(NewDistribution());
    throw std::runtime_error("raised inside the scope");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(CurrentDistribution(), outer);
}

TEST_F(CurrentDistributionTest, ScopeKeepsItsDistributionAlive) {
  std::weak_ptr<const Distribution> weak;
  {
    DistributionPtr dist = NewDistribution();
    weak = dist;
    PushDistributionScope(std::move(dist));
  }
  EXPECT_FALSE(weak.expired());
  ASSERT_THAT(PopDistributionScope(), IsOk());
  EXPECT_TRUE(weak.expired());
}

}  // namespace
}  // namespace tessera
