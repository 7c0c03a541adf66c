// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/log.h"

#include <cstdio>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"

namespace tessera {
namespace {

struct SinkState {
  absl::Mutex mu;
  LogSink sink;  // empty: the default stderr sink
  LogLevel min_level = LogLevel::kWarning;
};

SinkState& State() {
  static SinkState* state = new SinkState();  // never destroyed: logging may run at exit
  return *state;
}

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarning: return "warning";
    case LogLevel::kError: return "error";
  }
  return "log";
}

}  // namespace

void SetLogSink(LogSink sink, LogLevel min_level) {
  SinkState& state = State();
  absl::MutexLock lock(&state.mu);
  state.sink = std::move(sink);
  state.min_level = state.sink ? min_level : LogLevel::kWarning;
}

void Log(LogLevel level, absl::string_view message) {
  SinkState& state = State();
  LogSink sink;
  {
    absl::MutexLock lock(&state.mu);
    if (static_cast<int>(level) < static_cast<int>(state.min_level)) return;
    sink = state.sink;  // copied so the sink runs without the lock held
  }
  if (sink) {
    sink(level, message);
    return;
  }
  std::fprintf(stderr, "tessera %s: %.*s\n", LevelName(level),
               static_cast<int>(message.size()), message.data());
}

}  // namespace tessera
