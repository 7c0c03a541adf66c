// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/layout.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

// Each axis names a mesh axis at most once across the whole layout: a mesh
// axis can only split one dimension (JAX rejects the same).
absl::Status CheckAxes(const std::vector<AxisGroup>& axes) {
  absl::flat_hash_map<absl::string_view, size_t> dim_of_axis;
  for (size_t dim = 0; dim < axes.size(); ++dim) {
    for (const std::string& axis : axes[dim]) {
      if (axis.empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Argument 'axes' dimension ", dim,
            " names an empty axis; expected a mesh axis name"));
      }
      auto [it, inserted] = dim_of_axis.emplace(axis, dim);
      if (!inserted) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Argument 'axes' uses mesh axis ", PyStrRepr(axis), " twice (dimensions ",
            it->second, " and ", dim, "); expected each axis at most once"));
      }
    }
  }
  return absl::OkStatus();
}

// Keras's _validate_axes, with its message.
absl::Status CheckAxesInMesh(const std::vector<AxisGroup>& axes, const DeviceMesh& mesh) {
  std::vector<std::string> used;
  bool unknown = false;
  for (const AxisGroup& group : axes) {
    for (const std::string& axis : group) {
      used.push_back(axis);
      if (!mesh.HasAxis(axis)) unknown = true;
    }
  }
  if (!unknown) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Invalid axis names for Layout. Valid axis names: ",
      PyStrSetRepr(mesh.axis_names()), ", Got ", PyStrSetRepr(std::move(used))));
}

}  // namespace

absl::StatusOr<TensorLayout> TensorLayout::Create(std::vector<AxisGroup> axes,
                                                  MeshPtr mesh) {
  TESSERA_RETURN_IF_ERROR(CheckRank(axes.size(), "axes"));
  // Keras validates the names against the mesh first: an unknown axis named
  // twice is an invalid name, not a repetition.
  if (mesh != nullptr) TESSERA_RETURN_IF_ERROR(CheckAxesInMesh(axes, *mesh));
  TESSERA_RETURN_IF_ERROR(CheckAxes(axes));
  return TensorLayout(std::move(axes), std::move(mesh));
}

absl::StatusOr<TensorLayout> TensorLayout::Replicated(size_t rank, MeshPtr mesh) {
  TESSERA_RETURN_IF_ERROR(CheckRank(rank, "rank"));
  return TensorLayout(std::vector<AxisGroup>(rank), std::move(mesh));
}

absl::StatusOr<TensorLayout> TensorLayout::WithMesh(MeshPtr mesh) const {
  if (mesh == nullptr) {
    return absl::InvalidArgumentError("Argument 'mesh' is NULL; expected a device mesh");
  }
  if (mesh_ != nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Cannot override device mesh value. Existing value is ", mesh_->ToString()));
  }
  TESSERA_RETURN_IF_ERROR(CheckAxesInMesh(axes_, *mesh));
  return TensorLayout(axes_, std::move(mesh));
}

absl::StatusOr<int64_t> TensorLayout::ShardCount(size_t dim) const {
  if (mesh_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Layout ", ToString(), " has no device mesh; shard counts need one"));
  }
  if (dim >= axes_.size()) {
    return absl::OutOfRangeError(absl::StrCat("Argument 'dim' is ", dim, "; expected less than ",
                                              axes_.size(), " (the layout's rank)"));
  }
  int64_t count = 1;
  for (const std::string& axis : axes_[dim]) {
    TESSERA_ASSIGN_OR_RETURN(const int64_t size, mesh_->AxisSize(axis));
    count *= size;  // cannot overflow: a product of distinct mesh dimensions
  }
  return count;
}

absl::Status TensorLayout::CheckShape(absl::Span<const int64_t> shape,
                                      ShapeCheck mode) const {
  if (mesh_ == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Layout ", ToString(), " has no device mesh; give it one before checking a shape"));
  }
  if (shape.size() != axes_.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'shape' ", ShapeToString(shape), " has rank ", shape.size(),
        "; the layout ", PyAxesRepr(axes_), " expects rank ", axes_.size()));
  }
  TESSERA_RETURN_IF_ERROR(CheckTensorShape(shape, "shape"));
  if (mode == ShapeCheck::kChunk) return absl::OkStatus();
  for (size_t dim = 0; dim < shape.size(); ++dim) {
    TESSERA_ASSIGN_OR_RETURN(const int64_t shards, ShardCount(dim));
    if (shape[dim] % shards != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'shape' ", ShapeToString(shape), " dimension ", dim, " has size ",
          shape[dim], ", which is not divisible by ", shards, ", the number of shards of mesh axes ",
          PyAxisGroupRepr(axes_[dim]), "; expected a multiple of ", shards,
          " (or the chunk shape check)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> TensorLayout::MaxShardShape(
    absl::Span<const int64_t> shape) const {
  TESSERA_RETURN_IF_ERROR(CheckShape(shape, ShapeCheck::kChunk));
  std::vector<int64_t> out(shape.size());
  for (size_t dim = 0; dim < shape.size(); ++dim) {
    TESSERA_ASSIGN_OR_RETURN(const int64_t shards, ShardCount(dim));
    out[dim] = shape[dim] / shards + (shape[dim] % shards != 0 ? 1 : 0);
  }
  return out;
}

std::string TensorLayout::ToString() const {
  return absl::StrCat("<TensorLayout axes=", PyAxesRepr(axes_), ", device_mesh=",
                      mesh_ ? mesh_->ToString() : "None", ">");
}

bool operator==(const TensorLayout& a, const TensorLayout& b) {
  if (a.axes_ != b.axes_) return false;
  if (a.mesh_ == b.mesh_) return true;
  if (a.mesh_ == nullptr || b.mesh_ == nullptr) return false;
  return *a.mesh_ == *b.mesh_;
}

}  // namespace tessera
