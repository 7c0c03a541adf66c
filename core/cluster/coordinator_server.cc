#include "core/cluster/coordinator_server.h"

namespace tessera::cluster {

// Placeholder until the service lands (issue 4).
absl::StatusOr<std::unique_ptr<CoordinatorServer>> CoordinatorServer::Start(const ClusterConfig&) {
  return absl::UnimplementedError("the coordinator is not built yet");
}

}  // namespace tessera::cluster
