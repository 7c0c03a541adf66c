// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/coordinator.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "core/cluster/sd_notify.h"
#include "tessera/tessera.h"

namespace tessera_cli {

const char kCoordinatorHelp[] = R"(Usage: tessera coordinator --bind HOST:PORT --num-processes N [options]

Serves one job's coordinator (membership, topology, key-value store, barriers)
until every process has shut down, the shutdown barrier expired, or the job
failed and every process is gone.

Options:
  --bind HOST:PORT           address to listen on (port 0: any free port)
  --num-processes N          processes in the job
  --job-id ID                job id the processes must present
  --port-file PATH           write the bound port there once listening
  --tls-cert PEM --tls-key PEM
                             serve TLS with this certificate and key
  --tls-ca PEM               CA that client certificates must chain to
  --tls-require-client-cert  mutual TLS (needs --tls-ca)
  --tls-peer-uri-prefix P    accept only client certificates with a URI SAN
                             starting with P (end it with "/")
  --require-auth             refuse to start without a job token
  --recoverable              a failed process is an event, not the job's end
  --init-timeout-ms MS       time for every process to register
  --heartbeat-interval-ms MS --heartbeat-timeout-ms MS
  --shutdown-timeout-ms MS   shutdown barrier timeout
  --metrics-bind HOST:PORT   serve metrics at http://HOST:PORT/metrics
                             (OpenMetrics or Prometheus text; off by default)
  -h, --help                 show this help

The job token comes from TESSERA_JOB_TOKEN (or TESSERA_JOB_TOKEN_FILE) only,
never from the command line, where other users could read it.

Under systemd (Type=notify) it reports READY=1 once it serves, WATCHDOG=1
every half of WATCHDOG_USEC when the unit has WatchdogSec=, and STOPPING=1
when it stops, to $NOTIFY_SOCKET. Health: the standard gRPC health service
(grpc.health.v1.Health) on the same port.
)";

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void OnStopSignal(int signal) { g_stop_signal = signal; }

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ErrorDeleter {
  void operator()(tessera_error* e) const { tessera_error_destroy(e); }
};
struct OptionsDeleter {
  void operator()(tessera_cluster_options* o) const { tessera_cluster_options_destroy(o); }
};
struct CoordinatorDeleter {
  void operator()(tessera_coordinator* c) const { tessera_coordinator_destroy(c); }
};

// A failed C call as an exception with the library's message.
void Check(bool ok, tessera_error* error) {
  std::unique_ptr<tessera_error, ErrorDeleter> owned(error);
  if (!ok) throw std::runtime_error(error != nullptr ? tessera_error_message(error) : "unknown error");
}

int64_t ParseInt(const std::string& flag, const std::string& text) {
  try {
    size_t used = 0;
    const long long value = std::stoll(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  throw UsageError(flag + " '" + text + "': expected an integer");
}

bool IsBooleanFlag(const std::string& flag) {
  return flag == "--tls-require-client-cert" || flag == "--require-auth" ||
         flag == "--recoverable" || flag == "-h" || flag == "--help";
}

// "--flag value" and "--flag=value" into flag -> value ("" for booleans).
std::map<std::string, std::string> ParseFlags(const std::vector<std::string>& args) {
  static const char* const kKnown[] = {
      "--bind", "--num-processes", "--job-id", "--port-file", "--tls-cert", "--tls-key", "--tls-ca",
      "--tls-require-client-cert", "--tls-peer-uri-prefix", "--require-auth", "--recoverable",
      "--init-timeout-ms", "--heartbeat-interval-ms", "--heartbeat-timeout-ms",
      "--shutdown-timeout-ms", "--metrics-bind", "-h", "--help"};
  std::map<std::string, std::string> flags;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string flag = args[i];
    std::optional<std::string> value;
    if (const size_t eq = flag.find('='); eq != std::string::npos && flag.rfind("--", 0) == 0) {
      value = flag.substr(eq + 1);
      flag = flag.substr(0, eq);
    }
    if (flag.find("token") != std::string::npos) {
      throw UsageError(flag + ": the job token is read from TESSERA_JOB_TOKEN only, never from "
                              "the command line (other users can read argv)");
    }
    bool known = false;
    for (const char* k : kKnown) known = known || flag == k;
    if (!known) throw UsageError("unknown option '" + flag + "' (see 'tessera coordinator --help')");
    if (IsBooleanFlag(flag)) {
      if (value.has_value()) throw UsageError(flag + " takes no value");
      flags[flag] = "";
      continue;
    }
    if (!value.has_value()) {
      if (i + 1 >= args.size()) throw UsageError(flag + " needs a value");
      value = args[++i];
    }
    flags[flag] = *value;
  }
  return flags;
}

std::unique_ptr<tessera_cluster_options, OptionsDeleter> BuildOptions(
    const std::map<std::string, std::string>& flags) {
  auto get = [&](const char* flag) -> const std::string* {
    auto it = flags.find(flag);
    return it == flags.end() ? nullptr : &it->second;
  };
  if (get("--bind") == nullptr) throw UsageError("--bind HOST:PORT is required");
  if (get("--num-processes") == nullptr) throw UsageError("--num-processes N is required");
  std::unique_ptr<tessera_cluster_options, OptionsDeleter> options(tessera_cluster_options_create());
  if (options == nullptr) throw std::runtime_error("out of memory");
  tessera_cluster_options* o = options.get();
  tessera_error* e = nullptr;
  // A standalone coordinator is no process of the job: launcher variables
  // must not give it a process id or another address.
  Check(tessera_cluster_options_set_detection(o, "none", &e), e);
  Check(tessera_cluster_options_set_bind_address(o, get("--bind")->c_str(), &e), e);
  Check(tessera_cluster_options_set_num_processes(
            o, ParseInt("--num-processes", *get("--num-processes")), &e), e);
  Check(tessera_cluster_options_set_process_index(o, 0, &e), e);
  if (const std::string* id = get("--job-id")) Check(tessera_cluster_options_set_job_id(o, id->c_str(), &e), e);
  const std::string* cert = get("--tls-cert");
  const std::string* key = get("--tls-key");
  const std::string* ca = get("--tls-ca");
  if (cert != nullptr || key != nullptr || ca != nullptr) {
    Check(tessera_cluster_options_set_tls(o, cert ? cert->c_str() : nullptr, key ? key->c_str() : nullptr,
                                          ca ? ca->c_str() : nullptr, &e), e);
  }
  if (get("--tls-require-client-cert")) Check(tessera_cluster_options_set_tls_require_client_cert(o, true, &e), e);
  if (const std::string* prefix = get("--tls-peer-uri-prefix")) {
    Check(tessera_cluster_options_set_tls_peer_uri_prefix(o, prefix->c_str(), &e), e);
  }
  if (get("--require-auth")) Check(tessera_cluster_options_set_require_auth(o, true, &e), e);
  if (get("--recoverable")) Check(tessera_cluster_options_set_recoverable(o, true, &e), e);
  if (const std::string* ms = get("--init-timeout-ms")) {
    Check(tessera_cluster_options_set_init_timeout_ms(o, ParseInt("--init-timeout-ms", *ms), &e), e);
  }
  const std::string* interval = get("--heartbeat-interval-ms");
  const std::string* timeout = get("--heartbeat-timeout-ms");
  if (interval != nullptr || timeout != nullptr) {
    const int64_t i = interval ? ParseInt("--heartbeat-interval-ms", *interval) : 10000;
    const int64_t t = timeout ? ParseInt("--heartbeat-timeout-ms", *timeout) : 10 * i;
    Check(tessera_cluster_options_set_heartbeat(o, i, t, &e), e);
  }
  if (const std::string* ms = get("--shutdown-timeout-ms")) {
    Check(tessera_cluster_options_set_shutdown_timeout_ms(o, ParseInt("--shutdown-timeout-ms", *ms), &e), e);
  }
  if (const std::string* address = get("--metrics-bind")) {
    Check(tessera_cluster_options_set_metrics_bind(o, address->c_str(), &e), e);
  }
  return options;
}

void WritePortFile(const std::string& path, int port) {
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::trunc);
    out << port << "\n";
    if (!out) throw std::runtime_error("cannot write --port-file '" + path + "'");
  }
  if (std::rename(partial.c_str(), path.c_str()) != 0) {  // readers never see half a number
    throw std::runtime_error("cannot write --port-file '" + path + "'");
  }
}

}  // namespace

int RunCoordinator(const std::vector<std::string>& args) {
  std::map<std::string, std::string> flags;
  std::unique_ptr<tessera_cluster_options, OptionsDeleter> options;
  try {
    flags = ParseFlags(args);
    if (flags.count("-h") || flags.count("--help")) {
      std::fputs(kCoordinatorHelp, stdout);
      return kExitOk;
    }
    options = BuildOptions(flags);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "tessera coordinator: %s\n", e.what());
    return kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera coordinator: %s\n", e.what());
    return kExitUsage;
  }
  tessera_error* error = nullptr;
  std::unique_ptr<tessera_coordinator, CoordinatorDeleter> coordinator(
      tessera_coordinator_start(options.get(), &error));
  if (coordinator == nullptr) {
    std::fprintf(stderr, "tessera coordinator: %s\n",
                 error != nullptr ? tessera_error_message(error) : "failed to start");
    tessera_error_destroy(error);
    return kExitFailed;
  }
  const int port = tessera_coordinator_port(coordinator.get(), nullptr);
  try {
    if (auto it = flags.find("--port-file"); it != flags.end()) WritePortFile(it->second, port);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tessera coordinator: %s\n", e.what());
    return kExitFailed;
  }
  std::printf("tessera coordinator: listening on port %d\n", port);
  if (flags.count("--metrics-bind")) {
    std::printf("tessera coordinator: metrics on port %d\n", tessera_coordinator_metrics_port(coordinator.get(), nullptr));
  }
  std::fflush(stdout);
  std::signal(SIGINT, OnStopSignal);
  std::signal(SIGTERM, OnStopSignal);
  const tessera::cluster::SystemdNotifier systemd = tessera::cluster::SystemdNotifier::FromEnvironment();
  // A broken NOTIFY_SOCKET is reported once; systemd then times the unit out.
  bool notify_failed = false;
  auto notify = [&](const char* state) {
    std::string why;
    if (!systemd.Notify(state, &why) && !notify_failed) {
      notify_failed = true;
      std::fprintf(stderr, "tessera coordinator: warning: cannot tell systemd %s: %s\n", state, why.c_str());
    }
  };
  notify("READY=1");
  // The keep-alive comes from this loop, not a thread of its own: a loop
  // that stopped turning is what the watchdog is for.
  using SteadyClock = std::chrono::steady_clock;
  const auto watchdog = std::chrono::duration_cast<std::chrono::milliseconds>(systemd.watchdog_period());
  const int64_t slice_ms = watchdog.count() > 0 ? std::clamp<int64_t>(watchdog.count(), 1, 200) : 200;
  SteadyClock::time_point next_keepalive = SteadyClock::now() + watchdog;
  bool ended = false;
  while (g_stop_signal == 0 && !ended) {
    ended = tessera_coordinator_wait(coordinator.get(), slice_ms, nullptr);
    if (watchdog.count() > 0 && SteadyClock::now() >= next_keepalive) {
      notify("WATCHDOG=1");
      next_keepalive = SteadyClock::now() + watchdog;
    }
  }
  notify("STOPPING=1");
  tessera_coordinator_stop(coordinator.get());
  if (ended) {
    std::printf("tessera coordinator: the job ended\n");
    return kExitOk;
  }
  std::fprintf(stderr, "tessera coordinator: stopped by signal %d\n", static_cast<int>(g_stop_signal));
  return kExitFailed;
}

}  // namespace tessera_cli
