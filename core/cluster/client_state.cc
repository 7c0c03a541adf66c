// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client_state.h"

#include <algorithm>
#include <utility>

#include "core/cluster/client_events.h"
#include "core/cluster/client_heartbeats.h"
#include "core/cluster/client_threads.h"
#include "core/cluster/error_detail.h"

namespace tessera::cluster::internal {

std::chrono::system_clock::time_point ToDeadline(absl::Time t) {
  return absl::ToChronoTime(t);
}

int64_t ToMillis(absl::Duration d) { return absl::ToInt64Milliseconds(d); }

bool SetStickyLocked(State& s, absl::Status error) ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
  if (!s.sticky.ok()) return false;
  s.sticky = std::move(error);
  s.CancelLiveCallsLocked();
  WakeJobWaiterLocked(s, s.sticky);
  return true;
}

void WakeJobWaiterLocked(State& s, std::optional<absl::Status> outcome)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
  if (!s.job_waiter) return;
  Dispatcher::Get().Post([waiter = std::exchange(s.job_waiter, nullptr),
                          outcome = std::move(outcome)]() mutable { waiter(std::move(outcome)); });
}

namespace {

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

}  // namespace

absl::Status JobFailedError(const v1::ErrorInfo& info) {
  return JobFailedError(info.source_process_id(), info.message(), {});
}

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
  return HasReason(status, v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
}

bool IsSuperseded(const absl::Status& status) {
  return HasReason(status, v1::CoordinatorErrorDetail::REASON_SUPERSEDED);
}

namespace {

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

}  // namespace

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
    DeliverEvent(s, JobErrorEvent(detail ? detail->source_process_id() : -1,
                                  detail && detail->job_error_code() != 0
                                      ? static_cast<absl::StatusCode>(detail->job_error_code())
                                      : reply.code(),
                                  std::string(reply.message())));
  }
  // The connection broke under the call: the coordinator-lost rule's
  // re-dial decides between a blip and a lost coordinator.
  *probe = !newly_failed && IsTransportFailure(status);
  return status;
}

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

absl::Status AfterCall(const std::shared_ptr<State>& s, absl::Status status) {
  bool probe = false;
  absl::Status result = RecordCallResult(s, std::move(status), &probe);
  if (!probe) return result;
  return ResultAfterProbe(s, std::move(result), ProbeCoordinator(*s));
}

void CallEndedLocked(State& s, absl::Time sent, const grpc::Status& status)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
  if (!status.ok()) return;
  s.last_answered_sent = std::max(s.last_answered_sent, sent);
  s.last_heartbeat_ok = std::max(s.last_heartbeat_ok, absl::Now());
}

absl::Time UnaryDeadline(const State& s) { return absl::Now() + s.config.rpc_timeout; }
absl::Time BlockingDeadline(absl::Duration timeout) {
  return absl::Now() + timeout + kBlockingMargin;
}

}  // namespace tessera::cluster::internal
