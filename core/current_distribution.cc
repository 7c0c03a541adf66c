// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The current distribution: a process-wide default plus a per-thread scope
// stack. Keras keeps set_distribution per thread; Tessera adds the default so
// a service can set a policy once for all its worker threads, while a scope
// still overrides it on the thread that opened it.
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "core/distribution.h"

namespace tessera {
namespace {

struct DefaultState {
  absl::Mutex mu;
  DistributionPtr distribution;
};

DefaultState& Default() {
  static DefaultState* state = new DefaultState();
  return *state;
}

std::vector<DistributionPtr>& ThreadScopes() {
  thread_local std::vector<DistributionPtr> scopes;
  return scopes;
}

}  // namespace

DistributionPtr CurrentDistribution() {
  const std::vector<DistributionPtr>& scopes = ThreadScopes();
  if (!scopes.empty()) return scopes.back();
  DefaultState& state = Default();
  absl::MutexLock lock(&state.mu);
  return state.distribution;
}

void SetDefaultDistribution(DistributionPtr distribution) {
  DefaultState& state = Default();
  absl::MutexLock lock(&state.mu);
  state.distribution = std::move(distribution);
}

void PushDistributionScope(DistributionPtr distribution) {
  ThreadScopes().push_back(std::move(distribution));
}

absl::Status PopDistributionScope() {
  std::vector<DistributionPtr>& scopes = ThreadScopes();
  if (scopes.empty()) {
    return absl::FailedPreconditionError(
        "No distribution scope is open on this thread; every pop needs an earlier push");
  }
  scopes.pop_back();
  return absl::OkStatus();
}

}  // namespace tessera
