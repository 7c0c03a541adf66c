// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/runtime.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/detect.h"
#include "core/cluster/local_host.h"
#include "core/device.h"
#include "core/distribution.h"
#include "core/status_macros.h"

namespace tessera::cluster {
namespace {

absl::Mutex g_mu;
bool g_initialized ABSL_GUARDED_BY(g_mu) = false;

void RestoreLocalRuntime() {
  SetGlobalDevices(std::nullopt);
  SetRuntimeProcessInfo(ProcessInfo{});
  absl::MutexLock lock(&g_mu);
  g_initialized = false;
}

absl::StatusOr<std::unique_ptr<Client>> InitializeReserved(const ClusterOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(ClusterConfig config, ResolveConfig(options));
  ClientOptions client_options;
  // Registration reports the local devices: read before the job's list is
  // installed.
  client_options.devices.emplace();
  TESSERA_ASSIGN_OR_RETURN(*client_options.devices, LocalDevices(config.local_device_ids, config.local_device_ids_from_launcher));
  if (config.process_id == 0 && config.num_processes > 1) {
    TESSERA_ASSIGN_OR_RETURN(client_options.server, CoordinatorServer::Start(config));
    if (config.coordinator_address) {
      config.coordinator_address =
          WithBoundPort(*std::move(config.coordinator_address), client_options.server->port());
    }
  }
  client_options.on_destroy = RestoreLocalRuntime;
  // One client in this process: the job's devices come with WaitForJob
  // rather than in a call of their own before the first barrier.
  client_options.devices_with_job = true;
  TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<Client> client,
                           Client::Connect(config, std::move(client_options)));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> devices, client->Devices());
  SetGlobalDevices(std::move(devices));
  SetRuntimeProcessInfo(ProcessInfo{config.num_processes, config.process_id});
  return client;
}

}  // namespace

absl::StatusOr<ClusterConfig> ResolveConfig(const ClusterOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(Detection detection, Detect(options, ProcessEnvironment()));
  return std::move(detection.config);
}

absl::StatusOr<std::unique_ptr<Client>> Initialize(const ClusterOptions& options) {
  {
    absl::MutexLock lock(&g_mu);
    if (g_initialized) {
      return absl::FailedPreconditionError(
          "initialize was already called in this process and its client is alive; destroy that "
          "client first");
    }
    g_initialized = true;
  }
  absl::StatusOr<std::unique_ptr<Client>> client = InitializeReserved(options);
  if (!client.ok()) {
    absl::MutexLock lock(&g_mu);
    g_initialized = false;
  }
  return client;
}

bool IsInitialized() {
  absl::MutexLock lock(&g_mu);
  return g_initialized;
}

}  // namespace tessera::cluster
