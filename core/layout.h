// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TensorLayout: how each dimension of a tensor maps onto mesh axes.
//
// One entry per tensor dimension: an empty group (replicated, Keras's None),
// one mesh axis, or an ordered group of axes (the dimension is split over the
// product of those axes, major to minor in the order given, as JAX's tuple
// entries). A layout may be created without a mesh and given one exactly once
// (WithMesh), as Keras's TensorLayout.device_mesh setter; layouts are values,
// so "giving" a mesh returns a new layout.
#ifndef TESSERA_CORE_LAYOUT_H_
#define TESSERA_CORE_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/mesh.h"

namespace tessera {

// The mesh axes one tensor dimension is split over; empty = replicated.
using AxisGroup = std::vector<std::string>;

// How a layout is checked against a tensor shape. Numbers match
// tessera_shape_check_t in the C ABI.
enum class ShapeCheck {
  kStrict = 0,  // every sharded dimension divisible by its shard count (JAX)
  kChunk = 1,   // uneven shards allowed (ceil-sized chunks, XLA/DTensor)
};

class TensorLayout {
 public:
  // Fails with INVALID_ARGUMENT on a rank above kMaxRank, an empty axis name or an axis used twice
  // (in one group or across dimensions); with a mesh, also on axis names the
  // mesh lacks (Keras: "Invalid axis names for Layout. ...").
  static absl::StatusOr<TensorLayout> Create(std::vector<AxisGroup> axes,
                                             MeshPtr mesh = nullptr);

  // A layout of `rank` replicated dimensions; INVALID_ARGUMENT above kMaxRank.
  static absl::StatusOr<TensorLayout> Replicated(size_t rank, MeshPtr mesh);

  // This layout on `mesh`. FAILED_PRECONDITION if it already has one
  // ("Cannot override device mesh value. ..."); INVALID_ARGUMENT if its axes
  // are not in `mesh`.
  absl::StatusOr<TensorLayout> WithMesh(MeshPtr mesh) const;

  const std::vector<AxisGroup>& axes() const { return axes_; }
  size_t rank() const { return axes_.size(); }
  const MeshPtr& mesh() const { return mesh_; }

  // Number of shards of dimension `dim`: the product of its axes' sizes (1 if
  // replicated). Needs a mesh (FAILED_PRECONDITION) and dim < rank
  // (OUT_OF_RANGE).
  absl::StatusOr<int64_t> ShardCount(size_t dim) const;

  // Checks the layout against a global tensor shape: a mesh is attached,
  // ranks agree, dimensions are >= 0 and (kStrict) each sharded dimension is
  // divisible by its shard count. INVALID_ARGUMENT names the dimension, its
  // size, the axes and the count.
  absl::Status CheckShape(absl::Span<const int64_t> shape,
                          ShapeCheck mode = ShapeCheck::kStrict) const;

  // The largest per-device shard shape: ceil(dim / shards) per dimension.
  // Runs CheckShape(shape, kChunk) first.
  absl::StatusOr<std::vector<int64_t>> MaxShardShape(
      absl::Span<const int64_t> shape) const;

  // Keras's repr: <TensorLayout axes=('data', None), device_mesh=<...>>.
  std::string ToString() const;

  // Same axes and equal meshes (both absent, or equal by value).
  friend bool operator==(const TensorLayout& a, const TensorLayout& b);
  friend bool operator!=(const TensorLayout& a, const TensorLayout& b) { return !(a == b); }

 private:
  TensorLayout(std::vector<AxisGroup> axes, MeshPtr mesh)
      : axes_(std::move(axes)), mesh_(std::move(mesh)) {}

  std::vector<AxisGroup> axes_;
  MeshPtr mesh_;
};

using LayoutPtr = std::shared_ptr<const TensorLayout>;

}  // namespace tessera

#endif  // TESSERA_CORE_LAYOUT_H_
