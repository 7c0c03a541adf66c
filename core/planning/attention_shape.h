// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The attention shape a KV cache is sized from (layers, KV heads, head
// dimension), read from what a checkpoint says of its model:
//   - GGUF: `general.architecture` = ARCH, then `ARCH.block_count`,
//     `ARCH.attention.head_count_kv` (else `ARCH.attention.head_count`: no
//     grouped-query attention), and `ARCH.attention.key_length` (else
//     `ARCH.embedding_length` / `ARCH.attention.head_count`), as llama.cpp
//     sizes its cache;
//   - safetensors: a `config.json` in the directory of the model's first
//     file, with Hugging Face's names `num_hidden_layers`,
//     `num_key_value_heads` (else `num_attention_heads`), `head_dim` (else
//     `hidden_size` / `num_attention_heads`); GPT-2's `n_layer`, `n_head`,
//     `n_embd` when those are absent.
#ifndef TESSERA_CORE_PLANNING_ATTENTION_SHAPE_H_
#define TESSERA_CORE_PLANNING_ATTENTION_SHAPE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "core/checkpoint/checkpoint.h"

namespace tessera::planning {

struct AttentionShape {
  int64_t num_layers = 0;
  int64_t num_kv_heads = 0;
  int64_t head_dim = 0;
  std::string source;  // where the numbers came from, for reports
};

// The shape the checkpoint says, or nullopt when it does not say all of it
// (no config.json, a key missing). INVALID_ARGUMENT for a config.json that
// is not JSON ("FILE: byte N: ...") or a count that is not a positive
// integer (naming the file or key and the value).
absl::StatusOr<std::optional<AttentionShape>> ReadAttentionShape(const checkpoint::Checkpoint& checkpoint);

}  // namespace tessera::planning

#endif  // TESSERA_CORE_PLANNING_ATTENTION_SHAPE_H_
