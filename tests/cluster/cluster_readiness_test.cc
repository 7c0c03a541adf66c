// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator as a systemd service (issue 14): readiness, watchdog and
// stopping through $NOTIFY_SOCKET (sd_notify(3)) without libsystemd. The
// test opens the datagram socket systemd would and reads what arrives:
// exact messages, in order.

#include <signal.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/cluster/sd_notify.h"
#include "gtest/gtest.h"
#include "tests/cluster/cluster_harness.h"

namespace tessera::cluster_test {
namespace {

using tessera::cluster::SystemdNotifier;

// A bound AF_UNIX datagram socket standing in for systemd's: at a path in
// the test's temporary directory, or abstract ("@name").
class NotifySocket {
 public:
  explicit NotifySocket(bool abstract) {
    static int count = 0;
    const std::string unique = std::to_string(getpid()) + "-" + std::to_string(++count);
    name_ = abstract ? "@tessera-notify-test-" + unique : MakeTempDir() + "/notify-" + unique;
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, name_.data(), name_.size());
    if (abstract) address.sun_path[0] = '\0';
    const socklen_t length =
        static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + name_.size() + (abstract ? 0 : 1));
    bound_ = fd_ >= 0 && bind(fd_, reinterpret_cast<sockaddr*>(&address), length) == 0;
  }
  ~NotifySocket() {
    if (fd_ >= 0) close(fd_);
    if (name_[0] == '/') unlink(name_.c_str());
  }

  bool bound() const { return bound_; }
  const std::string& name() const { return name_; }

  // The next datagram, or nullopt after `timeout_ms`.
  std::optional<std::string> Receive(int64_t timeout_ms) {
    timeval tv{static_cast<time_t>(timeout_ms / 1000), static_cast<suseconds_t>(timeout_ms % 1000 * 1000)};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    char buffer[4096];
    const ssize_t n = recv(fd_, buffer, sizeof(buffer), 0);
    if (n < 0) return std::nullopt;
    return std::string(buffer, static_cast<size_t>(n));
  }

 private:
  std::string name_;
  int fd_ = -1;
  bool bound_ = false;
};

TEST(ClusterReadiness, NotifySendsTheStateAsOneDatagramToASocketPath) {
  NotifySocket systemd(/*abstract=*/false);
  ASSERT_TRUE(systemd.bound());
  SystemdNotifier notifier(systemd.name(), nullptr, nullptr);
  std::string error;
  ASSERT_TRUE(notifier.Notify("READY=1", &error)) << error;
  EXPECT_EQ(systemd.Receive(5000), "READY=1");
}

TEST(ClusterReadiness, NotifyReachesAnAbstractSocketWrittenWithAnAtSign) {
  NotifySocket systemd(/*abstract=*/true);
  ASSERT_TRUE(systemd.bound());
  SystemdNotifier notifier(systemd.name(), nullptr, nullptr);
  std::string error;
  ASSERT_TRUE(notifier.Notify("STOPPING=1", &error)) << error;
  EXPECT_EQ(systemd.Receive(5000), "STOPPING=1");
}

TEST(ClusterReadiness, NotifyWithoutNotifySocketSendsNothingAndSucceeds) {
  SystemdNotifier notifier("", "1000000", nullptr);
  EXPECT_FALSE(notifier.active());
  EXPECT_TRUE(notifier.Notify("READY=1"));
}

TEST(ClusterReadiness, NotifyToARelativePathFailsNamingTheSocket) {
  SystemdNotifier notifier("run/notify", nullptr, nullptr);
  std::string error;
  EXPECT_FALSE(notifier.Notify("READY=1", &error));
  EXPECT_EQ(error, "NOTIFY_SOCKET 'run/notify': expected an absolute path or an abstract socket name "
                   "starting with '@'");
}

TEST(ClusterReadiness, NotifyToASocketNobodyBoundFailsWithTheSystemError) {
  const std::string path = MakeTempDir() + "/nobody-listens";
  SystemdNotifier notifier(path, nullptr, nullptr);
  std::string error;
  EXPECT_FALSE(notifier.Notify("READY=1", &error));
  EXPECT_EQ(error, "NOTIFY_SOCKET '" + path + "': No such file or directory");
}

TEST(ClusterReadiness, WatchdogPeriodIsHalfOfWatchdogUsec) {
  SystemdNotifier notifier("@x", "3000000", nullptr);
  EXPECT_EQ(notifier.watchdog_period(), std::chrono::microseconds(1500000));
}

TEST(ClusterReadiness, WatchdogPidOfThisProcessKeepsTheWatchdog) {
  SystemdNotifier notifier("@x", "3000000", std::to_string(getpid()).c_str());
  EXPECT_EQ(notifier.watchdog_period(), std::chrono::microseconds(1500000));
}

TEST(ClusterReadiness, WatchdogPidOfAnotherProcessTurnsTheWatchdogOff) {
  SystemdNotifier notifier("@x", "3000000", std::to_string(getpid() + 1).c_str());
  EXPECT_EQ(notifier.watchdog_period(), std::chrono::microseconds(0));
}

TEST(ClusterReadiness, UnparsableWatchdogUsecTurnsTheWatchdogOff) {
  SystemdNotifier notifier("@x", "3s", nullptr);
  EXPECT_EQ(notifier.watchdog_period(), std::chrono::microseconds(0));
}

// `tessera coordinator` with NOTIFY_SOCKET (and WATCHDOG_USEC when not
// empty) set; the pid.
pid_t StartCliCoordinator(const std::string& notify_socket, const std::string& watchdog_usec,
                          const std::string& port_file, int num_processes) {
  const char* cli = std::getenv("TESSERA_CLI");
  const pid_t pid = fork();
  if (pid != 0) return pid;
  setenv("NOTIFY_SOCKET", notify_socket.c_str(), 1);
  if (!watchdog_usec.empty()) setenv("WATCHDOG_USEC", watchdog_usec.c_str(), 1);
  unsetenv("WATCHDOG_PID");
  const std::string processes = std::to_string(num_processes);
  execl(cli, cli, "coordinator", "--bind", "127.0.0.1:0", "--num-processes", processes.c_str(),
        "--port-file", port_file.c_str(), "--job-id", "job-notify", static_cast<char*>(nullptr));
  _exit(127);
}

// The messages `systemd` receives until `until` arrives (included) or none
// comes for `timeout_ms`.
std::vector<std::string> ReceiveUntil(NotifySocket& systemd, const std::string& until, int64_t timeout_ms) {
  std::vector<std::string> messages;
  while (std::optional<std::string> message = systemd.Receive(timeout_ms)) {
    messages.push_back(*message);
    if (*message == until) break;
  }
  return messages;
}

int WaitExit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(ClusterReadiness, CoordinatorCommandSendsReadyThenStoppingOnSigterm) {
  NotifySocket systemd(/*abstract=*/false);
  ASSERT_TRUE(systemd.bound());
  const pid_t pid = StartCliCoordinator(systemd.name(), "", MakeTempDir() + "/port-ready", 2);
  ASSERT_GT(pid, 0);
  EXPECT_EQ(systemd.Receive(kJoinMs), "READY=1");
  kill(pid, SIGTERM);
  EXPECT_EQ(systemd.Receive(kStepMs), "STOPPING=1");
  EXPECT_EQ(WaitExit(pid), 1);
  EXPECT_EQ(systemd.Receive(200), std::nullopt);
}

// READY=1 means it serves: the port file is written and the port accepts.
TEST(ClusterReadiness, CoordinatorCommandIsListeningWhenItSendsReady) {
  NotifySocket systemd(/*abstract=*/true);
  ASSERT_TRUE(systemd.bound());
  const std::string port_file = MakeTempDir() + "/port-listening";
  const pid_t pid = StartCliCoordinator(systemd.name(), "", port_file, 2);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(systemd.Receive(kJoinMs), "READY=1");
  int port = 0;
  std::ifstream(port_file) >> port;
  EXPECT_TRUE(WaitListening(port, 1000));
  kill(pid, SIGTERM);
  WaitExit(pid);
}

// WATCHDOG_USEC=200000: a keep-alive every 100 ms between READY=1 and
// STOPPING=1 (at least 5 in 800 ms on a busy machine; never faster than
// one per 100 ms).
TEST(ClusterReadiness, CoordinatorCommandSendsWatchdogAtHalfOfWatchdogUsec) {
  NotifySocket systemd(/*abstract=*/false);
  ASSERT_TRUE(systemd.bound());
  const pid_t pid = StartCliCoordinator(systemd.name(), "200000", MakeTempDir() + "/port-watchdog", 2);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(systemd.Receive(kJoinMs), "READY=1");
  const auto ready = std::chrono::steady_clock::now();
  usleep(800 * 1000);
  kill(pid, SIGTERM);
  const auto signalled = std::chrono::steady_clock::now();
  std::vector<std::string> messages = ReceiveUntil(systemd, "STOPPING=1", kStepMs);
  WaitExit(pid);
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.back(), "STOPPING=1");
  messages.pop_back();
  for (const std::string& message : messages) EXPECT_EQ(message, "WATCHDOG=1");
  const int64_t elapsed_ms = MsBetween(ready, signalled);
  EXPECT_GE(static_cast<int64_t>(messages.size()), 5) << elapsed_ms << " ms";
  EXPECT_LE(static_cast<int64_t>(messages.size()), elapsed_ms / 100 + 2) << elapsed_ms << " ms";
}

// A job that ended stops the command too: STOPPING=1 before it exits 0.
TEST(ClusterReadiness, CoordinatorCommandSendsStoppingWhenTheJobEnds) {
  NotifySocket systemd(/*abstract=*/false);
  ASSERT_TRUE(systemd.bound());
  const std::string port_file = MakeTempDir() + "/port-ends";
  const pid_t pid = StartCliCoordinator(systemd.name(), "", port_file, 1);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(systemd.Receive(kJoinMs), "READY=1");
  int port = 0;
  std::ifstream(port_file) >> port;
  Worker worker("p0", {"addr=127.0.0.1:" + std::to_string(port), "n=1", "id=0", "job=job-notify", "alarm=45",
                       "--", "connect", "shutdown"});
  EXPECT_EQ(systemd.Receive(kJoinMs), "STOPPING=1");
  EXPECT_EQ(WaitExit(pid), 0);
}

}  // namespace
}  // namespace tessera::cluster_test
