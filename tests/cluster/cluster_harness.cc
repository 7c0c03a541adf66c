// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "tests/cluster/cluster_harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gtest/gtest.h"

extern char** environ;

namespace tessera::cluster_test {
namespace {

// Variables of the test's own environment that would change a worker's
// configuration behind the test's back.
bool Inherited(const std::string& entry) {
  static const char* const kDropped[] = {
      "TESSERA_",  "http_proxy",    "https_proxy",   "HTTP_PROXY", "HTTPS_PROXY", "grpc_proxy", "no_grpc_proxy",
      "all_proxy", "ALL_PROXY",     "no_proxy",      "NO_PROXY",   "OMPI_",       "PMI_",       "SLURM_",
      "RANK=",     "WORLD_SIZE=",   "LOCAL_RANK=",   "MASTER_",    "KERAS_",      "DTENSOR_",   "JOB_COMPLETION_INDEX",
  };
  for (const char* prefix : kDropped) {
    if (entry.rfind(prefix, 0) == 0) return false;
  }
  return true;
}

StepResult ParseResult(const std::string& line) {
  StepResult result;
  std::istringstream in(line);
  std::string tag, status;
  in >> tag >> result.index >> result.step >> status;
  result.ok = status == "ok";
  std::string token;
  while (in >> token) {
    if (token.rfind("msg=", 0) == 0) {
      std::string rest;
      std::getline(in, rest);
      result.message = token.substr(4) + rest;
      break;
    }
    size_t eq = token.find('=');
    if (eq != std::string::npos) result.fields[token.substr(0, eq)] = token.substr(eq + 1);
  }
  return result;
}

}  // namespace

int64_t MsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

std::string StepResult::Field(const std::string& key) const {
  auto it = fields.find(key);
  return it == fields.end() ? "" : it->second;
}

std::string Describe(const std::optional<StepResult>& result) {
  if (!result) return "(no result)";
  std::string text = result->step + (result->ok ? " ok" : " err");
  for (const auto& [key, value] : result->fields) text += " " + key + "=" + value;
  return text + " msg=" + result->message;
}

int64_t StepResult::IntField(const std::string& key, int64_t fallback) const {
  auto it = fields.find(key);
  if (it == fields.end() || it->second.empty()) return fallback;
  return std::strtoll(it->second.c_str(), nullptr, 10);
}

Worker::Worker(std::string label, const std::vector<std::string>& args, const std::vector<std::string>& env)
    : label_(std::move(label)) {
  static int counter = 0;
  stderr_path_ = MakeTempDir() + "/stderr-" + std::to_string(++counter);
  std::string program = WorkerPath();
  std::vector<std::string> argv_storage = {program};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<std::string> env_storage;
  for (char** e = environ; *e != nullptr; ++e) {
    if (Inherited(*e)) env_storage.emplace_back(*e);
  }
  env_storage.insert(env_storage.end(), env.begin(), env.end());
  std::vector<char*> argv, envp;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, stderr_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int rc = posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw std::runtime_error("posix_spawn " + program + ": " + std::strerror(rc));
  }
  reader_ = std::thread([this, fd = fds[0]] { ReadLoop(fd); });
}

Worker::~Worker() {
  if (!reaped_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    kill(pid_, SIGCONT);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  if (reader_.joinable()) reader_.join();
  unlink(stderr_path_.c_str());
}

void Worker::ReadLoop(int fd) {
  std::string pending;
  char buffer[4096];
  for (;;) {
    ssize_t n = read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buffer, static_cast<size_t>(n));
    size_t newline;
    while ((newline = pending.find('\n')) != std::string::npos) {
      std::string line = pending.substr(0, newline);
      pending.erase(0, newline + 1);
      std::lock_guard<std::mutex> lock(mu_);
      lines_.push_back(line);
      if (line.rfind("R ", 0) == 0) {
        StepResult result = ParseResult(line);
        result.at = Clock::now();
        results_[result.index] = result;
      } else if (line.rfind("B ", 0) == 0) {
        begun_[std::atoi(line.c_str() + 2)] = true;
      }
      cv_.notify_all();
    }
  }
  close(fd);
  std::lock_guard<std::mutex> lock(mu_);
  eof_ = true;
  cv_.notify_all();
}

bool Worker::WaitBegin(int index, int64_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return begun_.count(index) > 0 || eof_; }) &&
         begun_.count(index) > 0;
}

std::optional<StepResult> Worker::WaitResult(int index, int64_t timeout_ms) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] { return results_.count(index) > 0 || eof_; });
  auto it = results_.find(index);
  if (it == results_.end()) return std::nullopt;
  return it->second;
}

std::optional<int> Worker::WaitExit(int64_t timeout_ms) {
  if (reaped_ || pid_ <= 0) return exit_code_;
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  // Bounded: polls every 10 ms until the deadline.
  for (;;) {
    int status = 0;
    pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      reaped_ = true;
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return exit_code_;
    }
    if (Clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid_, SIGKILL);
  kill(pid_, SIGCONT);
  int status = 0;
  waitpid(pid_, &status, 0);
  reaped_ = true;
  exit_code_ = 128 + SIGKILL;
  return std::nullopt;
}

void Worker::Signal(int signal) {
  if (!reaped_ && pid_ > 0) kill(pid_, signal);
}

std::vector<std::string> Worker::Lines() {
  std::lock_guard<std::mutex> lock(mu_);
  return lines_;
}

std::string Worker::Stdout() {
  std::string all;
  for (const std::string& line : Lines()) all += line + "\n";
  return all;
}

std::string Worker::Stderr() {
  std::ifstream in(stderr_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    throw std::runtime_error("FreePort: cannot bind 127.0.0.1:0");
  }
  int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

std::string MakeTempDir() {
  static std::string dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base != nullptr ? base : "/tmp") + "/tessera-cluster-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    return pattern;
  }();
  return dir;
}

std::string WorkerPath() {
  const char* path = std::getenv("TESSERA_CLUSTER_WORKER");
  if (path == nullptr) throw std::runtime_error("TESSERA_CLUSTER_WORKER is not set (run through meson test)");
  return path;
}

bool WaitListening(int port, int64_t timeout_ms) {
  Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (Clock::now() < deadline) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    bool up = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    close(fd);
    if (up) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

void ExpectAllOk(std::vector<WorkerPtr>& workers, int index, int64_t timeout_ms) {
  for (auto& worker : workers) {
    auto result = worker->WaitResult(index, timeout_ms);
    EXPECT_TRUE(result && result->ok) << worker->label() << " step " << index << ": " << Describe(result)
                                      << "\nstderr:\n" << worker->Stderr();
  }
}

bool AllBegan(std::vector<WorkerPtr>& workers, int index) {
  for (auto& worker : workers) {
    if (!worker->WaitBegin(index, kJoinMs)) return false;
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  return true;
}

}  // namespace tessera::cluster_test
