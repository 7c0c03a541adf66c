// A small strict JSON reader (RFC 8259) for the checkpoint formats' headers
// and indexes, which are untrusted input: it keeps every value's byte offset
// so a reader can say where a file is wrong, refuses what RFC 8259 leaves to
// the implementation (duplicate object keys, unpaired \u surrogates, nesting
// deeper than a limit) and never recurses past that limit. The writer is
// the small part a checkpoint's own index needs: values back to compact text.
#ifndef TESSERA_CORE_CHECKPOINT_JSON_H_
#define TESSERA_CORE_CHECKPOINT_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessera::checkpoint::json {

// serde_json's recursion limit, which the safetensors reference parses with.
inline constexpr int kMaxDepth = 128;

struct Member;

struct Value {
  enum class Kind { kNull, kBool, kInteger, kNumber, kString, kArray, kObject };

  Kind kind = Kind::kNull;
  // Byte offset of the value's first character, plus the caller's base.
  uint64_t offset = 0;
  bool boolean = false;
  // kInteger: a number written without fraction or exponent that fits int64.
  int64_t integer = 0;
  // kNumber: any other number (a fraction, an exponent, or an integer
  // outside int64), as the nearest double.
  double number = 0;
  std::string string;  // kString, decoded UTF-8
  std::vector<Value> array;
  std::vector<Member> object;  // in the text's order, keys unique

  // The member named `key` of an object, or nullptr.
  const Value* Find(absl::string_view key) const;
  // "null", "a boolean", "an integer", "a number", "a string", "an array",
  // "an object": for messages that say what was found.
  absl::string_view KindName() const;
};

struct Member {
  std::string key;
  uint64_t key_offset = 0;  // of the key's opening quote, plus the base
  Value value;
};

// Where and why a text is not JSON, for callers that word their own message.
struct Error {
  uint64_t offset = 0;
  std::string what;
};

// Parses `text`, which must hold exactly one value (whitespace around it is
// allowed). Offsets in the result and in errors are positions in `text` plus
// `base_offset`, so a caller parsing a slice of a file gets file offsets.
// Errors are INVALID_ARGUMENT: "byte N: what was wrong"; `error`, when given,
// receives N and the what.
absl::StatusOr<Value> Parse(absl::string_view text, uint64_t base_offset = 0, Error* error = nullptr,
                            int max_depth = kMaxDepth);

// The offset of the first byte of `text` that is not part of valid UTF-8
// (overlong forms, surrogates and code points past U+10FFFF are invalid), or
// text.size() when all of it is valid.
size_t FirstInvalidUtf8(absl::string_view text);

// `text` (UTF-8) as a JSON string: quoted, with '"', '\\' and the control
// characters escaped.
std::string Quote(absl::string_view text);

// `value` as compact JSON text (no whitespace), members in their order;
// kNumber with 17 significant digits, which reads back to the same double.
std::string Serialize(const Value& value);

}  // namespace tessera::checkpoint::json

#endif  // TESSERA_CORE_CHECKPOINT_JSON_H_
