// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/mesh.h"

#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

std::string Received(absl::Span<const int64_t> shape,
                     absl::Span<const std::string> axis_names) {
  return absl::StrCat("Received: shape=", ShapeToString(shape),
                      ", axis_names=", PyStrListRepr(axis_names));
}

absl::Status CheckShapeAndNames(absl::Span<const int64_t> shape,
                                absl::Span<const std::string> axis_names) {
  if (shape.empty() || axis_names.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Shape and axis_names cannot be empty. ", Received(shape, axis_names)));
  }
  if (shape.size() != axis_names.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Shape and axis_names should have same size. ", Received(shape, axis_names)));
  }
  TESSERA_RETURN_IF_ERROR(CheckRank(shape.size(), "shape"));
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'shape' ", ShapeToString(shape), " has dimension ", i,
          " equal to ", shape[i], "; expected sizes >= 1"));
    }
  }
  absl::flat_hash_map<absl::string_view, size_t> seen;
  for (size_t i = 0; i < axis_names.size(); ++i) {
    if (axis_names[i].empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'axis_names' entry ", i, " is empty; expected a non-empty name"));
    }
    auto [it, inserted] = seen.emplace(axis_names[i], i);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'axis_names' ", PyStrListRepr(axis_names), " names axis ",
          PyStrRepr(axis_names[i]), " twice (entries ", it->second, " and ", i,
          "); expected distinct names"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDevices(absl::Span<const Device> devices) {
  absl::flat_hash_map<int64_t, size_t> seen;
  seen.reserve(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].platform != devices[0].platform) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'devices' mixes platforms: entry 0 is '", devices[0].ToString(),
          "' and entry ", i, " is '", devices[i].ToString(),
          "'; expected devices of one platform"));
    }
    auto [it, inserted] = seen.emplace(devices[i].id, i);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'devices' lists '", devices[i].ToString(), "' twice (entries ",
          it->second, " and ", i, "); expected distinct devices"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const DeviceMesh>> DeviceMesh::Create(
    std::vector<int64_t> shape, std::vector<std::string> axis_names,
    std::vector<Device> devices) {
  TESSERA_RETURN_IF_ERROR(CheckShapeAndNames(shape, axis_names));
  TESSERA_ASSIGN_OR_RETURN(const int64_t size, CheckedProduct(shape, "shape"));
  if (static_cast<uint64_t>(size) != devices.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Shape does not match the number of devices. Received: shape=",
        ShapeToString(shape), "; devices.shape=(", devices.size(), ",)"));
  }
  TESSERA_RETURN_IF_ERROR(CheckDevices(devices));
  std::shared_ptr<DeviceMesh> mesh(new DeviceMesh());
  mesh->index_of_device_id_.reserve(devices.size());
  for (size_t i = 0; i < devices.size(); ++i) {
    mesh->index_of_device_id_.emplace(devices[i].id, static_cast<int64_t>(i));
  }
  mesh->shape_ = std::move(shape);
  mesh->axis_names_ = std::move(axis_names);
  mesh->devices_ = std::move(devices);
  return std::shared_ptr<const DeviceMesh>(std::move(mesh));
}

absl::StatusOr<std::shared_ptr<const DeviceMesh>> DeviceMesh::CreateFromStrings(
    std::vector<int64_t> shape, std::vector<std::string> axis_names,
    absl::Span<const std::string> devices) {
  // Keras checks shape and names before it looks at the devices.
  TESSERA_RETURN_IF_ERROR(CheckShapeAndNames(shape, axis_names));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> parsed, ParseDevices(devices));
  return Create(std::move(shape), std::move(axis_names), std::move(parsed));
}

absl::StatusOr<std::shared_ptr<const DeviceMesh>> DeviceMesh::CreateOverAllDevices(
    std::vector<int64_t> shape, std::vector<std::string> axis_names) {
  TESSERA_RETURN_IF_ERROR(CheckShapeAndNames(shape, axis_names));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> devices, ListDevices());
  return Create(std::move(shape), std::move(axis_names), std::move(devices));
}

absl::StatusOr<size_t> DeviceMesh::AxisIndex(absl::string_view name) const {
  for (size_t i = 0; i < axis_names_.size(); ++i) {
    if (axis_names_[i] == name) return i;
  }
  return absl::NotFoundError(absl::StrCat("Axis ", PyStrRepr(name),
                                          " is not in the mesh; its axes are ",
                                          PyStrListRepr(axis_names_)));
}

bool DeviceMesh::HasAxis(absl::string_view name) const { return AxisIndex(name).ok(); }

absl::StatusOr<int64_t> DeviceMesh::AxisSize(absl::string_view name) const {
  TESSERA_ASSIGN_OR_RETURN(const size_t index, AxisIndex(name));
  return shape_[index];
}

absl::StatusOr<std::vector<int64_t>> DeviceMesh::CoordinatesOfIndex(int64_t flat_index) const {
  if (flat_index < 0 || flat_index >= size()) {
    return absl::OutOfRangeError(absl::StrCat("Device index ", flat_index,
                                              " is outside the mesh; expected 0 to ",
                                              size() - 1));
  }
  std::vector<int64_t> coords(shape_.size());
  for (size_t d = shape_.size(); d-- > 0;) {
    coords[d] = flat_index % shape_[d];
    flat_index /= shape_[d];
  }
  return coords;
}

absl::StatusOr<std::vector<int64_t>> DeviceMesh::CoordinatesOf(int64_t device_id) const {
  auto it = index_of_device_id_.find(device_id);
  if (it == index_of_device_id_.end()) {
    return absl::NotFoundError(absl::StrCat("Device id ", device_id, " is not in the mesh ",
                                            ToString()));
  }
  return CoordinatesOfIndex(it->second);
}

absl::StatusOr<Device> DeviceMesh::DeviceAt(absl::Span<const int64_t> coords) const {
  if (coords.size() != shape_.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'coords' has ", coords.size(), " entries; expected the mesh rank ",
        shape_.size()));
  }
  int64_t flat = 0;
  for (size_t d = 0; d < coords.size(); ++d) {
    if (coords[d] < 0 || coords[d] >= shape_[d]) {
      return absl::OutOfRangeError(absl::StrCat(
          "Argument 'coords' entry ", d, " is ", coords[d], "; expected 0 to ",
          shape_[d] - 1, " on axis ", PyStrRepr(axis_names_[d])));
    }
    flat = flat * shape_[d] + coords[d];
  }
  return devices_[flat];
}

std::string DeviceMesh::ToString() const {
  return absl::StrCat("<DeviceMesh shape=", ShapeToString(shape_),
                      ", axis_names=", PyStrListRepr(axis_names_), ">");
}

bool operator==(const DeviceMesh& a, const DeviceMesh& b) {
  return &a == &b || (a.shape_ == b.shape_ && a.axis_names_ == b.axis_names_ &&
                      a.devices_ == b.devices_);
}

}  // namespace tessera
