// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/plan_checkpoint.h"

#include "cli/shard_mode.h"
#include "cli/text_input.h"
#include "cli/variables.h"

namespace tessera_cli {
namespace {

using CheckpointPlan =
    std::unique_ptr<tessera_checkpoint_plan, Destroyer<tessera_checkpoint_plan, tessera_checkpoint_plan_destroy>>;

// Setting an option the parser already checked fails only on a bad name
// (--dtype, --kv-dtype), which the library words.
void Require(bool ok, const std::string& option, const std::string& value, tessera_error* error) {
  if (!ok) throw InputError(option + " '" + value + "': " + TakeMessage(error));
}

tessera_shard_mode_t ShardMode(const PlanOptions& options) {
  if (options.shard_mode) return *options.shard_mode;
  return options.check == TESSERA_SHAPE_CHECK_CHUNK ? TESSERA_SHARD_MODE_CHUNK_FLAT : TESSERA_SHARD_MODE_STRICT;
}

const tessera_plan_term_t kInferenceTerms[] = {TESSERA_PLAN_TERM_WEIGHTS, TESSERA_PLAN_TERM_KV_CACHE};
const tessera_plan_term_t kTrainingTerms[] = {TESSERA_PLAN_TERM_WEIGHTS, TESSERA_PLAN_TERM_GRADIENTS,
                                              TESSERA_PLAN_TERM_OPTIMIZER_STATE,
                                              TESSERA_PLAN_TERM_MASTER_WEIGHTS};

std::vector<tessera_plan_term_t> Terms(const PlanOptions& options) {
  if (options.recipe == "training") return {std::begin(kTrainingTerms), std::end(kTrainingTerms)};
  if (options.batch > 0 && options.seq_len > 0) return {std::begin(kInferenceTerms), std::end(kInferenceTerms)};
  return {TESSERA_PLAN_TERM_WEIGHTS};
}

const char* TermName(tessera_plan_term_t term) {
  switch (term) {
    case TESSERA_PLAN_TERM_KV_CACHE: return "kv_cache";
    case TESSERA_PLAN_TERM_GRADIENTS: return "gradients";
    case TESSERA_PLAN_TERM_OPTIMIZER_STATE: return "optimizer_state";
    case TESSERA_PLAN_TERM_MASTER_WEIGHTS: return "master_weights";
    default: return "weights";
  }
}

std::vector<int64_t> TensorShape(const tessera_checkpoint* checkpoint, size_t index) {
  std::vector<int64_t> dims(tessera_checkpoint_tensor_shape(checkpoint, index, nullptr, 0, nullptr));
  if (!dims.empty()) tessera_checkpoint_tensor_shape(checkpoint, index, dims.data(), dims.size(), nullptr);
  return dims;
}

Row TensorRow(const tessera_checkpoint* checkpoint, const tessera_checkpoint_plan* plan,
              const tessera_layout_map* map, size_t index) {
  Row row;
  row.name = tessera_checkpoint_tensor_name(checkpoint, index, nullptr);
  row.dtype = tessera_checkpoint_plan_tensor_element_type(plan, index, nullptr);
  row.dims = TensorShape(checkpoint, index);
  row.shape = FormatShape(row.dims);
  size_t rule = TESSERA_NO_INDEX;
  tessera_checkpoint_plan_tensor_rule(plan, index, &rule, nullptr);
  row.rule = rule == TESSERA_NO_INDEX ? "-" : tessera_layout_map_key(map, rule, nullptr);
  Layout layout(tessera_checkpoint_plan_tensor_layout(plan, index, nullptr));
  row.axes = AxesOf(layout.get());
  row.layout = FormatAxes(row.axes);
  row.shard_dims.resize(tessera_checkpoint_plan_tensor_shard_shape(plan, index, nullptr, 0, nullptr));
  if (!row.shard_dims.empty()) {
    tessera_checkpoint_plan_tensor_shard_shape(plan, index, row.shard_dims.data(), row.shard_dims.size(), nullptr);
  }
  row.shard_shape = FormatShape(row.shard_dims);
  row.shard_bytes = tessera_checkpoint_plan_tensor_shard_bytes(plan, index, nullptr);
  const std::string problem = tessera_checkpoint_plan_tensor_problem(plan, index, nullptr);
  row.fit = problem.empty() ? "ok" : problem;
  row.flagged = !problem.empty();
  return row;
}

}  // namespace

Checkpoint OpenCheckpoint(const std::string& path) {
  tessera_error* error = nullptr;
  Checkpoint checkpoint(tessera_checkpoint_open(path.c_str(), &error));
  if (!checkpoint) throw InputError("--checkpoint '" + path + "': " + TakeMessage(error));
  return checkpoint;
}

CheckpointPlanOptions MakeCheckpointPlanOptions(const PlanOptions& options, const Capacities& capacities) {
  CheckpointPlanOptions handle(tessera_checkpoint_plan_options_create());
  tessera_error* error = nullptr;
  tessera_checkpoint_plan_options* o = handle.get();
  Require(tessera_checkpoint_plan_options_set_recipe(
              o, options.recipe == "training" ? TESSERA_PLAN_RECIPE_TRAINING : TESSERA_PLAN_RECIPE_INFERENCE, &error),
          "--recipe", options.recipe, error);
  if (!options.dtype.empty()) {
    Require(tessera_checkpoint_plan_options_set_dtype(o, options.dtype.c_str(), &error), "--dtype", options.dtype,
            error);
  }
  if (!options.kv_dtype.empty()) {
    Require(tessera_checkpoint_plan_options_set_kv_dtype(o, options.kv_dtype.c_str(), &error), "--kv-dtype",
            options.kv_dtype, error);
  }
  Require(tessera_checkpoint_plan_options_set_kv_cache(o, options.batch, options.seq_len, &error), "--batch",
          std::to_string(options.batch), error);
  if (!options.attention.empty()) {
    Require(tessera_checkpoint_plan_options_set_attention_shape(o, options.attention[0], options.attention[1],
                                                                options.attention[2], &error),
            "--attention", "", error);
  }
  Require(tessera_checkpoint_plan_options_set_shard_mode(o, ShardMode(options), &error), "--shard-mode",
          ShardModeName(ShardMode(options)), error);
  if (capacities.bytes.size() == 1) {
    Require(tessera_checkpoint_plan_options_set_capacity(o, capacities.bytes[0], &error), "--capacity",
            options.capacity_text, error);
  } else if (!capacities.bytes.empty()) {
    Require(tessera_checkpoint_plan_options_set_device_capacities(o, capacities.bytes.data(), capacities.bytes.size(),
                                                                  &error),
            "--inventory", options.inventory_path, error);
  }
  return handle;
}

std::vector<std::string> TermNames(const PlanOptions& options) {
  std::vector<std::string> names;
  for (tessera_plan_term_t term : Terms(options)) names.push_back(TermName(term));
  return names;
}

RuleSet CheckpointRules(const std::string& path) {
  if (path.empty()) return {"none (every tensor replicated)", {}};
  return ParseRules(ReadFile(path, "--rules"), path);
}

Plan MakeCheckpointPlan(const PlanOptions& options) {
  Checkpoint checkpoint = OpenCheckpoint(options.checkpoint_path);
  RuleSet rules = CheckpointRules(options.rules_path);
  Mesh mesh = CreateMesh(options.mesh);
  LayoutMap map = CreateLayoutMap(mesh.get(), rules, options.match);
  const Capacities capacities = ResolveCapacities(options, options.mesh.num_devices);
  CheckpointPlanOptions plan_options = MakeCheckpointPlanOptions(options, capacities);
  tessera_error* error = nullptr;
  CheckpointPlan handle(tessera_checkpoint_plan_create(checkpoint.get(), map.get(), plan_options.get(), &error));
  if (!handle) throw InputError("--checkpoint '" + options.checkpoint_path + "': " + TakeMessage(error));
  const tessera_checkpoint_plan* plan_c = handle.get();

  Plan plan;
  plan.checkpoint = options.checkpoint_path;
  plan.mesh = MeshRepr(mesh.get());
  plan.devices = DescribeDevices(options.mesh);
  plan.rules = std::to_string(rules.rules.size()) + " from " + rules.source +
               (options.match == TESSERA_KEY_MATCH_FULL ? ", re.fullmatch" : ", re.search");
  const size_t num_tensors = tessera_checkpoint_plan_num_tensors(plan_c, nullptr);
  const size_t num_files = tessera_checkpoint_num_files(checkpoint.get(), nullptr);
  plan.variables = std::to_string(num_tensors) + " tensors from " + options.checkpoint_path + " (" +
                   tessera_checkpoint_format(checkpoint.get(), nullptr) + ", " + std::to_string(num_files) +
                   (num_files == 1 ? " file)" : " files)") +
                   (options.dtype.empty() ? "" : ", cast to " + options.dtype);
  plan.shard_mode = ShardModeName(ShardMode(options));
  plan.check = plan.shard_mode + (plan.shard_mode == "strict" ? " (shards must divide)" : " (uneven shards allowed)");
  plan.recipe = options.recipe;
  plan.term_names = TermNames(options);
  plan.capacity = capacities.source;
  plan.kv_cache = tessera_checkpoint_plan_kv_cache_sharding(plan_c, nullptr);
  plan.parameters = tessera_checkpoint_plan_num_parameters(plan_c, nullptr);
  plan.bytes = tessera_checkpoint_plan_weight_bytes(plan_c, nullptr);
  for (size_t i = 0; i < num_tensors; ++i) {
    plan.rows.push_back(TensorRow(checkpoint.get(), plan_c, map.get(), i));
    plan.flagged += plan.rows.back().flagged;
  }
  plan.totals = DeviceLabels(mesh.get());
  const std::vector<tessera_plan_term_t> terms = Terms(options);
  for (size_t d = 0; d < plan.totals.size(); ++d) {
    DeviceTotal& total = plan.totals[d];
    for (tessera_plan_term_t term : terms) {
      total.terms.push_back(tessera_checkpoint_plan_device_term_bytes(plan_c, d, term, nullptr));
    }
    total.bytes = total.terms[0];
    total.peak_bytes = tessera_checkpoint_plan_device_peak_bytes(plan_c, d, nullptr);
    total.capacity_bytes = tessera_checkpoint_plan_device_capacity_bytes(plan_c, d, nullptr);
    plan.not_fitting +=
        tessera_checkpoint_plan_device_verdict(plan_c, d, nullptr) == TESSERA_PLAN_VERDICT_DOES_NOT_FIT;
  }
  return plan;
}

}  // namespace tessera_cli
