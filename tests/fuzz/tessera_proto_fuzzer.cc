// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Tessera protobuf bytes. The first byte picks the message (0 mesh, 1 layout,
// 2 layout map, 3 distribution, modulo 4); the rest are its bytes.
#include "tests/fuzz/tessera_proto_roundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  tessera::fuzz::FuzzTesseraMessage(data[0], tessera::fuzz::AsText(data + 1, size - 1),
                                    /*json=*/false);
  return 0;
}
