// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Prints what Tessera reads from GGUF files as JSON lines, for
// compare_gguf.py to hold against the gguf package's GGUFReader (no C ABI for
// checkpoints yet). Names, keys and values are hex so any bytes survive.
//
//   gguf_dump --types     one line per ggml type id Tessera knows (0..255)
//   gguf_dump PATH        the checkpoint at PATH (a split's first file reads
//                         all splits): a "file" line per file, a "tensor"
//                         line per tensor, a "metadata" line per key, or one
//                         "error" line
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/checkpoint/gguf_split.h"
#include "core/checkpoint/gguf_types.h"

namespace {

using tessera::checkpoint::Checkpoint;

std::string Hex(const std::string& bytes) { return absl::StrCat("\"", absl::BytesToHexString(bytes), "\""); }

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--types") == 0) {
    for (uint32_t id = 0; id < 256; ++id) {
      if (auto type = tessera::checkpoint::GgmlType(id)) {
        std::printf("{\"id\": %u, \"name\": \"%s\", \"block_elements\": %lld, \"block_bytes\": %lld}\n", id,
                    type->name.c_str(), static_cast<long long>(type->block_elements),
                    static_cast<long long>(type->block_bytes));
      }
    }
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: gguf_dump --types | gguf_dump PATH\n");
    return 2;
  }
  absl::StatusOr<Checkpoint> checkpoint = tessera::checkpoint::ReadGgufCheckpoint(argv[1]);
  if (!checkpoint.ok()) {
    std::printf("{\"kind\": \"error\", \"message\": %s}\n", Hex(std::string(checkpoint.status().message())).c_str());
    return 0;
  }
  for (const auto& file : checkpoint->files) {
    std::printf("{\"kind\": \"file\", \"path\": %s, \"size\": %llu}\n", Hex(file.path).c_str(),
                static_cast<unsigned long long>(file.size));
  }
  for (const auto& t : checkpoint->tensors) {
    std::printf(
        "{\"kind\": \"tensor\", \"name\": %s, \"type\": \"%s\", \"block_elements\": %lld, \"block_bytes\": %lld, "
        "\"shape\": [%s], \"file_index\": %zu, \"offset\": %llu, \"size\": %llu}\n",
        Hex(t.name).c_str(), t.type.name.c_str(), static_cast<long long>(t.type.block_elements),
        static_cast<long long>(t.type.block_bytes), absl::StrJoin(t.shape, ", ").c_str(), t.file_index,
        static_cast<unsigned long long>(t.offset), static_cast<unsigned long long>(t.size));
  }
  for (const auto& m : checkpoint->metadata) {
    std::printf("{\"kind\": \"metadata\", \"key\": %s, \"value\": %s}\n", Hex(m.key).c_str(), Hex(m.value).c_str());
  }
  return 0;
}
