// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The resharding plan: the transfers that build every shard of a destination
// sharding from the shards of a source sharding of the same global shape
// (a checkpoint restored onto another mesh, a layout change).
//
// Each destination device's box is cut by the source's shard boundaries:
// per dimension the distinct non-empty source ranges ("chunks") partition
// [0, n) and are sorted, so the chunks a destination range meets are an
// interval, found once per destination shard index (one merge pass over
// both sorted lists; a division or a binary search per range where the
// destination's ranges are out of order). A device's pieces are the cartesian product
// of those intervals, one per dimension: the plan is per-dimension interval
// intersections, and a device's pieces are listed only when asked. Each piece
// comes from one holder of its source shard, chosen in this order: the
// destination device itself (same id and platform), the first holder in the
// destination's process, the holder with the lowest replica id.
//
// Cost. ReshardIntervals::Create reads both splits (O(sum of shard counts),
// no device visited); the pieces and elements are products of per-dimension
// sums. The bytes by locality: when both meshes list the same devices, in
// the same order or with the digits of the index reordered (a mesh
// transpose; one pass over the device lists finds them), a device's shard
// index per dimension is a weighted sum of mixed-radix digits of its
// logical index, the digits both meshes' axes (and the process pattern) are
// cut into; the same-device elements are then products of sums over the
// digits of each group of dimensions that share digits (at most the
// devices, often a few hundred terms), and so are the same-process elements
// when the processes follow a regular pattern (blocks of consecutive
// devices, or every k-th device). Otherwise one walk over each mesh sums
// them (only the same-process ones when the same-device ones are digit
// sums; O(devices * rank), a
// run along the last mesh axis at a time; no devices x devices loop): per
// process, the source shards its devices hold are almost always a product
// of per-dimension position sets (a box for blocks of devices), so a
// destination device's same-process bytes are one intersection per
// dimension (O(log) for a non-contiguous set); otherwise min(pieces, shards
// the process holds) per device. Create also reads both device lists once
// (ids and processes). What only per-device queries need (each source
// device's chunk positions, the shards each process holds, each destination
// device's first piece) is built by the first ForEachPiece or Piece, once,
// O(devices * rank) (the walk builds its source part itself). The number of pieces does not matter: on 4,096 devices
// (benchmarks/reshard_bench.cc, a shared 2-core machine, medians of 5, load
// 3.5-5.1) the plan costs 0.8-1.1x one index map when each device keeps or
// moves one piece, 1.4-2x with dimensions gathered whole (16.7M pieces),
// 4.8x at 16 pieces per device, 1.8-6.9x for uneven, grouped, replicated
// and strided-process pairs, 6.1x for a mesh listing the devices column by
// column, 8.5x for a 1-D swap (4,096 shards on both sides: the
// per-dimension structure is as large as the mesh) and 9.0x for processes
// of 7 and 9 devices (the walk; the worst of the 15 pairs tried). The first
// per-device query adds 3-17x once.
// Listing one device's pieces (ForEachPiece) costs O(mesh rank) plus O(rank)
// per piece, plus a binary search per piece not held in the destination's
// own process when source shards have replicas; piece i of the plan (Piece)
// costs O(log devices + rank). ReshardPlan::Create lists every piece of every
// device: that, and only that, costs the number of transfers.
#ifndef TESSERA_CORE_RESHARD_PLAN_H_
#define TESSERA_CORE_RESHARD_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
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

// One piece of a destination device's shard: its overlap with one distinct
// source shard.
struct ReshardPiece {
  int64_t destination = 0;   // logical index in the destination mesh
  int64_t source = 0;        // the holder it comes from (the rule above), in the source mesh
  int64_t source_shard = 0;  // the source shard's first holder in mesh order (replica id 0):
                             // names the distinct shard (DistinctShard::devices[0])
  int64_t bytes = 0;         // elements of the box times the element size
  TransferLocality locality = TransferLocality::kSameDevice;
  absl::InlinedVector<IndexRange, 4> box;            // the overlap, global ranges (rank entries)
  absl::InlinedVector<IndexRange, 4> source_ranges;  // the whole source shard
  // Per dimension, the source shard's position among source_chunks(d).
  absl::InlinedVector<int64_t, 4> source_chunk;
};

// The plan in factored form: per dimension, the sorted source chunks and,
// per destination shard index, the interval of chunks its range meets; per
// device only what the totals need. Immutable; copies share the data; safe to
// use from several threads; keeps the meshes (shared), not the shardings.
//
// The restore of one process's devices asks ForEachPiece for each of them:
// the cost is that process's pieces, not the mesh's.
class ReshardIntervals {
 public:
  // As ReshardPlan::Create (same errors), without listing the pieces.
  static absl::StatusOr<ReshardIntervals> Create(const Sharding& source,
                                                 const Sharding& destination,
                                                 size_t element_size);

  size_t rank() const;
  size_t element_size() const;
  int64_t num_destination_devices() const;
  // Pieces of every destination device: ReshardPlan::size().
  size_t num_pieces() const;
  // The sorted non-empty source ranges of dimension `dim` (< rank()): they
  // partition [0, n) unless the tensor is empty there.
  const std::vector<IndexRange>& source_chunks(size_t dim) const;

  // The pieces of `destination` (OUT_OF_RANGE outside [0, devices)), in plan
  // order (row-major over source chunks); none for an empty shard.
  absl::StatusOr<size_t> NumPieces(int64_t destination) const;
  // Calls `fn` on each piece of `destination`, in plan order; the piece is
  // valid during the call only. OUT_OF_RANGE as NumPieces. O(mesh rank) plus
  // O(rank) per piece, plus a binary search per piece that does not come from
  // the destination device's own process when source shards have replicas.
  absl::Status ForEachPiece(int64_t destination,
                            absl::FunctionRef<void(const ReshardPiece&)> fn) const;
  // Piece `index` (< num_pieces()) in plan order, ReshardPlan's transfer
  // `index`: O(log devices + rank). OUT_OF_RANGE otherwise.
  absl::Status Piece(size_t index, ReshardPiece& out) const;

  // Bytes per locality over every piece.
  int64_t same_device_bytes() const;
  int64_t same_process_bytes() const;
  int64_t cross_process_bytes() const;

 private:
  struct Data;
  explicit ReshardIntervals(std::shared_ptr<const Data> data) : data_(std::move(data)) {}
  std::shared_ptr<const Data> data_;
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
  // Every piece of `intervals`, listed.
  static ReshardPlan Expand(const ReshardIntervals& intervals);

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
