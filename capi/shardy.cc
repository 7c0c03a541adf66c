// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/shardy.h: Shardy sharding and mesh text.
#include <string>
#include <vector>

#include "capi/guard.h"
#include "capi/handles.h"
#include "core/formats/shardy.h"

using tessera::capi::Guard;

namespace {

const char* MeshNameOrDefault(const char* mesh_name) {
  return mesh_name == nullptr ? tessera::kShardyDefaultMeshName : mesh_name;
}

// The device assignment: empty (every device of the default type) for NULL
// devices, as tessera_mesh_from_jax_text reads them.
absl::StatusOr<std::vector<tessera::Device>> Assignment(const char* const* devices, size_t num_devices) {
  if (devices == nullptr) return std::vector<tessera::Device>{};
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                           tessera::capi::CopyStrings(devices, num_devices, "devices", "num_devices"));
  if (names.empty()) {
    return absl::InvalidArgumentError(
        "Argument 'num_devices' is 0; expected the size of the device assignment (NULL devices for "
        "every device of the default type)");
  }
  return tessera::ParseDevices(names);
}

}  // namespace

tessera_buffer* tessera_layout_to_shardy_text(const tessera_layout* layout, const char* mesh_name,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(std::string text,
                             tessera::ShardyShardingText(*layout->impl, MeshNameOrDefault(mesh_name)));
    return tessera::capi::NewBuffer(std::move(text));
  });
}

tessera_buffer* tessera_mesh_to_shardy_text(const tessera_mesh* mesh, const char* mesh_name,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(std::string text, tessera::ShardyMeshText(*mesh->impl, MeshNameOrDefault(mesh_name)));
    return tessera::capi::NewBuffer(std::move(text));
  });
}

tessera_mesh* tessera_mesh_from_shardy_text(const char* text, const char* const* devices, size_t num_devices,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::Device> assignment, Assignment(devices, num_devices));
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr mesh, tessera::MeshFromShardyText(text, std::move(assignment)));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

tessera_layout* tessera_layout_from_shardy_text(const char* sharding_text, const char* mesh_text,
                                                const char* const* devices, size_t num_devices,
                                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(sharding_text);
    TESSERA_CAPI_REQUIRE(mesh_text);
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::Device> assignment, Assignment(devices, num_devices));
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::LayoutFromShardyText(sharding_text, mesh_text, std::move(assignment)));
    return tessera::capi::NewLayout(std::move(layout));
  });
}
