// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import "runtime"

// Every call into C goes through a handle's raw() value: the C pointer as a
// uintptr, which the garbage collector does not trace. Once raw() has
// returned, the Go handle may have no other use left in the caller, so the
// collector is free to run its finalizer (Close: tessera_*_destroy) while
// the C call is still using the pointer. runtime.KeepAlive(h) after the call
// forbids that. These helpers put the call and the KeepAlive in one place.
//
// Why the guarantee holds: h (the *Mesh, *Client, ...) is an argument of the
// helper and is passed to runtime.KeepAlive only after f has returned, so
// the handle stays reachable for the whole call, however f is written and
// wherever the caller's own references end. A method value such as
// m.raw().Rank is evaluated in the caller before the helper runs, while m
// is itself one of the helper's arguments, so it is covered too. Inlining
// does not change this either: KeepAlive applies to the value, not to a
// stack frame.
//
// Cost: none measurable. The func literals do not escape (-gcflags=-m), h
// as `any` is a pointer (no allocation), and the layout-map benchmarks keep
// their allocations per call (Get 3, Find 1).
//
// Calls that use two handles, or do more between the C call and the
// KeepAlive, keep their explicit runtime.KeepAlive lines.

// keep returns f(), keeping h reachable until f has returned.
func keep[T any](h any, f func() T) T {
	v := f()
	runtime.KeepAlive(h)
	return v
}

// keepErr calls f with an error slot (the tessera_error** of the C call),
// keeping h reachable until f has returned, and returns f's result with the
// slot's error.
func keepErr[T any](h any, f func(e []uintptr) T) (T, error) {
	var e errSlot
	v := f(e[:])
	runtime.KeepAlive(h)
	return v, e.take()
}

// keepDo is keepErr for a C call whose only result is its error.
func keepDo(h any, f func(e []uintptr)) error {
	var e errSlot
	f(e[:])
	runtime.KeepAlive(h)
	return e.take()
}
