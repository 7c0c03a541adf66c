// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/reshard_plan.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/call_once.h"
#include "absl/container/flat_hash_map.h"
#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/scatter_gather.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

// How a sharding splits each dimension, read from its per-device ranges:
// per mesh axis the dimension it splits and its weight in that dimension's
// shard index (the group's first axis most significant, sharding.md §1);
// per dimension and shard index, the range. Costs O(sum of shard counts),
// far below a pass over the devices.
struct Splits {
  std::vector<int64_t> axis_stride;                // row-major, per mesh axis
  std::vector<int> axis_dim;                       // or -1 for an unused axis
  std::vector<int64_t> axis_weight;                // 0 for an unused axis
  std::vector<std::vector<IndexRange>> range;      // [dim][shard index]; Create may move them out
};

absl::StatusOr<Splits> SplitsOf(const Sharding& sharding) {
  const DeviceMesh& mesh = sharding.mesh();
  const size_t m = mesh.rank();
  Splits s;
  s.axis_stride.assign(m, 1);
  for (size_t j = m; j-- > 1;) s.axis_stride[j - 1] = s.axis_stride[j] * mesh.shape()[j];
  s.axis_dim.assign(m, -1);
  s.axis_weight.assign(m, 0);
  s.range.resize(sharding.rank());
  for (size_t d = 0; d < sharding.rank(); ++d) {
    std::vector<size_t> group;
    for (const std::string& name : sharding.layout().axes()[d]) {
      TESSERA_ASSIGN_OR_RETURN(const size_t axis, mesh.AxisIndex(name));
      group.push_back(axis);
      s.axis_dim[axis] = static_cast<int>(d);
    }
    int64_t shards = 1;
    for (size_t g = group.size(); g-- > 0;) {
      s.axis_weight[group[g]] = shards;
      shards *= mesh.shape()[group[g]];
    }
    s.range[d] = sharding.DimensionRanges(d);
  }
  return s;
}

// Per shard index of dimension `dim`, the lowest device holding it (the
// index's group coordinates, 0 on every other axis): counting the index up
// on the group's coordinates (the lowest weight fastest) instead of dividing.
std::vector<int64_t> LowestHolders(const DeviceMesh& mesh, const Splits& s, size_t dim,
                                   size_t shards) {
  std::vector<size_t> group;
  for (size_t j = 0; j < mesh.rank(); ++j) {
    if (s.axis_dim[j] == static_cast<int>(dim)) group.push_back(j);
  }
  std::sort(group.begin(), group.end(),
            [&s](size_t a, size_t b) { return s.axis_weight[a] < s.axis_weight[b]; });
  std::vector<int64_t> lowest(shards);
  std::vector<int64_t> coords(group.size(), 0);
  int64_t device = 0;
  for (int64_t& holder : lowest) {
    holder = device;
    for (size_t g = 0; g < group.size(); ++g) {
      const size_t axis = group[g];
      device += s.axis_stride[axis];
      if (++coords[g] < mesh.shape()[axis]) break;
      coords[g] = 0;
      device -= mesh.shape()[axis] * s.axis_stride[axis];
    }
  }
  return lowest;
}

// c when chunk i is [i*c, (i+1)*c) for every chunk but a shorter last one
// (strict and flat modes, and nested with divisible sizes), else 0.
int64_t UniformSize(const std::vector<IndexRange>& chunks) {
  if (chunks.empty()) return 0;
  const int64_t c = chunks.front().size();
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (chunks[i].start != static_cast<int64_t>(i) * c) return 0;
    if (chunks[i].size() != c && i + 1 != chunks.size()) return 0;
  }
  return c;
}

// The chunks [first, last) that `r` meets (r non-empty): a division when the
// chunks are uniform (`uniform` > 0), else a binary search.
void ChunksMet(const std::vector<IndexRange>& chunks, int64_t uniform, const IndexRange& r,
               int64_t& first, int64_t& last) {
  if (uniform > 0) {
    first = r.start / uniform;
    last = std::min<int64_t>((r.stop - 1) / uniform + 1, static_cast<int64_t>(chunks.size()));
    return;
  }
  auto it = std::upper_bound(chunks.begin(), chunks.end(), r.start,
                             [](int64_t v, const IndexRange& c) { return v < c.start; });
  first = (it - chunks.begin()) - 1;
  last = std::lower_bound(it, chunks.end(), r.stop,
                          [](const IndexRange& c, int64_t v) { return c.start < v; }) -
         chunks.begin();
}

int64_t OverlapSize(const IndexRange& a, const IndexRange& b) {
  return std::max<int64_t>(0, std::min(a.stop, b.stop) - std::max(a.start, b.start));
}

TransferLocality LocalityOf(const Device& source, const Device& destination) {
  if (source.id == destination.id && source.platform == destination.platform) {
    return TransferLocality::kSameDevice;
  }
  return source.process_index == destination.process_index ? TransferLocality::kSameProcess
                                                            : TransferLocality::kCrossProcess;
}

// Process index -> a slot among the source mesh's processes: the index
// itself when the indices are small (the usual 0..P-1), else a hash map.
class ProcessSlots {
 public:
  ProcessSlots() = default;
  explicit ProcessSlots(const std::vector<Device>& devices) {
    int64_t low = std::numeric_limits<int64_t>::max(), high = -1;
    for (const Device& d : devices) {
      low = std::min(low, d.process_index);
      high = std::max(high, d.process_index);
    }
    dense_ = low >= 0 && high < 4 * static_cast<int64_t>(devices.size()) + 1024;
    if (dense_) {
      count_ = static_cast<int32_t>(high + 1);
      return;
    }
    for (const Device& d : devices) {
      if (map_.try_emplace(d.process_index, count_).second) ++count_;
    }
  }

  int32_t count() const { return count_; }
  // The slot of `process`, or -1 when no source device belongs to it.
  int32_t Find(int64_t process) const {
    if (dense_) return process >= 0 && process < count_ ? static_cast<int32_t>(process) : -1;
    auto it = map_.find(process);
    return it == map_.end() ? -1 : it->second;
  }

 private:
  bool dense_ = true;
  absl::flat_hash_map<int64_t, int32_t> map_;
  int32_t count_ = 0;
};

// Device id -> logical index in a mesh: an array over [lowest, highest id]
// when the ids are that compact (the usual 0..N-1 or a slice of it), else a
// hash map.
class IndexOfId {
 public:
  IndexOfId() = default;
  explicit IndexOfId(const std::vector<Device>& devices) {
    int64_t high = std::numeric_limits<int64_t>::min();
    low_ = std::numeric_limits<int64_t>::max();
    for (const Device& d : devices) {
      low_ = std::min(low_, d.id);
      high = std::max(high, d.id);
    }
    const uint64_t span = static_cast<uint64_t>(high) - static_cast<uint64_t>(low_);
    if (span < 4 * static_cast<uint64_t>(devices.size()) + 1024) {
      dense_.assign(span + 1, -1);
      for (size_t i = 0; i < devices.size(); ++i) {
        dense_[static_cast<size_t>(devices[i].id - low_)] = static_cast<int64_t>(i);
      }
      return;
    }
    for (size_t i = 0; i < devices.size(); ++i) map_.emplace(devices[i].id, static_cast<int64_t>(i));
  }

  // The index of the device with id `id`, or -1.
  int64_t Find(int64_t id) const {
    if (!dense_.empty()) {
      if (id < low_ || static_cast<uint64_t>(id) - static_cast<uint64_t>(low_) >= dense_.size()) {
        return -1;
      }
      return dense_[static_cast<size_t>(id - low_)];
    }
    auto it = map_.find(id);
    return it == map_.end() ? -1 : it->second;
  }

 private:
  int64_t low_ = 0;
  std::vector<int64_t> dense_;
  absl::flat_hash_map<int64_t, int64_t> map_;
};

// How a mesh's device list runs: the ids count up from the first device's
// (mesh_utils' usual order), and device i belongs to process
// first_process + (i / process_stride) % process_period: blocks of
// consecutive devices per process (period = number of processes) and
// processes holding every k-th device (stride 1) both are.
struct DeviceOrder {
  bool consecutive_ids = true;
  bool periodic_processes = false;
  int64_t first_process = 0;
  int64_t process_stride = 1;  // with periodic_processes: stride * period divides the devices
  int64_t process_period = 1;

  bool SameAs(const DeviceOrder& o) const {
    return consecutive_ids == o.consecutive_ids && periodic_processes == o.periodic_processes &&
           first_process == o.first_process && process_stride == o.process_stride &&
           process_period == o.process_period;
  }
};

// The stride is the first run of one process, the period the number of runs
// until first_process comes back (or every run); one pass then checks both
// patterns.
DeviceOrder DeviceOrderOf(const std::vector<Device>& devices) {
  DeviceOrder order;
  const int64_t n = static_cast<int64_t>(devices.size());
  const auto at = [&devices](int64_t i) -> const Device& {
    return devices[static_cast<size_t>(i)];
  };
  order.first_process = at(0).process_index;
  int64_t stride = 1;
  while (stride < n && at(stride).process_index == order.first_process) ++stride;
  int64_t period = 1;
  while (period * stride < n && at(period * stride).process_index != order.first_process) {
    ++period;
  }
  bool periodic = n % (stride * period) == 0;
  const int64_t first_id = at(0).id;
  int64_t q = 0, r = 0;  // i / stride % period, i % stride
  for (int64_t i = 0; i < n; ++i) {
    const Device& d = at(i);
    order.consecutive_ids = order.consecutive_ids && d.id - first_id == i;
    periodic = periodic && d.process_index == order.first_process + q;
    if (++r == stride) {
      r = 0;
      if (++q == period) q = 0;
    }
  }
  order.periodic_processes = periodic;
  order.process_stride = stride;
  order.process_period = period;
  return order;
}

// One digit of how the two meshes list the same devices: while a device's
// logical index in the destination mesh steps `size` times by
// `destination_stride`, its index in the source mesh steps by
// `source_stride`. Equal lists are one span (n, 1, 1); a mesh listing the
// devices column by column (a transpose) or by any reordering of mixed-radix
// digits is a few spans.
struct Span {
  int64_t size = 1;
  int64_t source_stride = 1;
  int64_t destination_stride = 1;
};

// The spans of `source_of` (destination index -> source index, a
// permutation of [0, n)), fastest destination digit first; false unless
// source_of is such a digit reordering. Each span is the longest run from
// the product of the previous sizes along which the source index steps
// evenly (a run stops at a true digit boundary, so longest is right); one
// pass then checks every device. `out` is left alone on false.
bool SpansOf(const std::vector<int64_t>& source_of, std::vector<Span>& out) {
  const int64_t n = static_cast<int64_t>(source_of.size());
  std::vector<Span> spans;
  if (n == 0 || source_of[0] != 0) return false;
  int64_t covered = 1;  // product of the sizes so far: the next span's destination stride
  while (covered < n) {
    const int64_t step = source_of[static_cast<size_t>(covered)];
    int64_t size = 2;
    while (covered * size < n &&
           source_of[static_cast<size_t>(covered * size)] == step * size) {
      ++size;
    }
    if (n % (covered * size) != 0) return false;
    spans.push_back({size, step, covered});
    covered *= size;
  }
  // The source strides must be a mixed radix too.
  std::vector<Span> by_source = spans;
  std::sort(by_source.begin(), by_source.end(),
            [](const Span& a, const Span& b) { return a.source_stride < b.source_stride; });
  int64_t next = 1;
  for (const Span& span : by_source) {
    if (span.source_stride != next) return false;
    next *= span.size;
  }
  // Every device: an odometer over the spans.
  std::vector<int64_t> counter(spans.size(), 0);
  int64_t expected = 0;
  for (int64_t t = 0; t < n; ++t) {
    if (source_of[static_cast<size_t>(t)] != expected) return false;
    for (size_t k = 0; k < spans.size(); ++k) {
      expected += spans[k].source_stride;
      if (++counter[k] < spans[k].size) break;
      counter[k] = 0;
      expected -= spans[k].size * spans[k].source_stride;
    }
  }
  out = std::move(by_source);
  return true;
}

}  // namespace

// The factored plan. "Chunk position": a source range's index among its
// dimension's sorted non-empty ranges. Every combination of positions is a
// source shard (the dimensions' shard indices come from disjoint mesh
// axes); its first holder ("replica 0", the devices holding it differ only
// on unused axes, set to 0 there) is the sum of its chunks' offsets.
struct ReshardIntervals::Data {
  // Per destination dimension and shard index: its range and the chunks it
  // meets, [first, last) (first == last for an empty range).
  struct Cell {
    IndexRange range;
    int64_t first = 0;
    int64_t last = 0;
    int64_t count() const { return last - first; }
  };
  // The source shards the devices of one process hold: when `product`,
  // every combination of one position per dimension from that dimension's
  // set (dim_sets); and, when shards have replicas or are no product, listed:
  // the `held` entries [held_begin, held_end).
  struct Process {
    int64_t shards = 0;  // distinct source shards held
    bool product = true;
    size_t held_begin = 0;
    size_t held_end = 0;
  };
  // One dimension's positions in a process's product: lo..hi when
  // `contiguous` (covering the elements `covered`), else the sorted
  // set_position entries [begin, end), with set_size their chunk sizes summed
  // from `begin` (inclusive).
  struct DimSet {
    bool contiguous = true;
    int64_t lo = 0, hi = -1;
    IndexRange covered;
    size_t begin = 0, end = 0;
  };
  // A listed source shard of a process: replica 0 and its first holder in
  // the process (mesh order).
  struct Held {
    int64_t replica0 = 0;
    int64_t holder = 0;
  };

  size_t rank = 0;
  size_t element_size = 0;
  MeshPtr source_mesh;
  MeshPtr destination_mesh;

  std::vector<std::vector<IndexRange>> chunks;   // [dim][position]
  std::vector<std::vector<Cell>> cells;          // [dim][destination shard index]
  Splits source_splits, destination_splits;
  std::vector<std::vector<int32_t>> position_of;  // [dim][source shard index]: position or -1
  std::vector<char> in_order;  // [dim]: position_of is the identity (every range a chunk, sorted)
  bool source_replicated = false;  // some shard has several holders

  // Device i of both meshes is one device (id and platform): the usual case,
  // without a lookup; and in one process in both.
  bool same_order = false;
  bool same_processes = false;
  bool same_platform = false;
  DeviceOrder source_order;
  // How the destination lists the source's devices, when as a reordering
  // of digits (SpansOf; one span when same_order); else empty.
  std::vector<Span> spans;

  size_t num_pieces = 0;
  int64_t totals[3] = {0, 0, 0};

  // The source index: what the pieces' holders and the per-device walk of
  // the totals look up, built on first use (IndexSource) when Create summed
  // the totals per digit without it.
  mutable absl::once_flag source_once;
  mutable std::vector<std::vector<int64_t>> offsets;  // [dim][position]: replica 0's part
  // Per source device, rank positions; -1 everywhere for a device whose shard
  // is empty (it holds no chunk).
  mutable std::vector<int32_t> source_position;
  mutable std::vector<int32_t> source_slot;  // per source device, its process's slot
  mutable IndexOfId source_index_of_id;  // unless same_order
  bool indexed_ids = false;               // CompareDevices built source_index_of_id
  mutable ProcessSlots slots;
  mutable std::vector<Process> processes;       // per slot
  mutable std::vector<int64_t> box_lo, box_hi;  // per slot, rank positions: the bounds held
  mutable std::vector<DimSet> dim_sets;         // per slot, rank
  mutable std::vector<int64_t> set_position, set_size;
  mutable std::vector<Held> held;               // per slot, sorted by replica0

  // Per destination device its first piece in plan order, and the total:
  // built on first use (Piece).
  mutable absl::once_flag first_piece_once;
  mutable std::vector<size_t> first_piece;

  void IndexSource() const {
    absl::call_once(source_once, [this] { ReadSource(); });
  }
  void IndexFirstPieces() const {
    absl::call_once(first_piece_once, [this] { CountPieces(); });
  }

  const Device& source_device(int64_t i) const {
    return source_mesh->devices()[static_cast<size_t>(i)];
  }
  const int32_t* PositionsOf(int64_t source) const {
    return source_position.data() + static_cast<size_t>(source) * rank;
  }

  // The destination device's logical index in the source mesh (same id and
  // platform), or -1.
  int64_t SelfOf(int64_t destination) const {
    if (same_order) return destination;
    if (!same_platform) return -1;
    const Device& d = destination_mesh->devices()[static_cast<size_t>(destination)];
    return source_index_of_id.Find(d.id);
  }

  template <typename Position>
  int64_t Replica0(const Position* position) const {
    int64_t replica0 = 0;
    for (size_t d = 0; d < rank; ++d) replica0 += offsets[d][static_cast<size_t>(position[d])];
    return replica0;
  }

  const Held* FindHeld(int32_t slot, int64_t replica0) const {
    const Process& p = processes[static_cast<size_t>(slot)];
    auto begin = held.begin() + static_cast<ptrdiff_t>(p.held_begin);
    auto end = held.begin() + static_cast<ptrdiff_t>(p.held_end);
    auto it = std::lower_bound(begin, end, replica0,
                               [](const Held& h, int64_t v) { return h.replica0 < v; });
    return it != end && it->replica0 == replica0 ? &*it : nullptr;
  }

  // Whether a device of process `slot` holds the shard at `position`.
  bool Holds(int32_t slot, const int32_t* position) const {
    const Process& p = processes[static_cast<size_t>(slot)];
    if (p.shards == 0) return false;
    if (!p.product) return FindHeld(slot, Replica0(position)) != nullptr;
    const DimSet* set = dim_sets.data() + static_cast<size_t>(slot) * rank;
    for (size_t d = 0; d < rank; ++d) {
      if (set[d].contiguous) {
        if (position[d] < set[d].lo || position[d] > set[d].hi) return false;
      } else if (!std::binary_search(set_position.begin() + static_cast<ptrdiff_t>(set[d].begin),
                                     set_position.begin() + static_cast<ptrdiff_t>(set[d].end),
                                     int64_t{position[d]})) {
        return false;
      }
    }
    return true;
  }

  // Elements of `cell`'s range that the chunks of `set` cover: O(1) for a
  // contiguous set, else O(log): the chunks strictly inside the cell's chunk
  // interval lie wholly in its range, only its two ends are cut.
  uint64_t SetElements(size_t dim, const DimSet& set, const Cell& cell) const {
    if (set.contiguous) return static_cast<uint64_t>(OverlapSize(set.covered, cell.range));
    if (cell.first >= cell.last) return 0;
    const auto begin = set_position.begin() + static_cast<ptrdiff_t>(set.begin);
    const auto end = set_position.begin() + static_cast<ptrdiff_t>(set.end);
    const auto ends = [&](int64_t position) {
      return static_cast<uint64_t>(
          OverlapSize(chunks[dim][static_cast<size_t>(position)], cell.range));
    };
    const auto inner_begin = std::upper_bound(begin, end, cell.first);
    const auto inner_end = std::lower_bound(inner_begin, end, cell.last - 1);
    uint64_t total = 0;
    if (inner_begin != begin && *(inner_begin - 1) == cell.first) total += ends(cell.first);
    if (inner_end != inner_begin) {
      const size_t a = static_cast<size_t>(inner_begin - set_position.begin());
      const size_t b = static_cast<size_t>(inner_end - set_position.begin());
      total += static_cast<uint64_t>(set_size[b - 1] - (a > set.begin ? set_size[a - 1] : 0));
    }
    if (cell.last - 1 != cell.first && inner_end != end && *inner_end == cell.last - 1) {
      total += ends(cell.last - 1);
    }
    return total;
  }

  // The holder a piece of the shard `replica0` comes from for a destination
  // device of process `process` that is not itself a holder: the first holder
  // in that process, else replica 0.
  int64_t HolderFor(int64_t replica0, int64_t process) const {
    if (!source_replicated || source_device(replica0).process_index == process) return replica0;
    const int32_t slot = slots.Find(process);
    if (slot < 0) return replica0;
    const Held* h = FindHeld(slot, replica0);
    return h != nullptr ? h->holder : replica0;
  }

  // Elements of the destination box `cell[d]` (one per dimension) that the
  // source shards listed for process `slot` cover (not a product), in
  // min(pieces, shards) steps; `pieces` is the box's piece count.
  uint64_t ListedElements(int32_t slot, const Cell* const* cell, size_t pieces) const;

  // What every piece of one destination device shares.
  struct View {
    const Device* target = nullptr;
    int64_t device = 0;
    int64_t self = -1;           // the device in the source mesh, or -1
    int64_t self_replica0 = -1;  // the shard it holds there, or -1
    absl::InlinedVector<const Cell*, 4> cell;
  };
  // O(mesh rank + rank).
  void ViewOf(int64_t destination, View& view) const;
  // The piece of `view` at chunk positions `position`.
  void Fill(const View& view, const int64_t* position, ReshardPiece& out) const;

  // Each destination range's cell.
  static std::vector<Cell> CellsMeeting(const std::vector<IndexRange>& chunks,
                                        const std::vector<IndexRange>& ranges);
  // The destination shard index of each dimension for device `destination`:
  // O(mesh rank).
  void CellsOf(int64_t destination, const Cell** cell) const;

  // The passes of Create.
  void CompareDevices();
  void ReadSource() const;
  void ListHeldShards(const std::vector<int64_t>& devices_holding) const;
  void CountPieces() const;
  // Same-device and same-process elements, by walking the destination
  // devices (any meshes; with `same_device` given, only the elements each
  // finds in its process), or per digit (SameDeviceByDigits,
  // SameProcessByDigits; false when the meshes do not allow it).
  void WalkDestination(bool same_device_given, absl::uint128& same_device,
                       absl::uint128& same_process) const;
  bool SameDeviceByDigits(absl::uint128& same_device) const;
  bool SameProcessByDigits(const absl::uint128& same_device, absl::uint128& same_process) const;
};

uint64_t ReshardIntervals::Data::ListedElements(int32_t slot, const Cell* const* cell,
                                                size_t pieces) const {
  const Process& p = processes[static_cast<size_t>(slot)];
  uint64_t total = 0;
  if (p.held_end - p.held_begin <= pieces) {
    for (size_t i = p.held_begin; i < p.held_end; ++i) {
      const int32_t* position = PositionsOf(held[i].holder);
      uint64_t elements = 1;
      for (size_t d = 0; d < rank; ++d) {
        elements *= static_cast<uint64_t>(
            OverlapSize(chunks[d][static_cast<size_t>(position[d])], cell[d]->range));
      }
      total += elements;
    }
    return total;
  }
  absl::InlinedVector<int64_t, 4> position(rank);
  for (size_t d = 0; d < rank; ++d) position[d] = cell[d]->first;
  while (true) {
    if (FindHeld(slot, Replica0(position.data())) != nullptr) {
      uint64_t elements = 1;
      for (size_t d = 0; d < rank; ++d) {
        elements *= static_cast<uint64_t>(
            OverlapSize(chunks[d][static_cast<size_t>(position[d])], cell[d]->range));
      }
      total += elements;
    }
    size_t d = rank;
    while (d-- > 0) {
      if (++position[d] < cell[d]->last) break;
      position[d] = cell[d]->first;
    }
    if (d == static_cast<size_t>(-1)) return total;
  }
}

// While the ranges' starts do not decrease (every mode but a chunk-nested
// group against mesh order), one merge-like pass over both lists: O(chunks +
// ranges); otherwise a division (uniform chunks) or a binary search per range.
std::vector<ReshardIntervals::Data::Cell> ReshardIntervals::Data::CellsMeeting(
    const std::vector<IndexRange>& chunks, const std::vector<IndexRange>& ranges) {
  std::vector<Cell> cells(ranges.size());
  size_t first = 0;
  int64_t previous = std::numeric_limits<int64_t>::min();
  bool merging = true;
  int64_t uniform = -1;  // UniformSize(chunks) once needed
  for (size_t i = 0; i < ranges.size(); ++i) {
    const IndexRange& r = ranges[i];
    Cell& cell = cells[i];
    cell.range = r;
    if (r.size() == 0) continue;
    merging = merging && r.start >= previous;
    previous = r.start;
    if (!merging) {
      if (uniform < 0) uniform = UniformSize(chunks);
      ChunksMet(chunks, uniform, r, cell.first, cell.last);
      continue;
    }
    // The chunks partition [0, n), so one of them ends after r.start.
    while (chunks[first].stop <= r.start) ++first;
    size_t last = first + 1;
    while (last < chunks.size() && chunks[last].start < r.stop) ++last;
    cell.first = static_cast<int64_t>(first);
    cell.last = static_cast<int64_t>(last);
  }
  return cells;
}

void ReshardIntervals::Data::CellsOf(int64_t destination, const Cell** cell) const {
  absl::InlinedVector<int64_t, 4> index(rank, 0);
  const std::vector<int64_t>& shape = destination_mesh->shape();
  const Splits& splits = destination_splits;
  for (size_t j = 0; j < shape.size(); ++j) {
    const int dim = splits.axis_dim[j];
    if (dim < 0) continue;
    index[static_cast<size_t>(dim)] +=
        destination / splits.axis_stride[j] % shape[j] * splits.axis_weight[j];
  }
  for (size_t d = 0; d < rank; ++d) cell[d] = &cells[d][static_cast<size_t>(index[d])];
}

void ReshardIntervals::Data::ViewOf(int64_t destination, View& view) const {
  view.cell.resize(rank);
  CellsOf(destination, view.cell.data());
  view.device = destination;
  view.target = &destination_mesh->devices()[static_cast<size_t>(destination)];
  view.self = SelfOf(destination);
  view.self_replica0 = -1;
  if (view.self >= 0) {
    const int32_t* position = PositionsOf(view.self);
    if (rank == 0 || position[0] >= 0) view.self_replica0 = Replica0(position);
  }
}

void ReshardIntervals::Data::Fill(const View& view, const int64_t* position,
                                  ReshardPiece& out) const {
  out.destination = view.device;
  out.box.resize(rank);
  out.source_ranges.resize(rank);
  out.source_chunk.assign(position, position + rank);
  int64_t elements = 1;
  for (size_t d = 0; d < rank; ++d) {
    const IndexRange& chunk = chunks[d][static_cast<size_t>(position[d])];
    const IndexRange& range = view.cell[d]->range;
    out.source_ranges[d] = chunk;
    out.box[d] = {std::max(chunk.start, range.start), std::min(chunk.stop, range.stop)};
    elements *= out.box[d].size();
  }
  const int64_t replica0 = Replica0(position);
  out.source_shard = replica0;
  out.source = replica0 == view.self_replica0 ? view.self
                                              : HolderFor(replica0, view.target->process_index);
  out.bytes = elements * static_cast<int64_t>(element_size);
  out.locality = LocalityOf(source_device(out.source), *view.target);
}

// Whether device i is one device (and in one process) in both meshes, and
// how the source's processes run. Equal device orders (DeviceOrder) with
// consecutive ids from the same first id and periodic processes settle it;
// otherwise one more pass compares the devices, and when the lists differ,
// one through the source's id index (kept for the queries) finds whether
// the destination reorders the same devices by digits (spans) in the same
// processes.
void ReshardIntervals::Data::CompareDevices() {
  const std::vector<Device>& devices = source_mesh->devices();
  const std::vector<Device>& others = destination_mesh->devices();
  const size_t n = devices.size();
  same_platform = source_mesh->platform() == destination_mesh->platform();
  source_order = DeviceOrderOf(devices);
  const Span identity{static_cast<int64_t>(n), 1, 1};
  if (source_mesh == destination_mesh) {
    same_order = same_processes = true;
    spans = {identity};
    return;
  }
  same_order = same_platform && n == others.size();
  if (!same_order) return;
  if (source_order.consecutive_ids && source_order.periodic_processes &&
      devices[0].id == others[0].id && source_order.SameAs(DeviceOrderOf(others))) {
    same_processes = true;
    spans = {identity};
    return;
  }
  same_processes = true;
  for (size_t i = 0; i < n && same_order; ++i) {
    same_order = devices[i].id == others[i].id;
    same_processes = same_processes && devices[i].process_index == others[i].process_index;
  }
  same_processes = same_processes && same_order;
  if (same_order) {
    spans = {identity};
    return;
  }
  source_index_of_id = IndexOfId(devices);
  indexed_ids = true;
  std::vector<int64_t> source_of(n);
  bool processes_agree = true;
  for (size_t t = 0; t < n; ++t) {
    const int64_t s = source_index_of_id.Find(others[t].id);
    if (s < 0) return;  // another device
    source_of[t] = s;
    processes_agree = processes_agree &&
                      devices[static_cast<size_t>(s)].process_index == others[t].process_index;
  }
  if (processes_agree && SpansOf(source_of, spans)) same_processes = true;
}

// The source index (IndexSource): each chunk's replica-0 offset, then one
// walk over the source mesh, a run of devices along its last axis at a
// time: each device's chunk positions, and per process the box of positions
// its devices hold (in a run only one dimension's position moves, so the
// others update the box once per run and process).
void ReshardIntervals::Data::ReadSource() const {
  const DeviceMesh& mesh = *source_mesh;
  const Splits& splits = source_splits;
  offsets.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    const std::vector<int64_t> lowest = LowestHolders(mesh, splits, d, position_of[d].size());
    offsets[d].resize(chunks[d].size());
    for (size_t i = 0; i < lowest.size(); ++i) {
      const int32_t position = position_of[d][i];
      if (position >= 0) offsets[d][static_cast<size_t>(position)] = lowest[i];
    }
  }
  const std::vector<Device>& devices = mesh.devices();
  const size_t n = devices.size();
  slots = ProcessSlots(devices);
  const size_t num_slots = static_cast<size_t>(slots.count());
  source_position.resize(n * rank);
  source_slot.resize(n);
  box_lo.assign(num_slots * rank, std::numeric_limits<int64_t>::max());
  box_hi.assign(num_slots * rank, -1);
  std::vector<int64_t> devices_holding(num_slots, 0);  // with a non-empty shard
  const size_t m = mesh.rank();
  const int64_t run = mesh.shape()[m - 1];
  const int run_dim = splits.axis_dim[m - 1];
  const int64_t run_step = run_dim >= 0 ? splits.axis_weight[m - 1] : 0;
  absl::InlinedVector<int64_t, 4> index(rank, 0);
  absl::InlinedVector<int64_t, 4> coords(m, 0);
  absl::InlinedVector<int32_t, 4> base(rank);
  // The devices of one process within a run: the range of the moving
  // position, applied to the process's box with the fixed ones.
  int32_t segment_slot = -1;
  int64_t segment_lo = 0, segment_hi = 0;
  const auto flush = [&]() {
    if (segment_slot < 0) return;
    // data() + offset: for a scalar (rank 0) the vectors are empty, and
    // v[0] of an empty vector is undefined even unread.
    int64_t* lo = box_lo.data() + static_cast<size_t>(segment_slot) * rank;
    int64_t* hi = box_hi.data() + static_cast<size_t>(segment_slot) * rank;
    for (size_t d = 0; d < rank; ++d) {
      const bool moving = static_cast<int>(d) == run_dim;
      lo[d] = std::min<int64_t>(lo[d], moving ? segment_lo : base[d]);
      hi[d] = std::max<int64_t>(hi[d], moving ? segment_hi : base[d]);
    }
    segment_slot = -1;
  };
  int64_t last_process = -1;
  int32_t slot = -1;
  int32_t* position = source_position.data();
  size_t i = 0;
  for (int64_t outer = mesh.size() / run; outer > 0; --outer) {
    bool fixed_empty = false;
    for (size_t d = 0; d < rank; ++d) {
      base[d] = position_of[d][static_cast<size_t>(index[d])];
      fixed_empty = fixed_empty || (base[d] < 0 && static_cast<int>(d) != run_dim);
    }
    const int32_t* moving =
        run_dim >= 0 ? position_of[static_cast<size_t>(run_dim)].data() + index[static_cast<size_t>(run_dim)]
                     : nullptr;
    // Plain pointers: an InlinedVector's element access tests where its
    // data lives, and the stores below may alias it, so it would be redone
    // per device.
    const int32_t* fixed = base.data();
    int64_t* holding = devices_holding.data();
    for (int64_t t = 0; t < run; ++t, ++i, position += rank) {
      // Loops, not std::copy: a call to memmove per device costs more than
      // rank stores.
      for (size_t d = 0; d < rank; ++d) position[d] = fixed[d];
      int32_t p = 0;
      if (moving != nullptr) p = position[run_dim] = moving[t * run_step];
      const int64_t process = devices[i].process_index;
      if (slot < 0 || process != last_process) {
        last_process = process;
        slot = slots.Find(process);
      }
      source_slot[i] = slot;
      if (fixed_empty || p < 0) {
        for (size_t d = 0; d < rank; ++d) position[d] = -1;
        continue;
      }
      if (slot != segment_slot) {
        flush();
        segment_slot = slot;
        segment_lo = segment_hi = p;
      }
      segment_lo = std::min<int64_t>(segment_lo, p);
      segment_hi = std::max<int64_t>(segment_hi, p);
      ++holding[slot];
    }
    flush();
    for (size_t j = m - 1; j-- > 0;) {  // the outer axes' odometer
      const int dim = splits.axis_dim[j];
      if (dim >= 0) index[static_cast<size_t>(dim)] += splits.axis_weight[j];
      if (++coords[j] < mesh.shape()[j]) break;
      coords[j] = 0;
      if (dim >= 0) index[static_cast<size_t>(dim)] -= mesh.shape()[j] * splits.axis_weight[j];
    }
  }
  if (!same_order && same_platform && !indexed_ids) {
    source_index_of_id = IndexOfId(devices);
  }
  ListHeldShards(devices_holding);
}

// Per process: its distinct shards, and whether they are a product of
// per-dimension position sets. Without replicas each device holds its own
// shard, so a process whose device count is the volume of its bounds holds
// that whole box, with no list. Otherwise each process lists its shards
// (the holder choice and the totals look them up) and its sets are read from
// the list.
void ReshardIntervals::Data::ListHeldShards(const std::vector<int64_t>& devices_holding) const {
  const size_t num_slots = devices_holding.size();
  processes.assign(num_slots, Process{});
  dim_sets.assign(num_slots * rank, DimSet{});
  const auto volume = [&](size_t s) {
    int64_t v = 1;
    for (size_t d = 0; d < rank; ++d) v *= box_hi[s * rank + d] - box_lo[s * rank + d] + 1;
    return v;
  };
  const auto set_bounds = [&](size_t s) {
    for (size_t d = 0; d < rank; ++d) {
      DimSet& set = dim_sets[s * rank + d];
      set.lo = box_lo[s * rank + d];
      set.hi = box_hi[s * rank + d];
      set.covered = {chunks[d][static_cast<size_t>(set.lo)].start,
                     chunks[d][static_cast<size_t>(set.hi)].stop};
    }
  };
  bool listed = source_replicated;
  for (size_t s = 0; s < num_slots && !listed; ++s) {
    if (devices_holding[s] > 0 && devices_holding[s] != volume(s)) listed = true;
  }
  if (!listed) {
    for (size_t s = 0; s < num_slots; ++s) {
      processes[s].shards = devices_holding[s];
      if (devices_holding[s] > 0) set_bounds(s);
    }
    return;
  }
  std::vector<size_t> begin(num_slots + 1, 0);
  for (size_t s = 0; s < num_slots; ++s) {
    begin[s + 1] = begin[s] + static_cast<size_t>(devices_holding[s]);
  }
  std::vector<size_t> cursor(begin.begin(), begin.end() - 1);
  std::vector<Held> all(begin[num_slots]);
  const std::vector<Device>& devices = source_mesh->devices();
  for (size_t i = 0; i < devices.size(); ++i) {
    const int32_t* position = PositionsOf(static_cast<int64_t>(i));
    if (rank > 0 && position[0] < 0) continue;
    const size_t s = static_cast<size_t>(slots.Find(devices[i].process_index));
    all[cursor[s]++] = {Replica0(position), static_cast<int64_t>(i)};
  }
  // Sorted by shard, then holder: the first of each shard is its first
  // holder in mesh order.
  held.reserve(all.size());
  std::vector<int64_t> values;
  for (size_t s = 0; s < num_slots; ++s) {
    auto first = all.begin() + static_cast<ptrdiff_t>(begin[s]);
    auto last = all.begin() + static_cast<ptrdiff_t>(begin[s + 1]);
    std::sort(first, last, [](const Held& a, const Held& b) {
      return a.replica0 != b.replica0 ? a.replica0 < b.replica0 : a.holder < b.holder;
    });
    Process& p = processes[s];
    p.held_begin = held.size();
    for (auto it = first; it != last; ++it) {
      if (held.size() == p.held_begin || held.back().replica0 != it->replica0) held.push_back(*it);
    }
    p.held_end = held.size();
    p.shards = static_cast<int64_t>(p.held_end - p.held_begin);
    if (p.shards == 0) continue;
    if (p.shards == volume(s)) {
      set_bounds(s);
      continue;
    }
    // Each dimension's distinct positions; a product when their counts
    // multiply to the shard count.
    int64_t combinations = 1;
    for (size_t d = 0; d < rank; ++d) {
      values.clear();
      for (size_t k = p.held_begin; k < p.held_end; ++k) {
        values.push_back(PositionsOf(held[k].holder)[d]);
      }
      std::sort(values.begin(), values.end());
      values.erase(std::unique(values.begin(), values.end()), values.end());
      combinations *= static_cast<int64_t>(values.size());
      DimSet& set = dim_sets[s * rank + d];
      set.lo = values.front();
      set.hi = values.back();
      set.contiguous = set.hi - set.lo + 1 == static_cast<int64_t>(values.size());
      if (set.contiguous) {
        set.covered = {chunks[d][static_cast<size_t>(set.lo)].start,
                       chunks[d][static_cast<size_t>(set.hi)].stop};
        continue;
      }
      set.begin = set_position.size();
      int64_t sum = 0;
      for (int64_t v : values) {
        set_position.push_back(v);
        sum += chunks[d][static_cast<size_t>(v)].size();
        set_size.push_back(sum);
      }
      set.end = set_position.size();
    }
    p.product = combinations == p.shards;
  }
}

namespace {

// A sum of uint64 values that may pass 2^64: a uint64 and its carries.
class Sum {
 public:
  void Add(uint64_t v) {
    if (__builtin_add_overflow(low_, v, &low_)) ++carries_;
  }
  absl::uint128 value() const { return absl::MakeUint128(carries_, low_); }

 private:
  uint64_t low_ = 0;
  uint64_t carries_ = 0;
};

}  // namespace

// One walk over the destination mesh, a run of devices along its last axis
// at a time (only one dimension's shard index moves in a run): the elements
// each device holds itself (same device) and those other devices of its
// process hold (same process). With the same-device total given (digits)
// and each device in the same process on both sides, a device's own
// elements are part of its process's, so the walk sums those only and
// subtracts the total once.
void ReshardIntervals::Data::WalkDestination(bool same_device_given,
                                             absl::uint128& same_device_total,
                                             absl::uint128& same_process_total) const {
  const DeviceMesh& mesh = *destination_mesh;
  const Splits& splits = destination_splits;
  const std::vector<Device>& devices = mesh.devices();
  const size_t m = mesh.rank();
  const int64_t run = mesh.shape()[m - 1];
  const int run_dim = splits.axis_dim[m - 1];
  const int64_t run_step = run_dim >= 0 ? splits.axis_weight[m - 1] : 0;
  absl::InlinedVector<const Cell*, 4> cell(rank);
  absl::InlinedVector<const IndexRange*, 4> chunk(rank);
  for (size_t d = 0; d < rank; ++d) chunk[d] = chunks[d].data();
  absl::InlinedVector<int64_t, 4> index(rank, 0);
  absl::InlinedVector<int64_t, 4> coords(m, 0);
  Sum same_device, same_process;
  int64_t last_process = -1;
  int32_t slot = -1;
  bool have_slot = false;
  size_t device = 0;
  for (int64_t outer = mesh.size() / run; outer > 0; --outer) {
    for (size_t d = 0; d < rank; ++d) cell[d] = &cells[d][static_cast<size_t>(index[d])];
    // The dimensions other than the run's, once per run.
    size_t rest_pieces = 1;
    for (size_t d = 0; d < rank; ++d) {
      if (static_cast<int>(d) != run_dim) rest_pieces *= static_cast<size_t>(cell[d]->count());
    }
    const Cell* run_cell = run_dim >= 0 ? cell[static_cast<size_t>(run_dim)] : nullptr;
    int32_t rest_slot = -1;  // rest_held is for this process
    uint64_t rest_held = 0;
    for (int64_t t = 0; t < run; ++t, ++device) {
      const Cell* moving = run_cell != nullptr ? run_cell + t * run_step : nullptr;
      const size_t pieces =
          moving != nullptr ? rest_pieces * static_cast<size_t>(moving->count()) : rest_pieces;
      if (pieces == 0) continue;  // an empty shard needs nothing
      if (moving != nullptr) cell[static_cast<size_t>(run_dim)] = moving;
      const Device& target = devices[device];
      if (!have_slot || target.process_index != last_process) {
        have_slot = true;
        last_process = target.process_index;
        slot = slots.Find(last_process);
      }
      // What the process holds.
      uint64_t in_process = 0;
      const Process* process = slot >= 0 ? &processes[static_cast<size_t>(slot)] : nullptr;
      if (process != nullptr && process->shards > 0 && process->product) {
        const DimSet* set = dim_sets.data() + static_cast<size_t>(slot) * rank;
        if (slot != rest_slot) {
          rest_slot = slot;
          rest_held = 1;
          for (size_t d = 0; d < rank; ++d) {
            if (static_cast<int>(d) != run_dim) rest_held *= SetElements(d, set[d], *cell[d]);
          }
        }
        in_process = rest_held;
        if (moving != nullptr) {
          const DimSet& r = set[run_dim];
          in_process *= r.contiguous
                            ? static_cast<uint64_t>(OverlapSize(r.covered, moving->range))
                            : SetElements(static_cast<size_t>(run_dim), r, *moving);
        }
      } else if (process != nullptr && process->shards > 0) {
        in_process = ListedElements(slot, cell.data(), pieces);
      }
      if (same_device_given) {
        same_process.Add(in_process);
        continue;
      }
      // What the device holds itself.
      uint64_t self_elements = 0;
      const int64_t self = SelfOf(static_cast<int64_t>(device));
      if (self >= 0) {
        const int32_t* position = PositionsOf(self);
        if (rank == 0 || position[0] >= 0) {
          self_elements = 1;
          for (size_t d = 0; d < rank; ++d) {
            self_elements *=
                static_cast<uint64_t>(OverlapSize(chunk[d][position[d]], cell[d]->range));
          }
          const bool self_in_process =
              same_processes ||
              (slot >= 0 &&
               (source_slot[static_cast<size_t>(self)] == slot || Holds(slot, position)));
          if (self_in_process) in_process -= self_elements;
        }
      }
      same_device.Add(self_elements);
      same_process.Add(in_process);
    }
    for (size_t j = m - 1; j-- > 0;) {  // the outer axes' odometer
      const int dim = splits.axis_dim[j];
      if (dim >= 0) index[static_cast<size_t>(dim)] += splits.axis_weight[j];
      if (++coords[j] < mesh.shape()[j]) break;
      coords[j] = 0;
      if (dim >= 0) index[static_cast<size_t>(dim)] -= mesh.shape()[j] * splits.axis_weight[j];
    }
  }
  if (same_device_given) {
    same_process_total = same_process.value() - same_device_total;
    return;
  }
  same_device_total = same_device.value();
  same_process_total = same_process.value();
}

// Each destination device's piece count (the product of its cells' chunk
// counts), summed in mesh order; the shard indices tick as coordinates do.
void ReshardIntervals::Data::CountPieces() const {
  const DeviceMesh& mesh = *destination_mesh;
  const Splits& splits = destination_splits;
  const size_t n = static_cast<size_t>(mesh.size());
  const size_t m = mesh.rank();
  first_piece.resize(n + 1);
  absl::InlinedVector<int64_t, 4> index(rank, 0);
  absl::InlinedVector<int64_t, 4> coords(m, 0);
  size_t total = 0;
  for (size_t device = 0; device < n; ++device) {
    first_piece[device] = total;
    size_t pieces = 1;
    for (size_t d = 0; d < rank; ++d) {
      pieces *= static_cast<size_t>(cells[d][static_cast<size_t>(index[d])].count());
    }
    total += pieces;
    for (size_t j = m; j-- > 0;) {
      const int dim = splits.axis_dim[j];
      if (dim >= 0) index[static_cast<size_t>(dim)] += splits.axis_weight[j];
      if (++coords[j] < mesh.shape()[j]) break;
      coords[j] = 0;
      if (dim >= 0) index[static_cast<size_t>(dim)] -= mesh.shape()[j] * splits.axis_weight[j];
    }
  }
  first_piece[n] = total;
}

namespace {

// A mixed-radix digit of the logical device index (the devices are one list
// in both meshes): the digits are the common refinement of both meshes' axes
// and of the process pattern, so each mesh axis is a run of digits and so is
// a device's process. `weight`: what one step of the digit adds to the shard
// index of `dim` (-1: none) on each side; `process`: the digit is part of the
// process index.
struct Digit {
  int64_t size = 1;
  int source_dim = -1;
  int64_t source_weight = 0;
  int destination_dim = -1;
  int64_t destination_weight = 0;
  bool process = false;
};

// The digits, by source index fastest first: `spans` (how the destination
// lists the source's devices) cut at every boundary of both meshes' axes
// (each in its own mesh's index) and of the source's process pattern
// `processes` (none: no digit is a process digit); false
// unless every cut falls on a step of the span it meets (in one index
// space: each cut divides the next).
bool DigitsOf(const DeviceMesh& source, const DeviceOrder* processes,
              const Splits& source_splits,
              const DeviceMesh& destination, const Splits& destination_splits,
              std::vector<Span> spans, std::vector<Digit>& digits) {
  // Cuts span k at index value c of one side, keeping spans sorted by
  // source stride (the low part keeps span k's place).
  const auto cut = [&spans](bool source_side, int64_t c) {
    for (size_t k = 0; k < spans.size(); ++k) {
      Span& span = spans[k];
      const int64_t b = source_side ? span.source_stride : span.destination_stride;
      if (c <= b || c >= b * span.size) continue;
      if (c % b != 0 || span.size % (c / b) != 0) return false;
      const int64_t low = c / b;
      const Span high{span.size / low, span.source_stride * low, span.destination_stride * low};
      span.size = low;
      spans.insert(spans.begin() + static_cast<ptrdiff_t>(k) + 1, high);
      return true;
    }
    return true;
  };
  if (processes != nullptr &&
      (!cut(true, processes->process_stride) ||
       !cut(true, processes->process_stride * processes->process_period))) {
    return false;
  }
  for (int64_t stride : source_splits.axis_stride) {
    if (!cut(true, stride)) return false;
  }
  for (int64_t stride : destination_splits.axis_stride) {
    if (!cut(false, stride)) return false;
  }
  // The axis holding the digit of stride b, its dimension and the digit's weight.
  const auto side = [](const DeviceMesh& mesh, const Splits& splits, int64_t b, int& dim,
                       int64_t& weight) {
    for (size_t j = 0; j < mesh.rank(); ++j) {
      const int64_t stride = splits.axis_stride[j];
      if (stride <= b && b < stride * mesh.shape()[j]) {
        dim = splits.axis_dim[j];
        weight = dim >= 0 ? b / stride * splits.axis_weight[j] : 0;
        return;
      }
    }
  };
  digits.clear();
  for (const Span& span : spans) {
    if (span.size == 1) continue;
    Digit digit;
    digit.size = span.size;
    side(source, source_splits, span.source_stride, digit.source_dim, digit.source_weight);
    side(destination, destination_splits, span.destination_stride, digit.destination_dim,
         digit.destination_weight);
    digit.process = processes != nullptr && processes->process_stride <= span.source_stride &&
                    span.source_stride < processes->process_stride * processes->process_period;
    digits.push_back(digit);
  }
  return true;
}

// `digits` with each run of neighbours that read the same dimensions as one
// digit (the next one's weights are this one's times its size on both
// sides), so the inner loops of ContractDigits run longer.
std::vector<Digit> Merged(const std::vector<Digit>& digits) {
  std::vector<Digit> merged;
  for (const Digit& digit : digits) {
    if (!merged.empty()) {
      Digit& last = merged.back();
      if (last.source_dim == digit.source_dim && last.destination_dim == digit.destination_dim &&
          digit.source_weight == last.source_weight * last.size &&
          digit.destination_weight == last.destination_weight * last.size) {
        last.size *= digit.size;
        continue;
      }
    }
    merged.push_back(digit);
  }
  return merged;
}

// Sum over every value of the digits (every device) of the product over
// dimensions of a factor of (d, source index, destination index), where a
// dimension's indices are the weighted sums of its digits on each side.
// Dimensions sharing no digit are independent: the sum is the product of
// one sum per group of dimensions linked by digits (union-find), each over
// the values of its own digits only, times the sizes of the digits no
// dimension reads. Within a group each dimension's factor is tabulated once
// over the values of its own digits, and the group's sum runs over its
// digits with the fastest one in an inner loop. factor(d, source,
// source_step, target, target_step, count, out) writes the factor of
// `count` index pairs stepping from (source, target). Each term is at most the
// tensor's elements, so the result stays below devices * elements < 2^127.
template <typename Factor>
absl::uint128 ContractDigits(const std::vector<Digit>& digits, size_t rank,
                             const Factor& factor) {
  absl::InlinedVector<size_t, 4> root(rank);
  for (size_t d = 0; d < rank; ++d) root[d] = d;
  const auto find = [&root](size_t d) {
    while (root[d] != d) d = root[d] = root[root[d]];
    return d;
  };
  absl::uint128 result = 1;
  for (const Digit& digit : digits) {
    if (digit.source_dim < 0 && digit.destination_dim < 0) {
      result *= static_cast<uint64_t>(digit.size);
    } else if (digit.source_dim >= 0 && digit.destination_dim >= 0) {
      root[find(static_cast<size_t>(digit.source_dim))] =
          find(static_cast<size_t>(digit.destination_dim));
    }
  }
  const auto reads = [](const Digit& digit, size_t d) {
    return digit.source_dim == static_cast<int>(d) || digit.destination_dim == static_cast<int>(d);
  };
  std::vector<std::vector<uint64_t>> table(rank);
  // Per dimension and digit: the digit's stride in the dimension's table (0
  // when the dimension does not read it).
  std::vector<int64_t> stride(rank * digits.size(), 0);
  absl::InlinedVector<size_t, 4> dims;
  absl::InlinedVector<size_t, 16> own, mine;
  absl::InlinedVector<int64_t, 16> counter;
  absl::InlinedVector<int64_t, 4> at(rank, 0);
  for (size_t g = 0; g < rank; ++g) {
    if (find(g) != g) continue;
    dims.clear();
    for (size_t d = 0; d < rank; ++d) {
      if (find(d) == g) dims.push_back(d);
    }
    own.clear();
    for (size_t k = 0; k < digits.size(); ++k) {
      const Digit& digit = digits[k];
      const int dim = digit.source_dim >= 0 ? digit.source_dim : digit.destination_dim;
      if (dim >= 0 && find(static_cast<size_t>(dim)) == g) own.push_back(k);
    }
    // Each dimension's factor over the values of the digits it reads.
    for (size_t d : dims) {
      mine.clear();
      int64_t size = 1;
      for (size_t k : own) {
        if (!reads(digits[k], d)) continue;
        mine.push_back(k);
        stride[d * digits.size() + k] = size;
        size *= digits[k].size;
      }
      std::vector<uint64_t>& values = table[d];
      values.resize(static_cast<size_t>(size));
      // The first digit's values in one call per value of the others.
      int64_t run = 1, source_step = 0, target_step = 0;
      if (!mine.empty()) {
        const Digit& digit = digits[mine[0]];
        run = digit.size;
        if (digit.source_dim == static_cast<int>(d)) source_step = digit.source_weight;
        if (digit.destination_dim == static_cast<int>(d)) target_step = digit.destination_weight;
      }
      counter.assign(mine.size(), 0);
      int64_t source = 0, target = 0;
      for (size_t v = 0;; v += static_cast<size_t>(run)) {
        factor(d, source, source_step, target, target_step, run, values.data() + v);
        size_t i = 1;
        for (; i < mine.size(); ++i) {
          const Digit& digit = digits[mine[i]];
          const int64_t step = ++counter[i] == digit.size ? -(digit.size - 1) : 1;
          if (digit.source_dim == static_cast<int>(d)) source += step * digit.source_weight;
          if (digit.destination_dim == static_cast<int>(d)) target += step * digit.destination_weight;
          if (step == 1) break;
          counter[i] = 0;
        }
        if (i >= mine.size()) break;
      }
      at[d] = 0;
    }
    // The group's sum: the fastest digit's values in the inner loop.
    const size_t inner_size = own.empty() ? 1 : static_cast<size_t>(digits[own[0]].size);
    absl::InlinedVector<size_t, 4> fixed, moving;
    for (size_t d : dims) {
      (!own.empty() && reads(digits[own[0]], d) ? moving : fixed).push_back(d);
    }
    counter.assign(own.size(), 0);
    absl::uint128 sum = 0;
    while (true) {
      uint64_t rest = 1;
      for (size_t d : fixed) rest *= table[d][static_cast<size_t>(at[d])];
      if (rest != 0) {
        absl::uint128 inner = 0;
        if (moving.size() == 1) {
          const size_t d = moving[0];
          const uint64_t* t = table[d].data() + at[d];
          const size_t s = static_cast<size_t>(stride[d * digits.size() + own[0]]);
          for (size_t v = 0; v < inner_size; ++v) inner += t[v * s];
        } else if (moving.size() == 2) {
          const uint64_t* t0 = table[moving[0]].data() + at[moving[0]];
          const uint64_t* t1 = table[moving[1]].data() + at[moving[1]];
          const size_t s0 = static_cast<size_t>(stride[moving[0] * digits.size() + own[0]]);
          const size_t s1 = static_cast<size_t>(stride[moving[1] * digits.size() + own[0]]);
          for (size_t v = 0; v < inner_size; ++v) inner += t0[v * s0] * t1[v * s1];
        } else {
          inner = 1;
        }
        sum += inner * rest;
      }
      size_t i = 1;  // the odometer over the other digits
      for (; i < own.size(); ++i) {
        const size_t k = own[i];
        const int64_t step = ++counter[i] == digits[k].size ? -(digits[k].size - 1) : 1;
        for (size_t d : dims) at[d] += step * stride[d * digits.size() + k];
        if (step == 1) break;
        counter[i] = 0;
      }
      if (i >= own.size()) break;
    }
    result *= sum;
  }
  return result;
}

}  // namespace

// The totals without visiting the devices. When both meshes list the same
// devices (in the same order or reordered by digits: spans), a device's
// shard index in each dimension is a weighted sum of digits of its logical
// index (DigitsOf), and:
//   same device: sum over devices of prod_d |source chunk_d ∩ destination
//     range_d|, a ContractDigits over both sides' digits;
//   in process, when the devices are in the same processes on both sides
//     and the process pattern is periodic (DeviceOrder): a process is the value of its process digits; its devices
//     are every value of the others, and as those split over dimensions
//     (each digit belongs to one axis), the union of their boxes is the
//     product over dimensions of the union of their chunks. So the elements
//     a destination device finds in its process are prod_d of the sum, over
//     the non-process source digits of d (spread), of |chunk ∩ range|: a
//     ContractDigits over the destination's digits and the source's process
//     digits. Same process is that minus same device.
// The cost is the product of the digit sizes of each linked group of
// dimensions, at most the devices and usually far fewer.
bool ReshardIntervals::Data::SameDeviceByDigits(absl::uint128& same_device) const {
  if (spans.empty()) return false;
  std::vector<Digit> digits;
  if (!DigitsOf(*source_mesh, nullptr, source_splits, *destination_mesh, destination_splits, spans,
                digits)) {
    return false;
  }
  same_device = ContractDigits(Merged(digits), rank, [this](size_t d, int64_t s, int64_t s_step,
                                                    int64_t t, int64_t t_step, int64_t count,
                                                    uint64_t* out) {
    const int32_t* position = position_of[d].data();
    const IndexRange* chunk = chunks[d].data();
    const Cell* cell = cells[d].data();
    if (in_order[d] != 0) {  // no lookup, no empty shard
      for (int64_t v = 0; v < count; ++v, s += s_step, t += t_step) {
        out[v] = static_cast<uint64_t>(OverlapSize(chunk[s], cell[t].range));
      }
      return;
    }
    for (int64_t v = 0; v < count; ++v, s += s_step, t += t_step) {
      const int32_t p = position[s];
      out[v] = p < 0 ? 0 : static_cast<uint64_t>(OverlapSize(chunk[p], cell[t].range));
    }
  });
  return true;
}

bool ReshardIntervals::Data::SameProcessByDigits(const absl::uint128& same_device,
                                                 absl::uint128& same_process) const {
  if (spans.empty() || !same_processes || !source_order.periodic_processes) return false;
  std::vector<Digit> digits;
  if (!DigitsOf(*source_mesh, &source_order, source_splits, *destination_mesh, destination_splits,
                spans, digits)) {
    return false;
  }
  // Per dimension, the source index offsets of a process's devices.
  std::vector<std::vector<int64_t>> spread(rank, std::vector<int64_t>{0});
  std::vector<Digit> process_digits = digits;
  for (Digit& digit : process_digits) {
    if (digit.process || digit.source_dim < 0) continue;
    std::vector<int64_t>& list = spread[static_cast<size_t>(digit.source_dim)];
    const size_t before = list.size();
    for (int64_t v = 1; v < digit.size; ++v) {
      for (size_t i = 0; i < before; ++i) list.push_back(list[i] + v * digit.source_weight);
    }
    digit.source_dim = -1;
  }
  // A process's chunks of dimension d are one run when its offsets are
  // 0, 1, ... and the chunks are the ranges in order (they then tile [0, n)):
  // the union is one range.
  absl::InlinedVector<char, 4> one_run(rank, 0);
  for (size_t d = 0; d < rank; ++d) {
    bool consecutive = in_order[d] != 0;
    for (size_t i = 0; i < spread[d].size() && consecutive; ++i) {
      consecutive = spread[d][i] == static_cast<int64_t>(i);
    }
    one_run[d] = consecutive ? 1 : 0;
  }
  const absl::uint128 in_process = ContractDigits(
      Merged(process_digits), rank,
      [this, &spread, &one_run](size_t d, int64_t s, int64_t s_step, int64_t t, int64_t t_step,
                                int64_t count, uint64_t* out) {
        const int32_t* position = position_of[d].data();
        const IndexRange* chunk = chunks[d].data();
        const Cell* cell = cells[d].data();
        if (one_run[d] != 0) {
          const int64_t last = static_cast<int64_t>(spread[d].size()) - 1;
          for (int64_t v = 0; v < count; ++v, s += s_step, t += t_step) {
            const IndexRange run{chunk[s].start, chunk[s + last].stop};
            out[v] = static_cast<uint64_t>(OverlapSize(run, cell[t].range));
          }
          return;
        }
        for (int64_t v = 0; v < count; ++v, s += s_step, t += t_step) {
          const IndexRange& range = cell[t].range;
          uint64_t elements = 0;
          if (range.size() > 0) {
            for (int64_t offset : spread[d]) {
              const int32_t p = position[s + offset];
              if (p >= 0) elements += static_cast<uint64_t>(OverlapSize(chunk[p], range));
            }
          }
          out[v] = elements;
        }
      });
  same_process = in_process - same_device;
  return true;
}

absl::StatusOr<ReshardIntervals> ReshardIntervals::Create(const Sharding& source,
                                                          const Sharding& destination,
                                                          size_t element_size) {
  if (source.shape() != destination.shape()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'destination' has global shape ", ShapeToString(destination.shape()),
        "; expected the source's shape ", ShapeToString(source.shape())));
  }
  // Every piece is at most the whole tensor.
  TESSERA_RETURN_IF_ERROR(GlobalBytes(source, element_size).status());
  const size_t rank = source.rank();
  auto data = std::make_shared<Data>();
  TESSERA_ASSIGN_OR_RETURN(data->source_splits, SplitsOf(source));
  TESSERA_ASSIGN_OR_RETURN(data->destination_splits, SplitsOf(destination));
  const Splits& source_splits = data->source_splits;
  const Splits& destination_splits = data->destination_splits;
  data->rank = rank;
  data->element_size = element_size;
  data->source_mesh = source.layout().mesh();
  data->destination_mesh = destination.layout().mesh();

  // Per dimension: the chunks by start, each shard index's position, the
  // destination cells; and the pieces and elements summed over the
  // destination devices, a product of per-dimension sums (every combination
  // of shard indices is held by the same number of devices, the replicas).
  data->position_of.resize(rank);
  data->in_order.assign(rank, 0);
  absl::uint128 pieces = static_cast<uint64_t>(destination.mesh().size());
  absl::uint128 elements = pieces;
  for (size_t d = 0; d < rank; ++d) {
    std::vector<IndexRange>& ranges = data->source_splits.range[d];
    std::vector<int32_t>& position_of = data->position_of[d];
    position_of.resize(ranges.size());
    std::vector<IndexRange> chunks;
    // Usually every range is a chunk, in order: the ranges move in whole.
    bool whole = true;
    for (size_t i = 0; i < ranges.size(); ++i) {
      whole = whole && ranges[i].size() > 0 && (i == 0 || ranges[i - 1].start < ranges[i].start);
    }
    bool sorted = true;
    if (whole) {
      for (size_t i = 0; i < ranges.size(); ++i) position_of[i] = static_cast<int32_t>(i);
      data->in_order[d] = 1;
      chunks = std::move(ranges);
      ranges.clear();
    } else {
      chunks.reserve(ranges.size());
      for (size_t i = 0; i < ranges.size(); ++i) {
        position_of[i] = -1;
        if (ranges[i].size() == 0) continue;
        sorted = sorted && (chunks.empty() || chunks.back().start < ranges[i].start);
        position_of[i] = static_cast<int32_t>(chunks.size());
        chunks.push_back(ranges[i]);
      }
    }
    if (!sorted) {  // a group against mesh order (chunk-nested)
      std::vector<int32_t> order;
      for (size_t i = 0; i < ranges.size(); ++i) {
        if (position_of[i] >= 0) order.push_back(static_cast<int32_t>(i));
      }
      std::sort(order.begin(), order.end(), [&ranges](int32_t a, int32_t b) {
        return ranges[static_cast<size_t>(a)].start < ranges[static_cast<size_t>(b)].start;
      });
      chunks.clear();
      for (int32_t i : order) {
        position_of[static_cast<size_t>(i)] = static_cast<int32_t>(chunks.size());
        chunks.push_back(ranges[static_cast<size_t>(i)]);
      }
    }
    std::vector<Data::Cell> cells = Data::CellsMeeting(chunks, destination_splits.range[d]);
    uint64_t dimension_pieces = 0, dimension_elements = 0;
    for (const Data::Cell& cell : cells) {
      dimension_pieces += static_cast<uint64_t>(cell.count());
      dimension_elements += static_cast<uint64_t>(cell.range.size());
    }
    // Per dimension the cells' ranges are disjoint: the sums are at most the
    // dimension's size, and the replicas divide the devices.
    pieces = pieces / static_cast<uint64_t>(cells.size()) * dimension_pieces;
    elements = elements / static_cast<uint64_t>(cells.size()) * dimension_elements;
    data->chunks.push_back(std::move(chunks));
    data->cells.push_back(std::move(cells));
  }
  data->num_pieces = static_cast<size_t>(pieces);
  for (size_t j = 0; j < source.mesh().rank(); ++j) {
    if (source_splits.axis_dim[j] < 0 && source.mesh().shape()[j] > 1) {
      data->source_replicated = true;
    }
  }
  data->CompareDevices();
  absl::uint128 same_device = 0, same_process = 0;
  // Without the same processes on both sides the walk needs each device's
  // own elements anyway (whether they are in its process), so it sums them.
  const bool by_digits = data->same_processes && data->SameDeviceByDigits(same_device);
  if (!by_digits || !data->SameProcessByDigits(same_device, same_process)) {
    data->IndexSource();
    data->WalkDestination(by_digits, same_device, same_process);
  }
  const absl::uint128 by_locality[3] = {same_device, same_process,
                                        elements - same_device - same_process};
  for (int i = 0; i < 3; ++i) {
    const absl::uint128 bytes = by_locality[i] * element_size;
    if (bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'element_size': the plan moves more than ",
                       std::numeric_limits<int64_t>::max(), " bytes (int64 overflow)"));
    }
    data->totals[i] = static_cast<int64_t>(bytes);
  }
  return ReshardIntervals(std::move(data));
}

size_t ReshardIntervals::rank() const { return data_->rank; }
size_t ReshardIntervals::element_size() const { return data_->element_size; }
int64_t ReshardIntervals::num_destination_devices() const {
  return data_->destination_mesh->size();
}
size_t ReshardIntervals::num_pieces() const { return data_->num_pieces; }
const std::vector<IndexRange>& ReshardIntervals::source_chunks(size_t dim) const {
  return data_->chunks[dim];
}
int64_t ReshardIntervals::same_device_bytes() const { return data_->totals[0]; }
int64_t ReshardIntervals::same_process_bytes() const { return data_->totals[1]; }
int64_t ReshardIntervals::cross_process_bytes() const { return data_->totals[2]; }

namespace {

absl::Status CheckDestination(int64_t destination, int64_t devices) {
  if (destination < 0 || destination >= devices) {
    return absl::OutOfRangeError(absl::StrCat("Argument 'destination' is ", destination,
                                              "; expected 0 to ", devices - 1));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<size_t> ReshardIntervals::NumPieces(int64_t destination) const {
  TESSERA_RETURN_IF_ERROR(CheckDestination(destination, num_destination_devices()));
  const Data& data = *data_;
  absl::InlinedVector<const Data::Cell*, 4> cell(data.rank);
  data.CellsOf(destination, cell.data());
  size_t pieces = 1;
  for (size_t d = 0; d < data.rank; ++d) pieces *= static_cast<size_t>(cell[d]->count());
  return pieces;
}

absl::Status ReshardIntervals::ForEachPiece(
    int64_t destination, absl::FunctionRef<void(const ReshardPiece&)> fn) const {
  TESSERA_RETURN_IF_ERROR(CheckDestination(destination, num_destination_devices()));
  const Data& data = *data_;
  data.IndexSource();
  Data::View view;
  data.ViewOf(destination, view);
  const size_t rank = data.rank;
  for (size_t i = 0; i < rank; ++i) {
    if (view.cell[i]->count() == 0) return absl::OkStatus();
  }
  absl::InlinedVector<int64_t, 4> position(rank);
  for (size_t i = 0; i < rank; ++i) position[i] = view.cell[i]->first;
  ReshardPiece piece;
  while (true) {
    data.Fill(view, position.data(), piece);
    fn(piece);
    size_t i = rank;
    while (i-- > 0) {
      if (++position[i] < view.cell[i]->last) break;
      position[i] = view.cell[i]->first;
    }
    if (i == static_cast<size_t>(-1)) return absl::OkStatus();
  }
}

absl::Status ReshardIntervals::Piece(size_t index, ReshardPiece& out) const {
  const Data& data = *data_;
  if (index >= num_pieces()) {
    return absl::OutOfRangeError(absl::StrCat("Argument 'index' is ", index,
                                              "; expected below the number of pieces, ",
                                              num_pieces()));
  }
  data.IndexSource();
  data.IndexFirstPieces();
  // The last device whose first piece is at or before `index` (devices
  // without pieces share their successor's first piece).
  const size_t device = static_cast<size_t>(
      std::upper_bound(data.first_piece.begin(), data.first_piece.end(), index) -
      data.first_piece.begin() - 1);
  Data::View view;
  data.ViewOf(static_cast<int64_t>(device), view);
  const size_t rank = data.rank;
  absl::InlinedVector<int64_t, 4> position(rank);
  size_t rest = index - data.first_piece[device];
  for (size_t i = rank; i-- > 0;) {
    const size_t count = static_cast<size_t>(view.cell[i]->last - view.cell[i]->first);
    position[i] = view.cell[i]->first + static_cast<int64_t>(rest % count);
    rest /= count;
  }
  data.Fill(view, position.data(), out);
  return absl::OkStatus();
}

ReshardPlan ReshardPlan::Expand(const ReshardIntervals& intervals) {
  ReshardPlan plan;
  plan.rank_ = intervals.rank();
  plan.transfers_.reserve(intervals.num_pieces());
  plan.ranges_.reserve(intervals.num_pieces() * plan.rank_);
  for (int64_t device = 0; device < intervals.num_destination_devices(); ++device) {
    // In range by construction.
    (void)intervals.ForEachPiece(device, [&plan](const ReshardPiece& piece) {
      plan.transfers_.push_back({piece.source, piece.destination, piece.bytes, piece.locality});
      plan.ranges_.insert(plan.ranges_.end(), piece.box.begin(), piece.box.end());
    });
  }
  plan.totals_[0] = intervals.same_device_bytes();
  plan.totals_[1] = intervals.same_process_bytes();
  plan.totals_[2] = intervals.cross_process_bytes();
  return plan;
}

absl::StatusOr<ReshardPlan> ReshardPlan::Create(const Sharding& source,
                                                const Sharding& destination,
                                                size_t element_size) {
  TESSERA_ASSIGN_OR_RETURN(const ReshardIntervals intervals,
                           ReshardIntervals::Create(source, destination, element_size));
  return Expand(intervals);
}

}  // namespace tessera
