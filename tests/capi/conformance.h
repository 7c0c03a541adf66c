// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

/*
 * Shared by the table-driven conformance tests of the C ABI
 * (conformance_*.c): checks that name the vector of the row that failed, and
 * the table of vectors that do not pass through the C ABI yet.
 *
 * A row check is a `void f(const row*)`; a ROW_* check that fails records the
 * failure with the row's vector ("K17: ...") and returns from the row, so a
 * test looping over a table reports every failing row, not only the first.
 */
#ifndef TESSERA_TESTS_CAPI_CONFORMANCE_H_
#define TESSERA_TESTS_CAPI_CONFORMANCE_H_

#include <stdio.h>
#include <string.h>

#include "harness.h"

/*
 * A vector the suite's C test does not pass (yet), and why: behaviour the C
 * ABI lacks (another branch of issue 11 adds it), or a place where Tessera
 * decides against the upstream library (ARCHITECTURE.md). A vector may be
 * both in a table row (the part that passes) and here (the part that does
 * not). tests/capi/check_conformance_coverage.py reads both.
 */
typedef struct conformance_pending {
  const char* vector;
  const char* reason;
} conformance_pending;

/* Prints the pending table, so the test log says what is not covered. */
static inline void conformance_print_pending(const char* suite, const conformance_pending* pending,
                                             size_t num_pending) {
  size_t i;
  fprintf(stdout, "%s: %lu vectors pending through the C ABI:\n", suite, (unsigned long)num_pending);
  for (i = 0; i < num_pending; ++i) fprintf(stdout, "  %s: %s\n", pending[i].vector, pending[i].reason);
}

#define ROW_FAIL_(vector, ...)                      \
  do {                                              \
    harness_fail(__FILE__, __LINE__, __VA_ARGS__);  \
    return;                                         \
  } while (0)

#define ROW_TRUE(vector, cond) \
  do { if (!(cond)) ROW_FAIL_(vector, "%s: expected true: %s", (vector), #cond); } while (0)

#define ROW_NULL(vector, p) \
  do { if ((p) != NULL) ROW_FAIL_(vector, "%s: expected NULL: %s", (vector), #p); } while (0)

#define ROW_EQ(vector, expected, actual)                                                          \
  do {                                                                                            \
    long long e_ = (long long)(expected), a_ = (long long)(actual);                               \
    if (e_ != a_)                                                                                 \
      ROW_FAIL_(vector, "%s: %s == %s: expected %lld, got %lld", (vector), #expected, #actual, e_, a_); \
  } while (0)

#define ROW_STREQ(vector, expected, actual)                                                   \
  do {                                                                                        \
    const char* e_ = (expected);                                                              \
    const char* a_ = (actual);                                                                \
    if (a_ == NULL || strcmp(e_, a_) != 0)                                                    \
      ROW_FAIL_(vector, "%s: %s: expected \"%s\", got \"%s\"", (vector), #actual, e_,         \
                a_ ? a_ : "(NULL)");                                                          \
  } while (0)

#define ROW_OK(vector, err)                                                                  \
  do {                                                                                       \
    if ((err) != NULL)                                                                       \
      ROW_FAIL_(vector, "%s: %s: expected no error, got %s: %s", (vector), #err,             \
                tessera_code_name(tessera_error_code(err)), tessera_error_message(err));     \
  } while (0)

/* `err` must carry `code` and a message containing `needle`; then it is destroyed and reset. */
#define ROW_ERROR(vector, err, code, needle)                                                    \
  do {                                                                                          \
    if ((err) == NULL) ROW_FAIL_(vector, "%s: %s: expected %s, got no error", (vector), #err, #code); \
    if (tessera_error_code(err) != (code) || !harness_contains(tessera_error_message(err), (needle))) \
      ROW_FAIL_(vector, "%s: %s: expected %s containing \"%s\", got %s: %s", (vector), #err, #code,  \
                (needle), tessera_code_name(tessera_error_code(err)), tessera_error_message(err));    \
    tessera_error_destroy(err);                                                                 \
    (err) = NULL;                                                                               \
  } while (0)

#endif /* TESSERA_TESTS_CAPI_CONFORMANCE_H_ */
