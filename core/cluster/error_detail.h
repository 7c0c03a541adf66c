// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Structured coordinator errors: a CoordinatorErrorDetail rides with the
// status (an absl payload inside the library, grpc::Status error_details on
// the wire), so callers and the C ABI read reasons, missing processes and
// barrier state without parsing messages.
#ifndef TESSERA_CORE_CLUSTER_ERROR_DETAIL_H_
#define TESSERA_CORE_CLUSTER_ERROR_DETAIL_H_

#include <optional>

#include "absl/status/status.h"
#include "tessera/v1/coordinator.pb.h"

namespace grpc {
class Status;
}  // namespace grpc

namespace tessera::cluster {

inline constexpr char kErrorDetailUrl[] = "type.googleapis.com/tessera.v1.CoordinatorErrorDetail";

// `status` with `detail` attached (replacing any earlier one). OK stays OK.
absl::Status WithDetail(absl::Status status, const v1::CoordinatorErrorDetail& detail);

// The detail attached to `status`, if any.
std::optional<v1::CoordinatorErrorDetail> DetailOf(const absl::Status& status);

// Whether `status` carries a detail with `reason`.
bool HasReason(const absl::Status& status, v1::CoordinatorErrorDetail::Reason reason);

// Between absl and gRPC statuses, keeping code, message and detail.
grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_ERROR_DETAIL_H_
