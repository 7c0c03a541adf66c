// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The configuration of a multi-host job: what the user set (ClusterOptions)
// and what resolution made of it (ClusterConfig). Shared by detection, the
// coordinator server, the client and initialize().
#ifndef TESSERA_CORE_CLUSTER_CLUSTER_CONFIG_H_
#define TESSERA_CORE_CLUSTER_CLUSTER_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "core/cluster/host_port.h"

namespace tessera::cluster {

// Defaults (coordinator.md §6.5).
inline constexpr absl::Duration kDefaultInitTimeout = absl::Seconds(300);
inline constexpr absl::Duration kDefaultHeartbeatInterval = absl::Seconds(10);
inline constexpr absl::Duration kDefaultHeartbeatTimeout = absl::Seconds(100);
inline constexpr absl::Duration kDefaultShutdownTimeout = absl::Seconds(300);
inline constexpr absl::Duration kDefaultRpcTimeout = absl::Seconds(60);
inline constexpr int64_t kDefaultMaxValueBytes = int64_t{64} << 20;
inline constexpr int64_t kDefaultMaxStoreBytes = int64_t{1} << 30;
inline constexpr absl::Duration kDefaultTlsReloadInterval = absl::Seconds(600);
// How long the coordinator waits, after a running process's event stream
// closed (its connection reset, or its client went away without shutdown),
// for the process to prove it is alive (a call, or a new stream) before it
// declares it lost. A killed process closes its connection at once, so this,
// not the heartbeat timeout, bounds how soon the others learn of it; a
// network blip that re-dials within it is forgiven. Processes that hang
// without closing anything are still found by the heartbeat timeout.
inline constexpr absl::Duration kReconnectGrace = absl::Milliseconds(500);

// How long the coordinator keeps a connection that has not finished its TLS
// and HTTP/2 handshake (gRPC's own limit is 120 s), and one that carries no
// call: a port scan, or clients that connect and never speak, cannot hold its
// file descriptors longer than this (issue 15). Real clients always hold a
// call open (the event stream), so the idle limit never closes theirs.
inline constexpr absl::Duration kDefaultHandshakeTimeout = absl::Seconds(10);
inline constexpr absl::Duration kDefaultIdleConnectionTimeout = absl::Minutes(5);

// Connections held at once that have not sent a byte (accept_gate.h): past
// it the oldest is closed. Real clients speak as soon as they connect.
inline constexpr int64_t kDefaultMaxSilentConnections = 1024;

struct ConnectionTimeouts {
  absl::Duration handshake = kDefaultHandshakeTimeout;
  absl::Duration idle = kDefaultIdleConnectionTimeout;
  int64_t max_silent = kDefaultMaxSilentConnections;
};

struct TlsOptions {
  std::string cert_file;  // PEM; with key_file the server speaks TLS
  std::string key_file;
  std::string ca_file;    // what clients verify the server (and mTLS servers clients) with
  bool require_client_cert = false;
  std::string peer_uri_prefix;  // SPIFFE-style URI SAN prefix; "" = not checked
  std::string server_name;      // override of the host name checked on the server cert
  // How often the coordinator and clients re-read the files above, so a
  // rotated certificate or CA takes effect without a restart (whole seconds).
  absl::Duration reload_interval = kDefaultTlsReloadInterval;
  bool enabled() const { return !cert_file.empty() || !ca_file.empty(); }
};

// What the caller set explicitly; unset fields are resolved from the
// environment (detect.h).
struct ClusterOptions {
  // Parsed where the caller gave them (the C options), so every later step
  // has the typed value. Port 0: process 0 binds any free port.
  std::optional<HostPort> coordinator_address;
  std::optional<HostPort> bind_address;
  std::optional<int64_t> num_processes;
  std::optional<int64_t> process_id;
  std::optional<std::vector<int64_t>> local_device_ids;
  std::optional<std::string> job_id;
  std::optional<std::string> job_token;
  std::optional<bool> require_auth;
  TlsOptions tls;
  std::optional<absl::Duration> init_timeout;
  std::optional<absl::Duration> heartbeat_interval;
  std::optional<absl::Duration> heartbeat_timeout;
  std::optional<absl::Duration> shutdown_timeout;
  std::optional<absl::Duration> rpc_timeout;
  std::optional<bool> recoverable;
  std::optional<bool> fail_job_on_duplicate_id;
  std::optional<int64_t> partition_index;
  std::optional<int64_t> max_value_bytes;
  std::optional<int64_t> max_store_bytes;
  std::string detection = "auto";  // "auto", "none", or one detector's name
  ConnectionTimeouts connections;
  std::optional<HostPort> metrics_bind;  // the coordinator's /metrics (off when unset)
};

// A fully resolved configuration: every field has its final value.
struct ClusterConfig {
  std::optional<HostPort> coordinator_address;  // with its port; none for a single process
  std::optional<HostPort> bind_address;         // what process 0 listens on
  int64_t num_processes = 1;
  int64_t process_id = 0;
  std::vector<int64_t> local_device_ids;  // empty: all local devices
  // The ids came from a launcher's local rank, not from the user: as in JAX
  // they pick accelerators only, and a CPU-only host keeps all its devices.
  bool local_device_ids_from_launcher = false;
  std::string job_id;
  std::string job_token;  // "" = no authentication
  bool require_auth = false;
  TlsOptions tls;
  absl::Duration init_timeout = kDefaultInitTimeout;
  absl::Duration heartbeat_interval = kDefaultHeartbeatInterval;
  absl::Duration heartbeat_timeout = kDefaultHeartbeatTimeout;
  absl::Duration shutdown_timeout = kDefaultShutdownTimeout;
  absl::Duration rpc_timeout = kDefaultRpcTimeout;
  bool recoverable = false;
  bool fail_job_on_duplicate_id = false;
  std::optional<int64_t> partition_index;
  int64_t max_value_bytes = kDefaultMaxValueBytes;
  int64_t max_store_bytes = kDefaultMaxStoreBytes;
  // Blocking calls the coordinator holds at once, all kinds together; past it
  // they fail with RESOURCE_EXHAUSTED (a bound on memory and DoS risk).
  int64_t max_pending_calls = int64_t{1} << 20;
  ConnectionTimeouts connections;
  // Where the coordinator serves /metrics over HTTP (metrics_http.h); none: off.
  std::optional<HostPort> metrics_bind;
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_CLUSTER_CONFIG_H_
