/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * Tessera's side of benchmarks/jax_index_map_compare.py: the full device ->
 * index-ranges map of a rank-3 tensor through the C ABI, from a layout and a
 * new global shape each time (what jax's devices_indices_map computes on a
 * cache miss): tessera_sharding_create + tessera_sharding_index_map.
 *
 * Usage: index_map_compare A B C SHAPES ROUNDS
 *   mesh (A, B, C) with axes a, b, c over cpu:0..; layout ('a', ('b', 'c'), None);
 *   shapes (A*k, B*C*64*k, 4) for k = 1..SHAPES, each ROUNDS times.
 * Prints "tessera devices=N median_ns=T" (median over every computed map).
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <tessera/tessera.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static int fail(const char* what, tessera_error* error) {
  fprintf(stderr, "%s: %s\n", what, tessera_error_message(error));
  tessera_error_destroy(error);
  return 1;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s A B C SHAPES ROUNDS\n", argv[0]);
    return 2;
  }
  const int64_t mesh_shape[3] = {atoll(argv[1]), atoll(argv[2]), atoll(argv[3])};
  const int shapes = atoi(argv[4]), rounds = atoi(argv[5]);
  const int64_t n = mesh_shape[0] * mesh_shape[1] * mesh_shape[2];
  if (n <= 0 || n > (1 << 20) || shapes <= 0 || rounds <= 0) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  char** names = malloc((size_t)n * sizeof *names);
  for (int64_t i = 0; i < n; ++i) {
    names[i] = malloc(24);
    snprintf(names[i], 24, "cpu:%lld", (long long)i);
  }
  const char* const axis_names[3] = {"a", "b", "c"};
  const char* const axes[3] = {"a", "b", "c"};
  const size_t groups[3] = {1, 2, 0};
  tessera_error* error = NULL;
  tessera_mesh_options* mesh_options = tessera_mesh_options_create();
  tessera_mesh* mesh = tessera_mesh_options_set_devices(mesh_options, (const char* const*)names, (size_t)n, &error)
                           ? tessera_mesh_create(mesh_shape, axis_names, 3, mesh_options, &error)
                           : NULL;
  if (mesh == NULL) return fail("mesh", error);
  tessera_layout* layout = tessera_layout_create_grouped(axes, 3, groups, 3, mesh, &error);
  if (layout == NULL) return fail("layout", error);

  const size_t map_size = (size_t)n * 3 * 2;
  int64_t* map = malloc(map_size * sizeof *map);
  double* times = malloc((size_t)shapes * (size_t)rounds * sizeof *times);
  size_t count = 0;
  for (int round = 0; round < rounds; ++round) {
    for (int k = 1; k <= shapes; ++k) {
      const int64_t dims[3] = {mesh_shape[0] * k, mesh_shape[1] * mesh_shape[2] * 64 * k, 4};
      const double start = now_ns();
      tessera_sharding* sharding =
          tessera_sharding_create(layout, dims, 3, TESSERA_SHARD_MODE_STRICT, &error);
      if (sharding == NULL) return fail("sharding", error);
      if (tessera_sharding_index_map(sharding, map, map_size, &error) != map_size) {
        return fail("index map", error);
      }
      tessera_sharding_destroy(sharding);
      times[count++] = now_ns() - start;
      if (map[map_size - 1] != dims[2]) {
        fprintf(stderr, "unexpected map\n");
        return 1;
      }
    }
  }
  qsort(times, count, sizeof *times, compare_doubles);
  printf("tessera devices=%lld median_ns=%.0f\n", (long long)n, times[count / 2]);

  free(times);
  free(map);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(mesh_options);
  for (int64_t i = 0; i < n; ++i) free(names[i]);
  free(names);
  return 0;
}
