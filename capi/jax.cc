// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/jax.h: PartitionSpec and Mesh text.
#include <string>
#include <vector>

#include "capi/guard.h"
#include "capi/handles.h"
#include "core/formats/jax_spec.h"

using tessera::capi::Guard;
using tessera::capi::MeshOrNull;

tessera_buffer* tessera_layout_to_partition_spec(const tessera_layout* layout,
                                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    return tessera::capi::NewBuffer(tessera::PartitionSpecText(*layout->impl));
  });
}

tessera_layout* tessera_layout_from_partition_spec(const char* text, const tessera_mesh* mesh,
                                                   size_t rank, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::LayoutFromPartitionSpec(text, MeshOrNull(mesh), rank));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_buffer* tessera_mesh_to_jax_text(const tessera_mesh* mesh,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(mesh);
    return tessera::capi::NewBuffer(tessera::JaxMeshText(*mesh->impl));
  });
}

tessera_mesh* tessera_mesh_from_jax_text(const char* text, const char* const* devices,
                                         size_t num_devices, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::JaxMeshDescription description, tessera::ParseJaxMesh(text));
    if (devices == nullptr) {  // as tessera_mesh_create: all devices, count ignored
      TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr mesh,
                               tessera::DeviceMesh::CreateOverAllDevices(
                                   std::move(description.shape), std::move(description.axis_names)));
      return tessera::capi::NewMesh(std::move(mesh));
    }
    TESSERA_ASSIGN_OR_RETURN(
        std::vector<std::string> names,
        tessera::capi::CopyStrings(devices, num_devices, "devices", "num_devices"));
    TESSERA_ASSIGN_OR_RETURN(
        tessera::MeshPtr mesh,
        tessera::DeviceMesh::CreateFromStrings(std::move(description.shape),
                                               std::move(description.axis_names), names));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}
