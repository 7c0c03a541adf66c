// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// PyTorch placements text: parsed placements print as text that parses to
// the same placements and prints identically.
#include "core/formats/torch_placements.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  auto placements = ParseTorchPlacements(fuzz::AsText(data, size));
  if (!placements.ok()) {
    fuzz::CheckRejection(placements.status());
    return 0;
  }
  const std::string text = TorchPlacementsText(*placements);
  const std::vector<TorchPlacement> again = fuzz::MustParse(ParseTorchPlacements(text));
  fuzz::Check(again == *placements);
  fuzz::Check(TorchPlacementsText(again) == text);
  return 0;
}
