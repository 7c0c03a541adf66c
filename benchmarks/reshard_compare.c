/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * Tessera's side of benchmarks/torch_reshard_compare.py: the restore plan of
 * a whole model through the C ABI. For every tensor, the plan from its saved
 * sharding to its new one (tessera_reshard_plan_create) and every read of
 * every destination device listed from it (tessera_reshard_plan_transfer and
 * _transfer_ranges): what torch's DefaultLoadPlanner.create_local_plan
 * produces as ReadItems on each destination rank. The shardings are built
 * beforehand, as torch's metadata is.
 *
 * Usage: reshard_compare TENSORS SOURCE_MESH DESTINATION_MESH ROUNDS
 *   TENSORS   a file of lines "NAME RANK D0 [D1 ...] AXIS0 [AXIS1 ...]", an
 *             axis "-" for a replicated dimension
 *   *_MESH    "dp=64" or "dp=8,tp=8": axis names and sizes, devices cpu:0..
 * Prints "tessera tensors=T transfers=N bytes=B median_ns=X" (median over
 * ROUNDS of the time to plan every tensor).
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tessera/tessera.h>

#define MAX_TENSORS 4096
#define MAX_RANK 4

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static void die(const char* what, tessera_error* error) {
  fprintf(stderr, "%s: %s\n", what, error ? tessera_error_message(error) : "failed");
  exit(1);
}

/* "dp=8,tp=8" -> a mesh over cpu:0.. */
static tessera_mesh* parse_mesh(const char* text) {
  char copy[256], *save = NULL, *part;
  char names[4][32];
  const char* name_ptrs[4];
  int64_t shape[4], count = 1, i;
  size_t rank = 0;
  char** devices;
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_mesh* mesh;
  tessera_error* error = NULL;
  strncpy(copy, text, sizeof copy - 1);
  copy[sizeof copy - 1] = '\0';
  for (part = strtok_r(copy, ",", &save); part && rank < 4; part = strtok_r(NULL, ",", &save)) {
    char* eq = strchr(part, '=');
    if (!eq) die("mesh", NULL);
    *eq = '\0';
    strncpy(names[rank], part, sizeof names[rank] - 1);
    names[rank][sizeof names[rank] - 1] = '\0';
    name_ptrs[rank] = names[rank];
    shape[rank] = atoll(eq + 1);
    count *= shape[rank];
    ++rank;
  }
  devices = malloc((size_t)count * sizeof *devices);
  for (i = 0; i < count; ++i) {
    devices[i] = malloc(24);
    snprintf(devices[i], 24, "cpu:%lld", (long long)i);
  }
  if (!tessera_mesh_options_set_devices(options, (const char* const*)devices, (size_t)count, &error)) {
    die("devices", error);
  }
  mesh = tessera_mesh_create(shape, name_ptrs, rank, options, &error);
  if (!mesh) die("mesh", error);
  tessera_mesh_options_destroy(options);
  for (i = 0; i < count; ++i) free(devices[i]);
  free(devices);
  return mesh;
}

static tessera_sharding* make_sharding(const tessera_mesh* mesh, const int64_t* dims, size_t rank,
                                       char axes[][32]) {
  const char* axis_ptrs[MAX_RANK];
  size_t d;
  tessera_error* error = NULL;
  tessera_layout* layout;
  tessera_sharding* sharding;
  for (d = 0; d < rank; ++d) axis_ptrs[d] = strcmp(axes[d], "-") == 0 ? NULL : axes[d];
  layout = tessera_layout_create(axis_ptrs, rank, mesh, &error);
  if (!layout) die("layout", error);
  sharding = tessera_sharding_create(layout, dims, rank, TESSERA_SHARD_MODE_CHUNK_NESTED, &error);
  if (!sharding) die("sharding", error);
  tessera_layout_destroy(layout);
  return sharding;
}

int main(int argc, char** argv) {
  static tessera_sharding* sources[MAX_TENSORS];
  static tessera_sharding* destinations[MAX_TENSORS];
  char name[512];
  size_t tensors = 0, t;
  int rounds, r;
  double* times;
  long long transfers = 0, bytes_total = 0;
  FILE* in;
  tessera_mesh *source_mesh, *destination_mesh;
  if (argc != 5) {
    fprintf(stderr, "usage: %s TENSORS SOURCE_MESH DESTINATION_MESH ROUNDS\n", argv[0]);
    return 2;
  }
  rounds = atoi(argv[4]);
  if (rounds <= 0) return 2;
  source_mesh = parse_mesh(argv[2]);
  destination_mesh = parse_mesh(argv[3]);
  in = fopen(argv[1], "r");
  if (!in) die(argv[1], NULL);
  while (tensors < MAX_TENSORS && fscanf(in, "%511s", name) == 1) {
    int64_t dims[MAX_RANK];
    char source_axes[MAX_RANK][32], destination_axes[MAX_RANK][32];
    size_t rank, d;
    if (fscanf(in, "%zu", &rank) != 1 || rank > MAX_RANK) die("tensor rank", NULL);
    for (d = 0; d < rank; ++d) {
      long long v;
      if (fscanf(in, "%lld", &v) != 1) die("tensor dims", NULL);
      dims[d] = v;
    }
    for (d = 0; d < rank; ++d) {
      if (fscanf(in, "%31s", source_axes[d]) != 1) die("source axes", NULL);
    }
    for (d = 0; d < rank; ++d) {
      if (fscanf(in, "%31s", destination_axes[d]) != 1) die("destination axes", NULL);
    }
    sources[tensors] = make_sharding(source_mesh, dims, rank, source_axes);
    destinations[tensors] = make_sharding(destination_mesh, dims, rank, destination_axes);
    ++tensors;
  }
  fclose(in);

  times = malloc((size_t)rounds * sizeof *times);
  for (r = 0; r < rounds; ++r) {
    const double start = now_ns();
    long long round_transfers = 0, round_bytes = 0;
    for (t = 0; t < tensors; ++t) {
      tessera_error* error = NULL;
      tessera_reshard_plan* plan = tessera_reshard_plan_create(sources[t], destinations[t], 2, &error);
      size_t n, i;
      if (!plan) die("plan", error);
      n = tessera_reshard_plan_num_transfers(plan, NULL);
      for (i = 0; i < n; ++i) {
        size_t source, destination;
        int64_t bytes, ranges[2 * MAX_RANK];
        tessera_transfer_locality_t locality;
        if (!tessera_reshard_plan_transfer(plan, i, &source, &destination, &bytes, &locality, &error) ||
            !tessera_reshard_plan_transfer_ranges(plan, i, ranges, 2 * MAX_RANK, &error)) {
          die("transfer", error);
        }
        round_bytes += bytes;
      }
      round_transfers += (long long)n;
      tessera_reshard_plan_destroy(plan);
    }
    times[r] = now_ns() - start;
    transfers = round_transfers;
    bytes_total = round_bytes;
  }
  qsort(times, (size_t)rounds, sizeof *times, compare_doubles);
  printf("tessera tensors=%zu transfers=%lld bytes=%lld median_ns=%.0f\n", tensors, transfers,
         bytes_total, times[rounds / 2]);
  for (t = 0; t < tensors; ++t) {
    tessera_sharding_destroy(sources[t]);
    tessera_sharding_destroy(destinations[t]);
  }
  tessera_mesh_destroy(source_mesh);
  tessera_mesh_destroy(destination_mesh);
  free(times);
  return 0;
}
