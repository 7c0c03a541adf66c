// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Local mode: a single process without a coordinator serves itself (KV from
// the coordinator's own store, barriers and agreement at once). Private to
// the client (core/cluster/client*.cc): not installed, not in the C ABI.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_LOCAL_H_
#define TESSERA_CORE_CLUSTER_CLIENT_LOCAL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/cluster/client_state.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster::internal {

// The one-process topology of `devices` on `host`, fingerprinted as the
// coordinator would (NewState).
v1::GlobalTopology LocalTopology(const v1::HostInfo& host,
                                 const std::vector<v1::LocalDevice>& devices);

// INVALID_ARGUMENT unless every id in `ids` is 0, this job's one process
// (barriers and AgreeLiveProcesses).
absl::Status CheckLocalParticipants(const std::vector<int64_t>& ids, const char* what);

// Waits (mu held) until `ready` or the timeout / CancelAll / a sticky error.
template <typename Ready>
absl::Status LocalWait(State& s, absl::Duration timeout, Ready ready, const std::string& what)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(s.mu) {
  const int64_t generation = s.cancel_generation;
  auto done = [&s, &ready, generation] {
    return ready() || s.cancel_generation != generation || !s.sticky.ok() || s.stopping;
  };
  s.mu.AwaitWithTimeout(absl::Condition(&done, &decltype(done)::operator()), timeout);
  if (ready()) return absl::OkStatus();
  if (!s.sticky.ok()) return s.sticky;
  if (s.cancel_generation != generation || s.stopping) {
    return absl::CancelledError(absl::StrCat(what, " was cancelled (cancel_all)"));
  }
  return absl::DeadlineExceededError(
      absl::StrCat(what, " timed out after ", absl::FormatDuration(timeout)));
}

}  // namespace tessera::cluster::internal

#endif  // TESSERA_CORE_CLUSTER_CLIENT_LOCAL_H_
