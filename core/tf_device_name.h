// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TensorFlow device names ("/job:J/replica:R/task:T/device:TYPE:N"), as
// TF's DeviceNameUtils reads them: DTensor meshes name their devices so.
#ifndef TESSERA_CORE_TF_DEVICE_NAME_H_
#define TESSERA_CORE_TF_DEVICE_NAME_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace tessera {

// The parts of a TF device name; each component may appear in any order, at
// most once, and any may be missing.
struct TfDeviceName {
  std::optional<std::string> job;
  std::optional<int64_t> replica, task, index;
  std::optional<std::string> type;
};

// nullopt when `s` is not a sequence of /job:, /replica:, /task: and
// /device:TYPE:N components.
std::optional<TfDeviceName> ParseTfDeviceName(absl::string_view s);

// A canonical non-negative decimal ("0", "12"; not "+1", "012" or " 1")
// within int64, as the numbers in device names and DTensor's text are read.
std::optional<int64_t> ParseCanonicalCount(absl::string_view token);

// A letter, then letters, digits or '_' (a job or device type).
bool IsTfIdentifier(absl::string_view s);

}  // namespace tessera

#endif  // TESSERA_CORE_TF_DEVICE_NAME_H_
