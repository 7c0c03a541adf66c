// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/error_detail.h"

#include <string>

#include <grpcpp/support/status.h>

#include "absl/strings/cord.h"

namespace tessera::cluster {

absl::Status WithDetail(absl::Status status, const v1::CoordinatorErrorDetail& detail) {
  if (status.ok()) return status;
  status.SetPayload(kErrorDetailUrl, absl::Cord(detail.SerializeAsString()));
  return status;
}

std::optional<v1::CoordinatorErrorDetail> DetailOf(const absl::Status& status) {
  auto payload = status.GetPayload(kErrorDetailUrl);
  if (!payload.has_value()) return std::nullopt;
  v1::CoordinatorErrorDetail detail;
  if (!detail.ParseFromString(std::string(*payload))) return std::nullopt;
  return detail;
}

bool HasReason(const absl::Status& status, v1::CoordinatorErrorDetail::Reason reason) {
  std::optional<v1::CoordinatorErrorDetail> detail = DetailOf(status);
  return detail.has_value() && detail->reason() == reason;
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  std::string details;
  if (auto payload = status.GetPayload(kErrorDetailUrl)) {
    details = std::string(*payload);
  }
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()),
                      details);
}

absl::Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  absl::Status result(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  v1::CoordinatorErrorDetail detail;
  if (!status.error_details().empty() && detail.ParseFromString(status.error_details())) {
    result = WithDetail(std::move(result), detail);
  }
  return result;
}

}  // namespace tessera::cluster
