// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Heartbeats: every client's are issued by the shared scheduler thread as
// asynchronous RPCs; a tick with no heartbeat answered for the heartbeat
// timeout loses the coordinator. Private to the client
// (core/cluster/client*.cc): not installed, not in the C ABI.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_HEARTBEATS_H_
#define TESSERA_CORE_CLUSTER_CLIENT_HEARTBEATS_H_

#include <grpcpp/grpcpp.h>

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/cluster/client_state.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster::internal {

// One heartbeat RPC in flight (State::heartbeat). Shared: the stream's
// CancelAsync cancels it, and ProbeCoordinatorAsync sends one.
struct HeartbeatCall {
  grpc::ClientContext context;
  v1::HeartbeatRequest request;
  v1::HeartbeatResponse response;
};

// The timeout of one heartbeat RPC. Shared: every probe of the coordinator
// (ProbeCoordinator, ProbeCoordinatorAsync) is a heartbeat.
absl::Duration HeartbeatRpcTimeout(const State& s);

// Sends one heartbeat; `done` runs with its result on a gRPC thread.
// Shared: a broken stream probes with one (ProbeAfterBrokenStream).
void SendHeartbeat(const std::shared_ptr<State>& s,
                   std::function<void(const absl::Status&)> done);

// One scheduler tick of the client `weak`: past the heartbeat timeout
// without an answer it loses the coordinator (and ticks no more); otherwise
// it sends a heartbeat when due and schedules the next tick. Shared: a
// registered client starts ticking (StartRegistered).
void HeartbeatTick(const std::weak_ptr<State>& weak);

}  // namespace tessera::cluster::internal

#endif  // TESSERA_CORE_CLUSTER_CLIENT_HEARTBEATS_H_
