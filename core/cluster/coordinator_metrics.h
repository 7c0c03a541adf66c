// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator's metrics for operators (issue 14): what the state and the
// server count, and their rendering as OpenMetrics 1.0 text or Prometheus
// 0.0.4 text for `/metrics` (metrics_http.h). Names start with
// "tessera_coordinator_"; counters end in "_total".
#ifndef TESSERA_CORE_CLUSTER_COORDINATOR_METRICS_H_
#define TESSERA_CORE_CLUSTER_COORDINATOR_METRICS_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"

namespace tessera::cluster {

// Durations in seconds, in fixed buckets from a millisecond to ten minutes
// (barriers run from a collective's microseconds to a checkpoint's minutes).
struct DurationHistogram {
  static constexpr std::array<double, 10> kBounds = {0.001, 0.01, 0.1, 0.5, 1, 5, 10, 60, 300, 600};
  std::array<int64_t, kBounds.size() + 1> counts{};  // per bucket (not cumulative); last: +Inf
  double sum = 0;
  int64_t count = 0;

  void Observe(double seconds);
};

// The job's side, read at once under the state's lock (CoordinatorState::Counts).
struct CoordinatorCounts {
  int64_t processes_expected = 0;
  int64_t processes_registered = 0;  // ever registered (any state but NEVER_CONNECTED)
  int64_t processes_connected = 0;   // PENDING or RUNNING
  int64_t processes_failed = 0;      // FAILED now
  int64_t processes_lost_total = 0;  // declared lost, any cause
  int64_t heartbeats_missed_total = 0;  // lost because no heartbeat came within the timeout
  int64_t barriers_waiting = 0;         // barrier instances in progress
  int64_t barrier_processes_waiting = 0;
  int64_t barriers_passed_total = 0;
  int64_t barriers_failed_total = 0;  // timed out, cancelled or failed by a lost process
  DurationHistogram barrier_seconds;  // first arrival to passing, of passed barriers
  int64_t kv_keys = 0;
  int64_t kv_bytes = 0;
  std::string job_state;  // "REGISTERING", "RUNNING", ... (the proto's name without JOB_STATE_)
};

// RPCs by method and status code (the server's interceptor counts them).
class RpcCounts {
 public:
  // `method`: gRPC's "/package.Service/Method"; `code`: the status code's
  // name ("OK", "UNAVAILABLE").
  void Add(const std::string& method, const std::string& code);
  std::map<std::pair<std::string, std::string>, int64_t> Snapshot() const;

 private:
  mutable absl::Mutex mu_;
  std::map<std::pair<std::string, std::string>, int64_t> counts_ ABSL_GUARDED_BY(mu_);
};

enum class MetricsFormat { kOpenMetrics, kPrometheus };

// The exposition: HELP and TYPE for every family; OpenMetrics ends with
// "# EOF". In Prometheus 0.0.4 a counter's TYPE names the sample with
// "_total"; in OpenMetrics it names the family without it.
std::string RenderMetrics(const CoordinatorCounts& counts,
                          const std::map<std::pair<std::string, std::string>, int64_t>& rpcs,
                          MetricsFormat format);

// The content type of `format`'s answer.
const char* MetricsContentType(MetricsFormat format);

// OpenMetrics when the Accept header names application/openmetrics-text,
// else Prometheus 0.0.4 text (what prometheus_client does).
MetricsFormat NegotiateMetricsFormat(const std::string& accept);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_COORDINATOR_METRICS_H_
