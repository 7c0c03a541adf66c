// Resolution of a job's configuration: explicit options, then TESSERA_*,
// then KERAS_DISTRIBUTION_*, then DTENSOR_*, then launcher detection
// (torchrun, Open MPI 4/5, MPICH/Hydra/PMI, Slurm, Kubernetes indexed jobs).
// Pure: reads only the Environment it is given, so every launcher is
// testable with fixtures.
#ifndef TESSERA_CORE_CLUSTER_DETECT_H_
#define TESSERA_CORE_CLUSTER_DETECT_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "core/cluster/cluster_config.h"

namespace tessera::cluster {

// Environment variables by name.
using Environment = absl::flat_hash_map<std::string, std::string>;

// The calling process's environment (environ), read once per call.
Environment ProcessEnvironment();

struct Detection {
  ClusterConfig config;
  // "options", "tessera", "keras", "dtensor", "torchrun", "openmpi", "hydra",
  // "slurm", "kubernetes" or "single-process".
  std::string source;
  // One line per source considered: used, or skipped and why (present and
  // missing variables), and how a derived port was computed.
  std::vector<std::string> explanation;
};

// Resolves `options` against `env`. Fails with INVALID_ARGUMENT when the
// chosen source is inconsistent; the message names the variable, its value
// and what was expected.
absl::StatusOr<Detection> Detect(const ClusterOptions& options, const Environment& env);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_DETECT_H_
