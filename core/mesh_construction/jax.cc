// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// JAX's mesh construction: create_device_mesh, make_mesh and
// create_hybrid_device_mesh (the TPU orders are in tpu.cc).
#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/device_discovery.h"
#include "core/mesh_construction.h"
#include "core/mesh_construction/grid.h"
#include "core/mesh_construction/tpu.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {

using mesh_construction::Product;
using mesh_construction::ProductIs;
using mesh_construction::Strides;

absl::StatusOr<std::vector<Device>> CreateDeviceMesh(absl::Span<const int64_t> shape,
                                                     std::vector<Device> devices,
                                                     absl::string_view device_kind,
                                                     bool allow_split_physical_axes,
                                                     bool contiguous_submeshes) {
  if (shape.empty() || std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 1; })) {
    return absl::InvalidArgumentError(absl::StrCat(
        "`mesh_shape` passed to `create_device_mesh` should be a sequence of positive ints, got ",
        ShapeToString(shape)));
  }
  const int64_t n = static_cast<int64_t>(devices.size());
  if (!ProductIs(shape, n)) {
    return absl::InvalidArgumentError(absl::StrCat("Number of devices ", n,
                                                   " must equal the product of mesh_shape ",
                                                   ShapeToString(shape)));
  }
  TESSERA_ASSIGN_OR_RETURN(std::optional<std::vector<Device>> tpu_order,
                           mesh_construction::TpuDeviceOrder(shape, devices, device_kind,
                                                             allow_split_physical_axes, contiguous_submeshes));
  if (tpu_order.has_value()) return *std::move(tpu_order);
  if (!devices.empty() && devices.back().platform == Platform::kGpu) {
    std::stable_sort(devices.begin(), devices.end(),
                     [](const Device& a, const Device& b) { return a.id < b.id; });
  } else {
    std::stable_sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) {
      return a.process_index < b.process_index;
    });
  }
  return devices;
}

namespace {

absl::StatusOr<std::vector<Device>> DevicesOrAll(std::optional<std::vector<Device>> devices) {
  if (devices.has_value()) return *std::move(devices);
  return ListDevices();
}

}  // namespace

absl::StatusOr<MeshPtr> CreateDeviceMeshOver(std::vector<int64_t> shape, std::vector<std::string> axis_names,
                                             std::optional<std::vector<Device>> devices,
                                             const CreateDeviceMeshOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> all, DevicesOrAll(std::move(devices)));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> ordered,
                           CreateDeviceMesh(shape, std::move(all), options.device_kind,
                                            options.allow_split_physical_axes, options.contiguous_submeshes));
  return DeviceMesh::Create(std::move(shape), std::move(axis_names), std::move(ordered));
}

absl::StatusOr<std::vector<std::vector<int64_t>>> TpuAxisAssignmentMatrix(absl::Span<const int64_t> physical_shape,
                                                                          absl::Span<const int64_t> mesh_shape,
                                                                          bool allow_split_physical_axes) {
  const std::optional<int64_t> physical_size = Product(physical_shape);
  const std::optional<int64_t> logical_size = Product(mesh_shape);
  const auto positive = [](absl::Span<const int64_t> s) {
    return std::all_of(s.begin(), s.end(), [](int64_t d) { return d >= 1; });
  };
  // Sizes < 1 are left to the assignments' own checks.
  if (positive(physical_shape) && positive(mesh_shape) && physical_size.has_value() &&
      physical_size != logical_size) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'mesh_shape' ", ShapeToString(mesh_shape), " has ",
        logical_size.has_value() ? absl::StrCat(*logical_size) : std::string("more than 2^63"),
        " devices; expected the ", *physical_size, " of physical_shape ", ShapeToString(physical_shape)));
  }
  absl::StatusOr<std::vector<std::vector<size_t>>> whole = TpuTorusAxisAssignment(physical_shape, mesh_shape);
  if (!whole.ok() && allow_split_physical_axes) return TpuTorusSplitAssignment(physical_shape, mesh_shape);
  TESSERA_RETURN_IF_ERROR(whole.status());
  std::vector<std::vector<int64_t>> matrix(physical_shape.size(), std::vector<int64_t>(mesh_shape.size(), 1));
  for (size_t l = 0; l < whole->size(); ++l) {
    for (size_t p : (*whole)[l]) matrix[p][l] = physical_shape[p];
  }
  return matrix;
}

absl::StatusOr<MeshPtr> MakeMesh(std::vector<int64_t> shape, std::vector<std::string> axis_names,
                                 std::optional<std::vector<Device>> devices,
                                 absl::string_view device_kind) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> all, DevicesOrAll(std::move(devices)));
  const std::optional<int64_t> product = Product(shape);
  if (product.has_value() && *product >= 0 && static_cast<int64_t>(all.size()) < *product) {
    return absl::InvalidArgumentError(absl::StrCat("Number of devices ", all.size(),
                                                   " must be >= the product of mesh_shape ",
                                                   ShapeToString(shape)));
  }
  if (product.has_value() && *product >= 0) all.resize(static_cast<size_t>(*product));
  // As jax.make_mesh: v5e slices may split physical axes.
  const bool allow_split = device_kind == "TPU v5 lite" || device_kind == "TPU v5e";
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> ordered,
                           CreateDeviceMesh(shape, std::move(all), device_kind, allow_split));
  return DeviceMesh::Create(std::move(shape), std::move(axis_names), std::move(ordered));
}

namespace {

// Devices grouped by process: by process index, or in order of appearance.
std::vector<std::vector<Device>> Granules(const std::vector<Device>& devices, bool sort_by_key) {
  std::vector<int64_t> keys;
  std::vector<std::vector<Device>> granules;
  for (const Device& d : devices) {
    auto it = std::find(keys.begin(), keys.end(), d.process_index);
    if (it == keys.end()) {
      keys.push_back(d.process_index);
      granules.push_back({d});
    } else {
      granules[it - keys.begin()].push_back(d);
    }
  }
  if (sort_by_key) {
    std::vector<size_t> order(keys.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<std::vector<Device>> sorted;
    for (size_t i : order) sorted.push_back(std::move(granules[i]));
    granules = std::move(sorted);
  }
  return granules;
}

}  // namespace

absl::StatusOr<MeshPtr> MakeHybridMesh(std::vector<int64_t> mesh_shape,
                                       std::vector<int64_t> dcn_mesh_shape,
                                       std::vector<std::string> axis_names,
                                       std::optional<std::vector<Device>> devices,
                                       const HybridMeshOptions& options) {
  if (mesh_shape.size() != dcn_mesh_shape.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mesh_shape ", ShapeToString(mesh_shape), " and dcn_mesh_shape ",
        ShapeToString(dcn_mesh_shape), " must have the same length"));
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> all, DevicesOrAll(std::move(devices)));
  std::vector<std::vector<Device>> granules = Granules(all, options.sort_granules_by_key);
  if (!ProductIs(dcn_mesh_shape, static_cast<int64_t>(granules.size()))) {
    return absl::InvalidArgumentError(absl::StrCat("Number of slices ", granules.size(),
                                                   " must equal the product of dcn_mesh_shape ",
                                                   ShapeToString(dcn_mesh_shape)));
  }
  for (auto& granule : granules) {
    TESSERA_ASSIGN_OR_RETURN(granule,
                             CreateDeviceMesh(mesh_shape, std::move(granule), options.device_kind,
                                              options.allow_split_physical_axes));
  }
  // np.block of the granule grid: along every axis, granule coordinate
  // major, inner coordinate minor.
  const size_t rank = mesh_shape.size();
  std::vector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) shape[i] = mesh_shape[i] * dcn_mesh_shape[i];
  const std::vector<int64_t> inner_strides = Strides(mesh_shape);
  const std::vector<int64_t> outer_strides = Strides(dcn_mesh_shape);
  const int64_t total = static_cast<int64_t>(all.size());
  std::vector<Device> placed;
  placed.reserve(all.size());
  std::vector<int64_t> coords(rank, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t granule = 0;
    int64_t inner = 0;
    for (size_t i = 0; i < rank; ++i) {
      granule += coords[i] / mesh_shape[i] * outer_strides[i];
      inner += coords[i] % mesh_shape[i] * inner_strides[i];
    }
    placed.push_back(granules[granule][inner]);
    for (size_t i = rank; i-- > 0;) {
      if (++coords[i] < shape[i]) break;
      coords[i] = 0;
    }
  }
  return DeviceMesh::Create(std::move(shape), std::move(axis_names), std::move(placed));
}

}  // namespace tessera
