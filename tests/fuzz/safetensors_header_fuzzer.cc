// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// safetensors headers (core/checkpoint/safetensors.h). The first byte picks
// the form of the rest: even, the rest is a whole file; odd, the next two
// bytes are a data-area length D (little-endian) and the rest is the header
// text, so the fuzzer explores JSON without having to keep the 8-byte length
// right. Properties: a refusal is INVALID_ARGUMENT naming the file and a
// byte; an accepted file's tensors tile its data area exactly, each inside
// the file.
#include <cstdint>
#include <string>

#include "absl/strings/match.h"
#include "core/checkpoint/safetensors.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

void CheckFile(const std::string& bytes) {
  using tessera::fuzz::Check;
  absl::StatusOr<tessera::checkpoint::Checkpoint> model =
      tessera::checkpoint::ParseSafetensorsHeader("f", bytes, bytes.size());
  if (!model.ok()) {
    Check(model.status().code() == absl::StatusCode::kInvalidArgument);
    Check(absl::StartsWith(model.status().message(), "f: byte "));
    return;
  }
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
  uint64_t covered = 0;
  for (const auto& tensor : model->tensors) {
    Check(tensor.offset >= 8 + n);
    Check(tensor.offset + tensor.size <= bytes.size());
    covered += tensor.size;
    Check(tensor.type.block_elements >= 1 && tensor.type.block_bytes >= 1);
  }
  Check(covered == bytes.size() - 8 - n);
  Check(model->files.size() == 1 && model->files[0].size == bytes.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    CheckFile(rest);
    return 0;
  }
  if (rest.size() < 2) return 0;
  const size_t data_bytes = static_cast<unsigned char>(rest[0]) | (static_cast<unsigned char>(rest[1]) << 8);
  const std::string header = rest.substr(2);
  std::string file;
  for (int i = 0; i < 8; ++i) file.push_back(static_cast<char>((uint64_t{header.size()} >> (8 * i)) & 0xFF));
  CheckFile(file + header + std::string(data_bytes, '\0'));
  return 0;
}
