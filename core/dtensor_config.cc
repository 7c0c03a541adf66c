// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/dtensor_config.h"

#include <algorithm>
#include <utility>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/device.h"
#include "core/device_discovery.h"
#include "core/py_int.h"
#include "core/py_repr.h"
#include "core/status_macros.h"

extern char** environ;  // POSIX

namespace tessera {
namespace {

bool IsDTensorType(absl::string_view upper) {
  return upper == "CPU" || upper == "GPU" || upper == "TPU";
}

// DTensor's _bns_task_id: the text before the first ':' of the last '/'
// component, as an int when Python's int() takes it, else the whole job.
std::variant<int64_t, std::string> BnsTaskId(const std::string& job) {
  const absl::string_view last = absl::string_view(job).substr(job.rfind('/') + 1);
  const absl::StatusOr<int64_t> id = ParsePythonInt(last.substr(0, last.find(':')), "task id");
  if (id.ok()) return *id;
  return job;
}

const char* PyTypeName(const std::variant<int64_t, std::string>& key) {
  return key.index() == 0 ? "int" : "str";
}

// jobs == sorted(jobs, key=_bns_task_id). Python's sort is stable, so that
// holds exactly when adjacent keys never decrease; keys of both kinds cannot
// be compared at all (TypeError, named as the first run of the sort meets it:
// the later element on the left).
absl::Status CheckBnsOrder(const std::vector<std::string>& jobs, const std::string& text) {
  for (size_t i = 1; i < jobs.size(); ++i) {
    const auto a = BnsTaskId(jobs[i - 1]);
    const auto b = BnsTaskId(jobs[i]);
    if (a.index() != b.index()) {
      return absl::InvalidArgumentError(absl::StrCat("'<' not supported between instances of '",
                                                     PyTypeName(b), "' and '", PyTypeName(a),
                                                     "'"));
    }
    if (b < a) {
      return absl::InvalidArgumentError(
          absl::StrCat("Unexpected DTENSOR_JOBS content ", text,
                       ". Sort entries in DTENSOR_JOBS because cluster construction relies on "
                       "the order."));
    }
  }
  return absl::OkStatus();
}

absl::Status NotADTensorType(absl::string_view device_type) {
  return absl::InvalidArgumentError(
      absl::StrCat("Device type ", device_type, " is not CPU, GPU, or TPU."));
}

}  // namespace

DTensorConfig::DTensorConfig(Variables variables, std::map<std::string, int64_t> num_local_devices,
                             bool accelerators_initialized)
    : variables_(std::move(variables)),
      num_local_devices_(std::move(num_local_devices)),
      accelerators_initialized_(accelerators_initialized) {}

DTensorConfig::Variables DTensorConfig::ProcessVariables() {
  Variables out;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const absl::string_view text(*entry);
    if (!absl::StartsWith(text, "DTENSOR_")) continue;
    const size_t eq = text.find('=');
    if (eq == absl::string_view::npos) continue;
    out[std::string(text.substr(0, eq))] = std::string(text.substr(eq + 1));
  }
  return out;
}

absl::StatusOr<DTensorConfig::Variables> DTensorConfig::ParseAssignments(
    absl::Span<const std::string> assignments) {
  Variables out;
  for (size_t i = 0; i < assignments.size(); ++i) {
    const std::string& entry = assignments[i];
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'variables' entry ", i, " ",
                                                     PyStrRepr(entry),
                                                     " is not NAME=VALUE with a non-empty NAME"));
    }
    out[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  return out;
}

const std::string* DTensorConfig::Find(absl::string_view name) const {
  const auto it = variables_.find(name);
  return it == variables_.end() ? nullptr : &it->second;
}

absl::StatusOr<std::vector<std::string>> DTensorConfig::Jobs() const {
  const std::string* text = Find(kJobs);
  if (text == nullptr || text->empty()) return std::vector<std::string>();
  std::vector<std::string> jobs = absl::StrSplit(*text, ',');
  if (std::any_of(jobs.begin(), jobs.end(),
                  [](const std::string& job) { return absl::StartsWith(job, "/bns/"); })) {
    TESSERA_RETURN_IF_ERROR(CheckBnsOrder(jobs, *text));
  }
  return jobs;
}

absl::StatusOr<bool> DTensorConfig::IsLocalMode() const {
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> jobs, Jobs());
  return jobs.empty();
}

absl::StatusOr<int64_t> DTensorConfig::NumClients() const {
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> jobs, Jobs());
  return jobs.empty() ? 1 : static_cast<int64_t>(jobs.size());
}

absl::StatusOr<int64_t> DTensorConfig::ClientId() const {
  const std::string* text = Find(kClientId);
  TESSERA_ASSIGN_OR_RETURN(const int64_t id,
                           ParsePythonInt(text == nullptr ? "0" : *text, kClientId));
  if (id < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Environment variable ", kClientId, " must be >= 0, got ", id, ". "));
  }
  TESSERA_ASSIGN_OR_RETURN(const int64_t clients, NumClients());
  if (id >= clients) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", kClientId,
                                                   " must be < ", clients, ", got ", id));
  }
  return id;
}

absl::StatusOr<std::string> DTensorConfig::JobName() const {
  // os.environ.get(name, default) computes its default first.
  TESSERA_ASSIGN_OR_RETURN(const int64_t clients, NumClients());
  const std::string* text = Find(kJobName);
  if (text != nullptr) return *text;
  return std::string(clients == 1 ? "localhost" : "worker");
}

absl::StatusOr<std::string> DTensorConfig::FullJobName(std::optional<int64_t> task_id) const {
  if (!task_id.has_value()) {
    TESSERA_ASSIGN_OR_RETURN(task_id, ClientId());
  }
  TESSERA_ASSIGN_OR_RETURN(const int64_t clients, NumClients());
  if (clients == 1 && *task_id != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unexpected task ID ", *task_id, " in local runs"));
  }
  TESSERA_ASSIGN_OR_RETURN(const std::string job, JobName());
  return absl::StrCat(job, "/replica:0/task:", *task_id);
}

bool DTensorConfig::HeartbeatEnabled() const {
  const std::string* text = Find(kHeartbeatEnabled);
  const std::string value = absl::AsciiStrToLower(text == nullptr ? "true" : *text);
  return value == "true" || value == "1";
}

absl::StatusOr<int64_t> DTensorConfig::NumLocalDevices(absl::string_view device_type) const {
  const std::string upper = absl::AsciiStrToUpper(device_type);
  if (!IsDTensorType(upper)) return 0;
  if (const auto it = num_local_devices_.find(upper); it != num_local_devices_.end()) {
    return it->second;
  }
  TESSERA_ASSIGN_OR_RETURN(const Platform platform, ParsePlatform(upper));
  TESSERA_ASSIGN_OR_RETURN(const std::vector<LocalDeviceInfo> local, DiscoverLocalDevices());
  return static_cast<int64_t>(std::count_if(
      local.begin(), local.end(), [&](const LocalDeviceInfo& d) { return d.platform == platform; }));
}

absl::StatusOr<int64_t> DTensorConfig::NumGlobalDevices(absl::string_view device_type) const {
  TESSERA_ASSIGN_OR_RETURN(const int64_t local, NumLocalDevices(device_type));
  TESSERA_ASSIGN_OR_RETURN(const int64_t clients, NumClients());
  return local * clients;
}

std::vector<std::string> DTensorDeviceNames(absl::string_view upper_type, absl::string_view job,
                                            int64_t task, int64_t count) {
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(std::max<int64_t>(count, 0)));
  for (int64_t i = 0; i < count; ++i) {
    out.push_back(absl::StrCat("/job:", job, "/replica:0/task:", task, "/device:", upper_type,
                               ":", i));
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> DTensorConfig::LocalDevices(
    absl::string_view device_type, std::optional<int64_t> for_client_id) const {
  const std::string upper = absl::AsciiStrToUpper(device_type);
  if (!IsDTensorType(upper)) return NotADTensorType(device_type);
  if (!for_client_id.has_value()) {
    TESSERA_ASSIGN_OR_RETURN(for_client_id, ClientId());
  }
  TESSERA_ASSIGN_OR_RETURN(const std::string job, JobName());
  TESSERA_ASSIGN_OR_RETURN(const int64_t count, NumLocalDevices(upper));
  return DTensorDeviceNames(upper, job, *for_client_id, count);
}

absl::StatusOr<int64_t> DTensorConfig::LegacyNumClients() const {
  const std::string* text = Find(kNumClients);
  return ParsePythonInt(text == nullptr ? "1" : *text, kNumClients);
}

absl::StatusOr<int64_t> DTensorConfig::LegacyClientId() const {
  const std::string* text = Find(kClientId);
  return ParsePythonInt(text == nullptr ? "0" : *text, kClientId);
}

std::string DTensorConfig::LegacyJobName() const {
  const std::string* text = Find(kJobName);
  return text == nullptr ? "localhost" : *text;
}

absl::StatusOr<std::vector<std::string>> DTensorConfig::LegacyLocalDevices(
    absl::string_view device_type, int64_t client_id) const {
  const std::string upper = absl::AsciiStrToUpper(device_type);
  if (!IsDTensorType(upper)) return NotADTensorType(device_type);
  TESSERA_ASSIGN_OR_RETURN(const int64_t count, NumLocalDevices(upper));
  return DTensorDeviceNames(upper, LegacyJobName(), client_id, count);
}

}  // namespace tessera
