#include "core/cluster/framework_env.h"

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

// Python's repr of a list of strings: ['a', 'b'].
std::string PythonListRepr(const std::vector<std::string>& items) {
  return absl::StrCat("[", absl::StrJoin(items, ", ", [](std::string* out, const std::string& item) {
    absl::StrAppend(out, "'", item, "'");
  }), "]");
}

}  // namespace

absl::StatusOr<SourceResult> ReadKerasEnvironment(const Environment& env, const KerasArguments& above) {
  SourceResult result;
  const std::string* addresses = FindVar(env, kKerasAddresses);
  const std::string* num = FindVar(env, kKerasNum);
  const std::string* id = FindVar(env, kKerasId);
  if (!addresses && !num && !id) {
    result.diagnostic = absl::StrCat("none of ", kKerasAddresses, ", ", kKerasNum, ", ", kKerasId, " set");
    return result;
  }
  result.state = SourceResult::State::kPresent;
  Contribution& out = result.contribution;
  std::vector<std::string> read;
  // As Keras: each variable only for an argument still None, int() on the numbers.
  std::optional<int64_t> num_processes = above.num_processes;
  if (num && !above.num_processes) {
    TESSERA_ASSIGN_OR_RETURN(out.num_processes, ParseIntVarAtLeast(kKerasNum, *num, 1));
    num_processes = out.num_processes;
    read.push_back(kKerasNum);
  }
  if (id && !above.has_process_id) {
    TESSERA_ASSIGN_OR_RETURN(out.process_id, ParseIntVarAtLeast(kKerasId, *id, 0));
    read.push_back(kKerasId);
  }
  // An empty string is falsy in Python: no addresses.
  if (addresses && !addresses->empty() && !above.has_job_addresses) {
    std::vector<std::string> list = {*addresses};
    if (absl::StrContains(*addresses, ',')) {
      list = absl::StrSplit(*addresses, ',');
      if (num_processes && *num_processes != static_cast<int64_t>(list.size())) {
        return absl::InvalidArgumentError(absl::StrCat("The provided job_addresses ", PythonListRepr(list), " has ",
                                                       list.size(), " jobs, but num_processes is ", *num_processes));
      }
    }
    TESSERA_ASSIGN_OR_RETURN(out.coordinator,
                             ParseHostPort(list.front(), absl::StrCat("The first entry of ", kKerasAddresses)));
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
