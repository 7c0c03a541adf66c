// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera status --coordinator ADDR`: who is stuck where in a running job,
// asked of its coordinator (tessera_job_status_query), one line per process.
// Built only on the public C ABI.
#ifndef TESSERA_CLI_STATUS_H_
#define TESSERA_CLI_STATUS_H_

#include <string>
#include <vector>

namespace tessera_cli {

// Runs the arguments after "status"; prints the job's state and a table of
// its processes. Returns 0 when the coordinator answered, 1 when it did not,
// 2 for bad usage.
int RunStatus(const std::vector<std::string>& args);

extern const char kStatusHelp[];

}  // namespace tessera_cli

#endif  // TESSERA_CLI_STATUS_H_
