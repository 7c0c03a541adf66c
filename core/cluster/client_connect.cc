// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client_connect.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "core/cluster/auth.h"
#include "core/cluster/client_event_stream.h"
#include "core/cluster/client_heartbeats.h"
#include "core/cluster/client_local.h"
#include "core/cluster/client_threads.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/grpc_runtime.h"
#include "core/cluster/local_host.h"
#include "core/cluster/tls_credentials.h"
#include "core/cluster/wire_text.h"
#include "core/status_macros.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster::internal {

absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const ClusterConfig& config,
                                                           bool own_connection, int attempt) {
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
  return grpc::CreateCustomChannel(AddressText(config.coordinator_address), credentials, args);
}

namespace {

// `status` with `prefix` before its message; code and payloads kept.
absl::Status WithPrefix(const absl::Status& status, absl::string_view prefix) {
  absl::Status result(status.code(), absl::StrCat(prefix, status.message()));
  status.ForEachPayload([&result](absl::string_view url, const absl::Cord& payload) {
    result.SetPayload(url, payload);
  });
  return result;
}

// An attempt with less time than this that ran out says nothing about the
// coordinator: the error before it explains the failure better.
constexpr absl::Duration kMeaningfulAttempt = absl::Milliseconds(100);

}  // namespace

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
  if (!config.coordinator_address && config.num_processes > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("no coordinator address for a job of ", config.num_processes,
                     " processes; set it (e.g. TESSERA_COORDINATOR_ADDRESS=host:port)"));
  }
  if (config.require_auth && config.job_token.empty()) {
    return absl::FailedPreconditionError(
        "authentication is required (require_auth) but no job token is set "
        "(TESSERA_JOB_TOKEN or TESSERA_JOB_TOKEN_FILE)");
  }
  // Every call carries the job id: one that is not text would fail them all.
  return CheckWireId("job_id", config.job_id);
}

absl::Status Redial(State& s, int attempt) {
  if (s.channel_shared) return absl::OkStatus();
  TESSERA_ASSIGN_OR_RETURN(s.channel, MakeChannel(s.config, s.own_connection, attempt));
  s.stub = v1::Coordinator::NewStub(s.channel);
  return absl::OkStatus();
}

absl::Duration PrepareAttempt(const State& s, absl::Time deadline, grpc::ClientContext* context,
                              v1::RegisterRequest* request) {
  *request->mutable_header() = s.header;
  const absl::Time attempt_deadline = std::min(deadline, absl::Now() + s.config.rpc_timeout);
  context->set_deadline(ToDeadline(attempt_deadline));
  context->set_wait_for_ready(false);
  s.AddMetadata(context);
  return attempt_deadline - absl::Now();
}

absl::Status AttemptResult(const State& s, const grpc::Status& status) {
  // A certain TLS rejection becomes UNAUTHENTICATED and is not retried.
  // (Only then does it probe the server's certificate, a short blocking
  // connection: for ConnectAsync on the dispatcher thread, once per client.)
  return TlsHandshakeError(s.address, s.config.tls, FromGrpcStatus(status));
}

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
// The steps of connecting, shared by Register/WaitForJob and ConnectAsync.
// ---------------------------------------------------------------------------

absl::StatusOr<std::shared_ptr<State>> NewState(const ClusterConfig& config, ClientOptions& options,
                                               v1::RegisterRequest* request) {
  // Not make_shared: the scheduler keeps weak references until their tasks
  // run (a connect's WaitForJob fallback runs near the init deadline,
  // minutes later), and a weak reference into make_shared's one block
  // would keep the whole State's memory.
  std::shared_ptr<State> s(new State());
  s->config = config;
  s->address = AddressText(config.coordinator_address);
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
  s->max_value_bytes = config.max_value_bytes;

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
  if (!config.coordinator_address) {
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

void StartRegistered(const std::shared_ptr<State>& s, const v1::RegisterResponse& registered,
                     absl::Time init_deadline) {
  s->header.set_coordinator_incarnation(registered.coordinator_incarnation());
  if (registered.heartbeat_interval_ms() > 0) {
    s->heartbeat_interval = absl::Milliseconds(registered.heartbeat_interval_ms());
  }
  if (registered.heartbeat_timeout_ms() > 0) {
    s->heartbeat_timeout = absl::Milliseconds(registered.heartbeat_timeout_ms());
  }
  if (registered.max_value_bytes() > 0) s->max_value_bytes = registered.max_value_bytes();
  s->init_deadline = init_deadline;
  {
    absl::MutexLock lock(&s->mu);
    s->last_heartbeat_ok = absl::Now();
    s->last_tick = s->last_heartbeat_ok;
    s->event_version = registered.job_state_version();
  }
  // A job already running (a rejoin) sends no job-start event after this
  // version: the answer says the topology itself.
  if (registered.has_job_topology() && !s->devices_with_job) {
    ApplyJobTopology(*s, registered.job_topology());
  }
  StartWatcher(s);
  std::weak_ptr<State> weak = s;
  Scheduler::Get().At(absl::Now() + s->heartbeat_interval, [weak] { HeartbeatTick(weak); });
}

v1::WaitForJobRequest JobWaitRequest(const State& s) {
  v1::WaitForJobRequest wait;
  // At least 1 ms: 0 would ask for the coordinator's own init timeout.
  wait.set_timeout_ms(std::max<int64_t>(1, ToMillis(s.init_deadline - absl::Now())));
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

}  // namespace tessera::cluster::internal
