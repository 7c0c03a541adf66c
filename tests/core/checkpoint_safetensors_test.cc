// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// safetensors headers into the Checkpoint model: exact tensors, offsets and
// metadata for good files, and one test per rule of the format (the
// reference crate's, safetensors/src/tensor.rs) with its exact message.
#include "core/checkpoint/safetensors.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera::checkpoint {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

// The 8-byte little-endian length, the header, the data.
std::string FileBytes(const std::string& header, const std::string& data) {
  std::string out;
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((uint64_t{header.size()} >> (8 * i)) & 0xFF));
  return out + header + data;
}

absl::StatusOr<Checkpoint> ParseFile(const std::string& header, const std::string& data) {
  const std::string bytes = FileBytes(header, data);
  return ParseSafetensorsHeader("m.safetensors", bytes, bytes.size());
}

MATCHER_P6(TensorIs, name, type, shape, file_index, offset, size, "") {
  return arg.name == name && arg.type.name == type && arg.shape == std::vector<int64_t>(shape) &&
         arg.file_index == static_cast<size_t>(file_index) && arg.offset == static_cast<uint64_t>(offset) &&
         arg.size == static_cast<uint64_t>(size);
}

std::string TempPath(const std::string& name) { return absl::StrCat(::testing::TempDir(), "/", name); }

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

TEST(SafetensorsHeaderTest, CrateDocumentationExampleByteByByte) {
  const std::string bytes =
      std::string("<\x00\x00\x00\x00\x00\x00\x00", 8) +
      R"({"test":{"dtype":"I32","shape":[2,2],"data_offsets":[0,16]}})" + std::string(16, '\0');
  const Checkpoint model = Unwrap(ParseSafetensorsHeader("doc.safetensors", bytes, 84));
  EXPECT_EQ(model.format, "safetensors");
  ASSERT_EQ(model.files.size(), 1u);
  EXPECT_EQ(model.files[0].path, "doc.safetensors");
  EXPECT_EQ(model.files[0].size, 84u);
  ASSERT_EQ(model.tensors.size(), 1u);
  EXPECT_THAT(model.tensors[0], TensorIs("test", "I32", std::vector<int64_t>{2, 2}, 0, 68, 16));
  EXPECT_EQ(model.tensors[0].type, (ElementType{"I32", 1, 4}));
  EXPECT_TRUE(model.metadata.empty());
}

TEST(SafetensorsHeaderTest, TensorsKeepHeaderOrderWithAbsoluteOffsets) {
  // Stored b then a, listed a then b; padded with spaces as writers do.
  const std::string header =
      R"({"a":{"dtype":"F16","shape":[3],"data_offsets":[2,8]},"b":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}}  )";
  const Checkpoint model = Unwrap(ParseFile(header, std::string(8, 'x')));
  const uint64_t data = 8 + header.size();
  EXPECT_THAT(model.tensors, ElementsAre(TensorIs("a", "F16", std::vector<int64_t>{3}, 0, data + 2, 6),
                                         TensorIs("b", "U8", std::vector<int64_t>{2}, 0, data, 2)));
}

TEST(SafetensorsHeaderTest, MetadataIsKeptInHeaderOrder) {
  const Checkpoint model = Unwrap(ParseFile(R"({"__metadata__":{"format":"pt","b":"2"}})", ""));
  ASSERT_EQ(model.metadata.size(), 2u);
  EXPECT_EQ(model.metadata[0].key, "format");
  EXPECT_EQ(model.metadata[0].value, "pt");
  EXPECT_EQ(model.metadata[1].key, "b");
  EXPECT_EQ(model.metadata[1].value, "2");
}

TEST(SafetensorsHeaderTest, NullMetadataIsNoMetadata) {
  EXPECT_TRUE(Unwrap(ParseFile(R"({"__metadata__":null})", "")).metadata.empty());
}

TEST(SafetensorsHeaderTest, ScalarAndEmptyTensors) {
  const Checkpoint model = Unwrap(ParseFile(
      R"({"s":{"dtype":"F64","shape":[],"data_offsets":[0,8]},"e":{"dtype":"F32","shape":[0,5],"data_offsets":[8,8]}})",
      std::string(8, '\0')));
  EXPECT_EQ(model.tensors[0].shape, std::vector<int64_t>{});
  EXPECT_EQ(model.tensors[0].size, 8u);
  EXPECT_EQ(model.tensors[1].shape, (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(model.tensors[1].size, 0u);
}

TEST(SafetensorsHeaderTest, UnknownTensorFieldsAreIgnoredAsTheCrateDoes) {
  EXPECT_EQ(Unwrap(ParseFile(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":1}})", "x")).tensors.size(), 1u);
}

TEST(SafetensorsHeaderTest, BytesPastTheHeaderAreIgnored) {
  const std::string bytes = FileBytes("{}", "") + "junk";
  EXPECT_TRUE(Unwrap(ParseSafetensorsHeader("m", bytes, 10)).tensors.empty());
}

TEST(SafetensorsElementTypeTest, EveryDtypeOfTheFormatWithItsBlock) {
  const std::vector<ElementType> expected = {
      {"BOOL", 1, 1},        {"F4", 2, 1},          {"F6_E2M3", 4, 3}, {"F6_E3M2", 4, 3}, {"U8", 1, 1},
      {"I8", 1, 1},          {"F8_E5M2", 1, 1},     {"F8_E4M3", 1, 1}, {"F8_E8M0", 1, 1}, {"F8_E4M3FNUZ", 1, 1},
      {"F8_E5M2FNUZ", 1, 1}, {"I16", 1, 2},         {"U16", 1, 2},     {"F16", 1, 2},     {"BF16", 1, 2},
      {"I32", 1, 4},         {"U32", 1, 4},         {"F32", 1, 4},     {"C64", 1, 8},     {"F64", 1, 8},
      {"I64", 1, 8},         {"U64", 1, 8},
  };
  for (const ElementType& type : expected) {
    EXPECT_EQ(Unwrap(SafetensorsElementType(type.name)), type) << type.name;
  }
}

TEST(SafetensorsElementTypeTest, UnknownNameIsRefusedListingTheFormatsNames) {
  EXPECT_THAT(SafetensorsElementType("F12"),
              StatusIs(kInvalid, "unknown safetensors dtype `F12`, expected one of BOOL, F4, F6_E2M3, F6_E3M2, U8, "
                                 "I8, F8_E5M2, F8_E4M3, F8_E8M0, F8_E4M3FNUZ, F8_E5M2FNUZ, I16, U16, F16, BF16, "
                                 "I32, U32, F32, C64, F64, I64, U64"));
}

TEST(SafetensorsHeaderTest, SubByteTensorSizeIsItsBitsOverEight) {
  const Checkpoint model = Unwrap(ParseFile(
      R"({"f4":{"dtype":"F4","shape":[2,3],"data_offsets":[0,3]},"f6":{"dtype":"F6_E2M3","shape":[4],"data_offsets":[3,6]}})",
      std::string(6, '\0')));
  EXPECT_EQ(model.tensors[0].size, 3u);
  EXPECT_EQ(model.tensors[1].size, 3u);
}

TEST(SafetensorsHeaderTest, SubByteTensorNotEndingOnAByteIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"F4","shape":[3],"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 54: tensor `a`: 3 F4 elements are 12 bits, which do not end "
                                 "on a byte boundary"));
}

TEST(SafetensorsHeaderTest, FileShorterThanTheLengthIsRefused) {
  EXPECT_THAT(ParseSafetensorsHeader("m", "abc", 3),
              StatusIs(kInvalid, "m: byte 0: header too small: the file is 3 bytes, shorter than the 8-byte header "
                                 "length"));
}

TEST(SafetensorsHeaderTest, HeaderOverTheLimitIsRefused) {
  const std::string bytes("\x01\xE1\xF5\x05\x00\x00\x00\x00", 8);  // 100,000,001
  EXPECT_THAT(ParseSafetensorsHeader("m", bytes, 200'000'000),
              StatusIs(kInvalid, "m: byte 0: header too large: the header length is 100000001 bytes, over the limit "
                                 "of 100000000"));
}

TEST(SafetensorsHeaderTest, HeaderAtTheLimitIsNotTooLarge) {
  const std::string bytes("\x00\xE1\xF5\x05\x00\x00\x00\x00", 8);  // 100,000,000
  EXPECT_THAT(ParseSafetensorsHeader("m", bytes, 100),
              StatusIs(kInvalid, HasSubstr("invalid header length: the header length 100000000 runs past")));
}

TEST(SafetensorsHeaderTest, HeaderLengthPastTheFileIsRefused) {
  const std::string bytes = std::string("\x0A\x00\x00\x00\x00\x00\x00\x00", 8) + "{}";
  EXPECT_THAT(ParseSafetensorsHeader("m", bytes, 10),
              StatusIs(kInvalid, "m: byte 0: invalid header length: the header length 10 runs past the end of the "
                                 "file (10 bytes)"));
}

TEST(SafetensorsHeaderTest, LengthNearUint64MaxDoesNotWrap) {
  const std::string bytes(8, '\xFF');
  EXPECT_THAT(ParseSafetensorsHeader("m", bytes, 8), StatusIs(kInvalid, HasSubstr("header too large")));
}

TEST(SafetensorsHeaderTest, FewerBytesThanTheHeaderIsRefused) {
  const std::string bytes = FileBytes("{}", "");
  EXPECT_THAT(ParseSafetensorsHeader("m", bytes.substr(0, 9), 10),
              StatusIs(kInvalid, "m: byte 0: only 9 bytes given, fewer than the 8 + 2 of the length and the header"));
}

TEST(SafetensorsHeaderTest, InvalidUtf8IsRefusedAtItsByte) {
  EXPECT_THAT(ParseFile("{\"a\xFF\":1}", ""), StatusIs(kInvalid, "m.safetensors: byte 11: invalid UTF-8 in header"));
}

TEST(SafetensorsHeaderTest, InvalidJsonIsRefusedAtItsByte) {
  EXPECT_THAT(ParseFile("{} x", ""),
              StatusIs(kInvalid, "m.safetensors: byte 11: invalid JSON in header: trailing characters after the JSON "
                                 "value: 'x'"));
}

TEST(SafetensorsHeaderTest, HeaderThatIsNotAnObjectIsRefused) {
  EXPECT_THAT(ParseFile("[]", ""), StatusIs(kInvalid, "m.safetensors: byte 8: the header is an array, expected an object"));
}

TEST(SafetensorsHeaderTest, DuplicateTensorNameIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
                        "xy"),
              StatusIs(kInvalid, "m.safetensors: byte 61: invalid JSON in header: duplicate key \"a\" (first at byte 9)"));
}

TEST(SafetensorsHeaderTest, MetadataThatIsNotAnObjectIsRefused) {
  EXPECT_THAT(ParseFile(R"({"__metadata__":[]})", ""),
              StatusIs(kInvalid, "m.safetensors: byte 24: __metadata__ is an array, expected an object of strings"));
}

TEST(SafetensorsHeaderTest, MetadataValueThatIsNotAStringIsRefused) {
  EXPECT_THAT(ParseFile(R"({"__metadata__":{"a":1}})", ""),
              StatusIs(kInvalid, "m.safetensors: byte 29: __metadata__ value of `a` is an integer, expected a string"));
}

TEST(SafetensorsHeaderTest, TensorThatIsNotAnObjectIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":1})", ""),
              StatusIs(kInvalid, "m.safetensors: byte 13: tensor `a` is an integer, expected an object with dtype, "
                                 "shape and data_offsets"));
}

TEST(SafetensorsHeaderTest, MissingFieldIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[1]}})", ""),
              StatusIs(kInvalid, "m.safetensors: byte 13: tensor `a` has no `data_offsets`"));
}

TEST(SafetensorsHeaderTest, UnknownDtypeIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"F12","shape":[1],"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, HasSubstr("m.safetensors: byte 22: tensor `a` has unknown dtype `F12`, expected one "
                                           "of BOOL, F4,")));
}

TEST(SafetensorsHeaderTest, DtypeThatIsNotAStringIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":4,"shape":[1],"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 22: tensor `a` dtype is an integer, expected a string"));
}

TEST(SafetensorsHeaderTest, NegativeDimensionIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[-1],"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 36: tensor `a` shape[0] is -1, expected a non-negative "
                                 "integer"));
}

TEST(SafetensorsHeaderTest, FractionalDimensionIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[1.5],"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 36: tensor `a` shape[0] is a number (1.5), expected a "
                                 "non-negative integer"));
}

TEST(SafetensorsHeaderTest, DimensionBeyondInt64IsRefusedOnPurpose) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[0,9223372036854775808],"data_offsets":[0,0]}})", ""),
              StatusIs(kInvalid, "m.safetensors: byte 38: tensor `a` shape[1] is a number (9.22337e+18), expected a "
                                 "non-negative integer"));
}

TEST(SafetensorsHeaderTest, ShapeThatIsNotAnArrayIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":1,"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 35: tensor `a` shape is an integer, expected an array"));
}

TEST(SafetensorsHeaderTest, DataOffsetsOfThreeIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1,2]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 54: tensor `a` data_offsets is an array of 3, expected "
                                 "[begin, end]"));
}

TEST(SafetensorsHeaderTest, NegativeOffsetIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[-1,1]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 55: tensor `a` begin is -1, expected a non-negative integer"));
}

TEST(SafetensorsHeaderTest, EndBeforeBeginIsAnInvalidOffset) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[0],"data_offsets":[0,0]},"b":{"dtype":"U8","shape":[0],"data_offsets":[0,-0]},"c":{"dtype":"U8","shape":[0],"data_offsets":[5,4]}})", ""),
              StatusIs(kInvalid, HasSubstr("invalid offset for tensor `c`: data_offsets [5, 4]")));
}

TEST(SafetensorsHeaderTest, FirstTensorNotAtZeroLeavesAHole) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", "xy"),
              StatusIs(kInvalid, "m.safetensors: byte 54: invalid offset for tensor `a`: data_offsets [1, 2] leave "
                                 "bytes [0, 1) of the data area to no tensor"));
}

TEST(SafetensorsHeaderTest, OverlappingTensorsAreRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", "xx"),
              StatusIs(kInvalid, "m.safetensors: byte 106: invalid offset for tensor `b`: data_offsets [1, 2] "
                                 "overlap the tensor before, which ends at 2"));
}

TEST(SafetensorsHeaderTest, SizeDisagreeingWithShapeAndDtypeIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,15]}})", std::string(15, 'x')),
              StatusIs(kInvalid, "m.safetensors: byte 57: invalid shape, data type, or offset for tensor `a`: F32 "
                                 "[2, 2] is 16 bytes, data_offsets [0, 15] hold 15"));
}

TEST(SafetensorsHeaderTest, ElementCountOverflowIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[4294967296,4294967296],"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 74: tensor `a` shape [4294967296, 4294967296]: overflow "
                                 "computing buffer size from shape and/or element type"));
}

TEST(SafetensorsHeaderTest, BitCountOverflowIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U64","shape":[4611686018427387904],"data_offsets":[0,1]}})", "x"),
              StatusIs(kInvalid, HasSubstr("tensor `a` shape [4611686018427387904]: overflow computing buffer size")));
}

TEST(SafetensorsHeaderTest, DataEndingBeforeTheFileIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "xy"),
              StatusIs(kInvalid, "m.safetensors: byte 62: incomplete metadata, file not fully covered: the tensors' "
                                 "data ends at byte 62 but the file is 63 bytes"));
}

TEST(SafetensorsHeaderTest, DataPastTheFileIsRefused) {
  EXPECT_THAT(ParseFile(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})", "x"),
              StatusIs(kInvalid, "m.safetensors: byte 63: incomplete metadata, file not fully covered: the tensors' "
                                 "data ends at byte 63 but the file is 62 bytes"));
}

TEST(SafetensorsFileTest, ReadsTheHeaderOfAFile) {
  const std::string path = TempPath("one.safetensors");
  WriteFile(path, FileBytes(R"({"w":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})", "abcd"));
  const Checkpoint model = Unwrap(ReadSafetensorsFile(path));
  EXPECT_EQ(model.files[0].path, path);
  EXPECT_EQ(model.files[0].size, 67u);
  EXPECT_THAT(model.tensors, ElementsAre(TensorIs("w", "BF16", std::vector<int64_t>{2}, 0, 63, 4)));
}

TEST(SafetensorsFileTest, MissingFileIsNotFound) {
  EXPECT_THAT(ReadSafetensorsFile(TempPath("absent.safetensors")),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("cannot open")));
}

TEST(SafetensorsFileTest, TooLargeLengthIsRefusedWithoutReadingIt) {
  const std::string path = TempPath("large.safetensors");
  WriteFile(path, std::string(8, '\x7F'));
  EXPECT_THAT(ReadSafetensorsFile(path), StatusIs(kInvalid, HasSubstr(": byte 0: header too large")));
}

class SafetensorsIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TempPath(::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    ASSERT_TRUE(std::filesystem::create_directories(dir_));
    WriteFile(dir_ + "/model-00001-of-00002.safetensors",
              FileBytes(R"({"__metadata__":{"format":"pt"},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
                        "abcd"));
    WriteFile(dir_ + "/model-00002-of-00002.safetensors",
              FileBytes(R"({"__metadata__":{"format":"pt"},"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})",
                        "ab"));
  }
  std::string WriteIndex(const std::string& json) {
    const std::string path = dir_ + "/model.safetensors.index.json";
    WriteFile(path, json);
    return path;
  }
  std::string dir_;
};

TEST_F(SafetensorsIndexTest, ReadsEveryFileInNameOrder) {
  const std::string index = WriteIndex(
      R"({"metadata":{"total_size":6},"weight_map":{"a":"model-00002-of-00002.safetensors","b":"model-00001-of-00002.safetensors"}})");
  const Checkpoint model = Unwrap(ReadSafetensorsIndex(index));
  ASSERT_EQ(model.files.size(), 2u);
  EXPECT_EQ(model.files[0].path, dir_ + "/model-00001-of-00002.safetensors");
  EXPECT_EQ(model.files[0].size, 97u);
  EXPECT_EQ(model.files[1].path, dir_ + "/model-00002-of-00002.safetensors");
  EXPECT_THAT(model.tensors, ElementsAre(TensorIs("b", "F32", std::vector<int64_t>{1}, 0, 93, 4),
                                         TensorIs("a", "U8", std::vector<int64_t>{2}, 1, 92, 2)));
  ASSERT_EQ(model.metadata.size(), 2u);
  EXPECT_EQ(model.metadata[0].key, "total_size");
  EXPECT_EQ(model.metadata[0].value, "6");
  EXPECT_EQ(model.metadata[1].key, "format");
  EXPECT_EQ(model.metadata[1].value, "pt");
}

TEST_F(SafetensorsIndexTest, EntryMissingFromItsFileIsRefused) {
  const std::string index = WriteIndex(
      R"({"weight_map":{"a":"model-00002-of-00002.safetensors","b":"model-00001-of-00002.safetensors","c":"model-00001-of-00002.safetensors"}})");
  EXPECT_THAT(ReadSafetensorsIndex(index),
              StatusIs(kInvalid, index + ": byte 97: weight_map puts tensor `c` in `model-00001-of-00002.safetensors`, "
                                         "which does not contain it"));
}

TEST_F(SafetensorsIndexTest, FileTensorMissingFromWeightMapIsRefused) {
  WriteFile(dir_ + "/two.safetensors",
            FileBytes(R"({"x":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"y":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
                      "xy"));
  const std::string index = WriteIndex(R"({"weight_map":{"x":"two.safetensors"}})");
  EXPECT_THAT(ReadSafetensorsIndex(index),
              StatusIs(kInvalid, dir_ + "/two.safetensors: byte 61: tensor `y` is not in the weight_map of " + index));
}

TEST_F(SafetensorsIndexTest, TensorListedUnderAnotherFileIsRefused) {
  const std::string index = WriteIndex(
      R"({"weight_map":{"a":"model-00001-of-00002.safetensors","b":"model-00002-of-00002.safetensors"}})");
  EXPECT_THAT(ReadSafetensorsIndex(index),
              StatusIs(kInvalid, dir_ + "/model-00001-of-00002.safetensors: byte 40: tensor `b` is in the weight_map "
                                        "of " + index + " under `model-00002-of-00002.safetensors`, not this file"));
}

TEST_F(SafetensorsIndexTest, ParentDirectoryIsRefused) {
  const std::string index = WriteIndex(R"({"weight_map":{"a":"../x.safetensors"}})");
  EXPECT_THAT(ReadSafetensorsIndex(index),
              StatusIs(kInvalid, index + ": byte 19: weight_map puts tensor `a` in `../x.safetensors`, which is not a "
                                         "relative path inside the index's directory"));
}

TEST_F(SafetensorsIndexTest, AbsolutePathIsRefused) {
  const std::string index = WriteIndex(R"({"weight_map":{"a":"/etc/x.safetensors"}})");
  EXPECT_THAT(ReadSafetensorsIndex(index), StatusIs(kInvalid, HasSubstr("which is not a relative path")));
}

TEST_F(SafetensorsIndexTest, MissingWeightMapIsRefused) {
  const std::string index = WriteIndex(R"({"metadata":{}})");
  EXPECT_THAT(ReadSafetensorsIndex(index), StatusIs(kInvalid, index + ": byte 0: the index has no `weight_map`"));
}

TEST_F(SafetensorsIndexTest, MissingShardIsNotFound) {
  const std::string index = WriteIndex(R"({"weight_map":{"a":"model-00009.safetensors"}})");
  EXPECT_THAT(ReadSafetensorsIndex(index), StatusIs(absl::StatusCode::kNotFound, HasSubstr("model-00009.safetensors")));
}

TEST_F(SafetensorsIndexTest, MalformedShardIsRefusedNamingIt) {
  WriteFile(dir_ + "/bad.safetensors", "abc");
  const std::string index = WriteIndex(R"({"weight_map":{"a":"bad.safetensors"}})");
  EXPECT_THAT(ReadSafetensorsIndex(index),
              StatusIs(kInvalid, dir_ + "/bad.safetensors: byte 0: header too small: the file is 3 bytes, shorter "
                                        "than the 8-byte header length"));
}

}  // namespace
}  // namespace tessera::checkpoint
