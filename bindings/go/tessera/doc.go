// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Package tessera is the Go binding of Tessera: device meshes, tensor
// layouts, layout maps, distributions, shard math, the multi-host job
// (initialize, key-value store, barriers, events, shutdown), and, in the
// experimental tier, checkpoints, their memory plans, loading a process's
// own shards, and sharded saves restored on any mesh.
//
// It is a thin layer over the SWIG-generated wrappers of the C ABI
// (internal/swig). Every fallible call returns (T, error); the error is a
// *Error carrying the C code and message, and errors.Is(err, CodeNotFound)
// tests the code. Every handle has Close(), which frees it at once; a
// finalizer frees handles that are dropped without Close(), on the garbage
// collector's thread (the C library allows destroy on any thread, and
// reference-counts inside, so a layout keeps its mesh alive whatever order
// handles are closed or collected in).
//
// A handle is safe for concurrent use as its C counterpart is (tessera.h):
// meshes, layouts, distributions and shardings from any number of
// goroutines; a LayoutMap's Set and Delete exclusively. Close must not run
// concurrently with other calls on the same handle.
//
// Conventions. Every blocking call (Initialize, Connect, Client.KVGet,
// Barrier, NextEvent, AgreeLiveProcesses, Shutdown, Coordinator.Wait)
// takes a context.Context first: a done context stops the call before it
// starts with an error wrapping ctx.Err(), and the context's deadline
// shortens the call's timeout; the C calls cannot be interrupted one by
// one, so a cancel during a call is seen when it returns (Client.CancelAll
// interrupts every blocking call of a client). Timeouts and intervals are
// time.Duration, passed to C in whole milliseconds rounded away from zero.
// Counts and positions (indices, process indices, byte sizes) are int;
// tensor and mesh extents, tensor index ranges and global device ids are
// int64, as in C; so are offsets and sizes in files and bytes read from
// them (as in os.FileInfo and io.Copy). Enum constants are their type's name followed by the
// value's (ShardModeStrict, LogLevelWarning, TaskStateRunning).
//
// Why SWIG's layer stays (the cgo decision, C ABI 0.2): the same C function
// called through SWIG's generated wrapper and through cgo directly
// (BenchmarkCall* in bench_test.go, internal/ctest/direct.go; `meson test
// --benchmark --suite go`), medians of 5 runs in ns/op on a 2-core box at
// load 3.4-4.7: the getter tessera_mesh_num_axes 40.4 and 40.1 via SWIG
// against 30.4 and 38.4 direct; tessera_layout_map_lookup + destroy 155.5
// and 179.3 against 153.9 and 159.6; tessera_mesh_axis_name into a Go
// string 129.1 and 138.2 against 128.0 and 115.8. The cgo transition
// (~30 ns) is paid either way; SWIG's extra C hop costs at most ~10 ns, less
// than the run-to-run spread, and SWIG allocates no more (1 allocation
// against 2 for the string and the lookup). A direct layer would trade that
// for ~290 hand-written cgo bindings that SWIG generates and the binding
// coverage test checks, so the binding calls the C ABI through SWIG.
package tessera
