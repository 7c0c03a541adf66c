/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Errors, codes and the version: the conventions every other call relies on. */
#include <stdint.h>
#include <stdio.h>

#include "fixtures.h"
#include "harness.h"

static void code_numbers_are_absl_canonical_codes(void) {
  ASSERT_EQ(0, TESSERA_OK);
  ASSERT_EQ(3, TESSERA_INVALID_ARGUMENT);
  ASSERT_EQ(5, TESSERA_NOT_FOUND);
  ASSERT_EQ(6, TESSERA_ALREADY_EXISTS);
  ASSERT_EQ(8, TESSERA_RESOURCE_EXHAUSTED);
  ASSERT_EQ(9, TESSERA_FAILED_PRECONDITION);
  ASSERT_EQ(11, TESSERA_OUT_OF_RANGE);
  ASSERT_EQ(13, TESSERA_INTERNAL);
  ASSERT_EQ(16, TESSERA_UNAUTHENTICATED);
}

static void code_name_names_every_code(void) {
  static const char* const expected[] = {
      "OK",       "CANCELLED",          "UNKNOWN",        "INVALID_ARGUMENT",
      "DEADLINE_EXCEEDED", "NOT_FOUND",  "ALREADY_EXISTS", "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
      "UNIMPLEMENTED", "INTERNAL",      "UNAVAILABLE",    "DATA_LOSS",
      "UNAUTHENTICATED"};
  int code;
  for (code = 0; code <= 16; ++code) {
    ASSERT_STREQ(expected[code], tessera_code_name((tessera_code_t)code));
  }
}

static void code_name_of_unknown_value_is_null(void) {
  ASSERT_NULL(tessera_code_name((tessera_code_t)17));
  ASSERT_NULL(tessera_code_name((tessera_code_t)-1));
  ASSERT_NULL(tessera_code_name(TESSERA_CODE_FORCE_INT32));
}

static void null_error_reads_as_ok_with_empty_message(void) {
  ASSERT_EQ(TESSERA_OK, tessera_error_code(NULL));
  ASSERT_STREQ("", tessera_error_message(NULL));
}

static void error_destroy_accepts_null(void) { tessera_error_destroy(NULL); }

static void failure_stores_a_new_error_with_code_and_message(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_device_parse(NULL, &err));
  ASSERT_NOT_NULL(err);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ("Argument 'text' is NULL; expected a valid pointer", tessera_error_message(err));
  tessera_error_destroy(err);
}

static void failure_without_out_error_still_returns_the_sentinel(void) {
  size_t count = 7;
  ASSERT_NULL(tessera_device_parse(NULL, NULL));
  ASSERT_FALSE(tessera_platform_num_devices(NULL, NULL, NULL));
  ASSERT_FALSE(tessera_platform_num_devices("no-such-type", &count, NULL));
  ASSERT_EQ(7, count);
}

static void success_leaves_out_error_untouched(void) {
  tessera_error* err = NULL;
  tessera_error* earlier = NULL;
  tessera_device* device;
  ASSERT_NULL(tessera_device_parse(NULL, &earlier));
  err = earlier;
  device = tessera_device_parse("cpu:1", &err);
  ASSERT_NOT_NULL(device);
  ASSERT_TRUE(err == earlier);
  tessera_device_destroy(device);
  tessera_error_destroy(earlier);
}

static void each_failure_gets_its_own_error(void) {
  tessera_error* first = NULL;
  tessera_error* second = NULL;
  ASSERT_NULL(tessera_device_parse("npu:0", &first));
  ASSERT_NULL(tessera_device_parse(NULL, &second));
  ASSERT_TRUE(first != second);
  ASSERT_CONTAINS(tessera_error_message(first), "npu:0");
  ASSERT_CONTAINS(tessera_error_message(second), "Argument 'text' is NULL");
  tessera_error_destroy(first);
  tessera_error_destroy(second);
}

static void version_matches_the_headers(void) {
  char expected[32];
  ASSERT_EQ(TESSERA_VERSION_NUMBER, tessera_version());
  ASSERT_EQ(TESSERA_VERSION_MAJOR * 10000 + TESSERA_VERSION_MINOR * 100 + TESSERA_VERSION_PATCH,
            tessera_version());
  ASSERT_STREQ(TESSERA_VERSION_STRING, tessera_version_string());
  snprintf(expected, sizeof expected, "%d.%d.%d", TESSERA_VERSION_MAJOR, TESSERA_VERSION_MINOR,
           TESSERA_VERSION_PATCH);
  ASSERT_STREQ(expected, tessera_version_string());
}

static void version_compatible_means_same_major_and_a_minor_not_older(void) {
  ASSERT_EQ(0, TESSERA_VERSION_MAJOR);
  ASSERT_EQ(2, TESSERA_VERSION_MINOR);
  ASSERT_TRUE(TESSERA_VERSION_COMPATIBLE(tessera_version()));
  ASSERT_TRUE(TESSERA_VERSION_COMPATIBLE(200));   /* 0.2.0 */
  ASSERT_TRUE(TESSERA_VERSION_COMPATIBLE(217));   /* 0.2.17: any patch */
  ASSERT_TRUE(TESSERA_VERSION_COMPATIBLE(300));   /* 0.3.0: a newer minor */
  ASSERT_FALSE(TESSERA_VERSION_COMPATIBLE(199));  /* 0.1.99: an older minor */
  ASSERT_FALSE(TESSERA_VERSION_COMPATIBLE(10200)); /* 1.2.0: another major */
}

static void version_check_macro_compares_with_the_headers(void) {
  ASSERT_TRUE(TESSERA_VERSION_CHECK(0, 0, 0));
  ASSERT_TRUE(TESSERA_VERSION_CHECK(TESSERA_VERSION_MAJOR, TESSERA_VERSION_MINOR,
                                    TESSERA_VERSION_PATCH));
  ASSERT_FALSE(TESSERA_VERSION_CHECK(TESSERA_VERSION_MAJOR, TESSERA_VERSION_MINOR,
                                     TESSERA_VERSION_PATCH + 1));
  ASSERT_FALSE(TESSERA_VERSION_CHECK(TESSERA_VERSION_MAJOR + 1, 0, 0));
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(code_numbers_are_absl_canonical_codes),
      HARNESS_TEST(version_compatible_means_same_major_and_a_minor_not_older),
      HARNESS_TEST(code_name_names_every_code),
      HARNESS_TEST(code_name_of_unknown_value_is_null),
      HARNESS_TEST(null_error_reads_as_ok_with_empty_message),
      HARNESS_TEST(error_destroy_accepts_null),
      HARNESS_TEST(failure_stores_a_new_error_with_code_and_message),
      HARNESS_TEST(failure_without_out_error_still_returns_the_sentinel),
      HARNESS_TEST(success_leaves_out_error_untouched),
      HARNESS_TEST(each_failure_gets_its_own_error),
      HARNESS_TEST(version_matches_the_headers),
      HARNESS_TEST(version_check_macro_compares_with_the_headers),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
