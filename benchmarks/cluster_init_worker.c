/*
 * Tessera's side of cluster_init_compare.py: one process of a job, plain C99
 * on the C ABI. Prints "START <s>" before tessera_initialize and "PAST <s>"
 * once past the first barrier (CLOCK_MONOTONIC seconds, comparable across
 * processes on one machine), then shuts down.
 *
 *   cluster_init_worker HOST:PORT NUM_PROCESSES PROCESS_ID
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tessera/client.h"
#include "tessera/cluster.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int fail(const char* what, tessera_error* error) {
  fprintf(stderr, "%s: %s\n", what, tessera_error_message(error));
  tessera_error_destroy(error);
  return 1;
}

int main(int argc, char** argv) {
  tessera_cluster_options* options;
  tessera_client* client;
  tessera_error* error = NULL;
  if (argc != 4) {
    fprintf(stderr, "usage: %s HOST:PORT NUM_PROCESSES PROCESS_ID\n", argv[0]);
    return 2;
  }
  printf("START %.6f\n", now_s());
  fflush(stdout);
  options = tessera_cluster_options_create();
  if (!tessera_cluster_options_set_detection(options, "none", &error) ||
      !tessera_cluster_options_set_coordinator_address(options, argv[1], &error) ||
      !tessera_cluster_options_set_bind_address(options, argv[1], &error) ||
      !tessera_cluster_options_set_num_processes(options, strtoll(argv[2], NULL, 10), &error) ||
      !tessera_cluster_options_set_process_id(options, strtoll(argv[3], NULL, 10), &error) ||
      !tessera_cluster_options_set_init_timeout_ms(options, 120000, &error)) {
    return fail("options", error);
  }
  client = tessera_initialize(options, &error);
  tessera_cluster_options_destroy(options);
  if (client == NULL) return fail("initialize", error);
  if (!tessera_client_barrier(client, "first", 120000, NULL, 0, &error)) return fail("barrier", error);
  printf("PAST %.6f\n", now_s());
  fflush(stdout);
  if (!tessera_client_shutdown(client, &error)) return fail("shutdown", error);
  tessera_client_destroy(client);
  return 0;
}
