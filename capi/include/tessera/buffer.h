/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Owned bytes: computed strings and serialized messages come back as a
 * tessera_buffer, never as memory for the caller to free().
 */
#ifndef TESSERA_BUFFER_H_
#define TESSERA_BUFFER_H_

#include <stddef.h>

#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** Bytes owned by the caller. Opaque. */
typedef struct tessera_buffer tessera_buffer;

/**
 * The bytes of `buffer`. Always followed by a NUL byte (not counted in
 * tessera_buffer_size), so text buffers can be used as C strings. Has the
 * lifetime of `buffer`. NULL when `buffer` is NULL.
 * @since 0.2
 */
TESSERA_API const char* tessera_buffer_data(const tessera_buffer* buffer) TESSERA_NOEXCEPT;

/** Number of bytes in `buffer`; 0 when `buffer` is NULL. @since 0.2 */
TESSERA_API size_t tessera_buffer_size(const tessera_buffer* buffer) TESSERA_NOEXCEPT;

/** Frees `buffer`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_buffer_destroy(tessera_buffer* buffer) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_BUFFER_H_ */
