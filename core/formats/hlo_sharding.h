// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// XLA HloSharding for a layout: the text XLA prints (V1 device list and V2
// iota forms), the OpSharding protobuf bytes (wire-compatible with
// xla_data.proto), and the way back to a layout on a given mesh.
//
// Export follows JAX's NamedSharding._to_xla_hlo_sharding and XLA's
// normalisations exactly (reference/sharding.md §2.4, §3.1-§3.2): size-1
// mesh axes are dropped, the iota is canonicalised, the unused axes form a
// `last_tile_dim_replicate` group (regrouped by GroupMinorIotaDimsSorted when
// needed), and a sharding that splits nothing is `{replicated}`.
//
// Tile assignments hold LOGICAL indices: positions in the mesh's row-major
// device list. The device ids behind them are DeviceOrder(mesh).
#ifndef TESSERA_CORE_FORMATS_HLO_SHARDING_H_
#define TESSERA_CORE_FORMATS_HLO_SHARDING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/layout.h"
#include "core/mesh.h"

namespace tessera {

// An XLA HloSharding (tuples and V3 named shardings aside): replicated,
// manual, unknown, unreduced, maximal (one device holds everything) and
// tiled, with either a replication group as the last tile dim or typed
// subgroups (last_tile_dims) as the last tile dims.
struct HloSharding {
  enum class Kind { kReplicated, kMaximal, kTiled, kManual, kUnknown, kUnreduced };

  Kind kind = Kind::kReplicated;
  int64_t maximal_device = 0;  // kMaximal
  // kTiled: the tile dims, the replication dim included when
  // replicate_on_last_tile_dim, the subgroup dims when subgroup_types.
  std::vector<int64_t> dims;
  bool replicate_on_last_tile_dim = false;
  // last_tile_dims: one xla.OpSharding.Type per trailing subgroup dim, in
  // XLA's order (MAXIMAL, TUPLE, OTHER, MANUAL, UNREDUCED, REPLICATED).
  std::vector<int> subgroup_types;
  // V2 (iota) when iota_reshape_dims is not empty: iota(N) reshaped to
  // iota_reshape_dims, transposed by iota_transpose_perm, reshaped to dims.
  std::vector<int64_t> iota_reshape_dims;
  std::vector<int64_t> iota_transpose_perm;
  // V1: the logical index of every tile, row-major over dims.
  std::vector<int64_t> devices;

  bool is_iota() const { return !iota_reshape_dims.empty(); }
  friend bool operator==(const HloSharding& a, const HloSharding& b);
};

// xla.OpSharding.Type values, as subgroup_types holds them.
inline constexpr int kOpShardingReplicated = 0;
inline constexpr int kOpShardingMaximal = 1;
inline constexpr int kOpShardingManual = 4;
inline constexpr int kOpShardingUnreduced = 6;

// The sharding JAX builds for `layout` (which needs a mesh) on a tensor of
// `rank` dims, in V2 form. `manual_axes` are the mesh axes of type Manual
// (JAX inside shard_map): they form a MANUAL subgroup beside the replicated
// one (last_tile_dims={manual, replicated}), or {manual} when nothing else
// is split; a manual axis may not shard a dimension. INVALID_ARGUMENT when
// rank < layout.rank() (JAX: "only valid for values of rank at least ..."),
// for a manual axis the mesh lacks or the layout uses; FAILED_PRECONDITION
// without a mesh. O(mesh rank + tensor rank).
absl::StatusOr<HloSharding> HloShardingFromLayout(const TensorLayout& layout, size_t rank,
                                                  absl::Span<const std::string> manual_axes = {});

// The same sharding with the tile assignment written out (V1). O(N).
HloSharding ToV1(const HloSharding& sharding);

// The text XLA prints: {replicated}, {manual}, {unknown}, {unreduced},
// {maximal device=3}, {devices=[2,4]<=[8]}, {devices=[4,2]0,4,1,5,2,6,3,7},
// with " last_tile_dim_replicate" when the last dim is a replication group
// and " last_tile_dims={manual, replicated}" for typed subgroups.
std::string HloShardingToString(const HloSharding& sharding);

// Parses the text above (spaces between tokens are allowed), normalised as
// XLA's parser builds it (HloSharding::PartialTile for
// last_tile_dim_replicate: groups sorted, a group of every device is
// {replicated}; HloSharding::Subgroup for last_tile_dims: size-1 subgroups
// dropped, equal types merged, types reordered, {manual} / {replicated} /
// {unreduced} when no data dim is split), and checks it as XLA's Validate
// does: positive dims, an iota whose dims multiply to the device count and
// whose perm is a permutation, a V1 list of distinct indices >= 0, more than
// one device ("non-maximal shardings must have more than one device
// assigned"). Subgroup types are manual, maximal, replicated, unreduced.
// Tuples and V3 named shardings are rejected. Errors name the position and
// token.
absl::StatusOr<HloSharding> ParseHloSharding(absl::string_view text);

// The layout on `mesh` that produces `sharding` for a tensor of `rank` dims:
// {replicated} (and any tiling that splits nothing) gives a replicated
// layout; {maximal device=0} does so only on a one-device mesh. Manual,
// unknown and unreduced shardings and typed subgroups other than one
// replication group have no layout (INVALID_ARGUMENT saying so). A tiled
// sharding must cover exactly the mesh's devices, have `rank` data dims and
// equal (as XLA compares shardings: replication groups as sets) the sharding
// of some layout on `mesh`; otherwise INVALID_ARGUMENT naming it. Size-1 mesh
// axes never appear in the result (the text cannot carry them). O(N).
absl::StatusOr<TensorLayout> LayoutFromHloSharding(const HloSharding& sharding,
                                                   const MeshPtr& mesh, size_t rank);

// OpSharding bytes (xla_data.proto field numbers; see
// proto/tessera/v1/xla_op_sharding.proto): iota fields for V2, the device
// list for V1, as XLA's HloSharding::ToProto writes them.
std::string HloShardingToOpSharding(const HloSharding& sharding);

// Parses and validates OpSharding bytes (as XLA's FromProto): INVALID_ARGUMENT
// for bytes that are not a message, unknown or unsupported fields (tuple,
// manual, metadata, named shardings), both a device list and iota fields,
// replicate_on_last_tile_dim together with last_tile_dims, and every check of
// ParseHloSharding. A tiling of one device is {replicated}.
absl::StatusOr<HloSharding> ParseOpSharding(absl::string_view bytes);

// Convenience: layout -> text / bytes (v2 = iota form, else V1), and back.
absl::StatusOr<std::string> LayoutToHloShardingText(const TensorLayout& layout, size_t rank,
                                                    bool v2);
absl::StatusOr<TensorLayout> LayoutFromHloShardingText(absl::string_view text,
                                                       const MeshPtr& mesh, size_t rank);
absl::StatusOr<std::string> LayoutToOpSharding(const TensorLayout& layout, size_t rank, bool v2);
absl::StatusOr<TensorLayout> LayoutFromOpSharding(absl::string_view bytes, const MeshPtr& mesh,
                                                  size_t rank);

// The device id behind each logical index: the mesh's devices, row-major.
std::vector<int64_t> DeviceOrder(const DeviceMesh& mesh);

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_HLO_SHARDING_H_
