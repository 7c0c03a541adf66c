// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// PyTorch DTensor placements for a layout, both ways: one placement per MESH
// dim, "[Shard(dim=0), Replicate()]".
//
// From a layout (reference/sharding.md §4.3): mesh dim m not in the layout
// is Replicate(); in the group (t1..tk) of tensor dim d it is Shard(dim=d),
// or _StridedShard(dim=d, sf=sf) where sf is the product of the
// sizes of the group's axes that come before m in the group but after it in
// mesh order (a group against mesh order, as FSDP over TP: S7, S13, S31).
// The printed forms are torch 2.15's reprs: Shard(dim=0), Replicate(),
// _StridedShard(dim=0, sf=2).
//
// Parsing accepts a list or tuple of Shard(0) / Shard(dim=0) / S(0),
// Replicate() / R, and _StridedShard(0, split_factor=2) /
// _StridedShard(dim=0, sf=2) / _S(0, 2); negative dims count from the end as
// in PyTorch. Partial placements have no layout and are rejected.
#ifndef TESSERA_CORE_FORMATS_TORCH_PLACEMENTS_H_
#define TESSERA_CORE_FORMATS_TORCH_PLACEMENTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/layout.h"
#include "core/mesh.h"

namespace tessera {

struct TorchPlacement {
  enum class Kind { kReplicate, kShard, kStridedShard };
  Kind kind = Kind::kReplicate;
  int64_t dim = 0;           // kShard, kStridedShard (negative: from the end)
  int64_t split_factor = 1;  // kStridedShard
  friend bool operator==(const TorchPlacement& a, const TorchPlacement& b) {
    return a.kind == b.kind && a.dim == b.dim && a.split_factor == b.split_factor;
  }
};

// The placements of `layout` (which needs a mesh: FAILED_PRECONDITION).
absl::StatusOr<std::vector<TorchPlacement>> TorchPlacementsFromLayout(const TensorLayout& layout);

// "[Shard(dim=0), _StridedShard(dim=0, sf=2), Replicate()]"
std::string TorchPlacementsText(const std::vector<TorchPlacement>& placements);

// Syntax only; errors name the position and the token.
absl::StatusOr<std::vector<TorchPlacement>> ParseTorchPlacements(absl::string_view text);

// The layout on `mesh` for a tensor of `rank` dims: one placement per mesh
// dim (PyTorch's message otherwise), dims within the rank, and split factors
// that some order of each group's axes produces (INVALID_ARGUMENT naming the
// placements otherwise).
absl::StatusOr<TensorLayout> LayoutFromTorchPlacements(const std::vector<TorchPlacement>& placements,
                                                       const MeshPtr& mesh, size_t rank);

absl::StatusOr<std::string> LayoutToTorchPlacementsText(const TensorLayout& layout);
absl::StatusOr<TensorLayout> LayoutFromTorchPlacementsText(absl::string_view text,
                                                           const MeshPtr& mesh, size_t rank);

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_TORCH_PLACEMENTS_H_
