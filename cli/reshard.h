// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera reshard`: what restoring a sharded Tessera checkpoint onto a mesh
// and layouts costs each process (bytes, files, ranges), and with --verify
// whether the restore gives every shard the stored bytes; through the C ABI
// (tessera/experimental/checkpoint_restore.h).
#ifndef TESSERA_CLI_RESHARD_H_
#define TESSERA_CLI_RESHARD_H_

#include <string>
#include <vector>

namespace tessera_cli {

extern const char kReshardHelp[];

// Runs the command on the arguments after "reshard". Returns the exit
// status (1 when --verify finds a shard that differs); InputError for bad
// usage, input the library refuses, or a failed read.
int RunReshard(const std::vector<std::string>& args);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_RESHARD_H_
