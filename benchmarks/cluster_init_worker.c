/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * Tessera's side of cluster_init_compare.py: one process of a job, plain C99
 * on the C ABI.
 *
 *   cluster_init_worker HOST:PORT NUM_PROCESSES PROCESS_ID [go]
 *
 * Reports on stdout, one "TAG <seconds>" per line (CLOCK_MONOTONIC, the clock
 * time.monotonic reads, comparable across processes on one machine):
 *   READY  loaded and waiting for the go signal (only with "go")
 *   START  about to call tessera_runtime_initialize
 *   INIT   tessera_runtime_initialize returned
 *   PAST   past the first barrier
 * and CPU_START / CPU_PAST: this process's CPU time (user + system, all
 * threads) at START and at PAST.
 * With "go" the worker waits, after start-up, until its stdin reaches end of
 * file: the driver closes the one pipe every worker shares, so all of them
 * are released by one system call. Then it shuts down.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "tessera/client.h"
#include "tessera/cluster.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_s(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
}

static void report(const char* tag) {
  printf("%s %.6f\n", tag, now_s());
  fflush(stdout);
}

static void report_cpu(const char* tag) {
  printf("%s %.6f\n", tag, cpu_s());
  fflush(stdout);
}

/* Blocks until stdin is at end of file (the go signal). */
static void wait_for_go(void) {
  char byte;
  while (read(STDIN_FILENO, &byte, 1) > 0) {
  }
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
  if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "go") != 0)) {
    fprintf(stderr, "usage: %s HOST:PORT NUM_PROCESSES PROCESS_ID [go]\n", argv[0]);
    return 2;
  }
  if (argc == 5) {
    report("READY");
    wait_for_go();
  }
  report("START");
  report_cpu("CPU_START");
  options = tessera_cluster_options_create();
  if (!tessera_cluster_options_set_detection(options, "none", &error) ||
      !tessera_cluster_options_set_coordinator_address(options, argv[1], &error) ||
      !tessera_cluster_options_set_bind_address(options, argv[1], &error) ||
      !tessera_cluster_options_set_num_processes(options, strtoll(argv[2], NULL, 10), &error) ||
      !tessera_cluster_options_set_process_index(options, strtoll(argv[3], NULL, 10), &error) ||
      !tessera_cluster_options_set_init_timeout_ms(options, 120000, &error)) {
    return fail("options", error);
  }
  client = tessera_runtime_initialize(options, &error);
  tessera_cluster_options_destroy(options);
  if (client == NULL) return fail("initialize", error);
  report("INIT");
  if (!tessera_client_barrier(client, "first", 120000, NULL, 0, &error)) return fail("barrier", error);
  report("PAST");
  report_cpu("CPU_PAST");
  if (!tessera_client_shutdown(client, &error)) return fail("shutdown", error);
  tessera_client_destroy(client);
  return 0;
}
