// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator's job state machine, free of any transport.
//
// CoordinatorServer feeds it decoded requests; tests drive it directly with a
// fake clock. Blocking operations (WaitForJob, KvGet with wait, Barrier,
// AgreeLive, Shutdown) never block a thread: they park a completion that runs
// exactly once, later, from whichever call or Tick() resolves it. Completions
// and listeners always run with no lock held. Per-call work is O(1) or
// O(log n); only rare events (job start, failure, timeouts) touch every
// process.
#ifndef TESSERA_CORE_CLUSTER_COORDINATOR_STATE_H_
#define TESSERA_CORE_CLUSTER_COORDINATOR_STATE_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/coordinator_metrics.h"
#include "core/cluster/kv_store.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster {

// Time source; the state only compares and subtracts its values.
class Clock {
 public:
  virtual ~Clock() = default;
  virtual absl::Time Now() const = 0;
};

// A monotonic clock (steady_clock as absl::Time); never owned by callers.
const Clock& SteadyClock();

struct CoordinatorOptions {
  std::string job_id;
  int32_t num_processes = 1;
  std::string address;  // advertised "host:port": messages and the loopback check
  absl::Duration init_timeout = kDefaultInitTimeout;
  absl::Duration heartbeat_interval = kDefaultHeartbeatInterval;
  absl::Duration heartbeat_timeout = kDefaultHeartbeatTimeout;
  absl::Duration shutdown_timeout = kDefaultShutdownTimeout;
  bool recoverable = false;
  bool fail_job_on_duplicate_id = false;
  int64_t max_value_bytes = kDefaultMaxValueBytes;
  int64_t max_store_bytes = kDefaultMaxStoreBytes;
  int64_t max_pending_calls = 1 << 20;  // parked blocking calls, all kinds together
  absl::Duration straggler_log_period = absl::Seconds(30);
  uint64_t incarnation = 0;  // 0: random
  // Whether the process described by `host` is known to have exited. A
  // second registration for a live-looking id is a restart only when the
  // holder is gone; otherwise it is a duplicate (coordinator.md §6.6). Empty:
  // HolderExitedOnThisHost (a pid check, possible only on the coordinator's
  // own host; elsewhere "not known").
  std::function<bool(const v1::HostInfo& host)> holder_exited;

  static CoordinatorOptions FromConfig(const ClusterConfig& config);
};

// True when `host` is this machine (same boot id) and its pid no longer exists.
bool HolderExitedOnThisHost(const v1::HostInfo& host);

// A blocking call parked in the state, named so that its transport can
// Withdraw it when the client goes away. Copyable; empty when the call never
// parked (it completed or failed at once).
class ParkedCall {
 public:
  ParkedCall() = default;
  explicit operator bool() const { return kind_ != Kind::kNone; }

 private:
  friend class CoordinatorState;
  enum class Kind : uint8_t { kNone, kWaitForJob, kKvGet, kBarrier, kAgreeLive, kShutdown };
  ParkedCall(Kind kind, uint64_t id, int32_t process_id) : kind_(kind), id_(id), process_id_(process_id) {}

  Kind kind_ = Kind::kNone;
  uint64_t id_ = 0;  // unique per parked call, so a stale name never hits a later call
  int32_t process_id_ = -1;
  std::pair<std::string, int64_t> barrier_;  // kBarrier: (id, counter)
  std::vector<int32_t> candidates_;          // kAgreeLive
};

// Runs once with the call's final status (the response was filled before).
using Completion = std::function<void(absl::Status)>;
// WaitForJob's completion: the topology is shared by every waiter (a
// 10,000-process topology is too big to copy per process), null on error.
using TopologyCompletion =
    std::function<void(absl::Status, std::shared_ptr<const v1::GlobalTopology>)>;

class CoordinatorState {
 public:
  // `clock` must outlive the state.
  CoordinatorState(CoordinatorOptions options, const Clock* clock);
  ~CoordinatorState();
  CoordinatorState(const CoordinatorState&) = delete;
  CoordinatorState& operator=(const CoordinatorState&) = delete;

  // Unary calls. Responses are filled only on success.
  absl::Status Register(const v1::RegisterRequest& request, v1::RegisterResponse* response);
  absl::Status Heartbeat(const v1::HeartbeatRequest& request, v1::HeartbeatResponse* response);
  // The process id of an operator's GetJobState (`tessera status`).
  static constexpr int32_t kOperatorProcessId = -1;
  absl::Status GetJobState(const v1::GetJobStateRequest& request,
                           v1::GetJobStateResponse* response);
  absl::Status ReportError(const v1::ReportErrorRequest& request);
  // By value: the server moves its request in, so a large value is not
  // copied on its way into the store.
  absl::Status KvSet(v1::KvSetRequest request);
  absl::Status KvList(const v1::KvListRequest& request, v1::KvListResponse* response);
  // KvList without copying: the page's entries share the stored values
  // (what the transport sends from, after the state's lock is released).
  absl::StatusOr<KvStore::Page> KvListPage(const v1::KvListRequest& request);
  absl::Status KvDelete(const v1::KvDeleteRequest& request);
  absl::Status KvIncrement(const v1::KvIncrementRequest& request,
                           v1::KvIncrementResponse* response);
  absl::Status KvCompareAndSwap(const v1::KvCasRequest& request, v1::KvCasResponse* response);
  absl::Status CancelBarrier(const v1::CancelBarrierRequest& request);

  // User KV calls on the reserved key space (kReservedKvPrefix, after
  // normalization) fail with PERMISSION_DENIED and change nothing; listing
  // everything leaves the reserved entries out.

  // Blocking calls: `response` must stay valid until `done` runs (maybe
  // before these return). Each returns the call's name for Withdraw.
  ParkedCall WaitForJob(const v1::WaitForJobRequest& request, TopologyCompletion done);
  // The same, copying the topology into `response`.
  ParkedCall WaitForJob(const v1::WaitForJobRequest& request, v1::GlobalTopology* response,
                        Completion done);
  ParkedCall KvGet(const v1::KvGetRequest& request, v1::KvEntry* response, Completion done);
  ParkedCall Barrier(const v1::BarrierRequest& request, v1::BarrierResponse* response,
                     Completion done);
  ParkedCall AgreeLive(const v1::AgreeLiveRequest& request, v1::AgreeLiveResponse* response,
                       Completion done);
  ParkedCall Shutdown(const v1::ShutdownRequest& request, Completion done);

  // The client of a parked call went away (cancelled it, or its deadline
  // passed): completes it now with CANCELLED, freeing its slot under
  // max_pending_calls, instead of at its own timeout. A withdrawn barrier or
  // AgreeLive arrival no longer counts (the process is no longer waiting
  // there, so the others must not pass on its account; it may arrive again);
  // WaitForJob and KvGet waiters are dropped; a Shutdown arrival stays
  // counted (a process cannot take back its shutdown), only its call ends.
  // No-op once the call has completed.
  void Withdraw(const ParkedCall& call);
  // Blocking calls parked now, all kinds together (max_pending_calls bounds it).
  int64_t parked_calls() const { return parked_.load(); }
  // The version of the newest event appended to the log (0: none yet).
  int64_t event_version();

  // The library's own access to the reserved key space (user calls are
  // refused there): INVALID_ARGUMENT unless `key` normalizes under
  // kReservedKvPrefix. Set overwrites; Get is NOT_FOUND when absent.
  absl::Status InternalKvSet(absl::string_view key, std::string value);
  absl::StatusOr<std::string> InternalKvGet(absl::string_view key);

  // FAILED_PRECONDITION with REASON_WRONG_JOB naming both ids unless
  // `header` is of this job. The server asks it first when a call's job
  // credential does not match: a process of another job is told so, not
  // that its token is wrong (the credential binds the job id too).
  absl::Status CheckJobId(const v1::Header& header);

  // Events: validates a watcher's header (any registered process, also of a
  // failed job); then EventsAfter pages through the log.
  absl::Status CheckWatcher(const v1::Header& header);
  std::vector<v1::Event> EventsAfter(int64_t version, size_t max_events);
  // A checked watcher's stream opened / ended; the transport calls
  // WatcherClosed once for each WatcherOpened that returned true (false: the
  // header names no current incarnation, so its stream says nothing about
  // liveness). A running process whose last stream ends and that neither
  // calls nor opens a stream within kReconnectGrace is lost ("its event
  // stream closed"): a killed process's connection closes at once, long
  // before its heartbeats are missed. While the job registers, a closed
  // stream changes nothing (a crashed registrant may be restarted until the
  // heartbeat timeout); once the job failed, it ends the process's
  // membership at once (it left), so the job can end without waiting for
  // heartbeat timeouts.
  bool WatcherOpened(const v1::Header& header);
  void WatcherClosed(const v1::Header& header);
  // The version of the job_error event of a failed job; 0 while it has not failed.
  int64_t failure_event_version();
  // Whether the job failed and every process still live holds the error:
  // a call of its was answered with it, or it is in `heard` (the processes
  // whose own event stream carried the job_error event).
  bool EveryoneHoldsFailure(const std::vector<int32_t>& heard);
  // Called (no lock held) after events were appended. Set before serving.
  void SetEventListener(std::function<void()> listener) { event_listener_ = std::move(listener); }
  // Called once (no lock held) when the job has ended. Set before serving.
  void SetEndListener(std::function<void()> listener) { end_listener_ = std::move(listener); }

  // Fires expired deadlines and runs the heartbeat staleness scan when due.
  // Call often (every few ms); cheap when nothing is due.
  void Tick();

  // Completes every parked call with `reason` (CANCELLED on a server stop);
  // later blocking calls complete with it at once. Idempotent.
  void Stop(absl::Status reason);

  // True once every process shut down, the shutdown barrier expired, or the
  // job failed and no process is live any more.
  bool Ended();
  // Why it ended (OK after a clean shutdown).
  absl::Status EndStatus();
  v1::JobState job_state();
  // The job's numbers for /metrics, read at once.
  CoordinatorCounts Counts();
  uint64_t incarnation() const { return incarnation_; }
  // The advertised address named in messages, once the port is known.
  void SetAddress(std::string address);
  const CoordinatorOptions& options() const { return options_; }

 private:
  struct Task {
    v1::TaskState state = v1::TASK_STATE_NEVER_CONNECTED;
    uint64_t incarnation = 0;
    v1::HostInfo host;
    std::vector<v1::LocalDevice> devices;
    std::optional<int32_t> partition_index;
    bool recoverable = false;
    bool ever_connected = false;
    absl::Time last_heartbeat = absl::InfinitePast();
    v1::ErrorInfo error;
    absl::flat_hash_map<std::string, int64_t> waiting_at;  // barrier id -> counter
    bool shutdown_called = false;
    bool told_failure = false;  // a call was answered with the job's failure
    int32_t open_streams = 0;   // event streams of this incarnation now open
    uint64_t stream_grace_timer = 0;
  };
  struct Parked {
    Completion done;
    uint64_t timer = 0;
  };
  struct BarrierWaiter {
    v1::BarrierResponse* response;
    Completion done;
    uint64_t call = 0;  // ParkedCall id
  };
  struct BarrierInstance {
    std::string id;
    int64_t counter = 0;
    bool all = true;
    std::vector<int32_t> participants;  // sorted; unused when `all`
    absl::flat_hash_set<int32_t> arrived;
    absl::flat_hash_map<int32_t, BarrierWaiter> waiting;
    int32_t first_arrival = -1;
    absl::Time started;  // the first arrival (the barrier's duration metric)
    absl::Duration timeout;
    uint64_t timer = 0;
    std::optional<absl::Status> result;
  };
  struct AgreeWaiter {
    v1::AgreeLiveResponse* response;
    Completion done;
    uint64_t call = 0;  // ParkedCall id
  };
  struct AgreeInstance {
    std::vector<int32_t> candidates;  // sorted
    absl::flat_hash_map<int32_t, AgreeWaiter> arrived;
    int64_t alive_not_arrived = 0;
    uint64_t timer = 0;
  };
  struct KvWaiter {
    std::string key;
    int32_t process_id = -1;
    v1::KvEntry* response;
    Completion done;
    uint64_t timer = 0;
  };
  struct JobWaiter {
    int32_t process_id;
    TopologyCompletion done;
    uint64_t timer = 0;
  };
  struct Timer {
    absl::Time deadline;
    std::function<void()> fire;
  };
  class Section;  // the lock plus the deferred completions
  absl::Duration ScanPeriod() const;
  bool EndedLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Header checks shared by every call after Register.
  absl::StatusOr<Task*> CallerLocked(const v1::Header& header, bool allow_failed_job)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status CheckJobIdLocked(const v1::Header& header) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // RESOURCE_EXHAUSTED past max_pending_calls; else wraps `done` so the
  // count drops when it runs.
  template <typename Done>
  absl::Status ParkLocked(Done& done) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  void CompleteLocked(Completion done, absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CompleteLocked(TopologyCompletion done, absl::Status status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  uint64_t AddTimerLocked(absl::Time deadline, std::function<void()> fire)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void CancelTimerLocked(uint64_t id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void AppendEventLocked(v1::Event event) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The topology's generation and fingerprint (a job start or a rejoin).
  void AppendTopologyEventLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void SetTaskStateLocked(int32_t process_id, v1::TaskState state)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  v1::TaskInfo TaskInfoLocked(int32_t process_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string DescribeLocked(int32_t process_id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Registration and the job's life.
  absl::Status RegisterLocked(const v1::RegisterRequest& request, v1::RegisterResponse* response)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void AcceptRegistrationLocked(const v1::RegisterRequest& request)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void MaybeStartJobLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status PublishTopologyLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status MissingStatusLocked(absl::StatusCode code, absl::string_view what)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void OnRegistrationDeadlineLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Fate sharing: every call now returns `status` (given REASON_JOB_FAILED
  // unless it carries a detail). No-op once FAILED or STOPPED. The job
  // error (event and GetJobState) carries `reported_code` when non-zero (the
  // code a process reported), else status's code.
  void FailJobLocked(absl::Status status, int32_t source, bool reported_by_user,
                     int32_t reported_code = 0) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FailAllParkedLocked(const absl::Status& status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // A process died or restarted: fate sharing fails the job; recoverable mode
  // fails its barriers and drops it from agreements.
  void TaskLostLocked(int32_t process_id, absl::StatusCode code, const std::string& message)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void LeaveCollectivesLocked(int32_t process_id, const std::string& why)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void ScanHeartbeatsLocked(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The grace after process `process_id`'s (incarnation) last stream closed
  // at `closed` has passed: lost unless it showed life since.
  void OnStreamGraceLocked(int32_t process_id, uint64_t incarnation, absl::Time closed)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void LogStragglersLocked(absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void MaybeEndLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // KV.
  void WakeKvWaitersLocked(const std::string& key) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RemoveKvWaiterLocked(uint64_t id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void WithdrawBarrierLocked(const ParkedCall& call, const absl::Status& why)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void WithdrawAgreeLocked(const ParkedCall& call, const absl::Status& why)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Barriers and agreements.
  bool IsParticipant(const BarrierInstance& b, int32_t process_id) const;
  int64_t ParticipantCount(const BarrierInstance& b) const;
  void ArriveLocked(BarrierInstance& b, int32_t process_id, BarrierWaiter waiter)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FinishBarrierLocked(BarrierInstance& b, absl::Status status)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status BarrierFailureLocked(const BarrierInstance& b, absl::StatusCode code,
                                    const std::string& message)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PruneBarriersLocked(const std::string& id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool AliveLocked(int32_t process_id) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void MaybeFinishAgreeLocked(const std::vector<int32_t>& key)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void FinishShutdownLocked(absl::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const CoordinatorOptions options_;
  const Clock* const clock_;
  const uint64_t incarnation_;
  std::function<void()> event_listener_;
  std::function<void()> end_listener_;

  absl::Mutex mu_;
  std::vector<std::function<void()>> outbox_ ABSL_GUARDED_BY(mu_);
  bool events_appended_ ABSL_GUARDED_BY(mu_) = false;
  bool end_announced_ ABSL_GUARDED_BY(mu_) = false;
  bool end_pending_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<absl::Status> stopped_ ABSL_GUARDED_BY(mu_);
  std::string address_ ABSL_GUARDED_BY(mu_);

  v1::JobState job_state_ ABSL_GUARDED_BY(mu_) = v1::JOB_STATE_REGISTERING;
  absl::Status job_status_ ABSL_GUARDED_BY(mu_);  // the error every call returns once FAILED
  v1::ErrorInfo job_error_ ABSL_GUARDED_BY(mu_);
  int64_t job_error_version_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Time created_ ABSL_GUARDED_BY(mu_);
  absl::Time running_since_wall_ ABSL_GUARDED_BY(mu_);
  std::vector<Task> tasks_ ABSL_GUARDED_BY(mu_);
  int64_t pending_tasks_ ABSL_GUARDED_BY(mu_) = 0;  // registered while REGISTERING
  int64_t live_tasks_ ABSL_GUARDED_BY(mu_) = 0;     // PENDING or RUNNING
  std::shared_ptr<const v1::GlobalTopology> topology_ ABSL_GUARDED_BY(mu_);
  int64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<uint64_t, JobWaiter> job_waiters_ ABSL_GUARDED_BY(mu_);

  std::deque<v1::Event> events_ ABSL_GUARDED_BY(mu_);
  int64_t version_ ABSL_GUARDED_BY(mu_) = 0;

  KvStore kv_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, KvWaiter> kv_waiters_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::vector<uint64_t>> kv_waiting_keys_ ABSL_GUARDED_BY(mu_);

  std::map<std::pair<std::string, int64_t>, BarrierInstance> barriers_ ABSL_GUARDED_BY(mu_);
  std::set<std::pair<std::string, int64_t>> ongoing_barriers_ ABSL_GUARDED_BY(mu_);
  std::map<std::vector<int32_t>, AgreeInstance> agrees_ ABSL_GUARDED_BY(mu_);

  std::vector<std::pair<int32_t, Completion>> shutdown_waiters_ ABSL_GUARDED_BY(mu_);
  int64_t shutdown_needed_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t shutdown_timer_ ABSL_GUARDED_BY(mu_) = 0;
  bool shutdown_expired_ ABSL_GUARDED_BY(mu_) = false;

  // Counters of Counts (the rest is read from the state when asked).
  int64_t processes_lost_total_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t heartbeats_missed_total_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t barriers_passed_total_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t barriers_failed_total_ ABSL_GUARDED_BY(mu_) = 0;
  DurationHistogram barrier_seconds_ ABSL_GUARDED_BY(mu_);

  std::atomic<int64_t> parked_{0};  // blocking calls not yet completed
  uint64_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  std::set<std::pair<absl::Time, uint64_t>> timer_queue_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Timer> timers_ ABSL_GUARDED_BY(mu_);
  absl::Time next_scan_ ABSL_GUARDED_BY(mu_);
  absl::Time next_straggler_log_ ABSL_GUARDED_BY(mu_);
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_COORDINATOR_STATE_H_
