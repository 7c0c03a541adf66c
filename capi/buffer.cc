// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/buffer.h: owned bytes handed to the caller.
#include "capi/handles.h"

const char* tessera_buffer_data(const tessera_buffer* buffer) noexcept {
  return buffer == nullptr ? nullptr : buffer->bytes.c_str();
}

size_t tessera_buffer_size(const tessera_buffer* buffer) noexcept {
  return buffer == nullptr ? 0 : buffer->bytes.size();
}

void tessera_buffer_destroy(tessera_buffer* buffer) noexcept { delete buffer; }
