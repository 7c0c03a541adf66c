// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator's listening sockets, with a gate in front of gRPC: an
// accepted connection is handed to the gRPC server only once it has sent its
// first bytes (a TLS ClientHello or the HTTP/2 preface, which every real
// client sends at once). Until then the gate holds it, and holds at most
// `max_silent` such connections: past that the oldest is closed, and each is
// closed after `silent_timeout`. A port scan or a flood of connections that
// never speak therefore costs a bounded number of descriptors (gRPC 1.51 has
// no cap of its own on incoming connections; issue 15).
#ifndef TESSERA_CORE_CLUSTER_ACCEPT_GATE_H_
#define TESSERA_CORE_CLUSTER_ACCEPT_GATE_H_

#include <cstdint>
#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/cluster/host_port.h"

namespace tessera::cluster {

class AcceptGate {
 public:
  // Receives a connection that has spoken: (listening fd, connection fd);
  // it owns the connection from then on.
  using HandOff = std::function<void(int listener_fd, int fd)>;

  // Binds every address of `bind` (a wildcard host: IPv6 and IPv4 both) on
  // one port (`bind.port`, or a free one when 0). UNAVAILABLE "bind ADDR:
  // <strerror> (ERRNO)" when it cannot.
  static absl::StatusOr<std::unique_ptr<AcceptGate>> Listen(const HostPort& bind, int64_t max_silent,
                                                            absl::Duration silent_timeout);
  ~AcceptGate();  // stops and closes every socket it still holds

  int port() const { return port_; }
  // Starts accepting; `hand_off` runs on the gate's thread.
  void Start(HandOff hand_off);
  // Connections held now that have not spoken (for tests).
  int64_t silent_connections() const;

 private:
  class Impl;
  AcceptGate() = default;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_ACCEPT_GATE_H_
