// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Read plans and their execution on Checkpoint models built in the test
// (no file headers): the runs and reads of boxes, block-packed types, and
// the loader's read path through a fake reader that counts, shortens or
// fails reads. The C ABI tests (tests/capi/test_checkpoint_load.c) cover the
// same plans on a real file.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/checkpoint/loader.h"
#include "core/checkpoint/read_plan.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera::checkpoint {
namespace {

using ::tessera::testing::CpuMesh;
using ::tessera::testing::Layout;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

Tensor MakeTensor(std::string name, ElementType type, std::vector<int64_t> shape, uint64_t offset) {
  uint64_t elements = 1;
  for (int64_t d : shape) elements *= static_cast<uint64_t>(d);
  const uint64_t size = elements / static_cast<uint64_t>(type.block_elements) *
                        static_cast<uint64_t>(type.block_bytes);
  return Tensor{std::move(name), std::move(type), std::move(shape), 0, offset, size};
}

const ElementType kF32{"F32", 1, 4};
// GGUF's Q4_0: 32 elements in 18 bytes.
const ElementType kQ4_0{"Q4_0", 32, 18};

Checkpoint OneFile(std::vector<Tensor> tensors, uint64_t file_size) {
  return Checkpoint{"safetensors", {File{"m.safetensors", file_size}}, std::move(tensors), {}};
}

LayoutMap Rules(const MeshPtr& mesh, const std::vector<std::pair<std::string, std::vector<std::string>>>& rules) {
  LayoutMap map(mesh);
  for (const auto& [key, spec] : rules) EXPECT_TRUE(map.Set(key, Layout(spec, mesh)).ok());
  return map;
}

std::vector<std::pair<uint64_t, uint64_t>> Reads(const ReadPlan& plan) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const Read& read : plan.reads) out.emplace_back(read.offset, read.size);
  return out;
}

TEST(ReadPlanTest, QuantizedColumnsOnBlockBoundariesAreOneRunPerRow) {
  // Q4_0 [4, 64]: 2 blocks (36 bytes) a row; 2 column shards of one block each.
  const MeshPtr mesh = CpuMesh({2}, {"model"});
  const ReadPlan plan = Unwrap(MakeReadPlan(OneFile({MakeTensor("q", kQ4_0, {4, 64}, 100)}, 244),
                                            Rules(mesh, {{"q", {"", "model"}}}), {0, 2, ShardMode::kStrict, 0}));
  ASSERT_EQ(plan.pieces.size(), 1u);
  EXPECT_EQ(plan.pieces[0].size, 4u * 18u);
  EXPECT_THAT(Reads(plan), ElementsAre(std::pair<uint64_t, uint64_t>{100, 18}, std::pair<uint64_t, uint64_t>{136, 18},
                                       std::pair<uint64_t, uint64_t>{172, 18}, std::pair<uint64_t, uint64_t>{208, 18}));
}

TEST(ReadPlanTest, QuantizedBoxOffABlockBoundaryIsRefusedNamingTensorDeviceAndBlock) {
  const MeshPtr mesh = CpuMesh({4}, {"model"});
  EXPECT_THAT(MakeReadPlan(OneFile({MakeTensor("q", kQ4_0, {4, 64}, 0)}, 144), Rules(mesh, {{"q", {"", "model"}}}),
                           {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Tensor 'q' of type Q4_0: the shard of device 0 covers [0, 16) of dimension 1 (size 64); "
                       "expected a start and stop on a multiple of 32, the elements per block"));
}

TEST(ReadPlanTest, AMiddleDimensionShardIsOneRunPerOuterIndex) {
  // F32 [2, 4, 3]: device 1 of 2 on dimension 1 holds [:, 2:4, :], 24 bytes
  // at 24 and at 72 (a row of 3 is 12 bytes, a slab of 4 rows 48).
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  const ReadPlan plan = Unwrap(MakeReadPlan(OneFile({MakeTensor("t", kF32, {2, 4, 3}, 0)}, 96),
                                            Rules(mesh, {{"t", {"", "x", ""}}}), {1, 2, ShardMode::kStrict, 0}));
  EXPECT_THAT(Reads(plan), ElementsAre(std::pair<uint64_t, uint64_t>{24, 24}, std::pair<uint64_t, uint64_t>{72, 24}));
  ASSERT_EQ(plan.runs.size(), 2u);
  EXPECT_EQ(plan.runs[1].piece_offset, 24u);
}

TEST(ReadPlanTest, AScalarIsOneRunOfTheWholeTensor) {
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  const ReadPlan plan =
      Unwrap(MakeReadPlan(OneFile({MakeTensor("s", kF32, {}, 8)}, 12), Rules(mesh, {}), {0, 1, ShardMode::kStrict, 0}));
  EXPECT_EQ(plan.pieces.size(), 2u);
  EXPECT_EQ(plan.distinct.size(), 1u);
  EXPECT_THAT(Reads(plan), ElementsAre(std::pair<uint64_t, uint64_t>{8, 4}));
}

TEST(ReadPlanTest, ATensorWhoseSizeDisagreesWithItsShapeIsRefused) {
  Tensor t = MakeTensor("t", kF32, {2, 3}, 0);
  t.size = 20;
  EXPECT_THAT(MakeReadPlan(OneFile({t}, 24), Rules(CpuMesh({2}, {"x"}), {}), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Tensor 't' occupies 20 bytes; expected 24 for shape [2, 3] of F32"));
}

// A reader over bytes in memory that counts what it returns, can end the
// file early (`short_at`) or fail reads past an offset with `error`.
class FakeReader final : public FileReader {
 public:
  explicit FakeReader(std::string bytes) : bytes_(std::move(bytes)) {}
  int Open(const char*) override { return 3; }
  int64_t Size(int) override { return static_cast<int64_t>(bytes_.size()); }
  int64_t Read(int, void* into, uint64_t size, uint64_t offset) override {
    if (error != 0 && offset + size > fail_at) return -error;
    const uint64_t end = std::min<uint64_t>(bytes_.size(), short_at);
    if (offset >= end) return 0;
    const uint64_t n = std::min(size, end - offset);
    std::memcpy(into, bytes_.data() + offset, n);
    absl::MutexLock lock(&mu_);
    offsets.push_back(offset);
    bytes_read += n;
    largest = std::max(largest, n);
    return static_cast<int64_t>(n);
  }
  void Close(int) override {}
  void AdviseNoReadahead(int) override { ++no_readahead; }
  void AdviseWillRead(int, uint64_t offset, uint64_t size) override {
    absl::MutexLock lock(&mu_);
    will_read.emplace_back(offset, size);
  }

  int no_readahead = 0;
  std::vector<std::pair<uint64_t, uint64_t>> will_read;
  uint64_t short_at = UINT64_MAX;
  uint64_t fail_at = 0;
  int error = 0;
  absl::Mutex mu_;
  uint64_t bytes_read = 0;
  uint64_t largest = 0;
  std::vector<uint64_t> offsets;

 private:
  std::string bytes_;
};

std::string Bytes(size_t n) {
  std::string out(n, '\0');
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<char>(i * 31 + 7);
  return out;
}

// F32 [16, 16] at 0, column-sharded over 4, and F32 [16] replicated, on one process of 1.
struct ColumnCase {
  MeshPtr mesh = CpuMesh({4}, {"model"});
  Checkpoint checkpoint = OneFile({MakeTensor("w", kF32, {16, 16}, 0), MakeTensor("b", kF32, {16}, 1024)}, 1088);
  ReadPlan plan = Unwrap(MakeReadPlan(checkpoint, Rules(mesh, {{"w", {"", "model"}}}), {}));
};

TEST(LoaderTest, TheReaderReturnsExactlyThePlanBytesWithManyThreadsAndASmallBudget) {
  ColumnCase c;
  FakeReader reader(Bytes(1088));
  uint64_t bytes_read = 0;
  std::vector<std::vector<char>> buffers;
  std::vector<Destination> destinations;
  for (const Piece& piece : c.plan.pieces) buffers.emplace_back(piece.size);
  for (auto& b : buffers) destinations.push_back({b.data(), b.size()});
  ASSERT_TRUE(LoadIntoBuffers(c.plan, destinations, {8, 40}, nullptr, &bytes_read, reader).ok());
  EXPECT_EQ(c.plan.total_bytes, 1088u);
  EXPECT_EQ(bytes_read, 1088u);
  EXPECT_EQ(reader.bytes_read, 1088u);
  // Column 4..7 of row 1 (device 1's piece 2, bytes 16..31) is file bytes 80..95.
  EXPECT_EQ(std::string(buffers[2].data() + 16, 16), Bytes(1088).substr(80, 16));
}

TEST(LoaderTest, StagedReadsNeverExceedTheBudgetPerThread) {
  ColumnCase c;
  FakeReader reader(Bytes(1088));
  ASSERT_TRUE(
      LoadWithCallback(c.plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {2, 100}, nullptr,
                       nullptr, reader)
          .ok());
  EXPECT_EQ(reader.largest, 50u);
}

TEST(LoaderTest, NeighbouringRowShardsOf64KiBOrMoreAreReadStraightIntoTheirBuffers) {
  // F32 [2, 32768] split by rows over both devices of one process: two runs
  // of 128 KiB that tile one read. Direct reads start at the shard boundary
  // (131072); staged ones would run on from 100000 to 200000.
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  const ReadPlan plan = Unwrap(MakeReadPlan(OneFile({MakeTensor("w", kF32, {2, 32768}, 0)}, 262144),
                                            Rules(mesh, {{"w", {"x", ""}}}), {}));
  ASSERT_EQ(plan.reads.size(), 1u);
  const std::string bytes = Bytes(262144);
  FakeReader reader(bytes);
  std::vector<char> first(131072), second(131072);
  const std::vector<Destination> destinations = {{first.data(), 131072}, {second.data(), 131072}};
  ASSERT_TRUE(LoadIntoBuffers(plan, destinations, {1, 100000}, nullptr, nullptr, reader).ok());
  EXPECT_THAT(reader.offsets, ElementsAre(0u, 100000u, 131072u, 231072u));
  EXPECT_EQ(std::string(second.data(), second.size()), bytes.substr(131072));
}

TEST(LoaderTest, AFileEndingEarlyIsDataLossNamingFileAndOffset) {
  ColumnCase c;
  FakeReader reader(Bytes(1088));
  reader.short_at = 1000;
  EXPECT_THAT(LoadWithCallback(c.plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {1, 4096},
                               nullptr, nullptr, reader),
              StatusIs(absl::StatusCode::kDataLoss,
                       "m.safetensors: byte 1000: the file ended after 1000 of the 1088 bytes asked for; expected "
                       "1088 bytes in the file"));
}

TEST(LoaderTest, AFailedReadCarriesItsErrnoNamingFileAndOffset) {
  ColumnCase c;
  FakeReader reader(Bytes(1088));
  reader.error = EIO;
  reader.fail_at = 0;
  uint64_t bytes_read = 7;
  const absl::Status status = LoadWithCallback(
      c.plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {1, 4096}, nullptr, &bytes_read, reader);
  EXPECT_EQ(status.code(), absl::ErrnoToStatusCode(EIO));
  EXPECT_THAT(status.message(), HasSubstr("m.safetensors: byte 0: pread"));
  EXPECT_EQ(bytes_read, 0u);
}

TEST(LoaderTest, ACallbackThatThrowsEndsTheLoadWithItsMessage) {
  ColumnCase c;
  FakeReader reader(Bytes(1088));
  EXPECT_THAT(LoadWithCallback(
                  c.plan, [](size_t, uint64_t, const void*, uint64_t) -> bool { throw std::runtime_error("boom"); },
                  {2, 64}, nullptr, nullptr, reader),
              StatusIs(absl::StatusCode::kInternal, "The load stopped on an exception: boom"));
}

// F32 [16, 16] column-sharded over 4 devices, process 0 of 2: columns 0..7
// of each row, 32 bytes, then 32 bytes of the other process's.
ReadPlan HalfRows(uint64_t gap) {
  const MeshPtr mesh = CpuMesh({4}, {"model"});
  return Unwrap(MakeReadPlan(OneFile({MakeTensor("w", kF32, {16, 16}, 0)}, 1024),
                             Rules(mesh, {{"w", {"", "model"}}}), {0, 2, ShardMode::kStrict, gap}));
}

// Loads `plan` on `threads` threads, dropping the bytes.
absl::Status Discard(const ReadPlan& plan, size_t threads, FakeReader& reader) {
  return LoadWithCallback(plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {threads, 4096},
                          nullptr, nullptr, reader);
}

TEST(LoaderTest, AFileWhoseReadsLeaveGapsIsAdvisedNotToReadAhead) {
  const ReadPlan plan = HalfRows(0);
  ASSERT_EQ(plan.reads.size(), 16u);
  FakeReader reader(Bytes(1024));
  ASSERT_TRUE(Discard(plan, 1, reader).ok());
  EXPECT_GT(reader.no_readahead, 0);
  EXPECT_EQ(reader.bytes_read, 512u);
}

TEST(LoaderTest, AFileReadWithoutGapsKeepsItsReadahead) {
  const ReadPlan plan = HalfRows(32);
  ASSERT_EQ(plan.reads.size(), 1u);
  FakeReader reader(Bytes(1024));
  ASSERT_TRUE(Discard(plan, 1, reader).ok());
  EXPECT_EQ(reader.no_readahead, 0);
  EXPECT_EQ(reader.bytes_read, 992u);
}

TEST(LoaderTest, TheReadsAheadAnnouncedToTheKernelAreExactlyThePlansReads) {
  const ReadPlan plan = HalfRows(0);
  FakeReader reader(Bytes(1024));
  ASSERT_TRUE(Discard(plan, 2, reader).ok());
  std::sort(reader.will_read.begin(), reader.will_read.end());
  EXPECT_EQ(reader.will_read, Reads(plan));
}

}  // namespace
}  // namespace tessera::checkpoint
