// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shard math: exactly which slice of a global tensor each device of a mesh
// holds, for a layout and a global shape.
//
// A device is named by its logical index: its row-major position in the mesh
// (DeviceMesh::devices()). Tensor dimension d, split over the axis group
// (a1..ak), has k_d = size(a1)*...*size(ak) shards; a device's shard index on
// d is the mixed-radix number of its coordinates on (a1..ak), a1 most
// significant (JAX tuple entries, sharding.md §1). Unused mesh axes replicate.
//
// Three modes (sharding.md §1, §4.2):
//   kStrict       every sharded dimension divisible by its shard count (JAX
//                 outside jit); shard i = [i*n/k, (i+1)*n/k).
//   kChunkFlat    the group splits the dimension once, as an XLA tile:
//                 c = ceil(n/k), shard i = [min(i*c, n), min((i+1)*c, n)).
//   kChunkNested  PyTorch DTensor's placement (compute_local_shape_and_global_
//                 offset) of the placements tessera/torch.h gives the layout.
//                 A group in mesh order is Shard placements: axis by axis in
//                 the group's order, each axis re-chunks the extent the
//                 previous axes left (torch.chunk). A group against mesh
//                 order has _StridedShard placements; for a size its shards
//                 divide that is the same nested chunking, and for any other
//                 size Create computes PyTorch's pieces (mesh-dim order, each
//                 Shard taking chunk i of the device's current elements, each
//                 _StridedShard(sf) chunk i of each of their sf chunks). Where
//                 those are one range (or empty) for every device, they are
//                 the shards; where PyTorch gives some device elements that
//                 are not one range (mesh (3, 2) axes a, b, layout
//                 (('b', 'a'),), shape (13,): device 4 holds [6, 7) and
//                 [11, 12)), Create refuses (INVALID_ARGUMENT) rather than
//                 differ, naming the first such device and its elements.
// The chunk modes agree with each other, and with kStrict, whenever the size
// is divisible. An empty shard is [n, n) in every mode (PyTorch #150862: the
// offset of a zero-size shard is the global size).
//
// Replica id (JAX device_replica_id_map): the number of devices before this
// one in mesh order that hold identical index ranges. When the device's shard
// is non-empty in every dimension, identical ranges means identical shard
// indices, and the replica id is the mixed-radix number of the device's
// coordinates on the mesh axes the layout does not use, in mesh order (closed
// form, O(rank)). With chunk modes, different shard indices can both be empty
// ([n, n)); those devices hold identical (empty) ranges and Tessera counts
// them as replicas of one another, as JAX's definition does (sharding_cases.md
// S24's note). Only such a device pays more: O(k_d) per dimension where its
// shard is empty. The same equivalence defines DistinctShards, so a device's
// replica id is always its position among the holders of its distinct shard.
//
// Every per-device query is O(rank) (mesh rank plus tensor rank) and
// allocates nothing beyond its result; the bulk queries are the only ones
// that visit every device.
#ifndef TESSERA_CORE_SHARD_H_
#define TESSERA_CORE_SHARD_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/layout.h"
#include "core/mesh.h"

namespace tessera {

// Numbers match tessera_shard_mode_t in the C ABI.
enum class ShardMode {
  kStrict = 0,
  kChunkFlat = 1,
  kChunkNested = 2,
};

// "strict", "chunk-flat", "chunk-nested".
const char* ShardModeName(ShardMode mode);

// A half-open range [start, stop) of indices along one tensor dimension.
struct IndexRange {
  int64_t start = 0;
  int64_t stop = 0;

  int64_t size() const { return stop - start; }
  friend bool operator==(const IndexRange& a, const IndexRange& b) {
    return a.start == b.start && a.stop == b.stop;
  }
  friend bool operator!=(const IndexRange& a, const IndexRange& b) { return !(a == b); }
};

// One distinct slice of the tensor and every device holding it.
struct DistinctShard {
  std::vector<IndexRange> ranges;  // one per tensor dimension
  std::vector<int64_t> devices;    // logical indices, in mesh order
};

// A device of one process, with its slice (JAX's addressable shards).
struct AddressableShard {
  int64_t device_index = 0;  // logical index in the mesh
  std::vector<IndexRange> ranges;
  int64_t replica_id = 0;
};

class Sharding {
 public:
  // `layout` on its mesh for a tensor of global `shape`. Errors:
  // FAILED_PRECONDITION when the layout has no mesh; INVALID_ARGUMENT when the
  // ranks differ or a dimension is negative (TensorLayout::CheckShape), and in
  // kStrict when a dimension is not divisible by its shard count (the text
  // follows JAX's IndivisibleError: "... implies that array axis 1 is
  // partitioned 4 times, but the dimension size is 10 ..."), and in
  // kChunkNested when PyTorch's piece for some device is not one range (see
  // the file comment). O(rank), except that a kChunkNested dimension whose
  // group is a _StridedShard on a size its shards do not divide visits its
  // k_d shard indices (at most O(k_d) each) and keeps a table of their ranges.
  static absl::StatusOr<Sharding> Create(const TensorLayout& layout,
                                         std::vector<int64_t> shape, ShardMode mode);

  const TensorLayout& layout() const { return layout_; }
  const DeviceMesh& mesh() const { return *layout_.mesh(); }
  const std::vector<int64_t>& shape() const { return shape_; }
  ShardMode mode() const { return mode_; }
  size_t rank() const { return shape_.size(); }
  int64_t num_devices() const { return mesh().size(); }

  // ceil(n_d / k_d) per dimension: the shape of the largest shard (JAX's
  // shard_shape in strict mode), in every mode.
  const std::vector<int64_t>& max_shard_shape() const { return max_shard_shape_; }

  // True when every dimension has a single shard (JAX: the mapped axes
  // multiply to 1), so every device holds the whole tensor.
  bool is_fully_replicated() const { return fully_replicated_; }

  // --- Per device, O(rank). OUT_OF_RANGE for a device_index outside
  // [0, num_devices()).

  // The index range of every dimension, written to `out` (rank() entries;
  // INVALID_ARGUMENT when `out` has another size).
  absl::Status DeviceRanges(int64_t device_index, absl::Span<IndexRange> out) const;
  absl::StatusOr<std::vector<IndexRange>> DeviceRanges(int64_t device_index) const;

  // stop - start per dimension.
  absl::StatusOr<std::vector<int64_t>> ShardShape(int64_t device_index) const;

  // See the file comment.
  absl::StatusOr<int64_t> ReplicaId(int64_t device_index) const;

  // Whether the device's owning process is `process_index` (>= 0, else
  // INVALID_ARGUMENT).
  absl::StatusOr<bool> DeviceInProcess(int64_t device_index, int64_t process_index) const;

  // The range of each of dimension `dim`'s k_d shard indices (dim < rank()),
  // by index: O(k_d), no device visited.
  std::vector<IndexRange> DimensionRanges(size_t dim) const;

  // --- Bulk: each visits every device.

  // rank() * 2 * num_devices(), or INVALID_ARGUMENT when that overflows.
  absl::StatusOr<size_t> IndexMapSize() const;
  // The device -> ranges map, flat: for device i and dimension d,
  // out[(i * rank + d) * 2] is the start and the next entry the stop.
  // INVALID_ARGUMENT unless out.size() == IndexMapSize().
  absl::Status FillIndexMap(absl::Span<int64_t> out) const;
  absl::StatusOr<std::vector<int64_t>> IndexMap() const;

  // The distinct slices in order of first appearance in mesh order, each with
  // its holders in mesh order; a device's position in its list is its replica
  // id.
  std::vector<DistinctShard> DistinctShards() const;

  // The devices of process `process_index` in mesh order, each with its
  // ranges and replica id; INVALID_ARGUMENT for a negative process index.
  absl::StatusOr<std::vector<AddressableShard>> AddressableShards(int64_t process_index) const;

 private:
  // One tensor dimension's split.
  struct DimSplit {
    int64_t size = 0;             // n_d
    int64_t shards = 1;           // k_d
    int64_t chunk = 0;            // ceil(n_d / k_d): the flat and strict shard size
    std::vector<size_t> axes;     // mesh axis indices, major first
    // In chunk-nested mode, PyTorch's range for each shard index when the
    // group is a _StridedShard on a size its shards do not divide (built by
    // PlaceAsTorch); empty otherwise.
    std::vector<IndexRange> torch_ranges;
  };

  Sharding(TensorLayout layout, std::vector<int64_t> shape, ShardMode mode)
      : layout_(std::move(layout)), shape_(std::move(shape)), mode_(mode) {}

  // Fills splits_[dim].torch_ranges where needed; INVALID_ARGUMENT when
  // PyTorch gives some device a piece that is not one range.
  absl::Status PlaceAsTorch(size_t dim);
  absl::Status CheckDeviceIndex(int64_t device_index) const;
  // Coordinate of device `device_index` on mesh axis `axis`.
  int64_t Coordinate(int64_t device_index, size_t axis) const {
    return device_index / axis_stride_[axis] % mesh().shape()[axis];
  }
  // The range of dimension `dim` for the given coordinates of its axes (one
  // per split.axes entry); `coords(i)` returns the coordinate of split.axes[i].
  template <typename Coords>
  IndexRange RangeOf(const DimSplit& split, Coords coords) const;
  IndexRange RangeOfDevice(size_t dim, int64_t device_index) const;
  // Coordinate i of `split`'s group (on mesh axis split.axes[i]) for shard
  // index `index`.
  int64_t GroupCoordinate(const DimSplit& split, int64_t index, size_t i) const {
    const size_t axis = split.axes[i];
    return index / group_weight_[axis] % mesh().shape()[axis];
  }
  // For each dimension, the range of each of its k_d shard indices (the bulk
  // queries look ranges up instead of recomputing them per device).
  std::vector<std::vector<IndexRange>> RangeTable() const;
  // The replica id of a device whose dimensions in `empty_dims` are empty.
  int64_t ReplicaIdWithEmptyShards(int64_t device_index,
                                   absl::Span<const size_t> empty_dims) const;

  TensorLayout layout_;
  std::vector<int64_t> shape_;
  ShardMode mode_;
  std::vector<DimSplit> splits_;           // one per tensor dimension
  std::vector<int64_t> axis_stride_;       // row-major stride of each mesh axis
  std::vector<int64_t> unused_weight_;     // mixed-radix weight over unused axes; 0 if used
  std::vector<int> axis_dim_;              // the dimension an axis splits, or -1
  std::vector<int64_t> group_weight_;      // an axis's weight in its dimension's shard index
  std::vector<int64_t> max_shard_shape_;
  bool fully_replicated_ = true;
};

}  // namespace tessera

#endif  // TESSERA_CORE_SHARD_H_
