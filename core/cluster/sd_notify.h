// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// systemd's readiness protocol (sd_notify(3)) without linking libsystemd:
// state lines ("READY=1", "WATCHDOG=1", "STOPPING=1") sent as one datagram
// each to the unix socket $NOTIFY_SOCKET names (a path, or an abstract
// socket written "@name"). Used by `tessera coordinator` so a unit with
// Type=notify (and WatchdogSec=) knows when it serves and that it is alive.
//
// Standard C++ and POSIX only: the command, which sees only the public C
// ABI, compiles this file itself.
#ifndef TESSERA_CORE_CLUSTER_SD_NOTIFY_H_
#define TESSERA_CORE_CLUSTER_SD_NOTIFY_H_

#include <chrono>
#include <string>

namespace tessera::cluster {

class SystemdNotifier {
 public:
  // Reads NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID. Without
  // NOTIFY_SOCKET (not run by systemd) every Notify is a no-op.
  static SystemdNotifier FromEnvironment();
  // `socket`: NOTIFY_SOCKET's value ("" when unset); `watchdog_usec` and
  // `watchdog_pid`: the variables' values (nullptr when unset).
  SystemdNotifier(std::string socket, const char* watchdog_usec, const char* watchdog_pid);

  bool active() const { return !socket_.empty(); }

  // Half of WATCHDOG_USEC, systemd's advice for the keep-alive period, when
  // the watchdog is on for this process (WATCHDOG_PID absent or equal to
  // getpid()); zero when it is off or its variables do not parse.
  std::chrono::microseconds watchdog_period() const { return watchdog_period_; }

  // Sends `state` as one datagram. True when sent or inactive; false with
  // `*error` ("NOTIFY_SOCKET '/run/x': Connection refused") when not.
  bool Notify(const std::string& state, std::string* error = nullptr) const;

 private:
  std::string socket_;
  std::chrono::microseconds watchdog_period_{0};
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_SD_NOTIFY_H_
