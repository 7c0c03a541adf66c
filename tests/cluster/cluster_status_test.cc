// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// "Who is stuck where" (issue 14): an operator asks a running job's
// coordinator, through tessera_job_status_query and `tessera status`, for
// each process's state, last heartbeat, and the barrier or key it waits on.

#include <stdio.h>
#include <sys/wait.h>

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tessera/cluster.h"
#include "tessera/coordinator.h"
#include "tessera/experimental/coordinator_service.h"
#include "tests/cluster/cluster_harness.h"

namespace tessera::cluster_test {
namespace {

constexpr char kJobId[] = "job-status";
constexpr char kToken[] = "status-test-token";

struct CoordinatorDeleter {
  void operator()(tessera_coordinator* c) const { tessera_coordinator_destroy(c); }
};
struct StatusDeleter {
  void operator()(tessera_job_status* s) const { tessera_job_status_destroy(s); }
};
struct OptionsDeleter {
  void operator()(tessera_cluster_options* o) const { tessera_cluster_options_destroy(o); }
};
using StatusPtr = std::unique_ptr<tessera_job_status, StatusDeleter>;

std::string Address(int port) { return "127.0.0.1:" + std::to_string(port); }

// A job of two processes with the job token: process 0 waits at barrier
// "b1", process 1 for key "ready", both until the test ends.
class StuckJob {
 public:
  StuckJob() {
    std::unique_ptr<tessera_cluster_options, OptionsDeleter> options(tessera_cluster_options_create());
    tessera_cluster_options_set_detection(options.get(), "none", nullptr);
    tessera_cluster_options_set_bind_address(options.get(), "127.0.0.1:0", nullptr);
    tessera_cluster_options_set_num_processes(options.get(), 2, nullptr);
    tessera_cluster_options_set_job_id(options.get(), kJobId, nullptr);
    tessera_cluster_options_set_job_token(options.get(), kToken, nullptr);
    coordinator_.reset(tessera_coordinator_start(options.get(), nullptr));
    if (coordinator_ == nullptr) return;
    port_ = tessera_coordinator_port(coordinator_.get(), nullptr);
    const std::vector<std::string> common = {"addr=" + Address(port_), "n=2", std::string("job=") + kJobId,
                                             std::string("token=") + kToken, "hb=100,10000", "alarm=45"};
    const std::vector<std::string> steps[] = {{"--", "connect", "barrier:b1:40000"},
                                              {"--", "connect", "get:ready:40000"}};
    for (int id = 0; id < 2; ++id) {
      std::vector<std::string> args = common;
      args.push_back("id=" + std::to_string(id));
      args.insert(args.end(), steps[id].begin(), steps[id].end());
      workers_.push_back(std::make_unique<Worker>("p" + std::to_string(id), args));
    }
  }

  // Both processes parked at the coordinator.
  bool Stuck() { return coordinator_ != nullptr && AllBegan(workers_, 1); }
  int port() const { return port_; }

 private:
  std::unique_ptr<tessera_coordinator, CoordinatorDeleter> coordinator_;
  int port_ = 0;
  std::vector<WorkerPtr> workers_;
};

StatusPtr Query(int port, const char* token, tessera_error** error) {
  std::unique_ptr<tessera_cluster_options, OptionsDeleter> options(tessera_cluster_options_create());
  tessera_cluster_options_set_coordinator_address(options.get(), Address(port).c_str(), nullptr);
  tessera_cluster_options_set_job_id(options.get(), kJobId, nullptr);
  if (token != nullptr) tessera_cluster_options_set_job_token(options.get(), token, nullptr);
  return StatusPtr(tessera_job_status_query(options.get(), 10000, error));
}

TEST(ClusterStatus, QueryShowsEachProcessRunningAndWhatItWaitsOn) {
  StuckJob job;
  ASSERT_TRUE(job.Stuck());
  tessera_error* error = nullptr;
  StatusPtr status = Query(job.port(), kToken, &error);
  ASSERT_NE(status, nullptr) << tessera_error_message(error);
  EXPECT_STREQ(tessera_job_status_job_state(status.get(), nullptr), "RUNNING");
  ASSERT_EQ(tessera_job_status_num_processes(status.get(), nullptr), 2u);
  EXPECT_STREQ(tessera_job_status_process_state(status.get(), 0, nullptr), "running");
  EXPECT_STREQ(tessera_job_status_process_state(status.get(), 1, nullptr), "running");
  EXPECT_STREQ(tessera_job_status_process_waiting_on(status.get(), 0, nullptr), "barrier b1#0");
  EXPECT_STREQ(tessera_job_status_process_waiting_on(status.get(), 1, nullptr), "key ready");
}

// Heartbeats every 100 ms: the last one is recent.
TEST(ClusterStatus, QueryShowsARecentHeartbeat) {
  StuckJob job;
  ASSERT_TRUE(job.Stuck());
  StatusPtr status = Query(job.port(), kToken, nullptr);
  ASSERT_NE(status, nullptr);
  const int64_t ms = tessera_job_status_process_ms_since_heartbeat(status.get(), 0, nullptr);
  EXPECT_GE(ms, 0);
  EXPECT_LT(ms, 5000);
}

TEST(ClusterStatus, QueryWithAWrongTokenIsUnauthenticated) {
  StuckJob job;
  ASSERT_TRUE(job.Stuck());
  tessera_error* error = nullptr;
  EXPECT_EQ(Query(job.port(), "not-the-token", &error), nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(tessera_error_code(error), TESSERA_UNAUTHENTICATED) << tessera_error_message(error);
  tessera_error_destroy(error);
}

TEST(ClusterStatus, QueryOfAnAddressNobodyServesIsUnavailable) {
  tessera_error* error = nullptr;
  EXPECT_EQ(Query(FreePort(), kToken, &error), nullptr);
  ASSERT_NE(error, nullptr);
  EXPECT_EQ(tessera_error_code(error), TESSERA_UNAVAILABLE) << tessera_error_message(error);
  tessera_error_destroy(error);
}

// The command an operator runs facing a hang: the culprits in one table.
TEST(ClusterStatus, StatusCommandPrintsOneLinePerProcess) {
  StuckJob job;
  ASSERT_TRUE(job.Stuck());
  const std::string command = std::string("TESSERA_JOB_TOKEN=") + kToken + " '" + std::getenv("TESSERA_CLI") +
                              "' status --coordinator " + Address(job.port()) + " --job-id " + kJobId;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = out.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(out.substr(start, end - start));
  }
  ASSERT_EQ(lines.size(), 4u) << out;
  EXPECT_EQ(lines[0], "job 'job-status': RUNNING");
  EXPECT_EQ(lines[1], "process  state            last heartbeat   waiting on");
  EXPECT_EQ(lines[2].substr(0, 26), "0        running          ") << lines[2];
  EXPECT_EQ(lines[2].substr(43), "barrier b1#0") << lines[2];
  EXPECT_EQ(lines[3].substr(0, 26), "1        running          ") << lines[3];
  EXPECT_EQ(lines[3].substr(43), "key ready") << lines[3];
}

}  // namespace
}  // namespace tessera::cluster_test
