// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Local device discovery: which devices this process has, found by one of
// several providers behind one interface.
//
// Providers, in the order they are consulted:
//   1. explicit  TESSERA_DEVICES is set (even to ""): the list it names, for
//                launchers and tests (format below). No hardware is probed.
//   2. nvml      NVIDIA GPUs through NVML, loaded at run time with
//                dlopen("libnvidia-ml.so.1") (no link-time CUDA dependency),
//                filtered and ordered by CUDA_VISIBLE_DEVICES as CUDA does.
//                A missing or failing NVML means "no GPUs"; the reason is
//                logged (core/log.h, info level) and kept in the report.
//   3. cpu       always: one CPU device, or TESSERA_CPU_DEVICE_COUNT of them.
// Accelerators come first, then the CPU devices. Ordinals count per platform
// from 0 in that order.
//
// TESSERA_DEVICES format: comma-separated entries
//     <platform>[*<count>][:<kind>[:<physical_id>[:<memory_bytes>]]][@<place>]
//   platform      cpu, gpu (or cuda) or tpu, case-insensitive;
//   count         1..kMaxCpuDeviceCount identical devices (default 1);
//   kind          free text without ':', ',' or '@' (default: the platform
//                 name); JAX's device_kind for a TPU ("TPU v4");
//   physical_id   free text without ':', ',' or '@'; names one device, so an
//                 entry with a count above 1 cannot have one (default "");
//   memory_bytes  decimal bytes (default 0 = unknown);
//   place         tpu only: where the devices sit in the slice's torus
//                 (Device::coords, core_on_chip), one of
//                   <x>.<y>.<z>[.<core>]   one device (count 1): its chip's
//                                          coordinates and core (default 0);
//                   <X>x<Y>x<Z>[x<C>][+<x>.<y>.<z>]
//                                          a block of X*Y*Z chips with C cores
//                                          each (default 1), count X*Y*Z*C,
//                                          from the corner given (default
//                                          0.0.0); device i is core i % C,
//                                          then x, y, z, x varying fastest:
//                                          the order JAX lists a host's TPUs.
//                 Without a place a TPU has no coordinates.
// Examples: "gpu*8", "gpu:NVIDIA H100 80GB HBM3:GPU-1234:85520809984,gpu",
// "tpu*64:TPU v4@4x4x4" (a v4 4x4x4 slice on one host),
// "tpu*4:TPU v4@2x2x1+0.0.1" (the second host of a v4 2x2x2 slice),
// "tpu:TPU v4@1.0.0", "" (no accelerators). When the list has cpu entries
// they are the CPU devices; otherwise the CPU provider adds its own after
// them. Errors are INVALID_ARGUMENT and name the variable, the entry and what
// was expected.
#ifndef TESSERA_CORE_DEVICE_DISCOVERY_H_
#define TESSERA_CORE_DEVICE_DISCOVERY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/device.h"

namespace tessera {

// One device of this process, as the multi-host registration reports it
// (coordinator.proto's LocalDevice).
struct LocalDeviceInfo {
  Platform platform = Platform::kCpu;
  int64_t local_ordinal = 0;  // index among this process's devices of the platform
  std::string kind;           // "cpu", "NVIDIA H100 80GB HBM3"
  std::string physical_id;    // GPU UUID ("GPU-…"); "" when unknown (CPU)
  int64_t memory_bytes = 0;   // total device memory; 0 when unknown
  std::string pci_bus_id;     // "00000000:17:00.0"; "" when unknown
  std::optional<ChipCoords> coords;  // TPU: the chip's (x, y, z), as Device::coords
  int64_t core_on_chip = 0;          // TPU: the core on that chip

  friend bool operator==(const LocalDeviceInfo& a, const LocalDeviceInfo& b) {
    return a.platform == b.platform && a.local_ordinal == b.local_ordinal && a.kind == b.kind &&
           a.physical_id == b.physical_id && a.memory_bytes == b.memory_bytes &&
           a.pci_bus_id == b.pci_bus_id && a.coords == b.coords &&
           a.core_on_chip == b.core_on_chip;
  }
  friend bool operator!=(const LocalDeviceInfo& a, const LocalDeviceInfo& b) { return !(a == b); }
};

// Which provider found the accelerators.
enum class DiscoveryProvider { kExplicit = 0, kNvml = 1, kCpu = 2 };

// "explicit", "nvml", "cpu".
absl::string_view DiscoveryProviderName(DiscoveryProvider provider);

// What discovery found and why (what `tessera devices` prints).
struct LocalDiscovery {
  std::vector<LocalDeviceInfo> devices;  // accelerators first, then CPUs
  // The provider that decided the accelerators: kExplicit, kNvml when NVML
  // found at least one GPU, else kCpu.
  DiscoveryProvider provider = DiscoveryProvider::kCpu;
  // Why NVML found no GPU ("libnvidia-ml.so.1 not found: ..."); "" when
  // NVML was not consulted or found GPUs.
  std::string nvml_unavailable_reason;
};

// Runs the providers (see the top of this file). Fails with INVALID_ARGUMENT
// on a malformed TESSERA_DEVICES or TESSERA_CPU_DEVICE_COUNT; hardware
// problems are never errors (they mean "no such devices").
absl::StatusOr<LocalDiscovery> DiscoverLocal();

// DiscoverLocal().devices.
absl::StatusOr<std::vector<LocalDeviceInfo>> DiscoverLocalDevices();

// Parses a TESSERA_DEVICES value (format above) into devices with ordinals
// counted per platform. `variable` names the source in errors.
absl::StatusOr<std::vector<LocalDeviceInfo>> ParseDeviceListSpec(
    absl::string_view spec, absl::string_view variable = "TESSERA_DEVICES");

// The single-process Device values of `infos`: id = local ordinal, process 0,
// coordinates as listed.
std::vector<Device> ToLocalDevices(const std::vector<LocalDeviceInfo>& infos);

// ---------------------------------------------------------------------------
// NVML, injectable so tests can exercise it without a GPU.

// NVML's own signatures (nvml.h); a device handle is opaque. Return 0 is
// NVML_SUCCESS.
struct NvmlFunctions {
  using Device = void*;
  int (*init)() = nullptr;                                       // nvmlInit_v2
  int (*shutdown)() = nullptr;                                   // nvmlShutdown
  const char* (*error_string)(int) = nullptr;                    // nvmlErrorString
  int (*device_get_count)(unsigned int*) = nullptr;              // nvmlDeviceGetCount_v2
  int (*device_get_handle_by_index)(unsigned int, Device*) = nullptr;  // ..._v2
  int (*device_get_name)(Device, char*, unsigned int) = nullptr;       // nvmlDeviceGetName
  int (*device_get_uuid)(Device, char*, unsigned int) = nullptr;       // nvmlDeviceGetUUID
  // nvmlDeviceGetMemoryInfo; the struct is nvmlMemory_t {total, free, used}.
  int (*device_get_memory_info)(Device, unsigned long long* memory3) = nullptr;
  // nvmlDeviceGetPciInfo_v3; `pci` points at an nvmlPciInfo_t.
  int (*device_get_pci_info)(Device, void* pci) = nullptr;
};

// One GPU as NVML reports it, in NVML's index order.
struct NvmlGpu {
  std::string name;
  std::string uuid;        // "GPU-…"
  std::string pci_bus_id;  // "00000000:17:00.0"
  int64_t memory_bytes = 0;
};

// Every GPU NVML sees (initialises and shuts NVML down). FAILED_PRECONDITION
// with NVML's error text when a call fails; a missing function is one too.
absl::StatusOr<std::vector<NvmlGpu>> ReadNvmlGpus(const NvmlFunctions& nvml);

// Loads libnvidia-ml.so.1 once per process; UNAVAILABLE with dlerror()'s
// text when it or a symbol is missing. The library stays loaded.
absl::StatusOr<NvmlFunctions> LoadNvml();

// Replaces what the nvml provider uses (tests); nullptr restores LoadNvml.
// Not thread-safe with a concurrent discovery.
using NvmlLoader = absl::StatusOr<NvmlFunctions> (*)();
void SetNvmlLoaderForTesting(NvmlLoader loader);

// CUDA's rule for CUDA_VISIBLE_DEVICES applied to `gpus`: `visible` unset
// (nullptr) keeps all; otherwise comma-separated entries (spaces trimmed),
// each a decimal index below gpus.size() or a prefix of exactly one GPU's
// UUID starting "GPU-"; the first entry that is none of these (or repeats an
// earlier GPU) ends the list, as CUDA stops there. Returns indices into
// `gpus` in the visible order; `stopped_at` (may be null) receives the entry
// that ended the list, "" when none did.
std::vector<size_t> ApplyCudaVisibleDevices(const std::vector<NvmlGpu>& gpus,
                                            const char* visible,
                                            std::string* stopped_at = nullptr);

}  // namespace tessera

#endif  // TESSERA_CORE_DEVICE_DISCOVERY_H_
