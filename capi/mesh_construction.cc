// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/mesh_construction.h: framework-style mesh construction.
#include "tessera/mesh_construction.h"
#include "tessera/experimental/dtensor_config.h"
#include "tessera/experimental/dtensor_legacy.h"
#include "tessera/experimental/mesh_make.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/mesh_options.h"
#include "core/device.h"
#include "core/mesh_construction.h"

using tessera::capi::CopyStrings;
using tessera::capi::Guard;
using tessera::capi::OptionsOrDefault;

namespace {

absl::string_view OrEmpty(const char* text) {
  return text == nullptr ? absl::string_view() : absl::string_view(text);
}

// Unset devices mean "every device" (nullopt); otherwise the parsed list,
// owned by the processes the options give, if any.
absl::StatusOr<std::optional<std::vector<tessera::Device>>> ParsedDevices(const tessera_mesh_options& o) {
  if (!o.devices.has_value()) {
    if (o.device_processes.has_value()) {
      return absl::InvalidArgumentError(
          "Argument 'options' sets device_processes but no devices; expected tessera_mesh_options_set_devices "
          "too (the processes own the devices it lists, in order)");
    }
    return std::optional<std::vector<tessera::Device>>();
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::Device> parsed, tessera::ParseDevices(*o.devices));
  if (o.device_processes.has_value()) {
    auto owned = tessera::AssignProcesses(std::move(parsed), *o.device_processes);
    if (!owned.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'options' sets ", owned.status().message()));
    }
    parsed = *std::move(owned);
  }
  return std::optional<std::vector<tessera::Device>>(std::move(parsed));
}

absl::StatusOr<std::vector<tessera::DTensorMeshDim>> DimsArg(const char* const* dim_names,
                                                             const int64_t* dim_sizes,
                                                             size_t num_dims) {
  TESSERA_CAPI_REQUIRE_ARRAY(dim_sizes, num_dims);
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                           CopyStrings(dim_names, num_dims, "dim_names", "num_dims"));
  std::vector<tessera::DTensorMeshDim> dims;
  for (size_t i = 0; i < num_dims; ++i) dims.push_back({names[i], dim_sizes[i]});
  return dims;
}

// The settings both DTensor creators read, whatever their core options type.
template <typename Create>
void CopyCommonSettings(const tessera_dtensor_mesh_options& o, Create& create) {
  create.name = o.name.value_or("");
  create.device_type = o.device_type.value_or("");
  create.use_xla_spmd = o.use_xla_spmd;
  create.config = o.config;
}

}  // namespace

tessera_mesh* tessera_mesh_make(const int64_t* shape, const char* const* axis_names, size_t num_axes,
                                const tessera_mesh_options* options, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE_ARRAY(shape, num_axes);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             CopyStrings(axis_names, num_axes, "axis_names", "num_axes"));
    const tessera_mesh_options& o = OptionsOrDefault(options);
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.sort_granules_by_key.has_value(),
                                                        "sort_granules_by_key", "tessera_mesh_make"));
    // jax.make_mesh decides these itself (and points to create_device_mesh).
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.allow_split_physical_axes.has_value(),
                                                        "allow_split_physical_axes", "tessera_mesh_make"));
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.contiguous_submeshes.has_value(),
                                                        "contiguous_submeshes", "tessera_mesh_make"));
    TESSERA_ASSIGN_OR_RETURN(auto parsed, ParsedDevices(o));
    TESSERA_ASSIGN_OR_RETURN(
        tessera::MeshPtr mesh,
        tessera::MakeMesh(std::vector<int64_t>(shape, shape + num_axes), std::move(names),
                          std::move(parsed), o.device_kind.value_or("")));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

tessera_mesh* tessera_mesh_make_hybrid(const int64_t* mesh_shape, const int64_t* dcn_mesh_shape,
                                       const char* const* axis_names, size_t num_axes,
                                       const tessera_mesh_options* options,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE_ARRAY(mesh_shape, num_axes);
    TESSERA_CAPI_REQUIRE_ARRAY(dcn_mesh_shape, num_axes);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             CopyStrings(axis_names, num_axes, "axis_names", "num_axes"));
    const tessera_mesh_options& o = OptionsOrDefault(options);
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.contiguous_submeshes.has_value(),
                                                        "contiguous_submeshes", "tessera_mesh_make_hybrid"));
    TESSERA_ASSIGN_OR_RETURN(auto parsed, ParsedDevices(o));
    tessera::HybridMeshOptions hybrid;
    hybrid.sort_granules_by_key = o.sort_granules_by_key.value_or(true);  // JAX's default
    hybrid.device_kind = o.device_kind.value_or("");
    hybrid.allow_split_physical_axes = o.allow_split_physical_axes.value_or(false);
    TESSERA_ASSIGN_OR_RETURN(
        tessera::MeshPtr mesh,
        tessera::MakeHybridMesh(std::vector<int64_t>(mesh_shape, mesh_shape + num_axes),
                                std::vector<int64_t>(dcn_mesh_shape, dcn_mesh_shape + num_axes),
                                std::move(names), std::move(parsed), hybrid));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

tessera_mesh* tessera_mesh_create_device_mesh(const int64_t* shape, const char* const* axis_names,
                                              size_t num_axes, const tessera_mesh_options* options,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE_ARRAY(shape, num_axes);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             CopyStrings(axis_names, num_axes, "axis_names", "num_axes"));
    const tessera_mesh_options& o = OptionsOrDefault(options);
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.sort_granules_by_key.has_value(), "sort_granules_by_key",
                                                        "tessera_mesh_create_device_mesh"));
    TESSERA_ASSIGN_OR_RETURN(auto parsed, ParsedDevices(o));
    tessera::CreateDeviceMeshOptions create;
    create.device_kind = o.device_kind.value_or("");
    create.allow_split_physical_axes = o.allow_split_physical_axes.value_or(false);
    create.contiguous_submeshes = o.contiguous_submeshes.value_or(false);
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr mesh,
                             tessera::CreateDeviceMeshOver(std::vector<int64_t>(shape, shape + num_axes),
                                                           std::move(names), std::move(parsed), create));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

size_t tessera_mesh_tpu_axis_assignment(const int64_t* physical_shape, size_t num_physical_axes,
                                        const int64_t* mesh_shape, size_t num_axes,
                                        const tessera_mesh_options* options, int64_t* out, size_t capacity,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE_ARRAY(physical_shape, num_physical_axes);
    TESSERA_CAPI_REQUIRE_ARRAY(mesh_shape, num_axes);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    const tessera_mesh_options& o = OptionsOrDefault(options);
    constexpr const char* kName = "tessera_mesh_tpu_axis_assignment";
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.devices.has_value(), "devices", kName));
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.device_kind.has_value(), "device_kind", kName));
    TESSERA_RETURN_IF_ERROR(
        tessera::capi::RefuseUnread(o.sort_granules_by_key.has_value(), "sort_granules_by_key", kName));
    TESSERA_RETURN_IF_ERROR(
        tessera::capi::RefuseUnread(o.contiguous_submeshes.has_value(), "contiguous_submeshes", kName));
    TESSERA_ASSIGN_OR_RETURN(
        auto matrix, tessera::TpuAxisAssignmentMatrix(
                         absl::MakeConstSpan(physical_shape, num_physical_axes),
                         absl::MakeConstSpan(mesh_shape, num_axes), o.allow_split_physical_axes.value_or(false)));
    std::vector<int64_t> flat;
    for (const std::vector<int64_t>& row : matrix) flat.insert(flat.end(), row.begin(), row.end());
    return tessera::capi::CopyOut(out, capacity, flat);
  });
}

tessera_mesh* tessera_mesh_submesh(const tessera_mesh* mesh, const char* const* axis_names,
                                   size_t num_axis_names, int64_t device_id,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             CopyStrings(axis_names, num_axis_names, "axis_names",
                                         "num_axis_names"));
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr sub,
                             tessera::SliceMesh(*mesh->impl, names, device_id));
    return tessera::capi::NewMesh(std::move(sub));
  });
}

tessera_mesh* tessera_mesh_flatten(const tessera_mesh* mesh, const char* name,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr flat,
                             tessera::FlattenMesh(*mesh->impl, OrEmpty(name)));
    return tessera::capi::NewMesh(std::move(flat));
  });
}

bool tessera_mesh_local_rank(const tessera_mesh* mesh, const char* axis_name, int64_t device_id,
                             int64_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(axis_name);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(*out, tessera::LocalRankOf(*mesh->impl, axis_name, device_id));
    return absl::OkStatus();
  });
}

size_t tessera_mesh_axis_groups(const tessera_mesh* mesh, const char* axis_name, int64_t* out,
                                size_t capacity, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(axis_name);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(auto groups, tessera::AxisGroups(*mesh->impl, axis_name));
    std::vector<int64_t> ids;
    for (const std::vector<int64_t>& group : groups) ids.insert(ids.end(), group.begin(), group.end());
    return tessera::capi::CopyOut(out, capacity, ids);
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_create(const char* const* dim_names, const int64_t* dim_sizes,
                                                  size_t num_dims,
                                                  const tessera_dtensor_mesh_options* options,
                                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    const tessera_dtensor_mesh_options& o = OptionsOrDefault(options);
    tessera::DTensorCreateMeshOptions create;
    // DTensor's create_mesh(): no dims at all means one "x" dim over every device.
    if (dim_names != nullptr || dim_sizes != nullptr) {
      TESSERA_ASSIGN_OR_RETURN(create.dims, DimsArg(dim_names, dim_sizes, num_dims));
    }
    CopyCommonSettings(o, create);
    create.devices = o.devices;
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh, tessera::DTensorCreateMesh(create));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed(const char* const* dim_names,
                                                              const int64_t* dim_sizes, size_t num_dims,
                                                              const tessera_dtensor_mesh_options* options,
                                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    const tessera_dtensor_mesh_options& o = OptionsOrDefault(options);
    tessera::DTensorDistributedMeshOptions create;
    TESSERA_ASSIGN_OR_RETURN(create.dims, DimsArg(dim_names, dim_sizes, num_dims));
    CopyCommonSettings(o, create);
    create.local_devices = o.devices;
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh, tessera::DTensorCreateDistributedMesh(create));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}

namespace {

// Both legacy creators: the arguments as the core's options, the job
// described by `config` (nullopt: the runtime).
absl::StatusOr<tessera_dtensor_mesh*> CreateLegacyDistributed(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const int64_t* num_global_devices, const int64_t* num_clients, const int64_t* client_id,
    const char* device_type, std::optional<tessera::DTensorConfig> config) {
  tessera::DTensorLegacyDistributedMeshOptions options;
  TESSERA_ASSIGN_OR_RETURN(options.dims, DimsArg(dim_names, dim_sizes, num_dims));
  options.name = std::string(OrEmpty(name));
  if (num_global_devices != nullptr) options.num_global_devices = *num_global_devices;
  if (num_clients != nullptr) options.num_clients = *num_clients;
  if (client_id != nullptr) options.client_id = *client_id;
  if (device_type != nullptr) options.device_type = device_type;
  options.config = std::move(config);
  TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh,
                           tessera::DTensorCreateLegacyDistributedMesh(options));
  return tessera::capi::NewDTensorMesh(std::move(mesh));
}

}  // namespace

tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed_legacy(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const int64_t* num_global_devices, const int64_t* num_clients, const int64_t* client_id,
    const char* device_type, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    return CreateLegacyDistributed(dim_names, dim_sizes, num_dims, name, num_global_devices,
                                   num_clients, client_id, device_type, std::nullopt);
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed_legacy_with_config(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const int64_t* num_global_devices, const int64_t* num_clients, const int64_t* client_id,
    const char* device_type, const tessera_dtensor_config* config,
    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(config);
    return CreateLegacyDistributed(dim_names, dim_sizes, num_dims, name, num_global_devices,
                                   num_clients, client_id, device_type, config->impl);
  });
}
