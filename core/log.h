// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The library's one logging channel.
//
// Tessera never writes to stderr behind the host's back except through the
// default sink, which prints warnings and errors. Hosts (and the C ABI's
// tessera_log_set_callback) replace the sink to route messages elsewhere.
#ifndef TESSERA_CORE_LOG_H_
#define TESSERA_CORE_LOG_H_

#include <functional>

#include "absl/strings/string_view.h"

namespace tessera {

// Numbers match tessera_log_level_t in the C ABI.
enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

using LogSink = std::function<void(LogLevel, absl::string_view)>;

// Replaces the process-wide sink; messages below `min_level` are dropped
// before the sink is called. An empty sink restores the default (stderr,
// warnings and above). Thread-safe; the sink may be called from any thread.
void SetLogSink(LogSink sink, LogLevel min_level);

// Sends `message` to the current sink if `level` passes its threshold.
void Log(LogLevel level, absl::string_view message);

}  // namespace tessera

#endif  // TESSERA_CORE_LOG_H_
