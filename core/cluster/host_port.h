// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// "host:port" addresses as the cluster configuration spells them: the
// coordinator address clients dial and the address process 0 binds.
#ifndef TESSERA_CORE_CLUSTER_HOST_PORT_H_
#define TESSERA_CORE_CLUSTER_HOST_PORT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

struct addrinfo;

namespace tessera::cluster {

// A host (name, IPv4, or IPv6 without brackets) and an optional port.
struct HostPort {
  std::string host;
  std::optional<int32_t> port;

  // "host:port", "[v6]:port", or the host alone (bracketed if IPv6) without a port.
  std::string ToString() const;
  // localhost, 127.0.0.0/8 or ::1: reachable only from this machine.
  bool IsLoopback() const;
};

inline bool operator==(const HostPort& a, const HostPort& b) {
  return a.host == b.host && a.port == b.port;
}

// The address as text; "" for none (a single process has no coordinator).
std::string AddressText(const std::optional<HostPort>& address);

// `address` with `port` where it named no port or port 0 (any free port):
// what clients dial once process 0 has bound `port`.
HostPort WithBoundPort(HostPort address, int32_t port);

// Parses "host", "host:port", "[v6]" or "[v6]:port". `what` names the value
// in errors (an option or a variable). Ports must be 1..65535, or 0..65535
// when `allow_port_zero` (a bind address may ask for any free port). An
// unbracketed IPv6 address is rejected: its last group reads as a port.
absl::StatusOr<HostPort> ParseHostPort(absl::string_view text, absl::string_view what,
                                       bool allow_port_zero = false);

// A port number in 1..65535 (0..65535 when `allow_zero`) from decimal text.
absl::StatusOr<int32_t> ParsePort(absl::string_view text, absl::string_view what,
                                  bool allow_zero = false);

// The TCP addresses of `address` (IPv4 and IPv6), freed with the list.
// `flags` are getaddrinfo's (AI_PASSIVE for a bind: an empty host is then
// the wildcard address). The error is getaddrinfo's text, for the caller to
// put in its own context.
struct AddrInfoFree {
  void operator()(addrinfo* list) const;
};
using AddrInfoList = std::unique_ptr<addrinfo, AddrInfoFree>;
absl::StatusOr<AddrInfoList> ResolveTcp(const HostPort& address, int flags);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_HOST_PORT_H_
