// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Connecting a client: the channel, registration with retries and jittered
// backoff until the init deadline, then heartbeats, the event stream and the
// job's topology. The steps are shared by Register/WaitForJob (blocking, in
// client.cc) and ConnectAsync (on the dispatcher thread, in client.cc).
// Private to the client (core/cluster/client*.cc): not installed, not in the
// C ABI.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_CONNECT_H_
#define TESSERA_CORE_CLUSTER_CLIENT_CONNECT_H_

#include <grpcpp/grpcpp.h>

#include <memory>

#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/cluster/client.h"
#include "core/cluster/client_state.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/connect_retry.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster::internal {

// ---- registration ----

// INVALID_ARGUMENT (or FAILED_PRECONDITION: a token required but missing)
// for a config no client can connect with; OK otherwise.
absl::Status ValidateConfig(const ClusterConfig& config);

// A channel to config.coordinator_address with the job's TLS settings, no
// proxy, and Tessera's redial backoff; `own_connection`: not shared with
// other channels to the same address. `attempt` > 0 makes a fresh one.
absl::StatusOr<std::shared_ptr<grpc::Channel>> MakeChannel(const ClusterConfig& config,
                                                           bool own_connection, int attempt = 0);

// A fresh channel for the next registration attempt. gRPC keeps a refused
// subchannel in TRANSIENT_FAILURE for its own backoff and fails fail-fast
// calls at once meanwhile, so a coordinator that came up is not seen until
// then; an argument unique to the attempt gives a new subchannel that dials
// now. (A channel the caller shares is kept as it is.)
absl::Status Redial(State& s, int attempt);

// Readies one registration attempt (header, credential, deadline) and
// returns its time budget.
absl::Duration PrepareAttempt(const State& s, absl::Time deadline, grpc::ClientContext* context,
                              v1::RegisterRequest* request);

// What one registration attempt returned.
absl::Status AttemptResult(const State& s, const grpc::Status& status);

// What follows a failed registration attempt that had `budget`: the delay
// before the next attempt, or the error that ends registration.
absl::StatusOr<absl::Duration> RetryDelay(const State& s, const absl::Status& status, int attempt,
                                          absl::Duration budget, absl::Time deadline,
                                          absl::Status* last_error, Backoff* backoff,
                                          absl::BitGen* gen);

// Registers on the calling thread, retrying (with Redial) until `deadline`.
absl::Status RegisterWithRetry(const std::shared_ptr<State>& s, v1::RegisterRequest& request,
                               absl::Time deadline, v1::RegisterResponse* response);

// ---- the steps of connecting, shared by Register/WaitForJob and ConnectAsync ----

// A new client's state (config validated): header, callbacks, and either
// local mode with its topology or `*request`, what to register with.
absl::StatusOr<std::shared_ptr<State>> NewState(const ClusterConfig& config, ClientOptions& options,
                                               v1::RegisterRequest* request);

// The credential and the channel: the caller's, or a new one.
absl::Status Dial(State& s, ClientOptions& options);

// Registered: adopts the coordinator's settings (and the job's topology,
// when the job already runs), then starts heartbeats (a process that dies
// while the job assembles is noticed) and the event stream.
void StartRegistered(const std::shared_ptr<State>& s, const v1::RegisterResponse& registered,
                     absl::Time init_deadline);

// The WaitForJob request: the time left until the init deadline, devices
// only when ClientOptions::devices_with_job.
v1::WaitForJobRequest JobWaitRequest(const State& s);

// Keeps the job's topology WaitForJob answered.
void ApplyJobTopology(State& s, const v1::GlobalTopology& topology);

}  // namespace tessera::cluster::internal

#endif  // TESSERA_CORE_CLUSTER_CLIENT_CONNECT_H_
