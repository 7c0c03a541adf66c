// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/client.h: the structured detail of cluster errors (reason, source
// process, arrived and missing processes), read without parsing messages;
// ErrorDetailOf copies it out of the status when the error is made.
#include "capi/error_detail.h"
#include "capi/client_handles.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/cluster/error_detail.h"
#include "tessera/client.h"
#include "tessera/v1/coordinator.pb.h"

namespace {

namespace v1 = tessera::v1;

// The C enums carry the protobuf numbers unchanged.
static_assert(static_cast<int>(TESSERA_REASON_JOB_FAILED) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_JOB_FAILED));
static_assert(static_cast<int>(TESSERA_REASON_COORDINATOR_LOST) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_COORDINATOR_LOST));
static_assert(static_cast<int>(TESSERA_REASON_BARRIER_FAILED) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_BARRIER_FAILED));
static_assert(static_cast<int>(TESSERA_REASON_DUPLICATE_PROCESS) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_DUPLICATE_PROCESS));
static_assert(static_cast<int>(TESSERA_REASON_SUPERSEDED) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_SUPERSEDED));
static_assert(static_cast<int>(TESSERA_REASON_WRONG_JOB) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_WRONG_JOB));
static_assert(static_cast<int>(TESSERA_REASON_AUTHENTICATION) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_AUTHENTICATION));
static_assert(static_cast<int>(TESSERA_REASON_NEVER_CONNECTED) == static_cast<int>(v1::CoordinatorErrorDetail::REASON_NEVER_CONNECTED));
static_assert(static_cast<int>(TESSERA_TASK_NEVER_CONNECTED) == static_cast<int>(v1::TASK_STATE_NEVER_CONNECTED));
static_assert(static_cast<int>(TESSERA_TASK_PENDING) == static_cast<int>(v1::TASK_STATE_PENDING));
static_assert(static_cast<int>(TESSERA_TASK_RUNNING) == static_cast<int>(v1::TASK_STATE_RUNNING));
static_assert(static_cast<int>(TESSERA_TASK_DISCONNECTED) == static_cast<int>(v1::TASK_STATE_DISCONNECTED));
static_assert(static_cast<int>(TESSERA_TASK_FAILED) == static_cast<int>(v1::TASK_STATE_FAILED));

tessera_error_reason_t Reason(int32_t reason) {
  if (reason < TESSERA_REASON_NONE || reason > TESSERA_REASON_NEVER_CONNECTED) return TESSERA_REASON_NONE;
  return static_cast<tessera_error_reason_t>(reason);
}

}  // namespace

namespace tessera::capi {

ErrorDetail ErrorDetailOf(const absl::Status& status) {
  ErrorDetail result;
  const auto detail = cluster::DetailOf(status);
  if (!detail.has_value()) return result;
  result.reason = static_cast<int32_t>(detail->reason());
  result.source_process = detail->source_process_id();
  const auto& missing = detail->has_barrier() ? detail->barrier().missing() : detail->missing();
  for (const auto& task : missing) {
    result.missing.push_back(task.process_id());
    result.missing_states.push_back(static_cast<int32_t>(task.state()));
    result.missing_waiting_at.push_back(task.waiting_at_size() > 0 ? task.waiting_at(0) : "");
  }
  if (detail->has_barrier()) {
    result.arrived.assign(detail->barrier().arrived().begin(), detail->barrier().arrived().end());
  }
  return result;
}

tessera_task_state_t TaskState(int32_t state) {
  if (state < TESSERA_TASK_NEVER_CONNECTED || state > TESSERA_TASK_FAILED) {
    return TESSERA_TASK_NEVER_CONNECTED;
  }
  return static_cast<tessera_task_state_t>(state);
}

size_t ProcessIndex(int64_t process_id) {
  return process_id < 0 ? TESSERA_NO_INDEX : static_cast<size_t>(process_id);
}

}  // namespace tessera::capi

using tessera::capi::ProcessIndex;

tessera_error_reason_t tessera_error_reason(const tessera_error* error,
                                            tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(error, Reason(error->detail.reason));
}

size_t tessera_error_source_process(const tessera_error* error,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(error, ProcessIndex(error->detail.source_process));
}

size_t tessera_error_num_missing(const tessera_error* error, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(error, error->detail.missing.size());
}

size_t tessera_error_missing_process(const tessera_error* error, size_t index,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(error, index, error->detail.missing.size(), "the missing processes",
                            ProcessIndex(error->detail.missing[index]));
}

tessera_task_state_t tessera_error_missing_state(const tessera_error* error, size_t index,
                                                 tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(error, index, error->detail.missing.size(), "the missing processes",
                            tessera::capi::TaskState(error->detail.missing_states[index]));
}

const char* tessera_error_missing_waiting_at(const tessera_error* error, size_t index,
                                             tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(error, index, error->detail.missing.size(), "the missing processes",
                            error->detail.missing_waiting_at[index].c_str());
}

size_t tessera_error_num_arrived(const tessera_error* error, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(error, error->detail.arrived.size());
}

size_t tessera_error_arrived_process(const tessera_error* error, size_t index,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(error, index, error->detail.arrived.size(), "the arrived processes",
                            ProcessIndex(error->detail.arrived[index]));
}
