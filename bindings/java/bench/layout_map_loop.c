/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * The C side of the Java binding's overhead benchmark: the same layout map and
 * lookups as LayoutMapBench.java, and tessera_mesh_num_axes (a call that does no
 * work, NULL), timed the same way (median of 15 rounds of 200,000 calls), printed as
 * "<name> <ns per call>".
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tessera/tessera.h"

enum { kRules = 50, kRounds = 15, kCalls = 200000 };

static const char* const kProbes[3][2] = {
    {"find/exact", "layer_7/kernel"},
    {"find/regex", "model/block_7/attention/bias"},
    {"find/none", "model/unknown/weights"},
};

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static int die(const char* what, tessera_error* error) {
  fprintf(stderr, "%s: %s\n", what, tessera_error_message(error));
  tessera_error_destroy(error);
  return 1;
}

int main(void) {
  const int64_t shape[] = {2, 4};
  const char* axes[] = {"batch", "model"};
  const char* devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
  const char* layout_axes[] = {NULL, "model"};
  tessera_error* error = NULL;
  tessera_mesh_options* mesh_options = tessera_mesh_options_create();
  tessera_mesh* mesh = tessera_mesh_options_set_devices(mesh_options, devices, 8, &error)
                           ? tessera_mesh_create(shape, axes, 2, mesh_options, &error)
                           : NULL;
  tessera_layout_map* map;
  tessera_layout* layout;
  char key[64];
  int i, p, r;
  volatile int64_t sink = 0;
  if (mesh == NULL) return die("mesh", error);
  map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, &error);
  layout = tessera_layout_create(layout_axes, 2, NULL, &error);
  if (map == NULL || layout == NULL) return die("map", error);
  for (i = 0; i < kRules; ++i) {
    snprintf(key, sizeof key, "layer_%d/kernel", i);
    if (!tessera_layout_map_set(map, key, layout, &error)) return die("set", error);
    snprintf(key, sizeof key, ".*block_%d/.*bias", i);
    if (!tessera_layout_map_set(map, key, layout, &error)) return die("set", error);
  }
  for (p = 0; p < 5; ++p) {
    const char* name = p < 3 ? kProbes[p][0] : p == 3 ? "get/exact" : "mesh/rank";
    const char* path = p < 3 ? kProbes[p][1] : kProbes[0][1];
    double rounds[kRounds];
    for (r = -2; r < kRounds; ++r) { /* two warm-up rounds */
      double start = now_ns();
      for (i = 0; i < kCalls; ++i) {
        if (p == 4) {
          sink += (int64_t)tessera_mesh_num_axes(mesh, NULL);
        } else if (p < 3) {
          size_t index = 0;
          tessera_layout_map_lookup_rule(map, path, &index, NULL);
          sink += index;
        } else {
          tessera_layout* found = tessera_layout_map_lookup(map, path, NULL);
          sink += found != NULL;
          tessera_layout_destroy(found);
        }
      }
      if (r >= 0) rounds[r] = (now_ns() - start) / kCalls;
    }
    qsort(rounds, kRounds, sizeof rounds[0], compare);
    printf("%s %.1f\n", name, rounds[kRounds / 2]);
  }
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(mesh_options);
  return sink == 0;
}
