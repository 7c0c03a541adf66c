// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/coordinator_state.h"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/local_host.h"
#include "core/cluster/topology.h"
#include "core/cluster/wire_text.h"
#include "core/log.h"

namespace tessera::cluster {
namespace {

constexpr size_t kMaxRetainedEvents = 1 << 16;
constexpr size_t kMaxRetainedBarrierInstances = 8;  // finished ones per id, for replays
constexpr size_t kBarrierWarnThreshold = 20;
constexpr size_t kMaxNamedProcesses = 8;

class SteadyClockImpl final : public Clock {
 public:
  absl::Time Now() const override {
    return absl::UnixEpoch() + absl::FromChrono(std::chrono::steady_clock::now().time_since_epoch());
  }
};

uint64_t RandomIncarnation() {
  absl::BitGen gen;
  uint64_t value = 0;
  while (value == 0) value = absl::Uniform<uint64_t>(gen);
  return value;
}

absl::Status WithReason(absl::Status status, v1::CoordinatorErrorDetail::Reason reason,
                        int32_t source = -1) {
  v1::CoordinatorErrorDetail detail;
  detail.set_reason(reason);
  detail.set_source_process_id(source);
  return WithDetail(std::move(status), detail);
}

const char* StateName(v1::TaskState state) {
  switch (state) {
    case v1::TASK_STATE_NEVER_CONNECTED: return "never connected";
    case v1::TASK_STATE_PENDING: return "registered";
    case v1::TASK_STATE_RUNNING: return "running";
    case v1::TASK_STATE_DISCONNECTED: return "shut down";
    case v1::TASK_STATE_FAILED: return "failed";
    default: return "unknown";
  }
}

bool IsLive(v1::TaskState state) {
  return state == v1::TASK_STATE_PENDING || state == v1::TASK_STATE_RUNNING;
}

// "1,2,3" or "1,2,...,8 (+5 more)".
std::string JoinIds(const std::vector<int32_t>& ids, size_t cap = 32) {
  if (ids.size() <= cap) return absl::StrJoin(ids, ",");
  std::vector<int32_t> head(ids.begin(), ids.begin() + cap);
  return absl::StrCat(absl::StrJoin(head, ","), ",... (+", ids.size() - cap, " more)");
}

std::string Inc(uint64_t incarnation) { return absl::StrCat(absl::Hex(incarnation)); }

std::string Ms(int64_t ms) { return absl::FormatDuration(absl::Milliseconds(ms)); }

// Sorted, in range [0, n), no duplicates.
absl::StatusOr<std::vector<int32_t>> ProcessSet(const google::protobuf::RepeatedField<int32_t>& ids,
                                                int32_t n, absl::string_view field) {
  std::vector<int32_t> out(ids.begin(), ids.end());
  std::sort(out.begin(), out.end());
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] < 0 || out[i] >= n) {
      return absl::InvalidArgumentError(absl::StrCat(field, " contains process id ", out[i],
                                                     "; expected ids in [0, ", n, ")"));
    }
    if (i > 0 && out[i] == out[i - 1]) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, " lists process id ", out[i], " twice"));
    }
  }
  return out;
}

}  // namespace

const Clock& SteadyClock() {
  static const SteadyClockImpl* clock = new SteadyClockImpl;
  return *clock;
}

bool HolderExitedOnThisHost(const v1::HostInfo& host) {
  static const std::string* const local_boot_id = new std::string(LocalHostInfo().boot_id());
  if (local_boot_id->empty() || host.boot_id() != *local_boot_id || host.pid() <= 0) return false;
  return kill(static_cast<pid_t>(host.pid()), 0) != 0 && errno == ESRCH;
}

namespace {

// What a WaitForJob with omit_devices answers: the topology's identity only.
std::shared_ptr<const v1::GlobalTopology> TopologySummary(
    const std::shared_ptr<const v1::GlobalTopology>& topology) {
  if (topology == nullptr) return nullptr;
  auto summary = std::make_shared<v1::GlobalTopology>();
  summary->set_fingerprint(topology->fingerprint());
  summary->set_generation(topology->generation());
  return summary;
}

}  // namespace

CoordinatorOptions CoordinatorOptions::FromConfig(const ClusterConfig& config) {
  CoordinatorOptions options;
  options.job_id = config.job_id;
  options.num_processes = static_cast<int32_t>(config.num_processes);
  options.address = AddressText(config.coordinator_address ? config.coordinator_address
                                                            : config.bind_address);
  options.init_timeout = config.init_timeout;
  options.heartbeat_interval = config.heartbeat_interval;
  options.heartbeat_timeout = config.heartbeat_timeout;
  options.shutdown_timeout = config.shutdown_timeout;
  options.recoverable = config.recoverable;
  options.fail_job_on_duplicate_id = config.fail_job_on_duplicate_id;
  options.max_value_bytes = config.max_value_bytes;
  options.max_store_bytes = config.max_store_bytes;
  options.max_pending_calls = config.max_pending_calls;
  return options;
}

// Holds the lock; on exit releases it, then runs the completions and
// listeners queued meanwhile, so none of them runs under the lock.
class ABSL_SCOPED_LOCKABLE CoordinatorState::Section {
 public:
  explicit Section(CoordinatorState* state) ABSL_EXCLUSIVE_LOCK_FUNCTION(state->mu_)
      : state_(state) {
    state_->mu_.Lock();
  }
  ~Section() ABSL_UNLOCK_FUNCTION() {
    std::vector<std::function<void()>> outbox;
    outbox.swap(state_->outbox_);
    const bool events = std::exchange(state_->events_appended_, false);
    const bool ended = std::exchange(state_->end_pending_, false);
    state_->mu_.Unlock();
    for (auto& run : outbox) run();
    if (events && state_->event_listener_) state_->event_listener_();
    if (ended && state_->end_listener_) state_->end_listener_();
  }

 private:
  CoordinatorState* state_;
};

CoordinatorState::CoordinatorState(CoordinatorOptions options, const Clock* clock)
    : options_(std::move(options)),
      clock_(clock),
      incarnation_(options_.incarnation != 0 ? options_.incarnation : RandomIncarnation()),
      kv_(options_.max_value_bytes, options_.max_store_bytes) {
  absl::MutexLock lock(&mu_);
  address_ = options_.address;
  tasks_.resize(static_cast<size_t>(std::max(0, options_.num_processes)));
  created_ = clock_->Now();
  next_scan_ = created_ + ScanPeriod();
  next_straggler_log_ = created_ + options_.straggler_log_period;
  AddTimerLocked(created_ + options_.init_timeout, [this] { OnRegistrationDeadlineLocked(); });
}

CoordinatorState::~CoordinatorState() { Stop(absl::CancelledError("the coordinator was destroyed")); }

absl::Duration CoordinatorState::ScanPeriod() const {
  return std::clamp(options_.heartbeat_timeout / 10, absl::Milliseconds(5), absl::Seconds(1));
}

// ---------------------------------------------------------------------------
// Plumbing.

void CoordinatorState::CompleteLocked(Completion done, absl::Status status) {
  outbox_.push_back([done = std::move(done), status = std::move(status)] { done(status); });
}

void CoordinatorState::CompleteLocked(TopologyCompletion done, absl::Status status) {
  std::shared_ptr<const v1::GlobalTopology> topology = status.ok() ? topology_ : nullptr;
  outbox_.push_back([done = std::move(done), status = std::move(status),
                     topology = std::move(topology)] { done(status, topology); });
}

template <typename Done>
absl::Status CoordinatorState::ParkLocked(Done& done) {
  if (parked_.load() >= options_.max_pending_calls) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the coordinator already holds ", parked_.load(), " blocking calls (limit ",
        options_.max_pending_calls, ")"));
  }
  parked_.fetch_add(1);
  done = [this, inner = std::move(done)](auto&&... args) {
    parked_.fetch_sub(1);
    inner(std::forward<decltype(args)>(args)...);
  };
  return absl::OkStatus();
}

uint64_t CoordinatorState::AddTimerLocked(absl::Time deadline, std::function<void()> fire) {
  const uint64_t id = next_id_++;
  timers_.emplace(id, Timer{deadline, std::move(fire)});
  timer_queue_.emplace(deadline, id);
  return id;
}

void CoordinatorState::CancelTimerLocked(uint64_t id) {
  auto it = timers_.find(id);
  if (it == timers_.end()) return;
  timer_queue_.erase({it->second.deadline, id});
  timers_.erase(it);
}

void CoordinatorState::AppendEventLocked(v1::Event event) {
  event.set_version(++version_);
  events_.push_back(std::move(event));
  if (events_.size() > kMaxRetainedEvents) events_.pop_front();
  events_appended_ = true;
}

void CoordinatorState::AppendTopologyEventLocked() {
  v1::Event event;
  event.set_topology_generation(generation_);
  // Clients learn the job's start from this event instead of a WaitForJob.
  event.set_topology_fingerprint(topology_->fingerprint());
  AppendEventLocked(std::move(event));
}

void CoordinatorState::SetTaskStateLocked(int32_t process_id, v1::TaskState state) {
  Task& task = tasks_[process_id];
  if (IsLive(task.state)) --live_tasks_;
  if (task.state == v1::TASK_STATE_PENDING) --pending_tasks_;
  task.state = state;
  if (IsLive(state)) ++live_tasks_;
  if (state == v1::TASK_STATE_PENDING) ++pending_tasks_;
  if (IsLive(state)) task.ever_connected = true;
  MaybeEndLocked();
}

bool CoordinatorState::EndedLocked() const {
  if (stopped_.has_value() || shutdown_expired_) return true;
  return (job_state_ == v1::JOB_STATE_STOPPED || job_state_ == v1::JOB_STATE_FAILED) &&
         live_tasks_ == 0;
}

void CoordinatorState::MaybeEndLocked() {
  if (end_announced_ || !EndedLocked()) return;
  end_announced_ = true;
  end_pending_ = true;
}

std::string CoordinatorState::DescribeLocked(int32_t process_id) {
  const Task& task = tasks_[process_id];
  return absl::StrCat("process ", process_id, " (host ", task.host.hostname(), ", pid ",
                      task.host.pid(), ")");
}

v1::TaskInfo CoordinatorState::TaskInfoLocked(int32_t process_id) {
  const Task& task = tasks_[process_id];
  v1::TaskInfo info;
  info.set_process_id(process_id);
  info.set_incarnation(task.incarnation);
  info.set_state(task.state);
  if (task.error.code() != 0) *info.mutable_error() = task.error;
  info.set_ms_since_heartbeat(task.last_heartbeat == absl::InfinitePast()
                                  ? -1
                                  : absl::ToInt64Milliseconds(clock_->Now() - task.last_heartbeat));
  *info.mutable_host() = task.host;
  std::vector<std::string> waiting;
  for (const auto& [id, counter] : task.waiting_at) waiting.push_back(absl::StrCat(id, "#", counter));
  std::sort(waiting.begin(), waiting.end());
  for (auto& w : waiting) info.add_waiting_at(std::move(w));
  info.set_ever_connected(task.ever_connected);
  return info;
}

absl::Status CoordinatorState::CheckJobIdLocked(const v1::Header& header) {
  if (header.job_id() == options_.job_id) return absl::OkStatus();
  return WithReason(absl::FailedPreconditionError(absl::StrCat(
                        "coordinator at ", address_, " serves job '", options_.job_id,
                        "', but process ", header.process_id(), " belongs to job '",
                        header.job_id(), "'")),
                    v1::CoordinatorErrorDetail::REASON_WRONG_JOB);
}

absl::Status CoordinatorState::CheckJobId(const v1::Header& header) {
  Section section(this);
  return CheckJobIdLocked(header);
}

absl::StatusOr<CoordinatorState::Task*> CoordinatorState::CallerLocked(const v1::Header& header,
                                                                       bool allow_failed_job) {
  if (stopped_.has_value()) return *stopped_;
  if (absl::Status s = CheckJobIdLocked(header); !s.ok()) return s;
  const int32_t p = header.process_id();
  if (p < 0 || p >= options_.num_processes) {
    return absl::InvalidArgumentError(absl::StrCat("process id ", p, " is out of range: job '",
                                                   options_.job_id, "' has ",
                                                   options_.num_processes, " processes"));
  }
  if (header.coordinator_incarnation() != 0 && header.coordinator_incarnation() != incarnation_) {
    return WithReason(
        absl::AbortedError(absl::StrCat(
            "process ", p, " registered with coordinator incarnation ",
            Inc(header.coordinator_incarnation()), ", but the coordinator at ", address_,
            " is incarnation ", Inc(incarnation_), " (it restarted; the job cannot continue)")),
        v1::CoordinatorErrorDetail::REASON_COORDINATOR_LOST);
  }
  Task& task = tasks_[p];
  if (task.state == v1::TASK_STATE_NEVER_CONNECTED) {
    return absl::FailedPreconditionError(absl::StrCat(
        "process ", p, " has not registered with the coordinator at ", address_));
  }
  if (header.incarnation() != task.incarnation) {
    return WithReason(
        absl::AbortedError(absl::StrCat("process ", p, " incarnation ", Inc(header.incarnation()),
                                        " was superseded by a newer incarnation ",
                                        Inc(task.incarnation), " (host ", task.host.hostname(),
                                        ", pid ", task.host.pid(), ")")),
        v1::CoordinatorErrorDetail::REASON_SUPERSEDED, p);
  }
  if (IsLive(task.state)) task.last_heartbeat = clock_->Now();
  if (job_state_ == v1::JOB_STATE_FAILED && !allow_failed_job) {
    task.told_failure = true;
    return job_status_;
  }
  if (task.state == v1::TASK_STATE_FAILED) {
    if (job_state_ == v1::JOB_STATE_FAILED) return job_status_;
    return WithReason(absl::AbortedError(absl::StrCat("process ", p, " was declared failed (",
                                                      task.error.message(),
                                                      "); register a new incarnation to rejoin")),
                      v1::CoordinatorErrorDetail::REASON_UNSPECIFIED, p);
  }
  if (task.state == v1::TASK_STATE_DISCONNECTED) {
    return absl::FailedPreconditionError(absl::StrCat("process ", p, " has already shut down"));
  }
  return &task;
}

// ---------------------------------------------------------------------------
// Registration and the job's life.

absl::Status CoordinatorState::Register(const v1::RegisterRequest& request,
                                        v1::RegisterResponse* response) {
  Section section(this);
  absl::Status status = RegisterLocked(request, response);
  if (!status.ok()) {
    Log(LogLevel::kWarning, absl::StrCat("coordinator: rejected registration of process ",
                                         request.header().process_id(), ": ", status.message()));
  }
  return status;
}

absl::Status CoordinatorState::RegisterLocked(const v1::RegisterRequest& request,
                                              v1::RegisterResponse* response) {
  if (stopped_.has_value()) return *stopped_;
  const v1::Header& header = request.header();
  if (absl::Status s = CheckJobIdLocked(header); !s.ok()) return s;
  const int32_t p = header.process_id();
  const int32_t n = options_.num_processes;
  if (header.protocol_version() != v1::PROTOCOL_VERSION_CURRENT) {
    return absl::InvalidArgumentError(absl::StrCat(
        "process ", p, " speaks coordinator protocol version ", header.protocol_version(),
        "; the coordinator at ", address_, " speaks ",
        static_cast<int>(v1::PROTOCOL_VERSION_CURRENT)));
  }
  if (request.num_processes() != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "process ", p, " expects ", request.num_processes(), " processes, but the coordinator at ",
        address_, " serves job '", options_.job_id, "' with ", n));
  }
  if (p < 0 || p >= n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "process id ", p, " is out of range: job '", options_.job_id, "' has ", n,
        " processes (ids 0..", n - 1, ")"));
  }
  if (header.incarnation() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("process ", p, " sent incarnation 0; expected a random non-zero value"));
  }
  if (job_state_ == v1::JOB_STATE_FAILED) return job_status_;
  if (job_state_ == v1::JOB_STATE_SHUTTING_DOWN || job_state_ == v1::JOB_STATE_STOPPED) {
    return absl::FailedPreconditionError(absl::StrCat(
        "job '", options_.job_id, "' is shutting down; process ", p, " cannot register"));
  }
  Task& task = tasks_[p];
  const absl::Time now = clock_->Now();
  auto fill = [&] {
    response->set_coordinator_incarnation(incarnation_);
    response->set_heartbeat_interval_ms(absl::ToInt64Milliseconds(options_.heartbeat_interval));
    response->set_heartbeat_timeout_ms(absl::ToInt64Milliseconds(options_.heartbeat_timeout));
    response->set_job_state_version(version_);
    response->set_max_value_bytes(options_.max_value_bytes);
    if ((job_state_ == v1::JOB_STATE_RUNNING || job_state_ == v1::JOB_STATE_SHUTTING_DOWN) &&
        topology_ != nullptr) {
      *response->mutable_job_topology() = *TopologySummary(topology_);
    }
  };
  if (task.state != v1::TASK_STATE_NEVER_CONNECTED && task.incarnation == header.incarnation()) {
    if (!IsLive(task.state)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "process ", p, " incarnation ", Inc(task.incarnation), " is ", StateName(task.state),
          "; a restarted process must register with a new incarnation"));
    }
    task.last_heartbeat = now;  // a retry after a lost response
    fill();
    return absl::OkStatus();
  }
  const bool holder_live =
      IsLive(task.state) && now - task.last_heartbeat <= options_.heartbeat_timeout;
  // A live-looking holder on the newcomer's host may be a restart whose old
  // process has just died (heartbeats lag): only proof that it exited makes it
  // one; a second live process with the id is a duplicate.
  const bool same_host = task.host.hostname() == request.host().hostname() &&
                         task.host.boot_id() == request.host().boot_id();
  const bool holder_exited =
      same_host && (options_.holder_exited ? options_.holder_exited(task.host)
                                           : HolderExitedOnThisHost(task.host));
  if (holder_live && !holder_exited) {
    // One answer whether the job is still forming or already running: the
    // newcomer is a second live process with a held id either way.
    const int64_t ago = absl::ToInt64Seconds(now - task.last_heartbeat);
    const std::string running =
        job_state_ == v1::JOB_STATE_RUNNING
            ? absl::StrCat(" (job '", options_.job_id, "' running since ",
                           absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", running_since_wall_,
                                            absl::UTCTimeZone()),
                           ")")
            : std::string();
    absl::Status duplicate = WithReason(
        absl::AlreadyExistsError(absl::StrCat(
            "process id ", p, " is held by ", task.host.hostname(), " pid ", task.host.pid(),
            " (last heartbeat ", ago, " s ago); ", request.host().hostname(), " pid ",
            request.host().pid(), " asked for it too", running)),
        v1::CoordinatorErrorDetail::REASON_DUPLICATE_PROCESS, p);
    if (options_.fail_job_on_duplicate_id) {
      FailJobLocked(absl::AbortedError(absl::StrCat("job '", options_.job_id,
                                                    "' failed: duplicate process id: ",
                                                    duplicate.message())),
                    p, false);
    }
    return duplicate;
  }
  const bool recoverable = options_.recoverable || request.recoverable();
  if (task.state != v1::TASK_STATE_NEVER_CONNECTED && job_state_ == v1::JOB_STATE_RUNNING) {
    const std::string restarted = absl::StrCat(
        "process ", p, " restarted (old inc ", Inc(task.incarnation), ", new inc ",
        Inc(header.incarnation()), ", host ", request.host().hostname(), ", pid ",
        request.host().pid(), ")");
    if (!task.recoverable && !recoverable) {
      TaskLostLocked(p, absl::StatusCode::kAborted, restarted);
      FailJobLocked(absl::AbortedError(absl::StrCat("job '", options_.job_id, "' failed: ",
                                                    restarted)),
                    p, false);
      return job_status_;
    }
    if (static_cast<size_t>(request.devices_size()) != task.devices.size()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "process ", p, " rejoined with ", request.devices_size(), " devices, but had ",
          task.devices.size(), " before its restart; the topology must not change"));
    }
    if (IsLive(task.state)) TaskLostLocked(p, absl::StatusCode::kAborted, restarted);
    AcceptRegistrationLocked(request);
    ++generation_;
    if (absl::Status s = PublishTopologyLocked(); !s.ok()) return s;
    AppendTopologyEventLocked();
    Log(LogLevel::kInfo, absl::StrCat("coordinator: ", restarted, " and rejoined; generation ",
                                      generation_));
    fill();
    return absl::OkStatus();
  }
  // REGISTERING (or a first registration): a newer incarnation replaces the older.
  if (task.state != v1::TASK_STATE_NEVER_CONNECTED) {
    const absl::Status superseded = WithReason(
        absl::AbortedError(absl::StrCat(
            "process ", p, " incarnation ", Inc(task.incarnation),
            " was superseded by a newer incarnation ", Inc(header.incarnation()), " (host ",
            request.host().hostname(), ", pid ", request.host().pid(), ")")),
        v1::CoordinatorErrorDetail::REASON_SUPERSEDED, p);
    for (auto it = job_waiters_.begin(); it != job_waiters_.end();) {
      if (it->second.process_id == p) {
        CancelTimerLocked(it->second.timer);
        CompleteLocked(std::move(it->second.done), superseded);
        job_waiters_.erase(it++);
      } else {
        ++it;
      }
    }
    LeaveCollectivesLocked(p, absl::StrCat("process ", p, " was superseded"));
  }
  AcceptRegistrationLocked(request);
  fill();
  MaybeStartJobLocked();
  return absl::OkStatus();
}

void CoordinatorState::AcceptRegistrationLocked(const v1::RegisterRequest& request) {
  const int32_t p = request.header().process_id();
  Task& task = tasks_[p];
  task.incarnation = request.header().incarnation();
  task.host = request.host();
  task.devices.assign(request.devices().begin(), request.devices().end());
  task.partition_index = request.has_partition_index()
                             ? std::optional<int32_t>(request.partition_index())
                             : std::nullopt;
  task.recoverable = options_.recoverable || request.recoverable();
  task.last_heartbeat = clock_->Now();
  task.error.Clear();
  task.waiting_at.clear();
  task.shutdown_called = false;
  task.open_streams = 0;  // the new incarnation's streams are yet to open
  CancelTimerLocked(task.stream_grace_timer);
  task.stream_grace_timer = 0;
  const bool was_alive = AliveLocked(p);
  SetTaskStateLocked(p, job_state_ == v1::JOB_STATE_RUNNING ? v1::TASK_STATE_RUNNING
                                                            : v1::TASK_STATE_PENDING);
  if (!was_alive) {  // it counts again for agreements it has not joined
    for (auto& [candidates, agree] : agrees_) {
      if (std::binary_search(candidates.begin(), candidates.end(), p) &&
          !agree.arrived.contains(p)) {
        ++agree.alive_not_arrived;
      }
    }
  }
  if (job_state_ == v1::JOB_STATE_RUNNING) {
    v1::Event event;
    *event.mutable_task_changed() = TaskInfoLocked(p);
    AppendEventLocked(std::move(event));
  }
}

absl::Status CoordinatorState::PublishTopologyLocked() {
  std::vector<ProcessTopology> processes(tasks_.size());
  for (size_t p = 0; p < tasks_.size(); ++p) {
    processes[p].host = tasks_[p].host;
    processes[p].devices = tasks_[p].devices;
    processes[p].partition_index = tasks_[p].partition_index;
  }
  absl::StatusOr<v1::GlobalTopology> topology =
      BuildTopology(processes, generation_, address_);
  if (!topology.ok()) return topology.status();
  topology_ = std::make_shared<const v1::GlobalTopology>(*std::move(topology));
  return absl::OkStatus();
}

void CoordinatorState::MaybeStartJobLocked() {
  if (job_state_ != v1::JOB_STATE_REGISTERING || pending_tasks_ != options_.num_processes) return;
  generation_ = 1;
  if (absl::Status s = PublishTopologyLocked(); !s.ok()) {
    FailJobLocked(WithReason(absl::FailedPreconditionError(absl::StrCat(
                                 "job '", options_.job_id, "' failed: ", s.message())),
                             v1::CoordinatorErrorDetail::REASON_JOB_FAILED, -1),
                  -1, false);
    return;
  }
  job_state_ = v1::JOB_STATE_RUNNING;
  running_since_wall_ = absl::Now();
  for (int32_t p = 0; p < options_.num_processes; ++p) {
    SetTaskStateLocked(p, v1::TASK_STATE_RUNNING);
  }
  for (auto& [id, waiter] : job_waiters_) {
    CancelTimerLocked(waiter.timer);
    CompleteLocked(std::move(waiter.done), absl::OkStatus());
  }
  job_waiters_.clear();
  AppendTopologyEventLocked();
  Log(LogLevel::kInfo,
      absl::StrCat("coordinator: all ", options_.num_processes, " processes registered; job '",
                   options_.job_id, "' is running (", topology_->devices_size(), " devices)"));
}

absl::Status CoordinatorState::MissingStatusLocked(absl::StatusCode code, absl::string_view what) {
  std::vector<int32_t> never, lost;
  v1::CoordinatorErrorDetail detail;
  detail.set_reason(v1::CoordinatorErrorDetail::REASON_NEVER_CONNECTED);
  detail.set_source_process_id(-1);
  for (int32_t p = 0; p < options_.num_processes; ++p) {
    if (tasks_[p].state == v1::TASK_STATE_PENDING) continue;
    (tasks_[p].ever_connected ? lost : never).push_back(p);
    *detail.add_missing() = TaskInfoLocked(p);
  }
  std::vector<std::string> parts;
  if (!never.empty()) {
    parts.push_back(absl::StrCat(never.size(), " of ", options_.num_processes,
                                 " processes never connected; were they launched? (process ids ",
                                 JoinIds(never), ")"));
  }
  if (!lost.empty()) {
    parts.push_back(absl::StrCat("processes ", JoinIds(lost),
                                 " connected then were lost (heartbeat timeout or restart)"));
  }
  return WithDetail(absl::Status(code, absl::StrCat(what, ": ", absl::StrJoin(parts, "; "))),
                    detail);
}

void CoordinatorState::OnRegistrationDeadlineLocked() {
  if (job_state_ != v1::JOB_STATE_REGISTERING) return;
  FailJobLocked(MissingStatusLocked(absl::StatusCode::kDeadlineExceeded,
                                    absl::StrCat("job '", options_.job_id,
                                                 "' did not start within the init timeout of ",
                                                 absl::FormatDuration(options_.init_timeout))),
                -1, false);
}

void CoordinatorState::FailJobLocked(absl::Status status, int32_t source, bool reported_by_user,
                                     int32_t reported_code) {
  if (job_state_ == v1::JOB_STATE_FAILED || job_state_ == v1::JOB_STATE_STOPPED) return;
  job_state_ = v1::JOB_STATE_FAILED;
  if (!DetailOf(status).has_value()) {
    status = WithReason(std::move(status), v1::CoordinatorErrorDetail::REASON_JOB_FAILED, source);
  }
  const int32_t code = reported_code != 0 ? reported_code : static_cast<int32_t>(status.code());
  v1::CoordinatorErrorDetail detail = DetailOf(status).value_or(v1::CoordinatorErrorDetail());
  detail.set_job_error_code(code);
  status = WithDetail(std::move(status), detail);
  job_status_ = status;
  job_error_.set_code(code);
  job_error_.set_message(std::string(status.message()));
  job_error_.set_source_process_id(source);
  job_error_.set_reported_by_user(reported_by_user);
  Log(LogLevel::kError, absl::StrCat("coordinator: ", status.message()));
  v1::Event event;
  *event.mutable_job_error() = job_error_;
  AppendEventLocked(std::move(event));
  job_error_version_ = version_;
  FailAllParkedLocked(job_status_);
  MaybeEndLocked();
}

void CoordinatorState::FailAllParkedLocked(const absl::Status& status) {
  for (auto& [id, waiter] : job_waiters_) {
    CancelTimerLocked(waiter.timer);
    CompleteLocked(std::move(waiter.done), status);
  }
  job_waiters_.clear();
  for (auto& [id, waiter] : kv_waiters_) {
    CancelTimerLocked(waiter.timer);
    CompleteLocked(std::move(waiter.done), status);
  }
  kv_waiters_.clear();
  kv_waiting_keys_.clear();
  for (auto key : std::vector<std::pair<std::string, int64_t>>(ongoing_barriers_.begin(),
                                                               ongoing_barriers_.end())) {
    FinishBarrierLocked(barriers_.at(key), status);
  }
  for (auto& [candidates, agree] : agrees_) {
    CancelTimerLocked(agree.timer);
    for (auto& [p, waiter] : agree.arrived) CompleteLocked(std::move(waiter.done), status);
  }
  agrees_.clear();
  CancelTimerLocked(shutdown_timer_);
  auto waiters = std::move(shutdown_waiters_);
  shutdown_waiters_.clear();
  for (auto& [p, done] : waiters) {
    SetTaskStateLocked(p, v1::TASK_STATE_DISCONNECTED);
    CompleteLocked(std::move(done), status);
  }
}

void CoordinatorState::TaskLostLocked(int32_t process_id, absl::StatusCode code,
                                      const std::string& message) {
  Task& task = tasks_[process_id];
  if (!IsLive(task.state)) return;
  ++processes_lost_total_;
  task.error.set_code(static_cast<int32_t>(code));
  task.error.set_message(message);
  task.error.set_source_process_id(process_id);
  SetTaskStateLocked(process_id, v1::TASK_STATE_FAILED);
  v1::Event event;
  *event.mutable_task_changed() = TaskInfoLocked(process_id);
  AppendEventLocked(std::move(event));
  if (job_state_ == v1::JOB_STATE_FAILED || job_state_ == v1::JOB_STATE_STOPPED) {
    Log(LogLevel::kWarning, absl::StrCat("coordinator: ", message));
    return;
  }
  if (!task.recoverable) {  // FailJobLocked logs it
    FailJobLocked(absl::AbortedError(absl::StrCat("job '", options_.job_id, "' failed: ", message)),
                  process_id, false);
    return;
  }
  Log(LogLevel::kWarning, absl::StrCat("coordinator: ", message, " (recoverable job continues)"));
  LeaveCollectivesLocked(process_id, message);
}

void CoordinatorState::LeaveCollectivesLocked(int32_t process_id, const std::string& why) {
  for (auto key : std::vector<std::pair<std::string, int64_t>>(ongoing_barriers_.begin(),
                                                               ongoing_barriers_.end())) {
    BarrierInstance& b = barriers_.at(key);
    if (!IsParticipant(b, process_id)) continue;
    FinishBarrierLocked(
        b, BarrierFailureLocked(b, absl::StatusCode::kAborted,
                                absl::StrCat("barrier '", b.id, "#", b.counter,
                                             "' failed because a participant was lost: ", why)));
  }
  std::vector<std::vector<int32_t>> touched;
  for (auto& [candidates, agree] : agrees_) {
    if (!std::binary_search(candidates.begin(), candidates.end(), process_id)) continue;
    if (auto it = agree.arrived.find(process_id); it != agree.arrived.end()) {
      CompleteLocked(std::move(it->second.done),
                     absl::AbortedError(absl::StrCat("process ", process_id, " was lost: ", why)));
      agree.arrived.erase(it);
    } else {
      --agree.alive_not_arrived;
    }
    touched.push_back(candidates);
  }
  for (const auto& key : touched) MaybeFinishAgreeLocked(key);
}

void CoordinatorState::ScanHeartbeatsLocked(absl::Time now) {
  for (int32_t p = 0; p < options_.num_processes; ++p) {
    const Task& task = tasks_[p];
    if (!IsLive(task.state) || task.shutdown_called) continue;
    const absl::Duration silent = now - task.last_heartbeat;
    if (silent <= options_.heartbeat_timeout) continue;
    ++heartbeats_missed_total_;
    TaskLostLocked(p, absl::StatusCode::kUnavailable,
                   absl::StrCat(DescribeLocked(p), " sent no heartbeat for ",
                                absl::FormatDuration(absl::Trunc(silent, absl::Milliseconds(1))),
                                " (timeout ", absl::FormatDuration(options_.heartbeat_timeout),
                                "): it crashed, hung or lost its network"));
  }
}

bool CoordinatorState::WatcherOpened(const v1::Header& header) {
  Section section(this);
  const int32_t p = header.process_id();
  if (stopped_.has_value() || p < 0 || p >= options_.num_processes) return false;
  Task& task = tasks_[p];
  if (task.state == v1::TASK_STATE_NEVER_CONNECTED || task.incarnation != header.incarnation()) {
    return false;
  }
  ++task.open_streams;
  return true;
}

void CoordinatorState::WatcherClosed(const v1::Header& header) {
  Section section(this);
  const int32_t p = header.process_id();
  if (stopped_.has_value() || p < 0 || p >= options_.num_processes) return;
  Task& task = tasks_[p];
  if (task.incarnation != header.incarnation() || task.open_streams == 0) return;
  if (--task.open_streams > 0 || !IsLive(task.state) || task.shutdown_called) return;
  if (job_state_ == v1::JOB_STATE_FAILED) {
    // Nothing is left to tell it: it has gone, and the job may end without
    // waiting for its heartbeats to stop. No event: after a failure every
    // process leaves at once, and an event each, written to every stream
    // still open, would cost the coordinator n^2 writes nobody needs.
    SetTaskStateLocked(p, v1::TASK_STATE_DISCONNECTED);
    return;
  }
  if (job_state_ != v1::JOB_STATE_RUNNING && job_state_ != v1::JOB_STATE_SHUTTING_DOWN) return;
  CancelTimerLocked(task.stream_grace_timer);
  const absl::Time closed = clock_->Now();
  const uint64_t incarnation = task.incarnation;
  task.stream_grace_timer = AddTimerLocked(closed + kReconnectGrace, [this, p, incarnation, closed] {
    OnStreamGraceLocked(p, incarnation, closed);
  });
}

void CoordinatorState::OnStreamGraceLocked(int32_t process_id, uint64_t incarnation,
                                           absl::Time closed) {
  Task& task = tasks_[process_id];
  if (task.incarnation != incarnation) return;
  task.stream_grace_timer = 0;
  // A call since the close, or a stream open now, is the process re-dialled
  // after a blip; a hung process is the heartbeat scan's.
  if (!IsLive(task.state) || task.shutdown_called || task.open_streams > 0 ||
      task.last_heartbeat > closed) {
    return;
  }
  TaskLostLocked(process_id, absl::StatusCode::kUnavailable,
                 absl::StrCat(DescribeLocked(process_id),
                              " closed its connection to the coordinator and did not reconnect "
                              "within ",
                              absl::FormatDuration(kReconnectGrace),
                              ": it exited, was killed, or destroyed its client without shutdown"));
}

int64_t CoordinatorState::failure_event_version() {
  absl::MutexLock lock(&mu_);
  return job_state_ == v1::JOB_STATE_FAILED ? job_error_version_ : 0;
}

bool CoordinatorState::EveryoneHoldsFailure(const std::vector<int32_t>& heard) {
  absl::MutexLock lock(&mu_);
  if (job_state_ != v1::JOB_STATE_FAILED) return false;
  for (int32_t p = 0; p < options_.num_processes; ++p) {
    const Task& task = tasks_[p];
    if (!IsLive(task.state) || task.told_failure) continue;
    if (std::find(heard.begin(), heard.end(), p) == heard.end()) return false;
  }
  return true;
}

void CoordinatorState::LogStragglersLocked(absl::Time now) {
  std::vector<int32_t> never, lost;
  for (int32_t p = 0; p < options_.num_processes; ++p) {
    if (tasks_[p].state == v1::TASK_STATE_PENDING) continue;
    (tasks_[p].ever_connected ? lost : never).push_back(p);
  }
  Log(LogLevel::kWarning,
      absl::StrCat("coordinator: after ", absl::FormatDuration(absl::Trunc(now - created_, absl::Seconds(1))),
                   " still waiting for ", never.size() + lost.size(), " of ",
                   options_.num_processes, " processes to register: never connected [",
                   JoinIds(never), "], lost [", JoinIds(lost), "]"));
}

void CoordinatorState::Tick() {
  Section section(this);
  if (stopped_.has_value()) return;
  const absl::Time now = clock_->Now();
  while (!timer_queue_.empty() && timer_queue_.begin()->first <= now) {
    const uint64_t id = timer_queue_.begin()->second;
    timer_queue_.erase(timer_queue_.begin());
    auto it = timers_.find(id);
    if (it == timers_.end()) continue;
    std::function<void()> fire = std::move(it->second.fire);
    timers_.erase(it);
    fire();
  }
  if (now >= next_scan_) {
    ScanHeartbeatsLocked(now);
    next_scan_ = now + ScanPeriod();
  }
  if (job_state_ == v1::JOB_STATE_REGISTERING && now >= next_straggler_log_) {
    LogStragglersLocked(now);
    next_straggler_log_ = now + options_.straggler_log_period;
  }
}

void CoordinatorState::Stop(absl::Status reason) {
  Section section(this);
  if (stopped_.has_value()) return;
  stopped_ = reason;
  FailAllParkedLocked(reason);
  timers_.clear();
  timer_queue_.clear();
  MaybeEndLocked();
}

void CoordinatorState::SetAddress(std::string address) {
  absl::MutexLock lock(&mu_);
  address_ = std::move(address);
}

bool CoordinatorState::Ended() {
  absl::MutexLock lock(&mu_);
  return end_announced_;
}

absl::Status CoordinatorState::EndStatus() {
  absl::MutexLock lock(&mu_);
  if (job_state_ == v1::JOB_STATE_FAILED) return job_status_;
  if (stopped_.has_value()) return *stopped_;
  return absl::OkStatus();
}

v1::JobState CoordinatorState::job_state() {
  absl::MutexLock lock(&mu_);
  return job_state_;
}

CoordinatorCounts CoordinatorState::Counts() {
  absl::MutexLock lock(&mu_);
  CoordinatorCounts c;
  c.processes_expected = options_.num_processes;
  for (const Task& task : tasks_) {
    if (task.state != v1::TASK_STATE_NEVER_CONNECTED) ++c.processes_registered;
    if (IsLive(task.state)) ++c.processes_connected;
    if (task.state == v1::TASK_STATE_FAILED) ++c.processes_failed;
  }
  c.processes_lost_total = processes_lost_total_;
  c.heartbeats_missed_total = heartbeats_missed_total_;
  c.barriers_waiting = static_cast<int64_t>(ongoing_barriers_.size());
  for (const auto& key : ongoing_barriers_) {
    auto it = barriers_.find(key);
    if (it != barriers_.end()) c.barrier_processes_waiting += static_cast<int64_t>(it->second.waiting.size());
  }
  c.barriers_passed_total = barriers_passed_total_;
  c.barriers_failed_total = barriers_failed_total_;
  c.barrier_seconds = barrier_seconds_;
  c.kv_keys = static_cast<int64_t>(kv_.size());
  c.kv_bytes = kv_.total_bytes();
  std::string state = v1::JobState_Name(job_state_);
  constexpr absl::string_view kEnumPrefix = "JOB_STATE_";
  c.job_state = absl::StartsWith(state, kEnumPrefix) ? state.substr(kEnumPrefix.size()) : state;
  return c;
}

int64_t CoordinatorState::event_version() {
  absl::MutexLock lock(&mu_);
  return version_;
}

// ---------------------------------------------------------------------------
// Unary job calls.

ParkedCall CoordinatorState::WaitForJob(const v1::WaitForJobRequest& request,
                                        v1::GlobalTopology* response, Completion done) {
  return WaitForJob(request, [response, done = std::move(done)](
                          absl::Status status, std::shared_ptr<const v1::GlobalTopology> topology) {
    if (topology != nullptr) *response = *topology;
    done(std::move(status));
  });
}

ParkedCall CoordinatorState::WaitForJob(const v1::WaitForJobRequest& request,
                                        TopologyCompletion done) {
  if (request.omit_devices()) {
    done = [inner = std::move(done)](absl::Status status,
                                     std::shared_ptr<const v1::GlobalTopology> topology) {
      inner(std::move(status), TopologySummary(topology));
    };
  }
  Section section(this);
  auto finish = [&](absl::Status status) {
    CompleteLocked(std::move(done), std::move(status));
    return ParkedCall();
  };
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return finish(caller.status());
  if (job_state_ == v1::JOB_STATE_RUNNING || job_state_ == v1::JOB_STATE_SHUTTING_DOWN) {
    return finish(absl::OkStatus());
  }
  if (absl::Status s = ParkLocked(done); !s.ok()) return finish(std::move(s));
  const uint64_t id = next_id_++;
  const int64_t timeout_ms = request.timeout_ms();
  const absl::Time deadline = timeout_ms > 0 ? clock_->Now() + absl::Milliseconds(timeout_ms)
                                             : created_ + options_.init_timeout;
  const uint64_t timer = AddTimerLocked(deadline, [this, id, timeout_ms] {
    auto it = job_waiters_.find(id);
    if (it == job_waiters_.end()) return;
    TopologyCompletion waiter_done = std::move(it->second.done);
    job_waiters_.erase(it);
    CompleteLocked(std::move(waiter_done),
                   MissingStatusLocked(absl::StatusCode::kDeadlineExceeded,
                                       absl::StrCat("waiting for job '", options_.job_id,
                                                    "' to start timed out after ",
                                                    timeout_ms > 0 ? Ms(timeout_ms)
                                                                   : absl::FormatDuration(
                                                                         options_.init_timeout))));
  });
  job_waiters_.emplace(id, JobWaiter{request.header().process_id(), std::move(done), timer});
  return ParkedCall(ParkedCall::Kind::kWaitForJob, id, request.header().process_id());
}

absl::Status CoordinatorState::Heartbeat(const v1::HeartbeatRequest& request,
                                         v1::HeartbeatResponse* response) {
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  response->set_job_state_version(version_);
  response->set_coordinator_incarnation(incarnation_);
  return absl::OkStatus();
}

absl::Status CoordinatorState::CheckWatcher(const v1::Header& header) {
  Section section(this);
  if (stopped_.has_value()) return *stopped_;
  if (absl::Status s = CheckJobIdLocked(header); !s.ok()) return s;
  const int32_t p = header.process_id();
  if (p < 0 || p >= options_.num_processes || tasks_[p].state == v1::TASK_STATE_NEVER_CONNECTED) {
    return absl::FailedPreconditionError(
        absl::StrCat("process ", p, " has not registered with the coordinator at ",
                     address_));
  }
  if (tasks_[p].incarnation != header.incarnation()) {
    return WithReason(absl::AbortedError(absl::StrCat("process ", p, " incarnation ",
                                                      Inc(header.incarnation()),
                                                      " was superseded by a newer incarnation")),
                      v1::CoordinatorErrorDetail::REASON_SUPERSEDED, p);
  }
  return absl::OkStatus();
}

absl::Status CoordinatorState::GetJobState(const v1::GetJobStateRequest& request,
                                           v1::GetJobStateResponse* response) {
  if (request.header().process_id() == kOperatorProcessId) {
    // An operator asking who is stuck where: no process of the job, so only
    // the job id is checked (the server checked the credential).
    Section section(this);
    if (stopped_.has_value()) return *stopped_;
    if (absl::Status s = CheckJobIdLocked(request.header()); !s.ok()) return s;
  } else if (absl::Status s = CheckWatcher(request.header()); !s.ok()) {
    return s;
  }
  Section section(this);
  response->set_job_state(job_state_);
  for (int32_t p = 0; p < options_.num_processes; ++p) *response->add_tasks() = TaskInfoLocked(p);
  std::vector<std::vector<std::string>> keys(static_cast<size_t>(options_.num_processes));
  for (const auto& [id, waiter] : kv_waiters_) {
    if (waiter.process_id >= 0 && waiter.process_id < options_.num_processes) {
      keys[static_cast<size_t>(waiter.process_id)].push_back(waiter.key);
    }
  }
  for (int32_t p = 0; p < options_.num_processes; ++p) {
    std::sort(keys[p].begin(), keys[p].end());
    for (std::string& key : keys[p]) response->mutable_tasks(p)->add_waiting_for_keys(std::move(key));
  }
  response->set_version(version_);
  if (job_state_ == v1::JOB_STATE_FAILED) *response->mutable_job_error() = job_error_;
  return absl::OkStatus();
}

std::vector<v1::Event> CoordinatorState::EventsAfter(int64_t version, size_t max_events) {
  absl::MutexLock lock(&mu_);
  auto it = std::upper_bound(events_.begin(), events_.end(), version,
                             [](int64_t v, const v1::Event& e) { return v < e.version(); });
  std::vector<v1::Event> out;
  for (; it != events_.end() && out.size() < max_events; ++it) out.push_back(*it);
  return out;
}

absl::Status CoordinatorState::ReportError(const v1::ReportErrorRequest& request) {
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  const int32_t p = request.header().process_id();
  const std::string message =
      absl::StrCat("process ", p, " reported an error: ", request.error().message());
  if (!(*caller)->recoverable) {
    FailJobLocked(absl::AbortedError(absl::StrCat("job '", options_.job_id, "' failed: ", message)),
                  p, true, request.error().code());
    return absl::OkStatus();
  }
  v1::Event event;
  v1::ErrorInfo* error = event.mutable_job_error();
  *error = request.error();
  error->set_message(message);
  error->set_source_process_id(p);
  error->set_reported_by_user(true);
  AppendEventLocked(std::move(event));
  Log(LogLevel::kWarning, absl::StrCat("coordinator: ", message, " (recoverable job continues)"));
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Key-value store.

namespace {

// `done`, filling `response` with `entry` first. Completions run after the
// lock is released, so copying a large value (once per waiter) does not hold
// up heartbeats; the entry's bytes stay alive even if overwritten meanwhile.
Completion FillAfterUnlock(v1::KvEntry* response, std::string key, const KvStore::Entry& entry,
                           Completion done) {
  return [response, key = std::move(key), bytes = entry.bytes, version = entry.version,
          done = std::move(done)](absl::Status status) {
    response->set_key(key);
    response->set_value(*bytes);
    response->set_version(version);
    done(std::move(status));
  };
}

}  // namespace

absl::Status CoordinatorState::KvSet(v1::KvSetRequest request) {
  auto value = std::make_shared<const std::string>(std::move(*request.mutable_value()));
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::string> key = KvStore::NormalizeUserKey(request.key());
  if (!key.ok()) return key.status();
  if (absl::Status s = kv_.Set(*key, std::move(value), request.allow_overwrite()); !s.ok()) return s;
  WakeKvWaitersLocked(*key);
  return absl::OkStatus();
}

ParkedCall CoordinatorState::KvGet(const v1::KvGetRequest& request, v1::KvEntry* response,
                                   Completion done) {
  Section section(this);
  auto finish = [&](absl::Status status) {
    CompleteLocked(std::move(done), std::move(status));
    return ParkedCall();
  };
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return finish(caller.status());
  absl::StatusOr<std::string> key = KvStore::NormalizeUserKey(request.key());
  if (!key.ok()) return finish(key.status());
  if (const KvStore::Entry* entry = kv_.Find(*key)) {
    done = FillAfterUnlock(response, *key, *entry, std::move(done));
    return finish(absl::OkStatus());
  }
  if (!request.wait()) {
    return finish(KvStore::NotFound(*key));
  }
  const int64_t timeout_ms = request.timeout_ms();
  const std::string timed_out =
      absl::StrCat("KvGet of key '", *key, "' timed out after ", Ms(std::max<int64_t>(0, timeout_ms)),
                   " (nobody set it)");
  if (timeout_ms <= 0) return finish(absl::DeadlineExceededError(timed_out));
  if (absl::Status s = ParkLocked(done); !s.ok()) return finish(std::move(s));
  const uint64_t id = next_id_++;
  const uint64_t timer =
      AddTimerLocked(clock_->Now() + absl::Milliseconds(timeout_ms), [this, id, timed_out] {
        auto it = kv_waiters_.find(id);
        if (it == kv_waiters_.end()) return;
        Completion waiter_done = std::move(it->second.done);
        it->second.timer = 0;
        RemoveKvWaiterLocked(id);
        CompleteLocked(std::move(waiter_done), absl::DeadlineExceededError(timed_out));
      });
  kv_waiting_keys_[*key].push_back(id);
  kv_waiters_.emplace(id, KvWaiter{*key, request.header().process_id(), response, std::move(done), timer});
  return ParkedCall(ParkedCall::Kind::kKvGet, id, request.header().process_id());
}

void CoordinatorState::RemoveKvWaiterLocked(uint64_t id) {
  auto it = kv_waiters_.find(id);
  if (it == kv_waiters_.end()) return;
  CancelTimerLocked(it->second.timer);
  auto keys = kv_waiting_keys_.find(it->second.key);
  if (keys != kv_waiting_keys_.end()) {
    auto& ids = keys->second;
    ids.erase(std::remove(ids.begin(), ids.end(), id), ids.end());
    if (ids.empty()) kv_waiting_keys_.erase(keys);
  }
  kv_waiters_.erase(it);
}

void CoordinatorState::WakeKvWaitersLocked(const std::string& key) {
  auto keys = kv_waiting_keys_.find(key);
  if (keys == kv_waiting_keys_.end()) return;
  const KvStore::Entry* entry = kv_.Find(key);
  if (entry == nullptr) return;
  std::vector<uint64_t> ids = std::move(keys->second);
  kv_waiting_keys_.erase(keys);
  for (uint64_t id : ids) {
    auto it = kv_waiters_.find(id);
    if (it == kv_waiters_.end()) continue;
    CancelTimerLocked(it->second.timer);
    CompleteLocked(FillAfterUnlock(it->second.response, key, *entry, std::move(it->second.done)),
                   absl::OkStatus());
    kv_waiters_.erase(it);
  }
}

absl::Status CoordinatorState::KvList(const v1::KvListRequest& request,
                                      v1::KvListResponse* response) {
  absl::StatusOr<KvStore::Page> page = KvListPage(request);
  if (!page.ok()) return page.status();
  for (const auto& [key, entry] : page->entries) {
    v1::KvEntry* out = response->add_entries();
    out->set_key(key);
    if (!request.keys_only()) out->set_value(entry.value());
    out->set_version(entry.version);
  }
  response->set_truncated(page->truncated);
  return absl::OkStatus();
}

absl::StatusOr<KvStore::Page> CoordinatorState::KvListPage(const v1::KvListRequest& request) {
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  // References only: the values are read (and sent) after the lock is gone.
  return kv_.ListUserPage(request.prefix(), request.start_after(), request.max_response_bytes());
}

absl::Status CoordinatorState::KvDelete(const v1::KvDeleteRequest& request) {
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::string> key = KvStore::NormalizeUserKey(request.key());
  if (!key.ok()) return key.status();
  kv_.Delete(*key, request.recursive());
  return absl::OkStatus();
}

absl::Status CoordinatorState::KvIncrement(const v1::KvIncrementRequest& request,
                                           v1::KvIncrementResponse* response) {
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::string> key = KvStore::NormalizeUserKey(request.key());
  if (!key.ok()) return key.status();
  absl::StatusOr<int64_t> value = kv_.Increment(*key, request.delta());
  if (!value.ok()) return value.status();
  response->set_value(*value);
  WakeKvWaitersLocked(*key);
  return absl::OkStatus();
}

absl::Status CoordinatorState::KvCompareAndSwap(const v1::KvCasRequest& request,
                                                v1::KvCasResponse* response) {
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<std::string> key = KvStore::NormalizeUserKey(request.key());
  if (!key.ok()) return key.status();
  std::optional<std::string> expected;
  if (request.has_expected()) expected = request.expected();
  absl::StatusOr<KvStore::CasResult> result = kv_.CompareAndSwap(*key, expected, request.desired());
  if (!result.ok()) return result.status();
  response->set_swapped(result->swapped);
  if (result->current.has_value()) response->set_current(*result->current);
  if (result->swapped) WakeKvWaitersLocked(*key);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Barriers.

bool CoordinatorState::IsParticipant(const BarrierInstance& b, int32_t process_id) const {
  return b.all || std::binary_search(b.participants.begin(), b.participants.end(), process_id);
}

int64_t CoordinatorState::ParticipantCount(const BarrierInstance& b) const {
  return b.all ? options_.num_processes : static_cast<int64_t>(b.participants.size());
}

bool CoordinatorState::AliveLocked(int32_t process_id) const {
  const v1::TaskState state = tasks_[process_id].state;
  return state != v1::TASK_STATE_FAILED && state != v1::TASK_STATE_DISCONNECTED;
}

absl::Status CoordinatorState::BarrierFailureLocked(const BarrierInstance& b,
                                                    absl::StatusCode code,
                                                    const std::string& message) {
  v1::CoordinatorErrorDetail detail;
  detail.set_reason(v1::CoordinatorErrorDetail::REASON_BARRIER_FAILED);
  detail.set_source_process_id(-1);
  v1::BarrierFailure* failure = detail.mutable_barrier();
  failure->set_barrier_id(b.id);
  failure->set_counter(b.counter);
  failure->set_first_arrival(b.first_arrival);
  std::vector<int32_t> arrived(b.arrived.begin(), b.arrived.end());
  std::sort(arrived.begin(), arrived.end());
  for (int32_t p : arrived) failure->add_arrived(p);
  std::vector<std::string> missing_text;
  for (int32_t p = 0; p < options_.num_processes; ++p) {
    if (!IsParticipant(b, p) || b.arrived.contains(p)) continue;
    v1::TaskInfo info = TaskInfoLocked(p);
    if (missing_text.size() < kMaxNamedProcesses) {
      std::string text = absl::StrCat("process ", p, " (", StateName(info.state()));
      if (info.waiting_at_size() > 0) {
        absl::StrAppend(&text, ", waiting at barrier '", absl::StrJoin(info.waiting_at(), "', '"),
                        "'");
      }
      missing_text.push_back(text + ")");
    } else if (missing_text.size() == kMaxNamedProcesses) {
      missing_text.push_back("...");
    }
    *failure->add_missing() = std::move(info);
  }
  return WithDetail(
      absl::Status(code, absl::StrCat(message, ": ", arrived.size(), " of ", ParticipantCount(b),
                                      " processes arrived (first: process ", b.first_arrival,
                                      "); missing: ",
                                      missing_text.empty() ? std::string("none")
                                                           : absl::StrJoin(missing_text, ", "))),
      detail);
}

void CoordinatorState::FinishBarrierLocked(BarrierInstance& b, absl::Status status) {
  if (b.result.has_value()) return;
  b.result = status;
  if (status.ok()) {
    ++barriers_passed_total_;
    barrier_seconds_.Observe(absl::ToDoubleSeconds(clock_->Now() - b.started));
  } else {
    ++barriers_failed_total_;
  }
  CancelTimerLocked(b.timer);
  for (auto& [p, waiter] : b.waiting) {
    auto it = tasks_[p].waiting_at.find(b.id);
    if (it != tasks_[p].waiting_at.end() && it->second == b.counter) tasks_[p].waiting_at.erase(it);
    CompleteLocked(std::move(waiter.done), status);
  }
  b.waiting.clear();
  ongoing_barriers_.erase({b.id, b.counter});
  if (!status.ok() && status.code() != absl::StatusCode::kCancelled) {
    Log(LogLevel::kWarning, absl::StrCat("coordinator: ", status.message()));
  }
}

void CoordinatorState::PruneBarriersLocked(const std::string& id) {
  auto first = barriers_.lower_bound({id, std::numeric_limits<int64_t>::min()});
  size_t finished = 0;
  for (auto it = first; it != barriers_.end() && it->first.first == id; ++it) {
    if (it->second.result.has_value()) ++finished;
  }
  for (auto it = first; finished > kMaxRetainedBarrierInstances && it != barriers_.end() &&
                        it->first.first == id;) {
    if (it->second.result.has_value()) {
      it = barriers_.erase(it);
      --finished;
    } else {
      ++it;
    }
  }
}

void CoordinatorState::ArriveLocked(BarrierInstance& b, int32_t process_id, BarrierWaiter waiter) {
  b.arrived.insert(process_id);
  b.waiting.emplace(process_id, std::move(waiter));
  tasks_[process_id].waiting_at[b.id] = b.counter;
  if (static_cast<int64_t>(b.arrived.size()) == ParticipantCount(b)) {
    FinishBarrierLocked(b, absl::OkStatus());
  }
}

ParkedCall CoordinatorState::Barrier(const v1::BarrierRequest& request,
                                     v1::BarrierResponse* response, Completion done) {
  Section section(this);
  auto finish = [&](absl::Status status) {
    CompleteLocked(std::move(done), std::move(status));
    return ParkedCall();
  };
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return finish(caller.status());
  const int32_t p = request.header().process_id();
  const std::string& id = request.barrier_id();
  if (absl::Status s = CheckWireId("barrier_id", id); !s.ok()) return finish(std::move(s));
  const std::string name = absl::StrCat(id, "#", request.counter());
  if (id.empty()) return finish(absl::InvalidArgumentError("barrier_id is empty; expected a name"));
  if (request.timeout_ms() <= 0) {
    return finish(absl::InvalidArgumentError(absl::StrCat(
        "barrier '", name, "': timeout_ms must be > 0, got ", request.timeout_ms())));
  }
  absl::StatusOr<std::vector<int32_t>> participants =
      ProcessSet(request.participants(), options_.num_processes, "barrier participants");
  if (!participants.ok()) return finish(participants.status());
  const bool all = participants->empty() ||
                   static_cast<int32_t>(participants->size()) == options_.num_processes;
  if (all) participants->clear();
  if (auto it = (*caller)->waiting_at.find(id); it != (*caller)->waiting_at.end()) {
    return finish(absl::FailedPreconditionError(absl::StrCat(
        "process ", p, " is already waiting at barrier '", id, "#", it->second,
        "'; one process cannot wait at one barrier id twice")));
  }
  response->set_counter(request.counter());
  const auto key = std::make_pair(id, request.counter());
  auto it = barriers_.find(key);
  if (it == barriers_.end()) {
    BarrierInstance b;
    b.id = id;
    b.counter = request.counter();
    b.all = all;
    b.participants = *participants;
    b.first_arrival = p;
    b.started = clock_->Now();
    b.timeout = absl::Milliseconds(request.timeout_ms());
    b.timer = AddTimerLocked(clock_->Now() + b.timeout, [this, key] {
      auto it = barriers_.find(key);
      if (it == barriers_.end() || it->second.result.has_value()) return;
      BarrierInstance& timed_out = it->second;
      FinishBarrierLocked(
          timed_out,
          BarrierFailureLocked(timed_out, absl::StatusCode::kDeadlineExceeded,
                               absl::StrCat("barrier '", timed_out.id, "#", timed_out.counter,
                                            "' timed out after ",
                                            absl::FormatDuration(timed_out.timeout))));
    });
    it = barriers_.emplace(key, std::move(b)).first;
    ongoing_barriers_.insert(key);
    PruneBarriersLocked(id);
    if (ongoing_barriers_.size() == kBarrierWarnThreshold + 1) {
      Log(LogLevel::kWarning, absl::StrCat("coordinator: more than ", kBarrierWarnThreshold,
                                           " barriers are in progress at once"));
    }
    BarrierInstance& created = it->second;
    for (int32_t q = 0; q < options_.num_processes; ++q) {  // once per instance
      if (IsParticipant(created, q) && !AliveLocked(q)) {
        FinishBarrierLocked(created,
                            BarrierFailureLocked(created, absl::StatusCode::kAborted,
                                                 absl::StrCat("barrier '", name,
                                                              "' cannot pass: participant ", q,
                                                              " is ", StateName(tasks_[q].state))));
        break;
      }
    }
  }
  BarrierInstance& b = it->second;
  // A caller that passes another participant set, or is not a participant,
  // gets the same INVALID_ARGUMENT whether the instance is live (which that
  // call then fails for everyone, as TSL does) or finished (whose result
  // stays, and is replayed to its participants only). An instance cancelled
  // before anyone arrived fixed no set: every caller gets its result.
  std::optional<absl::Status> rejected;
  if (b.first_arrival >= 0 && (b.all != all || b.participants != *participants)) {
    auto show = [](bool all, const std::vector<int32_t>& ids) {
      return all ? std::string("all processes") : absl::StrCat("[", JoinIds(ids), "]");
    };
    rejected = BarrierFailureLocked(
        b, absl::StatusCode::kInvalidArgument,
        absl::StrCat("barrier '", name, "': process ", p, " passed participants ",
                     show(all, *participants), " but process ", b.first_arrival, " passed ",
                     show(b.all, b.participants)));
  } else if (b.first_arrival >= 0 && !IsParticipant(b, p)) {
    rejected = BarrierFailureLocked(
        b, absl::StatusCode::kInvalidArgument,
        absl::StrCat("process ", p, " called barrier '", name,
                     "' but is not one of its participants [", JoinIds(b.participants), "]"));
  }
  if (rejected.has_value()) {
    FinishBarrierLocked(b, *rejected);  // no-op when finished
    return finish(*std::move(rejected));
  }
  if (b.result.has_value()) return finish(*b.result);  // replay
  if (absl::Status s = ParkLocked(done); !s.ok()) return finish(std::move(s));
  const uint64_t call = next_id_++;
  ParkedCall parked(ParkedCall::Kind::kBarrier, call, p);
  parked.barrier_ = key;
  ArriveLocked(b, p, BarrierWaiter{response, std::move(done), call});
  return parked;
}

absl::Status CoordinatorState::CancelBarrier(const v1::CancelBarrierRequest& request) {
  Section section(this);
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return caller.status();
  if (absl::Status s = CheckWireId("barrier_id", request.barrier_id()); !s.ok()) return s;
  const auto key = std::make_pair(request.barrier_id(), request.counter());
  const std::string name = absl::StrCat(request.barrier_id(), "#", request.counter());
  const absl::Status cancelled = absl::CancelledError(absl::StrCat(
      "barrier '", name, "' was cancelled by process ", request.header().process_id()));
  auto it = barriers_.find(key);
  if (it == barriers_.end()) {  // cancelled before anyone arrived: later arrivals see it
    BarrierInstance b;
    b.id = key.first;
    b.counter = key.second;
    b.first_arrival = -1;
    b.result = cancelled;
    barriers_.emplace(key, std::move(b));
    PruneBarriersLocked(key.first);
    return absl::OkStatus();
  }
  if (it->second.result.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "barrier '", name, "' already ", it->second.result->ok() ? "passed" : "failed"));
  }
  FinishBarrierLocked(it->second, cancelled);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Agreement on the live processes.

void CoordinatorState::MaybeFinishAgreeLocked(const std::vector<int32_t>& key) {
  auto it = agrees_.find(key);
  if (it == agrees_.end() || it->second.alive_not_arrived > 0) return;
  AgreeInstance& agree = it->second;
  std::vector<int32_t> live;
  for (const auto& [p, waiter] : agree.arrived) {
    if (AliveLocked(p)) live.push_back(p);
  }
  std::sort(live.begin(), live.end());
  CancelTimerLocked(agree.timer);
  for (auto& [p, waiter] : agree.arrived) {
    for (int32_t q : live) {
      waiter.response->add_live(q);
      waiter.response->add_incarnations(tasks_[q].incarnation);
    }
    waiter.response->set_generation(generation_);
    CompleteLocked(std::move(waiter.done), absl::OkStatus());
  }
  agrees_.erase(it);
}

ParkedCall CoordinatorState::AgreeLive(const v1::AgreeLiveRequest& request,
                                       v1::AgreeLiveResponse* response, Completion done) {
  Section section(this);
  auto finish = [&](absl::Status status) {
    CompleteLocked(std::move(done), std::move(status));
    return ParkedCall();
  };
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), false);
  if (!caller.ok()) return finish(caller.status());
  const int32_t p = request.header().process_id();
  absl::StatusOr<std::vector<int32_t>> candidates =
      ProcessSet(request.candidates(), options_.num_processes, "AgreeLiveProcesses candidates");
  if (!candidates.ok()) return finish(candidates.status());
  if (!std::binary_search(candidates->begin(), candidates->end(), p)) {
    return finish(absl::InvalidArgumentError(
        absl::StrCat("process ", p, " asked to agree on live processes among [",
                     JoinIds(*candidates), "] but is not one of them")));
  }
  if (request.timeout_ms() <= 0) {
    return finish(absl::InvalidArgumentError(absl::StrCat(
        "AgreeLiveProcesses timeout_ms must be > 0, got ", request.timeout_ms())));
  }
  auto it = agrees_.find(*candidates);
  if (it == agrees_.end()) {
    AgreeInstance agree;
    agree.candidates = *candidates;
    for (int32_t q : *candidates) agree.alive_not_arrived += AliveLocked(q) ? 1 : 0;
    const std::vector<int32_t> key = *candidates;
    const int64_t timeout_ms = request.timeout_ms();
    agree.timer = AddTimerLocked(clock_->Now() + absl::Milliseconds(timeout_ms), [this, key,
                                                                                timeout_ms] {
      auto it = agrees_.find(key);
      if (it == agrees_.end()) return;
      v1::CoordinatorErrorDetail detail;
      detail.set_reason(v1::CoordinatorErrorDetail::REASON_UNSPECIFIED);
      detail.set_source_process_id(-1);
      std::vector<int32_t> missing;
      for (int32_t q : key) {
        if (it->second.arrived.contains(q) || !AliveLocked(q)) continue;
        missing.push_back(q);
        *detail.add_missing() = TaskInfoLocked(q);
      }
      const absl::Status status = WithDetail(
          absl::DeadlineExceededError(absl::StrCat(
              "AgreeLiveProcesses over [", JoinIds(key), "] timed out after ", Ms(timeout_ms),
              ": live processes ", JoinIds(missing), " did not call it")),
          detail);
      for (auto& [q, waiter] : it->second.arrived) CompleteLocked(std::move(waiter.done), status);
      agrees_.erase(it);
    });
    it = agrees_.emplace(*candidates, std::move(agree)).first;
  }
  if (it->second.arrived.contains(p)) {
    return finish(absl::FailedPreconditionError(
        absl::StrCat("process ", p, " is already waiting in AgreeLiveProcesses over [",
                     JoinIds(*candidates), "]")));
  }
  if (absl::Status s = ParkLocked(done); !s.ok()) return finish(std::move(s));
  const uint64_t call = next_id_++;
  ParkedCall parked(ParkedCall::Kind::kAgreeLive, call, p);
  parked.candidates_ = *candidates;
  it->second.arrived.emplace(p, AgreeWaiter{response, std::move(done), call});
  --it->second.alive_not_arrived;
  MaybeFinishAgreeLocked(*candidates);
  return parked;
}

// ---------------------------------------------------------------------------
// Shutdown.

void CoordinatorState::FinishShutdownLocked(absl::Status status) {
  if (!status.ok()) {
    shutdown_expired_ = true;
    FailJobLocked(std::move(status), -1, false);  // completes the waiters
    MaybeEndLocked();
    return;
  }
  CancelTimerLocked(shutdown_timer_);
  auto waiters = std::move(shutdown_waiters_);
  shutdown_waiters_.clear();
  job_state_ = v1::JOB_STATE_STOPPED;
  for (auto& [p, done] : waiters) {
    SetTaskStateLocked(p, v1::TASK_STATE_DISCONNECTED);
    CompleteLocked(std::move(done), absl::OkStatus());
  }
  Log(LogLevel::kInfo, absl::StrCat("coordinator: every process of job '", options_.job_id,
                                    "' shut down"));
  MaybeEndLocked();
}

ParkedCall CoordinatorState::Shutdown(const v1::ShutdownRequest& request, Completion done) {
  Section section(this);
  auto finish = [&](absl::Status status) {
    CompleteLocked(std::move(done), std::move(status));
    return ParkedCall();
  };
  absl::StatusOr<Task*> caller = CallerLocked(request.header(), true);
  if (!caller.ok()) return finish(caller.status());
  Task& task = **caller;
  const int32_t p = request.header().process_id();
  if (task.shutdown_called) {
    return finish(absl::FailedPreconditionError(
        absl::StrCat("process ", p, " is already shutting down")));
  }
  auto leave = [&] {
    SetTaskStateLocked(p, v1::TASK_STATE_DISCONNECTED);
    v1::Event event;
    *event.mutable_task_changed() = TaskInfoLocked(p);
    AppendEventLocked(std::move(event));
    return finish(absl::OkStatus());
  };
  if (job_state_ == v1::JOB_STATE_FAILED) return leave();
  if (job_state_ == v1::JOB_STATE_REGISTERING) {
    leave();
    if (!task.recoverable) {
      FailJobLocked(absl::AbortedError(absl::StrCat("job '", options_.job_id, "' failed: process ",
                                                    p, " shut down before the job started")),
                    p, false);
    }
    return {};
  }
  if (task.recoverable) {
    LeaveCollectivesLocked(p, absl::StrCat("process ", p, " shut down"));
    return leave();
  }
  if (job_state_ == v1::JOB_STATE_RUNNING) {
    job_state_ = v1::JOB_STATE_SHUTTING_DOWN;
    shutdown_needed_ = 0;
    for (const Task& t : tasks_) shutdown_needed_ += t.recoverable ? 0 : 1;
    const absl::Duration timeout = request.timeout_ms() > 0
                                       ? absl::Milliseconds(request.timeout_ms())
                                       : options_.shutdown_timeout;
    shutdown_timer_ = AddTimerLocked(clock_->Now() + timeout, [this, timeout] {
      v1::CoordinatorErrorDetail detail;
      detail.set_reason(v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
      detail.set_source_process_id(-1);
      std::vector<int32_t> missing;
      for (int32_t q = 0; q < options_.num_processes; ++q) {
        if (tasks_[q].recoverable || tasks_[q].shutdown_called) continue;
        missing.push_back(q);
        *detail.add_missing() = TaskInfoLocked(q);
      }
      FinishShutdownLocked(WithDetail(
          absl::DeadlineExceededError(absl::StrCat(
              "job '", options_.job_id, "': the shutdown barrier timed out after ",
              absl::FormatDuration(timeout), ": processes ", JoinIds(missing),
              " never called shutdown")),
          detail));
    });
    v1::Event event;
    event.set_shutdown_started(true);
    AppendEventLocked(std::move(event));
    Log(LogLevel::kInfo, absl::StrCat("coordinator: process ", p, " started the shutdown of job '",
                                      options_.job_id, "' (barrier timeout ",
                                      absl::FormatDuration(timeout), ")"));
  }
  if (absl::Status s = ParkLocked(done); !s.ok()) return finish(std::move(s));
  task.shutdown_called = true;
  shutdown_waiters_.emplace_back(p, std::move(done));
  if (static_cast<int64_t>(shutdown_waiters_.size()) == shutdown_needed_) {
    FinishShutdownLocked(absl::OkStatus());
  }
  // One parked Shutdown per process at most (shutdown_called), so the
  // process id names it.
  return ParkedCall(ParkedCall::Kind::kShutdown, next_id_++, p);
}

// ---------------------------------------------------------------------------
// Withdrawn calls.

void CoordinatorState::Withdraw(const ParkedCall& call) {
  if (!call) return;
  Section section(this);
  const absl::Status why = absl::CancelledError(absl::StrCat(
      "process ", call.process_id_,
      " withdrew its call (the client cancelled it or its deadline passed)"));
  switch (call.kind_) {
    case ParkedCall::Kind::kNone:
      return;
    case ParkedCall::Kind::kWaitForJob: {
      auto it = job_waiters_.find(call.id_);
      if (it == job_waiters_.end()) return;
      CancelTimerLocked(it->second.timer);
      CompleteLocked(std::move(it->second.done), why);
      job_waiters_.erase(it);
      return;
    }
    case ParkedCall::Kind::kKvGet: {
      auto it = kv_waiters_.find(call.id_);
      if (it == kv_waiters_.end()) return;
      Completion done = std::move(it->second.done);
      RemoveKvWaiterLocked(call.id_);
      CompleteLocked(std::move(done), why);
      return;
    }
    case ParkedCall::Kind::kBarrier:
      return WithdrawBarrierLocked(call, why);
    case ParkedCall::Kind::kAgreeLive:
      return WithdrawAgreeLocked(call, why);
    case ParkedCall::Kind::kShutdown:
      for (auto& [p, done] : shutdown_waiters_) {
        if (p != call.process_id_ || !done) continue;
        CompleteLocked(std::move(done), why);
        done = [](absl::Status) {};  // the arrival stays; its call has ended
      }
      return;
  }
}

void CoordinatorState::WithdrawBarrierLocked(const ParkedCall& call, const absl::Status& why) {
  auto it = barriers_.find(call.barrier_);
  if (it == barriers_.end() || it->second.result.has_value()) return;
  BarrierInstance& b = it->second;
  const int32_t p = call.process_id_;
  auto waiter = b.waiting.find(p);
  if (waiter == b.waiting.end() || waiter->second.call != call.id_) return;
  CompleteLocked(std::move(waiter->second.done), why);
  b.waiting.erase(waiter);
  b.arrived.erase(p);  // first_arrival stays: it fixed the set and the deadline
  auto at = tasks_[p].waiting_at.find(b.id);
  if (at != tasks_[p].waiting_at.end() && at->second == b.counter) tasks_[p].waiting_at.erase(at);
}

void CoordinatorState::WithdrawAgreeLocked(const ParkedCall& call, const absl::Status& why) {
  auto it = agrees_.find(call.candidates_);
  if (it == agrees_.end()) return;
  AgreeInstance& agree = it->second;
  auto waiter = agree.arrived.find(call.process_id_);
  if (waiter == agree.arrived.end() || waiter->second.call != call.id_) return;
  CompleteLocked(std::move(waiter->second.done), why);
  agree.arrived.erase(waiter);
  if (AliveLocked(call.process_id_)) ++agree.alive_not_arrived;
}

namespace {

absl::StatusOr<std::string> NormalizeInternalKey(absl::string_view key) {
  absl::StatusOr<std::string> normalized = KvStore::NormalizeKey(key);
  if (normalized.ok() && !KvStore::IsReserved(*normalized)) {
    return absl::InvalidArgumentError(
        absl::StrCat("internal key '", key, "' is not under '", kReservedKvPrefix, "'"));
  }
  return normalized;
}

}  // namespace

absl::Status CoordinatorState::InternalKvSet(absl::string_view key, std::string value) {
  Section section(this);
  absl::StatusOr<std::string> normalized = NormalizeInternalKey(key);
  if (!normalized.ok()) return normalized.status();
  return kv_.Set(*normalized, std::move(value), /*overwrite=*/true);
}

absl::StatusOr<std::string> CoordinatorState::InternalKvGet(absl::string_view key) {
  Section section(this);
  absl::StatusOr<std::string> normalized = NormalizeInternalKey(key);
  if (!normalized.ok()) return normalized.status();
  const KvStore::Entry* entry = kv_.Find(*normalized);
  if (entry == nullptr) {
    return absl::NotFoundError(absl::StrCat("internal key '", *normalized, "' is not set"));
  }
  return entry->value();
}

}  // namespace tessera::cluster
