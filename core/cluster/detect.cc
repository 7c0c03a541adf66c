#include "core/cluster/detect.h"

namespace tessera::cluster {

// Placeholder until detection lands (issue 4).
Environment ProcessEnvironment() { return {}; }

absl::StatusOr<Detection> Detect(const ClusterOptions&, const Environment&) {
  return absl::UnimplementedError("cluster detection is not built yet");
}

}  // namespace tessera::cluster
