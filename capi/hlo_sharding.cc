// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/hlo_sharding.h: an XLA HloSharding as a value.
#include "tessera/experimental/hlo_sharding.h"

#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/formats/hlo_sharding.h"

struct tessera_hlo_sharding {
  tessera::HloSharding impl;
};

using tessera::capi::CopyStrings;
using tessera::capi::Guard;

namespace {

tessera_hlo_sharding* NewHloSharding(tessera::HloSharding sharding) {
  return new tessera_hlo_sharding{std::move(sharding)};
}

tessera_hlo_sharding_kind_t KindOf(const tessera::HloSharding& sharding) {
  using Kind = tessera::HloSharding::Kind;
  switch (sharding.kind) {
    case Kind::kMaximal: return TESSERA_HLO_SHARDING_MAXIMAL;
    case Kind::kTiled: return TESSERA_HLO_SHARDING_TILED;
    case Kind::kManual: return TESSERA_HLO_SHARDING_MANUAL;
    case Kind::kUnknown: return TESSERA_HLO_SHARDING_UNKNOWN;
    case Kind::kUnreduced: return TESSERA_HLO_SHARDING_UNREDUCED;
    case Kind::kReplicated: break;
  }
  return TESSERA_HLO_SHARDING_REPLICATED;
}

// A last_tile_dim_replicate group is one REPLICATED subgroup, as XLA's
// ToProto would spell it with last_tile_dims.
std::vector<int64_t> SubgroupTypes(const tessera::HloSharding& sharding) {
  std::vector<int64_t> types(sharding.subgroup_types.begin(), sharding.subgroup_types.end());
  if (sharding.replicate_on_last_tile_dim) types.push_back(tessera::kOpShardingReplicated);
  return types;
}

}  // namespace

tessera_hlo_sharding* tessera_hlo_sharding_parse(const char* text, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_hlo_sharding*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::HloSharding sharding, tessera::ParseHloSharding(text));
    return NewHloSharding(std::move(sharding));
  });
}

void tessera_hlo_sharding_destroy(tessera_hlo_sharding* sharding) noexcept { delete sharding; }

tessera_hlo_sharding* tessera_hlo_sharding_from_layout(const tessera_layout* layout, size_t rank,
                                                       const char* const* manual_axes, size_t num_manual_axes,
                                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_hlo_sharding*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> manual,
                             CopyStrings(manual_axes, num_manual_axes, "manual_axes", "num_manual_axes"));
    TESSERA_ASSIGN_OR_RETURN(tessera::HloSharding sharding,
                             tessera::HloShardingFromLayout(*layout->impl, rank, manual));
    return NewHloSharding(std::move(sharding));
  });
}

tessera_buffer* tessera_hlo_sharding_to_text(const tessera_hlo_sharding* sharding,
                                             tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_buffer*> {
    TESSERA_CAPI_REQUIRE(sharding);
    return tessera::capi::NewBuffer(tessera::HloShardingToString(sharding->impl));
  });
}

tessera_layout* tessera_hlo_sharding_to_layout(const tessera_hlo_sharding* sharding, const tessera_mesh* mesh,
                                               size_t rank, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout*> {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(mesh);
    TESSERA_ASSIGN_OR_RETURN(tessera::TensorLayout layout,
                             tessera::LayoutFromHloSharding(sharding->impl, mesh->impl, rank));
    return tessera::capi::NewLayout(std::move(layout));
  });
}

tessera_hlo_sharding_kind_t tessera_hlo_sharding_kind(const tessera_hlo_sharding* sharding,
                                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(sharding, KindOf(sharding->impl));
}

bool tessera_hlo_sharding_maximal_device(const tessera_hlo_sharding* sharding, int64_t* out,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(out);
    if (sharding->impl.kind != tessera::HloSharding::Kind::kMaximal) {
      return absl::FailedPreconditionError(absl::StrCat("HloSharding ", tessera::HloShardingToString(sharding->impl),
                                                        " is not maximal; expected {maximal device=N}"));
    }
    *out = sharding->impl.maximal_device;
    return absl::OkStatus();
  });
}

size_t tessera_hlo_sharding_tile_dims(const tessera_hlo_sharding* sharding, int64_t* out, size_t capacity,
                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY(sharding, sharding->impl.dims);
}

size_t tessera_hlo_sharding_tile_devices(const tessera_hlo_sharding* sharding, int64_t* out, size_t capacity,
                                         tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY(sharding, tessera::ToV1(sharding->impl).devices);
}

size_t tessera_hlo_sharding_subgroup_types(const tessera_hlo_sharding* sharding, int64_t* out, size_t capacity,
                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY(sharding, SubgroupTypes(sharding->impl));
}
