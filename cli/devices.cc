// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/devices.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>

#include "cli/handles.h"
#include "tessera/tessera.h"

namespace tessera_cli {
namespace {

using LocalDevices = std::unique_ptr<
    tessera_local_devices, Destroyer<tessera_local_devices, tessera_local_devices_destroy>>;

// "80.0 GiB", "512.0 MiB", or "-" when unknown (0).
std::string FormatMemory(int64_t bytes) {
  if (bytes <= 0) return "-";
  char text[32];
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  if (gib >= 1.0) {
    std::snprintf(text, sizeof text, "%.1f GiB", gib);
  } else {
    std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  }
  return text;
}

std::string OrDash(const char* text) {
  return text == nullptr || *text == '\0' ? "-" : std::string(text);
}

// A C ABI string accessor's result; the CLI's own use never fails, so an
// error is a bug worth showing rather than hiding.
std::string Checked(const char* text, tessera_error* error) {
  if (error != nullptr) throw InputError(TakeMessage(error));
  return OrDash(text);
}

using Table = std::vector<std::vector<std::string>>;

Table DeviceRows(const tessera_local_devices* devices) {
  Table rows = {{"platform", "ordinal", "kind", "physical id", "pci bus id", "memory"}};
  for (size_t i = 0; i < tessera_local_devices_num_devices(devices, nullptr); ++i) {
    tessera_error* error = nullptr;
    tessera_platform_t platform = TESSERA_PLATFORM_CPU;
    size_t ordinal = 0;
    int64_t memory = 0;
    if (!tessera_local_devices_platform(devices, i, &platform, &error) ||
        !tessera_local_devices_ordinal(devices, i, &ordinal, &error) ||
        !tessera_local_devices_memory_bytes(devices, i, &memory, &error)) {
      throw InputError(TakeMessage(error));
    }
    std::vector<std::string> row = {OrDash(tessera_platform_name(platform)),
                                    std::to_string(ordinal)};
    row.push_back(Checked(tessera_local_devices_kind(devices, i, &error), error));
    row.push_back(Checked(tessera_local_devices_physical_id(devices, i, &error), error));
    row.push_back(Checked(tessera_local_devices_pci_bus_id(devices, i, &error), error));
    row.push_back(FormatMemory(memory));
    rows.push_back(std::move(row));
  }
  return rows;
}

// Rows indented by two spaces, columns separated by at least two.
std::string FormatTable(const Table& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line = " ";
    for (size_t c = 0; c < row.size(); ++c) {
      line += " " + row[c];
      if (c + 1 < row.size()) line += std::string(widths[c] - row[c].size() + 1, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string ProviderLine(const std::string& provider) {
  if (provider == "explicit") return "accelerators: explicit list (TESSERA_DEVICES)\n";
  if (provider == "nvml") return "accelerators: NVIDIA GPUs found through NVML\n";
  return "accelerators: none found; CPU devices only\n";
}

std::string NvmlLine(const std::string& provider, const char* reason) {
  if (provider == "explicit") return "nvml: not consulted (TESSERA_DEVICES is set)\n";
  if (provider == "nvml") return "nvml: available\n";
  return std::string("nvml: no GPU: ") + OrDash(reason) + "\n";
}

}  // namespace

const char kDevicesHelp[] = R"(Usage: tessera devices

Lists this process's devices as Tessera discovers them: an explicit list in
TESSERA_DEVICES (e.g. "gpu*8" or "gpu:NVIDIA H100 80GB HBM3:GPU-<uuid>:<bytes>"),
else NVIDIA GPUs through NVML (CUDA_VISIBLE_DEVICES respected), then the CPU
(TESSERA_CPU_DEVICE_COUNT devices, default 1).

Options:
  -h, --help  show this help
)";

std::string DevicesReport(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "-h" || arg == "--help") return kDevicesHelp;
    throw InputError("unknown argument '" + arg + "' (see 'tessera devices --help')");
  }
  tessera_error* error = nullptr;
  LocalDevices devices(tessera_local_devices_discover(&error));
  if (!devices) throw InputError(TakeMessage(error));
  const std::string provider = tessera_local_devices_provider(devices.get(), nullptr);
  const size_t count = tessera_local_devices_num_devices(devices.get(), nullptr);
  std::string out = std::to_string(count) + (count == 1 ? " local device\n" : " local devices\n");
  out += FormatTable(DeviceRows(devices.get()));
  out += ProviderLine(provider);
  out += NvmlLine(provider, tessera_local_devices_nvml_unavailable_reason(devices.get(), nullptr));
  return out;
}

}  // namespace tessera_cli
