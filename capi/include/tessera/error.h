/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Errors: opaque objects returned through a trailing `tessera_error** out_error`.
 *
 * A fallible function stores a new error in *out_error on failure (the caller
 * destroys it) and returns its zero value (NULL, false, 0 or the enum's 0
 * value); on success it leaves *out_error untouched, so initialise it to
 * NULL. out_error may be NULL when only the zero value is wanted. No
 * thread-local "last error" exists. The policy on NULL handles and indices is
 * in tessera.h ("Errors").
 */
#ifndef TESSERA_ERROR_H_
#define TESSERA_ERROR_H_

#include <stddef.h>

#include "tessera/export.h"

/**
 * "No position": what a size_t position result holds when there is none (an
 * event about no process, a key no rule matches). Never a valid index.
 * @since 0.2
 */
#define TESSERA_NO_INDEX ((size_t)-1)

TESSERA_BEGIN_DECLS

/** An error. Opaque; created by the library, destroyed by the caller. */
typedef struct tessera_error tessera_error;

/** Error codes: the absl::StatusCode canonical codes, same numbers. */
typedef enum tessera_code_t {
  /** No error; tessera_error_code(NULL) returns it. */
  TESSERA_OK = 0,
  /** The operation was cancelled, typically by the caller. */
  TESSERA_CANCELLED = 1,
  /** An error with no better code. */
  TESSERA_UNKNOWN = 2,
  /** An argument is invalid whatever the state (the message names it). */
  TESSERA_INVALID_ARGUMENT = 3,
  /** A timeout expired before the operation completed. */
  TESSERA_DEADLINE_EXCEEDED = 4,
  /** A requested entity (axis, key, device, ...) does not exist. */
  TESSERA_NOT_FOUND = 5,
  /** The entity to create exists already. */
  TESSERA_ALREADY_EXISTS = 6,
  /** The caller may not perform the operation. */
  TESSERA_PERMISSION_DENIED = 7,
  /** A limit or quota was reached. */
  TESSERA_RESOURCE_EXHAUSTED = 8,
  /** The system is not in the state the operation needs. */
  TESSERA_FAILED_PRECONDITION = 9,
  /** The operation was aborted, typically by a concurrent conflict. */
  TESSERA_ABORTED = 10,
  /** An index or size lies outside the valid range. */
  TESSERA_OUT_OF_RANGE = 11,
  /** The operation is not supported. */
  TESSERA_UNIMPLEMENTED = 12,
  /** An invariant of the library broke: a bug. */
  TESSERA_INTERNAL = 13,
  /** A service (the coordinator) cannot be reached now; retrying may help. */
  TESSERA_UNAVAILABLE = 14,
  /** Unrecoverable loss or corruption of data. */
  TESSERA_DATA_LOSS = 15,
  /** The request carries no valid credentials (the job token). */
  TESSERA_UNAUTHENTICATED = 16,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_CODE_FORCE_INT32 = 0x7fffffff
} tessera_code_t;

/**
 * The code of `error`; TESSERA_OK when `error` is NULL.
 * @since 0.2
 */
TESSERA_API tessera_code_t tessera_error_code(const tessera_error* error) TESSERA_NOEXCEPT;

/**
 * The message of `error`: UTF-8, NUL-terminated, never NULL ("" for a NULL
 * error). It names the argument, the value received and what was expected.
 * Has the lifetime of `error`.
 * @since 0.2
 */
TESSERA_API const char* tessera_error_message(const tessera_error* error) TESSERA_NOEXCEPT;

/**
 * The upper-case name of `code` ("INVALID_ARGUMENT"); static storage.
 * NULL for an unknown value, as tessera_platform_name.
 * @since 0.2
 */
TESSERA_API const char* tessera_code_name(tessera_code_t code) TESSERA_NOEXCEPT;

/** Frees `error`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_error_destroy(tessera_error* error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_ERROR_H_ */
