// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Connections that are not a job's clients (issue 15, item 4): a port scan,
// clients that connect and never speak, garbage bytes, an HTTP/2 client that
// never makes a call. The coordinator closes each within its configured
// lifetime (tessera_cluster_options_set_connection_timeouts; short here), so
// they cannot pile up and exhaust its descriptors, and the job is unharmed.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/cluster/cluster_harness.h"

namespace tessera::cluster_test {
namespace {

constexpr int64_t kHandshakeMs = 500;
constexpr int64_t kIdleMs = 2000;
constexpr int64_t kSlackMs = 2500;  // timers on busy cores
constexpr int kSilent = 300;
constexpr int kGarbage = 50;

// Processes `first`..`last` of a job of `processes` that pass a barrier
// every 300 ms for about three seconds, while the test abuses their
// coordinator's port.
std::vector<std::unique_ptr<Worker>> StartJob(int port, int processes = 2, int first = 0, int last = 1,
                                              int64_t handshake_ms = kHandshakeMs) {
  const std::string address = "127.0.0.1:" + std::to_string(port);
  std::vector<std::unique_ptr<Worker>> workers;
  for (int id = first; id <= last; ++id) {
    std::vector<std::string> args = {"addr=" + address, "bind=" + address, "n=" + std::to_string(processes),
                                     "id=" + std::to_string(id), "job=conn", "hb=250,4000", "init_timeout=15000",
                                     "conn=" + std::to_string(handshake_ms) + "," + std::to_string(kIdleMs),
                                     "alarm=60", "--", "init"};
    for (int round = 0; round < 10; ++round) {
      args.push_back("barrier:round" + std::to_string(round) + ":10000");
      args.push_back("sleep:300");
    }
    workers.push_back(std::make_unique<Worker>("p" + std::to_string(id), args));
  }
  return workers;
}

int Connect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

void Send(int fd, const std::string& bytes) { (void)!send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL); }

// Reads (and drops) what the server sends on each fd until it closes the
// connection or `timeout_ms` passes; returns each connection's lifetime in
// ms from `opened`, or -1 for one still open. Closes every fd.
std::vector<int64_t> Lifetimes(std::vector<int> fds, Clock::time_point opened, int64_t timeout_ms) {
  std::vector<int64_t> lifetime(fds.size(), -1);
  const Clock::time_point deadline = opened + std::chrono::milliseconds(timeout_ms);
  size_t open = fds.size();
  while (open > 0 && Clock::now() < deadline) {
    std::vector<pollfd> polled;
    std::vector<size_t> which;
    for (size_t i = 0; i < fds.size(); ++i) {
      if (lifetime[i] >= 0) continue;
      polled.push_back(pollfd{fds[i], POLLIN, 0});
      which.push_back(i);
    }
    if (poll(polled.data(), polled.size(), 50) <= 0) continue;
    for (size_t k = 0; k < polled.size(); ++k) {
      if (polled[k].revents == 0) continue;
      char buffer[4096];
      const ssize_t got = recv(polled[k].fd, buffer, sizeof buffer, MSG_DONTWAIT);
      if (got > 0) continue;  // the server's SETTINGS, GOAWAY, ...
      lifetime[which[k]] = MsBetween(opened, Clock::now());
      --open;
    }
  }
  for (int fd : fds) close(fd);
  return lifetime;
}

void ExpectJobUnharmed(std::vector<std::unique_ptr<Worker>>& workers) {
  for (auto& worker : workers) {
    for (int step = 0; step <= 20; ++step) {
      auto result = worker->WaitResult(step, 20000);
      ASSERT_TRUE(result && result->ok) << worker->label() << " step " << step << ": "
                                        << (result ? result->message : "no result") << "\n"
                                        << worker->Stderr();
    }
  }
}

TEST(ClusterConnections, SilentAndGarbageConnectionsAreClosedWithinTheHandshakeTimeout) {
  const int port = FreePort();
  auto workers = StartJob(port);
  ASSERT_TRUE(workers[0]->WaitResult(0, 20000).has_value());
  std::vector<int> silent, garbage;
  const Clock::time_point opened = Clock::now();
  for (int i = 0; i < kSilent; ++i) silent.push_back(Connect(port));
  for (int i = 0; i < kGarbage; ++i) {
    garbage.push_back(Connect(port));
    Send(garbage.back(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n\xff\xfe garbage");
  }
  ASSERT_EQ(std::count(silent.begin(), silent.end(), -1), 0);
  ASSERT_EQ(std::count(garbage.begin(), garbage.end(), -1), 0);
  auto garbage_lifetimes = Lifetimes(garbage, opened, kHandshakeMs + kSlackMs);
  auto silent_lifetimes = Lifetimes(silent, opened, kHandshakeMs + kSlackMs);
  EXPECT_EQ(std::count(silent_lifetimes.begin(), silent_lifetimes.end(), -1), 0)
      << "silent connections still open " << kHandshakeMs + kSlackMs << " ms after they were opened";
  EXPECT_EQ(std::count(garbage_lifetimes.begin(), garbage_lifetimes.end(), -1), 0);
  ExpectJobUnharmed(workers);
}

// A client that completes the HTTP/2 handshake (preface, SETTINGS, the ACK of
// the server's) and then makes no call is closed at the idle timeout, not at
// the handshake timeout.
TEST(ClusterConnections, AnHttp2ConnectionWithoutCallsIsClosedAtTheIdleTimeout) {
  const int port = FreePort();
  auto workers = StartJob(port);
  ASSERT_TRUE(workers[0]->WaitResult(0, 20000).has_value());
  const Clock::time_point opened = Clock::now();
  int fd = Connect(port);
  ASSERT_GE(fd, 0);
  const std::string settings("\x00\x00\x00\x04\x00\x00\x00\x00\x00", 9);
  const std::string settings_ack("\x00\x00\x00\x04\x01\x00\x00\x00\x00", 9);
  Send(fd, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + settings);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  Send(fd, settings_ack);
  auto lifetime = Lifetimes({fd}, opened, kIdleMs + kSlackMs);
  EXPECT_GE(lifetime[0], kIdleMs - 100) << "closed before the idle timeout";
  EXPECT_NE(lifetime[0], -1) << "still open " << kIdleMs + kSlackMs << " ms after it was opened";
  ExpectJobUnharmed(workers);
}

// Past the cap on connections that have not spoken (1,024), the oldest are
// closed at once instead of living to the handshake timeout, and a process
// that joins in the middle of the flood gets through.
TEST(ClusterConnections, SilentConnectionsPastTheCapCloseTheOldestAtOnce) {
  constexpr int kFlood = 1500;
  constexpr int64_t kCap = 1024;
  constexpr int64_t kLongHandshakeMs = 8000;
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  if (files.rlim_max != RLIM_INFINITY && files.rlim_max < kFlood + 200) {
    GTEST_SKIP() << "needs " << kFlood + 200 << " descriptors; the hard limit is " << files.rlim_max;
  }
  files.rlim_cur = files.rlim_max == RLIM_INFINITY ? kFlood + 200 : std::max<rlim_t>(files.rlim_cur, kFlood + 200);
  ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &files), 0);
  const int port = FreePort();
  auto workers = StartJob(port, 3, 0, 1, kLongHandshakeMs);
  // Processes 0 and 1 wait in init for process 2; the port listens already.
  int probe = -1;
  for (int i = 0; i < 500 && probe < 0; ++i) {
    probe = Connect(port);
    if (probe < 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GE(probe, 0) << "the coordinator never listened";
  close(probe);
  std::vector<int> flood;
  const Clock::time_point opened = Clock::now();
  for (int i = 0; i < kFlood; ++i) flood.push_back(Connect(port));
  ASSERT_EQ(std::count(flood.begin(), flood.end(), -1), 0);
  auto late = StartJob(port, 3, 2, 2, kLongHandshakeMs);
  auto lifetimes = Lifetimes(flood, opened, 1500);
  const int64_t closed = kFlood - std::count(lifetimes.begin(), lifetimes.end(), -1);
  EXPECT_GE(closed, kFlood - kCap) << "closed within 1.5 s, long before the " << kLongHandshakeMs
                                   << " ms handshake timeout";
  workers.push_back(std::move(late[0]));
  ExpectJobUnharmed(workers);
}

}  // namespace
}  // namespace tessera::cluster_test
