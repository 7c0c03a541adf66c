// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/coordinator_server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <grpcpp/grpcpp.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/support/server_interceptor.h>

#include "absl/base/const_init.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "core/cluster/accept_gate.h"
#include "core/cluster/auth.h"
#include "core/cluster/coordinator_metrics.h"
#include "core/cluster/coordinator_state.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/grpc_runtime.h"
#include "core/cluster/host_port.h"
#include "core/cluster/metrics_http.h"
#include "core/cluster/tls_credentials.h"
#include "core/cluster/wire_text.h"
#include "core/log.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster {
namespace {

constexpr absl::Duration kTickPeriod = absl::Milliseconds(5);
// The service name health checks may ask about besides "" (the server).
constexpr char kCoordinatorServiceName[] = "tessera.v1.Coordinator";
constexpr size_t kEventsPerPoll = 256;
// How long a failed job's coordinator keeps serving processes it cannot
// show to hold the error (no stream of their own: clients sharing another's
// stream, a process between re-dials) before it stops anyway.
constexpr absl::Duration kFailureNoticeWait = absl::Seconds(2);

const char* ErrnoName(int error) {
  switch (error) {
    case EADDRINUSE: return "EADDRINUSE";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EAFNOSUPPORT: return "EAFNOSUPPORT";
    case EINVAL: return "EINVAL";
    default: return "errno";
  }
}

// gRPC reports a failed bind without errno; binding a probe socket first
// (then closing it) names the cause: "bind 127.0.0.1:8476: Address already in
// use (EADDRINUSE)".
absl::Status ProbeBind(const HostPort& address) {
  const std::string shown = address.ToString();
  absl::StatusOr<AddrInfoList> found = ResolveTcp(address, AI_PASSIVE);
  if (!found.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("bind ", shown, ": cannot resolve '", address.host,
                                                   "': ", found.status().message()));
  }
  absl::Status status = absl::OkStatus();
  for (addrinfo* ai = found->get(); ai != nullptr; ai = ai->ai_next) {
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (ai->ai_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
    const int rc = bind(fd, ai->ai_addr, ai->ai_addrlen);
    const int error = errno;
    close(fd);
    if (rc != 0) {
      status = absl::UnavailableError(absl::StrCat("bind ", shown, ": ", std::strerror(error), " (",
                                                   ErrnoName(error), ")"));
      break;
    }
  }
  return status;
}

// Protobuf wire format, for the hand-built KvListResponse below.
void PutVarint(std::string* out, uint64_t value) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>(value | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

size_t VarintSize(uint64_t value) {
  size_t size = 1;
  for (; value >= 0x80; value >>= 7) ++size;
  return size;
}

// A KvListResponse whose value bytes are the stored values themselves: each
// is a slice holding a reference to the value, released once gRPC has sent
// it. A listing costs the coordinator its keys and framing, not a copy of
// the store (three concurrent listings of a full store once took 4.4x its
// limit, issue 15).
grpc::ByteBuffer SerializeKvPage(const KvStore::Page& page, bool keys_only) {
  constexpr char kEntriesTag = 0x0A;    // KvListResponse.entries, length-delimited
  constexpr char kKeyTag = 0x0A;        // KvEntry.key
  constexpr char kValueTag = 0x12;      // KvEntry.value
  constexpr char kVersionTag = 0x18;    // KvEntry.version, varint
  constexpr char kTruncatedTag = 0x10;  // KvListResponse.truncated, varint
  std::vector<grpc::Slice> slices;
  std::string framing;  // bytes since the last value slice
  for (const auto& [key, entry] : page.entries) {
    const size_t value_size = keys_only ? 0 : entry.value().size();
    size_t entry_size = 1 + VarintSize(key.size()) + key.size();
    if (value_size > 0) entry_size += 1 + VarintSize(value_size) + value_size;
    if (entry.version != 0) entry_size += 1 + VarintSize(static_cast<uint64_t>(entry.version));
    framing.push_back(kEntriesTag);
    PutVarint(&framing, entry_size);
    framing.push_back(kKeyTag);
    PutVarint(&framing, key.size());
    framing += key;
    if (value_size > 0) {
      framing.push_back(kValueTag);
      PutVarint(&framing, value_size);
      slices.emplace_back(framing);
      framing.clear();
      auto* hold = new std::shared_ptr<const std::string>(entry.bytes);
      slices.emplace_back(
          const_cast<char*>((*hold)->data()), value_size,
          [](void* held) { delete static_cast<std::shared_ptr<const std::string>*>(held); }, hold);
    }
    if (entry.version != 0) {
      framing.push_back(kVersionTag);
      PutVarint(&framing, static_cast<uint64_t>(entry.version));
    }
  }
  if (page.truncated) {
    framing.push_back(kTruncatedTag);
    framing.push_back(1);
  }
  if (!framing.empty()) slices.emplace_back(framing);
  return grpc::ByteBuffer(slices.data(), slices.size());
}

// Counts every answered RPC by method and code for /metrics; installed only
// when metrics are on, so a coordinator without them pays nothing per call.
class RpcCountingInterceptor final : public grpc::experimental::Interceptor {
 public:
  RpcCountingInterceptor(grpc::experimental::ServerRpcInfo* info, RpcCounts* counts)
      : method_(info->method()), counts_(counts) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(
            grpc::experimental::InterceptionHookPoints::PRE_SEND_STATUS)) {
      const absl::StatusCode code = static_cast<absl::StatusCode>(methods->GetSendStatus().error_code());
      counts_->Add(method_, absl::StatusCodeToString(code));
    }
    methods->Proceed();
  }

 private:
  const std::string method_;
  RpcCounts* const counts_;
};

class RpcCountingFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit RpcCountingFactory(RpcCounts* counts) : counts_(counts) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(grpc::experimental::ServerRpcInfo* info) override {
    return new RpcCountingInterceptor(info, counts_);
  }

 private:
  RpcCounts* const counts_;
};

// A duration as a gRPC channel argument (int milliseconds).
int ClampedMs(absl::Duration duration) {
  return static_cast<int>(std::clamp<int64_t>(absl::ToInt64Milliseconds(duration), 1, INT_MAX));
}

class CoordinatorServerImpl;

// A reactor freed by its last reference. gRPC holds one until OnDone, and
// runs OnDone only after the reactor's other callbacks have returned and,
// on a thread of its own, after a Finish; but it orders these through its
// uninstrumented library (atomics, its executor's queue), where
// ThreadSanitizer does not see them. A callback, or a thread that finishes
// the reactor, holding a reference of its own (Held) puts the order in this
// count, where it does: the reactor is freed by whichever side lets go last.
template <typename Reactor>
class Counted {
 public:
  void Ref() { refs_.fetch_add(1); }
  void Unref() {
    if (refs_.fetch_sub(1) == 1) delete static_cast<Reactor*>(this);
  }

 protected:
  // Runs `f` holding a reference.
  template <typename F>
  void Held(F f) {
    Ref();
    f();
    Unref();
  }

 private:
  std::atomic<int> refs_{1};
};

// One WatchEvents stream: writes the event log from `after_version` on, one
// message at a time, and is poked when new events arrive.
class EventWriter final : public grpc::ServerWriteReactor<v1::Event>, public Counted<EventWriter> {
 public:
  EventWriter(CoordinatorServerImpl* server, int64_t after_version)
      : server_(server), next_version_(after_version), delivered_(after_version) {}

  // Starts the next write if none is in flight and events are waiting.
  void Poke();
  // Ends the stream with `status` (after the write in flight, if any), on
  // any thread (Counted).
  void End(const grpc::Status& status) {
    Held([&] { EndHeld(status); });
  }

  void OnWriteDone(bool ok) override {
    Held([&] { WriteDone(ok); });
  }
  void OnCancel() override { End(grpc::Status::CANCELLED); }
  void OnDone() override;

  // Counts the stream as `header`'s (CoordinatorState::WatcherOpened) until
  // it ends. Before the handler returns the writer.
  void Watch(const v1::Header& header);
  // The version of the newest event the client has (written to it, or
  // before the stream's after_version).
  int64_t delivered() const { return delivered_.load(); }
  // Whether the stream counts as the process of its header's (Watch), and which.
  bool counted() const { return counted_; }
  int32_t process_id() const { return header_.process_id(); }

  // The server takes a reference (Counted) while it pokes or ends the
  // stream without its lock, so OnDone never frees a writer in use and never
  // waits for the server's lock.

 private:
  void EndHeld(const grpc::Status& status);
  void WriteDone(bool ok);
  // The status that ends the stream instead of `next`: `header_`'s
  // incarnation was superseded and `next` tells of the job's topology.
  std::optional<grpc::Status> Superseded(const v1::Event& next) const;

  CoordinatorServerImpl* const server_;
  // A plain mutex: one per stream, and absl's debug-build deadlock detector
  // costs time per distinct mutex (10,000 streams).
  std::mutex mu_;
  int64_t next_version_;                            // guarded by mu_
  bool writing_ = false;                            // guarded by mu_
  bool finished_ = false;                           // guarded by mu_
  std::optional<grpc::Status> finish_after_write_;  // guarded by mu_
  std::deque<v1::Event> queue_;                     // guarded by mu_
  v1::Event current_;
  std::atomic<int64_t> delivered_;  // the client had every event up to it before
  v1::Header header_;    // set before the handler returns
  bool counted_ = false;  // the state counts the stream as header_'s
};

// WaitForJob is a raw method: every process receives the same topology, so
// it is serialized once and its bytes shared (10,000 copies of a
// 10,000-device message would not fit the registration budget). KvList is
// raw too: its pages are sent from the stored values themselves.
class CoordinatorService final
    : public v1::Coordinator::WithRawCallbackMethod_WaitForJob<
          v1::Coordinator::WithRawCallbackMethod_KvList<v1::Coordinator::CallbackService>> {
 public:
  explicit CoordinatorService(CoordinatorServerImpl* server) : server_(server) {}

  grpc::ServerUnaryReactor* Register(grpc::CallbackServerContext* ctx,
                                     const v1::RegisterRequest* request,
                                     v1::RegisterResponse* response) override;
  grpc::ServerUnaryReactor* WaitForJob(grpc::CallbackServerContext* ctx,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Heartbeat(grpc::CallbackServerContext* ctx,
                                      const v1::HeartbeatRequest* request,
                                      v1::HeartbeatResponse* response) override;
  grpc::ServerWriteReactor<v1::Event>* WatchEvents(grpc::CallbackServerContext* ctx,
                                                   const v1::WatchEventsRequest* request) override;
  grpc::ServerUnaryReactor* GetJobState(grpc::CallbackServerContext* ctx,
                                        const v1::GetJobStateRequest* request,
                                        v1::GetJobStateResponse* response) override;
  grpc::ServerUnaryReactor* ReportError(grpc::CallbackServerContext* ctx,
                                        const v1::ReportErrorRequest* request,
                                        v1::ReportErrorResponse* response) override;
  grpc::ServerUnaryReactor* KvSet(grpc::CallbackServerContext* ctx, const v1::KvSetRequest* request,
                                  v1::KvSetResponse* response) override;
  grpc::ServerUnaryReactor* KvGet(grpc::CallbackServerContext* ctx, const v1::KvGetRequest* request,
                                  v1::KvEntry* response) override;
  grpc::ServerUnaryReactor* KvList(grpc::CallbackServerContext* ctx,
                                   const grpc::ByteBuffer* request,
                                   grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* KvDelete(grpc::CallbackServerContext* ctx,
                                     const v1::KvDeleteRequest* request,
                                     v1::KvDeleteResponse* response) override;
  grpc::ServerUnaryReactor* KvIncrement(grpc::CallbackServerContext* ctx,
                                        const v1::KvIncrementRequest* request,
                                        v1::KvIncrementResponse* response) override;
  grpc::ServerUnaryReactor* KvCompareAndSwap(grpc::CallbackServerContext* ctx,
                                             const v1::KvCasRequest* request,
                                             v1::KvCasResponse* response) override;
  grpc::ServerUnaryReactor* Barrier(grpc::CallbackServerContext* ctx,
                                    const v1::BarrierRequest* request,
                                    v1::BarrierResponse* response) override;
  grpc::ServerUnaryReactor* CancelBarrier(grpc::CallbackServerContext* ctx,
                                          const v1::CancelBarrierRequest* request,
                                          v1::CancelBarrierResponse* response) override;
  grpc::ServerUnaryReactor* AgreeLiveProcesses(grpc::CallbackServerContext* ctx,
                                               const v1::AgreeLiveRequest* request,
                                               v1::AgreeLiveResponse* response) override;
  grpc::ServerUnaryReactor* Shutdown(grpc::CallbackServerContext* ctx,
                                     const v1::ShutdownRequest* request,
                                     v1::ShutdownResponse* response) override;

 private:
  // Authorizes (`header`: the request's), then finishes with what `call` returns.
  template <typename Call>
  grpc::ServerUnaryReactor* Unary(grpc::CallbackServerContext* ctx, const v1::Header& header,
                                  Call call);
  // Authorizes, then hands `call` a completion that finishes the reactor;
  // `call` returns the state's name for the call (ParkedReactor).
  template <typename Call>
  grpc::ServerUnaryReactor* Parked(grpc::CallbackServerContext* ctx, const v1::Header& header,
                                   Call call);

  CoordinatorServerImpl* const server_;
};

class CoordinatorServerImpl final : public CoordinatorServer {
 public:
  CoordinatorServerImpl(const ClusterConfig& config, std::string address)
      : config_(config),
        address_(address),
        expected_credential_(config.job_token.empty()
                                 ? std::string()
                                 : JobCredential(config.job_token, config.job_id)),
        state_(std::make_unique<CoordinatorState>(
            [&] {
              CoordinatorOptions options = CoordinatorOptions::FromConfig(config);
              options.address = address;
              return options;
            }(),
            &SteadyClock())),
        service_(this) {
    state_->SetEventListener([this] { PokeWatchers(); });
    state_->SetEndListener([this] {
      {
        absl::MutexLock lock(&end_mu_);
        ended_ = true;
      }
      EndHealth();
    });
  }

  ~CoordinatorServerImpl() override {
    Stop();
    // Every stream's OnDone (RemoveWatcher) ended before Stop's Wait
    // returned, as gRPC orders it; taking the lock once more orders it for
    // ThreadSanitizer too before watchers_ is destroyed.
    absl::MutexLock lock(&watch_mu_);
  }

  absl::Status Serve(const HostPort& bind) {
    absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> credentials =
        ServerCredentials(config_.tls);
    if (!credentials.ok()) return credentials.status();
    grpc::ServerBuilder builder;
    // Without this a second coordinator could share the port silently.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 5000);
    // Connections that never finish their handshake, or carry no call, are
    // closed (cluster_config.h's ConnectionTimeouts).
    builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS,
                               ClampedMs(config_.connections.handshake));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, ClampedMs(config_.connections.idle));
    // A compare-and-swap carries two values (expected and desired).
    const int64_t max_message =
        std::min<int64_t>(INT_MAX, 2 * std::max<int64_t>(0, config_.max_value_bytes) + (1 << 20));
    builder.SetMaxReceiveMessageSize(static_cast<int>(max_message));
    builder.SetMaxSendMessageSize(-1);
    // The gate listens and hands gRPC only connections that speak
    // (accept_gate.h): silent ones are capped and timed out there.
    absl::StatusOr<std::unique_ptr<AcceptGate>> gate = AcceptGate::Listen(
        bind, config_.connections.max_silent, config_.connections.handshake);
    if (!gate.ok()) return gate.status();
    gate_ = *std::move(gate);
    acceptor_ = builder.experimental().AddExternalConnectionAcceptor(
        grpc::ServerBuilder::experimental_type::ExternalConnectionType::FROM_FD, *credentials);
    builder.RegisterService(&service_);
    if (config_.metrics_bind) {
      HostPort metrics_bind = *config_.metrics_bind;
      if (!metrics_bind.port.has_value()) metrics_bind.port = 0;
      absl::StatusOr<std::unique_ptr<MetricsHttpServer>> metrics =
          MetricsHttpServer::Start(metrics_bind, [this](MetricsFormat format) {
            return RenderMetrics(state_->Counts(), rpc_counts_.Snapshot(), format);
          });
      if (!metrics.ok()) return metrics.status();
      metrics_ = *std::move(metrics);
      std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
      interceptors.push_back(std::make_unique<RpcCountingFactory>(&rpc_counts_));
      builder.experimental().SetInterceptorCreators(std::move(interceptors));
    }
    PinCallbackQueue();
    {
      // gRPC's own grpc.health.v1.Health (Check and Watch), for Kubernetes'
      // gRPC probes. The switch is process-wide and read by BuildAndStart:
      // restored at once so the host's own servers keep their setting, and
      // held under a lock so coordinators started at once in one process
      // cannot restore it under each other's builds.
      static absl::Mutex health_switch_mu(absl::kConstInit);
      absl::MutexLock health_switch_lock(&health_switch_mu);
      const bool health_was_enabled = grpc::DefaultHealthCheckServiceEnabled();
      grpc::EnableDefaultHealthCheckService(true);
      server_ = builder.BuildAndStart();
      grpc::EnableDefaultHealthCheckService(health_was_enabled);
    }
    if (server_ == nullptr) {
      return absl::UnavailableError(
          absl::StrCat("bind ", bind.ToString(), ": gRPC could not listen there"));
    }
    // gRPC answers SERVING from the start; no connection reaches the server
    // before the gate starts, and it says SERVING only once registrations can
    // arrive (below).
    grpc::HealthCheckServiceInterface* health = server_->GetHealthCheckService();
    if (health != nullptr) {
      health->SetServingStatus(false);
      health->SetServingStatus(kCoordinatorServiceName, false);
    }
    port_ = gate_->port();
    gate_->Start([acceptor = acceptor_.get()](int listener_fd, int fd) {
      grpc::experimental::ExternalConnectionAcceptor::NewConnectionParameters connection;
      connection.listener_fd = listener_fd;
      connection.fd = fd;
      acceptor->HandleNewConnection(&connection);
    });
    if (!config_.coordinator_address) {  // messages name the port clients really use
      const std::string bound = HostPort{bind.host, port_}.ToString();
      {
        absl::MutexLock lock(&address_mu_);
        address_ = bound;
      }
      state_->SetAddress(bound);
    }
    ticker_ = std::thread([this] {
      while (!stop_ticker_.WaitForNotificationWithTimeout(kTickPeriod)) state_->Tick();
    });
    if (health != nullptr) {
      health_.store(health);
      // Once the job ended or Stop began, the shut-down service ignores this.
      health->SetServingStatus(true);
      if (state_->Ended()) EndHealth();
    }
    Log(LogLevel::kInfo,
        absl::StrCat("coordinator: serving job '", config_.job_id, "' (", config_.num_processes,
                     " processes) on ", bind.host, ":", port_,
                     config_.tls.cert_file.empty() ? " without TLS" : " with TLS",
                     expected_credential_.empty() ? ", no job token" : ", job token required"));
    if (expected_credential_.empty() && config_.tls.cert_file.empty()) {
      Log(LogLevel::kWarning,
          "coordinator: running INSECURE (no job token, no TLS): anyone who can reach the port "
          "can join or disturb the job; set TESSERA_JOB_TOKEN");
    }
    return absl::OkStatus();
  }

  int port() const override { return port_; }
  int metrics_port() const override { return metrics_ != nullptr ? metrics_->port() : 0; }

  std::string address() const {
    absl::MutexLock lock(&address_mu_);
    return address_;
  }

  absl::Status Wait(absl::Duration timeout) override {
    absl::MutexLock lock(&end_mu_);
    if (end_mu_.AwaitWithTimeout(absl::Condition(&ended_), timeout)) return absl::OkStatus();
    return absl::DeadlineExceededError(absl::StrCat("job '", config_.job_id,
                                                    "' is still running after ",
                                                    absl::FormatDuration(timeout)));
  }

  absl::Status JobStatus() const override { return state_->EndStatus(); }

  absl::Status WaitWhileNeeded(absl::Duration timeout) override {
    const absl::Time deadline = absl::Now() + timeout;
    std::optional<absl::Time> failed_since;
    // Polled: streams deliver on gRPC's threads and report to nobody; a
    // scan every tick costs a lock and one load per stream.
    while (!Wait(kTickPeriod).ok()) {
      const absl::Time now = absl::Now();
      if (!failed_since.has_value() && state_->failure_event_version() != 0) failed_since = now;
      if (failed_since.has_value() &&
          (FailureDelivered() || now - *failed_since >= kFailureNoticeWait)) {
        return absl::OkStatus();
      }
      if (now >= deadline) {
        return absl::DeadlineExceededError(absl::StrCat(
            "job '", config_.job_id, "' is still running after ", absl::FormatDuration(timeout)));
      }
    }
    return absl::OkStatus();
  }

  int64_t parked_calls() const override { return state_->parked_calls(); }

  void Stop() override {
    if (stopping_.exchange(true)) return;
    EndHealth();
    state_->Stop(absl::CancelledError(
        absl::StrCat("the coordinator at ", address(), " stopped")));
    for (EventWriter* w : SnapshotWatchers()) {
      w->End(grpc::Status(grpc::StatusCode::CANCELLED, "coordinator stopped"));
      w->Unref();
    }
    gate_.reset();  // no new connections for the server
    if (server_ != nullptr) server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
    stop_ticker_.Notify();
    if (ticker_.joinable()) ticker_.join();
    if (server_ != nullptr) server_->Wait();
    metrics_.reset();
  }

  // Called before any handler logic, with the request's header. Never logs
  // the credential itself.
  absl::Status Authorize(grpc::CallbackServerContext* ctx, const v1::Header& header) {
    if (!config_.tls.peer_uri_prefix.empty()) {
      bool matched = false;
      std::shared_ptr<const grpc::AuthContext> auth = ctx->auth_context();
      if (auth != nullptr) {
        for (const grpc::string_ref& uri : auth->FindPropertyValues(GRPC_PEER_URI_PROPERTY_NAME)) {
          if (absl::StartsWith(absl::string_view(uri.data(), uri.size()),
                               config_.tls.peer_uri_prefix)) {
            matched = true;
          }
        }
      }
      if (!matched) {
        Log(LogLevel::kWarning, absl::StrCat("coordinator: rejected a call from ", ctx->peer(),
                                             ": no client certificate URI SAN starts with '",
                                             config_.tls.peer_uri_prefix, "'"));
        return Unauthenticated(absl::StrCat("the client certificate has no URI SAN starting with '",
                                            config_.tls.peer_uri_prefix, "'"));
      }
    }
    if (expected_credential_.empty()) return absl::OkStatus();
    const auto& metadata = ctx->client_metadata();
    auto it = metadata.find(kAuthMetadataKey);
    const std::string presented =
        it == metadata.end() ? std::string() : std::string(it->second.data(), it->second.size());
    if (CredentialsEqual(presented, expected_credential_)) return absl::OkStatus();
    // The credential binds the job id: a process of another job (right token
    // or not) fails here, and is better told that its job is wrong.
    if (absl::Status wrong_job = state_->CheckJobId(header); !wrong_job.ok()) {
      Log(LogLevel::kWarning, absl::StrCat("coordinator: rejected a call from ", ctx->peer(), ": ",
                                           wrong_job.message()));
      return wrong_job;
    }
    Log(LogLevel::kWarning,
        absl::StrCat("coordinator: rejected a call from ", ctx->peer(), ": ",
                     presented.empty() ? std::string("no job credential")
                                       : absl::StrCat("job credential ",
                                                      CredentialFingerprint(presented),
                                                      "... does not match")));
    return Unauthenticated("");
  }

  CoordinatorState& state() { return *state_; }

  // NOT_SERVING from now on (the job ended, or the coordinator is stopping):
  // probes stop routing to it and watchers hear the change.
  void EndHealth() {
    if (grpc::HealthCheckServiceInterface* health = health_.load()) health->Shutdown();
  }

  // `topology` serialized, from a one-entry cache: the buffer shares its
  // bytes with every copy handed out.
  grpc::ByteBuffer Serialized(const std::shared_ptr<const v1::GlobalTopology>& topology) {
    absl::MutexLock lock(&serialized_mu_);
    if (serialized_of_ != topology) {
      const std::string bytes = topology->SerializeAsString();
      grpc::Slice slice(bytes);
      serialized_ = grpc::ByteBuffer(&slice, 1);
      serialized_of_ = topology;
    }
    return serialized_;
  }

  void AddWatcher(EventWriter* writer) {
    absl::MutexLock lock(&watch_mu_);
    watchers_.insert(writer);
  }
  void RemoveWatcher(EventWriter* writer) {
    absl::MutexLock lock(&watch_mu_);
    watchers_.erase(writer);
  }
  bool stopping() const { return stopping_.load(); }

 private:
  absl::Status Unauthenticated(absl::string_view why) {
    v1::CoordinatorErrorDetail detail;
    detail.set_reason(v1::CoordinatorErrorDetail::REASON_AUTHENTICATION);
    detail.set_source_process_id(-1);
    return WithDetail(
        absl::UnauthenticatedError(absl::StrCat("job token rejected by coordinator at ", address(),
                                                " (job '", config_.job_id, "')",
                                                why.empty() ? "" : ": ", why)),
        detail);
  }

  // The job failed, every open event stream has carried its job_error
  // event, and every live process holds the error (EveryoneHoldsFailure:
  // through a stream of its own, or a call answered with it).
  bool FailureDelivered() {
    const int64_t failure = state_->failure_event_version();
    if (failure == 0) return false;
    std::vector<int32_t> heard;
    {
      absl::MutexLock lock(&watch_mu_);
      for (const EventWriter* w : watchers_) {
        if (w->delivered() < failure) return false;
        if (w->counted()) heard.push_back(w->process_id());
      }
    }
    return state_->EveryoneHoldsFailure(heard);
  }

  // The current writers, each with a reference the caller drops.
  std::vector<EventWriter*> SnapshotWatchers() {
    absl::MutexLock lock(&watch_mu_);
    std::vector<EventWriter*> writers(watchers_.begin(), watchers_.end());
    for (EventWriter* w : writers) w->Ref();
    return writers;
  }

  void PokeWatchers() {
    for (EventWriter* w : SnapshotWatchers()) {
      w->Poke();
      w->Unref();
    }
  }

  const ClusterConfig config_;
  mutable absl::Mutex address_mu_;
  std::string address_ ABSL_GUARDED_BY(address_mu_);
  const std::string expected_credential_;
  std::unique_ptr<CoordinatorState> state_;
  CoordinatorService service_;
  std::unique_ptr<AcceptGate> gate_;
  std::unique_ptr<grpc::experimental::ExternalConnectionAcceptor> acceptor_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::thread ticker_;
  absl::Notification stop_ticker_;
  std::atomic<bool> stopping_{false};
  std::atomic<grpc::HealthCheckServiceInterface*> health_{nullptr};  // the server's, once serving
  RpcCounts rpc_counts_;
  std::unique_ptr<MetricsHttpServer> metrics_;  // /metrics, when config_.metrics_bind
  mutable absl::Mutex end_mu_;
  bool ended_ ABSL_GUARDED_BY(end_mu_) = false;
  absl::Mutex serialized_mu_;
  std::shared_ptr<const v1::GlobalTopology> serialized_of_ ABSL_GUARDED_BY(serialized_mu_);
  grpc::ByteBuffer serialized_ ABSL_GUARDED_BY(serialized_mu_);
  absl::Mutex watch_mu_;
  absl::flat_hash_set<EventWriter*> watchers_ ABSL_GUARDED_BY(watch_mu_);
};

// --- EventWriter ------------------------------------------------------------

void EventWriter::Poke() {
  std::optional<grpc::Status> superseded;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (writing_ || finished_) return;
    if (queue_.empty()) {
      for (auto& e : server_->state().EventsAfter(next_version_, kEventsPerPoll)) {
        queue_.push_back(std::move(e));
      }
      if (!queue_.empty()) next_version_ = queue_.back().version();
    }
    if (queue_.empty()) return;
    superseded = Superseded(queue_.front());
    if (!superseded.has_value()) {
      current_ = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
    }
  }
  if (superseded.has_value()) return End(*superseded);
  StartWrite(&current_);
}

std::optional<grpc::Status> EventWriter::Superseded(const v1::Event& next) const {
  // Clients learn the job's start from this event (no WaitForJob): an
  // incarnation replaced while the job formed must hear that it was
  // superseded instead, as its parked WaitForJob used to. The check takes
  // the state's lock, so only for these rare events.
  if (next.kind_case() != v1::Event::kTopologyGeneration) return std::nullopt;
  const absl::Status current = server_->state().CheckWatcher(header_);
  if (!HasReason(current, v1::CoordinatorErrorDetail::REASON_SUPERSEDED)) return std::nullopt;
  return ToGrpcStatus(current);
}

void EventWriter::EndHeld(const grpc::Status& status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (finished_) return;
    if (writing_) {
      if (!finish_after_write_.has_value()) finish_after_write_ = status;
      return;
    }
    finished_ = true;
  }
  Finish(status);
}

void EventWriter::Watch(const v1::Header& header) {
  header_ = header;
  counted_ = server_->state().WatcherOpened(header_);
}

void EventWriter::WriteDone(bool ok) {
  std::optional<grpc::Status> finish;
  {
    std::lock_guard<std::mutex> lock(mu_);
    writing_ = false;
    if (ok) delivered_.store(current_.version());
    if (!ok && !finish_after_write_.has_value()) finish_after_write_ = grpc::Status::CANCELLED;
    if (finish_after_write_.has_value() && !finished_) {
      finished_ = true;
      finish = finish_after_write_;
    }
  }
  if (finish.has_value()) return Finish(*finish);
  Poke();
}

void EventWriter::OnDone() {
  server_->RemoveWatcher(this);
  // However it ended (the client cancelled it, its connection broke, or the
  // coordinator stopped), the process no longer hears events through it.
  if (counted_) server_->state().WatcherClosed(header_);
  Unref();
}

// --- ParkedReactor -------------------------------------------------------------

// A blocking call's reactor. When the client cancels the call (cancel_all,
// TryCancel) or its deadline passes, gRPC calls OnCancel and the call is
// withdrawn from the state at once: its slot under max_pending_calls and its
// place at a barrier or agreement are freed instead of staying parked until
// the call's own timeout.
class ParkedReactor final : public grpc::ServerUnaryReactor, public Counted<ParkedReactor> {
 public:
  explicit ParkedReactor(CoordinatorState* state) : state_(state) {}

  // The state's name for the call (empty when it did not park).
  void SetCall(ParkedCall call) {
    bool cancelled;
    {
      std::lock_guard<std::mutex> lock(mu_);
      call_ = std::move(call);
      cancelled = cancelled_;
    }
    if (cancelled) Withdraw();
  }

  // Ends the call with `status`, on any thread (Counted).
  void Complete(const absl::Status& status) {
    Held([&] { Finish(ToGrpcStatus(status)); });
  }

  // Withdrawing finishes the reactor, after which gRPC may run OnDone on
  // another thread as soon as OnCancel returns (Counted).
  void OnCancel() override {
    Held([this] {
      {
        std::lock_guard<std::mutex> lock(mu_);
        cancelled_ = true;
      }
      Withdraw();
    });
  }
  void OnDone() override { Unref(); }

 private:
  // Without mu_ held: withdrawing finishes the reactor.
  void Withdraw() {
    ParkedCall call;
    {
      std::lock_guard<std::mutex> lock(mu_);
      call = call_;
    }
    state_->Withdraw(call);
  }

  CoordinatorState* const state_;
  std::mutex mu_;  // gRPC orders OnCancel after the handler; this is insurance
  ParkedCall call_;
  bool cancelled_ = false;
};

// --- CoordinatorService --------------------------------------------------------

template <typename Call>
grpc::ServerUnaryReactor* CoordinatorService::Unary(grpc::CallbackServerContext* ctx,
                                                    const v1::Header& header, Call call) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  absl::Status status = server_->Authorize(ctx, header);
  if (status.ok()) status = call();
  reactor->Finish(ToGrpcStatus(status));
  return reactor;
}

template <typename Call>
grpc::ServerUnaryReactor* CoordinatorService::Parked(grpc::CallbackServerContext* ctx,
                                                     const v1::Header& header, Call call) {
  auto* reactor = new ParkedReactor(&server_->state());
  if (absl::Status status = server_->Authorize(ctx, header); !status.ok()) {
    reactor->Complete(status);
    return reactor;
  }
  reactor->SetCall(call([reactor](absl::Status status) { reactor->Complete(status); }));
  return reactor;
}

grpc::ServerUnaryReactor* CoordinatorService::Register(grpc::CallbackServerContext* ctx,
                                                       const v1::RegisterRequest* request,
                                                       v1::RegisterResponse* response) {
  return Unary(ctx, request->header(), [&] { return server_->state().Register(*request, response); });
}

grpc::ServerUnaryReactor* CoordinatorService::WaitForJob(grpc::CallbackServerContext* ctx,
                                                         const grpc::ByteBuffer* request,
                                                         grpc::ByteBuffer* response) {
  auto* reactor = new ParkedReactor(&server_->state());
  v1::WaitForJobRequest parsed;
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (request->Dump(&slices).ok()) {
    for (const grpc::Slice& slice : slices) {
      bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    }
  }
  // Parsed before authorizing: a wrong job's caller is told its job id is
  // wrong (Authorize), and the bytes are a few dozen.
  absl::Status status = parsed.ParseFromString(bytes)
                            ? server_->Authorize(ctx, parsed.header())
                            : absl::InvalidArgumentError("WaitForJobRequest does not parse");
  if (!status.ok()) {
    reactor->Complete(status);
    return reactor;
  }
  CoordinatorServerImpl* server = server_;
  reactor->SetCall(server_->state().WaitForJob(
      parsed, [server, reactor, response, omit_devices = parsed.omit_devices()](
                  absl::Status status, std::shared_ptr<const v1::GlobalTopology> topology) {
        if (status.ok() && topology != nullptr) {
          // A summary (omit_devices) is a few bytes, new on every call: not
          // worth displacing the shared bytes of the whole topology.
          if (omit_devices) {
            const std::string bytes = topology->SerializeAsString();
            grpc::Slice slice(bytes);
            *response = grpc::ByteBuffer(&slice, 1);
          } else {
            *response = server->Serialized(topology);
          }
        }
        reactor->Complete(status);
      }));
  return reactor;
}

grpc::ServerUnaryReactor* CoordinatorService::Heartbeat(grpc::CallbackServerContext* ctx,
                                                        const v1::HeartbeatRequest* request,
                                                        v1::HeartbeatResponse* response) {
  return Unary(ctx, request->header(), [&] { return server_->state().Heartbeat(*request, response); });
}

grpc::ServerWriteReactor<v1::Event>* CoordinatorService::WatchEvents(
    grpc::CallbackServerContext* ctx, const v1::WatchEventsRequest* request) {
  absl::Status status = server_->Authorize(ctx, request->header());
  if (status.ok()) status = server_->state().CheckWatcher(request->header());
  if (status.ok() && server_->stopping()) status = absl::CancelledError("coordinator stopped");
  auto* writer = new EventWriter(server_, request->after_version());
  if (!status.ok()) {
    writer->End(ToGrpcStatus(status));
    return writer;
  }
  writer->Watch(request->header());
  server_->AddWatcher(writer);
  writer->Poke();
  return writer;
}

grpc::ServerUnaryReactor* CoordinatorService::GetJobState(grpc::CallbackServerContext* ctx,
                                                          const v1::GetJobStateRequest* request,
                                                          v1::GetJobStateResponse* response) {
  return Unary(ctx, request->header(), [&] { return server_->state().GetJobState(*request, response); });
}

grpc::ServerUnaryReactor* CoordinatorService::ReportError(grpc::CallbackServerContext* ctx,
                                                          const v1::ReportErrorRequest* request,
                                                          v1::ReportErrorResponse*) {
  return Unary(ctx, request->header(), [&] { return server_->state().ReportError(*request); });
}

grpc::ServerUnaryReactor* CoordinatorService::KvSet(grpc::CallbackServerContext* ctx,
                                                    const v1::KvSetRequest* request,
                                                    v1::KvSetResponse*) {
  // The request is this call's own (gRPC allocated it for the handler and
  // frees it when the call ends): its value moves into the store.
  return Unary(ctx, request->header(), [&] {
    return server_->state().KvSet(std::move(*const_cast<v1::KvSetRequest*>(request)));
  });
}

grpc::ServerUnaryReactor* CoordinatorService::KvGet(grpc::CallbackServerContext* ctx,
                                                    const v1::KvGetRequest* request,
                                                    v1::KvEntry* response) {
  return Parked(ctx, request->header(), [&](Completion done) {
    return server_->state().KvGet(*request, response, std::move(done));
  });
}

grpc::ServerUnaryReactor* CoordinatorService::KvList(grpc::CallbackServerContext* ctx,
                                                     const grpc::ByteBuffer* request,
                                                     grpc::ByteBuffer* response) {
  v1::KvListRequest parsed;
  grpc::ByteBuffer bytes(*request);  // shares the slices; Deserialize consumes it
  if (!grpc::SerializationTraits<v1::KvListRequest>::Deserialize(&bytes, &parsed).ok()) {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    reactor->Finish(ToGrpcStatus(absl::InvalidArgumentError("KvListRequest does not parse")));
    return reactor;
  }
  return Unary(ctx, parsed.header(), [&] {
    absl::StatusOr<KvStore::Page> page = server_->state().KvListPage(parsed);
    if (!page.ok()) return page.status();
    *response = SerializeKvPage(*page, parsed.keys_only());
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* CoordinatorService::KvDelete(grpc::CallbackServerContext* ctx,
                                                       const v1::KvDeleteRequest* request,
                                                       v1::KvDeleteResponse*) {
  return Unary(ctx, request->header(), [&] { return server_->state().KvDelete(*request); });
}

grpc::ServerUnaryReactor* CoordinatorService::KvIncrement(grpc::CallbackServerContext* ctx,
                                                          const v1::KvIncrementRequest* request,
                                                          v1::KvIncrementResponse* response) {
  return Unary(ctx, request->header(), [&] { return server_->state().KvIncrement(*request, response); });
}

grpc::ServerUnaryReactor* CoordinatorService::KvCompareAndSwap(grpc::CallbackServerContext* ctx,
                                                               const v1::KvCasRequest* request,
                                                               v1::KvCasResponse* response) {
  return Unary(ctx, request->header(), [&] { return server_->state().KvCompareAndSwap(*request, response); });
}

grpc::ServerUnaryReactor* CoordinatorService::Barrier(grpc::CallbackServerContext* ctx,
                                                      const v1::BarrierRequest* request,
                                                      v1::BarrierResponse* response) {
  return Parked(ctx, request->header(), [&](Completion done) {
    return server_->state().Barrier(*request, response, std::move(done));
  });
}

grpc::ServerUnaryReactor* CoordinatorService::CancelBarrier(grpc::CallbackServerContext* ctx,
                                                            const v1::CancelBarrierRequest* request,
                                                            v1::CancelBarrierResponse*) {
  return Unary(ctx, request->header(), [&] { return server_->state().CancelBarrier(*request); });
}

grpc::ServerUnaryReactor* CoordinatorService::AgreeLiveProcesses(
    grpc::CallbackServerContext* ctx, const v1::AgreeLiveRequest* request,
    v1::AgreeLiveResponse* response) {
  return Parked(ctx, request->header(), [&](Completion done) {
    return server_->state().AgreeLive(*request, response, std::move(done));
  });
}

grpc::ServerUnaryReactor* CoordinatorService::Shutdown(grpc::CallbackServerContext* ctx,
                                                       const v1::ShutdownRequest* request,
                                                       v1::ShutdownResponse* response) {
  CoordinatorState* state = &server_->state();
  return Parked(ctx, request->header(), [&](Completion done) {
    // Completions run outside the state's lock, after the shutdown's events
    // were appended: the version read here covers them.
    return state->Shutdown(*request, [state, response, done = std::move(done)](absl::Status status) {
      if (status.ok()) response->set_events_version(state->event_version());
      done(std::move(status));
    });
  });
}

}  // namespace

absl::StatusOr<std::unique_ptr<CoordinatorServer>> CoordinatorServer::Start(
    const ClusterConfig& config) {
  if (config.num_processes < 1 || config.num_processes > INT32_MAX) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'num_processes' must be >= 1, got ", config.num_processes));
  }
  if (config.require_auth && config.job_token.empty()) {
    return absl::FailedPreconditionError(
        "require_auth is set but no job token is configured (set TESSERA_JOB_TOKEN or "
        "TESSERA_JOB_TOKEN_FILE); the coordinator refuses to start unauthenticated");
  }
  if (absl::Status s = CheckWireId("job_id", config.job_id); !s.ok()) return s;
  // The bind address, or the wildcard address on the coordinator address's port.
  HostPort bind;
  if (config.bind_address) {
    bind = *config.bind_address;
  } else if (config.coordinator_address) {
    bind = HostPort{"0.0.0.0", config.coordinator_address->port.value_or(0)};
  } else {
    return absl::InvalidArgumentError(
        "The coordinator needs a bind address or a coordinator address; neither is set");
  }
  if (!bind.port.has_value()) bind.port = 0;
  if (absl::Status s = ProbeBind(bind); !s.ok()) return s;
  const std::string address = AddressText(config.coordinator_address ? config.coordinator_address : bind);
  auto server = std::make_unique<CoordinatorServerImpl>(config, address);
  if (absl::Status s = server->Serve(bind); !s.ok()) return s;
  return std::unique_ptr<CoordinatorServer>(std::move(server));
}

}  // namespace tessera::cluster
