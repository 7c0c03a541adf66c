// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/framework_env.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/dtensor_config.h"
#include "core/py_int.h"
#include "core/py_repr.h"
#include "core/status_macros.h"

namespace tessera::cluster {
namespace {

constexpr char kKerasAddresses[] = "KERAS_DISTRIBUTION_JOB_ADDRESSES";
constexpr char kKerasNum[] = "KERAS_DISTRIBUTION_NUM_PROCESSES";
constexpr char kKerasId[] = "KERAS_DISTRIBUTION_PROCESS_ID";

constexpr char kDtJobs[] = "DTENSOR_JOBS";
constexpr char kDtClientId[] = "DTENSOR_CLIENT_ID";
constexpr char kDtNumClients[] = "DTENSOR_NUM_CLIENTS";
constexpr char kDtJobName[] = "DTENSOR_JOB_NAME";

// Python's int() of an environment variable's value; the variable is named
// after Python's message (Keras's traceback shows which one it was).
absl::StatusOr<int64_t> PythonInt(absl::string_view name, const std::string& text) {
  absl::StatusOr<int64_t> value = ParsePythonInt(text, absl::StrCat("Environment variable ", name));
  if (value.status().code() == absl::StatusCode::kInvalidArgument) {
    return absl::InvalidArgumentError(
        absl::StrCat(value.status().message(), " (environment variable ", name, ")"));
  }
  return value;
}

}  // namespace

absl::StatusOr<KerasInitializeResolution> ResolveKerasInitialize(const KerasInitializeArguments& explicit_arguments,
                                                                  const Environment& env) {
  KerasInitializeResolution r;
  r.arguments = explicit_arguments;
  KerasInitializeArguments& a = r.arguments;
  if (const std::string* value = FindVar(env, kKerasAddresses); value && !a.job_addresses) {
    a.job_addresses = *value;
    r.job_addresses_from_env = true;
  }
  if (const std::string* value = FindVar(env, kKerasNum); value && !a.num_processes) {
    TESSERA_ASSIGN_OR_RETURN(a.num_processes, PythonInt(kKerasNum, *value));
    r.num_processes_from_env = true;
  }
  if (const std::string* value = FindVar(env, kKerasId); value && !a.process_id) {
    TESSERA_ASSIGN_OR_RETURN(a.process_id, PythonInt(kKerasId, *value));
    r.process_id_from_env = true;
  }
  if (!a.job_addresses) return r;
  // JAX's backend: "if job_addresses and ',' in job_addresses".
  if (absl::StrContains(*a.job_addresses, ',')) {
    r.job_address_list = absl::StrSplit(*a.job_addresses, ',');
    if (a.num_processes && *a.num_processes != static_cast<int64_t>(r.job_address_list.size())) {
      return absl::InvalidArgumentError(absl::StrCat("The provided job_addresses ", PyStrListRepr(r.job_address_list),
                                                     " has ", r.job_address_list.size(),
                                                     " jobs, but num_processes is ", *a.num_processes));
    }
    r.coordinator_address = r.job_address_list.front();
  } else {
    r.job_address_list = {*a.job_addresses};
    r.coordinator_address = *a.job_addresses;
  }
  return r;
}

absl::StatusOr<SourceResult> ReadKerasEnvironment(const Environment& env, const KerasArguments& above) {
  SourceResult result;
  if (!FindVar(env, kKerasAddresses) && !FindVar(env, kKerasNum) && !FindVar(env, kKerasId)) {
    result.diagnostic = absl::StrCat("none of ", kKerasAddresses, ", ", kKerasNum, ", ", kKerasId, " set");
    return result;
  }
  result.state = SourceResult::State::kPresent;
  // An argument decided above counts as given explicitly; a given address
  // stands in as "" (falsy for Keras: no split, no count check).
  KerasInitializeArguments given;
  if (above.has_job_addresses) given.job_addresses = "";
  given.num_processes = above.num_processes;
  if (above.has_process_id) given.process_id = 0;
  TESSERA_ASSIGN_OR_RETURN(const KerasInitializeResolution keras, ResolveKerasInitialize(given, env));
  Contribution& out = result.contribution;
  std::vector<std::string> read;
  // Tessera, unlike JAX, starts no job with a count below 1 or a negative id.
  const auto at_least = [](const char* name, int64_t value, int64_t min) -> absl::StatusOr<int64_t> {
    if (value >= min) return value;
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", name, " must be >= ", min, ", got ", value));
  };
  if (keras.num_processes_from_env) {
    TESSERA_ASSIGN_OR_RETURN(out.num_processes, at_least(kKerasNum, *keras.arguments.num_processes, 1));
    read.push_back(kKerasNum);
  }
  if (keras.process_id_from_env) {
    TESSERA_ASSIGN_OR_RETURN(out.process_id, at_least(kKerasId, *keras.arguments.process_id, 0));
    read.push_back(kKerasId);
  }
  // An empty string is falsy in Python: no addresses.
  if (keras.job_addresses_from_env && !keras.arguments.job_addresses->empty()) {
    TESSERA_ASSIGN_OR_RETURN(out.coordinator, ParseHostPort(*keras.coordinator_address,
                                                            absl::StrCat("The first entry of ", kKerasAddresses)));
    read.push_back(kKerasAddresses);
  }
  result.diagnostic = read.empty() ? "set, but every argument it could give was already given"
                                   : absl::StrCat("read ", absl::StrJoin(read, ", "));
  return result;
}

absl::StatusOr<SourceResult> ReadDtensorEnvironment(const Environment& env) {
  SourceResult result;
  const std::string* jobs_var = FindVar(env, kDtJobs);
  const std::string* client_var = FindVar(env, kDtClientId);
  const std::string* num_var = FindVar(env, kDtNumClients);
  const std::string* name_var = FindVar(env, kDtJobName);
  if (!jobs_var && !client_var && !num_var && !name_var) {
    result.diagnostic = absl::StrCat("none of ", kDtJobs, ", ", kDtClientId, ", ", kDtNumClients, ", ", kDtJobName, " set");
    return result;
  }
  DTensorConfig::Variables jobs_only;
  if (jobs_var) jobs_only[kDtJobs] = *jobs_var;
  // config.py's jobs(): the split and its "/bns/" order check.
  TESSERA_ASSIGN_OR_RETURN(const std::vector<std::string> jobs,
                           DTensorConfig(std::move(jobs_only), {}, true).Jobs());
  // num_clients(): 1 in local mode, otherwise len(jobs()).
  const int64_t num_clients = jobs.empty() ? 1 : static_cast<int64_t>(jobs.size());
  if (jobs.empty()) {
    // The legacy (TF 2.9-2.11) checks of single-client mode.
    if (name_var && *name_var != "localhost") {
      return absl::InvalidArgumentError(
          "DTENSOR_JOBS environment variable is required whenusing multi-client to properly set up communications "
          "between servers");
    }
    if (num_var) {
      TESSERA_ASSIGN_OR_RETURN(const int64_t legacy, ParseIntVar(kDtNumClients, *num_var));
      if (legacy != 1) {
        return absl::InvalidArgumentError(
            "DTENSOR_NUM_CLIENTS is set and not 1, while DTENSOR_JOB_NAME is set to localhost for single client "
            "mode.");
      }
    }
  } else if (num_var) {
    TESSERA_ASSIGN_OR_RETURN(const int64_t legacy, ParseIntVar(kDtNumClients, *num_var));
    if (legacy != num_clients) {
      return absl::InvalidArgumentError(absl::StrCat("Environment variable DTENSOR_NUM_CLIENTS is ", legacy,
                                                     " but DTENSOR_JOBS lists ", num_clients, " jobs"));
    }
  }
  int64_t client_id = 0;
  if (client_var) {
    TESSERA_ASSIGN_OR_RETURN(client_id, ParseIntVar(kDtClientId, *client_var));
  }
  if (client_id < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Environment variable DTENSOR_CLIENT_ID must be >= 0, got ", client_id, ". "));
  }
  if (client_id >= num_clients) {
    return absl::InvalidArgumentError(
        absl::StrCat("Environment variable DTENSOR_CLIENT_ID must be < ", num_clients, ", got ", client_id));
  }
  if (jobs.empty()) {
    result.diagnostic = "DTENSOR_JOBS unset or empty: DTensor's local mode (one client), nothing to use";
    return result;
  }
  result.state = SourceResult::State::kPresent;
  Contribution& out = result.contribution;
  out.num_processes = num_clients;
  out.process_id = client_id;
  if (absl::StartsWith(jobs.front(), "/bns/")) {
    out.notes.push_back(absl::StrCat("dtensor: DTENSOR_JOBS[0] \"", jobs.front(),
                                     "\" is a BNS name, not an address; give the coordinator address explicitly"));
  } else {
    TESSERA_ASSIGN_OR_RETURN(out.coordinator, ParseHostPort(jobs.front(), "DTENSOR_JOBS[0]"));
    out.notes.push_back(absl::StrCat("dtensor: the coordinator is DTENSOR_JOBS[0] (client 0's task, as DTensor's "
                                     "coordination service leader)"));
  }
  result.diagnostic = absl::StrCat("DTENSOR_JOBS lists ", num_clients, " clients, DTENSOR_CLIENT_ID=", client_id);
  return result;
}

}  // namespace tessera::cluster
