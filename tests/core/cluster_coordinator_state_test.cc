// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// CoordinatorState under a fake clock: the job state machine of
// coordinator.md §6.2-§6.6 without any transport, so every deadline is exact.
#include "core/cluster/coordinator_state.h"
#include "core/cluster/local_host.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/topology.h"
#include "core/log.h"
#include "tests/core/testing.h"

namespace tessera::cluster {
namespace {

using ::tessera::testing::IsOk;
using ::tessera::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class FakeClock final : public Clock {
 public:
  absl::Time Now() const override { return now_; }
  void Advance(absl::Duration d) { now_ += d; }

 private:
  absl::Time now_ = absl::FromUnixSeconds(1000000);
};

// The outcome of one blocking call, and its name for Withdraw.
struct Outcome {
  bool done = false;
  absl::Status status;
  ParkedCall call;
};

class CoordinatorStateTest : public ::testing::Test {
 protected:
  CoordinatorStateTest() {
    options_.job_id = "job-1";
    options_.num_processes = 4;
    options_.address = "10.0.0.1:8476";
    options_.heartbeat_interval = absl::Seconds(1);
    options_.heartbeat_timeout = absl::Seconds(5);
    options_.init_timeout = absl::Seconds(60);
    options_.shutdown_timeout = absl::Seconds(10);
  }

  CoordinatorState& state() {
    if (state_ == nullptr) state_ = std::make_unique<CoordinatorState>(options_, &clock_);
    return *state_;
  }

  v1::Header Header(int p, uint64_t incarnation = 0) const {
    v1::Header header;
    header.set_job_id("job-1");
    header.set_process_id(p);
    header.set_incarnation(incarnation != 0 ? incarnation : 1000 + p);
    header.set_protocol_version(v1::PROTOCOL_VERSION_CURRENT);
    return header;
  }

  v1::RegisterRequest Request(int p, uint64_t incarnation = 0) const {
    v1::RegisterRequest request;
    *request.mutable_header() = Header(p, incarnation);
    request.set_num_processes(options_.num_processes);
    request.mutable_host()->set_hostname(absl::StrCat("host-", p));
    request.mutable_host()->set_boot_id(absl::StrCat("boot-", p));
    request.mutable_host()->set_pid(100 + p);
    v1::LocalDevice* device = request.add_devices();
    device->set_local_ordinal(0);
    device->set_platform("cpu");
    return request;
  }

  absl::Status Register(const v1::RegisterRequest& request) {
    v1::RegisterResponse response;
    return state().Register(request, &response);
  }
  absl::Status Register(int p, uint64_t incarnation = 0) { return Register(Request(p, incarnation)); }

  void RegisterAll() {
    for (int p = 0; p < options_.num_processes; ++p) ASSERT_THAT(Register(p), IsOk());
    ASSERT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
  }

  // Heartbeats from every listed process, then time passes and the state ticks.
  void Beat(std::vector<int> processes) {
    for (int p : processes) {
      v1::HeartbeatRequest request;
      *request.mutable_header() = Header(p);
      v1::HeartbeatResponse response;
      (void)state().Heartbeat(request, &response);
    }
  }
  void Pass(absl::Duration d) {
    clock_.Advance(d);
    state().Tick();
  }
  // Processes 0-2 keep heartbeating while process 3 stays silent 5.5 s,
  // past the 5 s timeout.
  void LoseProcess3() {
    Beat({0, 1, 2});
    Pass(absl::Seconds(3));
    Beat({0, 1, 2});
    Pass(absl::Milliseconds(2500));
  }

  Completion Into(std::shared_ptr<Outcome> outcome) {
    return [outcome](absl::Status s) {
      EXPECT_FALSE(outcome->done) << "completed twice";
      outcome->done = true;
      outcome->status = std::move(s);
    };
  }

  std::shared_ptr<Outcome> WaitForJob(int p, v1::GlobalTopology* topology,
                                      int64_t timeout_ms = 0, uint64_t incarnation = 0,
                                      bool omit_devices = false) {
    auto outcome = std::make_shared<Outcome>();
    v1::WaitForJobRequest request;
    *request.mutable_header() = Header(p, incarnation);
    request.set_timeout_ms(timeout_ms);
    request.set_omit_devices(omit_devices);
    outcome->call = state().WaitForJob(request, topology, Into(outcome));
    return outcome;
  }

  std::shared_ptr<Outcome> Barrier(int p, const std::string& id, int64_t counter,
                                   int64_t timeout_ms, std::vector<int32_t> participants = {}) {
    auto outcome = std::make_shared<Outcome>();
    v1::BarrierRequest request;
    *request.mutable_header() = Header(p);
    request.set_barrier_id(id);
    request.set_counter(counter);
    request.set_timeout_ms(timeout_ms);
    for (int32_t q : participants) request.add_participants(q);
    responses_.push_back(std::make_unique<v1::BarrierResponse>());
    outcome->call = state().Barrier(request, responses_.back().get(), Into(outcome));
    return outcome;
  }

  std::shared_ptr<Outcome> KvGet(int p, const std::string& key, v1::KvEntry* entry,
                                 bool wait, int64_t timeout_ms = 0) {
    auto outcome = std::make_shared<Outcome>();
    v1::KvGetRequest request;
    *request.mutable_header() = Header(p);
    request.set_key(key);
    request.set_wait(wait);
    request.set_timeout_ms(timeout_ms);
    outcome->call = state().KvGet(request, entry, Into(outcome));
    return outcome;
  }

  absl::Status KvSet(int p, const std::string& key, const std::string& value,
                     bool overwrite = false) {
    v1::KvSetRequest request;
    *request.mutable_header() = Header(p);
    request.set_key(key);
    request.set_value(value);
    request.set_allow_overwrite(overwrite);
    return state().KvSet(request);
  }

  absl::StatusOr<int64_t> Increment(int p, const std::string& key, int64_t delta) {
    v1::KvIncrementRequest request;
    *request.mutable_header() = Header(p);
    request.set_key(key);
    request.set_delta(delta);
    v1::KvIncrementResponse response;
    absl::Status s = state().KvIncrement(request, &response);
    if (!s.ok()) return s;
    return response.value();
  }

  absl::StatusOr<std::vector<std::string>> KvListKeys(int p, const std::string& prefix) {
    v1::KvListRequest request;
    *request.mutable_header() = Header(p);
    request.set_prefix(prefix);
    v1::KvListResponse response;
    if (absl::Status s = state().KvList(request, &response); !s.ok()) return s;
    std::vector<std::string> keys;
    for (const auto& e : response.entries()) keys.push_back(e.key());
    return keys;
  }

  absl::Status KvDelete(int p, const std::string& key, bool recursive) {
    v1::KvDeleteRequest request;
    *request.mutable_header() = Header(p);
    request.set_key(key);
    request.set_recursive(recursive);
    return state().KvDelete(request);
  }

  absl::StatusOr<bool> CreateIfAbsent(int p, const std::string& key, const std::string& value) {
    v1::KvCasRequest request;
    *request.mutable_header() = Header(p);
    request.set_key(key);
    request.set_desired(value);
    v1::KvCasResponse response;
    if (absl::Status s = state().KvCompareAndSwap(request, &response); !s.ok()) return s;
    return response.swapped();
  }

  std::shared_ptr<Outcome> AgreeLive(int p, std::vector<int32_t> candidates, int64_t timeout_ms,
                                     v1::AgreeLiveResponse* response) {
    auto outcome = std::make_shared<Outcome>();
    v1::AgreeLiveRequest request;
    *request.mutable_header() = Header(p);
    for (int32_t q : candidates) request.add_candidates(q);
    request.set_timeout_ms(timeout_ms);
    outcome->call = state().AgreeLive(request, response, Into(outcome));
    return outcome;
  }

  std::shared_ptr<Outcome> Shutdown(int p, int64_t timeout_ms = 0) {
    auto outcome = std::make_shared<Outcome>();
    v1::ShutdownRequest request;
    *request.mutable_header() = Header(p);
    request.set_timeout_ms(timeout_ms);
    outcome->call = state().Shutdown(request, Into(outcome));
    return outcome;
  }

  v1::CoordinatorErrorDetail Detail(const absl::Status& status) {
    auto detail = DetailOf(status);
    EXPECT_TRUE(detail.has_value()) << status;
    return detail.value_or(v1::CoordinatorErrorDetail());
  }

  CoordinatorOptions options_;
  FakeClock clock_;
  std::unique_ptr<CoordinatorState> state_;
  std::vector<std::unique_ptr<v1::BarrierResponse>> responses_;
};

// --- Registration -------------------------------------------------------------

TEST_F(CoordinatorStateTest, RegisterRejectsAnotherJobNamingBothIds) {
  v1::RegisterRequest request = Request(0);
  request.mutable_header()->set_job_id("job-2");
  absl::Status status = Register(request);
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kFailedPrecondition,
                               "coordinator at 10.0.0.1:8476 serves job 'job-1', but process 0 "
                               "belongs to job 'job-2'"));
  EXPECT_EQ(Detail(status).reason(), v1::CoordinatorErrorDetail::REASON_WRONG_JOB);
}

TEST_F(CoordinatorStateTest, RegisterRejectsAnotherProtocolVersion) {
  v1::RegisterRequest request = Request(0);
  request.mutable_header()->set_protocol_version(2);
  EXPECT_THAT(Register(request), StatusIs(absl::StatusCode::kInvalidArgument,
                                          HasSubstr("speaks coordinator protocol version 2")));
}

TEST_F(CoordinatorStateTest, RegisterRejectsAnotherProcessCount) {
  v1::RegisterRequest request = Request(0);
  request.set_num_processes(8);
  EXPECT_THAT(Register(request),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "process 0 expects 8 processes, but the coordinator at 10.0.0.1:8476 "
                       "serves job 'job-1' with 4"));
}

TEST_F(CoordinatorStateTest, RegisterRejectsAnIdOutOfRange) {
  EXPECT_THAT(Register(4), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "process id 4 is out of range: job 'job-1' has 4 processes "
                                    "(ids 0..3)"));
  EXPECT_THAT(Register(-1), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("id -1")));
}

TEST_F(CoordinatorStateTest, RegisteringTwiceWithOneIncarnationIsARetry) {
  ASSERT_THAT(Register(0), IsOk());
  EXPECT_THAT(Register(0), IsOk());
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_REGISTERING);
}

TEST_F(CoordinatorStateTest, DuplicateLiveIdFromAnotherHostIsRejectedNamingTheHolder) {
  ASSERT_THAT(Register(3), IsOk());
  Pass(absl::Seconds(2));
  v1::RegisterRequest intruder = Request(3, 77);
  intruder.mutable_host()->set_hostname("host-b");
  intruder.mutable_host()->set_pid(999);
  absl::Status status = Register(intruder);
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kAlreadyExists,
                               HasSubstr("process id 3 is held by host-3 pid 103 (last heartbeat "
                                         "2 s ago)")));
  EXPECT_EQ(Detail(status).reason(), v1::CoordinatorErrorDetail::REASON_DUPLICATE_PROCESS);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_REGISTERING);  // the holder is unaffected
}

TEST_F(CoordinatorStateTest, DuplicateIdFailsTheJobWhenConfigured) {
  options_.fail_job_on_duplicate_id = true;
  ASSERT_THAT(Register(3), IsOk());
  v1::RegisterRequest intruder = Request(3, 77);
  intruder.mutable_host()->set_hostname("host-b");
  EXPECT_THAT(Register(intruder), StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("held by")));
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_FAILED);
}

// The holder's process has exited: how a restart on the same host looks.
bool Exited(const v1::HostInfo&) { return true; }

TEST_F(CoordinatorStateTest, SecondLiveProcessOnTheSameHostIsADuplicateNotARestart) {
  options_.holder_exited = [](const v1::HostInfo&) { return false; };
  ASSERT_THAT(Register(1, 111), IsOk());
  v1::RegisterRequest second = Request(1, 222);
  second.mutable_host()->set_pid(555);
  absl::Status status = Register(second);
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kAlreadyExists,
                               HasSubstr("process id 1 is held by host-1 pid 101")));
  EXPECT_EQ(Detail(status).reason(), v1::CoordinatorErrorDetail::REASON_DUPLICATE_PROCESS);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_REGISTERING);
}

TEST_F(CoordinatorStateTest, HolderExitedOnThisHostIsFalseForAnotherBootAndForALivePid) {
  v1::HostInfo other_boot;
  other_boot.set_boot_id("not-this-boot");
  other_boot.set_pid(999999);
  EXPECT_FALSE(HolderExitedOnThisHost(other_boot));
  v1::HostInfo self = LocalHostInfo();
  EXPECT_FALSE(HolderExitedOnThisHost(self));
}

TEST_F(CoordinatorStateTest, RestartDuringRegistrationSupersedesTheOlderIncarnation) {
  options_.holder_exited = Exited;
  ASSERT_THAT(Register(1, 111), IsOk());
  v1::GlobalTopology topology;
  auto old_wait = WaitForJob(1, &topology, 0, 111);
  v1::RegisterRequest restarted = Request(1, 222);
  restarted.mutable_host()->set_pid(555);
  ASSERT_THAT(Register(restarted), IsOk());
  ASSERT_TRUE(old_wait->done);
  EXPECT_THAT(old_wait->status,
              StatusIs(absl::StatusCode::kAborted,
                       "process 1 incarnation 6f was superseded by a newer incarnation de (host "
                       "host-1, pid 555)"));
  EXPECT_EQ(Detail(old_wait->status).reason(), v1::CoordinatorErrorDetail::REASON_SUPERSEDED);
  // Calls with the old incarnation are refused from now on.
  EXPECT_THAT(WaitForJob(1, &topology, 0, 111)->status,
              StatusIs(absl::StatusCode::kAborted, HasSubstr("superseded")));
}

TEST_F(CoordinatorStateTest, RestartWhileRunningFailsAFateSharingJob) {
  options_.holder_exited = Exited;
  RegisterAll();
  v1::RegisterRequest restarted = Request(1, 0x7d0);
  restarted.mutable_host()->set_pid(201);
  absl::Status status = Register(restarted);
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kAborted,
                               "job 'job-1' failed: process 1 restarted (old inc 3e9, new inc "
                               "7d0, host host-1, pid 201)"));
  EXPECT_EQ(Detail(status).reason(), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
  EXPECT_EQ(Detail(status).source_process_id(), 1);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_FAILED);
}

TEST_F(CoordinatorStateTest, RestartWhileRunningRejoinsARecoverableJobAtTheNextGeneration) {
  options_.recoverable = true;
  options_.holder_exited = Exited;
  RegisterAll();
  ASSERT_THAT(Register(Request(1, 0x7d0)), IsOk());
  v1::GlobalTopology topology;
  auto wait = WaitForJob(1, &topology, 0, 0x7d0);
  ASSERT_TRUE(wait->done);
  EXPECT_THAT(wait->status, IsOk());
  EXPECT_EQ(topology.generation(), 2);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
}

// Issue 15: a late duplicate gets the answer of a duplicate at start.
TEST_F(CoordinatorStateTest, LateJoinerAfterRunningIsADuplicateNamingTheHolder) {
  RegisterAll();
  v1::RegisterRequest late = Request(1, 55);
  late.mutable_host()->set_hostname("host-late");
  late.mutable_host()->set_pid(555);
  absl::Status status = Register(late);
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kAlreadyExists,
                               HasSubstr("process id 1 is held by host-1 pid 101 (last heartbeat 0 s "
                                         "ago); host-late pid 555 asked for it too (job 'job-1' "
                                         "running since ")));
  EXPECT_EQ(Detail(status).reason(), v1::CoordinatorErrorDetail::REASON_DUPLICATE_PROCESS);
  EXPECT_EQ(Detail(status).source_process_id(), 1);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
}

TEST_F(CoordinatorStateTest, WaitForJobOmittingDevicesAnswersTheSameFingerprintAndGenerationOnly) {
  ASSERT_THAT(Register(1), IsOk());
  v1::GlobalTopology summary;
  auto parked = WaitForJob(1, &summary, 0, 0, /*omit_devices=*/true);
  for (int p : {0, 2, 3}) ASSERT_THAT(Register(p), IsOk());
  ASSERT_TRUE(parked->done);
  ASSERT_THAT(parked->status, IsOk());
  v1::GlobalTopology full;
  ASSERT_THAT(WaitForJob(0, &full)->status, IsOk());
  ASSERT_EQ(full.devices_size(), 4);
  EXPECT_EQ(summary.devices_size(), 0);
  EXPECT_EQ(summary.hosts_size(), 0);
  EXPECT_EQ(summary.fingerprint(), full.fingerprint());
  EXPECT_EQ(summary.generation(), 1);
}

// Clients learn the job's start from their event stream (no WaitForJob):
// the job-start event says what WaitForJob would, fingerprint and generation.
TEST_F(CoordinatorStateTest, JobStartEventCarriesTheTopologyFingerprint) {
  RegisterAll();
  std::vector<v1::Event> events = state().EventsAfter(0, 100);
  ASSERT_EQ(events.size(), 1u);
  ASSERT_EQ(events[0].kind_case(), v1::Event::kTopologyGeneration);
  EXPECT_EQ(events[0].topology_generation(), 1);
  v1::GlobalTopology topology;
  ASSERT_THAT(WaitForJob(0, &topology)->status, IsOk());
  EXPECT_NE(topology.fingerprint(), 0u);
  EXPECT_EQ(events[0].topology_fingerprint(), topology.fingerprint());
}

// A process that rejoins a running job gets no job-start event after its
// registration's version: the answer carries the topology itself.
TEST_F(CoordinatorStateTest, RejoinAnswerCarriesTheRunningJobsTopology) {
  options_.recoverable = true;
  options_.holder_exited = Exited;
  RegisterAll();
  v1::RegisterResponse response;
  ASSERT_THAT(state().Register(Request(1, 0x7d0), &response), IsOk());
  v1::GlobalTopology topology;
  ASSERT_THAT(WaitForJob(1, &topology, 0, 0x7d0)->status, IsOk());
  ASSERT_TRUE(response.has_job_topology());
  EXPECT_EQ(response.job_topology().fingerprint(), topology.fingerprint());
  EXPECT_EQ(response.job_topology().generation(), 2);
  EXPECT_EQ(response.job_topology().devices_size(), 0);
  EXPECT_GE(response.job_state_version(), state().EventsAfter(0, 100).back().version());
}

TEST_F(CoordinatorStateTest, RegistrationAnswerBeforeTheJobRunsCarriesNoTopology) {
  v1::RegisterResponse response;
  ASSERT_THAT(state().Register(Request(0), &response), IsOk());
  EXPECT_FALSE(response.has_job_topology());
}

TEST_F(CoordinatorStateTest, RegistrationDeadlineNamesProcessesThatNeverConnected) {
  ASSERT_THAT(Register(0), IsOk());
  v1::GlobalTopology topology;
  auto wait = WaitForJob(0, &topology);
  Beat({0});
  Pass(absl::Seconds(4));
  Beat({0});
  Pass(absl::Seconds(4));
  ASSERT_FALSE(wait->done);
  for (int i = 0; i < 13; ++i) {
    Beat({0});
    Pass(absl::Seconds(4));
  }
  ASSERT_TRUE(wait->done);
  EXPECT_THAT(wait->status,
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       "job 'job-1' did not start within the init timeout of 1m: 3 of 4 "
                       "processes never connected; were they launched? (process ids 1,2,3)"));
  v1::CoordinatorErrorDetail detail = Detail(wait->status);
  EXPECT_EQ(detail.reason(), v1::CoordinatorErrorDetail::REASON_NEVER_CONNECTED);
  ASSERT_EQ(detail.missing_size(), 3);
  EXPECT_EQ(detail.missing(0).process_id(), 1);
  EXPECT_FALSE(detail.missing(0).ever_connected());
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_FAILED);
}

TEST_F(CoordinatorStateTest, WaitForJobTimeoutTellsConnectedThenLostFromNeverConnected) {
  options_.recoverable = true;  // a lost process frees its slot instead of failing the job
  ASSERT_THAT(Register(0), IsOk());
  ASSERT_THAT(Register(1), IsOk());
  v1::GlobalTopology topology;
  auto wait = WaitForJob(0, &topology, 8000);
  for (int i = 0; i < 8; ++i) {
    Beat({0});
    Pass(absl::Seconds(1));
  }
  ASSERT_TRUE(wait->done);
  EXPECT_THAT(wait->status,
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       "waiting for job 'job-1' to start timed out after 8s: 2 of 4 processes "
                       "never connected; were they launched? (process ids 2,3); processes 1 "
                       "connected then were lost (heartbeat timeout or restart)"));
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_REGISTERING);
}

TEST_F(CoordinatorStateTest, HeartbeatLossFailsTheJobOnlyAfterTheTimeout) {
  RegisterAll();
  v1::KvEntry entry;
  auto get = KvGet(0, "never", &entry, true, 60000);
  Beat({0, 1, 2});
  Pass(absl::Seconds(3));
  Beat({0, 1, 2});
  Pass(absl::Seconds(2));  // process 3 silent exactly the timeout: still alive
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
  Pass(absl::Milliseconds(500));
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_FAILED);
  ASSERT_TRUE(get->done);  // pending gets carry the job error, not a timeout
  EXPECT_THAT(get->status,
              StatusIs(absl::StatusCode::kAborted,
                       HasSubstr("process 3 (host host-3, pid 103) sent no heartbeat for 5.5s "
                                 "(timeout 5s)")));
  EXPECT_EQ(Detail(get->status).source_process_id(), 3);
  // Every later call returns the same error.
  EXPECT_THAT(KvSet(0, "k", "v"), StatusIs(absl::StatusCode::kAborted, HasSubstr("process 3")));
}

TEST_F(CoordinatorStateTest, ReportErrorFailsAFateSharingJobAsReportedByUser) {
  RegisterAll();
  v1::ReportErrorRequest request;
  *request.mutable_header() = Header(2);
  request.mutable_error()->set_message("out of memory");
  ASSERT_THAT(state().ReportError(request), IsOk());
  std::vector<v1::Event> events = state().EventsAfter(0, 100);
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events.back().has_job_error());
  EXPECT_TRUE(events.back().job_error().reported_by_user());
  EXPECT_EQ(events.back().job_error().source_process_id(), 2);
  EXPECT_THAT(events.back().job_error().message(),
              HasSubstr("process 2 reported an error: out of memory"));
}

// The job_error event carries the code the process reported (as GetJobState
// does), not the ABORTED every later call returns.
TEST_F(CoordinatorStateTest, ReportedErrorsCodeIsTheJobErrorEventsCode) {
  RegisterAll();
  v1::ReportErrorRequest request;
  *request.mutable_header() = Header(2);
  request.mutable_error()->set_code(static_cast<int32_t>(absl::StatusCode::kResourceExhausted));
  request.mutable_error()->set_message("out of memory");
  ASSERT_THAT(state().ReportError(request), IsOk());
  std::vector<v1::Event> events = state().EventsAfter(0, 100);
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events.back().has_job_error());
  EXPECT_EQ(events.back().job_error().code(),
            static_cast<int32_t>(absl::StatusCode::kResourceExhausted));
  EXPECT_THAT(KvSet(0, "k", "v"), StatusIs(absl::StatusCode::kAborted, HasSubstr("out of memory")));
}

TEST_F(CoordinatorStateTest, StragglersAreLoggedPeriodicallyWhileRegistering) {
  options_.straggler_log_period = absl::Seconds(30);
  ::tessera::testing::ScopedLogCapture log;
  ASSERT_THAT(Register(0), IsOk());
  for (int i = 0; i < 8; ++i) {  // 32 s of heartbeats from process 0
    Beat({0});
    Pass(absl::Seconds(4));
  }
  int straggler_lines = 0;
  for (const auto& [level, message] : log.entries()) {
    if (message.find("still waiting for") == std::string::npos) continue;
    ++straggler_lines;
    EXPECT_EQ(level, LogLevel::kWarning);
    EXPECT_THAT(message, HasSubstr("still waiting for 3 of 4 processes to register: never "
                                   "connected [1,2,3], lost []"));
  }
  EXPECT_EQ(straggler_lines, 1);
}

TEST_F(CoordinatorStateTest, JobStateListsEveryProcessWithItsBarriers) {
  RegisterAll();
  auto waiting = Barrier(2, "ckpt", 3, 60000, {1, 2});
  v1::GetJobStateRequest request;
  *request.mutable_header() = Header(0);
  v1::GetJobStateResponse response;
  ASSERT_THAT(state().GetJobState(request, &response), IsOk());
  EXPECT_EQ(response.job_state(), v1::JOB_STATE_RUNNING);
  ASSERT_EQ(response.tasks_size(), 4);
  EXPECT_EQ(response.tasks(2).state(), v1::TASK_STATE_RUNNING);
  EXPECT_THAT(response.tasks(2).waiting_at(), ElementsAre("ckpt#3"));
  EXPECT_EQ(response.tasks(2).host().hostname(), "host-2");
  EXPECT_TRUE(response.tasks(2).ever_connected());
}

// --- Topology -----------------------------------------------------------------

TEST_F(CoordinatorStateTest, GlobalIdsFollowProcessThenLocalOrdinal) {
  options_.num_processes = 2;
  v1::RegisterRequest second = Request(1);
  second.clear_devices();
  for (int ordinal : {1, 0}) {  // reported out of order
    v1::LocalDevice* d = second.add_devices();
    d->set_local_ordinal(ordinal);
    d->set_platform("cpu");
  }
  ASSERT_THAT(Register(0), IsOk());
  ASSERT_THAT(Register(second), IsOk());
  v1::GlobalTopology topology;
  ASSERT_THAT(WaitForJob(0, &topology)->status, IsOk());
  ASSERT_EQ(topology.devices_size(), 3);
  EXPECT_EQ(topology.devices(1).process_id(), 1);
  EXPECT_EQ(topology.devices(1).local().local_ordinal(), 0);
  EXPECT_EQ(topology.devices(2).global_id(), 2);
  EXPECT_EQ(topology.devices(2).local().local_ordinal(), 1);
  EXPECT_EQ(topology.devices(1).slice_index(), 1);  // one slice per boot id
}

struct SanityCase {
  const char* name;
  std::function<void(std::vector<v1::RegisterRequest>&)> mutate;
  const char* message;
};

TEST_F(CoordinatorStateTest, DeviceSanityChecksFailTheJob) {
  const SanityCase cases[] = {
      {"platform mismatch",
       [](auto& r) { r[1].mutable_devices(0)->set_platform("gpu"); },
       "processes disagree on the device platform: 'cpu' on processes 0; 'gpu' on processes 1"},
      {"one device claimed twice on one host",
       [](auto& r) {
         r[1].mutable_host()->set_boot_id("boot-0");
         r[0].mutable_devices(0)->set_physical_id("0000:01:00.0");
         r[1].mutable_devices(0)->set_physical_id("0000:01:00.0");
       },
       "processes 0 and 1 both claim device '0000:01:00.0'"},
      {"partition index for some only",
       [](auto& r) { r[0].set_partition_index(0); },
       "partition index is set for processes 0 but not for 1; set it for all processes or none"},
  };
  for (const SanityCase& c : cases) {
    SCOPED_TRACE(c.name);
    options_.num_processes = 2;
    state_.reset();
    std::vector<v1::RegisterRequest> requests = {Request(0), Request(1)};
    c.mutate(requests);
    ASSERT_THAT(Register(requests[0]), IsOk());
    ASSERT_THAT(Register(requests[1]), IsOk());
    v1::GlobalTopology topology;
    auto wait = WaitForJob(0, &topology);
    ASSERT_TRUE(wait->done);
    EXPECT_THAT(wait->status, StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr(c.message)));
  }
}

TEST_F(CoordinatorStateTest, LoopbackAddressWithSeveralHostsFailsTheJob) {
  options_.num_processes = 2;
  options_.address = "127.0.0.1:8476";
  ASSERT_THAT(Register(0), IsOk());
  ASSERT_THAT(Register(1), IsOk());  // boot-0 and boot-1: two machines
  v1::GlobalTopology topology;
  EXPECT_THAT(WaitForJob(0, &topology)->status,
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("coordinator address 127.0.0.1:8476 is a loopback address but "
                                 "the processes run on 2 different hosts")));
}

TEST(TopologyTest, FingerprintIgnoresPidsAndGeneration) {
  std::vector<ProcessTopology> processes(2);
  for (int p = 0; p < 2; ++p) {
    processes[p].host.set_boot_id("b");
    processes[p].host.set_pid(p);
    v1::LocalDevice device;
    device.set_platform("cpu");
    processes[p].devices.push_back(device);
  }
  auto a = BuildTopology(processes, 1, "10.0.0.1:1");
  processes[1].host.set_pid(42);
  auto b = BuildTopology(processes, 7, "10.0.0.1:1");
  ASSERT_THAT(a, IsOk());
  ASSERT_THAT(b, IsOk());
  EXPECT_EQ(a->fingerprint(), b->fingerprint());
  processes[1].devices[0].set_kind("other");
  EXPECT_NE(BuildTopology(processes, 1, "10.0.0.1:1")->fingerprint(), a->fingerprint());
}

// --- Key-value store ------------------------------------------------------------

TEST_F(CoordinatorStateTest, KvSetIsInsertOnceUnlessOverwriting) {
  RegisterAll();
  ASSERT_THAT(KvSet(0, "a", "1"), IsOk());
  EXPECT_THAT(KvSet(1, "a", "2"), StatusIs(absl::StatusCode::kAlreadyExists,
                                           HasSubstr("key 'a' already exists")));
  EXPECT_THAT(KvSet(1, "/a/", "2", /*overwrite=*/true), IsOk());
  v1::KvEntry entry;
  ASSERT_THAT(KvGet(2, "a", &entry, false)->status, IsOk());
  EXPECT_EQ(entry.value(), "2");
}

TEST_F(CoordinatorStateTest, TryGetOfAnAbsentKeyIsNotFound) {
  RegisterAll();
  v1::KvEntry entry;
  EXPECT_THAT(KvGet(0, "missing", &entry, false)->status,
              StatusIs(absl::StatusCode::kNotFound, "key 'missing' is not in the key-value store"));
}

TEST_F(CoordinatorStateTest, BlockingGetTimesOutOnTheServerClock) {
  RegisterAll();
  v1::KvEntry entry;
  auto get = KvGet(0, "late", &entry, true, 2000);
  Beat({0, 1, 2, 3});
  Pass(absl::Milliseconds(1999));
  EXPECT_FALSE(get->done);
  Pass(absl::Milliseconds(1));
  ASSERT_TRUE(get->done);
  EXPECT_THAT(get->status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                    "KvGet of key 'late' timed out after 2s (nobody set it)"));
}

TEST_F(CoordinatorStateTest, BlockingGetWakesOnSet) {
  RegisterAll();
  v1::KvEntry entry;
  auto get = KvGet(0, "x/y", &entry, true, 2000);
  EXPECT_FALSE(get->done);
  ASSERT_THAT(KvSet(1, "x//y", "v"), IsOk());
  ASSERT_TRUE(get->done);
  EXPECT_THAT(get->status, IsOk());
  EXPECT_EQ(entry.value(), "v");
}

TEST_F(CoordinatorStateTest, ListTakesWholePathComponentsOnly) {
  RegisterAll();
  for (const char* key : {"a/b", "a/b/c", "a/b/d", "a/bc", "z"}) ASSERT_THAT(KvSet(0, key, key), IsOk());
  v1::KvListRequest request;
  *request.mutable_header() = Header(0);
  request.set_prefix("a/b");
  v1::KvListResponse response;
  ASSERT_THAT(state().KvList(request, &response), IsOk());
  std::vector<std::string> keys;
  for (const auto& e : response.entries()) keys.push_back(e.key());
  EXPECT_THAT(keys, ElementsAre("a/b/c", "a/b/d"));
}

TEST_F(CoordinatorStateTest, RecursiveDeleteRemovesTheKeyAndEverythingUnderIt) {
  RegisterAll();
  for (const char* key : {"a/b", "a/b/c", "a/bc"}) ASSERT_THAT(KvSet(0, key, "v"), IsOk());
  v1::KvDeleteRequest request;
  *request.mutable_header() = Header(0);
  request.set_key("a/b");
  request.set_recursive(true);
  ASSERT_THAT(state().KvDelete(request), IsOk());
  v1::KvEntry entry;
  EXPECT_THAT(KvGet(0, "a/b/c", &entry, false)->status, StatusIs(absl::StatusCode::kNotFound, HasSubstr("a/b/c")));
  EXPECT_THAT(KvGet(0, "a/bc", &entry, false)->status, IsOk());
}

TEST_F(CoordinatorStateTest, IncrementStartsAtZeroAndRejectsNonIntegers) {
  RegisterAll();
  EXPECT_EQ(Increment(0, "n", 5).value(), 5);
  EXPECT_EQ(Increment(1, "n", -7).value(), -2);
  ASSERT_THAT(KvSet(0, "text", "abc"), IsOk());
  EXPECT_THAT(Increment(0, "text", 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not a decimal integer")));
}

TEST_F(CoordinatorStateTest, ConcurrentIncrementsSumExactly) {
  RegisterAll();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([this, t] {
      for (int i = 0; i < 500; ++i) (void)Increment(t % 4, "counter", 1);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(Increment(0, "counter", 0).value(), 4000);
}

TEST_F(CoordinatorStateTest, CompareAndSwapRaceElectsExactlyOneWinner) {
  RegisterAll();
  std::atomic<int> winners{0};
  std::vector<std::string> seen(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      v1::KvCasRequest request;
      *request.mutable_header() = Header(t % 4);
      request.set_key("leader");
      request.set_desired(absl::StrCat("candidate-", t));  // no expected: create if absent
      v1::KvCasResponse response;
      ASSERT_THAT(state().KvCompareAndSwap(request, &response), IsOk());
      if (response.swapped()) ++winners;
      seen[t] = response.current();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(winners.load(), 1);
  for (const auto& s : seen) EXPECT_EQ(s, seen[0]);
}

TEST_F(CoordinatorStateTest, CompareAndSwapReplacesOnlyTheExpectedValue) {
  RegisterAll();
  ASSERT_THAT(KvSet(0, "k", "old"), IsOk());
  v1::KvCasRequest request;
  *request.mutable_header() = Header(0);
  request.set_key("k");
  request.set_expected("stale");
  request.set_desired("new");
  v1::KvCasResponse response;
  ASSERT_THAT(state().KvCompareAndSwap(request, &response), IsOk());
  EXPECT_FALSE(response.swapped());
  EXPECT_EQ(response.current(), "old");
  request.set_expected("old");
  ASSERT_THAT(state().KvCompareAndSwap(request, &response), IsOk());
  EXPECT_TRUE(response.swapped());
  EXPECT_EQ(response.current(), "new");
}

TEST_F(CoordinatorStateTest, ValueAndStoreLimitsAreResourceExhausted) {
  options_.max_value_bytes = 8;
  options_.max_store_bytes = 20;
  RegisterAll();
  EXPECT_THAT(KvSet(0, "big", "123456789"),
              StatusIs(absl::StatusCode::kResourceExhausted,
                       "value of key 'big' has 9 bytes; the limit is 8"));
  ASSERT_THAT(KvSet(0, "k1", "12345678"), IsOk());  // 10 bytes with the key
  EXPECT_THAT(KvSet(0, "k2", "123456789"), StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("9 bytes")));
  ASSERT_THAT(KvSet(0, "k2", "12345678"), IsOk());  // 20: exactly the limit
  EXPECT_THAT(KvSet(0, "k3", ""), StatusIs(absl::StatusCode::kResourceExhausted,
                                           HasSubstr("would grow the key-value store to 22 bytes")));
}

// The reserved space (coordinator.md §6.3 "/_tessera/…"): every spelling that
// normalizes into it.
constexpr const char* kReservedSpellings[] = {"/_tessera/x", "_tessera/x", "//_tessera//x/", "/_tessera",
                                              "_tessera",    "_tessera/",  "///_tessera//"};

std::string ReservedMessage(const std::string& what, const std::string& key) {
  return absl::StrCat(what, " '", key,
                      "' is in the reserved key space '/_tessera/': keys there belong to the library "
                      "(topology, internal state); use another key");
}

TEST_F(CoordinatorStateTest, UserKvCallsOnReservedKeysArePermissionDeniedAndChangeNothing) {
  RegisterAll();
  ASSERT_THAT(state().InternalKvSet("/_tessera/x", "internal"), IsOk());
  for (const char* key : kReservedSpellings) {
    SCOPED_TRACE(key);
    const auto denied = StatusIs(absl::StatusCode::kPermissionDenied, ReservedMessage("key", key));
    v1::KvEntry entry;
    EXPECT_THAT(KvSet(0, key, "user", /*overwrite=*/true), denied);
    EXPECT_THAT(KvGet(0, key, &entry, /*wait=*/false)->status, denied);
    auto get = KvGet(0, key, &entry, /*wait=*/true, 60000);
    ASSERT_TRUE(get->done);  // refused at once, never parked
    EXPECT_THAT(get->status, denied);
    EXPECT_FALSE(get->call);
    EXPECT_THAT(Increment(0, key, 1), denied);
    EXPECT_THAT(CreateIfAbsent(0, key, "user"), denied);
    EXPECT_THAT(KvDelete(0, key, /*recursive=*/false), denied);
    EXPECT_THAT(KvDelete(0, key, /*recursive=*/true), denied);
    EXPECT_EQ(entry.value(), "");
  }
  EXPECT_EQ(state().InternalKvGet("_tessera/x").value_or(""), "internal");
  EXPECT_THAT(state().InternalKvGet("_tessera"), StatusIs(absl::StatusCode::kNotFound, ::testing::_));
  EXPECT_EQ(state().parked_calls(), 0);
}

TEST_F(CoordinatorStateTest, ListingAReservedPrefixIsPermissionDenied) {
  RegisterAll();
  ASSERT_THAT(state().InternalKvSet("_tessera/x", "internal"), IsOk());
  for (const char* prefix : kReservedSpellings) {
    SCOPED_TRACE(prefix);
    EXPECT_THAT(KvListKeys(0, prefix),
                StatusIs(absl::StatusCode::kPermissionDenied, ReservedMessage("prefix", prefix)));
  }
}

TEST_F(CoordinatorStateTest, ListingEverythingLeavesTheReservedEntriesOut) {
  RegisterAll();
  ASSERT_THAT(state().InternalKvSet("_tessera/topology/fingerprint", "f"), IsOk());
  ASSERT_THAT(state().InternalKvSet("_tessera", "root"), IsOk());
  // "_tessera-a" sorts between "_tessera" and "_tessera/…": the reserved entries
  // are not one contiguous run of the key order.
  for (const char* key : {"_tesser", "_tessera-a", "_tessera0", "_tesserab/c", "z"}) {
    ASSERT_THAT(KvSet(0, key, "v"), IsOk());
  }
  for (const char* prefix : {"", "/", "//"}) {
    SCOPED_TRACE(prefix);
    EXPECT_THAT(KvListKeys(0, prefix).value_or(std::vector<std::string>{"error"}),
                ElementsAre("_tesser", "_tessera-a", "_tessera0", "_tesserab/c", "z"));
  }
}

TEST_F(CoordinatorStateTest, KeysThatOnlyResembleTheReservedSpaceAreUserKeys) {
  RegisterAll();
  for (const char* key : {"_tessera0", "_tesserab/c", "_TESSERA/x", "a/_tessera/x", "_tess/era", "tessera/x"}) {
    SCOPED_TRACE(key);
    ASSERT_THAT(KvSet(0, key, key), IsOk());
    v1::KvEntry entry;
    EXPECT_THAT(KvGet(1, key, &entry, /*wait=*/false)->status, IsOk());
    EXPECT_EQ(entry.value(), key);
  }
}

TEST_F(CoordinatorStateTest, NoRecursiveDeleteReachesTheReservedEntries) {
  RegisterAll();
  ASSERT_THAT(state().InternalKvSet("_tessera/x", "internal"), IsOk());
  ASSERT_THAT(KvSet(0, "a", "v"), IsOk());
  EXPECT_THAT(KvDelete(0, "/", /*recursive=*/true),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("empty after normalization")));
  EXPECT_THAT(KvDelete(0, "//_tessera", /*recursive=*/true),
              StatusIs(absl::StatusCode::kPermissionDenied, ReservedMessage("key", "//_tessera")));
  EXPECT_EQ(state().InternalKvGet("_tessera/x").value_or(""), "internal");
  v1::KvEntry entry;
  EXPECT_THAT(KvGet(0, "a", &entry, /*wait=*/false)->status, IsOk());
}

TEST_F(CoordinatorStateTest, InternalAccessStaysInsideTheReservedSpace) {
  RegisterAll();
  EXPECT_THAT(state().InternalKvSet("user/key", "v"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "internal key 'user/key' is not under '/_tessera/'"));
  ASSERT_THAT(state().InternalKvSet("/_tessera/topology", "t1"), IsOk());
  ASSERT_THAT(state().InternalKvSet("_tessera//topology/", "t2"), IsOk());  // one key, overwritten
  EXPECT_EQ(state().InternalKvGet("_tessera/topology").value_or(""), "t2");
}

// --- Barriers ----------------------------------------------------------------------

TEST_F(CoordinatorStateTest, FirstArrivalFixesTheBarrierDeadline) {
  RegisterAll();
  auto b0 = Barrier(0, "ckpt", 0, 1000);
  Pass(absl::Milliseconds(900));
  auto b1 = Barrier(1, "ckpt", 0, 60000);  // a later, longer timeout changes nothing
  Pass(absl::Milliseconds(100));
  ASSERT_TRUE(b0->done);
  ASSERT_TRUE(b1->done);
  EXPECT_THAT(b1->status,
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       "barrier 'ckpt#0' timed out after 1s: 2 of 4 processes arrived (first: "
                       "process 0); missing: process 2 (running), process 3 (running)"));
  v1::BarrierFailure failure = Detail(b0->status).barrier();
  EXPECT_EQ(failure.barrier_id(), "ckpt");
  EXPECT_THAT(failure.arrived(), ElementsAre(0, 1));
  ASSERT_EQ(failure.missing_size(), 2);
  EXPECT_EQ(failure.missing(0).process_id(), 2);
  EXPECT_EQ(failure.first_arrival(), 0);
}

TEST_F(CoordinatorStateTest, BarrierTimeoutSaysWhereMissingProcessesWait) {
  RegisterAll();
  auto other = Barrier(3, "other", 1, 60000, {2, 3});
  auto b0 = Barrier(0, "ckpt", 2, 1000, {0, 3});
  Pass(absl::Seconds(1));
  ASSERT_TRUE(b0->done);
  EXPECT_THAT(b0->status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                   HasSubstr("missing: process 3 (running, waiting at barrier "
                                             "'other#1')")));
  EXPECT_THAT(Detail(b0->status).barrier().missing(0).waiting_at(), ElementsAre("other#1"));
}

TEST_F(CoordinatorStateTest, BarrierPassesForASubsetAndReplaysItsResult) {
  RegisterAll();
  auto b0 = Barrier(0, "sub", 0, 1000, {0, 2});
  EXPECT_FALSE(b0->done);
  auto b2 = Barrier(2, "sub", 0, 1000, {2, 0});
  ASSERT_TRUE(b0->done);
  EXPECT_THAT(b0->status, IsOk());
  EXPECT_THAT(b2->status, IsOk());
  EXPECT_THAT(Barrier(2, "sub", 0, 1000, {0, 2})->status, IsOk());  // same counter: replay
  EXPECT_FALSE(Barrier(2, "sub", 1, 1000, {0, 2})->done);  // next counter: a new instance
}

TEST_F(CoordinatorStateTest, DifferentParticipantSetsFailTheBarrierForEveryone) {
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 1000, {0, 1});
  auto b1 = Barrier(1, "b", 0, 1000, {0, 1, 2});
  ASSERT_TRUE(b0->done);
  EXPECT_THAT(b0->status, StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("barrier 'b#0': process 1 passed participants "
                                             "[0,1,2] but process 0 passed [0,1]")));
  EXPECT_EQ(b1->status, b0->status);
}

TEST_F(CoordinatorStateTest, ANonParticipantCallerFailsTheBarrier) {
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 1000, {0, 1});
  auto b3 = Barrier(3, "b", 0, 1000, {0, 1});
  ASSERT_TRUE(b0->done);
  EXPECT_THAT(b3->status, StatusIs(absl::StatusCode::kInvalidArgument,
                                   HasSubstr("process 3 called barrier 'b#0' but is not one of its "
                                             "participants [0,1]")));
}

TEST_F(CoordinatorStateTest, ANonParticipantCallingAPassedBarrierGetsTheNonParticipantError) {
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 1000, {0, 1});
  auto b1 = Barrier(1, "b", 0, 1000, {0, 1});
  ASSERT_THAT(b0->status, IsOk());
  auto late = Barrier(3, "b", 0, 1000, {0, 1});
  ASSERT_TRUE(late->done);
  EXPECT_THAT(late->status, StatusIs(absl::StatusCode::kInvalidArgument,
                                     "process 3 called barrier 'b#0' but is not one of its "
                                     "participants [0,1]: 2 of 2 processes arrived (first: "
                                     "process 0); missing: none"));
  EXPECT_EQ(Detail(late->status).reason(), v1::CoordinatorErrorDetail::REASON_BARRIER_FAILED);
  EXPECT_THAT(Barrier(1, "b", 0, 1000, {0, 1})->status, IsOk());  // participants still replay OK
}

TEST_F(CoordinatorStateTest, ANonParticipantCallingAFailedBarrierGetsTheNonParticipantError) {
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 1000, {0, 1});
  Beat({0, 1, 2, 3});
  Pass(absl::Seconds(1));
  ASSERT_THAT(b0->status, StatusIs(absl::StatusCode::kDeadlineExceeded, ::testing::_));
  EXPECT_THAT(Barrier(3, "b", 0, 1000, {0, 1})->status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("process 3 called barrier 'b#0' but is not one of its "
                                 "participants [0,1]")));
  EXPECT_THAT(Barrier(1, "b", 0, 1000, {0, 1})->status,  // the result stays for participants
              StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr("timed out after 1s")));
}

TEST_F(CoordinatorStateTest, AnotherParticipantSetOnAPassedBarrierIsRejectedAndTheResultStays) {
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 1000, {0, 1});
  auto b1 = Barrier(1, "b", 0, 1000, {0, 1});
  ASSERT_THAT(b1->status, IsOk());
  EXPECT_THAT(Barrier(1, "b", 0, 1000, {0, 1, 2})->status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("barrier 'b#0': process 1 passed participants [0,1,2] but "
                                 "process 0 passed [0,1]")));
  EXPECT_THAT(Barrier(0, "b", 0, 1000)->status,  // "all" is another set too
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("process 0 passed participants all processes but process 0 "
                                 "passed [0,1]")));
  EXPECT_THAT(Barrier(0, "b", 0, 1000, {1, 0})->status, IsOk());
}

TEST_F(CoordinatorStateTest, ABarrierCancelledBeforeAnyArrivalAnswersAnySetWithCancelled) {
  RegisterAll();
  v1::CancelBarrierRequest cancel;
  *cancel.mutable_header() = Header(0);
  cancel.set_barrier_id("b");
  cancel.set_counter(0);
  ASSERT_THAT(state().CancelBarrier(cancel), IsOk());
  // No arrival fixed a participant set, so no caller is a non-participant.
  EXPECT_THAT(Barrier(3, "b", 0, 1000, {0, 1})->status,
              StatusIs(absl::StatusCode::kCancelled, "barrier 'b#0' was cancelled by process 0"));
  EXPECT_THAT(Barrier(1, "b", 0, 1000)->status,
              StatusIs(absl::StatusCode::kCancelled, "barrier 'b#0' was cancelled by process 0"));
}

TEST_F(CoordinatorStateTest, OneProcessCannotWaitAtOneBarrierIdTwice) {
  RegisterAll();
  auto first = Barrier(0, "b", 0, 1000);
  EXPECT_THAT(Barrier(0, "b", 1, 1000)->status,
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("process 0 is already waiting at barrier 'b#0'")));
  EXPECT_FALSE(first->done);
}

TEST_F(CoordinatorStateTest, CancelReleasesWaitersAndLaterArrivals) {
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 1000);
  v1::CancelBarrierRequest cancel;
  *cancel.mutable_header() = Header(1);
  cancel.set_barrier_id("b");
  cancel.set_counter(0);
  ASSERT_THAT(state().CancelBarrier(cancel), IsOk());
  ASSERT_TRUE(b0->done);
  EXPECT_THAT(b0->status, StatusIs(absl::StatusCode::kCancelled,
                                   "barrier 'b#0' was cancelled by process 1"));
  EXPECT_THAT(Barrier(2, "b", 0, 1000)->status, StatusIs(absl::StatusCode::kCancelled, HasSubstr("cancelled by process 1")));
  EXPECT_THAT(state().CancelBarrier(cancel),
              StatusIs(absl::StatusCode::kFailedPrecondition, "barrier 'b#0' already failed"));
}

TEST_F(CoordinatorStateTest, ADeadParticipantFailsABarrierFastInRecoverableMode) {
  options_.recoverable = true;
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 60000);
  LoseProcess3();
  ASSERT_TRUE(b0->done);
  EXPECT_THAT(b0->status, StatusIs(absl::StatusCode::kAborted,
                                   HasSubstr("failed because a participant was lost")));
  v1::BarrierFailure failure = Detail(b0->status).barrier();
  ASSERT_EQ(failure.missing_size(), 3);
  EXPECT_EQ(failure.missing(2).process_id(), 3);
  EXPECT_EQ(failure.missing(2).state(), v1::TASK_STATE_FAILED);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
  // A new barrier over the dead process fails at once.
  EXPECT_THAT(Barrier(0, "b", 1, 60000)->status,
              StatusIs(absl::StatusCode::kAborted, HasSubstr("participant 3 is failed")));
}

TEST_F(CoordinatorStateTest, BlockingCallsBeyondTheLimitAreResourceExhausted) {
  options_.max_pending_calls = 2;
  RegisterAll();
  v1::KvEntry a, b, c;
  auto first = KvGet(0, "k1", &a, true, 60000);
  auto second = Barrier(1, "b", 0, 60000);
  auto third = KvGet(2, "k3", &c, true, 60000);
  ASSERT_TRUE(third->done);
  EXPECT_THAT(third->status, StatusIs(absl::StatusCode::kResourceExhausted,
                                      "the coordinator already holds 2 blocking calls (limit 2)"));
  ASSERT_THAT(KvSet(3, "k1", "v"), IsOk());  // completing one frees a slot
  EXPECT_TRUE(first->done);
  EXPECT_FALSE(KvGet(2, "k3", &b, true, 60000)->done);
  EXPECT_FALSE(second->done);
}

// --- Withdrawn calls (the client cancelled or its deadline passed) --------------------

TEST_F(CoordinatorStateTest, AWithdrawnKvGetFreesItsSlotAtOnce) {
  options_.max_pending_calls = 1;
  RegisterAll();
  v1::KvEntry first_entry, second_entry;
  auto first = KvGet(0, "k", &first_entry, true, 60000);
  ASSERT_TRUE(first->call);
  EXPECT_EQ(state().parked_calls(), 1);
  EXPECT_THAT(KvGet(1, "k", &second_entry, true, 60000)->status,
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("(limit 1)")));
  state().Withdraw(first->call);
  ASSERT_TRUE(first->done);
  EXPECT_THAT(first->status,
              StatusIs(absl::StatusCode::kCancelled,
                       "process 0 withdrew its call (the client cancelled it or its deadline "
                       "passed)"));
  EXPECT_EQ(state().parked_calls(), 0);
  auto second = KvGet(1, "k", &second_entry, true, 60000);
  EXPECT_FALSE(second->done);  // admitted: the slot is free
  ASSERT_THAT(KvSet(2, "k", "v"), IsOk());
  EXPECT_THAT(second->status, IsOk());
  EXPECT_EQ(second_entry.value(), "v");
  EXPECT_EQ(first_entry.value(), "");  // the withdrawn call was not answered again
}

TEST_F(CoordinatorStateTest, WithdrawingACompletedCallChangesNothing) {
  RegisterAll();
  v1::KvEntry entry;
  auto get = KvGet(0, "k", &entry, true, 60000);
  ASSERT_THAT(KvSet(1, "k", "v"), IsOk());
  ASSERT_THAT(get->status, IsOk());
  state().Withdraw(get->call);  // Into() fails the test on a second completion
  state().Withdraw(ParkedCall());
  EXPECT_THAT(get->status, IsOk());
  EXPECT_EQ(state().parked_calls(), 0);
}

TEST_F(CoordinatorStateTest, AWithdrawnBarrierArrivalNoLongerCounts) {
  RegisterAll();
  auto b0 = Barrier(0, "b", 0, 1000, {0, 1});
  state().Withdraw(b0->call);
  EXPECT_THAT(b0->status, StatusIs(absl::StatusCode::kCancelled, HasSubstr("withdrew")));
  auto b1 = Barrier(1, "b", 0, 1000, {0, 1});
  EXPECT_FALSE(b1->done);  // process 0 is no longer there
  Beat({0, 1, 2, 3});
  Pass(absl::Seconds(1));  // the first arrival's deadline still holds
  ASSERT_TRUE(b1->done);
  EXPECT_THAT(b1->status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                   HasSubstr("1 of 2 processes arrived (first: process 0); "
                                             "missing: process 0 (running)")));
  EXPECT_THAT(Detail(b1->status).barrier().arrived(), ElementsAre(1));
}

TEST_F(CoordinatorStateTest, AProcessMayArriveAgainAfterWithdrawingFromABarrier) {
  RegisterAll();
  auto first = Barrier(0, "b", 0, 1000, {0, 1});
  state().Withdraw(first->call);
  auto again = Barrier(0, "b", 0, 1000, {0, 1});
  EXPECT_FALSE(again->done);  // not "already waiting"
  state().Withdraw(first->call);  // a stale name never hits the later arrival
  EXPECT_FALSE(again->done);
  auto b1 = Barrier(1, "b", 0, 1000, {0, 1});
  EXPECT_THAT(again->status, IsOk());
  EXPECT_THAT(b1->status, IsOk());
}

TEST_F(CoordinatorStateTest, AWithdrawnAgreeLiveArrivalNoLongerCounts) {
  RegisterAll();
  v1::AgreeLiveResponse r0, r1;
  auto a0 = AgreeLive(0, {0, 1}, 1000, &r0);
  state().Withdraw(a0->call);
  EXPECT_THAT(a0->status, StatusIs(absl::StatusCode::kCancelled, HasSubstr("withdrew")));
  auto a1 = AgreeLive(1, {0, 1}, 1000, &r1);
  EXPECT_FALSE(a1->done);
  Beat({0, 1, 2, 3});
  Pass(absl::Seconds(1));
  EXPECT_THAT(a1->status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                   HasSubstr("live processes 0 did not call it")));
  EXPECT_EQ(state().parked_calls(), 0);
}

TEST_F(CoordinatorStateTest, AWithdrawnWaitForJobIsDropped) {
  ASSERT_THAT(Register(0), IsOk());
  v1::GlobalTopology topology;
  auto wait = WaitForJob(0, &topology);
  ASSERT_TRUE(wait->call);
  state().Withdraw(wait->call);
  EXPECT_THAT(wait->status, StatusIs(absl::StatusCode::kCancelled, HasSubstr("withdrew")));
  EXPECT_EQ(state().parked_calls(), 0);
  for (int p = 1; p < 4; ++p) ASSERT_THAT(Register(p), IsOk());  // no second completion
  EXPECT_EQ(topology.devices_size(), 0);
}

TEST_F(CoordinatorStateTest, AWithdrawnShutdownEndsItsCallButKeepsItsArrival) {
  RegisterAll();
  std::vector<std::shared_ptr<Outcome>> shutdowns;
  for (int p = 0; p < 3; ++p) shutdowns.push_back(Shutdown(p));
  state().Withdraw(shutdowns[0]->call);
  EXPECT_THAT(shutdowns[0]->status, StatusIs(absl::StatusCode::kCancelled, HasSubstr("withdrew")));
  EXPECT_EQ(state().parked_calls(), 2);
  auto last = Shutdown(3);
  EXPECT_THAT(last->status, IsOk());  // process 0's arrival still counted
  EXPECT_THAT(shutdowns[1]->status, IsOk());
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_STOPPED);
  EXPECT_TRUE(state().Ended());
}

// --- Agreement -----------------------------------------------------------------------

TEST_F(CoordinatorStateTest, AgreeLiveReturnsTheSameLiveSetToEveryCaller) {
  options_.recoverable = true;
  RegisterAll();
  LoseProcess3();
  std::vector<std::shared_ptr<Outcome>> outcomes;
  std::vector<v1::AgreeLiveResponse> responses(3);
  for (int p = 0; p < 3; ++p) {
    auto outcome = std::make_shared<Outcome>();
    v1::AgreeLiveRequest request;
    *request.mutable_header() = Header(p);
    for (int q = 0; q < 4; ++q) request.add_candidates(q);
    request.set_timeout_ms(1000);
    state().AgreeLive(request, &responses[p], Into(outcome));
    outcomes.push_back(outcome);
    EXPECT_EQ(outcome->done, p == 2);
  }
  for (int p = 0; p < 3; ++p) {
    EXPECT_THAT(outcomes[p]->status, IsOk());
    EXPECT_THAT(responses[p].live(), ElementsAre(0, 1, 2));
    EXPECT_EQ(responses[p].incarnations(2), 1002u);
  }
}

TEST_F(CoordinatorStateTest, AgreeLiveTimesOutNamingTheLiveProcessesThatDidNotCall) {
  RegisterAll();
  auto outcome = std::make_shared<Outcome>();
  v1::AgreeLiveRequest request;
  *request.mutable_header() = Header(0);
  request.add_candidates(0);
  request.add_candidates(1);
  request.set_timeout_ms(1000);
  v1::AgreeLiveResponse response;
  state().AgreeLive(request, &response, Into(outcome));
  Pass(absl::Seconds(1));
  ASSERT_TRUE(outcome->done);
  EXPECT_THAT(outcome->status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                        "AgreeLiveProcesses over [0,1] timed out after 1s: live "
                                        "processes 1 did not call it"));
}

// --- Shutdown and events ----------------------------------------------------------------

TEST_F(CoordinatorStateTest, ShutdownPassesWhenEveryProcessCallsIt) {
  RegisterAll();
  std::vector<std::shared_ptr<Outcome>> outcomes;
  for (int p = 0; p < 4; ++p) {
    EXPECT_FALSE(state().Ended());
    outcomes.push_back(Shutdown(p));
  }
  for (auto& o : outcomes) {
    ASSERT_TRUE(o->done);
    EXPECT_THAT(o->status, IsOk());
  }
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_STOPPED);
  EXPECT_TRUE(state().Ended());
  EXPECT_THAT(state().EndStatus(), IsOk());
}

TEST_F(CoordinatorStateTest, ShutdownBarrierExpiresWhenOneProcessNeverCalls) {
  RegisterAll();
  auto s0 = Shutdown(0, 3000);
  auto s1 = Shutdown(1);
  auto s2 = Shutdown(2);
  Beat({3});
  Pass(absl::Milliseconds(2999));
  EXPECT_FALSE(s0->done);
  EXPECT_FALSE(state().Ended());  // the coordinator outlives its clients
  Pass(absl::Milliseconds(1));
  ASSERT_TRUE(s0->done);
  EXPECT_THAT(s1->status, StatusIs(absl::StatusCode::kDeadlineExceeded,
                                   "job 'job-1': the shutdown barrier timed out after 3s: "
                                   "processes 3 never called shutdown"));
  EXPECT_TRUE(state().Ended());
}

TEST_F(CoordinatorStateTest, EventsRecordFailuresInVersionOrder) {
  RegisterAll();
  std::vector<v1::Event> start = state().EventsAfter(0, 100);
  ASSERT_EQ(start.size(), 1u);
  EXPECT_EQ(start[0].topology_generation(), 1);
  LoseProcess3();
  std::vector<v1::Event> later = state().EventsAfter(start[0].version(), 100);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(later[0].task_changed().process_id(), 3);
  EXPECT_EQ(later[0].task_changed().state(), v1::TASK_STATE_FAILED);
  EXPECT_EQ(later[1].job_error().source_process_id(), 3);
  EXPECT_GT(later[1].version(), later[0].version());
}

TEST_F(CoordinatorStateTest, StopCancelsEveryParkedCall) {
  RegisterAll();
  v1::KvEntry entry;
  auto get = KvGet(0, "k", &entry, true, 60000);
  auto barrier = Barrier(1, "b", 0, 60000);
  state().Stop(absl::CancelledError("coordinator stopped"));
  EXPECT_THAT(get->status, StatusIs(absl::StatusCode::kCancelled, "coordinator stopped"));
  EXPECT_THAT(barrier->status, StatusIs(absl::StatusCode::kCancelled, "coordinator stopped"));
  EXPECT_TRUE(state().Ended());
}

// ---- a closed event stream (issue 15 item 2) ---------------------------------
// A running process whose last event stream ends is lost after
// kReconnectGrace unless it shows life first; hangs stay the heartbeat scan's.

// Process `p`'s only event stream opened and ended (the transport's calls).
void OpenAndCloseStream(CoordinatorState& state, const v1::Header& header) {
  ASSERT_TRUE(state.WatcherOpened(header));
  state.WatcherClosed(header);
}

TEST_F(CoordinatorStateTest, AClosedStreamLosesTheProcessAfterTheGraceNotTheHeartbeatTimeout) {
  RegisterAll();
  OpenAndCloseStream(state(), Header(3));
  Pass(kReconnectGrace - absl::Milliseconds(1));
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
  Pass(absl::Milliseconds(1));
  ASSERT_EQ(state().job_state(), v1::JOB_STATE_FAILED);
  const absl::Status status = state().EndStatus();
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kAborted,
                               HasSubstr("job 'job-1' failed: process 3 (host host-3, pid 103) "
                                         "closed its connection to the coordinator and did not "
                                         "reconnect within 500ms")));
  EXPECT_EQ(Detail(status).reason(), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
  EXPECT_EQ(Detail(status).source_process_id(), 3);
}

TEST_F(CoordinatorStateTest, ACallWithinTheGraceKeepsTheProcess) {
  RegisterAll();
  OpenAndCloseStream(state(), Header(3));
  Pass(kReconnectGrace / 2);
  Beat({3});
  Pass(kReconnectGrace);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
}

TEST_F(CoordinatorStateTest, AStreamReopenedWithinTheGraceKeepsTheProcessUntilItCloses) {
  RegisterAll();
  OpenAndCloseStream(state(), Header(3));
  Pass(kReconnectGrace / 2);
  ASSERT_TRUE(state().WatcherOpened(Header(3)));
  Pass(kReconnectGrace);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
  state().WatcherClosed(Header(3));
  Pass(kReconnectGrace);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_FAILED);
}

TEST_F(CoordinatorStateTest, OneOfTwoStreamsEndingSaysNothing) {
  RegisterAll();
  ASSERT_TRUE(state().WatcherOpened(Header(3)));
  OpenAndCloseStream(state(), Header(3));
  Pass(2 * kReconnectGrace);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
}

// A crashed registrant may still be restarted (§6.6) until the heartbeat timeout.
TEST_F(CoordinatorStateTest, AClosedStreamWhileTheJobRegistersChangesNothing) {
  ASSERT_THAT(Register(3), IsOk());
  OpenAndCloseStream(state(), Header(3));
  Pass(2 * kReconnectGrace);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_REGISTERING);
  for (int p : {0, 1, 2}) ASSERT_THAT(Register(p), IsOk());
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
}

TEST_F(CoordinatorStateTest, AStreamOfAnotherIncarnationIsNotCounted) {
  RegisterAll();
  EXPECT_FALSE(state().WatcherOpened(Header(3, 999)));
  state().WatcherClosed(Header(3, 999));
  Pass(2 * kReconnectGrace);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_RUNNING);
}

TEST_F(CoordinatorStateTest, AStreamEndingAfterShutdownWasCalledSaysNothing) {
  RegisterAll();
  v1::ShutdownRequest request;
  *request.mutable_header() = Header(3);
  ASSERT_TRUE(state().WatcherOpened(Header(3)));
  state().Shutdown(request, [](absl::Status) {});
  state().WatcherClosed(Header(3));
  Pass(2 * kReconnectGrace);
  EXPECT_EQ(state().job_state(), v1::JOB_STATE_SHUTTING_DOWN);
}

// Once the job failed, nothing is left to tell a process whose stream ended:
// it has left (quietly: no event each), and the job ends without waiting for
// heartbeat timeouts.
TEST_F(CoordinatorStateTest, StreamsEndingAfterTheJobFailedEndItAtOnce) {
  RegisterAll();
  v1::ReportErrorRequest report;
  *report.mutable_header() = Header(2);
  ASSERT_THAT(state().ReportError(report), IsOk());
  const int64_t version = state().event_version();
  for (int p : {0, 1, 2, 3}) OpenAndCloseStream(state(), Header(p));
  EXPECT_TRUE(state().Ended());
  EXPECT_EQ(state().event_version(), version);
}

TEST_F(CoordinatorStateTest, EveryoneHoldsTheFailureOnceEachLiveProcessHeardOrWasAnswered) {
  RegisterAll();
  EXPECT_EQ(state().failure_event_version(), 0);
  EXPECT_FALSE(state().EveryoneHoldsFailure({0, 1, 2, 3}));
  v1::ReportErrorRequest report;
  *report.mutable_header() = Header(2);
  ASSERT_THAT(state().ReportError(report), IsOk());
  EXPECT_EQ(state().failure_event_version(), state().EventsAfter(0, 100).back().version());
  EXPECT_FALSE(state().EveryoneHoldsFailure({0, 2, 3}));
  // Process 1 is answered with the failure.
  EXPECT_THAT(KvSet(1, "k", "v"), StatusIs(absl::StatusCode::kAborted, HasSubstr("failed")));
  EXPECT_TRUE(state().EveryoneHoldsFailure({0, 2, 3}));
}

}  // namespace
}  // namespace tessera::cluster
