// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// How a KV cache is divided over a mesh (inference). The cache holds, per
// layer, keys and values of shape (batch, seq_len, kv_heads, head_dim):
// 2 x layers x batch x seq_len x kv_heads x head_dim elements.
//   - batch: over the first mesh axis named like a data axis (batch, data,
//     dp, fsdp) of size > 1 that divides the batch;
//   - KV heads: over the mesh axes the attention key weights are split over
//     (the first tensor, in checkpoint order, whose name says it holds keys:
//     k_proj, attn_k, c_attn, qkv, query_key_value, key), less the batch's
//     axis, when their sizes multiply to a divisor of the KV heads;
//   - replicated over every other axis.
// Every device then holds the same bytes. The plan says which of these
// applied, and why not when one did not.
#ifndef TESSERA_CORE_PLANNING_KV_CACHE_H_
#define TESSERA_CORE_PLANNING_KV_CACHE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/mesh.h"
#include "core/planning/memory_plan.h"

namespace tessera::planning {

// Fills `plan` (its attention and type already set) and returns the bytes
// each device holds. INVALID_ARGUMENT when the cache's bytes exceed 2^63-1.
absl::StatusOr<int64_t> PlanKvCache(int64_t batch, int64_t seq_len, const DeviceMesh& mesh,
                                    absl::Span<const TensorPlan> tensors, KvCachePlan* plan);

}  // namespace tessera::planning

#endif  // TESSERA_CORE_PLANNING_KV_CACHE_H_
