// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Host scatter and gather (core/scatter_gather.h): exact shard contents,
// random round trips in every mode, threads, replica verification, the
// process-local variant, and every argument error.
#include "core/scatter_gather.h"

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "core/shape.h"
#include "core/shard.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using testing::CpuMesh;
using testing::IsOk;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kDataLoss = absl::StatusCode::kDataLoss;

Sharding Make(const std::vector<std::string>& spec, MeshPtr mesh, std::vector<int64_t> shape,
              ShardMode mode = ShardMode::kChunkFlat) {
  return Unwrap(Sharding::Create(Layout(spec, std::move(mesh)), std::move(shape), mode));
}

// One buffer per device, sized for its shard.
std::vector<std::vector<uint8_t>> ShardBuffers(const Sharding& s, size_t element_size,
                                               uint8_t fill = 0) {
  std::vector<std::vector<uint8_t>> buffers;
  for (int64_t i = 0; i < s.num_devices(); ++i) {
    buffers.emplace_back(Unwrap(ShardBytes(s, i, element_size)), fill);
  }
  return buffers;
}

std::vector<void*> Pointers(std::vector<std::vector<uint8_t>>& buffers) {
  std::vector<void*> pointers;
  for (auto& b : buffers) pointers.push_back(b.data());
  return pointers;
}

std::vector<const void*> ConstPointers(std::vector<std::vector<uint8_t>>& buffers) {
  std::vector<const void*> pointers;
  for (auto& b : buffers) pointers.push_back(b.data());
  return pointers;
}

std::vector<uint8_t> Iota(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(i);
  return bytes;
}

// Mesh (4,) over cpu:0..3 owned by processes 0, 0, 1, 1.
MeshPtr TwoProcessMesh() {
  std::vector<Device> devices;
  for (int64_t i = 0; i < 4; ++i) devices.push_back(Device{i, Platform::kCpu, i / 2, i % 2});
  return Unwrap(DeviceMesh::Create({4}, {"x"}, devices));
}

// ---------------------------------------------------------------------------
// Exact shard contents.

TEST(ScatterTest, RowShardsAreContiguousBlocksOfTheGlobalBuffer) {
  // (4, 3) bytes over 'x' of a (2, 4) mesh: devices 0-3 hold rows 0-1.
  const Sharding s = Make({"x", ""}, CpuMesh({2, 4}, {"x", "y"}), {4, 3});
  const std::vector<uint8_t> global = Iota(12);
  auto shards = ShardBuffers(s, 1);
  ASSERT_THAT(Scatter(s, global.data(), global.size(), 1, Pointers(shards)), IsOk());
  EXPECT_THAT(shards[0], ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_THAT(shards[7], ElementsAre(6, 7, 8, 9, 10, 11));
}

TEST(ScatterTest, ColumnShardsAreStridedRowsOfTwoByteElements) {
  // (2, 8) int16 over 'y': device 1 holds columns 2-3 of both rows.
  const Sharding s = Make({"", "y"}, CpuMesh({2, 4}, {"x", "y"}), {2, 8});
  std::vector<uint16_t> global(16);
  for (uint16_t i = 0; i < 16; ++i) global[i] = static_cast<uint16_t>(100 + i);
  auto shards = ShardBuffers(s, 2);
  ASSERT_THAT(Scatter(s, global.data(), 32, 2, Pointers(shards)), IsOk());
  std::vector<uint16_t> device1(4);
  std::memcpy(device1.data(), shards[1].data(), 8);
  EXPECT_THAT(device1, ElementsAre(102, 103, 110, 111));
}

TEST(ScatterTest, UnevenChunksLeaveTheLastDeviceEmpty) {
  // 5 rows over 4 devices, flat: c = 2, shards [0,2) [2,4) [4,5) [5,5).
  const Sharding s = Make({"x"}, CpuMesh({4}, {"x"}), {5});
  const std::vector<uint8_t> global = Iota(5);
  auto shards = ShardBuffers(s, 1);
  std::vector<void*> pointers = Pointers(shards);
  pointers[3] = nullptr;  // an empty shard needs no buffer
  ASSERT_THAT(Scatter(s, global.data(), 5, 1, pointers), IsOk());
  EXPECT_THAT(shards[2], ElementsAre(4));
  EXPECT_TRUE(shards[3].empty());
}

// ---------------------------------------------------------------------------
// Random round trips.

struct RandomCase {
  MeshPtr mesh;
  std::vector<std::string> spec;
  std::vector<int64_t> shape;
};

// A mesh of rank 1-3 (sizes 1-4), every axis used at most once by a random
// dimension (alone or in a group) or left unused, and sizes 0-9.
RandomCase RandomLayout(std::mt19937& rng) {
  const size_t mesh_rank = 1 + rng() % 3;
  std::vector<int64_t> mesh_shape;
  std::vector<std::string> names;
  for (size_t j = 0; j < mesh_rank; ++j) {
    mesh_shape.push_back(1 + static_cast<int64_t>(rng() % 4));
    names.push_back(std::string(1, static_cast<char>('a' + j)));
  }
  RandomCase c;
  c.mesh = CpuMesh(mesh_shape, names);
  const size_t rank = 1 + rng() % 3;
  c.spec.assign(rank, "");
  for (const std::string& name : names) {
    const size_t dim = rng() % (rank + 1);
    if (dim == rank) continue;  // unused: replicates
    c.spec[dim] += (c.spec[dim].empty() ? "" : "+") + name;
  }
  for (size_t d = 0; d < rank; ++d) c.shape.push_back(static_cast<int64_t>(rng() % 10));
  return c;
}

// The expected shard of `device`, element by element from its ranges.
std::vector<uint8_t> ExpectedShard(const Sharding& s, int64_t device,
                                   const std::vector<uint8_t>& global, size_t element_size) {
  const std::vector<IndexRange> ranges = Unwrap(s.DeviceRanges(device));
  std::vector<uint8_t> shard;
  const size_t rank = ranges.size();
  std::vector<int64_t> index(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (ranges[d].size() == 0) return shard;
    index[d] = ranges[d].start;
  }
  while (true) {
    size_t flat = 0;
    for (size_t d = 0; d < rank; ++d) flat = flat * s.shape()[d] + index[d];
    shard.insert(shard.end(), global.begin() + flat * element_size,
                 global.begin() + (flat + 1) * element_size);
    size_t d = rank;
    while (d-- > 0) {
      if (++index[d] < ranges[d].stop) break;
      index[d] = ranges[d].start;
    }
    if (d == static_cast<size_t>(-1)) return shard;
  }
}

void RoundTrip(const Sharding& s, size_t element_size, const CopyOptions& options,
               std::mt19937& rng) {
  std::vector<uint8_t> global(Unwrap(GlobalBytes(s, element_size)));
  for (uint8_t& b : global) b = static_cast<uint8_t>(rng());
  auto shards = ShardBuffers(s, element_size, 0xEE);
  ASSERT_THAT(Scatter(s, global.data(), global.size(), element_size, Pointers(shards), options),
              IsOk());
  for (int64_t i = 0; i < s.num_devices(); ++i) {
    ASSERT_EQ(shards[static_cast<size_t>(i)], ExpectedShard(s, i, global, element_size))
        << "device " << i;
  }
  std::vector<uint8_t> back(global.size(), 0xAA);
  CopyOptions verify = options;
  verify.verify_replicas = true;
  ASSERT_THAT(Gather(s, ConstPointers(shards), element_size, back.data(), back.size(), verify),
              IsOk());
  ASSERT_EQ(back, global);
}

TEST(ScatterGatherTest, RandomLayoutsRoundTripByteForByte) {
  std::mt19937 rng(20261130);
  const size_t element_sizes[] = {1, 2, 4, 8, 12, 16};
  for (int trial = 0; trial < 300; ++trial) {
    const RandomCase c = RandomLayout(rng);
    const ShardMode mode = trial % 2 == 0 ? ShardMode::kChunkFlat : ShardMode::kChunkNested;
    const Sharding s = Make(c.spec, c.mesh, c.shape, mode);
    CopyOptions options;
    options.threads = trial % 3 == 0 ? 1 : 3;
    options.min_bytes_per_thread = 1;
    // Streaming stores on every other trial (every copy, however small).
    if (trial % 4 < 2) options.min_bytes_to_stream = 0;
    SCOPED_TRACE(absl::StrCat("trial ", trial, " mesh ", c.mesh->ToString(), " spec ",
                              absl::StrJoin(c.spec, ","), " shape ", ShapeToString(c.shape),
                              " mode ", ShardModeName(mode), " threads ", options.threads));
    RoundTrip(s, element_sizes[trial % 6], options, rng);
    if (HasFailure()) return;
  }
}

TEST(ScatterGatherTest, StrictModeRoundTrips) {
  std::mt19937 rng(7);
  const Sharding s = Make({"x", "y"}, CpuMesh({2, 4}, {"x", "y"}), {6, 12}, ShardMode::kStrict);
  RoundTrip(s, 4, CopyOptions{}, rng);
}

TEST(ScatterGatherTest, OneLargeShardSplitByRowsOverThreads) {
  // A single device: the whole tensor is one shard, split over 4 threads.
  std::mt19937 rng(11);
  const Sharding s = Make({"", "x"}, CpuMesh({1}, {"x"}), {1000, 7});
  CopyOptions options;
  options.threads = 4;
  options.min_bytes_per_thread = 1;
  RoundTrip(s, 8, options, rng);
}

TEST(ScatterGatherTest, StreamingStoresOfUnalignedRowsRoundTrip) {
  // 12-byte elements: rows of 7 * 12 = 84 bytes start at every alignment.
  std::mt19937 rng(5);
  const Sharding s = Make({"x", "y"}, CpuMesh({2, 3}, {"x", "y"}), {37, 21});
  CopyOptions options;
  options.min_bytes_to_stream = 0;
  RoundTrip(s, 12, options, rng);
}

TEST(ScatterGatherTest, EmptyDimensionNeedsNoBuffers) {
  const Sharding s = Make({"x", ""}, CpuMesh({4}, {"x"}), {0, 5});
  const std::vector<void*> shards(4, nullptr);
  const std::vector<const void*> const_shards(4, nullptr);
  EXPECT_THAT(Scatter(s, nullptr, 0, 4, shards), IsOk());
  EXPECT_THAT(Gather(s, const_shards, 4, nullptr, 0), IsOk());
}

TEST(ScatterGatherTest, ScalarIsOneElementOnEveryDevice) {
  std::mt19937 rng(3);
  const Sharding s = Unwrap(
      Sharding::Create(Unwrap(TensorLayout::Create({}, CpuMesh({2}, {"x"}))), {},
                       ShardMode::kStrict));
  RoundTrip(s, 12, CopyOptions{}, rng);
}

// ---------------------------------------------------------------------------
// Gather: which replica is read, and verification.

TEST(GatherTest, ReadsReplicaZeroOnly) {
  // ('x', None) on (2, 4): devices 0-3 hold rows 0-1; device 0 is replica 0.
  const Sharding s = Make({"x", ""}, CpuMesh({2, 4}, {"x", "y"}), {4, 1});
  std::vector<uint8_t> top = {1, 2}, bottom = {3, 4};
  std::vector<const void*> shards(8, nullptr);
  shards[0] = top.data();
  shards[4] = bottom.data();
  std::vector<uint8_t> global(4);
  ASSERT_THAT(Gather(s, shards, 1, global.data(), 4), IsOk());
  EXPECT_THAT(global, ElementsAre(1, 2, 3, 4));
}

TEST(GatherTest, VerifyReplicasReportsTheFirstDifferingByte) {
  const Sharding s = Make({"x", ""}, CpuMesh({2, 4}, {"x", "y"}), {4, 3});
  const std::vector<uint8_t> global = Iota(12);
  auto shards = ShardBuffers(s, 1);
  ASSERT_THAT(Scatter(s, global.data(), 12, 1, Pointers(shards)), IsOk());
  shards[2][5] ^= 0xFF;  // device 2 is replica 2 of rows 0-1
  std::vector<uint8_t> back(12, 0xAA);
  CopyOptions options;
  options.verify_replicas = true;
  EXPECT_THAT(Gather(s, ConstPointers(shards), 1, back.data(), 12, options),
              StatusIs(kDataLoss, HasSubstr("The shard of device 2 (replica 2) differs from the "
                                            "shard of device 0 (replica 0) at byte offset 5")));
  EXPECT_EQ(back, std::vector<uint8_t>(12, 0xAA)) << "nothing is written on failure";
}

TEST(GatherTest, WithoutVerificationACorruptReplicaIsNotRead) {
  const Sharding s = Make({"x", ""}, CpuMesh({2, 4}, {"x", "y"}), {4, 3});
  const std::vector<uint8_t> global = Iota(12);
  auto shards = ShardBuffers(s, 1);
  ASSERT_THAT(Scatter(s, global.data(), 12, 1, Pointers(shards)), IsOk());
  shards[3][0] ^= 0xFF;
  std::vector<uint8_t> back(12);
  ASSERT_THAT(Gather(s, ConstPointers(shards), 1, back.data(), 12), IsOk());
  EXPECT_EQ(back, global);
}

TEST(GatherTest, VerifyNeedsEveryReplicaBuffer) {
  const Sharding s = Make({""}, CpuMesh({2}, {"x"}), {3});
  std::vector<uint8_t> a = {1, 2, 3};
  const std::vector<const void*> shards = {a.data(), nullptr};
  std::vector<uint8_t> back(3);
  CopyOptions options;
  options.verify_replicas = true;
  EXPECT_THAT(Gather(s, shards, 1, back.data(), 3, options),
              StatusIs(kInvalid, HasSubstr("Argument 'shards' entry 1 is NULL; expected the "
                                           "buffer of device 1")));
}

// ---------------------------------------------------------------------------
// Process-local copies.

TEST(ProcessLocalTest, ScatterFillsOnlyTheProcessDevices) {
  const Sharding s = Make({"x"}, TwoProcessMesh(), {8});
  const std::vector<uint8_t> global = Iota(8);
  auto shards = ShardBuffers(s, 1, 0xEE);
  std::vector<void*> pointers = Pointers(shards);
  pointers[0] = pointers[1] = nullptr;  // process 0's devices
  CopyOptions options;
  options.process_index = 1;
  ASSERT_THAT(Scatter(s, global.data(), 8, 1, pointers, options), IsOk());
  EXPECT_THAT(shards[0], ElementsAre(0xEE, 0xEE));
  EXPECT_THAT(shards[2], ElementsAre(4, 5));
  EXPECT_THAT(shards[3], ElementsAre(6, 7));
}

TEST(ProcessLocalTest, GatherReadsTheFirstHolderInTheProcess) {
  // Replicated over 4 devices; process 1 reads device 2, not replica 0.
  const Sharding s = Make({""}, TwoProcessMesh(), {2});
  std::vector<uint8_t> own = {7, 9};
  const std::vector<const void*> shards = {nullptr, nullptr, own.data(), nullptr};
  std::vector<uint8_t> back(2);
  CopyOptions options;
  options.process_index = 1;
  ASSERT_THAT(Gather(s, shards, 1, back.data(), 2, options), IsOk());
  EXPECT_THAT(back, ElementsAre(7, 9));
}

TEST(ProcessLocalTest, GatherLeavesRegionsOfOtherProcessesUnwritten) {
  const Sharding s = Make({"x"}, TwoProcessMesh(), {4});
  std::vector<uint8_t> d0 = {1}, d1 = {2};
  const std::vector<const void*> shards = {d0.data(), d1.data(), nullptr, nullptr};
  std::vector<uint8_t> back(4, 0xAA);
  CopyOptions options;
  options.process_index = 0;
  ASSERT_THAT(Gather(s, shards, 1, back.data(), 4, options), IsOk());
  EXPECT_THAT(back, ElementsAre(1, 2, 0xAA, 0xAA));
}

// ---------------------------------------------------------------------------
// Argument errors.

class CopyErrorTest : public ::testing::Test {
 protected:
  const Sharding s_ = Make({"x"}, CpuMesh({4}, {"x"}), {8});
  std::vector<uint8_t> global_ = Iota(32);
  std::vector<std::vector<uint8_t>> shards_ = ShardBuffers(s_, 4);
  std::vector<void*> pointers_ = Pointers(shards_);
};

TEST_F(CopyErrorTest, ElementSizeOutsideOneToSixteen) {
  EXPECT_THAT(Scatter(s_, global_.data(), 0, 0, pointers_),
              StatusIs(kInvalid, HasSubstr("Argument 'element_size' is 0; expected 1 to 16")));
  EXPECT_THAT(Scatter(s_, global_.data(), 136, 17, pointers_),
              StatusIs(kInvalid, HasSubstr("Argument 'element_size' is 17; expected 1 to 16")));
}

TEST_F(CopyErrorTest, GlobalSizeMustMatchTheShape) {
  EXPECT_THAT(Scatter(s_, global_.data(), 31, 4, pointers_),
              StatusIs(kInvalid, HasSubstr("Argument 'global_size' is 31; expected 32 ((8,) "
                                           "elements of 4 bytes)")));
}

TEST_F(CopyErrorTest, NullGlobal) {
  EXPECT_THAT(Scatter(s_, nullptr, 32, 4, pointers_),
              StatusIs(kInvalid, HasSubstr("Argument 'global' is NULL; expected a buffer of 32")));
}

TEST_F(CopyErrorTest, OneBufferPerDevice) {
  pointers_.pop_back();
  EXPECT_THAT(Scatter(s_, global_.data(), 32, 4, pointers_),
              StatusIs(kInvalid, HasSubstr("Argument 'num_shards' is 3; expected 4")));
}

TEST_F(CopyErrorTest, NullShardNamesTheDeviceAndWritesNothing) {
  pointers_[2] = nullptr;
  EXPECT_THAT(Scatter(s_, global_.data(), 32, 4, pointers_),
              StatusIs(kInvalid, HasSubstr("Argument 'shards' entry 2 is NULL; expected the "
                                           "buffer of device 2, which holds a shard of 8 bytes")));
  EXPECT_THAT(shards_[0], ElementsAreArray(std::vector<uint8_t>(8, 0)));
}

TEST_F(CopyErrorTest, NegativeProcessIndex) {
  CopyOptions options;
  options.process_index = -2;
  EXPECT_THAT(Scatter(s_, global_.data(), 32, 4, pointers_, options),
              StatusIs(kInvalid, HasSubstr("Argument 'process_index' is -2")));
}

TEST(CopyOverflowTest, ElementSizeTimesElementsOverflowing) {
  const Sharding s = Make({"x"}, CpuMesh({4}, {"x"}), {int64_t{1} << 61});
  const std::vector<void*> shards(4, nullptr);
  EXPECT_THAT(Scatter(s, nullptr, 0, 8, shards),
              StatusIs(kInvalid, HasSubstr("global_size")));
}

}  // namespace
}  // namespace tessera
