// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/local_host.h"

#include <unistd.h>

#include <climits>
#include <fstream>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/strings/ascii.h"
#include "core/device.h"
#include "core/device_discovery.h"
#include "core/status_macros.h"

namespace tessera::cluster {
namespace {

std::string ReadBootId() {
  std::ifstream file("/proc/sys/kernel/random/boot_id");
  std::string line;
  if (!file || !std::getline(file, line)) return "";
  return std::string(absl::StripAsciiWhitespace(line));
}

std::string HostName() {
  char name[HOST_NAME_MAX + 1] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

}  // namespace

v1::HostInfo LocalHostInfo() {
  v1::HostInfo host;
  host.set_hostname(HostName());
  host.set_boot_id(ReadBootId());
  host.set_pid(static_cast<int64_t>(getpid()));
  return host;
}

absl::StatusOr<std::vector<v1::LocalDevice>> LocalDevices(absl::Span<const int64_t> local_device_ids,
                                                          bool accelerators_only) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<LocalDeviceInfo> found, DiscoverLocalDevices());
  // The platform ListDevices("") reports: accelerators if any, else CPUs.
  std::vector<LocalDeviceInfo> discovered;
  for (const LocalDeviceInfo& info : found) {
    if (info.platform != Platform::kCpu) discovered.push_back(info);
  }
  if (discovered.empty()) discovered = std::move(found);
  const bool cpu_only = !discovered.empty() && discovered.front().platform == Platform::kCpu;
  std::vector<int64_t> chosen;
  if (!(accelerators_only && cpu_only)) chosen.assign(local_device_ids.begin(), local_device_ids.end());
  if (chosen.empty()) {
    for (size_t i = 0; i < discovered.size(); ++i) chosen.push_back(static_cast<int64_t>(i));
  }
  absl::flat_hash_set<int64_t> seen;
  std::vector<v1::LocalDevice> devices;
  for (size_t i = 0; i < chosen.size(); ++i) {
    const int64_t id = chosen[i];
    if (id < 0 || id >= static_cast<int64_t>(discovered.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "local_device_ids[", i, "] is ", id, "; expected 0 <= id < ", discovered.size(),
          " (the number of local devices found)"));
    }
    if (!seen.insert(id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("local_device_ids[", i, "] is ", id, ", which appears twice"));
    }
    const LocalDeviceInfo& info = discovered[static_cast<size_t>(id)];
    v1::LocalDevice local;
    local.set_local_ordinal(static_cast<int32_t>(devices.size()));
    local.set_platform(std::string(PlatformName(info.platform)));
    local.set_kind(info.kind);
    // "" for CPUs: they are not exclusive, so processes sharing a host never
    // look like two claims on one device.
    local.set_physical_id(info.physical_id);
    auto& attributes = *local.mutable_attributes();
    attributes["discovery_index"] = absl::StrCat(id);
    if (!info.pci_bus_id.empty()) attributes["pci_bus_id"] = info.pci_bus_id;
    if (info.memory_bytes > 0) attributes["memory_bytes"] = absl::StrCat(info.memory_bytes);
    if (info.coords.has_value()) {
      for (int64_t c : *info.coords) {
        if (c > INT32_MAX) {
          return absl::InvalidArgumentError(absl::StrCat("Local device ", id, " has chip coordinate ", c,
                                                         ", beyond what registration carries (2^31 - 1)"));
        }
        local.add_coords(static_cast<int32_t>(c));
      }
      attributes["core_on_chip"] = absl::StrCat(info.core_on_chip);
    }
    devices.push_back(std::move(local));
  }
  return devices;
}

absl::StatusOr<Device> DeviceFromTopology(const v1::GlobalDevice& global) {
  const v1::LocalDevice& local = global.local();
  TESSERA_ASSIGN_OR_RETURN(Platform platform, ParsePlatform(local.platform()));
  Device device{global.global_id(), platform, global.process_id(), local.local_ordinal()};
  if (local.coords_size() == 3) {
    device.coords = ChipCoords{local.coords(0), local.coords(1), local.coords(2)};
    const auto core = local.attributes().find("core_on_chip");
    if (core != local.attributes().end() && !absl::SimpleAtoi(core->second, &device.core_on_chip)) {
      return absl::InvalidArgumentError(absl::StrCat("Device ", global.global_id(), " has core_on_chip \"",
                                                     core->second, "\", not an integer"));
    }
  }
  return device;
}

}  // namespace tessera::cluster
