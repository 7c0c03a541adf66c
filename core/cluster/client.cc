#include "core/cluster/client.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/client_callback.h>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "core/cluster/auth.h"
#include "core/cluster/connect_retry.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/grpc_runtime.h"
#include "core/cluster/kv_store.h"
#include "core/cluster/local_host.h"
#include "core/cluster/tls_credentials.h"
#include "core/log.h"
#include "core/status_macros.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster {

// ---------------------------------------------------------------------------
// Process-wide threads shared by every client.
// ---------------------------------------------------------------------------
namespace {

// Runs closures at given times on one thread: the heartbeats of every client
// in the process. Closures must be short and must not block.
class Scheduler {
 public:
  static Scheduler& Get() {
    static Scheduler* scheduler = new Scheduler();  // never destroyed: threads outlive statics
    return *scheduler;
  }

  void At(absl::Time when, std::function<void()> task) {
    absl::MutexLock lock(&mu_);
    queue_.emplace(when, std::move(task));
    if (!started_) {
      started_ = true;
      std::thread([this] { Loop(); }).detach();
    }
    cv_.Signal();  // the new task may be due before the one being waited for
  }

 private:
  void Loop() {
    for (;;) {
      std::vector<std::function<void()>> due;
      {
        absl::MutexLock lock(&mu_);
        for (;;) {
          if (queue_.empty()) {
            cv_.Wait(&mu_);
            continue;
          }
          const absl::Time first = queue_.begin()->first;
          if (first <= absl::Now()) break;
          cv_.WaitWithDeadline(&mu_, first);
        }
        const absl::Time now = absl::Now();
        while (!queue_.empty() && queue_.begin()->first <= now) {
          due.push_back(std::move(queue_.begin()->second));
          queue_.erase(queue_.begin());
        }
      }
      for (auto& task : due) task();
    }
  }

  absl::Mutex mu_;
  absl::CondVar cv_;
  std::multimap<absl::Time, std::function<void()>> queue_;
  bool started_ = false;
};

// Runs closures in order on one thread: the event callbacks of every client,
// so user code never runs on (or blocks) gRPC's threads.
class Dispatcher {
 public:
  static Dispatcher& Get() {
    static Dispatcher* dispatcher = new Dispatcher();
    return *dispatcher;
  }

  void Post(std::function<void()> task) {
    absl::MutexLock lock(&mu_);
    queue_.push_back(std::move(task));
    if (!started_) {
      started_ = true;
      std::thread([this] { Loop(); }).detach();
    }
  }

 private:
  void Loop() {
    for (;;) {
      // Everything queued at once: one lock and one wake-up per batch, not
      // per task (10,000 clients' completions come in bursts).
      std::deque<std::function<void()>> batch;
      {
        absl::MutexLock lock(&mu_);
        mu_.Await(absl::Condition(
            +[](std::deque<std::function<void()>>* q) { return !q->empty(); }, &queue_));
        batch.swap(queue_);
      }
      for (std::function<void()>& task : batch) {
        task();
        task = nullptr;  // what it holds goes now, in order, not with the batch
      }
    }
  }

  absl::Mutex mu_;
  std::deque<std::function<void()>> queue_;
  bool started_ = false;
};

constexpr absl::Duration kBlockingMargin = absl::Seconds(2);
constexpr absl::Duration kWatchRetryDelay = absl::Milliseconds(100);
constexpr absl::Duration kDestroyWait = absl::Seconds(10);
constexpr absl::Duration kShutdownEventsWait = absl::Seconds(5);

std::chrono::system_clock::time_point ToDeadline(absl::Time t) {
  return absl::ToChronoTime(t);
}

int64_t ToMillis(absl::Duration d) { return absl::ToInt64Milliseconds(d); }

// `status` with `prefix` before its message; code and payloads kept.
absl::Status WithPrefix(const absl::Status& status, absl::string_view prefix) {
  absl::Status result(status.code(), absl::StrCat(prefix, status.message()));
  status.ForEachPayload([&result](absl::string_view url, const absl::Cord& payload) {
    result.SetPayload(url, payload);
  });
  return result;
}

}  // namespace

// ---------------------------------------------------------------------------
// The shared state.
// ---------------------------------------------------------------------------

class EventWatcher;
class EventHub;
struct HeartbeatCall;

struct Client::State : std::enable_shared_from_this<Client::State> {
  ClusterConfig config;
  std::string address;
  std::shared_ptr<grpc::Channel> channel;
  bool channel_shared = false;  // given by the caller: never replaced
  bool own_connection = false;
  bool devices_with_job = false;  // ClientOptions::devices_with_job
  std::unique_ptr<v1::Coordinator::Stub> stub;
  std::string credential;  // "" without a token
  v1::Header header;       // final before any asynchronous work starts
  bool local = false;      // single process without a coordinator
  std::unique_ptr<CoordinatorServer> server;
  std::function<void()> on_destroy;
  absl::Time init_deadline;  // Register + WaitForJob

  mutable absl::Mutex mu;
  v1::GlobalTopology topology;
  bool have_topology = false;  // WaitForJob (or local mode) filled `topology`
  // `topology` holds the devices and hosts too, not only its fingerprint and
  // generation (WaitForJob omits them; the first topology() fetches them).
  bool have_devices = false;
  absl::Mutex fetch_mu;  // one fetch of the devices at a time
  absl::Status sticky;  // job failed / coordinator lost
  bool lost = false;
  bool stopping = false;
  bool shut_down = false;
  // A Shutdown call is in flight (or was answered OK): the coordinator stops
  // once the barrier passes, so a broken event stream no longer means a lost
  // coordinator; the Shutdown reply decides (P12). `deferred_break` keeps
  // such a break for a Shutdown that fails and leaves the client in use.
  bool shutdown_in_flight = false;
  std::optional<absl::Status> deferred_break;

  // Heartbeats.
  absl::Duration heartbeat_interval;
  absl::Duration heartbeat_timeout;
  absl::Time last_heartbeat_ok;
  absl::Time last_tick;  // when HeartbeatTick last ran
  // When the newest call the coordinator answered (OK) was sent: the
  // coordinator counted its arrival as a heartbeat (any call does).
  absl::Time last_answered_sent = absl::InfinitePast();
  absl::Status last_heartbeat_error;
  std::shared_ptr<HeartbeatCall> heartbeat;  // in flight
  std::shared_ptr<EventWatcher> watcher;  // a stream of its own, or
  std::shared_ptr<EventHub> hub;          // one shared with the channel's other clients
  int64_t event_version = 0;
  int async_in_flight = 0;  // heartbeats, probes and the watcher

  // Blocking calls.
  absl::flat_hash_set<grpc::ClientContext*> live_calls;
  int64_t cancel_generation = 0;

  // Barriers: the next counter of each id and the ids in progress.
  absl::flat_hash_map<std::string, int64_t> barrier_next;
  absl::flat_hash_map<std::string, int64_t> barrier_ongoing;

  // Events.
  std::deque<ClientEvent> events;
  bool has_callback = false;
  absl::Mutex callback_mu;  // held while a callback runs
  EventCallback callback;   // guarded by callback_mu

  // Local mode (single process, no coordinator): the coordinator's own store,
  // so keys, limits and the reserved space behave exactly as in a job.
  std::optional<KvStore> local_kv;

  // ---- helpers (mu held unless stated) ----

  // The local store, made on first use with the job's limits.
  KvStore& LocalKvLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    if (!local_kv.has_value()) local_kv.emplace(config.max_value_bytes, config.max_store_bytes);
    return *local_kv;
  }

  // Error every call returns now, or OK.
  absl::Status UsableLocked() const ABSL_SHARED_LOCKS_REQUIRED(mu) {
    if (!sticky.ok()) return sticky;
    if (shut_down) {
      return absl::FailedPreconditionError(
          absl::StrCat("process ", header.process_id(), " has shut down its client"));
    }
    if (stopping) return absl::CancelledError("the client is being destroyed");
    return absl::OkStatus();
  }

  void CancelLiveCallsLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    // Safe under the lock: TryCancel never runs a blocking call's code on
    // this thread, and an asynchronous call's gRPC callback only posts to
    // the dispatcher (CallAsync).
    for (grpc::ClientContext* context : live_calls) context->TryCancel();
  }

  void AddMetadata(grpc::ClientContext* context) const {
    if (!credential.empty()) context->AddMetadata(kAuthMetadataKey, credential);
  }
};

namespace {

using State = Client::State;

void DeliverEvent(const std::shared_ptr<State>& s, ClientEvent event);
void CancelAsync(const std::shared_ptr<State>& s);
void SetLost(const std::shared_ptr<State>& s, const std::string& why);
absl::Duration HeartbeatRpcTimeout(const State& s);

// Makes `error` the sticky error and unblocks every call; the event is
// delivered by the caller. Returns false when one was set already.
bool SetStickyLocked(State& s, absl::Status error) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
  if (!s.sticky.ok()) return false;
  s.sticky = std::move(error);
  s.CancelLiveCallsLocked();
  return true;
}

// The one error a failed job gives every caller: ABORTED "the job failed
// (source: process S): <why>" with reason REASON_JOB_FAILED, whether the
// job_error event or a call's reply (whose code may be the failure's own,
// e.g. DEADLINE_EXCEEDED for a shutdown barrier that timed out) came first.
absl::Status JobFailedError(int32_t source, absl::string_view why,
                            v1::CoordinatorErrorDetail detail) {
  detail.set_reason(v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
  detail.set_source_process_id(source);
  const std::string from = source >= 0 ? absl::StrCat(" (source: process ", source, ")") : "";
  return WithDetail(absl::AbortedError(absl::StrCat("the job failed", from, ": ", why)), detail);
}

absl::Status JobFailedError(const v1::ErrorInfo& info) {
  return JobFailedError(info.source_process_id(), info.message(), {});
}

// A call's reply that says the job failed, as JobFailedError (the
// coordinator's detail, e.g. the missing processes, kept).
absl::Status JobFailedError(const absl::Status& reply) {
  v1::CoordinatorErrorDetail detail = DetailOf(reply).value_or(v1::CoordinatorErrorDetail());
  const int32_t source = detail.source_process_id();
  return JobFailedError(source, reply.message(), std::move(detail));
}

absl::Status LostError(const std::string& address, absl::string_view why) {
  v1::CoordinatorErrorDetail detail;
  detail.set_reason(v1::CoordinatorErrorDetail::REASON_COORDINATOR_LOST);
  detail.set_source_process_id(-1);
  return WithDetail(
      absl::UnavailableError(absl::StrCat("lost the coordinator at ", address, ": ", why)), detail);
}

std::string HeartbeatLossReason(absl::Duration since, absl::Duration timeout,
                                const absl::Status& last_error) {
  std::string reason = absl::StrCat("no heartbeat answered for ", absl::FormatDuration(since),
                                    " (heartbeat timeout ", absl::FormatDuration(timeout), ")");
  if (!last_error.ok()) absl::StrAppend(&reason, "; last heartbeat error: ", last_error.ToString());
  return reason;
}

bool IsJobFailure(const absl::Status& status) {
  auto detail = DetailOf(status);
  return detail.has_value() && detail->reason() == v1::CoordinatorErrorDetail::REASON_JOB_FAILED;
}

// UNAVAILABLE from the transport (the coordinator never adds a detail to it).
bool IsTransportFailure(const absl::Status& status) {
  return status.code() == absl::StatusCode::kUnavailable && !DetailOf(status).has_value();
}

// One heartbeat on the calling thread: can the coordinator still be reached?
absl::Status ProbeCoordinator(const State& s) {
  v1::HeartbeatRequest request;
  *request.mutable_header() = s.header;
  v1::HeartbeatResponse response;
  grpc::ClientContext context;
  context.set_deadline(ToDeadline(absl::Now() + HeartbeatRpcTimeout(s)));
  s.AddMetadata(&context);
  return FromGrpcStatus(s.stub->Heartbeat(&context, request, &response));
}

// The first half of a finished call's result: a job failure becomes sticky
// (and its event is delivered); any failure while the client is failed
// reports the sticky error. `*probe` says whether the failure came from the
// transport, so that a re-dial must decide (ResultAfterProbe).
absl::Status RecordCallResult(const std::shared_ptr<State>& s, absl::Status status, bool* probe) {
  *probe = false;
  if (status.ok()) return status;
  bool newly_failed = false;
  const absl::Status reply = status;
  {
    absl::MutexLock lock(&s->mu);
    if (!s->sticky.ok()) return s->sticky;
    if (IsJobFailure(status)) {
      status = JobFailedError(reply);
      newly_failed = SetStickyLocked(*s, status);
    }
  }
  if (newly_failed) {  // the event as the job_error event would have said it
    auto detail = DetailOf(reply);
    ClientEvent event;
    event.kind = ClientEvent::Kind::kJobError;
    event.process_id = detail ? detail->source_process_id() : -1;
    event.code = reply.code();
    event.message = std::string(reply.message());
    DeliverEvent(s, std::move(event));
  }
  // The connection broke under the call: the coordinator-lost rule's
  // re-dial decides between a blip and a lost coordinator.
  *probe = !newly_failed && IsTransportFailure(status);
  return status;
}

// The second half: a failed re-dial (`probe`) after a transport failure
// means the coordinator is lost.
absl::Status ResultAfterProbe(const std::shared_ptr<State>& s, absl::Status result,
                              const absl::Status& probe) {
  if (!probe.ok() && !IsJobFailure(probe)) {
    SetLost(s, absl::StrCat("a call failed (", result.ToString(), ") and a re-dial failed (",
                            probe.ToString(), ")"));
    absl::MutexLock lock(&s->mu);
    if (!s->sticky.ok()) return s->sticky;
  }
  return result;
}

// A finished blocking call's result (re-dials on this thread).
absl::Status AfterCall(const std::shared_ptr<State>& s, absl::Status status) {
  bool probe = false;
  absl::Status result = RecordCallResult(s, std::move(status), &probe);
  if (!probe) return result;
  return ResultAfterProbe(s, std::move(result), ProbeCoordinator(*s));
}

// A call sent at `sent` ended with `status`. One the coordinator answered is
// a heartbeat both ways: the coordinator took its arrival as one, and the
// answer shows the coordinator alive; so the next heartbeat tick within the
// interval sends none (10,000 clients in a registration storm would
// otherwise double their calls).
void CallEndedLocked(State& s, absl::Time sent, const grpc::Status& status)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
  if (!status.ok()) return;
  s.last_answered_sent = std::max(s.last_answered_sent, sent);
  s.last_heartbeat_ok = std::max(s.last_heartbeat_ok, absl::Now());
}

// One unary call with the header, the credential, `deadline`, and
// cancellation by CancelAll / a sticky error.
template <typename Request, typename Invoke>
absl::Status Call(const std::shared_ptr<State>& s, Request& request, absl::Time deadline,
                  Invoke invoke) {
  *request.mutable_header() = s->header;
  grpc::ClientContext context;
  context.set_deadline(ToDeadline(deadline));
  s->AddMetadata(&context);
  {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    s->live_calls.insert(&context);
  }
  const absl::Time sent = absl::Now();
  const grpc::Status status = invoke(&context);
  {
    absl::MutexLock lock(&s->mu);
    s->live_calls.erase(&context);
    CallEndedLocked(*s, sent, status);
  }
  return AfterCall(s, FromGrpcStatus(status));
}

absl::Time UnaryDeadline(const State& s) { return absl::Now() + s.config.rpc_timeout; }
absl::Time BlockingDeadline(absl::Duration timeout) {
  return absl::Now() + timeout + kBlockingMargin;
}

// ---------------------------------------------------------------------------
// Events.
// ---------------------------------------------------------------------------

void DeliverEvent(const std::shared_ptr<State>& s, ClientEvent event) {
  {
    absl::MutexLock lock(&s->mu);
    if (s->stopping) return;
    if (!s->has_callback) {
      s->events.push_back(std::move(event));
      return;
    }
  }
  std::weak_ptr<State> weak = s;
  Dispatcher::Get().Post([weak, event = std::move(event)]() mutable {
    std::shared_ptr<State> s = weak.lock();
    if (!s) return;
    absl::MutexLock callback_lock(&s->callback_mu);
    {
      absl::MutexLock lock(&s->mu);
      if (s->stopping) return;
      if (!s->callback) {  // removed since: keep it for NextEvent
        s->events.push_back(std::move(event));
        return;
      }
    }
    s->callback(event);
  });
}

ClientEvent FromProto(const v1::Event& proto) {
  ClientEvent event;
  event.version = proto.version();
  switch (proto.kind_case()) {
    case v1::Event::kTaskChanged:
      event.kind = ClientEvent::Kind::kTaskChanged;
      event.process_id = proto.task_changed().process_id();
      event.task_state = proto.task_changed().state();
      event.message = proto.task_changed().error().message();
      break;
    case v1::Event::kJobError:
      event.kind = ClientEvent::Kind::kJobError;
      event.process_id = proto.job_error().source_process_id();
      event.code = static_cast<absl::StatusCode>(proto.job_error().code());
      event.message = proto.job_error().message();
      break;
    case v1::Event::kShutdownStarted:
      event.kind = ClientEvent::Kind::kShutdownStarted;
      break;
    case v1::Event::kTopologyGeneration:
      event.kind = ClientEvent::Kind::kTopologyChanged;
      event.generation = proto.topology_generation();
      break;
    default:
      event.kind = ClientEvent::Kind::kTaskChanged;
      break;
  }
  return event;
}

void HandleEvent(const std::shared_ptr<State>& s, const v1::Event& proto) {
  {
    absl::MutexLock lock(&s->mu);
    if (proto.version() <= s->event_version && proto.version() != 0) return;  // replayed
    s->event_version = std::max(s->event_version, proto.version());
    if (proto.kind_case() == v1::Event::kJobError) SetStickyLocked(*s, JobFailedError(proto.job_error()));
    if (proto.kind_case() == v1::Event::kTopologyGeneration) {
      s->topology.set_generation(proto.topology_generation());
    }
  }
  DeliverEvent(s, FromProto(proto));
}

// Waits until the event stream has handed over every event up to `version`
// (the coordinator's log at the end of this process's shutdown), the stream
// has ended, or kShutdownEventsWait has passed. Shutdown closes the stream
// next; without the wait the shutdown's own events (SHUTDOWN_STARTED) were
// lost whenever its reply overtook them.
void AwaitEventsThrough(State& s, int64_t version) {
  absl::MutexLock lock(&s.mu);
  auto caught_up = [&s, version] {
    return s.event_version >= version || (s.watcher == nullptr && s.hub == nullptr) ||
           s.stopping || s.lost;
  };
  s.mu.AwaitWithTimeout(absl::Condition(&caught_up, &decltype(caught_up)::operator()),
                        kShutdownEventsWait);
}

void SetLost(const std::shared_ptr<State>& s, const std::string& why) {
  const absl::Status error = LostError(s->address, why);
  const std::string message(error.message());
  {
    absl::MutexLock lock(&s->mu);
    if (s->lost || s->stopping || s->shut_down) return;
    s->lost = true;
    // A job failure seen first stays the sticky error.
    SetStickyLocked(*s, error);
  }
  Log(LogLevel::kError, absl::StrCat("tessera: process ", s->header.process_id(), ": ", message));
  CancelAsync(s);
  ClientEvent event;
  event.kind = ClientEvent::Kind::kCoordinatorLost;
  event.code = absl::StatusCode::kUnavailable;
  event.message = message;
  DeliverEvent(s, std::move(event));
}

// ---------------------------------------------------------------------------
// The event stream: a callback reactor, re-opened after a break when a
// heartbeat still gets through.
// ---------------------------------------------------------------------------

void StartWatcher(const std::shared_ptr<State>& s);
void ProbeAfterBrokenStream(const std::shared_ptr<State>& s, const absl::Status& stream_error);

// What follows the end of the stream `s` watched through (counted in
// async_in_flight; `current`: `s` had not moved to another one): a job
// failure becomes sticky; a broken stream is re-opened if a heartbeat still
// gets through, else the coordinator is lost.
void AfterStreamEnded(const std::shared_ptr<State>& s, bool current, const absl::Status& error) {
  bool probe = false;
  {
    absl::MutexLock lock(&s->mu);
    --s->async_in_flight;
    probe = current && !error.ok() && !s->stopping && !s->shut_down && !s->lost;
    if (probe && s->shutdown_in_flight && !IsJobFailure(error)) {
      s->deferred_break = error;
      probe = false;
    }
  }
  if (IsJobFailure(error)) {
    (void)AfterCall(s, error);
    return;
  }
  if (probe) ProbeAfterBrokenStream(s, error);
}

}  // namespace

class EventWatcher : public grpc::ClientReadReactor<v1::Event> {
 public:
  explicit EventWatcher(std::shared_ptr<State> state) : state_(std::move(state)) {}

  void Start(std::shared_ptr<EventWatcher> self, int64_t after_version) {
    self_ = std::move(self);
    *request_.mutable_header() = state_->header;
    request_.set_after_version(after_version);
    state_->AddMetadata(&context_);
    state_->stub->async()->WatchEvents(&context_, &request_, this);
    StartRead(&event_);
    StartCall();
  }

  void Cancel() { context_.TryCancel(); }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    HandleEvent(state_, event_);
    StartRead(&event_);
  }

  void OnDone(const grpc::Status& status) override {
    std::shared_ptr<EventWatcher> keep = std::move(self_);  // `this` lives to the end of OnDone
    std::shared_ptr<State> s = state_;
    bool ours = false;
    {
      absl::MutexLock lock(&s->mu);
      if (s->watcher.get() == this) {
        s->watcher.reset();
        ours = true;
      }
    }
    AfterStreamEnded(s, ours, FromGrpcStatus(status));
  }

 private:
  std::shared_ptr<State> state_;
  std::shared_ptr<EventWatcher> self_;
  grpc::ClientContext context_;
  v1::WatchEventsRequest request_;
  v1::Event event_;
};

// One event stream for every client of this process that shares a channel
// (and job and credential): the coordinator's event log is the same for
// every process, so 10,000 clients over 100 channels keep 100 streams open,
// not 10,000 (each open stream costs both ends memory and CPU on every
// completion). The stream carries the first subscriber's header; every event
// goes to every subscriber (each drops what it has seen, HandleEvent), and
// its end is each subscriber's end of stream (AfterStreamEnded).
class EventHub : public grpc::ClientReadReactor<v1::Event> {
 public:
  struct Key {
    const grpc::Channel* channel;
    std::string job_id;
    std::string credential;
    bool operator==(const Key& other) const {
      return channel == other.channel && job_id == other.job_id && credential == other.credential;
    }
    template <typename H>
    friend H AbslHashValue(H h, const Key& key) {
      return H::combine(std::move(h), key.channel, key.job_id, key.credential);
    }
  };
  using Registry = absl::flat_hash_map<Key, std::weak_ptr<EventHub>>;

  // Subscribes `s` (counted in its async_in_flight, s->hub set) to the hub of
  // its channel, made and started if there is none. Null when `s` must watch
  // alone: the hub already delivered events past `after_version`, or `s` is
  // stopping (then nothing was counted).
  static std::shared_ptr<EventHub> Join(const std::shared_ptr<State>& s, int64_t after_version) {
    const Key key{s->channel.get(), s->header.job_id(), s->credential};
    std::shared_ptr<EventHub> hub;
    bool fresh = false;
    {
      absl::MutexLock lock(&RegistryMu());
      std::weak_ptr<EventHub>& slot = Hubs()[key];
      hub = slot.lock();
      if (hub != nullptr && !hub->ending()) {
        if (!hub->Add(hub, s, after_version)) return nullptr;  // it is past `after_version`
      } else {
        hub = std::make_shared<EventHub>(key, s, after_version);
        if (!hub->Add(hub, s, after_version)) return nullptr;  // `s` is stopping
        slot = hub;
        fresh = true;
      }
    }
    if (fresh) hub->Start(hub);
    return hub;
  }

  EventHub(Key key, const std::shared_ptr<State>& first, int64_t after_version)
      : key_(std::move(key)), channel_(first->channel), stub_(v1::Coordinator::NewStub(channel_)) {
    *request_.mutable_header() = first->header;
    request_.set_after_version(after_version);
    delivered_ = after_version;
    first->AddMetadata(&context_);
  }

  // Unsubscribes `s` (its count dropped); the last one out ends the stream.
  void Leave(State* s) {
    bool last = false;
    {
      absl::MutexLock lock(&mu_);
      auto it = subscribers_.find(s);
      if (it == subscribers_.end()) return;  // the stream ended meanwhile
      subscribers_.erase(it);
      {
        absl::MutexLock state_lock(&s->mu);
        if (s->hub.get() == this) s->hub.reset();
        --s->async_in_flight;
      }
      last = subscribers_.empty();
      if (last) ending_ = true;
    }
    if (last) context_.TryCancel();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    std::vector<std::shared_ptr<State>> subscribers;
    {
      absl::MutexLock lock(&mu_);
      delivered_ = std::max(delivered_, event_.version());
      subscribers.reserve(subscribers_.size());
      for (const auto& [raw, s] : subscribers_) subscribers.push_back(s);
    }
    for (const std::shared_ptr<State>& s : subscribers) HandleEvent(s, event_);
    StartRead(&event_);
  }

  void OnDone(const grpc::Status& status) override {
    std::shared_ptr<EventHub> keep = std::move(self_);  // `this` lives to the end of OnDone
    {
      absl::MutexLock lock(&RegistryMu());
      auto it = Hubs().find(key_);
      if (it != Hubs().end() && it->second.lock().get() == this) Hubs().erase(it);
    }
    absl::flat_hash_map<State*, std::shared_ptr<State>> subscribers;
    {
      absl::MutexLock lock(&mu_);
      ending_ = true;
      subscribers.swap(subscribers_);
      for (auto& [raw, s] : subscribers) {
        absl::MutexLock state_lock(&s->mu);
        if (s->hub.get() == this) s->hub.reset();
      }
    }
    const absl::Status error = FromGrpcStatus(status);
    for (auto& [raw, s] : subscribers) AfterStreamEnded(s, true, error);
  }

 private:

  // Locks: RegistryMu(), then a hub's mu_, then a state's mu.
  static absl::Mutex& RegistryMu() {
    static absl::Mutex* mu = new absl::Mutex;  // never destroyed: hubs may outlive statics
    return *mu;
  }
  static Registry& Hubs() {
    static Registry* hubs = new Registry;
    return *hubs;
  }

  bool ending() {
    absl::MutexLock lock(&mu_);
    return ending_;
  }

  bool Add(const std::shared_ptr<EventHub>& self, const std::shared_ptr<State>& s,
           int64_t after_version) {
    absl::MutexLock lock(&mu_);
    if (ending_ || after_version < delivered_) return false;
    absl::MutexLock state_lock(&s->mu);
    if (s->stopping || s->shut_down || s->lost) return false;
    s->hub = self;
    ++s->async_in_flight;
    subscribers_.emplace(s.get(), s);
    return true;
  }

  void Start(std::shared_ptr<EventHub> self) {
    self_ = std::move(self);
    stub_->async()->WatchEvents(&context_, &request_, this);
    StartRead(&event_);
    StartCall();
  }

  const Key key_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Coordinator::Stub> stub_;
  std::shared_ptr<EventHub> self_;  // from Start to the end of OnDone
  grpc::ClientContext context_;
  v1::WatchEventsRequest request_;
  v1::Event event_;
  absl::Mutex mu_;
  absl::flat_hash_map<State*, std::shared_ptr<State>> subscribers_;
  int64_t delivered_ = 0;  // the newest event version handed out
  bool ending_ = false;    // cancelled or done: joins go elsewhere
};

struct HeartbeatCall {
  grpc::ClientContext context;
  v1::HeartbeatRequest request;
  v1::HeartbeatResponse response;
};

namespace {

void StartWatcher(const std::shared_ptr<State>& s) {
  if (s->channel_shared) {
    int64_t after = 0;
    {
      absl::MutexLock lock(&s->mu);
      if (s->stopping || s->shut_down || s->lost) return;
      after = s->event_version;
    }
    if (EventHub::Join(s, after) != nullptr) return;
  }
  auto watcher = std::make_shared<EventWatcher>(s);
  int64_t after = 0;
  {
    absl::MutexLock lock(&s->mu);
    if (s->stopping || s->shut_down || s->lost) return;
    s->watcher = watcher;
    ++s->async_in_flight;
    after = s->event_version;
  }
  watcher->Start(watcher, after);
}

void CancelAsync(const std::shared_ptr<State>& s) {
  std::shared_ptr<EventWatcher> watcher;
  std::shared_ptr<EventHub> hub;
  std::shared_ptr<HeartbeatCall> heartbeat;
  {
    absl::MutexLock lock(&s->mu);
    watcher = s->watcher;
    hub = s->hub;
    heartbeat = s->heartbeat;
  }
  // Outside the lock: cancelling may run reactor callbacks on this thread.
  if (watcher) watcher->Cancel();
  if (hub) hub->Leave(s.get());
  if (heartbeat) heartbeat->context.TryCancel();
}

absl::Duration HeartbeatRpcTimeout(const State& s) {
  return std::max(s.heartbeat_interval, std::min(absl::Seconds(1), s.heartbeat_timeout / 2));
}

// Sends one heartbeat; `done` runs with its result on a gRPC thread.
void SendHeartbeat(const std::shared_ptr<State>& s,
                   std::function<void(const absl::Status&)> done) {
  auto call = std::make_shared<HeartbeatCall>();
  *call->request.mutable_header() = s->header;
  call->context.set_deadline(ToDeadline(absl::Now() + HeartbeatRpcTimeout(*s)));
  s->AddMetadata(&call->context);
  {
    absl::MutexLock lock(&s->mu);
    if (s->stopping) return;
    s->heartbeat = call;
    ++s->async_in_flight;
  }
  s->stub->async()->Heartbeat(
      &call->context, &call->request, &call->response,
      [s, call, done = std::move(done)](grpc::Status grpc_status) {
        absl::Status status = FromGrpcStatus(grpc_status);
        {
          absl::MutexLock lock(&s->mu);
          if (s->heartbeat == call) s->heartbeat.reset();
          if (status.ok()) {
            s->last_heartbeat_ok = absl::Now();
            if (call->response.coordinator_incarnation() != s->header.coordinator_incarnation() &&
                s->header.coordinator_incarnation() != 0) {
              status = absl::UnavailableError(absl::StrCat(
                  "the coordinator restarted (incarnation ", s->header.coordinator_incarnation(),
                  " became ", call->response.coordinator_incarnation(), ")"));
            }
          } else {
            s->last_heartbeat_error = status;
          }
        }
        done(status);
        absl::MutexLock lock(&s->mu);
        --s->async_in_flight;
      });
}

void HeartbeatTick(const std::weak_ptr<State>& weak) {
  std::shared_ptr<State> s = weak.lock();
  if (!s) return;
  bool send = false;
  absl::Duration since;
  absl::Status last_error;
  {
    absl::MutexLock lock(&s->mu);
    if (s->stopping || s->shut_down || s->lost) return;
    const absl::Time now = absl::Now();
    // A tick far later than planned means this process was not running
    // (SIGSTOP, a suspended VM, a starved scheduler): the silence was ours,
    // so the coordinator gets a full timeout from now before it counts as lost.
    if (now - s->last_tick > s->heartbeat_interval + s->heartbeat_timeout / 2) {
      s->last_heartbeat_ok = std::max(s->last_heartbeat_ok, now - s->heartbeat_interval);
    }
    s->last_tick = now;
    since = now - s->last_heartbeat_ok;
    last_error = s->last_heartbeat_error;
    send = s->heartbeat == nullptr && now - s->last_answered_sent >= s->heartbeat_interval;
  }
  if (since > s->heartbeat_timeout) {
    SetLost(s, HeartbeatLossReason(since, s->heartbeat_timeout, last_error));
    return;
  }
  if (send) {
    std::weak_ptr<State> w = s;
    SendHeartbeat(s, [w](const absl::Status& status) {
      std::shared_ptr<State> s = w.lock();
      if (!s) return;
      if (IsJobFailure(status)) (void)AfterCall(s, status);
      if (absl::StrContains(status.message(), "coordinator restarted")) SetLost(s, std::string(status.message()));
    });
  }
  Scheduler::Get().At(absl::Now() + s->heartbeat_interval, [weak] { HeartbeatTick(weak); });
}

void ProbeAfterBrokenStream(const std::shared_ptr<State>& s, const absl::Status& stream_error) {
  std::weak_ptr<State> weak = s;
  SendHeartbeat(s, [weak, stream_error](const absl::Status& status) {
    std::shared_ptr<State> s = weak.lock();
    if (!s) return;
    if (!status.ok()) {
      if (IsJobFailure(status)) {
        (void)AfterCall(s, status);
        return;
      }
      {
        absl::MutexLock lock(&s->mu);
        if (s->shutdown_in_flight) {  // the Shutdown reply decides (AfterStreamEnded)
          s->deferred_break = stream_error;
          return;
        }
      }
      SetLost(s, absl::StrCat("the event stream broke (", stream_error.ToString(),
                              ") and a re-dial failed (", status.ToString(), ")"));
      return;
    }
    std::weak_ptr<State> w = s;
    Scheduler::Get().At(absl::Now() + kWatchRetryDelay, [w] {
      if (auto s = w.lock()) StartWatcher(s);
    });
  });
}

// ---------------------------------------------------------------------------
// Connecting.
// ---------------------------------------------------------------------------

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const ClusterConfig& config,
                                                           bool own_connection, int attempt = 0) {
  grpc::ChannelArguments args;
  if (attempt > 0) args.SetInt("tessera.dial_attempt", attempt);
  // P9: an http_proxy in the environment must never sit between the job and
  // its coordinator.
  args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 30000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 10000);
  // Redial on our backoff scale, not gRPC's default 1 s -> 120 s: a
  // coordinator that comes up late is noticed within 10 s. (Not
  // GRPC_ARG_MIN_RECONNECT_BACKOFF_MS: gRPC uses it as the minimum connect
  // timeout, and 100 ms would cut slow TLS handshakes short.)
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, ToMillis(kInitialBackoff));
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, ToMillis(kMaxBackoff));
  args.SetMaxReceiveMessageSize(-1);
  args.SetMaxSendMessageSize(-1);
  if (own_connection) args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ChannelCredentials> credentials,
                           ChannelCredentials(config.tls));
  if (config.tls.enabled() && !config.tls.server_name.empty()) {
    args.SetSslTargetNameOverride(config.tls.server_name);
  }
  PinCallbackQueue();
  return grpc::CreateCustomChannel(config.coordinator_address, credentials, args);
}

absl::Status ValidateConfig(const ClusterConfig& config) {
  if (config.num_processes < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_processes is ", config.num_processes, "; expected >= 1"));
  }
  if (config.process_id < 0 || config.process_id >= config.num_processes) {
    return absl::InvalidArgumentError(absl::StrCat("process_id is ", config.process_id,
                                                   "; expected 0 <= id < ", config.num_processes,
                                                   " (num_processes)"));
  }
  if (config.coordinator_address.empty() && config.num_processes > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("no coordinator address for a job of ", config.num_processes,
                     " processes; set it (e.g. TESSERA_COORDINATOR_ADDRESS=host:port)"));
  }
  if (config.require_auth && config.job_token.empty()) {
    return absl::FailedPreconditionError(
        "authentication is required (require_auth) but no job token is set "
        "(TESSERA_JOB_TOKEN or TESSERA_JOB_TOKEN_FILE)");
  }
  return absl::OkStatus();
}

// A fresh channel for the next registration attempt. gRPC keeps a refused
// subchannel in TRANSIENT_FAILURE for its own backoff and fails fail-fast
// calls at once meanwhile, so a coordinator that came up is not seen until
// then; an argument unique to the attempt gives a new subchannel that dials
// now. (A channel the caller shares is kept as it is.)
absl::Status Redial(State& s, int attempt) {
  if (s.channel_shared) return absl::OkStatus();
  TESSERA_ASSIGN_OR_RETURN(s.channel, MakeChannel(s.config, s.own_connection, attempt));
  s.stub = v1::Coordinator::NewStub(s.channel);
  return absl::OkStatus();
}

// An attempt with less time than this that ran out says nothing about the
// coordinator: the error before it explains the failure better.
constexpr absl::Duration kMeaningfulAttempt = absl::Milliseconds(100);

// Readies one registration attempt (header, credential, deadline) and
// returns its time budget.
absl::Duration PrepareAttempt(const State& s, absl::Time deadline, grpc::ClientContext* context,
                              v1::RegisterRequest* request) {
  *request->mutable_header() = s.header;
  const absl::Time attempt_deadline = std::min(deadline, absl::Now() + s.config.rpc_timeout);
  context->set_deadline(ToDeadline(attempt_deadline));
  context->set_wait_for_ready(false);
  s.AddMetadata(context);
  return attempt_deadline - absl::Now();
}

// What one registration attempt returned.
absl::Status AttemptResult(const State& s, const grpc::Status& status) {
  // A certain TLS rejection becomes UNAUTHENTICATED and is not retried.
  // (Only then does it probe the server's certificate, a short blocking
  // connection: for ConnectAsync on the dispatcher thread, once per client.)
  return TlsHandshakeError(s.address, s.config.tls, FromGrpcStatus(status));
}

// What follows a failed registration attempt that had `budget`: the delay
// before the next attempt, or the error that ends registration.
absl::StatusOr<absl::Duration> RetryDelay(const State& s, const absl::Status& status, int attempt,
                                          absl::Duration budget, absl::Time deadline,
                                          absl::Status* last_error, Backoff* backoff,
                                          absl::BitGen* gen) {
  // A status with a detail is the coordinator's answer, never a transport
  // failure (e.g. DEADLINE_EXCEEDED: the job's init deadline passed).
  if (!IsRetryableConnectError(status) || DetailOf(status).has_value()) {
    return WithPrefix(IsJobFailure(status) ? JobFailedError(status) : status,
                      absl::StrCat("registration with the coordinator at ", s.address,
                                   " failed: "));
  }
  if (last_error->ok() || status.code() != absl::StatusCode::kDeadlineExceeded ||
      budget >= kMeaningfulAttempt) {
    *last_error = status;
  }
  const absl::Duration remaining = deadline - absl::Now();
  if (remaining <= absl::ZeroDuration()) {
    return RegistrationTimeoutError(s.address, s.config.init_timeout, attempt, *last_error);
  }
  // The last attempt comes at the deadline rather than never.
  return std::min(backoff->Next(*gen), remaining);
}

absl::Status RegisterWithRetry(const std::shared_ptr<State>& s, v1::RegisterRequest& request,
                               absl::Time deadline, v1::RegisterResponse* response) {
  Backoff backoff;
  absl::BitGen gen;
  absl::Status last_error;
  for (int attempt = 1;; ++attempt) {
    grpc::ClientContext context;
    const absl::Duration budget = PrepareAttempt(*s, deadline, &context, &request);
    const absl::Status status =
        AttemptResult(*s, s->stub->Register(&context, request, response));
    if (status.ok()) return status;
    TESSERA_ASSIGN_OR_RETURN(const absl::Duration delay,
                             RetryDelay(*s, status, attempt, budget, deadline, &last_error,
                                        &backoff, &gen));
    absl::SleepFor(delay);
    TESSERA_RETURN_IF_ERROR(Redial(*s, attempt));
  }
}

// ---------------------------------------------------------------------------
// Local mode: a single process without a coordinator serves itself.
// ---------------------------------------------------------------------------

uint64_t Fnv1a(absl::string_view bytes, uint64_t hash = 1469598103934665603ull) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

v1::GlobalTopology LocalTopology(const v1::HostInfo& host,
                                 const std::vector<v1::LocalDevice>& devices) {
  v1::GlobalTopology topology;
  uint64_t fingerprint = Fnv1a("tessera/v1 topology");
  for (size_t i = 0; i < devices.size(); ++i) {
    v1::GlobalDevice* device = topology.add_devices();
    device->set_global_id(static_cast<int32_t>(i));
    device->set_process_id(0);
    device->set_slice_index(0);
    *device->mutable_local() = devices[i];
    fingerprint = Fnv1a(absl::StrCat(i, "/0/", devices[i].platform(), "/",
                                     devices[i].local_ordinal(), ";"),
                        fingerprint);
  }
  *topology.add_hosts() = host;
  topology.set_fingerprint(fingerprint);
  topology.set_generation(1);
  return topology;
}

std::string KvNotFound(const std::string& key) {
  return absl::StrCat("key '", key, "' not found");
}

absl::Status CheckLocalParticipants(const std::vector<int64_t>& ids, const char* what) {
  for (int64_t id : ids) {
    if (id != 0) {
      return absl::InvalidArgumentError(absl::StrCat(what, " lists process ", id,
                                                     "; this job has 1 process (id 0)"));
    }
  }
  return absl::OkStatus();
}

// Waits (mu held) until `ready` or the timeout / CancelAll / a sticky error.
template <typename Ready>
absl::Status LocalWait(State& s, absl::Duration timeout, Ready ready, const std::string& what)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
  const int64_t generation = s.cancel_generation;
  auto done = [&s, &ready, generation] {
    return ready() || s.cancel_generation != generation || !s.sticky.ok() || s.stopping;
  };
  s.mu.AwaitWithTimeout(absl::Condition(&done, &decltype(done)::operator()), timeout);
  if (ready()) return absl::OkStatus();
  if (!s.sticky.ok()) return s.sticky;
  if (s.cancel_generation != generation || s.stopping) {
    return absl::CancelledError(absl::StrCat(what, " was cancelled (cancel_all)"));
  }
  return absl::DeadlineExceededError(
      absl::StrCat(what, " timed out after ", absl::FormatDuration(timeout)));
}

// ---------------------------------------------------------------------------
// The steps of connecting, shared by Register/WaitForJob and ConnectAsync.
// ---------------------------------------------------------------------------

// A new client's state (config validated): header, callbacks, and either
// local mode with its topology or `*request`, what to register with.
absl::StatusOr<std::shared_ptr<State>> NewState(const ClusterConfig& config, ClientOptions& options,
                                               v1::RegisterRequest* request) {
  auto s = std::make_shared<State>();
  s->config = config;
  s->address = config.coordinator_address;
  s->header.set_job_id(config.job_id);
  s->header.set_process_id(static_cast<int32_t>(config.process_id));
  uint64_t incarnation = options.incarnation.value_or(0);
  if (!options.incarnation.has_value()) {
    absl::BitGen gen;
    while (incarnation == 0) incarnation = absl::Uniform<uint64_t>(gen);
  }
  s->header.set_incarnation(incarnation);
  s->header.set_protocol_version(kProtocolVersion);
  s->heartbeat_interval = config.heartbeat_interval;
  s->heartbeat_timeout = config.heartbeat_timeout;

  const v1::HostInfo host = options.host.has_value() ? *options.host : LocalHostInfo();
  std::vector<v1::LocalDevice> devices;
  if (options.devices.has_value()) {
    devices = *options.devices;
  } else {
    TESSERA_ASSIGN_OR_RETURN(devices, LocalDevices(config.local_device_ids,
                                                   config.local_device_ids_from_launcher));
  }
  s->server = std::move(options.server);
  s->on_destroy = std::move(options.on_destroy);
  if (config.coordinator_address.empty()) {
    s->local = true;
    absl::MutexLock lock(&s->mu);
    s->topology = LocalTopology(host, devices);
    s->have_topology = true;
    s->have_devices = true;
    return s;
  }
  request->set_num_processes(static_cast<int32_t>(config.num_processes));
  *request->mutable_host() = host;
  for (const v1::LocalDevice& device : devices) *request->add_devices() = device;
  if (config.partition_index.has_value()) {
    request->set_partition_index(static_cast<int32_t>(*config.partition_index));
  }
  request->set_recoverable(config.recoverable);
  return s;
}

// The credential and the channel: the caller's, or a new one.
absl::Status Dial(State& s, ClientOptions& options) {
  if (!s.config.job_token.empty()) {
    s.credential = JobCredential(s.config.job_token, s.config.job_id);
  }
  s.own_connection = options.own_connection;
  s.devices_with_job = options.devices_with_job;
  if (options.channel) {
    s.channel = std::move(options.channel);
    s.channel_shared = true;
  } else {
    TESSERA_ASSIGN_OR_RETURN(s.channel, MakeChannel(s.config, options.own_connection));
  }
  s.stub = v1::Coordinator::NewStub(s.channel);
  return absl::OkStatus();
}

// Registered: adopts the coordinator's settings, then starts heartbeats (a
// process that dies while the job assembles is noticed) and the event stream.
void StartRegistered(const std::shared_ptr<State>& s, const v1::RegisterResponse& registered,
                     absl::Time init_deadline) {
  s->header.set_coordinator_incarnation(registered.coordinator_incarnation());
  if (registered.heartbeat_interval_ms() > 0) {
    s->heartbeat_interval = absl::Milliseconds(registered.heartbeat_interval_ms());
  }
  if (registered.heartbeat_timeout_ms() > 0) {
    s->heartbeat_timeout = absl::Milliseconds(registered.heartbeat_timeout_ms());
  }
  s->init_deadline = init_deadline;
  {
    absl::MutexLock lock(&s->mu);
    s->last_heartbeat_ok = absl::Now();
    s->last_tick = s->last_heartbeat_ok;
    s->event_version = registered.job_state_version();
  }
  StartWatcher(s);
  std::weak_ptr<State> weak = s;
  Scheduler::Get().At(absl::Now() + s->heartbeat_interval, [weak] { HeartbeatTick(weak); });
}

v1::WaitForJobRequest JobWaitRequest(const State& s) {
  v1::WaitForJobRequest wait;
  wait.set_timeout_ms(std::max<int64_t>(0, ToMillis(s.init_deadline - absl::Now())));
  // Fingerprint and generation only, unless asked: the devices come with the
  // first topology() (10,000 clients of one process would each parse them).
  wait.set_omit_devices(!s.devices_with_job);
  return wait;
}

void ApplyJobTopology(State& s, const v1::GlobalTopology& topology) {
  absl::MutexLock lock(&s.mu);
  // A generation event may have overtaken the answer.
  const int64_t generation = std::max(topology.generation(), s.topology.generation());
  if (s.devices_with_job) {  // the whole topology came: topology() needs no call
    s.topology = topology;
    s.have_devices = true;
  }
  s.topology.set_generation(generation);
  s.topology.set_fingerprint(topology.fingerprint());
  s.have_topology = true;
}

// ---------------------------------------------------------------------------
// Asynchronous calls: gRPC's callback API; every continuation runs on the
// dispatcher thread, so gRPC's threads never take a client's lock (which
// makes cancelling them under that lock safe) and never run user code.
// ---------------------------------------------------------------------------

template <typename Request, typename Response>
struct AsyncCall {
  grpc::ClientContext context;
  Request request;
  Response response;
  absl::Time sent;
};

void EndAsync(State& s) {
  absl::MutexLock lock(&s.mu);
  --s.async_in_flight;
}

// ProbeCoordinator without blocking; `done` runs on the dispatcher thread.
void ProbeCoordinatorAsync(const std::shared_ptr<State>& s,
                           std::function<void(absl::Status)> done) {
  auto call = std::make_shared<HeartbeatCall>();
  *call->request.mutable_header() = s->header;
  call->context.set_deadline(ToDeadline(absl::Now() + HeartbeatRpcTimeout(*s)));
  s->AddMetadata(&call->context);
  s->stub->async()->Heartbeat(&call->context, &call->request, &call->response,
                              [call, done = std::move(done)](grpc::Status status) {
                                Dispatcher::Get().Post([done, status] { done(FromGrpcStatus(status)); });
                              });
}

// Call without blocking: `start` issues the RPC; `done(status, response)`
// runs on the dispatcher thread with what Call would have returned, and the
// call counts as in flight until `done` has returned (the destructor
// cancels it and waits).
template <typename Response, typename Request, typename Start, typename Done>
void CallAsync(const std::shared_ptr<State>& s, Request request, absl::Time deadline, Start start,
               Done done) {
  auto call = std::make_shared<AsyncCall<Request, Response>>();
  call->request = std::move(request);
  *call->request.mutable_header() = s->header;
  call->context.set_deadline(ToDeadline(deadline));
  s->AddMetadata(&call->context);
  {
    absl::MutexLock lock(&s->mu);
    ++s->async_in_flight;
    absl::Status usable = s->UsableLocked();
    if (!usable.ok()) {
      Dispatcher::Get().Post([s, call, done, usable]() mutable {
        done(usable, call->response);
        EndAsync(*s);
      });
      return;
    }
    s->live_calls.insert(&call->context);
  }
  call->sent = absl::Now();
  start(&call->context, &call->request, &call->response, [s, call, done](grpc::Status grpc_status) {
    Dispatcher::Get().Post([s, call, done, grpc_status]() mutable {
      {
        absl::MutexLock lock(&s->mu);
        s->live_calls.erase(&call->context);
        CallEndedLocked(*s, call->sent, grpc_status);
      }
      bool probe = false;
      absl::Status result = RecordCallResult(s, FromGrpcStatus(grpc_status), &probe);
      if (!probe) {
        done(std::move(result), call->response);
        EndAsync(*s);
        return;
      }
      ProbeCoordinatorAsync(s, [s, call, done, result](absl::Status probe_status) mutable {
        done(ResultAfterProbe(s, std::move(result), probe_status), call->response);
        EndAsync(*s);
      });
    });
  });
}

// ---------------------------------------------------------------------------
// Barriers, shared by Barrier and BarrierAsync.
// ---------------------------------------------------------------------------

// A single-process barrier: passes at once.
absl::Status LocalBarrier(State& s, const std::string& id,
                          const std::vector<int64_t>& participants) {
  absl::MutexLock lock(&s.mu);
  TESSERA_RETURN_IF_ERROR(s.UsableLocked());
  TESSERA_RETURN_IF_ERROR(CheckLocalParticipants(participants, "the barrier's participants"));
  ++s.barrier_next[id];
  return absl::OkStatus();
}

// Counts a use of `id` and marks it ongoing (EndBarrier ends it); one use at a time.
absl::StatusOr<v1::BarrierRequest> BeginBarrier(State& s, const std::string& id,
                                                absl::Duration timeout,
                                                const std::vector<int64_t>& participants) {
  int64_t counter = 0;
  {
    absl::MutexLock lock(&s.mu);
    auto ongoing = s.barrier_ongoing.find(id);
    if (ongoing != s.barrier_ongoing.end()) {
      return absl::FailedPreconditionError(
          absl::StrCat("barrier '", id, "#", ongoing->second, "' is already in progress in process ",
                       s.header.process_id(), "; one use of an id at a time"));
    }
    counter = s.barrier_next[id]++;
    s.barrier_ongoing[id] = counter;
  }
  v1::BarrierRequest request;
  request.set_barrier_id(id);
  request.set_counter(counter);
  request.set_timeout_ms(ToMillis(timeout));
  for (int64_t p : participants) request.add_participants(static_cast<int32_t>(p));
  return request;
}

void EndBarrier(State& s, const std::string& id) {
  absl::MutexLock lock(&s.mu);
  s.barrier_ongoing.erase(id);
}

}  // namespace

absl::Status CoordinatorLostError(const std::string& address, absl::Duration since,
                                  absl::Duration timeout, const absl::Status& last_error) {
  return LostError(address, HeartbeatLossReason(since, timeout, last_error));
}

// ---------------------------------------------------------------------------
// Client.
// ---------------------------------------------------------------------------

Client::Client(std::shared_ptr<State> state) : state_(std::move(state)) {}

absl::StatusOr<std::unique_ptr<Client>> Client::Connect(const ClusterConfig& config,
                                                        ClientOptions options) {
  TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<Client> client, Register(config, std::move(options)));
  TESSERA_RETURN_IF_ERROR(client->WaitForJob());
  return client;
}

absl::StatusOr<std::unique_ptr<Client>> Client::Register(const ClusterConfig& config,
                                                         ClientOptions options) {
  TESSERA_RETURN_IF_ERROR(ValidateConfig(config));
  v1::RegisterRequest request;
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<State> s, NewState(config, options, &request));
  std::unique_ptr<Client> client(new Client(s));
  if (s->local) return client;
  TESSERA_RETURN_IF_ERROR(Dial(*s, options));
  const absl::Time deadline = absl::Now() + config.init_timeout;
  v1::RegisterResponse registered;
  TESSERA_RETURN_IF_ERROR(RegisterWithRetry(s, request, deadline, &registered));
  StartRegistered(s, registered, deadline);
  return client;
}

absl::Status Client::WaitForJob() {
  const std::shared_ptr<State>& s = state_;
  if (s->local) return absl::OkStatus();
  {
    absl::MutexLock lock(&s->mu);
    if (s->have_topology) return absl::OkStatus();
  }
  v1::WaitForJobRequest wait = JobWaitRequest(*s);
  v1::GlobalTopology topology;
  TESSERA_RETURN_IF_ERROR(
      Call(s, wait, s->init_deadline + kBlockingMargin,
           [&](grpc::ClientContext* c) { return s->stub->WaitForJob(c, wait, &topology); }));
  ApplyJobTopology(*s, topology);
  return absl::OkStatus();
}

// ---- asynchronous connect ---------------------------------------------------

namespace {

// One ConnectAsync from registration to the job's start.
struct Connecting {
  std::shared_ptr<State> s;
  std::unique_ptr<Client> client;
  Client::ConnectCallback done;
  v1::RegisterRequest request;  // left alone while an attempt is in flight
  absl::Time deadline;
  int attempt = 0;
  Backoff backoff;
  absl::BitGen gen;
  absl::Status last_error;
};

// On the dispatcher thread: hands out the client, or the error. A client
// that failed to connect is destroyed in a later dispatcher task, once the
// call that failed no longer counts as in flight (its destructor waits for
// that).
void FinishConnect(const std::shared_ptr<Connecting>& c, absl::Status status) {
  Client::ConnectCallback done = std::move(c->done);
  if (status.ok()) {
    done(std::move(c->client));
    return;
  }
  std::shared_ptr<Client> doomed(c->client.release());
  c->s.reset();
  done(std::move(status));
  Dispatcher::Get().Post([doomed] {});
}

void RegisterAttemptAsync(const std::shared_ptr<Connecting>& c);

void WaitForJobAsync(const std::shared_ptr<Connecting>& c) {
  const std::shared_ptr<State> s = c->s;
  CallAsync<v1::GlobalTopology>(
      s, JobWaitRequest(*s), s->init_deadline + kBlockingMargin,
      [s](grpc::ClientContext* context, const v1::WaitForJobRequest* request,
          v1::GlobalTopology* response, std::function<void(grpc::Status)> on_done) {
        s->stub->async()->WaitForJob(context, request, response, std::move(on_done));
      },
      [c](absl::Status status, const v1::GlobalTopology& topology) {
        if (status.ok()) ApplyJobTopology(*c->s, topology);
        FinishConnect(c, std::move(status));
      });
}

void OnRegisterAttempt(const std::shared_ptr<Connecting>& c, const absl::Status& status,
                       const v1::RegisterResponse& registered, absl::Duration budget) {
  if (status.ok()) {
    StartRegistered(c->s, registered, c->deadline);
    WaitForJobAsync(c);
    return;
  }
  absl::StatusOr<absl::Duration> delay = RetryDelay(*c->s, status, c->attempt, budget, c->deadline,
                                                    &c->last_error, &c->backoff, &c->gen);
  if (!delay.ok()) return FinishConnect(c, delay.status());
  Scheduler::Get().At(absl::Now() + *delay, [c] {
    if (absl::Status redial = Redial(*c->s, c->attempt); !redial.ok()) {
      Dispatcher::Get().Post([c, redial] { FinishConnect(c, redial); });
      return;
    }
    RegisterAttemptAsync(c);
  });
}

void RegisterAttemptAsync(const std::shared_ptr<Connecting>& c) {
  struct Attempt {
    grpc::ClientContext context;
    v1::RegisterResponse response;
    absl::Duration budget;
  };
  auto attempt = std::make_shared<Attempt>();
  ++c->attempt;
  attempt->budget = PrepareAttempt(*c->s, c->deadline, &attempt->context, &c->request);
  c->s->stub->async()->Register(
      &attempt->context, &c->request, &attempt->response, [c, attempt](grpc::Status status) {
        Dispatcher::Get().Post([c, attempt, status] {
          OnRegisterAttempt(c, AttemptResult(*c->s, status), attempt->response, attempt->budget);
        });
      });
}

}  // namespace

void Client::ConnectAsync(const ClusterConfig& config, ClientOptions options,
                          ConnectCallback done) {
  auto fail = [&done](absl::Status status) {
    Dispatcher::Get().Post([done = std::move(done), status = std::move(status)] { done(status); });
  };
  if (options.server) {
    return fail(absl::InvalidArgumentError(
        "ConnectAsync cannot own a coordinator (options.server): its client's destructor waits "
        "for the job to end; use Connect"));
  }
  if (absl::Status valid = ValidateConfig(config); !valid.ok()) return fail(valid);
  auto c = std::make_shared<Connecting>();
  absl::StatusOr<std::shared_ptr<State>> s = NewState(config, options, &c->request);
  if (!s.ok()) return fail(s.status());
  c->s = *s;
  c->client.reset(new Client(*s));
  c->done = std::move(done);
  if (c->s->local) {
    Dispatcher::Get().Post([c] { FinishConnect(c, absl::OkStatus()); });
    return;
  }
  if (absl::Status dialed = Dial(*c->s, options); !dialed.ok()) {
    Dispatcher::Get().Post([c, dialed] { FinishConnect(c, dialed); });
    return;
  }
  c->deadline = absl::Now() + config.init_timeout;
  RegisterAttemptAsync(c);
}

Client::~Client() {
  const std::shared_ptr<State>& s = state_;
  bool was_shut_down = false;
  {
    absl::MutexLock lock(&s->mu);
    s->stopping = true;
    was_shut_down = s->shut_down;
    s->CancelLiveCallsLocked();
  }
  CancelAsync(s);
  {
    absl::MutexLock callback_lock(&s->callback_mu);  // waits for a running callback
    s->callback = nullptr;
  }
  {
    absl::MutexLock lock(&s->mu);
    auto idle = [&s] { return s->async_in_flight == 0; };
    s->mu.AwaitWithTimeout(absl::Condition(&idle, &decltype(idle)::operator()), kDestroyWait);
  }
  if (s->server) {
    // The coordinator outlives its clients (P12): it serves until the job
    // has ended. After a clean shutdown that is at most the shutdown
    // timeout; without one, the others learn of this process's end from its
    // missing heartbeats and leave within about two heartbeat timeouts.
    (void)s->server->Wait(was_shut_down ? s->config.shutdown_timeout : 2 * s->heartbeat_timeout);
    s->server->Stop();
    s->server.reset();
  }
  if (s->on_destroy) s->on_destroy();
}

int64_t Client::process_id() const { return state_->config.process_id; }
int64_t Client::num_processes() const { return state_->config.num_processes; }
uint64_t Client::incarnation() const { return state_->header.incarnation(); }
const std::string& Client::coordinator_address() const { return state_->address; }
const ClusterConfig& Client::config() const { return state_->config; }

absl::StatusOr<v1::GlobalTopology> Client::topology() const {
  const std::shared_ptr<State>& s = state_;
  absl::MutexLock fetch_lock(&s->fetch_mu);
  {
    absl::MutexLock lock(&s->mu);
    if (!s->have_topology) {
      return absl::FailedPreconditionError("the job has not started yet (WaitForJob first)");
    }
    if (s->have_devices) return s->topology;
  }
  // The job is running, so WaitForJob answers at once.
  v1::WaitForJobRequest wait;
  v1::GlobalTopology topology;
  TESSERA_RETURN_IF_ERROR(Call(s, wait, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
    return s->stub->WaitForJob(c, wait, &topology);
  }));
  absl::MutexLock lock(&s->mu);
  topology.set_generation(std::max(topology.generation(), s->topology.generation()));
  s->topology = std::move(topology);
  s->have_devices = true;
  return s->topology;
}

uint64_t Client::fingerprint() const {
  absl::MutexLock lock(&state_->mu);
  return state_->topology.fingerprint();
}

int64_t Client::generation() const {
  absl::MutexLock lock(&state_->mu);
  return state_->topology.generation();
}

absl::StatusOr<std::vector<Device>> Client::Devices() const {
  TESSERA_ASSIGN_OR_RETURN(const v1::GlobalTopology topology, this->topology());
  std::vector<Device> devices;
  devices.reserve(static_cast<size_t>(topology.devices_size()));
  for (const v1::GlobalDevice& global : topology.devices()) {
    TESSERA_ASSIGN_OR_RETURN(Device device, DeviceFromTopology(global));
    devices.push_back(device);
  }
  return devices;
}

// ---- key-value store -------------------------------------------------------

absl::Status Client::KvSet(const std::string& key, const std::string& value,
                           bool allow_overwrite) {
  const std::shared_ptr<State>& s = state_;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
    return s->LocalKvLocked().Set(normalized, value, allow_overwrite);
  }
  v1::KvSetRequest request;
  request.set_key(key);
  request.set_value(value);
  request.set_allow_overwrite(allow_overwrite);
  v1::KvSetResponse response;
  return Call(s, request, UnaryDeadline(*s),
              [&](grpc::ClientContext* c) { return s->stub->KvSet(c, request, &response); });
}

absl::StatusOr<std::string> Client::KvGet(const std::string& key, absl::Duration timeout) {
  const std::shared_ptr<State>& s = state_;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
    TESSERA_RETURN_IF_ERROR(LocalWait(
        *s, timeout, [&] { return s->LocalKvLocked().Find(normalized) != nullptr; },
        absl::StrCat("waiting for key '", key, "'")));
    return s->LocalKvLocked().Find(normalized)->value;
  }
  v1::KvGetRequest request;
  request.set_key(key);
  request.set_wait(true);
  request.set_timeout_ms(ToMillis(timeout));
  v1::KvEntry entry;
  TESSERA_RETURN_IF_ERROR(Call(s, request, BlockingDeadline(timeout), [&](grpc::ClientContext* c) {
    return s->stub->KvGet(c, request, &entry);
  }));
  return std::move(*entry.mutable_value());
}

absl::StatusOr<std::string> Client::KvTryGet(const std::string& key) {
  const std::shared_ptr<State>& s = state_;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
    const KvStore::Entry* entry = s->LocalKvLocked().Find(normalized);
    if (entry == nullptr) return absl::NotFoundError(KvNotFound(key));
    return entry->value;
  }
  v1::KvGetRequest request;
  request.set_key(key);
  request.set_wait(false);
  v1::KvEntry entry;
  TESSERA_RETURN_IF_ERROR(Call(s, request, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
    return s->stub->KvGet(c, request, &entry);
  }));
  return std::move(*entry.mutable_value());
}

absl::StatusOr<std::vector<KvEntry>> Client::KvList(const std::string& prefix) {
  const std::shared_ptr<State>& s = state_;
  std::vector<KvEntry> entries;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(auto listed, s->LocalKvLocked().ListUser(prefix));
    for (auto& [key, entry] : listed) {
      entries.push_back(KvEntry{key, std::move(entry.value), entry.version});
    }
    return entries;
  }
  v1::KvListRequest request;
  request.set_prefix(prefix);
  v1::KvListResponse response;
  TESSERA_RETURN_IF_ERROR(Call(s, request, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
    return s->stub->KvList(c, request, &response);
  }));
  for (v1::KvEntry& entry : *response.mutable_entries()) {
    entries.push_back(KvEntry{entry.key(), std::move(*entry.mutable_value()), entry.version()});
  }
  return entries;
}

absl::Status Client::KvDelete(const std::string& key, bool recursive) {
  const std::shared_ptr<State>& s = state_;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
    s->LocalKvLocked().Delete(normalized, recursive);
    return absl::OkStatus();
  }
  v1::KvDeleteRequest request;
  request.set_key(key);
  request.set_recursive(recursive);
  v1::KvDeleteResponse response;
  return Call(s, request, UnaryDeadline(*s),
              [&](grpc::ClientContext* c) { return s->stub->KvDelete(c, request, &response); });
}

absl::StatusOr<int64_t> Client::KvIncrement(const std::string& key, int64_t delta) {
  const std::shared_ptr<State>& s = state_;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
    return s->LocalKvLocked().Increment(normalized, delta);
  }
  v1::KvIncrementRequest request;
  request.set_key(key);
  request.set_delta(delta);
  v1::KvIncrementResponse response;
  TESSERA_RETURN_IF_ERROR(Call(s, request, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
    return s->stub->KvIncrement(c, request, &response);
  }));
  return response.value();
}

absl::StatusOr<CompareAndSwapResult> Client::KvCompareAndSwap(
    const std::string& key, const std::optional<std::string>& expected, const std::string& desired) {
  const std::shared_ptr<State>& s = state_;
  CompareAndSwapResult result;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
    TESSERA_ASSIGN_OR_RETURN(KvStore::CasResult cas,
                             s->LocalKvLocked().CompareAndSwap(normalized, expected, desired));
    result.swapped = cas.swapped;
    result.current = std::move(cas.current);
    return result;
  }
  v1::KvCasRequest request;
  request.set_key(key);
  if (expected.has_value()) request.set_expected(*expected);
  request.set_desired(desired);
  v1::KvCasResponse response;
  TESSERA_RETURN_IF_ERROR(Call(s, request, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
    return s->stub->KvCompareAndSwap(c, request, &response);
  }));
  result.swapped = response.swapped();
  if (response.has_current()) result.current = response.current();
  return result;
}

// ---- barriers and agreement ---------------------------------------------

absl::Status Client::Barrier(const std::string& id, absl::Duration timeout,
                             const std::vector<int64_t>& participants) {
  const std::shared_ptr<State>& s = state_;
  if (s->local) return LocalBarrier(*s, id, participants);
  TESSERA_ASSIGN_OR_RETURN(v1::BarrierRequest request, BeginBarrier(*s, id, timeout, participants));
  v1::BarrierResponse response;
  const absl::Status status =
      Call(s, request, BlockingDeadline(timeout),
           [&](grpc::ClientContext* c) { return s->stub->Barrier(c, request, &response); });
  EndBarrier(*s, id);
  return status;
}

void Client::BarrierAsync(const std::string& id, absl::Duration timeout,
                          const std::vector<int64_t>& participants, StatusCallback done) {
  const std::shared_ptr<State>& s = state_;
  auto finish_now = [&done](absl::Status status) {
    Dispatcher::Get().Post([done = std::move(done), status = std::move(status)] { done(status); });
  };
  if (s->local) return finish_now(LocalBarrier(*s, id, participants));
  absl::StatusOr<v1::BarrierRequest> request = BeginBarrier(*s, id, timeout, participants);
  if (!request.ok()) return finish_now(request.status());
  CallAsync<v1::BarrierResponse>(
      s, *std::move(request), BlockingDeadline(timeout),
      [&s](grpc::ClientContext* context, const v1::BarrierRequest* barrier,
           v1::BarrierResponse* response, std::function<void(grpc::Status)> on_done) {
        s->stub->async()->Barrier(context, barrier, response, std::move(on_done));
      },
      [s, id, done = std::move(done)](absl::Status status, const v1::BarrierResponse&) {
        EndBarrier(*s, id);
        done(std::move(status));
      });
}

absl::Status Client::CancelBarrier(const std::string& id) {
  const std::shared_ptr<State>& s = state_;
  int64_t counter = 0;
  {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    if (s->local) return absl::OkStatus();  // a one-process barrier never waits
    auto ongoing = s->barrier_ongoing.find(id);
    counter = ongoing != s->barrier_ongoing.end() ? ongoing->second : s->barrier_next[id];
  }
  v1::CancelBarrierRequest request;
  request.set_barrier_id(id);
  request.set_counter(counter);
  v1::CancelBarrierResponse response;
  return Call(s, request, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
    return s->stub->CancelBarrier(c, request, &response);
  });
}

absl::StatusOr<LiveProcesses> Client::AgreeLiveProcesses(const std::vector<int64_t>& candidates,
                                                         absl::Duration timeout) {
  const std::shared_ptr<State>& s = state_;
  LiveProcesses result;
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_RETURN_IF_ERROR(CheckLocalParticipants(candidates, "the candidates"));
    if (std::find(candidates.begin(), candidates.end(), 0) == candidates.end()) {
      return absl::InvalidArgumentError("the candidates must include the caller (process 0)");
    }
    result.live = {0};
    result.incarnations = {s->header.incarnation()};
    result.generation = s->topology.generation();
    return result;
  }
  v1::AgreeLiveRequest request;
  for (int64_t c : candidates) request.add_candidates(static_cast<int32_t>(c));
  request.set_timeout_ms(ToMillis(timeout));
  v1::AgreeLiveResponse response;
  TESSERA_RETURN_IF_ERROR(Call(s, request, BlockingDeadline(timeout), [&](grpc::ClientContext* c) {
    return s->stub->AgreeLiveProcesses(c, request, &response);
  }));
  result.live.assign(response.live().begin(), response.live().end());
  result.incarnations.assign(response.incarnations().begin(), response.incarnations().end());
  result.generation = response.generation();
  return result;
}

// ---- failures and events ----------------------------------------------------

absl::Status Client::ReportError(absl::StatusCode code, const std::string& message) {
  const std::shared_ptr<State>& s = state_;
  v1::ErrorInfo info;
  info.set_code(static_cast<int32_t>(code));
  info.set_message(message);
  info.set_source_process_id(s->header.process_id());
  info.set_reported_by_user(true);
  if (s->local) {
    {
      absl::MutexLock lock(&s->mu);
      TESSERA_RETURN_IF_ERROR(s->UsableLocked());
      SetStickyLocked(*s, JobFailedError(info));
    }
    ClientEvent event;
    event.kind = ClientEvent::Kind::kJobError;
    event.process_id = info.source_process_id();
    event.code = code;
    event.message = message;
    DeliverEvent(s, std::move(event));
    return absl::OkStatus();
  }
  v1::ReportErrorRequest request;
  *request.mutable_error() = info;
  v1::ReportErrorResponse response;
  const absl::Status status = Call(s, request, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
    return s->stub->ReportError(c, request, &response);
  });
  // The job failing because of this very report is the report's success
  // (the job_error event may overtake the response).
  const auto detail = DetailOf(status);
  if (detail.has_value() && detail->reason() == v1::CoordinatorErrorDetail::REASON_JOB_FAILED &&
      detail->source_process_id() == s->header.process_id()) {
    return absl::OkStatus();
  }
  return status;
}

void Client::SetEventCallback(EventCallback callback) {
  const std::shared_ptr<State>& s = state_;
  absl::MutexLock callback_lock(&s->callback_mu);
  absl::MutexLock lock(&s->mu);
  s->has_callback = static_cast<bool>(callback);
  s->callback = std::move(callback);
}

absl::StatusOr<ClientEvent> Client::NextEvent(absl::Duration timeout) {
  State& s = *state_;
  absl::MutexLock lock(&s.mu);
  const int64_t generation = s.cancel_generation;
  auto ready = [&s, generation] {
    return !s.events.empty() || s.cancel_generation != generation || s.stopping;
  };
  s.mu.AwaitWithTimeout(absl::Condition(&ready, &decltype(ready)::operator()), timeout);
  if (!s.events.empty()) {
    ClientEvent event = std::move(s.events.front());
    s.events.pop_front();
    return event;
  }
  if (s.cancel_generation != generation || s.stopping) {
    return absl::CancelledError("waiting for an event was cancelled (cancel_all)");
  }
  return absl::DeadlineExceededError(
      absl::StrCat("no event within ", absl::FormatDuration(timeout)));
}

void Client::CancelAll() {
  absl::MutexLock lock(&state_->mu);
  ++state_->cancel_generation;
  state_->CancelLiveCallsLocked();
}

absl::Status Client::Shutdown() {
  const std::shared_ptr<State>& s = state_;
  bool local = false;
  {
    absl::MutexLock lock(&s->mu);
    if (s->shut_down) return absl::OkStatus();
    if (s->local) {
      TESSERA_RETURN_IF_ERROR(s->UsableLocked());
      s->shut_down = true;
      local = true;
    }
  }
  if (local) {
    // The event a coordinator would send: callers handle one process's job
    // and a many-process job alike.
    ClientEvent event;
    event.kind = ClientEvent::Kind::kShutdownStarted;
    DeliverEvent(s, std::move(event));
    return absl::OkStatus();
  }
  v1::ShutdownRequest request;
  request.set_timeout_ms(ToMillis(s->config.shutdown_timeout));
  v1::ShutdownResponse response;
  {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());  // a coordinator lost before stays an error
    s->shutdown_in_flight = true;
  }
  const absl::Status status =
      Call(s, request, BlockingDeadline(s->config.shutdown_timeout),
           [&](grpc::ClientContext* c) { return s->stub->Shutdown(c, request, &response); });
  std::optional<absl::Status> deferred_break;
  {
    absl::MutexLock lock(&s->mu);
    if (status.ok()) {
      s->shut_down = true;
    } else {
      s->shutdown_in_flight = false;
      if (s->sticky.ok()) deferred_break.swap(s->deferred_break);
      s->deferred_break.reset();
    }
  }
  if (!status.ok()) {
    // The client stays in use (e.g. cancel_all): a break seen meanwhile gets
    // the re-dial it was spared.
    if (deferred_break.has_value()) ProbeAfterBrokenStream(s, *deferred_break);
    return status;
  }
  AwaitEventsThrough(*s, response.events_version());
  CancelAsync(s);  // heartbeats stop with the next tick
  return absl::OkStatus();
}

absl::Status Client::sticky_error() const {
  absl::MutexLock lock(&state_->mu);
  return state_->sticky;
}

}  // namespace tessera::cluster
