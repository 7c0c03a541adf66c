// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/detect.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "core/cluster/framework_env.h"
#include "core/cluster/launchers.h"
#include "core/log.h"
#include "core/status_macros.h"

extern char** environ;  // NOLINT: POSIX

namespace tessera::cluster {
namespace {

constexpr char kOptions[] = "options";
constexpr char kTessera[] = "tessera";
constexpr char kKeras[] = "keras";
constexpr char kDtensor[] = "dtensor";
constexpr char kSingleProcess[] = "single-process";

// The largest job token file read; tokens are a few dozen bytes.
constexpr size_t kMaxTokenFileBytes = 64 * 1024;

template <typename T>
struct Field {
  std::optional<T> value;
  std::string source;
};

// The fields resolved so far, each with the source that set it.
struct Resolution {
  Field<std::string> host;
  Field<int32_t> port;
  std::string port_formula;
  Field<int64_t> num_processes;
  Field<int64_t> process_id;
  Field<std::vector<int64_t>> local_device_ids;
  Field<std::string> job_id;
  std::vector<std::string> notes;

  bool CoordinatorNumAndIdKnown() const {
    return host.value && port.value && num_processes.value && process_id.value;
  }
};

template <typename T>
bool Take(Field<T>& field, const std::optional<T>& value, const std::string& source) {
  if (!value || field.value) return false;
  field.value = value;
  field.source = source;
  return true;
}

// Fills the fields `contribution` has and `resolution` lacks; returns their names.
std::vector<std::string> Merge(const std::string& source, const Contribution& contribution, Resolution& resolution) {
  std::vector<std::string> used;
  if (contribution.coordinator) {
    if (Take(resolution.host, std::optional<std::string>(contribution.coordinator->host), source)) {
      used.push_back("coordinator host");
    }
    if (Take(resolution.port, contribution.coordinator->port, source)) {
      resolution.port_formula = contribution.port_formula;
      used.push_back("coordinator port");
    }
  }
  if (Take(resolution.num_processes, contribution.num_processes, source)) used.push_back("num_processes");
  if (Take(resolution.process_id, contribution.process_id, source)) used.push_back("process_id");
  if (Take(resolution.local_device_ids, contribution.local_device_ids, source)) used.push_back("local_device_ids");
  if (Take(resolution.job_id, contribution.job_id, source)) used.push_back("job_id");
  if (!used.empty()) {
    resolution.notes.insert(resolution.notes.end(), contribution.notes.begin(), contribution.notes.end());
  }
  return used;
}

std::string UsedLine(const std::string& source, const std::vector<std::string>& used, const std::string& diagnostic) {
  std::string line = used.empty()
                         ? absl::StrCat(source, ": present but not used: every field it gives is already set")
                         : absl::StrCat(source, ": used for ", absl::StrJoin(used, ", "));
  if (!diagnostic.empty()) absl::StrAppend(&line, " (", diagnostic, ")");
  return line;
}

std::string SkippedLine(const std::string& source, const std::string& diagnostic) {
  return absl::StrCat(source, ": skipped: ", diagnostic);
}

// ---- explicit options

absl::StatusOr<Contribution> FromOptions(const ClusterOptions& options) {
  Contribution out;
  // Port 0: process 0 binds any free port and publishes it out of band.
  out.coordinator = options.coordinator_address;
  out.num_processes = options.num_processes;
  out.process_id = options.process_id;
  out.local_device_ids = options.local_device_ids;
  out.job_id = options.job_id;
  return out;
}

// ---- TESSERA_*

absl::StatusOr<std::vector<int64_t>> ParseIdList(absl::string_view name, absl::string_view value) {
  std::vector<int64_t> ids;
  if (absl::StripAsciiWhitespace(value).empty()) return ids;  // all local devices
  for (absl::string_view item : absl::StrSplit(value, ',')) {
    int64_t id = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(item), &id) || id < 0) {
      return absl::InvalidArgumentError(absl::StrCat("Environment variable ", name,
                                                     " must be a comma-separated list of integers >= 0, got \"",
                                                     value, "\""));
    }
    ids.push_back(id);
  }
  return ids;
}

absl::StatusOr<absl::Duration> ParseSeconds(absl::string_view name, absl::string_view value) {
  double seconds = 0;
  // Up to about 116 days: beyond that a typo, not a timeout.
  if (!absl::SimpleAtod(absl::StripAsciiWhitespace(value), &seconds) || !std::isfinite(seconds) || seconds <= 0 ||
      seconds > 1e7) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", name,
                                                   " must be a number of seconds > 0 (at most 1e7), got \"", value, "\""));
  }
  return absl::Seconds(seconds);
}

absl::StatusOr<absl::Duration> ParseMilliseconds(absl::string_view name, absl::string_view value) {
  int64_t ms = 0;
  // The same ceiling as ParseSeconds: about 116 days.
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(value), &ms) || ms <= 0 || ms > int64_t{10000000000}) {
    return absl::InvalidArgumentError(absl::StrCat("Environment variable ", name,
                                                   " must be a whole number of milliseconds > 0 (at most 1e10), got \"",
                                                   value, "\""));
  }
  return absl::Milliseconds(ms);
}

// A timeout from TESSERA_<X>_TIMEOUT_MS (durations are milliseconds
// everywhere), or from 0.1's TESSERA_<X>_TIMEOUT in seconds, still read as an
// alias; both set must agree. `from` receives the variable read.
absl::StatusOr<std::optional<absl::Duration>> EnvTimeout(const Environment& env, const char* ms_name,
                                                         const char* seconds_name, const char** from) {
  std::optional<absl::Duration> ms, seconds;
  if (const std::string* value = FindVar(env, ms_name)) {
    TESSERA_ASSIGN_OR_RETURN(ms, ParseMilliseconds(ms_name, *value));
  }
  if (const std::string* value = FindVar(env, seconds_name)) {
    TESSERA_ASSIGN_OR_RETURN(seconds, ParseSeconds(seconds_name, *value));
  }
  if (ms && seconds && *ms != *seconds) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Environment variables ", ms_name, " (", absl::FormatDuration(*ms), ") and its alias ", seconds_name, " (",
        absl::FormatDuration(*seconds), ") disagree; expected one of them, or the same duration in both"));
  }
  *from = ms ? ms_name : seconds_name;
  return ms ? ms : seconds;
}

absl::StatusOr<bool> ParseBool(absl::string_view name, absl::string_view value) {
  const std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(value));
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") return true;
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off" || lower.empty()) return false;
  return absl::InvalidArgumentError(absl::StrCat("Environment variable ", name,
                                                 " must be 1/true/yes/on or 0/false/no/off, got \"", value, "\""));
}

absl::StatusOr<Contribution> FromTesseraEnvironment(const Environment& env, std::optional<int32_t>& port,
                                                    std::vector<std::string>& read) {
  Contribution out;
  auto note = [&](const char* name) { read.push_back(name); return FindVar(env, name); };
  if (FindVar(env, "TESSERA_COORDINATOR_ADDRESS")) {
    TESSERA_ASSIGN_OR_RETURN(out.coordinator, ParseHostPort(*note("TESSERA_COORDINATOR_ADDRESS"),
                                                            "Environment variable TESSERA_COORDINATOR_ADDRESS", true));
  }
  if (FindVar(env, "TESSERA_COORDINATOR_PORT")) {
    TESSERA_ASSIGN_OR_RETURN(port, ParsePort(*note("TESSERA_COORDINATOR_PORT"),
                                             "Environment variable TESSERA_COORDINATOR_PORT"));
  }
  if (FindVar(env, "TESSERA_NUM_PROCESSES")) {
    TESSERA_ASSIGN_OR_RETURN(out.num_processes,
                             ParseIntVarAtLeast("TESSERA_NUM_PROCESSES", *note("TESSERA_NUM_PROCESSES"), 1));
  }
  // TESSERA_PROCESS_ID is 0.1's spelling, still read; when both are set they
  // must agree, so a launcher's leftover cannot silently win.
  const std::string* index = FindVar(env, "TESSERA_PROCESS_INDEX");
  const std::string* alias = FindVar(env, "TESSERA_PROCESS_ID");
  if (index != nullptr && alias != nullptr && *index != *alias) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Environment variables TESSERA_PROCESS_INDEX (\"", *index, "\") and its alias TESSERA_PROCESS_ID (\"",
        *alias, "\") disagree; expected one of them, or the same value in both"));
  }
  if (index != nullptr || alias != nullptr) {
    const char* name = index != nullptr ? "TESSERA_PROCESS_INDEX" : "TESSERA_PROCESS_ID";
    TESSERA_ASSIGN_OR_RETURN(out.process_id, ParseIntVarAtLeast(name, *note(name), 0));
  }
  if (FindVar(env, "TESSERA_LOCAL_DEVICE_IDS")) {
    TESSERA_ASSIGN_OR_RETURN(out.local_device_ids,
                             ParseIdList("TESSERA_LOCAL_DEVICE_IDS", *note("TESSERA_LOCAL_DEVICE_IDS")));
  }
  if (FindVar(env, "TESSERA_JOB_ID")) out.job_id = *note("TESSERA_JOB_ID");
  return out;
}

// The token in `path`, trailing whitespace removed. A file others can read
// is used, with a warning: refusing would break jobs whose launcher cannot
// set modes, but the user should know.
absl::StatusOr<std::string> ReadTokenFile(const std::string& path, std::vector<std::string>& warnings) {
  const std::string what = absl::StrCat("Environment variable TESSERA_JOB_TOKEN_FILE names \"", path, "\", which ");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    return absl::InvalidArgumentError(absl::StrCat(what, "cannot be opened: ", std::strerror(error)));
  }
  struct stat info {};
  std::string token;
  absl::Status status;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    status = absl::InvalidArgumentError(absl::StrCat(what, "is not a regular file"));
  } else {
    if ((info.st_mode & 0777 & ~0600) != 0) {
      warnings.push_back(absl::StrFormat("TESSERA_JOB_TOKEN_FILE \"%s\" has mode %04o, wider than 0600: other users "
                                         "may read the job token (chmod 600 it)",
                                         path, info.st_mode & 0777));
    }
    char buffer[4096];
    while (status.ok()) {
      const ssize_t n = read(fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        const int error = errno;
        status = absl::InvalidArgumentError(absl::StrCat(what, "cannot be read: ", std::strerror(error)));
      } else if (n == 0) {
        break;
      } else if (token.size() + static_cast<size_t>(n) > kMaxTokenFileBytes) {
        status = absl::InvalidArgumentError(absl::StrCat(what, "is larger than ", kMaxTokenFileBytes, " bytes"));
      } else {
        token.append(buffer, static_cast<size_t>(n));
      }
    }
  }
  close(fd);
  TESSERA_RETURN_IF_ERROR(status);
  absl::StripTrailingAsciiWhitespace(&token);
  if (token.empty()) return absl::InvalidArgumentError(absl::StrCat(what, "is empty"));
  return token;
}

// ---- launchers

struct LauncherOutcome {
  const Launcher* launcher;
  size_t index;  // in Launchers(): where its explanation line goes
  absl::StatusOr<SourceResult> result;
  bool present() const { return result.ok() && result->state == SourceResult::State::kPresent; }
};

bool Agrees(const Contribution& a, const Contribution& b) {
  return a.num_processes == b.num_processes && a.process_id == b.process_id;
}

std::string Disagreement(const LauncherOutcome& chosen, const LauncherOutcome& other) {
  const Contribution& a = chosen.result->contribution;
  const Contribution& b = other.result->contribution;
  auto show = [](const std::optional<int64_t>& v) { return v ? absl::StrCat(*v) : std::string("unset"); };
  return absl::StrCat("num_processes ", show(b.num_processes), " and process_id ", show(b.process_id), " vs ",
                      show(a.num_processes), " and ", show(a.process_id), " from ", chosen.launcher->name);
}

// Runs every launcher (auto) or the forced one, merges the chosen one, and
// explains each.
absl::Status ResolveLaunchers(const Environment& env, const std::string& method, Resolution& resolution,
                              std::vector<std::string>& lines) {
  const absl::Span<const Launcher> launchers = Launchers();
  std::vector<std::string> launcher_lines(launchers.size());  // in detection order
  std::vector<LauncherOutcome> outcomes;
  for (size_t k = 0; k < launchers.size(); ++k) {
    if (method != "auto" && method != launchers[k].name) {
      launcher_lines[k] = absl::StrCat(launchers[k].name, ": not considered: detection is \"", method, "\"");
      continue;
    }
    outcomes.push_back(LauncherOutcome{&launchers[k], k, launchers[k].detect(env)});
  }
  // The first present (or present but invalid) launcher is chosen.
  size_t chosen = outcomes.size();
  for (size_t i = 0; i < outcomes.size(); ++i) {
    if (!outcomes[i].result.ok() || outcomes[i].present()) {
      chosen = i;
      break;
    }
  }
  if (chosen < outcomes.size() && !outcomes[chosen].result.ok()) {
    const absl::Status& error = outcomes[chosen].result.status();
    return absl::Status(error.code(), absl::StrCat(outcomes[chosen].launcher->name, ": ", error.message()));
  }
  if (method != "auto" && chosen == outcomes.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Detection \"", method, "\" was requested but its variables are not all set: ",
                                                   outcomes.front().result->diagnostic));
  }
  // A launcher without a coordinator gives way to a later one that names one
  // and agrees on the count and id.
  std::optional<size_t> yielded_from;
  if (chosen < outcomes.size() && !outcomes[chosen].result->contribution.coordinator && !resolution.host.value) {
    for (size_t j = chosen + 1; j < outcomes.size(); ++j) {
      if (outcomes[j].present() && outcomes[j].result->contribution.coordinator &&
          Agrees(outcomes[chosen].result->contribution, outcomes[j].result->contribution)) {
        yielded_from = chosen;
        chosen = j;
        break;
      }
    }
  }
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const LauncherOutcome& outcome = outcomes[i];
    const std::string name = outcome.launcher->name;
    if (i == chosen) {
      launcher_lines[outcome.index] =
          UsedLine(name, Merge(name, outcome.result->contribution, resolution), outcome.result->diagnostic);
    } else if (yielded_from && i == *yielded_from) {
      launcher_lines[outcome.index] =
          absl::StrCat(name, ": present but not used: it names no coordinator; ", outcomes[chosen].launcher->name,
                       " names one and agrees on num_processes and process_id (", outcome.result->diagnostic, ")");
    } else if (!outcome.result.ok()) {
      launcher_lines[outcome.index] =
          absl::StrCat(name, ": also present but invalid, not used: ", outcome.result.status().message());
    } else if (outcome.present()) {
      std::string line = absl::StrCat(name, ": also present, not used: ", outcomes[chosen].launcher->name,
                                      i > chosen ? " comes first" : " is used");
      if (!Agrees(outcomes[chosen].result->contribution, outcome.result->contribution)) {
        absl::StrAppend(&line, "; it disagrees: ", Disagreement(outcomes[chosen], outcome));
      }
      launcher_lines[outcome.index] = std::move(line);
    } else {
      launcher_lines[outcome.index] = SkippedLine(name, outcome.result->diagnostic);
    }
  }
  lines.insert(lines.end(), launcher_lines.begin(), launcher_lines.end());
  return absl::OkStatus();
}

// ---- the final configuration

std::string IdList(const std::vector<int64_t>& ids) { return absl::StrCat("[", absl::StrJoin(ids, ","), "]"); }

absl::Status MissingField(absl::string_view what, absl::string_view fix, const Resolution& resolution) {
  std::string message = absl::StrCat(what, "; ", fix);
  if (!resolution.notes.empty()) absl::StrAppend(&message, " (", absl::StrJoin(resolution.notes, "; "), ")");
  return absl::InvalidArgumentError(message);
}

// A count no source gives is not an error by itself (Keras passes None and
// JAX detects it): the launchers are Tessera's detection. Only when none of
// them gives one either is the job incomplete.
constexpr char kUnknownCountFix[] =
    "no launcher gave one either; set TESSERA_NUM_PROCESSES or the num_processes option";

absl::Status ResolveCounts(Resolution& r, ClusterConfig& config, std::vector<std::string>& lines) {
  if (!r.num_processes.value) {
    if (r.process_id.value) {
      return MissingField(absl::StrCat("The number of processes is unknown: ", r.process_id.source,
                                       " gives process_id ", *r.process_id.value, " but no process count"),
                          kUnknownCountFix, r);
    }
    if (r.host.value) {
      return MissingField(absl::StrCat("The number of processes is unknown: ", r.host.source,
                                       " gives the coordinator address but no process count"),
                          kUnknownCountFix, r);
    }
    r.num_processes.value = 1;
    r.num_processes.source = kSingleProcess;
  }
  config.num_processes = *r.num_processes.value;
  if (!r.process_id.value) {
    if (config.num_processes > 1) {
      return MissingField(absl::StrCat("The process id is unknown for ", config.num_processes, " processes (from ",
                                       r.num_processes.source, ")"),
                          "set TESSERA_PROCESS_INDEX or the process_index option", r);
    }
    r.process_id.value = 0;
    r.process_id.source = r.num_processes.source;
    lines.push_back("process_id: 0, the only process");
  }
  config.process_id = *r.process_id.value;
  if (config.num_processes < 1) {
    return absl::InvalidArgumentError(absl::StrCat("num_processes must be >= 1, got ", config.num_processes,
                                                   " (from ", r.num_processes.source, ")"));
  }
  if (config.process_id < 0 || config.process_id >= config.num_processes) {
    return absl::InvalidArgumentError(absl::StrCat("process_id ", config.process_id, " (from ", r.process_id.source,
                                                   ") must be >= 0 and < num_processes ", config.num_processes,
                                                   " (from ", r.num_processes.source, ")"));
  }
  return absl::OkStatus();
}

absl::Status ResolveCoordinator(Resolution& r, ClusterConfig& config, std::vector<std::string>& lines) {
  if (!r.host.value) {
    if (config.num_processes > 1) {
      return MissingField(absl::StrCat("No coordinator address for ", config.num_processes, " processes (from ",
                                       r.num_processes.source, ")"),
                          "set TESSERA_COORDINATOR_ADDRESS or the coordinator_address option", r);
    }
    return absl::OkStatus();
  }
  HostPort coordinator{*r.host.value, r.port.value};
  if (!coordinator.port) {
    if (config.num_processes > 1) {
      return MissingField(absl::StrCat("The coordinator address \"", coordinator.ToString(), "\" (from ",
                                       r.host.source, ") has no port"),
                          "add \":PORT\" or set TESSERA_COORDINATOR_PORT", r);
    }
    lines.push_back(absl::StrCat("coordinator: \"", coordinator.ToString(), "\" (from ", r.host.source,
                                 ") has no port and a single process needs no coordinator: not used"));
    return absl::OkStatus();
  }
  if (*coordinator.port == 0 && config.process_id != 0) {
    return absl::InvalidArgumentError(absl::StrCat("The coordinator address \"", coordinator.ToString(), "\" (from ",
                                                   r.host.source, ") has port 0, which only process 0 (binding any "
                                                   "free port) can use; process ", config.process_id,
                                                   " needs the port process 0 bound"));
  }
  config.coordinator_address = coordinator;
  if (!r.port_formula.empty()) {
    lines.push_back(absl::StrCat("port: ", r.port_formula));
  } else if (r.port.source != r.host.source) {
    lines.push_back(absl::StrCat("port: ", *r.port.value, " from ", r.port.source));
  }
  if (coordinator.IsLoopback() && config.num_processes > 1) {
    lines.push_back(absl::StrCat("note: the coordinator address ", coordinator.ToString(),
                                 " is loopback: all ", config.num_processes,
                                 " processes must run on this host (processes elsewhere cannot reach it)"));
  }
  return absl::OkStatus();
}

absl::Status ResolveBind(const ClusterOptions& options, const Environment& env, const Resolution& r,
                         ClusterConfig& config, std::vector<std::string>& lines) {
  std::optional<HostPort> bind;
  std::string from;
  if (options.bind_address) {
    bind = options.bind_address;
    from = kOptions;
  } else if (const std::string* value = FindVar(env, "TESSERA_BIND_ADDRESS")) {
    TESSERA_ASSIGN_OR_RETURN(bind, ParseHostPort(*value, "Environment variable TESSERA_BIND_ADDRESS", true));
    from = "TESSERA_BIND_ADDRESS";
  }
  const int32_t port = r.port.value.value_or(0);
  if (bind) {
    if (!bind->port) bind->port = port;
    config.bind_address = bind;
    lines.push_back(absl::StrCat("bind: ", bind->ToString(), " from ", from));
    return absl::OkStatus();
  }
  if (config.num_processes == 1) {
    config.bind_address = HostPort{"127.0.0.1", port};
    lines.push_back(absl::StrCat("bind: ", config.bind_address->ToString(),
                                 " (default: loopback for a single process)"));
  } else {
    config.bind_address = HostPort{"::", port};
    lines.push_back(absl::StrCat("bind: ", config.bind_address->ToString(),
                                 " (default: the coordinator's port on the wildcard address)"));
  }
  return absl::OkStatus();
}

absl::Status ResolveAuth(const ClusterOptions& options, const Environment& env, ClusterConfig& config,
                         std::vector<std::string>& lines) {
  std::vector<std::string> warnings;
  if (options.job_token) {
    config.job_token = *options.job_token;
    if (!config.job_token.empty()) lines.push_back("job token: from options");
  } else if (const std::string* token = FindVar(env, "TESSERA_JOB_TOKEN")) {
    config.job_token = *token;
    lines.push_back(FindVar(env, "TESSERA_JOB_TOKEN_FILE")
                        ? "job token: from TESSERA_JOB_TOKEN (TESSERA_JOB_TOKEN_FILE also set, not read)"
                        : "job token: from TESSERA_JOB_TOKEN");
  } else if (const std::string* path = FindVar(env, "TESSERA_JOB_TOKEN_FILE")) {
    TESSERA_ASSIGN_OR_RETURN(config.job_token, ReadTokenFile(*path, warnings));
    lines.push_back(absl::StrCat("job token: from TESSERA_JOB_TOKEN_FILE \"", *path, "\""));
  }
  for (const std::string& warning : warnings) {
    Log(LogLevel::kWarning, warning);
    lines.push_back(absl::StrCat("warning: ", warning));
  }
  std::string require_from = kOptions;
  if (options.require_auth) {
    config.require_auth = *options.require_auth;
  } else if (const std::string* value = FindVar(env, "TESSERA_REQUIRE_AUTH")) {
    TESSERA_ASSIGN_OR_RETURN(config.require_auth, ParseBool("TESSERA_REQUIRE_AUTH", *value));
    require_from = "TESSERA_REQUIRE_AUTH";
  }
  if (config.require_auth && config.job_token.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Authentication is required (by ", require_from,
                                                   ") but no job token is set: set TESSERA_JOB_TOKEN, "
                                                   "TESSERA_JOB_TOKEN_FILE or the job_token option"));
  }
  return absl::OkStatus();
}

absl::Status ResolveTimeouts(const ClusterOptions& options, const Environment& env, ClusterConfig& config,
                             std::vector<std::string>& lines) {
  const char* init_from = nullptr;
  TESSERA_ASSIGN_OR_RETURN(std::optional<absl::Duration> init_env,
                           EnvTimeout(env, "TESSERA_INIT_TIMEOUT_MS", "TESSERA_INIT_TIMEOUT", &init_from));
  if (options.init_timeout) {
    config.init_timeout = *options.init_timeout;
  } else if (init_env) {
    config.init_timeout = *init_env;
    lines.push_back(absl::StrCat("init timeout: ", absl::FormatDuration(config.init_timeout), " from ", init_from));
  }
  const char* heartbeat_from = nullptr;
  TESSERA_ASSIGN_OR_RETURN(
      std::optional<absl::Duration> heartbeat_env,
      EnvTimeout(env, "TESSERA_HEARTBEAT_TIMEOUT_MS", "TESSERA_HEARTBEAT_TIMEOUT", &heartbeat_from));
  bool timeout_from_env = false;
  if (options.heartbeat_timeout) {
    config.heartbeat_timeout = *options.heartbeat_timeout;
  } else if (heartbeat_env) {
    config.heartbeat_timeout = *heartbeat_env;
    timeout_from_env = true;
  }
  if (options.heartbeat_interval) {
    config.heartbeat_interval = *options.heartbeat_interval;
  } else {
    // About ten heartbeats per timeout, as with the defaults (10 s of 100 s).
    config.heartbeat_interval = std::min(kDefaultHeartbeatInterval, config.heartbeat_timeout / 10);
  }
  if (timeout_from_env) {
    lines.push_back(absl::StrCat("heartbeat: timeout ", absl::FormatDuration(config.heartbeat_timeout),
                                 " from ", heartbeat_from, ", interval ",
                                 absl::FormatDuration(config.heartbeat_interval)));
  }
  if (config.heartbeat_timeout < 3 * config.heartbeat_interval) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The heartbeat timeout (", absl::FormatDuration(config.heartbeat_timeout),
        timeout_from_env ? absl::StrCat(", ", heartbeat_from) : "", ") must be >= 3 x the heartbeat interval (",
        absl::FormatDuration(config.heartbeat_interval), ")"));
  }
  if (options.shutdown_timeout) config.shutdown_timeout = *options.shutdown_timeout;
  if (options.rpc_timeout) config.rpc_timeout = *options.rpc_timeout;
  return absl::OkStatus();
}

void CopyPlainOptions(const ClusterOptions& options, ClusterConfig& config) {
  config.tls = options.tls;
  if (options.recoverable) config.recoverable = *options.recoverable;
  if (options.fail_job_on_duplicate_id) config.fail_job_on_duplicate_id = *options.fail_job_on_duplicate_id;
  config.partition_index = options.partition_index;
  if (options.max_value_bytes) config.max_value_bytes = *options.max_value_bytes;
  if (options.max_store_bytes) config.max_store_bytes = *options.max_store_bytes;
  config.connections = options.connections;
  config.metrics_bind = options.metrics_bind;
}

absl::Status CheckLocalDeviceIds(const std::vector<int64_t>& ids, const std::string& source) {
  absl::flat_hash_set<int64_t> seen;
  for (int64_t id : ids) {
    if (id < 0 || !seen.insert(id).second) {
      return absl::InvalidArgumentError(absl::StrCat("local_device_ids ", IdList(ids), " (from ", source,
                                                     ") must be distinct ids >= 0"));
    }
  }
  return absl::OkStatus();
}

std::string ResultLine(const Detection& detection, const Resolution& r) {
  const ClusterConfig& c = detection.config;
  std::string line = absl::StrCat("result: source ", detection.source, "; ", c.num_processes, " process",
                                  c.num_processes == 1 ? "" : "es", " (", r.num_processes.source, "); process_id ",
                                  c.process_id, " (", r.process_id.source, "); coordinator ");
  absl::StrAppend(&line, c.coordinator_address ? c.coordinator_address->ToString() : "none");
  if (c.coordinator_address) {
    absl::StrAppend(&line, " (host from ", r.host.source, ", port from ", r.port.source, ")");
  }
  absl::StrAppend(&line, "; bind ", AddressText(c.bind_address), "; local_device_ids ",
                  c.local_device_ids.empty() ? "all" : IdList(c.local_device_ids));
  if (r.local_device_ids.value) absl::StrAppend(&line, " (", r.local_device_ids.source, ")");
  absl::StrAppend(&line, "; job_id ", c.job_id.empty() ? "none" : absl::StrCat("\"", c.job_id, "\""));
  if (r.job_id.value) absl::StrAppend(&line, " (", r.job_id.source, ")");
  return line;
}

}  // namespace

Environment ProcessEnvironment() {
  Environment env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const absl::string_view text(*entry);
    const size_t equals = text.find('=');
    if (equals == absl::string_view::npos || equals == 0) continue;
    // The first definition wins, as getenv() finds it.
    env.emplace(std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)));
  }
  return env;
}

absl::Status ValidateDetectionMethod(absl::string_view method) {
  std::vector<std::string> names = {"auto", "none", kKeras, kDtensor};
  for (const Launcher& launcher : Launchers()) names.emplace_back(launcher.name);
  for (const std::string& name : names) {
    if (method == name) return absl::OkStatus();
  }
  return absl::InvalidArgumentError(absl::StrCat("Option 'detection' must be one of ", absl::StrJoin(names, ", "),
                                                 "; got \"", method, "\""));
}

absl::StatusOr<Detection> Detect(const ClusterOptions& options, const Environment& env) {
  TESSERA_RETURN_IF_ERROR(ValidateDetectionMethod(options.detection));
  const std::string& method = options.detection;
  Detection detection;
  std::vector<std::string>& lines = detection.explanation;
  Resolution r;

  TESSERA_ASSIGN_OR_RETURN(const Contribution from_options, FromOptions(options));
  std::vector<std::string> used = Merge(kOptions, from_options, r);
  lines.push_back(used.empty() ? "options: none set" : UsedLine(kOptions, used, ""));

  std::optional<int32_t> tessera_port;
  std::vector<std::string> tessera_read;
  TESSERA_ASSIGN_OR_RETURN(const Contribution from_tessera, FromTesseraEnvironment(env, tessera_port, tessera_read));
  used = Merge(kTessera, from_tessera, r);
  if (Take(r.port, tessera_port, kTessera)) used.push_back("coordinator port");
  lines.push_back(tessera_read.empty() ? "tessera: none of the TESSERA_* address and id variables set"
                                       : UsedLine(kTessera, used, absl::StrJoin(tessera_read, ", ")));

  const bool consult_keras = method == "auto" || method == kKeras;
  const bool consult_dtensor = method == "auto" || method == kDtensor;
  const bool consult_launchers = method != "none" && method != kKeras && method != kDtensor;
  const char* const kComplete = "not consulted: coordinator address, num_processes and process_id are already set";
  auto not_considered = [&](const char* name) {
    return absl::StrCat(name, ": not considered: detection is \"", method, "\"");
  };

  if (!consult_keras) {
    lines.push_back(not_considered(kKeras));
  } else if (r.CoordinatorNumAndIdKnown() && method == "auto") {
    lines.push_back(absl::StrCat(kKeras, ": ", kComplete));
  } else {
    KerasArguments above{r.host.value.has_value(), r.num_processes.value, r.process_id.value.has_value()};
    TESSERA_ASSIGN_OR_RETURN(const SourceResult keras, ReadKerasEnvironment(env, above));
    if (keras.state != SourceResult::State::kPresent) {
      if (method == kKeras) {
        return absl::InvalidArgumentError(absl::StrCat("Detection \"keras\" was requested but ", keras.diagnostic));
      }
      lines.push_back(SkippedLine(kKeras, keras.diagnostic));
    } else {
      lines.push_back(UsedLine(kKeras, Merge(kKeras, keras.contribution, r), keras.diagnostic));
    }
  }

  if (!consult_dtensor) {
    lines.push_back(not_considered(kDtensor));
  } else if (r.CoordinatorNumAndIdKnown() && method == "auto") {
    lines.push_back(absl::StrCat(kDtensor, ": ", kComplete));
  } else {
    TESSERA_ASSIGN_OR_RETURN(const SourceResult dtensor, ReadDtensorEnvironment(env));
    if (dtensor.state != SourceResult::State::kPresent) {
      if (method == kDtensor) {
        return absl::InvalidArgumentError(absl::StrCat("Detection \"dtensor\" was requested but ", dtensor.diagnostic));
      }
      lines.push_back(SkippedLine(kDtensor, dtensor.diagnostic));
    } else {
      lines.push_back(UsedLine(kDtensor, Merge(kDtensor, dtensor.contribution, r), dtensor.diagnostic));
    }
  }

  if (!consult_launchers) {
    for (const Launcher& launcher : Launchers()) lines.push_back(not_considered(launcher.name));
  } else if (r.CoordinatorNumAndIdKnown() && method == "auto") {
    for (const Launcher& launcher : Launchers()) lines.push_back(absl::StrCat(launcher.name, ": ", kComplete));
  } else {
    TESSERA_RETURN_IF_ERROR(ResolveLaunchers(env, method, r, lines));
  }

  ClusterConfig& config = detection.config;
  TESSERA_RETURN_IF_ERROR(ResolveCounts(r, config, lines));
  TESSERA_RETURN_IF_ERROR(ResolveCoordinator(r, config, lines));
  TESSERA_RETURN_IF_ERROR(ResolveBind(options, env, r, config, lines));
  if (r.local_device_ids.value) {
    TESSERA_RETURN_IF_ERROR(CheckLocalDeviceIds(*r.local_device_ids.value, r.local_device_ids.source));
    config.local_device_ids = *r.local_device_ids.value;
    config.local_device_ids_from_launcher =
        r.local_device_ids.source != kOptions && r.local_device_ids.source != kTessera;
  }
  config.job_id = r.job_id.value.value_or("");
  TESSERA_RETURN_IF_ERROR(ResolveAuth(options, env, config, lines));
  TESSERA_RETURN_IF_ERROR(ResolveTimeouts(options, env, config, lines));
  CopyPlainOptions(options, config);
  for (const std::string& note : r.notes) lines.push_back(absl::StrCat("note: ", note));

  if (r.process_id.source != kSingleProcess && r.process_id.value) {
    detection.source = r.process_id.source;
  } else if (r.num_processes.source != kSingleProcess) {
    detection.source = r.num_processes.source;
  } else {
    detection.source = kSingleProcess;
  }
  lines.push_back(ResultLine(detection, r));
  // The address dialled and how its port was derived belong in the log (P6).
  Log(LogLevel::kInfo, absl::StrCat("cluster configuration:\n", absl::StrJoin(lines, "\n")));
  return detection;
}

}  // namespace tessera::cluster
