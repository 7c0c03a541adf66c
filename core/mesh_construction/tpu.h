// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// JAX's TPU device orders for create_device_mesh: the tray rings, the
// per-kind orders of small slices and the placement on the chips' torus
// (core/mesh_construction.h describes them).
#ifndef TESSERA_CORE_MESH_CONSTRUCTION_TPU_H_
#define TESSERA_CORE_MESH_CONSTRUCTION_TPU_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/device.h"

namespace tessera::mesh_construction {

// The order JAX gives `devices` of `device_kind` for `shape`, or nullopt
// where no TPU rule applies (the caller then orders them as any platform's).
// `shape` is valid and its product is devices.size(). `contiguous_submeshes`
// applies JAX's transpose trick before the torus placement (the per-kind
// orders ignore it, as JAX's handlers do).
absl::StatusOr<std::optional<std::vector<Device>>> TpuDeviceOrder(absl::Span<const int64_t> shape,
                                                                  const std::vector<Device>& devices,
                                                                  absl::string_view device_kind,
                                                                  bool allow_split_physical_axes,
                                                                  bool contiguous_submeshes = false);

}  // namespace tessera::mesh_construction

#endif  // TESSERA_CORE_MESH_CONSTRUCTION_TPU_H_
