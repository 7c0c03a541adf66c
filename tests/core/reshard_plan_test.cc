// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The resharding plan (core/reshard_plan.h): exact transfers and the source
// preference on small meshes, and, on random pairs of shardings, a plan that
// applied to host buffers builds every destination shard exactly once; the
// factored plan (ReshardIntervals): exact pieces, chunks and totals, and on
// random pairs pieces whose overlap equals a brute-force element count.
#include "core/reshard_plan.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"
#include "core/scatter_gather.h"
#include "core/shape.h"
#include "core/shard.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera {

void PrintTo(const IndexRange& r, std::ostream* os) { *os << "[" << r.start << ":" << r.stop << "]"; }

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::CpuMesh;
using testing::IsOk;
using testing::Layout;
using testing::StatusIs;
using testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kOutOfRange = absl::StatusCode::kOutOfRange;
constexpr TransferLocality kSameDevice = TransferLocality::kSameDevice;
constexpr TransferLocality kSameProcess = TransferLocality::kSameProcess;
constexpr TransferLocality kCrossProcess = TransferLocality::kCrossProcess;

Sharding Make(const std::vector<std::string>& spec, MeshPtr mesh, std::vector<int64_t> shape,
              ShardMode mode = ShardMode::kChunkFlat) {
  return Unwrap(Sharding::Create(Layout(spec, std::move(mesh)), std::move(shape), mode));
}

// A 1-D mesh "x" over the given devices.
MeshPtr Mesh1d(std::vector<Device> devices) {
  const int64_t n = static_cast<int64_t>(devices.size());
  return Unwrap(DeviceMesh::Create({n}, {"x"}, std::move(devices)));
}

Device Dev(int64_t id, int64_t process, Platform platform = Platform::kCpu) {
  return Device{id, platform, process, 0};
}

// (source, destination, bytes, locality) of transfer i, for compact checks.
struct Row {
  int64_t source, destination, bytes;
  TransferLocality locality;
  friend bool operator==(const Row& a, const Row& b) {
    return a.source == b.source && a.destination == b.destination && a.bytes == b.bytes &&
           a.locality == b.locality;
  }
  friend void PrintTo(const Row& r, std::ostream* os) {
    *os << r.source << "->" << r.destination << " " << r.bytes << "B loc"
        << static_cast<int>(r.locality);
  }
};

std::vector<Row> Rows(const ReshardPlan& plan) {
  std::vector<Row> rows;
  for (const Transfer& t : plan.transfers()) {
    rows.push_back({t.source, t.destination, t.bytes, t.locality});
  }
  return rows;
}

// ---------------------------------------------------------------------------
// Exact plans.

TEST(ReshardPlanTest, SameShardingStaysOnEveryDevice) {
  const Sharding s = Make({"x", "y"}, CpuMesh({2, 2}, {"x", "y"}), {4, 6});
  const ReshardPlan plan = Unwrap(ReshardPlan::Create(s, s, 4));
  EXPECT_THAT(Rows(plan), ElementsAre(Row{0, 0, 24, kSameDevice}, Row{1, 1, 24, kSameDevice},
                                      Row{2, 2, 24, kSameDevice}, Row{3, 3, 24, kSameDevice}));
  EXPECT_EQ(plan.same_device_bytes(), 96);
  EXPECT_EQ(plan.same_process_bytes(), 0);
  EXPECT_EQ(plan.cross_process_bytes(), 0);
}

TEST(ReshardPlanTest, AllGatherTakesEachPieceFromItsHolder) {
  // P('x') -> P(None) on 4 devices: device 1 builds (8,) from four pieces.
  const MeshPtr mesh = CpuMesh({4}, {"x"});
  const ReshardPlan plan =
      Unwrap(ReshardPlan::Create(Make({"x"}, mesh, {8}), Make({""}, mesh, {8}), 2));
  ASSERT_EQ(plan.size(), 16u);
  const std::vector<Row> rows = Rows(plan);
  EXPECT_THAT(std::vector<Row>(rows.begin() + 4, rows.begin() + 8),
              ElementsAre(Row{0, 1, 4, kSameProcess}, Row{1, 1, 4, kSameDevice},
                          Row{2, 1, 4, kSameProcess}, Row{3, 1, 4, kSameProcess}));
  EXPECT_THAT(plan.ranges(4), ElementsAre(IndexRange{0, 2}));
  EXPECT_THAT(plan.ranges(7), ElementsAre(IndexRange{6, 8}));
  EXPECT_EQ(plan.same_device_bytes(), 16);
  EXPECT_EQ(plan.same_process_bytes(), 48);
}

TEST(ReshardPlanTest, UnevenBoundariesCutIntoIntersections) {
  // (7,) flat over 4 -> [0,2) [2,4) [4,6) [6,7); over 3 -> [0,3) [3,6) [6,7).
  const Sharding a = Make({"x"}, CpuMesh({4}, {"x"}), {7});
  const Sharding b = Make({"x"}, CpuMesh({3}, {"x"}), {7});
  const ReshardPlan plan = Unwrap(ReshardPlan::Create(a, b, 1));
  ASSERT_EQ(plan.size(), 5u);
  EXPECT_THAT(Rows(plan), ElementsAre(Row{0, 0, 2, kSameDevice}, Row{1, 0, 1, kSameProcess},
                                      Row{1, 1, 1, kSameDevice}, Row{2, 1, 2, kSameProcess},
                                      Row{3, 2, 1, kSameProcess}));
  EXPECT_THAT(plan.ranges(1), ElementsAre(IndexRange{2, 3}));
  EXPECT_THAT(plan.ranges(2), ElementsAre(IndexRange{3, 4}));
}

// Source: (4,) replicated over cpu:0..3 of processes 0, 0, 1, 1.
class PreferenceTest : public ::testing::Test {
 protected:
  Sharding Source() const {
    return Make({""}, Mesh1d({Dev(0, 0), Dev(1, 0), Dev(2, 1), Dev(3, 1)}), {4});
  }
  std::vector<Row> PlanTo(std::vector<Device> destination) const {
    return Rows(Unwrap(
        ReshardPlan::Create(Source(), Make({""}, Mesh1d(std::move(destination)), {4}), 4)));
  }
};

TEST_F(PreferenceTest, TheSameDeviceFirst) {
  EXPECT_THAT(PlanTo({Dev(3, 1)}), ElementsAre(Row{3, 0, 16, kSameDevice}));
}

TEST_F(PreferenceTest, ThenTheFirstHolderInTheSameProcess) {
  EXPECT_THAT(PlanTo({Dev(7, 1)}), ElementsAre(Row{2, 0, 16, kSameProcess}));
  EXPECT_THAT(PlanTo({Dev(8, 0)}), ElementsAre(Row{0, 0, 16, kSameProcess}));
}

TEST_F(PreferenceTest, ThenTheLowestReplica) {
  EXPECT_THAT(PlanTo({Dev(9, 2)}), ElementsAre(Row{0, 0, 16, kCrossProcess}));
}

TEST_F(PreferenceTest, TheSameIdOnAnotherPlatformIsAnotherDevice) {
  EXPECT_THAT(PlanTo({Dev(3, 1, Platform::kGpu)}), ElementsAre(Row{2, 0, 16, kSameProcess}));
}

TEST_F(PreferenceTest, TotalsSplitByLocality) {
  const ReshardPlan plan = Unwrap(ReshardPlan::Create(
      Source(), Make({""}, Mesh1d({Dev(3, 1), Dev(7, 1), Dev(8, 0), Dev(9, 2)}), {4}), 4));
  EXPECT_EQ(plan.same_device_bytes(), 16);
  EXPECT_EQ(plan.same_process_bytes(), 32);
  EXPECT_EQ(plan.cross_process_bytes(), 16);
}

TEST(ReshardPlanTest, ManyReplicasStillPreferTheFirstInTheProcess) {
  // 32 replicas (past the linear-scan cutoff), 4 devices per process.
  std::vector<Device> devices;
  for (int64_t id = 0; id < 32; ++id) devices.push_back(Dev(id, id / 4));
  const Sharding source = Make({""}, Mesh1d(devices), {2});
  const Sharding destination = Make({""}, Mesh1d({Dev(100, 5), Dev(101, 5), Dev(102, 9)}), {2});
  EXPECT_THAT(Rows(Unwrap(ReshardPlan::Create(source, destination, 1))),
              ElementsAre(Row{20, 0, 2, kSameProcess}, Row{20, 1, 2, kSameProcess},
                          Row{0, 2, 2, kCrossProcess}));
}

TEST(ReshardPlanTest, EmptyTensorNeedsNoTransfers) {
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  const ReshardPlan plan =
      Unwrap(ReshardPlan::Create(Make({"x", ""}, mesh, {0, 3}), Make({"", "x"}, mesh, {0, 3}), 4));
  EXPECT_EQ(plan.size(), 0u);
}

TEST(ReshardPlanTest, ScalarIsOneTransferPerDestination) {
  const auto scalar = [](MeshPtr mesh) {
    return Unwrap(Sharding::Create(Unwrap(TensorLayout::Create({}, std::move(mesh))), {},
                                   ShardMode::kStrict));
  };
  const ReshardPlan plan = Unwrap(
      ReshardPlan::Create(scalar(CpuMesh({2}, {"x"})), scalar(CpuMesh({3}, {"y"})), 8));
  EXPECT_THAT(Rows(plan), ElementsAre(Row{0, 0, 8, kSameDevice}, Row{1, 1, 8, kSameDevice},
                                      Row{0, 2, 8, kSameProcess}));
}

TEST(ReshardPlanTest, GlobalShapesMustAgree) {
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  EXPECT_THAT(ReshardPlan::Create(Make({"x"}, mesh, {4}), Make({"x"}, mesh, {6}), 4),
              StatusIs(kInvalid, HasSubstr("Argument 'destination' has global shape (6,); "
                                           "expected the source's shape (4,)")));
}

TEST(ReshardPlanTest, ElementSizeOutsideOneToSixteen) {
  const Sharding s = Make({"x"}, CpuMesh({2}, {"x"}), {4});
  EXPECT_THAT(ReshardPlan::Create(s, s, 0),
              StatusIs(kInvalid, HasSubstr("Argument 'element_size' is 0; expected 1 to 16")));
}

// ---------------------------------------------------------------------------
// Random pairs: apply the plan on host buffers.

std::vector<std::vector<uint8_t>> Buffers(const Sharding& s, size_t element_size, uint8_t fill) {
  std::vector<std::vector<uint8_t>> buffers;
  for (int64_t i = 0; i < s.num_devices(); ++i) {
    buffers.emplace_back(Unwrap(ShardBytes(s, i, element_size)), fill);
  }
  return buffers;
}

// A mesh of rank 1-3 (sizes 1-4) on cpu devices starting at `first_id`
// (processes of 2 devices), a layout using each axis at most once.
Sharding RandomSharding(std::mt19937& rng, const std::vector<int64_t>& shape, int64_t first_id) {
  const size_t mesh_rank = 1 + rng() % 3;
  std::vector<int64_t> mesh_shape;
  std::vector<std::string> names;
  int64_t count = 1;
  for (size_t j = 0; j < mesh_rank; ++j) {
    mesh_shape.push_back(1 + static_cast<int64_t>(rng() % 4));
    count *= mesh_shape.back();
    names.push_back(std::string(1, static_cast<char>('a' + j)));
  }
  std::vector<Device> devices;
  for (int64_t i = 0; i < count; ++i) devices.push_back(Dev(first_id + i, (first_id + i) / 2));
  const MeshPtr mesh = Unwrap(DeviceMesh::Create(mesh_shape, names, devices));
  std::vector<std::string> spec(shape.size());
  for (const std::string& name : names) {
    const size_t dim = rng() % (shape.size() + 1);
    if (dim < shape.size()) spec[dim] += (spec[dim].empty() ? "" : "+") + name;
  }
  const ShardMode mode = rng() % 2 == 0 ? ShardMode::kChunkFlat : ShardMode::kChunkNested;
  return Make(spec, mesh, shape, mode);
}

bool Contains(absl::Span<const IndexRange> outer, absl::Span<const IndexRange> box) {
  for (size_t d = 0; d < box.size(); ++d) {
    if (box[d].start < outer[d].start || box[d].stop > outer[d].stop) return false;
  }
  return true;
}

// Adds one to the count of every element of `box`; `counts` is laid out as
// the destination shard `region`.
void Count(absl::Span<const IndexRange> box, absl::Span<const IndexRange> region,
           std::vector<uint8_t>& counts) {
  const size_t rank = box.size();
  std::vector<int64_t> index(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (box[d].size() == 0) return;
    index[d] = box[d].start;
  }
  while (true) {
    size_t flat = 0;
    for (size_t d = 0; d < rank; ++d) flat = flat * region[d].size() + (index[d] - region[d].start);
    ++counts[flat];
    size_t d = rank;
    while (d-- > 0) {
      if (++index[d] < box[d].stop) break;
      index[d] = box[d].start;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

TEST(ReshardPlanApplyTest, RandomPlansBuildEveryDestinationElementOnce) {
  std::mt19937 rng(424242);
  const size_t element_sizes[] = {1, 2, 4, 8, 12, 16};
  for (int trial = 0; trial < 300; ++trial) {
    const size_t rank = 1 + rng() % 3;
    std::vector<int64_t> shape;
    for (size_t d = 0; d < rank; ++d) shape.push_back(static_cast<int64_t>(rng() % 10));
    const Sharding a = RandomSharding(rng, shape, 0);
    const Sharding b = RandomSharding(rng, shape, static_cast<int64_t>(rng() % 40));
    const size_t element_size = element_sizes[trial % 6];
    SCOPED_TRACE(absl::StrCat("trial ", trial, " shape ", ShapeToString(shape), " A ",
                              a.mesh().ToString(), " ", absl::StrJoin(a.layout().axes(), ",",
                              [](std::string* out, const AxisGroup& g) {
                                absl::StrAppend(out, "(", absl::StrJoin(g, "+"), ")");
                              }),
                              " B ", b.mesh().ToString()));
    const ReshardPlan plan = Unwrap(ReshardPlan::Create(a, b, element_size));

    std::vector<uint8_t> global(Unwrap(GlobalBytes(a, element_size)));
    for (uint8_t& byte : global) byte = static_cast<uint8_t>(rng());
    auto source = Buffers(a, element_size, 0);
    std::vector<void*> source_pointers;
    for (auto& buffer : source) source_pointers.push_back(buffer.data());
    ASSERT_THAT(Scatter(a, global.data(), global.size(), element_size, source_pointers), IsOk());

    auto target = Buffers(b, element_size, 0xCD);
    auto counts = Buffers(b, 1, 0);
    int64_t totals[3] = {0, 0, 0};
    for (size_t i = 0; i < plan.size(); ++i) {
      const Transfer& t = plan.transfers()[i];
      const std::vector<IndexRange> from = Unwrap(a.DeviceRanges(t.source));
      const std::vector<IndexRange> to = Unwrap(b.DeviceRanges(t.destination));
      ASSERT_TRUE(Contains(from, plan.ranges(i))) << "transfer " << i;
      ASSERT_TRUE(Contains(to, plan.ranges(i))) << "transfer " << i;
      CopyBox(plan.ranges(i), source[static_cast<size_t>(t.source)].data(), from,
              target[static_cast<size_t>(t.destination)].data(), to, element_size);
      Count(plan.ranges(i), to, counts[static_cast<size_t>(t.destination)]);
      totals[static_cast<int>(t.locality)] += t.bytes;
    }
    for (size_t device = 0; device < counts.size(); ++device) {
      for (uint8_t c : counts[device]) ASSERT_EQ(c, 1) << "destination device " << device;
    }
    EXPECT_EQ(totals[0], plan.same_device_bytes());
    EXPECT_EQ(totals[1], plan.same_process_bytes());
    EXPECT_EQ(totals[2], plan.cross_process_bytes());

    std::vector<const void*> target_pointers;
    for (auto& buffer : target) target_pointers.push_back(buffer.data());
    std::vector<uint8_t> back(global.size(), 0xAA);
    CopyOptions verify;
    verify.verify_replicas = true;
    ASSERT_THAT(Gather(b, target_pointers, element_size, back.data(), back.size(), verify),
                IsOk());
    ASSERT_EQ(back, global);
  }
}

// ---------------------------------------------------------------------------
// The factored plan.

// (source, source_shard, box, locality) of one piece, for compact checks.
struct PieceRow {
  int64_t source, source_shard;
  std::vector<IndexRange> box;
  TransferLocality locality;
  friend bool operator==(const PieceRow& a, const PieceRow& b) {
    return a.source == b.source && a.source_shard == b.source_shard && a.box == b.box &&
           a.locality == b.locality;
  }
  friend void PrintTo(const PieceRow& r, std::ostream* os) {
    *os << r.source << " (shard of " << r.source_shard << ") box";
    for (const IndexRange& x : r.box) *os << " [" << x.start << ":" << x.stop << "]";
    *os << " loc" << static_cast<int>(r.locality);
  }
};

std::vector<PieceRow> PiecesOf(const ReshardIntervals& plan, int64_t destination) {
  std::vector<PieceRow> rows;
  EXPECT_THAT(plan.ForEachPiece(destination,
                                [&rows](const ReshardPiece& p) {
                                  rows.push_back({p.source, p.source_shard,
                                                  {p.box.begin(), p.box.end()}, p.locality});
                                }),
              IsOk());
  return rows;
}

// Devices 0..n-1 on cpu with the given processes.
std::vector<Device> Devices(const std::vector<int64_t>& processes) {
  std::vector<Device> devices;
  for (size_t i = 0; i < processes.size(); ++i) {
    devices.push_back(Dev(static_cast<int64_t>(i), processes[i]));
  }
  return devices;
}

TEST(ReshardIntervalsTest, SourceChunksAreTheNonEmptyRangesByStart) {
  // (5,) flat over 4: [0,2) [2,4) [4,5) [5,5).
  const MeshPtr mesh = CpuMesh({4}, {"x"});
  const ReshardIntervals plan = Unwrap(
      ReshardIntervals::Create(Make({"x"}, mesh, {5}), Make({""}, mesh, {5}), 4));
  EXPECT_THAT(plan.source_chunks(0), ElementsAre(IndexRange{0, 2}, IndexRange{2, 4},
                                                 IndexRange{4, 5}));
  EXPECT_EQ(plan.num_pieces(), 12u);
}

TEST(ReshardIntervalsTest, GroupAgainstMeshOrderSortsChunksByStart) {
  // (8,) over ('b', 'a') on (2, 2): device (a, b) holds shard 2b + a.
  const MeshPtr mesh = CpuMesh({2, 2}, {"a", "b"});
  const ReshardIntervals plan = Unwrap(
      ReshardIntervals::Create(Make({"b+a"}, mesh, {8}), Make({""}, mesh, {8}), 1));
  EXPECT_THAT(plan.source_chunks(0), ElementsAre(IndexRange{0, 2}, IndexRange{2, 4},
                                                 IndexRange{4, 6}, IndexRange{6, 8}));
  // Device 0 gathers chunks 0..3 from devices 0, 2, 1, 3.
  EXPECT_THAT(PiecesOf(plan, 0),
              ElementsAre(PieceRow{0, 0, {{0, 2}}, kSameDevice},
                          PieceRow{2, 2, {{2, 4}}, kSameProcess},
                          PieceRow{1, 1, {{4, 6}}, kSameProcess},
                          PieceRow{3, 3, {{6, 8}}, kSameProcess}));
}

TEST(ReshardIntervalsTest, UnevenBoxIsCutByTheSourceRows) {
  // (7, 5): rows flat over 4 ([0,2) [2,4) [4,6) [6,7)) -> (3, 2) mesh y, z:
  // rows [0,3) [3,6) [6,7), columns [0,3) [3,5). Device 1 is (y 0, z 1).
  const Sharding source = Make({"x", ""}, CpuMesh({4}, {"x"}), {7, 5});
  const Sharding destination = Make({"y", "z"}, CpuMesh({3, 2}, {"y", "z"}), {7, 5});
  const ReshardIntervals plan = Unwrap(ReshardIntervals::Create(source, destination, 2));
  EXPECT_EQ(Unwrap(plan.NumPieces(1)), 2u);
  EXPECT_THAT(PiecesOf(plan, 1),
              ElementsAre(PieceRow{0, 0, {{0, 2}, {3, 5}}, kSameProcess},
                          PieceRow{1, 1, {{2, 3}, {3, 5}}, kSameDevice}));
  EXPECT_THAT(PiecesOf(plan, 5), ElementsAre(PieceRow{3, 3, {{6, 7}, {3, 5}}, kSameProcess}));
}

TEST(ReshardIntervalsTest, ReplicatedSourceNamesReplicaZeroAndTakesTheHolderInTheProcess) {
  // (4,) over 'b' on (2, 2) a, b: devices 0 and 2 hold [0,2), 1 and 3 hold
  // [2,4); processes 0, 0, 1, 1. A device of process 1 reads from 2 and 3.
  const Sharding source =
      Make({"b"}, Unwrap(DeviceMesh::Create({2, 2}, {"a", "b"}, Devices({0, 0, 1, 1}))), {4});
  const Sharding destination = Make({""}, Mesh1d({Dev(9, 1)}), {4});
  const ReshardIntervals plan = Unwrap(ReshardIntervals::Create(source, destination, 4));
  EXPECT_THAT(PiecesOf(plan, 0), ElementsAre(PieceRow{2, 0, {{0, 2}}, kSameProcess},
                                             PieceRow{3, 1, {{2, 4}}, kSameProcess}));
}

TEST(ReshardIntervalsTest, EmptyDestinationShardHasNoPieces) {
  // (3,) flat over 4: device 3 holds [3, 3).
  const MeshPtr mesh = CpuMesh({4}, {"x"});
  const ReshardIntervals plan =
      Unwrap(ReshardIntervals::Create(Make({""}, mesh, {3}), Make({"x"}, mesh, {3}), 4));
  EXPECT_EQ(Unwrap(plan.NumPieces(3)), 0u);
  EXPECT_THAT(PiecesOf(plan, 3), IsEmpty());
  EXPECT_EQ(plan.num_pieces(), 3u);
}

TEST(ReshardIntervalsTest, TotalsWhenNoProcessHoldsABoxOfShards) {
  // (4,) over x on 4 devices of processes 0, 1, 0, 1 gathered whole: each
  // device keeps 1 element, reads 1 from its process and 2 from the other.
  const MeshPtr mesh = Unwrap(DeviceMesh::Create({4}, {"x"}, Devices({0, 1, 0, 1})));
  const ReshardIntervals plan =
      Unwrap(ReshardIntervals::Create(Make({"x"}, mesh, {4}), Make({""}, mesh, {4}), 1));
  EXPECT_EQ(plan.same_device_bytes(), 4);
  EXPECT_EQ(plan.same_process_bytes(), 4);
  EXPECT_EQ(plan.cross_process_bytes(), 8);
}

TEST(ReshardIntervalsTest, TotalsWhenReplicasSpreadOverProcesses) {
  // (4,) over 'b' on (2, 2) a, b with processes 0, 1, 1, 0: each shard has a
  // holder in both processes, so gathering whole crosses no process.
  const MeshPtr mesh = Unwrap(DeviceMesh::Create({2, 2}, {"a", "b"}, Devices({0, 1, 1, 0})));
  const ReshardIntervals plan =
      Unwrap(ReshardIntervals::Create(Make({"b"}, mesh, {4}), Make({""}, mesh, {4}), 2));
  EXPECT_EQ(plan.same_device_bytes(), 16);
  EXPECT_EQ(plan.same_process_bytes(), 16);
  EXPECT_EQ(plan.cross_process_bytes(), 0);
}

// (8,) over the 8 devices of a line "x" (device i holds [i, i+1)) to
// (8,) over 'b' of a (2, 4) mesh "a", "b" of the same devices (device i
// needs [2b, 2b+2), b = i % 4); device i in process process(i). With
// `by_columns` the square lists the devices column by column: position
// (a, b) is device 2b + a.
template <typename ProcessOf>
ReshardIntervals LineToSquare(ProcessOf process, bool by_columns = false) {
  std::vector<Device> devices, listed;
  for (int64_t i = 0; i < 8; ++i) devices.push_back(Dev(i, process(i)));
  for (int64_t t = 0; t < 8; ++t) {
    listed.push_back(devices[static_cast<size_t>(by_columns ? t % 4 * 2 + t / 4 : t)]);
  }
  const MeshPtr line = Mesh1d(devices);
  const MeshPtr square = Unwrap(DeviceMesh::Create({2, 4}, {"a", "b"}, listed));
  return Unwrap(
      ReshardIntervals::Create(Make({"x"}, line, {8}), Make({"b"}, square, {8}), 1));
}

TEST(ReshardIntervalsTest, TotalsWhenProcessesHoldEveryOtherDevice) {
  // Processes i % 2: devices 0 and 7 keep 1 element; every device finds 1
  // of its 2 elements in its process (2b and 2b+1 are in different ones).
  const ReshardIntervals plan = LineToSquare([](int64_t i) { return i % 2; });
  EXPECT_EQ(plan.same_device_bytes(), 2);
  EXPECT_EQ(plan.same_process_bytes(), 6);
  EXPECT_EQ(plan.cross_process_bytes(), 8);
}

TEST(ReshardIntervalsTest, TotalsWhenProcessesHoldBlocksOfDevices) {
  // Processes i / 2: only devices 0 and 7 (process b) find their 2 elements
  // in their process, 1 of them on the device itself.
  const ReshardIntervals plan = LineToSquare([](int64_t i) { return i / 2; });
  EXPECT_EQ(plan.same_device_bytes(), 2);
  EXPECT_EQ(plan.same_process_bytes(), 2);
  EXPECT_EQ(plan.cross_process_bytes(), 12);
}

TEST(ReshardIntervalsTest, TotalsWhenProcessesFollowNoPattern) {
  // Processes 0, 0, 0, 1, 1, 1, 1, 1: devices 0, 3, 6 and 7 find both their
  // elements in their process, devices 1 and 5 one of them.
  const ReshardIntervals plan = LineToSquare([](int64_t i) { return i < 3 ? 0 : 1; });
  EXPECT_EQ(plan.same_device_bytes(), 2);
  EXPECT_EQ(plan.same_process_bytes(), 8);
  EXPECT_EQ(plan.cross_process_bytes(), 6);
}

// By columns, device 2b + a holds [2b + a, 2b + a + 1) inside the
// [2b, 2b + 2) it needs, so every device keeps 1 of its 2 elements (2 of 8
// in mesh order). The totals come from the spans of the reordering.
TEST(ReshardIntervalsTest, TotalsWhenTheDestinationListsTheDevicesColumnByColumn) {
  // Processes i / 2: device 2b + a finds the other element on device
  // 2b + 1 - a, in its process b.
  const ReshardIntervals plan = LineToSquare([](int64_t i) { return i / 2; }, true);
  EXPECT_EQ(plan.same_device_bytes(), 8);
  EXPECT_EQ(plan.same_process_bytes(), 8);
  EXPECT_EQ(plan.cross_process_bytes(), 0);
}

TEST(ReshardIntervalsTest, TotalsWhenColumnsMeetProcessesOfEveryOtherDevice) {
  // Processes i % 2: device 2b + a's other element is on a device of the
  // other process.
  const ReshardIntervals plan = LineToSquare([](int64_t i) { return i % 2; }, true);
  EXPECT_EQ(plan.same_device_bytes(), 8);
  EXPECT_EQ(plan.same_process_bytes(), 0);
  EXPECT_EQ(plan.cross_process_bytes(), 8);
}

TEST(ReshardIntervalsTest, FirstQueriesFromSeveralThreadsSeeOnePlan) {
  // The per-device index is built by whichever query comes first; threads
  // asking at once must each see the whole plan.
  const MeshPtr mesh =
      Unwrap(DeviceMesh::Create({2, 4}, {"a", "b"}, Devices({0, 0, 1, 1, 2, 2, 3, 3})));
  const Sharding a = Make({"a", "b"}, mesh, {6, 8});
  const Sharding b = Make({"b", ""}, mesh, {6, 8});
  const ReshardPlan listed = Unwrap(ReshardPlan::Create(a, b, 4));
  const ReshardIntervals plan = Unwrap(ReshardIntervals::Create(a, b, 4));
  std::vector<std::vector<Row>> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&plan, &seen, t] {
      for (size_t i = 0; i < plan.num_pieces(); ++i) {
        ReshardPiece piece;
        if (!plan.Piece(i, piece).ok()) return;
        seen[t].push_back({piece.source, piece.destination, piece.bytes, piece.locality});
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const std::vector<Row>& rows : seen) EXPECT_EQ(rows, Rows(listed));
}

TEST(ReshardIntervalsTest, PieceIsTheListedPlansTransfer) {
  const MeshPtr mesh = CpuMesh({2, 2}, {"x", "y"});
  const Sharding a = Make({"x", "y"}, mesh, {5, 3});
  const Sharding b = Make({"y", ""}, mesh, {5, 3});
  const ReshardIntervals intervals = Unwrap(ReshardIntervals::Create(a, b, 4));
  const ReshardPlan plan = Unwrap(ReshardPlan::Create(a, b, 4));
  ASSERT_EQ(intervals.num_pieces(), plan.size());
  for (size_t i = 0; i < plan.size(); ++i) {
    ReshardPiece piece;
    ASSERT_THAT(intervals.Piece(i, piece), IsOk());
    EXPECT_EQ((Row{piece.source, piece.destination, piece.bytes, piece.locality}),
              Rows(plan)[i]);
    EXPECT_THAT(std::vector<IndexRange>(piece.box.begin(), piece.box.end()),
                ::testing::ElementsAreArray(plan.ranges(i)));
  }
}

TEST(ReshardIntervalsTest, DestinationOutsideTheMeshIsOutOfRange) {
  const MeshPtr mesh = CpuMesh({4}, {"x"});
  const ReshardIntervals plan =
      Unwrap(ReshardIntervals::Create(Make({"x"}, mesh, {4}), Make({""}, mesh, {4}), 4));
  EXPECT_THAT(plan.NumPieces(4),
              StatusIs(kOutOfRange, HasSubstr("Argument 'destination' is 4; expected 0 to 3")));
  EXPECT_THAT(plan.ForEachPiece(-1, [](const ReshardPiece&) {}),
              StatusIs(kOutOfRange, HasSubstr("Argument 'destination' is -1; expected 0 to 3")));
}

TEST(ReshardIntervalsTest, PieceIndexPastTheLastIsOutOfRange) {
  const MeshPtr mesh = CpuMesh({4}, {"x"});
  const ReshardIntervals plan =
      Unwrap(ReshardIntervals::Create(Make({"x"}, mesh, {4}), Make({""}, mesh, {4}), 4));
  ReshardPiece piece;
  EXPECT_THAT(plan.Piece(16, piece),
              StatusIs(kOutOfRange,
                       HasSubstr("Argument 'index' is 16; expected below the number of "
                                 "pieces, 16")));
}

TEST(ReshardIntervalsTest, CreateRejectsWhatReshardPlanRejects) {
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  EXPECT_THAT(ReshardIntervals::Create(Make({"x"}, mesh, {4}), Make({"x"}, mesh, {6}), 4),
              StatusIs(kInvalid, HasSubstr("Argument 'destination' has global shape (6,); "
                                           "expected the source's shape (4,)")));
  EXPECT_THAT(ReshardIntervals::Create(Make({"x"}, mesh, {4}), Make({"x"}, mesh, {4}), 17),
              StatusIs(kInvalid, HasSubstr("Argument 'element_size' is 17; expected 1 to 16")));
}

TEST(ReshardIntervalsTest, BytesPastInt64AreRefused) {
  // 2^62 one-byte elements replicated on 2 devices: each keeps its copy,
  // 2^63 bytes in all, one past int64.
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  const int64_t n = int64_t{1} << 62;
  EXPECT_THAT(ReshardIntervals::Create(Make({""}, mesh, {n}), Make({""}, mesh, {n}), 1),
              StatusIs(kInvalid, HasSubstr("the plan moves more than 9223372036854775807 bytes")));
}

// On a mesh of `mesh_shape` over `devices` with axes `names`: a layout using
// each axis at most once, groups in random order, any mode. Strict refuses
// what it cannot divide (the caller draws again).
absl::StatusOr<Sharding> RandomLayoutOn(std::mt19937& rng, const std::vector<int64_t>& shape,
                                        const std::vector<int64_t>& mesh_shape, std::vector<std::string> names,
                                        const std::vector<Device>& devices) {
  const MeshPtr mesh = Unwrap(DeviceMesh::Create(mesh_shape, names, devices));
  std::shuffle(names.begin(), names.end(), rng);
  std::vector<std::string> spec(shape.size());
  for (const std::string& name : names) {
    const size_t dim = rng() % (shape.size() + 1);
    if (dim < shape.size()) spec[dim] += (spec[dim].empty() ? "" : "+") + name;
  }
  const ShardMode mode = static_cast<ShardMode>(rng() % 3);
  return Sharding::Create(Layout(spec, mesh), shape, mode);
}

// A mesh of rank 1-3 (sizes 1-4) on cpu devices from `first_id`, processes
// of 1-3 devices in blocks or strided; a layout using each axis at most once,
// groups in random order; any mode (strict only where it divides).
Sharding RandomGroupedSharding(std::mt19937& rng, const std::vector<int64_t>& shape,
                               int64_t first_id) {
  while (true) {
    const size_t mesh_rank = 1 + rng() % 3;
    std::vector<int64_t> mesh_shape;
    std::vector<std::string> names;
    int64_t count = 1;
    for (size_t j = 0; j < mesh_rank; ++j) {
      mesh_shape.push_back(1 + static_cast<int64_t>(rng() % 4));
      count *= mesh_shape.back();
      names.push_back(std::string(1, static_cast<char>('a' + j)));
    }
    const int64_t per_process = 1 + static_cast<int64_t>(rng() % 3);
    const bool strided = rng() % 2 == 0;
    std::vector<Device> devices;
    for (int64_t i = 0; i < count; ++i) {
      devices.push_back(Dev(first_id + i, strided ? i % per_process : (first_id + i) / per_process));
    }
    absl::StatusOr<Sharding> s = RandomLayoutOn(rng, shape, mesh_shape, std::move(names), devices);
    if (s.ok()) return *std::move(s);  // strict refuses what it cannot divide; draw again
  }
}

// Elements of `shape` (row-major) inside both boxes, counted one by one.
int64_t BruteForceOverlap(const std::vector<int64_t>& shape, absl::Span<const IndexRange> a,
                          absl::Span<const IndexRange> b) {
  int64_t total = 1;
  for (int64_t n : shape) total *= n;
  int64_t count = 0;
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t rest = flat;
    bool inside = true;
    for (size_t d = shape.size(); d-- > 0;) {
      const int64_t i = rest % shape[d];
      rest /= shape[d];
      inside = inside && i >= a[d].start && i < a[d].stop && i >= b[d].start && i < b[d].stop;
    }
    count += inside ? 1 : 0;
  }
  return count;
}

TEST(ReshardIntervalsTest, RandomPiecesAreTheBruteForceOverlapOfEachSourceShard) {
  std::mt19937 rng(131313);
  int64_t pieces_checked = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    const size_t rank = rng() % 4;
    std::vector<int64_t> shape;
    for (size_t d = 0; d < rank; ++d) shape.push_back(static_cast<int64_t>(rng() % 9));
    const Sharding a = RandomGroupedSharding(rng, shape, 0);
    const Sharding b = RandomGroupedSharding(rng, shape, static_cast<int64_t>(rng() % 20));
    SCOPED_TRACE(absl::StrCat("trial ", trial, " shape ", ShapeToString(shape), " A ",
                              a.mesh().ToString(), " B ", b.mesh().ToString()));
    const ReshardIntervals plan = Unwrap(ReshardIntervals::Create(a, b, 2));
    const std::vector<DistinctShard> shards = a.DistinctShards();
    int64_t totals[3] = {0, 0, 0};
    size_t index = 0;
    for (int64_t device = 0; device < b.num_devices(); ++device) {
      const std::vector<IndexRange> to = Unwrap(b.DeviceRanges(device));
      std::vector<uint8_t> counts(static_cast<size_t>(Unwrap(ShardBytes(b, device, 1))), 0);
      // The overlap with each distinct source shard, by its replica 0.
      std::vector<std::pair<int64_t, int64_t>> overlap;  // (replica 0, elements)
      size_t listed = 0;
      ASSERT_THAT(plan.ForEachPiece(device, [&](const ReshardPiece& p) {
        ASSERT_EQ(p.destination, device);
        const std::vector<IndexRange> from = Unwrap(a.DeviceRanges(p.source));
        ASSERT_THAT(from, ::testing::ElementsAreArray(p.source_ranges)) << "the source holds it";
        ASSERT_THAT(Unwrap(a.DeviceRanges(p.source_shard)),
                    ::testing::ElementsAreArray(p.source_ranges));
        ASSERT_EQ(Unwrap(a.ReplicaId(p.source_shard)), 0);
        ASSERT_TRUE(Contains(from, p.box));
        ASSERT_TRUE(Contains(to, p.box));
        int64_t elements = 1;
        for (size_t d = 0; d < rank; ++d) {
          ASSERT_EQ(plan.source_chunks(d)[static_cast<size_t>(p.source_chunk[d])],
                    p.source_ranges[d]);
          elements *= p.box[d].size();
        }
        ASSERT_EQ(p.bytes, elements * 2);
        Count(p.box, to, counts);
        overlap.emplace_back(p.source_shard, elements);
        totals[static_cast<int>(p.locality)] += p.bytes;
        ReshardPiece same;
        ASSERT_THAT(plan.Piece(index++, same), IsOk());
        ASSERT_EQ(same.source, p.source);
        ASSERT_THAT(same.box, ::testing::ElementsAreArray(p.box));
        ++listed;
      }), IsOk());
      ASSERT_EQ(Unwrap(plan.NumPieces(device)), listed);
      for (uint8_t c : counts) ASSERT_EQ(c, 1) << "destination device " << device;
      for (const DistinctShard& shard : shards) {
        int64_t expected = BruteForceOverlap(shape, shard.ranges, to);
        bool empty = false;
        for (const IndexRange& r : shard.ranges) empty = empty || r.size() == 0;
        if (empty) continue;
        int64_t planned = 0;
        for (const auto& [replica0, elements] : overlap) {
          if (replica0 == shard.devices.front()) planned += elements;
        }
        ASSERT_EQ(planned, expected) << "destination " << device << " source shard of "
                                     << shard.devices.front();
      }
      pieces_checked += static_cast<int64_t>(listed);
    }
    ASSERT_EQ(index, plan.num_pieces());
    EXPECT_EQ(totals[0], plan.same_device_bytes());
    EXPECT_EQ(totals[1], plan.same_process_bytes());
    EXPECT_EQ(totals[2], plan.cross_process_bytes());
  }
  EXPECT_GT(pieces_checked, 5000);  // the draw reaches many pieces
}

// A random mesh of rank 1-3 over `devices` (its shape a factorization of
// their count), a layout as RandomGroupedSharding's.
Sharding RandomShardingOver(std::mt19937& rng, const std::vector<int64_t>& shape,
                            const std::vector<Device>& devices) {
  while (true) {
    int64_t rest = static_cast<int64_t>(devices.size());
    std::vector<int64_t> mesh_shape;
    std::vector<std::string> names;
    const size_t mesh_rank = 1 + rng() % 3;
    for (size_t j = 0; j + 1 < mesh_rank; ++j) {
      std::vector<int64_t> divisors;
      for (int64_t k = 1; k <= rest; ++k) {
        if (rest % k == 0) divisors.push_back(k);
      }
      mesh_shape.push_back(divisors[rng() % divisors.size()]);
      rest /= mesh_shape.back();
    }
    mesh_shape.push_back(rest);
    for (size_t j = 0; j < mesh_shape.size(); ++j) {
      names.push_back(std::string(1, static_cast<char>('a' + j)));
    }
    absl::StatusOr<Sharding> s = RandomLayoutOn(rng, shape, mesh_shape, std::move(names), devices);
    if (s.ok()) return *std::move(s);  // strict refuses what it cannot divide; draw again
  }
}

// The plan's totals against its pieces' bytes by locality, and its piece
// count against the pieces listed.
void ExpectTotalsOfThePieces(const ReshardIntervals& plan, const Sharding& destination) {
  int64_t totals[3] = {0, 0, 0};
  size_t pieces = 0;
  for (int64_t device = 0; device < destination.num_devices(); ++device) {
    ASSERT_THAT(plan.ForEachPiece(device, [&](const ReshardPiece& p) {
      totals[static_cast<int>(p.locality)] += p.bytes;
      ++pieces;
    }), IsOk());
  }
  ASSERT_EQ(pieces, plan.num_pieces());
  ASSERT_EQ(totals[0], plan.same_device_bytes());
  ASSERT_EQ(totals[1], plan.same_process_bytes());
  ASSERT_EQ(totals[2], plan.cross_process_bytes());
}

// A shape of `rank` sizes 0-8.
std::vector<int64_t> RandomShape(std::mt19937& rng, size_t rank) {
  std::vector<int64_t> shape;
  for (size_t d = 0; d < rank; ++d) shape.push_back(static_cast<int64_t>(rng() % 9));
  return shape;
}

// n devices from id 7 in processes of `per_process` as blocks (pattern 0),
// strided (1), or of uneven sizes (2).
std::vector<Device> DevicesInProcesses(int64_t n, int64_t per_process, int pattern) {
  std::vector<Device> devices;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t process = pattern == 0   ? i / per_process
                            : pattern == 1 ? i % per_process
                                           : (i * i) / (n + 1);
    devices.push_back(Dev(7 + i, process));
  }
  return devices;
}

// Both meshes list the same devices: the totals are summed per digit of the
// device index when processes are blocks or strided (periodic), by a walk
// over the devices otherwise (here: processes of uneven size); both must
// equal the pieces' bytes by locality, and the piece count the pieces listed.
TEST(ReshardIntervalsTest, RandomPairsOnOneDeviceListTotalThePiecesByLocality) {
  std::mt19937 rng(272727);
  const int64_t counts[] = {1, 2, 4, 6, 8, 12, 16, 24};
  int patterns[3] = {0, 0, 0};
  for (int trial = 0; trial < 600; ++trial) {
    const int64_t n = counts[rng() % 8];
    const int64_t per_process = 1 + static_cast<int64_t>(rng() % 4);
    const int pattern = static_cast<int>(rng() % 3);  // blocks, strided, uneven
    ++patterns[pattern];
    const std::vector<Device> devices = DevicesInProcesses(n, per_process, pattern);
    const std::vector<int64_t> shape = RandomShape(rng, rng() % 4);
    const Sharding a = RandomShardingOver(rng, shape, devices);
    const Sharding b = RandomShardingOver(rng, shape, devices);
    SCOPED_TRACE(absl::StrCat("trial ", trial, " shape ", ShapeToString(shape), " A ",
                              a.mesh().ToString(), " B ", b.mesh().ToString(), " pattern ",
                              pattern, " per process ", per_process));
    const ReshardIntervals plan = Unwrap(ReshardIntervals::Create(a, b, 3));
    ExpectTotalsOfThePieces(plan, b);
  }
  EXPECT_GT(patterns[0], 150);
  EXPECT_GT(patterns[1], 150);
  EXPECT_GT(patterns[2], 150);
}

// The destination lists the same devices in another order: mostly a
// reordering of mixed-radix digits of the index (a transpose of some
// factorization: the totals are summed over the spans' digits), sometimes a
// shuffle (no digits: the walk); the totals as above.
TEST(ReshardIntervalsTest, RandomPairsOnReorderedDeviceListsTotalThePiecesByLocality) {
  std::mt19937 rng(383838);
  const int64_t counts[] = {4, 6, 8, 12, 16, 24, 36};
  int reorderings[2] = {0, 0};
  for (int trial = 0; trial < 600; ++trial) {
    const int64_t n = counts[rng() % 7];
    const int64_t per_process = 1 + static_cast<int64_t>(rng() % 4);
    const int pattern = static_cast<int>(rng() % 3);
    const std::vector<Device> devices = DevicesInProcesses(n, per_process, pattern);
    // Digits of the source index, fastest first, and their order in the
    // destination's.
    std::vector<int64_t> sizes;
    for (int64_t rest = n; rest > 1;) {
      int64_t size = 2 + static_cast<int64_t>(rng() % 3);
      while (rest % size != 0) --size;
      if (size == 1) size = rest;
      sizes.push_back(size);
      rest /= size;
    }
    std::vector<size_t> order(sizes.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::shuffle(order.begin(), order.end(), rng);
    const bool shuffled = rng() % 4 == 0;
    ++reorderings[shuffled ? 1 : 0];
    std::vector<Device> listed(static_cast<size_t>(n));
    if (shuffled) {
      listed = devices;
      std::shuffle(listed.begin(), listed.end(), rng);
    } else {
      for (int64_t s = 0; s < n; ++s) {
        // Source digits of s, then the destination index with them in `order`.
        std::vector<int64_t> digit(sizes.size());
        int64_t rest = s;
        for (size_t k = 0; k < sizes.size(); ++k) {
          digit[k] = rest % sizes[k];
          rest /= sizes[k];
        }
        int64_t t = 0, weight = 1;
        for (size_t k : order) {
          t += digit[k] * weight;
          weight *= sizes[k];
        }
        listed[static_cast<size_t>(t)] = devices[static_cast<size_t>(s)];
      }
    }
    const std::vector<int64_t> shape = RandomShape(rng, 1 + rng() % 3);
    const Sharding a = RandomShardingOver(rng, shape, devices);
    const Sharding b = RandomShardingOver(rng, shape, listed);
    SCOPED_TRACE(absl::StrCat("trial ", trial, " shape ", ShapeToString(shape), " A ",
                              a.mesh().ToString(), " B ", b.mesh().ToString(), " pattern ",
                              pattern, " per process ", per_process, " digits ",
                              absl::StrJoin(sizes, ","), " order ", absl::StrJoin(order, ",")));
    const ReshardIntervals plan = Unwrap(ReshardIntervals::Create(a, b, 3));
    ExpectTotalsOfThePieces(plan, b);
  }
  EXPECT_GT(reorderings[0], 350);
  EXPECT_GT(reorderings[1], 100);
}

}  // namespace
}  // namespace tessera
