/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * The library's log channel. By default warnings and errors go to stderr.
 */
#ifndef TESSERA_LOG_H_
#define TESSERA_LOG_H_

#include <stdbool.h>
#include <stddef.h>

#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** Severity of a log message, lowest first. */
typedef enum tessera_log_level_t {
  /** Detail for developers of the library. */
  TESSERA_LOG_DEBUG = 0,
  /** Normal operation worth recording. */
  TESSERA_LOG_INFO = 1,
  /** Something unexpected that the library worked around. */
  TESSERA_LOG_WARNING = 2,
  /** An operation failed. */
  TESSERA_LOG_ERROR = 3,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_LOG_LEVEL_FORCE_INT32 = 0x7fffffff
} tessera_log_level_t;

/**
 * Receives one log message. `message` is UTF-8, NUL-terminated, `message_size`
 * bytes long, and valid only during the call. Runs on the thread that logs
 * (any thread, possibly several at once); it must not call
 * tessera_log_set_callback.
 */
typedef void (*tessera_log_fn)(tessera_log_level_t level, const char* message,
                               size_t message_size, void* user_data);

/**
 * Routes messages of `min_level` and above to `callback`; a NULL `callback`
 * restores the default (stderr, warnings and above). `user_data` is passed
 * back unchanged; the caller keeps ownership and must keep it valid until the
 * callback is replaced. Thread-safe.
 *
 * @return false (INVALID_ARGUMENT) when `min_level` is not a tessera_log_level_t.
 * @since 0.2
 */
TESSERA_API bool tessera_log_set_callback(tessera_log_fn callback, void* user_data,
                                          tessera_log_level_t min_level,
                                          tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_LOG_H_ */
