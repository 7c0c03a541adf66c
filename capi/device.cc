// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/device.h: devices and local discovery.
#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"

#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/device.h"
#include "core/device_discovery.h"

using tessera::capi::Guard;

struct tessera_local_devices {
  tessera::LocalDiscovery impl;
};

namespace {

// NULL means the default type, as "" does.
absl::string_view TypeOrDefault(const char* type) {
  return type == nullptr ? absl::string_view() : absl::string_view(type);
}

}  // namespace

tessera_device* tessera_device_parse(const char* text, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_device*> {
    TESSERA_CAPI_REQUIRE(text);
    TESSERA_ASSIGN_OR_RETURN(tessera::Device device, tessera::ParseDevice(text));
    return tessera::capi::NewDevice(device);
  });
}

int64_t tessera_device_id(const tessera_device* device, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(device, device->impl.id);
}

tessera_platform_t tessera_device_platform(const tessera_device* device,
                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(device, static_cast<tessera_platform_t>(device->impl.platform));
}

size_t tessera_device_process_index(const tessera_device* device,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(device, device->impl.process_index);
}

size_t tessera_device_local_ordinal(const tessera_device* device,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(device, device->impl.local_ordinal);
}

const char* tessera_device_name(const tessera_device* device, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(device, device->name.c_str());
}

bool tessera_device_has_coordinates(const tessera_device* device,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(device, device->impl.coords.has_value());
}

bool tessera_device_coordinate(const tessera_device* device, size_t axis, int64_t* out,
                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(device);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(tessera::capi::CheckIndex(axis, 3, "axis", "the coordinates are x, y, z"));
    if (!device->impl.coords.has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "Device ", device->name, " has no coordinates (only TPU devices listed with a place have them)"));
    }
    *out = (*device->impl.coords)[axis];
    return absl::OkStatus();
  });
}

size_t tessera_device_core_on_chip(const tessera_device* device,
                                   tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(device, device->impl.core_on_chip);
}

void tessera_device_destroy(tessera_device* device) noexcept { delete device; }

const char* tessera_platform_name(tessera_platform_t platform) noexcept {
  const int32_t raw = tessera::capi::RawEnum(platform);
  if (raw < 0 || raw >= static_cast<int32_t>(std::size(tessera::capi::kPlatformNames))) {
    return nullptr;
  }
  // PlatformName views a string literal, so the data is NUL-terminated.
  return tessera::PlatformName(static_cast<tessera::Platform>(raw)).data();
}

tessera_device_list* tessera_device_list_create(const char* type, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_device_list*> {
    TESSERA_ASSIGN_OR_RETURN(std::vector<tessera::Device> devices,
                             tessera::ListDevices(TypeOrDefault(type)));
    return new tessera_device_list{std::move(devices)};
  });
}

size_t tessera_device_list_num_devices(const tessera_device_list* list,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(list, list->impl.size());
}

tessera_device* tessera_device_list_device(const tessera_device_list* list, size_t index,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_device*> {
    TESSERA_CAPI_REQUIRE(list);
    TESSERA_RETURN_IF_ERROR(
        tessera::capi::CheckIndex(index, list->impl.size(), "index", "the list's size"));
    return tessera::capi::NewDevice(list->impl[index]);
  });
}

void tessera_device_list_destroy(tessera_device_list* list) noexcept { delete list; }

bool tessera_platform_num_devices(const char* type, size_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const int64_t count, tessera::GetDeviceCount(TypeOrDefault(type)));
    *out = static_cast<size_t>(count);  // a count, never negative
    return absl::OkStatus();
  });
}

namespace {

// The device at `index` after the argument checks every accessor shares.
absl::StatusOr<const tessera::LocalDeviceInfo*> LocalDeviceAt(const tessera_local_devices* devices,
                                                              size_t index) {
  TESSERA_CAPI_REQUIRE(devices);
  TESSERA_RETURN_IF_ERROR(tessera::capi::CheckIndex(index, devices->impl.devices.size(), "index",
                                                    "the number of local devices"));
  return &devices->impl.devices[index];
}

}  // namespace

tessera_local_devices* tessera_local_devices_discover(tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_local_devices*> {
    TESSERA_ASSIGN_OR_RETURN(tessera::LocalDiscovery found, tessera::DiscoverLocal());
    return new tessera_local_devices{std::move(found)};
  });
}

void tessera_local_devices_destroy(tessera_local_devices* devices) noexcept { delete devices; }

size_t tessera_local_devices_num_devices(const tessera_local_devices* devices,
                                         tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(devices, devices->impl.devices.size());
}

const char* tessera_local_devices_provider(const tessera_local_devices* devices,
                                           tessera_error** out_error) noexcept {
  // DiscoveryProviderName views a string literal, so the data is NUL-terminated.
  return TESSERA_CAPI_GET(devices, tessera::DiscoveryProviderName(devices->impl.provider).data());
}

const char* tessera_local_devices_nvml_unavailable_reason(
    const tessera_local_devices* devices, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(devices, devices->impl.nvml_unavailable_reason.c_str());
}

bool tessera_local_devices_platform(const tessera_local_devices* devices, size_t index,
                                    tessera_platform_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const tessera::LocalDeviceInfo* device, LocalDeviceAt(devices, index));
    *out = static_cast<tessera_platform_t>(device->platform);
    return absl::OkStatus();
  });
}

bool tessera_local_devices_ordinal(const tessera_local_devices* devices, size_t index,
                                   size_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const tessera::LocalDeviceInfo* device, LocalDeviceAt(devices, index));
    *out = static_cast<size_t>(device->local_ordinal);  // a position, never negative
    return absl::OkStatus();
  });
}

bool tessera_local_devices_memory_bytes(const tessera_local_devices* devices, size_t index,
                                        int64_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const tessera::LocalDeviceInfo* device, LocalDeviceAt(devices, index));
    *out = device->memory_bytes;
    return absl::OkStatus();
  });
}

const char* tessera_local_devices_kind(const tessera_local_devices* devices, size_t index,
                                       tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_ASSIGN_OR_RETURN(const tessera::LocalDeviceInfo* device, LocalDeviceAt(devices, index));
    return device->kind.c_str();
  });
}

const char* tessera_local_devices_physical_id(const tessera_local_devices* devices, size_t index,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_ASSIGN_OR_RETURN(const tessera::LocalDeviceInfo* device, LocalDeviceAt(devices, index));
    return device->physical_id.c_str();
  });
}

const char* tessera_local_devices_pci_bus_id(const tessera_local_devices* devices, size_t index,
                                             tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_ASSIGN_OR_RETURN(const tessera::LocalDeviceInfo* device, LocalDeviceAt(devices, index));
    return device->pci_bus_id.c_str();
  });
}
