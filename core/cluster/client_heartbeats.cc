// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client_heartbeats.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/cluster/client_events.h"
#include "core/cluster/client_threads.h"
#include "core/cluster/error_detail.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster::internal {

absl::Duration HeartbeatRpcTimeout(const State& s) {
  return std::max(s.heartbeat_interval, std::min(absl::Seconds(1), s.heartbeat_timeout / 2));
}

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

}  // namespace tessera::cluster::internal
