// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/shard_mode.h"

#include "cli/text_input.h"

namespace tessera_cli {

tessera_shard_mode_t ParseShardMode(const std::string& text) {
  return ParseChoice<tessera_shard_mode_t>(
      "--shard-mode", text,
      {{ShardModeName(TESSERA_SHARD_MODE_STRICT), TESSERA_SHARD_MODE_STRICT},
       {ShardModeName(TESSERA_SHARD_MODE_CHUNK_FLAT), TESSERA_SHARD_MODE_CHUNK_FLAT},
       {ShardModeName(TESSERA_SHARD_MODE_CHUNK_NESTED), TESSERA_SHARD_MODE_CHUNK_NESTED}});
}

const char* ShardModeName(tessera_shard_mode_t mode) {
  switch (mode) {
    case TESSERA_SHARD_MODE_CHUNK_FLAT: return "chunk-flat";
    case TESSERA_SHARD_MODE_CHUNK_NESTED: return "chunk-nested";
    default: return "strict";
  }
}

}  // namespace tessera_cli
