// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// JAX PartitionSpec text: the canonical entries print as P(...) text that
// parses to the same entries.
#include "core/formats/jax_spec.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  auto axes = ParsePartitionSpec(fuzz::AsText(data, size));
  if (!axes.ok()) {
    fuzz::CheckRejection(axes.status());
    return 0;
  }
  const std::string text = PartitionSpecText(*axes);
  const std::vector<AxisGroup> again = fuzz::MustParse(ParsePartitionSpec(text));
  fuzz::Check(again == *axes);
  fuzz::Check(PartitionSpecText(again) == text);
  return 0;
}
