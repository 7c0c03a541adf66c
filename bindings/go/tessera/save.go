// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Sharded saves (tessera/experimental/checkpoint_save.h, experimental): each
// process of a job writes the distinct shards its devices hold to its own
// safetensors file, and process 0 then writes the index that
// OpenCheckpointIndex reads.

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// SaveOptions are the settings of NewSaver. Defaults: process 0 of 1,
// strict shard mode, 64 MiB parts. Mutable; one goroutine at a time.
type SaveOptions struct{ p swig.SaveOptions }

// NewSaveOptions has the defaults.
func NewSaveOptions() *SaveOptions { return wrapSaveOptions(swig.NewSaveOptions()) }

// SetProcess saves as process index of count: with a mesh of D devices it
// owns logical devices [index*D/count, (index+1)*D/count).
func (o *SaveOptions) SetProcess(index, count int) error {
	if err := checkSize("process_index", index); err != nil {
		return err
	}
	if err := checkSize("num_processes", count); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetProcess(int64(index), int64(count), e) })
}

// SetShardMode is how dimensions are cut (strict, as jax.device_put); the
// index records it, so a restore cuts them the same way.
func (o *SaveOptions) SetShardMode(mode ShardMode) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetShardMode(swig.Enum_SS_tessera_shard_mode_t(mode), e) })
}

// SetChunkSize is the most bytes of a piece Stream's fill is asked for at
// once.
func (o *SaveOptions) SetChunkSize(chunkSize int64) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetChunkSize(chunkSize, e) })
}

// Saver is one process's save of a sharded checkpoint: add the tensors
// (every process the same, in the same order), hand the shards (SetShard,
// then Write; or Stream), and once every process has written, process 0
// calls Finish, which writes the index. A saver writes once. One goroutine
// at a time.
type Saver struct {
	p swig.CheckpointSaver
	// The shards SetShard handed, for Write: shard i is tensor tensors[i] on
	// device devices[i]. The saver holds the references; C sees the buffers
	// during Write only (its saver may not keep Go memory, which moves).
	tensors, devices []int64
	buffers          [][]byte
	shard            map[[2]int64]int // (tensor, device) -> i
}

// NewSaver saves into directory (created at the write if it does not exist;
// its parent must), options nil: the defaults. It writes nothing yet.
func NewSaver(directory string, options *SaveOptions) (*Saver, error) {
	if err := checkStrings("directory", directory); err != nil {
		return nil, err
	}
	var e errSlot
	s := wrapSaver(swig.NewCheckpointSaver(directory, options.raw(), e[:]))
	runtime.KeepAlive(options)
	return s, e.take()
}

// AddTensor adds tensor name of safetensors dtype dtype ("F32", "BF16",
// "I64", ...) and global shape dims, saved under layout (which has a mesh:
// the saving mesh); its index is the number of tensors added before it.
func (s *Saver) AddTensor(name, dtype string, layout *Layout, dims []int64) error {
	if err := checkStrings("name", name); err != nil {
		return err
	}
	if err := checkStrings("dtype", dtype); err != nil {
		return err
	}
	err := keepDo(s, func(e []uintptr) { s.raw().AddTensor(name, dtype, layout.raw(), dims, e) })
	runtime.KeepAlive(layout)
	return err
}

// NumTensors is how many tensors were added.
func (s *Saver) NumTensors() (int, error) {
	n, err := keepErr(s, func(e []uintptr) int64 { return s.raw().NumTensors(e) })
	return int(n), err
}

// SetShard hands the shard of tensor on device for Write: buffer is the
// device's box of the tensor as row-major bytes (numpy's
// array[box].tobytes()). The saver keeps buffer itself, not a copy, until
// Write succeeds: do not change it before. A later call for the same tensor
// and device replaces it. Only the shards the process stores are written
// (each replica once, by its first holder); the buffers of the process's
// other devices are checked and ignored. Write checks the buffers against
// the tensors (a wrong size, a device of another process).
func (s *Saver) SetShard(tensor, device int, buffer []byte) error {
	if s == nil || s.p == nil {
		return errNullSaver()
	}
	if err := checkSize("tensor", tensor); err != nil {
		return err
	}
	if err := checkSize("device", device); err != nil {
		return err
	}
	key := [2]int64{int64(tensor), int64(device)}
	if i, found := s.shard[key]; found {
		s.buffers[i] = buffer
		return nil
	}
	if s.shard == nil {
		s.shard = map[[2]int64]int{}
	}
	s.shard[key] = len(s.buffers)
	s.tensors = append(s.tensors, key[0])
	s.devices = append(s.devices, key[1])
	s.buffers = append(s.buffers, buffer)
	return nil
}

// errNullSaver is the C library's answer to a NULL saver, for the calls
// that do not reach C with a nil or closed one.
func errNullSaver() error {
	return invalidArgument("Argument 'saver' is NULL; expected a valid pointer")
}

// Write writes the process's file from the shards of SetShard, in one call
// into C during which the buffers are pinned, crash-safely (a temporary
// name, fsync, rename). A refused shard is named by its position among the
// SetShard calls ("shard 1: Argument 'size' is 8; expected 12, the bytes of
// device 1's shard of tensor "w""); on an error no file of this save is
// left and the shards stay set, so one can be replaced and Write called
// again. After a successful Write the saver holds none of the buffers.
func (s *Saver) Write() error {
	if s == nil || s.p == nil {
		return errNullSaver()
	}
	var pinner runtime.Pinner
	defer pinner.Unpin()
	buffers := pinBuffers(&pinner, s.buffers)
	err := keepDo(s, func(e []uintptr) { s.raw().WriteShards(s.tensors, s.devices, buffers, e) })
	if err == nil {
		s.tensors, s.devices, s.buffers, s.shard = nil, nil, nil, nil
	}
	return err
}

// Stream writes the process's file asking fill for the bytes, crash-safely:
// fill puts len(out) bytes of the shard of tensor on device, starting at
// byte offset of its box (ranges, one per dimension), into out, which is
// the saver's memory and valid only during the call; parts are at most the
// options' chunk size, each stored piece asked for in file order. Returning
// false cancels the save (CANCELLED), and a panic in fill cancels it and is
// raised again in Stream's goroutine; either way no file of this save is
// left. The buffers of SetShard are not used.
func (s *Saver) Stream(fill func(tensor, device int, ranges []Range, offset int64, out []byte) bool) error {
	if fill == nil {
		return invalidArgument("Argument 'fill' is nil; expected a function")
	}
	callbacks := &swig.SaveCallbacks{Fill: func(tensor, device int, ranges []int64, offset int64, out []byte) bool {
		return fill(tensor, device, pairs(ranges), offset, out)
	}}
	_, err := withCallbacks(callbacks, func(handle uintptr) (struct{}, error) {
		return struct{}{}, keepDo(s, func(e []uintptr) {
			swig.GoCheckpointSaverStream(s.raw().Swigcptr(), uint64(handle), e)
		})
	})
	return err
}

// Finish is process 0's last step, once every process's Write (or Stream)
// has returned: it checks that the process files store every element of
// every tensor once and writes the index (tessera-index.json), then removes
// the files of the directory's previous checkpoint.
func (s *Saver) Finish() error {
	return keepDo(s, func(e []uintptr) { s.raw().Finish(e) })
}
