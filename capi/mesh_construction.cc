// tessera/mesh_construction.h: framework-style mesh construction.
#include "tessera/mesh_construction.h"
#include "tessera/experimental/dtensor_legacy.h"
#include "tessera/experimental/mesh_make.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/device.h"
#include "core/mesh_construction.h"

using tessera::capi::CopyStrings;
using tessera::capi::Guard;

namespace {

absl::string_view OrEmpty(const char* text) {
  return text == nullptr ? absl::string_view() : absl::string_view(text);
}

// NULL devices mean "every device" (nullopt); otherwise the parsed list.
absl::StatusOr<std::optional<std::vector<tessera::Device>>> DevicesArg(
    const char* const* devices, size_t num_devices) {
  if (devices == nullptr) return std::optional<std::vector<tessera::Device>>();
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                           CopyStrings(devices, num_devices, "devices", "num_devices"));
  TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::Device> parsed, tessera::ParseDevices(names));
  return std::optional<std::vector<tessera::Device>>(std::move(parsed));
}

absl::StatusOr<std::optional<std::vector<std::string>>> OptionalStrings(const char* const* items,
                                                                        size_t count,
                                                                        const char* name,
                                                                        const char* count_name) {
  if (items == nullptr) return std::optional<std::vector<std::string>>();
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> copied,
                           CopyStrings(items, count, name, count_name));
  return std::optional<std::vector<std::string>>(std::move(copied));
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

}  // namespace

tessera_mesh* tessera_mesh_make(const int64_t* shape, size_t num_dims,
                                const char* const* axis_names, size_t num_axis_names,
                                const char* const* devices, size_t num_devices,
                                const char* device_kind, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE_ARRAY(shape, num_dims);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             CopyStrings(axis_names, num_axis_names, "axis_names",
                                         "num_axis_names"));
    TESSERA_ASSIGN_OR_RETURN(auto parsed, DevicesArg(devices, num_devices));
    TESSERA_ASSIGN_OR_RETURN(
        tessera::MeshPtr mesh,
        tessera::MakeMesh(std::vector<int64_t>(shape, shape + num_dims), std::move(names),
                          std::move(parsed), OrEmpty(device_kind)));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

tessera_mesh* tessera_mesh_make_hybrid(const int64_t* mesh_shape, const int64_t* dcn_mesh_shape,
                                       size_t num_dims, const char* const* axis_names,
                                       size_t num_axis_names, const char* const* devices,
                                       size_t num_devices, bool sort_granules_by_key,
                                       const char* device_kind,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE_ARRAY(mesh_shape, num_dims);
    TESSERA_CAPI_REQUIRE_ARRAY(dcn_mesh_shape, num_dims);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             CopyStrings(axis_names, num_axis_names, "axis_names",
                                         "num_axis_names"));
    TESSERA_ASSIGN_OR_RETURN(auto parsed, DevicesArg(devices, num_devices));
    tessera::HybridMeshOptions options;
    options.sort_granules_by_key = sort_granules_by_key;
    options.device_kind = std::string(OrEmpty(device_kind));
    TESSERA_ASSIGN_OR_RETURN(
        tessera::MeshPtr mesh,
        tessera::MakeHybridMesh(std::vector<int64_t>(mesh_shape, mesh_shape + num_dims),
                                std::vector<int64_t>(dcn_mesh_shape, dcn_mesh_shape + num_dims),
                                std::move(names), std::move(parsed), options));
    return tessera::capi::NewMesh(std::move(mesh));
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

tessera_dtensor_mesh* tessera_dtensor_mesh_create(const char* const* dim_names,
                                                  const int64_t* dim_sizes, size_t num_dims,
                                                  const char* name, const char* const* devices,
                                                  size_t num_devices, const char* device_type,
                                                  bool use_xla_spmd,
                                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    tessera::DTensorCreateMeshOptions options;
    if (dim_names != nullptr || dim_sizes != nullptr) {
      TESSERA_ASSIGN_OR_RETURN(options.dims, DimsArg(dim_names, dim_sizes, num_dims));
    }
    options.name = std::string(OrEmpty(name));
    TESSERA_ASSIGN_OR_RETURN(options.devices,
                             OptionalStrings(devices, num_devices, "devices", "num_devices"));
    options.device_type = std::string(OrEmpty(device_type));
    options.use_xla_spmd = use_xla_spmd;
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh, tessera::DTensorCreateMesh(options));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const char* const* local_devices, size_t num_local_devices, const char* device_type,
    bool use_xla_spmd, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    tessera::DTensorDistributedMeshOptions options;
    TESSERA_ASSIGN_OR_RETURN(options.dims, DimsArg(dim_names, dim_sizes, num_dims));
    options.name = std::string(OrEmpty(name));
    TESSERA_ASSIGN_OR_RETURN(options.local_devices,
                             OptionalStrings(local_devices, num_local_devices, "local_devices",
                                             "num_local_devices"));
    options.device_type = std::string(OrEmpty(device_type));
    options.use_xla_spmd = use_xla_spmd;
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh,
                             tessera::DTensorCreateDistributedMesh(options));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed_legacy(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const int64_t* num_global_devices, const int64_t* num_clients, const int64_t* client_id,
    const char* device_type, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    tessera::DTensorLegacyDistributedMeshOptions options;
    TESSERA_ASSIGN_OR_RETURN(options.dims, DimsArg(dim_names, dim_sizes, num_dims));
    options.name = std::string(OrEmpty(name));
    if (num_global_devices != nullptr) options.num_global_devices = *num_global_devices;
    if (num_clients != nullptr) options.num_clients = *num_clients;
    if (client_id != nullptr) options.client_id = *client_id;
    if (device_type != nullptr) options.device_type = device_type;
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh,
                             tessera::DTensorCreateLegacyDistributedMesh(options));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}
