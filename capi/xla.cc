// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/xla.h: HloSharding text and OpSharding bytes for layouts.
#include <string>
#include <vector>

#include "capi/guard.h"
#include "capi/handles.h"
#include "core/formats/hlo_sharding.h"

using tessera::capi::Guard;

tessera_buffer* tessera_layout_to_hlo_sharding(const tessera_layout* layout, size_t rank, bool v2,
                                               tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(std::string text,
                             tessera::LayoutToHloShardingText(*layout->impl, rank, v2));
    return tessera::capi::NewBuffer(std::move(text));
  });
}

tessera_layout* tessera_layout_from_hlo_sharding(const char* text, const tessera_mesh* mesh,
                                                 size_t rank, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::LayoutFromHloShardingText(text, mesh->impl, rank));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_buffer* tessera_layout_to_op_sharding(const tessera_layout* layout, size_t rank, bool v2,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(std::string bytes,
                             tessera::LayoutToOpSharding(*layout->impl, rank, v2));
    return tessera::capi::NewBuffer(std::move(bytes));
  });
}

tessera_layout* tessera_layout_from_op_sharding(const void* bytes, size_t size,
                                                const tessera_mesh* mesh, size_t rank,
                                                tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE_ARRAY(bytes, size);
    TESSERA_CAPI_REQUIRE(mesh);
    const absl::string_view view(size == 0 ? "" : static_cast<const char*>(bytes), size);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::LayoutFromOpSharding(view, mesh->impl, rank));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

size_t tessera_xla_device_order(const tessera_mesh* mesh, int64_t* out, size_t capacity,
                                tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY(mesh, tessera::DeviceOrder(*mesh->impl));
}
