// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The definitions behind tessera_mesh_options and tessera_dtensor_mesh_options,
// shared by the creators in mesh.cc and mesh_construction.cc. Private to capi/.
//
// A field left unset keeps its creator's default; std::optional tells "unset"
// from a set empty value, so a creator can refuse a field it does not read
// instead of ignoring it silently.
#ifndef TESSERA_CAPI_MESH_OPTIONS_H_
#define TESSERA_CAPI_MESH_OPTIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "core/dtensor_config.h"

struct tessera_mesh_options {
  // Devices as written ("cpu:3"); parsed by the creator, which may run after
  // tessera_runtime_initialize changed what a name resolves to.
  std::optional<std::vector<std::string>> devices;
  std::optional<std::string> device_kind;         // tessera_mesh_make, _make_hybrid
  std::optional<bool> sort_granules_by_key;       // tessera_mesh_make_hybrid
  std::optional<bool> allow_split_physical_axes;  // _create_device_mesh, _make_hybrid, _tpu_axis_assignment
  std::optional<bool> contiguous_submeshes;       // tessera_mesh_create_device_mesh
  // The owning process of each device (experimental/mesh_make.h); read by
  // the three JAX creators, with the devices.
  std::optional<std::vector<int64_t>> device_processes;
};

struct tessera_dtensor_mesh_options {
  std::optional<std::string> name;
  std::optional<std::vector<std::string>> devices;
  std::optional<std::string> device_type;
  bool use_xla_spmd = false;
  // tessera_dtensor_mesh_options_set_config (experimental/dtensor_config.h).
  std::optional<tessera::DTensorConfig> config;
};

namespace tessera::capi {

// INVALID_ARGUMENT when `options` sets a field `creator` does not read:
// "Argument 'options' sets device_kind, which tessera_mesh_create does not
// read; expected ...". `field` is the setter's noun.
absl::Status RefuseUnread(bool set, const char* field, const char* creator);

// `options`, or the defaults for NULL (every creator takes NULL).
const tessera_mesh_options& OptionsOrDefault(const tessera_mesh_options* options);
const tessera_dtensor_mesh_options& OptionsOrDefault(const tessera_dtensor_mesh_options* options);

}  // namespace tessera::capi

#endif  // TESSERA_CAPI_MESH_OPTIONS_H_
