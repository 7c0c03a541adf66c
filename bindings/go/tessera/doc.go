// Package tessera is the Go binding of Tessera: device meshes, tensor
// layouts, layout maps, distributions, shard math and the multi-host job
// (initialize, key-value store, barriers, events, shutdown).
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
// int64, as in C. Enum constants are their type's name followed by the
// value's (ShardModeStrict, LogLevelWarning, TaskStateRunning).
package tessera
