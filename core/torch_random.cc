// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/torch_random.h"

#include <limits>
#include <numeric>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessera {
namespace {

// randperm_cpu keeps its old forward swap "for small n" and only above this
// size pays for 64-bit draws.
constexpr int64_t kWideDrawItems = std::numeric_limits<uint32_t>::max() / 20;

// CPUGeneratorImpl::random64: the first word is the high half.
uint64_t Random64(std::mt19937& engine) {
  const uint64_t high = engine();
  return (high << 32) | engine();
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> TorchRandperm(int64_t n, uint64_t seed) {
  if (n < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("Trying to create tensor with negative dimension ", n, ": [", n, "]"));
  }
  std::mt19937 engine(static_cast<uint32_t>(seed));
  std::vector<int64_t> permutation(n);
  if (n < kWideDrawItems) {
    std::iota(permutation.begin(), permutation.end(), int64_t{0});
    for (int64_t i = 0; i + 1 < n; ++i) {
      const int64_t z = static_cast<int64_t>(engine() % static_cast<uint64_t>(n - i));
      std::swap(permutation[i], permutation[i + z]);
    }
    return permutation;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t z = static_cast<int64_t>(Random64(engine) % static_cast<uint64_t>(i + 1));
    permutation[i] = permutation[z];
    permutation[z] = i;
  }
  return permutation;
}

}  // namespace tessera
