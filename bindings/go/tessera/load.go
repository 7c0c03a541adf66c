// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Read plans and loading (tessera/experimental/checkpoint_load.h,
// experimental): the bytes of a checkpoint's files one process of a job
// reads so that each of its devices gets its shard of every tensor, read
// into the caller's []byte.

import (
	"runtime"
	"runtime/cgo"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// ReadOptions are the settings of NewReadPlan. Defaults: process 0 of 1,
// strict shard mode, a 65536-byte coalescing gap, min(4, hardware threads)
// loader threads, 64 MiB of staging. Mutable; one goroutine at a time.
type ReadOptions struct{ p swig.ReadOptions }

// NewReadOptions has the defaults.
func NewReadOptions() *ReadOptions { return wrapReadOptions(swig.NewReadOptions()) }

// SetProcess plans for process index of count: with a mesh of D devices it
// owns logical devices [index*D/count, (index+1)*D/count).
func (o *ReadOptions) SetProcess(index, count int) error {
	if err := checkSize("process_index", index); err != nil {
		return err
	}
	if err := checkSize("num_processes", count); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetProcess(int64(index), int64(count), e) })
}

// SetShardMode is how dimensions are cut (strict, as jax.device_put).
func (o *ReadOptions) SetShardMode(mode ShardMode) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetShardMode(swig.Enum_SS_tessera_shard_mode_t(mode), e) })
}

// SetCoalesceGap reads runs of a file at most gapBytes apart in one read,
// the gap included.
func (o *ReadOptions) SetCoalesceGap(gapBytes int64) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetCoalesceGap(gapBytes, e) })
}

// SetThreads is the number of loader threads; 0: min(4, hardware threads).
func (o *ReadOptions) SetThreads(threads int) error {
	if err := checkSize("threads", threads); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetThreads(int64(threads), e) })
}

// SetStagingBytes is the staging memory of a load over all its threads.
func (o *ReadOptions) SetStagingBytes(stagingBytes int64) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetStagingBytes(stagingBytes, e) })
}

// ReadPlan is what one process reads of a checkpoint: its pieces, one per
// (device of the process, tensor), and the coalesced byte ranges of each
// file. Immutable: any number of goroutines may query or load it at once.
type ReadPlan struct{ p swig.ReadPlan }

// ReadPiece is a device's shard of a tensor: its box of the tensor as
// row-major contiguous bytes in the checkpoint's element type.
type ReadPiece struct {
	Device int     // logical device: row-major mesh position
	Tensor int     // position in Checkpoint.Tensors
	Ranges []Range // the box, per dimension
	Shape  []int64 // Stop - Start per dimension
	Size   int     // bytes: the length its buffer must have
}

// NewReadPlan plans the reads of one process (options nil: the defaults):
// each tensor's layout is rules.Get(its name) on rules' mesh, fully
// replicated when no rule matches.
func NewReadPlan(c *Checkpoint, rules *LayoutMap, options *ReadOptions) (*ReadPlan, error) {
	var e errSlot
	p := wrapReadPlan(swig.NewReadPlan(c.raw(), rules.raw(), options.raw(), e[:]))
	runtime.KeepAlive(c)
	runtime.KeepAlive(rules)
	runtime.KeepAlive(options)
	return p, e.take()
}

// NumPieces is the process's devices times the checkpoint's tensors.
func (p *ReadPlan) NumPieces() (int, error) {
	n, err := keepErr(p, func(e []uintptr) int64 { return p.raw().NumPieces(e) })
	return int(n), err
}

// Piece is piece index: the process's devices in mesh order, each with
// every tensor in checkpoint order (OUT_OF_RANGE from NumPieces on).
func (p *ReadPlan) Piece(index int) (ReadPiece, error) {
	var e errSlot
	raw := p.raw()
	i := int64(index)
	device := raw.PieceDevice(i, e[:])
	if err := e.take(); err != nil {
		return ReadPiece{}, err
	}
	piece := ReadPiece{
		Device: int(device),
		Tensor: int(raw.PieceTensor(i, nil)),
		Ranges: pairs(raw.PieceRanges(i, nil)),
		Shape:  raw.PieceShape(i, nil),
		Size:   int(raw.PieceSize(i, nil)),
	}
	runtime.KeepAlive(p)
	return piece, nil
}

// Pieces are every piece, in order.
func (p *ReadPlan) Pieces() ([]ReadPiece, error) {
	n, err := p.NumPieces()
	if err != nil {
		return nil, err
	}
	pieces := make([]ReadPiece, n)
	for i := range pieces {
		if pieces[i], err = p.Piece(i); err != nil {
			return nil, err
		}
	}
	return pieces, nil
}

// NumFiles is the checkpoint's file count; files the process needs nothing
// of have no ranges.
func (p *ReadPlan) NumFiles() (int, error) {
	n, err := keepErr(p, func(e []uintptr) int64 { return p.raw().NumFiles(e) })
	return int(n), err
}

// FileRanges are the coalesced byte ranges read from file file, sorted,
// absolute in the file.
func (p *ReadPlan) FileRanges(file int) ([]Range, error) {
	flat, err := keepErr(p, func(e []uintptr) []int64 { return p.raw().FileRanges(int64(file), e) })
	return pairs(flat), err
}

// TotalBytes are the bytes the plan reads from the files, gaps included:
// exactly what Load reads.
func (p *ReadPlan) TotalBytes() (int64, error) {
	return keepErr(p, func(e []uintptr) int64 { return p.raw().TotalBytes(e) })
}

// AllocateBuffers is one []byte per piece, of its size, for Load.
func (p *ReadPlan) AllocateBuffers() ([][]byte, error) {
	pieces, err := p.Pieces()
	if err != nil {
		return nil, err
	}
	buffers := make([][]byte, len(pieces))
	for i, piece := range pieces {
		buffers[i] = make([]byte, piece.Size)
	}
	return buffers, nil
}

// Load reads piece i's shard into buffers[i], whose length must be the
// piece's Size; it returns the bytes read from the files (TotalBytes) once
// every loader thread is done. The loader threads write into the slices
// during the call only (they are pinned for it), so the slices are the
// caller's again when Load returns, also on an error (which may leave part
// of their bytes written).
//
// progress (nil: none) is called after each block of reads with the bytes
// read so far and the total, on a loader thread, never concurrently with
// itself; returning false cancels the load (CANCELLED). A panic in it
// cancels the load and is raised again in Load's goroutine.
func (p *ReadPlan) Load(buffers [][]byte, progress func(bytesDone, bytesTotal int64) bool) (int64, error) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	pinned := pinBuffers(&pinner, buffers)
	if progress == nil {
		return keepErr(p, func(e []uintptr) int64 { return p.raw().Execute(pinned, e) })
	}
	return withCallbacks(&swig.ReadCallbacks{Progress: progress}, func(handle uintptr) (int64, error) {
		return keepErr(p, func(e []uintptr) int64 {
			return swig.GoReadPlanExecute(p.raw().Swigcptr(), pinned, uint64(handle), e)
		})
	})
}

// pinBuffers pins each buffer's memory with pinner, as cgo requires of Go
// memory holding Go pointers handed to C ([][]byte), and returns them to
// pass: an empty one as nil (NULL with size 0: nothing of it to pin).
func pinBuffers(pinner *runtime.Pinner, buffers [][]byte) [][]byte {
	pinned := make([][]byte, len(buffers))
	for i, b := range buffers {
		if len(b) > 0 {
			pinner.Pin(&b[0])
			pinned[i] = b
		}
	}
	return pinned
}

// LoadEach reads the plan, handing each piece's bytes to piece in parts:
// piece index, offset inside its shard, and the bytes, which are valid only
// during the call (copy what you keep). Every byte of every piece arrives
// exactly once; replicas each get their own call. piece runs on the loader
// threads, possibly concurrently with itself (for different bytes), so it
// must be safe for concurrent use; returning false cancels the load
// (CANCELLED). progress is as Load's. A panic in either cancels the load and
// is raised again in LoadEach's goroutine. Returns the bytes read from the
// files.
func (p *ReadPlan) LoadEach(piece func(piece int, offset int64, bytes []byte) bool,
	progress func(bytesDone, bytesTotal int64) bool) (int64, error) {
	if piece == nil {
		return 0, invalidArgument("Argument 'piece' is nil; expected a function")
	}
	callbacks := &swig.ReadCallbacks{Piece: piece, Progress: progress}
	return withCallbacks(callbacks, func(handle uintptr) (int64, error) {
		return keepErr(p, func(e []uintptr) int64 {
			return swig.GoReadPlanStream(p.raw().Swigcptr(), uint64(handle), progress != nil, e)
		})
	})
}

// withCallbacks runs call (a load, a save) with a cgo.Handle of callbacks
// (deleted after), then raises a callback's recovered panic in this
// goroutine.
func withCallbacks[T any](callbacks interface{ Panic() (any, bool) }, call func(handle uintptr) (T, error)) (T, error) {
	handle := cgo.NewHandle(callbacks)
	n, err := call(uintptr(handle))
	handle.Delete()
	if r, panicked := callbacks.Panic(); panicked {
		panic(r)
	}
	return n, err
}
