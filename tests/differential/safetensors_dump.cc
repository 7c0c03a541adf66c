// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Prints what Tessera reads from safetensors files and indexes, one JSON line
// per argument, for compare_with_safetensors.py:
//   {"path": P, "ok": true, "files": [[path, size]...],
//    "tensors": [[name, dtype, shape, file_index, offset, size]...],
//    "metadata": [[key, value]...]}
//   {"path": P, "ok": false, "code": "INVALID_ARGUMENT", "message": M}
// An argument ending in ".index.json" is read as a sharded model's index.
#include <cstdio>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/checkpoint/safetensors.h"

namespace {

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      out += absl::StrFormat("\\u%04x", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string Dump(const std::string& path) {
  absl::StatusOr<tessera::checkpoint::Checkpoint> model =
      absl::EndsWith(path, ".index.json") ? tessera::checkpoint::ReadSafetensorsIndex(path)
                                          : tessera::checkpoint::ReadSafetensorsFile(path);
  if (!model.ok()) {
    return absl::StrCat("{\"path\": ", Quote(path), ", \"ok\": false, \"code\": ",
                        Quote(absl::StatusCodeToString(model.status().code())),
                        ", \"message\": ", Quote(std::string(model.status().message())), "}");
  }
  std::string files, tensors, metadata;
  for (const auto& f : model->files) {
    absl::StrAppend(&files, files.empty() ? "" : ", ", "[", Quote(f.path), ", ", f.size, "]");
  }
  for (const auto& t : model->tensors) {
    absl::StrAppend(&tensors, tensors.empty() ? "" : ", ", "[", Quote(t.name), ", ", Quote(t.type.name), ", [",
                    absl::StrJoin(t.shape, ", "), "], ", t.file_index, ", ", t.offset, ", ", t.size, "]");
  }
  for (const auto& m : model->metadata) {
    absl::StrAppend(&metadata, metadata.empty() ? "" : ", ", "[", Quote(m.key), ", ", Quote(m.value), "]");
  }
  return absl::StrCat("{\"path\": ", Quote(path), ", \"ok\": true, \"files\": [", files, "], \"tensors\": [", tensors,
                      "], \"metadata\": [", metadata, "]}");
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) std::printf("%s\n", Dump(argv[i]).c_str());
  return 0;
}
