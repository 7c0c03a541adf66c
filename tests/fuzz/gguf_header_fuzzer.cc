// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// GGUF headers (core/checkpoint/gguf.h): any bytes, as a whole file, parse or
// are refused with INVALID_ARGUMENT naming the file and a byte; what parses
// keeps every promise the Checkpoint model makes (each tensor's bytes inside
// the file, its size its type's blocks, no two overlapping); and a prefix of
// the file answers the same as the whole, or asks for more (OUT_OF_RANGE).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/match.h"
#include "core/checkpoint/gguf.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera::checkpoint;
  namespace fuzz = tessera::fuzz;
  const absl::string_view bytes = fuzz::AsText(data, size);
  const absl::StatusOr<Checkpoint> whole = ParseGgufHeader("f.gguf", bytes, size);
  if (!whole.ok()) {
    fuzz::CheckRejection(whole.status());
    fuzz::Check(whole.status().code() == absl::StatusCode::kInvalidArgument);
    fuzz::Check(absl::StartsWith(whole.status().message(), "f.gguf: byte "));
  } else {
    fuzz::Check(whole->files.size() == 1 && whole->files[0].size == size);
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    for (const Tensor& tensor : whole->tensors) {
      fuzz::Check(tensor.file_index == 0);
      fuzz::Check(tensor.shape.size() <= 4);
      fuzz::Check(tensor.offset <= size && tensor.size <= size - tensor.offset);
      uint64_t elements = 1;
      for (int64_t n : tensor.shape) {
        fuzz::Check(n >= 0);
        elements *= static_cast<uint64_t>(n);
      }
      const int64_t row = tensor.shape.empty() ? 1 : tensor.shape.back();
      fuzz::Check(row % tensor.type.block_elements == 0);
      fuzz::Check(tensor.size ==
                  elements / static_cast<uint64_t>(tensor.type.block_elements) *
                      static_cast<uint64_t>(tensor.type.block_bytes));
      if (tensor.size > 0) ranges.emplace_back(tensor.offset, tensor.offset + tensor.size);
    }
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 1; i < ranges.size(); ++i) fuzz::Check(ranges[i - 1].second <= ranges[i].first);
  }
  // The reader parses growing prefixes; a prefix must never answer otherwise
  // than the whole file, short of asking for more.
  const size_t cut = size == 0 ? 0 : data[0] % (size + 1);
  const absl::StatusOr<Checkpoint> prefix = ParseGgufHeader("f.gguf", bytes.substr(0, cut), size);
  if (absl::IsOutOfRange(prefix.status())) {
    fuzz::Check(cut < size);
  } else {
    fuzz::Check(prefix.status() == whole.status());
    if (prefix.ok()) {
      fuzz::Check(prefix->tensors.size() == whole->tensors.size());
      fuzz::Check(prefix->metadata.size() == whole->metadata.size());
      for (size_t i = 0; i < prefix->metadata.size(); ++i) {
        fuzz::Check(prefix->metadata[i].value == whole->metadata[i].value);
      }
    }
  }
  return 0;
}
