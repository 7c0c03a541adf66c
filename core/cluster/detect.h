// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Resolution of a job's configuration, per field, first match wins:
//   1. explicit ClusterOptions;
//   2. TESSERA_* variables (TESSERA_COORDINATOR_ADDRESS, TESSERA_NUM_PROCESSES,
//      TESSERA_PROCESS_INDEX (alias TESSERA_PROCESS_ID), TESSERA_LOCAL_DEVICE_IDS, TESSERA_JOB_ID,
//      TESSERA_COORDINATOR_PORT, TESSERA_BIND_ADDRESS, TESSERA_JOB_TOKEN,
//      TESSERA_JOB_TOKEN_FILE, TESSERA_REQUIRE_AUTH, TESSERA_INIT_TIMEOUT_MS,
//      TESSERA_HEARTBEAT_TIMEOUT_MS (0.1's TESSERA_INIT_TIMEOUT and
//      TESSERA_HEARTBEAT_TIMEOUT in seconds still read as aliases);
//   3. KERAS_DISTRIBUTION_* (framework_env.h);
//   4. DTENSOR_* (framework_env.h);
//   5. one launcher (launchers.h): the first whose variables are all present.
// Sources 3-5 are consulted only while the coordinator address, the number of
// processes or the process id is still open. A launcher that names no
// coordinator (Hydra, multi-node Open MPI 5) gives way to a later one that
// does and agrees on the process count and id (srun --mpi=pmi2 sets PMI_*
// next to Slurm's set).
//
// Pure apart from reading TESSERA_JOB_TOKEN_FILE: reads only the Environment
// it is given, so every launcher is testable with fixtures.
#ifndef TESSERA_CORE_CLUSTER_DETECT_H_
#define TESSERA_CORE_CLUSTER_DETECT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/source.h"

namespace tessera::cluster {

// The calling process's environment (environ), read once per call.
Environment ProcessEnvironment();

struct Detection {
  ClusterConfig config;
  // Who gave the process id (else the process count, else the coordinator):
  // "options", "tessera", "keras", "dtensor", "torchrun", "openmpi", "hydra",
  // "slurm", "gketpu", "kubernetes"; "single-process" when nothing was set.
  std::string source;
  // One line per source considered: used, or skipped and why (present and
  // missing variables), how a derived port was computed, caveats (a loopback
  // coordinator for several processes), and a final "result:" line.
  std::vector<std::string> explanation;
};

// Resolves `options` against `env`. Fails with INVALID_ARGUMENT when a chosen
// source is inconsistent or the result is incomplete; the message names the
// option or variable, its value and what was expected.
absl::StatusOr<Detection> Detect(const ClusterOptions& options, const Environment& env);

// OK for "auto", "none", "keras", "dtensor" and every launcher's name;
// INVALID_ARGUMENT naming the accepted values otherwise.
absl::Status ValidateDetectionMethod(absl::string_view method);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_DETECT_H_
