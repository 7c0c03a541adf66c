// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/shard.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

int64_t CeilDiv(int64_t n, int64_t k) { return n / k + (n % k != 0 ? 1 : 0); }

// min(a * c, n) for a, c, n >= 0, without overflowing when a * c would.
int64_t MulAtMost(int64_t a, int64_t c, int64_t n) {
  if (c != 0 && a > n / c) return n;  // a >= n/c + 1, so a * c > n
  return std::min(a * c, n);
}

// Chunk `index` of [0, n) cut into pieces of `chunk` (XLA TileOffsetForDevice
// and TileLimitForDevice; torch.chunk). An empty chunk is [n, n).
IndexRange ChunkOf(int64_t n, int64_t chunk, int64_t index) {
  return {MulAtMost(index, chunk, n), MulAtMost(index + 1, chunk, n)};
}

// JAX's IndivisibleError, naming Tessera's argument.
absl::Status IndivisibleError(const TensorLayout& layout, absl::Span<const int64_t> shape,
                              absl::Span<const int64_t> partitions, size_t dim) {
  return absl::InvalidArgumentError(absl::StrCat(
      "Argument 'shape': the layout ", PyAxesRepr(layout.axes()), " implies that array axis ",
      dim, " is partitioned ", partitions[dim], " times, but the dimension size is ", shape[dim],
      " (full shape: ", ShapeToString(shape), ", per-dimension tiling factors: ",
      PyIntListRepr(partitions),
      " should evenly divide the shape); expected divisible sizes in strict mode, or a chunk "
      "mode"));
}

// A group against mesh order (an axis of size > 1 before one of size > 1 that
// comes earlier in the mesh) is a _StridedShard in PyTorch. For a size its
// shards divide, PyTorch's pieces are nested chunking; for any other size
// they differ from it, and Create computes them with TorchPieces.
bool IsStridedAndIndivisible(int64_t size, int64_t shards, const std::vector<size_t>& axes,
                             const std::vector<int64_t>& sizes) {
  if (size % shards == 0) return false;
  for (size_t i = 0; i < axes.size(); ++i) {
    for (size_t j = i + 1; j < axes.size(); ++j) {
      if (axes[i] > axes[j] && sizes[axes[i]] > 1 && sizes[axes[j]] > 1) return true;
    }
  }
  return false;
}

// Appends positions [begin, end) of the concatenation of `pieces` to `out`
// as ranges of the dimension, merging a range that continues the last one.
void AppendPositions(const std::vector<IndexRange>& pieces, int64_t begin, int64_t end,
                     std::vector<IndexRange>* out) {
  int64_t position = 0;
  for (const IndexRange& piece : pieces) {
    const int64_t lo = std::max(begin, position);
    const int64_t hi = std::min(end, position + piece.size());
    if (lo < hi) {
      const IndexRange r{piece.start + lo - position, piece.start + hi - position};
      if (!out->empty() && out->back().stop == r.start) {
        out->back().stop = r.stop;
      } else {
        out->push_back(r);
      }
    }
    position += piece.size();
  }
}

// The elements that PyTorch's placements give a device on one dimension
// split over `axes` (mesh axis indices, major first; `coords[i]` the device's
// coordinate on axes[i]), as ranges in the order of its local tensor.
// PyTorch applies one placement per mesh dim in mesh order, each to the
// device's current local elements (_compute_local_shape_and_global_offset):
// Shard takes torch.chunk `coord` of them; _StridedShard(sf) cuts them into
// sf chunks, cuts each into `parts` chunks and takes chunk `coord` of each
// (_StridedShard._split_tensor). sf is the product of the group's axes
// before this one in the group and after it in the mesh (tessera/torch.h).
std::vector<IndexRange> TorchPieces(int64_t size, const std::vector<size_t>& axes,
                                    const std::vector<int64_t>& sizes,
                                    const std::vector<int64_t>& coords) {
  std::vector<size_t> order(axes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return axes[x] < axes[y]; });
  std::vector<IndexRange> pieces = {{0, size}};
  std::vector<IndexRange> next;
  for (size_t i : order) {
    int64_t split_factor = 1;
    for (size_t before = 0; before < i; ++before) {
      if (axes[before] > axes[i]) split_factor *= sizes[axes[before]];
    }
    const int64_t parts = sizes[axes[i]];
    int64_t length = 0;
    for (const IndexRange& piece : pieces) length += piece.size();
    next.clear();
    const int64_t outer = CeilDiv(length, split_factor);
    for (int64_t j = 0; j < split_factor; ++j) {
      const IndexRange chunk = ChunkOf(length, outer, j);
      const IndexRange inner = ChunkOf(chunk.size(), CeilDiv(chunk.size(), parts), coords[i]);
      AppendPositions(pieces, chunk.start + inner.start, chunk.start + inner.stop, &next);
    }
    pieces.swap(next);
  }
  return pieces;
}

// "[6, 7) and [11, 12)".
std::string PiecesToString(const std::vector<IndexRange>& pieces) {
  std::vector<std::string> parts;
  for (const IndexRange& r : pieces) parts.push_back(absl::StrCat("[", r.start, ", ", r.stop, ")"));
  if (parts.size() < 2) return absl::StrJoin(parts, "");
  return absl::StrCat(absl::StrJoin(parts.begin(), parts.end() - 1, ", "), " and ", parts.back());
}

// Copies one index-map row (2 * rank values). Common ranks get a fixed-size
// copy the compiler inlines: a call to memcpy per device would cost more than
// the copy itself.
inline void CopyRow(int64_t* dst, const int64_t* src, size_t row) {
  switch (row) {
    case 2: std::memcpy(dst, src, 2 * sizeof(int64_t)); return;
    case 4: std::memcpy(dst, src, 4 * sizeof(int64_t)); return;
    case 6: std::memcpy(dst, src, 6 * sizeof(int64_t)); return;
    case 8: std::memcpy(dst, src, 8 * sizeof(int64_t)); return;
    default: std::memcpy(dst, src, row * sizeof(int64_t)); return;
  }
}

}  // namespace

const char* ShardModeName(ShardMode mode) {
  switch (mode) {
    case ShardMode::kStrict:
      return "strict";
    case ShardMode::kChunkFlat:
      return "chunk-flat";
    case ShardMode::kChunkNested:
      return "chunk-nested";
  }
  return "unknown";
}

absl::StatusOr<Sharding> Sharding::Create(const TensorLayout& layout,
                                          std::vector<int64_t> shape, ShardMode mode) {
  if (mode != ShardMode::kStrict && mode != ShardMode::kChunkFlat &&
      mode != ShardMode::kChunkNested) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'mode' is ", static_cast<int>(mode),
        "; expected kStrict (0), kChunkFlat (1) or kChunkNested (2)"));
  }
  // Mesh attached, ranks agree, sizes >= 0; divisibility is checked below
  // with JAX's wording.
  TESSERA_RETURN_IF_ERROR(layout.CheckShape(shape, ShapeCheck::kChunk));
  Sharding s(layout, std::move(shape), mode);
  const DeviceMesh& mesh = s.mesh();
  const std::vector<int64_t>& sizes = mesh.shape();
  const size_t m = mesh.rank();

  s.axis_stride_.assign(m, 1);
  for (size_t j = m; j-- > 1;) s.axis_stride_[j - 1] = s.axis_stride_[j] * sizes[j];

  s.axis_dim_.assign(m, -1);
  s.group_weight_.assign(m, 0);
  s.splits_.resize(s.rank());
  std::vector<int64_t> partitions(s.rank());
  for (size_t d = 0; d < s.rank(); ++d) {
    DimSplit& split = s.splits_[d];
    split.size = s.shape_[d];
    for (const std::string& name : layout.axes()[d]) {
      TESSERA_ASSIGN_OR_RETURN(const size_t axis, mesh.AxisIndex(name));
      split.axes.push_back(axis);
      split.shards *= sizes[axis];  // a product of distinct mesh axes: no overflow
      s.axis_dim_[axis] = static_cast<int>(d);
    }
    int64_t group_weight = 1;
    for (size_t i = split.axes.size(); i-- > 0;) {
      s.group_weight_[split.axes[i]] = group_weight;
      group_weight *= sizes[split.axes[i]];
    }
    split.chunk = CeilDiv(split.size, split.shards);
    partitions[d] = split.shards;
    s.max_shard_shape_.push_back(split.chunk);
    if (split.shards > 1) s.fully_replicated_ = false;
  }
  if (mode == ShardMode::kStrict) {
    for (size_t d = 0; d < s.rank(); ++d) {
      if (s.shape_[d] % partitions[d] != 0) {
        return IndivisibleError(layout, s.shape_, partitions, d);
      }
    }
  }
  if (mode == ShardMode::kChunkNested) {
    for (size_t d = 0; d < s.rank(); ++d) {
      TESSERA_RETURN_IF_ERROR(s.PlaceAsTorch(d));
    }
  }

  s.unused_weight_.assign(m, 0);
  int64_t weight = 1;
  for (size_t j = m; j-- > 0;) {
    if (s.axis_dim_[j] >= 0) continue;
    s.unused_weight_[j] = weight;
    weight *= sizes[j];
  }
  return s;
}

absl::Status Sharding::PlaceAsTorch(size_t dim) {
  DimSplit& split = splits_[dim];
  const std::vector<int64_t>& sizes = mesh().shape();
  if (!IsStridedAndIndivisible(split.size, split.shards, split.axes, sizes)) return absl::OkStatus();
  split.torch_ranges.reserve(static_cast<size_t>(split.shards));
  std::vector<int64_t> coords(split.axes.size());
  // The error names the first device in mesh order whose elements are not one
  // range; shard indices run in group order, so keep the lowest.
  int64_t first_device = -1;
  std::vector<int64_t> first_coords;
  std::vector<IndexRange> first_pieces;
  for (int64_t index = 0; index < split.shards; ++index) {
    for (size_t i = 0; i < coords.size(); ++i) coords[i] = GroupCoordinate(split, index, i);
    std::vector<IndexRange> pieces = TorchPieces(split.size, split.axes, sizes, coords);
    if (pieces.size() <= 1) {
      split.torch_ranges.push_back(pieces.empty() ? IndexRange{split.size, split.size} : pieces[0]);
      continue;
    }
    int64_t device = 0;  // the first device holding this shard index: 0 on the other axes
    for (size_t i = 0; i < coords.size(); ++i) device += coords[i] * axis_stride_[split.axes[i]];
    if (first_device < 0 || device < first_device) {
      first_device = device;
      first_coords = coords;
      first_pieces = std::move(pieces);
    }
  }
  if (first_device < 0) return absl::OkStatus();
  std::vector<int64_t> coordinate(sizes.size(), 0);
  for (size_t i = 0; i < first_coords.size(); ++i) coordinate[split.axes[i]] = first_coords[i];
  return absl::InvalidArgumentError(absl::StrCat(
      "Argument 'mode': chunk-nested cannot place dimension ", dim, " (size ", split.size,
      ") of layout ", PyAxesRepr(layout_.axes()), " as PyTorch does: its axes ",
      PyAxisGroupRepr(layout_.axes()[dim]),
      " run against mesh order, which PyTorch shards by _StridedShard, and PyTorch gives device ",
      first_device, " (mesh coordinate ", ShapeToString(coordinate), ") elements ",
      PiecesToString(first_pieces), ", not one range; expected a size divisible by ", split.shards,
      ", the chunk-flat mode, or the axes in mesh order"));
}

absl::Status Sharding::CheckDeviceIndex(int64_t device_index) const {
  if (device_index >= 0 && device_index < num_devices()) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat("Argument 'device_index' is ", device_index,
                                            "; expected 0 to ", num_devices() - 1,
                                            " (a logical index in the mesh)"));
}

template <typename Coords>
IndexRange Sharding::RangeOf(const DimSplit& split, Coords coords) const {
  const std::vector<int64_t>& sizes = mesh().shape();
  if (mode_ != ShardMode::kChunkNested || !split.torch_ranges.empty()) {
    int64_t index = 0;
    for (size_t i = 0; i < split.axes.size(); ++i) index = index * sizes[split.axes[i]] + coords(i);
    if (!split.torch_ranges.empty()) return split.torch_ranges[static_cast<size_t>(index)];
    // Strict is flat chunking of a divisible size.
    return ChunkOf(split.size, split.chunk, index);
  }
  int64_t start = 0;
  int64_t length = split.size;
  for (size_t i = 0; i < split.axes.size(); ++i) {
    const int64_t pieces = sizes[split.axes[i]];
    const IndexRange piece = ChunkOf(length, CeilDiv(length, pieces), coords(i));
    if (piece.size() == 0) return {split.size, split.size};
    start += piece.start;
    length = piece.size();
  }
  return {start, start + length};
}

IndexRange Sharding::RangeOfDevice(size_t dim, int64_t device_index) const {
  const DimSplit& split = splits_[dim];
  return RangeOf(split, [&](size_t i) { return Coordinate(device_index, split.axes[i]); });
}

absl::Status Sharding::DeviceRanges(int64_t device_index, absl::Span<IndexRange> out) const {
  TESSERA_RETURN_IF_ERROR(CheckDeviceIndex(device_index));
  if (out.size() != rank()) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'out' has ", out.size(),
                                                   " entries; expected the rank ", rank()));
  }
  for (size_t d = 0; d < rank(); ++d) out[d] = RangeOfDevice(d, device_index);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<IndexRange>> Sharding::DeviceRanges(int64_t device_index) const {
  std::vector<IndexRange> ranges(rank());
  TESSERA_RETURN_IF_ERROR(DeviceRanges(device_index, absl::MakeSpan(ranges)));
  return ranges;
}

absl::StatusOr<std::vector<int64_t>> Sharding::ShardShape(int64_t device_index) const {
  TESSERA_ASSIGN_OR_RETURN(const std::vector<IndexRange> ranges, DeviceRanges(device_index));
  std::vector<int64_t> shape(ranges.size());
  for (size_t d = 0; d < ranges.size(); ++d) shape[d] = ranges[d].size();
  return shape;
}

absl::StatusOr<int64_t> Sharding::ReplicaId(int64_t device_index) const {
  TESSERA_RETURN_IF_ERROR(CheckDeviceIndex(device_index));
  std::vector<size_t> empty_dims;  // allocated only when a shard is empty
  for (size_t d = 0; d < rank(); ++d) {
    // With one shard every device holds the same range, empty or not.
    if (splits_[d].shards > 1 && RangeOfDevice(d, device_index).size() == 0) {
      empty_dims.push_back(d);
    }
  }
  if (!empty_dims.empty()) return ReplicaIdWithEmptyShards(device_index, empty_dims);
  // Identical non-empty ranges <=> identical shard indices: the earlier
  // replicas differ only on unused axes.
  int64_t id = 0;
  for (size_t j = 0; j < mesh().rank(); ++j) {
    if (unused_weight_[j] != 0) id += Coordinate(device_index, j) * unused_weight_[j];
  }
  return id;
}

// Counts the devices y before x (row-major) whose ranges equal x's. A device
// y matches when, per dimension, its shard index equals x's (x non-empty
// there) or its shard is empty too (dimensions in `empty_dims`); unused axes
// are free. Split the count by the first mesh axis p where y and x differ
// (y_p < x_p): the constraints on disjoint axis sets multiply. For an empty
// dimension d the allowed tuples E_d (the empty shards of d) are enumerated
// once, O(k_d), recording for each the first axis where it leaves x.
int64_t Sharding::ReplicaIdWithEmptyShards(int64_t device_index,
                                           absl::Span<const size_t> empty_dims) const {
  const std::vector<int64_t>& sizes = mesh().shape();
  const size_t m = mesh().rank();
  const size_t never = m;  // "agrees with x on every axis of the group"

  // For each empty dimension: at_least[p] = #{t in E_d : first difference >= p}
  // and less[p] = #{t in E_d : first difference at p, t_p < x_p}.
  std::vector<std::vector<int64_t>> at_least(empty_dims.size(), std::vector<int64_t>(m + 1, 0));
  std::vector<std::vector<int64_t>> less(empty_dims.size(), std::vector<int64_t>(m, 0));
  for (size_t e = 0; e < empty_dims.size(); ++e) {
    const DimSplit& split = splits_[empty_dims[e]];
    std::vector<int64_t> first_difference(m + 1, 0);
    for (int64_t index = 0; index < split.shards; ++index) {
      const auto t = [&](size_t i) { return GroupCoordinate(split, index, i); };
      if (RangeOf(split, t).size() != 0) continue;
      size_t first = never;
      bool below = false;
      for (size_t i = 0; i < split.axes.size(); ++i) {
        const size_t axis = split.axes[i];
        const int64_t x = Coordinate(device_index, axis);
        if (t(i) != x && axis < first) {
          first = axis;
          below = t(i) < x;
        }
      }
      ++first_difference[first];
      if (first != never && below) ++less[e][first];
    }
    for (size_t p = m + 1; p-- > 0;) {
      at_least[e][p] = first_difference[p] + (p < m ? at_least[e][p + 1] : 0);
    }
  }

  int64_t count = 0;
  int64_t unused_after = 1;  // product of the unused axes' sizes after p
  for (size_t p = m; p-- > 0;) {
    const int owner = axis_dim_[p];
    int64_t term = 0;
    if (owner < 0) {
      term = Coordinate(device_index, p);
    } else {
      auto it = std::find(empty_dims.begin(), empty_dims.end(), static_cast<size_t>(owner));
      // y_p < x_p is impossible when y must hold x's exact shard index on p.
      if (it != empty_dims.end()) term = less[it - empty_dims.begin()][p];
    }
    for (size_t e = 0; e < empty_dims.size() && term != 0; ++e) {
      if (static_cast<int>(empty_dims[e]) != owner) term *= at_least[e][p];
    }
    count += term * unused_after;
    if (owner < 0) unused_after *= sizes[p];
  }
  return count;
}

absl::StatusOr<bool> Sharding::DeviceInProcess(int64_t device_index,
                                               int64_t process_index) const {
  TESSERA_RETURN_IF_ERROR(CheckDeviceIndex(device_index));
  if (process_index < 0) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'process_index' is ", process_index,
                                                   "; expected a process index >= 0"));
  }
  return mesh().devices()[static_cast<size_t>(device_index)].process_index == process_index;
}

absl::StatusOr<size_t> Sharding::IndexMapSize() const {
  TESSERA_ASSIGN_OR_RETURN(const int64_t per_device,
                           CheckedMul(static_cast<int64_t>(rank()), 2, "index map"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t total, CheckedMul(num_devices(), per_device, "index map"));
  if constexpr (sizeof(size_t) < sizeof(int64_t)) {
    if (total > static_cast<int64_t>(std::numeric_limits<size_t>::max())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'index map': ", total, " entries do not fit in size_t"));
    }
  }
  return static_cast<size_t>(total);
}

namespace {

// Walks the mesh in row-major order keeping, for each tensor dimension, the
// device's shard index (the mixed-radix number of its group's coordinates),
// updated in O(1) amortised per device instead of recomputed.
class ShardIndexWalk {
 public:
  // `group_weight[j]`: the weight of mesh axis j in its dimension's shard
  // index; `axis_dim[j]`: that dimension, or -1 for an unused axis.
  ShardIndexWalk(const std::vector<int64_t>& mesh_sizes, const std::vector<int>& axis_dim,
                 const std::vector<int64_t>& group_weight, size_t rank)
      : sizes_(mesh_sizes), axis_dim_(axis_dim), group_weight_(group_weight),
        coords_(mesh_sizes.size(), 0), index_(rank, 0) {}

  // Shard index of dimension d for the current device.
  int64_t index(size_t d) const { return index_[d]; }

  void Next() {
    for (size_t j = coords_.size(); j-- > 0;) {
      const int dim = axis_dim_[j];
      if (dim >= 0) index_[dim] += group_weight_[j];
      if (++coords_[j] < sizes_[j]) return;
      coords_[j] = 0;
      if (dim >= 0) index_[dim] -= sizes_[j] * group_weight_[j];
    }
  }

 private:
  const std::vector<int64_t>& sizes_;
  const std::vector<int>& axis_dim_;
  const std::vector<int64_t>& group_weight_;
  std::vector<int64_t> coords_;
  std::vector<int64_t> index_;
};

}  // namespace

std::vector<IndexRange> Sharding::DimensionRanges(size_t dim) const {
  const DimSplit& split = splits_[dim];
  std::vector<IndexRange> ranges;
  ranges.reserve(static_cast<size_t>(split.shards));
  if (split.torch_ranges.empty() && mode_ != ShardMode::kChunkNested &&
      split.size <= std::numeric_limits<int64_t>::max() - split.shards) {
    // Flat chunks without ChunkOf's overflow guard, as FillIndexMap: (i+1)*c
    // <= k*c < n + k.
    ranges.resize(static_cast<size_t>(split.shards));
    int64_t start = 0;
    for (IndexRange& range : ranges) {
      range = {std::min(start, split.size), std::min(start + split.chunk, split.size)};
      start += split.chunk;
    }
    return ranges;
  }
  if (mode_ != ShardMode::kChunkNested || !split.torch_ranges.empty()) {
    // The shard index is RangeOf's mixed-radix index: look it up directly.
    for (int64_t index = 0; index < split.shards; ++index) {
      ranges.push_back(split.torch_ranges.empty()
                           ? ChunkOf(split.size, split.chunk, index)
                           : split.torch_ranges[static_cast<size_t>(index)]);
    }
    return ranges;
  }
  // Nested chunks need the group's coordinates: counted up, last fastest.
  std::vector<int64_t> coords(split.axes.size(), 0);
  for (int64_t index = 0; index < split.shards; ++index) {
    ranges.push_back(RangeOf(split, [&](size_t i) { return coords[i]; }));
    for (size_t i = coords.size(); i-- > 0;) {
      if (++coords[i] < mesh().shape()[split.axes[i]]) break;
      coords[i] = 0;
    }
  }
  return ranges;
}

std::vector<std::vector<IndexRange>> Sharding::RangeTable() const {
  std::vector<std::vector<IndexRange>> table(rank());
  for (size_t d = 0; d < rank(); ++d) table[d] = DimensionRanges(d);
  return table;
}

namespace {

// Writes the index map, devices row-major. The last mesh axis varies fastest
// and moves at most one dimension's shard index, so a run of devices along it
// shares every other range: write the run's first row, copy it along the run,
// then patch that one dimension. The walk over the outer axes lives in locals
// so stores to `cursor` (int64_t, like the walk's state) do not force the
// compiler to reload it. `range(d, i)` is shard i's range in dimension d.
template <typename RangeFn>
void FillRuns(const std::vector<int64_t>& sizes, const std::vector<int>& axis_dim,
              const std::vector<int64_t>& group_weight, size_t rank, int64_t num_devices,
              const RangeFn& range, int64_t* cursor) {
  const size_t m = sizes.size();
  const int64_t run = sizes[m - 1];
  const int run_dim = axis_dim[m - 1];
  const int64_t run_step = run_dim >= 0 ? group_weight[m - 1] : 0;
  const size_t row = 2 * rank;
  std::vector<int64_t> index(rank, 0);
  std::vector<int64_t> coords(m, 0);
  for (int64_t outer = num_devices / run; outer > 0; --outer) {
    int64_t* const first = cursor;
    for (size_t d = 0; d < rank; ++d) {
      const IndexRange r = range(d, index[d]);
      first[2 * d] = r.start;
      first[2 * d + 1] = r.stop;
    }
    cursor += row;
    for (int64_t t = 1; t < run; ++t, cursor += row) CopyRow(cursor, first, row);
    if (run_dim >= 0) {
      int64_t* patch = first + 2 * run_dim;
      for (int64_t t = 0; t < run; ++t, patch += row) {
        const IndexRange r = range(static_cast<size_t>(run_dim), index[run_dim] + t * run_step);
        patch[0] = r.start;
        patch[1] = r.stop;
      }
    }
    for (size_t j = m - 1; j-- > 0;) {  // the outer axes' odometer
      const int dim = axis_dim[j];
      if (dim >= 0) index[dim] += group_weight[j];
      if (++coords[j] < sizes[j]) break;
      coords[j] = 0;
      if (dim >= 0) index[dim] -= sizes[j] * group_weight[j];
    }
  }
}

}  // namespace

absl::Status Sharding::FillIndexMap(absl::Span<int64_t> out) const {
  TESSERA_ASSIGN_OR_RETURN(const size_t needed, IndexMapSize());
  if (out.size() != needed) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'out' has ", out.size(),
                                                   " entries; expected ", needed,
                                                   " (devices * rank * 2)"));
  }
  if (rank() == 0) return absl::OkStatus();
  // Strict and flat shards are one chunk of the dimension: [i*c, (i+1)*c)
  // clipped to n, computed inline. (i+1)*c <= k*c < n + k cannot overflow
  // unless n is within k of 2^63; such dimensions, and nested chunking, look
  // ranges up in a table built once.
  bool arithmetic = mode_ != ShardMode::kChunkNested;
  for (const DimSplit& split : splits_) {
    if (split.size > std::numeric_limits<int64_t>::max() - split.shards) arithmetic = false;
  }
  const std::vector<int64_t>& sizes = mesh().shape();
  if (arithmetic) {
    const auto range = [this](size_t d, int64_t i) {
      const DimSplit& split = splits_[d];
      const int64_t start = i * split.chunk;
      return IndexRange{std::min(start, split.size), std::min(start + split.chunk, split.size)};
    };
    FillRuns(sizes, axis_dim_, group_weight_, rank(), num_devices(), range, out.data());
    return absl::OkStatus();
  }
  const std::vector<std::vector<IndexRange>> table = RangeTable();
  const auto range = [&table](size_t d, int64_t i) { return table[d][static_cast<size_t>(i)]; };
  FillRuns(sizes, axis_dim_, group_weight_, rank(), num_devices(), range, out.data());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> Sharding::IndexMap() const {
  TESSERA_ASSIGN_OR_RETURN(const size_t size, IndexMapSize());
  std::vector<int64_t> map(size);
  TESSERA_RETURN_IF_ERROR(FillIndexMap(absl::MakeSpan(map)));
  return map;
}

std::vector<DistinctShard> Sharding::DistinctShards() const {
  // A shard's key: its shard index per dimension, mixed radix over the
  // dimensions, with every empty shard of a dimension keyed as that
  // dimension's first empty one, so equal keys <=> identical ranges.
  // Keys < prod k_d <= devices.
  const std::vector<std::vector<IndexRange>> table = RangeTable();
  std::vector<int64_t> first_empty(rank(), 0);
  std::vector<int64_t> dim_weight(rank(), 0);
  int64_t num_keys = 1;
  for (size_t d = rank(); d-- > 0;) {
    auto empty = std::find_if(table[d].begin(), table[d].end(),
                              [](const IndexRange& r) { return r.size() == 0; });
    first_empty[d] = empty - table[d].begin();
    dim_weight[d] = num_keys;
    num_keys *= splits_[d].shards;
  }
  std::vector<int64_t> shard_of_key(static_cast<size_t>(num_keys), -1);
  std::vector<DistinctShard> shards;
  std::vector<IndexRange> ranges(rank());
  ShardIndexWalk walk(mesh().shape(), axis_dim_, group_weight_, rank());
  for (int64_t device = 0; device < num_devices(); ++device, walk.Next()) {
    int64_t key = 0;
    for (size_t d = 0; d < rank(); ++d) {
      ranges[d] = table[d][static_cast<size_t>(walk.index(d))];
      const int64_t index = ranges[d].size() == 0 ? first_empty[d] : walk.index(d);
      key += index * dim_weight[d];
    }
    int64_t& slot = shard_of_key[static_cast<size_t>(key)];
    if (slot < 0) {
      slot = static_cast<int64_t>(shards.size());
      shards.push_back(DistinctShard{ranges, {}});
    }
    shards[static_cast<size_t>(slot)].devices.push_back(device);
  }
  return shards;
}

absl::StatusOr<std::vector<AddressableShard>> Sharding::AddressableShards(
    int64_t process_index) const {
  if (process_index < 0) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'process_index' is ", process_index,
                                                   "; expected a process index >= 0"));
  }
  std::vector<AddressableShard> shards;
  const std::vector<Device>& devices = mesh().devices();
  for (size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].process_index != process_index) continue;
    const int64_t device = static_cast<int64_t>(i);
    AddressableShard shard;
    shard.device_index = device;
    TESSERA_ASSIGN_OR_RETURN(shard.ranges, DeviceRanges(device));
    TESSERA_ASSIGN_OR_RETURN(shard.replica_id, ReplicaId(device));
    shards.push_back(std::move(shard));
  }
  return shards;
}

}  // namespace tessera
