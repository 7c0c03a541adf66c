// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera_cluster_options setters, tessera_detection_create and tessera_detection_*.
#include "tessera/cluster.h"
#include "tessera/experimental/cluster.h"
#include "tessera/experimental/coordinator_service.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "capi/cluster_handles.h"
#include "capi/guard.h"
#include "core/cluster/detect.h"
#include "core/cluster/host_port.h"
#include "core/status_macros.h"

namespace tessera::capi {
namespace {

absl::Status AtLeast(int64_t value, int64_t min, const char* name) {
  if (value >= min) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' must be >= ", min, ", got ", value));
}

absl::Status Positive(int64_t value, const char* name) {
  if (value > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' must be > 0, got ", value));
}

// Runs `set` on the options' core value: the shape of every setter here.
template <typename Set>
bool Setter(tessera_cluster_options* options, tessera_error** out_error, Set&& set) noexcept {
  return tessera::capi::SetOption(options, out_error,
                                  [&](tessera_cluster_options& o) -> absl::Status { return set(o.impl); });
}

// The one parse of an address the caller gives; the typed value travels on.
absl::StatusOr<cluster::HostPort> Address(const char* address, const char* name) {
  TESSERA_RETURN_IF_ERROR(CheckNotNull(address, name));
  // Port 0: process 0 (or a bind) may take any free port.
  return cluster::ParseHostPort(address, absl::StrCat("Argument '", name, "'"), /*allow_port_zero=*/true);
}

absl::StatusOr<tessera_detection*> NewDetection(const tessera_cluster_options* options,
                                                const cluster::Environment& env) {
  const cluster::ClusterOptions none;
  TESSERA_ASSIGN_OR_RETURN(cluster::Detection detection, cluster::Detect(options ? options->impl : none, env));
  auto out = std::make_unique<tessera_detection>();
  out->explanation = absl::StrJoin(detection.explanation, "\n");
  out->coordinator_address = cluster::AddressText(detection.config.coordinator_address);
  out->bind_address = cluster::AddressText(detection.config.bind_address);
  out->impl = std::move(detection);
  return out.release();
}

}  // namespace

absl::StatusOr<cluster::Environment> ParseEnvironment(const char* const* env, size_t num_env) {
  TESSERA_RETURN_IF_ERROR(CheckArray(env, num_env, "env", "num_env"));
  cluster::Environment parsed;
  for (size_t i = 0; i < num_env; ++i) {
    const std::string name = absl::StrCat("env[", i, "]");
    TESSERA_RETURN_IF_ERROR(CheckNotNull(env[i], name.c_str()));
    const absl::string_view entry(env[i]);
    const size_t equals = entry.find('=');
    if (equals == absl::string_view::npos || equals == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument '", name, "' must be \"NAME=VALUE\" with a non-empty NAME, got \"", entry, "\""));
    }
    // A later entry replaces an earlier one, as a second export would.
    parsed[std::string(entry.substr(0, equals))] = std::string(entry.substr(equals + 1));
  }
  return parsed;
}

}  // namespace tessera::capi

using tessera::capi::AtLeast;
using tessera::capi::Guard;
using tessera::capi::Positive;
using tessera::capi::Setter;
using tessera::capi::ToInt64;
using tessera::cluster::ClusterOptions;

tessera_cluster_options* tessera_cluster_options_create(void) noexcept {
  return Guard(nullptr, []() -> absl::StatusOr<tessera_cluster_options*> { return new tessera_cluster_options(); });
}

void tessera_cluster_options_destroy(tessera_cluster_options* options) noexcept { delete options; }

bool tessera_cluster_options_set_coordinator_address(tessera_cluster_options* options, const char* address,
                                                     tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.coordinator_address, tessera::capi::Address(address, "address"));
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_bind_address(tessera_cluster_options* options, const char* address,
                                              tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.bind_address, tessera::capi::Address(address, "address"));
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_num_processes(tessera_cluster_options* options, size_t num_processes,
                                               tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(const int64_t count, ToInt64(num_processes, "num_processes"));
    TESSERA_RETURN_IF_ERROR(AtLeast(count, 1, "num_processes"));
    o.num_processes = count;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_process_index(tessera_cluster_options* options, size_t process_index,
                                               tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.process_id, ToInt64(process_index, "process_index"));
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_local_device_ids(tessera_cluster_options* options, const int64_t* ids, size_t num_ids,
                                                  tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE_ARRAY(ids, num_ids);
    std::vector<int64_t> copy;
    absl::flat_hash_set<int64_t> seen;
    for (size_t i = 0; i < num_ids; ++i) {
      const std::string name = absl::StrCat("ids[", i, "]");
      TESSERA_RETURN_IF_ERROR(AtLeast(ids[i], 0, name.c_str()));
      if (!seen.insert(ids[i]).second) {
        return absl::InvalidArgumentError(
            absl::StrCat("Argument '", name, "' repeats local device id ", ids[i], "; expected distinct ids"));
      }
      copy.push_back(ids[i]);
    }
    // Count 0 means all local devices: the same as never setting it.
    if (copy.empty()) {
      o.local_device_ids.reset();
    } else {
      o.local_device_ids = std::move(copy);
    }
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_job_id(tessera_cluster_options* options, const char* job_id,
                                        tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(job_id);
    o.job_id = job_id;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_job_token(tessera_cluster_options* options, const char* token,
                                           tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(token);
    // "" clears the option, so TESSERA_JOB_TOKEN(_FILE) may supply one again.
    if (*token == '\0') {
      o.job_token.reset();
    } else {
      o.job_token = token;
    }
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_require_auth(tessera_cluster_options* options, bool require,
                                              tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    o.require_auth = require;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_tls(tessera_cluster_options* options, const char* cert_file, const char* key_file,
                                     const char* ca_file, tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    // A server needs both halves of its key pair.
    if ((cert_file == nullptr) != (key_file == nullptr)) {
      return absl::InvalidArgumentError(absl::StrCat("Arguments 'cert_file' and 'key_file' must be set together, got ",
                                                     cert_file ? "a cert_file" : "a key_file", " alone"));
    }
    if (cert_file) o.tls.cert_file = cert_file;
    if (key_file) o.tls.key_file = key_file;
    if (ca_file) o.tls.ca_file = ca_file;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_tls_require_client_cert(tessera_cluster_options* options, bool require,
                                                         tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    o.tls.require_client_cert = require;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_tls_peer_uri_prefix(tessera_cluster_options* options, const char* prefix,
                                                     tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(prefix);
    o.tls.peer_uri_prefix = prefix;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_tls_server_name(tessera_cluster_options* options, const char* name,
                                                 tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(name);
    o.tls.server_name = name;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_tls_reload_interval_ms(tessera_cluster_options* options, int64_t interval_ms,
                                                       tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    // gRPC's file watcher counts in 32-bit whole seconds: below one second it
    // would spin, and a year is plenty.
    constexpr int64_t kSecond = 1000;
    constexpr int64_t kYear = int64_t{365} * 24 * 3600 * kSecond;
    if (interval_ms < kSecond || interval_ms > kYear) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'interval_ms' must be in [", kSecond, ", ", kYear,
                                                     "] (a second to a year), got ", interval_ms));
    }
    o.tls.reload_interval = absl::Seconds((interval_ms + kSecond - 1) / kSecond);
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_init_timeout_ms(tessera_cluster_options* options, int64_t timeout_ms,
                                                 tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(Positive(timeout_ms, "timeout_ms"));
    o.init_timeout = absl::Milliseconds(timeout_ms);
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_heartbeat(tessera_cluster_options* options, int64_t interval_ms, int64_t timeout_ms,
                                           tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(Positive(interval_ms, "interval_ms"));
    // timeout >= 3 x interval, written so that 3 x interval cannot overflow.
    if (timeout_ms / 3 < interval_ms) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'timeout_ms' must be >= 3 x interval_ms (3 x ",
                                                     interval_ms, "), got ", timeout_ms));
    }
    o.heartbeat_interval = absl::Milliseconds(interval_ms);
    o.heartbeat_timeout = absl::Milliseconds(timeout_ms);
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_shutdown_timeout_ms(tessera_cluster_options* options, int64_t timeout_ms,
                                                     tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(Positive(timeout_ms, "timeout_ms"));
    o.shutdown_timeout = absl::Milliseconds(timeout_ms);
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_rpc_timeout_ms(tessera_cluster_options* options, int64_t timeout_ms,
                                                tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(Positive(timeout_ms, "timeout_ms"));
    o.rpc_timeout = absl::Milliseconds(timeout_ms);
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_recoverable(tessera_cluster_options* options, bool recoverable,
                                             tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    o.recoverable = recoverable;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_fail_job_on_duplicate_id(tessera_cluster_options* options, bool fail,
                                                          tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    o.fail_job_on_duplicate_id = fail;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_partition_index(tessera_cluster_options* options, size_t partition_index,
                                                 tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.partition_index, ToInt64(partition_index, "partition_index"));
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_kv_limits(tessera_cluster_options* options, int64_t max_value_bytes,
                                           int64_t max_store_bytes, tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(Positive(max_value_bytes, "max_value_bytes"));
    if (max_store_bytes < max_value_bytes) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'max_store_bytes' must be >= max_value_bytes (",
                                                     max_value_bytes, "), got ", max_store_bytes));
    }
    o.max_value_bytes = max_value_bytes;
    o.max_store_bytes = max_store_bytes;
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_detection(tessera_cluster_options* options, const char* method,
                                           tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(method);
    TESSERA_RETURN_IF_ERROR(tessera::cluster::ValidateDetectionMethod(method));
    o.detection = method;
    return absl::OkStatus();
  });
}

tessera_detection* tessera_detection_create(const tessera_cluster_options* options, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_detection*> {
    return tessera::capi::NewDetection(options, tessera::cluster::ProcessEnvironment());
  });
}

tessera_detection* tessera_detection_create_from_env(const tessera_cluster_options* options, const char* const* env, size_t num_env,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_detection*> {
    TESSERA_ASSIGN_OR_RETURN(tessera::cluster::Environment parsed, tessera::capi::ParseEnvironment(env, num_env));
    return tessera::capi::NewDetection(options, parsed);
  });
}

const char* tessera_detection_source(const tessera_detection* detection,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->impl.source.c_str());
}

const char* tessera_detection_coordinator_address(const tessera_detection* detection,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->coordinator_address.c_str());
}

const char* tessera_detection_bind_address(const tessera_detection* detection,
                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->bind_address.c_str());
}

size_t tessera_detection_num_processes(const tessera_detection* detection,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->impl.config.num_processes);
}

size_t tessera_detection_process_index(const tessera_detection* detection,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->impl.config.process_id);
}

const char* tessera_detection_job_id(const tessera_detection* detection,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->impl.config.job_id.c_str());
}

size_t tessera_detection_num_local_device_ids(const tessera_detection* detection,
                                              tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->impl.config.local_device_ids.size());
}

int64_t tessera_detection_local_device_id(const tessera_detection* detection, size_t index,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(detection, index, detection->impl.config.local_device_ids.size(),
                            "the detected local device ids",
                            detection->impl.config.local_device_ids[index]);
}

const char* tessera_detection_explanation(const tessera_detection* detection,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(detection, detection->explanation.c_str());
}

void tessera_detection_destroy(tessera_detection* detection) noexcept { delete detection; }

bool tessera_cluster_options_set_connection_timeouts(tessera_cluster_options* options, int64_t handshake_timeout_ms,
                                                     int64_t idle_timeout_ms, tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    auto in_range = [](int64_t value, const char* name, int64_t low, int64_t high) {
      return value >= low && value <= high
                 ? absl::OkStatus()
                 : absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' must be in [", low, ", ", high,
                                                           "] milliseconds, got ", value));
    };
    TESSERA_RETURN_IF_ERROR(in_range(handshake_timeout_ms, "handshake_timeout_ms", 100, 600000));
    TESSERA_RETURN_IF_ERROR(in_range(idle_timeout_ms, "idle_timeout_ms", 1000, 86400000));
    o.connections.handshake = absl::Milliseconds(handshake_timeout_ms);
    o.connections.idle = absl::Milliseconds(idle_timeout_ms);
    return absl::OkStatus();
  });
}

bool tessera_cluster_options_set_metrics_bind(tessera_cluster_options* options, const char* address,
                                              tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](ClusterOptions& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(tessera::cluster::HostPort bind, tessera::capi::Address(address, "address"));
    if (!bind.port.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'address' must be HOST:PORT (port 0: any free port), got '", address, "'"));
    }
    o.metrics_bind = std::move(bind);
    return absl::OkStatus();
  });
}
