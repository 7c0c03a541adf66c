// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

/*
 * A small test harness for the C ABI tests: plain C99, no dependencies.
 *
 * A test is a `void name(void)` function; an ASSERT_* that fails records the
 * failure with file and line and returns from the test (handles the test
 * created are then leaked, which only matters for a test already failing).
 * Each test program lists its tests in a table and calls harness_main.
 */
#ifndef TESSERA_TESTS_CAPI_HARNESS_H_
#define TESSERA_TESTS_CAPI_HARNESS_H_

#include <stddef.h>
#include <string.h>

#include "tessera/tessera.h"

typedef struct harness_test {
  const char* name;
  void (*run)(void);
} harness_test;

#define HARNESS_TEST(fn) { #fn, fn }
#define HARNESS_COUNT(tests) (sizeof(tests) / sizeof((tests)[0]))

/* Records that the running test failed; printf-style message. */
void harness_fail(const char* file, int line, const char* format, ...);

/*
 * Runs every test of `tests` (or, with an argument, those whose name contains
 * it), prints each one and a "N passed, N failed" line, and returns the exit
 * status: 0 when all passed.
 */
int harness_main(int argc, char** argv, const harness_test* tests, size_t num_tests);

/* True when `haystack` is not NULL and contains `needle`. */
int harness_contains(const char* haystack, const char* needle);

#define HARNESS_FAIL_(...)                        \
  do {                                            \
    harness_fail(__FILE__, __LINE__, __VA_ARGS__); \
    return;                                       \
  } while (0)

#define ASSERT_TRUE(cond) \
  do { if (!(cond)) HARNESS_FAIL_("expected true: %s", #cond); } while (0)
#define ASSERT_FALSE(cond) \
  do { if (cond) HARNESS_FAIL_("expected false: %s", #cond); } while (0)

#define ASSERT_NULL(p) \
  do { if ((p) != NULL) HARNESS_FAIL_("expected NULL: %s", #p); } while (0)
#define ASSERT_NOT_NULL(p) \
  do { if ((p) == NULL) HARNESS_FAIL_("expected non-NULL: %s", #p); } while (0)

/* Integers of any type, compared as long long. */
#define ASSERT_EQ(expected, actual)                                                   \
  do {                                                                                \
    long long e_ = (long long)(expected), a_ = (long long)(actual);                   \
    if (e_ != a_) HARNESS_FAIL_("%s == %s: expected %lld, got %lld", #expected, #actual, e_, a_); \
  } while (0)

#define ASSERT_STREQ(expected, actual)                                               \
  do {                                                                               \
    const char* e_ = (expected);                                                     \
    const char* a_ = (actual);                                                       \
    if (a_ == NULL || strcmp(e_, a_) != 0)                                           \
      HARNESS_FAIL_("%s: expected \"%s\", got %s%s%s", #actual, e_, a_ ? "\"" : "",  \
                    a_ ? a_ : "NULL", a_ ? "\"" : "");                               \
  } while (0)

#define ASSERT_CONTAINS(haystack, needle)                                              \
  do {                                                                                 \
    const char* h_ = (haystack);                                                       \
    if (!harness_contains(h_, (needle)))                                               \
      HARNESS_FAIL_("%s: expected to contain \"%s\", got \"%s\"", #haystack, (needle), \
                    h_ ? h_ : "(NULL)");                                               \
  } while (0)

/* `err` (a tessera_error*) must be NULL; otherwise prints its code and message. */
#define ASSERT_OK(err)                                                            \
  do {                                                                            \
    if ((err) != NULL)                                                            \
      HARNESS_FAIL_("%s: expected no error, got %s: %s", #err,                    \
                    tessera_code_name(tessera_error_code(err)), tessera_error_message(err)); \
  } while (0)

/* `err` must carry `code` and a message containing `needle`. */
#define ASSERT_ERROR_CONTAINS(err, code, needle)                                      \
  do {                                                                                \
    if ((err) == NULL) HARNESS_FAIL_("%s: expected %s, got no error", #err, #code);   \
    if (tessera_error_code(err) != (code))                                            \
      HARNESS_FAIL_("%s: expected %s, got %s: %s", #err, #code,                       \
                    tessera_code_name(tessera_error_code(err)), tessera_error_message(err)); \
    ASSERT_CONTAINS(tessera_error_message(err), (needle));                            \
  } while (0)

/* As ASSERT_ERROR_CONTAINS, then destroys `err` and resets it to NULL. */
#define ASSERT_ERROR(err, code, needle)          \
  do {                                           \
    ASSERT_ERROR_CONTAINS(err, code, needle);    \
    tessera_error_destroy(err);                  \
    (err) = NULL;                                \
  } while (0)

#endif /* TESSERA_TESTS_CAPI_HARNESS_H_ */
