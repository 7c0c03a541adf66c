// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera_coordinator_*: the coordinator service on its own.
#include <memory>
#include <string>
#include <vector>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "capi/cluster_handles.h"
#include "capi/guard.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/detect.h"
#include "core/cluster/job_status.h"
#include "core/log.h"
#include "core/status_macros.h"
#include "tessera/coordinator.h"
#include "tessera/experimental/coordinator_service.h"

struct tessera_coordinator {
  std::unique_ptr<tessera::cluster::CoordinatorServer> server;
};

struct tessera_job_status {
  std::string job_state;
  struct Process {
    std::string state;
    int64_t ms_since_heartbeat;
    std::string waiting_on;
  };
  std::vector<Process> processes;
};

namespace tessera::capi {
namespace {

// What a coordinator needs, taken straight from the options when detection
// cannot resolve a whole job (a standalone coordinator has no process id).
cluster::ClusterConfig FromOptions(const cluster::ClusterOptions& o, const cluster::Environment& env) {
  cluster::ClusterConfig c;
  c.coordinator_address = o.coordinator_address;
  c.bind_address = o.bind_address;
  if (o.num_processes) c.num_processes = *o.num_processes;
  if (o.job_id) c.job_id = *o.job_id;
  if (o.job_token) {
    c.job_token = *o.job_token;
  } else if (auto it = env.find("TESSERA_JOB_TOKEN"); it != env.end()) {
    c.job_token = it->second;
  }
  if (o.require_auth) c.require_auth = *o.require_auth;
  c.tls = o.tls;
  if (o.init_timeout) c.init_timeout = *o.init_timeout;
  if (o.heartbeat_interval) c.heartbeat_interval = *o.heartbeat_interval;
  if (o.heartbeat_timeout) c.heartbeat_timeout = *o.heartbeat_timeout;
  if (o.shutdown_timeout) c.shutdown_timeout = *o.shutdown_timeout;
  if (o.rpc_timeout) c.rpc_timeout = *o.rpc_timeout;
  if (o.recoverable) c.recoverable = *o.recoverable;
  if (o.fail_job_on_duplicate_id) c.fail_job_on_duplicate_id = *o.fail_job_on_duplicate_id;
  if (o.max_value_bytes) c.max_value_bytes = *o.max_value_bytes;
  if (o.max_store_bytes) c.max_store_bytes = *o.max_store_bytes;
  c.connections = o.connections;
  c.metrics_bind = o.metrics_bind;
  return c;
}

absl::StatusOr<cluster::ClusterConfig> ResolveCoordinatorConfig(const cluster::ClusterOptions& options) {
  if (!options.num_processes) {
    return absl::InvalidArgumentError(
        "tessera_coordinator_start needs num_processes (tessera_cluster_options_set_num_processes)");
  }
  const cluster::Environment env = cluster::ProcessEnvironment();
  absl::StatusOr<cluster::Detection> detection = cluster::Detect(options, env);
  if (detection.ok()) return detection->config;
  Log(LogLevel::kDebug, absl::StrCat("coordinator: detection did not resolve a job (",
                                     detection.status().message(),
                                     "); using the options as given"));
  cluster::ClusterConfig config = FromOptions(options, env);
  if (!config.bind_address && !config.coordinator_address) {
    return absl::InvalidArgumentError(
        "tessera_coordinator_start needs a bind address or a coordinator address "
        "(tessera_cluster_options_set_bind_address)");
  }
  return config;
}

}  // namespace
}  // namespace tessera::capi

tessera_coordinator* tessera_coordinator_start(const tessera_cluster_options* options,
                                               tessera_error** out_error) noexcept {
  return tessera::capi::Guard(out_error, [&]() -> absl::StatusOr<tessera_coordinator*> {
    TESSERA_CAPI_REQUIRE(options);
    TESSERA_ASSIGN_OR_RETURN(tessera::cluster::ClusterConfig config,
                             tessera::capi::ResolveCoordinatorConfig(options->impl));
    TESSERA_ASSIGN_OR_RETURN(auto server, tessera::cluster::CoordinatorServer::Start(config));
    auto coordinator = std::make_unique<tessera_coordinator>();
    coordinator->server = std::move(server);
    return coordinator.release();
  });
}

int tessera_coordinator_port(const tessera_coordinator* coordinator,
                             tessera_error** out_error) noexcept {
  return tessera::capi::Guard(out_error, [&]() -> absl::StatusOr<int> {
    TESSERA_CAPI_REQUIRE(coordinator);
    return coordinator->server->port();
  });
}

bool tessera_coordinator_wait(tessera_coordinator* coordinator, int64_t timeout_ms,
                              tessera_error** out_error) noexcept {
  return tessera::capi::Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(coordinator);
    if (timeout_ms < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'timeout_ms' must be >= 0, got ", timeout_ms));
    }
    return coordinator->server->Wait(absl::Milliseconds(timeout_ms));
  });
}

void tessera_coordinator_stop(tessera_coordinator* coordinator) noexcept {
  if (coordinator == nullptr) return;
  try {
    coordinator->server->Stop();
  } catch (...) {  // nothing may cross the ABI; Stop itself does not throw
  }
}

void tessera_coordinator_destroy(tessera_coordinator* coordinator) noexcept {
  if (coordinator == nullptr) return;
  tessera_coordinator_stop(coordinator);
  delete coordinator;
}

int tessera_coordinator_metrics_port(const tessera_coordinator* coordinator,
                                     tessera_error** out_error) noexcept {
  return tessera::capi::Guard(out_error, [&]() -> absl::StatusOr<int> {
    TESSERA_CAPI_REQUIRE(coordinator);
    const int port = coordinator->server->metrics_port();
    if (port == 0) {
      return absl::FailedPreconditionError(
          "the coordinator serves no metrics: its options set no metrics address "
          "(tessera_cluster_options_set_metrics_bind)");
    }
    return port;
  });
}

tessera_job_status* tessera_job_status_query(const tessera_cluster_options* options, int64_t timeout_ms,
                                             tessera_error** out_error) noexcept {
  return tessera::capi::Guard(out_error, [&]() -> absl::StatusOr<tessera_job_status*> {
    TESSERA_CAPI_REQUIRE(options);
    if (timeout_ms < 1) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'timeout_ms' must be >= 1, got ", timeout_ms));
    }
    if (!options->impl.coordinator_address) {
      return absl::InvalidArgumentError(
          "tessera_job_status_query needs the coordinator's address "
          "(tessera_cluster_options_set_coordinator_address)");
    }
    // The options as given: an operator's query is no process of the job,
    // so nothing is detected from launcher variables.
    const tessera::cluster::ClusterConfig config =
        tessera::capi::FromOptions(options->impl, tessera::cluster::ProcessEnvironment());
    TESSERA_ASSIGN_OR_RETURN(tessera::v1::GetJobStateResponse response,
                             tessera::cluster::QueryJobState(config, absl::Milliseconds(timeout_ms)));
    auto status = std::make_unique<tessera_job_status>();
    status->job_state = tessera::v1::JobState_Name(response.job_state());
    if (status->job_state.rfind("JOB_STATE_", 0) == 0) status->job_state.erase(0, 10);
    for (const tessera::v1::TaskInfo& task : response.tasks()) {
      status->processes.push_back({tessera::cluster::TaskStateText(task.state()), task.ms_since_heartbeat(),
                                   tessera::cluster::WaitingOnText(task)});
    }
    return status.release();
  });
}

void tessera_job_status_destroy(tessera_job_status* status) noexcept { delete status; }

const char* tessera_job_status_job_state(const tessera_job_status* status, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(status, status->job_state.c_str());
}

size_t tessera_job_status_num_processes(const tessera_job_status* status, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(status, status->processes.size());
}

const char* tessera_job_status_process_state(const tessera_job_status* status, size_t index,
                                             tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(status, index, status->processes.size(), "the job's processes",
                             status->processes[index].state.c_str());
}

int64_t tessera_job_status_process_ms_since_heartbeat(const tessera_job_status* status, size_t index,
                                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(status, index, status->processes.size(), "the job's processes",
                             status->processes[index].ms_since_heartbeat);
}

const char* tessera_job_status_process_waiting_on(const tessera_job_status* status, size_t index,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(status, index, status->processes.size(), "the job's processes",
                             status->processes[index].waiting_on.c_str());
}
