// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// A checkpoint's headers (tessera/experimental/checkpoint.h, experimental):
// its files, tensors and metadata, read without the tensor data.

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// Checkpoint is what the headers of a checkpoint's files say (safetensors,
// a sharded safetensors model's index, GGUF with its splits). Immutable: any
// number of goroutines may read it at once.
type Checkpoint struct{ p swig.Checkpoint }

// CheckpointFile is a file of a checkpoint.
type CheckpointFile struct {
	Path string // as the caller gave it, or the index's directory joined with the name the index gives
	Size int64  // bytes, when it was opened
}

// CheckpointTensor is a tensor as its file's header describes it.
type CheckpointTensor struct {
	Name        string
	ElementType string // as the format spells it: "F16", "BF16", "Q4_K"
	// BlockElements are the elements stored together: 1 for plain types; for
	// packed and quantized types the consecutive innermost elements of a block.
	BlockElements int64
	BlockBytes    int64   // bytes per block (for a plain type, per element)
	Shape         []int64 // outermost dimension first, row-major; empty for a scalar
	File          int     // position in Files() of the file holding the data
	Offset        int64   // of the first byte, absolute in that file
	Size          int64   // bytes the tensor occupies there
}

// MetadataEntry is a metadata key and its value as text (GGUF's typed
// values rendered as core/checkpoint/gguf.h documents).
type MetadataEntry struct {
	Key   string
	Value string
}

// OpenCheckpoint reads the headers of the checkpoint at path, choosing the
// reader by the name: *.index.json, *.safetensors or *.gguf (the first of
// gguf-split's files brings the others).
func OpenCheckpoint(path string) (*Checkpoint, error) {
	if err := checkStrings("path", path); err != nil {
		return nil, err
	}
	var e errSlot
	c := wrapCheckpoint(swig.NewCheckpoint(path, e[:]))
	return c, e.take()
}

// Format is "safetensors" or "gguf".
func (c *Checkpoint) Format() (string, error) {
	return keepErr(c, func(e []uintptr) string { return c.raw().Format(e) })
}

// Files are the checkpoint's files, in the order of their names.
func (c *Checkpoint) Files() ([]CheckpointFile, error) {
	return checkpointList(c, func(raw swig.Checkpoint, e []uintptr) int64 { return raw.NumFiles(e) },
		func(raw swig.Checkpoint, i int64) CheckpointFile {
			return CheckpointFile{Path: raw.FilePath(i, nil), Size: raw.FileSize(i, nil)}
		})
}

// checkpointList is item(0..n-1) for the n that count reports, keeping c
// reachable until the last item has been read.
func checkpointList[T any](c *Checkpoint, count func(swig.Checkpoint, []uintptr) int64,
	item func(raw swig.Checkpoint, i int64) T) ([]T, error) {
	var e errSlot
	raw := c.raw()
	n := count(raw, e[:])
	if err := e.take(); err != nil {
		return nil, err
	}
	list := make([]T, n)
	for i := range list {
		list[i] = item(raw, int64(i))
	}
	runtime.KeepAlive(c)
	return list, nil
}

// NumTensors is how many tensors the checkpoint holds, over all its files.
func (c *Checkpoint) NumTensors() (int, error) {
	n, err := keepErr(c, func(e []uintptr) int64 { return c.raw().NumTensors(e) })
	return int(n), err
}

// Tensor is tensor index (OUT_OF_RANGE from NumTensors on).
func (c *Checkpoint) Tensor(index int) (CheckpointTensor, error) {
	var e errSlot
	raw := c.raw()
	i := int64(index)
	name := raw.TensorName(i, e[:])
	if err := e.take(); err != nil {
		return CheckpointTensor{}, err
	}
	t := CheckpointTensor{
		Name:          name,
		ElementType:   raw.TensorElementType(i, nil),
		BlockElements: raw.TensorBlockNumElements(i, nil),
		BlockBytes:    raw.TensorBlockSize(i, nil),
		Shape:         raw.TensorShape(i, nil),
		File:          int(raw.TensorFileIndex(i, nil)),
		Offset:        raw.TensorOffset(i, nil),
		Size:          raw.TensorSize(i, nil),
	}
	runtime.KeepAlive(c)
	return t, nil
}

// Tensors are every tensor, file by file in each header's order.
func (c *Checkpoint) Tensors() ([]CheckpointTensor, error) {
	n, err := c.NumTensors()
	if err != nil {
		return nil, err
	}
	tensors := make([]CheckpointTensor, n)
	for i := range tensors {
		if tensors[i], err = c.Tensor(i); err != nil {
			return nil, err
		}
	}
	return tensors, nil
}

// LookupTensor is the position of the tensor called name (NOT_FOUND when
// none is).
func (c *Checkpoint) LookupTensor(name string) (int, error) {
	if err := checkStrings("name", name); err != nil {
		return 0, err
	}
	i, err := keepErr(c, func(e []uintptr) int64 { return c.raw().TensorLookup(name, e) })
	return int(i), err
}

// Metadata are the metadata entries in file order (their keys are distinct):
// safetensors' __metadata__ (and a sharded model's index metadata), GGUF's
// key/values.
func (c *Checkpoint) Metadata() ([]MetadataEntry, error) {
	return checkpointList(c, func(raw swig.Checkpoint, e []uintptr) int64 { return raw.NumMetadataEntries(e) },
		func(raw swig.Checkpoint, i int64) MetadataEntry {
			return MetadataEntry{Key: raw.MetadataKey(i, nil), Value: raw.MetadataValue(i, nil)}
		})
}

// MetadataValue is the value of the entry with key key (NOT_FOUND when none
// has it).
func (c *Checkpoint) MetadataValue(key string) (string, error) {
	if err := checkStrings("key", key); err != nil {
		return "", err
	}
	return keepErr(c, func(e []uintptr) string { return c.raw().MetadataLookup(key, e) })
}
