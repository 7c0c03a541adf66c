// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/distribution.h: distributions, dataset plans and the current
// distribution.
#include "tessera/distribution.h"
#include "tessera/experimental/distribution_scope.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/distribution.h"

using tessera::capi::Guard;

namespace {

// NULL options mean the defaults.
tessera::DistributionOptions OptionsOrDefault(const tessera_distribution_options* options) {
  return options == nullptr ? tessera::DistributionOptions{} : options->impl;
}

tessera_distribution* NewDistribution(tessera::DistributionPtr distribution) {
  return new tessera_distribution{std::move(distribution)};
}

}  // namespace

// --- Options -----------------------------------------------------------------

tessera_distribution_options* tessera_distribution_options_create(void) noexcept {
  return Guard(nullptr, [&]() -> absl::StatusOr<tessera_distribution_options*> {
    return new tessera_distribution_options{};
  });
}

void tessera_distribution_options_destroy(tessera_distribution_options* options) noexcept {
  delete options;
}

bool tessera_distribution_options_set_auto_shard_dataset(tessera_distribution_options* options,
                                                         bool auto_shard,
                                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    options->impl.auto_shard_dataset = auto_shard;
    return absl::OkStatus();
  });
}

bool tessera_distribution_options_set_shape_check(tessera_distribution_options* options,
                                                  tessera_shape_check_t mode,
                                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    TESSERA_ASSIGN_OR_RETURN(
        options->impl.shape_check,
        tessera::capi::ToCoreEnum<tessera::ShapeCheck>(mode, tessera::capi::kShapeCheckNames,
                                                       "mode"));
    return absl::OkStatus();
  });
}

bool tessera_distribution_options_set_dataset_mode(tessera_distribution_options* options,
                                                   tessera_dataset_mode_t mode,
                                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    TESSERA_ASSIGN_OR_RETURN(
        options->impl.dataset_mode,
        tessera::capi::ToCoreEnum<tessera::DatasetMode>(mode, tessera::capi::kDatasetModeNames,
                                                        "mode"));
    return absl::OkStatus();
  });
}

bool tessera_distribution_options_set_process(tessera_distribution_options* options,
                                              size_t num_processes, size_t process_index,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    if (num_processes < 1) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'num_processes' is ",
                                                     num_processes, "; expected at least 1"));
    }
    TESSERA_ASSIGN_OR_RETURN(const int64_t count,
                             tessera::capi::ToInt64(num_processes, "num_processes"));
    if (process_index >= num_processes) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'process_index' is ", process_index, "; expected 0 to ",
                       num_processes - 1, " ('num_processes' is ", num_processes, ")"));
    }
    options->impl.process = tessera::ProcessInfo{count, static_cast<int64_t>(process_index)};
    return absl::OkStatus();
  });
}

// --- Creation ----------------------------------------------------------------

tessera_distribution* tessera_distribution_create_data_parallel(
    const tessera_mesh* mesh, const tessera_distribution_options* options,
    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_distribution*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(
        tessera::DistributionPtr distribution,
        tessera::Distribution::DataParallel(mesh->impl, OptionsOrDefault(options)));
    return NewDistribution(std::move(distribution));
  });
}

tessera_distribution* tessera_distribution_create_data_parallel_over_devices(
    const char* const* devices, size_t num_devices, const tessera_distribution_options* options,
    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_distribution*> {
    // The header: NULL or an empty list means all devices of the default type.
    if (devices == nullptr || num_devices == 0) {
      TESSERA_ASSIGN_OR_RETURN(
          tessera::DistributionPtr distribution,
          tessera::Distribution::DataParallelOverAllDevices(OptionsOrDefault(options)));
      return NewDistribution(std::move(distribution));
    }
    TESSERA_ASSIGN_OR_RETURN(
        std::vector<std::string> names,
        tessera::capi::CopyStrings(devices, num_devices, "devices", "num_devices"));
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::Device> parsed, tessera::ParseDevices(names));
    TESSERA_ASSIGN_OR_RETURN(tessera::DistributionPtr distribution,
                             tessera::Distribution::DataParallelOverDevices(
                                 std::move(parsed), OptionsOrDefault(options)));
    return NewDistribution(std::move(distribution));
  });
}

tessera_distribution* tessera_distribution_create_model_parallel(
    const tessera_layout_map* layout_map, const char* batch_dim_name,
    const tessera_distribution_options* options, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_distribution*> {
    TESSERA_CAPI_REQUIRE(layout_map);
    const absl::string_view batch =
        batch_dim_name == nullptr ? absl::string_view() : absl::string_view(batch_dim_name);
    TESSERA_ASSIGN_OR_RETURN(tessera::DistributionPtr distribution,
                             tessera::Distribution::ModelParallel(layout_map->impl, batch,
                                                                  OptionsOrDefault(options)));
    return NewDistribution(std::move(distribution));
  });
}

void tessera_distribution_destroy(tessera_distribution* distribution) noexcept { delete distribution; }

// --- Queries -----------------------------------------------------------------

tessera_distribution_kind_t tessera_distribution_kind(const tessera_distribution* distribution,
                                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(
      distribution, static_cast<tessera_distribution_kind_t>(distribution->impl->kind()));
}

tessera_mesh* tessera_distribution_mesh(const tessera_distribution* distribution,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(distribution);
    return tessera::capi::NewMesh(distribution->impl->mesh());
  });
}

const char* tessera_distribution_batch_dim_name(const tessera_distribution* distribution,
                                                tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->batch_dim_name().c_str());
}

size_t tessera_distribution_num_processes(const tessera_distribution* distribution,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->num_processes());
}

size_t tessera_distribution_process_index(const tessera_distribution* distribution,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->process_id());
}

size_t tessera_distribution_num_model_replicas(const tessera_distribution* distribution,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->num_model_replicas());
}

size_t tessera_distribution_num_data_shards(const tessera_distribution* distribution,
                                            tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->num_data_shards());
}

size_t tessera_distribution_data_shard_id(const tessera_distribution* distribution,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->data_shard_id());
}

tessera_layout* tessera_distribution_data_layout(const tessera_distribution* distribution,
                                                 const int64_t* dims, size_t num_dims,
                                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(distribution);
    TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             distribution->impl->DataLayout(absl::MakeConstSpan(dims, num_dims)));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_layout* tessera_distribution_variable_layout(const tessera_distribution* distribution,
                                                     const char* path, const int64_t* dims,
                                                     size_t num_dims,
                                                     const tessera_layout* explicit_layout,
                                                     tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(distribution);
    TESSERA_CAPI_REQUIRE(path);
    TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
    const tessera::LayoutPtr explicit_impl =
        explicit_layout == nullptr ? nullptr : explicit_layout->impl;
    TESSERA_ASSIGN_OR_RETURN(
        tessera::LayoutPtr layout,
        distribution->impl->VariableLayout(path, absl::MakeConstSpan(dims, num_dims),
                                           explicit_impl));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_layout* tessera_distribution_tensor_layout(const tessera_distribution* distribution,
                                                   const char* path, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(distribution);
    TESSERA_CAPI_REQUIRE(path);
    TESSERA_ASSIGN_OR_RETURN(tessera::LayoutPtr layout,
                             distribution->impl->TensorLayoutForPath(path));
    if (layout == nullptr) return static_cast<tessera_layout*>(nullptr);  // none: no error
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_dataset_plan* tessera_distribution_plan_dataset(const tessera_distribution* distribution,
                                                        size_t global_batch_size,
                                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dataset_plan*> {
    TESSERA_CAPI_REQUIRE(distribution);
    TESSERA_ASSIGN_OR_RETURN(const int64_t rows, tessera::capi::GlobalBatchRows(global_batch_size));
    TESSERA_ASSIGN_OR_RETURN(tessera::DatasetPlan plan, distribution->impl->PlanDataset(rows));
    return new tessera_dataset_plan{std::move(plan)};
  });
}

tessera_buffer* tessera_distribution_to_string(const tessera_distribution* distribution,
                                               tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(distribution);
    return tessera::capi::NewBuffer(distribution->impl->ToString());
  });
}

// --- Dataset plans -----------------------------------------------------------

tessera_dataset_plan_kind_t tessera_dataset_plan_kind(const tessera_dataset_plan* plan,
                                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, static_cast<tessera_dataset_plan_kind_t>(plan->impl.kind));
}

size_t tessera_dataset_plan_global_batch_num_examples(const tessera_dataset_plan* plan,
                                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.global_batch_size);
}

size_t tessera_dataset_plan_per_process_batch_num_examples(const tessera_dataset_plan* plan,
                                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.per_process_batch_size);
}

size_t tessera_dataset_plan_num_shards(const tessera_dataset_plan* plan,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.num_shards);
}

size_t tessera_dataset_plan_shard_index(const tessera_dataset_plan* plan,
                                        tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.shard_index);
}

size_t tessera_dataset_plan_num_rebatches(const tessera_dataset_plan* plan,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.rebatch_sizes.size());
}

bool tessera_dataset_plan_rebatch_num_examples(const tessera_dataset_plan* plan, size_t index,
                                               size_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(plan);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(tessera::capi::CheckIndex(index, plan->impl.rebatch_sizes.size(),
                                                      "index", "the number of rebatch sizes"));
    *out = static_cast<size_t>(plan->impl.rebatch_sizes[index]);  // a row count, never negative
    return absl::OkStatus();
  });
}

void tessera_dataset_plan_destroy(tessera_dataset_plan* plan) noexcept { delete plan; }

// --- The current distribution ------------------------------------------------

tessera_distribution* tessera_distribution_current(void) noexcept {
  return Guard(nullptr, [&]() -> absl::StatusOr<tessera_distribution*> {
    tessera::DistributionPtr current = tessera::CurrentDistribution();
    if (current == nullptr) return static_cast<tessera_distribution*>(nullptr);
    return NewDistribution(std::move(current));
  });
}

void tessera_distribution_set_default(const tessera_distribution* distribution) noexcept {
  // Nothing here can fail; the guard only keeps exceptions inside.
  Guard(nullptr, [&]() -> absl::Status {
    tessera::SetDefaultDistribution(distribution == nullptr ? nullptr : distribution->impl);
    return absl::OkStatus();
  });
}

bool tessera_distribution_scope_push(const tessera_distribution* distribution,
                                     tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(distribution);
    tessera::PushDistributionScope(distribution->impl);
    return absl::OkStatus();
  });
}

bool tessera_distribution_scope_pop(tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status { return tessera::PopDistributionScope(); });
}
