// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Configuration resolution and launcher detection (core/cluster/detect.h):
// every launcher from an environment fixture, partial variable sets,
// conflicting launchers, precedence between sources, and the explanation.
#include "core/cluster/detect.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "core/cluster/host_port.h"
#include "core/cluster/launchers.h"
#include "core/cluster/slurm_nodelist.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera::cluster {
namespace {

using ::tessera::testing::IsOk;
using ::tessera::testing::ScopedEnv;
using ::tessera::testing::ScopedLogCapture;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

Detection DetectOk(const Environment& env, const ClusterOptions& options = {}) {
  return Unwrap(Detect(options, env));
}

std::string Explanation(const Detection& detection) { return absl::StrJoin(detection.explanation, "\n"); }

// The explanation line of one source ("slurm: ...").
std::string LineOf(const Detection& detection, const std::string& source) {
  for (const std::string& line : detection.explanation) {
    if (line.rfind(source + ":", 0) == 0) return line;
  }
  return "";
}

const Environment kSlurm = {
    {"SLURM_JOB_ID", "12345"},  {"SLURM_STEP_NODELIST", "n[001-015],h2"}, {"SLURM_NTASKS", "16"},
    {"SLURM_PROCID", "3"},      {"SLURM_LOCALID", "1"},
};

// Options with a coordinator address (and optionally count and id).
ClusterOptions WithAddress(std::string address, std::optional<int64_t> num = std::nullopt,
                           std::optional<int64_t> id = std::nullopt) {
  ClusterOptions options;
  options.coordinator_address = Unwrap(ParseHostPort(address, "address", /*allow_port_zero=*/true));
  options.num_processes = num;
  options.process_id = id;
  return options;
}

ClusterOptions WithJobId(std::string job_id) {
  ClusterOptions options;
  options.job_id = std::move(job_id);
  return options;
}

Environment With(Environment env, const Environment& more) {
  for (const auto& [name, value] : more) env[name] = value;
  return env;
}

// ---------------------------------------------------------------- Slurm node lists

TEST(SlurmNodelist, SingleHost) {
  EXPECT_THAT(Unwrap(ExpandSlurmNodelist("n001")), ElementsAre("n001"));
}

TEST(SlurmNodelist, RangeThenPlainHost) {
  const std::vector<std::string> hosts = Unwrap(ExpandSlurmNodelist("n[001-015],h2"));
  ASSERT_EQ(hosts.size(), 16u);
  EXPECT_EQ(hosts[0], "n001");
  EXPECT_EQ(hosts[14], "n015");
  EXPECT_EQ(hosts[15], "h2");
}

TEST(SlurmNodelist, ListAndRangeInOneGroup) {
  EXPECT_THAT(Unwrap(ExpandSlurmNodelist("n[001,007-009]")), ElementsAre("n001", "n007", "n008", "n009"));
}

TEST(SlurmNodelist, SeveralGroupsExpandLeftmostSlowest) {
  EXPECT_THAT(Unwrap(ExpandSlurmNodelist("rack[1-2]-n[01-02]")),
              ElementsAre("rack1-n01", "rack1-n02", "rack2-n01", "rack2-n02"));
}

TEST(SlurmNodelist, PaddingFollowsTheFirstBound) {
  EXPECT_THAT(Unwrap(ExpandSlurmNodelist("n[08-10]")), ElementsAre("n08", "n09", "n10"));
  EXPECT_THAT(Unwrap(ExpandSlurmNodelist("n[8-10]")), ElementsAre("n8", "n9", "n10"));
}

TEST(SlurmNodelist, SeveralBracketedNames) {
  EXPECT_THAT(Unwrap(ExpandSlurmNodelist("a[1-2],b[07,09]")), ElementsAre("a1", "a2", "b07", "b09"));
}

TEST(SlurmNodelist, MalformedListsAreInvalid) {
  for (const char* bad : {"", "n[1-", "n]1", "n[3-1]", "a,,b", "n[]", "n[a-b]", "n[1-2]x[", "n [1]"}) {
    EXPECT_THAT(ExpandSlurmNodelist(bad), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Slurm node list")))
        << bad;
    EXPECT_THAT(FirstSlurmHost(bad), StatusIs(absl::StatusCode::kInvalidArgument, ::testing::_)) << bad;
  }
}

TEST(SlurmNodelist, ExpansionIsBounded) {
  EXPECT_THAT(ExpandSlurmNodelist("n[0-999999999]", 1000),
              StatusIs(absl::StatusCode::kOutOfRange, HasSubstr("more than 1000 hosts")));
}

TEST(SlurmNodelist, FirstHostNeedsNoExpansion) {
  EXPECT_EQ(Unwrap(FirstSlurmHost("n[0007-999999999],h1")), "n0007");
  EXPECT_EQ(Unwrap(FirstSlurmHost("rack[3-4]-n[05,01]")), "rack3-n05");
  EXPECT_EQ(Unwrap(FirstSlurmHost("h2,n[001-015]")), "h2");
}

// ---------------------------------------------------------------- addresses

TEST(HostPortParse, HostAndPort) {
  EXPECT_EQ(Unwrap(ParseHostPort("10.0.0.1:1234", "x")), (HostPort{"10.0.0.1", 1234}));
  EXPECT_EQ(Unwrap(ParseHostPort("node-7", "x")), (HostPort{"node-7", std::nullopt}));
  EXPECT_EQ(Unwrap(ParseHostPort("[::1]:80", "x")), (HostPort{"::1", 80}));
  EXPECT_EQ((HostPort{"::1", 80}).ToString(), "[::1]:80");
}

TEST(HostPortParse, RejectsWhatCannotBeDialled) {
  EXPECT_THAT(ParseHostPort("::1:80", "Option 'coordinator_address'"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Option 'coordinator_address' must be \"host:port\" (IPv6 as \"[::1]:port\"), got "
                                 "\"::1:80\": an IPv6 address needs brackets")));
  EXPECT_THAT(ParseHostPort("h:65536", "X"), StatusIs(absl::StatusCode::kInvalidArgument,
                                                     HasSubstr("X must be \"host:port\" (IPv6 as \"[::1]:port\"), got \"h:65536\": the port must be a number in 1..65535")));
  EXPECT_THAT(ParseHostPort("h:0", "X"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("1..65535")));
  EXPECT_THAT(ParseHostPort("h:0", "X", /*allow_port_zero=*/true), IsOk());
  EXPECT_THAT(ParseHostPort(":80", "X"), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("the host is empty")));
}

TEST(HostPortParse, Loopback) {
  EXPECT_TRUE((HostPort{"localhost", 1}).IsLoopback());
  EXPECT_TRUE((HostPort{"127.0.1.1", 1}).IsLoopback());
  EXPECT_TRUE((HostPort{"::1", 1}).IsLoopback());
  EXPECT_FALSE((HostPort{"10.0.0.1", 1}).IsLoopback());
}

TEST(HostPortText, NoAddressIsEmptyText) { EXPECT_EQ(AddressText(std::nullopt), ""); }

TEST(HostPortText, AnAddressIsItsDialText) {
  EXPECT_EQ(AddressText(HostPort{"::1", 80}), "[::1]:80");
  EXPECT_EQ(AddressText(HostPort{"head", std::nullopt}), "head");
}

TEST(HostPortBoundPort, FillsPortZero) {
  EXPECT_EQ(WithBoundPort(HostPort{"10.0.0.1", 0}, 41234), (HostPort{"10.0.0.1", 41234}));
}

TEST(HostPortBoundPort, FillsAMissingPort) {
  EXPECT_EQ(WithBoundPort(HostPort{"::1", std::nullopt}, 41234), (HostPort{"::1", 41234}));
}

TEST(HostPortBoundPort, KeepsAGivenPort) {
  EXPECT_EQ(WithBoundPort(HostPort{"10.0.0.1", 8476}, 41234), (HostPort{"10.0.0.1", 8476}));
}

TEST(DetectOptions, TheOptionsAddressIsUsedAsGiven) {
  ClusterOptions options;
  options.coordinator_address = HostPort{"fe80::1", 9000};
  options.num_processes = 2;
  options.process_id = 1;
  EXPECT_EQ(DetectOk({}, options).config.coordinator_address, (HostPort{"fe80::1", 9000}));
}

// ---------------------------------------------------------------- nothing set

TEST(Detect, NothingSetIsOneProcessWithoutCoordinator) {
  const Detection d = DetectOk({});
  EXPECT_EQ(d.source, "single-process");
  EXPECT_EQ(d.config.num_processes, 1);
  EXPECT_EQ(d.config.process_id, 0);
  EXPECT_EQ(AddressText(d.config.coordinator_address), "");
  EXPECT_EQ(AddressText(d.config.bind_address), "127.0.0.1:0");
  EXPECT_THAT(d.config.local_device_ids, IsEmpty());
  EXPECT_EQ(d.config.job_id, "");
  EXPECT_EQ(LineOf(d, "slurm"),
            "slurm: skipped: none of SLURM_JOB_ID, SLURM_STEP_NODELIST, SLURM_NTASKS, SLURM_PROCID, SLURM_LOCALID set");
}

TEST(Detect, ExplainsEverySourceInOrder) {
  const Detection d = DetectOk({});
  std::vector<std::string> sources;
  for (const std::string& line : d.explanation) sources.push_back(line.substr(0, line.find(':')));
  EXPECT_THAT(sources, ::testing::IsSupersetOf({"options", "tessera", "keras", "dtensor", "torchrun", "openmpi", "hydra",
                                                "slurm", "gketpu", "kubernetes", "result"}));
  EXPECT_EQ(d.explanation.front().substr(0, 7), "options");
  EXPECT_EQ(d.explanation.back().substr(0, 6), "result");
}

// ---------------------------------------------------------------- torchrun

const Environment kTorchrun = {{"RANK", "3"},         {"WORLD_SIZE", "8"},        {"LOCAL_RANK", "1"},
                               {"MASTER_ADDR", "10.1.1.1"}, {"MASTER_PORT", "29500"}, {"TORCHELASTIC_RUN_ID", "run-42"}};

TEST(Detect, TorchrunUsesMasterPortPlusOne) {
  const Detection d = DetectOk(kTorchrun);
  EXPECT_EQ(d.source, "torchrun");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "10.1.1.1:29501");
  EXPECT_EQ(d.config.num_processes, 8);
  EXPECT_EQ(d.config.process_id, 3);
  EXPECT_EQ(d.config.job_id, "run-42");
  EXPECT_THAT(d.config.local_device_ids, IsEmpty());  // JAX has no torchrun detector to follow
  EXPECT_THAT(d.explanation,
              Contains("port: MASTER_PORT + 1 = 29500 + 1 = 29501 (MASTER_PORT is torch's own store port, not reused)"));
  EXPECT_EQ(AddressText(d.config.bind_address), "[::]:29501");
}

TEST(Detect, TorchrunWithoutMasterPortNeedsTesseraPort) {
  Environment env = kTorchrun;
  env.erase("MASTER_PORT");
  EXPECT_THAT(Detect({}, env), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("has no port; add \":PORT\" or set TESSERA_COORDINATOR_PORT")));
  env["TESSERA_COORDINATOR_PORT"] = "7000";
  EXPECT_EQ(AddressText(DetectOk(env).config.coordinator_address), "10.1.1.1:7000");
}

TEST(Detect, TorchrunPartialIsSkipped) {
  const Detection d = DetectOk({{"RANK", "0"}, {"WORLD_SIZE", "2"}});
  EXPECT_EQ(LineOf(d, "torchrun"), "torchrun: skipped: RANK, WORLD_SIZE present but LOCAL_RANK, MASTER_ADDR missing");
  EXPECT_EQ(d.source, "single-process");
}

// ---------------------------------------------------------------- Open MPI

const Environment kOmpi4 = {{"OMPI_COMM_WORLD_SIZE", "4"},
                            {"OMPI_COMM_WORLD_RANK", "2"},
                            {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                            {"OMPI_MCA_orte_hnp_uri", "1531576320.0;tcp://10.96.0.1,10.148.0.1:34911"}};

TEST(Detect, OpenMpi4LikeJax) {
  const Detection d = DetectOk(kOmpi4);
  EXPECT_EQ(d.source, "openmpi");
  // (1531576320 / 4096) % 4096 + 61440 = 373920 % 4096 + 61440 = 1184 + 61440.
  EXPECT_EQ(AddressText(d.config.coordinator_address), "10.96.0.1:62624");
  EXPECT_EQ(d.config.num_processes, 4);
  EXPECT_EQ(d.config.process_id, 2);
  EXPECT_THAT(d.config.local_device_ids, ElementsAre(1));
  EXPECT_EQ(d.config.job_id, "1531576320");
  EXPECT_THAT(Explanation(d), HasSubstr("port: (jobid / 4096) % 4096 + 61440 with jobid = 1531576320"));
}

TEST(Detect, OpenMpi4Ipv6Uri) {
  Environment env = kOmpi4;
  env["OMPI_MCA_orte_hnp_uri"] = "1314521088.0;tcp6://[fe80::b9b:ac5d:9cf0:b858,2620:10d:c083:150e::3000:2]:43370";
  // 1314521088 / 4096 = 320928; 320928 % 4096 = 1440.
  EXPECT_EQ(AddressText(DetectOk(env).config.coordinator_address), "[fe80::b9b:ac5d:9cf0:b858]:62880");
}

TEST(Detect, OpenMpi4AsMpirun414SetsIt) {
  // Recorded from Debian's openmpi-bin 4.1.4 (mpirun -np 2): a tcp and a tcp6
  // part, and PMIX_SERVER_URI* next to the ORTE URI, which wins.
  Environment env = kOmpi4;
  env["OMPI_MCA_orte_hnp_uri"] = "2034761728.0;tcp://192.0.2.2:52919;tcp6://[fd00::2]:38147";
  env["PMIX_SERVER_URI41"] = "2034761728.0;tcp4://127.0.0.1:41131";
  env["PMIX_NAMESPACE"] = "2034761729";
  const Detection d = DetectOk(env);
  // 2034761728 / 4096 = 496768; 496768 % 4096 = 1152.
  EXPECT_EQ(AddressText(d.config.coordinator_address), "192.0.2.2:62592");
  EXPECT_EQ(d.config.job_id, "2034761728");
  EXPECT_THAT(LineOf(d, "openmpi"), HasSubstr("Open MPI 4 (OMPI_MCA_orte_hnp_uri)"));
}

TEST(Detect, OpenMpi4UnparsableUriIsAnError) {
  Environment env = kOmpi4;
  env["OMPI_MCA_orte_hnp_uri"] = "1531576320.0;usock://x";
  EXPECT_THAT(Detect({}, env), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("openmpi: Environment variable OMPI_MCA_orte_hnp_uri holds no tcp://")));
}

const Environment kOmpi5 = {{"OMPI_COMM_WORLD_SIZE", "2"},
                            {"OMPI_COMM_WORLD_RANK", "1"},
                            {"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
                            {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
                            {"PRTE_LAUNCHED", "1"},
                            {"PMIX_NAMESPACE", "prterun-h-77@1"},
                            {"PMIX_SERVER_URI41", "prterun-h-77@0.0;tcp4://10.0.0.5:40000"}};

TEST(Fnv1a32, KnownVectors) {
  EXPECT_EQ(Fnv1a32(""), 0x811c9dc5u);
  EXPECT_EQ(Fnv1a32("a"), 0xe40c292cu);
  EXPECT_EQ(Fnv1a32("foobar"), 0xbf9cf968u);
}

TEST(Detect, OpenMpi5OnOneNodeUsesThePmixServer) {
  const Detection d = DetectOk(kOmpi5);
  EXPECT_EQ(d.source, "openmpi");
  const int port = kDerivedPortBase + static_cast<int>(Fnv1a32("prterun-h-77@1") % kDerivedPortSpan);
  EXPECT_EQ(AddressText(d.config.coordinator_address), absl::StrCat("10.0.0.5:", port));
  EXPECT_EQ(d.config.num_processes, 2);
  EXPECT_EQ(d.config.process_id, 1);
  EXPECT_THAT(d.config.local_device_ids, ElementsAre(1));
  EXPECT_EQ(d.config.job_id, "prterun-h-77@1");
  EXPECT_THAT(LineOf(d, "openmpi"), HasSubstr("Open MPI 5 (PRRTE/PMIx), PMIX_SERVER_URI41"));
}

TEST(Detect, OpenMpi5AcrossNodesNeedsAnExplicitAddress) {
  Environment env = kOmpi5;
  env["OMPI_COMM_WORLD_SIZE"] = "4";
  EXPECT_THAT(Detect({}, env), StatusIs(absl::StatusCode::kInvalidArgument,
                                        HasSubstr("names the node-local PRRTE daemon")));
  env["TESSERA_COORDINATOR_ADDRESS"] = "head:9000";
  const Detection d = DetectOk(env);
  EXPECT_EQ(AddressText(d.config.coordinator_address), "head:9000");
  EXPECT_EQ(d.config.num_processes, 4);
  EXPECT_EQ(d.source, "openmpi");
}

TEST(Detect, OpenMpiRankVariablesWithoutLauncherUriArePartial) {
  const Detection d = DetectOk({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_RANK", "0"},
                                {"OMPI_COMM_WORLD_LOCAL_RANK", "0"}});
  EXPECT_THAT(LineOf(d, "openmpi"), HasSubstr("openmpi: skipped: OMPI_COMM_WORLD_SIZE, OMPI_COMM_WORLD_RANK, "
                                              "OMPI_COMM_WORLD_LOCAL_RANK present but OMPI_MCA_orte_hnp_uri"));
  EXPECT_EQ(d.source, "single-process");
}

// ---------------------------------------------------------------- MPICH / Hydra

TEST(Detect, HydraNeedsAnExplicitCoordinator) {
  const Environment env = {{"PMI_RANK", "1"}, {"PMI_SIZE", "4"}, {"MPI_LOCALRANKID", "1"}};
  EXPECT_THAT(Detect({}, env),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("No coordinator address for 4 processes (from hydra); set TESSERA_COORDINATOR_ADDRESS "
                                 "or the coordinator_address option (hydra: MPICH/Hydra and PMI name no coordinator")));
  const Detection d = DetectOk(env, WithAddress("head:9000"));
  EXPECT_EQ(d.source, "hydra");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "head:9000");
  EXPECT_EQ(d.config.num_processes, 4);
  EXPECT_EQ(d.config.process_id, 1);
}

TEST(Detect, HydraPartialIsSkipped) {
  const Detection d = DetectOk({{"PMI_RANK", "1"}});
  EXPECT_EQ(LineOf(d, "hydra"), "hydra: skipped: PMI_RANK present but PMI_SIZE missing");
}

TEST(Detect, HydraGivesWayToSlurmThatAgrees) {
  // srun --mpi=pmi2 sets PMI_RANK/PMI_SIZE next to Slurm's own set.
  const Detection d = DetectOk(With(kSlurm, {{"PMI_RANK", "3"}, {"PMI_SIZE", "16"}}));
  EXPECT_EQ(d.source, "slurm");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "n001:61497");
  EXPECT_THAT(LineOf(d, "hydra"), HasSubstr("present but not used: it names no coordinator; slurm names one"));
}

// ---------------------------------------------------------------- Slurm

TEST(Detect, SlurmLikeJax) {
  const Detection d = DetectOk(kSlurm);
  EXPECT_EQ(d.source, "slurm");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "n001:61497");  // 12345 % 4096 = 57
  EXPECT_EQ(d.config.num_processes, 16);
  EXPECT_EQ(d.config.process_id, 3);
  EXPECT_THAT(d.config.local_device_ids, ElementsAre(1));
  EXPECT_EQ(d.config.job_id, "12345");
  EXPECT_EQ(AddressText(d.config.bind_address), "[::]:61497");
  EXPECT_THAT(d.explanation, Contains("port: SLURM_JOB_ID % 4096 + 61440 = 12345 % 4096 + 61440 = 61497 (as JAX)"));
}

TEST(Detect, SlurmNodelistForms) {
  for (const auto& [nodelist, host] : std::vector<std::pair<std::string, std::string>>{
           {"n001", "n001"}, {"n[001,007-015]", "n001"}, {"gpu[12-13]-r[2-3]", "gpu12-r2"}, {"h2,n[001-015]", "h2"}}) {
    EXPECT_EQ(AddressText(DetectOk(With(kSlurm, {{"SLURM_STEP_NODELIST", nodelist}})).config.coordinator_address),
              absl::StrCat(host, ":61497"))
        << nodelist;
  }
}

TEST(Detect, SlurmPartialSetFromSshIsSkippedWithPresentAndMissing) {
  // ssh into an allocated node: the job's variables without a step (jax#30073).
  const Detection d =
      DetectOk({{"SLURM_JOB_ID", "12345"}, {"SLURM_NTASKS", "16"}, {"SLURM_JOB_NODELIST", "n[001-015]"}});
  EXPECT_EQ(LineOf(d, "slurm"),
            "slurm: skipped: SLURM_JOB_ID, SLURM_NTASKS present but SLURM_STEP_NODELIST, SLURM_PROCID, SLURM_LOCALID "
            "missing");
  EXPECT_EQ(d.source, "single-process");
  EXPECT_EQ(d.config.num_processes, 1);
}

TEST(Detect, SlurmBadValueNamesTheVariable) {
  EXPECT_THAT(Detect({}, With(kSlurm, {{"SLURM_NTASKS", "many"}})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("slurm: Environment variable SLURM_NTASKS must be an integer, got \"many\"")));
  EXPECT_THAT(Detect({}, With(kSlurm, {{"SLURM_STEP_NODELIST", "n[1-"}})),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("SLURM_STEP_NODELIST")));
}

TEST(Detect, ProcessIdOutOfRangeIsInvalid) {
  EXPECT_THAT(Detect({}, With(kSlurm, {{"SLURM_PROCID", "16"}})),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("process_id 16 (from slurm) must be >= 0 and < num_processes 16 (from slurm)")));
}

// ---------------------------------------------------------------- Kubernetes

TEST(Detect, KubernetesExplicitHostTemplate) {
  const Detection d = DetectOk({{"JOB_COMPLETION_INDEX", "2"},
                                {"TESSERA_K8S_COORDINATOR_HOST", "train-0.train-svc"},
                                {"TESSERA_NUM_PROCESSES", "4"},
                                {"KUBERNETES_SERVICE_HOST", "10.0.0.1"}});
  EXPECT_EQ(d.source, "kubernetes");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "train-0.train-svc:55527");
  EXPECT_EQ(d.config.num_processes, 4);
  EXPECT_EQ(d.config.process_id, 2);
}

TEST(Detect, KubernetesJobSet) {
  const Detection d = DetectOk({{"JOB_COMPLETION_INDEX", "1"},
                                {"JOBSET_NAME", "js"},
                                {"REPLICATED_JOB_NAME", "workers"},
                                {"JOB_INDEX", "0"},
                                {"TESSERA_NUM_PROCESSES", "2"}});
  EXPECT_EQ(AddressText(d.config.coordinator_address), "js-workers-0-0.js:55527");
  EXPECT_EQ(d.config.process_id, 1);
  EXPECT_EQ(d.config.job_id, "js");
}

TEST(Detect, KubernetesIndexedJobWithSubdomain) {
  const Detection d = DetectOk({{"JOB_COMPLETION_INDEX", "3"},
                                {"HOSTNAME", "train-3"},
                                {"TESSERA_K8S_SUBDOMAIN", "svc"},
                                {"TESSERA_NUM_PROCESSES", "4"}});
  EXPECT_EQ(AddressText(d.config.coordinator_address), "train-0.svc:55527");
  EXPECT_EQ(d.config.job_id, "train");
}

TEST(Detect, KubernetesWithoutHostTemplateIsPartial) {
  const Detection d = DetectOk({{"JOB_COMPLETION_INDEX", "3"}, {"HOSTNAME", "train-3"}});
  EXPECT_THAT(LineOf(d, "kubernetes"),
              HasSubstr("kubernetes: skipped: JOB_COMPLETION_INDEX, HOSTNAME present but TESSERA_K8S_COORDINATOR_HOST"));
  EXPECT_EQ(d.source, "single-process");
}

TEST(Detect, KubernetesNeedsTheJobSize) {
  EXPECT_THAT(Detect({}, {{"JOB_COMPLETION_INDEX", "2"}, {"TESSERA_K8S_COORDINATOR_HOST", "train-0.svc"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("kubernetes gives process_id 2 but no process count; no launcher gave one either; set "
                                 "TESSERA_NUM_PROCESSES")));
}

// ---------------------------------------------------------------- GKE TPU

// One slice of four TPU VM hosts, as GKE sets them for a TPU node pool.
const Environment kGkeTpu = {
    {"TPU_WORKER_HOSTNAMES", "tpu-0.tpu-svc,tpu-1.tpu-svc,tpu-2.tpu-svc,tpu-3.tpu-svc"}, {"TPU_WORKER_ID", "2"}};

// Slice 1 of 2 of a GKE JobSet: the JobSet's own variables are there too.
const Environment kGkeTpuMultislice = {
    {"TPU_WORKER_HOSTNAMES", "js-slice-1-0.js,js-slice-1-1.js,js-slice-1-2.js,js-slice-1-3.js"},
    {"TPU_WORKER_ID", "1"},
    {"MEGASCALE_NUM_SLICES", "2"},
    {"MEGASCALE_SLICE_ID", "1"},
    {"MEGASCALE_COORDINATOR_ADDRESS", "js-slice-0-0.js:8080"},
    {"JOBSET_NAME", "js"},
    {"REPLICATED_JOB_NAME", "slice"},
    {"JOB_INDEX", "1"},
    {"JOB_COMPLETION_INDEX", "1"}};

struct GkeTpuCase {
  const char* name;
  Environment env;
  std::string coordinator;
  int64_t num_processes;
  int64_t process_id;
  std::string job_id;
};

TEST(Detect, GkeTpuLikeJax) {
  const GkeTpuCase cases[] = {
      {"one slice: the first worker coordinates", kGkeTpu, "tpu-0.tpu-svc:8482", 4, 2, ""},
      {"multislice: workers x slices, id + slice x workers, Megascale's host without its port", kGkeTpuMultislice,
       "js-slice-0-0.js:8482", 8, 5, "js"},
      {"TPU_PROCESS_ADDRESSES is read before TPU_WORKER_HOSTNAMES, ports dropped",
       With(kGkeTpu, {{"TPU_PROCESS_ADDRESSES", "10.0.0.5:8476,10.0.0.6:8476"}, {"TPU_WORKER_ID", "1"}}),
       "10.0.0.5:8482", 2, 1, ""},
      {"empty MEGASCALE_* mean their defaults",
       With(kGkeTpu, {{"MEGASCALE_NUM_SLICES", ""}, {"MEGASCALE_SLICE_ID", ""}, {"MEGASCALE_COORDINATOR_ADDRESS", ""}}),
       "tpu-0.tpu-svc:8482", 4, 2, ""},
      {"an IPv6 Megascale coordinator", With(kGkeTpu, {{"MEGASCALE_COORDINATOR_ADDRESS", "[fd00::1]:8080"}}),
       "[fd00::1]:8482", 4, 2, ""},
      {"one host", {{"TPU_WORKER_HOSTNAMES", "localhost"}, {"TPU_WORKER_ID", "0"}}, "localhost:8482", 1, 0, ""},
  };
  for (const GkeTpuCase& c : cases) {
    const Detection d = DetectOk(c.env);
    EXPECT_EQ(d.source, "gketpu") << c.name;
    EXPECT_EQ(AddressText(d.config.coordinator_address), c.coordinator) << c.name;
    EXPECT_EQ(d.config.num_processes, c.num_processes) << c.name;
    EXPECT_EQ(d.config.process_id, c.process_id) << c.name;
    EXPECT_EQ(d.config.job_id, c.job_id) << c.name;
    EXPECT_THAT(d.config.local_device_ids, IsEmpty()) << c.name;  // never set on TPU, as JAX
  }
}

TEST(Detect, GkeTpuExplainsItsArithmetic) {
  const Detection d = DetectOk(kGkeTpuMultislice);
  EXPECT_EQ(LineOf(d, "gketpu"),
            "gketpu: used for coordinator host, coordinator port, num_processes, process_id, job_id (TPU_WORKER_ID, "
            "TPU_WORKER_HOSTNAMES, MEGASCALE_COORDINATOR_ADDRESS, MEGASCALE_NUM_SLICES, MEGASCALE_SLICE_ID)");
  EXPECT_THAT(d.explanation,
              Contains("port: 8482 (JAX's Cloud TPU port since 0.8.1; through 0.8.0 it was 8476, the port GCP's "
                       "default TPU firewall rule opens)"));
  EXPECT_THAT(d.explanation,
              Contains("note: gketpu: num_processes = 4 workers (TPU_WORKER_HOSTNAMES) x 2 slices "
                       "(MEGASCALE_NUM_SLICES, default 1) = 8; process_id = TPU_WORKER_ID + MEGASCALE_SLICE_ID x 4 = "
                       "1 + 1 x 4 = 5 (as JAX)"));
  EXPECT_THAT(d.explanation, Contains("note: gketpu: the coordinator host is MEGASCALE_COORDINATOR_ADDRESS "
                                      "\"js-slice-0-0.js:8080\" without its port 8080 (the Megascale service's; as "
                                      "JAX)"));
  EXPECT_THAT(d.explanation, Contains("note: gketpu: local_device_ids are not set: a TPU process uses all of its "
                                      "chips (as JAX)"));
  EXPECT_EQ(AddressText(d.config.bind_address), "[::]:8482");
}

TEST(Detect, GkeTpuSaysWhichWorkerListItRead) {
  const Detection d = DetectOk(With(kGkeTpu, {{"TPU_PROCESS_ADDRESSES", "10.0.0.5:8476,10.0.0.6:8476"},
                                              {"TPU_WORKER_ID", "1"}}));
  EXPECT_EQ(LineOf(d, "gketpu"),
            "gketpu: used for coordinator host, coordinator port, num_processes, process_id (TPU_WORKER_ID, "
            "TPU_PROCESS_ADDRESSES; TPU_WORKER_HOSTNAMES also set, not read)");
  EXPECT_THAT(d.explanation,
              Contains("note: gketpu: the coordinator host is the first worker of TPU_PROCESS_ADDRESSES (process 0; "
                       "as JAX)"));
}

TEST(Detect, GkeTpuPartialSetsAreSkippedWithPresentAndMissing) {
  const std::pair<Environment, std::string> cases[] = {
      {{}, "gketpu: skipped: none of TPU_WORKER_ID, TPU_WORKER_HOSTNAMES, TPU_PROCESS_ADDRESSES, "
           "MEGASCALE_COORDINATOR_ADDRESS, MEGASCALE_NUM_SLICES, MEGASCALE_SLICE_ID set"},
      {{{"TPU_WORKER_HOSTNAMES", "a,b"}}, "gketpu: skipped: TPU_WORKER_HOSTNAMES present but TPU_WORKER_ID missing"},
      {{{"TPU_WORKER_ID", "0"}, {"MEGASCALE_NUM_SLICES", "2"}},
       "gketpu: skipped: TPU_WORKER_ID, MEGASCALE_NUM_SLICES present but TPU_WORKER_HOSTNAMES (or "
       "TPU_PROCESS_ADDRESSES) missing"},
      {{{"MEGASCALE_COORDINATOR_ADDRESS", "h:8080"}},
       "gketpu: skipped: MEGASCALE_COORDINATOR_ADDRESS present but TPU_WORKER_ID, TPU_WORKER_HOSTNAMES (or "
       "TPU_PROCESS_ADDRESSES) missing"},
  };
  for (const auto& [env, line] : cases) {
    const Detection d = DetectOk(env);
    EXPECT_EQ(LineOf(d, "gketpu"), line);
    EXPECT_EQ(d.source, "single-process") << line;
  }
}

TEST(Detect, GkeTpuBadValuesNameTheVariable) {
  const std::pair<Environment, std::string> cases[] = {
      {With(kGkeTpu, {{"TPU_WORKER_ID", "one"}}),
       "gketpu: Environment variable TPU_WORKER_ID must be an integer, got \"one\""},
      {With(kGkeTpu, {{"TPU_WORKER_ID", "-1"}}), "gketpu: Environment variable TPU_WORKER_ID must be >= 0, got -1"},
      {With(kGkeTpu, {{"TPU_WORKER_ID", "4"}}),
       "gketpu: Environment variable TPU_WORKER_ID is 4, but TPU_WORKER_HOSTNAMES names 4 workers: expected 0..3"},
      {{{"TPU_WORKER_HOSTNAMES", "h"}, {"TPU_WORKER_ID", "1"}},
       "gketpu: Environment variable TPU_WORKER_ID is 1, but TPU_WORKER_HOSTNAMES names 1 worker: expected 0..0"},
      {With(kGkeTpu, {{"TPU_WORKER_HOSTNAMES", ""}}),
       "gketpu: Environment variable TPU_WORKER_HOSTNAMES entry 0 is empty in \"\"; expected comma-separated "
       "worker host names"},
      {With(kGkeTpu, {{"TPU_WORKER_HOSTNAMES", "a,,b"}}),
       "gketpu: Environment variable TPU_WORKER_HOSTNAMES entry 1 is empty in \"a,,b\"; expected comma-separated "
       "worker host names"},
      {With(kGkeTpu, {{"MEGASCALE_NUM_SLICES", "two"}}),
       "gketpu: Environment variable MEGASCALE_NUM_SLICES must be an integer, got \"two\""},
      {With(kGkeTpu, {{"MEGASCALE_NUM_SLICES", "0"}}),
       "gketpu: Environment variable MEGASCALE_NUM_SLICES must be >= 1, got 0"},
      {With(kGkeTpu, {{"MEGASCALE_NUM_SLICES", "2"}, {"MEGASCALE_SLICE_ID", "2"}}),
       "gketpu: Environment variable MEGASCALE_SLICE_ID is 2, but MEGASCALE_NUM_SLICES is 2: expected 0..1"},
      {With(kGkeTpu, {{"MEGASCALE_SLICE_ID", "1"}}),
       "gketpu: Environment variable MEGASCALE_SLICE_ID is 1, but MEGASCALE_NUM_SLICES is 1: expected 0..0"},
      {With(kGkeTpu, {{"MEGASCALE_NUM_SLICES", "4611686018427387904"}}),
       "gketpu: Environment variable MEGASCALE_NUM_SLICES is 4611686018427387904: 4 workers per slice times that "
       "overflows"},
      {With(kGkeTpu, {{"MEGASCALE_COORDINATOR_ADDRESS", "fd00::1:8080"}}),
       "gketpu: Environment variable MEGASCALE_COORDINATOR_ADDRESS must be \"host:port\" (IPv6 as \"[::1]:port\"), "
       "got \"fd00::1:8080\": an IPv6 address needs brackets"},
  };
  for (const auto& [env, message] : cases) {
    EXPECT_THAT(Detect({}, env), StatusIs(absl::StatusCode::kInvalidArgument, message));
  }
}

TEST(Detect, GkeTpuComesBeforeKubernetesInAJobSetPod) {
  // The JobSet's variables alone would make a Kubernetes coordinator
  // without a process count; the TPU ones are complete.
  const Detection d = DetectOk(kGkeTpuMultislice);
  EXPECT_EQ(d.source, "gketpu");
  EXPECT_EQ(LineOf(d, "kubernetes"),
            "kubernetes: also present, not used: gketpu comes first; it disagrees: num_processes unset and process_id "
            "unset vs 8 and 5 from gketpu");
}

TEST(Detect, SlurmComesBeforeGkeTpu) {
  const Detection d = DetectOk(With(kSlurm, kGkeTpu));
  EXPECT_EQ(d.source, "slurm");
  EXPECT_EQ(LineOf(d, "gketpu"),
            "gketpu: also present, not used: slurm comes first; it disagrees: num_processes 4 and process_id 2 vs 16 "
            "and 3 from slurm");
}

TEST(Detect, ForcedGkeTpuWinsOverAnEarlierLauncher) {
  ClusterOptions options;
  options.detection = "gketpu";
  const Detection d = DetectOk(With(kSlurm, kGkeTpu), options);
  EXPECT_EQ(d.source, "gketpu");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "tpu-0.tpu-svc:8482");
  EXPECT_EQ(LineOf(d, "slurm"), "slurm: not considered: detection is \"gketpu\"");
}

TEST(Precedence, TesseraPortReplacesTheTpuPort) {
  // The workaround for a firewall that opens only the old port (coordinator.md P6).
  const Detection d = DetectOk(With(kGkeTpu, {{"TESSERA_COORDINATOR_PORT", "8476"}}));
  EXPECT_EQ(AddressText(d.config.coordinator_address), "tpu-0.tpu-svc:8476");
  EXPECT_THAT(d.explanation, Contains("port: 8476 from tessera"));
}

// ---------------------------------------------------------------- conflicts

TEST(Detect, OpenMpiBeatsSlurmAndTheConflictIsExplained) {
  // mpirun inside an allocation: the batch step's SLURM_* are still there.
  const Detection d = DetectOk(With(kOmpi4, With(kSlurm, {{"SLURM_NTASKS", "1"}, {"SLURM_PROCID", "0"}})));
  EXPECT_EQ(d.source, "openmpi");
  EXPECT_EQ(d.config.num_processes, 4);
  EXPECT_EQ(LineOf(d, "slurm"),
            "slurm: also present, not used: openmpi comes first; it disagrees: num_processes 1 and process_id 0 vs 4 "
            "and 2 from openmpi");
}

TEST(Detect, TorchrunBeatsSlurm) {
  const Detection d = DetectOk(With(kSlurm, kTorchrun));
  EXPECT_EQ(d.source, "torchrun");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "10.1.1.1:29501");
}

TEST(Detect, InvalidLaterLauncherDoesNotFailTheChosenOne) {
  const Detection d = DetectOk(With(kOmpi4, With(kSlurm, {{"SLURM_NTASKS", "x"}})));
  EXPECT_EQ(d.source, "openmpi");
  EXPECT_THAT(LineOf(d, "slurm"), HasSubstr("slurm: also present but invalid, not used"));
}

TEST(Detect, ForcedLauncherWins) {
  ClusterOptions options;
  options.detection = "slurm";
  const Detection d = DetectOk(With(kOmpi4, kSlurm), options);
  EXPECT_EQ(d.source, "slurm");
  EXPECT_EQ(LineOf(d, "openmpi"), "openmpi: not considered: detection is \"slurm\"");
  // Lines stay in detection order: openmpi, hydra, slurm, gketpu, kubernetes.
  std::vector<std::string> launchers;
  for (const std::string& line : d.explanation) {
    const std::string source = line.substr(0, line.find(':'));
    for (const char* name : {"torchrun", "openmpi", "hydra", "slurm", "gketpu", "kubernetes"}) {
      if (source == name) launchers.push_back(source);
    }
  }
  EXPECT_THAT(launchers, ElementsAre("torchrun", "openmpi", "hydra", "slurm", "gketpu", "kubernetes"));
}

TEST(Detect, ForcedLauncherMustBePresent) {
  ClusterOptions options;
  options.detection = "slurm";
  EXPECT_THAT(Detect(options, {{"SLURM_JOB_ID", "1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Detection \"slurm\" was requested but its variables are not all set: SLURM_JOB_ID "
                                 "present but")));
}

TEST(Detect, DetectionNoneIgnoresLaunchers) {
  ClusterOptions options;
  options.detection = "none";
  const Detection d = DetectOk(kSlurm, options);
  EXPECT_EQ(d.source, "single-process");
  EXPECT_EQ(LineOf(d, "slurm"), "slurm: not considered: detection is \"none\"");
}

TEST(Detect, UnknownDetectionMethodIsInvalid) {
  ClusterOptions options;
  options.detection = "mpi";
  EXPECT_THAT(Detect(options, {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Option 'detection' must be one of auto, none, keras, dtensor, torchrun, openmpi, "
                                 "hydra, slurm, gketpu, kubernetes; got \"mpi\"")));
}

// ---------------------------------------------------------------- precedence

TEST(Precedence, OptionsBeatTesseraBeatKerasBeatDtensorBeatLaunchers) {
  const Environment env = With(kSlurm, {{"TESSERA_NUM_PROCESSES", "8"},
                                        {"KERAS_DISTRIBUTION_NUM_PROCESSES", "6"},
                                        {"DTENSOR_JOBS", "a:1,b:1,c:1,d:1"},
                                        {"DTENSOR_CLIENT_ID", "3"}});
  ClusterOptions options;
  options.num_processes = 10;
  EXPECT_EQ(DetectOk(env, options).config.num_processes, 10);
  EXPECT_EQ(DetectOk(env).config.num_processes, 8);
  Environment no_tessera = env;
  no_tessera.erase("TESSERA_NUM_PROCESSES");
  EXPECT_EQ(DetectOk(no_tessera).config.num_processes, 6);
  no_tessera.erase("KERAS_DISTRIBUTION_NUM_PROCESSES");
  EXPECT_EQ(DetectOk(no_tessera).config.num_processes, 4);
  no_tessera.erase("DTENSOR_JOBS");
  no_tessera.erase("DTENSOR_CLIENT_ID");
  EXPECT_EQ(DetectOk(no_tessera).config.num_processes, 16);
}

TEST(Precedence, PerFieldMergeAcrossSources) {
  // No port: Slurm's derived port fills it.
  const Detection d = DetectOk(With(kSlurm, {{"TESSERA_PROCESS_ID", "5"}}), WithAddress("head"));
  EXPECT_EQ(AddressText(d.config.coordinator_address), "head:61497");
  EXPECT_EQ(d.config.process_id, 5);
  EXPECT_EQ(d.config.num_processes, 16);
  EXPECT_EQ(d.source, "tessera");
  EXPECT_THAT(d.explanation.back(),
              HasSubstr("coordinator head:61497 (host from options, port from slurm)"));
}

TEST(Precedence, TesseraPortOverridesADerivedPort) {
  const Detection d = DetectOk(With(kSlurm, {{"TESSERA_COORDINATOR_PORT", "7777"}}));
  EXPECT_EQ(AddressText(d.config.coordinator_address), "n001:7777");
  EXPECT_THAT(d.explanation, Contains("port: 7777 from tessera"));
}

TEST(Precedence, ExplicitAddressPortBeatsTesseraPort) {
  const Detection d = DetectOk({{"TESSERA_COORDINATOR_PORT", "7777"}}, WithAddress("head:1234", 2, 1));
  EXPECT_EQ(AddressText(d.config.coordinator_address), "head:1234");
}

TEST(Precedence, CompleteExplicitConfigurationDoesNotConsultLaunchers) {
  const Detection d = DetectOk(With(kSlurm, {{"TESSERA_COORDINATOR_ADDRESS", "head:1"},
                                             {"TESSERA_NUM_PROCESSES", "2"},
                                             {"TESSERA_PROCESS_ID", "1"}}));
  EXPECT_EQ(d.source, "tessera");
  EXPECT_THAT(d.config.local_device_ids, IsEmpty());
  EXPECT_EQ(d.config.job_id, "");
  EXPECT_EQ(LineOf(d, "slurm"),
            "slurm: not consulted: coordinator address, num_processes and process_id are already set");
}

TEST(Precedence, OptionLocalDeviceIdsBeatTheLaunchersLocalRank) {
  ClusterOptions options;
  options.local_device_ids = std::vector<int64_t>{4, 5};
  EXPECT_THAT(DetectOk(kSlurm, options).config.local_device_ids, ElementsAre(4, 5));
  EXPECT_THAT(DetectOk(With(kSlurm, {{"TESSERA_LOCAL_DEVICE_IDS", "6,7"}})).config.local_device_ids,
              ElementsAre(6, 7));
}

TEST(Precedence, EmptyTesseraLocalDeviceIdsMeansAllDevices) {
  const Detection d = DetectOk(With(kSlurm, {{"TESSERA_LOCAL_DEVICE_IDS", ""}}));
  EXPECT_THAT(d.config.local_device_ids, IsEmpty());
  EXPECT_THAT(d.explanation.back(), HasSubstr("local_device_ids all (tessera)"));
}

TEST(Detect, LocalRankDeviceIdsAreExplained) {
  EXPECT_THAT(DetectOk(kSlurm).explanation,
              Contains("note: slurm: local_device_ids [1] from SLURM_LOCALID (one device per process, as JAX); set "
                       "TESSERA_LOCAL_DEVICE_IDS to choose others (empty: all)"));
}

TEST(Precedence, JobIdFromOptionsThenTesseraThenLauncher) {
  EXPECT_EQ(DetectOk(With(kSlurm, {{"TESSERA_JOB_ID", "env"}}), WithJobId("mine")).config.job_id, "mine");
  EXPECT_EQ(DetectOk(With(kSlurm, {{"TESSERA_JOB_ID", "env"}})).config.job_id, "env");
  EXPECT_EQ(DetectOk(kSlurm).config.job_id, "12345");
}

// ---------------------------------------------------------------- TESSERA_* values

TEST(TesseraEnvironment, FullExplicitConfiguration) {
  const Detection d = DetectOk({{"TESSERA_COORDINATOR_ADDRESS", "10.0.0.1:8476"},
                                {"TESSERA_NUM_PROCESSES", "2"},
                                {"TESSERA_PROCESS_ID", "1"},
                                {"TESSERA_LOCAL_DEVICE_IDS", "0, 2"},
                                {"TESSERA_JOB_ID", "j1"},
                                {"TESSERA_BIND_ADDRESS", "0.0.0.0"},
                                {"TESSERA_INIT_TIMEOUT", "1800"}});
  EXPECT_EQ(d.source, "tessera");
  EXPECT_EQ(AddressText(d.config.coordinator_address), "10.0.0.1:8476");
  EXPECT_EQ(AddressText(d.config.bind_address), "0.0.0.0:8476");
  EXPECT_THAT(d.config.local_device_ids, ElementsAre(0, 2));
  EXPECT_EQ(d.config.job_id, "j1");
  EXPECT_EQ(d.config.init_timeout, absl::Seconds(1800));
}

TEST(TesseraEnvironment, ProcessIndexIsReadFromTesseraProcessIndex) {
  const Detection d = DetectOk({{"TESSERA_COORDINATOR_ADDRESS", "10.0.0.1:1234"},
                                {"TESSERA_NUM_PROCESSES", "4"},
                                {"TESSERA_PROCESS_INDEX", "3"}});
  EXPECT_EQ(d.config.process_id, 3);
}

TEST(TesseraEnvironment, ProcessIdIsStillReadAsTheAliasOfProcessIndex) {
  const Detection d = DetectOk({{"TESSERA_COORDINATOR_ADDRESS", "10.0.0.1:1234"},
                                {"TESSERA_NUM_PROCESSES", "4"},
                                {"TESSERA_PROCESS_ID", "2"}});
  EXPECT_EQ(d.config.process_id, 2);
}

TEST(TesseraEnvironment, ProcessIndexAndItsAliasMayAgree) {
  const Detection d = DetectOk({{"TESSERA_COORDINATOR_ADDRESS", "10.0.0.1:1234"},
                                {"TESSERA_NUM_PROCESSES", "4"},
                                {"TESSERA_PROCESS_INDEX", "1"},
                                {"TESSERA_PROCESS_ID", "1"}});
  EXPECT_EQ(d.config.process_id, 1);
}

TEST(TesseraEnvironment, ProcessIndexAndItsAliasDisagreeingIsInvalidArgumentNamingBoth) {
  EXPECT_THAT(Detect({}, {{"TESSERA_PROCESS_INDEX", "1"}, {"TESSERA_PROCESS_ID", "2"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variables TESSERA_PROCESS_INDEX (\"1\") and its alias TESSERA_PROCESS_ID "
                       "(\"2\") disagree; expected one of them, or the same value in both"));
}

TEST(TesseraEnvironment, BadValuesNameVariableValueAndExpectation) {
  EXPECT_THAT(Detect({}, {{"TESSERA_NUM_PROCESSES", "0"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variable TESSERA_NUM_PROCESSES must be >= 1, got 0"));
  EXPECT_THAT(Detect({}, {{"TESSERA_PROCESS_ID", "x"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variable TESSERA_PROCESS_ID must be an integer, got \"x\""));
  EXPECT_THAT(Detect({}, {{"TESSERA_LOCAL_DEVICE_IDS", "0,-1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("TESSERA_LOCAL_DEVICE_IDS must be a comma-separated "
                                                                     "list of integers >= 0, got \"0,-1\"")));
  EXPECT_THAT(Detect({}, {{"TESSERA_COORDINATOR_PORT", "99999"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("TESSERA_COORDINATOR_PORT must be a port number")));
  EXPECT_THAT(Detect({}, {{"TESSERA_INIT_TIMEOUT", "-1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("TESSERA_INIT_TIMEOUT must be a number of seconds > 0")));
  EXPECT_THAT(Detect({}, {{"TESSERA_REQUIRE_AUTH", "maybe"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("TESSERA_REQUIRE_AUTH must be")));
}

TEST(TesseraEnvironment, TimeoutsAreReadInMilliseconds) {
  const Detection d = DetectOk({{"TESSERA_INIT_TIMEOUT_MS", "1500"}, {"TESSERA_HEARTBEAT_TIMEOUT_MS", "500"}});
  EXPECT_EQ(d.config.init_timeout, absl::Milliseconds(1500));
  EXPECT_EQ(d.config.heartbeat_timeout, absl::Milliseconds(500));
  EXPECT_EQ(d.config.heartbeat_interval, absl::Milliseconds(50));
}

TEST(TesseraEnvironment, MillisecondTimeoutsAreWholePositiveNumbers) {
  EXPECT_THAT(Detect({}, {{"TESSERA_INIT_TIMEOUT_MS", "1.5"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variable TESSERA_INIT_TIMEOUT_MS must be a whole number of milliseconds > 0 "
                       "(at most 1e10), got \"1.5\""));
  EXPECT_THAT(Detect({}, {{"TESSERA_HEARTBEAT_TIMEOUT_MS", "0"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("TESSERA_HEARTBEAT_TIMEOUT_MS must be a whole number of milliseconds > 0")));
}

TEST(TesseraEnvironment, SecondsAliasAndMillisecondsDisagreeingIsInvalidArgumentNamingBoth) {
  EXPECT_THAT(Detect({}, {{"TESSERA_INIT_TIMEOUT_MS", "1000"}, {"TESSERA_INIT_TIMEOUT", "2"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Environment variables TESSERA_INIT_TIMEOUT_MS (1s) and its alias TESSERA_INIT_TIMEOUT (2s) "
                       "disagree; expected one of them, or the same duration in both"));
  const Detection d = DetectOk({{"TESSERA_INIT_TIMEOUT_MS", "2000"}, {"TESSERA_INIT_TIMEOUT", "2"}});
  EXPECT_EQ(d.config.init_timeout, absl::Seconds(2));
}

TEST(TesseraEnvironment, HeartbeatTimeoutScalesTheInterval) {
  const Detection d = DetectOk({{"TESSERA_HEARTBEAT_TIMEOUT", "0.5"}});
  EXPECT_EQ(d.config.heartbeat_timeout, absl::Milliseconds(500));
  EXPECT_EQ(d.config.heartbeat_interval, absl::Milliseconds(50));
}

TEST(TesseraEnvironment, HeartbeatTimeoutBelowThreeIntervalsIsInvalid) {
  ClusterOptions options;
  options.heartbeat_interval = absl::Seconds(1);
  EXPECT_THAT(Detect(options, {{"TESSERA_HEARTBEAT_TIMEOUT", "2"}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("must be >= 3 x the heartbeat interval")));
}

TEST(TesseraEnvironment, MissingProcessIdForSeveralProcesses) {
  EXPECT_THAT(Detect({}, {{"TESSERA_NUM_PROCESSES", "2"}, {"TESSERA_COORDINATOR_ADDRESS", "h:1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("The process id is unknown for 2 processes (from tessera); set TESSERA_PROCESS_INDEX")));
}

TEST(TesseraEnvironment, PortlessCoordinatorForOneProcessIsDropped) {
  const Detection d = DetectOk({{"TESSERA_COORDINATOR_ADDRESS", "head"}, {"TESSERA_NUM_PROCESSES", "1"}});
  EXPECT_EQ(AddressText(d.config.coordinator_address), "");
  EXPECT_THAT(Explanation(d), HasSubstr("has no port and a single process needs no coordinator"));
}

TEST(TesseraEnvironment, PortZeroOnlyForProcessZero) {
  EXPECT_EQ(AddressText(DetectOk({}, WithAddress("127.0.0.1:0", 2, 0)).config.coordinator_address), "127.0.0.1:0");
  EXPECT_THAT(Detect(WithAddress("127.0.0.1:0", 2, 1), {}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("has port 0")));
}

TEST(TesseraEnvironment, LoopbackCoordinatorForSeveralProcessesIsNoted) {
  const Detection d = DetectOk(
      {{"TESSERA_COORDINATOR_ADDRESS", "127.0.0.1:5000"}, {"TESSERA_NUM_PROCESSES", "3"}, {"TESSERA_PROCESS_ID", "1"}});
  EXPECT_THAT(d.explanation, Contains("note: the coordinator address 127.0.0.1:5000 is loopback: all 3 processes must "
                                      "run on this host (processes elsewhere cannot reach it)"));
}

TEST(TesseraEnvironment, SingleProcessBindsLoopback) {
  const Detection d = DetectOk({{"TESSERA_COORDINATOR_ADDRESS", "10.0.0.1:5000"}, {"TESSERA_NUM_PROCESSES", "1"}});
  EXPECT_EQ(AddressText(d.config.bind_address), "127.0.0.1:5000");
}

// ---------------------------------------------------------------- job token

class TokenFile : public ::testing::Test {
 protected:
  std::string Write(const std::string& content, mode_t mode) {
    char path[] = "/tmp/tessera_token_XXXXXX";
    const int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    EXPECT_EQ(write(fd, content.data(), content.size()), static_cast<ssize_t>(content.size()));
    fchmod(fd, mode);
    close(fd);
    paths_.push_back(path);
    return path;
  }
  ~TokenFile() override {
    for (const std::string& path : paths_) std::remove(path.c_str());
  }
  std::vector<std::string> paths_;
};

TEST_F(TokenFile, ReadsTheTokenWithoutTrailingNewline) {
  const Detection d = DetectOk({{"TESSERA_JOB_TOKEN_FILE", Write("s3cret\n", 0600)}});
  EXPECT_EQ(d.config.job_token, "s3cret");
  EXPECT_THAT(Explanation(d), ::testing::Not(HasSubstr("s3cret")));
  EXPECT_THAT(Explanation(d), ::testing::Not(HasSubstr("warning")));
}

TEST_F(TokenFile, WarnsWhenOthersMayReadIt) {
  ScopedLogCapture log;
  const std::string path = Write("s3cret", 0644);
  const Detection d = DetectOk({{"TESSERA_JOB_TOKEN_FILE", path}});
  EXPECT_EQ(d.config.job_token, "s3cret");
  const std::string warning =
      absl::StrCat("TESSERA_JOB_TOKEN_FILE \"", path, "\" has mode 0644, wider than 0600: other users may read the "
                   "job token (chmod 600 it)");
  EXPECT_THAT(d.explanation, Contains("warning: " + warning));
  EXPECT_THAT(log.entries(), Contains(std::make_pair(LogLevel::kWarning, warning)));
}

TEST_F(TokenFile, MissingOrEmptyFileIsInvalid) {
  EXPECT_THAT(Detect({}, {{"TESSERA_JOB_TOKEN_FILE", "/nonexistent/token"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("TESSERA_JOB_TOKEN_FILE names \"/nonexistent/token\", which cannot be opened")));
  EXPECT_THAT(Detect({}, {{"TESSERA_JOB_TOKEN_FILE", Write("\n", 0600)}}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("is empty")));
}

TEST_F(TokenFile, TokenVariableWinsOverTheFile) {
  const Detection d = DetectOk({{"TESSERA_JOB_TOKEN", "direct"}, {"TESSERA_JOB_TOKEN_FILE", "/nonexistent/token"}});
  EXPECT_EQ(d.config.job_token, "direct");
}

TEST(Auth, RequiredAuthWithoutTokenIsInvalid) {
  EXPECT_THAT(Detect({}, {{"TESSERA_REQUIRE_AUTH", "1"}}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Authentication is required (by TESSERA_REQUIRE_AUTH) but no job token is set")));
  const Detection d = DetectOk({{"TESSERA_REQUIRE_AUTH", "true"}, {"TESSERA_JOB_TOKEN", "t"}});
  EXPECT_TRUE(d.config.require_auth);
  EXPECT_EQ(d.config.job_token, "t");
}

TEST(Detect, LogsTheExplanationAtInfo) {
  ScopedLogCapture log;
  const Detection d = DetectOk(kSlurm);
  EXPECT_THAT(log.entries(),
              Contains(std::make_pair(LogLevel::kInfo,
                                      "cluster configuration:\n" + absl::StrJoin(d.explanation, "\n"))));
}

// ---------------------------------------------------------------- the process environment

TEST(ProcessEnvironment, ReadsEnviron) {
  ScopedEnv env("TESSERA_DETECT_TEST_VAR", "a=b");
  EXPECT_EQ(ProcessEnvironment().at("TESSERA_DETECT_TEST_VAR"), "a=b");
}

}  // namespace
}  // namespace tessera::cluster
