// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package swig

// The Go end of the library's log callback. tessera_go.i's C trampoline
// (installed by GoSetLogCallback) calls tesseraGoLog for every message, on
// whatever thread logs: a goroutine's thread, or a library thread (a gRPC
// server thread of the coordinator), which cgo attaches to the Go runtime
// for the call.
//
// A file with //export may only declare in its C preamble (cgo copies the
// preamble into two C files), so the trampoline itself lives in the SWIG
// wrapper and declares tesseraGoLog there.

/*
#include <stddef.h>
#include <stdint.h>
*/
import "C"

import (
	"fmt"
	"os"
	"sync/atomic"
	"unsafe"
)

// logHook receives the messages; nil drops them (the moments between
// installing the trampoline and storing a hook, or after a removal while a
// message is still being delivered).
var logHook atomic.Pointer[func(level int32, message string)]

// SetLogHook sets the function tesseraGoLog calls; nil drops messages. The
// C callback is installed and removed separately (GoSetLogCallback).
func SetLogHook(hook func(level int32, message string)) {
	if hook == nil {
		logHook.Store(nil)
		return
	}
	logHook.Store(&hook)
}

// LogHook is the function SetLogHook set last (nil for none).
func LogHook() func(level int32, message string) {
	if hook := logHook.Load(); hook != nil {
		return *hook
	}
	return nil
}

//export tesseraGoLog
func tesseraGoLog(level C.int32_t, message *C.char, size C.size_t) {
	hook := logHook.Load()
	if hook == nil {
		return
	}
	// The message is valid only during the call: copied into Go memory.
	text := string(unsafe.Slice((*byte)(unsafe.Pointer(message)), int(size)))
	// A panic must not unwind into C (the library's frames, possibly a
	// thread Go did not start): that would kill the process. The handler's
	// panic is reported on stderr instead, and the message is dropped.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "tessera: the log handler panicked (message dropped: %q): %v\n", text, r)
		}
	}()
	(*hook)(int32(level), text)
}
