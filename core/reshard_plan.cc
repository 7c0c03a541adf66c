// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/reshard_plan.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

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
// per dimension and shard index, the range and the lowest device holding
// it (the index's group coordinates, 0 on every other axis). Costs
// O(sum of shard counts * rank), far below a pass over the devices.
struct Splits {
  std::vector<int64_t> axis_stride;                // row-major, per mesh axis
  std::vector<int> axis_dim;                       // or -1 for an unused axis
  std::vector<int64_t> axis_weight;                // 0 for an unused axis
  std::vector<std::vector<IndexRange>> range;      // [dim][shard index]
  std::vector<std::vector<int64_t>> lowest;        // [dim][shard index]
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
  s.lowest.resize(sharding.rank());
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
    // Shard index i's device, counting i up on the group's coordinates
    // (last axis fastest) instead of dividing.
    s.lowest[d].reserve(static_cast<size_t>(shards));
    std::vector<int64_t> coords(group.size(), 0);
    int64_t device = 0;
    for (int64_t i = 0; i < shards; ++i) {
      s.lowest[d].push_back(device);
      for (size_t g = group.size(); g-- > 0;) {
        const size_t axis = group[g];
        device += s.axis_stride[axis];
        if (++coords[g] < mesh.shape()[axis]) break;
        coords[g] = 0;
        device -= mesh.shape()[axis] * s.axis_stride[axis];
      }
    }
  }
  return s;
}

// Walks a mesh in row-major order keeping each dimension's shard index,
// updated as coordinates tick instead of recomputed with divisions.
class ShardIndexWalk {
 public:
  ShardIndexWalk(const DeviceMesh& mesh, const Splits& splits, size_t rank)
      : mesh_(mesh), splits_(splits), coords_(mesh.rank(), 0), index_(rank, 0) {}

  const std::vector<int64_t>& index() const { return index_; }

  void Next() {
    for (size_t j = coords_.size(); j-- > 0;) {
      const int dim = splits_.axis_dim[j];
      if (dim >= 0) index_[static_cast<size_t>(dim)] += splits_.axis_weight[j];
      if (++coords_[j] < mesh_.shape()[j]) return;
      coords_[j] = 0;
      if (dim >= 0) index_[static_cast<size_t>(dim)] -= mesh_.shape()[j] * splits_.axis_weight[j];
    }
  }

 private:
  const DeviceMesh& mesh_;
  const Splits& splits_;
  std::vector<int64_t> coords_;
  std::vector<int64_t> index_;
};

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
  std::vector<std::vector<int64_t>> offsets;     // [dim][position]: replica 0's part
  std::vector<std::vector<Cell>> cells;          // [dim][destination shard index]
  std::vector<int> destination_axis_dim;         // per destination mesh axis
  std::vector<int64_t> destination_axis_weight;
  std::vector<int64_t> destination_axis_stride;

  // Per source device, rank positions; -1 everywhere for a device whose shard
  // is empty (it holds no chunk).
  std::vector<int32_t> source_position;
  bool source_replicated = false;  // some shard has several holders

  // Device i of both meshes is one device (id and platform): the usual case,
  // without a lookup; and in one process in both.
  bool same_order = false;
  bool same_processes = false;
  bool same_platform = false;
  absl::flat_hash_map<int64_t, int64_t> source_index_of_id;  // otherwise

  ProcessSlots slots;
  std::vector<Process> processes;       // per slot
  std::vector<int64_t> box_lo, box_hi;  // per slot, rank positions: the bounds held
  std::vector<DimSet> dim_sets;         // per slot, rank
  std::vector<int64_t> set_position, set_size;
  std::vector<Held> held;               // per slot, sorted by replica0

  std::vector<size_t> first_piece;  // per destination device, and the total
  int64_t totals[3] = {0, 0, 0};

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
    auto it = source_index_of_id.find(d.id);
    return it == source_index_of_id.end() ? -1 : it->second;
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

  // The passes of Create.
  void ReadSource(const Splits& splits, const std::vector<std::vector<int32_t>>& position_of);
  void ListHeldShards(const std::vector<int64_t>& devices_holding);
  absl::Status WalkDestination(const Splits& splits);
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

void ReshardIntervals::Data::ViewOf(int64_t destination, View& view) const {
  absl::InlinedVector<int64_t, 4> index(rank, 0);
  const std::vector<int64_t>& shape = destination_mesh->shape();
  for (size_t j = 0; j < shape.size(); ++j) {
    const int dim = destination_axis_dim[j];
    if (dim < 0) continue;
    index[static_cast<size_t>(dim)] +=
        destination / destination_axis_stride[j] % shape[j] * destination_axis_weight[j];
  }
  view.cell.resize(rank);
  for (size_t d = 0; d < rank; ++d) view.cell[d] = &cells[d][static_cast<size_t>(index[d])];
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

// One walk over the source mesh, a run of devices along its last axis at a
// time: each device's chunk positions, whether the two device lists agree,
// and per process the box of positions its devices hold (in a run only one
// dimension's position moves, so the others update the box once per run and
// process).
void ReshardIntervals::Data::ReadSource(const Splits& splits,
                                        const std::vector<std::vector<int32_t>>& position_of) {
  const DeviceMesh& mesh = *source_mesh;
  const std::vector<Device>& devices = mesh.devices();
  const std::vector<Device>& others = destination_mesh->devices();
  const size_t n = devices.size();
  slots = ProcessSlots(devices);
  const size_t num_slots = static_cast<size_t>(slots.count());
  source_position.resize(n * rank);
  box_lo.assign(num_slots * rank, std::numeric_limits<int64_t>::max());
  box_hi.assign(num_slots * rank, -1);
  std::vector<int64_t> devices_holding(num_slots, 0);  // with a non-empty shard
  same_order = source_mesh == destination_mesh || n == others.size();
  same_processes = same_order;
  same_platform = mesh.platform() == destination_mesh->platform();
  if (source_mesh != destination_mesh && same_order) {
    for (size_t i = 0; i < n && same_order; ++i) {
      same_order = devices[i].id == others[i].id && devices[i].platform == others[i].platform;
      same_processes = same_processes && devices[i].process_index == others[i].process_index;
    }
  }
  same_processes = same_processes && same_order;

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
    for (int64_t t = 0; t < run; ++t, ++i, position += rank) {
      std::copy(base.begin(), base.end(), position);
      int32_t p = 0;
      if (moving != nullptr) p = position[run_dim] = moving[t * run_step];
      if (fixed_empty || p < 0) {
        std::fill(position, position + rank, -1);
        continue;
      }
      const int64_t process = devices[i].process_index;
      if (slot < 0 || process != last_process) {
        last_process = process;
        slot = slots.Find(process);
      }
      if (slot != segment_slot) {
        flush();
        segment_slot = slot;
        segment_lo = segment_hi = p;
      }
      segment_lo = std::min<int64_t>(segment_lo, p);
      segment_hi = std::max<int64_t>(segment_hi, p);
      ++devices_holding[static_cast<size_t>(slot)];
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
  if (!same_order && same_platform) {
    for (size_t k = 0; k < n; ++k) source_index_of_id.emplace(devices[k].id, static_cast<int64_t>(k));
  }
  ListHeldShards(devices_holding);
}

// Per process: its distinct shards, and whether they are a product of
// per-dimension position sets. Without replicas each device holds its own
// shard, so a process whose device count is the volume of its bounds holds
// that whole box, with no list. Otherwise each process lists its shards
// (the holder choice and the totals look them up) and its sets are read from
// the list.
void ReshardIntervals::Data::ListHeldShards(const std::vector<int64_t>& devices_holding) {
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
// at a time (only one dimension's shard index moves in a run): each device's
// first piece, and the bytes by locality. A device's bytes split into those
// of the piece it holds itself (same device), those its process's devices
// hold (same process) and the rest (cross process).
absl::Status ReshardIntervals::Data::WalkDestination(const Splits& splits) {
  const DeviceMesh& mesh = *destination_mesh;
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
  first_piece.resize(devices.size() + 1);
  Sum all, same_device, same_process;
  size_t pieces_so_far = 0;
  int64_t last_process = -1;
  int32_t slot = -1;
  bool have_slot = false;
  size_t device = 0;
  for (int64_t outer = mesh.size() / run; outer > 0; --outer) {
    for (size_t d = 0; d < rank; ++d) cell[d] = &cells[d][static_cast<size_t>(index[d])];
    // The dimensions other than the run's, once per run.
    size_t rest_pieces = 1;
    uint64_t rest_elements = 1;
    for (size_t d = 0; d < rank; ++d) {
      if (static_cast<int>(d) == run_dim) continue;
      rest_pieces *= static_cast<size_t>(cell[d]->count());
      rest_elements *= static_cast<uint64_t>(cell[d]->range.size());
    }
    const Cell* run_cell = run_dim >= 0 ? cell[static_cast<size_t>(run_dim)] : nullptr;
    int32_t rest_slot = -1;  // rest_held is for this process
    uint64_t rest_held = 0;
    for (int64_t t = 0; t < run; ++t, ++device) {
      first_piece[device] = pieces_so_far;
      const Cell* moving = run_cell != nullptr ? run_cell + t * run_step : nullptr;
      const size_t pieces =
          moving != nullptr ? rest_pieces * static_cast<size_t>(moving->count()) : rest_pieces;
      pieces_so_far += pieces;
      if (pieces == 0) continue;  // an empty shard needs nothing
      uint64_t elements = rest_elements;
      if (moving != nullptr) {
        cell[static_cast<size_t>(run_dim)] = moving;
        elements *= static_cast<uint64_t>(moving->range.size());
      }
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
              same_processes || source_device(self).process_index == target.process_index ||
              (slot >= 0 && Holds(slot, position));
          if (self_in_process) in_process -= self_elements;
        }
      }
      all.Add(elements);
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
  first_piece[devices.size()] = pieces_so_far;
  const absl::uint128 by_locality[3] = {same_device.value(), same_process.value(),
                                        all.value() - same_device.value() - same_process.value()};
  for (int i = 0; i < 3; ++i) {
    const absl::uint128 bytes = by_locality[i] * element_size;
    if (bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'element_size': the plan moves more than ",
                       std::numeric_limits<int64_t>::max(), " bytes (int64 overflow)"));
    }
    totals[i] = static_cast<int64_t>(bytes);
  }
  return absl::OkStatus();
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
  TESSERA_ASSIGN_OR_RETURN(const Splits source_splits, SplitsOf(source));
  TESSERA_ASSIGN_OR_RETURN(const Splits destination_splits, SplitsOf(destination));
  const size_t rank = source.rank();
  auto data = std::make_shared<Data>();
  data->rank = rank;
  data->element_size = element_size;
  data->source_mesh = source.layout().mesh();
  data->destination_mesh = destination.layout().mesh();

  // Per dimension: the chunks by start, each shard index's position, the
  // destination cells.
  std::vector<std::vector<int32_t>> position_of(rank);  // [dim][source shard index] or -1
  for (size_t d = 0; d < rank; ++d) {
    const std::vector<IndexRange>& ranges = source_splits.range[d];
    std::vector<int32_t> order;
    order.reserve(ranges.size());
    for (size_t i = 0; i < ranges.size(); ++i) {
      if (ranges[i].size() > 0) order.push_back(static_cast<int32_t>(i));
    }
    const auto by_start = [&ranges](int32_t a, int32_t b) {
      return ranges[static_cast<size_t>(a)].start < ranges[static_cast<size_t>(b)].start;
    };
    if (!std::is_sorted(order.begin(), order.end(), by_start)) {
      std::sort(order.begin(), order.end(), by_start);
    }
    position_of[d].assign(ranges.size(), -1);
    std::vector<IndexRange> chunks;
    std::vector<int64_t> offsets;
    chunks.reserve(order.size());
    offsets.reserve(order.size());
    for (int32_t i : order) {
      position_of[d][static_cast<size_t>(i)] = static_cast<int32_t>(chunks.size());
      chunks.push_back(ranges[static_cast<size_t>(i)]);
      offsets.push_back(source_splits.lowest[d][static_cast<size_t>(i)]);
    }
    const int64_t uniform = UniformSize(chunks);
    std::vector<Data::Cell> cells(destination_splits.range[d].size());
    for (size_t i = 0; i < cells.size(); ++i) {
      const IndexRange& r = destination_splits.range[d][i];
      cells[i].range = r;
      if (r.size() > 0) ChunksMet(chunks, uniform, r, cells[i].first, cells[i].last);
    }
    data->chunks.push_back(std::move(chunks));
    data->offsets.push_back(std::move(offsets));
    data->cells.push_back(std::move(cells));
  }
  data->destination_axis_dim = destination_splits.axis_dim;
  data->destination_axis_weight = destination_splits.axis_weight;
  data->destination_axis_stride = destination_splits.axis_stride;
  for (size_t j = 0; j < source.mesh().rank(); ++j) {
    if (source_splits.axis_dim[j] < 0 && source.mesh().shape()[j] > 1) {
      data->source_replicated = true;
    }
  }
  data->ReadSource(source_splits, position_of);
  TESSERA_RETURN_IF_ERROR(data->WalkDestination(destination_splits));
  return ReshardIntervals(std::move(data));
}

size_t ReshardIntervals::rank() const { return data_->rank; }
size_t ReshardIntervals::element_size() const { return data_->element_size; }
int64_t ReshardIntervals::num_destination_devices() const {
  return data_->destination_mesh->size();
}
size_t ReshardIntervals::num_pieces() const { return data_->first_piece.back(); }
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
  const size_t d = static_cast<size_t>(destination);
  return data_->first_piece[d + 1] - data_->first_piece[d];
}

absl::Status ReshardIntervals::ForEachPiece(
    int64_t destination, absl::FunctionRef<void(const ReshardPiece&)> fn) const {
  TESSERA_RETURN_IF_ERROR(CheckDestination(destination, num_destination_devices()));
  const Data& data = *data_;
  const size_t d = static_cast<size_t>(destination);
  if (data.first_piece[d + 1] == data.first_piece[d]) return absl::OkStatus();
  Data::View view;
  data.ViewOf(destination, view);
  const size_t rank = data.rank;
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
