// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// DTensor mesh text: a parse prints back to text that parses to the same mesh
// and prints identically (the shorthands print expanded, so the property is
// checked from the first print on); a rejection carries a code and a message.
#include "core/formats/dtensor_text.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  auto mesh = ParseDTensorMesh(fuzz::AsText(data, size));
  if (!mesh.ok()) {
    fuzz::CheckRejection(mesh.status());
    return 0;
  }
  const std::string text = mesh->ToString();
  const DTensorMesh again = fuzz::MustParse(ParseDTensorMesh(text));
  fuzz::Check(again == *mesh);
  fuzz::Check(again.ToString() == text);
  return 0;
}
