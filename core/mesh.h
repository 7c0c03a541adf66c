// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// DeviceMesh: an n-dimensional grid of devices with named axes.
//
// Devices are placed row-major (C order): with shape (4, 2) the device at
// coordinates (i, j) is devices[i * 2 + j]. A mesh is immutable and shared
// through std::shared_ptr<const DeviceMesh>, so layouts keep it alive.
//
// Validation follows Keras's order and messages, then Tessera's decisions
// (ARCHITECTURE.md): positive dimensions, non-empty and distinct axis names,
// distinct devices of one platform.
#ifndef TESSERA_CORE_MESH_H_
#define TESSERA_CORE_MESH_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/device.h"

namespace tessera {

class DeviceMesh {
 public:
  // Builds a mesh over `devices` (row-major). Errors (INVALID_ARGUMENT):
  // empty shape or axis names, different lengths, a dimension < 1, a product
  // that overflows, a device count that differs from the product, an empty or
  // duplicate axis name, a duplicate device, devices of several platforms.
  static absl::StatusOr<std::shared_ptr<const DeviceMesh>> Create(
      std::vector<int64_t> shape, std::vector<std::string> axis_names,
      std::vector<Device> devices);

  // As Create, with devices given in Keras's string form ("cpu:3").
  static absl::StatusOr<std::shared_ptr<const DeviceMesh>> CreateFromStrings(
      std::vector<int64_t> shape, std::vector<std::string> axis_names,
      absl::Span<const std::string> devices);

  // As Create, over ListDevices() (the default device type).
  static absl::StatusOr<std::shared_ptr<const DeviceMesh>> CreateOverAllDevices(
      std::vector<int64_t> shape, std::vector<std::string> axis_names);

  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<std::string>& axis_names() const { return axis_names_; }
  // Row-major, size() entries.
  const std::vector<Device>& devices() const { return devices_; }
  int64_t size() const { return static_cast<int64_t>(devices_.size()); }
  size_t rank() const { return shape_.size(); }
  Platform platform() const { return devices_.front().platform; }

  // NOT_FOUND naming the axis and the mesh's axes when `name` is unknown.
  absl::StatusOr<size_t> AxisIndex(absl::string_view name) const;
  absl::StatusOr<int64_t> AxisSize(absl::string_view name) const;
  bool HasAxis(absl::string_view name) const;

  // Coordinates of the device with global id `device_id`; NOT_FOUND if the
  // mesh does not hold it.
  absl::StatusOr<std::vector<int64_t>> CoordinatesOf(int64_t device_id) const;
  // Coordinates of the device at row-major position `flat_index`.
  absl::StatusOr<std::vector<int64_t>> CoordinatesOfIndex(int64_t flat_index) const;
  // The device at `coords`; INVALID_ARGUMENT on a rank mismatch, OUT_OF_RANGE
  // on a coordinate outside its axis.
  absl::StatusOr<Device> DeviceAt(absl::Span<const int64_t> coords) const;

  // Keras's repr: <DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>.
  std::string ToString() const;

  // Same shape, axis names and devices in the same order.
  friend bool operator==(const DeviceMesh& a, const DeviceMesh& b);
  friend bool operator!=(const DeviceMesh& a, const DeviceMesh& b) { return !(a == b); }

 private:
  DeviceMesh() = default;

  std::vector<int64_t> shape_;
  std::vector<std::string> axis_names_;
  std::vector<Device> devices_;
  absl::flat_hash_map<int64_t, int64_t> index_of_device_id_;
};

using MeshPtr = std::shared_ptr<const DeviceMesh>;

}  // namespace tessera

#endif  // TESSERA_CORE_MESH_H_
