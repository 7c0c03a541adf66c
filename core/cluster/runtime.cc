#include "core/cluster/runtime.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
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

// The explicit options alone: what initialize() uses while Detect is not
// built yet (it answers UNIMPLEMENTED).
ClusterConfig ConfigFromOptions(const ClusterOptions& options) {
  ClusterConfig config;
  config.coordinator_address = options.coordinator_address.value_or("");
  config.num_processes = options.num_processes.value_or(1);
  config.process_id = options.process_id.value_or(0);
  config.local_device_ids = options.local_device_ids.value_or(std::vector<int64_t>{});
  config.job_id = options.job_id.value_or("");
  config.job_token = options.job_token.value_or("");
  config.require_auth = options.require_auth.value_or(false);
  config.tls = options.tls;
  config.init_timeout = options.init_timeout.value_or(kDefaultInitTimeout);
  config.heartbeat_interval = options.heartbeat_interval.value_or(kDefaultHeartbeatInterval);
  config.heartbeat_timeout = options.heartbeat_timeout.value_or(kDefaultHeartbeatTimeout);
  config.shutdown_timeout = options.shutdown_timeout.value_or(kDefaultShutdownTimeout);
  config.rpc_timeout = options.rpc_timeout.value_or(kDefaultRpcTimeout);
  config.recoverable = options.recoverable.value_or(false);
  config.fail_job_on_duplicate_id = options.fail_job_on_duplicate_id.value_or(false);
  config.partition_index = options.partition_index;
  config.max_value_bytes = options.max_value_bytes.value_or(kDefaultMaxValueBytes);
  config.max_store_bytes = options.max_store_bytes.value_or(kDefaultMaxStoreBytes);
  if (options.bind_address.has_value()) {
    config.bind_address = *options.bind_address;
  } else if (!config.coordinator_address.empty()) {
    const size_t colon = config.coordinator_address.rfind(':');
    config.bind_address = absl::StrCat(
        "[::]", colon == std::string::npos ? ":0" : config.coordinator_address.substr(colon));
  }
  return config;
}

// `address` with its port replaced by `port` when it asked for port 0 (or
// named none): what clients dial once process 0 has bound.
std::string WithBoundPort(const std::string& address, int port) {
  const size_t colon = address.rfind(':');
  const size_t bracket = address.rfind(']');
  const bool has_port = colon != std::string::npos &&
                        (bracket == std::string::npos || colon > bracket);
  if (has_port && address.substr(colon + 1) != "0") return address;
  const std::string host = has_port ? address.substr(0, colon) : address;
  return absl::StrCat(host, ":", port);
}

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
  TESSERA_ASSIGN_OR_RETURN(*client_options.devices, LocalDevices(config.local_device_ids));
  if (config.process_id == 0 && config.num_processes > 1) {
    TESSERA_ASSIGN_OR_RETURN(client_options.server, CoordinatorServer::Start(config));
    config.coordinator_address =
        WithBoundPort(config.coordinator_address, client_options.server->port());
  }
  client_options.on_destroy = RestoreLocalRuntime;
  TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<Client> client,
                           Client::Connect(config, std::move(client_options)));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> devices, client->Devices());
  SetGlobalDevices(std::move(devices));
  SetRuntimeProcessInfo(ProcessInfo{config.num_processes, config.process_id});
  return client;
}

}  // namespace

absl::StatusOr<ClusterConfig> ResolveConfig(const ClusterOptions& options) {
  absl::StatusOr<Detection> detection = Detect(options, ProcessEnvironment());
  if (detection.status().code() == absl::StatusCode::kUnimplemented) {
    return ConfigFromOptions(options);
  }
  TESSERA_RETURN_IF_ERROR(detection.status());
  return std::move(detection->config);
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
