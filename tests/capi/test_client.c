/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * tessera/client.h and tessera_runtime_initialize: argument validation, the
 * single-process client, error details, and a two-process job on an
 * in-process coordinator (tessera_coordinator_start + tessera_client_connect).
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "tessera/client.h"
#include "tessera/experimental/cluster.h"
#include "tessera/coordinator.h"

/* ---- helpers -------------------------------------------------------------- */

/* Options for a single process that connects nowhere (no detection). */
static tessera_cluster_options* single_process_options(void) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  if (options != NULL) tessera_cluster_options_set_detection(options, "none", NULL);
  return options;
}

static tessera_client* single_process_client(void) {
  tessera_cluster_options* options = single_process_options();
  tessera_client* client = tessera_client_connect(options, NULL);
  tessera_cluster_options_destroy(options);
  return client;
}

/* ---- NULL handles ----------------------------------------------------------- */

static void accessors_of_null_client_are_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_client_process_index(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_client_num_processes(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_client_topology_fingerprint(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_client_topology_generation(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_client_coordinator_address(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL; expected a valid pointer");
  tessera_client_cancel_all(NULL);
  tessera_client_destroy(NULL);
}

static void calls_on_null_client_name_the_argument(void) {
  tessera_error* err = NULL;
  int64_t value = 0;
  ASSERT_FALSE(tessera_client_kv_set(NULL, "k", "v", 1, false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL");
  ASSERT_NULL(tessera_client_kv_wait(NULL, "k", 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL");
  ASSERT_FALSE(tessera_client_kv_increment(NULL, "k", 1, &value, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL");
  ASSERT_FALSE(tessera_client_barrier(NULL, "b", 0, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL");
  ASSERT_FALSE(tessera_client_shutdown(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL");
  ASSERT_NULL(tessera_client_event_wait(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'client' is NULL");
}

static void accessors_of_null_event_and_list_are_invalid_argument(void) {
  char bytes[4];
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_event_process_index(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'event' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_event_code(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'event' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_event_message(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'event' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_event_generation(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'event' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_kv_list_num_entries(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'list' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_kv_list_key(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'list' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_kv_list_value(NULL, 0, bytes, sizeof bytes, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'list' is NULL; expected a valid pointer");
  tessera_event_destroy(NULL);
  tessera_kv_list_destroy(NULL);
}

static void error_details_of_null_or_plain_errors_are_empty(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_error_reason(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_error_source_process(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_error_num_missing(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_error_missing_process(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_error_missing_state(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_error_missing_waiting_at(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_error_num_arrived(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_error_arrived_process(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'error' is NULL; expected a valid pointer");
  ASSERT_FALSE(tessera_client_shutdown(NULL, &err));
  ASSERT_EQ(TESSERA_REASON_NONE, tessera_error_reason(err, NULL));
  ASSERT_EQ(-1, tessera_error_source_process(err, NULL));
  tessera_error_destroy(err);
}

/* ---- argument validation on a live client ------------------------------------ */

static void bad_arguments_are_invalid_argument_naming_them(void) {
  tessera_error* err = NULL;
  size_t ids[1] = {7};
  size_t live[1];
  bool swapped = false;
  tessera_client* client = single_process_client();
  ASSERT_NOT_NULL(client);
  ASSERT_FALSE(tessera_client_kv_set(client, NULL, "v", 1, false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'key' is NULL");
  ASSERT_FALSE(tessera_client_kv_set(client, "", "v", 1, false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'key' is \"\"");
  ASSERT_FALSE(tessera_client_kv_set(client, "k", NULL, 3, false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'value' is NULL but 'size' is 3");
  ASSERT_NULL(tessera_client_kv_wait(client, "k", -5, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'timeout_ms' must be >= 0, got -5");
  ASSERT_FALSE(tessera_client_barrier(client, "b", 100, ids, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'participants[0]' is 7; expected less than 1 (num_processes)");
  ASSERT_FALSE(tessera_client_barrier(client, "b", 100, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'participants' is NULL but 'num_participants' is 2");
  ASSERT_EQ(0, tessera_client_agree_live_processes(client, ids, 0, 100, live, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_candidates' is 0");
  ids[0] = 0;
  ASSERT_EQ(0, tessera_client_agree_live_processes(client, ids, 1, 100, NULL, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL but 'capacity' is 1");
  ASSERT_FALSE(tessera_client_report_error(client, TESSERA_OK, "fine", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'code' is 0");
  ASSERT_FALSE(tessera_client_kv_compare_and_swap(client, "k", NULL, 2, "x", 1, &swapped, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'expected_size' is 2");
  ASSERT_NULL(tessera_client_event_wait(client, -1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'timeout_ms' must be >= 0, got -1");
  tessera_client_destroy(client);
}

/* ---- a single process ------------------------------------------------------------ */

static void single_process_client_serves_the_key_value_store(void) {
  tessera_error* err = NULL;
  tessera_buffer* value;
  tessera_kv_list* list;
  int64_t counter = 0;
  bool swapped = false;
  tessera_buffer* current = NULL;
  char bytes[7] = {0};
  tessera_client* client = single_process_client();
  ASSERT_NOT_NULL(client);
  ASSERT_EQ(0, tessera_client_process_index(client, NULL));
  ASSERT_EQ(1, tessera_client_num_processes(client, NULL));
  ASSERT_STREQ("", tessera_client_coordinator_address(client, NULL));
  ASSERT_TRUE(tessera_client_kv_set(client, "dir/a", "bytes\0x", 7, false, &err));
  ASSERT_OK(err);
  value = tessera_client_kv_wait(client, "dir/a", 0, &err);
  ASSERT_OK(err);
  ASSERT_EQ(7, tessera_buffer_size(value));
  ASSERT_EQ(0, memcmp(tessera_buffer_data(value), "bytes\0x", 7));
  tessera_buffer_destroy(value);
  ASSERT_NULL(tessera_client_kv_lookup(client, "dir/b", &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "dir/b");
  list = tessera_client_kv_list(client, "dir", &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_kv_list_num_entries(list, NULL));
  ASSERT_STREQ("dir/a", tessera_kv_list_key(list, 0, NULL));
  ASSERT_EQ(7, tessera_kv_list_value(list, 0, NULL, 0, &err));
  ASSERT_OK(err);
  ASSERT_EQ(7, tessera_kv_list_value(list, 0, bytes, 7, &err));
  ASSERT_OK(err);
  ASSERT_EQ(0, memcmp(bytes, "bytes\0x", 7));
  ASSERT_EQ(0, tessera_kv_list_value(list, 0, bytes, 6, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 6; expected at least 7");
  tessera_kv_list_destroy(list);
  ASSERT_TRUE(tessera_client_kv_increment(client, "n", 41, &counter, &err));
  ASSERT_TRUE(tessera_client_kv_increment(client, "n", 1, &counter, &err));
  ASSERT_EQ(42, counter);
  ASSERT_TRUE(tessera_client_kv_compare_and_swap(client, "n", "42", 2, "43", 2, &swapped, &current, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(swapped);
  ASSERT_EQ(2, tessera_buffer_size(current));
  tessera_buffer_destroy(current);
  ASSERT_TRUE(tessera_client_kv_remove(client, "dir", true, &err));
  ASSERT_NULL(tessera_client_kv_lookup(client, "dir/a", &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "dir/a");
  ASSERT_TRUE(tessera_client_barrier(client, "b", 100, NULL, 0, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_client_shutdown(client, &err));
  ASSERT_OK(err);
  tessera_client_destroy(client);
}

static void next_event_without_events_times_out(void) {
  tessera_error* err = NULL;
  tessera_client* client = single_process_client();
  ASSERT_NOT_NULL(client);
  ASSERT_NULL(tessera_client_event_wait(client, 0, &err));
  ASSERT_ERROR(err, TESSERA_DEADLINE_EXCEEDED, "no event");
  tessera_client_destroy(client);
}

static void initialize_twice_is_failed_precondition(void) {
  tessera_error* err = NULL;
  tessera_cluster_options* options = single_process_options();
  tessera_client* first;
  ASSERT_FALSE(tessera_runtime_is_initialized());
  first = tessera_runtime_initialize(options, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_runtime_is_initialized());
  ASSERT_NULL(tessera_runtime_initialize(options, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "already");
  tessera_client_destroy(first);
  ASSERT_FALSE(tessera_runtime_is_initialized());
  tessera_cluster_options_destroy(options);
}

/* ---- a two-process job ------------------------------------------------------------- */

typedef struct job {
  tessera_coordinator* coordinator;
  char address[64];
  tessera_client* clients[2];
} job;

static tessera_cluster_options* job_options(const char* address, int64_t process_id) {
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_cluster_options_set_detection(options, "none", NULL);
  tessera_cluster_options_set_num_processes(options, 2, NULL);
  tessera_cluster_options_set_process_index(options, process_id, NULL);
  tessera_cluster_options_set_job_id(options, "capi-job", NULL);
  tessera_cluster_options_set_job_token(options, "capi-token", NULL);
  tessera_cluster_options_set_heartbeat(options, 100, 2000, NULL);
  tessera_cluster_options_set_init_timeout_ms(options, 20000, NULL);
  tessera_cluster_options_set_shutdown_timeout_ms(options, 5000, NULL);
  if (address != NULL) {
    tessera_cluster_options_set_coordinator_address(options, address, NULL);
  } else {
    tessera_cluster_options_set_bind_address(options, "127.0.0.1:0", NULL);
  }
  return options;
}

typedef struct connect_args {
  const char* address;
  int64_t process_id;
  tessera_client* client;
  tessera_error* error;
} connect_args;

static void* connect_thread(void* raw) {
  connect_args* args = (connect_args*)raw;
  tessera_cluster_options* options = job_options(args->address, args->process_id);
  args->client = tessera_client_connect(options, &args->error);
  tessera_cluster_options_destroy(options);
  return NULL;
}

/* Starts a coordinator and connects processes 0 and 1 concurrently. */
static int start_job(job* j) {
  tessera_error* err = NULL;
  tessera_cluster_options* options = job_options(NULL, 0);
  connect_args args[2];
  pthread_t thread;
  int i;
  memset(j, 0, sizeof *j);
  j->coordinator = tessera_coordinator_start(options, &err);
  tessera_cluster_options_destroy(options);
  if (j->coordinator == NULL) {
    fprintf(stderr, "coordinator: %s\n", tessera_error_message(err));
    tessera_error_destroy(err);
    return 0;
  }
  snprintf(j->address, sizeof j->address, "127.0.0.1:%d", tessera_coordinator_port(j->coordinator, NULL));
  for (i = 0; i < 2; ++i) {
    args[i].address = j->address;
    args[i].process_id = i;
    args[i].client = NULL;
    args[i].error = NULL;
  }
  pthread_create(&thread, NULL, connect_thread, &args[1]);
  connect_thread(&args[0]);
  pthread_join(thread, NULL);
  for (i = 0; i < 2; ++i) {
    j->clients[i] = args[i].client;
    if (args[i].error != NULL) {
      fprintf(stderr, "process %d: %s\n", i, tessera_error_message(args[i].error));
      tessera_error_destroy(args[i].error);
    }
  }
  return j->clients[0] != NULL && j->clients[1] != NULL;
}

static void stop_job(job* j) {
  tessera_client_destroy(j->clients[0]);
  tessera_client_destroy(j->clients[1]);
  tessera_coordinator_destroy(j->coordinator);
}

typedef struct barrier_args {
  tessera_client* client;
  bool ok;
} barrier_args;

static void* barrier_thread(void* raw) {
  barrier_args* args = (barrier_args*)raw;
  args->ok = tessera_client_barrier(args->client, "step", 10000, NULL, 0, NULL);
  return NULL;
}

static void two_processes_share_the_store_and_a_barrier(void) {
  job j;
  tessera_error* err = NULL;
  tessera_buffer* value;
  barrier_args other;
  pthread_t thread;
  int round;
  ASSERT_TRUE(start_job(&j));
  ASSERT_EQ(tessera_client_topology_fingerprint(j.clients[0], NULL),
            tessera_client_topology_fingerprint(j.clients[1], NULL));
  ASSERT_STREQ(j.address, tessera_client_coordinator_address(j.clients[1], NULL));
  ASSERT_TRUE(tessera_client_kv_set(j.clients[1], "from/1", "hello", 5, false, &err));
  ASSERT_OK(err);
  value = tessera_client_kv_wait(j.clients[0], "from/1", 5000, &err);
  ASSERT_OK(err);
  ASSERT_EQ(5, tessera_buffer_size(value));
  tessera_buffer_destroy(value);
  for (round = 0; round < 2; ++round) {
    other.client = j.clients[1];
    other.ok = false;
    pthread_create(&thread, NULL, barrier_thread, &other);
    ASSERT_TRUE(tessera_client_barrier(j.clients[0], "step", 10000, NULL, 0, &err));
    ASSERT_OK(err);
    pthread_join(thread, NULL);
    ASSERT_TRUE(other.ok);
  }
  stop_job(&j);
}

static void a_reported_error_fails_the_other_process_with_its_source(void) {
  job j;
  tessera_error* err = NULL;
  tessera_event* event = NULL;
  int tries;
  ASSERT_TRUE(start_job(&j));
  ASSERT_TRUE(tessera_client_report_error(j.clients[1], TESSERA_INTERNAL, "rank 1 broke", &err));
  ASSERT_OK(err);
  for (tries = 0; tries < 20; ++tries) {
    event = tessera_client_event_wait(j.clients[0], 5000, &err);
    ASSERT_OK(err);
    if (tessera_event_kind(event, NULL) == TESSERA_EVENT_JOB_ERROR) break;
    tessera_event_destroy(event);
    event = NULL;
  }
  ASSERT_NOT_NULL(event);
  ASSERT_EQ(1, tessera_event_process_index(event, NULL));
  ASSERT_CONTAINS(tessera_event_message(event, NULL), "rank 1 broke");
  tessera_event_destroy(event);
  ASSERT_FALSE(tessera_client_kv_set(j.clients[0], "k", "v", 1, false, &err));
  ASSERT_ERROR_CONTAINS(err, TESSERA_ABORTED, "rank 1 broke");
  ASSERT_EQ(TESSERA_REASON_JOB_FAILED, tessera_error_reason(err, NULL));
  ASSERT_EQ(1, tessera_error_source_process(err, NULL));
  tessera_error_destroy(err);
  stop_job(&j);
}

static void reserved_keys_are_permission_denied_in_a_job(void) {
  job j;
  tessera_error* err = NULL;
  tessera_kv_list* list;
  int64_t counter = 0;
  bool swapped = true;
  ASSERT_TRUE(start_job(&j));
  ASSERT_FALSE(tessera_client_kv_set(j.clients[0], "/_tessera/topology", "x", 1, true, &err));
  ASSERT_ERROR(err, TESSERA_PERMISSION_DENIED,
               "key '/_tessera/topology' is in the reserved key space '/_tessera/': keys there belong to "
               "the library (topology, internal state); use another key");
  ASSERT_NULL(tessera_client_kv_wait(j.clients[0], "_tessera/topology", 5000, &err));
  ASSERT_ERROR(err, TESSERA_PERMISSION_DENIED, "key '_tessera/topology' is in the reserved");
  ASSERT_NULL(tessera_client_kv_lookup(j.clients[1], "//_tessera", &err));
  ASSERT_ERROR(err, TESSERA_PERMISSION_DENIED, "key '//_tessera' is in the reserved");
  ASSERT_FALSE(tessera_client_kv_increment(j.clients[0], "_tessera/n", 1, &counter, &err));
  ASSERT_ERROR(err, TESSERA_PERMISSION_DENIED, "'/_tessera/'");
  ASSERT_FALSE(tessera_client_kv_compare_and_swap(j.clients[0], "_tessera/n", NULL, 0, "1", 1, &swapped,
                                                  NULL, &err));
  ASSERT_ERROR(err, TESSERA_PERMISSION_DENIED, "'/_tessera/'");
  ASSERT_FALSE(tessera_client_kv_remove(j.clients[0], "/_tessera/", true, &err));
  ASSERT_ERROR(err, TESSERA_PERMISSION_DENIED, "key '/_tessera/' is in the reserved");
  ASSERT_NULL(tessera_client_kv_list(j.clients[0], "_tessera", &err));
  ASSERT_ERROR(err, TESSERA_PERMISSION_DENIED, "prefix '_tessera' is in the reserved");
  ASSERT_TRUE(tessera_client_kv_set(j.clients[0], "_tessera0", "user", 4, false, &err));  /* look-alike */
  ASSERT_OK(err);
  list = tessera_client_kv_list(j.clients[1], "/", &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_kv_list_num_entries(list, NULL));
  ASSERT_STREQ("_tessera0", tessera_kv_list_key(list, 0, NULL));
  tessera_kv_list_destroy(list);
  stop_job(&j);
}

static void barrier_timeout_lists_arrived_and_missing_processes(void) {
  job j;
  tessera_error* err = NULL;
  tessera_error* range_err = NULL;
  ASSERT_TRUE(start_job(&j));
  ASSERT_FALSE(tessera_client_barrier(j.clients[0], "alone", 200, NULL, 0, &err));
  ASSERT_ERROR_CONTAINS(err, TESSERA_DEADLINE_EXCEEDED, "alone");
  ASSERT_EQ(TESSERA_REASON_BARRIER_FAILED, tessera_error_reason(err, NULL));
  ASSERT_EQ(1, tessera_error_num_arrived(err, NULL));
  ASSERT_EQ(0, tessera_error_arrived_process(err, 0, NULL));
  ASSERT_EQ(1, tessera_error_num_missing(err, NULL));
  ASSERT_EQ(1, tessera_error_missing_process(err, 0, NULL));
  ASSERT_EQ(TESSERA_TASK_RUNNING, tessera_error_missing_state(err, 0, NULL));
  ASSERT_EQ(0, tessera_error_missing_process(err, 1, &range_err));
  ASSERT_ERROR(range_err, TESSERA_OUT_OF_RANGE,
               "Argument 'index' is 1; expected less than 1 (the missing processes)");
  tessera_error_destroy(err);
  stop_job(&j);
}

typedef struct wait_args {
  tessera_client* client;
  tessera_error* error;
  int done; /* polled across threads: __atomic loads and stores (volatile orders nothing) */
} wait_args;

static void* next_event_thread(void* raw) {
  wait_args* args = (wait_args*)raw;
  tessera_event* event = tessera_client_event_wait(args->client, 30000, &args->error);
  tessera_event_destroy(event);
  __atomic_store_n(&args->done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void cancel_all_unblocks_next_event(void) {
  wait_args args;
  pthread_t thread;
  int rounds;
  const struct timespec pause = {0, 10 * 1000 * 1000};
  args.client = single_process_client();
  args.error = NULL;
  args.done = 0;
  ASSERT_NOT_NULL(args.client);
  pthread_create(&thread, NULL, next_event_thread, &args);
  /* Bounded: 3000 x 10 ms; the waiter may not have started at the first cancel. */
  for (rounds = 0; rounds < 3000 && !__atomic_load_n(&args.done, __ATOMIC_ACQUIRE); ++rounds) {
    tessera_client_cancel_all(args.client);
    nanosleep(&pause, NULL);
  }
  pthread_join(thread, NULL);
  ASSERT_ERROR(args.error, TESSERA_CANCELLED, "cancel_all");
  tessera_client_destroy(args.client);
}

static void cancel_all_reaches_only_calls_in_progress(void) {
  tessera_error* err = NULL;
  tessera_client* client = single_process_client();
  ASSERT_NOT_NULL(client);
  tessera_client_cancel_all(client);
  ASSERT_NULL(tessera_client_event_wait(client, 10, &err));
  ASSERT_ERROR(err, TESSERA_DEADLINE_EXCEEDED, "no event");
  tessera_client_destroy(client);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(accessors_of_null_client_are_invalid_argument),
      HARNESS_TEST(calls_on_null_client_name_the_argument),
      HARNESS_TEST(accessors_of_null_event_and_list_are_invalid_argument),
      HARNESS_TEST(error_details_of_null_or_plain_errors_are_empty),
      HARNESS_TEST(bad_arguments_are_invalid_argument_naming_them),
      HARNESS_TEST(single_process_client_serves_the_key_value_store),
      HARNESS_TEST(next_event_without_events_times_out),
      HARNESS_TEST(initialize_twice_is_failed_precondition),
      HARNESS_TEST(two_processes_share_the_store_and_a_barrier),
      HARNESS_TEST(a_reported_error_fails_the_other_process_with_its_source),
      HARNESS_TEST(barrier_timeout_lists_arrived_and_missing_processes),
      HARNESS_TEST(reserved_keys_are_permission_denied_in_a_job),
      HARNESS_TEST(cancel_all_unblocks_next_event),
      HARNESS_TEST(cancel_all_reaches_only_calls_in_progress),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
