#include "core/cluster/framework_env.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
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

// Python's repr of a list of strings: ['a', 'b'].
std::string PythonListRepr(const std::vector<std::string>& items) {
  return absl::StrCat("[", absl::StrJoin(items, ", ", [](std::string* out, const std::string& item) {
    absl::StrAppend(out, "'", item, "'");
  }), "]");
}

bool IsPythonSpace(char c) {
  // str.strip()'s ASCII whitespace, which int() skips.
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

// Python's int(text) for base 10 over ASCII: [sign] digits with single '_'
// between digits, surrounded by whitespace.
absl::StatusOr<int64_t> PythonInt(absl::string_view name, const std::string& text) {
  const auto refuse = [&]() {
    return absl::InvalidArgumentError(absl::StrCat("invalid literal for int() with base 10: ", PyStrRepr(text),
                                                   " (environment variable ", name, ")"));
  };
  size_t begin = 0;
  size_t end = text.size();
  while (begin < end && IsPythonSpace(text[begin])) ++begin;
  while (end > begin && IsPythonSpace(text[end - 1])) --end;
  bool negative = false;
  if (begin < end && (text[begin] == '+' || text[begin] == '-')) negative = text[begin++] == '-';
  if (begin == end) return refuse();
  // Accumulated as a negative number so that INT64_MIN fits.
  int64_t value = 0;
  bool previous_digit = false;
  for (size_t i = begin; i < end; ++i) {
    const char c = text[i];
    if (c == '_') {
      if (!previous_digit || i + 1 == end) return refuse();
      previous_digit = false;
      continue;
    }
    if (c < '0' || c > '9') return refuse();
    const int digit = c - '0';
    if (value < (std::numeric_limits<int64_t>::min() + digit) / 10) {
      return absl::InvalidArgumentError(absl::StrCat("Environment variable ", name, " is ", text,
                                                     "; expected an integer that fits in 64 bits"));
    }
    value = value * 10 - digit;
    previous_digit = true;
  }
  if (!negative) {
    if (value == std::numeric_limits<int64_t>::min()) {
      return absl::InvalidArgumentError(absl::StrCat("Environment variable ", name, " is ", text,
                                                     "; expected an integer that fits in 64 bits"));
    }
    value = -value;
  }
  return value;
}

// DTensor's _bns_task_id: the last path component before ':' as an integer,
// else the whole entry.
std::variant<int64_t, std::string> BnsTaskId(const std::string& job) {
  const absl::string_view last = absl::string_view(job).substr(job.rfind('/') + 1);
  const absl::string_view before_colon = last.substr(0, last.find(':'));
  int64_t id = 0;
  // Python's int() takes no empty text; SimpleAtoi agrees.
  if (absl::SimpleAtoi(before_colon, &id)) return id;
  return job;
}

// DTensor requires a "/bns/" list to equal sorted(list, key=_bns_task_id);
// Python's sort is stable, so that holds exactly when adjacent keys never
// decrease. Python cannot compare an int with a str key: such a list is not
// sorted either.
bool SortedByBnsTaskId(const std::vector<std::string>& jobs) {
  for (size_t i = 1; i < jobs.size(); ++i) {
    const auto a = BnsTaskId(jobs[i - 1]);
    const auto b = BnsTaskId(jobs[i]);
    if (a.index() != b.index() || b < a) return false;
  }
  return true;
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
      return absl::InvalidArgumentError(absl::StrCat("The provided job_addresses ", PythonListRepr(r.job_address_list),
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
  std::vector<std::string> jobs;
  if (jobs_var && !jobs_var->empty()) jobs = absl::StrSplit(*jobs_var, ',');
  const bool any_bns = std::any_of(jobs.begin(), jobs.end(),
                                   [](const std::string& job) { return absl::StartsWith(job, "/bns/"); });
  if (any_bns && !SortedByBnsTaskId(jobs)) {
    return absl::InvalidArgumentError(absl::StrCat("Unexpected DTENSOR_JOBS content ", *jobs_var,
                                                   ". Sort entries in DTENSOR_JOBS because cluster construction "
                                                   "relies on the order."));
  }
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
