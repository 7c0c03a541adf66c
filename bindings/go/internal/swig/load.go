// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package swig

// The Go ends of a load's callbacks. tessera_go.i's C trampolines call
// tesseraGoReadPiece and tesseraGoReadProgress on the loader threads (which
// cgo attaches to the Go runtime for the call) with a cgo.Handle of the
// load's ReadCallbacks as user_data.

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import (
	"runtime/cgo"
	"sync"
	"unsafe"
)

// ReadCallbacks are one load's Go callbacks (either may be nil when the
// load does not use it).
type ReadCallbacks struct {
	Piece    func(piece int, offset int64, bytes []byte) bool
	Progress func(bytesDone, bytesTotal int64) bool

	callbackPanic
}

// callbackPanic keeps the first panic of a call's Go callbacks (a load's, a
// save's) for the goroutine that made the call.
type callbackPanic struct {
	mu       sync.Mutex
	panicked bool
	panicVal any
}

// Panic is the first panic a callback raised (recovered, and the call
// cancelled), and whether there was one.
func (c *callbackPanic) Panic() (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.panicVal, c.panicked
}

// call runs f; a panic must not unwind into C (the library thread's frames),
// so it is kept for the caller's goroutine and the call is cancelled.
func (c *callbackPanic) call(f func() bool) (result C.int) {
	defer func() {
		if r := recover(); r != nil {
			c.mu.Lock()
			if !c.panicked {
				c.panicked, c.panicVal = true, r
			}
			c.mu.Unlock()
			result = 0
		}
	}()
	if f() {
		return 1
	}
	return 0
}

//export tesseraGoReadPiece
func tesseraGoReadPiece(handle C.uintptr_t, piece C.size_t, offset C.int64_t, bytes unsafe.Pointer, size C.size_t) C.int {
	c := cgo.Handle(handle).Value().(*ReadCallbacks)
	// The bytes are C's, valid only during the call.
	view := unsafe.Slice((*byte)(bytes), int(size))
	return c.call(func() bool { return c.Piece(int(piece), int64(offset), view) })
}

//export tesseraGoReadProgress
func tesseraGoReadProgress(handle C.uintptr_t, bytesDone, bytesTotal C.int64_t) C.int {
	c := cgo.Handle(handle).Value().(*ReadCallbacks)
	return c.call(func() bool { return c.Progress(int64(bytesDone), int64(bytesTotal)) })
}
