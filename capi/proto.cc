// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/proto.h: Tessera's protobuf bytes and JSON for meshes, layouts,
// layout maps and distributions.
#include <string>
#include <utility>

#include "capi/guard.h"
#include "capi/handles.h"
#include "core/formats/tessera_proto.h"

using tessera::capi::Guard;

namespace {

// The caller's `size` bytes (NULL allowed only for none).
absl::StatusOr<absl::string_view> Bytes(const void* bytes, size_t size) {
  TESSERA_CAPI_REQUIRE_ARRAY(bytes, size);
  return absl::string_view(size == 0 ? "" : static_cast<const char*>(bytes), size);
}

}  // namespace

tessera_buffer* tessera_mesh_to_proto(const tessera_mesh* mesh, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(std::string bytes, tessera::MeshToProtoBytes(*mesh->impl));
    return tessera::capi::NewBuffer(std::move(bytes));
  });
}

tessera_mesh* tessera_mesh_from_proto(const void* bytes, size_t size,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_ASSIGN_OR_RETURN(const absl::string_view view, Bytes(bytes, size));
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr mesh, tessera::MeshFromProtoBytes(view));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

tessera_buffer* tessera_mesh_to_json(const tessera_mesh* mesh, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(std::string json, tessera::MeshToJson(*mesh->impl));
    return tessera::capi::NewBuffer(std::move(json));
  });
}

tessera_mesh* tessera_mesh_from_json(const char* text, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::MeshPtr mesh, tessera::MeshFromJson(text));
    return tessera::capi::NewMesh(std::move(mesh));
  });
}

tessera_buffer* tessera_layout_to_proto(const tessera_layout* layout,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(std::string bytes, tessera::LayoutToProtoBytes(*layout->impl));
    return tessera::capi::NewBuffer(std::move(bytes));
  });
}

tessera_layout* tessera_layout_from_proto(const void* bytes, size_t size,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_ASSIGN_OR_RETURN(const absl::string_view view, Bytes(bytes, size));
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout, tessera::LayoutFromProtoBytes(view));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_buffer* tessera_layout_to_json(const tessera_layout* layout,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(std::string json, tessera::LayoutToJson(*layout->impl));
    return tessera::capi::NewBuffer(std::move(json));
  });
}

tessera_layout* tessera_layout_from_json(const char* text, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout, tessera::LayoutFromJson(text));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_buffer* tessera_layout_map_to_proto(const tessera_layout_map* map,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_ASSIGN_OR_RETURN(std::string bytes, tessera::LayoutMapToProtoBytes(map->impl));
    return tessera::capi::NewBuffer(std::move(bytes));
  });
}

tessera_layout_map* tessera_layout_map_from_proto(const void* bytes, size_t size,
                                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout_map*> {
    TESSERA_ASSIGN_OR_RETURN(const absl::string_view view, Bytes(bytes, size));
    TESSERA_ASSIGN_OR_RETURN(tessera::LayoutMap map, tessera::LayoutMapFromProtoBytes(view));
    return new tessera_layout_map{std::move(map)};
  });
}

tessera_buffer* tessera_layout_map_to_json(const tessera_layout_map* map,
                                           tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_ASSIGN_OR_RETURN(std::string json, tessera::LayoutMapToJson(map->impl));
    return tessera::capi::NewBuffer(std::move(json));
  });
}

tessera_layout_map* tessera_layout_map_from_json(const char* text,
                                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout_map*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::LayoutMap map, tessera::LayoutMapFromJson(text));
    return new tessera_layout_map{std::move(map)};
  });
}

tessera_buffer* tessera_distribution_to_proto(const tessera_distribution* distribution,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(distribution);
    TESSERA_ASSIGN_OR_RETURN(std::string bytes,
                             tessera::DistributionToProtoBytes(*distribution->impl));
    return tessera::capi::NewBuffer(std::move(bytes));
  });
}

tessera_distribution* tessera_distribution_from_proto(const void* bytes, size_t size,
                                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_distribution*> {
    TESSERA_ASSIGN_OR_RETURN(const absl::string_view view, Bytes(bytes, size));
    TESSERA_ASSIGN_OR_RETURN(tessera::DistributionPtr distribution,
                             tessera::DistributionFromProtoBytes(view));
    return new tessera_distribution{std::move(distribution)};
  });
}

tessera_buffer* tessera_distribution_to_json(const tessera_distribution* distribution,
                                             tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(distribution);
    TESSERA_ASSIGN_OR_RETURN(std::string json, tessera::DistributionToJson(*distribution->impl));
    return tessera::capi::NewBuffer(std::move(json));
  });
}

tessera_distribution* tessera_distribution_from_json(const char* text,
                                                     tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_distribution*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::DistributionPtr distribution,
                             tessera::DistributionFromJson(text));
    return new tessera_distribution{std::move(distribution)};
  });
}
