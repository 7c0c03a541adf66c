// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"
	"unsafe"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// CopyOptions are the options of Scatter and Gather (tessera/copy.h).
// Mutable; one goroutine at a time. A nil *CopyOptions is the defaults:
// the calling thread only, no replica check, every process.
type CopyOptions struct{ p swig.CopyOptions }

// NewCopyOptions is the defaults.
func NewCopyOptions() *CopyOptions { return wrapCopyOptions(swig.NewCopyOptions()) }

// SetThreads spreads the copies over up to threads threads (0 and 1: the
// calling thread only; the library uses fewer for small copies, at most 64).
func (o *CopyOptions) SetThreads(threads int) error {
	if err := checkSize("threads", threads); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetThreads(int64(threads), e) })
}

// SetVerifyReplicas makes Gather compare every replica of each shard with
// the one it reads first, failing with CodeDataLoss where they differ.
func (o *CopyOptions) SetVerifyReplicas(verify bool) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetVerifyReplicas(verify, e) })
}

// SetProcessIndex limits the copies to the devices of one process (-1, the
// default: every process). Scatter leaves the other devices' shards zero;
// Gather reads only this process's shards and leaves the rest of the
// result zero.
func (o *CopyOptions) SetProcessIndex(processIndex int) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetProcessIndex(int64(processIndex), e) })
}

// checkSize rejects a negative int before it becomes a huge size_t.
func checkSize(name string, value int) error {
	if value < 0 {
		return invalidArgument("Argument '%s' is %d; expected a size >= 0", name, value)
	}
	return nil
}

// shardSizes is the byte size of every device's shard, in device order.
func (s *Sharding) shardSizes(elementSize int) ([]int, error) {
	sizes := make([]int, s.NumDevices())
	for i := range sizes {
		size, err := s.ShardSize(i, elementSize)
		if err != nil {
			return nil, err
		}
		sizes[i] = size
	}
	return sizes, nil
}

// Number is the element types of Scatter and Gather: Go's fixed-size
// numeric types, and types defined over them (no int, uint or uintptr,
// whose size depends on the platform).
type Number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// sizeOf is the byte size of one T.
func sizeOf[T Number]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// asBytes is v's memory as bytes, no copy. A Number holds no pointers, so
// the bytes may go to C for the call (cgo's pointer rules).
func asBytes[T Number](v []T) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*sizeOf[T]())
}

// Scatter copies global (the tensor, row-major) into one new slice per
// device holding that device's shard, row-major, in device order (len =
// s.NumDevices(); device i's has ShardSize(i, size of T) bytes). opts may
// be nil. The shards share one allocation, each capped at its own length.
//
// Errors: the library's INVALID_ARGUMENT for a global of another length
// than the sharding's global shape.
func Scatter[T Number](s *Sharding, global []T, opts *CopyOptions) ([][]T, error) {
	size := sizeOf[T]()
	concat, sizes, err := s.scatter(asBytes(global), size, opts)
	if err != nil {
		return nil, err
	}
	// Copied, not reinterpreted: a []byte's memory need not be aligned for T.
	all := make([]T, len(concat)/size)
	copy(asBytes(all), concat)
	return split(all, sizes, size), nil
}

// Gather assembles the tensor (row-major, the sharding's global shape) from
// the shards of every device, in device order, as Scatter returns them.
// Each distinct shard is read once, from its first holder (every holder is
// compared with SetVerifyReplicas). opts may be nil.
//
// Errors: as GatherBytes (entry sizes in bytes).
func Gather[T Number](s *Sharding, shards [][]T, opts *CopyOptions) ([]T, error) {
	size := sizeOf[T]()
	elements := 1
	for _, d := range s.globalShape() {
		elements *= int(d)
	}
	byteShards := make([][]byte, len(shards))
	for i, shard := range shards {
		byteShards[i] = asBytes(shard)
	}
	global, err := s.GatherBytes(byteShards, size, elements*size, opts)
	if err != nil {
		return nil, err
	}
	out := make([]T, elements)
	copy(asBytes(out), global)
	return out, nil
}

// globalShape is the shape the sharding was made for (nil for a nil handle).
func (s *Sharding) globalShape() []int64 {
	if s == nil {
		return nil
	}
	return s.dims
}

// split cuts all into consecutive shards of sizes[i] bytes (unit bytes per
// element), each with its capacity capped: appending to one shard never
// writes into the next.
func split[T any](all []T, sizes []int, unit int) [][]T {
	shards := make([][]T, len(sizes))
	offset := 0
	for i, size := range sizes {
		n := size / unit
		shards[i] = all[offset : offset+n : offset+n]
		offset += n
	}
	return shards
}

// scatter is the scatter into one buffer (the shards concatenated in device
// order) and each shard's byte size.
func (s *Sharding) scatter(global []byte, elementSize int, opts *CopyOptions) ([]byte, []int, error) {
	if err := checkSize("element_size", elementSize); err != nil {
		return nil, nil, err
	}
	var e errSlot
	concat := s.raw().ScatterConcat(global, int64(elementSize), opts.raw(), e[:])
	runtime.KeepAlive(opts)
	if err := e.take(); err != nil {
		runtime.KeepAlive(s)
		return nil, nil, err
	}
	sizes, err := s.shardSizes(elementSize)
	runtime.KeepAlive(s)
	if err != nil {
		return nil, nil, err
	}
	return concat, sizes, nil
}

// ScatterBytes is Scatter over raw bytes: global holds elementSize-byte
// elements (1..16), and each shard comes back as bytes.
//
// Errors: the library's INVALID_ARGUMENT for an elementSize outside 1..16
// or a global of another size than the shape's bytes.
func (s *Sharding) ScatterBytes(global []byte, elementSize int, opts *CopyOptions) ([][]byte, error) {
	concat, sizes, err := s.scatter(global, elementSize, opts)
	if err != nil {
		return nil, err
	}
	return split(concat, sizes, 1), nil
}

// GatherBytes is Gather over raw bytes: shards as ScatterBytes returns
// them, the result globalSize bytes of elementSize-byte elements.
//
// Errors: INVALID_ARGUMENT when shards does not have one entry per device
// or an entry is not its device's ShardSize bytes (checked here, naming
// the entry; with SetProcessIndex the other processes' entries still need
// their size, as Scatter returns them, but are not read), or the library's
// for a bad elementSize or globalSize; DATA_LOSS from the replica check.
func (s *Sharding) GatherBytes(shards [][]byte, elementSize, globalSize int, opts *CopyOptions) ([]byte, error) {
	if err := checkSize("element_size", elementSize); err != nil {
		return nil, err
	}
	if err := checkSize("global_size", globalSize); err != nil {
		return nil, err
	}
	sizes, err := s.shardSizes(elementSize)
	if err != nil {
		return nil, err
	}
	if len(shards) != len(sizes) {
		return nil, invalidArgument("Argument 'shards' has %d entries; expected %d (one buffer per device of the mesh)",
			len(shards), len(sizes))
	}
	total := 0
	for i, size := range sizes {
		if len(shards[i]) != size {
			return nil, invalidArgument("Argument 'shards' entry %d is %d bytes; expected %d (the shard of device %d)",
				i, len(shards[i]), size, i)
		}
		total += size
	}
	concat := make([]byte, 0, total)
	for _, shard := range shards {
		concat = append(concat, shard...)
	}
	var e errSlot
	global := s.raw().GatherConcat(concat, int64(elementSize), int64(globalSize), opts.raw(), e[:])
	runtime.KeepAlive(s)
	runtime.KeepAlive(opts)
	return global, e.take()
}
