/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* One process of a job started by Open MPI's mpirun: it joins through
 * tessera_runtime_initialize(NULL), that is through detection alone (Open MPI's
 * variables), then checks the job it got: the process count, an id equal to
 * its MPI rank, a barrier, and a KV exchange in which every process
 * publishes its pid under its id and reads everyone else's (distinct ids:
 * an id claimed twice would collide on its insert-once key).
 *
 * Usage: mpirun ... mpirun_worker EXPECTED_NUM_PROCESSES
 * Exits 0 on success; any failure prints one line naming the step and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tessera/tessera.h"

/* Every blocking call is bounded well inside the meson test's timeout. */
#define STEP_TIMEOUT_MS 20000
#define MAX_PROCESSES 64

static int fail(const char* step, tessera_error* error) {
  fprintf(stderr, "mpirun_worker pid %ld: %s failed: %s: %s\n", (long)getpid(), step,
          error ? tessera_code_name(tessera_error_code(error)) : "-", error ? tessera_error_message(error) : "");
  tessera_error_destroy(error);
  return 1;
}

static int check_identity(const tessera_client* client, size_t expected) {
  const char* rank = getenv("OMPI_COMM_WORLD_RANK");
  if (tessera_client_num_processes(client, NULL) != expected) {
    fprintf(stderr, "mpirun_worker: num_processes is %lld, expected %lld\n",
            (long long)tessera_client_num_processes(client, NULL), (long long)expected);
    return 1;
  }
  if (rank == NULL || tessera_client_process_index(client, NULL) != (size_t)strtoll(rank, NULL, 10)) {
    fprintf(stderr, "mpirun_worker: process_id %lld is not OMPI_COMM_WORLD_RANK %s\n",
            (long long)tessera_client_process_index(client, NULL), rank ? rank : "(unset)");
    return 1;
  }
  return 0;
}

/* Publishes "pid/<id>" = this pid, then reads every process's entry. */
static int exchange(tessera_client* client, int64_t n) {
  char key[64];
  char value[32];
  long pids[MAX_PROCESSES];
  int64_t id = tessera_client_process_index(client, NULL);
  int64_t i, j;
  tessera_error* error = NULL;
  snprintf(key, sizeof key, "pid/%lld", (long long)id);
  snprintf(value, sizeof value, "%ld", (long)getpid());
  if (!tessera_client_kv_set(client, key, value, strlen(value), false, &error)) return fail("kv_set", error);
  for (i = 0; i < n; ++i) {
    tessera_buffer* buffer;
    char text[32];
    size_t size;
    snprintf(key, sizeof key, "pid/%lld", (long long)i);
    buffer = tessera_client_kv_wait(client, key, STEP_TIMEOUT_MS, &error);
    if (buffer == NULL) return fail("kv_get", error);
    size = tessera_buffer_size(buffer) < sizeof text - 1 ? tessera_buffer_size(buffer) : sizeof text - 1;
    memcpy(text, tessera_buffer_data(buffer), size);
    text[size] = '\0';
    tessera_buffer_destroy(buffer);
    pids[i] = strtol(text, NULL, 10);
    for (j = 0; j < i; ++j) {
      if (pids[j] == pids[i]) {
        fprintf(stderr, "mpirun_worker: ids %lld and %lld belong to the same pid %ld\n", (long long)j, (long long)i,
                pids[i]);
        return 1;
      }
    }
  }
  if (pids[id] != (long)getpid()) {
    fprintf(stderr, "mpirun_worker: pid/%lld holds %ld, not this pid %ld\n", (long long)id, pids[id], (long)getpid());
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  tessera_error* error = NULL;
  tessera_client* client;
  int64_t expected;
  int status = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: mpirun_worker EXPECTED_NUM_PROCESSES\n");
    return 2;
  }
  expected = strtoll(argv[1], NULL, 10);
  if (expected < 1 || expected > MAX_PROCESSES) {
    fprintf(stderr, "mpirun_worker: expected 1..%d processes, got %s\n", MAX_PROCESSES, argv[1]);
    return 2;
  }
  client = tessera_runtime_initialize(NULL, &error);
  if (client == NULL) return fail("tessera_runtime_initialize", error);
  status = check_identity(client, expected);
  if (status == 0 && !tessera_client_barrier(client, "mpirun/after-init", STEP_TIMEOUT_MS, NULL, 0, &error)) {
    status = fail("barrier", error);
    error = NULL;
  }
  if (status == 0) status = exchange(client, expected);
  if (!tessera_client_shutdown(client, &error)) {
    if (status == 0) status = fail("shutdown", error);
    else tessera_error_destroy(error);
  }
  tessera_client_destroy(client);
  if (status == 0) {
    printf("mpirun_worker: process %s of %lld ok\n", getenv("OMPI_COMM_WORLD_RANK"), (long long)expected);
  }
  return status;
}
