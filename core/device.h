// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Devices: what a process (and, after multi-host start-up, the job) has.
//
// A device is a value: global id, platform, owning process and local ordinal,
// and for a TPU its chip's coordinates when known. Its Keras string form is
// "<platform>:<id>" ("gpu:3"). Local discovery is
// core/device_discovery.h's providers: TESSERA_DEVICES, NVIDIA GPUs through
// NVML, and one CPU device or N when TESSERA_CPU_DEVICE_COUNT=N (the role
// XLA's --xla_force_host_platform_device_count plays), so that multi-device
// behaviour is testable anywhere. A runtime that knows the whole job
// (initialize()) installs the global list with SetGlobalDevices.
#ifndef TESSERA_CORE_DEVICE_H_
#define TESSERA_CORE_DEVICE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessera {

// Numbers match tessera_platform_t in the C ABI.
enum class Platform { kCpu = 0, kGpu = 1, kTpu = 2 };

// "cpu", "gpu", "tpu".
absl::string_view PlatformName(Platform platform);

// Case-insensitive; "cuda" is accepted as "gpu" (PyTorch's name for it).
absl::StatusOr<Platform> ParsePlatform(absl::string_view text);

// A chip's position (x, y, z) in a TPU slice's torus, as JAX's
// TpuDevice.coords.
using ChipCoords = std::array<int64_t, 3>;

struct Device {
  // The four identity fields in their order, as Device{id, platform,
  // process_index, local_ordinal} reads everywhere; coordinates are set
  // afterwards, for the few devices that have them.
  Device() = default;
  Device(int64_t global_id, Platform kind, int64_t process, int64_t ordinal)
      : id(global_id), platform(kind), process_index(process), local_ordinal(ordinal) {}

  int64_t id = 0;             // global id, unique within the platform
  Platform platform = Platform::kCpu;
  int64_t process_index = 0;  // the process that owns the device
  int64_t local_ordinal = 0;  // index among the owning process's devices
  // TPU only, as JAX's TpuDevice: the chip's coordinates and the core on
  // that chip (megacore chips, TPU v4 and later, have one device per chip,
  // core 0). nullopt when unknown (CPU, GPU, a TPU listed without them):
  // mesh construction then has no topology to follow.
  std::optional<ChipCoords> coords;
  int64_t core_on_chip = 0;

  // Keras's string form: "gpu:3".
  std::string ToString() const;

  friend bool operator==(const Device& a, const Device& b) {
    return a.id == b.id && a.platform == b.platform &&
           a.process_index == b.process_index &&
           a.local_ordinal == b.local_ordinal && a.coords == b.coords &&
           a.core_on_chip == b.core_on_chip;
  }
  friend bool operator!=(const Device& a, const Device& b) { return !(a == b); }
};

// Parses "<platform>:<id>" or "<platform>" (id 0, as Keras 3.12+ accepts).
// The id must be a non-negative decimal integer. The result is resolved
// against the current device list: a listed device keeps its process and
// ordinal; an unlisted one is taken as owned by process 0 with ordinal = id,
// so meshes over simulated devices can be planned on any machine.
absl::StatusOr<Device> ParseDevice(absl::string_view text);

// ParseDevice over many names at once (resolution costs one pass over the
// device list). Errors name the entry: "Argument 'devices' entry 2: ...".
absl::StatusOr<std::vector<Device>> ParseDevices(absl::Span<const std::string> texts);

// `devices` as the devices of a job that is not running here: device i
// belongs to process process_indices[i] (JAX's device.process_index), and
// its local ordinal becomes its index among the listed devices of its
// process and platform. INVALID_ARGUMENT when the counts differ or an index
// is negative.
absl::StatusOr<std::vector<Device>> AssignProcesses(std::vector<Device> devices,
                                                    absl::Span<const int64_t> process_indices);

// The largest device count TESSERA_CPU_DEVICE_COUNT may ask for.
inline constexpr int64_t kMaxCpuDeviceCount = int64_t{1} << 20;

// Lists the devices of one platform. `type` empty means "accelerators if any,
// else CPU" (Keras's rule); otherwise a platform name. A known platform with
// no devices yields an empty list. Fails with INVALID_ARGUMENT on an unknown
// type or an unusable TESSERA_CPU_DEVICE_COUNT or TESSERA_DEVICES.
absl::StatusOr<std::vector<Device>> ListDevices(absl::string_view type = "");

// The size of ListDevices(type); never sums platforms.
absl::StatusOr<int64_t> GetDeviceCount(absl::string_view type = "");

// Installs the job-wide device list (all platforms) that ListDevices returns
// from then on; nullopt returns to local discovery. Thread-safe.
void SetGlobalDevices(std::optional<std::vector<Device>> devices);

}  // namespace tessera

#endif  // TESSERA_CORE_DEVICE_H_
