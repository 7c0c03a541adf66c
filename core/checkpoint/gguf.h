// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// GGUF (ggml's file format, versions 2 and 3, little-endian) read into the
// Checkpoint model from its header alone: metadata key/values and tensor
// infos, never the tensor data.
//
// The header's length is not stored anywhere; it is known only once every
// key/value and tensor info has been walked. So the parser takes a prefix of
// the file and answers OUT_OF_RANGE when the header runs past it; the file
// reader then reads a longer prefix (doubling) and parses again. That keeps
// the parser a pure function of bytes (what the tests and the fuzzer feed it)
// and costs at most twice the header in reading, never the data.
//
// Metadata values are rendered as text (MetadataEntry::value):
//   - integers in decimal; f32 as C's "%.9g" and f64 as "%.17g" (both
//     round-trip exactly; "nan", "inf", "-inf");
//   - bools as "true" / "false" (a byte other than 0 or 1 is refused);
//   - strings as their raw bytes, unquoted (also inside arrays);
//   - arrays as "[a, b, c]" (nested arrays the same way); past 16 elements
//     the rest is elided as "[e0, ..., e15, ... (N elements)]".
// Every key is kept, in file order; a repeated key is refused.
//
// Rules enforced (each refusal INVALID_ARGUMENT "FILE: byte N: what", N the
// absolute offset of the field at fault): magic "GGUF"; version 2 or 3 (1 and
// big-endian files refused by name); every length and count checked against
// the file's size before use; value types 0..12; at most 64 levels of nested
// arrays; `general.alignment` a u32 power of two (default 32); tensor infos
// with at most 4 dimensions, none negative, a ggml type ggml defines, the
// innermost dimension a multiple of the type's block; unique tensor names;
// each tensor's offset a multiple of the alignment, and its bytes inside the
// file and overlapping no other tensor's.
#ifndef TESSERA_CORE_CHECKPOINT_GGUF_H_
#define TESSERA_CORE_CHECKPOINT_GGUF_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/checkpoint/checkpoint.h"

namespace tessera::checkpoint {

// Parses the header of the GGUF file `file_name`, whose first bytes are
// `bytes` and whose length is `file_size`. One File (file_name, file_size),
// its tensors (shape outermost first, offsets absolute) and its metadata.
// OUT_OF_RANGE when bytes.size() < file_size and the header continues past
// `bytes`: read more of the file and call again.
absl::StatusOr<Checkpoint> ParseGgufHeader(absl::string_view file_name, absl::string_view bytes,
                                           uint64_t file_size);

// A parsed header with where its parts start, for checks made after parsing
// (gguf_split.h) to name the byte at fault.
struct GgufHeader {
  Checkpoint checkpoint;
  uint64_t metadata_offset = 0;        // the first key/value
  std::vector<uint64_t> value_offsets;   // per metadata entry: its value
  std::vector<uint64_t> tensor_offsets;  // per tensor: its info (the name)
};

// ParseGgufHeader with the offsets.
absl::StatusOr<GgufHeader> ParseGgufHeaderWithOffsets(absl::string_view file_name, absl::string_view bytes,
                                                      uint64_t file_size);

// The initial prefix ReadGgufFile reads; headers of real models (a tokenizer's
// vocabulary in the metadata) run to a few MiB.
inline constexpr uint64_t kGgufFirstRead = uint64_t{1} << 20;

// Reads the header of the GGUF file at `path` (pread of growing prefixes;
// NOT_FOUND or the errno's code when it cannot be read).
absl::StatusOr<Checkpoint> ReadGgufFile(const std::string& path);

// ReadGgufFile with the offsets.
absl::StatusOr<GgufHeader> ReadGgufHeader(const std::string& path);

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_GGUF_H_
