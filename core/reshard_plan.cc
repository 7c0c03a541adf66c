#include "core/reshard_plan.h"

#include <algorithm>
#include <limits>
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

// One non-empty source range of a dimension, and the part of the logical
// index of its lowest holder that the dimension's mesh axes contribute.
struct Chunk {
  IndexRange range;
  int64_t offset = 0;
};

// The source sharding arranged for lookups, built in O(sum of shard counts
// * rank) plus one pass over the meshes' device lists:
//  - per dimension, its non-empty ranges sorted by start (they partition
//    [0, n)); every combination of chunks is a source shard, because the
//    dimensions' shard indices come from disjoint mesh axes;
//  - a shard's replica 0 is the sum of its chunks' offsets (unused axes at
//    coordinate 0); its other holders add the unused axes' offsets.
class SourceIndex {
 public:
  static absl::StatusOr<SourceIndex> Create(const Sharding& source) {
    SourceIndex index(source);
    TESSERA_RETURN_IF_ERROR(index.BuildChunks());
    index.BuildUnusedAxes();
    return index;
  }

  const std::vector<Chunk>& chunks(size_t dim) const { return chunks_[dim]; }
  const Device& device(int64_t index) const { return mesh_.devices()[static_cast<size_t>(index)]; }

  // `device` with its coordinates on the unused axes set to 0: the replica 0
  // of its shard. A device holds the shard of replica 0 r exactly when this
  // is r (the holders differ only on unused axes).
  int64_t ReplicaZeroOf(int64_t device) const {
    int64_t replica0 = device;
    for (size_t j = 0; j < mesh_.rank(); ++j) {
      if (!used_[j]) replica0 -= device / axis_stride_[j] % mesh_.shape()[j] * axis_stride_[j];
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

  int64_t Scan(int64_t replica0, int64_t process) const {
    for (int64_t offset : unused_offsets_) {
      if (device(replica0 + offset).process_index == process) return replica0 + offset;
    }
    return replica0;
  }

  explicit SourceIndex(const Sharding& source) : source_(source), mesh_(source.mesh()) {}

  absl::Status BuildChunks() {
    const size_t m = mesh_.rank();
    axis_stride_.assign(m, 1);
    for (size_t j = m; j-- > 1;) axis_stride_[j - 1] = axis_stride_[j] * mesh_.shape()[j];
    const size_t rank = source_.rank();
    groups_.resize(rank);
    chunks_.resize(rank);
    std::vector<IndexRange> ranges(rank);
    for (size_t d = 0; d < rank; ++d) {
      int64_t shards = 1;
      for (const std::string& name : source_.layout().axes()[d]) {
        TESSERA_ASSIGN_OR_RETURN(const size_t axis, mesh_.AxisIndex(name));
        groups_[d].push_back(axis);
        shards *= mesh_.shape()[axis];
      }
      // Shard index i's lowest holder: i's group coordinates, 0 elsewhere.
      for (int64_t i = 0; i < shards; ++i) {
        int64_t device = 0;
        int64_t rest = i;
        for (size_t g = groups_[d].size(); g-- > 0;) {
          const size_t axis = groups_[d][g];
          device += rest % mesh_.shape()[axis] * axis_stride_[axis];
          rest /= mesh_.shape()[axis];
        }
        TESSERA_RETURN_IF_ERROR(source_.DeviceRanges(device, absl::MakeSpan(ranges)));
        if (ranges[d].size() > 0) chunks_[d].push_back(Chunk{ranges[d], device});
      }
      std::sort(chunks_[d].begin(), chunks_[d].end(), [](const Chunk& a, const Chunk& b) {
        return a.range.start < b.range.start;
      });
    }
    return absl::OkStatus();
  }

  // The offsets of the unused axes' coordinate tuples, in mesh order (which
  // is replica-id order).
  void BuildUnusedAxes() {
    used_.assign(mesh_.rank(), false);
    for (const std::vector<size_t>& group : groups_) {
      for (size_t axis : group) used_[axis] = true;
    }
    unused_offsets_ = {0};
    for (size_t j = 0; j < mesh_.rank(); ++j) {
      if (used_[j]) continue;
      std::vector<int64_t> next;
      next.reserve(unused_offsets_.size() * static_cast<size_t>(mesh_.shape()[j]));
      for (int64_t base : unused_offsets_) {
        for (int64_t c = 0; c < mesh_.shape()[j]; ++c) next.push_back(base + c * axis_stride_[j]);
      }
      unused_offsets_ = std::move(next);
    }
  }

  const Sharding& source_;
  const DeviceMesh& mesh_;
  std::vector<int64_t> axis_stride_;
  std::vector<std::vector<size_t>> groups_;          // mesh axes per dimension
  std::vector<std::vector<Chunk>> chunks_;           // per dimension, by start
  std::vector<bool> used_;                           // per mesh axis
  std::vector<int64_t> unused_offsets_;
  absl::flat_hash_map<std::pair<int64_t, int64_t>, int64_t> first_in_process_;
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
  TESSERA_ASSIGN_OR_RETURN(SourceIndex index, SourceIndex::Create(source));
  const DeviceMatch match(source.mesh(), destination.mesh());
  TESSERA_ASSIGN_OR_RETURN(const std::vector<int64_t> map, destination.IndexMap());

  ReshardPlan plan;
  const size_t rank = source.rank();
  plan.rank_ = rank;
  plan.transfers_.reserve(static_cast<size_t>(destination.num_devices()));
  plan.ranges_.reserve(static_cast<size_t>(destination.num_devices()) * rank);
  std::vector<int64_t> first(rank), last(rank), chunk(rank);
  const int64_t size = static_cast<int64_t>(element_size);
  for (int64_t device = 0; device < destination.num_devices(); ++device) {
    const int64_t* box = &map[static_cast<size_t>(device) * rank * 2];  // start, stop per dim
    // Per dimension, the chunks the box meets: [first, last).
    bool empty = false;
    for (size_t d = 0; d < rank && !empty; ++d) {
      const int64_t start = box[2 * d], stop = box[2 * d + 1];
      empty = start == stop;
      const std::vector<Chunk>& chunks = index.chunks(d);
      auto it = std::upper_bound(chunks.begin(), chunks.end(), start,
                                 [](int64_t v, const Chunk& c) { return v < c.range.start; });
      first[d] = (it - chunks.begin()) - 1;
      last[d] = std::lower_bound(it, chunks.end(), stop, [](const Chunk& c, int64_t v) {
                  return c.range.start < v;
                }) - chunks.begin();
    }
    if (empty) continue;  // an empty shard needs nothing
    const Device& target = destination.mesh().devices()[static_cast<size_t>(device)];
    const int64_t self = match.SourceIndex(device, target);
    const int64_t self_replica0 = self >= 0 ? index.ReplicaZeroOf(self) : -1;
    // The cartesian product of the chunks, row-major.
    chunk = first;
    while (true) {
      int64_t replica0 = 0;
      int64_t elements = 1;
      for (size_t d = 0; d < rank; ++d) {
        const Chunk& c = index.chunks(d)[static_cast<size_t>(chunk[d])];
        const IndexRange piece{std::max(c.range.start, box[2 * d]),
                               std::min(c.range.stop, box[2 * d + 1])};
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
