// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// DTensor layout text: as the mesh target, for layouts.
#include "core/formats/dtensor_text.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  auto layout = DTensorLayout::Parse(fuzz::AsText(data, size));
  if (!layout.ok()) {
    fuzz::CheckRejection(layout.status());
    return 0;
  }
  const std::string text = layout->ToString();
  const DTensorLayout again = fuzz::MustParse(DTensorLayout::Parse(text));
  fuzz::Check(again == *layout);
  fuzz::Check(again.ToString() == text);
  return 0;
}
