// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera coordinator`: a standalone coordinator service for one job, run by
// a launcher (or by hand) when process 0 should not host it. Built only on the
// public C ABI (tessera/coordinator.h).
#ifndef TESSERA_CLI_COORDINATOR_H_
#define TESSERA_CLI_COORDINATOR_H_

#include <string>
#include <vector>

namespace tessera_cli {

// Runs the arguments after "coordinator" until the job ends (every process
// shut down, the shutdown barrier expired, or the job failed and every
// process is gone) or SIGINT/SIGTERM. Returns the exit status: 0 when the job
// ended, 1 when the service failed to start, 2 for bad usage.
int RunCoordinator(const std::vector<std::string>& args);

extern const char kCoordinatorHelp[];

}  // namespace tessera_cli

#endif  // TESSERA_CLI_COORDINATOR_H_
