// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// ggml's tensor types as GGUF stores them: the id in a tensor info, the name
// ggml prints, and the block (elements per block, bytes per block) from
// ggml.c's type_traits. Ids ggml removed (Q4_2, Q4_3, the Q4_0_x_y and
// IQ4_NL_x_y repacks) are unknown here, as they are to ggml's GGUF reader.
#ifndef TESSERA_CORE_CHECKPOINT_GGUF_TYPES_H_
#define TESSERA_CORE_CHECKPOINT_GGUF_TYPES_H_

#include <cstdint>
#include <optional>

#include "core/checkpoint/checkpoint.h"

namespace tessera::checkpoint {

// The type with ggml id `id`, or nullopt for an id ggml does not define.
std::optional<ElementType> GgmlType(uint32_t id);

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_GGUF_TYPES_H_
