// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The definition behind tessera_sharding, shared by the C ABI files that take
// a sharding (shard.h, copy.h, reshard.h). Private to capi/.
#ifndef TESSERA_CAPI_SHARDING_HANDLE_H_
#define TESSERA_CAPI_SHARDING_HANDLE_H_

#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "core/shard.h"
#include "tessera/shard.h"

// Immutable: the distinct shards are computed on first use (under the mutex)
// and never change afterwards, so readers may keep references to them.
struct tessera_sharding {
  explicit tessera_sharding(tessera::Sharding sharding) : impl(std::move(sharding)) {}

  const tessera::Sharding impl;
  mutable absl::Mutex mutex;
  mutable std::optional<std::vector<tessera::DistinctShard>> distinct ABSL_GUARDED_BY(mutex);
};

#endif  // TESSERA_CAPI_SHARDING_HANDLE_H_
