// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator: a gRPC service (proto/tessera/v1/coordinator.proto) that
// holds a job's membership, topology, key-value store, barriers and events.
// Hosted by process 0's library instance or standalone (`tessera coordinator`).
//
// Transport only: the job logic is CoordinatorState. Handlers use gRPC's
// callback API, so parked calls (barriers, blocking gets, WaitForJob,
// AgreeLive, Shutdown) and event streams hold no thread. Every handler checks
// the job credential (and, under mTLS, the client certificate's URI SAN)
// before anything else.
#ifndef TESSERA_CORE_CLUSTER_COORDINATOR_SERVER_H_
#define TESSERA_CORE_CLUSTER_COORDINATOR_SERVER_H_

#include <cstdint>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/cluster/cluster_config.h"

namespace tessera::cluster {

class CoordinatorServer {
 public:
  // Binds config.bind_address (or the wildcard address on the coordinator
  // address's port) and starts serving config.num_processes processes.
  // UNAVAILABLE "bind ADDR:PORT: <strerror> (EADDRINUSE)" when the address
  // cannot be bound; FAILED_PRECONDITION when require_auth is set without a
  // token; INVALID_ARGUMENT for bad addresses, counts or unreadable TLS files.
  static absl::StatusOr<std::unique_ptr<CoordinatorServer>> Start(const ClusterConfig& config);

  virtual ~CoordinatorServer() = default;

  // The bound port (the chosen one when port 0 was asked).
  virtual int port() const = 0;

  // The port of /metrics (config.metrics_bind; the chosen one for port 0);
  // 0 when metrics are off.
  virtual int metrics_port() const = 0;

  // Waits until the job has ended (all shut down, shutdown barrier expired,
  // or failed with every client gone): OK then; DEADLINE_EXCEEDED after
  // `timeout` while it still runs.
  virtual absl::Status Wait(absl::Duration timeout) = 0;

  // Waits while the coordinator still has something to do for the job's
  // processes: until the job has ended (as Wait), or, once it failed, until
  // every live process holds the error (its own event stream carried it, or
  // a call of its was answered with it; nothing it could ask would succeed),
  // at most 2 s after the failure. OK then; DEADLINE_EXCEEDED after `timeout`.
  virtual absl::Status WaitWhileNeeded(absl::Duration timeout) = 0;

  // How the job ended: OK after a clean shutdown, else the job's error
  // (CANCELLED when stopped first). Meaningful once Wait returned OK.
  virtual absl::Status JobStatus() const = 0;

  // Stops serving now: parked calls get CANCELLED, streams end. Idempotent.
  virtual void Stop() = 0;

  // Blocking calls parked now (a client's cancel or deadline withdraws its
  // call at once, so this drops without waiting for the call's timeout).
  virtual int64_t parked_calls() const = 0;
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_COORDINATOR_SERVER_H_
