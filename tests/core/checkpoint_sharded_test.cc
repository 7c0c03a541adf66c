// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Sharded checkpoints (docs/checkpoint-index.md): which process stores
// which piece, the process files and the index a save writes, the index
// reader's checks of untrusted text, and generations of re-saves.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/sharded/files.h"
#include "core/checkpoint/sharded/index.h"
#include "core/checkpoint/sharded/restore_plan.h"
#include "core/checkpoint/sharded/writer.h"
#include "core/formats/tessera_proto.h"
#include "core/layout_map.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/sharded_testing.h"
#include "tests/core/testing.h"

namespace tessera::checkpoint::sharded {
namespace {

using ::tessera::checkpoint::sharded::testing::BoxBytes;
using ::tessera::checkpoint::sharded::testing::FillFrom;
using ::tessera::checkpoint::sharded::testing::FreshDirectory;
using ::tessera::checkpoint::sharded::testing::ListDirectory;
using ::tessera::checkpoint::sharded::testing::PiecesHoldData;
using ::tessera::checkpoint::sharded::testing::ReadBytes;
using ::tessera::checkpoint::sharded::testing::SaveAll;
using ::tessera::checkpoint::sharded::testing::U8Tensor;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::tessera::testing::CpuMesh;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kPrecondition = absl::StatusCode::kFailedPrecondition;
constexpr absl::StatusCode kDataLoss = absl::StatusCode::kDataLoss;

MeshPtr Mesh2x2() { return CpuMesh({2, 2}, {"x", "y"}); }

std::vector<IndexRange> Box(std::vector<IndexRange> ranges) { return ranges; }

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string ReadText(const std::string& path) { return Unwrap(ReadWholeFile(path, 1 << 30)); }

// ---- Piece names

TEST(PieceNameTest, JoinsNameAndRanges) {
  EXPECT_EQ(PieceName("w", Box({{0, 2}, {4, 8}})), "w@0:2,4:8");
}

TEST(PieceNameTest, RankZeroTensorHasNothingAfterTheAt) { EXPECT_EQ(PieceName("step", {}), "step@"); }

TEST(PieceNameTest, ParseSplitsAtTheLastAt) {
  const ParsedPieceName parsed = Unwrap(ParsePieceName("a@b@1:3"));
  EXPECT_EQ(parsed.name, "a@b");
  EXPECT_THAT(parsed.ranges, ElementsAre(IndexRange{1, 3}));
}

TEST(PieceNameTest, ParseRefusesAReversedRange) {
  EXPECT_THAT(ParsePieceName("w@3:1"), StatusIs(kInvalid, "Piece name \"w@3:1\" has the range \"3:1\"; "
                                                          "expected NAME@START:STOP,..."));
}

// ---- Which process stores what

TEST(ProcessPiecesTest, EachRowShardIsStoredByTheProcessOfItsFirstHolder) {
  // Rows split over x; y replicates: shard [0:2] on devices 0, 1; [2:4] on 2, 3.
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4, 6}, {"x", ""}, Mesh2x2())};
  const std::vector<SavePiece> p0 = Unwrap(ProcessPieces(tensors, 0, 2));
  const std::vector<SavePiece> p1 = Unwrap(ProcessPieces(tensors, 1, 2));
  ASSERT_EQ(p0.size(), 1u);
  EXPECT_EQ(p0[0].device, 0);
  EXPECT_EQ(p0[0].ranges, Box({{0, 2}, {0, 6}}));
  EXPECT_EQ(p0[0].size, 12u);
  ASSERT_EQ(p1.size(), 1u);
  EXPECT_EQ(p1[0].device, 2);
  EXPECT_EQ(p1[0].ranges, Box({{2, 4}, {0, 6}}));
}

TEST(ProcessPiecesTest, AReplicatedTensorIsStoredOnceByProcessZero) {
  const std::vector<SaveTensor> tensors = {U8Tensor("b", {6}, {""}, Mesh2x2())};
  EXPECT_EQ(Unwrap(ProcessPieces(tensors, 0, 4)).size(), 1u);
  EXPECT_TRUE(Unwrap(ProcessPieces(tensors, 1, 4)).empty());
  EXPECT_TRUE(Unwrap(ProcessPieces(tensors, 3, 4)).empty());
}

TEST(ProcessPiecesTest, ColumnShardsOfOneProcessComeSortedByRanges) {
  // Columns split over y: process 0 (devices 0, 1) holds both column shards.
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {2, 4}, {"", "y"}, Mesh2x2())};
  const std::vector<SavePiece> pieces = Unwrap(ProcessPieces(tensors, 0, 2));
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].ranges, Box({{0, 2}, {0, 2}}));
  EXPECT_EQ(pieces[1].ranges, Box({{0, 2}, {2, 4}}));
  EXPECT_EQ(pieces[1].device, 1);
  EXPECT_TRUE(Unwrap(ProcessPieces(tensors, 1, 2)).empty());
}

TEST(ProcessPiecesTest, EmptyChunkShardsAreNotStored) {
  // 3 rows over 4 shards in chunk-flat: [0:1], [1:2], [2:3], [3:3].
  const std::vector<SaveTensor> tensors = {
      U8Tensor("w", {3}, {"x+y"}, Mesh2x2(), ShardMode::kChunkFlat)};
  EXPECT_EQ(Unwrap(ProcessPieces(tensors, 0, 1)).size(), 3u);
}

TEST(ProcessPiecesTest, RefusesAProcessCountThatDoesNotDivideTheDevices) {
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  EXPECT_THAT(ProcessPieces(tensors, 0, 3),
              StatusIs(kInvalid, "Argument 'num_processes' is 3; expected a divisor of 4, the devices of the "
                                 "mesh of tensor \"w\""));
}

// F4 packs 2 elements in a byte; a sub-byte tensor is saved as the loader
// reads it, each shard whole bytes.
SaveTensor AsType(SaveTensor tensor, const std::string& dtype) {
  tensor.type = Unwrap(SafetensorsElementType(dtype));
  return tensor;
}

TEST(CheckSaveTensorTest, AcceptsASubByteTensorWhoseShardsAreWholeBytes) {
  EXPECT_TRUE(CheckSaveTensor(AsType(U8Tensor("w", {4}, {"x"}, Mesh2x2()), "F4")).ok());
}

TEST(CheckSaveTensorTest, RefusesASubByteShardThatSplitsAByteInTheLoadersWords) {
  EXPECT_THAT(CheckSaveTensor(AsType(U8Tensor("w", {6}, {"x"}, Mesh2x2()), "F4")),
              StatusIs(kInvalid, "Tensor 'w' of type F4: the shard of device 0 covers [0, 3) of dimension 0 "
                                 "(size 6); expected a start and stop on a multiple of 2, the elements per block"));
}

TEST(CheckSaveTensorTest, RefusesASubByteInnermostDimensionOfPartBlocks) {
  EXPECT_THAT(CheckSaveTensor(AsType(U8Tensor("w", {2, 6}, {"", ""}, Mesh2x2()), "F6_E2M3")),
              StatusIs(kInvalid, "Tensor 'w' has innermost dimension 6 (shape [2, 6]); expected a multiple of 4, "
                                 "the elements per block of F6_E2M3"));
}

TEST(CheckSaveTensorTest, RefusesASubByteScalar) {
  EXPECT_THAT(CheckSaveTensor(AsType(U8Tensor("s", {}, {}, Mesh2x2()), "F4")),
              StatusIs(kInvalid, "Tensor 's' of type F4 has rank 0; expected at least one dimension (F4 packs 2 "
                                 "elements in a block)"));
}

TEST(ProcessPiecesTest, ASubBytePieceIsItsBlocksBytes) {
  // F6_E2M3 packs 4 elements in 3 bytes: a row of 8 is 2 blocks, 6 bytes.
  const std::vector<SaveTensor> tensors = {AsType(U8Tensor("w", {2, 8}, {"x", ""}, Mesh2x2()), "F6_E2M3")};
  const std::vector<SavePiece> pieces = Unwrap(ProcessPieces(tensors, 0, 1));
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].size, 6u);
  EXPECT_EQ(pieces[1].size, 6u);
}

// ---- Writing

TEST(WriteProcessFileTest, FileIsSafetensorsWithOnePieceTensorPerStoredShard) {
  const std::string dir = FreshDirectory("write");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4, 6}, {"x", ""}, Mesh2x2())};
  const std::vector<IndexPiece> pieces =
      Unwrap(WriteProcessFile(dir, tensors, WriteOptions{1, 2, 0}, FillFrom(tensors, 3)));
  const std::string path = dir + "/process-00001-of-00002.safetensors";
  const Checkpoint file = Unwrap(ReadSafetensorsFile(path));
  ASSERT_EQ(file.tensors.size(), 1u);
  EXPECT_EQ(file.tensors[0].name, "w@2:4,0:6");
  EXPECT_EQ(file.tensors[0].type.name, "U8");
  EXPECT_EQ(file.tensors[0].shape, std::vector<int64_t>({2, 6}));
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0], (IndexPiece{1, file.tensors[0].offset, 12, Box({{2, 4}, {0, 6}})}));
  EXPECT_EQ(ReadBytes(path, pieces[0].offset, 12), BoxBytes({4, 6}, pieces[0].ranges, 3));
}

TEST(WriteProcessFileTest, DataStartsOnAMultipleOfEight) {
  const std::string dir = FreshDirectory("align");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  const std::vector<IndexPiece> pieces =
      Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 1, 0}, FillFrom(tensors, 0)));
  EXPECT_EQ(pieces[0].offset % 8, 0u);
}

TEST(WriteProcessFileTest, MetadataNamesFormatProcessAndLayouts) {
  const std::string dir = FreshDirectory("metadata");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 2, 0}, FillFrom(tensors, 0)));
  const Checkpoint file = Unwrap(ReadSafetensorsFile(dir + "/process-00000-of-00002.safetensors"));
  ASSERT_EQ(file.metadata.size(), 4u);
  EXPECT_EQ(file.metadata[0].key, "format");
  EXPECT_EQ(file.metadata[0].value, "tessera.checkpoint");
  EXPECT_EQ(file.metadata[1].key, "tessera.process");
  EXPECT_EQ(file.metadata[1].value, "0");
  EXPECT_EQ(file.metadata[2].key, "tessera.num_processes");
  EXPECT_EQ(file.metadata[2].value, "2");
  EXPECT_EQ(file.metadata[3].key, "tessera.layouts");
  EXPECT_EQ(file.metadata[3].value,
            absl::StrCat("{\"w\":{\"mesh\":", Unwrap(MeshToJson(*Mesh2x2())),
                         ",\"layout\":", Unwrap(LayoutToJson(tensors[0].sharding.layout())), "}}"));
}

TEST(WriteProcessFileTest, SmallChunksGiveTheSameBytes) {
  const std::string dir = FreshDirectory("chunks");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {8, 5}, {"x", ""}, Mesh2x2())};
  std::vector<uint64_t> offsets;
  const FillPiece fill = [&](const SavePiece& piece, uint64_t offset, absl::Span<char> out) {
    offsets.push_back(offset);
    return FillFrom(tensors, 1)(piece, offset, out);
  };
  const std::vector<IndexPiece> pieces = Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 1, 0, 8}, fill));
  EXPECT_THAT(offsets, ElementsAre(0, 8, 16, 0, 8, 16));
  EXPECT_EQ(ReadBytes(dir + "/process-00000-of-00001.safetensors", pieces[1].offset, 20),
            BoxBytes({8, 5}, Box({{4, 8}, {0, 5}}), 1));
}

TEST(WriteProcessFileTest, AFillErrorLeavesNoFile) {
  const std::string dir = FreshDirectory("fill-error");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  const FillPiece fail = [](const SavePiece&, uint64_t, absl::Span<char>) {
    return absl::CancelledError("stop");
  };
  EXPECT_THAT(WriteProcessFile(dir, tensors, WriteOptions{0, 1, 0}, fail),
              StatusIs(absl::StatusCode::kCancelled, "stop"));
  EXPECT_TRUE(ListDirectory(dir).empty());
}

// ---- Finish and the index

TEST(FinishSaveTest, IndexListsEveryPieceWithItsFileOffsetAndRanges) {
  const std::string dir = FreshDirectory("finish");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4, 6}, {"x", ""}, Mesh2x2()),
                                           U8Tensor("b", {6}, {""}, Mesh2x2())};
  const Index index = SaveAll(dir, tensors, 2, 5);
  EXPECT_EQ(index.num_processes, 2);
  EXPECT_THAT(index.files, ElementsAre("process-00000-of-00002.safetensors", "process-00001-of-00002.safetensors"));
  ASSERT_EQ(index.tensors.size(), 2u);
  ASSERT_EQ(index.tensors[0].pieces.size(), 2u);
  EXPECT_EQ(index.tensors[0].pieces[0].file, 0u);
  EXPECT_EQ(index.tensors[0].pieces[1].file, 1u);
  EXPECT_EQ(index.tensors[0].pieces[1].ranges, Box({{2, 4}, {0, 6}}));
  ASSERT_EQ(index.tensors[1].pieces.size(), 1u);
  EXPECT_EQ(index.tensors[1].pieces[0].file, 0u);
  EXPECT_TRUE(PiecesHoldData(index, dir, 5));
}

TEST(FinishSaveTest, ReadIndexGivesBackWhatFinishWrote) {
  const std::string dir = FreshDirectory("read-back");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {5, 2}, {"x+y", ""}, Mesh2x2(), ShardMode::kChunkFlat)};
  const Index written = SaveAll(dir, tensors, 4, 0);
  const Index read = Unwrap(ReadIndex(dir));
  ASSERT_EQ(read.tensors.size(), 1u);
  EXPECT_EQ(read.files, written.files);
  EXPECT_EQ(read.tensors[0].pieces, written.tensors[0].pieces);
  EXPECT_EQ(read.tensors[0].sharding.mode(), ShardMode::kChunkFlat);
  EXPECT_EQ(read.tensors[0].sharding.layout(), tensors[0].sharding.layout());
  EXPECT_EQ(Unwrap(IndexToJson(read)), ReadText(IndexPath(dir)));
  EXPECT_TRUE(VerifyIndexFiles(read, dir).ok());
}

TEST(FindPieceTest, FindsThePieceOfEachDistinctBoxAndNoneForOtherBoxes) {
  const std::string dir = FreshDirectory("find");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4, 6}, {"x", "y"}, Mesh2x2())};
  const Index index = SaveAll(dir, tensors, 2, 0);
  const IndexTensor& tensor = index.tensors[0];
  for (int64_t device = 0; device < 4; ++device) {
    const std::vector<IndexRange> box = Unwrap(tensor.sharding.DeviceRanges(device));
    const IndexPiece* piece = FindPiece(tensor, box);
    ASSERT_NE(piece, nullptr);
    EXPECT_EQ(piece->ranges, box);
  }
  EXPECT_EQ(FindPiece(tensor, Box({{0, 2}, {0, 6}})), nullptr);
  EXPECT_EQ(FindPiece(tensor, Box({{2, 4}, {3, 7}})), nullptr);
}

TEST(FinishSaveTest, IndexTextIsTheDocumentedForm) {
  const std::string dir = FreshDirectory("text");
  const MeshPtr mesh = CpuMesh({2}, {"x"});
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, mesh)};
  SaveAll(dir, tensors, 1, 0);
  const std::string mesh_json = Unwrap(MeshToJson(*mesh));
  const std::string layout_json = Unwrap(LayoutToJson(tensors[0].sharding.layout()));
  const Index index = Unwrap(ReadIndex(dir));
  const uint64_t offset = index.tensors[0].pieces[0].offset;
  EXPECT_EQ(ReadText(IndexPath(dir)),
            absl::StrCat("{\"format\": \"tessera.checkpoint\", \"version\": 1,\n"
                         " \"num_processes\": 1,\n"
                         " \"files\": [\"process-00000-of-00001.safetensors\"],\n"
                         " \"tensors\": [\n"
                         "  {\"name\": \"w\", \"dtype\": \"U8\", \"shape\": [4], \"mesh\": ",
                         mesh_json, ", \"layout\": ", layout_json,
                         ", \"shard_mode\": \"strict\", \"pieces\": [{\"file\": 0, \"offset\": ", offset,
                         ", \"size\": 2, \"ranges\": [[0, 2]]}, {\"file\": 0, \"offset\": ", offset + 2,
                         ", \"size\": 2, \"ranges\": [[2, 4]]}]}\n ]}\n"));
}

TEST(FinishSaveTest, RefusesWhenAProcessFileIsMissing) {
  const std::string dir = FreshDirectory("missing");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 2, 0}, FillFrom(tensors, 0)));
  EXPECT_THAT(FinishSave(dir, tensors, 2, 0),
              StatusIs(kPrecondition, absl::StrCat(dir, "/process-00001-of-00002.safetensors: missing; process 1 "
                                                        "has not written its file (finish after every process's "
                                                        "write)")));
  EXPECT_THAT(ListDirectory(dir), ElementsAre("process-00000-of-00002.safetensors"));
}

TEST(FinishSaveTest, RefusesProcessFilesThatLeaveElementsUnstored) {
  // Process 1 saved a tensor list without "w": its rows [2:4] are nowhere.
  const std::string dir = FreshDirectory("unstored");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 2, 0}, FillFrom(tensors, 0)));
  Unwrap(WriteProcessFile(dir, {}, WriteOptions{1, 2, 0}, FillFrom(tensors, 0)));
  EXPECT_THAT(FinishSave(dir, tensors, 2, 0),
              StatusIs(kPrecondition, HasSubstr("tensor 'w': elements [2:4] are in no piece")));
  EXPECT_THAT(ReadIndex(dir), StatusIs(kPrecondition, HasSubstr("no tessera-index.json")));
}

// ---- Re-saving: generations

TEST(GenerationTest, ASaveIntoAnEmptyDirectoryIsGenerationZero) {
  EXPECT_EQ(Unwrap(NextGeneration(FreshDirectory("gen0"))), 0);
  EXPECT_EQ(Unwrap(NextGeneration(FreshDirectory("gen0") + "/absent")), 0);
}

TEST(GenerationTest, AReSaveWritesNewNamesAndRemovesTheOldFilesAfterTheIndex) {
  const std::string dir = FreshDirectory("resave");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  SaveAll(dir, tensors, 2, 1);
  EXPECT_EQ(Unwrap(NextGeneration(dir)), 1);
  const Index second = SaveAll(dir, tensors, 2, 2);
  EXPECT_THAT(second.files, ElementsAre("process-00000-of-00002.g1.safetensors",
                                        "process-00001-of-00002.g1.safetensors"));
  EXPECT_THAT(ListDirectory(dir), ElementsAre("process-00000-of-00002.g1.safetensors",
                                              "process-00001-of-00002.g1.safetensors", "tessera-index.json"));
  EXPECT_TRUE(PiecesHoldData(Unwrap(ReadIndex(dir)), dir, 2));
  EXPECT_EQ(Unwrap(NextGeneration(dir)), 2);
}

TEST(GenerationTest, AnUnfinishedReSaveLeavesTheOldCheckpointWhole) {
  const std::string dir = FreshDirectory("unfinished");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  SaveAll(dir, tensors, 1, 1);
  Unwrap(WriteProcessFile(dir, tensors, WriteOptions{0, 1, 1}, FillFrom(tensors, 2)));
  const Index index = Unwrap(ReadIndex(dir));
  EXPECT_TRUE(VerifyIndexFiles(index, dir).ok());
  EXPECT_TRUE(PiecesHoldData(index, dir, 1));
}

TEST(GenerationTest, ADamagedIndexStopsASave) {
  const std::string dir = FreshDirectory("damaged");
  WriteText(IndexPath(dir), "{");
  EXPECT_THAT(NextGeneration(dir), StatusIs(kInvalid, HasSubstr("remove its index to save anyway")));
}

// ---- The reader's checks

class ParseIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDirectory("parse");
    tensors_ = {U8Tensor("w", {4, 2}, {"x", ""}, Mesh2x2())};
    SaveAll(dir_, tensors_, 2, 0);
    text_ = ReadText(IndexPath(dir_));
  }
  // The index with `from` replaced by `to` (once), parsed.
  absl::StatusOr<Index> ParseWith(const std::string& from, const std::string& to) {
    std::string text = text_;
    const size_t at = text.find(from);
    if (at == std::string::npos) return absl::InternalError(absl::StrCat("no ", from, " in the index"));
    text.replace(at, from.size(), to);
    return ParseIndex(text, "i.json");
  }

  std::string dir_;
  std::vector<SaveTensor> tensors_;
  std::string text_;
};

TEST_F(ParseIndexTest, TheSavedIndexParses) { EXPECT_TRUE(ParseIndex(text_, "i.json").ok()); }

TEST_F(ParseIndexTest, RefusesAnotherFormat) {
  EXPECT_THAT(ParseWith("\"tessera.checkpoint\"", "\"x\""),
              StatusIs(kInvalid, "i.json: byte 11: field 'format' is \"x\"; expected \"tessera.checkpoint\""));
}

TEST_F(ParseIndexTest, RefusesANewerVersionAsAPrecondition) {
  EXPECT_THAT(ParseWith("\"version\": 1", "\"version\": 2"),
              StatusIs(kPrecondition, HasSubstr("field 'version' is 2; this Tessera reads version 1")));
}

TEST_F(ParseIndexTest, RefusesAnUnknownField) {
  EXPECT_THAT(ParseWith("\"num_processes\"", "\"extra\": 0, \"num_processes\""),
              StatusIs(kInvalid, HasSubstr("field 'extra' is unknown")));
}

TEST_F(ParseIndexTest, RefusesFilesOfAnotherCountThanTheProcesses) {
  EXPECT_THAT(ParseWith("\"num_processes\": 2", "\"num_processes\": 3"),
              StatusIs(kInvalid, HasSubstr("field 'files' is an array; expected an array of 3 file names")));
}

TEST_F(ParseIndexTest, RefusesAFileNameWithASlash) {
  EXPECT_THAT(ParseWith("\"process-00001-of-00002.safetensors\"", "\"../x\""),
              StatusIs(kInvalid, HasSubstr("field 'files[1]' is \"../x\"; expected a file name inside")));
}

TEST_F(ParseIndexTest, RefusesAnUnknownDtype) {
  EXPECT_THAT(ParseWith("\"U8\"", "\"U7\""),
              StatusIs(kInvalid, HasSubstr("field 'tensors[0] ('w').dtype' is \"U7\"; expected a safetensors")));
}

TEST_F(ParseIndexTest, RefusesAPieceSizeOtherThanItsElements) {
  EXPECT_THAT(ParseWith("\"size\": 4", "\"size\": 5"),
              StatusIs(kInvalid, HasSubstr("field 'tensors[0] ('w').pieces[0].size' is 5; expected 4 "
                                           "(4 elements of U8)")));
}

TEST_F(ParseIndexTest, ASubBytePieceSizeCountsBlocks) {
  // Each piece of w [4, 2] holds 4 elements: 4 bytes of U8, 2 of F4.
  EXPECT_THAT(ParseWith("\"U8\"", "\"F4\""),
              StatusIs(kInvalid, HasSubstr("field 'tensors[0] ('w').pieces[0].size' is 4; expected 2 "
                                           "(4 elements of F4)")));
}

TEST_F(ParseIndexTest, RefusesASubByteInnermostDimensionOfPartBlocks) {
  EXPECT_THAT(ParseWith("\"U8\"", "\"F6_E2M3\""),
              StatusIs(kInvalid, HasSubstr(": Tensor 'w' has innermost dimension 2 (shape [4, 2]); expected a "
                                           "multiple of 4, the elements per block of F6_E2M3")));
}

TEST(FinishSaveTest, ASubByteTensorIsIndexedWithTheBytesOfItsBlocks) {
  const std::string dir = FreshDirectory("sub-byte");
  const std::vector<SaveTensor> tensors = {AsType(U8Tensor("w", {4, 2}, {"x", ""}, Mesh2x2()), "F4")};
  SaveAll(dir, tensors, 2, 0);
  const Index read = Unwrap(ReadIndex(dir));
  ASSERT_EQ(read.tensors.size(), 1u);
  EXPECT_EQ(read.tensors[0].type.name, "F4");
  ASSERT_EQ(read.tensors[0].pieces.size(), 2u);
  EXPECT_EQ(read.tensors[0].pieces[0].size, 2u);
  EXPECT_EQ(read.tensors[0].pieces[1].size, 2u);
  EXPECT_TRUE(VerifyIndexFiles(read, dir).ok());
}

TEST_F(ParseIndexTest, RefusesARangeOutsideTheShape) {
  EXPECT_THAT(ParseWith("[[2, 4], [0, 2]]", "[[2, 4], [0, 3]]"),
              StatusIs(kInvalid, HasSubstr("field 'tensors[0] ('w').pieces[1].ranges[1]' is [0, 3]; expected "
                                           "0 <= start <= stop <= 2 (dimension 1 of the shape)")));
}

TEST_F(ParseIndexTest, RefusesAPieceThatIsNoShard) {
  EXPECT_THAT(ParseWith("[[2, 4], [0, 2]]", "[[1, 3], [0, 2]]"),
              StatusIs(kInvalid, HasSubstr("tensor 'w': field 'tensors[0] ('w').pieces[1].ranges' is "
                                           "[1:3, 0:2]; expected the ranges of a shard of its layout")));
}

TEST_F(ParseIndexTest, RefusesATensorWhosePiecesLeaveElementsOut) {
  const size_t second = text_.find(", {\"file\": 1");
  const size_t end = text_.find("]]}", second) + 3;  // the piece's closing brace
  std::string text = text_;
  text.erase(second, end - second);
  EXPECT_THAT(ParseIndex(text, "i.json"), StatusIs(kInvalid, HasSubstr("tensor 'w': elements [2:4, 0:2] are in "
                                                                       "no piece")));
}

TEST_F(ParseIndexTest, RefusesAShardStoredTwice) {
  EXPECT_THAT(ParseWith("[[2, 4], [0, 2]]", "[[0, 2], [0, 2]]"),
              StatusIs(kInvalid, HasSubstr("tensor 'w': pieces 0 and 1 both hold [0:2, 0:2]")));
}

TEST_F(ParseIndexTest, RefusesAPieceInAFileThatDoesNotExist) {
  EXPECT_THAT(ParseWith("\"file\": 1", "\"file\": 2"),
              StatusIs(kInvalid, HasSubstr("field 'tensors[0] ('w').pieces[1].file' is 2; expected less than 2, "
                                           "the number of files")));
}

TEST_F(ParseIndexTest, RefusesALayoutItsShapeCannotTake) {
  EXPECT_THAT(ParseWith("\"shape\": [4, 2]", "\"shape\": [3, 2]"),
              StatusIs(kInvalid, HasSubstr("tensor 'w': ")));
}

TEST_F(ParseIndexTest, ReadIndexOfADirectoryWithoutOneSaysTheSaveDidNotFinish) {
  const std::string dir = FreshDirectory("none");
  EXPECT_THAT(ReadIndex(dir), StatusIs(kPrecondition, absl::StrCat(dir, ": no tessera-index.json; the save did not "
                                                                   "finish, or ", dir,
                                                                   " is no Tessera checkpoint")));
}

TEST_F(ParseIndexTest, VerifyNamesAMissingFile) {
  const Index index = Unwrap(ReadIndex(dir_));
  std::remove((dir_ + "/process-00001-of-00002.safetensors").c_str());
  EXPECT_THAT(VerifyIndexFiles(index, dir_),
              StatusIs(kPrecondition, absl::StrCat(dir_, "/process-00001-of-00002.safetensors: missing; "
                                                         "tessera-index.json names it as file 1")));
}

TEST_F(ParseIndexTest, VerifyCallsAShortFileDataLoss) {
  const Index index = Unwrap(ReadIndex(dir_));
  const std::string path = dir_ + "/process-00001-of-00002.safetensors";
  ASSERT_EQ(truncate(path.c_str(), static_cast<off_t>(index.tensors[0].pieces[1].offset + 1)), 0);
  EXPECT_THAT(VerifyIndexFiles(index, dir_), StatusIs(kDataLoss, HasSubstr(path)));
}

TEST_F(ParseIndexTest, VerifyCallsAFileOfAnotherProcessDataLoss) {
  const Index index = Unwrap(ReadIndex(dir_));
  const std::string path = dir_ + "/process-00001-of-00002.safetensors";
  std::filesystem::copy_file(dir_ + "/process-00000-of-00002.safetensors", path,
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_THAT(VerifyIndexFiles(index, dir_),
              StatusIs(kDataLoss, absl::StrCat(path, ": __metadata__ 'tessera.process' is \"0\"; expected \"1\" "
                                                     "(file 1 of tessera-index.json)")));
}

// Each malformed field of the saved index, refused at the byte of the value
// (or of the object missing it) with the field's path. `from` is replaced
// once by `to`; "$OFFSET0" stands for piece 0's offset; the error is at the
// first `at` in the edited text.
struct MalformedField {
  const char* name;
  const char* from;
  const char* to;
  const char* at;
  const char* message;
};

constexpr MalformedField kMalformedFields[] = {
    {"FormatMissing", "\"format\": \"tessera.checkpoint\", ", "", "{", "field 'format' is missing"},
    {"FormatNotAString", "\"tessera.checkpoint\"", "7", "7, \"version\"",
     "field 'format' is 7; expected \"tessera.checkpoint\""},
    {"VersionMissing", " \"version\": 1,", "", "{", "field 'version' is missing"},
    {"VersionZero", "\"version\": 1", "\"version\": 0", "0,\n",
     "field 'version' is 0; expected an integer of at least 1"},
    {"VersionAString", "\"version\": 1", "\"version\": \"1\"", "\"1\"",
     "field 'version' is \"1\"; expected an integer of at least 1"},
    {"VersionOverflowingInt64", "\"version\": 1", "\"version\": 99999999999999999999", "9999",
     "field 'version' is a number; expected an integer of at least 1"},
    {"NumProcessesMissing", "\n \"num_processes\": 2,", "", "{", "field 'num_processes' is missing"},
    {"NumProcessesZero", "\"num_processes\": 2", "\"num_processes\": 0", "0,\n \"files\"",
     "field 'num_processes' is 0; expected an integer of at least 1"},
    {"NumProcessesNegative", "\"num_processes\": 2", "\"num_processes\": -1", "-1",
     "field 'num_processes' is -1; expected an integer of at least 1"},
    {"FilesMissing",
     " \"files\": [\"process-00000-of-00002.safetensors\", \"process-00001-of-00002.safetensors\"],\n", "", "{",
     "field 'files' is missing"},
    {"FilesAnObject",
     "[\"process-00000-of-00002.safetensors\", \"process-00001-of-00002.safetensors\"]", "{}", "{},",
     "field 'files' is an object; expected an array of 2 file names (one per process)"},
    {"FileNameNotAString", "\"process-00000-of-00002.safetensors\"", "3", "3, \"process",
     "field 'files[0]' is 3; expected a file name"},
    {"FileNameEmpty", "\"process-00000-of-00002.safetensors\"", "\"\"", "\"\", \"process",
     "field 'files[0]' is \"\"; expected a file name inside the checkpoint's directory (no '/')"},
    {"FileNameDotDot", "\"process-00000-of-00002.safetensors\"", "\"..\"", "\"..\"",
     "field 'files[0]' is \"..\"; expected a file name inside the checkpoint's directory (no '/')"},
    {"FileNameTwice", "\"process-00001-of-00002.safetensors\"", "\"process-00000-of-00002.safetensors\"",
     "\"process-00000-of-00002.safetensors\"]",
     "field 'files[1]' is \"process-00000-of-00002.safetensors\"; expected a name no other file has"},
    {"TensorNotAnObject", "[\n  {\"name\"", "[\n  7, {\"name\"", "7, {",
     "field 'tensors[0]' is 7; expected an object"},
    {"TensorUnknownField", "{\"name\": \"w\",", "{\"name\": \"w\", \"extra\": 1,", "\"extra\"",
     "field 'tensors[0].extra' is unknown; expected only name, dtype, shape, mesh, layout, shard_mode, pieces"},
    {"TensorNameMissing", "\"name\": \"w\", ", "", "{\"dtype\"", "field 'tensors[0].name' is missing"},
    {"TensorNameNotAString", "\"name\": \"w\"", "\"name\": 1", "1, \"dtype\"",
     "field 'tensors[0].name' is 1; expected a string"},
    {"DtypeMissing", "\"dtype\": \"U8\", ", "", "{\"name\"", "field 'tensors[0] ('w').dtype' is missing"},
    {"DtypeNotAString", "\"U8\"", "8", "8, \"shape\"",
     "field 'tensors[0] ('w').dtype' is 8; expected a safetensors dtype name"},
    {"ShapeMissing", "\"shape\": [4, 2], ", "", "{\"name\"", "field 'tensors[0] ('w').shape' is missing"},
    {"ShapeNotAnArray", "\"shape\": [4, 2]", "\"shape\": 4", "4, \"mesh\"",
     "field 'tensors[0] ('w').shape' is 4; expected an array of non-negative integers"},
    {"ShapeNegative", "\"shape\": [4, 2]", "\"shape\": [4, -2]", "-2",
     "field 'tensors[0] ('w').shape[1]' is -2; expected a non-negative integer"},
    {"ShapeBytesOver63Bits", "\"shape\": [4, 2]", "\"shape\": [4, 4611686018427387904]", "[4, 46",
     "field 'tensors[0] ('w').shape' is an array; expected a shape whose bytes fit in 63 bits"},
    {"ShardModeMissing", "\"shard_mode\": \"strict\", ", "", "{\"name\"",
     "field 'tensors[0] ('w').shard_mode' is missing"},
    {"ShardModeUnknown", "\"strict\"", "\"loose\"", "\"loose\"",
     "field 'tensors[0] ('w').shard_mode' is \"loose\"; expected \"strict\", \"chunk-flat\" or \"chunk-nested\""},
    {"PieceNotAnObject", "\"pieces\": [", "\"pieces\": [3, ", "3, {",
     "field 'tensors[0] ('w').pieces[0]' is 3; expected an object"},
    {"PieceUnknownField", "{\"file\": 0", "{\"extra\": 0, \"file\": 0", "\"extra\"",
     "field 'tensors[0] ('w').pieces[0].extra' is unknown; expected only file, offset, size, ranges"},
    {"PieceFileMissing", "{\"file\": 0, ", "{", "{\"offset\"", "field 'tensors[0] ('w').pieces[0].file' is missing"},
    {"PieceFileNegative", "\"file\": 0", "\"file\": -1", "-1",
     "field 'tensors[0] ('w').pieces[0].file' is -1; expected a non-negative integer"},
    {"PieceOffsetMissing", ", \"offset\": $OFFSET0", "", "{\"file\": 0",
     "field 'tensors[0] ('w').pieces[0].offset' is missing"},
    {"PieceOffsetInTheHeaderLength", "\"offset\": $OFFSET0", "\"offset\": 7", "7, \"size\"",
     "field 'tensors[0] ('w').pieces[0].offset' is 7; expected an integer of at least 8"},
    {"PieceOffsetPlusSizeOver63Bits", "\"offset\": $OFFSET0", "\"offset\": 9223372036854775807",
     "9223372036854775807",
     "field 'tensors[0] ('w').pieces[0].offset' is 9223372036854775807; expected an offset that, with the "
     "size, fits in 63 bits"},
    {"PieceSizeMissing", "\"size\": 4, ", "", "{\"file\": 0", "field 'tensors[0] ('w').pieces[0].size' is missing"},
    {"PieceSizeNegative", "\"size\": 4", "\"size\": -4", "-4",
     "field 'tensors[0] ('w').pieces[0].size' is -4; expected a non-negative integer"},
    {"PieceRangesMissing", ", \"ranges\": [[0, 2], [0, 2]]", "", "{\"file\": 0",
     "field 'tensors[0] ('w').pieces[0].ranges' is missing"},
    {"RangesOfAnotherRank", "[[0, 2], [0, 2]]", "[[0, 2]]", "[[0, 2]]",
     "field 'tensors[0] ('w').pieces[0].ranges' is an array; expected an array of 2 [start, stop] pairs"},
    {"RangeNotAPair", "[[0, 2], [0, 2]]", "[[0, 2], [0, 2, 3]]", "[0, 2, 3]",
     "field 'tensors[0] ('w').pieces[0].ranges[1]' is an array; expected a [start, stop] pair"},
    {"RangeStartNegative", "[[0, 2], [0, 2]]", "[[-1, 2], [0, 2]]", "-1",
     "field 'tensors[0] ('w').pieces[0].ranges[0][0]' is -1; expected a non-negative integer"},
    {"RangeStopAString", "[[0, 2], [0, 2]]", "[[0, \"2\"], [0, 2]]", "\"2\"], [0, 2]]",
     "field 'tensors[0] ('w').pieces[0].ranges[0][1]' is \"2\"; expected a non-negative integer"},
    {"RangeReversed", "[[0, 2], [0, 2]]", "[[2, 0], [0, 2]]", "[2, 0]",
     "field 'tensors[0] ('w').pieces[0].ranges[0]' is [2, 0]; expected 0 <= start <= stop <= 4 (dimension 0 of "
     "the shape)"},
    {"PieceWithoutElements", "\"size\": 4, \"ranges\": [[0, 2], [0, 2]]", "\"size\": 0, \"ranges\": [[0, 0], [0, 2]]",
     "{\"file\": 0",
     "tensor 'w': field 'tensors[0] ('w').pieces[0].ranges' is [0:0, 0:2]; expected a shard with elements"},
};

TEST_F(ParseIndexTest, RefusesEachMalformedFieldAtItsByteWithItsPath) {
  const std::string offset0 = absl::StrCat(Unwrap(ParseIndex(text_, "i.json")).tensors[0].pieces[0].offset);
  for (const MalformedField& c : kMalformedFields) {
    SCOPED_TRACE(c.name);
    const std::string from = absl::StrReplaceAll(c.from, {{"$OFFSET0", offset0}});
    std::string text = text_;
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), c.to);
    const size_t error_at = text.find(c.at);
    ASSERT_NE(error_at, std::string::npos) << c.at;
    EXPECT_THAT(ParseIndex(text, "i.json"),
                StatusIs(kInvalid, absl::StrCat("i.json: byte ", error_at, ": ", c.message)));
  }
}

TEST_F(ParseIndexTest, RefusesAnIndexThatIsNoObject) {
  EXPECT_THAT(ParseIndex("[]", "i.json"),
              StatusIs(kInvalid, "i.json: byte 0: field '(the index)' is an array; expected an object"));
}

TEST_F(ParseIndexTest, RefusesInvalidUtf8AtItsByte) {
  EXPECT_THAT(ParseIndex("{\"a\": \"\xff\"}", "i.json"), StatusIs(kInvalid, "i.json: byte 7: invalid UTF-8"));
}

TEST_F(ParseIndexTest, RefusesPiecesOutOfOrder) {
  std::string text = text_;
  const size_t first = text.find("[[0, 2], [0, 2]]");
  text.replace(first, 16, "[[2, 4], [0, 2]]");
  const size_t second = text.find("[[2, 4], [0, 2]]", first + 1);
  text.replace(second, 16, "[[0, 2], [0, 2]]");
  const size_t piece1 = text.find("{\"file\": 1");
  EXPECT_THAT(ParseIndex(text, "i.json"),
              StatusIs(kInvalid, absl::StrCat("i.json: byte ", piece1, ": tensor 'w': piece 1 [0:2, 0:2] comes "
                                              "after piece 0 [2:4, 0:2]; expected pieces sorted by their ranges")));
}

// ---- The restore plan's refusals

class RestorePlanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDirectory("restore");
    SaveAll(dir_, {U8Tensor("w", {4, 2}, {"x", ""}, Mesh2x2())}, 2, 0);
    source_ = Unwrap(OpenRestoreSource(dir_));
  }
  absl::StatusOr<ReadPlan> Plan(std::vector<RestoreRequest> requests) {
    return MakeRestorePlan(source_, LayoutMap(Mesh2x2()), ReadPlanOptions{}, requests);
  }

  std::string dir_;
  RestoreSource source_;
};

TEST_F(RestorePlanTest, OpensTheIndexFileAsItsDirectory) {
  EXPECT_EQ(Unwrap(OpenRestoreSource(IndexPath(dir_))).directory, dir_);
}

TEST_F(RestorePlanTest, OpenRefusesAFileOtherThanTheIndex) {
  const std::string path = dir_ + "/process-00000-of-00002.safetensors";
  EXPECT_THAT(OpenRestoreSource(path),
              StatusIs(kInvalid, absl::StrCat("Argument 'path' is '", path, "'; expected a checkpoint directory "
                                              "or its tessera-index.json")));
}

TEST_F(RestorePlanTest, RefusesAMapWithoutAMesh) {
  EXPECT_THAT(MakeRestorePlan(source_, LayoutMap(nullptr), ReadPlanOptions{}),
              StatusIs(kPrecondition, "The layout map has no mesh; expected a map created with the mesh the "
                                      "checkpoint is restored onto"));
}

TEST_F(RestorePlanTest, RefusesATensorRequestedTwice) {
  EXPECT_THAT(Plan({{"w", "", {}, false}, {"w", "", {}, false}}),
              StatusIs(kInvalid, "Tensor 'w' is requested twice (requests 0 and 1); expected once"));
}

TEST_F(RestorePlanTest, ATensorNotInTheCheckpointIsNotFound) {
  EXPECT_THAT(Plan({{"v", "", {}, false}}),
              StatusIs(absl::StatusCode::kNotFound, absl::StrCat("Tensor 'v' is not in the checkpoint ", dir_)));
}

TEST_F(RestorePlanTest, RefusesAnotherDtype) {
  EXPECT_THAT(Plan({{"w", "F32", {}, false}}),
              StatusIs(kInvalid, "Tensor 'w' is requested as F32 but the checkpoint stores U8; expected the same "
                                 "dtype"));
}

TEST_F(RestorePlanTest, RefusesAnotherShape) {
  EXPECT_THAT(Plan({{"w", "U8", {2, 4}, true}}),
              StatusIs(kInvalid, "Tensor 'w' is requested with shape [2, 4] but the checkpoint stores shape "
                                 "[4, 2]; expected the same shape"));
}

TEST_F(RestorePlanTest, AcceptsTheStoredDtypeAndShape) {
  EXPECT_TRUE(Plan({{"w", "U8", {4, 2}, true}}).ok());
}

TEST_F(RestorePlanTest, RefusesAProcessCountThatDoesNotDivideTheDevices) {
  ReadPlanOptions options;
  options.num_processes = 3;
  EXPECT_THAT(MakeRestorePlan(source_, LayoutMap(Mesh2x2()), options),
              StatusIs(kInvalid, "Argument 'num_processes' is 3; expected a divisor of the mesh's 4 devices (each "
                                 "process owns an equal block)"));
}

// ---- The writer's refusals of its arguments

TEST(ProcessPiecesTest, RefusesNoProcesses) {
  EXPECT_THAT(ProcessPieces({U8Tensor("w", {4}, {"x"}, Mesh2x2())}, 0, 0),
              StatusIs(kInvalid, "Argument 'num_processes' is 0; expected at least 1"));
}

TEST(ProcessPiecesTest, RefusesAProcessIndexPastTheCount) {
  EXPECT_THAT(ProcessPieces({U8Tensor("w", {4}, {"x"}, Mesh2x2())}, 2, 2),
              StatusIs(kInvalid, "Argument 'process_index' is 2; expected at least 0 and less than 2 "
                                 "(num_processes)"));
}

TEST(ProcessPiecesTest, RefusesANegativeProcessIndex) {
  EXPECT_THAT(ProcessPieces({U8Tensor("w", {4}, {"x"}, Mesh2x2())}, -1, 2),
              StatusIs(kInvalid, "Argument 'process_index' is -1; expected at least 0 and less than 2 "
                                 "(num_processes)"));
}

TEST(CheckSaveTensorTest, RefusesAnEmptyName) {
  EXPECT_THAT(CheckSaveTensor(U8Tensor("", {4}, {"x"}, Mesh2x2())),
              StatusIs(kInvalid, "Argument 'name' is \"\"; expected a non-empty UTF-8 name"));
}

TEST(FinishSaveTest, RefusesATensorAddedTwice) {
  const std::string dir = FreshDirectory("twice");
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2()),
                                           U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  EXPECT_THAT(FinishSave(dir, tensors, 1, 0),
              StatusIs(kInvalid, "Tensor \"w\" is added twice; expected unique names"));
}

TEST(WriteProcessFileTest, ADirectoryUnderAFileIsAnIoErrorNamingIt) {
  const std::string file = FreshDirectory("under-a-file") + "/plain";
  WriteText(file, "x");
  const std::string dir = file + "/ckpt";
  const std::vector<SaveTensor> tensors = {U8Tensor("w", {4}, {"x"}, Mesh2x2())};
  EXPECT_THAT(WriteProcessFile(dir, tensors, WriteOptions{0, 1, 0}, FillFrom(tensors, 0)),
              StatusIs(kPrecondition, absl::StrCat("cannot create directory ", dir, ": Not a directory")));
}

}  // namespace
}  // namespace tessera::checkpoint::sharded
