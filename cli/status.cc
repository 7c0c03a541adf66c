// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/status.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "tessera/tessera.h"

namespace tessera_cli {

const char kStatusHelp[] = R"(Usage: tessera status --coordinator HOST:PORT [--job-id ID] [options]

Asks a running job's coordinator who is stuck where: the job's state, then
one line per process with its state, the time since its last heartbeat, and
the barriers and keys it is waiting on.

Options:
  --coordinator HOST:PORT    the coordinator's address
  --job-id ID                the job's id (as its processes use it)
  --timeout-ms MS            how long to wait for the answer (default 10000)
  --tls-ca PEM               CA the coordinator's certificate must chain to
  --tls-cert PEM --tls-key PEM
                             client certificate for mutual TLS
  -h, --help                 show this help

The job token comes from TESSERA_JOB_TOKEN (or TESSERA_JOB_TOKEN_FILE) only.
)";

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

struct ErrorDeleter {
  void operator()(tessera_error* e) const { tessera_error_destroy(e); }
};
struct OptionsDeleter {
  void operator()(tessera_cluster_options* o) const { tessera_cluster_options_destroy(o); }
};
struct StatusDeleter {
  void operator()(tessera_job_status* s) const { tessera_job_status_destroy(s); }
};

// "--flag value" or "--flag=value" at args[*i]: the value (advancing *i), or
// nullptr when args[*i] is not `flag`.
const std::string* Value(const std::vector<std::string>& args, size_t* i, const std::string& flag,
                         std::string* storage) {
  const std::string& arg = args[*i];
  if (arg.rfind(flag + "=", 0) == 0) {
    *storage = arg.substr(flag.size() + 1);
    return storage;
  }
  if (arg != flag) return nullptr;
  if (*i + 1 >= args.size()) throw std::invalid_argument(flag + " needs a value");
  *storage = args[++*i];
  return storage;
}

std::string Heartbeat(int64_t ms) {
  if (ms < 0) return "never";
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s ago", static_cast<double>(ms) / 1000.0);
  return text;
}

}  // namespace

int RunStatus(const std::vector<std::string>& args) {
  std::string coordinator, job_id, timeout = "10000", ca, cert, key, value;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i] == "-h" || args[i] == "--help") {
        std::fputs(kStatusHelp, stdout);
        return kExitOk;
      }
      const std::pair<const char*, std::string*> flags[] = {
          {"--coordinator", &coordinator}, {"--job-id", &job_id}, {"--timeout-ms", &timeout},
          {"--tls-ca", &ca}, {"--tls-cert", &cert}, {"--tls-key", &key}};
      bool known = false;
      for (const auto& [flag, target] : flags) {
        if (Value(args, &i, flag, &value) != nullptr) {
          *target = value;
          known = true;
          break;
        }
      }
      if (!known) throw std::invalid_argument("unknown option '" + args[i] + "' (see 'tessera status --help')");
    }
    if (coordinator.empty()) throw std::invalid_argument("--coordinator HOST:PORT is required");
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "tessera status: %s\n", e.what());
    return kExitUsage;
  }
  std::unique_ptr<tessera_cluster_options, OptionsDeleter> options(tessera_cluster_options_create());
  tessera_error* error = nullptr;
  bool ok = options != nullptr &&
            tessera_cluster_options_set_coordinator_address(options.get(), coordinator.c_str(), &error) &&
            (job_id.empty() || tessera_cluster_options_set_job_id(options.get(), job_id.c_str(), &error)) &&
            ((ca.empty() && cert.empty() && key.empty()) ||
             tessera_cluster_options_set_tls(options.get(), cert.empty() ? nullptr : cert.c_str(),
                                             key.empty() ? nullptr : key.c_str(), ca.empty() ? nullptr : ca.c_str(),
                                             &error));
  char* end = nullptr;
  const long long timeout_ms = std::strtoll(timeout.c_str(), &end, 10);
  if (ok && (end == timeout.c_str() || *end != '\0')) {
    std::fprintf(stderr, "tessera status: --timeout-ms '%s': expected an integer\n", timeout.c_str());
    return kExitUsage;
  }
  if (!ok) {
    std::unique_ptr<tessera_error, ErrorDeleter> owned(error);
    std::fprintf(stderr, "tessera status: %s\n", error != nullptr ? tessera_error_message(error) : "out of memory");
    return kExitUsage;
  }
  std::unique_ptr<tessera_job_status, StatusDeleter> status(
      tessera_job_status_query(options.get(), timeout_ms, &error));
  if (status == nullptr) {
    std::unique_ptr<tessera_error, ErrorDeleter> owned(error);
    std::fprintf(stderr, "tessera status: %s\n", error != nullptr ? tessera_error_message(error) : "failed");
    return kExitFailed;
  }
  const tessera_job_status* s = status.get();
  std::printf("job %s: %s\n", job_id.empty() ? "(no id)" : ("'" + job_id + "'").c_str(),
              tessera_job_status_job_state(s, nullptr));
  std::printf("%-8s %-16s %-16s %s\n", "process", "state", "last heartbeat", "waiting on");
  for (size_t p = 0; p < tessera_job_status_num_processes(s, nullptr); ++p) {
    const std::string waiting = tessera_job_status_process_waiting_on(s, p, nullptr);
    std::printf("%-8zu %-16s %-16s %s\n", p, tessera_job_status_process_state(s, p, nullptr),
                Heartbeat(tessera_job_status_process_ms_since_heartbeat(s, p, nullptr)).c_str(),
                waiting.empty() ? "-" : waiting.c_str());
  }
  return kExitOk;
}

}  // namespace tessera_cli
