// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera_mesh_options and tessera_dtensor_mesh_options: the creators' many
// settings as one growable handle (the pattern of the distribution and copy
// options), so a new field is a new setter, never a new creator.
#include "capi/mesh_options.h"

#include <new>

#include "absl/strings/str_cat.h"
#include "capi/guard.h"
#include "tessera/experimental/mesh_make.h"
#include "tessera/mesh.h"
#include "tessera/mesh_construction.h"

using tessera::capi::CopyStrings;
using tessera::capi::SetOption;

namespace tessera::capi {

absl::Status RefuseUnread(bool set, const char* field, const char* creator) {
  if (!set) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument 'options' sets ", field, ", which ", creator,
                                                 " does not read; expected options without it"));
}

const tessera_mesh_options& OptionsOrDefault(const tessera_mesh_options* options) {
  static const tessera_mesh_options* const defaults = new tessera_mesh_options();
  return options == nullptr ? *defaults : *options;
}

const tessera_dtensor_mesh_options& OptionsOrDefault(const tessera_dtensor_mesh_options* options) {
  static const tessera_dtensor_mesh_options* const defaults = new tessera_dtensor_mesh_options();
  return options == nullptr ? *defaults : *options;
}

}  // namespace tessera::capi

namespace {

// NULL with 0 restores the default (every device); else a copy of the list.
absl::StatusOr<std::optional<std::vector<std::string>>> DeviceList(const char* const* devices,
                                                                   size_t num_devices) {
  if (devices == nullptr && num_devices == 0) return std::optional<std::vector<std::string>>();
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> copied,
                           CopyStrings(devices, num_devices, "devices", "num_devices"));
  return std::optional<std::vector<std::string>>(std::move(copied));
}

}  // namespace

tessera_mesh_options* tessera_mesh_options_create(void) noexcept {
  return new (std::nothrow) tessera_mesh_options();
}

void tessera_mesh_options_destroy(tessera_mesh_options* options) noexcept { delete options; }

bool tessera_mesh_options_set_devices(tessera_mesh_options* options, const char* const* devices,
                                      size_t num_devices, tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_mesh_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.devices, DeviceList(devices, num_devices));
    return absl::OkStatus();
  });
}

bool tessera_mesh_options_set_device_kind(tessera_mesh_options* options, const char* device_kind,
                                          tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_mesh_options& o) -> absl::Status {
    if (device_kind == nullptr) {
      o.device_kind.reset();
    } else {
      o.device_kind = device_kind;
    }
    return absl::OkStatus();
  });
}

bool tessera_mesh_options_set_sort_granules_by_key(tessera_mesh_options* options, bool sort,
                                                   tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_mesh_options& o) -> absl::Status {
    o.sort_granules_by_key = sort;
    return absl::OkStatus();
  });
}

bool tessera_mesh_options_set_allow_split_physical_axes(tessera_mesh_options* options, bool allow,
                                                        tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_mesh_options& o) -> absl::Status {
    o.allow_split_physical_axes = allow;
    return absl::OkStatus();
  });
}

bool tessera_mesh_options_set_contiguous_submeshes(tessera_mesh_options* options, bool contiguous,
                                                   tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_mesh_options& o) -> absl::Status {
    o.contiguous_submeshes = contiguous;
    return absl::OkStatus();
  });
}

bool tessera_mesh_options_set_device_processes(tessera_mesh_options* options, const size_t* process_indices,
                                               size_t num_process_indices, tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_mesh_options& o) -> absl::Status {
    if (process_indices == nullptr && num_process_indices == 0) {
      o.device_processes.reset();
      return absl::OkStatus();
    }
    TESSERA_CAPI_REQUIRE_ARRAY(process_indices, num_process_indices);
    o.device_processes = std::vector<int64_t>(process_indices, process_indices + num_process_indices);
    return absl::OkStatus();
  });
}

tessera_dtensor_mesh_options* tessera_dtensor_mesh_options_create(void) noexcept {
  return new (std::nothrow) tessera_dtensor_mesh_options();
}

void tessera_dtensor_mesh_options_destroy(tessera_dtensor_mesh_options* options) noexcept {
  delete options;
}

bool tessera_dtensor_mesh_options_set_name(tessera_dtensor_mesh_options* options, const char* name,
                                           tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_mesh_options& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(name);
    o.name = name;
    return absl::OkStatus();
  });
}

bool tessera_dtensor_mesh_options_set_devices(tessera_dtensor_mesh_options* options,
                                              const char* const* devices, size_t num_devices,
                                              tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_mesh_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.devices, DeviceList(devices, num_devices));
    return absl::OkStatus();
  });
}

bool tessera_dtensor_mesh_options_set_device_type(tessera_dtensor_mesh_options* options,
                                                  const char* device_type,
                                                  tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_mesh_options& o) -> absl::Status {
    TESSERA_CAPI_REQUIRE(device_type);
    o.device_type = device_type;
    return absl::OkStatus();
  });
}

bool tessera_dtensor_mesh_options_set_use_xla_spmd(tessera_dtensor_mesh_options* options,
                                                   bool use_xla_spmd,
                                                   tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_dtensor_mesh_options& o) -> absl::Status {
    o.use_xla_spmd = use_xla_spmd;
    return absl::OkStatus();
  });
}
