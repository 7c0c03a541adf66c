// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Restoring a sharded checkpoint on any mesh and layout
// (tessera/experimental/checkpoint_restore.h, experimental): its index,
// and the read plan of one process of the restoring job, which is a
// ReadPlan (Load, LoadEach).

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// CheckpointIndex is a sharded checkpoint's index (what Saver.Finish
// wrote), checked against its files' headers. Immutable: any number of
// goroutines may read it at once.
type CheckpointIndex struct{ p swig.CheckpointIndex }

// IndexedTensor is a tensor of a sharded checkpoint.
type IndexedTensor struct {
	Name        string
	ElementType string  // the safetensors dtype: "F32", "BF16"
	Shape       []int64 // the global shape
	// Pieces are the distinct shards it is stored in, each once, sorted by
	// their ranges.
	Pieces []StoredPiece
}

// StoredPiece is a distinct shard of a tensor as the checkpoint stores it.
type StoredPiece struct {
	Ranges []Range // its box of the tensor, per dimension
	File   int     // its file's position in CheckpointIndex.Files
}

// OpenCheckpointIndex reads the index of the sharded checkpoint at path (its
// directory, or the directory's tessera-index.json) and its files' headers.
// A directory whose save did not finish has no index: FAILED_PRECONDITION.
func OpenCheckpointIndex(path string) (*CheckpointIndex, error) {
	if err := checkStrings("path", path); err != nil {
		return nil, err
	}
	var e errSlot
	c := wrapCheckpointIndex(swig.NewCheckpointIndex(path, e[:]))
	return c, e.take()
}

// NumProcesses is how many processes saved the checkpoint.
func (c *CheckpointIndex) NumProcesses() (int, error) {
	n, err := keepErr(c, func(e []uintptr) int64 { return c.raw().NumProcesses(e) })
	return int(n), err
}

// Files are the paths of the checkpoint's files (one per saving process):
// the directory joined with the names the index gives.
func (c *CheckpointIndex) Files() ([]string, error) {
	var e errSlot
	raw := c.raw()
	n := raw.NumFiles(e[:])
	if err := e.take(); err != nil {
		return nil, err
	}
	files := make([]string, n)
	for i := range files {
		files[i] = raw.FilePath(int64(i), nil)
	}
	runtime.KeepAlive(c)
	return files, nil
}

// NumTensors is how many tensors the checkpoint holds.
func (c *CheckpointIndex) NumTensors() (int, error) {
	n, err := keepErr(c, func(e []uintptr) int64 { return c.raw().NumTensors(e) })
	return int(n), err
}

// Tensor is tensor index, in save order (OUT_OF_RANGE from NumTensors on).
func (c *CheckpointIndex) Tensor(index int) (IndexedTensor, error) {
	var e errSlot
	raw := c.raw()
	i := int64(index)
	name := raw.TensorName(i, e[:])
	if err := e.take(); err != nil {
		return IndexedTensor{}, err
	}
	t := IndexedTensor{
		Name:        name,
		ElementType: raw.TensorDtype(i, nil),
		Shape:       raw.TensorShape(i, nil),
		Pieces:      make([]StoredPiece, raw.TensorNumPieces(i, nil)),
	}
	for k := range t.Pieces {
		t.Pieces[k] = StoredPiece{Ranges: pairs(raw.PieceRanges(i, int64(k), nil)), File: int(raw.PieceFile(i, int64(k), nil))}
	}
	runtime.KeepAlive(c)
	return t, nil
}

// Tensors are every tensor, in save order.
func (c *CheckpointIndex) Tensors() ([]IndexedTensor, error) {
	return planList(c.NumTensors, c.Tensor)
}

// TensorSharding is the sharding tensor index was saved under: its mesh,
// layout, global shape and shard mode.
func (c *CheckpointIndex) TensorSharding(index int) (*Sharding, error) {
	var e errSlot
	raw := c.raw()
	s := wrapSharding(raw.TensorSharding(int64(index), e[:]))
	if s != nil {
		s.dims = raw.TensorShape(int64(index), nil)
	}
	runtime.KeepAlive(c)
	return s, e.take()
}

// RestoreRequest is the tensors a restore asks for, with what it expects of
// each; they are restored in the order added. Mutable; one goroutine at a
// time.
type RestoreRequest struct{ p swig.RestoreRequest }

// NewRestoreRequest asks for nothing yet.
func NewRestoreRequest() *RestoreRequest { return wrapRestoreRequest(swig.NewRestoreRequest()) }

// AddTensor asks for tensor name, stored as dtype ("": any) with global
// shape dims (empty: any; a scalar's is checked with AddScalar).
func (r *RestoreRequest) AddTensor(name, dtype string, dims []int64) error {
	if err := checkStrings("name", name); err != nil {
		return err
	}
	if err := checkStrings("dtype", dtype); err != nil {
		return err
	}
	return keepDo(r, func(e []uintptr) { r.raw().AddTensor(name, dtype, dims, e) })
}

// AddScalar asks for the rank-0 tensor name, stored as dtype ("": any).
func (r *RestoreRequest) AddScalar(name, dtype string) error {
	if err := checkStrings("name", name); err != nil {
		return err
	}
	if err := checkStrings("dtype", dtype); err != nil {
		return err
	}
	return keepDo(r, func(e []uintptr) { r.raw().AddScalar(name, dtype, e) })
}

// NewRestorePlan plans the reads of one process (options' SetProcess)
// restoring c on rules' mesh, which may be any mesh: each tensor's layout is
// rules.Get(its name), fully replicated when no rule matches. request nil:
// every tensor, in save order; otherwise the request's, in its order (a
// piece's Tensor is that position). The plan is a ReadPlan: Load or
// LoadEach it. A requested tensor the checkpoint does not hold is
// NOT_FOUND; another dtype or shape than the stored one is
// INVALID_ARGUMENT.
func NewRestorePlan(c *CheckpointIndex, rules *LayoutMap, request *RestoreRequest,
	options *ReadOptions) (*ReadPlan, error) {
	var e errSlot
	p := wrapReadPlan(c.raw().RestorePlan(rules.raw(), request.raw(), options.raw(), e[:]))
	runtime.KeepAlive(c)
	runtime.KeepAlive(rules)
	runtime.KeepAlive(request)
	runtime.KeepAlive(options)
	return p, e.take()
}
