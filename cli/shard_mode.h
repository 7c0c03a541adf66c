// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The --shard-mode option of every command that takes one (load, reshard,
// show, plan): one spelling of the modes' names, the names core gives them
// (ShardModeName in core/shard.h, the index file's "shard_mode"), and one
// error for anything else.
#ifndef TESSERA_CLI_SHARD_MODE_H_
#define TESSERA_CLI_SHARD_MODE_H_

#include <string>

#include "tessera/tessera.h"

namespace tessera_cli {

// The mode named `text` ("strict", "chunk-flat" or "chunk-nested"). InputError
// "--shard-mode '<text>': expected strict, chunk-flat or chunk-nested".
tessera_shard_mode_t ParseShardMode(const std::string& text);

// "strict", "chunk-flat" or "chunk-nested".
const char* ShardModeName(tessera_shard_mode_t mode);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_SHARD_MODE_H_
