// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// DTensor's configuration (config.py) read from explicit variables: each
// query answers, or fails, as the config.py function of that name does.
// The D vectors are in tests/capi/conformance_dtensor_config.c.
#include "core/dtensor_config.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

DTensorConfig Config(DTensorConfig::Variables variables, std::map<std::string, int64_t> counts = {}) {
  return DTensorConfig(std::move(variables), std::move(counts), true);
}

TEST(DTensorConfig, NoVariablesIsOneLocalClient) {
  const DTensorConfig config = Config({});
  EXPECT_EQ(Unwrap(config.ClientId()), 0);
  EXPECT_EQ(Unwrap(config.NumClients()), 1);
  EXPECT_EQ(Unwrap(config.JobName()), "localhost");
  EXPECT_EQ(Unwrap(config.FullJobName(std::nullopt)), "localhost/replica:0/task:0");
  EXPECT_THAT(Unwrap(config.Jobs()), ElementsAre());
  EXPECT_TRUE(Unwrap(config.IsLocalMode()));
}

TEST(DTensorConfig, NumClientsIsTheNumberOfJobs) {
  EXPECT_EQ(Unwrap(Config({{"DTENSOR_JOBS", "a:1,b:1,c:1"}}).NumClients()), 3);
}

TEST(DTensorConfig, LegacyNumClientsIsIgnored) {
  EXPECT_EQ(Unwrap(Config({{"DTENSOR_NUM_CLIENTS", "4"}}).NumClients()), 1);
}

TEST(DTensorConfig, JobNameDefaultsToWorkerWithSeveralClients) {
  EXPECT_EQ(Unwrap(Config({{"DTENSOR_JOBS", "a:1,b:1"}}).JobName()), "worker");
}

TEST(DTensorConfig, EmptyJobNameIsKept) {
  EXPECT_EQ(Unwrap(Config({{"DTENSOR_JOB_NAME", ""}}).JobName()), "");
}

TEST(DTensorConfig, FullJobNameOfAnotherTask) {
  EXPECT_EQ(Unwrap(Config({{"DTENSOR_JOBS", "a:1,b:1"}, {"DTENSOR_JOB_NAME", "tpu"}})
                       .FullJobName(1)),
            "tpu/replica:0/task:1");
}

TEST(DTensorConfig, NonZeroTaskInLocalRunsIsAnError) {
  EXPECT_THAT(Config({}).FullJobName(2), StatusIs(kInvalid, "Unexpected task ID 2 in local runs"));
}

TEST(DTensorConfig, NegativeClientIdIsAnError) {
  EXPECT_THAT(Config({{"DTENSOR_CLIENT_ID", "-1"}}).ClientId(),
              StatusIs(kInvalid, "Environment variable DTENSOR_CLIENT_ID must be >= 0, got -1. "));
}

TEST(DTensorConfig, ClientIdAtTheNumberOfClientsIsAnError) {
  EXPECT_THAT(Config({{"DTENSOR_JOBS", "a:1,b:1"}, {"DTENSOR_CLIENT_ID", "2"}}).ClientId(),
              StatusIs(kInvalid, "Environment variable DTENSOR_CLIENT_ID must be < 2, got 2"));
}

TEST(DTensorConfig, ClientIdIsReadAsPythonsIntReadsIt) {
  EXPECT_EQ(Unwrap(Config({{"DTENSOR_JOBS", std::string(12, ',')}, {"DTENSOR_CLIENT_ID", " 1_0\n"}})
                       .ClientId()),
            10);
}

TEST(DTensorConfig, NonIntegerClientIdHasPythonsMessage) {
  EXPECT_THAT(Config({{"DTENSOR_CLIENT_ID", "one"}}).ClientId(),
              StatusIs(kInvalid, "invalid literal for int() with base 10: 'one'"));
}

TEST(DTensorConfig, UnsortedBnsJobsAreAnError) {
  EXPECT_THAT(Config({{"DTENSOR_JOBS", "/bns/c/w/10:p,/bns/c/w/2:p"}}).Jobs(),
              StatusIs(kInvalid, "Unexpected DTENSOR_JOBS content /bns/c/w/10:p,/bns/c/w/2:p. Sort "
                                 "entries in DTENSOR_JOBS because cluster construction relies on "
                                 "the order."));
}

TEST(DTensorConfig, BnsJobsSortedByTaskIdAreKept) {
  EXPECT_THAT(Unwrap(Config({{"DTENSOR_JOBS", "/bns/l/2,/bns/l/10:8888"}}).Jobs()),
              ElementsAre("/bns/l/2", "/bns/l/10:8888"));
}

TEST(DTensorConfig, BnsJobsMixingNumericAndOtherTaskIdsCannotBeCompared) {
  EXPECT_THAT(Config({{"DTENSOR_JOBS", "/bns/l/0,/bns/l/x"}}).Jobs(),
              StatusIs(kInvalid, "'<' not supported between instances of 'str' and 'int'"));
}

TEST(DTensorConfig, UnsortedBnsJobsFailTheJobName) {
  // job_name() computes its default from num_clients(), hence from jobs().
  EXPECT_THAT(Config({{"DTENSOR_JOBS", "/bns/l/1,/bns/l/0"}, {"DTENSOR_JOB_NAME", "w"}}).JobName(),
              StatusIs(kInvalid, ::testing::StartsWith("Unexpected DTENSOR_JOBS content")));
}

TEST(DTensorConfig, HeartbeatIsEnabledByDefault) { EXPECT_TRUE(Config({}).HeartbeatEnabled()); }

TEST(DTensorConfig, HeartbeatValueIsCaseInsensitive) {
  EXPECT_TRUE(Config({{"DTENSOR_ENABLE_HEARTBEAT", "TRUE"}}).HeartbeatEnabled());
  EXPECT_TRUE(Config({{"DTENSOR_ENABLE_HEARTBEAT", "1"}}).HeartbeatEnabled());
  EXPECT_FALSE(Config({{"DTENSOR_ENABLE_HEARTBEAT", "yes"}}).HeartbeatEnabled());
}

TEST(DTensorConfig, LocalDevicesNameThisClientsTask) {
  const DTensorConfig config =
      Config({{"DTENSOR_JOBS", "a:1,b:1"}, {"DTENSOR_CLIENT_ID", "1"}}, {{"GPU", 2}});
  EXPECT_THAT(Unwrap(config.LocalDevices("gpu")),
              ElementsAre("/job:worker/replica:0/task:1/device:GPU:0",
                          "/job:worker/replica:0/task:1/device:GPU:1"));
  EXPECT_EQ(Unwrap(config.NumGlobalDevices("GPU")), 4);
}

TEST(DTensorConfig, LocalDevicesOfAnUnknownTypeAreAnError) {
  EXPECT_THAT(Config({}).LocalDevices("XPU"),
              StatusIs(kInvalid, "Device type XPU is not CPU, GPU, or TPU."));
}

TEST(DTensorConfig, AssignmentsSplitAtTheFirstEqualsSign) {
  const DTensorConfig::Variables vars =
      Unwrap(DTensorConfig::ParseAssignments({"DTENSOR_JOB_NAME=a=b", "X="}));
  EXPECT_EQ(vars.at("DTENSOR_JOB_NAME"), "a=b");
  EXPECT_EQ(vars.at("X"), "");
}

TEST(DTensorConfig, AssignmentWithoutEqualsSignIsAnError) {
  EXPECT_THAT(DTensorConfig::ParseAssignments({"DTENSOR_JOBS"}),
              StatusIs(kInvalid, "Argument 'variables' entry 0 'DTENSOR_JOBS' is not NAME=VALUE "
                                 "with a non-empty NAME"));
}

TEST(DTensorConfig, LegacyReadingsHaveApiPysDefaults) {
  const DTensorConfig config = Config({});
  EXPECT_EQ(Unwrap(config.LegacyNumClients()), 1);
  EXPECT_EQ(Unwrap(config.LegacyClientId()), 0);
  EXPECT_EQ(config.LegacyJobName(), "localhost");
}

}  // namespace
}  // namespace tessera
