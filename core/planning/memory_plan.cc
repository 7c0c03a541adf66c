// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/planning/memory_plan.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/planning/element_types.h"
#include "core/planning/kv_cache.h"
#include "core/status_macros.h"

namespace tessera::planning {
namespace {

absl::Status Overflow(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("the plan's ", what, " exceed 2^63-1 bytes"));
}

// total += value, or INVALID_ARGUMENT naming `what` on overflow.
absl::Status Add(int64_t* total, int64_t value, absl::string_view what) {
  if (__builtin_add_overflow(*total, value, total)) return Overflow(what);
  return absl::OkStatus();
}

absl::StatusOr<int64_t> Mul(int64_t a, int64_t b, absl::string_view what) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return Overflow(what);
  return product;
}

// Elements and bytes of a box of `type` with these extents.
struct BoxSize {
  int64_t elements = 1;
  int64_t bytes = 0;
};

absl::StatusOr<BoxSize> SizeOf(absl::Span<const int64_t> extents, const checkpoint::ElementType& type) {
  BoxSize size;
  int64_t outer = 1;
  for (size_t d = 0; d < extents.size(); ++d) {
    TESSERA_ASSIGN_OR_RETURN(size.elements, Mul(size.elements, extents[d], "elements"));
    if (d + 1 < extents.size()) {
      TESSERA_ASSIGN_OR_RETURN(outer, Mul(outer, extents[d], "elements"));
    }
  }
  const int64_t inner = extents.empty() ? 1 : extents.back();
  TESSERA_ASSIGN_OR_RETURN(size.bytes, Mul(outer, InnermostBytes(type, inner), "weights"));
  return size;
}

// Where the tensors of one (rule, shape, type) go; shared by all of them.
struct Placement {
  LayoutPtr layout;
  checkpoint::ElementType type;
  std::vector<int64_t> shard_shape;
  BoxSize shard;
  std::string problem;
  // Set only when devices hold different bytes.
  std::optional<Sharding> uneven;
  int64_t count = 0;  // tensors placed here
};

using PlacementKey = std::tuple<int64_t, std::vector<int64_t>, std::string, int64_t, int64_t>;

// The sharding counted for `layout`: the asked mode, else uneven chunks
// when only divisibility failed, else replicated. Sets `problem` unless the
// asked mode worked.
absl::StatusOr<Sharding> CountedSharding(const LayoutPtr& layout, const std::vector<int64_t>& shape,
                                         ShardMode mode, const MeshPtr& mesh, std::string* problem) {
  absl::StatusOr<Sharding> sharding = Sharding::Create(*layout, shape, mode);
  if (sharding.ok()) return sharding;
  *problem = std::string(sharding.status().message());
  if (layout->rank() == shape.size()) {
    sharding = Sharding::Create(*layout, shape, ShardMode::kChunkFlat);
    if (sharding.ok()) return sharding;
  }
  TESSERA_ASSIGN_OR_RETURN(TensorLayout replicated, TensorLayout::Replicated(shape.size(), mesh));
  return Sharding::Create(replicated, shape, ShardMode::kChunkFlat);
}

// Each split dimension cut into equal shards: every device holds the
// largest shard. k * ceil(n/k) == n exactly when k divides n.
absl::StatusOr<bool> IsEven(const Sharding& sharding) {
  for (size_t d = 0; d < sharding.rank(); ++d) {
    TESSERA_ASSIGN_OR_RETURN(int64_t shards, sharding.layout().ShardCount(d));
    if (sharding.shape()[d] % shards != 0) return false;
  }
  return true;
}

absl::StatusOr<Placement> Place(const LayoutPtr& layout, const std::vector<int64_t>& shape,
                                const checkpoint::ElementType& type, const MeshPtr& mesh, ShardMode mode,
                                std::string problem) {
  Placement placement{layout, type, {}, {}, {}, std::nullopt, 0};
  std::string sharding_problem;
  TESSERA_ASSIGN_OR_RETURN(Sharding sharding, CountedSharding(layout, shape, mode, mesh, &sharding_problem));
  if (problem.empty()) problem = std::move(sharding_problem);
  placement.shard_shape = sharding.max_shard_shape();
  // A quantized block is the smallest readable piece: a shard boundary
  // inside one cannot be loaded (contract 3).
  if (problem.empty() && type.block_elements > 1 && !shape.empty()) {
    const int64_t inner = placement.shard_shape.back();
    if (inner != shape.back() && inner % type.block_elements != 0) {
      problem = absl::StrCat("dimension ", shape.size() - 1, " of size ", shape.back(), " is cut into shards of ",
                             inner, " elements, which split ", type.name, "'s blocks of ", type.block_elements,
                             " elements");
    }
  }
  TESSERA_ASSIGN_OR_RETURN(placement.shard, SizeOf(placement.shard_shape, type));
  TESSERA_ASSIGN_OR_RETURN(bool even, IsEven(sharding));
  if (!even) placement.uneven.emplace(std::move(sharding));
  placement.problem = std::move(problem);
  return placement;
}

// Per-device sums of the tensors' shards: bytes, elements, and elements of
// 16-bit tensors (master weights).
struct Totals {
  int64_t bytes = 0, elements = 0, sixteen_bit = 0;

  absl::Status Add(const BoxSize& box, int64_t count, bool sixteen_bit_type) {
    TESSERA_ASSIGN_OR_RETURN(int64_t b, Mul(box.bytes, count, "weights"));
    TESSERA_ASSIGN_OR_RETURN(int64_t e, Mul(box.elements, count, "elements"));
    TESSERA_RETURN_IF_ERROR(planning::Add(&bytes, b, "weights"));
    TESSERA_RETURN_IF_ERROR(planning::Add(&elements, e, "elements"));
    if (sixteen_bit_type) TESSERA_RETURN_IF_ERROR(planning::Add(&sixteen_bit, e, "elements"));
    return absl::OkStatus();
  }
};

// Visits the devices once for all `placement.count` tensors placed alike.
absl::Status SpreadUneven(const Placement& placement, std::vector<Totals>* per_device) {
  const Sharding& sharding = *placement.uneven;
  std::vector<IndexRange> ranges(sharding.rank());
  std::vector<int64_t> extents(sharding.rank());
  const bool sixteen_bit = IsSixteenBitFloat(placement.type);
  for (int64_t device = 0; device < sharding.num_devices(); ++device) {
    TESSERA_RETURN_IF_ERROR(sharding.DeviceRanges(device, absl::MakeSpan(ranges)));
    for (size_t d = 0; d < ranges.size(); ++d) extents[d] = ranges[d].size();
    TESSERA_ASSIGN_OR_RETURN(BoxSize box, SizeOf(extents, placement.type));
    TESSERA_RETURN_IF_ERROR((*per_device)[device].Add(box, placement.count, sixteen_bit));
  }
  return absl::OkStatus();
}

// Tensors cut unevenly along one dimension only: a device's bytes depend on
// nothing but its shard index along that dimension (the mixed-radix number
// of its coordinates on the dimension's axes), so such tensors add into one
// table per axis group, O(shards) each, spread over the devices once.
struct ShardTable {
  std::vector<size_t> axes;  // mesh axes of the dimension, major first
  std::vector<Totals> by_shard;
};

// The only dimension whose shards differ, or -1 when there are several.
absl::StatusOr<int> OnlyUnevenDimension(const Sharding& sharding) {
  int found = -1;
  for (size_t d = 0; d < sharding.rank(); ++d) {
    TESSERA_ASSIGN_OR_RETURN(int64_t shards, sharding.layout().ShardCount(d));
    if (sharding.shape()[d] % shards == 0) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(d);
  }
  return found;
}

std::vector<size_t> AxisIndices(const DeviceMesh& mesh, const AxisGroup& names) {
  std::vector<size_t> axes;
  for (const std::string& name : names) {
    axes.push_back(std::find(mesh.axis_names().begin(), mesh.axis_names().end(), name) - mesh.axis_names().begin());
  }
  return axes;
}

std::vector<int64_t> Strides(const DeviceMesh& mesh) {
  std::vector<int64_t> strides(mesh.rank(), 1);
  for (size_t a = mesh.rank(); a-- > 1;) strides[a - 1] = strides[a] * mesh.shape()[a];
  return strides;
}

// Adds `placement` (uneven along `dim` only) to `table`: each shard index's
// box, read from the sharding at a device holding that index.
absl::Status AddToTable(const Placement& placement, size_t dim, const DeviceMesh& mesh, ShardTable* table) {
  const Sharding& sharding = *placement.uneven;
  TESSERA_ASSIGN_OR_RETURN(int64_t shards, sharding.layout().ShardCount(dim));
  if (table->by_shard.empty()) table->by_shard.resize(shards);
  const std::vector<int64_t> strides = Strides(mesh);
  std::vector<int64_t> extents = placement.shard_shape;  // the even dimensions' shards
  std::vector<IndexRange> ranges(sharding.rank());
  for (int64_t index = 0; index < shards; ++index) {
    int64_t device = 0, rest = index;
    for (size_t i = table->axes.size(); i-- > 0;) {
      const size_t axis = table->axes[i];
      device += rest % mesh.shape()[axis] * strides[axis];
      rest /= mesh.shape()[axis];
    }
    TESSERA_RETURN_IF_ERROR(sharding.DeviceRanges(device, absl::MakeSpan(ranges)));
    extents[dim] = ranges[dim].size();
    TESSERA_ASSIGN_OR_RETURN(BoxSize box, SizeOf(extents, placement.type));
    TESSERA_RETURN_IF_ERROR(table->by_shard[index].Add(box, placement.count, IsSixteenBitFloat(placement.type)));
  }
  return absl::OkStatus();
}

absl::Status SpreadTable(const ShardTable& table, const DeviceMesh& mesh, std::vector<Totals>* per_device) {
  const std::vector<int64_t> strides = Strides(mesh);
  for (int64_t device = 0; device < mesh.size(); ++device) {
    int64_t index = 0;
    for (size_t axis : table.axes) index = index * mesh.shape()[axis] + device / strides[axis] % mesh.shape()[axis];
    const Totals& add = table.by_shard[index];
    Totals& totals = (*per_device)[device];
    TESSERA_RETURN_IF_ERROR(Add(&totals.bytes, add.bytes, "weights"));
    TESSERA_RETURN_IF_ERROR(Add(&totals.elements, add.elements, "elements"));
    TESSERA_RETURN_IF_ERROR(Add(&totals.sixteen_bit, add.sixteen_bit, "elements"));
  }
  return absl::OkStatus();
}

absl::Status CheckSettings(const PlanSettings& settings, int64_t num_devices) {
  const size_t n = settings.capacities.size();
  if (n > 1 && n != static_cast<size_t>(num_devices)) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'capacities' has ", n, " entries; expected 1 or ",
                                                   num_devices, " (the mesh's devices)"));
  }
  for (size_t i = 0; i < n; ++i) {
    if (settings.capacities[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'capacities[", i, "]' is ", settings.capacities[i],
                                                     "; expected bytes >= 0"));
    }
  }
  if (settings.batch < 0 || settings.seq_len < 0) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'batch' is ", settings.batch, " and 'seq_len' is ",
                                                   settings.seq_len, "; expected both >= 0"));
  }
  return absl::OkStatus();
}

// The KV cache term of every device (0 when none is planned).
absl::StatusOr<int64_t> KvCacheBytes(const checkpoint::Checkpoint& checkpoint, const DeviceMesh& mesh,
                                     const PlanSettings& settings, MemoryPlan* plan) {
  if (settings.recipe != Recipe::kInference || settings.batch == 0 || settings.seq_len == 0) return 0;
  KvCachePlan& kv = plan->kv_cache;
  std::optional<AttentionShape> attention = settings.attention;
  if (!attention.has_value()) {
    TESSERA_ASSIGN_OR_RETURN(attention, ReadAttentionShape(checkpoint));
  }
  if (!attention.has_value()) {
    kv.not_planned =
        "the checkpoint does not say its layers, KV heads and head dimension (GGUF metadata or a config.json "
        "beside the model); give them explicitly";
    return 0;
  }
  kv.attention = *attention;
  if (settings.kv_type.has_value()) {
    kv.type = *settings.kv_type;
  } else if (settings.dtype.has_value()) {
    kv.type = *settings.dtype;
  } else {
    kv.type = checkpoint::ElementType{"F16", 1, 2};
  }
  return PlanKvCache(settings.batch, settings.seq_len, mesh, plan->tensors, &kv);
}

}  // namespace

const char* TermName(Term term) {
  switch (term) {
    case Term::kWeights: return "weights";
    case Term::kKvCache: return "kv_cache";
    case Term::kGradients: return "gradients";
    case Term::kOptimizerState: return "optimizer_state";
    case Term::kMasterWeights: return "master_weights";
  }
  return "?";
}

RuleMatches MatchRules(const checkpoint::Checkpoint& checkpoint, const LayoutMap& map) {
  RuleMatches matches;
  matches.rules.reserve(checkpoint.tensors.size());
  matches.problems.resize(checkpoint.tensors.size());
  for (size_t i = 0; i < checkpoint.tensors.size(); ++i) {
    absl::StatusOr<int64_t> rule = map.Find(checkpoint.tensors[i].name);
    matches.rules.push_back(rule.ok() ? *rule : -1);
    if (!rule.ok()) matches.problems[i] = std::string(rule.status().message());
  }
  return matches;
}

absl::StatusOr<MemoryPlan> PlanMemory(const checkpoint::Checkpoint& checkpoint, const LayoutMap& map,
                                      const PlanSettings& settings) {
  if (map.mesh() == nullptr) {
    return absl::InvalidArgumentError("Argument 'layout_map' has no mesh; expected a layout map with a mesh");
  }
  std::vector<LayoutPtr> layouts;
  for (size_t i = 0; i < map.size(); ++i) layouts.push_back(map.layout(i));
  return PlanMemory(checkpoint, MatchRules(checkpoint, map), layouts, map.mesh(), settings);
}

absl::StatusOr<MemoryPlan> PlanMemory(const checkpoint::Checkpoint& checkpoint, const RuleMatches& matches,
                                      absl::Span<const LayoutPtr> rule_layouts, const MeshPtr& mesh,
                                      const PlanSettings& settings) {
  const int64_t num_devices = mesh->size();
  TESSERA_RETURN_IF_ERROR(CheckSettings(settings, num_devices));
  MemoryPlan plan;
  plan.recipe = settings.recipe;
  plan.tensors.reserve(checkpoint.tensors.size());
  std::vector<Placement> placements;
  absl::flat_hash_map<PlacementKey, size_t> placement_of;
  absl::flat_hash_map<size_t, LayoutPtr> replicated_of_rank;
  Totals uniform;
  for (size_t i = 0; i < checkpoint.tensors.size(); ++i) {
    const checkpoint::Tensor& tensor = checkpoint.tensors[i];
    TensorPlan row{tensor.name, settings.dtype.value_or(tensor.type), tensor.shape, matches.rules[i], nullptr, {},
                   0, matches.problems[i]};
    auto [it, inserted] = placement_of.try_emplace(
        PlacementKey{row.problem.empty() ? row.rule : -2, tensor.shape, row.type.name, row.type.block_elements,
                     row.type.block_bytes},
        placements.size());
    if (inserted) {
      LayoutPtr layout;
      if (row.rule >= 0) {
        layout = rule_layouts[row.rule];
      } else {
        LayoutPtr& replicated = replicated_of_rank[tensor.shape.size()];
        if (replicated == nullptr) {
          TESSERA_ASSIGN_OR_RETURN(TensorLayout made, TensorLayout::Replicated(tensor.shape.size(), mesh));
          replicated = std::make_shared<const TensorLayout>(std::move(made));
        }
        layout = replicated;
      }
      TESSERA_ASSIGN_OR_RETURN(Placement placement,
                               Place(layout, tensor.shape, row.type, mesh, settings.mode, row.problem));
      placements.push_back(std::move(placement));
    }
    Placement& placement = placements[it->second];
    ++placement.count;
    row.layout = placement.layout;
    row.shard_shape = placement.shard_shape;
    row.shard_bytes = placement.shard.bytes;
    if (row.problem.empty()) row.problem = placement.problem;
    plan.num_flagged += !row.problem.empty();
    TESSERA_ASSIGN_OR_RETURN(BoxSize whole, SizeOf(tensor.shape, row.type));
    TESSERA_RETURN_IF_ERROR(Add(&plan.num_parameters, whole.elements, "elements"));
    TESSERA_RETURN_IF_ERROR(Add(&plan.weight_bytes, whole.bytes, "weights"));
    plan.tensors.push_back(std::move(row));
  }
  std::vector<Totals> per_device;
  absl::flat_hash_map<AxisGroup, ShardTable> tables;
  for (const Placement& placement : placements) {
    if (!placement.uneven.has_value()) {
      TESSERA_RETURN_IF_ERROR(uniform.Add(placement.shard, placement.count, IsSixteenBitFloat(placement.type)));
      continue;
    }
    if (per_device.empty()) per_device.resize(num_devices);
    TESSERA_ASSIGN_OR_RETURN(int dim, OnlyUnevenDimension(*placement.uneven));
    if (dim < 0) {
      TESSERA_RETURN_IF_ERROR(SpreadUneven(placement, &per_device));
      continue;
    }
    const AxisGroup& names = placement.uneven->layout().axes()[dim];
    ShardTable& table = tables[names];
    if (table.axes.empty()) table.axes = AxisIndices(*mesh, names);
    TESSERA_RETURN_IF_ERROR(AddToTable(placement, dim, *mesh, &table));
  }
  for (const auto& [names, table] : tables) TESSERA_RETURN_IF_ERROR(SpreadTable(table, *mesh, &per_device));
  TESSERA_ASSIGN_OR_RETURN(int64_t kv_bytes, KvCacheBytes(checkpoint, *mesh, settings, &plan));
  plan.devices.resize(num_devices);
  for (int64_t d = 0; d < num_devices; ++d) {
    Totals totals = uniform;
    if (!per_device.empty()) {
      TESSERA_RETURN_IF_ERROR(Add(&totals.bytes, per_device[d].bytes, "weights"));
      TESSERA_RETURN_IF_ERROR(Add(&totals.elements, per_device[d].elements, "elements"));
      TESSERA_RETURN_IF_ERROR(Add(&totals.sixteen_bit, per_device[d].sixteen_bit, "elements"));
    }
    DeviceMemory& memory = plan.devices[d];
    auto& terms = memory.terms;
    terms[static_cast<size_t>(Term::kWeights)] = totals.bytes;
    terms[static_cast<size_t>(Term::kKvCache)] = kv_bytes;
    if (settings.recipe == Recipe::kTraining) {
      terms[static_cast<size_t>(Term::kGradients)] = totals.bytes;
      TESSERA_ASSIGN_OR_RETURN(terms[static_cast<size_t>(Term::kOptimizerState)],
                               Mul(totals.elements, 8, "optimizer state"));
      TESSERA_ASSIGN_OR_RETURN(terms[static_cast<size_t>(Term::kMasterWeights)],
                               Mul(totals.sixteen_bit, 4, "master weights"));
    }
    for (int64_t term : terms) TESSERA_RETURN_IF_ERROR(Add(&memory.peak, term, "per-device bytes"));
    if (!settings.capacities.empty()) memory.capacity = settings.capacities[settings.capacities.size() == 1 ? 0 : d];
  }
  return plan;
}

}  // namespace tessera::planning
