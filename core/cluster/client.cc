// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/client_callback.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "core/cluster/client_connect.h"
#include "core/cluster/client_event_stream.h"
#include "core/cluster/client_events.h"
#include "core/cluster/client_heartbeats.h"
#include "core/cluster/client_local.h"
#include "core/cluster/client_state.h"
#include "core/cluster/client_threads.h"
#include "core/cluster/connect_retry.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/kv_store.h"
#include "core/cluster/local_host.h"
#include "core/cluster/wire_text.h"
#include "core/status_macros.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster {

// The client's parts (core/cluster/client_*.h), used here by name.
// client_threads.h
using internal::Dispatcher, internal::Scheduler;
// client_state.h
using internal::AfterCall, internal::BlockingDeadline, internal::Call, internal::CallEndedLocked,
    internal::HeartbeatLossReason, internal::JobFailedError, internal::kBlockingMargin,
    internal::LostError, internal::RecordCallResult, internal::ResultAfterProbe,
    internal::SetStickyLocked, internal::State, internal::ToDeadline, internal::ToMillis,
    internal::UnaryDeadline, internal::WakeJobWaiterLocked;
// client_events.h
using internal::AwaitEventsThrough, internal::DeliverEvent, internal::JobErrorEvent;
// client_event_stream.h
using internal::CancelAsync, internal::ProbeAfterBrokenStream;
// client_heartbeats.h
using internal::HeartbeatCall, internal::HeartbeatRpcTimeout;
// client_connect.h
using internal::ApplyJobTopology, internal::AttemptResult, internal::Dial,
    internal::JobWaitRequest, internal::NewState, internal::PrepareAttempt, internal::Redial,
    internal::RegisterWithRetry, internal::RetryDelay, internal::StartRegistered,
    internal::ValidateConfig;
// client_local.h
using internal::CheckLocalParticipants, internal::LocalWait;

namespace {

constexpr absl::Duration kDestroyWait = absl::Seconds(10);
// Keys and values per KvList page: large enough that small stores come in
// one call, small enough that no side holds a store-sized message.
constexpr int64_t kKvListPageBytes = int64_t{4} << 20;

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

namespace {

// WaitForJob without blocking; `done` runs on the dispatcher thread.
void AskWaitForJob(const std::shared_ptr<State>& s, std::function<void(absl::Status)> done) {
  CallAsync<v1::GlobalTopology>(
      s, JobWaitRequest(*s), s->init_deadline + kBlockingMargin,
      [s](grpc::ClientContext* context, const v1::WaitForJobRequest* request,
          v1::GlobalTopology* response, std::function<void(grpc::Status)> on_done) {
        s->stub->async()->WaitForJob(context, request, response, std::move(on_done));
      },
      [s, done = std::move(done)](absl::Status status, const v1::GlobalTopology& topology) {
        if (status.ok()) ApplyJobTopology(*s, topology);
        done(std::move(status));
      });
}

// How long before the init deadline a client still waiting for the job's
// start asks WaitForJob, whose answer at the deadline names the processes
// that never registered.
absl::Duration JobWaitLead(const State& s) {
  return std::min(absl::Seconds(1), s.config.init_timeout / 4);
}

// Calls `done` once, on the dispatcher thread: OK once the job runs (its
// fingerprint and generation known), or why it cannot. The job's start
// comes without a call of the client's own: the coordinator's job-start
// event carries the topology's fingerprint and the client's event stream
// (shared by the clients of a channel) brings it, so 10,000 processes park
// no WaitForJob each on the coordinator. WaitForJob is still asked when the
// devices are wanted with the job, when an older coordinator's event lacks
// the fingerprint, and near the init deadline. The sticky error (the job
// failed, the coordinator was lost, this incarnation was superseded) and
// CancelAll end the wait at once.
void AwaitJob(const std::shared_ptr<State>& s, std::function<void(absl::Status)> done) {
  if (s->devices_with_job) return AskWaitForJob(s, std::move(done));
  absl::Status ended;
  bool ask = false;  // an older coordinator's job-start event came already
  {
    absl::MutexLock lock(&s->mu);
    const bool waiting = s->sticky.ok() && !s->have_topology;
    ask = waiting && s->job_start_unconfirmed;
    if (waiting && !ask) {
      s->job_waiter = [s, done](std::optional<absl::Status> outcome) {
        if (!outcome.has_value()) return AskWaitForJob(s, done);
        done(*std::move(outcome));
      };
      std::weak_ptr<State> weak = s;
      Scheduler::Get().At(s->init_deadline - JobWaitLead(*s), [weak] {
        if (std::shared_ptr<State> s = weak.lock()) {
          absl::MutexLock lock(&s->mu);
          WakeJobWaiterLocked(*s, std::nullopt);
        }
      });
      return;
    }
    ended = s->sticky;
  }
  if (ask) return AskWaitForJob(s, std::move(done));  // it locks s->mu
  Dispatcher::Get().Post([done = std::move(done), ended] { done(ended); });
}

}  // namespace

absl::Status Client::WaitForJob() {
  const std::shared_ptr<State>& s = state_;
  if (s->local) return absl::OkStatus();
  {
    absl::MutexLock lock(&s->mu);
    if (s->have_topology) return absl::OkStatus();
  }
  if (s->devices_with_job) {
    // One blocking call on this thread (initialize: one client per
    // process): its answer is taken here, before a job failure that
    // follows the job's start can cancel a reply still queued for the
    // dispatcher thread.
    v1::WaitForJobRequest wait = JobWaitRequest(*s);
    v1::GlobalTopology topology;
    TESSERA_RETURN_IF_ERROR(
        Call(s, wait, s->init_deadline + kBlockingMargin,
             [&](grpc::ClientContext* c) { return s->stub->WaitForJob(c, wait, &topology); }));
    ApplyJobTopology(*s, topology);
    return absl::OkStatus();
  }
  // Shared with the waiter: Notify may still be returning on the
  // dispatcher thread when this call has returned.
  struct Outcome {
    absl::Notification ready;
    absl::Status status;
  };
  auto outcome = std::make_shared<Outcome>();
  AwaitJob(s, [outcome](absl::Status status) {
    outcome->status = std::move(status);
    outcome->ready.Notify();
  });
  outcome->ready.WaitForNotification();
  return outcome->status;
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

void OnRegisterAttempt(const std::shared_ptr<Connecting>& c, const absl::Status& status,
                       const v1::RegisterResponse& registered, absl::Duration budget) {
  if (status.ok()) {
    StartRegistered(c->s, registered, c->deadline);
    AwaitJob(c->s, [c](absl::Status status) { FinishConnect(c, std::move(status)); });
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
    // The channel the attempt goes out on, released after the context: a
    // redial or a failed connect may drop the State's reference first, on
    // another thread, and the context's reference is released inside
    // ~ClientContext, in uninstrumented libgrpc++, where ThreadSanitizer
    // cannot see the count that orders the channel's destruction after it.
    std::shared_ptr<grpc::Channel> channel;
    grpc::ClientContext context;
    v1::RegisterResponse response;
    absl::Duration budget;
  };
  auto attempt = std::make_shared<Attempt>();
  attempt->channel = c->s->channel;
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
    // has ended, after a clean shutdown at most the shutdown timeout. A
    // failed job needs it only until every connected process holds the
    // error (milliseconds): this process's own leaving fails a running job
    // within kReconnectGrace (its event stream closed just now). The
    // heartbeat timeouts bound the rest (a job still registering, a process
    // that hangs without closing its connection).
    (void)s->server->WaitWhileNeeded(was_shut_down ? s->config.shutdown_timeout
                                                   : 2 * s->heartbeat_timeout);
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

// Every call checks its key (and a value's size) as the coordinator does,
// before anything is sent: both modes refuse the same arguments with the same
// errors, and a value over the limit never travels.

absl::Status Client::KvSet(const std::string& key, absl::string_view value,
                           bool allow_overwrite) {
  const std::shared_ptr<State>& s = state_;
  TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
  TESSERA_RETURN_IF_ERROR(KvStore::CheckValueSize(normalized, value.size(), s->max_value_bytes));
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    return s->LocalKvLocked().Set(normalized, std::string(value), allow_overwrite);
  }
  v1::KvSetRequest request;
  request.set_key(key);
  request.set_value(std::string(value));
  request.set_allow_overwrite(allow_overwrite);
  v1::KvSetResponse response;
  return Call(s, request, UnaryDeadline(*s),
              [&](grpc::ClientContext* c) { return s->stub->KvSet(c, request, &response); });
}

absl::StatusOr<std::string> Client::KvGet(const std::string& key, absl::Duration timeout) {
  const std::shared_ptr<State>& s = state_;
  TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_RETURN_IF_ERROR(LocalWait(
        *s, timeout, [&] { return s->LocalKvLocked().Find(normalized) != nullptr; },
        absl::StrCat("waiting for key '", key, "'")));
    return s->LocalKvLocked().Find(normalized)->value();
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
  TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    const KvStore::Entry* entry = s->LocalKvLocked().Find(normalized);
    if (entry == nullptr) return KvStore::NotFound(normalized);
    return entry->value();
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
  TESSERA_RETURN_IF_ERROR(CheckWireId("prefix", prefix));
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(auto listed, s->LocalKvLocked().ListUser(prefix));
    for (auto& [key, entry] : listed) {
      entries.push_back(KvEntry{key, entry.value(), entry.version});
    }
    return entries;
  }
  // Page by page (coordinator.proto's KvListRequest): the coordinator never
  // builds one message the size of the store. A coordinator that does not
  // page answers everything at once, without `truncated`.
  v1::KvListRequest request;
  request.set_prefix(prefix);
  request.set_max_response_bytes(kKvListPageBytes);
  while (true) {
    v1::KvListResponse response;
    TESSERA_RETURN_IF_ERROR(Call(s, request, UnaryDeadline(*s), [&](grpc::ClientContext* c) {
      return s->stub->KvList(c, request, &response);
    }));
    for (v1::KvEntry& entry : *response.mutable_entries()) {
      entries.push_back(KvEntry{entry.key(), std::move(*entry.mutable_value()), entry.version()});
    }
    if (!response.truncated() || response.entries().empty()) return entries;
    request.set_start_after(entries.back().key);
  }
}

absl::Status Client::KvDelete(const std::string& key, bool recursive) {
  const std::shared_ptr<State>& s = state_;
  TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
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
  TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
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
  TESSERA_ASSIGN_OR_RETURN(std::string normalized, KvStore::NormalizeUserKey(key));
  TESSERA_RETURN_IF_ERROR(KvStore::CheckValueSize(normalized, desired.size(), s->max_value_bytes));
  if (s->local) {
    absl::MutexLock lock(&s->mu);
    TESSERA_RETURN_IF_ERROR(s->UsableLocked());
    TESSERA_ASSIGN_OR_RETURN(KvStore::CasResult cas,
                             s->LocalKvLocked().CompareAndSwap(normalized, expected, desired));
    result.swapped = cas.swapped;
    result.current = std::move(cas.current);
    return result;
  }
  if (expected.has_value() && static_cast<int64_t>(expected->size()) > s->max_value_bytes) {
    // No stored value is that large, so the swap cannot happen: the answer
    // is the current value, without sending a request over the size limit.
    absl::StatusOr<std::string> current = KvTryGet(key);
    if (current.ok()) {
      result.current = *std::move(current);
    } else if (!absl::IsNotFound(current.status())) {
      return current.status();
    }
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
  TESSERA_RETURN_IF_ERROR(CheckWireId("barrier_id", id));
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
  if (absl::Status checked = CheckWireId("barrier_id", id); !checked.ok()) return finish_now(checked);
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
  TESSERA_RETURN_IF_ERROR(CheckWireId("barrier_id", id));
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

absl::Status Client::ReportError(absl::StatusCode code, const std::string& raw_message) {
  const std::shared_ptr<State>& s = state_;
  // A report must arrive whatever its bytes: escaped if they are not text.
  const std::string message = AsWireText(raw_message);
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
    DeliverEvent(s, JobErrorEvent(info.source_process_id(), code, message));
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
  WakeJobWaiterLocked(*state_,
                      absl::CancelledError("waiting for the job to start was cancelled (cancel_all)"));
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
