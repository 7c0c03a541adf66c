// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// GGUF headers (core/checkpoint/gguf.h, gguf_split.h, gguf_types.h): files
// written byte by byte here, read into the Checkpoint model, and one test per
// rule the reader enforces, with its exact message.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/checkpoint/gguf.h"
#include "core/checkpoint/gguf_split.h"
#include "core/checkpoint/gguf_types.h"
#include "tests/core/testing.h"

namespace tessera::checkpoint {
namespace {

using ::tessera::testing::IsOk;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A GGUF file assembled field by field, little-endian.
class Gguf {
 public:
  Gguf& U8(uint8_t v) { return Raw(&v, 1); }
  Gguf& U16(uint16_t v) { return Raw(&v, 2); }
  Gguf& U32(uint32_t v) { return Raw(&v, 4); }
  Gguf& U64(uint64_t v) { return Raw(&v, 8); }
  Gguf& F32(float v) { return Raw(&v, 4); }
  Gguf& F64(double v) { return Raw(&v, 8); }
  Gguf& Str(const std::string& s) {
    U64(s.size());
    bytes_ += s;
    return *this;
  }
  // Magic, version and the two counts.
  Gguf& Head(uint64_t tensors, uint64_t kvs, uint32_t version = 3) {
    bytes_ += "GGUF";
    return U32(version).U64(tensors).U64(kvs);
  }
  Gguf& Tensor(const std::string& name, std::vector<int64_t> ne, uint32_t type, uint64_t offset) {
    Str(name).U32(static_cast<uint32_t>(ne.size()));
    for (int64_t n : ne) U64(static_cast<uint64_t>(n));
    return U32(type).U64(offset);
  }
  Gguf& PadTo(uint64_t alignment) {
    while (bytes_.size() % alignment != 0) bytes_.push_back('\0');
    return *this;
  }
  Gguf& Zeros(size_t n) {
    bytes_.append(n, '\0');
    return *this;
  }
  size_t size() const { return bytes_.size(); }
  const std::string& bytes() const { return bytes_; }

 private:
  Gguf& Raw(const void* p, size_t n) {
    bytes_.append(static_cast<const char*>(p), n);
    return *this;
  }
  std::string bytes_;
};

absl::StatusOr<Checkpoint> Parse(const Gguf& file) {
  return ParseGgufHeader("m.gguf", file.bytes(), file.size());
}

std::string Value(const Checkpoint& checkpoint, const std::string& key) {
  for (const MetadataEntry& entry : checkpoint.metadata) {
    if (entry.key == key) return entry.value;
  }
  return "<absent>";
}

// One key/value: `kv` writes the value after the key and type.
Gguf OneKv(const std::string& key, uint32_t type, void (*kv)(Gguf&)) {
  Gguf file;
  file.Head(0, 1).Str(key).U32(type);
  kv(file);
  return file;
}

TEST(GgufHeaderTest, ReadsTensorsWithShapeOutermostFirstAndAbsoluteOffsets) {
  Gguf file;
  file.Head(2, 1).Str("general.architecture").U32(8).Str("llama");
  file.Tensor("token_embd.weight", {3, 2}, /*F32*/ 0, 0);
  file.Tensor("blk.0.attn_q.weight", {256, 4, 2}, /*Q4_K*/ 12, 32);
  ASSERT_EQ(file.size(), 193u);  // the header; the data starts at 224
  file.PadTo(32).Zeros(32 + 8 * 144);

  Checkpoint checkpoint = Unwrap(Parse(file));

  EXPECT_EQ(checkpoint.format, "gguf");
  ASSERT_EQ(checkpoint.files.size(), 1u);
  EXPECT_EQ(checkpoint.files[0].path, "m.gguf");
  EXPECT_EQ(checkpoint.files[0].size, 224u + 32 + 1152);
  ASSERT_EQ(checkpoint.tensors.size(), 2u);
  const Tensor& embd = checkpoint.tensors[0];
  EXPECT_EQ(embd.name, "token_embd.weight");
  EXPECT_EQ(embd.type, (ElementType{"F32", 1, 4}));
  EXPECT_THAT(embd.shape, ElementsAre(2, 3));
  EXPECT_EQ(embd.file_index, 0u);
  EXPECT_EQ(embd.offset, 224u);
  EXPECT_EQ(embd.size, 24u);
  const Tensor& q = checkpoint.tensors[1];
  EXPECT_EQ(q.type, (ElementType{"Q4_K", 256, 144}));
  EXPECT_THAT(q.shape, ElementsAre(2, 4, 256));
  EXPECT_EQ(q.offset, 256u);
  EXPECT_EQ(q.size, 8u * 144);
  ASSERT_EQ(checkpoint.metadata.size(), 1u);
  EXPECT_EQ(checkpoint.metadata[0].key, "general.architecture");
  EXPECT_EQ(checkpoint.metadata[0].value, "llama");
}

TEST(GgufHeaderTest, RendersEveryValueType) {
  Gguf file;
  file.Head(0, 13);
  file.Str("u8").U32(0).U8(200);
  file.Str("i8").U32(1).U8(0xFF);
  file.Str("u16").U32(2).U16(65535);
  file.Str("i16").U32(3).U16(0x8000);
  file.Str("u32").U32(4).U32(4000000000u);
  file.Str("i32").U32(5).U32(0xFFFFFFFEu);
  file.Str("f32").U32(6).F32(0.1f);
  file.Str("bool").U32(7).U8(1);
  file.Str("string").U32(8).Str("a, b");
  file.Str("array").U32(9).U32(5).U64(3).U32(1).U32(2).U32(0xFFFFFFFFu);
  file.Str("u64").U32(10).U64(18446744073709551615u);
  file.Str("i64").U32(11).U64(0x8000000000000000u);
  file.Str("f64").U32(12).F64(0.1);

  Checkpoint checkpoint = Unwrap(Parse(file));

  std::vector<std::pair<std::string, std::string>> got;
  for (const MetadataEntry& entry : checkpoint.metadata) got.emplace_back(entry.key, entry.value);
  EXPECT_THAT(got, ElementsAre(std::pair<std::string, std::string>{"u8", "200"},
                               std::pair<std::string, std::string>{"i8", "-1"},
                               std::pair<std::string, std::string>{"u16", "65535"},
                               std::pair<std::string, std::string>{"i16", "-32768"},
                               std::pair<std::string, std::string>{"u32", "4000000000"},
                               std::pair<std::string, std::string>{"i32", "-2"},
                               std::pair<std::string, std::string>{"f32", "0.100000001"},
                               std::pair<std::string, std::string>{"bool", "true"},
                               std::pair<std::string, std::string>{"string", "a, b"},
                               std::pair<std::string, std::string>{"array", "[1, 2, -1]"},
                               std::pair<std::string, std::string>{"u64", "18446744073709551615"},
                               std::pair<std::string, std::string>{"i64", "-9223372036854775808"},
                               std::pair<std::string, std::string>{"f64", "0.10000000000000001"}));
}

TEST(GgufHeaderTest, RendersNestedArraysAndStringArrays) {
  Gguf file;
  file.Head(0, 2);
  file.Str("nested").U32(9).U32(9).U64(2);
  file.U32(0).U64(2).U8(1).U8(2);
  file.U32(7).U64(1).U8(0);
  file.Str("tokens").U32(9).U32(8).U64(2).Str("<s>").Str("");
  Checkpoint checkpoint = Unwrap(Parse(file));
  EXPECT_EQ(Value(checkpoint, "nested"), "[[1, 2], [false]]");
  EXPECT_EQ(Value(checkpoint, "tokens"), "[<s>, ]");
}

TEST(GgufHeaderTest, ElidesArrayElementsPastSixteenWithTheCount) {
  Gguf file;
  file.Head(0, 1).Str("a").U32(9).U32(0).U64(20);
  for (int i = 0; i < 20; ++i) file.U8(static_cast<uint8_t>(i));
  EXPECT_EQ(Value(Unwrap(Parse(file)), "a"),
            "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ... (20 elements)]");
}

TEST(GgufHeaderTest, ReadsVersion2AsVersion3) {
  Gguf file;
  file.Head(1, 0, /*version=*/2).Tensor("t", {4}, /*F16*/ 1, 0).PadTo(32).Zeros(8);
  Checkpoint checkpoint = Unwrap(Parse(file));
  ASSERT_EQ(checkpoint.tensors.size(), 1u);
  EXPECT_EQ(checkpoint.tensors[0].offset, 64u);
  EXPECT_EQ(checkpoint.tensors[0].size, 8u);
}

TEST(GgufHeaderTest, ReadsAScalarTensorWithNoDimensions) {
  Gguf file;
  file.Head(1, 0).Tensor("s", {}, /*F32*/ 0, 0).PadTo(32).Zeros(4);
  Checkpoint checkpoint = Unwrap(Parse(file));
  EXPECT_TRUE(checkpoint.tensors[0].shape.empty());
  EXPECT_EQ(checkpoint.tensors[0].size, 4u);
}

TEST(GgufHeaderTest, StartsTheDataAtTheHeaderEndAlignedToGeneralAlignment) {
  Gguf file;
  file.Head(1, 1).Str("general.alignment").U32(4).U32(64);
  file.Tensor("t", {1}, /*I8*/ 24, 0);
  ASSERT_EQ(file.size(), 90u);
  file.PadTo(64).Zeros(1);
  EXPECT_EQ(Unwrap(Parse(file)).tensors[0].offset, 128u);
}

TEST(GgufHeaderTest, AsksForMoreBytesWhenThePrefixEndsInsideTheHeader) {
  Gguf file;
  file.Head(0, 1).Str("k").U32(8).Str("value");
  EXPECT_THAT(ParseGgufHeader("m.gguf", file.bytes().substr(0, 30), file.size()),
              StatusIs(absl::StatusCode::kOutOfRange, "m.gguf: the header continues past the first 30 bytes"));
}

TEST(GgufHeaderTest, RefusesAWrongMagic) {
  EXPECT_THAT(ParseGgufHeader("m.gguf", std::string("GGML\3\0\0\0", 8), 8),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "m.gguf: byte 0: magic is \"GGML\", not \"GGUF\": not a GGUF file"));
}

TEST(GgufHeaderTest, RefusesVersion1) {
  Gguf file;
  file.Head(0, 0, 1);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 4: GGUF version 1 (32-bit counts) is not supported; "
                                    "expected version 2 or 3"));
}

TEST(GgufHeaderTest, RefusesAnUnknownVersion) {
  Gguf file;
  file.Head(0, 0, 4);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 4: GGUF version 4 is not supported; expected version 2 or 3"));
}

TEST(GgufHeaderTest, RefusesABigEndianFile) {
  Gguf file;
  file.Head(0, 0, 0x03000000u);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 4: version reads as 50331648: a big-endian GGUF file, "
                                    "which is not supported"));
}

TEST(GgufHeaderTest, RefusesAFileEndingInsideAField) {
  Gguf file;
  file.Head(0, 1).Str("key").U32(4).U16(7);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 39: the file ends (at byte 41) inside a uint32_t value"));
}

TEST(GgufHeaderTest, RefusesAKeyValueCountTheFileCannotHold) {
  Gguf file;
  file.Head(0, 3).Zeros(38);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 16: key/value count 3 does not fit in the 38 bytes of the "
                                    "file that follow"));
}

TEST(GgufHeaderTest, RefusesATensorCountTheFileCannotHold) {
  Gguf file;
  file.Head(uint64_t{1} << 62, 0);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 8: tensor count 4611686018427387904 does not fit in the 0 "
                                    "bytes of the file that follow"));
}

TEST(GgufHeaderTest, RefusesAStringLongerThanTheRestOfTheFile) {
  Gguf file;
  file.Head(0, 1).U64(~uint64_t{0}).Zeros(8);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 24: a metadata key has length 18446744073709551615 but only 8 "
                                    "bytes of the file follow"));
}

TEST(GgufHeaderTest, RefusesAnArrayLongerThanTheRestOfTheFile) {
  Gguf file = OneKv("a", 9, [](Gguf& f) { f.U32(4).U64(3).U32(1).U32(2); });
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 41: array of 3 elements does not fit in the 8 bytes of the "
                                    "file that follow"));
}

TEST(GgufHeaderTest, RefusesAnUnknownValueType) {
  Gguf file = OneKv("k", 13, [](Gguf& f) { f.U32(0); });
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 33: value type 13 is not a GGUF type (0 to 12)"));
}

TEST(GgufHeaderTest, RefusesAnUnknownArrayElementType) {
  Gguf file = OneKv("k", 9, [](Gguf& f) { f.U32(13).U64(0); });
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 37: array element type 13 is not a GGUF type (0 to 12)"));
}

TEST(GgufHeaderTest, RefusesArraysNestedDeeperThanSixtyFour) {
  Gguf file;
  file.Head(0, 1).Str("k").U32(9);
  for (int i = 0; i < 70; ++i) file.U32(9).U64(1);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 805: arrays nest deeper than 64 levels"));
}

TEST(GgufHeaderTest, RefusesABoolOtherThanZeroOrOne) {
  Gguf file = OneKv("k", 7, [](Gguf& f) { f.U8(2); });
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 37: bool value 2 is neither 0 nor 1"));
}

TEST(GgufHeaderTest, RefusesARepeatedKey) {
  Gguf file;
  file.Head(0, 2).Str("k").U32(0).U8(1).Str("k").U32(0).U8(2);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 38: metadata key \"k\" appears twice"));
}

TEST(GgufHeaderTest, RefusesAnAlignmentThatIsNotAUint32) {
  Gguf file = OneKv("general.alignment", 10, [](Gguf& f) { f.U64(32); });
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 49: general.alignment has value type 10; expected 4 (uint32)"));
}

TEST(GgufHeaderTest, RefusesAnAlignmentThatIsNotAPowerOfTwo) {
  Gguf file = OneKv("general.alignment", 4, [](Gguf& f) { f.U32(48); });
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 53: general.alignment is 48; expected a power of two"));
}

TEST(GgufHeaderTest, RefusesAnAlignmentOfZero) {
  Gguf file = OneKv("general.alignment", 4, [](Gguf& f) { f.U32(0); });
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 53: general.alignment is 0; expected a power of two"));
}

TEST(GgufHeaderTest, RefusesMoreThanFourDimensions) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {1, 1, 1, 1, 1}, 0, 0).PadTo(32).Zeros(4);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 33: tensor \"t\" has 5 dimensions; GGUF allows at most 4"));
}

TEST(GgufHeaderTest, RefusesANegativeDimension) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {4, -1}, 0, 0).PadTo(32).Zeros(16);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 45: tensor \"t\" has dimension -1 (ne[1]); dimensions are not "
                                    "negative"));
}

TEST(GgufHeaderTest, RefusesMoreThanTwoToTheSixtyThreeElements) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {int64_t{1} << 32, int64_t{1} << 32}, 0, 0).PadTo(32).Zeros(4);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 33: tensor \"t\" has more than 2^63 elements"));
}

TEST(GgufHeaderTest, RefusesATypeGgmlRemoved) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {32}, /*Q4_2, removed*/ 4, 0).PadTo(32).Zeros(32);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 45: tensor \"t\" has type 4, which is not a ggml type"));
}

TEST(GgufHeaderTest, RefusesARowThatIsNotAWholeNumberOfBlocks) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {100, 2}, /*Q8_0*/ 8, 0).PadTo(32).Zeros(256);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 33: tensor \"t\" of type Q8_0 has 100 elements per row "
                                    "(ne[0]), not a multiple of its block of 32"));
}

TEST(GgufHeaderTest, RefusesARepeatedTensorName) {
  Gguf file;
  file.Head(2, 0).Tensor("t", {1}, 0, 0).Tensor("t", {1}, 0, 32).PadTo(32).Zeros(64);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 57: tensor name \"t\" appears twice"));
}

TEST(GgufHeaderTest, RefusesAnOffsetOffTheAlignment) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {1}, 0, 4).PadTo(32).Zeros(64);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 49: tensor \"t\" has offset 4, not a multiple of the "
                                    "alignment 32"));
}

TEST(GgufHeaderTest, RefusesATensorEndingPastTheFile) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {8}, 0, 0).PadTo(32).Zeros(31);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 49: tensor \"t\" (32 bytes at offset 0 of the data section "
                                    "starting at byte 64) ends past the end of the file (95 bytes)"));
}

TEST(GgufHeaderTest, RefusesAnOffsetNearTwoToTheSixtyFour) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {8}, 0, ~uint64_t{31}).PadTo(32).Zeros(32);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("m.gguf: byte 49: tensor \"t\" (32 bytes at offset "
                                              "18446744073709551584 of the data section")));
}

TEST(GgufHeaderTest, RefusesOverlappingTensors) {
  Gguf file;
  file.Head(2, 0).Tensor("a", {16}, 0, 0).Tensor("b", {8}, 0, 32).PadTo(32).Zeros(64);
  EXPECT_THAT(Parse(file), StatusIs(absl::StatusCode::kInvalidArgument,
                                    "m.gguf: byte 82: tensor \"b\" (bytes 128 to 160) overlaps tensor \"a\" "
                                    "(bytes 96 to 160)"));
}

TEST(GgufHeaderTest, AcceptsTensorsInAnyOrderAndEmptyOnes) {
  Gguf file;
  file.Head(3, 0).Tensor("b", {8}, 0, 32).Tensor("a", {8}, 0, 0).Tensor("e", {0, 8}, 0, 32);
  file.PadTo(32).Zeros(64);
  Checkpoint checkpoint = Unwrap(Parse(file));
  EXPECT_EQ(checkpoint.tensors[0].offset, 192u);
  EXPECT_EQ(checkpoint.tensors[1].offset, 160u);
  EXPECT_EQ(checkpoint.tensors[2].size, 0u);
  EXPECT_THAT(checkpoint.tensors[2].shape, ElementsAre(8, 0));
}

TEST(GgmlTypeTest, HasUpstreamBlocks) {
  EXPECT_EQ(GgmlType(0), (ElementType{"F32", 1, 4}));
  EXPECT_EQ(GgmlType(9), (ElementType{"Q8_1", 32, 36}));
  EXPECT_EQ(GgmlType(14), (ElementType{"Q6_K", 256, 210}));
  EXPECT_EQ(GgmlType(15), (ElementType{"Q8_K", 256, 292}));
  EXPECT_EQ(GgmlType(19), (ElementType{"IQ1_S", 256, 50}));
  EXPECT_EQ(GgmlType(29), (ElementType{"IQ1_M", 256, 56}));
  EXPECT_EQ(GgmlType(30), (ElementType{"BF16", 1, 2}));
  EXPECT_EQ(GgmlType(34), (ElementType{"TQ1_0", 256, 54}));
  EXPECT_EQ(GgmlType(39), (ElementType{"MXFP4", 32, 17}));
  EXPECT_EQ(GgmlType(40), (ElementType{"NVFP4", 64, 36}));
  EXPECT_EQ(GgmlType(41), (ElementType{"Q1_0", 128, 18}));
  EXPECT_EQ(GgmlType(42), (ElementType{"Q2_0", 64, 18}));
}

TEST(GgmlTypeTest, KnowsNoRemovedOrFutureId) {
  for (uint32_t id : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 43u, 0xFFFFFFFFu}) {
    EXPECT_EQ(GgmlType(id), std::nullopt) << id;
  }
}

std::string WriteFile(const std::string& name, const Gguf& file) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << file.bytes();
  return path;
}

TEST(ReadGgufFileTest, ReadsAHeaderLongerThanTheFirstRead) {
  Gguf file;
  file.Head(1, 1).Str("tokenizer.ggml.merges").U32(8).Str(std::string(3 * kGgufFirstRead, 'm'));
  file.Tensor("t", {2}, 0, 0).PadTo(32).Zeros(8);
  Checkpoint checkpoint = Unwrap(ReadGgufFile(WriteFile("long_header.gguf", file)));
  EXPECT_EQ(checkpoint.metadata[0].value.size(), 3 * kGgufFirstRead);
  EXPECT_EQ(checkpoint.tensors[0].offset, file.size() - 8);
}

TEST(ReadGgufFileTest, NamesAMissingFile) {
  EXPECT_THAT(ReadGgufFile(::testing::TempDir() + "absent.gguf"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("cannot open GGUF file ")));
}

// Split k of n (1-based) holding one F32 tensor of 4 elements named tK.
// The values: split.no's at byte 44, split.count's at 69 and, in the first,
// split.tensors.count's at 102; the tensor info at 106 (71 in the others).
Gguf Split(int k, int n, int tensors_total, int no_override = -1) {
  Gguf file;
  file.Head(1, k == 1 ? 3 : 2);
  file.Str("split.no").U32(2).U16(static_cast<uint16_t>(no_override >= 0 ? no_override : k - 1));
  file.Str("split.count").U32(2).U16(static_cast<uint16_t>(n));
  if (k == 1) file.Str("split.tensors.count").U32(5).U32(static_cast<uint32_t>(tensors_total));
  file.Tensor(absl::StrCat("t", k), {4}, 0, 0).PadTo(32).Zeros(16);
  return file;
}

// What gguf-split's errors point at.
TEST(ParseGgufHeaderWithOffsetsTest, GivesWhereTheKeyValuesValuesAndTensorInfosStart) {
  const Gguf file = Split(1, 2, 2);
  GgufHeader header = Unwrap(ParseGgufHeaderWithOffsets("m.gguf", file.bytes(), file.size()));
  EXPECT_EQ(header.metadata_offset, 24u);
  EXPECT_THAT(header.value_offsets, ElementsAre(44, 69, 102));
  EXPECT_THAT(header.tensor_offsets, ElementsAre(106));
  EXPECT_EQ(header.checkpoint.tensors[0].name, "t1");
}

TEST(ReadGgufCheckpointTest, ReadsEverySplitWithItsFileIndex) {
  const std::string first = WriteFile("a-00001-of-00003.gguf", Split(1, 3, 3));
  WriteFile("a-00002-of-00003.gguf", Split(2, 3, 3));
  WriteFile("a-00003-of-00003.gguf", Split(3, 3, 3));
  Checkpoint checkpoint = Unwrap(ReadGgufCheckpoint(first));
  ASSERT_EQ(checkpoint.files.size(), 3u);
  EXPECT_EQ(checkpoint.files[2].path, ::testing::TempDir() + "a-00003-of-00003.gguf");
  ASSERT_EQ(checkpoint.tensors.size(), 3u);
  EXPECT_EQ(checkpoint.tensors[1].name, "t2");
  EXPECT_EQ(checkpoint.tensors[1].file_index, 1u);
  EXPECT_EQ(checkpoint.tensors[2].file_index, 2u);
  EXPECT_EQ(Value(checkpoint, "split.tensors.count"), "3");
}

TEST(ReadGgufCheckpointTest, ReadsAnUnsplitFileAlone) {
  Gguf file;
  file.Head(1, 0).Tensor("t", {4}, 0, 0).PadTo(32).Zeros(16);
  Checkpoint checkpoint = Unwrap(ReadGgufCheckpoint(WriteFile("plain.gguf", file)));
  EXPECT_EQ(checkpoint.files.size(), 1u);
}

TEST(ReadGgufCheckpointTest, RefusesASplitOtherThanTheFirst) {
  const std::string second = WriteFile("b-00002-of-00002.gguf", Split(2, 2, 2));
  EXPECT_THAT(ReadGgufCheckpoint(second),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(second, ": byte 44: split.no is 1; give the first split (split.no 0) of the 2")));
}

TEST(ReadGgufCheckpointTest, RefusesAFirstSplitNamedOtherwise) {
  const std::string first = WriteFile("c.gguf", Split(1, 2, 2));
  EXPECT_THAT(ReadGgufCheckpoint(first),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(first, ": byte 69: the first of 2 splits must be named NAME-00001-of-00002.gguf")));
}

TEST(ReadGgufCheckpointTest, RefusesASiblingWithTheWrongSplitNumber) {
  const std::string first = WriteFile("d-00001-of-00002.gguf", Split(1, 2, 2));
  const std::string second = WriteFile("d-00002-of-00002.gguf", Split(2, 2, 2, /*no_override=*/0));
  EXPECT_THAT(ReadGgufCheckpoint(first),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(second, ": byte 44: split.no is 0; expected 1 (split 2 of 2)")));
}

TEST(ReadGgufCheckpointTest, RefusesASiblingWithAnotherSplitCount) {
  const std::string first = WriteFile("e-00001-of-00002.gguf", Split(1, 2, 2));
  const std::string second = WriteFile("e-00002-of-00002.gguf", Split(2, 3, 2));
  EXPECT_THAT(ReadGgufCheckpoint(first),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(second, ": byte 69: split.count is 3; expected 2 (split 2 of 2)")));
}

TEST(ReadGgufCheckpointTest, RefusesATensorTotalOtherThanSplitTensorsCount) {
  const std::string first = WriteFile("f-00001-of-00002.gguf", Split(1, 2, 5));
  WriteFile("f-00002-of-00002.gguf", Split(2, 2, 5));
  EXPECT_THAT(ReadGgufCheckpoint(first),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(first, ": byte 102: split.tensors.count is 5 but the 2 splits hold 2 tensors")));
}

TEST(ReadGgufCheckpointTest, RefusesATensorInTwoSplits) {
  const std::string first = WriteFile("g-00001-of-00002.gguf", Split(1, 2, 2));
  Gguf second_file;
  second_file.Head(1, 2).Str("split.no").U32(2).U16(1).Str("split.count").U32(2).U16(2);
  second_file.Tensor("t1", {4}, 0, 0).PadTo(32).Zeros(16);
  const std::string second = WriteFile("g-00002-of-00002.gguf", second_file);
  EXPECT_THAT(ReadGgufCheckpoint(first),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(second, ": byte 71: tensor \"t1\" is also in the earlier split ", first)));
}

TEST(ReadGgufCheckpointTest, RefusesASiblingWithoutSplitNoAtItsFirstKeyValue) {
  const std::string first = WriteFile("i-00001-of-00002.gguf", Split(1, 2, 2));
  Gguf second_file;
  second_file.Head(1, 1).Str("split.count").U32(2).U16(2);
  second_file.Tensor("t2", {4}, 0, 0).PadTo(32).Zeros(16);
  const std::string second = WriteFile("i-00002-of-00002.gguf", second_file);
  EXPECT_THAT(ReadGgufCheckpoint(first),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(second, ": byte 24: split.no is missing; expected 1 (split 2 of 2)")));
}

TEST(ReadGgufCheckpointTest, RefusesASplitCountThatIsNotAnIntegerAtItsValue) {
  Gguf file;
  file.Head(0, 1).Str("split.count").U32(8).Str("two");
  const std::string path = WriteFile("j-00001-of-00002.gguf", file);
  EXPECT_THAT(ReadGgufCheckpoint(path),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(path, ": byte 47: split.count is \"two\"; expected an integer")));
}

TEST(ReadGgufCheckpointTest, RefusesASplitCountBelowOneAtItsValue) {
  Gguf file;
  file.Head(0, 1).Str("split.count").U32(5).U32(static_cast<uint32_t>(-3));
  const std::string path = WriteFile("k-00001-of-00002.gguf", file);
  EXPECT_THAT(ReadGgufCheckpoint(path),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat(path, ": byte 47: split.count is -3; expected 1 to 99999")));
}

TEST(ReadGgufCheckpointTest, ReportsAMissingSibling) {
  const std::string first = WriteFile("h-00001-of-00002.gguf", Split(1, 2, 2));
  EXPECT_THAT(ReadGgufCheckpoint(first),
              StatusIs(absl::StatusCode::kNotFound,
                       HasSubstr(absl::StrCat("cannot open GGUF file ", ::testing::TempDir(),
                                              "h-00002-of-00002.gguf"))));
}

}  // namespace
}  // namespace tessera::checkpoint
