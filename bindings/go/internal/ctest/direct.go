// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package ctest

// The C ABI called through cgo directly, without SWIG's wrappers: the other
// side of the binding's call-overhead benchmark (BenchmarkCall* in
// tessera/bench_test.go), which decides whether the Go binding keeps SWIG's
// layer. Each function is written as a hand-written cgo binding would be:
// the handle crosses as the pointer SWIG's proxies hold (a uintptr), a Go
// string in is copied with its NUL into Go memory (C.CString would add two
// cgo calls, malloc and free, where SWIG's wrapper mallocs inside its one
// call), a C string out is copied by C.GoString.

/*
#cgo pkg-config: tessera
#include <tessera/tessera.h>
*/
import "C"

import "unsafe"

// MeshNumAxes is tessera_mesh_num_axes of the mesh at pointer mesh.
func MeshNumAxes(mesh uintptr) int {
	return int(C.tessera_mesh_num_axes((*C.tessera_mesh)(unsafe.Pointer(mesh)), nil))
}

// MeshAxisName is tessera_mesh_axis_name, copied into a Go string.
func MeshAxisName(mesh uintptr, index int) string {
	var e *C.tessera_error
	name := C.tessera_mesh_axis_name((*C.tessera_mesh)(unsafe.Pointer(mesh)), C.size_t(index), &e)
	C.tessera_error_destroy(e)
	return C.GoString(name)
}

// LayoutMapLookupDestroy looks path up in the map at pointer m and
// destroys the layout found, in two cgo calls as the SWIG path makes
// (Get, then DeleteLayout); reports whether a layout was found.
func LayoutMapLookupDestroy(m uintptr, path string) bool {
	p := make([]byte, len(path)+1) // NUL-terminated; holds no Go pointers, so C may read it
	copy(p, path)
	var e *C.tessera_error
	layout := C.tessera_layout_map_lookup((*C.tessera_layout_map)(unsafe.Pointer(m)), (*C.char)(unsafe.Pointer(&p[0])), &e)
	if e != nil {
		C.tessera_error_destroy(e)
		return false
	}
	C.tessera_layout_destroy(layout)
	return layout != nil
}

// Handle is the map's pointer, as SWIG's proxies hold it.
func (k K31Map) Handle() uintptr { return uintptr(unsafe.Pointer(k.m)) }
