// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Helpers shared by the core and conformance tests: status matchers, a scoped
// environment variable, and builders for the meshes the tests talk about.
#ifndef TESSERA_TESTS_CORE_TESTING_H_
#define TESSERA_TESTS_CORE_TESTING_H_

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/mesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessera {
namespace testing {

inline const absl::Status& GetStatus(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// Matches an absl::Status or StatusOr that is OK.
MATCHER(IsOk, "is OK") {
  const absl::Status& status = ::tessera::testing::GetStatus(arg);
  if (!status.ok()) *result_listener << "status is " << status;
  return status.ok();
}

// Matches an absl::Status or StatusOr failing with `code` and a message that
// `message_matcher` accepts.
MATCHER_P2(StatusIs, code, message_matcher,
           absl::StrCat("fails with ", absl::StatusCodeToString(code))) {
  const absl::Status& status = ::tessera::testing::GetStatus(arg);
  if (status.code() != code) {
    *result_listener << "status is " << status;
    return false;
  }
  return ::testing::ExplainMatchResult(message_matcher, std::string(status.message()),
                                       result_listener);
}

// The value of a StatusOr the test needs in order to go on; an error throws,
// which GoogleTest reports as a failure of the test (with the status).
template <typename T>
T Unwrap(absl::StatusOr<T> status_or) {
  if (!status_or.ok()) {
    throw std::runtime_error(absl::StrCat("unexpected error: ", status_or.status().ToString()));
  }
  return *std::move(status_or);
}

// Sets (or, with nullopt, unsets) an environment variable for one scope and
// restores the previous state afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    Apply(value);
  }
  ~ScopedEnv() { Apply(old_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  void Apply(const std::optional<std::string>& value) {
    if (value) {
      setenv(name_, value->c_str(), /*overwrite=*/1);
    } else {
      unsetenv(name_);
    }
  }

  const char* name_;
  std::optional<std::string> old_;
};

inline constexpr char kCpuDeviceCountEnv[] = "TESSERA_CPU_DEVICE_COUNT";

// Local discovery with `n` CPU devices for one scope (and no installed
// global list, which would take precedence).
class ScopedCpuDevices {
 public:
  explicit ScopedCpuDevices(int64_t n) : env_(kCpuDeviceCountEnv, std::to_string(n)) {
    SetGlobalDevices(std::nullopt);
  }

 private:
  ScopedEnv env_;
};

// Collects every message the log sink receives while it is alive, then
// restores the default sink.
class ScopedLogCapture {
 public:
  ScopedLogCapture() {
    SetLogSink([this](LogLevel level, absl::string_view message) {
      entries_.emplace_back(level, std::string(message));
    }, LogLevel::kDebug);
  }
  ~ScopedLogCapture() { SetLogSink(nullptr, LogLevel::kWarning); }
  ScopedLogCapture(const ScopedLogCapture&) = delete;
  ScopedLogCapture& operator=(const ScopedLogCapture&) = delete;

  const std::vector<std::pair<LogLevel, std::string>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<LogLevel, std::string>> entries_;
};

// Keras's devs(n): "cpu:0" ... "cpu:{n-1}".
inline std::vector<std::string> CpuNames(int64_t n) {
  std::vector<std::string> names;
  for (int64_t i = 0; i < n; ++i) names.push_back(absl::StrCat("cpu:", i));
  return names;
}

// Keras's rep(d, n): the same device string n times.
inline std::vector<std::string> Repeated(const std::string& name, int64_t n) {
  return std::vector<std::string>(static_cast<size_t>(n), name);
}

// A CPU device as local discovery lists it: process 0, ordinal = id.
inline Device Cpu(int64_t id) {
  Device device;
  device.id = id;
  device.platform = Platform::kCpu;
  device.process_index = 0;
  device.local_ordinal = id;
  return device;
}

inline std::vector<Device> Cpus(int64_t n) {
  std::vector<Device> devices;
  for (int64_t i = 0; i < n; ++i) devices.push_back(Cpu(i));
  return devices;
}

// DeviceMesh(shape, axis_names, devs(prod(shape))).
inline MeshPtr CpuMesh(std::vector<int64_t> shape, std::vector<std::string> axis_names) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return Unwrap(DeviceMesh::Create(std::move(shape), std::move(axis_names), Cpus(count)));
}

// A layout from a compact spec: "" = replicated, "a" = one axis, "a+b" = the
// group (a, b).
inline TensorLayout Layout(const std::vector<std::string>& spec, MeshPtr mesh = nullptr) {
  std::vector<AxisGroup> axes;
  for (const std::string& dim : spec) {
    AxisGroup group;
    size_t start = 0;
    while (!dim.empty() && start <= dim.size()) {
      size_t plus = dim.find('+', start);
      if (plus == std::string::npos) plus = dim.size();
      group.push_back(dim.substr(start, plus - start));
      start = plus + 1;
    }
    axes.push_back(std::move(group));
  }
  return Unwrap(TensorLayout::Create(std::move(axes), std::move(mesh)));
}

}  // namespace testing
}  // namespace tessera

#endif  // TESSERA_TESTS_CORE_TESTING_H_
