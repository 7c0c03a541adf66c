// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/log.h: routes the core's log channel to a C callback.
#include <string>

#include "capi/enums.h"
#include "capi/guard.h"
#include "core/log.h"

bool tessera_log_set_callback(tessera_log_fn callback, void* user_data,
                              tessera_log_level_t min_level, tessera_error** out_error) noexcept {
  using namespace tessera;
  return capi::Guard(out_error, [&]() -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(
        LogLevel level, capi::ToCoreEnum<LogLevel>(min_level, capi::kLogLevelNames, "min_level"));
    if (callback == nullptr) {
      SetLogSink(nullptr, LogLevel::kWarning);  // the default sink
      return absl::OkStatus();
    }
    SetLogSink(
        [callback, user_data](LogLevel message_level, absl::string_view message) {
          // The callback is promised a NUL-terminated string.
          const std::string text(message);
          callback(static_cast<tessera_log_level_t>(message_level), text.c_str(), text.size(),
                   user_data);
        },
        level);
    return absl::OkStatus();
  });
}
