// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The multi-host coordinator as users meet it: real processes on loopback
// (cluster_worker, public C ABI only) started, signalled and reaped by this
// driver. Each test is one scenario of coordinator.md §6.10 (the number in
// its comment); outcomes are exact codes, reasons and process ids.
//
// Timing: heartbeats every 100 ms, loss after 1000 ms, so a failure must be
// seen within kDetectMs = timeout + 2 s of slack (2 busy cores). Every wait is
// bounded; every worker is SIGKILLed and reaped when its Worker goes away.
#include <signal.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tessera/client.h"
#include "tessera/experimental/cluster.h"
#include "tessera/cluster.h"
#include "tessera/coordinator.h"
#include "tessera/log.h"
#include "tests/cluster/cluster_harness.h"

namespace tessera::cluster_test {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kHeartbeatTimeoutMs = 1000;
constexpr int64_t kDetectMs = kHeartbeatTimeoutMs + 2000;
constexpr char kHeartbeat[] = "hb=100,1000";
constexpr int kJobFailed = TESSERA_REASON_JOB_FAILED;
constexpr int kCoordinatorLost = TESSERA_REASON_COORDINATOR_LOST;
constexpr int kBarrierFailed = TESSERA_REASON_BARRIER_FAILED;

using Steps = std::vector<std::string>;

// A job whose process 0 hosts the coordinator (tessera_runtime_initialize), or whose
// coordinator runs in this driver (workers then use "connect").
struct Job {
  int port = 0;
  int num_processes = 0;
  std::string job_id = "job-test";
  std::vector<std::string> options;  // extra options of every process
  std::vector<std::string> env;      // extra environment of every process

  std::string address() const { return "127.0.0.1:" + std::to_string(port); }

  std::vector<std::string> Args(int id, const Steps& steps, const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args = {"addr=" + address(),
                                     "bind=" + address(),
                                     "n=" + std::to_string(num_processes),
                                     "id=" + std::to_string(id),
                                     "job=" + job_id,
                                     kHeartbeat,
                                     "init_timeout=15000",
                                     "shutdown_timeout=5000",
                                     "rpc_timeout=5000",
                                     "alarm=45"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--");
    args.insert(args.end(), steps.begin(), steps.end());
    return args;
  }

  WorkerPtr Start(int id, const Steps& steps, const std::vector<std::string>& extra = {},
                  const std::vector<std::string>& extra_env = {}) const {
    std::vector<std::string> all_env = env;
    all_env.insert(all_env.end(), extra_env.begin(), extra_env.end());
    return std::make_unique<Worker>("p" + std::to_string(id), Args(id, steps, extra), all_env);
  }
};

Job NewJob(int num_processes) {
  Job job;
  job.port = FreePort();
  job.num_processes = num_processes;
  return job;
}

// Starts one worker per process, each with `steps_of(id)`. Process 0 goes
// first and the others once its coordinator listens, so nobody spends the
// test in connect backoff (late coordinators have their own test).
std::vector<WorkerPtr> StartAll(const Job& job, const std::function<Steps(int)>& steps_of) {
  std::vector<WorkerPtr> workers;
  for (int id = 0; id < job.num_processes; ++id) {
    workers.push_back(job.Start(id, steps_of(id)));
    if (id == 0) WaitListening(job.port, 10000);
  }
  return workers;
}

// The steps of a job where `victim` does something other than the barrier
// the others wait at (so the barrier cannot pass) until the test signals it.
std::function<Steps(int)> OthersAtBarrier(int victim, const Steps& rest = {}) {
  return [victim, rest](int id) {
    Steps steps = {"init", id == victim ? "get:never-set:30000" : "barrier:b1:30000"};
    steps.insert(steps.end(), rest.begin(), rest.end());
    return steps;
  };
}

// An in-process coordinator (tessera_coordinator_start) on a free port.
class Coordinator {
 public:
  static std::unique_ptr<Coordinator> Start(int num_processes, const std::string& job_id,
                                            const std::function<void(tessera_cluster_options*)>& configure = {},
                                            tessera_error** out_error = nullptr) {
    tessera_cluster_options* options = tessera_cluster_options_create();
    tessera_cluster_options_set_detection(options, "none", nullptr);
    int port = FreePort();
    std::string address = "127.0.0.1:" + std::to_string(port);
    tessera_cluster_options_set_coordinator_address(options, address.c_str(), nullptr);
    tessera_cluster_options_set_bind_address(options, address.c_str(), nullptr);
    tessera_cluster_options_set_num_processes(options, num_processes, nullptr);
    tessera_cluster_options_set_job_id(options, job_id.c_str(), nullptr);
    tessera_cluster_options_set_heartbeat(options, 100, kHeartbeatTimeoutMs, nullptr);
    tessera_cluster_options_set_init_timeout_ms(options, 15000, nullptr);
    tessera_cluster_options_set_shutdown_timeout_ms(options, 5000, nullptr);
    if (configure) configure(options);
    tessera_coordinator* coordinator = tessera_coordinator_start(options, out_error);
    tessera_cluster_options_destroy(options);
    if (coordinator == nullptr) return nullptr;
    return std::unique_ptr<Coordinator>(new Coordinator(coordinator));
  }
  ~Coordinator() { tessera_coordinator_destroy(coordinator_); }

  int port() const { return tessera_coordinator_port(coordinator_, nullptr); }
  tessera_coordinator* get() { return coordinator_; }

  // A job served by this coordinator; workers "connect".
  Job MakeJob(int num_processes, const std::string& job_id) const {
    Job job;
    job.port = port();
    job.num_processes = num_processes;
    job.job_id = job_id;
    return job;
  }

 private:
  explicit Coordinator(tessera_coordinator* coordinator) : coordinator_(coordinator) {}
  tessera_coordinator* coordinator_;
};

std::string ErrorText(tessera_error* error) {
  std::string text = error == nullptr ? "(no error)"
                                      : std::string(tessera_code_name(tessera_error_code(error))) + ": " +
                                            tessera_error_message(error);
  return text;
}

// ---- 1. kill a process mid-barrier --------------------------------------

// §6.10.1 fate sharing: every other waiter learns the job failed because of
// the killed process, within the heartbeat timeout plus slack.
TEST(ClusterFailure, KilledProcessFailsEveryWaiterWithJobFailed) {
  Job job = NewJob(3);
  auto workers = StartAll(job, OthersAtBarrier(2));
  ExpectAllOk(workers, 0, kJoinMs);
  ASSERT_TRUE(AllBegan(workers, 1));
  Clock::time_point killed = Clock::now();
  workers[2]->Signal(SIGKILL);
  for (int id : {0, 1}) {
    auto result = workers[id]->WaitResult(1, kDetectMs + 2000);
    ASSERT_TRUE(result.has_value()) << "p" << id << " still waiting";
    EXPECT_FALSE(result->ok) << Describe(result);
    EXPECT_EQ(result->Field("code"), "ABORTED") << Describe(result);
    EXPECT_EQ(result->IntField("reason"), kJobFailed) << Describe(result);
    EXPECT_EQ(result->IntField("source"), 2) << Describe(result);
    EXPECT_LE(MsBetween(killed, result->at), kDetectMs) << Describe(result);
  }
}

// §6.10.1 fate sharing: the failure also arrives as a JOB_ERROR event naming the source.
TEST(ClusterFailure, KilledProcessIsReportedAsJobErrorEvent) {
  Job job = NewJob(2);
  auto workers = StartAll(job, OthersAtBarrier(1, {"events:500"}));
  ExpectAllOk(workers, 0, kJoinMs);
  ASSERT_TRUE(AllBegan(workers, 1));
  workers[1]->Signal(SIGKILL);
  auto events = workers[0]->WaitResult(2, kDetectMs + 3000);
  ASSERT_TRUE(events.has_value());
  std::string expected = "E kind=" + std::to_string(TESSERA_EVENT_JOB_ERROR) + " pid=1 ";
  std::vector<std::string> lines = workers[0]->Lines();
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.rfind(expected, 0) == 0; }))
      << workers[0]->Stdout();
}

// §6.10.1 recoverable: the barrier fails fast naming the dead process, the
// job keeps running, and live-process agreement leaves it out.
TEST(ClusterFailure, RecoverableKilledProcessFailsBarrierButNotJob) {
  Job job = NewJob(3);
  job.options = {"recoverable=1"};
  auto workers =
      StartAll(job, OthersAtBarrier(2, {"agree:10000:0,1,2", "barrier:b2:10000:0,1", "set:alive:1:over"}));
  ExpectAllOk(workers, 0, kJoinMs);
  ASSERT_TRUE(AllBegan(workers, 1));
  Clock::time_point killed = Clock::now();
  workers[2]->Signal(SIGKILL);
  for (int id : {0, 1}) {
    auto barrier = workers[id]->WaitResult(1, kDetectMs + 2000);
    ASSERT_TRUE(barrier.has_value()) << "p" << id << " still waiting";
    EXPECT_FALSE(barrier->ok);
    EXPECT_EQ(barrier->IntField("reason"), kBarrierFailed) << Describe(barrier);
    EXPECT_EQ(barrier->Field("missing"), "2") << Describe(barrier);
    EXPECT_LE(MsBetween(killed, barrier->at), kDetectMs) << Describe(barrier);
    auto agree = workers[id]->WaitResult(2, kStepMs);
    EXPECT_TRUE(agree && agree->ok) << Describe(agree);
    EXPECT_EQ(agree ? agree->Field("live") : "", "0,1") << Describe(agree);
    auto next_barrier = workers[id]->WaitResult(3, kStepMs);
    EXPECT_TRUE(next_barrier && next_barrier->ok) << Describe(next_barrier);
    auto kv = workers[id]->WaitResult(4, kStepMs);
    EXPECT_TRUE(kv && kv->ok) << Describe(kv);
  }
}

// ---- 2. kill process 0 ----------------------------------------------------

// §6.10.2: losing the coordinator is COORDINATOR_LOST for everyone, no hang.
TEST(ClusterFailure, KilledProcessZeroGivesCoordinatorLost) {
  Job job = NewJob(3);
  auto workers = StartAll(job, OthersAtBarrier(0, {"sleep:1500", "tryget:k"}));
  ExpectAllOk(workers, 0, kJoinMs);
  ASSERT_TRUE(AllBegan(workers, 1));
  Clock::time_point killed = Clock::now();
  workers[0]->Signal(SIGKILL);
  for (int id : {1, 2}) {
    auto barrier = workers[id]->WaitResult(1, kDetectMs + 2000);
    ASSERT_TRUE(barrier.has_value()) << "p" << id << " still waiting";
    EXPECT_FALSE(barrier->ok);
    EXPECT_EQ(barrier->Field("code"), "UNAVAILABLE") << Describe(barrier);
    EXPECT_EQ(barrier->IntField("reason"), kCoordinatorLost) << Describe(barrier);
    EXPECT_LE(MsBetween(killed, barrier->at), kDetectMs) << Describe(barrier);
    auto later = workers[id]->WaitResult(3, kStepMs);
    EXPECT_TRUE(later && !later->ok && later->IntField("reason") == kCoordinatorLost) << Describe(later);
    EXPECT_EQ(workers[id]->WaitExit(5000), std::optional<int>(0));
  }
}

// ---- 3. hang instead of crash -----------------------------------------------

// §6.10.3: a stopped process is declared dead; after SIGCONT its own calls
// fail cleanly (no zombie membership) and it exits normally.
TEST(ClusterFailure, StoppedProcessIsDeclaredDeadAndFailsCleanlyAfterContinue) {
  Job job = NewJob(3);
  auto workers = StartAll(job, OthersAtBarrier(2, {"set:after:1"}));
  ExpectAllOk(workers, 0, kJoinMs);
  ASSERT_TRUE(AllBegan(workers, 1));
  Clock::time_point stopped = Clock::now();
  workers[2]->Signal(SIGSTOP);
  for (int id : {0, 1}) {
    auto barrier = workers[id]->WaitResult(1, kDetectMs + 2000);
    ASSERT_TRUE(barrier.has_value()) << "p" << id << " still waiting";
    EXPECT_EQ(barrier->Field("code"), "ABORTED") << Describe(barrier);
    EXPECT_EQ(barrier->IntField("reason"), kJobFailed) << Describe(barrier);
    EXPECT_EQ(barrier->IntField("source"), 2) << Describe(barrier);
    EXPECT_LE(MsBetween(stopped, barrier->at), kDetectMs) << Describe(barrier);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  workers[2]->Signal(SIGCONT);
  auto get = workers[2]->WaitResult(1, kDetectMs + 2000);
  ASSERT_TRUE(get.has_value()) << workers[2]->Stdout();
  EXPECT_FALSE(get->ok) << Describe(get);
  EXPECT_THAT(get->Field("code"), AnyOf("ABORTED", "UNAVAILABLE")) << Describe(get);
  auto set = workers[2]->WaitResult(2, kStepMs);
  EXPECT_TRUE(set && !set->ok) << Describe(set);
  EXPECT_EQ(workers[2]->WaitExit(5000), std::optional<int>(0));
}

// ---- 4. restart a task ---------------------------------------------------------

// §6.10.4: a process that crashes during registration and restarts at once
// (new incarnation, same id) is accepted; the job forms.
TEST(ClusterMembership, RestartDuringRegistrationIsAccepted) {
  Job job = NewJob(3);
  auto p0 = job.Start(0, {"init", "barrier:b:15000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "barrier:b:15000"});
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  p1->Signal(SIGKILL);
  p1->WaitExit(2000);
  auto p1_again = job.Start(1, {"init", "barrier:b:15000"});
  // p2 last: were it registered before the restart, the job would already
  // run and the restart would be the RUNNING case (next test).
  ASSERT_TRUE(p1_again->WaitBegin(0, kJoinMs));
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  auto p2 = job.Start(2, {"init", "barrier:b:15000"});
  for (Worker* w : {p0.get(), p1_again.get(), p2.get()}) {
    auto init = w->WaitResult(0, kJoinMs);
    EXPECT_TRUE(init && init->ok) << w->label() << ": " << Describe(init);
    auto barrier = w->WaitResult(1, kStepMs);
    EXPECT_TRUE(barrier && barrier->ok) << w->label() << ": " << Describe(barrier);
  }
}

// §6.10.4: a registrant that hangs past the heartbeat timeout (recoverable:
// its slot is freed) and is replaced by a restart is told, once it runs
// again, that it was superseded; the job forms with the restart.
TEST(ClusterMembership, HungRegistrantIsToldItWasSuperseded) {
  Job job = NewJob(3);
  job.options = {"recoverable=1"};
  auto p0 = job.Start(0, {"init"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init"});
  ASSERT_TRUE(p1->WaitBegin(0, kJoinMs));
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  p1->Signal(SIGSTOP);
  std::this_thread::sleep_for(std::chrono::milliseconds(kHeartbeatTimeoutMs + 800));
  auto p1_again = job.Start(1, {"init"});
  auto p2 = job.Start(2, {"init"});
  for (Worker* w : {p0.get(), p1_again.get(), p2.get()}) {
    auto init = w->WaitResult(0, kJoinMs);
    EXPECT_TRUE(init && init->ok) << w->label() << ": " << Describe(init);
  }
  p1->Signal(SIGCONT);
  auto old = p1->WaitResult(0, kDetectMs + 2000);
  ASSERT_TRUE(old.has_value()) << p1->Stdout();
  EXPECT_FALSE(old->ok) << Describe(old);
  EXPECT_EQ(old->IntField("reason"), TESSERA_REASON_SUPERSEDED) << Describe(old);
}

// §6.10.4 fate sharing: a restart after RUNNING fails the job, naming the process.
TEST(ClusterMembership, RestartAfterRunningFailsJobWithRestartedMessage) {
  // The killed process's closed connection fails the job 500 ms after the
  // kill (kReconnectGrace) unless the restart registers first: then the
  // message says "restarted", else "closed its connection" (a process start
  // on 2 busy cores can take longer). Its heartbeats are never waited for.
  constexpr int64_t kRestartHeartbeatTimeoutMs = 3000;
  Job job = NewJob(3);
  job.options = {"hb=100," + std::to_string(kRestartHeartbeatTimeoutMs)};
  auto workers = StartAll(job, OthersAtBarrier(2));
  ExpectAllOk(workers, 0, kJoinMs);
  ASSERT_TRUE(AllBegan(workers, 1));
  workers[2]->Signal(SIGKILL);
  // Reaped first, as a launcher would: the coordinator (on this host) treats
  // a registration as a restart only once the holder's pid is gone, and an
  // unreaped zombie still has its pid (§6.6 duplicate vs. restart).
  workers[2]->WaitExit(2000);
  auto restarted = job.Start(2, {"init"});
  for (int id : {0, 1}) {
    auto barrier = workers[id]->WaitResult(1, kRestartHeartbeatTimeoutMs + 4000);
    ASSERT_TRUE(barrier.has_value());
    EXPECT_EQ(barrier->Field("code"), "ABORTED") << Describe(barrier);
    EXPECT_EQ(barrier->IntField("reason"), kJobFailed) << Describe(barrier);
    EXPECT_EQ(barrier->IntField("source"), 2) << Describe(barrier);
    EXPECT_THAT(barrier->message, AnyOf(HasSubstr("restarted"), HasSubstr("closed its connection")))
        << Describe(barrier);
  }
  auto init = restarted->WaitResult(0, kStepMs);
  EXPECT_TRUE(init && !init->ok) << Describe(init);
}

// §6.10.4 recoverable: the restarted process rejoins, the generation goes up
// by one, and a barrier id used afresh by it and the others passes.
TEST(ClusterMembership, RecoverableRestartRejoinsWithNextGeneration) {
  Job job = NewJob(3);
  job.options = {"recoverable=1"};
  auto p0 = job.Start(0, {"init", "get:rejoined:25000", "barrier:after:15000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "get:rejoined:25000", "barrier:after:15000"});
  auto p2 = job.Start(2, {"init", "sleep:30000"});
  auto init0 = p0->WaitResult(0, kJoinMs);
  ASSERT_TRUE(init0 && init0->ok) << Describe(init0);
  auto init2 = p2->WaitResult(0, kJoinMs);
  ASSERT_TRUE(init2 && init2->ok) << Describe(init2);
  p2->Signal(SIGKILL);
  p2->WaitExit(2000);
  auto p2_again = job.Start(2, {"init", "set:rejoined:1", "barrier:after:15000"});
  auto rejoin = p2_again->WaitResult(0, kJoinMs);
  ASSERT_TRUE(rejoin && rejoin->ok) << Describe(rejoin) << p2_again->Stderr();
  EXPECT_EQ(rejoin->IntField("gen"), init0->IntField("gen") + 1) << Describe(rejoin);
  for (Worker* w : {p0.get(), p1.get(), p2_again.get()}) {
    auto barrier = w->WaitResult(2, kStepMs);
    EXPECT_TRUE(barrier && barrier->ok) << w->label() << ": " << Describe(barrier);
  }
}

// ---- 5. bad addresses -----------------------------------------------------------

// §6.10.5: processes that start before the coordinator keep retrying and join.
TEST(ClusterAddress, CoordinatorStartingLateStillForms) {
  Job job = NewJob(2);
  auto p1 = job.Start(1, {"init"});
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  auto p0 = job.Start(0, {"init"});
  for (Worker* w : {p0.get(), p1.get()}) {
    auto init = w->WaitResult(0, kJoinMs);
    EXPECT_TRUE(init && init->ok) << w->label() << ": " << Describe(init);
  }
}

// A listening socket on 127.0.0.1 (no SO_REUSEPORT), closed on scope exit.
class Listener {
 public:
  Listener() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    listen(fd_, 1);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
  }
  ~Listener() { close(fd_); }
  int port() const { return port_; }

 private:
  int fd_;
  int port_;
};

// §6.10.5: process 0 binding a port in use fails at once, naming addr:port and EADDRINUSE.
TEST(ClusterAddress, ProcessZeroBindOnUsedPortFailsImmediately) {
  Listener listener;
  Job job;
  job.port = listener.port();
  job.num_processes = 2;
  auto p0 = job.Start(0, {"init"});
  auto init = p0->WaitResult(0, 10000);
  ASSERT_TRUE(init.has_value());
  EXPECT_FALSE(init->ok);
  EXPECT_EQ(init->Field("code"), "UNAVAILABLE") << Describe(init);
  EXPECT_THAT(init->message, HasSubstr(job.address())) << Describe(init);
  EXPECT_THAT(init->message, HasSubstr("EADDRINUSE")) << Describe(init);
  EXPECT_LT(init->IntField("ms"), 2000) << Describe(init);
}

// §6.10.5: the same for tessera_coordinator_start, against another coordinator
// (gRPC's default SO_REUSEPORT must not let two servers share a port).
TEST(ClusterAddress, SecondCoordinatorOnSamePortFails) {
  auto first = Coordinator::Start(2, "job-a");
  ASSERT_NE(first, nullptr);
  tessera_cluster_options* options = tessera_cluster_options_create();
  std::string address = "127.0.0.1:" + std::to_string(first->port());
  tessera_cluster_options_set_detection(options, "none", nullptr);
  tessera_cluster_options_set_coordinator_address(options, address.c_str(), nullptr);
  tessera_cluster_options_set_bind_address(options, address.c_str(), nullptr);
  tessera_cluster_options_set_num_processes(options, 2, nullptr);
  tessera_error* error = nullptr;
  tessera_coordinator* second = tessera_coordinator_start(options, &error);
  tessera_cluster_options_destroy(options);
  EXPECT_EQ(second, nullptr);
  EXPECT_EQ(tessera_error_code(error), TESSERA_UNAVAILABLE) << ErrorText(error);
  EXPECT_THAT(tessera_error_message(error), AllOf(HasSubstr(address), HasSubstr("EADDRINUSE")));
  tessera_error_destroy(error);
  tessera_coordinator_destroy(second);
}

// §6.10.5: an unresolvable coordinator host ends with an error naming the host.
TEST(ClusterAddress, UnresolvableHostErrorNamesHost) {
  auto p1 = std::make_unique<Worker>(
      "p1", std::vector<std::string>{"addr=no-such-host.invalid:4321", "n=2", "id=1", kHeartbeat, "init_timeout=2000",
                                     "--", "init"});
  auto init = p1->WaitResult(0, 2000 + 8000);
  ASSERT_TRUE(init.has_value()) << "no answer 8 s after the init timeout";
  EXPECT_FALSE(init->ok);
  EXPECT_THAT(init->message, HasSubstr("no-such-host.invalid")) << Describe(init);
}

// §6.10.5: a dead HTTP proxy in the environment does not stop the job forming.
TEST(ClusterAddress, DeadHttpProxyInEnvironmentIsIgnored) {
  Job job = NewJob(2);
  std::string proxy = "http://127.0.0.1:" + std::to_string(FreePort());
  job.env = {"http_proxy=" + proxy, "https_proxy=" + proxy, "HTTP_PROXY=" + proxy, "HTTPS_PROXY=" + proxy,
             "grpc_proxy=" + proxy, "all_proxy=" + proxy};
  auto workers = StartAll(job, [](int) { return Steps{"init", "barrier:b:10000"}; });
  ExpectAllOk(workers, 0, kJoinMs);
  ExpectAllOk(workers, 1);
}

// ---- 6. authentication and job id --------------------------------------------------

// The driver's own log (its in-process coordinator), gathered from any thread.
std::mutex g_log_mu;
std::vector<std::string>* g_log_lines = nullptr;
void CaptureLog(tessera_log_level_t, const char* message, size_t, void*) {
  std::lock_guard<std::mutex> lock(g_log_mu);
  if (g_log_lines != nullptr) g_log_lines->push_back(message);
}

// §6.10.6: a wrong token is UNAUTHENTICATED in under a second, not retried,
// and neither token appears in any output or log.
TEST(ClusterSecurity, WrongTokenIsUnauthenticatedFastAndNeverPrinted) {
  const std::string right = "right-secret-7f3a9c";
  const std::string wrong = "wrong-secret-2b8e1d";
  std::vector<std::string> logs;
  g_log_lines = &logs;
  tessera_log_set_callback(CaptureLog, nullptr, TESSERA_LOG_DEBUG, nullptr);
  auto coordinator = Coordinator::Start(1, "job-tok", [&](tessera_cluster_options* o) {
    tessera_cluster_options_set_job_token(o, right.c_str(), nullptr);
  });
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(1, "job-tok");
  auto intruder = job.Start(0, {"connect"}, {"token=" + wrong});
  auto rejected = intruder->WaitResult(0, 10000);
  auto anonymous = job.Start(0, {"connect"});
  auto missing = anonymous->WaitResult(0, 10000);
  auto member = job.Start(0, {"connect", "shutdown"}, {"token=" + right});
  auto accepted = member->WaitResult(0, kJoinMs);
  member->WaitExit(10000);
  intruder->WaitExit(5000);
  anonymous->WaitExit(5000);
  tessera_log_set_callback(nullptr, nullptr, TESSERA_LOG_WARNING, nullptr);
  {
    std::lock_guard<std::mutex> lock(g_log_mu);
    g_log_lines = nullptr;
  }

  for (const auto& result : {rejected, missing}) {
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->Field("code"), "UNAUTHENTICATED") << Describe(result);
    EXPECT_EQ(result->IntField("reason"), TESSERA_REASON_AUTHENTICATION) << Describe(result);
    EXPECT_LT(result->IntField("ms"), 1000) << Describe(result);
  }
  EXPECT_TRUE(accepted && accepted->ok) << Describe(accepted);
  for (Worker* w : {intruder.get(), anonymous.get(), member.get()}) {
    EXPECT_THAT(w->Stdout() + w->Stderr(), AllOf(Not(HasSubstr(right)), Not(HasSubstr(wrong))));
  }
  for (const std::string& line : logs) EXPECT_THAT(line, AllOf(Not(HasSubstr(right)), Not(HasSubstr(wrong))));
}

// §6.10.6: a wrong job id is FAILED_PRECONDITION naming both ids, not retried.
TEST(ClusterSecurity, WrongJobIdIsFailedPreconditionNamingBothIds) {
  auto coordinator = Coordinator::Start(1, "job-alpha");
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(1, "job-beta");
  auto stray = job.Start(0, {"connect"});
  auto result = stray->WaitResult(0, 10000);
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->Field("code"), "FAILED_PRECONDITION") << Describe(result);
  EXPECT_EQ(result->IntField("reason"), TESSERA_REASON_WRONG_JOB) << Describe(result);
  EXPECT_THAT(result->message, AllOf(HasSubstr("job-alpha"), HasSubstr("job-beta")));
  EXPECT_LT(result->IntField("ms"), 2000) << Describe(result);
}

// ---- 7. TLS ----------------------------------------------------------------------------

// A CA, a server certificate for 127.0.0.1/localhost signed by it, and an
// unrelated CA, made with the openssl CLI once per test program.
struct Certs {
  std::string dir, ca, other_ca, cert, key;
  std::string wrong_san_cert;  // same key, SAN 10.255.255.1 / elsewhere.invalid
  std::string expired_cert;    // same key and SAN, validity over
};

const Certs& TestCerts() {
  static const Certs certs = [] {
    Certs c;
    c.dir = MakeTempDir() + "/tls";
    std::string script =
        "set -e; mkdir -p '" + c.dir + "'; cd '" + c.dir + "';"
        "K='-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes';"
        "openssl req -x509 $K -keyout ca.key -out ca.pem -days 2 -subj /CN=tessera-test-ca;"
        "openssl req -x509 $K -keyout other.key -out other.pem -days 2 -subj /CN=tessera-other-ca;"
        "openssl req $K -keyout server.key -out server.csr -subj /CN=localhost;"
        "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > san.ext;"
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 "
        "-extfile san.ext;"
        // Signed by the trusted CA but for another name: the SAN check must refuse it.
        "printf 'subjectAltName=IP:10.255.255.1,DNS:elsewhere.invalid\\n' > other-san.ext;"
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out wrong-san.pem -days 2 "
        "-extfile other-san.ext;"
        // OpenSSL 3.0's x509 has no -not_after; -days -1 ends the validity a
        // day before it starts, which verifiers report as "certificate has expired".
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out expired.pem -days -1 "
        "-extfile san.ext";
    std::string command = "(" + script + ") >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) c.dir.clear();
    c.ca = c.dir + "/ca.pem";
    c.other_ca = c.dir + "/other.pem";
    c.cert = c.dir + "/server.pem";
    c.key = c.dir + "/server.key";
    c.wrong_san_cert = c.dir + "/wrong-san.pem";
    c.expired_cert = c.dir + "/expired.pem";
    return c;
  }();
  return certs;
}

// A one-process TLS coordinator serving `cert` with `key` (default: the good
// pair), re-reading them every `reload_s` seconds when > 0. A refusal to start
// is a test failure unless `out_error` takes it.
std::unique_ptr<Coordinator> StartTlsCoordinator(const std::string& cert = TestCerts().cert,
                                                 const std::string& key = TestCerts().key, int reload_s = 0,
                                                 std::string* out_error = nullptr) {
  const Certs& certs = TestCerts();
  tessera_error* error = nullptr;
  auto coordinator = Coordinator::Start(
      1, "job-tls",
      [&](tessera_cluster_options* o) {
        tessera_cluster_options_set_tls(o, cert.c_str(), key.c_str(), certs.ca.c_str(), nullptr);
        if (reload_s > 0) tessera_cluster_options_set_tls_reload_interval_ms(o, reload_s * 1000, nullptr);
      },
      &error);
  if (out_error != nullptr) {
    *out_error = ErrorText(error);
  } else {
    EXPECT_NE(coordinator, nullptr) << ErrorText(error);
  }
  tessera_error_destroy(error);
  return coordinator;
}

// What `openssl x509 -<field> -noout` prints after "<field>=" for `pem`:
// the test's own reading of a date, independent of the library's.
std::string CertificateDate(const std::string& pem, const std::string& field) {
  std::string output;
  FILE* pipe = popen(("openssl x509 -noout -" + field + "date -in '" + pem + "'").c_str(), "r");
  if (pipe == nullptr) return output;
  char buffer[256];
  while (std::fgets(buffer, sizeof(buffer), pipe) != nullptr) output += buffer;
  pclose(pipe);
  const size_t equals = output.find('=');
  output = equals == std::string::npos ? "" : output.substr(equals + 1);
  while (!output.empty() && output.back() == '\n') output.pop_back();
  return output;
}

// §6.10.7 (the positive case the mismatches are measured against).
TEST(ClusterSecurity, TlsClientTrustingTheCaConnects) {
  ASSERT_FALSE(TestCerts().dir.empty()) << "openssl could not make test certificates";
  auto coordinator = StartTlsCoordinator();
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(1, "job-tls");
  auto client = job.Start(0, {"connect", "set:k:v", "shutdown"}, {"tls_ca=" + TestCerts().ca});
  auto connect = client->WaitResult(0, kJoinMs);
  EXPECT_TRUE(connect && connect->ok) << Describe(connect) << client->Stderr();
  auto set = client->WaitResult(1, kStepMs);
  EXPECT_TRUE(set && set->ok) << Describe(set);
}

// §6.10.7: a client trusting another CA gets a clear error, not a hang.
TEST(ClusterSecurity, TlsWrongCaIsAnErrorNotAHang) {
  ASSERT_FALSE(TestCerts().dir.empty()) << "openssl could not make test certificates";
  auto coordinator = StartTlsCoordinator();
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(1, "job-tls");
  auto client = job.Start(0, {"connect"}, {"tls_ca=" + TestCerts().other_ca, "init_timeout=2000"});
  auto connect = client->WaitResult(0, 2000 + 6000);
  ASSERT_TRUE(connect.has_value()) << "hung past the init timeout";
  EXPECT_FALSE(connect->ok);
  // A certain TLS rejection: said as such, and not retried until the timeout.
  EXPECT_EQ(connect->Field("code"), "UNAUTHENTICATED") << Describe(connect);
  EXPECT_THAT(connect->message,
              HasSubstr("TLS handshake with " + job.address() +
                        " failed: the coordinator's certificate was refused: unable to get local issuer "
                        "certificate, checked against tls_ca_file '" + TestCerts().other_ca + "'"))
      << Describe(connect);
  EXPECT_LT(connect->IntField("ms"), 2000) << Describe(connect);
}

// §6.10.7: a plaintext client against a TLS server: a clear error, not a hang.
TEST(ClusterSecurity, PlaintextClientAgainstTlsServerIsAnErrorNotAHang) {
  ASSERT_FALSE(TestCerts().dir.empty()) << "openssl could not make test certificates";
  auto coordinator = StartTlsCoordinator();
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(1, "job-tls");
  auto client = job.Start(0, {"connect"}, {"init_timeout=2000"});
  auto connect = client->WaitResult(0, 2000 + 6000);
  ASSERT_TRUE(connect.has_value()) << "hung past the init timeout";
  EXPECT_FALSE(connect->ok);
  // The server only closes the connection: retried, then explained.
  EXPECT_THAT(connect->message, HasSubstr("the coordinator closed the connection during set-up (a TLS "
                                          "coordinator does so to a client without TLS"))
      << Describe(connect);
}

// Connects one client trusting the test CA to a TLS coordinator serving
// `cert`; returns the connect result (bounded by a 2 s init timeout).
std::optional<StepResult> ConnectTlsClientTo(const std::string& cert) {
  auto coordinator = StartTlsCoordinator(cert);
  if (coordinator == nullptr) return std::nullopt;
  Job job = coordinator->MakeJob(1, "job-tls");
  auto client = job.Start(0, {"connect"}, {"tls_ca=" + TestCerts().ca, "init_timeout=2000"});
  return client->WaitResult(0, 2000 + 6000);
}

// §6.10.7: a certificate from the trusted CA whose SAN does not name the
// dialled address (127.0.0.1) is refused, promptly and with a TLS reason.
TEST(ClusterSecurity, TlsServerNameMismatchIsRefused) {
  ASSERT_FALSE(TestCerts().dir.empty()) << "openssl could not make test certificates";
  auto connect = ConnectTlsClientTo(TestCerts().wrong_san_cert);
  ASSERT_TRUE(connect.has_value()) << "no coordinator, or hung past the init timeout";
  EXPECT_FALSE(connect->ok) << Describe(connect);
  EXPECT_THAT(connect->Field("code"), AnyOf("UNAVAILABLE", "UNAUTHENTICATED", "DEADLINE_EXCEEDED"))
      << Describe(connect);
  EXPECT_THAT(connect->message, HasSubstr("failed: the coordinator's certificate is not for '127.0.0.1' (it names "
                                          "IP:10.255.255.1, DNS:elsewhere.invalid)"))
      << Describe(connect);
}

// §6.10.7: a coordinator refuses to start with an expired certificate,
// naming the file and its notAfter.
TEST(ClusterSecurity, TlsExpiredCertificateStopsTheCoordinatorFromStarting) {
  ASSERT_FALSE(TestCerts().dir.empty()) << "openssl could not make test certificates";
  std::string error;
  auto coordinator = StartTlsCoordinator(TestCerts().expired_cert, TestCerts().key, 0, &error);
  EXPECT_EQ(coordinator, nullptr);
  const std::string not_after = CertificateDate(TestCerts().expired_cert, "end");
  ASSERT_FALSE(not_after.empty()) << "openssl could not read the certificate";
  EXPECT_THAT(error, HasSubstr("coordinator: the certificate in tls_cert_file '" + TestCerts().expired_cert +
                               "' expired on " + not_after + " (notAfter)"));
}

// §6.10.7: a certificate that expires while the coordinator runs (here: the
// rotated file is an expired one) refuses clients with a TLS reason that
// names the date, at once, not "no response (firewall?)" at the init timeout.
TEST(ClusterSecurity, TlsServerCertificateExpiredWhileRunningIsATlsErrorWithTheDate) {
  const Certs& certs = TestCerts();
  ASSERT_FALSE(certs.dir.empty()) << "openssl could not make test certificates";
  const std::string served = certs.dir + "/served.pem";
  ASSERT_EQ(std::system(("cp '" + certs.cert + "' '" + served + "'").c_str()), 0);
  auto coordinator = StartTlsCoordinator(served, certs.key, /*reload_s=*/1);
  ASSERT_NE(coordinator, nullptr);
  const std::string address = "127.0.0.1:" + std::to_string(coordinator->port());
  ASSERT_EQ(std::system(("cp '" + certs.expired_cert + "' '" + served + ".new' && mv '" + served + ".new' '" +
                         served + "'").c_str()),
            0);
  // The coordinator re-reads within a second: wait until a handshake of
  // openssl's own fails verification (bounded: 40 x 100 ms).
  const std::string probe = "openssl s_client -connect " + address + " -CAfile '" + certs.ca +
                            "' -alpn h2 -verify_return_error -brief </dev/null >/dev/null 2>&1";
  bool reloaded = false;
  for (int i = 0; i < 40 && !reloaded; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    reloaded = std::system(probe.c_str()) != 0;
  }
  ASSERT_TRUE(reloaded) << "the coordinator still served the valid certificate after 4 s";
  Job job = coordinator->MakeJob(1, "job-tls");
  auto client = job.Start(0, {"connect"}, {"tls_ca=" + certs.ca, "init_timeout=5000"});
  auto connect = client->WaitResult(0, 5000 + 6000);
  ASSERT_TRUE(connect.has_value()) << "hung past the init timeout";
  EXPECT_FALSE(connect->ok) << Describe(connect);
  EXPECT_EQ(connect->Field("code"), "UNAUTHENTICATED") << Describe(connect);
  EXPECT_THAT(connect->message,
              AllOf(HasSubstr("TLS handshake with " + address +
                              " failed: the coordinator's certificate was refused: certificate has expired "
                              "(notAfter " + CertificateDate(certs.expired_cert, "end") + ")"),
                    Not(HasSubstr("firewall"))))
      << Describe(connect);
  EXPECT_LT(connect->IntField("ms"), 3000) << Describe(connect);
}

// ---- 8. duplicate process id ------------------------------------------------------------

// §6.10.8: a second live process claiming a held id is rejected with the
// holder's host and pid; the holder goes on and the job forms.
TEST(ClusterMembership, DuplicateLiveProcessIdIsRejectedWithHolder) {
  auto coordinator = Coordinator::Start(2, "job-dup");
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(2, "job-dup");
  auto holder = job.Start(0, {"connect", "barrier:b:10000"});
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  auto duplicate = job.Start(0, {"connect"});
  auto rejected = duplicate->WaitResult(0, 5000);
  auto other = job.Start(1, {"connect", "barrier:b:10000"});
  ASSERT_TRUE(rejected.has_value());
  EXPECT_EQ(rejected->Field("code"), "ALREADY_EXISTS") << Describe(rejected);
  EXPECT_EQ(rejected->IntField("reason"), TESSERA_REASON_DUPLICATE_PROCESS) << Describe(rejected);
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  EXPECT_THAT(rejected->message, AllOf(HasSubstr(host), HasSubstr(std::to_string(holder->pid()))))
      << Describe(rejected);
  for (Worker* w : {holder.get(), other.get()}) {
    auto connect = w->WaitResult(0, kJoinMs);
    EXPECT_TRUE(connect && connect->ok) << w->label() << ": " << Describe(connect);
    auto barrier = w->WaitResult(1, kStepMs);
    EXPECT_TRUE(barrier && barrier->ok) << w->label() << ": " << Describe(barrier);
  }
}

// §6.10.8 with fail_job_on_duplicate_id: the duplicate's arrival fails the
// job, so the holder (still waiting for the job to form) gets the job error.
TEST(ClusterMembership, DuplicateIdFailsJobForHolderWhenConfigured) {
  auto coordinator = Coordinator::Start(2, "job-dupfail", [](tessera_cluster_options* o) {
    tessera_cluster_options_set_fail_job_on_duplicate_id(o, true, nullptr);
  });
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(2, "job-dupfail");
  job.options = {"dup_fails_job=1"};
  auto holder = job.Start(0, {"connect"});
  ASSERT_TRUE(holder->WaitBegin(0, kJoinMs));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  auto duplicate = job.Start(0, {"connect"});
  auto rejected = duplicate->WaitResult(0, 5000);
  ASSERT_TRUE(rejected.has_value());
  EXPECT_EQ(rejected->Field("code"), "ALREADY_EXISTS") << Describe(rejected);
  EXPECT_EQ(rejected->IntField("reason"), TESSERA_REASON_DUPLICATE_PROCESS) << Describe(rejected);
  auto failed = holder->WaitResult(0, 5000);
  ASSERT_TRUE(failed.has_value()) << "holder still waiting after the duplicate failed the job";
  EXPECT_FALSE(failed->ok) << Describe(failed);
  EXPECT_EQ(failed->Field("code"), "ABORTED") << Describe(failed);
  EXPECT_EQ(failed->IntField("reason"), kJobFailed) << Describe(failed);
  EXPECT_THAT(failed->message, HasSubstr("duplicate process id")) << Describe(failed);
  EXPECT_LE(MsBetween(rejected->at, failed->at), 2000) << Describe(failed);
}

// ---- 9. late joiners ----------------------------------------------------------------------

// §6.10.9: once the job runs, another process for a taken id is refused as
// a duplicate, as at start (issue 15): the holder's host and pid.
TEST(ClusterMembership, LateJoinerAfterRunningIsRejected) {
  auto coordinator = Coordinator::Start(2, "job-late");
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(2, "job-late");
  auto p0 = job.Start(0, {"connect", "barrier:b:15000"});
  auto p1 = job.Start(1, {"connect", "barrier:b:15000"});
  auto joined = p0->WaitResult(0, kJoinMs);
  ASSERT_TRUE(joined && joined->ok) << Describe(joined);
  auto late = job.Start(1, {"connect"});
  auto rejected = late->WaitResult(0, 10000);
  ASSERT_TRUE(rejected.has_value());
  EXPECT_EQ(rejected->Field("code"), "ALREADY_EXISTS") << Describe(rejected);
  EXPECT_EQ(rejected->IntField("reason"), TESSERA_REASON_DUPLICATE_PROCESS) << Describe(rejected);
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  EXPECT_THAT(rejected->message,
              AllOf(HasSubstr(std::string("is held by ") + host + " pid " + std::to_string(p1->pid())),
                    HasSubstr("running since")))
      << Describe(rejected);
  EXPECT_LT(rejected->IntField("ms"), 2000) << Describe(rejected);
}

// §6.10.9: a joiner that is slow but within the init timeout still forms the
// job; the ones that came early simply wait. (The coordinator's straggler
// line is logged every 30 s, a fixed period: its content is checked with a
// fake clock in tests/core/cluster_coordinator_state_test.cc.)
TEST(ClusterMembership, SlowButInTimeJoinerSucceeds) {
  constexpr int64_t kLateMs = 2500;
  Job job = NewJob(3);
  auto p0 = job.Start(0, {"init", "barrier:end:10000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "barrier:end:10000"});
  ASSERT_TRUE(p1->WaitBegin(0, kJoinMs));
  std::this_thread::sleep_for(std::chrono::milliseconds(kLateMs));
  auto p2 = job.Start(2, {"init", "barrier:end:10000"});
  std::vector<Worker*> all = {p0.get(), p1.get(), p2.get()};
  for (Worker* w : all) {
    auto joined = w->WaitResult(0, kJoinMs);
    ASSERT_TRUE(joined && joined->ok) << w->label() << ": " << Describe(joined) << w->Stderr();
    EXPECT_EQ(joined->Field("n"), "3");
    auto barrier = w->WaitResult(1, kStepMs);
    EXPECT_TRUE(barrier && barrier->ok) << w->label() << ": " << Describe(barrier);
  }
  auto early = p1->WaitResult(0, 0);
  EXPECT_GE(early->IntField("ms"), kLateMs - 200) << "p1 formed a job before p2 existed: " << Describe(early);
}

// §6.10.9: a process that disagrees on num_processes (so its id may be out of
// the coordinator's range) is INVALID_ARGUMENT, not retried.
TEST(ClusterMembership, MismatchedProcessCountIsInvalidArgument) {
  auto coordinator = Coordinator::Start(2, "job-count");
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(4, "job-count");
  auto stray = job.Start(3, {"connect"});
  auto rejected = stray->WaitResult(0, 10000);
  ASSERT_TRUE(rejected.has_value());
  EXPECT_EQ(rejected->Field("code"), "INVALID_ARGUMENT") << Describe(rejected);
  EXPECT_LT(rejected->IntField("ms"), 2000) << Describe(rejected);
}

// ---- 10. barriers across processes --------------------------------------------------------

// §6.10.10: a barrier id passes twice (counters), and a subset barrier passes
// with only its participants.
TEST(ClusterBarrier, ReusedIdAndSubsetBarrierPass) {
  Job job = NewJob(3);
  auto workers = StartAll(job, [](int id) {
    Steps steps = {"init", "barrier:b:10000", "barrier:b:10000"};
    if (id < 2) steps.push_back("barrier:pair:10000:0,1");
    steps.push_back("barrier:end:10000");
    return steps;
  });
  ExpectAllOk(workers, 0, kJoinMs);
  ExpectAllOk(workers, 1);
  ExpectAllOk(workers, 2);
  for (int id : {0, 1}) {
    auto pair = workers[id]->WaitResult(3, kStepMs);
    EXPECT_TRUE(pair && pair->ok) << Describe(pair);
  }
}

// §6.10.10: a barrier's timeout lists who arrived and who is missing.
TEST(ClusterBarrier, TimeoutListsArrivedAndMissing) {
  Job job = NewJob(3);
  auto workers = StartAll(job, [](int id) {
    return id < 2 ? Steps{"init", "barrier:slow:1000"} : Steps{"init", "sleep:4000"};
  });
  ExpectAllOk(workers, 0, kJoinMs);
  for (int id : {0, 1}) {
    auto barrier = workers[id]->WaitResult(1, kStepMs);
    ASSERT_TRUE(barrier.has_value());
    EXPECT_EQ(barrier->Field("code"), "DEADLINE_EXCEEDED") << Describe(barrier);
    EXPECT_EQ(barrier->IntField("reason"), kBarrierFailed) << Describe(barrier);
    EXPECT_EQ(barrier->Field("missing"), "2") << Describe(barrier);
    EXPECT_EQ(barrier->Field("arrived"), "0,1") << Describe(barrier);
  }
}

// §6.10.10: cancel_barrier from a process that is not waiting releases the
// waiters with CANCELLED naming the canceller.
TEST(ClusterBarrier, CancelFromAnotherProcessReleasesWaitersWithCancelled) {
  Job job = NewJob(3);
  auto workers = StartAll(job, [](int id) {
    return id < 2 ? Steps{"init", "barrier:c:20000"} : Steps{"init", "sleep:500", "cancel_barrier:c"};
  });
  ExpectAllOk(workers, 0, kJoinMs);
  auto cancel = workers[2]->WaitResult(2, kStepMs);
  ASSERT_TRUE(cancel && cancel->ok) << Describe(cancel);
  for (int id : {0, 1}) {
    auto barrier = workers[id]->WaitResult(1, kStepMs);
    ASSERT_TRUE(barrier.has_value()) << "p" << id << " still waiting";
    EXPECT_EQ(barrier->Field("code"), "CANCELLED") << Describe(barrier);
    EXPECT_THAT(barrier->message, HasSubstr("cancelled by process 2")) << Describe(barrier);
    EXPECT_LE(MsBetween(cancel->at, barrier->at), 2000) << Describe(barrier);
  }
}

// §6.10.10: a process outside a barrier's participant set calling it while
// it is in progress fails the barrier for the waiter too, with
// INVALID_ARGUMENT naming the intruder.
TEST(ClusterBarrier, NonParticipantCallerFailsTheBarrier) {
  Job job = NewJob(3);
  auto workers = StartAll(job, [](int id) {
    if (id == 0) return Steps{"init", "barrier:pair:20000:0,1"};
    if (id == 1) return Steps{"init", "sleep:3000"};  // the other participant, not there yet
    return Steps{"init", "sleep:500", "barrier:pair:5000:0,1"};
  });
  ExpectAllOk(workers, 0, kJoinMs);
  auto intruder = workers[2]->WaitResult(2, kStepMs);
  ASSERT_TRUE(intruder.has_value());
  EXPECT_EQ(intruder->Field("code"), "INVALID_ARGUMENT") << Describe(intruder);
  EXPECT_THAT(intruder->message, HasSubstr("process 2 called barrier 'pair#0' but is not one of its participants"))
      << Describe(intruder);
  auto waiter = workers[0]->WaitResult(1, kStepMs);
  ASSERT_TRUE(waiter.has_value()) << "p0 still waiting";
  EXPECT_EQ(waiter->Field("code"), "INVALID_ARGUMENT") << Describe(waiter);
  EXPECT_THAT(waiter->message, HasSubstr("process 2 called barrier 'pair#0' but is not one of its participants"))
      << Describe(waiter);
  EXPECT_LE(MsBetween(intruder->at, waiter->at), 1000) << Describe(waiter);
}

// §6.10.10: the first arrival's timeout fixes the deadline: a later arrival
// with a much longer timeout still times out when the first one does.
TEST(ClusterBarrier, FirstArrivalTimeoutFixesTheDeadline) {
  constexpr int64_t kFirstMs = 1500;
  Job job = NewJob(3);
  auto workers = StartAll(job, [](int id) {
    if (id == 0) return Steps{"init", "barrier:d:" + std::to_string(kFirstMs)};
    if (id == 1) return Steps{"init", "sleep:500", "barrier:d:20000"};
    return Steps{"init", "sleep:5000"};
  });
  ExpectAllOk(workers, 0, kJoinMs);
  auto first = workers[0]->WaitResult(1, kStepMs);
  auto later = workers[1]->WaitResult(2, kStepMs);
  ASSERT_TRUE(first.has_value());
  ASSERT_TRUE(later.has_value()) << "the later arrival kept its own 20 s timeout";
  for (const auto& r : {first, later}) {
    EXPECT_EQ(r->Field("code"), "DEADLINE_EXCEEDED") << Describe(r);
    EXPECT_EQ(r->IntField("reason"), kBarrierFailed) << Describe(r);
    EXPECT_EQ(r->Field("missing"), "2") << Describe(r);
    EXPECT_EQ(r->Field("arrived"), "0,1") << Describe(r);
  }
  EXPECT_GE(first->IntField("ms"), kFirstMs - 100) << Describe(first);
  EXPECT_LE(later->IntField("ms"), kFirstMs) << Describe(later);
  EXPECT_LE(std::abs(MsBetween(first->at, later->at)), 500) << Describe(later);
}

// §6.10.10: callers that disagree on the participants fail the barrier.
TEST(ClusterBarrier, MismatchedParticipantsAreInvalidArgument) {
  Job job = NewJob(3);
  auto p0 = job.Start(0, {"init", "barrier:m:5000:0,1"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "sleep:300", "barrier:m:5000:0,1,2"});
  auto p2 = job.Start(2, {"init", "sleep:3000"});
  auto second = p1->WaitResult(2, kJoinMs);
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->Field("code"), "INVALID_ARGUMENT") << Describe(second);
  auto first = p0->WaitResult(1, kStepMs);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->Field("code"), "INVALID_ARGUMENT") << Describe(first);
}

// §6.10.6-ish: a reported error fails the job for the others with the source and message.
TEST(ClusterFailure, ReportedErrorFailsJobWithSourceAndMessage) {
  Job job = NewJob(2);
  auto p0 = job.Start(0, {"init", "barrier:b:15000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "report:disk-full-on-p1"});
  auto barrier = p0->WaitResult(1, kJoinMs);
  ASSERT_TRUE(barrier.has_value());
  EXPECT_EQ(barrier->Field("code"), "ABORTED") << Describe(barrier);
  EXPECT_EQ(barrier->IntField("reason"), kJobFailed) << Describe(barrier);
  EXPECT_EQ(barrier->IntField("source"), 1) << Describe(barrier);
  EXPECT_THAT(barrier->message, HasSubstr("disk-full-on-p1")) << Describe(barrier);
}

// ---- 11. KV across processes ---------------------------------------------------------------

// §6.10.11: a blocking get in one process wakes on a set in another.
TEST(ClusterKv, BlockingGetWakesOnSetFromAnotherProcess) {
  Job job = NewJob(2);
  auto p0 = job.Start(0, {"init", "sleep:400", "set:ready:hello", "barrier:end:10000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "get:ready:10000", "barrier:end:10000"});
  auto get = p1->WaitResult(1, kJoinMs);
  ASSERT_TRUE(get && get->ok) << Describe(get);
  EXPECT_EQ(get->Field("value"), "hello");
}

// §6.10.11: try-get, get timeout, insert-once, overwrite, prefix boundaries, recursive delete.
TEST(ClusterKv, SingleProcessSemanticsOverTheWire) {
  Job job = NewJob(2);
  auto p0 = job.Start(0, {"init", "tryget:nope", "get:nope:300", "set:a/b:1", "set:a/bc:2", "set:a/b/c:3",
                          "list:a/b", "set:a/bc:x", "set:a/bc:x:over", "tryget:a/bc", "del:a/b:rec", "list:a",
                          "barrier:end:10000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "barrier:end:10000"});
  auto expect = [&](int index, bool ok, const std::string& key, const std::string& value) {
    auto r = p0->WaitResult(index, kJoinMs);
    ASSERT_TRUE(r.has_value()) << "step " << index;
    EXPECT_EQ(r->ok, ok) << "step " << index << ": " << Describe(r);
    EXPECT_EQ(r->Field(key), value) << "step " << index << ": " << Describe(r);
  };
  expect(1, false, "code", "NOT_FOUND");
  expect(2, false, "code", "DEADLINE_EXCEEDED");
  expect(6, true, "keys", "a/b/c");
  expect(7, false, "code", "ALREADY_EXISTS");
  expect(8, true, "code", "");
  expect(9, true, "value", "x");
  expect(11, true, "keys", "a/bc");
}

// §6.10.11: N processes x M increments sum exactly.
TEST(ClusterKv, ConcurrentIncrementsSumExactly) {
  constexpr int kProcesses = 4;
  constexpr int kTimes = 50;
  Job job = NewJob(kProcesses);
  auto workers = StartAll(job, [](int) {
    return Steps{"init", "barrier:go:10000", "inc:counter:1:" + std::to_string(kTimes), "barrier:done:10000",
                 "tryget:counter"};
  });
  ExpectAllOk(workers, 0, kJoinMs);
  int64_t largest = 0;
  for (auto& w : workers) {
    auto inc = w->WaitResult(2, kStepMs);
    ASSERT_TRUE(inc && inc->ok) << Describe(inc);
    largest = std::max(largest, inc->IntField("last"));
    auto total = w->WaitResult(4, kStepMs);
    ASSERT_TRUE(total && total->ok) << Describe(total);
    EXPECT_EQ(total->Field("value"), std::to_string(kProcesses * kTimes));
  }
  EXPECT_EQ(largest, kProcesses * kTimes);
}

// §6.10.11: a compare-and-swap race elects exactly one winner, seen by all.
TEST(ClusterKv, CompareAndSwapRaceElectsExactlyOneWinner) {
  constexpr int kProcesses = 4;
  Job job = NewJob(kProcesses);
  auto workers = StartAll(job, [](int id) {
    return Steps{"init", "barrier:go:10000", "cas:leader:-:p" + std::to_string(id), "barrier:done:10000",
                 "tryget:leader"};
  });
  ExpectAllOk(workers, 0, kJoinMs);
  std::vector<int> winners;
  std::set<std::string> seen;
  for (int id = 0; id < kProcesses; ++id) {
    auto cas = workers[id]->WaitResult(2, kStepMs);
    ASSERT_TRUE(cas && cas->ok) << Describe(cas);
    if (cas->Field("swapped") == "1") winners.push_back(id);
    auto leader = workers[id]->WaitResult(4, kStepMs);
    ASSERT_TRUE(leader && leader->ok) << Describe(leader);
    seen.insert(leader->Field("value"));
  }
  ASSERT_EQ(winners.size(), 1u);
  EXPECT_EQ(seen, std::set<std::string>{"p" + std::to_string(winners[0])});
}

// §6.10.11: the coordinator enforces its value and store limits over the
// wire (the clients keep the 64 MiB default, so only the server can refuse).
TEST(ClusterKv, CoordinatorValueAndStoreLimitsAreResourceExhausted) {
  // 12 bytes a value; 30 bytes of keys plus values in the store.
  auto coordinator = Coordinator::Start(1, "job-kvlimit", [](tessera_cluster_options* o) {
    tessera_cluster_options_set_kv_limits(o, 12, 30, nullptr);
  });
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(1, "job-kvlimit");
  auto p0 = job.Start(0, {"connect", "set:big:0123456789abc", "set:a:0123456789ab", "set:b:0123456789",
                          "set:c:012345", "tryget:big", "tryget:c"});
  auto expect = [&](int index, const std::string& code, const std::string& message) {
    auto r = p0->WaitResult(index, index == 0 ? kJoinMs : kStepMs);
    ASSERT_TRUE(r.has_value()) << "step " << index;
    EXPECT_EQ(r->Field("code"), code) << "step " << index << ": " << Describe(r);
    EXPECT_THAT(r->message, HasSubstr(message)) << "step " << index << ": " << Describe(r);
  };
  expect(0, "", "");
  expect(1, "RESOURCE_EXHAUSTED", "value of key 'big' has 13 bytes; the limit is 12");
  expect(2, "", "");  // store: 1 + 12 = 13 bytes
  expect(3, "", "");  // 13 + 1 + 10 = 24 bytes
  expect(4, "RESOURCE_EXHAUSTED", "would grow the key-value store to 31 bytes; the limit is 30");
  expect(5, "NOT_FOUND", "");
  expect(6, "NOT_FOUND", "");
}

// §6.10.11: a value over the limit configured on every process (so on the
// coordinator process 0 hosts too) is refused and not stored.
TEST(ClusterKv, ValueOverConfiguredLimitIsResourceExhausted) {
  Job job = NewJob(2);
  job.options = {"kv_limits=8,1048576"};
  auto p0 = job.Start(0, {"init", "set:fits:01234567", "set:big:012345678", "tryget:big", "barrier:end:10000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "barrier:end:10000"});
  auto fits = p0->WaitResult(1, kJoinMs);
  ASSERT_TRUE(fits && fits->ok) << Describe(fits) << p0->Stderr();
  auto big = p0->WaitResult(2, kStepMs);
  ASSERT_TRUE(big.has_value());
  EXPECT_EQ(big->Field("code"), "RESOURCE_EXHAUSTED") << Describe(big);
  EXPECT_THAT(big->message, HasSubstr("value of key 'big' has 9 bytes; the limit is 8")) << Describe(big);
  auto absent = p0->WaitResult(3, kStepMs);
  ASSERT_TRUE(absent.has_value());
  EXPECT_EQ(absent->Field("code"), "NOT_FOUND") << Describe(absent);
}

// §6.10.11: a blocking get pending in one process is released with the job
// error when another process reports an error.
TEST(ClusterKv, PendingGetIsReleasedWithJobErrorWhenAnotherProcessFails) {
  Job job = NewJob(2);
  auto p0 = job.Start(0, {"init", "get:never-set:20000"});
  WaitListening(job.port, 10000);
  auto p1 = job.Start(1, {"init", "sleep:500", "report:p1-gave-up"});
  auto report = p1->WaitResult(2, kJoinMs);
  ASSERT_TRUE(report && report->ok) << Describe(report);
  auto get = p0->WaitResult(1, kStepMs);
  ASSERT_TRUE(get.has_value()) << "the get is still pending";
  EXPECT_EQ(get->Field("code"), "ABORTED") << Describe(get);
  EXPECT_EQ(get->IntField("reason"), kJobFailed) << Describe(get);
  EXPECT_EQ(get->IntField("source"), 1) << Describe(get);
  EXPECT_THAT(get->message, HasSubstr("p1-gave-up")) << Describe(get);
  EXPECT_LE(MsBetween(report->at, get->at), 2000) << Describe(get);
}

// §6.10.11/13: a blocking get pending while the job shuts down without it (the
// shutdown barrier fails) is released with that error, not its own timeout.
TEST(ClusterKv, PendingGetIsReleasedWhenTheJobShutsDown) {
  constexpr int64_t kShutdownMs = 1500;
  auto coordinator = Coordinator::Start(2, "job-kvshut", [](tessera_cluster_options* o) {
    tessera_cluster_options_set_shutdown_timeout_ms(o, kShutdownMs, nullptr);
  });
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(2, "job-kvshut");
  job.options = {"shutdown_timeout=" + std::to_string(kShutdownMs)};
  auto p0 = job.Start(0, {"connect", "shutdown"});
  auto p1 = job.Start(1, {"connect", "get:never-set:20000"});
  auto shutdown = p0->WaitResult(1, kJoinMs);
  ASSERT_TRUE(shutdown.has_value());
  EXPECT_FALSE(shutdown->ok) << Describe(shutdown);
  auto get = p1->WaitResult(1, kStepMs);
  ASSERT_TRUE(get.has_value()) << "the get is still pending";
  EXPECT_FALSE(get->ok) << Describe(get);
  // The job error is the shutdown barrier's timeout, long before the get's
  // own 20 s; whichever way it arrives, a job failure is ABORTED (client.h).
  EXPECT_EQ(get->Field("code"), "ABORTED") << Describe(get);
  EXPECT_EQ(get->IntField("reason"), kJobFailed) << Describe(get);
  EXPECT_THAT(get->message, HasSubstr("the shutdown barrier timed out")) << Describe(get);
  EXPECT_LE(get->IntField("ms"), kShutdownMs + 3000) << Describe(get);
  EXPECT_LE(MsBetween(shutdown->at, get->at), 2000) << Describe(get);
}

// ---- 12. device list ------------------------------------------------------------------------

// The device lines ("ids" and "fp") of a 3-process job with 2 CPU devices each.
std::vector<StepResult> RunDeviceJob() {
  Job job = NewJob(3);
  job.env = {"TESSERA_CPU_DEVICE_COUNT=2"};
  auto workers = StartAll(job, [](int) { return Steps{"init", "devices", "barrier:end:10000"}; });
  std::vector<StepResult> lines;
  for (auto& w : workers) {
    auto devices = w->WaitResult(1, kJoinMs);
    EXPECT_TRUE(devices && devices->ok) << Describe(devices) << w->Stderr();
    if (devices) lines.push_back(*devices);
  }
  return lines;
}

// §6.10.12: global ids in process order then local ordinal, the same list and
// fingerprint on every process and across two runs.
TEST(ClusterDevices, GlobalDeviceListIsDeterministicEverywhere) {
  std::vector<StepResult> first = RunDeviceJob();
  std::vector<StepResult> second = RunDeviceJob();
  ASSERT_EQ(first.size(), 3u);
  ASSERT_EQ(second.size(), 3u);
  for (const auto& run : {first, second}) {
    for (const StepResult& r : run) {
      EXPECT_EQ(r.Field("count"), "6");
      EXPECT_EQ(r.Field("ids"), "0:0:0,1:0:1,2:1:0,3:1:1,4:2:0,5:2:1");
      EXPECT_EQ(r.Field("fp"), first[0].Field("fp"));
    }
  }
  EXPECT_NE(first[0].Field("fp"), "0");
}

// A job the coordinator rejects at WaitForJob fails for every process with
// the one job-failure error, ABORTED ("the job failed: ..."), whether its own
// WaitForJob call or the job error event carries the verdict (client.h).

// Runs a 2-process job whose processes have `env_of(id)` and `extra_of(id)`;
// returns each process's init result.
std::vector<std::optional<StepResult>> RunRejectedDeviceJob(
    const std::function<std::vector<std::string>(int)>& env_of,
    const std::function<std::vector<std::string>(int)>& extra_of = [](int) { return std::vector<std::string>{}; }) {
  Job job = NewJob(2);
  std::vector<WorkerPtr> workers;
  for (int id = 0; id < 2; ++id) {
    workers.push_back(job.Start(id, {"init"}, extra_of(id), env_of(id)));
    if (id == 0) WaitListening(job.port, 10000);
  }
  std::vector<std::optional<StepResult>> results;
  for (auto& w : workers) results.push_back(w->WaitResult(0, kJoinMs));
  return results;
}

// §6.10.12: two processes on one host claiming the same physical device: the
// job is rejected (it fails for every process, fate sharing), naming the device.
TEST(ClusterDevices, SamePhysicalDeviceOnOneHostIsRejected) {
  auto results = RunRejectedDeviceJob([](int) { return std::vector<std::string>{"TESSERA_DEVICES=gpu:Test GPU:GPU-same"}; });
  for (const auto& r : results) {
    ASSERT_TRUE(r.has_value()) << "init hung";
    EXPECT_FALSE(r->ok) << Describe(r);
    EXPECT_EQ(r->Field("code"), "ABORTED") << Describe(r);
    EXPECT_EQ(r->IntField("reason"), kJobFailed) << Describe(r);
    EXPECT_THAT(r->message, HasSubstr("processes 0 and 1 both claim device 'GPU-same'")) << Describe(r);
  }
}

// §6.10.12: processes that disagree on the platform (gpu vs cpu) are rejected.
TEST(ClusterDevices, PlatformMismatchIsRejected) {
  auto results = RunRejectedDeviceJob([](int id) {
    return std::vector<std::string>{id == 0 ? "TESSERA_DEVICES=gpu:Test GPU:GPU-p0" : "TESSERA_DEVICES="};
  });
  for (const auto& r : results) {
    ASSERT_TRUE(r.has_value()) << "init hung";
    EXPECT_FALSE(r->ok) << Describe(r);
    EXPECT_EQ(r->Field("code"), "ABORTED") << Describe(r);
    EXPECT_EQ(r->IntField("reason"), kJobFailed) << Describe(r);
    EXPECT_THAT(r->message, HasSubstr("processes disagree on the device platform")) << Describe(r);
  }
}

// §6.10.12: a partition index set on some processes only is rejected.
TEST(ClusterDevices, PartitionIndexOnSomeProcessesOnlyIsRejected) {
  auto results = RunRejectedDeviceJob([](int) { return std::vector<std::string>{}; },
                                      [](int id) { return id == 0 ? std::vector<std::string>{"partition=0"}
                                                                  : std::vector<std::string>{}; });
  for (const auto& r : results) {
    ASSERT_TRUE(r.has_value()) << "init hung";
    EXPECT_FALSE(r->ok) << Describe(r);
    EXPECT_EQ(r->Field("code"), "ABORTED") << Describe(r);
    EXPECT_EQ(r->IntField("reason"), kJobFailed) << Describe(r);
    EXPECT_THAT(r->message, HasSubstr("partition index is set for processes 0 but not for 1")) << Describe(r);
  }
}

// ---- 13. shutdown ---------------------------------------------------------------------------

// §6.10.13: every process shutting down is OK and every process exits 0.
TEST(ClusterShutdown, AllProcessesShutDownCleanly) {
  Job job = NewJob(3);
  auto workers = StartAll(job, [](int) { return Steps{"init", "shutdown"}; });
  ExpectAllOk(workers, 0, kJoinMs);
  ExpectAllOk(workers, 1);
  for (auto& w : workers) EXPECT_EQ(w->WaitExit(10000), std::optional<int>(0)) << w->label();
}

// §6.10.13: with a straggler, the others' shutdown fails after the shutdown
// timeout, and the coordinator keeps running until then.
TEST(ClusterShutdown, StragglerFailsOthersAfterShutdownTimeout) {
  constexpr int64_t kShutdownMs = 1500;
  auto coordinator = Coordinator::Start(3, "job-shut", [](tessera_cluster_options* o) {
    tessera_cluster_options_set_shutdown_timeout_ms(o, kShutdownMs, nullptr);
  });
  ASSERT_NE(coordinator, nullptr);
  Job job = coordinator->MakeJob(3, "job-shut");
  job.options = {"shutdown_timeout=" + std::to_string(kShutdownMs)};
  auto p0 = job.Start(0, {"connect", "shutdown"});
  auto p1 = job.Start(1, {"connect", "shutdown"});
  auto p2 = job.Start(2, {"connect", "sleep:8000"});
  ASSERT_TRUE(p0->WaitBegin(1, kJoinMs));
  ASSERT_TRUE(p1->WaitBegin(1, kJoinMs));
  std::this_thread::sleep_for(std::chrono::milliseconds(kShutdownMs / 2));
  tessera_error* error = nullptr;
  EXPECT_FALSE(tessera_coordinator_wait(coordinator->get(), 0, &error)) << "coordinator ended before the timeout";
  tessera_error_destroy(error);
  // The timeout runs from the first shutdown call to arrive: that caller
  // waits all of it; the other waits less by however much later its call
  // arrived, which the machine's load decides (under ThreadSanitizer, more
  // than 100 ms).
  int64_t longest_ms = 0;
  for (Worker* w : {p0.get(), p1.get()}) {
    auto shutdown = w->WaitResult(1, kShutdownMs + 5000);
    ASSERT_TRUE(shutdown.has_value()) << w->label();
    EXPECT_FALSE(shutdown->ok) << Describe(shutdown);
    longest_ms = std::max(longest_ms, shutdown->IntField("ms"));
  }
  EXPECT_GE(longest_ms, kShutdownMs - 100);
  error = nullptr;
  EXPECT_TRUE(tessera_coordinator_wait(coordinator->get(), 5000, &error)) << ErrorText(error);
  tessera_error_destroy(error);
}

// §6.10.13: destroying a client without shutdown is seen as the process's
// loss (its event stream closes; cluster_liveness_test.cc times it).
TEST(ClusterShutdown, DestroyWithoutShutdownIsDetectedAsProcessLoss) {
  Job job = NewJob(3);
  auto workers = StartAll(job, [](int id) {
    return id == 2 ? Steps{"init", "sleep:300", "destroy", "sleep:6000"} : Steps{"init", "barrier:b:30000"};
  });
  ExpectAllOk(workers, 0, kJoinMs);
  auto destroyed = workers[2]->WaitResult(2, kStepMs);
  ASSERT_TRUE(destroyed && destroyed->ok) << Describe(destroyed);
  for (int id : {0, 1}) {
    auto barrier = workers[id]->WaitResult(1, kDetectMs + 2000);
    ASSERT_TRUE(barrier.has_value()) << "p" << id << " still waiting";
    EXPECT_EQ(barrier->Field("code"), "ABORTED") << Describe(barrier);
    EXPECT_EQ(barrier->IntField("reason"), kJobFailed) << Describe(barrier);
    EXPECT_EQ(barrier->IntField("source"), 2) << Describe(barrier);
    EXPECT_LE(MsBetween(destroyed->at, barrier->at), kDetectMs) << Describe(barrier);
  }
  EXPECT_EQ(workers[2]->WaitExit(10000), std::optional<int>(0));
}

// Removes the program's temporary directory (worker stderr files, certificates).
class TempDirCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    std::string command = "rm -rf '" + MakeTempDir() + "'";
    if (std::system(command.c_str()) != 0) std::fprintf(stderr, "could not remove %s\n", MakeTempDir().c_str());
  }
};
const ::testing::Environment* const kCleanup = ::testing::AddGlobalTestEnvironment(new TempDirCleanup);

}  // namespace
}  // namespace tessera::cluster_test
