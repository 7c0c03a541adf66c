// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The sharded checkpoint's index, tessera-index.json
// (core/checkpoint/sharded/index.h): untrusted text a restore reads before
// any tensor byte. Properties: a refusal is INVALID_ARGUMENT (or
// FAILED_PRECONDITION for a newer version) naming the index; an accepted
// index's pieces lie in its files and tile each tensor (their elements add
// up to the tensor's), and its canonical text parses back to the same text.
#include <cstdint>
#include <string>

#include "absl/strings/match.h"
#include "core/checkpoint/sharded/index.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using tessera::fuzz::Check;
namespace sharded = tessera::checkpoint::sharded;

// Elements of a box, or of a shape; saturating is not needed: a parsed
// index's shapes are checked against int64 by the sharding.
uint64_t Elements(const sharded::IndexPiece& piece) {
  uint64_t n = 1;
  for (const auto& r : piece.ranges) n *= static_cast<uint64_t>(r.stop - r.start);
  return n;
}

void CheckAccepted(const sharded::Index& index) {
  for (const sharded::IndexTensor& tensor : index.tensors) {
    uint64_t total = 1;
    for (const int64_t n : tensor.sharding.shape()) total *= static_cast<uint64_t>(n);
    uint64_t stored = 0;
    for (const sharded::IndexPiece& piece : tensor.pieces) {
      Check(piece.file < index.files.size());
      Check(piece.ranges.size() == tensor.sharding.shape().size());
      stored += Elements(piece);
    }
    Check(stored == total || (total == 0 && tensor.pieces.empty()));
  }
  absl::StatusOr<std::string> text = sharded::IndexToJson(index);
  if (!text.ok()) return;  // a name with no JSON form (not UTF-8)
  absl::StatusOr<sharded::Index> again = sharded::ParseIndex(*text, "i.json");
  Check(again.ok());
  absl::StatusOr<std::string> text_again = sharded::IndexToJson(*again);
  Check(text_again.ok() && *text_again == *text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<sharded::Index> index = sharded::ParseIndex(text, "i.json");
  if (!index.ok()) {
    Check(index.status().code() == absl::StatusCode::kInvalidArgument ||
          index.status().code() == absl::StatusCode::kFailedPrecondition);
    Check(absl::StartsWith(index.status().message(), "i.json: "));
    return 0;
  }
  CheckAccepted(*index);
  return 0;
}
