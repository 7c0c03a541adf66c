// tessera/device.h: devices and local discovery.
#include <iterator>
#include <string>

#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/device.h"

using tessera::capi::Guard;

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

int64_t tessera_device_id(const tessera_device* device) noexcept {
  return device == nullptr ? 0 : device->impl.id;
}

tessera_platform tessera_device_platform(const tessera_device* device) noexcept {
  return device == nullptr ? TESSERA_PLATFORM_CPU
                           : static_cast<tessera_platform>(device->impl.platform);
}

int64_t tessera_device_process_index(const tessera_device* device) noexcept {
  return device == nullptr ? 0 : device->impl.process_index;
}

int64_t tessera_device_local_ordinal(const tessera_device* device) noexcept {
  return device == nullptr ? 0 : device->impl.local_ordinal;
}

const char* tessera_device_name(const tessera_device* device) noexcept {
  return device == nullptr ? "" : device->name.c_str();
}

void tessera_device_destroy(tessera_device* device) noexcept { delete device; }

const char* tessera_platform_name(tessera_platform platform) noexcept {
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

size_t tessera_device_list_size(const tessera_device_list* list) noexcept {
  return list == nullptr ? 0 : list->impl.size();
}

tessera_device* tessera_device_list_get(const tessera_device_list* list, size_t index,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_device*> {
    TESSERA_CAPI_REQUIRE(list);
    TESSERA_RETURN_IF_ERROR(
        tessera::capi::CheckIndex(index, list->impl.size(), "index", "the list's size"));
    return tessera::capi::NewDevice(list->impl[index]);
  });
}

void tessera_device_list_destroy(tessera_device_list* list) noexcept { delete list; }

bool tessera_device_count(const char* type, int64_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(*out, tessera::GetDeviceCount(TypeOrDefault(type)));
    return absl::OkStatus();
  });
}
