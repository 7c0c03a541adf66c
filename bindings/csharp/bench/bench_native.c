/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * The C side of the binding-overhead benchmark: the same layout map as
 * LayoutMapBench.cs builds through the binding, and a loop of lookups timed
 * in C, so both sides time exactly the same library work.
 */
/* clock_gettime under -std=c99. */
#define _POSIX_C_SOURCE 199309L

#include <stdint.h>
#include <time.h>

#include "tessera/tessera.h"

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* K31's map: mesh (4, 2) "data"/"model" over cpu:0..7 and five rules. */
void* bench_build_map(void) {
  static const int64_t shape[] = {4, 2};
  static const char* const axes[] = {"data", "model"};
  static const char* const devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                                        "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
  static const char* const s2[] = {NULL, "model"};
  static const char* const s1[] = {"model"};
  static const char* const r2[] = {NULL, NULL};
  static const char* const r1[] = {NULL};
  tessera_mesh_options* mesh_options = tessera_mesh_options_create();
  tessera_mesh* mesh = tessera_mesh_options_set_devices(mesh_options, devices, 8, NULL)
                           ? tessera_mesh_create(shape, axes, 2, mesh_options, NULL)
                           : NULL;
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layouts[5] = {
      tessera_layout_create(s2, 2, NULL, NULL), tessera_layout_create(s1, 1, NULL, NULL),
      tessera_layout_create(r2, 2, NULL, NULL), tessera_layout_create(r1, 1, NULL, NULL),
      tessera_layout_create(s1, 1, NULL, NULL)};
  static const char* const keys[] = {"dense/kernel", "dense/bias", ".*dense.*kernel", ".*dense.*bias",
                                     ".*bias"};
  for (int i = 0; i < 5; ++i) {
    tessera_layout_map_set(map, keys[i], layouts[i], NULL);
    tessera_layout_destroy(layouts[i]);
  }
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(mesh_options);
  return map;
}

void bench_destroy_map(void* map) { tessera_layout_map_destroy((tessera_layout_map*)map); }

/* Nanoseconds for `iterations` lookups of `path` (each result destroyed, as
   Dispose() does in C#); -1 when a lookup finds nothing or fails. */
int64_t bench_lookup_ns(void* map, const char* path, int64_t iterations) {
  int64_t start = now_ns();
  for (int64_t i = 0; i < iterations; ++i) {
    tessera_layout* layout = tessera_layout_map_lookup((const tessera_layout_map*)map, path, NULL);
    if (layout == NULL) return -1;
    tessera_layout_destroy(layout);
  }
  return now_ns() - start;
}
