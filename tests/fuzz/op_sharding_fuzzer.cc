// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// OpSharding bytes: a parse serializes to bytes that parse to the same
// sharding and serialize identically.
#include "core/formats/hlo_sharding.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  auto sharding = ParseOpSharding(fuzz::AsText(data, size));
  if (!sharding.ok()) {
    fuzz::CheckRejection(sharding.status());
    return 0;
  }
  const std::string bytes = HloShardingToOpSharding(*sharding);
  const HloSharding again = fuzz::MustParse(ParseOpSharding(bytes));
  fuzz::Check(again == *sharding);
  fuzz::Check(HloShardingToOpSharding(again) == bytes);
  return 0;
}
