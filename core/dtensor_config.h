// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TF DTensor's configuration (tf.experimental.dtensor's config.py, and the
// TF 2.9-2.11 api.py where its mesh creator still reads it; dtensor.md §3):
// the DTENSOR_* variables read the way DTensor reads them, the local device
// counts DTensor takes from the TF context, and whether the accelerators were
// initialised. A value: every query answers from what it was built with, so
// a caller can ask it without starting a job, and tests need no setenv.
//
// Each query fails where DTensor's function of that name raises, with its
// message (ValueError -> INVALID_ARGUMENT): client_id out of range, unsorted
// "/bns/" jobs (which every query through num_clients() reports, as DTensor's
// job_name() and is_local_mode() do), a non-zero task id in local runs.
#ifndef TESSERA_CORE_DTENSOR_CONFIG_H_
#define TESSERA_CORE_DTENSOR_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessera {

class DTensorConfig {
 public:
  // What os.environ holds for DTensor: name -> value.
  using Variables = std::map<std::string, std::string, std::less<>>;

  // The variables, as config.py spells them.
  static constexpr char kClientId[] = "DTENSOR_CLIENT_ID";
  static constexpr char kNumClients[] = "DTENSOR_NUM_CLIENTS";  // legacy only
  static constexpr char kJobName[] = "DTENSOR_JOB_NAME";
  static constexpr char kJobs[] = "DTENSOR_JOBS";
  static constexpr char kHeartbeatEnabled[] = "DTENSOR_ENABLE_HEARTBEAT";

  // `num_local_devices`: device type (upper case) -> count; a type not listed
  // is counted on this process (DiscoverLocalDevices), as DTensor counts the
  // TF context's devices.
  DTensorConfig(Variables variables, std::map<std::string, int64_t> num_local_devices,
                bool accelerators_initialized);

  // The DTENSOR_* variables of this process's environment.
  static Variables ProcessVariables();
  // "NAME=VALUE" entries (the first '=' splits; a later entry for a name
  // wins, as in an environment). An entry without '=' or with an empty name
  // is INVALID_ARGUMENT naming it.
  static absl::StatusOr<Variables> ParseAssignments(absl::Span<const std::string> assignments);

  // jobs(): DTENSOR_JOBS split on ',' ([] when unset or empty); with a
  // "/bns/" entry the list must already be sorted by task id ("Unexpected
  // DTENSOR_JOBS content <v>. Sort entries in DTENSOR_JOBS because cluster
  // construction relies on the order."). A "/bns/" list mixing numeric and
  // other task ids fails as Python's sort does ("'<' not supported between
  // instances of 'str' and 'int'").
  absl::StatusOr<std::vector<std::string>> Jobs() const;
  // is_local_mode(): no jobs.
  absl::StatusOr<bool> IsLocalMode() const;
  // num_clients(): 1 in local mode, else the number of jobs.
  absl::StatusOr<int64_t> NumClients() const;
  // client_id(): int(DTENSOR_CLIENT_ID or "0") (Python's int(): surrounding
  // whitespace, a sign and '_' between digits allowed; otherwise "invalid
  // literal for int() with base 10: '<v>'"), then "Environment variable
  // DTENSOR_CLIENT_ID must be >= 0, got <v>. " / "... must be < <n>, got <v>".
  absl::StatusOr<int64_t> ClientId() const;
  // job_name(): DTENSOR_JOB_NAME, else "localhost" with one client and
  // "worker" with more (the default is computed, so jobs()' errors apply).
  absl::StatusOr<std::string> JobName() const;
  // full_job_name(task_id): "<job_name>/replica:0/task:<task_id>"; nullopt
  // means client_id(). "Unexpected task ID <t> in local runs" when there is
  // one client and the task id is not 0.
  absl::StatusOr<std::string> FullJobName(std::optional<int64_t> task_id) const;
  // heartbeat_enabled(): DTENSOR_ENABLE_HEARTBEAT (default "true") lower-cased
  // is "true" or "1". Never fails.
  bool HeartbeatEnabled() const;

  // num_local_devices(type): the count for that type (upper-cased); 0 for a
  // type other than CPU, GPU or TPU, as TF lists no such physical devices.
  absl::StatusOr<int64_t> NumLocalDevices(absl::string_view device_type) const;
  // num_global_devices(type) = num_local_devices(type) * num_clients().
  absl::StatusOr<int64_t> NumGlobalDevices(absl::string_view device_type) const;
  // local_devices(type, for_client_id): "/job:<job_name>/replica:0/task:<id>
  // /device:<TYPE>:<i>" for each local device; "Device type XPU is not CPU,
  // GPU, or TPU." first; nullopt means client_id().
  absl::StatusOr<std::vector<std::string>> LocalDevices(
      absl::string_view device_type, std::optional<int64_t> for_client_id = std::nullopt) const;

  // accelerator_util.is_initialized(): initialize_accelerator_system() (or,
  // for the legacy path, initialize_multi_client()) has run.
  bool accelerators_initialized() const { return accelerators_initialized_; }

  // The TF 2.9-2.11 api.py readings the legacy create_distributed_mesh
  // takes its defaults from: int(DTENSOR_NUM_CLIENTS or "1"),
  // int(DTENSOR_CLIENT_ID or "0") (unchecked), DTENSOR_JOB_NAME or
  // "localhost".
  absl::StatusOr<int64_t> LegacyNumClients() const;
  absl::StatusOr<int64_t> LegacyClientId() const;
  std::string LegacyJobName() const;
  // api.local_devices(type, client_id) with the legacy job name.
  absl::StatusOr<std::vector<std::string>> LegacyLocalDevices(absl::string_view device_type,
                                                              int64_t client_id) const;

  const Variables& variables() const { return variables_; }

 private:
  const std::string* Find(absl::string_view name) const;

  Variables variables_;
  std::map<std::string, int64_t> num_local_devices_;
  bool accelerators_initialized_ = true;
};

// DTensor's local device names: "/job:<job>/replica:0/task:<task>/device:
// <TYPE>:<i>" for i in 0..count-1.
std::vector<std::string> DTensorDeviceNames(absl::string_view upper_type, absl::string_view job,
                                            int64_t task, int64_t count);


}  // namespace tessera

#endif  // TESSERA_CORE_DTENSOR_CONFIG_H_
