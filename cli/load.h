// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera load`: one process's shards of a checkpoint, read through a read
// plan of the C ABI (tessera/experimental/checkpoint_load.h).
#ifndef TESSERA_CLI_LOAD_H_
#define TESSERA_CLI_LOAD_H_

#include <string>
#include <vector>

namespace tessera_cli {

// Runs the command on the arguments after "load": the lines on stdout, a
// progress bar on stderr when it is a terminal. Returns the exit status;
// InputError for bad usage, input the library refuses, or a failed read.
int RunLoad(const std::vector<std::string>& args);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_LOAD_H_
