/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * Tessera's side of keras_layout_map_compare.sh: times layout-map lookups of
 * every path of a paths file over the rules of a rules file, through the C ABI.
 *
 * Usage: layout_map_compare RULES PATHS [REPEATS] [SELECTIONS_OUT]
 *   RULES           one pattern per line; each rule's layout is (None, 'model')
 *                   on a batch=2, model=4 mesh, the map uses re.search semantics
 *   PATHS           one path per line
 *   REPEATS         timed passes over all paths (default 5)
 *   SELECTIONS_OUT  if given, receives per path the index of the rule it
 *                   selects, -1 for none, -2 when several match
 *
 * Prints, per lookup, the median over the passes (and the fastest pass):
 *   get_ns_median / get_ns_min    tessera_layout_map_lookup + tessera_layout_destroy
 *   find_ns_median / find_ns_min  tessera_layout_map_lookup_rule (the rule index)
 * The first untimed pass builds the matcher, as Keras's first pass fills
 * Python's regex cache.
 */
#define _POSIX_C_SOURCE 199309L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tessera/tessera.h"

typedef struct {
  char** items;
  size_t count;
} lines;

static void die(const char* what, tessera_error* error) {
  fprintf(stderr, "layout_map_compare: %s: %s\n", what,
          error ? tessera_error_message(error) : "failed");
  tessera_error_destroy(error);
  exit(2);
}

/* Every line of `path`, without its newline. */
static lines read_lines(const char* path) {
  lines out = {NULL, 0};
  size_t capacity = 0;
  char buffer[4096];
  FILE* file = fopen(path, "r");
  if (file == NULL) {
    perror(path);
    exit(2);
  }
  while (fgets(buffer, sizeof buffer, file) != NULL) {
    size_t length = strcspn(buffer, "\r\n");
    buffer[length] = '\0';
    if (out.count == capacity) {
      capacity = capacity ? 2 * capacity : 1024;
      out.items = realloc(out.items, capacity * sizeof *out.items);
      if (out.items == NULL) die("out of memory", NULL);
    }
    out.items[out.count] = malloc(length + 1);
    if (out.items[out.count] == NULL) die("out of memory", NULL);
    memcpy(out.items[out.count++], buffer, length + 1);
  }
  fclose(file);
  return out;
}

static void free_lines(lines* l) {
  size_t i;
  for (i = 0; i < l->count; ++i) free(l->items[i]);
  free(l->items);
}

static tessera_layout_map* build_map(const lines* rules) {
  static const int64_t shape[] = {2, 4};
  static const char* const axes[] = {"batch", "model"};
  static const char* const devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                                        "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
  static const char* const layout_axes[] = {NULL, "model"};
  tessera_error* error = NULL;
  tessera_mesh_options* mesh_options = tessera_mesh_options_create();
  tessera_mesh* mesh = tessera_mesh_options_set_devices(mesh_options, devices, 8, &error)
                           ? tessera_mesh_create(shape, axes, 2, mesh_options, &error)
                           : NULL;
  tessera_layout_map* map;
  size_t i;
  if (mesh == NULL) die("mesh", error);
  map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, &error);
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(mesh_options);
  if (map == NULL) die("layout map", error);
  for (i = 0; i < rules->count; ++i) {
    tessera_layout* layout = tessera_layout_create(layout_axes, 2, NULL, &error);
    if (layout == NULL || !tessera_layout_map_set(map, rules->items[i], layout, &error)) {
      die(rules->items[i], error);
    }
    tessera_layout_destroy(layout);
  }
  return map;
}

/* -1: no rule; -2: several rules (the error is discarded). */
static int64_t select_rule(const tessera_layout_map* map, const char* path) {
  size_t index = TESSERA_NO_INDEX;
  tessera_error* error = NULL;
  if (!tessera_layout_map_lookup_rule(map, path, &index, &error)) {
    tessera_error_destroy(error);
    return -2;
  }
  return index;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* One pass over all paths; returns ns per lookup. */
static double time_get(const tessera_layout_map* map, const lines* paths) {
  size_t i;
  double start = now_ns();
  for (i = 0; i < paths->count; ++i) {
    tessera_layout_destroy(tessera_layout_map_lookup(map, paths->items[i], NULL));
  }
  return (now_ns() - start) / (double)paths->count;
}

static volatile int64_t sink;

static double time_find(const tessera_layout_map* map, const lines* paths) {
  size_t i;
  int64_t sum = 0;
  double start = now_ns();
  for (i = 0; i < paths->count; ++i) {
    size_t index = TESSERA_NO_INDEX;
    tessera_layout_map_lookup_rule(map, paths->items[i], &index, NULL);
    sum += index;
  }
  sink = sum;
  return (now_ns() - start) / (double)paths->count;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(double* values, size_t count) {
  qsort(values, count, sizeof *values, compare_doubles);
  return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static void write_selections(const tessera_layout_map* map, const lines* paths,
                             const char* out_path) {
  size_t i;
  FILE* out = fopen(out_path, "w");
  if (out == NULL) {
    perror(out_path);
    exit(2);
  }
  for (i = 0; i < paths->count; ++i) {
    fprintf(out, "%lld\n", (long long)select_rule(map, paths->items[i]));
  }
  fclose(out);
}

int main(int argc, char** argv) {
  lines rules, paths;
  tessera_layout_map* map;
  long repeats = 5;
  double *get_ns, *find_ns, get_min, find_min;
  long r;
  if (argc < 3 || argc > 5) {
    fprintf(stderr, "usage: %s RULES PATHS [REPEATS] [SELECTIONS_OUT]\n", argv[0]);
    return 2;
  }
  if (argc >= 4 && (repeats = strtol(argv[3], NULL, 10)) < 1) {
    fprintf(stderr, "layout_map_compare: REPEATS '%s': expected a whole number >= 1\n", argv[3]);
    return 2;
  }
  rules = read_lines(argv[1]);
  paths = read_lines(argv[2]);
  if (paths.count == 0) die("no paths", NULL);
  map = build_map(&rules);
  if (argc == 5) write_selections(map, &paths, argv[4]); /* also builds the matcher */
  time_find(map, &paths);                                 /* warm-up */
  get_ns = malloc((size_t)repeats * sizeof *get_ns);
  find_ns = malloc((size_t)repeats * sizeof *find_ns);
  if (get_ns == NULL || find_ns == NULL) die("out of memory", NULL);
  for (r = 0; r < repeats; ++r) {
    get_ns[r] = time_get(map, &paths);
    find_ns[r] = time_find(map, &paths);
  }
  qsort(get_ns, (size_t)repeats, sizeof *get_ns, compare_doubles);
  qsort(find_ns, (size_t)repeats, sizeof *find_ns, compare_doubles);
  get_min = get_ns[0];
  find_min = find_ns[0];
  printf("rules %zu\npaths %zu\nrepeats %ld\n", rules.count, paths.count, repeats);
  printf("get_ns_median %.1f\nget_ns_min %.1f\n", median(get_ns, (size_t)repeats), get_min);
  printf("find_ns_median %.1f\nfind_ns_min %.1f\n", median(find_ns, (size_t)repeats), find_min);
  free(get_ns);
  free(find_ns);
  tessera_layout_map_destroy(map);
  free_lines(&rules);
  free_lines(&paths);
  return 0;
}
