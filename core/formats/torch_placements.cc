// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/formats/torch_placements.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/formats/text_cursor.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

using Kind = TorchPlacement::Kind;

std::string PlacementText(const TorchPlacement& p) {
  switch (p.kind) {
    case Kind::kReplicate:
      return "Replicate()";
    case Kind::kShard:
      return absl::StrCat("Shard(dim=", p.dim, ")");
    case Kind::kStridedShard:
      break;
  }
  // torch 2.15's repr (older releases wrote "split_factor="; both parse).
  return absl::StrCat("_StridedShard(dim=", p.dim, ", sf=", p.split_factor, ")");
}

// An int that may be negative (PyTorch counts dims from the end).
absl::StatusOr<int64_t> ParseSignedInt(TextCursor& cursor) {
  const bool negative = cursor.TryConsume("-");
  TESSERA_ASSIGN_OR_RETURN(int64_t value, cursor.ExpectInt());
  return negative ? -value : value;
}

// An optional "name=" keyword before an argument; `names` lists the accepted
// spellings.
absl::Status SkipKeyword(TextCursor& cursor, std::initializer_list<absl::string_view> names) {
  for (absl::string_view name : names) {
    if (cursor.TryConsumeWord(name)) return cursor.Expect("=");
  }
  return absl::OkStatus();
}

// The arguments of Shard / _StridedShard after the opening parenthesis.
absl::StatusOr<TorchPlacement> ParseShardArgs(TextCursor& cursor, bool strided) {
  TorchPlacement p;
  p.kind = strided ? Kind::kStridedShard : Kind::kShard;
  TESSERA_RETURN_IF_ERROR(SkipKeyword(cursor, {"dim"}));
  TESSERA_ASSIGN_OR_RETURN(p.dim, ParseSignedInt(cursor));
  if (strided) {
    TESSERA_RETURN_IF_ERROR(cursor.Expect(","));
    TESSERA_RETURN_IF_ERROR(SkipKeyword(cursor, {"split_factor", "sf"}));
    cursor.SkipSpace();
    const size_t at = cursor.position();
    TESSERA_ASSIGN_OR_RETURN(p.split_factor, cursor.ExpectInt());
    if (p.split_factor < 1) {
      return cursor.ErrorAt(at, "0", "is not a split factor; expected an integer >= 1");
    }
  }
  cursor.TryConsume(",");
  TESSERA_RETURN_IF_ERROR(cursor.Expect(")"));
  return p;
}

absl::StatusOr<TorchPlacement> ParsePlacement(TextCursor& cursor) {
  cursor.SkipSpace();
  const size_t at = cursor.position();
  absl::StatusOr<std::string> name = cursor.ExpectIdentifier();
  if (!name.ok()) return cursor.Error("a placement (Shard, Replicate or _StridedShard)");
  if (*name == "R") return TorchPlacement{};
  if (*name == "Replicate") {
    TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
    TESSERA_RETURN_IF_ERROR(cursor.Expect(")"));
    return TorchPlacement{};
  }
  const bool shard = *name == "Shard" || *name == "S";
  const bool strided = *name == "_StridedShard" || *name == "_S";
  if (shard || strided) {
    TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
    return ParseShardArgs(cursor, strided);
  }
  if (*name == "Partial" || *name == "P") {
    return cursor.ErrorAt(at, *name, "placements (pending reductions) have no layout equivalent");
  }
  return cursor.ErrorAt(at, *name,
                        "is not a placement; expected Shard, Replicate or _StridedShard");
}

absl::Status BadPlacements(const std::vector<TorchPlacement>& placements, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("Placements ", TorchPlacementsText(placements), " ", why));
}

// Inserts the mesh dims sharding one tensor dim into a group, last mesh dim
// first: the axes already placed are exactly those after `m` in mesh order,
// so m goes where the sizes before it multiply to its split factor.
absl::StatusOr<AxisGroup> GroupOf(const std::vector<TorchPlacement>& placements,
                                  const DeviceMesh& mesh, const std::vector<size_t>& mesh_dims) {
  std::vector<size_t> order;  // mesh dims, major first
  for (size_t i = mesh_dims.size(); i-- > 0;) {
    const size_t m = mesh_dims[i];
    int64_t product = 1;
    size_t position = 0;
    while (product < placements[m].split_factor && position < order.size()) {
      product *= mesh.shape()[order[position++]];
    }
    if (product != placements[m].split_factor) {
      return BadPlacements(placements,
                           absl::StrCat("give mesh dim ", m, " a split factor of ",
                                        placements[m].split_factor,
                                        " that no order of the dim's mesh axes produces"));
    }
    order.insert(order.begin() + position, m);
  }
  AxisGroup group;
  for (size_t m : order) group.push_back(mesh.axis_names()[m]);
  return group;
}

}  // namespace

absl::StatusOr<std::vector<TorchPlacement>> TorchPlacementsFromLayout(const TensorLayout& layout) {
  if (layout.mesh() == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Layout ", layout.ToString(), " has no mesh; placements are one per mesh dim"));
  }
  const DeviceMesh& mesh = *layout.mesh();
  std::vector<TorchPlacement> placements(mesh.rank());
  for (size_t d = 0; d < layout.rank(); ++d) {
    const AxisGroup& group = layout.axes()[d];
    for (size_t i = 0; i < group.size(); ++i) {
      TESSERA_ASSIGN_OR_RETURN(const size_t m, mesh.AxisIndex(group[i]));
      int64_t split_factor = 1;  // axes before m in the group, after m in the mesh
      for (size_t j = 0; j < i; ++j) {
        TESSERA_ASSIGN_OR_RETURN(const size_t other, mesh.AxisIndex(group[j]));
        if (other > m) split_factor *= mesh.shape()[other];
      }
      TorchPlacement& p = placements[m];
      p.kind = split_factor == 1 ? Kind::kShard : Kind::kStridedShard;
      p.dim = static_cast<int64_t>(d);
      p.split_factor = split_factor;
    }
  }
  return placements;
}

std::string TorchPlacementsText(const std::vector<TorchPlacement>& placements) {
  std::vector<std::string> parts;
  for (const TorchPlacement& p : placements) parts.push_back(PlacementText(p));
  return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

absl::StatusOr<std::vector<TorchPlacement>> ParseTorchPlacements(absl::string_view text) {
  TextCursor cursor(text, "PyTorch placements text");
  absl::string_view close;
  if (cursor.TryConsume("[")) {
    close = "]";
  } else if (cursor.TryConsume("(")) {
    close = ")";
  } else {
    return cursor.Error("'[' or '('");
  }
  std::vector<TorchPlacement> placements;
  while (!cursor.TryConsume(close)) {
    TESSERA_ASSIGN_OR_RETURN(TorchPlacement p, ParsePlacement(cursor));
    placements.push_back(p);
    TESSERA_RETURN_IF_ERROR(CheckRank(placements.size(), "placements"));
    if (!cursor.TryConsume(",")) {
      TESSERA_RETURN_IF_ERROR(cursor.Expect(close));
      break;
    }
  }
  TESSERA_RETURN_IF_ERROR(cursor.ExpectEnd());
  return placements;
}

absl::StatusOr<TensorLayout> LayoutFromTorchPlacements(const std::vector<TorchPlacement>& placements,
                                                       const MeshPtr& mesh, size_t rank) {
  if (mesh == nullptr) {
    return absl::InvalidArgumentError("Argument 'mesh' is NULL; expected the placements' mesh");
  }
  TESSERA_RETURN_IF_ERROR(CheckRank(rank, "rank"));
  if (placements.size() != mesh->rank()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "`placements` must have the same length as `device_mesh.ndim`! Found placements "
        "length: ", placements.size(), ", and device_mesh.ndim: ", mesh->rank(), "."));
  }
  std::vector<TorchPlacement> normalized = placements;
  std::vector<std::vector<size_t>> mesh_dims_of(rank);
  const int64_t signed_rank = static_cast<int64_t>(rank);
  for (size_t m = 0; m < normalized.size(); ++m) {
    TorchPlacement& p = normalized[m];
    if (p.kind == Kind::kReplicate) continue;
    if (p.dim < -signed_rank || p.dim >= signed_rank) {
      return BadPlacements(placements, absl::StrCat("shard dim ", p.dim, " of a tensor of rank ",
                                                    rank, "; expected ", -signed_rank, " to ",
                                                    signed_rank - 1));
    }
    if (p.dim < 0) p.dim += signed_rank;
    if (p.split_factor == 1) p.kind = Kind::kShard;  // _StridedShard(d, 1) is Shard(d)
    mesh_dims_of[p.dim].push_back(m);
  }
  std::vector<AxisGroup> axes(rank);
  for (size_t d = 0; d < rank; ++d) {
    TESSERA_ASSIGN_OR_RETURN(axes[d], GroupOf(normalized, *mesh, mesh_dims_of[d]));
  }
  TESSERA_ASSIGN_OR_RETURN(TensorLayout layout, TensorLayout::Create(std::move(axes), mesh));
  // A _StridedShard over size-1 axes, or one where Shard would do, names no
  // layout exactly: only placements the layout gives back are accepted.
  TESSERA_ASSIGN_OR_RETURN(std::vector<TorchPlacement> again, TorchPlacementsFromLayout(layout));
  if (again != normalized) {
    return BadPlacements(placements, absl::StrCat("are not in canonical form; the layout ",
                                                  PyAxesRepr(layout.axes()), " has ",
                                                  TorchPlacementsText(again)));
  }
  return layout;
}

absl::StatusOr<std::string> LayoutToTorchPlacementsText(const TensorLayout& layout) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<TorchPlacement> placements,
                           TorchPlacementsFromLayout(layout));
  return TorchPlacementsText(placements);
}

absl::StatusOr<TensorLayout> LayoutFromTorchPlacementsText(absl::string_view text,
                                                           const MeshPtr& mesh, size_t rank) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<TorchPlacement> placements, ParseTorchPlacements(text));
  return LayoutFromTorchPlacements(placements, mesh, rank);
}

}  // namespace tessera
