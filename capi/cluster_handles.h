// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The definitions behind the cluster handles that more than one glue file
// reads. Private to capi/.
#ifndef TESSERA_CAPI_CLUSTER_HANDLES_H_
#define TESSERA_CAPI_CLUSTER_HANDLES_H_

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/detect.h"
#include "tessera/cluster.h"

// Mutable; what the setters recorded, resolved later by detection.
struct tessera_cluster_options {
  tessera::cluster::ClusterOptions impl;
};

// Immutable once built: the resolution and its explanation joined by "\n"
// (kept here so tessera_detection_explanation can hand out a pointer).
struct tessera_detection {
  tessera::cluster::Detection impl;
  std::string explanation;
  // The resolved addresses as text, kept for the accessors' borrowed strings.
  std::string coordinator_address;
  std::string bind_address;
};

namespace tessera::capi {

// `num_env` "NAME=VALUE" strings as an Environment (a later entry replaces an
// earlier one); INVALID_ARGUMENT naming "env[i]" for a NULL or malformed one.
absl::StatusOr<cluster::Environment> ParseEnvironment(const char* const* env, size_t num_env);

}  // namespace tessera::capi

#endif  // TESSERA_CAPI_CLUSTER_HANDLES_H_
