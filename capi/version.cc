// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/version.h: the version of the loaded library, from the same
// generated header the caller compiled against.
#include "tessera/version.h"

uint32_t tessera_version(void) noexcept { return TESSERA_VERSION_NUMBER; }

const char* tessera_version_string(void) noexcept { return TESSERA_VERSION_STRING; }
