// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Package ctest holds the C-side helpers of the Go binding's tests and
// benchmarks (cgo is not allowed in _test.go files): returning freed malloc
// memory to the OS before a resident-size measurement, and the plain C loop
// the binding's call overhead is measured against.
package ctest

/*
#cgo pkg-config: tessera
#include <malloc.h>
#include <stdint.h>
#include <tessera/tessera.h>

// The K31 rules on mesh (4, 2) data/model, built in C.
static tessera_layout_map* k31_map(void) {
  static const int64_t shape[] = {4, 2};
  static const char* names[] = {"data", "model"};
  static const char* devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
  static const char* s2[] = {NULL, "model"};
  static const char* s1[] = {"model"};
  static const char* r2[] = {NULL, NULL};
  static const char* r1[] = {NULL};
  tessera_mesh_options* mesh_options = tessera_mesh_options_create();
  tessera_mesh* mesh = tessera_mesh_options_set_devices(mesh_options, devices, 8, NULL)
                           ? tessera_mesh_create(shape, names, 2, mesh_options, NULL)
                           : NULL;
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* l;
  l = tessera_layout_create(s2, 2, NULL, NULL); tessera_layout_map_set(map, "dense/kernel", l, NULL); tessera_layout_destroy(l);
  l = tessera_layout_create(s1, 1, NULL, NULL); tessera_layout_map_set(map, "dense/bias", l, NULL); tessera_layout_destroy(l);
  l = tessera_layout_create(r2, 2, NULL, NULL); tessera_layout_map_set(map, ".*dense.*kernel", l, NULL); tessera_layout_destroy(l);
  l = tessera_layout_create(r1, 1, NULL, NULL); tessera_layout_map_set(map, ".*dense.*bias", l, NULL); tessera_layout_destroy(l);
  l = tessera_layout_create(s1, 1, NULL, NULL); tessera_layout_map_set(map, ".*bias", l, NULL); tessera_layout_destroy(l);
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(mesh_options);
  return map;
}

// n lookups of path, each destroying its result: what the binding's Get +
// Close does, without the binding. Returns the number that found a layout.
static int64_t k31_lookups(tessera_layout_map* map, const char* path, int64_t n) {
  int64_t found = 0, i;
  for (i = 0; i < n; ++i) {
    tessera_error* error = NULL;
    tessera_layout* layout = tessera_layout_map_lookup(map, path, &error);
    found += layout != NULL;
    tessera_layout_destroy(layout);
    tessera_error_destroy(error);
  }
  return found;
}

// n tessera_layout_map_lookup_rule calls (the rule's index; no handle made).
static int64_t k31_finds(tessera_layout_map* map, const char* path, int64_t n) {
  int64_t found = 0, i;
  for (i = 0; i < n; ++i) {
    size_t index = TESSERA_NO_INDEX;
    tessera_error* error = NULL;
    found += tessera_layout_map_lookup_rule(map, path, &index, &error) && index != TESSERA_NO_INDEX;
    tessera_error_destroy(error);
  }
  return found;
}
*/
import "C"

import "unsafe"

// MallocTrim returns free malloc memory of every arena to the OS
// (malloc_trim(0)), as debug.FreeOSMemory does for the Go heap.
func MallocTrim() { C.malloc_trim(0) }

// K31Map is the K31 layout map built in C; Free releases it.
type K31Map struct{ m *C.tessera_layout_map }

// NewK31Map builds the map.
func NewK31Map() K31Map { return K31Map{C.k31_map()} }

// Lookups runs n lookups of path in C and returns how many found a layout.
func (k K31Map) Lookups(path string, n int64) int64 {
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	return int64(C.k31_lookups(k.m, p, C.int64_t(n)))
}

// Finds runs n finds of path in C and returns how many found a rule.
func (k K31Map) Finds(path string, n int64) int64 {
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	return int64(C.k31_finds(k.m, p, C.int64_t(n)))
}

// Free destroys the map.
func (k K31Map) Free() { C.tessera_layout_map_destroy(k.m) }
