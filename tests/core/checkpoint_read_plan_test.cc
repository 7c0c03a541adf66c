// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Read plans and their execution on Checkpoint models built in the test
// (no file headers): the runs and reads of boxes, block-packed types, and
// the loader's read path through a fake reader that counts, shortens or
// fails reads, with a queue (io_uring's shape) and without (pread); the real
// io_uring reader on a file, and its fallback where the kernel refuses it.
// The C ABI tests (tests/capi/test_checkpoint_load.c) cover the same plans on
// a real file.
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "core/checkpoint/io_uring_reader.h"
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
// file early (`short_at`), fail reads past an offset with `error`, or return
// at most `max_read` bytes a read. With `queued` it has a queue (FakeQueue),
// the shape of the io_uring path; without, the loader falls back to Read.
// With `direct` it has an O_DIRECT handle (kDirectHandle) whose reads must
// be page-aligned (else EINVAL, as the kernel answers), or are all refused
// with EINVAL (`refuse_direct`); `cached` bytes of any range are in the page
// cache.
class FakeReader final : public FileReader {
 public:
  explicit FakeReader(std::string bytes, bool queued = false) : queued(queued), bytes_(std::move(bytes)) {}
  int Open(const char*) override { return 3; }
  int64_t Size(int) override { return static_cast<int64_t>(bytes_.size()); }
  int64_t Read(int, void* into, uint64_t size, uint64_t offset) override {
    if (error != 0 && offset + size > fail_at) return -error;
    const uint64_t end = std::min<uint64_t>(bytes_.size(), short_at);
    if (offset >= end) return 0;
    const uint64_t n = std::min({size, end - offset, max_read});
    std::memcpy(into, bytes_.data() + offset, n);
    absl::MutexLock lock(&mu_);
    offsets.push_back(offset);
    bytes_read += n;
    largest = std::max(largest, n);
    return static_cast<int64_t>(n);
  }
  void Close(int) override {}
  int OpenDirect(const char*) override { return direct ? kDirectHandle : -EINVAL; }
  uint64_t CachedBytes(int, uint64_t, uint64_t) override { return cached; }
  int64_t ReadDirect(int handle, void* into, uint64_t size, uint64_t offset) {
    if (handle != kDirectHandle || refuse_direct || offset % 4096 != 0 || size % 4096 != 0 ||
        reinterpret_cast<uintptr_t>(into) % 4096 != 0) {
      absl::MutexLock lock(&mu_);
      ++direct_refused;
      return -EINVAL;
    }
    const int64_t n = Read(3, into, size, offset);
    absl::MutexLock lock(&mu_);
    direct_reads.emplace_back(offset, static_cast<uint64_t>(n));
    return n;
  }
  void AdviseNoReadahead(int) override { ++no_readahead; }
  void AdviseWillRead(int, uint64_t offset, uint64_t size) override {
    absl::MutexLock lock(&mu_);
    will_read.emplace_back(offset, size);
  }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override;

  static constexpr int kDirectHandle = 4;
  const bool queued;
  bool direct = false;
  bool refuse_direct = false;
  uint64_t cached = 0;
  int direct_refused = 0;
  std::vector<std::pair<uint64_t, uint64_t>> direct_reads;  // (offset, bytes)
  int queues_asked = 0;          // NewQueue calls
  size_t most_in_flight = 0;     // over the queues, each on its own
  size_t unfinished = 0;         // reads started and never waited for
  uint64_t max_read = UINT64_MAX;
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

// Finishes the reads started last first, so they finish out of order.
class FakeQueue final : public ReadQueue {
 public:
  explicit FakeQueue(FakeReader& reader) : reader_(reader) {}
  ~FakeQueue() override {
    absl::MutexLock lock(&reader_.mu_);
    reader_.unfinished += started_.size();
  }
  void Start(int handle, void* into, uint64_t size, uint64_t offset, uint64_t tag, bool direct) override {
    started_.push_back({handle, into, size, offset, tag, direct});
    absl::MutexLock lock(&reader_.mu_);
    reader_.most_in_flight = std::max(reader_.most_in_flight, started_.size());
  }
  int Next(uint64_t* tag, int64_t* result) override {
    if (started_.empty()) return -EINVAL;  // the loader waits only for reads it started
    const Started read = started_.back();
    started_.pop_back();
    *tag = read.tag;
    *result = read.direct ? reader_.ReadDirect(read.handle, read.into, read.size, read.offset)
                          : reader_.Read(read.handle, read.into, read.size, read.offset);
    return 0;
  }

 private:
  struct Started {
    int handle;
    void* into;
    uint64_t size;
    uint64_t offset;
    uint64_t tag;
    bool direct;
  };
  FakeReader& reader_;
  std::vector<Started> started_;
};

std::unique_ptr<ReadQueue> FakeReader::NewQueue(unsigned) {
  absl::MutexLock lock(&mu_);
  ++queues_asked;
  if (!queued) return nullptr;
  return std::make_unique<FakeQueue>(*this);
}

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

// The loader's two paths: a reader with a queue (io_uring's shape) and one
// without (pread on each thread, the fallback).
class LoaderPathTest : public ::testing::TestWithParam<bool> {
 protected:
  bool queued() const { return GetParam(); }
};

INSTANTIATE_TEST_SUITE_P(Paths, LoaderPathTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) { return info.param ? "Queue" : "Pread"; });

// Loads `plan` into fresh buffers, one per piece.
std::vector<std::vector<char>> IntoBuffers(const ReadPlan& plan, const LoadOptions& options, FileReader& reader,
                                           uint64_t* bytes_read, absl::Status* status) {
  std::vector<std::vector<char>> buffers;
  std::vector<Destination> destinations;
  for (const Piece& piece : plan.pieces) buffers.emplace_back(piece.size);
  for (auto& b : buffers) destinations.push_back({b.data(), b.size()});
  *status = LoadIntoBuffers(plan, destinations, options, nullptr, bytes_read, reader);
  return buffers;
}

TEST_P(LoaderPathTest, TheReaderReturnsExactlyThePlanBytesWithManyThreadsAndASmallBudget) {
  ColumnCase c;
  FakeReader reader(Bytes(1088), queued());
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

TEST_P(LoaderPathTest, ShortReadsAreReadOnFromWhereTheyStopped) {
  ColumnCase c;
  FakeReader reader(Bytes(1088), queued());
  reader.max_read = 7;
  uint64_t bytes_read = 0;
  absl::Status status;
  const auto buffers = IntoBuffers(c.plan, {2, 4096}, reader, &bytes_read, &status);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(bytes_read, 1088u);
  EXPECT_EQ(reader.bytes_read, 1088u);
  // Device 3's piece of w (piece 6) is columns 12..15: bytes 48..63 of each row of 64.
  std::string expected;
  for (int row = 0; row < 16; ++row) expected += Bytes(1088).substr(row * 64 + 48, 16);
  EXPECT_EQ(std::string(buffers[6].data(), buffers[6].size()), expected);
}

TEST_P(LoaderPathTest, AFileEndingEarlyIsDataLossNamingFileAndOffset) {
  ColumnCase c;
  FakeReader reader(Bytes(1088), queued());
  reader.short_at = 1000;
  EXPECT_THAT(LoadWithCallback(c.plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {1, 4096},
                               nullptr, nullptr, reader),
              StatusIs(absl::StatusCode::kDataLoss,
                       "m.safetensors: byte 1000: the file ended after 1000 of the 1088 bytes asked for; expected "
                       "1088 bytes in the file"));
}

TEST_P(LoaderPathTest, AFailedReadCarriesItsErrnoNamingFileOffsetAndSystemCall) {
  ColumnCase c;
  FakeReader reader(Bytes(1088), queued());
  reader.error = EIO;
  reader.fail_at = 0;
  uint64_t bytes_read = 7;
  const absl::Status status = LoadWithCallback(
      c.plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {1, 4096}, nullptr, &bytes_read, reader);
  EXPECT_EQ(status.code(), absl::ErrnoToStatusCode(EIO));
  EXPECT_THAT(status.message(), HasSubstr(queued() ? "m.safetensors: byte 0: read (io_uring)"
                                                    : "m.safetensors: byte 0: pread"));
  EXPECT_EQ(bytes_read, 0u);
}

TEST_P(LoaderPathTest, ACallbackThatThrowsEndsTheLoadWithItsMessage) {
  ColumnCase c;
  FakeReader reader(Bytes(1088), queued());
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

TEST_P(LoaderPathTest, AFileWhoseReadsLeaveGapsIsAdvisedNotToReadAhead) {
  const ReadPlan plan = HalfRows(0);
  ASSERT_EQ(plan.reads.size(), 16u);
  FakeReader reader(Bytes(1024), queued());
  ASSERT_TRUE(Discard(plan, 1, reader).ok());
  EXPECT_GT(reader.no_readahead, 0);
  EXPECT_EQ(reader.bytes_read, 512u);
}

TEST_P(LoaderPathTest, AFileReadWithoutGapsKeepsItsReadahead) {
  const ReadPlan plan = HalfRows(32);
  ASSERT_EQ(plan.reads.size(), 1u);
  FakeReader reader(Bytes(1024), queued());
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

TEST(LoaderTest, WithoutAQueueFromTheReaderTheLoadFallsBackToPreadOnEachThread) {
  ColumnCase c;
  FakeReader reader(Bytes(1088));
  uint64_t bytes_read = 0;
  absl::Status status;
  IntoBuffers(c.plan, {2, 4096}, reader, &bytes_read, &status);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(reader.queues_asked, 1);
  EXPECT_EQ(reader.most_in_flight, 0u);
  EXPECT_EQ(reader.bytes_read, 1088u);
}

TEST(LoaderTest, AQueuedThreadSharesItsStagingBudgetAmongItsReadsInFlightOfAPageEach) {
  // One thread, 8 pages of staging: 8 of the 16 reads in flight at a time.
  const ReadPlan plan = HalfRows(0);
  FakeReader reader(Bytes(1024), true);
  ASSERT_TRUE(LoadWithCallback(plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {1, 8 * 4096},
                               nullptr, nullptr, reader)
                  .ok());
  EXPECT_EQ(reader.most_in_flight, 8u);
  EXPECT_EQ(reader.bytes_read, 512u);
}

TEST(LoaderTest, AQueuedThreadWithLessThanTwoPagesOfStagingHasOneReadInFlight) {
  const ReadPlan plan = HalfRows(0);
  FakeReader reader(Bytes(1024), true);
  ASSERT_TRUE(LoadWithCallback(plan, [](size_t, uint64_t, const void*, uint64_t) { return true; }, {1, 8191},
                               nullptr, nullptr, reader)
                  .ok());
  EXPECT_EQ(reader.most_in_flight, 1u);
  EXPECT_EQ(reader.bytes_read, 512u);
}

TEST(LoaderTest, AQueuedThreadDeliversInTheOrderItTookItsReadsThoughTheyFinishOutOfOrder) {
  const ReadPlan plan = HalfRows(0);
  FakeReader reader(Bytes(1024), true);
  std::vector<std::pair<size_t, uint64_t>> parts;
  ASSERT_TRUE(LoadWithCallback(
                  plan,
                  [&](size_t piece, uint64_t offset, const void*, uint64_t) {
                    parts.emplace_back(piece, offset);
                    return true;
                  },
                  {1, 16 * 4096}, nullptr, nullptr, reader)
                  .ok());
  // Each read is a row's 16 bytes of device 0 (piece 0) then of device 1.
  std::vector<std::pair<size_t, uint64_t>> expected;
  for (uint64_t row = 0; row < 16; ++row) {
    expected.emplace_back(0, row * 16);
    expected.emplace_back(1, row * 16);
  }
  EXPECT_EQ(parts, expected);
  EXPECT_EQ(reader.offsets.front(), 15u * 64u);  // the fake finished the last read first
}

TEST(LoaderTest, ACancelledQueuedLoadStillWaitsForEveryReadInFlight) {
  const ReadPlan plan = HalfRows(0);
  FakeReader reader(Bytes(1024), true);
  EXPECT_THAT(LoadWithCallback(plan, [](size_t, uint64_t, const void*, uint64_t) { return false; },
                               {1, 16 * 4096}, nullptr, nullptr, reader),
              StatusIs(absl::StatusCode::kCancelled,
                       "The piece callback cancelled the load at m.safetensors: byte 0"));
  EXPECT_EQ(reader.most_in_flight, 16u);
  EXPECT_EQ(reader.unfinished, 0u);
}

// One F32 tensor of `elements` at byte `offset` of a file ending with it,
// replicated on one device: one read of the whole tensor.
ReadPlan OneRead(uint64_t elements, uint64_t offset) {
  const MeshPtr mesh = CpuMesh({1}, {"x"});
  return Unwrap(MakeReadPlan(
      OneFile({MakeTensor("w", kF32, {static_cast<int64_t>(elements)}, offset)}, offset + elements * 4),
      Rules(mesh, {}), {}));
}

// Loads `plan` on one thread with `staging` bytes, through a callback
// gathering the single piece's bytes.
std::string Gathered(const ReadPlan& plan, uint64_t staging, FakeReader& reader, uint64_t* bytes_read) {
  std::string out(plan.pieces[0].size, '\0');
  const absl::Status status = LoadWithCallback(
      plan,
      [&](size_t, uint64_t offset, const void* bytes, uint64_t n) {
        std::memcpy(out.data() + offset, bytes, n);
        return true;
      },
      {1, staging}, nullptr, bytes_read, reader);
  EXPECT_TRUE(status.ok()) << status;
  return out;
}

// 600,000 F32 at byte 100: the read [100, 2400100), its pages [4096, 2396160).
constexpr uint64_t kLargeElements = 600000;
constexpr uint64_t kLargeOffset = 100;

TEST(LoaderTest, TheAlignedMiddleOfALargeStagedReadIsReadDirectAndItsEndsBuffered) {
  const ReadPlan plan = OneRead(kLargeElements, kLargeOffset);
  const std::string bytes = Bytes(2400100);
  FakeReader reader(bytes, true);
  reader.direct = true;
  uint64_t bytes_read = 0;
  EXPECT_EQ(Gathered(plan, 64 << 20, reader, &bytes_read), bytes.substr(100));
  EXPECT_THAT(reader.direct_reads, ElementsAre(std::make_pair(4096u, 2392064u)));
  EXPECT_EQ(reader.direct_refused, 0);
  EXPECT_EQ(plan.total_bytes, 2400000u);
  EXPECT_EQ(bytes_read, 2400000u);
  EXPECT_EQ(reader.bytes_read, 2400000u);
}

TEST(LoaderTest, DirectReadsAreNotAnnouncedToTheKernelAhead) {
  FakeReader reader(Bytes(2400100), true);
  reader.direct = true;
  uint64_t bytes_read = 0;
  Gathered(OneRead(kLargeElements, kLargeOffset), 64 << 20, reader, &bytes_read);
  std::sort(reader.will_read.begin(), reader.will_read.end());
  EXPECT_THAT(reader.will_read, ElementsAre(std::make_pair(100u, 3996u), std::make_pair(2396160u, 3940u)));
}

TEST(LoaderTest, AReadMostlyInThePageCacheStaysBuffered) {
  FakeReader reader(Bytes(2400100), true);
  reader.direct = true;
  reader.cached = 2392064 / 2 + 1;
  uint64_t bytes_read = 0;
  Gathered(OneRead(kLargeElements, kLargeOffset), 64 << 20, reader, &bytes_read);
  EXPECT_TRUE(reader.direct_reads.empty());
  EXPECT_EQ(bytes_read, 2400000u);
}

TEST(LoaderTest, AThreadWithUnderAMebibyteOfStagingReadsNothingDirect) {
  FakeReader reader(Bytes(2400100), true);
  reader.direct = true;
  uint64_t bytes_read = 0;
  Gathered(OneRead(kLargeElements, kLargeOffset), (1 << 20) - 1, reader, &bytes_read);
  EXPECT_TRUE(reader.direct_reads.empty());
  EXPECT_EQ(bytes_read, 2400000u);
}

TEST(LoaderTest, ADirectReadTheFileSystemRefusesIsReadBufferedWithThePlansBytes) {
  const std::string bytes = Bytes(2400100);
  FakeReader reader(bytes, true);
  reader.direct = true;
  reader.refuse_direct = true;
  uint64_t bytes_read = 0;
  EXPECT_EQ(Gathered(OneRead(kLargeElements, kLargeOffset), 64 << 20, reader, &bytes_read), bytes.substr(100));
  EXPECT_EQ(reader.direct_refused, 1);
  EXPECT_EQ(bytes_read, 2400000u);
  EXPECT_EQ(reader.bytes_read, 2400000u);
}

TEST(LoaderTest, AThreadsDirectReadsInFlightShareItsStagingBudget) {
  // 9 MiB of F32 from byte 0, read in 4, 4 and 1 MiB: with 8 MiB of
  // staging two in flight, with 4 MiB one.
  for (const auto& [staging, most] : {std::make_pair(8u << 20, 2u), std::make_pair(4u << 20, 1u)}) {
    FakeReader reader(Bytes(9 << 20), true);
    reader.direct = true;
    uint64_t bytes_read = 0;
    Gathered(OneRead((9 << 20) / 4, 0), staging, reader, &bytes_read);
    EXPECT_EQ(reader.most_in_flight, most) << staging;
    EXPECT_THAT(reader.direct_reads,
                ::testing::UnorderedElementsAre(std::make_pair(0u, 4u << 20), std::make_pair(4u << 20, 4u << 20),
                                                std::make_pair(8u << 20, 1u << 20)))
        << staging;
    EXPECT_EQ(bytes_read, 9u << 20);
  }
}

// The ColumnCase's bytes in a file of their own, and its plan reading it.
class ColumnFile {
 public:
  ColumnFile() {
    char name[] = "/tmp/tessera_loader_XXXXXX";
    const int fd = mkstemp(name);
    EXPECT_GE(fd, 0);
    path_ = name;
    const std::string bytes = Bytes(1088);
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()), 1088);
    close(fd);
    c_.plan.files[0].path = path_;
  }
  ~ColumnFile() { std::remove(path_.c_str()); }
  const ReadPlan& plan() const { return c_.plan; }

 private:
  ColumnCase c_;
  std::string path_;
};

// Forwards to `inner`, counting the reads that did not go through a queue.
class CountingReader final : public FileReader {
 public:
  explicit CountingReader(FileReader& inner) : inner_(inner) {}
  int Open(const char* path) override { return inner_.Open(path); }
  int64_t Size(int handle) override { return inner_.Size(handle); }
  int64_t Read(int handle, void* into, uint64_t size, uint64_t offset) override {
    reads.fetch_add(1);
    return inner_.Read(handle, into, size, offset);
  }
  void Close(int handle) override { inner_.Close(handle); }
  std::unique_ptr<ReadQueue> NewQueue(unsigned depth) override { return inner_.NewQueue(depth); }
  std::atomic<int> reads{0};

 private:
  FileReader& inner_;
};

TEST(IoUringReaderTest, ReadsAFileThroughItsQueueAloneWithExactlyThePlansBytes) {
  if (IoUringFileReader().NewQueue(1) == nullptr) {
    GTEST_SKIP() << "no io_uring here (built without liburing, or the kernel refuses a ring)";
  }
  ColumnFile file;
  CountingReader reader(IoUringFileReader());
  uint64_t bytes_read = 0;
  absl::Status status;
  const auto buffers = IntoBuffers(file.plan(), {2, 4096}, reader, &bytes_read, &status);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(reader.reads.load(), 0);
  EXPECT_EQ(bytes_read, 1088u);
  // Column 4..7 of row 1 (device 1's piece 2, bytes 16..31) is file bytes 80..95.
  EXPECT_EQ(std::string(buffers[2].data() + 16, 16), Bytes(1088).substr(80, 16));
}

TEST(IoUringReaderTest, TesseraLoadIoPreadInTheEnvironmentChoosesThePreadReader) {
  ASSERT_EQ(setenv("TESSERA_LOAD_IO", "pread", 1), 0);
  EXPECT_EQ(&DefaultFileReader(), &PosixFileReader());
  ASSERT_EQ(unsetenv("TESSERA_LOAD_IO"), 0);
  EXPECT_EQ(&DefaultFileReader(), &IoUringFileReader());
}

TEST(IoUringReaderTest, TesseraLoadIoDirectInTheEnvironmentChoosesDirectReads) {
  ASSERT_EQ(setenv("TESSERA_LOAD_IO", "direct", 1), 0);
  EXPECT_EQ(&DefaultFileReader(), &IoUringDirectFileReader());
  ASSERT_EQ(unsetenv("TESSERA_LOAD_IO"), 0);
}

TEST(IoUringReaderTest, ADirectLoadGivesThePlansBytesAndLeavesTheReadsMiddleOutOfThePageCache) {
  if (IoUringDirectFileReader().NewQueue(1) == nullptr) {
    GTEST_SKIP() << "no io_uring here (built without liburing, or the kernel refuses a ring)";
  }
  char name[] = "/tmp/tessera_direct_XXXXXX";
  const int fd = mkstemp(name);
  ASSERT_GE(fd, 0);
  const std::string bytes = Bytes(kLargeOffset + kLargeElements * 4);
  ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  fsync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ReadPlan plan = OneRead(kLargeElements, kLargeOffset);
  plan.files[0].path = name;
  const int direct = IoUringDirectFileReader().OpenDirect(name);
  std::string got(plan.pieces[0].size, '\0');
  uint64_t bytes_read = 0;
  const absl::Status status = LoadWithCallback(
      plan,
      [&](size_t, uint64_t offset, const void* part, uint64_t n) {
        std::memcpy(got.data() + offset, part, n);
        return true;
      },
      {1, 64 << 20}, nullptr, &bytes_read, IoUringDirectFileReader());
  const uint64_t cached = PosixFileReader().CachedBytes(fd, 4096, 2392064);
  close(fd);
  if (direct >= 0) close(direct);
  std::remove(name);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(got, bytes.substr(kLargeOffset));
  EXPECT_EQ(bytes_read, 2400000u);
  // A file system without O_DIRECT (tmpfs before Linux 6.6) reads buffered.
  if (direct >= 0) {
    EXPECT_EQ(cached, 0u);
  }
}

TEST(IoUringReaderTest, OnlyTheDirectReaderOpensAFileForDirectReads) {
  ColumnFile file;
  const int fd = IoUringFileReader().OpenDirect(file.plan().files[0].path.c_str());
  EXPECT_EQ(fd, -EOPNOTSUPP);
}

// Refuses io_uring_setup with ENOSYS in this process, as a container's
// seccomp profile does (Docker's default since 2023).
bool RefuseIoUring() {
  sock_filter filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program = {static_cast<unsigned short>(sizeof filter / sizeof filter[0]), filter};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) == 0;
}

TEST(IoUringReaderTest, WhereTheKernelRefusesARingTheLoadReadsWithPread) {
  ColumnFile file;
  // In a child process: the filter cannot be lifted again.
  EXPECT_EXIT(
      {
        if (!RefuseIoUring()) std::_Exit(2);
        if (IoUringFileReader().NewQueue(8) != nullptr) std::_Exit(3);
        CountingReader reader(IoUringFileReader());
        uint64_t bytes_read = 0;
        absl::Status status;
        const auto buffers = IntoBuffers(file.plan(), {2, 4096}, reader, &bytes_read, &status);
        const bool right = status.ok() && bytes_read == 1088 && reader.reads.load() > 0 &&
                           std::string(buffers[2].data() + 16, 16) == Bytes(1088).substr(80, 16);
        std::_Exit(right ? 0 : 4);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace tessera::checkpoint
