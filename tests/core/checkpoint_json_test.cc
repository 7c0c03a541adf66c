// The strict JSON reader under the checkpoint headers: values with their byte
// offsets, RFC 8259's grammar, and the refusals (duplicate keys, unpaired
// surrogates, nesting past the limit) with the offset of the fault.
#include "core/checkpoint/json.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera::checkpoint::json {
namespace {

using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;
using Kind = Value::Kind;

constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

TEST(JsonParseTest, ObjectKeepsMembersInTextOrderWithOffsets) {
  const Value v = Unwrap(Parse(R"({"b": 1, "a": [true, null]})"));
  ASSERT_EQ(v.kind, Kind::kObject);
  ASSERT_EQ(v.object.size(), 2u);
  EXPECT_EQ(v.object[0].key, "b");
  EXPECT_EQ(v.object[0].key_offset, 1u);
  EXPECT_EQ(v.object[0].value.kind, Kind::kInteger);
  EXPECT_EQ(v.object[0].value.integer, 1);
  EXPECT_EQ(v.object[0].value.offset, 6u);
  EXPECT_EQ(v.object[1].key, "a");
  EXPECT_EQ(v.object[1].key_offset, 9u);
  const Value& array = v.object[1].value;
  ASSERT_EQ(array.kind, Kind::kArray);
  EXPECT_EQ(array.offset, 14u);
  ASSERT_EQ(array.array.size(), 2u);
  EXPECT_EQ(array.array[0].kind, Kind::kBool);
  EXPECT_TRUE(array.array[0].boolean);
  EXPECT_EQ(array.array[1].kind, Kind::kNull);
  EXPECT_EQ(array.array[1].offset, 21u);
}

TEST(JsonParseTest, BaseOffsetIsAddedToEveryOffset) {
  const Value v = Unwrap(Parse(R"({"k":"v"})", 8));
  EXPECT_EQ(v.offset, 8u);
  EXPECT_EQ(v.object[0].key_offset, 9u);
  EXPECT_EQ(v.object[0].value.offset, 13u);
}

TEST(JsonParseTest, FindReturnsTheMemberOrNull) {
  const Value v = Unwrap(Parse(R"({"a":1})"));
  ASSERT_NE(v.Find("a"), nullptr);
  EXPECT_EQ(v.Find("a")->integer, 1);
  EXPECT_EQ(v.Find("b"), nullptr);
}

TEST(JsonParseTest, IntegersFitInt64AndTheRestAreNumbers) {
  const Value v = Unwrap(Parse("[9223372036854775807, -9223372036854775808, 9223372036854775808, 1.5, 2e3, -0]"));
  EXPECT_EQ(v.array[0].kind, Kind::kInteger);
  EXPECT_EQ(v.array[0].integer, INT64_MAX);
  EXPECT_EQ(v.array[1].kind, Kind::kInteger);
  EXPECT_EQ(v.array[1].integer, INT64_MIN);
  EXPECT_EQ(v.array[2].kind, Kind::kNumber);
  EXPECT_EQ(v.array[2].number, 9223372036854775808.0);
  EXPECT_EQ(v.array[3].kind, Kind::kNumber);
  EXPECT_EQ(v.array[3].number, 1.5);
  EXPECT_EQ(v.array[4].kind, Kind::kNumber);
  EXPECT_EQ(v.array[4].number, 2000.0);
  EXPECT_EQ(v.array[5].kind, Kind::kInteger);
  EXPECT_EQ(v.array[5].integer, 0);
}

TEST(JsonParseTest, StringEscapesDecode) {
  const Value v = Unwrap(Parse(R"("\"\\\/\b\f\n\r\t\u00e9\u20AC")"));
  EXPECT_EQ(v.string, "\"\\/\b\f\n\r\t\xC3\xA9\xE2\x82\xAC");
}

TEST(JsonParseTest, SurrogatePairDecodesToOneCodePoint) {
  EXPECT_EQ(Unwrap(Parse(R"("\uD83D\uDE00")")).string, "\xF0\x9F\x98\x80");
}

TEST(JsonParseTest, RawUtf8InStringsIsKept) {
  EXPECT_EQ(Unwrap(Parse("\"caf\xC3\xA9\"")).string, "caf\xC3\xA9");
}

TEST(JsonParseTest, WhitespaceAroundTheValueIsAllowed) {
  EXPECT_EQ(Unwrap(Parse(" \t\r\n{} \n")).kind, Kind::kObject);
}

TEST(JsonParseTest, DuplicateKeyIsRefusedNamingBothOffsets) {
  EXPECT_THAT(Parse(R"({"a":1, "a":2})"),
              StatusIs(kInvalid, R"(byte 8: duplicate key "a" (first at byte 1))"));
}

TEST(JsonParseTest, ErrorFillsOffsetAndWhat) {
  Error error;
  EXPECT_THAT(Parse("[1,]", 100, &error), StatusIs(kInvalid, "byte 103: expected a value, found ']'"));
  EXPECT_EQ(error.offset, 103u);
  EXPECT_EQ(error.what, "expected a value, found ']'");
}

TEST(JsonParseTest, TrailingCharactersAreRefused) {
  EXPECT_THAT(Parse("{} x"), StatusIs(kInvalid, "byte 3: trailing characters after the JSON value: 'x'"));
}

TEST(JsonParseTest, TrailingNulIsRefused) {
  EXPECT_THAT(Parse(std::string("{}\0", 3)),
              StatusIs(kInvalid, "byte 2: trailing characters after the JSON value: byte 0x00"));
}

TEST(JsonParseTest, EmptyTextIsRefused) {
  EXPECT_THAT(Parse(""), StatusIs(kInvalid, "byte 0: unexpected end of input, expected a value"));
}

TEST(JsonParseTest, UnterminatedStringIsRefused) {
  EXPECT_THAT(Parse(R"("ab)"), StatusIs(kInvalid, R"(byte 3: unexpected end of input, expected '"' to close the string)"));
}

TEST(JsonParseTest, UnescapedControlCharacterIsRefused) {
  EXPECT_THAT(Parse("\"a\nb\""), StatusIs(kInvalid, "byte 2: control character U+000A in string (must be escaped)"));
}

TEST(JsonParseTest, UnknownEscapeIsRefused) {
  EXPECT_THAT(Parse(R"("\x")"), StatusIs(kInvalid, R"(byte 1: invalid escape \'x')"));
}

TEST(JsonParseTest, LoneLeadingSurrogateIsRefused) {
  EXPECT_THAT(Parse(R"("\uD800x")"),
              StatusIs(kInvalid, R"(byte 1: lone leading surrogate \uD800 (no \u escape follows))"));
}

TEST(JsonParseTest, LeadingSurrogateFollowedByNonTrailingIsRefused) {
  EXPECT_THAT(Parse(R"("\uD800\u0041")"),
              StatusIs(kInvalid, R"(byte 1: lone leading surrogate \uD800 (followed by \u0041, not a trailing one))"));
}

TEST(JsonParseTest, LoneTrailingSurrogateIsRefused) {
  EXPECT_THAT(Parse(R"("\uDC00")"), StatusIs(kInvalid, R"(byte 1: lone trailing surrogate \uDC00)"));
}

TEST(JsonParseTest, BadHexDigitIsRefused) {
  EXPECT_THAT(Parse(R"("\u12G4")"), StatusIs(kInvalid, "byte 5: invalid \\u escape: expected a hex digit, found 'G'"));
}

TEST(JsonParseTest, InvalidUtf8InStringIsRefused) {
  EXPECT_THAT(Parse("\"ab\xFF\""), StatusIs(kInvalid, "byte 3: invalid UTF-8 in string"));
}

TEST(JsonParseTest, LeadingZeroIsRefused) {
  EXPECT_THAT(Parse("01"), StatusIs(kInvalid, "byte 1: invalid number: leading zero"));
}

TEST(JsonParseTest, FractionWithoutDigitsIsRefused) {
  EXPECT_THAT(Parse("1."), StatusIs(kInvalid, "byte 2: invalid number: expected a digit after '.'"));
}

TEST(JsonParseTest, NumberOutOfDoubleRangeIsRefused) {
  EXPECT_THAT(Parse("1e400"), StatusIs(kInvalid, "byte 0: number out of range: 1e400"));
}

TEST(JsonParseTest, MisspelledLiteralIsRefused) {
  EXPECT_THAT(Parse("tru"), StatusIs(kInvalid, "byte 0: invalid literal, expected 'true'"));
}

TEST(JsonParseTest, NonStringKeyIsRefused) {
  EXPECT_THAT(Parse("{1:2}"), StatusIs(kInvalid, "byte 1: expected a string key, found '1'"));
}

TEST(JsonParseTest, MissingColonIsRefused) {
  EXPECT_THAT(Parse(R"({"a" 1})"), StatusIs(kInvalid, "byte 5: expected ':', found '1'"));
}

TEST(JsonParseTest, NestingAtTheLimitIsAccepted) {
  const std::string text = std::string(kMaxDepth, '[') + std::string(kMaxDepth, ']');
  EXPECT_EQ(Unwrap(Parse(text)).kind, Kind::kArray);
}

TEST(JsonParseTest, NestingPastTheLimitIsRefusedWhereItStarts) {
  const std::string text = std::string(kMaxDepth + 1, '[') + std::string(kMaxDepth + 1, ']');
  EXPECT_THAT(Parse(text), StatusIs(kInvalid, "byte 128: nesting deeper than 128 arrays and objects"));
}

TEST(FirstInvalidUtf8Test, ValidTextReturnsItsLength) {
  EXPECT_EQ(FirstInvalidUtf8("a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"), 10u);
}

TEST(FirstInvalidUtf8Test, OverlongFormIsInvalid) { EXPECT_EQ(FirstInvalidUtf8("ab\xC0\xAF"), 2u); }

TEST(FirstInvalidUtf8Test, EncodedSurrogateIsInvalid) { EXPECT_EQ(FirstInvalidUtf8("\xED\xA0\x80"), 0u); }

TEST(FirstInvalidUtf8Test, CodePointPastU10FFFFIsInvalid) { EXPECT_EQ(FirstInvalidUtf8("x\xF4\x90\x80\x80"), 1u); }

TEST(FirstInvalidUtf8Test, TruncatedSequenceIsInvalid) { EXPECT_EQ(FirstInvalidUtf8("x\xE2\x82"), 1u); }

TEST(JsonQuoteTest, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(Quote("a\"b\\c\n\x01\xC3\xA9"), "\"a\\\"b\\\\c\\n\\u0001\xC3\xA9\"");
}

TEST(JsonSerializeTest, WritesParsedTextBackCompactly) {
  EXPECT_EQ(Serialize(Unwrap(Parse(R"( {"a": [1, -2.5, "x\"", true, null], "b": {}} )"))),
            R"({"a":[1,-2.5,"x\"",true,null],"b":{}})");
}

}  // namespace
}  // namespace tessera::checkpoint::json
