// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package swig

// The Go end of a streamed save's fill callback. tessera_go.i's C trampoline
// calls tesseraGoSaveFill with a cgo.Handle of the save's SaveCallbacks as
// user_data.

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import (
	"runtime/cgo"
	"unsafe"
)

// SaveCallbacks are one streamed save's Go callback.
type SaveCallbacks struct {
	// Fill writes len(out) bytes of the shard of tensor on device, from byte
	// offset of its box; ranges are [start0, stop0, start1, stop1, ...].
	Fill func(tensor, device int, ranges []int64, offset int64, out []byte) bool

	callbackPanic
}

//export tesseraGoSaveFill
func tesseraGoSaveFill(handle C.uintptr_t, tensor, device C.size_t, ranges *C.int64_t, numRanges C.size_t,
	offset C.int64_t, out unsafe.Pointer, size C.size_t) C.int {
	c := cgo.Handle(handle).Value().(*SaveCallbacks)
	// The ranges are C's, valid during the call only: a copy the callback may keep.
	box := make([]int64, int(numRanges))
	if numRanges > 0 {
		copy(box, unsafe.Slice((*int64)(unsafe.Pointer(ranges)), int(numRanges)))
	}
	// out is the saver's memory, valid only during the call.
	var view []byte
	if size > 0 {
		view = unsafe.Slice((*byte)(out), int(size))
	}
	return c.call(func() bool { return c.Fill(int(tensor), int(device), box, int64(offset), view) })
}
