// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The resharding plan: the transfers that build every shard of a destination
// sharding from the shards of a source sharding of the same global shape
// (a checkpoint restored onto another mesh, a layout change).
//
// Each destination device's box is cut by the source's shard boundaries:
// per dimension the distinct non-empty source ranges partition [0, n) and are
// sorted, so the source chunks a destination range meets are an interval
// (one division for uniform chunks, else a binary search), found once per
// destination shard index; the pieces are the cartesian product of those
// intervals. Each piece comes from one holder of its source shard, chosen in
// this order: the destination device itself (same id and platform), the
// first holder in the destination's process, the holder with the lowest
// replica id. The cost is O(sum of shard counts * rank) to read both splits,
// one walk over the destination mesh, and the transfers produced; no
// devices x devices loop.
#ifndef TESSERA_CORE_RESHARD_PLAN_H_
#define TESSERA_CORE_RESHARD_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/shard.h"

namespace tessera {

// Where a transfer's bytes move. Numbers match tessera_transfer_locality_t.
enum class TransferLocality {
  kSameDevice = 0,    // source and destination are one device: no copy
  kSameProcess = 1,   // two devices of one process
  kCrossProcess = 2,  // between processes
};

struct Transfer {
  int64_t source = 0;       // logical index in the source mesh
  int64_t destination = 0;  // logical index in the destination mesh
  int64_t bytes = 0;        // elements of the box times the element size
  TransferLocality locality = TransferLocality::kSameDevice;
};

class ReshardPlan {
 public:
  // The plan from `source` to `destination` for elements of `element_size`
  // bytes (1 to kMaxElementSize). INVALID_ARGUMENT when the global shapes
  // differ, for a bad element size, or when a byte count overflows int64.
  // Transfers are ordered by destination device, then by box in row-major
  // order of the source chunks.
  static absl::StatusOr<ReshardPlan> Create(const Sharding& source, const Sharding& destination,
                                            size_t element_size);

  size_t rank() const { return rank_; }
  size_t size() const { return transfers_.size(); }
  const std::vector<Transfer>& transfers() const { return transfers_; }
  // The global index ranges of transfer i (rank() entries); i < size().
  absl::Span<const IndexRange> ranges(size_t i) const {
    return absl::MakeConstSpan(ranges_).subspan(i * rank_, rank_);
  }

  // Bytes per locality, summed over the transfers.
  int64_t same_device_bytes() const { return totals_[0]; }
  int64_t same_process_bytes() const { return totals_[1]; }
  int64_t cross_process_bytes() const { return totals_[2]; }

 private:
  ReshardPlan() = default;

  size_t rank_ = 0;
  std::vector<Transfer> transfers_;
  std::vector<IndexRange> ranges_;  // rank_ per transfer
  int64_t totals_[3] = {0, 0, 0};
};

}  // namespace tessera

#endif  // TESSERA_CORE_RESHARD_PLAN_H_
