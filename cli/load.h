// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera load`: one process's shards of a checkpoint, read through a read
// plan of the C ABI (tessera/experimental/checkpoint_load.h).
#ifndef TESSERA_CLI_LOAD_H_
#define TESSERA_CLI_LOAD_H_

#include <memory>
#include <string>
#include <vector>

#include "cli/handles.h"
#include "cli/load_options.h"

namespace tessera_cli {

// Runs the command on the arguments after "load": the lines on stdout, a
// progress bar on stderr when it is a terminal. Returns the exit status;
// InputError for bad usage, input the library refuses, or a failed read.
int RunLoad(const std::vector<std::string>& args);

using ReadOptions =
    std::unique_ptr<tessera_read_options, Destroyer<tessera_read_options, tessera_read_options_destroy>>;
using ReadPlan = std::unique_ptr<tessera_read_plan, Destroyer<tessera_read_plan, tessera_read_plan_destroy>>;

// The read options of `options` (process, shard mode, threads, staging, gap).
// InputError naming the option the library refuses.
ReadOptions MakeReadOptions(const LoadOptions& options);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_LOAD_H_
