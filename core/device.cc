// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/device.h"

#include <cstdlib>
#include <limits>
#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "core/device_discovery.h"

namespace tessera {
namespace {

struct GlobalDevices {
  absl::Mutex mu;
  std::optional<std::vector<Device>> devices;
};

GlobalDevices& Global() {
  static GlobalDevices* global = new GlobalDevices();
  return *global;
}

// The providers' devices (device_discovery.h), as this process's Devices.
absl::StatusOr<std::vector<Device>> LocalDevices() {
  auto local = DiscoverLocalDevices();
  if (!local.ok()) return local.status();
  return ToLocalDevices(*local);
}

absl::StatusOr<std::vector<Device>> AllDevices() {
  {
    GlobalDevices& global = Global();
    absl::MutexLock lock(&global.mu);
    if (global.devices.has_value()) return *global.devices;
  }
  return LocalDevices();
}

// The devices a written name resolves against without probing hardware: the
// job's (after initialize) or the TESSERA_DEVICES list. Naming devices must
// not dlopen NVML nor wait for it: a mesh over explicit devices is planning,
// and may run where no driver is.
absl::StatusOr<std::vector<Device>> KnownDevicesWithoutProbing() {
  {
    GlobalDevices& global = Global();
    absl::MutexLock lock(&global.mu);
    if (global.devices.has_value()) return *global.devices;
  }
  const char* spec = std::getenv("TESSERA_DEVICES");
  if (spec == nullptr) return std::vector<Device>{};
  auto infos = ParseDeviceListSpec(spec);
  if (!infos.ok()) return infos.status();
  return ToLocalDevices(*infos);
}

bool HasPlatform(const std::vector<Device>& devices, Platform platform) {
  for (const Device& d : devices) {
    if (d.platform == platform) return true;
  }
  return false;
}

// Keras's rule for "no type": accelerators if any, else CPU.
Platform DefaultPlatform(const std::vector<Device>& devices) {
  if (HasPlatform(devices, Platform::kGpu)) return Platform::kGpu;
  if (HasPlatform(devices, Platform::kTpu)) return Platform::kTpu;
  return Platform::kCpu;
}

}  // namespace

absl::string_view PlatformName(Platform platform) {
  switch (platform) {
    case Platform::kCpu: return "cpu";
    case Platform::kGpu: return "gpu";
    case Platform::kTpu: return "tpu";
  }
  return "unknown";
}

absl::StatusOr<Platform> ParsePlatform(absl::string_view text) {
  const std::string lower = absl::AsciiStrToLower(text);
  if (lower == "cpu") return Platform::kCpu;
  if (lower == "gpu" || lower == "cuda") return Platform::kGpu;
  if (lower == "tpu") return Platform::kTpu;
  return absl::InvalidArgumentError(absl::StrCat(
      "Device type '", text, "' is unknown; expected cpu, gpu (or cuda) or tpu"));
}

std::string Device::ToString() const {
  return absl::StrCat(PlatformName(platform), ":", id);
}

namespace {

// The platform and id written in `text`, before resolution.
absl::StatusOr<Device> ParseDeviceName(absl::string_view text) {
  const size_t colon = text.find(':');
  const absl::string_view type = text.substr(0, colon);
  auto platform = ParsePlatform(type);
  if (!platform.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Device '", text, "' has an unknown type '", type,
        "'; expected '<type>:<id>' with type cpu, gpu or tpu"));
  }
  int64_t id = 0;
  if (colon != absl::string_view::npos) {
    const absl::string_view digits = text.substr(colon + 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != absl::string_view::npos ||
        !absl::SimpleAtoi(digits, &id)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Device '", text, "' has id '", digits,
          "'; expected a non-negative decimal integer below 2^63"));
    }
  }
  return Device{id, *platform, 0, id};
}

}  // namespace

absl::StatusOr<std::vector<Device>> ParseDevices(absl::Span<const std::string> texts) {
  // Resolution needs the known devices once, not once per name.
  absl::flat_hash_map<std::pair<int, int64_t>, Device> known;
  if (auto all = KnownDevicesWithoutProbing(); all.ok()) {
    for (const Device& d : *all) known.emplace(std::make_pair(static_cast<int>(d.platform), d.id), d);
  }
  std::vector<Device> out;
  out.reserve(texts.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    auto parsed = ParseDeviceName(texts[i]);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'devices' entry ", i, ": ", parsed.status().message()));
    }
    auto it = known.find(std::make_pair(static_cast<int>(parsed->platform), parsed->id));
    out.push_back(it == known.end() ? *parsed : it->second);
  }
  return out;
}

absl::StatusOr<std::vector<Device>> AssignProcesses(std::vector<Device> devices,
                                                    absl::Span<const int64_t> process_indices) {
  if (process_indices.size() != devices.size()) {
    return absl::InvalidArgumentError(absl::StrCat(process_indices.size(), " process indices for ",
                                                   devices.size(), " devices; expected one per device"));
  }
  absl::flat_hash_map<std::pair<int, int64_t>, int64_t> next_ordinal;  // by (platform, process)
  for (size_t i = 0; i < devices.size(); ++i) {
    if (process_indices[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("process index ", process_indices[i], " (entry ", i,
                                                     "); expected at least 0"));
    }
    devices[i].process_index = process_indices[i];
    devices[i].local_ordinal =
        next_ordinal[std::make_pair(static_cast<int>(devices[i].platform), process_indices[i])]++;
  }
  return devices;
}

absl::StatusOr<Device> ParseDevice(absl::string_view text) {
  auto parsed = ParseDeviceName(text);
  if (!parsed.ok()) return parsed.status();
  auto resolved = ParseDevices({std::string(text)});
  if (!resolved.ok()) return resolved.status();
  return resolved->front();
}

absl::StatusOr<std::vector<Device>> ListDevices(absl::string_view type) {
  auto all = AllDevices();
  if (!all.ok()) return all.status();
  Platform platform;
  if (type.empty()) {
    platform = DefaultPlatform(*all);
  } else {
    auto parsed = ParsePlatform(type);
    if (!parsed.ok()) return parsed.status();
    platform = *parsed;
  }
  std::vector<Device> out;
  for (const Device& d : *all) {
    if (d.platform == platform) out.push_back(d);
  }
  return out;
}

absl::StatusOr<int64_t> GetDeviceCount(absl::string_view type) {
  auto devices = ListDevices(type);
  if (!devices.ok()) return devices.status();
  return static_cast<int64_t>(devices->size());
}

void SetGlobalDevices(std::optional<std::vector<Device>> devices) {
  GlobalDevices& global = Global();
  absl::MutexLock lock(&global.mu);
  global.devices = std::move(devices);
}

}  // namespace tessera
