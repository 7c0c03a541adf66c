// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/accept_gate.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tessera::cluster {
namespace {

bool IsWildcard(const std::string& host) { return host.empty() || host == "0.0.0.0" || host == "::"; }

absl::Status BindError(const HostPort& bind, int error) {
  return absl::UnavailableError(absl::StrCat("bind ", bind.ToString(), ": ", std::strerror(error)));
}

// A listening socket on `address` (non-blocking); -1 with errno set.
int ListenOn(const sockaddr* address, socklen_t length, bool dual_stack) {
  const int fd = socket(address->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  if (address->sa_family == AF_INET6) {
    int v6only = dual_stack ? 0 : 1;
    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
  }
  if (bind(fd, address, length) != 0 || listen(fd, SOMAXCONN) != 0) {
    const int error = errno;
    close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

int PortOf(int fd) {
  sockaddr_storage bound{};
  socklen_t length = sizeof(bound);
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length) != 0) return 0;
  if (bound.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
}

void SetPort(sockaddr* address, int port) {
  if (address->sa_family == AF_INET) {
    reinterpret_cast<sockaddr_in*>(address)->sin_port = htons(static_cast<uint16_t>(port));
  } else {
    reinterpret_cast<sockaddr_in6*>(address)->sin6_port = htons(static_cast<uint16_t>(port));
  }
}

}  // namespace

class AcceptGate::Impl {
 public:
  Impl(std::vector<int> listeners, int64_t max_silent, absl::Duration silent_timeout)
      : listeners_(std::move(listeners)), max_silent_(max_silent), silent_timeout_(silent_timeout) {
    if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
  }

  ~Impl() {
    if (wake_[1] >= 0) (void)!write(wake_[1], "x", 1);
    if (thread_.joinable()) thread_.join();
    for (int fd : listeners_) close(fd);
    for (const Silent& s : silent_) close(s.fd);
    if (wake_[0] >= 0) close(wake_[0]);
    if (wake_[1] >= 0) close(wake_[1]);
  }

  void Start(HandOff hand_off) {
    hand_off_ = std::move(hand_off);
    thread_ = std::thread([this] { Loop(); });
  }

  int64_t silent_count() const {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<int64_t>(silent_.size());
  }

 private:
  struct Silent {
    int fd;
    int listener;
    absl::Time deadline;
  };

  void Loop() {
    std::vector<pollfd> polled;
    while (true) {
      polled.clear();
      polled.push_back(pollfd{wake_[0], POLLIN, 0});
      for (int fd : listeners_) polled.push_back(pollfd{fd, POLLIN, 0});
      const size_t first_silent = polled.size();
      absl::Time next = absl::InfiniteFuture();
      {
        std::lock_guard<std::mutex> lock(mu_);
        for (const Silent& s : silent_) {
          polled.push_back(pollfd{s.fd, POLLIN | POLLRDHUP, 0});
          next = std::min(next, s.deadline);
        }
      }
      const int timeout_ms =
          next == absl::InfiniteFuture()
              ? -1
              : static_cast<int>(std::max<int64_t>(0, absl::ToInt64Milliseconds(next - absl::Now()) + 1));
      if (poll(polled.data(), polled.size(), timeout_ms) < 0 && errno != EINTR) return;
      if (polled[0].revents != 0) return;  // stopping
      // Spoken, hung up or expired silent connections first, then new ones.
      std::vector<std::pair<int, int>> hand;  // (listener, fd)
      {
        std::lock_guard<std::mutex> lock(mu_);
        const absl::Time now = absl::Now();
        std::deque<Silent> kept;
        for (size_t i = 0; i < silent_.size(); ++i) {
          const Silent& s = silent_[i];
          const short events = polled[first_silent + i].revents;
          if ((events & POLLIN) != 0 && (events & (POLLRDHUP | POLLHUP | POLLERR)) == 0) {
            hand.emplace_back(s.listener, s.fd);
          } else if (events != 0 || now >= s.deadline) {
            close(s.fd);
          } else {
            kept.push_back(s);
          }
        }
        silent_.swap(kept);
      }
      for (auto [listener, fd] : hand) hand_off_(listener, fd);
      for (size_t i = 1; i < first_silent; ++i) {
        if (polled[i].revents != 0) AcceptAll(polled[i].fd);
      }
    }
  }

  void AcceptAll(int listener) {
    while (true) {
      // As gRPC's own listener prepares them: its endpoints never block.
      const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
        // Out of descriptors: make room by dropping the oldest silent
        // connection, or wait for gRPC to close some (the backlog keeps
        // the rest); never spin on a listener that stays readable.
        std::lock_guard<std::mutex> lock(mu_);
        if (silent_.empty()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
          return;
        }
        close(silent_.front().fd);
        silent_.pop_front();
        continue;
      }
      if (fd < 0) return;  // EAGAIN: all accepted
      int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      std::lock_guard<std::mutex> lock(mu_);
      // Full: the oldest goes. A real client speaks within milliseconds, so
      // it is never the oldest for long; a flood only rotates through.
      if (static_cast<int64_t>(silent_.size()) >= max_silent_) {
        close(silent_.front().fd);
        silent_.pop_front();
      }
      silent_.push_back(Silent{fd, listener, absl::Now() + silent_timeout_});
    }
  }

  const std::vector<int> listeners_;
  const int64_t max_silent_;
  const absl::Duration silent_timeout_;
  int wake_[2] = {-1, -1};
  HandOff hand_off_;
  std::thread thread_;
  mutable std::mutex mu_;
  std::deque<Silent> silent_;  // guarded by mu_; oldest first
};

absl::StatusOr<std::unique_ptr<AcceptGate>> AcceptGate::Listen(const HostPort& bind, int64_t max_silent,
                                                               absl::Duration silent_timeout) {
  std::vector<int> listeners;
  auto fail = [&](int error) {
    for (int fd : listeners) close(fd);
    return BindError(bind, error);
  };
  int port = bind.port.value_or(0);
  if (IsWildcard(bind.host)) {
    // As gRPC: one dual-stack socket, or IPv4 alone where IPv6 is missing.
    sockaddr_in6 any6{};
    any6.sin6_family = AF_INET6;
    any6.sin6_addr = in6addr_any;
    any6.sin6_port = htons(static_cast<uint16_t>(port));
    int fd = ListenOn(reinterpret_cast<sockaddr*>(&any6), sizeof(any6), true);
    if (fd < 0) {
      sockaddr_in any4{};
      any4.sin_family = AF_INET;
      any4.sin_addr.s_addr = htonl(INADDR_ANY);
      any4.sin_port = htons(static_cast<uint16_t>(port));
      fd = ListenOn(reinterpret_cast<sockaddr*>(&any4), sizeof(any4), false);
    }
    if (fd < 0) return fail(errno);
    listeners.push_back(fd);
  } else {
    absl::StatusOr<AddrInfoList> found = ResolveTcp(bind, AI_PASSIVE);
    if (!found.ok()) return found.status();
    for (addrinfo* ai = found->get(); ai != nullptr; ai = ai->ai_next) {
      sockaddr_storage address{};
      std::memcpy(&address, ai->ai_addr, ai->ai_addrlen);
      SetPort(reinterpret_cast<sockaddr*>(&address), port);
      const int fd = ListenOn(reinterpret_cast<sockaddr*>(&address), ai->ai_addrlen, false);
      if (fd < 0) return fail(errno);
      listeners.push_back(fd);
      if (port == 0) port = PortOf(fd);  // every address on the first one's port
    }
    if (listeners.empty()) return fail(EADDRNOTAVAIL);
  }
  if (port == 0) port = PortOf(listeners.front());
  auto gate = std::unique_ptr<AcceptGate>(new AcceptGate());
  gate->impl_ = std::make_unique<Impl>(std::move(listeners), max_silent, silent_timeout);
  gate->port_ = port;
  return gate;
}

AcceptGate::~AcceptGate() = default;

void AcceptGate::Start(HandOff hand_off) { impl_->Start(std::move(hand_off)); }

int64_t AcceptGate::silent_connections() const { return impl_->silent_count(); }

}  // namespace tessera::cluster
