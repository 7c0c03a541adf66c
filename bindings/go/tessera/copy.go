package tessera

import (
	"runtime"

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
func (o *CopyOptions) SetProcessIndex(processIndex int64) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetProcessIndex(processIndex, e) })
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
		size, err := s.ShardSize(i, int64(elementSize))
		if err != nil {
			return nil, err
		}
		sizes[i] = int(size)
	}
	return sizes, nil
}

// Scatter copies global (the tensor, row-major, elementSize-byte elements)
// into one new buffer per device holding that device's shard, row-major, in
// device order (len = NumDevices(); device i's is ShardSize(i) bytes).
// opts may be nil.
//
// Errors: the library's INVALID_ARGUMENT for an elementSize outside 1..16
// or a global of another size than the shape's bytes.
func (s *Sharding) Scatter(global []byte, elementSize int, opts *CopyOptions) ([][]byte, error) {
	if err := checkSize("element_size", elementSize); err != nil {
		return nil, err
	}
	var e errSlot
	concat := s.raw().ScatterConcat(global, int64(elementSize), opts.raw(), e[:])
	runtime.KeepAlive(opts)
	if err := e.take(); err != nil {
		runtime.KeepAlive(s)
		return nil, err
	}
	sizes, err := s.shardSizes(elementSize)
	runtime.KeepAlive(s)
	if err != nil {
		return nil, err
	}
	shards := make([][]byte, len(sizes))
	offset := 0
	for i, size := range sizes {
		// Capacity capped: appending to one shard never writes into the next.
		shards[i] = concat[offset : offset+size : offset+size]
		offset += size
	}
	return shards, nil
}

// Gather assembles the tensor (globalSize bytes, row-major) from the shards
// of every device, in device order, as Scatter returns them. Each distinct
// shard is read once, from its first holder (every holder is compared with
// SetVerifyReplicas). opts may be nil.
//
// Errors: INVALID_ARGUMENT when shards does not have one entry per device
// or an entry is not its device's ShardSize bytes (checked here, naming
// the entry; with SetProcessIndex the other processes' entries still need
// their size, as Scatter returns them, but are not read), or the library's
// for a bad elementSize or globalSize; DATA_LOSS from the replica check.
func (s *Sharding) Gather(shards [][]byte, elementSize, globalSize int, opts *CopyOptions) ([]byte, error) {
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
