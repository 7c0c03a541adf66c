// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/device_discovery.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "core/log.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

constexpr char kDevicesVariable[] = "TESSERA_DEVICES";
constexpr char kCpuCountVariable[] = "TESSERA_CPU_DEVICE_COUNT";
constexpr char kCudaVisibleVariable[] = "CUDA_VISIBLE_DEVICES";
constexpr char kNvmlLibrary[] = "libnvidia-ml.so.1";

// ---------------------------------------------------------------- explicit

absl::Status EntryError(absl::string_view variable, size_t index, absl::string_view entry,
                        absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat("Environment variable ", variable, " entry ",
                                                 index, " '", entry, "': ", problem));
}

// "<platform>[*<count>]" → platform and count.
absl::Status ParseHead(absl::string_view head, absl::string_view variable, size_t index,
                       absl::string_view entry, Platform* platform, int64_t* count) {
  const size_t star = head.find('*');
  auto parsed = ParsePlatform(head.substr(0, star));
  if (!parsed.ok()) {
    return EntryError(variable, index, entry,
                      absl::StrCat("platform '", head.substr(0, star),
                                   "' is unknown; expected cpu, gpu (or cuda) or tpu"));
  }
  *platform = *parsed;
  *count = 1;
  if (star != absl::string_view::npos) {
    const absl::string_view digits = head.substr(star + 1);
    if (digits.empty() || digits.find_first_not_of("0123456789") != absl::string_view::npos ||
        !absl::SimpleAtoi(digits, count) || *count < 1 || *count > kMaxCpuDeviceCount) {
      return EntryError(variable, index, entry,
                        absl::StrCat("count '", digits, "' is not a device count; expected '*' "
                                     "and an integer from 1 to ", kMaxCpuDeviceCount));
    }
  }
  return absl::OkStatus();
}

// Where the devices of one entry sit (the "@<place>" suffix).
struct Place {
  int64_t origin[3] = {0, 0, 0};
  int64_t extent[3] = {1, 1, 1};  // chips along x, y, z
  int64_t cores = 1;
  bool single = false;  // "<x>.<y>.<z>[.<core>]": one device, origin is its chip
  int64_t core = 0;     // single only
};

constexpr char kPlaceForms[] =
    "expected '@<x>.<y>.<z>[.<core>]' for one device or '@<X>x<Y>x<Z>[x<cores>][+<x>.<y>.<z>]' for a block";

// Non-negative decimal integers separated by `separator`, `min` to `max` of them.
bool ParseNumbers(absl::string_view text, char separator, size_t min, size_t max, int64_t lowest,
                  std::vector<int64_t>* out) {
  out->clear();
  for (absl::string_view part : absl::StrSplit(text, separator)) {
    int64_t value = 0;
    if (part.empty() || part.find_first_not_of("0123456789") != absl::string_view::npos ||
        !absl::SimpleAtoi(part, &value) || value < lowest) {
      return false;
    }
    out->push_back(value);
  }
  return out->size() >= min && out->size() <= max;
}

absl::StatusOr<Place> ParsePlace(absl::string_view text, absl::string_view variable, size_t index,
                                 absl::string_view entry) {
  Place place;
  std::vector<int64_t> numbers;
  if (text.find('x') == absl::string_view::npos) {
    if (!ParseNumbers(text, '.', 3, 4, 0, &numbers)) {
      return EntryError(variable, index, entry, absl::StrCat("place '", text, "' is not a position; ", kPlaceForms));
    }
    place.single = true;
    for (int k = 0; k < 3; ++k) place.origin[k] = numbers[k];
    if (numbers.size() == 4) place.core = numbers[3];
    return place;
  }
  const size_t plus = text.find('+');
  if (!ParseNumbers(text.substr(0, plus), 'x', 3, 4, 1, &numbers)) {
    return EntryError(variable, index, entry,
                      absl::StrCat("place '", text, "' is not a block of chips (sizes >= 1); ", kPlaceForms));
  }
  for (int k = 0; k < 3; ++k) place.extent[k] = numbers[k];
  if (numbers.size() == 4) place.cores = numbers[3];
  if (plus != absl::string_view::npos) {
    if (!ParseNumbers(text.substr(plus + 1), '.', 3, 3, 0, &numbers)) {
      return EntryError(variable, index, entry,
                        absl::StrCat("place '", text, "' has a corner that is not '<x>.<y>.<z>'; ", kPlaceForms));
    }
    for (int k = 0; k < 3; ++k) place.origin[k] = numbers[k];
  }
  return place;
}

// The number of devices `place` holds; nullopt when it overflows.
std::optional<int64_t> PlaceSize(const Place& place) {
  if (place.single) return 1;
  int64_t size = place.cores;
  for (int64_t e : place.extent) {
    if (__builtin_mul_overflow(size, e, &size)) return std::nullopt;
  }
  return size;
}

// Device `i` of `place`: core fastest, then x, y, z.
void PlaceDevice(const Place& place, int64_t i, LocalDeviceInfo& info) {
  if (place.single) {
    info.coords = ChipCoords{place.origin[0], place.origin[1], place.origin[2]};
    info.core_on_chip = place.core;
    return;
  }
  info.core_on_chip = i % place.cores;
  int64_t chip = i / place.cores;
  ChipCoords coords{};
  for (int k = 0; k < 3; ++k) {
    coords[k] = place.origin[k] + chip % place.extent[k];
    chip /= place.extent[k];
  }
  info.coords = coords;
}

int64_t& OrdinalFor(Platform platform, int64_t (&next)[3]) {
  return next[static_cast<int>(platform)];
}

// --------------------------------------------------------------------- cpu

absl::StatusOr<int64_t> CpuDeviceCount() {
  const char* text = std::getenv(kCpuCountVariable);
  if (text == nullptr || *text == '\0') return 1;
  int64_t count = 0;
  if (!absl::SimpleAtoi(text, &count) || count < 1 || count > kMaxCpuDeviceCount) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Environment variable ", kCpuCountVariable, "='", text,
        "' is not a device count; expected an integer from 1 to ", kMaxCpuDeviceCount));
  }
  return count;
}

absl::Status AppendCpuDevices(std::vector<LocalDeviceInfo>& devices) {
  auto count = CpuDeviceCount();
  if (!count.ok()) return count.status();
  for (int64_t i = 0; i < *count; ++i) {
    devices.push_back(LocalDeviceInfo{Platform::kCpu, i, "cpu", "", 0, "", std::nullopt, 0});
  }
  return absl::OkStatus();
}

// -------------------------------------------------------------------- nvml

// NVML's buffer sizes (nvml.h): names and UUIDs fit 96 bytes.
constexpr unsigned int kNvmlStringBuffer = 96;

// nvmlPciInfo_t as NVML 11+ lays it out (nvmlDeviceGetPciInfo_v3).
struct NvmlPciInfo {
  char bus_id_legacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;
  unsigned int pci_sub_system_id;
  char bus_id[32];
};

std::string NvmlErrorText(const NvmlFunctions& nvml, int code) {
  const char* text = nvml.error_string == nullptr ? nullptr : nvml.error_string(code);
  return text == nullptr ? absl::StrCat("NVML error ", code) : absl::StrCat(text);
}

absl::Status NvmlCall(const NvmlFunctions& nvml, int code, absl::string_view what) {
  if (code == 0) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat(what, " failed: ", NvmlErrorText(nvml, code)));
}

// A C string NVML filled, cut at the buffer's end if it was not terminated.
std::string FromBuffer(const char* buffer, size_t size) {
  return std::string(buffer, strnlen(buffer, size));
}

absl::StatusOr<NvmlGpu> ReadNvmlGpu(const NvmlFunctions& nvml, unsigned int index) {
  NvmlFunctions::Device handle = nullptr;
  const std::string where = absl::StrCat(" (GPU ", index, ")");
  if (absl::Status s = NvmlCall(nvml, nvml.device_get_handle_by_index(index, &handle),
                                absl::StrCat("nvmlDeviceGetHandleByIndex_v2", where));
      !s.ok()) {
    return s;
  }
  NvmlGpu gpu;
  char text[kNvmlStringBuffer] = {};
  if (absl::Status s = NvmlCall(nvml, nvml.device_get_name(handle, text, sizeof text),
                                absl::StrCat("nvmlDeviceGetName", where));
      !s.ok()) {
    return s;
  }
  gpu.name = FromBuffer(text, sizeof text);
  std::memset(text, 0, sizeof text);
  if (absl::Status s = NvmlCall(nvml, nvml.device_get_uuid(handle, text, sizeof text),
                                absl::StrCat("nvmlDeviceGetUUID", where));
      !s.ok()) {
    return s;
  }
  gpu.uuid = FromBuffer(text, sizeof text);
  unsigned long long memory[3] = {0, 0, 0};
  if (absl::Status s = NvmlCall(nvml, nvml.device_get_memory_info(handle, memory),
                                absl::StrCat("nvmlDeviceGetMemoryInfo", where));
      !s.ok()) {
    return s;
  }
  gpu.memory_bytes = memory[0] > static_cast<unsigned long long>(INT64_MAX)
                         ? INT64_MAX
                         : static_cast<int64_t>(memory[0]);
  NvmlPciInfo pci;
  std::memset(&pci, 0, sizeof pci);
  if (absl::Status s = NvmlCall(nvml, nvml.device_get_pci_info(handle, &pci),
                                absl::StrCat("nvmlDeviceGetPciInfo_v3", where));
      !s.ok()) {
    return s;
  }
  gpu.pci_bus_id = FromBuffer(pci.bus_id, sizeof pci.bus_id);
  return gpu;
}

// Every GPU, between nvmlInit and nvmlShutdown.
absl::StatusOr<std::vector<NvmlGpu>> ReadInitializedNvml(const NvmlFunctions& nvml) {
  unsigned int count = 0;
  if (absl::Status s = NvmlCall(nvml, nvml.device_get_count(&count), "nvmlDeviceGetCount_v2");
      !s.ok()) {
    return s;
  }
  std::vector<NvmlGpu> gpus;
  for (unsigned int i = 0; i < count; ++i) {
    auto gpu = ReadNvmlGpu(nvml, i);
    if (!gpu.ok()) return gpu.status();
    gpus.push_back(*std::move(gpu));
  }
  return gpus;
}

bool Complete(const NvmlFunctions& f) {
  return f.init && f.shutdown && f.device_get_count && f.device_get_handle_by_index &&
         f.device_get_name && f.device_get_uuid && f.device_get_memory_info &&
         f.device_get_pci_info;
}

// What the nvml provider read, kept for the process (NVML is slow to
// initialise, and the GPU set does not change while a process runs).
struct NvmlCache {
  absl::Mutex mu;
  NvmlLoader loader = nullptr;
  std::optional<absl::StatusOr<std::vector<NvmlGpu>>> gpus;
};

NvmlCache& Nvml() {
  static NvmlCache* cache = new NvmlCache();
  return *cache;
}

absl::StatusOr<std::vector<NvmlGpu>> NvmlGpus() {
  NvmlCache& cache = Nvml();
  absl::MutexLock lock(&cache.mu);
  if (!cache.gpus.has_value()) {
    absl::StatusOr<NvmlFunctions> functions = cache.loader ? cache.loader() : LoadNvml();
    cache.gpus = functions.ok() ? ReadNvmlGpus(*functions)
                                : absl::StatusOr<std::vector<NvmlGpu>>(functions.status());
    if (!cache.gpus->ok()) {
      Log(LogLevel::kInfo, absl::StrCat("No NVIDIA GPUs: ", cache.gpus->status().message()));
    }
  }
  return *cache.gpus;
}

// The GPUs NVML found, as CUDA_VISIBLE_DEVICES exposes them; the reason when
// there are none.
std::vector<LocalDeviceInfo> NvmlDevices(std::string* unavailable_reason) {
  auto gpus = NvmlGpus();
  if (!gpus.ok()) {
    *unavailable_reason = std::string(gpus.status().message());
    return {};
  }
  std::string stopped_at;
  const char* visible = std::getenv(kCudaVisibleVariable);
  const std::vector<size_t> order = ApplyCudaVisibleDevices(*gpus, visible, &stopped_at);
  if (!stopped_at.empty()) {
    Log(LogLevel::kWarning,
        absl::StrCat(kCudaVisibleVariable, "='", visible, "': entry '", stopped_at,
                     "' names no GPU (or one already listed); CUDA ignores it and what follows"));
  }
  std::vector<LocalDeviceInfo> out;
  for (size_t i = 0; i < order.size(); ++i) {
    const NvmlGpu& gpu = (*gpus)[order[i]];
    out.push_back(LocalDeviceInfo{Platform::kGpu, static_cast<int64_t>(i), gpu.name, gpu.uuid,
                                  gpu.memory_bytes, gpu.pci_bus_id, std::nullopt, 0});
  }
  if (out.empty()) {
    *unavailable_reason =
        gpus->empty() ? "NVML reports no GPU"
                      : absl::StrCat(kCudaVisibleVariable, "='", visible, "' hides every GPU");
  }
  return out;
}

}  // namespace

absl::string_view DiscoveryProviderName(DiscoveryProvider provider) {
  switch (provider) {
    case DiscoveryProvider::kExplicit: return "explicit";
    case DiscoveryProvider::kNvml: return "nvml";
    case DiscoveryProvider::kCpu: return "cpu";
  }
  return "unknown";
}

absl::StatusOr<std::vector<LocalDeviceInfo>> ParseDeviceListSpec(absl::string_view spec,
                                                                 absl::string_view variable) {
  std::vector<LocalDeviceInfo> out;
  if (spec.empty()) return out;
  int64_t next[3] = {0, 0, 0};
  size_t index = 0;
  for (absl::string_view entry : absl::StrSplit(spec, ',')) {
    const size_t at = entry.find('@');
    const std::vector<absl::string_view> parts = absl::StrSplit(entry.substr(0, at), ':');
    if (parts.size() > 4) {
      return EntryError(variable, index, entry,
                        "too many ':'; expected <platform>[*<count>][:<kind>[:<physical_id>"
                        "[:<memory_bytes>]]][@<place>]");
    }
    Platform platform = Platform::kCpu;
    int64_t count = 1;
    if (absl::Status s = ParseHead(parts[0], variable, index, entry, &platform, &count); !s.ok()) {
      return s;
    }
    LocalDeviceInfo info;
    info.platform = platform;
    info.kind = parts.size() > 1 && !parts[1].empty() ? std::string(parts[1])
                                                      : std::string(PlatformName(platform));
    if (parts.size() > 2) info.physical_id = std::string(parts[2]);
    if (!info.physical_id.empty() && count > 1) {
      return EntryError(variable, index, entry,
                        absl::StrCat("a physical id names one device, but the count is ", count));
    }
    if (parts.size() > 3 && !parts[3].empty() &&
        (parts[3].find_first_not_of("0123456789") != absl::string_view::npos ||
         !absl::SimpleAtoi(parts[3], &info.memory_bytes))) {
      return EntryError(variable, index, entry,
                        absl::StrCat("memory '", parts[3],
                                     "' is not a size; expected decimal bytes below 2^63"));
    }
    std::optional<Place> place;
    if (at != absl::string_view::npos) {
      if (platform != Platform::kTpu) {
        return EntryError(variable, index, entry,
                          absl::StrCat("a place ('@...') is for tpu devices only, not ", PlatformName(platform)));
      }
      TESSERA_ASSIGN_OR_RETURN(place, ParsePlace(entry.substr(at + 1), variable, index, entry));
      const std::optional<int64_t> size = PlaceSize(*place);
      if (!size.has_value() || *size != count) {
        return EntryError(variable, index, entry,
                          absl::StrCat("the place '", entry.substr(at + 1), "' holds ",
                                       size.has_value() ? absl::StrCat(*size) : std::string("too many"),
                                       " device", size == 1 ? "" : "s", ", but the count is ", count));
      }
      // The largest coordinate must still be an int64.
      for (int k = 0; k < 3; ++k) {
        int64_t last = 0;
        if (__builtin_add_overflow(place->origin[k], place->extent[k] - 1, &last)) {
          return EntryError(variable, index, entry,
                            absl::StrCat("the place '", entry.substr(at + 1), "' reaches past 2^63"));
        }
      }
    }
    int64_t& ordinal = OrdinalFor(platform, next);
    if (ordinal + count > kMaxCpuDeviceCount) {
      return EntryError(variable, index, entry,
                        absl::StrCat("the list has more than ", kMaxCpuDeviceCount, " ",
                                     PlatformName(platform), " devices"));
    }
    for (int64_t i = 0; i < count; ++i) {
      info.local_ordinal = ordinal++;
      if (place.has_value()) PlaceDevice(*place, i, info);
      out.push_back(info);
    }
    ++index;
  }
  return out;
}

std::vector<Device> ToLocalDevices(const std::vector<LocalDeviceInfo>& infos) {
  std::vector<Device> out;
  out.reserve(infos.size());
  for (const LocalDeviceInfo& info : infos) {
    Device device{info.local_ordinal, info.platform, 0, info.local_ordinal};
    device.coords = info.coords;
    device.core_on_chip = info.core_on_chip;
    out.push_back(device);
  }
  return out;
}

absl::StatusOr<LocalDiscovery> DiscoverLocal() {
  LocalDiscovery result;
  if (const char* spec = std::getenv(kDevicesVariable); spec != nullptr) {
    auto listed = ParseDeviceListSpec(spec);
    if (!listed.ok()) return listed.status();
    result.provider = DiscoveryProvider::kExplicit;
    // Accelerators first, CPUs after, whatever order the list used.
    bool has_cpu = false;
    for (const LocalDeviceInfo& d : *listed) {
      if (d.platform != Platform::kCpu) result.devices.push_back(d);
      has_cpu = has_cpu || d.platform == Platform::kCpu;
    }
    for (const LocalDeviceInfo& d : *listed) {
      if (d.platform == Platform::kCpu) result.devices.push_back(d);
    }
    if (!has_cpu) {
      if (absl::Status s = AppendCpuDevices(result.devices); !s.ok()) return s;
    }
    return result;
  }
  result.devices = NvmlDevices(&result.nvml_unavailable_reason);
  result.provider = result.devices.empty() ? DiscoveryProvider::kCpu : DiscoveryProvider::kNvml;
  if (absl::Status s = AppendCpuDevices(result.devices); !s.ok()) return s;
  return result;
}

absl::StatusOr<std::vector<LocalDeviceInfo>> DiscoverLocalDevices() {
  auto discovery = DiscoverLocal();
  if (!discovery.ok()) return discovery.status();
  return std::move(discovery->devices);
}

absl::StatusOr<std::vector<NvmlGpu>> ReadNvmlGpus(const NvmlFunctions& nvml) {
  if (!Complete(nvml)) {
    return absl::FailedPreconditionError("NVML function table is incomplete");
  }
  if (absl::Status s = NvmlCall(nvml, nvml.init(), "nvmlInit_v2"); !s.ok()) return s;
  absl::StatusOr<std::vector<NvmlGpu>> result = ReadInitializedNvml(nvml);
  // Init and shutdown pair up (NVML counts them); a failing shutdown loses nothing.
  (void)nvml.shutdown();
  return result;
}

namespace {

template <typename F>
bool LoadSymbol(void* library, const char* name, F* out, std::string* missing) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr) {
    if (missing->empty()) *missing = name;
    return false;
  }
  *out = reinterpret_cast<F>(symbol);
  return true;
}

}  // namespace

absl::StatusOr<NvmlFunctions> LoadNvml() {
  void* library = dlopen(kNvmlLibrary, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    return absl::UnavailableError(absl::StrCat(kNvmlLibrary, " could not be loaded: ",
                                               error == nullptr ? "unknown error" : error));
  }
  NvmlFunctions f;
  std::string missing;
  LoadSymbol(library, "nvmlInit_v2", &f.init, &missing);
  LoadSymbol(library, "nvmlShutdown", &f.shutdown, &missing);
  LoadSymbol(library, "nvmlErrorString", &f.error_string, &missing);
  LoadSymbol(library, "nvmlDeviceGetCount_v2", &f.device_get_count, &missing);
  LoadSymbol(library, "nvmlDeviceGetHandleByIndex_v2", &f.device_get_handle_by_index, &missing);
  LoadSymbol(library, "nvmlDeviceGetName", &f.device_get_name, &missing);
  LoadSymbol(library, "nvmlDeviceGetUUID", &f.device_get_uuid, &missing);
  LoadSymbol(library, "nvmlDeviceGetMemoryInfo", &f.device_get_memory_info, &missing);
  LoadSymbol(library, "nvmlDeviceGetPciInfo_v3", &f.device_get_pci_info, &missing);
  if (!missing.empty()) {
    return absl::UnavailableError(
        absl::StrCat(kNvmlLibrary, " lacks the symbol ", missing, " (driver too old?)"));
  }
  return f;
}

void SetNvmlLoaderForTesting(NvmlLoader loader) {
  NvmlCache& cache = Nvml();
  absl::MutexLock lock(&cache.mu);
  cache.loader = loader;
  cache.gpus.reset();
}

std::vector<size_t> ApplyCudaVisibleDevices(const std::vector<NvmlGpu>& gpus, const char* visible,
                                            std::string* stopped_at) {
  std::vector<size_t> order;
  if (stopped_at != nullptr) stopped_at->clear();
  if (visible == nullptr) {
    for (size_t i = 0; i < gpus.size(); ++i) order.push_back(i);
    return order;
  }
  std::vector<bool> taken(gpus.size(), false);
  for (absl::string_view raw : absl::StrSplit(visible, ',')) {
    const absl::string_view entry = absl::StripAsciiWhitespace(raw);
    std::optional<size_t> match;
    int64_t index = -1;
    if (!entry.empty() && entry.find_first_not_of("0123456789") == absl::string_view::npos) {
      if (absl::SimpleAtoi(entry, &index) && index >= 0 &&
          static_cast<uint64_t>(index) < gpus.size()) {
        match = static_cast<size_t>(index);
      }
    } else if (absl::StartsWith(entry, "GPU-")) {
      for (size_t i = 0; i < gpus.size(); ++i) {
        if (!absl::StartsWith(gpus[i].uuid, entry)) continue;
        if (match.has_value()) {  // ambiguous prefix
          match.reset();
          break;
        }
        match = i;
      }
    }
    if (!match.has_value() || taken[*match]) {
      // An empty value is "no GPU", not an invalid entry.
      if (stopped_at != nullptr && !(entry.empty() && order.empty() && raw == visible)) {
        *stopped_at = std::string(entry);
      }
      break;
    }
    taken[*match] = true;
    order.push_back(*match);
  }
  return order;
}

}  // namespace tessera
