// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/reshard_plan.h"

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
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
  std::vector<IndexRange> ranges(sharding.rank());
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
    for (int64_t i = 0; i < shards; ++i) {
      int64_t device = 0;
      for (size_t axis : group) {
        device += i / s.axis_weight[axis] % mesh.shape()[axis] * s.axis_stride[axis];
      }
      TESSERA_RETURN_IF_ERROR(sharding.DeviceRanges(device, absl::MakeSpan(ranges)));
      s.range[d].push_back(ranges[d]);
      s.lowest[d].push_back(device);
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

// One non-empty source range of a dimension, and the part of the logical
// index of its lowest holder that the dimension's mesh axes contribute.
struct Chunk {
  IndexRange range;
  int64_t offset = 0;
};

// The source sharding arranged for lookups:
//  - per dimension, its non-empty ranges sorted by start (they partition
//    [0, n)); every combination of chunks is a source shard, because the
//    dimensions' shard indices come from disjoint mesh axes;
//  - a shard's replica 0 is the sum of its chunks' offsets (unused axes at
//    coordinate 0); its other holders add the unused axes' offsets, in
//    replica-id order.
class SourceIndex {
 public:
  SourceIndex(const DeviceMesh& mesh, const Splits& splits) : mesh_(mesh), splits_(splits) {
    for (size_t d = 0; d < splits.range.size(); ++d) {
      std::vector<Chunk> chunks;
      for (size_t i = 0; i < splits.range[d].size(); ++i) {
        if (splits.range[d][i].size() > 0) chunks.push_back({splits.range[d][i], splits.lowest[d][i]});
      }
      std::sort(chunks.begin(), chunks.end(),
                [](const Chunk& a, const Chunk& b) { return a.range.start < b.range.start; });
      uniform_.push_back(UniformSize(chunks));
      chunks_.push_back(std::move(chunks));
    }
    unused_offsets_ = {0};
    for (size_t j = 0; j < mesh.rank(); ++j) {
      if (splits.axis_dim[j] >= 0) continue;
      std::vector<int64_t> next;
      next.reserve(unused_offsets_.size() * static_cast<size_t>(mesh.shape()[j]));
      for (int64_t base : unused_offsets_) {
        for (int64_t c = 0; c < mesh.shape()[j]; ++c) {
          next.push_back(base + c * splits.axis_stride[j]);
        }
      }
      unused_offsets_ = std::move(next);
    }
  }

  const Chunk& chunk(size_t dim, int64_t i) const { return chunks_[dim][static_cast<size_t>(i)]; }
  const Device& device(int64_t index) const { return mesh_.devices()[static_cast<size_t>(index)]; }

  // The chunks [first, last) that [start, stop) meets (stop > start): a
  // division when the chunks are uniform, else a binary search.
  void Overlap(size_t dim, const IndexRange& r, int64_t& first, int64_t& last) const {
    const std::vector<Chunk>& chunks = chunks_[dim];
    if (const int64_t c = uniform_[dim]; c > 0) {
      first = r.start / c;
      last = std::min<int64_t>((r.stop - 1) / c + 1, static_cast<int64_t>(chunks.size()));
      return;
    }
    auto it = std::upper_bound(chunks.begin(), chunks.end(), r.start,
                               [](int64_t v, const Chunk& c) { return v < c.range.start; });
    first = (it - chunks.begin()) - 1;
    last = std::lower_bound(it, chunks.end(), r.stop, [](const Chunk& c, int64_t v) {
             return c.range.start < v;
           }) - chunks.begin();
  }

  // `device` with its coordinates on the unused axes set to 0: the replica 0
  // of its shard. A device holds the shard of replica 0 r exactly when this
  // is r (the holders differ only on unused axes).
  int64_t ReplicaZeroOf(int64_t device) const {
    if (unused_offsets_.size() == 1) return device;  // no unused axis of size > 1
    int64_t replica0 = device;
    for (size_t j = 0; j < mesh_.rank(); ++j) {
      if (splits_.axis_dim[j] >= 0) continue;
      replica0 -= device / splits_.axis_stride[j] % mesh_.shape()[j] * splits_.axis_stride[j];
    }
    return replica0;
  }

  // The first holder, in mesh order, of the shard whose replica 0 is
  // `replica0`, among the devices of `process`; replica 0 when none is.
  int64_t FirstInProcess(int64_t replica0, int64_t process) {
    if (device(replica0).process_index == process) return replica0;
    // Few replicas: scanning them costs less than the memo.
    if (unused_offsets_.size() <= kScanReplicas) return Scan(replica0, process);
    auto [it, inserted] = first_in_process_.try_emplace({replica0, process}, replica0);
    if (inserted) it->second = Scan(replica0, process);
    return it->second;
  }

 private:
  static constexpr size_t kScanReplicas = 16;

  // c when chunk i is [i*c, (i+1)*c) for every chunk but a shorter last one
  // (strict and flat modes, and nested with divisible sizes), else 0.
  static int64_t UniformSize(const std::vector<Chunk>& chunks) {
    if (chunks.empty()) return 0;
    const int64_t c = chunks.front().range.size();
    for (size_t i = 0; i < chunks.size(); ++i) {
      const IndexRange& r = chunks[i].range;
      if (r.start != static_cast<int64_t>(i) * c) return 0;
      if (r.size() != c && i + 1 != chunks.size()) return 0;
    }
    return c;
  }

  int64_t Scan(int64_t replica0, int64_t process) const {
    for (int64_t offset : unused_offsets_) {
      if (device(replica0 + offset).process_index == process) return replica0 + offset;
    }
    return replica0;
  }

  const DeviceMesh& mesh_;
  const Splits& splits_;
  std::vector<std::vector<Chunk>> chunks_;  // per dimension, by start
  std::vector<int64_t> uniform_;            // per dimension: UniformSize
  std::vector<int64_t> unused_offsets_;
  absl::flat_hash_map<std::pair<int64_t, int64_t>, int64_t> first_in_process_;
};

// Per destination dimension and shard index, the source chunks its range
// meets, [first, last); first == last for an empty range.
struct Overlaps {
  std::vector<std::vector<std::pair<int64_t, int64_t>>> of;  // [dim][shard index]

  Overlaps(const SourceIndex& source, const Splits& destination) {
    for (size_t d = 0; d < destination.range.size(); ++d) {
      std::vector<std::pair<int64_t, int64_t>> dim;
      for (const IndexRange& r : destination.range[d]) {
        int64_t first = 0, last = 0;
        if (r.size() > 0) source.Overlap(d, r, first, last);
        dim.emplace_back(first, last);
      }
      of.push_back(std::move(dim));
    }
  }

  // Pieces of the device whose shard indices are `index`: the product of
  // the chunk counts (0 for an empty shard).
  size_t Pieces(const std::vector<int64_t>& index) const {
    size_t pieces = 1;
    for (size_t d = 0; d < of.size(); ++d) {
      const auto& [first, last] = of[d][static_cast<size_t>(index[d])];
      pieces *= static_cast<size_t>(last - first);
    }
    return pieces;
  }
};

// Destination device -> its logical index in the source mesh (same id and
// platform), or -1. The same device list (the usual case) needs no table.
class DeviceMatch {
 public:
  DeviceMatch(const DeviceMesh& source, const DeviceMesh& destination)
      : identical_(source.devices() == destination.devices()),
        same_platform_(source.platform() == destination.platform()) {
    if (identical_ || !same_platform_) return;
    for (size_t i = 0; i < source.devices().size(); ++i) {
      index_of_id_.emplace(source.devices()[i].id, static_cast<int64_t>(i));
    }
  }

  int64_t SourceIndex(int64_t destination_index, const Device& device) const {
    if (identical_) return destination_index;
    if (!same_platform_) return -1;
    auto it = index_of_id_.find(device.id);
    return it == index_of_id_.end() ? -1 : it->second;
  }

 private:
  bool identical_;
  bool same_platform_;
  absl::flat_hash_map<int64_t, int64_t> index_of_id_;
};

TransferLocality LocalityOf(const Device& source, const Device& destination) {
  if (source.id == destination.id && source.platform == destination.platform) {
    return TransferLocality::kSameDevice;
  }
  return source.process_index == destination.process_index ? TransferLocality::kSameProcess
                                                            : TransferLocality::kCrossProcess;
}

}  // namespace

absl::StatusOr<ReshardPlan> ReshardPlan::Create(const Sharding& source,
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
  SourceIndex index(source.mesh(), source_splits);
  const Overlaps overlaps(index, destination_splits);
  const DeviceMatch match(source.mesh(), destination.mesh());
  const DeviceMesh& mesh = destination.mesh();
  const size_t rank = source.rank();

  // Sized once: regrowing a plan of a million transfers costs more than a
  // second walk.
  size_t transfers = 0;
  ShardIndexWalk count(mesh, destination_splits, rank);
  for (int64_t device = 0; device < mesh.size(); ++device, count.Next()) {
    transfers += overlaps.Pieces(count.index());
  }
  ReshardPlan plan;
  plan.rank_ = rank;
  plan.transfers_.reserve(transfers);
  plan.ranges_.reserve(transfers * rank);

  std::vector<int64_t> first(rank), last(rank), chunk(rank);
  const int64_t size = static_cast<int64_t>(element_size);
  ShardIndexWalk walk(mesh, destination_splits, rank);
  for (int64_t device = 0; device < mesh.size(); ++device, walk.Next()) {
    if (overlaps.Pieces(walk.index()) == 0) continue;  // an empty shard needs nothing
    for (size_t d = 0; d < rank; ++d) {
      std::tie(first[d], last[d]) = overlaps.of[d][static_cast<size_t>(walk.index()[d])];
    }
    const Device& target = mesh.devices()[static_cast<size_t>(device)];
    const int64_t self = match.SourceIndex(device, target);
    const int64_t self_replica0 = self >= 0 ? index.ReplicaZeroOf(self) : -1;
    // The cartesian product of the chunks, row-major.
    chunk = first;
    while (true) {
      int64_t replica0 = 0;
      int64_t elements = 1;
      for (size_t d = 0; d < rank; ++d) {
        const Chunk& c = index.chunk(d, chunk[d]);
        const IndexRange& box = destination_splits.range[d][static_cast<size_t>(walk.index()[d])];
        const IndexRange piece{std::max(c.range.start, box.start), std::min(c.range.stop, box.stop)};
        plan.ranges_.push_back(piece);
        elements *= piece.size();
        replica0 += c.offset;
      }
      Transfer transfer;
      transfer.source = replica0 == self_replica0
                            ? self
                            : index.FirstInProcess(replica0, target.process_index);
      transfer.destination = device;
      transfer.bytes = elements * size;
      transfer.locality = LocalityOf(index.device(transfer.source), target);
      int64_t& total = plan.totals_[static_cast<int>(transfer.locality)];
      if (total > std::numeric_limits<int64_t>::max() - transfer.bytes) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Argument 'element_size': the plan moves more than ",
            std::numeric_limits<int64_t>::max(), " bytes (int64 overflow)"));
      }
      total += transfer.bytes;
      plan.transfers_.push_back(transfer);
      size_t d = rank;
      while (d-- > 0) {
        if (++chunk[d] < last[d]) break;
        chunk[d] = first[d];
      }
      if (d == static_cast<size_t>(-1)) break;
    }
  }
  return plan;
}

}  // namespace tessera
