/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* The current distribution: a process-wide default plus a per-thread scope stack. */
#define _POSIX_C_SOURCE 200112L

#include <pthread.h>
#include <stdint.h>

#include "fixtures.h"
#include "harness.h"

static tessera_distribution* data_parallel(int devices) {
  tessera_mesh* mesh = fixture_mesh_1d(devices, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, NULL);
  tessera_mesh_destroy(mesh);
  return dp;
}

/* The number of model replicas of the current distribution; 0 when none. */
static int64_t current_replicas(void) {
  tessera_distribution* current = tessera_distribution_current();
  int64_t replicas = tessera_distribution_num_model_replicas(current, NULL);
  tessera_distribution_destroy(current);
  return replicas;
}

static void there_is_no_current_distribution_at_first(void) {
  ASSERT_NULL(tessera_distribution_current());
}

static void the_default_becomes_current_until_cleared(void) {
  tessera_distribution* dp = data_parallel(4);
  tessera_distribution_set_default(dp);
  ASSERT_EQ(4, current_replicas());
  tessera_distribution_set_default(NULL);
  ASSERT_NULL(tessera_distribution_current());
  tessera_distribution_destroy(dp);
}

static void the_default_is_retained_after_its_handle_is_destroyed(void) {
  tessera_distribution* dp = data_parallel(2);
  tessera_distribution_set_default(dp);
  tessera_distribution_destroy(dp);
  ASSERT_EQ(2, current_replicas());
  tessera_distribution_set_default(NULL);
}

static void a_scope_overrides_the_default_until_popped(void) {
  tessera_error* err = NULL;
  tessera_distribution* outer = data_parallel(4);
  tessera_distribution* inner = data_parallel(2);
  tessera_distribution_set_default(outer);
  ASSERT_TRUE(tessera_distribution_scope_push(inner, &err));
  ASSERT_EQ(2, current_replicas());
  ASSERT_TRUE(tessera_distribution_scope_pop(&err));
  ASSERT_OK(err);
  ASSERT_EQ(4, current_replicas());
  tessera_distribution_set_default(NULL);
  tessera_distribution_destroy(outer);
  tessera_distribution_destroy(inner);
}

static void scopes_nest_innermost_first(void) {
  tessera_distribution* a = data_parallel(2);
  tessera_distribution* b = data_parallel(8);
  ASSERT_TRUE(tessera_distribution_scope_push(a, NULL));
  ASSERT_TRUE(tessera_distribution_scope_push(b, NULL));
  ASSERT_EQ(8, current_replicas());
  ASSERT_TRUE(tessera_distribution_scope_pop(NULL));
  ASSERT_EQ(2, current_replicas());
  ASSERT_TRUE(tessera_distribution_scope_pop(NULL));
  ASSERT_NULL(tessera_distribution_current());
  tessera_distribution_destroy(a);
  tessera_distribution_destroy(b);
}

static void a_scope_retains_its_distribution(void) {
  tessera_distribution* dp = data_parallel(2);
  ASSERT_TRUE(tessera_distribution_scope_push(dp, NULL));
  tessera_distribution_destroy(dp);
  ASSERT_EQ(2, current_replicas());
  ASSERT_TRUE(tessera_distribution_scope_pop(NULL));
}

static void pop_without_a_scope_is_failed_precondition(void) {
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_scope_pop(&err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "No distribution scope is open on this thread");
}

static void push_of_null_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_scope_push(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL");
}

static void *report_current_replicas(void* out) {
  *(int64_t*)out = current_replicas();
  return NULL;
}

static void scopes_belong_to_the_thread_that_opened_them(void) {
  tessera_distribution* fallback = data_parallel(4);
  tessera_distribution* scoped = data_parallel(2);
  pthread_t thread;
  int64_t seen_by_other_thread = -1;
  tessera_distribution_set_default(fallback);
  ASSERT_TRUE(tessera_distribution_scope_push(scoped, NULL));
  ASSERT_EQ(0, pthread_create(&thread, NULL, report_current_replicas, &seen_by_other_thread));
  ASSERT_EQ(0, pthread_join(thread, NULL));
  ASSERT_EQ(4, seen_by_other_thread);
  ASSERT_EQ(2, current_replicas());
  ASSERT_TRUE(tessera_distribution_scope_pop(NULL));
  tessera_distribution_set_default(NULL);
  tessera_distribution_destroy(fallback);
  tessera_distribution_destroy(scoped);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(there_is_no_current_distribution_at_first),
      HARNESS_TEST(the_default_becomes_current_until_cleared),
      HARNESS_TEST(the_default_is_retained_after_its_handle_is_destroyed),
      HARNESS_TEST(a_scope_overrides_the_default_until_popped),
      HARNESS_TEST(scopes_nest_innermost_first),
      HARNESS_TEST(a_scope_retains_its_distribution),
      HARNESS_TEST(pop_without_a_scope_is_failed_precondition),
      HARNESS_TEST(push_of_null_is_invalid_argument),
      HARNESS_TEST(scopes_belong_to_the_thread_that_opened_them),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
