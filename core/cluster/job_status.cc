// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/job_status.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/cluster/auth.h"
#include "core/cluster/client.h"
#include "core/cluster/client_connect.h"
#include "core/cluster/coordinator_state.h"
#include "core/cluster/error_detail.h"
#include "core/status_macros.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster {

absl::StatusOr<v1::GetJobStateResponse> QueryJobState(const ClusterConfig& config, absl::Duration timeout) {
  if (!config.coordinator_address) {
    return absl::InvalidArgumentError("the job status query needs the coordinator's address");
  }
  TESSERA_ASSIGN_OR_RETURN(std::shared_ptr<grpc::Channel> channel,
                           internal::MakeChannel(config, /*own_connection=*/true));
  std::unique_ptr<v1::Coordinator::Stub> stub = v1::Coordinator::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  if (!config.job_token.empty()) {
    context.AddMetadata(kAuthMetadataKey, JobCredential(config.job_token, config.job_id));
  }
  v1::GetJobStateRequest request;
  request.mutable_header()->set_job_id(config.job_id);
  request.mutable_header()->set_process_id(CoordinatorState::kOperatorProcessId);
  request.mutable_header()->set_protocol_version(kProtocolVersion);
  v1::GetJobStateResponse response;
  const grpc::Status status = stub->GetJobState(&context, request, &response);
  if (!status.ok()) {
    absl::Status error = FromGrpcStatus(status);
    return absl::Status(error.code(), absl::StrCat("the coordinator at ", AddressText(config.coordinator_address),
                                                   ": ", error.message()));
  }
  return response;
}

std::string TaskStateText(v1::TaskState state) {
  switch (state) {
    case v1::TASK_STATE_NEVER_CONNECTED: return "never connected";
    case v1::TASK_STATE_PENDING: return "pending";
    case v1::TASK_STATE_RUNNING: return "running";
    case v1::TASK_STATE_DISCONNECTED: return "disconnected";
    case v1::TASK_STATE_FAILED: return "failed";
    default: return "unknown";
  }
}

std::string WaitingOnText(const v1::TaskInfo& task) {
  std::vector<std::string> parts;
  for (const std::string& barrier : task.waiting_at()) parts.push_back(absl::StrCat("barrier ", barrier));
  for (const std::string& key : task.waiting_for_keys()) parts.push_back(absl::StrCat("key ", key));
  return absl::StrJoin(parts, ", ");
}

}  // namespace tessera::cluster
