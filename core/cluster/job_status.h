// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// "Who is stuck where" (issue 14): an operator's one-shot query of a running
// job's coordinator (GetJobState as process -1, with the job's credential)
// and its rendering as one line per process for `tessera status`.
#ifndef TESSERA_CORE_CLUSTER_JOB_STATUS_H_
#define TESSERA_CORE_CLUSTER_JOB_STATUS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/cluster/cluster_config.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster {

// The job's state from the coordinator at config.coordinator_address, using
// config.job_id, job_token and tls. The call's error (UNAVAILABLE when
// nothing answers, UNAUTHENTICATED for a wrong token, FAILED_PRECONDITION
// with REASON_WRONG_JOB for another job) when it fails; DEADLINE_EXCEEDED
// after `timeout`.
absl::StatusOr<v1::GetJobStateResponse> QueryJobState(const ClusterConfig& config, absl::Duration timeout);

// A task's state as `tessera status` prints it: "running", "never connected", ...
std::string TaskStateText(v1::TaskState state);

// What a task waits on: "barrier b1#0", "key config/ready", joined by ", ";
// "" when it waits on nothing.
std::string WaitingOnText(const v1::TaskInfo& task);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_JOB_STATUS_H_
