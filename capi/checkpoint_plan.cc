// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/checkpoint_plan.h: memory plans and the mesh search
// through the C ABI.
#include "tessera/experimental/checkpoint_plan.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "capi/checkpoint_handle.h"
#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/planning/element_types.h"
#include "core/planning/memory_plan.h"
#include "core/planning/mesh_search.h"

struct tessera_checkpoint_plan_options {
  tessera::planning::PlanSettings impl;
  // set_device_capacities was called: its count must be the mesh's even
  // when it is 1 (the core reads one entry as "every device").
  bool per_device_capacities = false;
};

struct tessera_checkpoint_plan {
  tessera::planning::MemoryPlan impl;
};

struct tessera_checkpoint_plan_search {
  std::vector<tessera::planning::Candidate> impl;
};

using tessera::capi::Guard;
using tessera::capi::SetOption;
using tessera::planning::PlannedElementType;

namespace {

constexpr const char* kRecipeNames[] = {"TESSERA_PLAN_RECIPE_INFERENCE", "TESSERA_PLAN_RECIPE_TRAINING"};
static_assert(TESSERA_PLAN_RECIPE_INFERENCE == static_cast<int>(tessera::planning::Recipe::kInference));
static_assert(TESSERA_PLAN_RECIPE_TRAINING == static_cast<int>(tessera::planning::Recipe::kTraining));

constexpr const char* kTermNames[] = {"TESSERA_PLAN_TERM_WEIGHTS", "TESSERA_PLAN_TERM_KV_CACHE",
                                      "TESSERA_PLAN_TERM_GRADIENTS", "TESSERA_PLAN_TERM_OPTIMIZER_STATE",
                                      "TESSERA_PLAN_TERM_MASTER_WEIGHTS"};
static_assert(TESSERA_PLAN_TERM_WEIGHTS == static_cast<int>(tessera::planning::Term::kWeights));
static_assert(TESSERA_PLAN_TERM_KV_CACHE == static_cast<int>(tessera::planning::Term::kKvCache));
static_assert(TESSERA_PLAN_TERM_GRADIENTS == static_cast<int>(tessera::planning::Term::kGradients));
static_assert(TESSERA_PLAN_TERM_OPTIMIZER_STATE == static_cast<int>(tessera::planning::Term::kOptimizerState));
static_assert(TESSERA_PLAN_TERM_MASTER_WEIGHTS == static_cast<int>(tessera::planning::Term::kMasterWeights));
static_assert(TESSERA_PLAN_VERDICT_UNKNOWN == static_cast<int>(tessera::planning::Verdict::kUnknown));
static_assert(TESSERA_PLAN_VERDICT_FITS == static_cast<int>(tessera::planning::Verdict::kFits));
static_assert(TESSERA_PLAN_VERDICT_DOES_NOT_FIT == static_cast<int>(tessera::planning::Verdict::kDoesNotFit));

const tessera::planning::PlanSettings& SettingsOf(const tessera_checkpoint_plan_options* options) {
  static const tessera::planning::PlanSettings* const defaults = new tessera::planning::PlanSettings();
  return options == nullptr ? *defaults : options->impl;
}

// INVALID_ARGUMENT unless per-device capacities, when given, number the
// mesh's devices.
absl::Status CheckCapacities(const tessera_checkpoint_plan_options* options, const tessera::LayoutMap& map) {
  if (options == nullptr || !options->per_device_capacities || map.mesh() == nullptr) return absl::OkStatus();
  const size_t n = options->impl.capacities.size();
  if (n == static_cast<size_t>(map.mesh()->size())) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument 'options' has ", n, " device capacities; expected ",
                                                 map.mesh()->size(), " (the mesh's devices)"));
}

absl::Status CheckCount(int64_t value, const char* name, int64_t least) {
  if (value >= least) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Argument '", name, "' is ", value, "; expected a whole number >= ", least));
}

// The setters of --dtype and --kv-dtype: `dtype` named as the header says.
bool SetElementType(tessera_checkpoint_plan_options* options, const char* dtype,
                    std::optional<tessera::checkpoint::ElementType> tessera::planning::PlanSettings::*field,
                    tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_checkpoint_plan_options& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(dtype);
    TESSERA_ASSIGN_OR_RETURN(o.impl.*field, PlannedElementType(dtype, "dtype"));
    return absl::OkStatus();
  });
}

absl::Status CheckTensor(const tessera_checkpoint_plan* plan, size_t index) {
  return tessera::capi::CheckNotNullAndIndex(
      plan, "plan", index, "index", [&] { return plan->impl.tensors.size(); }, "the plan's tensors");
}

absl::Status CheckDevice(const tessera_checkpoint_plan* plan, size_t index) {
  return tessera::capi::CheckNotNullAndIndex(
      plan, "plan", index, "index", [&] { return plan->impl.devices.size(); }, "the plan's devices");
}

}  // namespace

#define TESSERA_PLAN_TENSOR(...) TESSERA_CAPI_GET_IF(CheckTensor(plan, index), __VA_ARGS__)
#define TESSERA_PLAN_DEVICE(...) TESSERA_CAPI_GET_IF(CheckDevice(plan, index), __VA_ARGS__)
#define TESSERA_SEARCH_CANDIDATE(...) \
  TESSERA_CAPI_GET_AT(search, index, search->impl.size(), "the search's candidates", __VA_ARGS__)

tessera_checkpoint_plan_options* tessera_checkpoint_plan_options_create(void) noexcept {
  return new (std::nothrow) tessera_checkpoint_plan_options();
}

void tessera_checkpoint_plan_options_destroy(tessera_checkpoint_plan_options* options) noexcept { delete options; }

bool tessera_checkpoint_plan_options_set_recipe(tessera_checkpoint_plan_options* options,
                                                tessera_plan_recipe_t recipe, tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_checkpoint_plan_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.impl.recipe, tessera::capi::ToCoreEnum<tessera::planning::Recipe>(
                                                recipe, kRecipeNames, "recipe"));
    return absl::OkStatus();
  });
}

bool tessera_checkpoint_plan_options_set_dtype(tessera_checkpoint_plan_options* options, const char* dtype,
                                               tessera_error** out_error) noexcept {
  return SetElementType(options, dtype, &tessera::planning::PlanSettings::dtype, out_error);
}

bool tessera_checkpoint_plan_options_set_kv_cache(tessera_checkpoint_plan_options* options, int64_t batch,
                                                  int64_t seq_len, tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_checkpoint_plan_options& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckCount(batch, "batch", 0));
    TESSERA_RETURN_IF_ERROR(CheckCount(seq_len, "seq_len", 0));
    o.impl.batch = batch;
    o.impl.seq_len = seq_len;
    return absl::OkStatus();
  });
}

bool tessera_checkpoint_plan_options_set_attention_shape(tessera_checkpoint_plan_options* options,
                                                         int64_t num_layers, int64_t num_kv_heads, int64_t head_dim,
                                                         tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_checkpoint_plan_options& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckCount(num_layers, "num_layers", 1));
    TESSERA_RETURN_IF_ERROR(CheckCount(num_kv_heads, "num_kv_heads", 1));
    TESSERA_RETURN_IF_ERROR(CheckCount(head_dim, "head_dim", 1));
    o.impl.attention = tessera::planning::AttentionShape{num_layers, num_kv_heads, head_dim, "given"};
    return absl::OkStatus();
  });
}

bool tessera_checkpoint_plan_options_set_kv_dtype(tessera_checkpoint_plan_options* options, const char* dtype,
                                                  tessera_error** out_error) noexcept {
  return SetElementType(options, dtype, &tessera::planning::PlanSettings::kv_type, out_error);
}

bool tessera_checkpoint_plan_options_set_capacity(tessera_checkpoint_plan_options* options, int64_t bytes,
                                                  tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_checkpoint_plan_options& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckCount(bytes, "bytes", 0));
    o.impl.capacities = {bytes};
    o.per_device_capacities = false;
    return absl::OkStatus();
  });
}

bool tessera_checkpoint_plan_options_set_device_capacities(tessera_checkpoint_plan_options* options,
                                                           const int64_t* bytes, size_t num_devices,
                                                           tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_checkpoint_plan_options& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE_ARRAY(bytes, num_devices);
    for (size_t i = 0; i < num_devices; ++i) {
      if (bytes[i] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Argument 'bytes[", i, "]' is ", bytes[i], "; expected a whole number >= 0"));
      }
    }
    o.impl.capacities.assign(bytes, bytes + num_devices);
    o.per_device_capacities = true;
    return absl::OkStatus();
  });
}

bool tessera_checkpoint_plan_options_set_shard_mode(tessera_checkpoint_plan_options* options,
                                                    tessera_shard_mode_t mode, tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_checkpoint_plan_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.impl.mode,
                             tessera::capi::ToCoreEnum<tessera::ShardMode>(mode, tessera::capi::kShardModeNames, "mode"));
    return absl::OkStatus();
  });
}

tessera_checkpoint_plan* tessera_checkpoint_plan_create(const tessera_checkpoint* checkpoint,
                                                        const tessera_layout_map* layout_map,
                                                        const tessera_checkpoint_plan_options* options,
                                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_checkpoint_plan*> {
    TESSERA_CAPI_REQUIRE(checkpoint);
    TESSERA_CAPI_REQUIRE(layout_map);
    TESSERA_RETURN_IF_ERROR(CheckCapacities(options, layout_map->impl));
    TESSERA_ASSIGN_OR_RETURN(tessera::planning::MemoryPlan plan,
                             tessera::planning::PlanMemory(checkpoint->impl, layout_map->impl, SettingsOf(options)));
    return new tessera_checkpoint_plan{std::move(plan)};
  });
}

void tessera_checkpoint_plan_destroy(tessera_checkpoint_plan* plan) noexcept { delete plan; }

size_t tessera_checkpoint_plan_num_tensors(const tessera_checkpoint_plan* plan, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.tensors.size());
}

const char* tessera_checkpoint_plan_tensor_element_type(const tessera_checkpoint_plan* plan, size_t index,
                                                        tessera_error** out_error) noexcept {
  return TESSERA_PLAN_TENSOR(plan->impl.tensors[index].type.name.c_str());
}

bool tessera_checkpoint_plan_tensor_rule(const tessera_checkpoint_plan* plan, size_t index, size_t* out,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_RETURN_IF_ERROR(CheckTensor(plan, index));
    TESSERA_CAPI_REQUIRE(out);
    const int64_t rule = plan->impl.tensors[index].rule;
    *out = rule < 0 ? TESSERA_NO_INDEX : static_cast<size_t>(rule);
    return absl::OkStatus();
  });
}

tessera_layout* tessera_checkpoint_plan_tensor_layout(const tessera_checkpoint_plan* plan, size_t index,
                                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_RETURN_IF_ERROR(CheckTensor(plan, index));
    return new tessera_layout{plan->impl.tensors[index].layout};
  });
}

size_t tessera_checkpoint_plan_tensor_shard_shape(const tessera_checkpoint_plan* plan, size_t index, int64_t* out,
                                                  size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(CheckTensor(plan, index), plan->impl.tensors[index].shard_shape);
}

int64_t tessera_checkpoint_plan_tensor_shard_bytes(const tessera_checkpoint_plan* plan, size_t index,
                                                   tessera_error** out_error) noexcept {
  return TESSERA_PLAN_TENSOR(plan->impl.tensors[index].shard_bytes);
}

const char* tessera_checkpoint_plan_tensor_problem(const tessera_checkpoint_plan* plan, size_t index,
                                                   tessera_error** out_error) noexcept {
  return TESSERA_PLAN_TENSOR(plan->impl.tensors[index].problem.c_str());
}

int64_t tessera_checkpoint_plan_num_parameters(const tessera_checkpoint_plan* plan,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.num_parameters);
}

int64_t tessera_checkpoint_plan_weight_bytes(const tessera_checkpoint_plan* plan, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.weight_bytes);
}

size_t tessera_checkpoint_plan_num_devices(const tessera_checkpoint_plan* plan, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.devices.size());
}

int64_t tessera_checkpoint_plan_device_term_bytes(const tessera_checkpoint_plan* plan, size_t index,
                                                  tessera_plan_term_t term, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<int64_t> {
    TESSERA_RETURN_IF_ERROR(CheckDevice(plan, index));
    TESSERA_ASSIGN_OR_RETURN(tessera::planning::Term core_term,
                             tessera::capi::ToCoreEnum<tessera::planning::Term>(term, kTermNames, "term"));
    return plan->impl.devices[index].terms[static_cast<size_t>(core_term)];
  });
}

int64_t tessera_checkpoint_plan_device_peak_bytes(const tessera_checkpoint_plan* plan, size_t index,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_PLAN_DEVICE(plan->impl.devices[index].peak);
}

int64_t tessera_checkpoint_plan_device_capacity_bytes(const tessera_checkpoint_plan* plan, size_t index,
                                                      tessera_error** out_error) noexcept {
  return TESSERA_PLAN_DEVICE(plan->impl.devices[index].capacity);
}

tessera_plan_verdict_t tessera_checkpoint_plan_device_verdict(const tessera_checkpoint_plan* plan, size_t index,
                                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_plan_verdict_t> {
    TESSERA_RETURN_IF_ERROR(CheckDevice(plan, index));
    return static_cast<tessera_plan_verdict_t>(plan->impl.devices[index].verdict());
  });
}

const char* tessera_checkpoint_plan_kv_cache_sharding(const tessera_checkpoint_plan* plan,
                                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.kv_cache.planned ? plan->impl.kv_cache.sharding.c_str()
                                                             : plan->impl.kv_cache.not_planned.c_str());
}

tessera_checkpoint_plan_search* tessera_checkpoint_plan_search_create(const tessera_checkpoint* checkpoint,
                                                                      const tessera_layout_map* const* layout_maps,
                                                                      size_t num_layout_maps,
                                                                      const tessera_checkpoint_plan_options* options,
                                                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_checkpoint_plan_search*> {
    TESSERA_CAPI_REQUIRE(checkpoint);
    TESSERA_CAPI_REQUIRE_ARRAY(layout_maps, num_layout_maps);
    std::vector<const tessera::LayoutMap*> maps;
    for (size_t i = 0; i < num_layout_maps; ++i) {
      if (layout_maps[i] == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("Argument 'layout_maps[", i, "]' is NULL; expected a valid pointer"));
      }
      maps.push_back(&layout_maps[i]->impl);
    }
    if (!maps.empty()) TESSERA_RETURN_IF_ERROR(CheckCapacities(options, *maps[0]));
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::planning::Candidate> candidates,
                             tessera::planning::SearchMeshes(checkpoint->impl, maps, SettingsOf(options)));
    return new tessera_checkpoint_plan_search{std::move(candidates)};
  });
}

void tessera_checkpoint_plan_search_destroy(tessera_checkpoint_plan_search* search) noexcept { delete search; }

size_t tessera_checkpoint_plan_search_num_candidates(const tessera_checkpoint_plan_search* search,
                                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(search, search->impl.size());
}

size_t tessera_checkpoint_plan_search_candidate_mesh_shape(const tessera_checkpoint_plan_search* search,
                                                           size_t index, int64_t* out, size_t capacity,
                                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(
      tessera::capi::CheckNotNullAndIndex(
          search, "search", index, "index", [&] { return search->impl.size(); }, "the search's candidates"),
      search->impl[index].mesh_shape);
}

size_t tessera_checkpoint_plan_search_candidate_layout_map(const tessera_checkpoint_plan_search* search,
                                                           size_t index, tessera_error** out_error) noexcept {
  return TESSERA_SEARCH_CANDIDATE(search->impl[index].map_index);
}

int64_t tessera_checkpoint_plan_search_candidate_peak_bytes(const tessera_checkpoint_plan_search* search,
                                                            size_t index, tessera_error** out_error) noexcept {
  return TESSERA_SEARCH_CANDIDATE(search->impl[index].peak_bytes);
}

const char* tessera_checkpoint_plan_search_candidate_problem(const tessera_checkpoint_plan_search* search,
                                                             size_t index, tessera_error** out_error) noexcept {
  return TESSERA_SEARCH_CANDIDATE(search->impl[index].problem.c_str());
}
