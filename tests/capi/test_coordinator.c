/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* tessera_coordinator_*: starting, waiting for the end of the job, bind and
 * configuration errors, NULL handles. Clients are tested in test_client.c. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

/* *out = options for a coordinator of `num_processes` on 127.0.0.1:0; NULL
 * (and a recorded failure) when a setter fails. */
static void loopback_options(int64_t num_processes, tessera_cluster_options** out) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  *out = NULL;
  tessera_error* err = NULL;
  ASSERT_NOT_NULL(options);
  ASSERT_TRUE(tessera_cluster_options_set_detection(options, "none", &err));
  ASSERT_TRUE(tessera_cluster_options_set_bind_address(options, "127.0.0.1:0", &err));
  ASSERT_TRUE(tessera_cluster_options_set_num_processes(options, num_processes, &err));
  ASSERT_TRUE(tessera_cluster_options_set_process_index(options, 0, &err));
  ASSERT_TRUE(tessera_cluster_options_set_job_id(options, "capi-coordinator", &err));
  ASSERT_TRUE(tessera_cluster_options_set_job_token(options, "token", &err));
  ASSERT_OK(err);
  *out = options;
}

static void port_zero_picks_a_free_port(void) {
  tessera_cluster_options* options = NULL;
  loopback_options(2, &options);
  ASSERT_NOT_NULL(options);
  tessera_error* err = NULL;
  tessera_coordinator* coordinator = tessera_coordinator_start(options, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(coordinator);
  ASSERT_TRUE(tessera_coordinator_port(coordinator, NULL) > 0);
  tessera_coordinator_destroy(coordinator);
  tessera_cluster_options_destroy(options);
}

static void wait_is_deadline_exceeded_while_the_job_runs(void) {
  tessera_cluster_options* options = NULL;
  loopback_options(2, &options);
  ASSERT_NOT_NULL(options);
  tessera_error* err = NULL;
  tessera_coordinator* coordinator = tessera_coordinator_start(options, &err);
  ASSERT_NOT_NULL(coordinator);
  ASSERT_FALSE(tessera_coordinator_wait(coordinator, 10, &err));
  ASSERT_ERROR(err, TESSERA_DEADLINE_EXCEEDED, "is still running after 10ms");
  ASSERT_FALSE(tessera_coordinator_wait(coordinator, -5, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'timeout_ms' must be >= 0, got -5");
  tessera_coordinator_destroy(coordinator);
  tessera_cluster_options_destroy(options);
}

static void job_ends_when_nobody_registers_before_the_init_timeout(void) {
  tessera_cluster_options* options = NULL;
  loopback_options(2, &options);
  ASSERT_NOT_NULL(options);
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_cluster_options_set_init_timeout_ms(options, 100, &err));
  tessera_coordinator* coordinator = tessera_coordinator_start(options, &err);
  ASSERT_NOT_NULL(coordinator);
  ASSERT_TRUE(tessera_coordinator_wait(coordinator, 10000, &err));
  ASSERT_OK(err);
  tessera_coordinator_destroy(coordinator);
  tessera_cluster_options_destroy(options);
}

static void bind_in_use_names_address_and_errno(void) {
  tessera_cluster_options* options = NULL;
  loopback_options(2, &options);
  ASSERT_NOT_NULL(options);
  tessera_error* err = NULL;
  char address[64];
  char expected[128];
  tessera_coordinator* first = tessera_coordinator_start(options, &err);
  ASSERT_NOT_NULL(first);
  snprintf(address, sizeof address, "127.0.0.1:%d", tessera_coordinator_port(first, NULL));
  ASSERT_TRUE(tessera_cluster_options_set_bind_address(options, address, &err));
  ASSERT_NULL(tessera_coordinator_start(options, &err));
  snprintf(expected, sizeof expected, "bind %s: Address already in use (EADDRINUSE)", address);
  ASSERT_ERROR(err, TESSERA_UNAVAILABLE, expected);
  tessera_coordinator_destroy(first);
  tessera_cluster_options_destroy(options);
}

static void require_auth_without_token_refuses_to_start(void) {
  tessera_cluster_options* options = NULL;
  loopback_options(2, &options);
  ASSERT_NOT_NULL(options);
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_cluster_options_set_job_token(options, "", &err));
  ASSERT_TRUE(tessera_cluster_options_set_require_auth(options, true, &err));
  ASSERT_NULL(tessera_coordinator_start(options, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "require_auth is set but no job token");
  tessera_cluster_options_destroy(options);
}

static void missing_process_count_is_invalid_argument(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_coordinator_start(options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "needs num_processes");
  tessera_cluster_options_destroy(options);
}

static void null_handles_are_safe(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_coordinator_start(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
  ASSERT_EQ(0, tessera_coordinator_port(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'coordinator' is NULL; expected a valid pointer");
  ASSERT_FALSE(tessera_coordinator_wait(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'coordinator' is NULL");
  tessera_coordinator_stop(NULL);
  tessera_coordinator_destroy(NULL);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(port_zero_picks_a_free_port),
      HARNESS_TEST(wait_is_deadline_exceeded_while_the_job_runs),
      HARNESS_TEST(job_ends_when_nobody_registers_before_the_init_timeout),
      HARNESS_TEST(bind_in_use_names_address_and_errno),
      HARNESS_TEST(require_auth_without_token_refuses_to_start),
      HARNESS_TEST(missing_process_count_is_invalid_argument),
      HARNESS_TEST(null_handles_are_safe),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
