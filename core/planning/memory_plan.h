// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Memory planning of a checkpoint on a mesh: per tensor its layout and
// largest shard, per device the bytes of each memory term and their peak,
// against the device's capacity.
//
// Tensor -> layout: the layout map looked up with the tensor's name (no
// rule: replicated). A tensor whose layout does not fit its shape (rank, or
// in strict mode a dimension its shard count does not divide, or a GGUF
// quantized block cut by a shard) is flagged with the reason and still
// counted: uneven chunks (ceil(n/k), as chunk-flat) where the ranks agree,
// whole on every device otherwise.
//
// Terms (each per device, all resident at once, so the peak is their sum;
// activations are not modelled):
//   weights          each tensor's shard at its element type (the planned
//                    dtype when one is given);
//   kv_cache         (inference, with a batch and sequence length) 2 x layers
//                    x batch x seq_len x kv_heads x head_dim x the KV element
//                    type's bytes, divided as kv_cache.h says;
//   gradients        (training) as the weights, same sharding and type;
//   optimizer_state  (training) Adam's two moments, f32: 8 bytes per element
//                    of each shard;
//   master_weights   (training) an f32 copy, 4 bytes per element of each
//                    shard whose type is 16-bit (F16, BF16).
//
// Speed: per-device totals never visit tensors x devices. A tensor whose
// every split dimension divides evenly gives every device the same bytes,
// added once to a uniform part. Tensors of one (rule, shape, type) share one
// computed placement. A placement cut unevenly along one dimension adds
// O(shards of that dimension) to a table per axis group, each table spread
// over the devices once; only a placement uneven along several dimensions
// visits every device itself.
#ifndef TESSERA_CORE_PLANNING_MEMORY_PLAN_H_
#define TESSERA_CORE_PLANNING_MEMORY_PLAN_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/checkpoint/checkpoint.h"
#include "core/layout.h"
#include "core/layout_map.h"
#include "core/planning/attention_shape.h"
#include "core/shard.h"

namespace tessera::planning {

// Numbers match tessera_plan_recipe_t in the C ABI.
enum class Recipe { kInference = 0, kTraining = 1 };

// Numbers match tessera_plan_term_t in the C ABI.
enum class Term { kWeights = 0, kKvCache = 1, kGradients = 2, kOptimizerState = 3, kMasterWeights = 4 };
inline constexpr size_t kNumTerms = 5;

// "weights", "kv_cache", "gradients", "optimizer_state", "master_weights".
const char* TermName(Term term);

// Numbers match tessera_plan_verdict_t in the C ABI.
enum class Verdict { kUnknown = 0, kFits = 1, kDoesNotFit = 2 };

struct PlanSettings {
  Recipe recipe = Recipe::kInference;
  std::optional<checkpoint::ElementType> dtype;  // cast every tensor to this
  ShardMode mode = ShardMode::kStrict;
  // KV cache (inference): both > 0 to plan one.
  int64_t batch = 0;
  int64_t seq_len = 0;
  std::optional<AttentionShape> attention;       // else read from the checkpoint
  std::optional<checkpoint::ElementType> kv_type;  // else the dtype, else F16
  // Bytes per device: empty unknown, one value for every device, or one per
  // device in mesh order.
  std::vector<int64_t> capacities;
};

struct TensorPlan {
  std::string name;
  checkpoint::ElementType type;  // as planned (after a cast)
  std::vector<int64_t> shape;
  int64_t rule = -1;             // the layout map's rule, -1 for none
  LayoutPtr layout;              // the rule's layout, or replicated
  std::vector<int64_t> shard_shape;  // the largest shard
  int64_t shard_bytes = 0;
  std::string problem;           // empty when the layout fits
};

struct DeviceMemory {
  std::array<int64_t, kNumTerms> terms{};
  int64_t peak = 0;
  int64_t capacity = -1;  // -1 unknown

  Verdict verdict() const {
    return capacity < 0 ? Verdict::kUnknown : peak <= capacity ? Verdict::kFits : Verdict::kDoesNotFit;
  }
};

struct KvCachePlan {
  bool planned = false;
  AttentionShape attention;
  checkpoint::ElementType type;
  int64_t total_bytes = 0;  // the whole cache, before sharding
  std::string sharding;     // how it is divided, for reports
  std::string not_planned;  // why there is none, when a batch was asked for
};

struct MemoryPlan {
  Recipe recipe = Recipe::kInference;
  std::vector<TensorPlan> tensors;  // in checkpoint order
  std::vector<DeviceMemory> devices;  // in mesh order
  KvCachePlan kv_cache;
  int64_t num_parameters = 0;
  int64_t weight_bytes = 0;  // unsharded, as planned
  size_t num_flagged = 0;
};

// Which rule each tensor's name selects: the rule index, -1 for none, or
// (in `problems`) the map's error when several patterns match.
struct RuleMatches {
  std::vector<int64_t> rules;
  std::vector<std::string> problems;
};
RuleMatches MatchRules(const checkpoint::Checkpoint& checkpoint, const LayoutMap& map);

// Plans `checkpoint` with `map` (which must have a mesh). INVALID_ARGUMENT
// for a map without a mesh, capacities of another count than 1 or the mesh's
// devices (or negative), a batch or sequence length < 0, an unreadable
// config.json, or totals over 2^63-1 bytes.
absl::StatusOr<MemoryPlan> PlanMemory(const checkpoint::Checkpoint& checkpoint, const LayoutMap& map,
                                      const PlanSettings& settings);

// As above with the rule matches already made and each rule's layout on
// `mesh` (rule_layouts[i] for rule i): the mesh search plans one map on many
// meshes without matching names again.
absl::StatusOr<MemoryPlan> PlanMemory(const checkpoint::Checkpoint& checkpoint, const RuleMatches& matches,
                                      absl::Span<const LayoutPtr> rule_layouts, const MeshPtr& mesh,
                                      const PlanSettings& settings);

}  // namespace tessera::planning

#endif  // TESSERA_CORE_PLANNING_MEMORY_PLAN_H_
