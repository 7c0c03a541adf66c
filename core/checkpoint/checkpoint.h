// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// What Tessera knows of a checkpoint without reading its tensor data: the
// files, and per tensor its name, element type, shape and the bytes it
// occupies in which file. Every reader (safetensors, GGUF) fills this one
// model, so planning and the read plans never look at a format again.
//
// Files are untrusted input: a reader refuses a malformed header with the
// file, the byte offset and what was wrong (INVALID_ARGUMENT), and checks
// every size and offset against the file's length before trusting it.
#ifndef TESSERA_CORE_CHECKPOINT_CHECKPOINT_H_
#define TESSERA_CORE_CHECKPOINT_CHECKPOINT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::checkpoint {

// An element type as the format spells it ("F16", "BF16", "Q4_K"), with the
// block it is stored in. Plain types are blocks of one element; GGUF's
// quantized types pack `block_elements` consecutive elements of the
// innermost dimension into `block_bytes` bytes, so a shard can only start and
// end on a block boundary of that dimension.
struct ElementType {
  std::string name;
  int64_t block_elements = 1;
  int64_t block_bytes = 0;  // for a plain type: bytes per element

  friend bool operator==(const ElementType& a, const ElementType& b) {
    return a.name == b.name && a.block_elements == b.block_elements && a.block_bytes == b.block_bytes;
  }
};

// One tensor. `shape` is row-major, outermost dimension first (GGUF stores
// its dimensions innermost first; its reader reverses them). The data is
// bytes [offset, offset + size) of files[file_index], absolute in the file,
// laid out row-major and contiguous.
struct Tensor {
  std::string name;
  ElementType type;
  std::vector<int64_t> shape;
  size_t file_index = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct File {
  std::string path;  // as the caller or the index named it
  uint64_t size = 0;
};

// A model's metadata entry, rendered as text: safetensors' `__metadata__`
// strings as they are; GGUF's typed values as their decimal or string form
// (arrays: the reader documents its rendering).
struct MetadataEntry {
  std::string key;
  std::string value;
};

struct Checkpoint {
  std::string format;  // "safetensors" or "gguf"
  std::vector<File> files;
  std::vector<Tensor> tensors;  // in the order the files list them
  std::vector<MetadataEntry> metadata;
};

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_CHECKPOINT_H_
