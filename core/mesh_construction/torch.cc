// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// PyTorch's DeviceMesh operations: slicing, flattening, local ranks and
// the groups along an axis.
#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/mesh_construction.h"
#include "core/mesh_construction/grid.h"
#include "core/py_repr.h"
#include "core/status_macros.h"

namespace tessera {

using mesh_construction::Product;
using mesh_construction::Strides;

absl::StatusOr<MeshPtr> SliceMesh(const DeviceMesh& mesh,
                                  absl::Span<const std::string> axis_names, int64_t device_id) {
  if (axis_names.empty()) {
    return absl::InvalidArgumentError(
        "Argument 'axis_names' must name at least one mesh dimension, got ()");
  }
  const std::string names_repr = PyStrTupleRepr(axis_names);
  std::vector<size_t> axes;
  for (const std::string& name : axis_names) {
    if (!mesh.HasAxis(name)) {
      return absl::NotFoundError(absl::StrCat("Invalid mesh_dim_names ", names_repr,
                                              " specified. Valid mesh_dim_names are ",
                                              PyStrTupleRepr(mesh.axis_names()), "."));
    }
    const size_t axis = *mesh.AxisIndex(name);
    if (!axes.empty() && axis <= axes.back()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid mesh_dim_names ", names_repr,
          " specified. Mesh dim indices should be in ascending order."));
    }
    axes.push_back(axis);
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> coords, mesh.CoordinatesOf(device_id));
  std::vector<int64_t> shape;
  std::vector<std::string> names;
  for (size_t axis : axes) {
    shape.push_back(mesh.shape()[axis]);
    names.push_back(mesh.axis_names()[axis]);
  }
  // Walk the sliced axes row-major with the others fixed at the device's
  // coordinates.
  const int64_t count = *Product(shape);
  std::vector<Device> devices;
  devices.reserve(static_cast<size_t>(count));
  for (size_t axis : axes) coords[axis] = 0;
  for (int64_t i = 0; i < count; ++i) {
    TESSERA_ASSIGN_OR_RETURN(Device device, mesh.DeviceAt(coords));
    devices.push_back(device);
    for (size_t k = axes.size(); k-- > 0;) {
      if (++coords[axes[k]] < mesh.shape()[axes[k]]) break;
      coords[axes[k]] = 0;
    }
  }
  return DeviceMesh::Create(std::move(shape), std::move(names), std::move(devices));
}

absl::StatusOr<MeshPtr> FlattenMesh(const DeviceMesh& mesh, absl::string_view name) {
  const std::string flat_name =
      name.empty() ? absl::StrJoin(mesh.axis_names(), "_") : std::string(name);
  if (mesh.rank() > 1 && mesh.HasAxis(flat_name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Flattened mesh dim name ", PyStrRepr(flat_name),
        " already exists in the mesh's mesh_dim_names ", PyStrTupleRepr(mesh.axis_names())));
  }
  return DeviceMesh::Create({mesh.size()}, {flat_name}, mesh.devices());
}

absl::StatusOr<int64_t> LocalRankOf(const DeviceMesh& mesh, absl::string_view axis_name,
                                    int64_t device_id) {
  TESSERA_ASSIGN_OR_RETURN(size_t axis, mesh.AxisIndex(axis_name));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> coords, mesh.CoordinatesOf(device_id));
  return coords[axis];
}

absl::StatusOr<std::vector<std::vector<int64_t>>> AxisGroups(const DeviceMesh& mesh,
                                                             absl::string_view axis_name) {
  TESSERA_ASSIGN_OR_RETURN(size_t axis, mesh.AxisIndex(axis_name));
  // mesh.swapdims(-1, axis): position k of the swapped array reads axis
  // perm[k] of the mesh.
  const size_t rank = mesh.rank();
  std::vector<size_t> perm(rank);
  for (size_t k = 0; k < rank; ++k) perm[k] = k;
  std::swap(perm[axis], perm[rank - 1]);
  const std::vector<int64_t> strides = Strides(mesh.shape());
  const int64_t group_size = mesh.shape()[axis];
  std::vector<std::vector<int64_t>> groups;
  std::vector<int64_t> t(rank, 0);  // index into the swapped array
  for (int64_t i = 0; i < mesh.size(); ++i) {
    int64_t flat = 0;
    for (size_t k = 0; k < rank; ++k) flat += t[k] * strides[perm[k]];
    if (i % group_size == 0) groups.emplace_back();
    groups.back().push_back(mesh.devices()[flat].id);
    for (size_t k = rank; k-- > 0;) {
      if (++t[k] < mesh.shape()[perm[k]]) break;
      t[k] = 0;
    }
  }
  return groups;
}

}  // namespace tessera
