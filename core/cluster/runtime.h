// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// initialize(): detection, the in-process coordinator for process 0, the
// client, and the global device list and process info it installs.
#ifndef TESSERA_CORE_CLUSTER_RUNTIME_H_
#define TESSERA_CORE_CLUSTER_RUNTIME_H_

#include <memory>

#include "absl/status/statusor.h"
#include "core/cluster/client.h"
#include "core/cluster/cluster_config.h"

namespace tessera::cluster {

// The configuration initialize() and connect use: Detect(options, the
// process environment).
absl::StatusOr<ClusterConfig> ResolveConfig(const ClusterOptions& options);

// Starts this process's part in a job (cluster.h, tessera_runtime_initialize):
// process 0 of a multi-process job starts the coordinator in this process
// first; then the client connects and waits for every process; then
// ListDevices returns the job's devices and RuntimeProcessInfo the process
// count and id. A single process without an address connects nowhere.
// FAILED_PRECONDITION while an earlier initialize's client is alive.
// Destroying the returned client restores local discovery and 1 process.
absl::StatusOr<std::unique_ptr<Client>> Initialize(const ClusterOptions& options);

// True between a successful Initialize and the destruction of its client.
bool IsInitialized();

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_RUNTIME_H_
