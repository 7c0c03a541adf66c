// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/dtensor_config.h and dtensor_mesh.h: DTensor's
// configuration as a value, and the DTensor Mesh's membership and equality.
#include "tessera/experimental/dtensor_config.h"
#include "tessera/experimental/dtensor_mesh.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/mesh_options.h"
#include "core/dtensor_config.h"

using tessera::DTensorConfig;
using tessera::capi::CheckIndex;
using tessera::capi::CopyStrings;
using tessera::capi::Guard;
using tessera::capi::SetOption;

struct tessera_dtensor_config_options {
  std::optional<DTensorConfig::Variables> variables;  // unset: this process's environment
  std::map<std::string, int64_t> num_local_devices;    // upper-case type -> count
  bool accelerators_initialized = true;
};

namespace {

// TESSERA_NO_INDEX (DTensor's None) as nullopt; other positions as int64.
absl::StatusOr<std::optional<int64_t>> OptionalIndex(size_t index, const char* name) {
  if (index == TESSERA_NO_INDEX) return std::optional<int64_t>();
  TESSERA_ASSIGN_OR_RETURN(const int64_t value, tessera::capi::ToInt64(index, name));
  return std::optional<int64_t>(value);
}

}  // namespace

tessera_dtensor_config_options* tessera_dtensor_config_options_create(void) noexcept {
  return new (std::nothrow) tessera_dtensor_config_options();
}

void tessera_dtensor_config_options_destroy(tessera_dtensor_config_options* options) noexcept {
  delete options;
}

bool tessera_dtensor_config_options_set_variables(tessera_dtensor_config_options* options,
                                                  const char* const* variables, size_t num_variables,
                                                  tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_config_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> entries,
                             CopyStrings(variables, num_variables, "variables", "num_variables"));
    TESSERA_ASSIGN_OR_RETURN(o.variables, DTensorConfig::ParseAssignments(entries));
    return absl::OkStatus();
  });
}

bool tessera_dtensor_config_options_set_num_local_devices(tessera_dtensor_config_options* options,
                                                          const char* device_type, size_t num_devices,
                                                          tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_config_options& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(device_type);
    const std::string upper = absl::AsciiStrToUpper(device_type);
    if (upper != "CPU" && upper != "GPU" && upper != "TPU") {
      return absl::InvalidArgumentError(
          absl::StrCat("Device type ", device_type, " is not CPU, GPU, or TPU."));
    }
    TESSERA_ASSIGN_OR_RETURN(o.num_local_devices[upper],
                             tessera::capi::ToInt64(num_devices, "num_devices"));
    return absl::OkStatus();
  });
}

bool tessera_dtensor_config_options_set_accelerators_initialized(tessera_dtensor_config_options* options,
                                                                 bool initialized,
                                                                 tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_config_options& o) -> absl::Status {
    o.accelerators_initialized = initialized;
    return absl::OkStatus();
  });
}

tessera_dtensor_config* tessera_dtensor_config_create(const tessera_dtensor_config_options* options,
                                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_config*> {
    static const tessera_dtensor_config_options* const defaults = new tessera_dtensor_config_options();
    const tessera_dtensor_config_options& o = options == nullptr ? *defaults : *options;
    DTensorConfig config(o.variables.value_or(DTensorConfig::ProcessVariables()), o.num_local_devices,
                         o.accelerators_initialized);
    auto jobs = config.Jobs();
    auto job_name = config.JobName();
    return new tessera_dtensor_config{std::move(config), std::move(jobs), std::move(job_name)};
  });
}

void tessera_dtensor_config_destroy(tessera_dtensor_config* config) noexcept { delete config; }

size_t tessera_dtensor_config_client_id(const tessera_dtensor_config* config,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_ASSIGN_OR_RETURN(const int64_t id, config->impl.ClientId());
    return static_cast<size_t>(id);
  });
}

size_t tessera_dtensor_config_num_clients(const tessera_dtensor_config* config,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_ASSIGN_OR_RETURN(const int64_t n, config->impl.NumClients());
    return static_cast<size_t>(n);
  });
}

const char* tessera_dtensor_config_job_name(const tessera_dtensor_config* config,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_RETURN_IF_ERROR(config->job_name.status());
    return config->job_name->c_str();
  });
}

tessera_buffer* tessera_dtensor_config_full_job_name(const tessera_dtensor_config* config,
                                                     size_t task_index,
                                                     tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_ASSIGN_OR_RETURN(const std::optional<int64_t> task, OptionalIndex(task_index, "task_index"));
    TESSERA_ASSIGN_OR_RETURN(std::string name, config->impl.FullJobName(task));
    return tessera::capi::NewBuffer(std::move(name));
  });
}

size_t tessera_dtensor_config_num_jobs(const tessera_dtensor_config* config,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_RETURN_IF_ERROR(config->jobs.status());
    return config->jobs->size();
  });
}

const char* tessera_dtensor_config_job(const tessera_dtensor_config* config, size_t index,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_RETURN_IF_ERROR(config->jobs.status());
    TESSERA_RETURN_IF_ERROR(CheckIndex(index, config->jobs->size(), "index", "the number of jobs"));
    return (*config->jobs)[index].c_str();
  });
}

bool tessera_dtensor_config_heartbeat_enabled(const tessera_dtensor_config* config,
                                              tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(config, config->impl.HeartbeatEnabled());
}

bool tessera_dtensor_config_is_local_mode(const tessera_dtensor_config* config,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(config);
    return config->impl.IsLocalMode();
  });
}

bool tessera_dtensor_config_accelerators_initialized(const tessera_dtensor_config* config,
                                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(config, config->impl.accelerators_initialized());
}

size_t tessera_dtensor_config_num_local_devices(const tessera_dtensor_config* config,
                                                const char* device_type,
                                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_CAPI_REQUIRE(device_type);
    TESSERA_ASSIGN_OR_RETURN(const int64_t n, config->impl.NumLocalDevices(device_type));
    return static_cast<size_t>(n);
  });
}

size_t tessera_dtensor_config_num_global_devices(const tessera_dtensor_config* config,
                                                 const char* device_type,
                                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_CAPI_REQUIRE(device_type);
    TESSERA_ASSIGN_OR_RETURN(const int64_t n, config->impl.NumGlobalDevices(device_type));
    return static_cast<size_t>(n);
  });
}

tessera_buffer* tessera_dtensor_config_local_device(const tessera_dtensor_config* config,
                                                    const char* device_type, size_t client_index,
                                                    size_t index, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(config);
    TESSERA_CAPI_REQUIRE(device_type);
    TESSERA_ASSIGN_OR_RETURN(const std::optional<int64_t> client,
                             OptionalIndex(client_index, "client_index"));
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> devices,
                             config->impl.LocalDevices(device_type, client));
    TESSERA_RETURN_IF_ERROR(CheckIndex(index, devices.size(), "index", "the number of local devices"));
    return tessera::capi::NewBuffer(std::move(devices[index]));
  });
}

bool tessera_dtensor_mesh_options_set_config(tessera_dtensor_mesh_options* options,
                                             const tessera_dtensor_config* config,
                                             tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_mesh_options& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(config);
    o.config = config->impl;
    return absl::OkStatus();
  });
}

bool tessera_dtensor_mesh_has_dim(const tessera_dtensor_mesh* mesh, const char* dim_name,
                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(dim_name);
    return mesh->impl.HasDim(dim_name);
  });
}

bool tessera_dtensor_mesh_equal(const tessera_dtensor_mesh* a, const tessera_dtensor_mesh* b,
                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(a);
    TESSERA_CAPI_REQUIRE(b);
    return a->impl == b->impl;
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_create_from_ids(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const int64_t* global_ids,
    size_t num_global_ids, const int64_t* local_ids, size_t num_local_ids,
    const char* const* local_devices, size_t num_local_devices,
    const tessera_dtensor_mesh_options* options, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE_ARRAY(dim_sizes, num_dims);
    TESSERA_CAPI_REQUIRE_ARRAY(global_ids, num_global_ids);
    TESSERA_CAPI_REQUIRE_ARRAY(local_ids, num_local_ids);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             CopyStrings(dim_names, num_dims, "dim_names", "num_dims"));
    tessera::DTensorMesh::Fields f;
    TESSERA_ASSIGN_OR_RETURN(f.local_devices, CopyStrings(local_devices, num_local_devices,
                                                          "local_devices", "num_local_devices"));
    const tessera_dtensor_mesh_options& o = tessera::capi::OptionsOrDefault(options);
    constexpr char kCreator[] = "tessera_dtensor_mesh_create_from_ids";
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.devices.has_value(), "devices", kCreator));
    TESSERA_RETURN_IF_ERROR(
        tessera::capi::RefuseUnread(o.device_type.has_value(), "device_type", kCreator));
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.config.has_value(), "config", kCreator));
    for (size_t i = 0; i < num_dims; ++i) f.dims.push_back({names[i], dim_sizes[i]});
    f.global_ids.assign(global_ids, global_ids + num_global_ids);
    f.local_ids.assign(local_ids, local_ids + num_local_ids);
    f.name = o.name.value_or("");
    f.use_xla_spmd = o.use_xla_spmd;
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh,
                             tessera::DTensorMesh::CreateAsPython(std::move(f)));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_from_device(const char* device, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(device);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh, tessera::DTensorMesh::SingleDevice(device));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}

bool tessera_dtensor_mesh_dim_extent_lookup(const tessera_dtensor_mesh* mesh, const char* dim_name,
                                            int64_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(dim_name);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(*out, mesh->impl.DimSize(dim_name));
    return absl::OkStatus();
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_to_host_mesh(const tessera_dtensor_mesh* mesh,
                                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh host, mesh->impl.HostMesh());
    return tessera::capi::NewDTensorMesh(std::move(host));
  });
}

size_t tessera_dtensor_mesh_coordinates(const tessera_dtensor_mesh* mesh, int64_t device_index,
                                        int64_t* out, size_t capacity,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    return tessera::capi::CopyOut(out, capacity, mesh->impl.Coords(device_index));
  });
}
