// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The multi-process harness of the cluster tests: starts cluster_worker
// processes (worker.c), follows the lines they print, times them, and always
// reaps them (a Worker that goes out of scope is SIGKILLed and waited for);
// and the waits and checks every scenario shares.
#ifndef TESSERA_TESTS_CLUSTER_CLUSTER_HARNESS_H_
#define TESSERA_TESTS_CLUSTER_CLUSTER_HARNESS_H_

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tessera::cluster_test {

using Clock = std::chrono::steady_clock;

// Milliseconds from `from` to `to`.
int64_t MsBetween(Clock::time_point from, Clock::time_point to);

// One "R <i> <step> ok|err key=value ... msg=..." line of a worker.
struct StepResult {
  int index = -1;
  std::string step;
  bool ok = false;
  std::map<std::string, std::string> fields;  // ms, code, reason, source, missing, ...
  std::string message;                         // msg= (the rest of the line)
  Clock::time_point at;                        // when the driver read it

  std::string Field(const std::string& key) const;
  int64_t IntField(const std::string& key, int64_t fallback = -999) const;
};

// "step ok|err key=value ... msg=..." for failure messages; "(no result)".
std::string Describe(const std::optional<StepResult>& result);

// A worker process. Its stdout is read line by line on a thread; its stderr
// goes to a file (read back with Stderr()).
class Worker {
 public:
  // `args`: worker options then "--" then steps; `env`: extra "NAME=VALUE"
  // entries (TESSERA_*, *_proxy and launcher variables of the test's own
  // environment are removed first).
  Worker(std::string label, const std::vector<std::string>& args, const std::vector<std::string>& env = {});
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& label() const { return label_; }

  // Waits until step `index` has begun ("B <index>"); false after `timeout_ms`.
  bool WaitBegin(int index, int64_t timeout_ms);
  // Waits for step `index`'s result; nullopt after `timeout_ms`.
  std::optional<StepResult> WaitResult(int index, int64_t timeout_ms);
  // Waits for the process to end; returns its exit code (128+signal when
  // signalled) or nullopt after `timeout_ms`, when it is SIGKILLed.
  std::optional<int> WaitExit(int64_t timeout_ms);

  void Signal(int signal);
  std::vector<std::string> Lines();
  std::string Stdout();
  std::string Stderr();

 private:
  void ReadLoop(int fd);

  std::string label_;
  pid_t pid_ = -1;
  bool reaped_ = false;
  int exit_code_ = -1;
  std::string stderr_path_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
  std::map<int, StepResult> results_;
  std::map<int, bool> begun_;
  bool eof_ = false;
};

// A TCP port on 127.0.0.1 nothing listens on right now.
int FreePort();

// This test program's temporary directory (one per run; the test program
// removes it when it ends).
std::string MakeTempDir();

// The path of the worker program (TESSERA_CLUSTER_WORKER, set by meson).
std::string WorkerPath();

// ---- what every scenario uses on its workers ----

inline constexpr int64_t kJoinMs = 20000;  // init of a few processes on busy cores
inline constexpr int64_t kStepMs = 15000;  // any single step that should succeed

using WorkerPtr = std::unique_ptr<Worker>;

// Waits (at most `timeout_ms`, polling every 20 ms) until something accepts
// connections on 127.0.0.1:`port`.
bool WaitListening(int port, int64_t timeout_ms);

// Asserts that step `index` of every worker succeeded.
void ExpectAllOk(std::vector<WorkerPtr>& workers, int index, int64_t timeout_ms = kStepMs);

// Waits until every worker has begun step `index`, then a little longer so
// the blocking call is in flight at the coordinator.
bool AllBegan(std::vector<WorkerPtr>& workers, int index);

}  // namespace tessera::cluster_test

#endif  // TESSERA_TESTS_CLUSTER_CLUSTER_HARNESS_H_
