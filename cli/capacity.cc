// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/capacity.h"

#include <memory>

#include "cli/handles.h"
#include "cli/text_input.h"

namespace tessera_cli {
namespace {

using LocalDevices = std::unique_ptr<
    tessera_local_devices, Destroyer<tessera_local_devices, tessera_local_devices_destroy>>;

// The memory of each GPU local discovery finds, in its order.
std::vector<int64_t> GpuMemory() {
  tessera_error* error = nullptr;
  LocalDevices devices(tessera_local_devices_discover(&error));
  if (!devices) throw InputError("device discovery: " + TakeMessage(error));
  std::vector<int64_t> memory;
  for (size_t i = 0; i < tessera_local_devices_num_devices(devices.get(), nullptr); ++i) {
    tessera_platform_t platform = TESSERA_PLATFORM_CPU;
    int64_t bytes = 0;
    if (!tessera_local_devices_platform(devices.get(), i, &platform, nullptr) ||
        platform != TESSERA_PLATFORM_GPU ||
        !tessera_local_devices_memory_bytes(devices.get(), i, &bytes, nullptr) || bytes <= 0) {
      continue;
    }
    memory.push_back(bytes);
  }
  return memory;
}

Capacities Discovered(int64_t num_devices) {
  std::vector<int64_t> memory = GpuMemory();
  if (memory.empty()) return {};
  const std::string found = "NVML: " + std::to_string(memory.size()) + " GPUs on this host";
  if (static_cast<int64_t>(memory.size()) == num_devices) return {memory, found + ", one per device"};
  for (int64_t bytes : memory) {
    if (bytes != memory[0]) return {};  // mixed GPUs, another count: no mapping to guess
  }
  return {{memory[0]}, found + ", " + WithThousands(memory[0]) + " bytes each, for every device"};
}

}  // namespace

std::vector<int64_t> ParseInventory(std::string_view text, const std::string& source, int64_t num_devices) {
  std::vector<int64_t> bytes(num_devices, -1);
  std::vector<int> line_of(num_devices, 0);
  for (const Line& line : ContentLines(text)) {
    const std::string where = source + ":" + std::to_string(line.number) + ": ";
    size_t space = line.text.find_first_of(" \t");
    if (space == std::string::npos) throw InputError(where + "expected 'DEVICE SIZE', found '" + line.text + "'");
    const std::string device = line.text.substr(0, space);
    const size_t colon = device.rfind(':');
    const std::string number = colon == std::string::npos ? device : device.substr(colon + 1);
    int64_t index = 0;
    if (!ParseNonNegative(number, &index) || index >= num_devices) {
      throw InputError(where + "device '" + device + "': expected a logical device below " +
                       std::to_string(num_devices) + " ('cpu:3', 'gpu:3' or '3')");
    }
    if (line_of[index] != 0) {
      throw InputError(where + "device '" + device + "' already listed on line " + std::to_string(line_of[index]));
    }
    try {
      bytes[index] = ParseByteSize(std::string(Trim(line.text.substr(space + 1))), "size");
    } catch (const InputError& e) {
      throw InputError(where + e.what());
    }
    line_of[index] = line.number;
  }
  for (int64_t i = 0; i < num_devices; ++i) {
    if (line_of[i] == 0) {
      throw InputError(source + ": device " + std::to_string(i) + " is not listed; expected one line for each of " +
                       std::to_string(num_devices) + " devices");
    }
  }
  return bytes;
}

Capacities ResolveCapacities(const PlanOptions& options, int64_t num_devices) {
  if (options.capacity >= 0) {
    return {{options.capacity}, options.capacity_text + " (" + WithThousands(options.capacity) +
                                    " bytes) for every device"};
  }
  if (!options.inventory_path.empty()) {
    return {ParseInventory(ReadFile(options.inventory_path, "--inventory"), options.inventory_path, num_devices),
            "from " + options.inventory_path};
  }
  return Discovered(num_devices);
}

}  // namespace tessera_cli
