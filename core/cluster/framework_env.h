// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The frameworks' own multi-process variables, read with their semantics:
// Keras's KERAS_DISTRIBUTION_* (keras.distribution.initialize) and DTensor's
// DTENSOR_* (tf.experimental.dtensor's config.py), including their checks and
// error messages (keras.md §1.3, dtensor.md §3).
#ifndef TESSERA_CORE_CLUSTER_FRAMEWORK_ENV_H_
#define TESSERA_CORE_CLUSTER_FRAMEWORK_ENV_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/cluster/source.h"

namespace tessera::cluster {

// keras.distribution.initialize(job_addresses, num_processes, process_id):
// an argument that is None (nullopt) is read from its variable when that is
// set, the numbers through Python's int() (surrounding whitespace, a sign and
// underscores between digits allowed; a value outside int64 is refused).
struct KerasInitializeArguments {
  std::optional<std::string> job_addresses;
  std::optional<int64_t> num_processes;
  std::optional<int64_t> process_id;
};

// What Keras hands to its backend, and what JAX's backend makes of it. A
// field still nullopt is None: JAX (or a launcher) detects it, which is valid.
struct KerasInitializeResolution {
  KerasInitializeArguments arguments;  // after the variables
  // Which of the three came from the environment.
  bool job_addresses_from_env = false;
  bool num_processes_from_env = false;
  bool process_id_from_env = false;
  // job_addresses split on ',' when it is non-empty and holds one; else the
  // one string itself; empty when job_addresses is None.
  std::vector<std::string> job_address_list;
  // JAX's coordinator_address: the first entry of the list, else
  // job_addresses as given (possibly ""), else None.
  std::optional<std::string> coordinator_address;
};

// Errors (INVALID_ARGUMENT): a variable int() refuses ("invalid literal for
// int() with base 10: 'abc' (environment variable
// KERAS_DISTRIBUTION_PROCESS_ID)"), and a comma list whose length differs
// from a given num_processes (Keras's "The provided job_addresses ['a:1',
// 'b:2'] has 2 jobs, but num_processes is 3").
absl::StatusOr<KerasInitializeResolution> ResolveKerasInitialize(const KerasInitializeArguments& explicit_arguments,
                                                                  const Environment& env);

// What the sources above Keras (options, TESSERA_*) already decided: Keras
// reads a variable only for an argument that is still None, and checks the
// address count against the num_processes it ends up with.
struct KerasArguments {
  bool has_job_addresses = false;
  std::optional<int64_t> num_processes;
  bool has_process_id = false;
};

// KERAS_DISTRIBUTION_JOB_ADDRESSES ("a:1,b:2": the first is the coordinator;
// with a comma the count must equal num_processes, else Keras's "The provided
// job_addresses ['a:1', 'b:2'] has 2 jobs, but num_processes is 3"),
// KERAS_DISTRIBUTION_NUM_PROCESSES and KERAS_DISTRIBUTION_PROCESS_ID
// (integers; anything else is INVALID_ARGUMENT naming the variable).
absl::StatusOr<SourceResult> ReadKerasEnvironment(const Environment& env, const KerasArguments& above);

// DTENSOR_JOBS (comma list of host:port in client-id order; "/bns/" lists must
// be sorted by task id), DTENSOR_CLIENT_ID (default 0, 0 <= id < number of
// jobs), the legacy DTENSOR_NUM_CLIENTS and DTENSOR_JOB_NAME. With jobs the
// coordinator is DTENSOR_JOBS[0] (client 0 hosts DTensor's coordination
// service too); without them DTensor is in local mode and contributes nothing.
absl::StatusOr<SourceResult> ReadDtensorEnvironment(const Environment& env);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_FRAMEWORK_ENV_H_
