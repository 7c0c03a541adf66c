// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/scatter_gather.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

// Copies n bytes with non-temporal stores where the target has them: a copy
// far larger than the caches gains nothing from pulling the destination into
// them first, which is what plain stores of short runs do (a large memcpy
// switches to streaming stores by itself; 16 KiB rows do not).
void StreamCopy(char* dst, const char* src, size_t n) {
#if defined(__SSE2__)
  const size_t misaligned = reinterpret_cast<uintptr_t>(dst) % 16;
  const size_t head = std::min(n, misaligned == 0 ? 0 : 16 - misaligned);
  std::memcpy(dst, src, head);
  dst += head;
  src += head;
  n -= head;
  for (; n >= 64; n -= 64, dst += 64, src += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 48), d);
  }
#endif
  std::memcpy(dst, src, n);
}

// Orders the streaming stores of this thread before whatever follows.
void StreamFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

// Box copies of one shape, reduced to `rows` rows of one memcpy of `run`
// bytes per (src, dst) pair: the outer dimensions (those left after merging
// the contiguous tail) are walked as an odometer with byte strides on both
// sides. Copies of the same shape share a row walk (MergeSameShape): the
// shards of a tiled layout then read each global row in one sequential pass
// instead of jumping a row stride per shard, which the prefetchers punish.
struct StridedCopy {
  std::vector<std::pair<const char*, char*>> bases;  // (src, dst) of each box
  size_t run = 0;                    // bytes per memcpy
  std::vector<int64_t> extent;       // outer dimensions' sizes
  std::vector<size_t> src_stride;    // bytes, per outer dimension
  std::vector<size_t> dst_stride;
  int64_t rows = 0;                  // product of `extent`

  size_t row_bytes() const { return run * bases.size(); }
  size_t bytes() const { return static_cast<size_t>(rows) * row_bytes(); }

  bool SameShape(const StridedCopy& other) const {
    return rows == other.rows && run == other.run && extent == other.extent &&
           src_stride == other.src_stride && dst_stride == other.dst_stride;
  }

  // Copies rows [begin, end), with streaming stores when `stream`.
  void Run(int64_t begin, int64_t end, bool stream = false) const {
    if (begin >= end) return;
    const size_t outer = extent.size();
    std::vector<int64_t> coord(outer, 0);
    size_t src_offset = 0;
    size_t dst_offset = 0;
    int64_t rest = begin;
    for (size_t k = outer; k-- > 0;) {
      coord[k] = rest % extent[k];
      rest /= extent[k];
      src_offset += static_cast<size_t>(coord[k]) * src_stride[k];
      dst_offset += static_cast<size_t>(coord[k]) * dst_stride[k];
    }
    for (int64_t row = begin; row < end; ++row) {
      for (const auto& [src, dst] : bases) {
        if (stream) {
          StreamCopy(dst + dst_offset, src + src_offset, run);
        } else {
          std::memcpy(dst + dst_offset, src + src_offset, run);
        }
      }
      for (size_t k = outer; k-- > 0;) {  // advance the odometer
        src_offset += src_stride[k];
        dst_offset += dst_stride[k];
        if (++coord[k] < extent[k]) break;
        src_offset -= static_cast<size_t>(extent[k]) * src_stride[k];
        dst_offset -= static_cast<size_t>(extent[k]) * dst_stride[k];
        coord[k] = 0;
      }
    }
  }
};

// Row-major byte strides of an array holding `region`.
std::vector<size_t> ByteStrides(absl::Span<const IndexRange> region, size_t element_size) {
  std::vector<size_t> strides(region.size());
  size_t stride = element_size;
  for (size_t d = region.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= static_cast<size_t>(region[d].size());
  }
  return strides;
}

StridedCopy PlanBox(absl::Span<const IndexRange> box, const void* src,
                    absl::Span<const IndexRange> src_region, void* dst,
                    absl::Span<const IndexRange> dst_region, size_t element_size) {
  StridedCopy copy;
  const size_t rank = box.size();
  for (const IndexRange& r : box) {
    if (r.size() == 0) return copy;  // rows = 0: nothing to copy
  }
  const std::vector<size_t> src_strides = ByteStrides(src_region, element_size);
  const std::vector<size_t> dst_strides = ByteStrides(dst_region, element_size);
  size_t src_offset = 0;
  size_t dst_offset = 0;
  for (size_t d = 0; d < rank; ++d) {
    src_offset += static_cast<size_t>(box[d].start - src_region[d].start) * src_strides[d];
    dst_offset += static_cast<size_t>(box[d].start - dst_region[d].start) * dst_strides[d];
  }
  copy.bases.emplace_back(static_cast<const char*>(src) + src_offset,
                          static_cast<char*>(dst) + dst_offset);
  // Merge the trailing dimensions every array spans fully, plus the first one
  // that is not full (its part is still contiguous).
  size_t outer = rank;
  copy.run = element_size;
  while (outer > 0) {
    const size_t d = outer - 1;
    const int64_t n = box[d].size();
    copy.run *= static_cast<size_t>(n);
    --outer;
    if (n != src_region[d].size() || n != dst_region[d].size()) break;
  }
  copy.rows = 1;
  for (size_t d = 0; d < outer; ++d) {
    copy.extent.push_back(box[d].size());
    copy.src_stride.push_back(src_strides[d]);
    copy.dst_stride.push_back(dst_strides[d]);
    copy.rows *= box[d].size();
  }
  return copy;
}

// Rows of one copy assigned to one thread.
struct Slice {
  const StridedCopy* copy;
  int64_t begin;
  int64_t end;
};

void RunSlices(const std::vector<Slice>& slices, bool stream) {
  for (const Slice& s : slices) s.copy->Run(s.begin, s.end, stream);
  if (stream) StreamFence();
}

size_t CeilDiv(size_t a, size_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// Splits the copies' bytes into `threads` equal spans of the concatenated
// byte stream; a row goes to the span holding its first byte. Small shards
// therefore stay whole on one thread and a large shard splits by rows.
std::vector<std::vector<Slice>> Partition(const std::vector<StridedCopy>& copies, size_t total,
                                          size_t threads) {
  std::vector<std::vector<Slice>> work(threads);
  const size_t target = CeilDiv(total, threads);
  size_t offset = 0;  // first byte of the current copy in the stream
  for (const StridedCopy& copy : copies) {
    const size_t bytes = copy.bytes();
    if (bytes == 0) continue;
    // The threads whose spans meet [offset, offset + bytes).
    for (size_t t = offset / target; t < threads && t * target < offset + bytes; ++t) {
      const size_t lo = std::max(t * target, offset) - offset;
      const size_t hi = std::min((t + 1) * target, offset + bytes) - offset;
      const int64_t begin = static_cast<int64_t>(CeilDiv(lo, copy.row_bytes()));
      const int64_t end =
          std::min<int64_t>(static_cast<int64_t>(CeilDiv(hi, copy.row_bytes())), copy.rows);
      if (begin < end) work[t].push_back(Slice{&copy, begin, end});
    }
    offset += bytes;
  }
  return work;
}

// Joins consecutive copies of the same shape into one with several bases.
std::vector<StridedCopy> MergeSameShape(std::vector<StridedCopy> copies) {
  std::vector<StridedCopy> merged;
  for (StridedCopy& copy : copies) {
    if (copy.bases.empty()) continue;  // an empty box
    if (!merged.empty() && merged.back().SameShape(copy)) {
      merged.back().bases.push_back(copy.bases.front());
    } else {
      merged.push_back(std::move(copy));
    }
  }
  return merged;
}

void RunCopies(std::vector<StridedCopy> unmerged, const CopyOptions& options) {
  const std::vector<StridedCopy> copies = MergeSameShape(std::move(unmerged));
  size_t total = 0;
  for (const StridedCopy& copy : copies) total += copy.bytes();
  const size_t per_thread = std::max<size_t>(options.min_bytes_per_thread, 1);
  const size_t threads = std::min({std::max<size_t>(options.threads, 1), kMaxCopyThreads,
                                   std::max<size_t>(total / per_thread, 1)});
  // Streaming pays off for large copies made of runs that memcpy itself
  // would not stream (rows of a tiled shard).
  const bool stream = total >= options.min_bytes_to_stream;
  if (threads <= 1) {
    for (const StridedCopy& copy : copies) copy.Run(0, copy.rows, stream);
    if (stream) StreamFence();
    return;
  }
  const std::vector<std::vector<Slice>> work = Partition(copies, total, threads);
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(RunSlices, std::cref(work[t]), stream);
    } catch (const std::system_error&) {
      RunSlices(work[t], stream);  // no thread available: do that share here
    }
  }
  RunSlices(work[0], stream);
  for (std::thread& thread : pool) thread.join();
}

absl::Status CheckElementSize(size_t element_size) {
  if (element_size >= 1 && element_size <= kMaxElementSize) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument 'element_size' is ", element_size,
                                                 "; expected 1 to ", kMaxElementSize, " bytes"));
}

absl::StatusOr<size_t> BytesOf(absl::Span<const int64_t> dims, size_t element_size,
                               absl::string_view what) {
  TESSERA_RETURN_IF_ERROR(CheckElementSize(element_size));
  TESSERA_ASSIGN_OR_RETURN(const int64_t elements, CheckedProduct(dims, what));
  TESSERA_ASSIGN_OR_RETURN(const int64_t bytes,
                           CheckedMul(elements, static_cast<int64_t>(element_size), what));
  if (static_cast<uint64_t>(bytes) > std::numeric_limits<size_t>::max()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument '", what, "': ", bytes, " bytes do not fit in size_t"));
  }
  return static_cast<size_t>(bytes);
}

std::vector<int64_t> SizesOf(absl::Span<const IndexRange> ranges) {
  std::vector<int64_t> sizes(ranges.size());
  for (size_t d = 0; d < ranges.size(); ++d) sizes[d] = ranges[d].size();
  return sizes;
}

std::vector<IndexRange> WholeRegion(const Sharding& sharding) {
  std::vector<IndexRange> region;
  for (int64_t n : sharding.shape()) region.push_back({0, n});
  return region;
}

// The checks Scatter and Gather share, in argument order.
absl::Status CheckCommon(const Sharding& sharding, const void* global, size_t global_size,
                         size_t element_size, size_t num_shards, const CopyOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(const size_t expected, GlobalBytes(sharding, element_size));
  if (global_size != expected) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'global_size' is ", global_size, "; expected ", expected, " (",
        ShapeToString(sharding.shape()), " elements of ", element_size, " bytes)"));
  }
  if (global == nullptr && expected != 0) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'global' is NULL; expected a buffer of ",
                                                   expected, " bytes"));
  }
  if (num_shards != static_cast<size_t>(sharding.num_devices())) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'num_shards' is ", num_shards,
                                                   "; expected ", sharding.num_devices(),
                                                   " (one buffer per device of the mesh)"));
  }
  if (options.process_index && *options.process_index < 0) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'process_index' is ",
                                                   *options.process_index,
                                                   "; expected a process index >= 0"));
  }
  return absl::OkStatus();
}

bool InProcess(const Sharding& sharding, int64_t device, const CopyOptions& options) {
  return !options.process_index ||
         sharding.mesh().devices()[static_cast<size_t>(device)].process_index ==
             *options.process_index;
}

absl::Status NullShardError(int64_t device, size_t bytes, const char* role) {
  return absl::InvalidArgumentError(absl::StrCat(
      "Argument 'shards' entry ", device, " is NULL; expected the buffer of device ", device,
      ", ", role, " a shard of ", bytes, " bytes"));
}

// DATA_LOSS for the first byte where `replica` differs from `reference`, or
// OK when the buffers agree.
absl::Status CompareReplica(const void* reference, int64_t reference_device,
                            size_t reference_id, const void* replica, int64_t replica_device,
                            size_t replica_id, size_t bytes) {
  if (std::memcmp(reference, replica, bytes) == 0) return absl::OkStatus();
  const auto* a = static_cast<const unsigned char*>(reference);
  const auto* b = static_cast<const unsigned char*>(replica);
  size_t offset = 0;
  while (a[offset] == b[offset]) ++offset;
  return absl::DataLossError(absl::StrCat(
      "The shard of device ", replica_device, " (replica ", replica_id,
      ") differs from the shard of device ", reference_device, " (replica ", reference_id,
      ") at byte offset ",
      offset, " of the shard buffer (", static_cast<int>(b[offset]), " vs ",
      static_cast<int>(a[offset]), ")"));
}

}  // namespace

void CopyBox(absl::Span<const IndexRange> box, const void* src,
             absl::Span<const IndexRange> src_region, void* dst,
             absl::Span<const IndexRange> dst_region, size_t element_size) {
  const StridedCopy copy = PlanBox(box, src, src_region, dst, dst_region, element_size);
  copy.Run(0, copy.rows);
}

absl::StatusOr<size_t> GlobalBytes(const Sharding& sharding, size_t element_size) {
  return BytesOf(sharding.shape(), element_size, "global_size");
}

absl::StatusOr<size_t> ShardBytes(const Sharding& sharding, int64_t device_index,
                                  size_t element_size) {
  TESSERA_ASSIGN_OR_RETURN(const std::vector<int64_t> shape, sharding.ShardShape(device_index));
  // A shard is never larger than the tensor: check the tensor once.
  TESSERA_RETURN_IF_ERROR(GlobalBytes(sharding, element_size).status());
  return BytesOf(shape, element_size, "shard");
}

absl::Status Scatter(const Sharding& sharding, const void* global, size_t global_size,
                     size_t element_size, absl::Span<void* const> shards,
                     const CopyOptions& options) {
  TESSERA_RETURN_IF_ERROR(
      CheckCommon(sharding, global, global_size, element_size, shards.size(), options));
  const std::vector<IndexRange> whole = WholeRegion(sharding);
  std::vector<IndexRange> ranges(sharding.rank());
  std::vector<StridedCopy> copies;
  for (int64_t device = 0; device < sharding.num_devices(); ++device) {
    if (!InProcess(sharding, device, options)) continue;
    TESSERA_RETURN_IF_ERROR(sharding.DeviceRanges(device, absl::MakeSpan(ranges)));
    StridedCopy copy = PlanBox(ranges, global, whole, shards[static_cast<size_t>(device)],
                               ranges, element_size);
    if (copy.rows == 0) continue;
    if (shards[static_cast<size_t>(device)] == nullptr) {
      return NullShardError(device, copy.bytes(), "which holds");
    }
    copies.push_back(std::move(copy));
  }
  RunCopies(std::move(copies), options);
  return absl::OkStatus();
}

absl::Status Gather(const Sharding& sharding, absl::Span<const void* const> shards,
                    size_t element_size, void* global, size_t global_size,
                    const CopyOptions& options) {
  TESSERA_RETURN_IF_ERROR(
      CheckCommon(sharding, global, global_size, element_size, shards.size(), options));
  const std::vector<IndexRange> whole = WholeRegion(sharding);
  std::vector<StridedCopy> copies;
  for (const DistinctShard& shard : sharding.DistinctShards()) {
    TESSERA_ASSIGN_OR_RETURN(const size_t bytes, BytesOf(SizesOf(shard.ranges), element_size,
                                                         "shard"));
    if (bytes == 0) continue;
    int64_t reference = -1;  // the holder read: the first one in the process
    size_t reference_id = 0;
    for (size_t replica = 0; replica < shard.devices.size(); ++replica) {
      const int64_t device = shard.devices[replica];
      if (!InProcess(sharding, device, options)) continue;
      const void* buffer = shards[static_cast<size_t>(device)];
      if (reference >= 0 && !options.verify_replicas) break;
      if (buffer == nullptr) {
        return NullShardError(device, bytes,
                              reference < 0 ? "which is read for" : "which is verified against");
      }
      if (reference < 0) {
        reference = device;
        reference_id = replica;
        copies.push_back(PlanBox(shard.ranges, buffer, shard.ranges, global, whole, element_size));
        continue;
      }
      TESSERA_RETURN_IF_ERROR(CompareReplica(shards[static_cast<size_t>(reference)], reference,
                                             reference_id, buffer, device, replica, bytes));
    }
  }
  RunCopies(std::move(copies), options);
  return absl::OkStatus();
}

}  // namespace tessera
