// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A GGUF model as llama.cpp's gguf-split leaves it: files
// NAME-0000K-of-0000N.gguf, each a complete GGUF file holding some of the
// tensors, with the keys split.no (0-based), split.count and, in the first,
// split.tensors.count.
#ifndef TESSERA_CORE_CHECKPOINT_GGUF_SPLIT_H_
#define TESSERA_CORE_CHECKPOINT_GGUF_SPLIT_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/checkpoint/checkpoint.h"

namespace tessera::checkpoint {

// A split's name: `path` is STEM-0000K-of-0000N.gguf (five digits each).
struct GgufSplitName {
  std::string stem;  // everything before "-0000K", directories included
  int64_t number;    // K, 1-based
  int64_t count;     // N
};

// The parts of `path`'s name; nullopt when it is not named that way.
std::optional<GgufSplitName> ParseGgufSplitName(absl::string_view path);

// Reads the GGUF checkpoint at `path`: one file, or, when its metadata says
// split.count N > 1, the first of N splits whose siblings are found by name
// beside it. The tensors of all files in file order (file_index the split's
// 0-based number); the metadata is the first file's. Refused with
// INVALID_ARGUMENT "FILE: byte N: what was wrong", N the offset of the value
// at fault (of the first key/value when a key is missing, of the tensor info
// for a tensor): a split key that is not an integer, a split file other than
// the first, a first split not named NAME-00001-of-0000N.gguf (N at
// split.count), a sibling whose split.no or split.count disagree, a tensor
// name in two splits (the earlier split named too), a tensor total other than
// split.tensors.count. A missing sibling is NOT_FOUND.
absl::StatusOr<Checkpoint> ReadGgufCheckpoint(const std::string& path);

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_GGUF_SPLIT_H_
