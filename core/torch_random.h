// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// torch's CPU random permutation, bit for bit: what
// `g = torch.Generator(); g.manual_seed(seed); torch.randperm(n, generator=g)`
// returns (torch 2.15, aten/src/ATen/native/TensorFactories.cpp), so that a
// process without Python deals a shuffled DistributedSampler the same indices
// as torch does.
//
// torch's CPU generator is MT19937 seeded with the seed's low 32 bits
// (at::mt19937's init_with_uint32 is the standard's seeding, so
// std::mt19937 gives the same words). manual_seed takes a Python int in
// [-2^63, 2^64) and a negative one as its two's complement; as a uint64_t
// both are the same value, and only its low 32 bits matter.
#ifndef TESSERA_CORE_TORCH_RANDOM_H_
#define TESSERA_CORE_TORCH_RANDOM_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"

namespace tessera {

// torch.randperm(n) after manual_seed(seed). Below (2^32 - 1) / 20 items
// torch swaps forward with a 32-bit draw modulo the items left; from there
// on it builds the permutation inside out with 64-bit draws (two words, the
// first in the high half) so that the modulo stays unbiased. INVALID_ARGUMENT
// with torch's "Trying to create tensor with negative dimension -1: [-1]"
// for a negative n.
absl::StatusOr<std::vector<int64_t>> TorchRandperm(int64_t n, uint64_t seed);

}  // namespace tessera

#endif  // TESSERA_CORE_TORCH_RANDOM_H_
