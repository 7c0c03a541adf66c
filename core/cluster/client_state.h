// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The state one client shares with its asynchronous machinery (heartbeats,
// the event stream, asynchronous calls), and the helpers every part of the
// client uses on it: the sticky error and the unary call with its result.
// Private to the client (core/cluster/client*.cc): not installed, not in the
// C ABI.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_STATE_H_
#define TESSERA_CORE_CLUSTER_CLIENT_STATE_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/cluster/auth.h"
#include "core/cluster/client.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/kv_store.h"
#include "core/status_macros.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster {

namespace internal {
class EventWatcher;    // client_event_stream.cc
class EventHub;        // client_event_stream.cc
struct HeartbeatCall;  // client_heartbeats.h
}  // namespace internal

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
  // The coordinator's limit on one value (its RegisterResponse; the
  // configured one in local mode): larger values are refused before they
  // are sent. Final before the client is handed out.
  int64_t max_value_bytes = kDefaultMaxValueBytes;

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
  std::shared_ptr<internal::HeartbeatCall> heartbeat;  // in flight
  std::shared_ptr<internal::EventWatcher> watcher;  // a stream of its own, or
  std::shared_ptr<internal::EventHub> hub;          // one shared with the channel's other clients
  int64_t event_version = 0;
  // A wait for the job's start (AwaitJob in client.cc: WaitForJob and
  // ConnectAsync): called once, on the dispatcher thread
  // (WakeJobWaiterLocked), with OK (the job-start event came: `topology`
  // has its fingerprint), an error (the sticky one, or CancelAll's), or
  // nullopt (the stream cannot tell in time: ask WaitForJob).
  std::function<void(std::optional<absl::Status>)> job_waiter;
  // A job-start event without the fingerprint came (an older coordinator's):
  // WaitForJob answers at once, and a waiter that comes later asks it.
  bool job_start_unconfirmed = false;
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

namespace internal {

using State = Client::State;

// ---- shared by every file of the client ----

// The margin a blocking call's deadline adds to its own timeout
// (BlockingDeadline, and WaitForJob's init deadline).
inline constexpr absl::Duration kBlockingMargin = absl::Seconds(2);

std::chrono::system_clock::time_point ToDeadline(absl::Time t);

int64_t ToMillis(absl::Duration d);

// ---- the sticky error: shared by calls, events, heartbeats and the stream ----

// Makes `error` the sticky error and unblocks every call (and the job
// waiter); the event is delivered by the caller. Returns false when one was
// set already.
bool SetStickyLocked(State& s, absl::Status error) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu);

// Hands `outcome` to s.job_waiter, if one waits, in a dispatcher task.
void WakeJobWaiterLocked(State& s, std::optional<absl::Status> outcome)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu);

// The job-failed error (ABORTED, REASON_JOB_FAILED: the one error a failed
// job gives every caller, client_state.cc) of a job_error event's ErrorInfo
// (HandleEvent), or of ReportError's in local mode.
absl::Status JobFailedError(const v1::ErrorInfo& info);

// A call's reply that says the job failed, as JobFailedError (the
// coordinator's detail, e.g. the missing processes, kept).
absl::Status JobFailedError(const absl::Status& reply);

// UNAVAILABLE with reason REASON_COORDINATOR_LOST (SetLost, and the
// coordinator-lost rule CoordinatorLostError).
absl::Status LostError(const std::string& address, absl::string_view why);

// Why heartbeats say the coordinator is lost (HeartbeatTick, and the
// coordinator-lost rule CoordinatorLostError).
std::string HeartbeatLossReason(absl::Duration since, absl::Duration timeout,
                                const absl::Status& last_error);

// Whether `status` carries reason REASON_JOB_FAILED.
bool IsJobFailure(const absl::Status& status);

// Whether `status` carries reason REASON_SUPERSEDED: a newer incarnation of
// the process registered.
bool IsSuperseded(const absl::Status& status);

// ---- a call's result: shared by blocking calls (Call) and CallAsync ----

// The first half of a finished call's result: a job failure becomes sticky
// (and its event is delivered); any failure while the client is failed
// reports the sticky error. `*probe` says whether the failure came from the
// transport, so that a re-dial must decide (ResultAfterProbe).
absl::Status RecordCallResult(const std::shared_ptr<State>& s, absl::Status status, bool* probe);

// The second half: a failed re-dial (`probe`) after a transport failure
// means the coordinator is lost.
absl::Status ResultAfterProbe(const std::shared_ptr<State>& s, absl::Status result,
                              const absl::Status& probe);

// A finished blocking call's result (re-dials on this thread).
absl::Status AfterCall(const std::shared_ptr<State>& s, absl::Status status);

// A call sent at `sent` ended with `status`. One the coordinator answered is
// a heartbeat both ways: the coordinator took its arrival as one, and the
// answer shows the coordinator alive; so the next heartbeat tick within the
// interval sends none (10,000 clients in a registration storm would
// otherwise double their calls).
void CallEndedLocked(State& s, absl::Time sent, const grpc::Status& status)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu);

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

// A unary call's deadline (config.rpc_timeout) and a blocking call's (its
// timeout and kBlockingMargin).
absl::Time UnaryDeadline(const State& s);
absl::Time BlockingDeadline(absl::Duration timeout);

}  // namespace internal
}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_CLIENT_STATE_H_
