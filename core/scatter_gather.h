// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Host scatter and gather: between one row-major global buffer and one
// row-major buffer per device holding that device's shard (its shape is the
// device's range sizes from the Sharding).
//
// Every copy is a box copy between two row-major arrays that each hold a
// region of the global index space (the global buffer holds [0, n) per
// dimension, a shard buffer its device's ranges). Trailing dimensions that
// the box, the source and the destination all span completely merge into one
// contiguous run, so a contiguous shard is a single memcpy and any other is
// one memcpy per row of the remaining outer dimensions.
#ifndef TESSERA_CORE_SCATTER_GATHER_H_
#define TESSERA_CORE_SCATTER_GATHER_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/shard.h"

namespace tessera {

// Element sizes from 1 byte to the largest scalar (complex128).
inline constexpr size_t kMaxElementSize = 16;
// More threads than this only add start-up cost to a host copy.
inline constexpr size_t kMaxCopyThreads = 64;

struct CopyOptions {
  // Threads to spread the copies over; 0 and 1 both mean the calling thread
  // only. Capped at kMaxCopyThreads and at one thread per
  // min_bytes_per_thread of work.
  size_t threads = 1;
  // Gather only: compare every replica of a shard with its replica 0 first.
  bool verify_replicas = false;
  // Only the devices of this process (>= 0); every device when unset.
  std::optional<int64_t> process_index;
  // Below this much work per thread, fewer threads are used (tests lower it
  // to exercise threading on small tensors).
  size_t min_bytes_per_thread = size_t{1} << 20;
  // From this many bytes in all, stores bypass the caches (non-temporal),
  // as a large memcpy does; tests lower it to exercise that path.
  size_t min_bytes_to_stream = size_t{64} << 20;
};

// Bytes of the whole tensor: element_size * elements, or INVALID_ARGUMENT
// when element_size is outside [1, kMaxElementSize] or the product
// overflows.
absl::StatusOr<size_t> GlobalBytes(const Sharding& sharding, size_t element_size);

// Bytes of device `device_index`'s shard buffer.
absl::StatusOr<size_t> ShardBytes(const Sharding& sharding, int64_t device_index,
                                  size_t element_size);

// Copies `global` (global_size bytes, row-major, the sharding's shape) into
// shards[i] for every device i (of options.process_index, when set).
// shards.size() must be the device count; a device whose shard is empty or
// that is outside the process may have NULL. Errors, all before any byte is
// written: INVALID_ARGUMENT for a bad element size, a global_size other than
// GlobalBytes, a wrong number of shards, a NULL global or a NULL shard that
// is needed (naming the device index), a negative process index.
absl::Status Scatter(const Sharding& sharding, const void* global, size_t global_size,
                     size_t element_size, absl::Span<void* const> shards,
                     const CopyOptions& options = {});

// Assembles `global` from the shards: each distinct shard is read once, from
// its replica-0 device (with options.process_index: from the first holder in
// that process; regions the process does not hold are left unwritten).
// Only the devices read need a non-NULL buffer, every holder when
// verify_replicas is set. With verify_replicas, DATA_LOSS names the first
// replica whose bytes differ from its replica 0, both devices and the byte
// offset, and nothing is written. Other errors as Scatter.
absl::Status Gather(const Sharding& sharding, absl::Span<const void* const> shards,
                    size_t element_size, void* global, size_t global_size,
                    const CopyOptions& options = {});

// Copies the elements of `box` (global index ranges) from `src`, a row-major
// array holding the region `src_region`, to `dst`, holding `dst_region`. The
// box must lie inside both regions (not checked: callers derive it from
// them). Used by Scatter and Gather, and to apply a resharding transfer.
void CopyBox(absl::Span<const IndexRange> box, const void* src,
             absl::Span<const IndexRange> src_region, void* dst,
             absl::Span<const IndexRange> dst_region, size_t element_size);

}  // namespace tessera

#endif  // TESSERA_CORE_SCATTER_GATHER_H_
