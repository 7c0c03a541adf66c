// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Conformance of configuration resolution with keras.distribution.initialize
// (keras_cases.md K1 K3 K67 K69 K93 K153, keras.md §1.3) and DTensor's
// DTENSOR_* variables (dtensor_cases.md D87, dtensor.md §3 messages).
//
// Interpreted for Tessera: Keras hands (job_addresses, num_processes,
// process_id) to jax.distributed.initialize; Tessera resolves the same
// triple into a coordinator address, a process count and an id. Keras's
// arguments enter through KERAS_DISTRIBUTION_* (the layer Keras reads when an
// argument is None) and Tessera's explicit options stand for explicit
// arguments, which win over the variables as in Keras.
#include <string>
#include <vector>

#include "core/cluster/detect.h"
#include "core/cluster/framework_env.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera::cluster {
namespace {

using ::tessera::testing::ScopedEnv;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;
using ::testing::HasSubstr;

struct Expected {
  std::string coordinator_address;
  int64_t num_processes;
  int64_t process_id;
  std::string source;
};

struct Case {
  const char* vector;
  const char* what;
  Environment env;
  ClusterOptions options;
  Expected expected;
};

ClusterOptions Explicit(std::optional<std::string> address, std::optional<int64_t> num, std::optional<int64_t> id) {
  ClusterOptions options;
  if (address) options.coordinator_address = Unwrap(ParseHostPort(*address, "address"));
  options.num_processes = num;
  options.process_id = id;
  return options;
}

class KerasInitialize : public ::testing::TestWithParam<Case> {};

TEST_P(KerasInitialize, ResolvesTheTripleKerasPassesOn) {
  const Case& c = GetParam();
  const Detection d = Unwrap(Detect(c.options, c.env));
  EXPECT_EQ(AddressText(d.config.coordinator_address), c.expected.coordinator_address);
  EXPECT_EQ(d.config.num_processes, c.expected.num_processes);
  EXPECT_EQ(d.config.process_id, c.expected.process_id);
  EXPECT_EQ(d.source, c.expected.source);
}

const char kTwoJobs[] = "10.0.0.1:1234,10.0.0.2:2345";

INSTANTIATE_TEST_SUITE_P(
    Vectors, KerasInitialize,
    ::testing::Values(
        // K1: initialize("10.0.0.1:1234,10.0.0.2:2345", 2, 0): the list is
        // passed on unchanged and JAX's backend takes its first entry.
        Case{"K1", "all three from Keras",
             {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs},
              {"KERAS_DISTRIBUTION_NUM_PROCESSES", "2"},
              {"KERAS_DISTRIBUTION_PROCESS_ID", "0"}},
             {},
             {"10.0.0.1:1234", 2, 0, "keras"}},
        Case{"K1", "count and id explicit, addresses from Keras",
             {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs}},
             Explicit(std::nullopt, 2, 0),
             {"10.0.0.1:1234", 2, 0, "options"}},
        // K3: initialize() with no environment: (None, None, None); Tessera
        // runs one process without a coordinator.
        Case{"K3", "nothing set", {}, {}, {"", 1, 0, "single-process"}},
        // K67: the backend splits the list; coordinator = first entry.
        Case{"K67", "first of the list",
             {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs},
              {"KERAS_DISTRIBUTION_NUM_PROCESSES", "2"},
              {"KERAS_DISTRIBUTION_PROCESS_ID", "1"}},
             {},
             {"10.0.0.1:1234", 2, 1, "keras"}},
        // K69: a single address is the coordinator as given.
        Case{"K69", "one address",
             {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", "10.0.0.1:1234"},
              {"KERAS_DISTRIBUTION_NUM_PROCESSES", "2"},
              {"KERAS_DISTRIBUTION_PROCESS_ID", "0"}},
             {},
             {"10.0.0.1:1234", 2, 0, "keras"}},
        // K93 (torch backend): ("127.0.0.1:29506", 1, 0) with MASTER_* unset.
        Case{"K93", "address with port, one process", {}, Explicit("127.0.0.1:29506", 1, 0),
             {"127.0.0.1:29506", 1, 0, "options"}},
        // K93: ("127.0.0.1", 1, 0) with MASTER_PORT=29507: Tessera does not
        // reuse torch's store port, and one process needs no coordinator.
        Case{"K93", "address without port, MASTER_PORT preset",
             {{"MASTER_PORT", "29507"}},
             Explicit("127.0.0.1", 1, 0),
             {"", 1, 0, "options"}},
        // K93: (None, 1, 0) with MASTER_ADDR/MASTER_PORT preset: torchrun's
        // set is partial (no RANK, WORLD_SIZE, LOCAL_RANK), so it is skipped.
        Case{"K93", "MASTER_ADDR and MASTER_PORT preset",
             {{"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "29508"}},
             Explicit(std::nullopt, 1, 0),
             {"", 1, 0, "options"}},
        // K153: an explicit num_processes beats KERAS_DISTRIBUTION_NUM_PROCESSES.
        Case{"K153", "explicit count wins",
             {{"KERAS_DISTRIBUTION_NUM_PROCESSES", "4"},
              {"KERAS_DISTRIBUTION_JOB_ADDRESSES", "10.0.0.1:1234"},
              {"KERAS_DISTRIBUTION_PROCESS_ID", "1"}},
             Explicit(std::nullopt, 2, std::nullopt),
             {"10.0.0.1:1234", 2, 1, "keras"}}),
    [](const ::testing::TestParamInfo<Case>& info) {
      return std::string(info.param.vector) + "_" + std::to_string(info.index);
    });

TEST(KerasInitializeErrors, K153_NonIntegerProcessIdIsAnError) {
  EXPECT_THAT(Detect({}, {{"KERAS_DISTRIBUTION_PROCESS_ID", "abc"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "invalid literal for int() with base 10: 'abc' (environment variable KERAS_DISTRIBUTION_PROCESS_ID)"));
}

TEST(KerasInitializeErrors, K153_FromTheProcessEnvironment) {
  ScopedEnv count("KERAS_DISTRIBUTION_NUM_PROCESSES", "4");
  ScopedEnv id("KERAS_DISTRIBUTION_PROCESS_ID", "abc");
  ClusterOptions options = Explicit("10.0.0.1:1234", 2, std::nullopt);
  EXPECT_THAT(Detect(options, ProcessEnvironment()),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("KERAS_DISTRIBUTION_PROCESS_ID")));
  options.process_id = 1;  // explicit: Keras never parses the variable
  EXPECT_EQ(Unwrap(Detect(options, ProcessEnvironment())).config.num_processes, 2);
}

TEST(KerasInitializeErrors, AddressCountMustEqualProcessCount) {
  // keras.md §1.3: Keras's own message, the list in Python's repr.
  EXPECT_THAT(Detect({}, {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs},
                          {"KERAS_DISTRIBUTION_NUM_PROCESSES", "3"},
                          {"KERAS_DISTRIBUTION_PROCESS_ID", "0"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The provided job_addresses ['10.0.0.1:1234', '10.0.0.2:2345'] has 2 jobs, but num_processes "
                       "is 3"));
  // The explicit count is the one checked.
  EXPECT_THAT(Detect(Explicit(std::nullopt, 4, 0), {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("has 2 jobs, but num_processes is 4")));
}

// ---------------------------------------------------------------- DTensor

std::string DescendingLocalhostJobs() {
  std::string jobs;
  for (int port = 16; port >= 1; --port) jobs += (jobs.empty() ? "" : ",") + ("localhost:" + std::to_string(port));
  return jobs;
}

TEST(DtensorEnvironment, D87_UnsortedHostPortJobsAreAcceptedInTheirOrder) {
  const Detection d = Unwrap(Detect({}, {{"DTENSOR_JOBS", DescendingLocalhostJobs()}, {"DTENSOR_CLIENT_ID", "5"}}));
  EXPECT_EQ(d.source, "dtensor");
  EXPECT_EQ(d.config.num_processes, 16);
  EXPECT_EQ(d.config.process_id, 5);
  // Order kept: client 0 is the first entry, localhost:16.
  EXPECT_EQ(AddressText(d.config.coordinator_address), "localhost:16");
}

TEST(DtensorEnvironment, MultiClientHarnessVariables) {
  // dtensor.md §5: what multi_client_test sets for client i.
  const Detection d = Unwrap(Detect(
      {}, {{"DTENSOR_CLIENT_ID", "1"}, {"DTENSOR_JOB_NAME", "worker"}, {"DTENSOR_JOBS", "h0:9000,h1:9000"}}));
  EXPECT_EQ(AddressText(d.config.coordinator_address), "h0:9000");
  EXPECT_EQ(d.config.num_processes, 2);
  EXPECT_EQ(d.config.process_id, 1);
}

TEST(DtensorEnvironment, ClientIdDefaultsToZero) {
  EXPECT_EQ(Unwrap(Detect({}, {{"DTENSOR_JOBS", "h0:1,h1:1"}})).config.process_id, 0);
}

TEST(DtensorEnvironment, LocalModeIsOneProcess) {
  // No DTENSOR_JOBS: DTensor's local mode (one client, job "localhost").
  const Detection d = Unwrap(Detect({}, {{"DTENSOR_JOB_NAME", "localhost"}, {"DTENSOR_CLIENT_ID", "0"}}));
  EXPECT_EQ(d.source, "single-process");
  EXPECT_EQ(d.config.num_processes, 1);
}

TEST(DtensorEnvironment, BnsJobsSortedByNumericTaskIdAreAccepted) {
  std::string jobs;
  for (int task = 0; task <= 10; ++task) jobs += (task ? "," : "") + ("/bns/cell/job/" + std::to_string(task) + ":port");
  const Detection d = Unwrap(Detect({}, {{"DTENSOR_JOBS", jobs},
                                         {"DTENSOR_CLIENT_ID", "10"},
                                         {"TESSERA_COORDINATOR_ADDRESS", "head:9000"}}));
  EXPECT_EQ(d.config.num_processes, 11);
  EXPECT_EQ(d.config.process_id, 10);
  EXPECT_EQ(AddressText(d.config.coordinator_address), "head:9000");
}

TEST(DtensorEnvironment, BnsJobsNeedAnExplicitCoordinator) {
  EXPECT_THAT(Detect({}, {{"DTENSOR_JOBS", "/bns/c/j/0:p,/bns/c/j/1:p"}, {"DTENSOR_CLIENT_ID", "1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is a BNS name, not an address")));
}

struct DtensorError {
  const char* what;
  Environment env;
  const char* message;
};

class DtensorErrors : public ::testing::TestWithParam<DtensorError> {};

TEST_P(DtensorErrors, DtensorsMessage) {
  EXPECT_THAT(Detect({}, GetParam().env), StatusIs(absl::StatusCode::kInvalidArgument, GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Messages, DtensorErrors,
    ::testing::Values(
        DtensorError{"NegativeClientId",
                     {{"DTENSOR_JOBS", "a:1,b:1"}, {"DTENSOR_CLIENT_ID", "-1"}},
                     "Environment variable DTENSOR_CLIENT_ID must be >= 0, got -1. "},
        DtensorError{"ClientIdNotBelowJobCount",
                     {{"DTENSOR_JOBS", "a:1,b:1"}, {"DTENSOR_CLIENT_ID", "2"}},
                     "Environment variable DTENSOR_CLIENT_ID must be < 2, got 2"},
        DtensorError{"ClientIdInLocalMode",
                     {{"DTENSOR_CLIENT_ID", "1"}},
                     "Environment variable DTENSOR_CLIENT_ID must be < 1, got 1"},
        DtensorError{"UnsortedBnsJobs",
                     {{"DTENSOR_JOBS", "/bns/c/w/1:p,/bns/c/w/0:p"}},
                     "Unexpected DTENSOR_JOBS content /bns/c/w/1:p,/bns/c/w/0:p. Sort entries in DTENSOR_JOBS because "
                     "cluster construction relies on the order."},
        DtensorError{"BnsJobsSortedAsTextNotAsNumbers",
                     {{"DTENSOR_JOBS", "/bns/c/w/10:p,/bns/c/w/2:p"}},
                     "Unexpected DTENSOR_JOBS content /bns/c/w/10:p,/bns/c/w/2:p. Sort entries in DTENSOR_JOBS because "
                     "cluster construction relies on the order."},
        DtensorError{"LegacyMultiClientWithoutJobs",
                     {{"DTENSOR_JOB_NAME", "worker"}},
                     "DTENSOR_JOBS environment variable is required whenusing multi-client to properly set up "
                     "communications between servers"},
        DtensorError{"LegacyNumClientsInLocalMode",
                     {{"DTENSOR_NUM_CLIENTS", "2"}},
                     "DTENSOR_NUM_CLIENTS is set and not 1, while DTENSOR_JOB_NAME is set to localhost for single "
                     "client mode."},
        DtensorError{"NumClientsDisagreesWithJobs",
                     {{"DTENSOR_JOBS", "a:1,b:1"}, {"DTENSOR_NUM_CLIENTS", "3"}},
                     "Environment variable DTENSOR_NUM_CLIENTS is 3 but DTENSOR_JOBS lists 2 jobs"},
        DtensorError{"NonIntegerClientId",
                     {{"DTENSOR_JOBS", "a:1,b:1"}, {"DTENSOR_CLIENT_ID", "one"}},
                     "Environment variable DTENSOR_CLIENT_ID must be an integer, got \"one\""}),
    [](const ::testing::TestParamInfo<DtensorError>& info) { return std::string(info.param.what); });

// keras.distribution.initialize's own resolution, before any Tessera rule:
// what Keras hands its backend (K1 K3 K67 K69 K153).

TEST(KerasInitializeResolution, K3NothingSetIsNoneNoneNone) {
  const KerasInitializeResolution r = Unwrap(ResolveKerasInitialize({}, {}));
  EXPECT_FALSE(r.arguments.job_addresses.has_value());
  EXPECT_FALSE(r.arguments.num_processes.has_value());
  EXPECT_FALSE(r.arguments.process_id.has_value());
  EXPECT_FALSE(r.coordinator_address.has_value());
}

TEST(KerasInitializeResolution, AMissingProcessCountStaysNone) {
  const KerasInitializeResolution r = Unwrap(ResolveKerasInitialize(
      {}, {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs}, {"KERAS_DISTRIBUTION_PROCESS_ID", "1"}}));
  EXPECT_FALSE(r.arguments.num_processes.has_value());
  EXPECT_EQ(r.arguments.process_id, 1);
  EXPECT_EQ(r.coordinator_address, "10.0.0.1:1234");
  EXPECT_THAT(r.job_address_list, ::testing::ElementsAre("10.0.0.1:1234", "10.0.0.2:2345"));
}

TEST(KerasInitializeResolution, K153ExplicitArgumentsWin) {
  KerasInitializeArguments given;
  given.num_processes = 2;
  const KerasInitializeResolution r =
      Unwrap(ResolveKerasInitialize(given, {{"KERAS_DISTRIBUTION_NUM_PROCESSES", "4"}}));
  EXPECT_EQ(r.arguments.num_processes, 2);
  EXPECT_FALSE(r.num_processes_from_env);
}

TEST(KerasInitializeResolution, NumbersAreReadAsPythonsIntReadsThem) {
  const KerasInitializeResolution r = Unwrap(ResolveKerasInitialize(
      {}, {{"KERAS_DISTRIBUTION_NUM_PROCESSES", " +1_000 "}, {"KERAS_DISTRIBUTION_PROCESS_ID", "-0"}}));
  EXPECT_EQ(r.arguments.num_processes, 1000);
  EXPECT_EQ(r.arguments.process_id, 0);
}

TEST(KerasInitializeResolution, PythonsIntRefusesMisplacedUnderscores) {
  for (const char* text : {"_1", "1_", "1__0", "", " ", "+", "0x10", "1.0"}) {
    SCOPED_TRACE(text);
    EXPECT_THAT(ResolveKerasInitialize({}, {{"KERAS_DISTRIBUTION_NUM_PROCESSES", text}}),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("invalid literal for int() with base 10: ")));
  }
}

TEST(KerasInitializeResolution, AnEmptyAddressIsPassedOnAsTheCoordinator) {
  // JAX's backend: "" is falsy, so no split; coordinator_address = "".
  const KerasInitializeResolution r = Unwrap(ResolveKerasInitialize({}, {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", ""}}));
  EXPECT_EQ(r.coordinator_address, "");
}

// Keras leaves an unset count None for JAX to detect; Tessera's launchers
// are that detection: torchrun's WORLD_SIZE fills it in.
TEST(KerasInitializeErrors, AMissingCountIsDetectedByALauncher) {
  const Detection d = Unwrap(Detect({}, {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs},
                                         {"KERAS_DISTRIBUTION_PROCESS_ID", "1"},
                                         {"WORLD_SIZE", "2"},
                                         {"RANK", "1"},
                                         {"LOCAL_RANK", "0"},
                                         {"MASTER_ADDR", "10.0.0.1"},
                                         {"MASTER_PORT", "29500"}}));
  EXPECT_EQ(d.config.num_processes, 2);
  EXPECT_EQ(d.config.process_id, 1);
  EXPECT_EQ(AddressText(d.config.coordinator_address), "10.0.0.1:1234");
}

TEST(KerasInitializeErrors, AMissingCountNoLauncherGivesIsIncomplete) {
  EXPECT_THAT(Detect({}, {{"KERAS_DISTRIBUTION_JOB_ADDRESSES", kTwoJobs}, {"KERAS_DISTRIBUTION_PROCESS_ID", "1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("keras gives process_id 1 but no process count; no launcher gave one either")));
}

}  // namespace
}  // namespace tessera::cluster
