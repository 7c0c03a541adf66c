/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* The log callback. A DataParallel over a 2-D mesh is the library's warning. */
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

typedef struct recorded_log {
  int calls;
  tessera_log_level_t level;
  char message[512];
  size_t message_size;
  int nul_terminated;
} recorded_log;

static void record(tessera_log_level_t level, const char* message, size_t message_size,
                   void* user_data) {
  recorded_log* log = (recorded_log*)user_data;
  log->calls += 1;
  log->level = level;
  log->message_size = message_size;
  log->nul_terminated = message[message_size] == '\0';
  strncpy(log->message, message, sizeof log->message - 1);
}

/* Triggers the warning: DataParallel over the (2, 4) mesh. */
static int warn_once(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, NULL);
  int ok = dp != NULL;
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
  return ok;
}

static void callback_receives_warnings_with_its_user_data(void) {
  recorded_log log;
  tessera_error* err = NULL;
  memset(&log, 0, sizeof log);
  ASSERT_TRUE(tessera_log_set_callback(record, &log, TESSERA_LOG_WARNING, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(warn_once());
  ASSERT_TRUE(tessera_log_set_callback(NULL, NULL, TESSERA_LOG_WARNING, NULL));
  ASSERT_EQ(1, log.calls);
  ASSERT_EQ(TESSERA_LOG_WARNING, log.level);
  ASSERT_CONTAINS(log.message, "The first axis will be used for data-parallel sharding");
  ASSERT_EQ(strlen(log.message), log.message_size);
  ASSERT_TRUE(log.nul_terminated);
}

static void messages_below_the_minimum_level_are_dropped(void) {
  recorded_log log;
  memset(&log, 0, sizeof log);
  ASSERT_TRUE(tessera_log_set_callback(record, &log, TESSERA_LOG_ERROR, NULL));
  ASSERT_TRUE(warn_once());
  ASSERT_TRUE(tessera_log_set_callback(NULL, NULL, TESSERA_LOG_WARNING, NULL));
  ASSERT_EQ(0, log.calls);
}

static void null_callback_stops_calling_the_old_one(void) {
  recorded_log log;
  memset(&log, 0, sizeof log);
  ASSERT_TRUE(tessera_log_set_callback(record, &log, TESSERA_LOG_DEBUG, NULL));
  ASSERT_TRUE(tessera_log_set_callback(NULL, NULL, TESSERA_LOG_WARNING, NULL));
  ASSERT_TRUE(warn_once()); /* goes to stderr */
  ASSERT_EQ(0, log.calls);
}

static void unknown_level_is_invalid_argument_and_keeps_the_callback(void) {
  recorded_log log;
  tessera_error* err = NULL;
  memset(&log, 0, sizeof log);
  ASSERT_TRUE(tessera_log_set_callback(record, &log, TESSERA_LOG_WARNING, NULL));
  ASSERT_FALSE(tessera_log_set_callback(NULL, NULL, (tessera_log_level_t)4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'min_level' is 4; expected one of TESSERA_LOG_DEBUG (0), "
               "TESSERA_LOG_INFO (1), TESSERA_LOG_WARNING (2), TESSERA_LOG_ERROR (3)");
  ASSERT_FALSE(tessera_log_set_callback(record, &log, (tessera_log_level_t)-1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'min_level' is -1");
  ASSERT_TRUE(warn_once());
  ASSERT_TRUE(tessera_log_set_callback(NULL, NULL, TESSERA_LOG_WARNING, NULL));
  ASSERT_EQ(1, log.calls);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(callback_receives_warnings_with_its_user_data),
      HARNESS_TEST(messages_below_the_minimum_level_are_dropped),
      HARNESS_TEST(null_callback_stops_calling_the_old_one),
      HARNESS_TEST(unknown_level_is_invalid_argument_and_keeps_the_callback),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
