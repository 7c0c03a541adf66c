// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// HloSharding text: a parse prints as text that parses to the same sharding
// and prints identically; the V1 form of a V2 sharding prints and parses too.
#include <cstdint>

#include "core/formats/hlo_sharding.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  auto sharding = ParseHloSharding(fuzz::AsText(data, size));
  if (!sharding.ok()) {
    fuzz::CheckRejection(sharding.status());
    return 0;
  }
  const std::string text = HloShardingToString(*sharding);
  const HloSharding again = fuzz::MustParse(ParseHloSharding(text));
  fuzz::Check(again == *sharding);
  fuzz::Check(HloShardingToString(again) == text);
  // Writing an iota out is O(devices) by design: only for small tilings.
  int64_t tiles = 1;
  for (int64_t dim : sharding->dims) {
    if (dim < 1 || tiles > (int64_t{1} << 16) / dim) return 0;
    tiles *= dim;
  }
  const HloSharding v1 = ToV1(*sharding);
  fuzz::Check(fuzz::MustParse(ParseHloSharding(HloShardingToString(v1))) == v1);
  return 0;
}
