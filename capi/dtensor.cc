// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/dtensor.h: TF DTensor mesh and layout text.
#include <string>
#include <utility>

#include "capi/guard.h"
#include "capi/handles.h"
#include "core/formats/dtensor_text.h"

using tessera::capi::CheckIndex;
using tessera::capi::Guard;

namespace {


absl::Status CheckEntry(size_t index, size_t size, const char* what) {
  return CheckIndex(index, size, "index", what);
}

}  // namespace

tessera_buffer* tessera_mesh_to_dtensor_text(const tessera_mesh* mesh,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh dtensor, tessera::ToDTensorMesh(*mesh->impl));
    return tessera::capi::NewBuffer(dtensor.ToString());
  });
}

tessera_mesh* tessera_mesh_from_dtensor_text(const char* text, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh dtensor, tessera::ParseDTensorMesh(text));
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr mesh, tessera::ToDeviceMesh(dtensor));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

tessera_buffer* tessera_layout_to_dtensor_text(const tessera_layout* layout,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorLayout dtensor,
                             tessera::ToDTensorLayout(*layout->impl));
    return tessera::capi::NewBuffer(dtensor.ToString());
  });
}

tessera_buffer* tessera_layout_to_dtensor_text_with_mesh(const tessera_layout* layout,
                                                        const tessera_dtensor_mesh* mesh,
                                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorLayout dtensor,
                             tessera::ToDTensorLayout(*layout->impl, mesh->impl));
    return tessera::capi::NewBuffer(dtensor.ToString());
  });
}

tessera_layout* tessera_layout_from_dtensor_text(const char* text,
                                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorLayout dtensor, tessera::DTensorLayout::Parse(text));
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout, tessera::ToTensorLayout(dtensor));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_parse(const char* text,
                                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh mesh, tessera::ParseDTensorMesh(text));
    return tessera::capi::NewDTensorMesh(std::move(mesh));
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_parse_layout_mesh(const char* layout_text,
                                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(layout_text);
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorLayout layout,
                             tessera::DTensorLayout::Parse(layout_text));
    return tessera::capi::NewDTensorMesh(layout.mesh());
  });
}

tessera_dtensor_mesh* tessera_dtensor_mesh_from_mesh(const tessera_mesh* mesh, const char* name,
                                                    size_t process_index, bool use_xla_spmd,
                                                    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dtensor_mesh*> {
    TESSERA_CAPI_REQUIRE(mesh);
    tessera::DTensorMeshOptions options;
    options.name = name == nullptr ? "" : name;
    TESSERA_ASSIGN_OR_RETURN(options.process_index,
                             tessera::capi::ToInt64(process_index, "process_index"));
    options.use_xla_spmd = use_xla_spmd;
    TESSERA_ASSIGN_OR_RETURN(tessera::DTensorMesh dtensor,
                             tessera::ToDTensorMesh(*mesh->impl, options));
    return tessera::capi::NewDTensorMesh(std::move(dtensor));
  });
}

tessera_mesh* tessera_dtensor_mesh_to_mesh(const tessera_dtensor_mesh* mesh,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr converted, tessera::ToDeviceMesh(mesh->impl));
    return tessera::capi::NewMesh(std::move(converted));
  });
}

tessera_buffer* tessera_dtensor_mesh_to_text(const tessera_dtensor_mesh* mesh,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(mesh);
    return tessera::capi::NewBuffer(mesh->impl.ToString());
  });
}

void tessera_dtensor_mesh_destroy(tessera_dtensor_mesh* mesh) noexcept { delete mesh; }

tessera_dtensor_mesh_kind_t tessera_dtensor_mesh_kind(const tessera_dtensor_mesh* mesh,
                                                      tessera_error** out_error) noexcept {
  static_assert(TESSERA_DTENSOR_MESH_EMPTY ==
                static_cast<int>(tessera::DTensorMesh::Kind::kEmpty));
  static_assert(TESSERA_DTENSOR_MESH_TILE == static_cast<int>(tessera::DTensorMesh::Kind::kTile));
  static_assert(TESSERA_DTENSOR_MESH_SINGLE_DEVICE ==
                static_cast<int>(tessera::DTensorMesh::Kind::kSingleDevice));
  return TESSERA_CAPI_GET(mesh, static_cast<tessera_dtensor_mesh_kind_t>(mesh->impl.kind()));
}

const char* tessera_dtensor_mesh_name(const tessera_dtensor_mesh* mesh,
                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl.name().c_str());
}

const char* tessera_dtensor_mesh_device_type(const tessera_dtensor_mesh* mesh,
                                             tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->device_type.c_str());
}

const char* tessera_dtensor_mesh_single_device(const tessera_dtensor_mesh* mesh,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl.single_device().c_str());
}

bool tessera_dtensor_mesh_use_xla_spmd(const tessera_dtensor_mesh* mesh,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl.use_xla_spmd());
}

size_t tessera_dtensor_mesh_num_dims(const tessera_dtensor_mesh* mesh,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl.dims().size());
}

const char* tessera_dtensor_mesh_dim_name(const tessera_dtensor_mesh* mesh, size_t index,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_RETURN_IF_ERROR(CheckEntry(index, mesh->impl.dims().size(), "the mesh's rank"));
    return mesh->impl.dims()[index].name.c_str();
  });
}

bool tessera_dtensor_mesh_dim_extent(const tessera_dtensor_mesh* mesh, size_t index, int64_t* out,
                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(CheckEntry(index, mesh->impl.dims().size(), "the mesh's rank"));
    *out = mesh->impl.dims()[index].size;
    return absl::OkStatus();
  });
}

size_t tessera_dtensor_mesh_num_global_ids(const tessera_dtensor_mesh* mesh,
                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl.global_ids().size());
}

bool tessera_dtensor_mesh_global_id(const tessera_dtensor_mesh* mesh, size_t index, int64_t* out,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(
        CheckEntry(index, mesh->impl.global_ids().size(), "the number of global ids"));
    *out = mesh->impl.global_ids()[index];
    return absl::OkStatus();
  });
}

size_t tessera_dtensor_mesh_num_local_ids(const tessera_dtensor_mesh* mesh,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl.local_ids().size());
}

bool tessera_dtensor_mesh_local_id(const tessera_dtensor_mesh* mesh, size_t index, int64_t* out,
                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(
        CheckEntry(index, mesh->impl.local_ids().size(), "the number of local ids"));
    *out = mesh->impl.local_ids()[index];
    return absl::OkStatus();
  });
}

const char* tessera_dtensor_mesh_local_device(const tessera_dtensor_mesh* mesh, size_t index,
                                             tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_RETURN_IF_ERROR(
        CheckEntry(index, mesh->impl.local_devices().size(), "the number of local devices"));
    return mesh->impl.local_devices()[index].c_str();
  });
}

size_t tessera_dtensor_mesh_num_global_devices(const tessera_dtensor_mesh* mesh,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(mesh, mesh->impl.global_devices().size());
}

const char* tessera_dtensor_mesh_global_device(const tessera_dtensor_mesh* mesh, size_t index,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_RETURN_IF_ERROR(
        CheckEntry(index, mesh->impl.global_devices().size(), "the number of global devices"));
    return mesh->impl.global_devices()[index].c_str();
  });
}
