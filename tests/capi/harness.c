/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

#include "harness.h"

#include <stdarg.h>
#include <stdio.h>

static int current_test_failed;

void harness_fail(const char* file, int line, const char* format, ...) {
  va_list args;
  current_test_failed = 1;
  fprintf(stdout, "  %s:%d: ", file, line);
  va_start(args, format);
  vfprintf(stdout, format, args);
  va_end(args);
  fputc('\n', stdout);
}

int harness_contains(const char* haystack, const char* needle) {
  return haystack != NULL && strstr(haystack, needle) != NULL;
}

int harness_main(int argc, char** argv, const harness_test* tests, size_t num_tests) {
  const char* filter = argc > 1 ? argv[1] : NULL;
  size_t passed = 0;
  size_t failed = 0;
  size_t i;
  for (i = 0; i < num_tests; ++i) {
    if (filter != NULL && strstr(tests[i].name, filter) == NULL) continue;
    current_test_failed = 0;
    fprintf(stdout, "[ RUN  ] %s\n", tests[i].name);
    fflush(stdout);
    tests[i].run();
    fprintf(stdout, "[ %s ] %s\n", current_test_failed ? "FAIL" : " OK ", tests[i].name);
    if (current_test_failed) {
      ++failed;
    } else {
      ++passed;
    }
  }
  fprintf(stdout, "%lu passed, %lu failed\n", (unsigned long)passed, (unsigned long)failed);
  if (passed + failed == 0) {
    fprintf(stdout, "no test matched\n");
    return 1;
  }
  return failed == 0 ? 0 : 1;
}
