// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/layout_map.h: regex rules from variable paths to layouts.
#include <string>

#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/layout_map.h"

using tessera::capi::CheckIndex;
using tessera::capi::Guard;

tessera_layout_map* tessera_layout_map_create(const tessera_mesh* mesh, tessera_key_match_t match,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout_map*> {
    TESSERA_ASSIGN_OR_RETURN(
        tessera::KeyMatch key_match,
        tessera::capi::ToCoreEnum<tessera::KeyMatch>(match, tessera::capi::kKeyMatchNames,
                                                     "match"));
    return new tessera_layout_map{
        tessera::LayoutMap(tessera::capi::MeshOrNull(mesh), key_match)};
  });
}

void tessera_layout_map_destroy(tessera_layout_map* map) noexcept { delete map; }

bool tessera_layout_map_set(tessera_layout_map* map, const char* key,
                            const tessera_layout* layout, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_CAPI_REQUIRE(key);
    TESSERA_CAPI_REQUIRE(layout);
    return map->impl.Set(key, *layout->impl);  // a copy: the caller's layout is unchanged
  });
}

bool tessera_layout_map_remove(tessera_layout_map* map, const char* key,
                               tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_CAPI_REQUIRE(key);
    return map->impl.Delete(key);
  });
}

tessera_layout* tessera_layout_map_lookup(const tessera_layout_map* map, const char* path,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_CAPI_REQUIRE(path);
    TESSERA_ASSIGN_OR_RETURN(tessera::LayoutPtr layout, map->impl.Get(path));
    if (layout == nullptr) return static_cast<tessera_layout*>(nullptr);  // no rule: no error
    return tessera::capi::NewLayout(std::move(layout));
  });
}

bool tessera_layout_map_lookup_rule(const tessera_layout_map* map, const char* path,
                                    size_t* out_index, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_CAPI_REQUIRE(path);
    TESSERA_CAPI_REQUIRE(out_index);
    TESSERA_ASSIGN_OR_RETURN(const int64_t index, map->impl.Find(path));
    *out_index = index < 0 ? TESSERA_NO_INDEX : static_cast<size_t>(index);
    return absl::OkStatus();
  });
}

size_t tessera_layout_map_num_rules(const tessera_layout_map* map,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(map, map->impl.size());
}

const char* tessera_layout_map_key(const tessera_layout_map* map, size_t index,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_RETURN_IF_ERROR(CheckIndex(index, map->impl.size(), "index", "the map's size"));
    return map->impl.key(index).c_str();
  });
}

tessera_layout* tessera_layout_map_layout(const tessera_layout_map* map, size_t index,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(map);
    TESSERA_RETURN_IF_ERROR(CheckIndex(index, map->impl.size(), "index", "the map's size"));
    return tessera::capi::NewLayout(map->impl.layout(index));
  });
}

tessera_mesh* tessera_layout_map_mesh(const tessera_layout_map* map,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_mesh*> {
    TESSERA_CAPI_REQUIRE(map);
    if (map->impl.mesh() == nullptr) return static_cast<tessera_mesh*>(nullptr);
    return tessera::capi::NewMesh(map->impl.mesh());
  });
}

tessera_key_match_t tessera_layout_map_match(const tessera_layout_map* map,
                                             tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(map, static_cast<tessera_key_match_t>(map->impl.match()));
}
