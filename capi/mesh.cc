// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/mesh.h: device meshes.
#include <algorithm>
#include <string>
#include <vector>

#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/mesh_options.h"
#include "core/mesh.h"

using tessera::capi::CheckIndex;
using tessera::capi::Guard;

tessera_mesh* tessera_mesh_create(const int64_t* shape, const char* const* axis_names, size_t num_axes,
                                  const tessera_mesh_options* options, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE_ARRAY(shape, num_axes);
    std::vector<int64_t> dims(shape, shape + num_axes);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             tessera::capi::CopyStrings(axis_names, num_axes, "axis_names", "num_axes"));
    const tessera_mesh_options& o = tessera::capi::OptionsOrDefault(options);
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.device_kind.has_value(), "device_kind",
                                                        "tessera_mesh_create"));
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.sort_granules_by_key.has_value(),
                                                        "sort_granules_by_key", "tessera_mesh_create"));
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.allow_split_physical_axes.has_value(),
                                                        "allow_split_physical_axes", "tessera_mesh_create"));
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.contiguous_submeshes.has_value(),
                                                        "contiguous_submeshes", "tessera_mesh_create"));
    TESSERA_RETURN_IF_ERROR(tessera::capi::RefuseUnread(o.device_processes.has_value(), "device_processes",
                                                        "tessera_mesh_create"));
    if (!o.devices.has_value()) {  // the header: unset means all devices of the default type
      TESSERA_ASSIGN_OR_RETURN(
          tessera::MeshPtr mesh,
          tessera::DeviceMesh::CreateOverAllDevices(std::move(dims), std::move(names)));
      return tessera::capi::NewMesh(std::move(mesh));
    }
    TESSERA_ASSIGN_OR_RETURN(
        tessera::MeshPtr mesh,
        tessera::DeviceMesh::CreateFromStrings(std::move(dims), std::move(names), *o.devices));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

void tessera_mesh_destroy(tessera_mesh* mesh) noexcept { delete mesh; }

size_t tessera_mesh_num_axes(const tessera_mesh* mesh, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl->rank());
}

size_t tessera_mesh_num_devices(const tessera_mesh* mesh, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl->size());
}

tessera_platform_t tessera_mesh_platform(const tessera_mesh* mesh,
                                         tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, static_cast<tessera_platform_t>(mesh->impl->platform()));
}

bool tessera_mesh_axis_extent(const tessera_mesh* mesh, size_t index, int64_t* out,
                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(CheckIndex(index, mesh->impl->rank(), "index", "the mesh's rank"));
    *out = mesh->impl->shape()[index];
    return absl::OkStatus();
  });
}

const char* tessera_mesh_axis_name(const tessera_mesh* mesh, size_t index,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_RETURN_IF_ERROR(CheckIndex(index, mesh->impl->rank(), "index", "the mesh's rank"));
    return mesh->impl->axis_names()[index].c_str();
  });
}

bool tessera_mesh_axis_lookup(const tessera_mesh* mesh, const char* name, size_t* out,
                             tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(name);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(*out, mesh->impl->AxisIndex(name));
    return absl::OkStatus();
  });
}

bool tessera_mesh_axis_extent_lookup(const tessera_mesh* mesh, const char* name, int64_t* out,
                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(name);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(*out, mesh->impl->AxisSize(name));
    return absl::OkStatus();
  });
}

tessera_device* tessera_mesh_device(const tessera_mesh* mesh, size_t index,
                                    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_device*> {
    TESSERA_CAPI_REQUIRE(mesh);
    const std::vector<tessera::Device>& devices = mesh->impl->devices();
    TESSERA_RETURN_IF_ERROR(CheckIndex(index, devices.size(), "index", "the mesh's size"));
    return tessera::capi::NewDevice(devices[index]);
  });
}

size_t tessera_mesh_device_coordinates(const tessera_mesh* mesh, int64_t device_id, int64_t* out,
                                       size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY(mesh, mesh->impl->CoordinatesOf(device_id));
}

bool tessera_mesh_device_at(const tessera_mesh* mesh, const int64_t* coords, size_t num_coords,
                            int64_t* out_device_id, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE_ARRAY(coords, num_coords);
    TESSERA_CAPI_REQUIRE(out_device_id);
    TESSERA_ASSIGN_OR_RETURN(tessera::Device device,
                             mesh->impl->DeviceAt(absl::MakeConstSpan(coords, num_coords)));
    *out_device_id = device.id;
    return absl::OkStatus();
  });
}

bool tessera_mesh_equal(const tessera_mesh* a, const tessera_mesh* b) noexcept {
  if (a == nullptr || b == nullptr) return a == b;  // NULL equals only NULL (tessera.h)
  return *a->impl == *b->impl;
}

tessera_buffer* tessera_mesh_to_string(const tessera_mesh* mesh, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(mesh);
    return tessera::capi::NewBuffer(mesh->impl->ToString());
  });
}
