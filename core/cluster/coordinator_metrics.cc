// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/coordinator_metrics.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace tessera::cluster {
namespace {

constexpr char kPrefix[] = "tessera_coordinator_";
constexpr const char* kJobStates[] = {"REGISTERING", "RUNNING", "SHUTTING_DOWN", "STOPPED", "FAILED"};

// Shortest text that reads back as the same double ("0.001", "600", "+Inf").
std::string Number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  for (int precision = 6; precision <= 17; ++precision) {  // 6 and up: "600", not "6e+02"
    char shorter[32];
    std::snprintf(shorter, sizeof(shorter), "%.*g", precision, value);
    if (std::strtod(shorter, nullptr) == value) return shorter;
  }
  return buffer;
}

// Label values are method names and enum names; escaped anyway.
std::string Escaped(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

class Writer {
 public:
  explicit Writer(MetricsFormat format) : format_(format) {}

  // HELP and TYPE of family `name` (without the prefix or "_total").
  void Family(const std::string& name, const char* type, const std::string& help) {
    const bool counter = std::string(type) == "counter";
    const std::string shown =
        kPrefix + name + (counter && format_ == MetricsFormat::kPrometheus ? "_total" : "");
    absl::StrAppend(&out_, "# HELP ", shown, " ", help, "\n# TYPE ", shown, " ", type, "\n");
  }
  void Sample(const std::string& name, const std::string& labels, const std::string& value) {
    absl::StrAppend(&out_, kPrefix, name, labels.empty() ? "" : "{", labels, labels.empty() ? "" : "}", " ",
                    value, "\n");
  }
  void Gauge(const std::string& name, const std::string& help, int64_t value) {
    Family(name, "gauge", help);
    Sample(name, "", absl::StrCat(value));
  }
  void Counter(const std::string& name, const std::string& help, int64_t value) {
    Family(name, "counter", help);
    Sample(name + "_total", "", absl::StrCat(value));
  }
  std::string Finish() {
    if (format_ == MetricsFormat::kOpenMetrics) out_ += "# EOF\n";
    return std::move(out_);
  }

 private:
  const MetricsFormat format_;
  std::string out_;
};

}  // namespace

void DurationHistogram::Observe(double seconds) {
  size_t bucket = 0;
  while (bucket < kBounds.size() && seconds > kBounds[bucket]) ++bucket;
  ++counts[bucket];
  sum += seconds;
  ++count;
}

void RpcCounts::Add(const std::string& method, const std::string& code) {
  absl::MutexLock lock(&mu_);
  ++counts_[{method, code}];
}

std::map<std::pair<std::string, std::string>, int64_t> RpcCounts::Snapshot() const {
  absl::MutexLock lock(&mu_);
  return counts_;
}

std::string RenderMetrics(const CoordinatorCounts& c,
                          const std::map<std::pair<std::string, std::string>, int64_t>& rpcs,
                          MetricsFormat format) {
  Writer w(format);
  w.Gauge("processes_expected", "Processes the job has.", c.processes_expected);
  w.Gauge("processes_registered", "Processes that have registered at least once.", c.processes_registered);
  w.Gauge("processes_connected", "Processes registered and alive (pending or running).",
          c.processes_connected);
  w.Gauge("processes_failed", "Processes now failed (lost, restarted, or reported an error).",
          c.processes_failed);
  w.Counter("processes_lost", "Processes declared lost, any cause.", c.processes_lost_total);
  w.Counter("heartbeats_missed", "Processes declared lost because no heartbeat came within the timeout.",
            c.heartbeats_missed_total);
  w.Gauge("barriers_waiting", "Barriers in progress (someone arrived, not all).", c.barriers_waiting);
  w.Gauge("barrier_processes_waiting", "Processes waiting at a barrier.", c.barrier_processes_waiting);
  w.Counter("barriers_passed", "Barriers every participant passed.", c.barriers_passed_total);
  w.Counter("barriers_failed", "Barriers that timed out, were cancelled or lost a participant.",
            c.barriers_failed_total);
  w.Family("barrier_duration_seconds", "histogram",
           "Time from the first arrival at a barrier to its passing, of passed barriers.");
  int64_t cumulative = 0;
  for (size_t i = 0; i < c.barrier_seconds.counts.size(); ++i) {
    cumulative += c.barrier_seconds.counts[i];
    const std::string le = i < DurationHistogram::kBounds.size() ? Number(DurationHistogram::kBounds[i]) : "+Inf";
    w.Sample("barrier_duration_seconds_bucket", absl::StrCat("le=\"", le, "\""), absl::StrCat(cumulative));
  }
  w.Sample("barrier_duration_seconds_count", "", absl::StrCat(c.barrier_seconds.count));
  w.Sample("barrier_duration_seconds_sum", "", Number(c.barrier_seconds.sum));
  w.Gauge("kv_keys", "Keys in the key-value store.", c.kv_keys);
  w.Gauge("kv_bytes", "Bytes of keys and values in the key-value store.", c.kv_bytes);
  w.Family("rpcs", "counter", "RPCs answered, by service, method and status code.");
  for (const auto& [key, count] : rpcs) {
    const std::string& method = key.first;  // "/package.Service/Method"
    const size_t slash = method.rfind('/');
    const std::string service = slash == std::string::npos ? "" : method.substr(method[0] == '/' ? 1 : 0,
                                                                                  slash - (method[0] == '/' ? 1 : 0));
    const std::string name = slash == std::string::npos ? method : method.substr(slash + 1);
    w.Sample("rpcs_total",
             absl::StrCat("service=\"", Escaped(service), "\",method=\"", Escaped(name), "\",code=\"",
                          Escaped(key.second), "\""),
             absl::StrCat(count));
  }
  w.Family("job_state", "gauge", "The job's state: 1 for the current one, 0 for the others.");
  for (const char* state : kJobStates) {
    w.Sample("job_state", absl::StrCat("state=\"", state, "\""), c.job_state == state ? "1" : "0");
  }
  return w.Finish();
}

const char* MetricsContentType(MetricsFormat format) {
  return format == MetricsFormat::kOpenMetrics ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
                                               : "text/plain; version=0.0.4; charset=utf-8";
}

MetricsFormat NegotiateMetricsFormat(const std::string& accept) {
  return absl::StrContains(absl::AsciiStrToLower(accept), "application/openmetrics-text")
             ? MetricsFormat::kOpenMetrics
             : MetricsFormat::kPrometheus;
}

}  // namespace tessera::cluster
