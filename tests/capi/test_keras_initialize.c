/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * keras.distribution.initialize's argument resolution as a pure query
 * (tessera/experimental/keras_initialize.h). Vectors: keras_cases.md K1 K3
 * K67 K69 K153; keras.md §1.3.
 */
#include <stdint.h>

#include "fixtures.h"
#include "harness.h"

static const char kTwoJobs[] = "10.0.0.1:1234,10.0.0.2:2345";

static tessera_keras_initialize* resolve(const tessera_keras_initialize_options* options, const char* const* env,
                                         size_t num_env, tessera_error** err) {
  return tessera_keras_initialize_resolve_from_env(options, env, num_env, err);
}

static void k1_explicit_arguments_are_passed_on(void) {
  tessera_keras_initialize_options* options = tessera_keras_initialize_options_create();
  tessera_error* err = NULL;
  tessera_keras_initialize* r;
  tessera_keras_initialize_options_set_job_addresses(options, kTwoJobs, NULL);
  tessera_keras_initialize_options_set_num_processes(options, 2, NULL);
  tessera_keras_initialize_options_set_process_index(options, 0, NULL);
  r = resolve(options, NULL, 0, &err);
  ASSERT_OK(err);
  ASSERT_STREQ(kTwoJobs, tessera_keras_initialize_job_addresses(r, NULL));
  ASSERT_EQ(2, tessera_keras_initialize_num_processes(r, NULL));
  ASSERT_TRUE(tessera_keras_initialize_has_process_index(r, NULL));
  ASSERT_EQ(0, tessera_keras_initialize_process_index(r, NULL));
  tessera_keras_initialize_destroy(r);
  tessera_keras_initialize_options_destroy(options);
}

static void k3_nothing_given_is_none_none_none(void) {
  tessera_error* err = NULL;
  tessera_keras_initialize* r = resolve(NULL, NULL, 0, &err);
  ASSERT_OK(err);
  ASSERT_NULL(tessera_keras_initialize_job_addresses(r, &err));
  ASSERT_NULL(tessera_keras_initialize_coordinator_address(r, &err));
  ASSERT_FALSE(tessera_keras_initialize_has_num_processes(r, &err));
  ASSERT_FALSE(tessera_keras_initialize_has_process_index(r, &err));
  ASSERT_EQ(0, tessera_keras_initialize_num_job_addresses(r, &err));
  ASSERT_OK(err);
  tessera_keras_initialize_destroy(r);
}

static void k67_the_coordinator_is_the_first_job_address(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_JOB_ADDRESSES=10.0.0.1:1234,10.0.0.2:2345"};
  tessera_error* err = NULL;
  tessera_keras_initialize* r = resolve(NULL, env, 1, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("10.0.0.1:1234", tessera_keras_initialize_coordinator_address(r, NULL));
  ASSERT_EQ(2, tessera_keras_initialize_num_job_addresses(r, NULL));
  ASSERT_STREQ("10.0.0.2:2345", tessera_keras_initialize_job_address(r, 1, NULL));
  tessera_keras_initialize_destroy(r);
}

static void k69_one_address_is_the_coordinator_as_given(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_JOB_ADDRESSES=10.0.0.1:1234"};
  tessera_keras_initialize* r = resolve(NULL, env, 1, NULL);
  ASSERT_STREQ("10.0.0.1:1234", tessera_keras_initialize_coordinator_address(r, NULL));
  ASSERT_EQ(1, tessera_keras_initialize_num_job_addresses(r, NULL));
  tessera_keras_initialize_destroy(r);
}

static void a_missing_process_count_is_none_not_an_error(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_JOB_ADDRESSES=10.0.0.1:1234,10.0.0.2:2345",
                                    "KERAS_DISTRIBUTION_PROCESS_ID=1"};
  tessera_error* err = NULL;
  tessera_keras_initialize* r = resolve(NULL, env, 2, &err);
  ASSERT_OK(err);
  ASSERT_FALSE(tessera_keras_initialize_has_num_processes(r, NULL));
  ASSERT_EQ(1, tessera_keras_initialize_process_index(r, NULL));
  tessera_keras_initialize_destroy(r);
}

static void k153_an_explicit_count_beats_the_variable(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_NUM_PROCESSES=4"};
  tessera_keras_initialize_options* options = tessera_keras_initialize_options_create();
  tessera_keras_initialize* r;
  tessera_keras_initialize_options_set_num_processes(options, 2, NULL);
  r = resolve(options, env, 1, NULL);
  ASSERT_EQ(2, tessera_keras_initialize_num_processes(r, NULL));
  tessera_keras_initialize_destroy(r);
  tessera_keras_initialize_options_destroy(options);
}

static void k153_a_variable_int_refuses_is_pythons_error(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_PROCESS_ID=abc"};
  tessera_error* err = NULL;
  ASSERT_NULL(resolve(NULL, env, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "invalid literal for int() with base 10: 'abc' (environment variable KERAS_DISTRIBUTION_PROCESS_ID)");
}

static void numbers_are_read_as_python_reads_them(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_NUM_PROCESSES= +1_6\n", "KERAS_DISTRIBUTION_PROCESS_ID=-1"};
  tessera_error* err = NULL;
  tessera_keras_initialize* r = resolve(NULL, env, 2, &err);
  ASSERT_OK(err);
  ASSERT_EQ(16, tessera_keras_initialize_num_processes(r, NULL));
  ASSERT_EQ(-1, tessera_keras_initialize_process_index(r, NULL));
  tessera_keras_initialize_destroy(r);
}

static void an_explicit_address_is_not_replaced_by_the_variable(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_JOB_ADDRESSES=a:1,b:1"};
  tessera_keras_initialize_options* options = tessera_keras_initialize_options_create();
  tessera_keras_initialize* r;
  tessera_keras_initialize_options_set_job_addresses(options, "c:1", NULL);
  r = resolve(options, env, 1, NULL);
  ASSERT_STREQ("c:1", tessera_keras_initialize_coordinator_address(r, NULL));
  tessera_keras_initialize_destroy(r);
  tessera_keras_initialize_options_destroy(options);
}

static void an_address_count_unlike_the_process_count_is_kerass_error(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_JOB_ADDRESSES=a:1,b:1,c:1", "KERAS_DISTRIBUTION_NUM_PROCESSES=2"};
  tessera_error* err = NULL;
  ASSERT_NULL(resolve(NULL, env, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "The provided job_addresses ['a:1', 'b:1', 'c:1'] has 3 jobs, but num_processes is 2");
}

static void a_job_address_past_the_list_is_out_of_range(void) {
  tessera_keras_initialize* r = resolve(NULL, NULL, 0, NULL);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_keras_initialize_job_address(r, 0, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 0; expected less than 0");
  tessera_keras_initialize_destroy(r);
}

static void a_malformed_environment_entry_is_invalid_argument(void) {
  static const char* const env[] = {"NOEQUALS"};
  tessera_error* err = NULL;
  ASSERT_NULL(resolve(NULL, env, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'env[0]' must be \"NAME=VALUE\"");
}

static void setting_job_addresses_to_null_makes_them_none_again(void) {
  tessera_keras_initialize_options* options = tessera_keras_initialize_options_create();
  tessera_keras_initialize* r;
  tessera_keras_initialize_options_set_job_addresses(options, "a:1", NULL);
  ASSERT_TRUE(tessera_keras_initialize_options_set_job_addresses(options, NULL, NULL));
  r = resolve(options, NULL, 0, NULL);
  ASSERT_NULL(tessera_keras_initialize_job_addresses(r, NULL));
  tessera_keras_initialize_destroy(r);
  tessera_keras_initialize_options_destroy(options);
}

static void setters_need_options(void) {
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_keras_initialize_options_set_num_processes(NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(k1_explicit_arguments_are_passed_on),
      HARNESS_TEST(k3_nothing_given_is_none_none_none),
      HARNESS_TEST(k67_the_coordinator_is_the_first_job_address),
      HARNESS_TEST(k69_one_address_is_the_coordinator_as_given),
      HARNESS_TEST(a_missing_process_count_is_none_not_an_error),
      HARNESS_TEST(k153_an_explicit_count_beats_the_variable),
      HARNESS_TEST(k153_a_variable_int_refuses_is_pythons_error),
      HARNESS_TEST(numbers_are_read_as_python_reads_them),
      HARNESS_TEST(an_explicit_address_is_not_replaced_by_the_variable),
      HARNESS_TEST(an_address_count_unlike_the_process_count_is_kerass_error),
      HARNESS_TEST(a_job_address_past_the_list_is_out_of_range),
      HARNESS_TEST(a_malformed_environment_entry_is_invalid_argument),
      HARNESS_TEST(setting_job_addresses_to_null_makes_them_none_again),
      HARNESS_TEST(setters_need_options),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
