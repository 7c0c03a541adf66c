// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Opening a checkpoint from a path, whatever kind of path it is: the format
// is told by the file's first bytes, so a file need not follow a naming
// convention, and a model's directory can be given as it is.
//
// A regular file is read as the first of these its first bytes fit:
//   - safetensors: an 8-byte little-endian header length of at most
//     100,000,000, then '{' (the crate refuses a header not starting so);
//   - GGUF: the magic "GGUF" (the first file of a gguf-split model opens every
//     split; core/checkpoint/gguf_split.h);
//   - a safetensors index (model.safetensors.index.json): a JSON object, i.e.
//     '{' after any JSON whitespace; it must then hold "weight_map".
// When the bytes fit none of them, the name decides (*.index.json,
// *.safetensors, *.gguf), so that a damaged file still gets its format's own
// error ("FILE: byte N: what was wrong"). A file fitting neither is refused.
//
// A directory is looked into, not recursively, following symbolic links (a
// Hugging Face cache snapshot is links into its blobs). Only regular files
// named *.safetensors.index.json, *.safetensors or *.gguf count:
//   1. exactly one *.safetensors.index.json: that index (the .safetensors
//      files beside it are its shards, or spares such as Mistral's
//      consolidated.safetensors, which Hugging Face's loaders also pass over);
//   2. no index and exactly one *.safetensors: that file;
//   3. only .gguf files, and either one of them or all the
//      NAME-0000K-of-0000N.gguf splits of one model: that file, or the first
//      split.
// Anything else is refused as ambiguous (INVALID_ARGUMENT naming the
// directory, what it holds and the file names, which the caller can give
// instead): several indexes; several safetensors files and no index;
// safetensors and GGUF files together; GGUF files of several models (a
// repository of quantizations). A directory with none of them is refused too.
#ifndef TESSERA_CORE_CHECKPOINT_OPEN_H_
#define TESSERA_CORE_CHECKPOINT_OPEN_H_

#include <string>

#include "absl/status/statusor.h"
#include "core/checkpoint/checkpoint.h"

namespace tessera::checkpoint {

// The checkpoint at `path` (a file or a directory, as above). Errors:
// NOT_FOUND or the errno's code when `path` or a file cannot be read;
// INVALID_ARGUMENT for a path that is no checkpoint ("Argument 'path' is
// 'PATH'; expected ..."), an ambiguous or empty directory ("DIR: ..."), or a
// malformed file ("FILE: byte N: ...", from the format's reader).
absl::StatusOr<Checkpoint> OpenCheckpoint(const std::string& path);

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_OPEN_H_
