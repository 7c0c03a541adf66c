// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Tessera JSON. The first byte picks the message (as tessera_proto_fuzzer);
// the rest is its JSON text.
#include "tests/fuzz/tessera_proto_roundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  tessera::fuzz::FuzzTesseraMessage(data[0], tessera::fuzz::AsText(data + 1, size - 1),
                                    /*json=*/true);
  return 0;
}
