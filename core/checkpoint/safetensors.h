// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// safetensors (huggingface/safetensors): one file, or a sharded model named by
// its `model.safetensors.index.json`, read into the Checkpoint model from the
// headers alone; the tensor data is never read.
//
// A file is an 8-byte little-endian header length N, N bytes of UTF-8 JSON,
// then the data area. The rules are the reference crate's
// (safetensors/src/tensor.rs, as in the `safetensors` 0.8.0 package): N at
// most 100,000,000; the header one JSON object of tensors plus an optional
// `__metadata__` string-to-string map; each tensor a known dtype, a shape of
// non-negative integers and `data_offsets` [begin, end] into the data area;
// sorted by offsets, the tensors tile the data area from 0 with no hole or
// overlap ("invalid offset for tensor"), each exactly elements x bits / 8
// bytes ("invalid shape, data type, or offset for tensor", sub-byte dtypes
// ending on a byte boundary), and the data area ends at the end of the file
// ("incomplete metadata, file not fully covered").
//
// Stricter than the crate, on purpose: a key repeated in any JSON object
// (duplicate tensor names included) is refused where the crate keeps the
// last one, and a shape dimension or offset beyond int64 is refused.
//
// Every error is INVALID_ARGUMENT: "FILE: byte OFFSET: what was wrong", the
// offset absolute in that file.
#ifndef TESSERA_CORE_CHECKPOINT_SAFETENSORS_H_
#define TESSERA_CORE_CHECKPOINT_SAFETENSORS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/checkpoint/checkpoint.h"

namespace tessera::checkpoint {

// The crate's MAX_HEADER_SIZE.
inline constexpr uint64_t kSafetensorsMaxHeaderBytes = 100'000'000;

// The element type of a safetensors dtype name ("F16", "F4"), or
// INVALID_ARGUMENT for a name the format does not define. Sub-byte types are
// blocks: F4 packs 2 elements in a byte, F6_E2M3 and F6_E3M2 pack 4 in 3.
absl::StatusOr<ElementType> SafetensorsElementType(absl::string_view dtype);

// Parses one file's header. `bytes` starts at the file's first byte and holds
// at least the 8 + N header bytes (more are ignored); `file_size` is the whole
// file's length. The result has one File {file_name, file_size}; tensors in
// the header's order with absolute offsets (8 + N + begin); metadata from
// `__metadata__` in the header's order.
absl::StatusOr<Checkpoint> ParseSafetensorsHeader(absl::string_view file_name, absl::string_view bytes,
                                                  uint64_t file_size);

// Reads one .safetensors file's header with pread (the length, then the
// header; never the data). I/O errors keep their errno's code.
absl::StatusOr<Checkpoint> ReadSafetensorsFile(const std::string& path);

// Reads a sharded model from its index (`model.safetensors.index.json`):
// `weight_map` maps each tensor to a file, resolved relative to the index's
// directory (an absolute name, or one with a ".." component, is refused);
// every referenced file's header is read, and each weight_map entry must be
// in its file and each file's tensor in weight_map under that file. Files in
// the order of their names; tensors file by file in each header's order;
// File::path is the index's directory joined with the name the index gives.
// Metadata: the index's `metadata` members (`total_size` among them; numbers
// as decimal text), then each file's `__metadata__` entries not already
// present with the same key and value.
absl::StatusOr<Checkpoint> ReadSafetensorsIndex(const std::string& index_path);

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_SAFETENSORS_H_
