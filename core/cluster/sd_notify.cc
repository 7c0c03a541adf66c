// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/sd_notify.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace tessera::cluster {
namespace {

// A decimal without sign or trailing text, as systemd writes these
// variables; -1 otherwise.
long long ParseUnsigned(const char* text) {
  if (text == nullptr || *text < '0' || *text > '9') return -1;
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0') return -1;
  return value;
}

}  // namespace

SystemdNotifier SystemdNotifier::FromEnvironment() {
  const char* socket = std::getenv("NOTIFY_SOCKET");
  return SystemdNotifier(socket != nullptr ? socket : "", std::getenv("WATCHDOG_USEC"),
                         std::getenv("WATCHDOG_PID"));
}

SystemdNotifier::SystemdNotifier(std::string socket, const char* watchdog_usec,
                                 const char* watchdog_pid)
    : socket_(std::move(socket)) {
  const long long usec = ParseUnsigned(watchdog_usec);
  if (usec <= 0) return;
  if (watchdog_pid != nullptr && ParseUnsigned(watchdog_pid) != static_cast<long long>(getpid())) {
    return;  // the watchdog is another process's (a wrapper that exec'd us keeps its own)
  }
  watchdog_period_ = std::chrono::microseconds(usec / 2);
}

bool SystemdNotifier::Notify(const std::string& state, std::string* error) const {
  if (!active()) return true;
  auto fail = [&](const std::string& why) {
    if (error != nullptr) *error = "NOTIFY_SOCKET '" + socket_ + "': " + why;
    return false;
  };
  if (socket_[0] != '/' && socket_[0] != '@') {
    return fail("expected an absolute path or an abstract socket name starting with '@'");
  }
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket_.size() > sizeof(address.sun_path) - (socket_[0] == '/' ? 1 : 0)) {
    return fail("longer than a unix socket address (" + std::to_string(sizeof(address.sun_path)) +
                " bytes)");
  }
  std::memcpy(address.sun_path, socket_.data(), socket_.size());
  if (socket_[0] == '@') address.sun_path[0] = '\0';  // abstract: no terminator counted
  const socklen_t length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + socket_.size() +
                                                  (socket_[0] == '/' ? 1 : 0));
  const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(std::strerror(errno));
  const ssize_t sent = sendto(fd, state.data(), state.size(), MSG_NOSIGNAL,
                              reinterpret_cast<const sockaddr*>(&address), length);
  const int sent_errno = errno;
  close(fd);
  if (sent < 0) return fail(std::strerror(sent_errno));
  if (static_cast<size_t>(sent) != state.size()) return fail("short datagram");
  return true;
}

}  // namespace tessera::cluster
