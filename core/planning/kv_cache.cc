// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/planning/kv_cache.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/planning/element_types.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera::planning {
namespace {

constexpr const char* kDataAxes[] = {"batch", "data", "dp", "fsdp"};
constexpr const char* kKeyWeights[] = {"k_proj", "attn_k", "c_attn", "qkv", "query_key_value", "key"};

bool IsDataAxis(const std::string& name) {
  for (const char* data : kDataAxes) {
    if (name == data) return true;
  }
  return false;
}

// The first tensor holding attention keys whose layout fits it, or nullptr.
const TensorPlan* KeyWeights(absl::Span<const TensorPlan> tensors) {
  for (const TensorPlan& tensor : tensors) {
    if (!tensor.problem.empty()) continue;
    for (const char* marker : kKeyWeights) {
      if (absl::StrContains(tensor.name, marker)) return &tensor;
    }
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<int64_t> PlanKvCache(int64_t batch, int64_t seq_len, const DeviceMesh& mesh,
                                    absl::Span<const TensorPlan> tensors, KvCachePlan* plan) {
  const AttentionShape& a = plan->attention;
  TESSERA_ASSIGN_OR_RETURN(
      int64_t elements,
      CheckedProduct({2, a.num_layers, batch, seq_len, a.num_kv_heads, a.head_dim}, "KV cache"));
  TESSERA_ASSIGN_OR_RETURN(plan->total_bytes, CheckedMul(elements / a.head_dim,
                                                         InnermostBytes(plan->type, a.head_dim),
                                                         "KV cache bytes"));
  int64_t batch_shards = 1;
  int64_t batch_axis = -1;
  for (size_t axis = 0; axis < mesh.rank(); ++axis) {
    const int64_t size = mesh.shape()[axis];
    if (IsDataAxis(mesh.axis_names()[axis]) && size > 1 && batch % size == 0) {
      batch_axis = static_cast<int64_t>(axis);
      batch_shards = size;
      break;
    }
  }
  std::string text = batch_axis < 0 ? absl::StrCat("batch ", batch, " not split (no data axis divides it)")
                                    : absl::StrCat("batch ", batch, " over '", mesh.axis_names()[batch_axis],
                                                   "' (", batch_shards, ")");
  int64_t head_shards = 1;
  std::vector<std::string> head_axes;
  const TensorPlan* keys = KeyWeights(tensors);
  if (keys != nullptr) {
    for (size_t axis = 0; axis < mesh.rank(); ++axis) {
      const std::string& name = mesh.axis_names()[axis];
      if (static_cast<int64_t>(axis) == batch_axis || mesh.shape()[axis] == 1) continue;
      for (const AxisGroup& group : keys->layout->axes()) {
        for (const std::string& used : group) {
          if (used == name) {
            head_axes.push_back(name);
            head_shards *= mesh.shape()[axis];
          }
        }
      }
    }
  }
  if (head_axes.empty()) {
    absl::StrAppend(&text, "; ", a.num_kv_heads, " KV heads not split (",
                    keys == nullptr ? "no attention key weights found"
                                    : absl::StrCat("'", keys->name, "' is not split over another axis"),
                    ")");
  } else if (a.num_kv_heads % head_shards != 0) {
    absl::StrAppend(&text, "; ", a.num_kv_heads, " KV heads not split (the axes of '", keys->name,
                    "' have ", head_shards, " shards, which do not divide them)");
    head_shards = 1;
  } else {
    absl::StrAppend(&text, "; ", a.num_kv_heads, " KV heads over '", absl::StrJoin(head_axes, "', '"), "' (",
                    head_shards, ", as '", keys->name, "')");
  }
  absl::StrAppend(&text, "; replicated over the other axes");
  plan->sharding = std::move(text);
  plan->planned = true;
  // Both divide their dimension, so the division is exact.
  return plan->total_bytes / batch_shards / head_shards;
}

}  // namespace tessera::planning
