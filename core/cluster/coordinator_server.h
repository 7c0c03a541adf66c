// The coordinator: a gRPC service (proto/tessera/v1/coordinator.proto) that
// holds a job's membership, topology, key-value store, barriers and events.
// Hosted by process 0's library instance or standalone (`tessera coordinator`).
#ifndef TESSERA_CORE_CLUSTER_COORDINATOR_SERVER_H_
#define TESSERA_CORE_CLUSTER_COORDINATOR_SERVER_H_

#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/cluster/cluster_config.h"

namespace tessera::cluster {

class CoordinatorServer {
 public:
  // Binds config.bind_address (UNAVAILABLE "bind ADDR:PORT: <strerror> (EADDRINUSE)"
  // on failure) and starts serving config.num_processes processes.
  static absl::StatusOr<std::unique_ptr<CoordinatorServer>> Start(const ClusterConfig& config);

  virtual ~CoordinatorServer() = default;

  // The bound port (the chosen one when port 0 was asked).
  virtual int port() const = 0;

  // Waits until the job has ended (all shut down, shutdown barrier expired,
  // or failed with every client gone); DEADLINE_EXCEEDED after `timeout`.
  virtual absl::Status Wait(absl::Duration timeout) = 0;

  // Stops serving now. Idempotent.
  virtual void Stop() = 0;
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_COORDINATOR_SERVER_H_
