/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Cluster options setters (validation messages) and configuration resolution
 * through tessera_detection_create_from_env / tessera_detection_create. */
#include <stdint.h>
#include <string.h>

#include "harness.h"

static void setters_accept_valid_values(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  const int64_t ids[] = {0, 2};
  ASSERT_NOT_NULL(options);
  ASSERT_TRUE(tessera_cluster_options_set_coordinator_address(options, "10.0.0.1:8476", &err));
  ASSERT_TRUE(tessera_cluster_options_set_bind_address(options, "[::]:0", &err));
  ASSERT_TRUE(tessera_cluster_options_set_num_processes(options, 4, &err));
  ASSERT_TRUE(tessera_cluster_options_set_process_index(options, 3, &err));
  ASSERT_TRUE(tessera_cluster_options_set_local_device_ids(options, ids, 2, &err));
  ASSERT_TRUE(tessera_cluster_options_set_job_id(options, "job-1", &err));
  ASSERT_TRUE(tessera_cluster_options_set_job_token(options, "secret", &err));
  ASSERT_TRUE(tessera_cluster_options_set_require_auth(options, true, &err));
  ASSERT_TRUE(tessera_cluster_options_set_init_timeout_ms(options, 1000, &err));
  ASSERT_TRUE(tessera_cluster_options_set_heartbeat(options, 100, 300, &err));
  ASSERT_TRUE(tessera_cluster_options_set_shutdown_timeout_ms(options, 1000, &err));
  ASSERT_TRUE(tessera_cluster_options_set_rpc_timeout_ms(options, 1000, &err));
  ASSERT_TRUE(tessera_cluster_options_set_recoverable(options, true, &err));
  ASSERT_TRUE(tessera_cluster_options_set_fail_job_on_duplicate_id(options, true, &err));
  ASSERT_TRUE(tessera_cluster_options_set_partition_index(options, 0, &err));
  ASSERT_TRUE(tessera_cluster_options_set_kv_limits(options, 10, 100, &err));
  ASSERT_TRUE(tessera_cluster_options_set_detection(options, "slurm", &err));
  ASSERT_TRUE(tessera_cluster_options_set_tls_peer_uri_prefix(options, "spiffe://x/", &err));
  ASSERT_TRUE(tessera_cluster_options_set_tls_server_name(options, "coord", &err));
  ASSERT_TRUE(tessera_cluster_options_set_tls_require_client_cert(options, false, &err));
  ASSERT_OK(err);
  tessera_cluster_options_destroy(options);
}

static void null_options_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_cluster_options_set_num_processes(NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
  ASSERT_FALSE(tessera_cluster_options_set_detection(NULL, "auto", NULL)); /* NULL out_error is allowed */
  tessera_cluster_options_destroy(NULL);
}

static void bad_values_name_argument_value_and_expectation(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  const int64_t negative[] = {0, -1};
  const int64_t repeated[] = {1, 1};
  ASSERT_FALSE(tessera_cluster_options_set_num_processes(options, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_processes' must be >= 1, got 0");
  ASSERT_FALSE(tessera_cluster_options_set_process_index(options, SIZE_MAX, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'process_index' is 18446744073709551615; expected at most 9223372036854775807");
  ASSERT_FALSE(tessera_cluster_options_set_init_timeout_ms(options, -5, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'timeout_ms' must be > 0, got -5");
  ASSERT_FALSE(tessera_cluster_options_set_heartbeat(options, 1000, 2000, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'timeout_ms' must be >= 3 x interval_ms (3 x 1000), got 2000");
  ASSERT_FALSE(tessera_cluster_options_set_heartbeat(options, INT64_MAX, INT64_MAX, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "must be >= 3 x interval_ms");
  ASSERT_FALSE(tessera_cluster_options_set_local_device_ids(options, negative, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'ids[1]' must be >= 0, got -1");
  ASSERT_FALSE(tessera_cluster_options_set_local_device_ids(options, repeated, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'ids[1]' repeats local device id 1");
  ASSERT_FALSE(tessera_cluster_options_set_local_device_ids(options, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "ids");
  ASSERT_FALSE(tessera_cluster_options_set_kv_limits(options, 100, 10, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'max_store_bytes' must be >= max_value_bytes (100), got 10");
  ASSERT_FALSE(tessera_cluster_options_set_partition_index(options, SIZE_MAX, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE,
               "Argument 'partition_index' is 18446744073709551615; expected at most 9223372036854775807");
  ASSERT_FALSE(tessera_cluster_options_set_tls(options, "cert.pem", NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'cert_file' and 'key_file' must be set together");
  ASSERT_FALSE(tessera_cluster_options_set_job_id(options, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'job_id' is NULL");
  tessera_cluster_options_destroy(options);
}

static void tls_reload_interval_is_one_second_to_a_year_in_milliseconds(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_cluster_options_set_tls_reload_interval_ms(options, 1000, &err));
  ASSERT_TRUE(tessera_cluster_options_set_tls_reload_interval_ms(options, 31536000000, &err));
  ASSERT_OK(err);
  ASSERT_FALSE(tessera_cluster_options_set_tls_reload_interval_ms(options, 999, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'interval_ms' must be in [1000, 31536000000] (a second to a year), got 999");
  ASSERT_FALSE(tessera_cluster_options_set_tls_reload_interval_ms(options, 31536000001, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'interval_ms' must be in [1000, 31536000000] (a second to a year), got 31536000001");
  tessera_cluster_options_destroy(options);
}

static void addresses_are_checked(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_cluster_options_set_coordinator_address(options, "::1:80", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'address' must be \"host:port\" (IPv6 as \"[::1]:port\"), got \"::1:80\"");
  ASSERT_FALSE(tessera_cluster_options_set_coordinator_address(options, "h:70000", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "got \"h:70000\": the port must be a number in 0..65535");
  ASSERT_FALSE(tessera_cluster_options_set_bind_address(options, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'address' is NULL");
  ASSERT_TRUE(tessera_cluster_options_set_coordinator_address(options, "[::1]:80", &err));
  ASSERT_OK(err);
  tessera_cluster_options_destroy(options);
}

static void unknown_detection_method_lists_the_accepted_ones(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_cluster_options_set_detection(options, "mpi", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "must be one of auto, none, keras, dtensor, torchrun, openmpi, hydra, slurm, gketpu, kubernetes; got \"mpi\"");
  tessera_cluster_options_destroy(options);
}

static void detect_env_resolves_slurm(void) {
  static const char* const env[] = {"SLURM_JOB_ID=12345", "SLURM_STEP_NODELIST=n[001-015],h2", "SLURM_NTASKS=16",
                                    "SLURM_PROCID=3", "SLURM_LOCALID=1"};
  tessera_error* err = NULL;
  tessera_detection* d = tessera_detection_create_from_env(NULL, env, 5, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(d);
  ASSERT_STREQ("slurm", tessera_detection_source(d, NULL));
  ASSERT_STREQ("n001:61497", tessera_detection_coordinator_address(d, NULL));
  ASSERT_STREQ("[::]:61497", tessera_detection_bind_address(d, NULL));
  ASSERT_EQ(16, tessera_detection_num_processes(d, NULL));
  ASSERT_EQ(3, tessera_detection_process_index(d, NULL));
  ASSERT_STREQ("12345", tessera_detection_job_id(d, NULL));
  ASSERT_EQ(1, tessera_detection_num_local_device_ids(d, NULL));
  ASSERT_EQ(1, tessera_detection_local_device_id(d, 0, NULL));
  ASSERT_EQ(0, tessera_detection_local_device_id(d, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE,
               "Argument 'index' is 1; expected less than 1 (the detected local device ids)");
  ASSERT_CONTAINS(tessera_detection_explanation(d, NULL),
                  "\nport: SLURM_JOB_ID % 4096 + 61440 = 12345 % 4096 + 61440 = 61497 (as JAX)\n");
  ASSERT_CONTAINS(tessera_detection_explanation(d, NULL), "torchrun: skipped: none of RANK, WORLD_SIZE");
  tessera_detection_destroy(d);
}

static void detect_env_explains_a_partial_set(void) {
  static const char* const env[] = {"SLURM_JOB_ID=7", "SLURM_NTASKS=2"};
  tessera_detection* d = tessera_detection_create_from_env(NULL, env, 2, NULL);
  ASSERT_NOT_NULL(d);
  ASSERT_STREQ("single-process", tessera_detection_source(d, NULL));
  ASSERT_EQ(1, tessera_detection_num_processes(d, NULL));
  ASSERT_STREQ("", tessera_detection_coordinator_address(d, NULL));
  ASSERT_CONTAINS(tessera_detection_explanation(d, NULL),
                  "slurm: skipped: SLURM_JOB_ID, SLURM_NTASKS present but SLURM_STEP_NODELIST, SLURM_PROCID, "
                  "SLURM_LOCALID missing");
  tessera_detection_destroy(d);
}

static void process_index_and_its_alias_disagreeing_is_invalid_argument(void) {
  static const char* const env[] = {"TESSERA_COORDINATOR_ADDRESS=10.0.0.9:1", "TESSERA_NUM_PROCESSES=4",
                                    "TESSERA_PROCESS_INDEX=1", "TESSERA_PROCESS_ID=2"};
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_detection_create_from_env(options, env, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Environment variables TESSERA_PROCESS_INDEX (\"1\") and its alias TESSERA_PROCESS_ID (\"2\") "
               "disagree; expected one of them, or the same value in both");
  tessera_cluster_options_destroy(options);
}

static void options_override_the_environment(void) {
  static const char* const env[] = {"TESSERA_NUM_PROCESSES=8", "TESSERA_PROCESS_ID=7",
                                    "TESSERA_COORDINATOR_ADDRESS=10.0.0.9:1"};
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_detection* d;
  ASSERT_TRUE(tessera_cluster_options_set_num_processes(options, 2, NULL));
  ASSERT_TRUE(tessera_cluster_options_set_process_index(options, 1, NULL));
  d = tessera_detection_create_from_env(options, env, 3, NULL);
  ASSERT_NOT_NULL(d);
  ASSERT_STREQ("options", tessera_detection_source(d, NULL));
  ASSERT_EQ(2, tessera_detection_num_processes(d, NULL));
  ASSERT_EQ(1, tessera_detection_process_index(d, NULL));
  ASSERT_STREQ("10.0.0.9:1", tessera_detection_coordinator_address(d, NULL));
  tessera_detection_destroy(d);
  tessera_cluster_options_destroy(options);
}

static void later_entries_replace_earlier_ones(void) {
  static const char* const env[] = {"TESSERA_NUM_PROCESSES=8", "TESSERA_NUM_PROCESSES=1"};
  tessera_detection* d = tessera_detection_create_from_env(NULL, env, 2, NULL);
  ASSERT_NOT_NULL(d);
  ASSERT_EQ(1, tessera_detection_num_processes(d, NULL));
  tessera_detection_destroy(d);
}

static void malformed_entries_name_their_index(void) {
  static const char* const no_equals[] = {"A=1", "NOEQUALS"};
  static const char* const no_name[] = {"=x"};
  static const char* const null_entry[] = {"A=1", "B=2", NULL};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_detection_create_from_env(NULL, no_equals, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'env[1]' must be \"NAME=VALUE\" with a non-empty NAME, got \"NOEQUALS\"");
  ASSERT_NULL(tessera_detection_create_from_env(NULL, no_name, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'env[0]'");
  ASSERT_NULL(tessera_detection_create_from_env(NULL, null_entry, 3, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'env[2]' is NULL");
  ASSERT_NULL(tessera_detection_create_from_env(NULL, NULL, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "env");
}

static void empty_environment_is_one_process(void) {
  tessera_detection* d = tessera_detection_create_from_env(NULL, NULL, 0, NULL);
  ASSERT_NOT_NULL(d);
  ASSERT_STREQ("single-process", tessera_detection_source(d, NULL));
  ASSERT_EQ(1, tessera_detection_num_processes(d, NULL));
  ASSERT_EQ(0, tessera_detection_process_index(d, NULL));
  ASSERT_STREQ("127.0.0.1:0", tessera_detection_bind_address(d, NULL));
  tessera_detection_destroy(d);
}

static void inconsistent_source_is_invalid_argument(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_JOB_ADDRESSES=a:1,b:1,c:1", "KERAS_DISTRIBUTION_NUM_PROCESSES=2",
                                    "KERAS_DISTRIBUTION_PROCESS_ID=0"};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_detection_create_from_env(NULL, env, 3, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "The provided job_addresses ['a:1', 'b:1', 'c:1'] has 3 jobs, but num_processes is 2");
}

static void detect_reads_the_process_environment(void) {
  /* Explicit options and detection "none": the result cannot depend on the
   * machine's variables (a CI runner under Slurm, say) except TESSERA_*,
   * which the options override field by field. */
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  tessera_detection* d;
  ASSERT_TRUE(tessera_cluster_options_set_detection(options, "none", NULL));
  ASSERT_TRUE(tessera_cluster_options_set_coordinator_address(options, "10.0.0.2:5000", NULL));
  ASSERT_TRUE(tessera_cluster_options_set_num_processes(options, 3, NULL));
  ASSERT_TRUE(tessera_cluster_options_set_process_index(options, 2, NULL));
  d = tessera_detection_create(options, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(d);
  ASSERT_STREQ("options", tessera_detection_source(d, NULL));
  ASSERT_STREQ("10.0.0.2:5000", tessera_detection_coordinator_address(d, NULL));
  ASSERT_CONTAINS(tessera_detection_explanation(d, NULL), "slurm: not considered: detection is \"none\"");
  tessera_detection_destroy(d);
  tessera_cluster_options_destroy(options);
}

static void null_detection_accessors_are_safe(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_detection_source(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_detection_coordinator_address(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_detection_bind_address(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_detection_job_id(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_detection_explanation(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_detection_num_processes(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_detection_process_index(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_detection_num_local_device_ids(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_detection_local_device_id(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'detection' is NULL; expected a valid pointer");
  tessera_detection_destroy(NULL);
}

/* Issue 15: connection timeouts take milliseconds within their documented ranges. */
static void connection_timeouts_are_checked_against_their_ranges(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_cluster_options_set_connection_timeouts(options, 100, 1000, &err));
  ASSERT_TRUE(tessera_cluster_options_set_connection_timeouts(options, 600000, 86400000, &err));
  ASSERT_OK(err);
  ASSERT_FALSE(tessera_cluster_options_set_connection_timeouts(options, 99, 1000, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'handshake_timeout_ms' must be in [100, 600000] milliseconds, got 99");
  ASSERT_FALSE(tessera_cluster_options_set_connection_timeouts(options, 100, 86400001, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'idle_timeout_ms' must be in [1000, 86400000] milliseconds, got 86400001");
  tessera_cluster_options_destroy(options);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(setters_accept_valid_values),
      HARNESS_TEST(null_options_is_invalid_argument),
      HARNESS_TEST(bad_values_name_argument_value_and_expectation),
      HARNESS_TEST(tls_reload_interval_is_one_second_to_a_year_in_milliseconds),
      HARNESS_TEST(process_index_and_its_alias_disagreeing_is_invalid_argument),
      HARNESS_TEST(addresses_are_checked),
      HARNESS_TEST(unknown_detection_method_lists_the_accepted_ones),
      HARNESS_TEST(detect_env_resolves_slurm),
      HARNESS_TEST(detect_env_explains_a_partial_set),
      HARNESS_TEST(options_override_the_environment),
      HARNESS_TEST(later_entries_replace_earlier_ones),
      HARNESS_TEST(malformed_entries_name_their_index),
      HARNESS_TEST(empty_environment_is_one_process),
      HARNESS_TEST(inconsistent_source_is_invalid_argument),
      HARNESS_TEST(detect_reads_the_process_environment),
      HARNESS_TEST(null_detection_accessors_are_safe),
      HARNESS_TEST(connection_timeouts_are_checked_against_their_ranges),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
