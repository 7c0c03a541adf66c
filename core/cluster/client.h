// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The client agent: one process's membership in a job (registration,
// heartbeats, the event stream, KV, barriers, shutdown).
//
// Scale: no thread per client. Heartbeats of every client in the process are
// issued by one shared scheduler thread as asynchronous RPCs (none while a
// call the coordinator answered within the interval already served as one);
// the event stream is a gRPC callback reactor, one per channel for clients
// that share a grpc::Channel (ClientOptions::channel); event callbacks and
// the completions of ConnectAsync/BarrierAsync run on one shared dispatcher
// thread. 10,000 clients in one process are therefore feasible
// (benchmarks/cluster_clients_bench).
//
// Thread safety: every method is thread-safe; the destructor must not run
// concurrently with another call, nor inside an event callback.
//
// Failure: once the job fails (a job_error event, or a call failing with
// REASON_JOB_FAILED) every later call returns that ABORTED error (sticky);
// losing the coordinator makes every later call return UNAVAILABLE with
// REASON_COORDINATOR_LOST. Nothing aborts the process.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_H_
#define TESSERA_CORE_CLUSTER_CLIENT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/coordinator_server.h"
#include "core/device.h"
#include "tessera/v1/coordinator.pb.h"

namespace grpc {
class Channel;
}  // namespace grpc

namespace tessera::cluster {

// The protocol version every Header carries (coordinator.proto).
inline constexpr uint32_t kProtocolVersion = 1;

// Internal knobs of one client (not in the C ABI).
struct ClientOptions {
  // A channel to share with other clients (benchmarks); null: the client
  // dials config.coordinator_address itself.
  std::shared_ptr<grpc::Channel> channel;
  // With its own channel: its own TCP connection too. Otherwise channels with
  // identical arguments share one connection through gRPC's global subchannel
  // pool.
  bool own_connection = false;
  // WaitForJob brings the job's devices too, so the first topology() needs
  // no call of its own (initialize: one client per process). Off, WaitForJob
  // learns the topology's fingerprint and generation only (10,000 clients of
  // one process would each parse every device).
  bool devices_with_job = false;
  // What Register reports; unset: this host (hostname, boot_id, pid) and the
  // local devices chosen by config.local_device_ids.
  std::optional<v1::HostInfo> host;
  std::optional<std::vector<v1::LocalDevice>> devices;
  // Random when unset.
  std::optional<uint64_t> incarnation;
  // An in-process coordinator the client owns (process 0 under initialize):
  // stopped after the client, once the job has ended or at once.
  std::unique_ptr<CoordinatorServer> server;
  // Runs last when the client is destroyed (initialize() restores local
  // discovery with it).
  std::function<void()> on_destroy;
};

// One notification. Numbers of Kind match tessera_event_kind_t.
struct ClientEvent {
  enum class Kind {
    kTaskChanged = 0,
    kJobError = 1,
    kShutdownStarted = 2,
    kTopologyChanged = 3,
    kCoordinatorLost = 4,
  };
  Kind kind = Kind::kTaskChanged;
  int64_t process_id = -1;
  v1::TaskState task_state = v1::TASK_STATE_UNSPECIFIED;
  absl::StatusCode code = absl::StatusCode::kOk;
  std::string message;
  int64_t generation = 0;
  int64_t version = 0;
};

using EventCallback = std::function<void(const ClientEvent&)>;

struct KvEntry {
  std::string key;
  std::string value;
  int64_t version = 0;
};

struct CompareAndSwapResult {
  bool swapped = false;
  std::optional<std::string> current;  // the value after the call; none when absent
};

struct LiveProcesses {
  std::vector<int64_t> live;
  std::vector<uint64_t> incarnations;
  int64_t generation = 0;
};

class Client {
 public:
  // Registers (retrying unreachable coordinators with jittered backoff until
  // config.init_timeout), starts heartbeats and the event stream, then waits
  // for every process and returns with the global topology.
  // A single-process config without an address connects nowhere: the client
  // then serves KV, barriers and agreement from local state.
  static absl::StatusOr<std::unique_ptr<Client>> Connect(const ClusterConfig& config,
                                                         ClientOptions options = {});

  // Connect in two halves, so one thread can bring up many clients (the
  // 10,000-client benchmarks): Register returns once this process is
  // registered (heartbeats and events running); WaitForJob then waits (until
  // the init deadline) for every process: for the job-start event on the
  // stream, as ConnectAsync does, or with devices_with_job for the
  // coordinator's WaitForJob answer with the devices. Idempotent once it
  // succeeded; CancelAll ends the wait (CANCELLED).
  static absl::StatusOr<std::unique_ptr<Client>> Register(const ClusterConfig& config,
                                                          ClientOptions options = {});
  absl::Status WaitForJob();

  // Asynchronous calls: many clients per thread (10,000 in one process need
  // no 10,000 threads). Each returns at once and runs its callback exactly
  // once, later, on the shared dispatcher thread (the one that runs event
  // callbacks), with what the blocking call would have returned. Callbacks
  // must be short and must not block: no blocking call of any client, no
  // waiting for another asynchronous call, no destroying a client; they hold
  // up the completions and events of every client in the process.
  using ConnectCallback = std::function<void(absl::StatusOr<std::unique_ptr<Client>>)>;
  using StatusCallback = std::function<void(absl::Status)>;

  // Connect without blocking: registration (retried with the same backoff
  // until config.init_timeout), heartbeats, the event stream, then waiting
  // for every process. The job's start comes on the event stream (the
  // coordinator's job-start event carries the topology's fingerprint): no
  // WaitForJob is parked per client, unless options.devices_with_job, an
  // older coordinator, or the init deadline less min(1 s, init_timeout / 4)
  // (whose answer names the processes that never came) asks for one.
  // `done` receives the connected client (the caller owns it from then on)
  // or the error; invalid configs too. An owned
  // coordinator (options.server) is INVALID_ARGUMENT here: its client's
  // destructor waits for the job to end, which no callback may do.
  static void ConnectAsync(const ClusterConfig& config, ClientOptions options,
                           ConnectCallback done);
  // Barrier without blocking: same counting, rules and errors as Barrier.
  // The client must outlive the call: its destructor cancels the call
  // (`done` gets CANCELLED) and waits for `done` to finish.
  void BarrierAsync(const std::string& id, absl::Duration timeout,
                    const std::vector<int64_t>& participants, StatusCallback done);

  // Stops heartbeats and the stream without shutdown (the others see this
  // process stop heartbeating), then stops an owned coordinator.
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  int64_t process_id() const;
  int64_t num_processes() const;
  uint64_t incarnation() const;
  const std::string& coordinator_address() const;
  const ClusterConfig& config() const;
  // The job's topology (devices by global id, hosts, ...). WaitForJob learns
  // only its fingerprint and generation; the first call fetches the rest
  // from the coordinator (so it may fail like any call), later calls copy it.
  absl::StatusOr<v1::GlobalTopology> topology() const;
  uint64_t fingerprint() const;
  int64_t generation() const;
  // The job's devices: global id, owning process, local ordinal (through
  // topology(): the first call asks the coordinator).
  absl::StatusOr<std::vector<Device>> Devices() const;

  // Key-value store (coordinator.md §6.3).
  // `value` is a view: it is copied only once it passed the size check.
  absl::Status KvSet(const std::string& key, absl::string_view value, bool allow_overwrite);
  absl::StatusOr<std::string> KvGet(const std::string& key, absl::Duration timeout);
  absl::StatusOr<std::string> KvTryGet(const std::string& key);
  absl::StatusOr<std::vector<KvEntry>> KvList(const std::string& prefix);
  absl::Status KvDelete(const std::string& key, bool recursive);
  absl::StatusOr<int64_t> KvIncrement(const std::string& key, int64_t delta);
  absl::StatusOr<CompareAndSwapResult> KvCompareAndSwap(const std::string& key,
                                                        const std::optional<std::string>& expected,
                                                        const std::string& desired);

  // Barrier `id` among `participants` (empty: all). The client counts the
  // uses of each id; a second concurrent use of one id from this client is
  // FAILED_PRECONDITION.
  absl::Status Barrier(const std::string& id, absl::Duration timeout,
                       const std::vector<int64_t>& participants);
  // Cancels the ongoing use of `id` (or, when none is ongoing, the next one).
  absl::Status CancelBarrier(const std::string& id);
  absl::StatusOr<LiveProcesses> AgreeLiveProcesses(const std::vector<int64_t>& candidates,
                                                   absl::Duration timeout);

  // A fatal error of this process, propagated to the job.
  absl::Status ReportError(absl::StatusCode code, const std::string& message);

  // Installs (or with an empty function removes) the event callback, run on
  // the shared dispatcher thread. Events queue for NextEvent only while no
  // callback is installed. Returns once a running callback has finished.
  void SetEventCallback(EventCallback callback);
  // The next queued event, waiting up to `timeout`: DEADLINE_EXCEEDED when
  // none came, CANCELLED after CancelAll.
  absl::StatusOr<ClientEvent> NextEvent(absl::Duration timeout);

  // Makes every blocking call in progress return CANCELLED. Any thread.
  void CancelAll();

  // Joins the shutdown barrier, then disconnects. Idempotent once it
  // succeeded; later calls other than Shutdown are FAILED_PRECONDITION.
  absl::Status Shutdown();

  // OK, or the sticky error (job failed / coordinator lost).
  absl::Status sticky_error() const;

  struct State;  // shared with the asynchronous machinery (client_state.h)

 private:
  explicit Client(std::shared_ptr<State> state);
  std::shared_ptr<State> state_;
};

// The coordinator-lost rule: the error every call returns once the client
// has gone `since` without an answered heartbeat (`timeout` allowed).
absl::Status CoordinatorLostError(const std::string& address, absl::Duration since,
                                  absl::Duration timeout, const absl::Status& last_error);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_CLIENT_H_
