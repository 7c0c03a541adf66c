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
package tessera
