// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Error paths of the key-value store and of admission, as users meet them
// (issue 15): each refusal keeps its code, reason and message, a single
// process (no coordinator) and a job agree on them, and what is refused on
// the client is never sent. Real processes on loopback (cluster_worker, the
// public C ABI), with bounded waits; every worker is reaped.
#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tessera/client.h"
#include "tests/cluster/cluster_harness.h"

namespace tessera::cluster_test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kJoinMs = 20000;  // init of a few processes on busy cores
constexpr int64_t kStepMs = 15000;  // any single step that should succeed
// A refusal made before anything is sent: no round trip, no retry. Loose
// enough for two busy cores. (What tells it from a refusal after sending is
// the message: gRPC's own size check says "Received message larger than max".)
constexpr int64_t kLocalRefusalMs = 1000;

using Steps = std::vector<std::string>;
using WorkerPtr = std::unique_ptr<Worker>;

// Process `id` of an `n`-process job on 127.0.0.1:`port` (process 0 hosts the
// coordinator through "init"); `job` "" leaves the job id unset.
WorkerPtr StartMember(int port, int n, int id, const std::string& job, const std::vector<std::string>& extra,
                      const Steps& steps) {
  const std::string address = "127.0.0.1:" + std::to_string(port);
  std::vector<std::string> args = {"addr=" + address, "bind=" + address, "n=" + std::to_string(n),
                                   "id=" + std::to_string(id), "hb=100,2000", "init_timeout=15000",
                                   "shutdown_timeout=5000", "rpc_timeout=5000", "alarm=45"};
  if (!job.empty()) args.push_back("job=" + job);
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("--");
  args.insert(args.end(), steps.begin(), steps.end());
  return std::make_unique<Worker>("p" + std::to_string(id), args);
}

// One process without a coordinator (local mode): no address, one process.
WorkerPtr StartSingle(const std::vector<std::string>& extra, const Steps& steps) {
  std::vector<std::string> args = {"n=1", "id=0", "alarm=45"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back("--");
  args.insert(args.end(), steps.begin(), steps.end());
  return std::make_unique<Worker>("single", args);
}

// Waits until process 0 is starting its coordinator, and a moment more: the
// others would join a late one too, after a connect backoff the tests need
// not spend.
void AwaitCoordinator(Worker& host) {
  ASSERT_TRUE(host.WaitBegin(0, kJoinMs));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
}

// The results of `steps` (after "init") run by a single process and by
// process 1 of a two-process job, whose process 0 hosts the coordinator and
// only waits.
struct BothModes {
  std::vector<std::optional<StepResult>> single;
  std::vector<std::optional<StepResult>> job;
  std::string job_output;  // both job processes' stdout and stderr
};

BothModes RunInBothModes(const Steps& steps) {
  BothModes out;
  Steps with_init = {"init"};
  with_init.insert(with_init.end(), steps.begin(), steps.end());
  with_init.push_back("barrier:end:15000");
  {
    auto single = StartSingle({}, with_init);
    for (size_t i = 1; i <= steps.size(); ++i) out.single.push_back(single->WaitResult(static_cast<int>(i), kJoinMs));
  }
  const int port = FreePort();
  auto host = StartMember(port, 2, 0, "job-errors", {}, {"init", "barrier:end:15000"});
  AwaitCoordinator(*host);
  auto member = StartMember(port, 2, 1, "job-errors", {}, with_init);
  for (size_t i = 1; i <= steps.size(); ++i) out.job.push_back(member->WaitResult(static_cast<int>(i), kJoinMs));
  auto end = member->WaitResult(static_cast<int>(steps.size()) + 1, kStepMs);
  EXPECT_TRUE(end && end->ok) << "the job did not go on: " << Describe(end);
  member->WaitExit(10000);
  host->WaitExit(10000);
  out.job_output = host->Stdout() + host->Stderr() + member->Stdout() + member->Stderr();
  return out;
}

// Asserts that step `index` (0-based among the steps under test) failed in
// both modes with `code`, no reason and exactly `message`.
void ExpectRefusedInBoth(const BothModes& runs, size_t index, const std::string& code, const std::string& message) {
  for (const auto* mode : {&runs.single, &runs.job}) {
    const std::optional<StepResult>& r = (*mode)[index];
    const char* name = mode == &runs.single ? "single process" : "job";
    ASSERT_TRUE(r.has_value()) << name << " step " << index << " has no result";
    EXPECT_FALSE(r->ok) << name << ": " << Describe(r);
    EXPECT_EQ(r->Field("code"), code) << name << ": " << Describe(r);
    EXPECT_EQ(r->IntField("reason"), TESSERA_REASON_NONE) << name << ": " << Describe(r);
    EXPECT_EQ(r->message, message) << name << ": " << Describe(r);
    EXPECT_LT(r->IntField("ms"), kLocalRefusalMs) << name << ": " << Describe(r);
  }
}

void ExpectOkInBoth(const BothModes& runs, size_t index) {
  for (const auto* mode : {&runs.single, &runs.job}) {
    const std::optional<StepResult>& r = (*mode)[index];
    EXPECT_TRUE(r && r->ok) << (mode == &runs.single ? "single process" : "job") << " step " << index << ": "
                            << Describe(r);
  }
}

// ---- keys ---------------------------------------------------------------------

// Keys are UTF-8 text (listings hand them back as protobuf strings): bytes
// that are not are refused before sending, in both modes alike, naming the
// argument and showing the bytes escaped; nothing prints protobuf errors.
TEST(ClusterErrors, KeyThatIsNotUtf8IsInvalidArgumentInBothModes) {
  const std::string bad = "\xff\xfe" "A";
  BothModes runs = RunInBothModes({"set:" + bad + ":v", "tryget:" + bad, "list:\xff\xfe", "set:fine:v"});
  const std::string message = "Argument 'key' is \"\\xff\\xfeA\", which is not UTF-8 text; expected valid UTF-8";
  ExpectRefusedInBoth(runs, 0, "INVALID_ARGUMENT", message);
  ExpectRefusedInBoth(runs, 1, "INVALID_ARGUMENT", message);
  ExpectRefusedInBoth(runs, 2, "INVALID_ARGUMENT",
                      "Argument 'prefix' is \"\\xff\\xfe\", which is not UTF-8 text; expected valid UTF-8");
  ExpectOkInBoth(runs, 3);
  EXPECT_THAT(runs.job_output, AllOf(Not(HasSubstr("libprotobuf")), Not(HasSubstr("UNIMPLEMENTED"))));
}

// Keys have at most 4096 bytes (client.h): the longest is stored, one byte
// more is refused naming the key's start, its length and the limit, and an
// 8 MiB key is refused as fast, in both modes alike.
TEST(ClusterErrors, KeyOverTheLengthLimitIsInvalidArgumentInBothModes) {
  BothModes runs = RunInBothModes(
      {"set:" + std::string(4096, 'k') + ":v", "set:" + std::string(4097, 'k') + ":v", "setn:huge:1:8388608"});
  ExpectOkInBoth(runs, 0);
  ExpectRefusedInBoth(runs, 1, "INVALID_ARGUMENT",
                      "Argument 'key' \"" + std::string(64, 'k') +
                          "\"... has 4097 bytes; expected at most 4096 bytes (the length limit of keys and ids)");
  ExpectRefusedInBoth(runs, 2, "INVALID_ARGUMENT",
                      "Argument 'key' \"huge" + std::string(60, 'k') +
                          "\"... has 8388608 bytes; expected at most 4096 bytes (the length limit of keys and ids)");
}

// Barrier ids are text as keys are: refused before sending, in both modes
// (and the job's own barrier at the end still passes).
TEST(ClusterErrors, BarrierIdThatIsNotUtf8IsInvalidArgumentInBothModes) {
  BothModes runs = RunInBothModes({"barrier:b\xff:5000", "cancel_barrier:b\xff"});
  const std::string message = "Argument 'barrier_id' is \"b\\xff\", which is not UTF-8 text; expected valid UTF-8";
  ExpectRefusedInBoth(runs, 0, "INVALID_ARGUMENT", message);
  ExpectRefusedInBoth(runs, 1, "INVALID_ARGUMENT", message);
  EXPECT_THAT(runs.job_output, AllOf(Not(HasSubstr("libprotobuf")), Not(HasSubstr("UNIMPLEMENTED"))));
}

// A job id that is not text would break every call: the start refuses it.
TEST(ClusterErrors, JobIdThatIsNotUtf8FailsTheStartInBothModes) {
  const std::string message = "Argument 'job_id' is \"j\\xff\", which is not UTF-8 text; expected valid UTF-8";
  auto single = StartSingle({"job=j\xff"}, {"init"});
  const int port = FreePort();
  auto host = StartMember(port, 2, 0, "j\xff", {}, {"init"});
  for (Worker* w : {single.get(), host.get()}) {
    auto init = w->WaitResult(0, kJoinMs);
    ASSERT_TRUE(init.has_value()) << w->label();
    EXPECT_EQ(init->Field("code"), "INVALID_ARGUMENT") << w->label() << ": " << Describe(init);
    EXPECT_THAT(init->message, HasSubstr(message)) << w->label() << ": " << Describe(init);
    EXPECT_LT(init->IntField("ms"), kLocalRefusalMs) << w->label() << ": " << Describe(init);
  }
}

// A reported error whose message is not text still fails the job for the
// others, its odd bytes escaped in hex.
TEST(ClusterErrors, ReportedMessageThatIsNotUtf8ArrivesEscaped) {
  const int port = FreePort();
  auto host = StartMember(port, 2, 0, "job-report", {}, {"init", "barrier:never:15000"});
  AwaitCoordinator(*host);
  auto member = StartMember(port, 2, 1, "job-report", {}, {"init", "report:gave up \xff\xfe"});
  auto report = member->WaitResult(1, kJoinMs);
  ASSERT_TRUE(report && report->ok) << Describe(report) << member->Stderr();
  auto failed = host->WaitResult(1, kStepMs);
  ASSERT_TRUE(failed.has_value()) << "the barrier is still waiting";
  EXPECT_EQ(failed->Field("code"), "ABORTED") << Describe(failed);
  EXPECT_EQ(failed->IntField("reason"), TESSERA_REASON_JOB_FAILED) << Describe(failed);
  EXPECT_EQ(failed->IntField("source"), 1) << Describe(failed);
  EXPECT_THAT(failed->message, HasSubstr("gave up \\xff\\xfe")) << Describe(failed);
  EXPECT_THAT(host->Stdout() + host->Stderr() + member->Stdout() + member->Stderr(), Not(HasSubstr("libprotobuf")));
}

// ---- values -------------------------------------------------------------------

// A value over the limit (64 MiB by default) is refused before it is sent:
// RESOURCE_EXHAUSTED naming the key, the size and the limit, at once, and
// the coordinator never sees (nor logs) an oversized message.
TEST(ClusterErrors, ValueOverTheLimitIsRefusedBeforeSendingInBothModes) {
  BothModes runs = RunInBothModes({"setn:big:209715200", "tryget:big"});
  ExpectRefusedInBoth(runs, 0, "RESOURCE_EXHAUSTED", "value of key 'big' has 209715200 bytes; the limit is 67108864");
  ExpectRefusedInBoth(runs, 1, "NOT_FOUND", "key 'big' is not in the key-value store");
  EXPECT_THAT(runs.job_output, Not(HasSubstr("larger than max")));
}

// The limit a client applies is the coordinator's (it comes with the
// registration), not its own configuration: 8 MiB against a 1 MiB
// coordinator is refused by the client with the store's message, not by
// gRPC's message-size check once sent.
TEST(ClusterErrors, ValueLimitIsTheCoordinatorsNotTheClients) {
  const int port = FreePort();
  auto host = StartMember(port, 2, 0, "job-limit", {"kv_limits=1048576,1073741824"}, {"init", "barrier:end:15000"});
  AwaitCoordinator(*host);
  auto member = StartMember(port, 2, 1, "job-limit", {},
                            {"init", "setn:fits:1048576", "setn:over:8388608", "barrier:end:15000"});
  auto fits = member->WaitResult(1, kJoinMs);
  EXPECT_TRUE(fits && fits->ok) << Describe(fits);
  auto over = member->WaitResult(2, kStepMs);
  ASSERT_TRUE(over.has_value());
  EXPECT_EQ(over->Field("code"), "RESOURCE_EXHAUSTED") << Describe(over);
  EXPECT_EQ(over->message, "value of key 'over' has 8388608 bytes; the limit is 1048576") << Describe(over);
  EXPECT_LT(over->IntField("ms"), kLocalRefusalMs) << Describe(over);
}

// The largest value (the default 64 MiB) is stored and read back intact by
// another process; one byte more is refused.
TEST(ClusterErrors, LargestValueIsAcceptedAndReadBackIntact) {
  const int port = FreePort();
  auto host = StartMember(port, 2, 0, "job-largest", {}, {"init", "getn:largest:20000", "barrier:end:15000"});
  AwaitCoordinator(*host);
  auto member = StartMember(port, 2, 1, "job-largest", {},
                            {"init", "setn:largest:67108864", "setn:larger:67108865", "barrier:end:15000"});
  auto set = member->WaitResult(1, kJoinMs);
  EXPECT_TRUE(set && set->ok) << Describe(set) << member->Stderr();
  auto larger = member->WaitResult(2, kStepMs);
  ASSERT_TRUE(larger.has_value());
  EXPECT_EQ(larger->Field("code"), "RESOURCE_EXHAUSTED") << Describe(larger);
  EXPECT_EQ(larger->message, "value of key 'larger' has 67108865 bytes; the limit is 67108864") << Describe(larger);
  auto got = host->WaitResult(1, kJoinMs);
  ASSERT_TRUE(got && got->ok) << Describe(got) << host->Stderr();
  EXPECT_EQ(got->Field("size"), "67108864") << Describe(got);
  EXPECT_EQ(got->Field("intact"), "1") << Describe(got);
  auto host_end = host->WaitResult(2, kStepMs);
  EXPECT_TRUE(host_end && host_end->ok) << Describe(host_end);
  auto member_end = member->WaitResult(3, kStepMs);
  EXPECT_TRUE(member_end && member_end->ok) << Describe(member_end);
}

// Many small keys from one process are all listed by another, with their bytes.
TEST(ClusterErrors, ManyKeysAreStoredAndListedByAnotherProcess) {
  constexpr int kKeys = 20000;
  const int port = FreePort();
  // The member waits at "end" until the host has counted: a member that exited
  // after "filled" would end the job (its connection closed) while the host,
  // slow under load, still lists.
  auto host =
      StartMember(port, 2, 0, "job-many", {}, {"init", "barrier:filled:30000", "count:many", "barrier:end:30000"});
  AwaitCoordinator(*host);
  auto member = StartMember(port, 2, 1, "job-many", {},
                            {"init", "fill:many:" + std::to_string(kKeys) + ":16", "barrier:filled:30000",
                             "barrier:end:30000"});
  auto filled = member->WaitResult(1, 40000);
  ASSERT_TRUE(filled && filled->ok) << Describe(filled) << member->Stderr();
  EXPECT_EQ(filled->IntField("set"), kKeys);
  auto counted = host->WaitResult(2, kJoinMs);
  ASSERT_TRUE(counted && counted->ok) << Describe(counted) << host->Stderr();
  EXPECT_EQ(counted->IntField("entries"), kKeys) << Describe(counted);
  EXPECT_EQ(counted->IntField("bytes"), kKeys * 16) << Describe(counted);
  auto host_end = host->WaitResult(3, kStepMs);
  EXPECT_TRUE(host_end && host_end->ok) << Describe(host_end);
  auto member_end = member->WaitResult(3, kStepMs);
  EXPECT_TRUE(member_end && member_end->ok) << Describe(member_end);
}

// ---- admission ----------------------------------------------------------------

// A process of another job with the same token is told its job is wrong
// (WRONG_JOB naming both ids), not that its token is: the credential binds
// the job id, so the token check alone could not say which was wrong. The
// job it knocked at forms and runs.
void ExpectWrongJobNamingBothIds(const std::string& coordinator_job) {
  const std::string token = "token-shared-by-two-jobs";
  const int port = FreePort();
  auto host = StartMember(port, 2, 0, coordinator_job, {"token=" + token}, {"init", "barrier:end:15000"});
  AwaitCoordinator(*host);
  auto stray = StartMember(port, 2, 1, "job-beta", {"token=" + token}, {"connect"});
  auto refused = stray->WaitResult(0, 10000);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->Field("code"), "FAILED_PRECONDITION") << Describe(refused);
  EXPECT_EQ(refused->IntField("reason"), TESSERA_REASON_WRONG_JOB) << Describe(refused);
  const std::string address = "127.0.0.1:" + std::to_string(port);
  EXPECT_EQ(refused->message, "registration with the coordinator at " + address + " failed: coordinator at " +
                                  address + " serves job '" + coordinator_job +
                                  "', but process 1 belongs to job 'job-beta'")
      << Describe(refused);
  EXPECT_LT(refused->IntField("ms"), 2000) << Describe(refused);
  auto member = StartMember(port, 2, 1, coordinator_job, {"token=" + token}, {"init", "barrier:end:15000"});
  for (Worker* w : {host.get(), member.get()}) {
    auto end = w->WaitResult(1, kJoinMs);
    EXPECT_TRUE(end && end->ok) << w->label() << ": " << Describe(end);
  }
}

TEST(ClusterErrors, WrongJobIdWithTheSameTokenIsWrongJobNamingBothIds) { ExpectWrongJobNamingBothIds("job-alpha"); }

// The same against a coordinator without a job id (the default): its id
// shows as '' beside the caller's (it used to be "job token rejected ...
// (job_id )", the caller's id nowhere).
TEST(ClusterErrors, WrongJobIdAgainstADefaultJobIdNamesBothIds) { ExpectWrongJobNamingBothIds(""); }

// Callers with a wrong token or none are refused (UNAUTHENTICATED, reason
// AUTHENTICATION) while a job runs, and the job goes on unharmed: its
// store answers, its next barrier passes, and it shuts down cleanly.
TEST(ClusterErrors, WrongOrMissingTokenLeavesARunningJobUnharmed) {
  // The members pause this long while the intruders knock (each refusal is
  // asserted under 2 s, and they knock at once).
  constexpr int64_t kPauseMs = 5000;
  const std::string token = "token-of-the-job";
  const int port = FreePort();
  const Steps steps = {"init", "barrier:running:15000", "sleep:" + std::to_string(kPauseMs), "set:p:v:over",
                       "tryget:p", "barrier:after:15000", "shutdown"};
  auto host = StartMember(port, 2, 0, "job-tok", {"token=" + token}, steps);
  AwaitCoordinator(*host);
  auto member = StartMember(port, 2, 1, "job-tok", {"token=" + token}, steps);
  auto running = member->WaitResult(1, kJoinMs);
  ASSERT_TRUE(running && running->ok) << Describe(running);
  std::vector<WorkerPtr> intruders;
  intruders.push_back(StartMember(port, 2, 1, "job-tok", {"token=not-the-token"}, {"connect"}));
  intruders.push_back(StartMember(port, 2, 1, "job-tok", {}, {"connect"}));
  for (auto& intruder : intruders) {
    auto refused = intruder->WaitResult(0, 10000);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->Field("code"), "UNAUTHENTICATED") << Describe(refused);
    EXPECT_EQ(refused->IntField("reason"), TESSERA_REASON_AUTHENTICATION) << Describe(refused);
    const std::string address = "127.0.0.1:" + std::to_string(port);
    EXPECT_EQ(refused->message, "registration with the coordinator at " + address +
                                    " failed: job token rejected by coordinator at " + address + " (job 'job-tok')")
        << Describe(refused);
    EXPECT_LT(refused->IntField("ms"), 2000) << Describe(refused);
    auto paused = host->WaitResult(2, 0);
    EXPECT_FALSE(paused.has_value()) << "the intruder came after the pause: the test proves nothing";
  }
  for (Worker* w : {host.get(), member.get()}) {
    for (int step = 2; step < static_cast<int>(steps.size()); ++step) {
      auto r = w->WaitResult(step, kStepMs);
      EXPECT_TRUE(r && r->ok) << w->label() << " step " << step << ": " << Describe(r);
    }
    EXPECT_EQ(w->WaitExit(10000), std::optional<int>(0)) << w->label();
  }
}

}  // namespace
}  // namespace tessera::cluster_test
