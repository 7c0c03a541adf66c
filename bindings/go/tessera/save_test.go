// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// A 2-process job's save on the 2x4 mesh (batch=2, model=4; devices 0-7 in
// row-major order; process 0 owns devices 0-3, process 1 devices 4-7), as
// tests/capi/test_checkpoint_save.c:
//
//	row  F32 [8, 16] (batch, -): rows [0:4] on devices 0-3, [4:8] on 4-7
//	col  F32 [8, 16] (-, model): a quarter of the columns per model index,
//	                             each on devices m and 4 + m
//	bias F32 [16]    replicated on all 8
//
// Byte i of tensor t's row-major global array is (i*31 + 7 + t) mod 256.
// Each distinct shard is stored once, by its first holder: row by devices 0
// (process 0) and 4 (process 1), col by 0-3, bias by 0.
type savedTensor struct {
	name  string
	axes  []string // the layout on the 2x4 mesh
	shape []int64
}

var savedTensors = []savedTensor{
	{"row", []string{"batch", ""}, []int64{8, 16}},
	{"col", []string{"", "model"}, []int64{8, 16}},
	{"bias", []string{""}, []int64{16}},
}

// savedData is tensor t's global array.
func savedData(t int) []byte {
	n := 4
	for _, d := range savedTensors[t].shape {
		n *= int(d)
	}
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i*31 + 7 + t)
	}
	return data
}

// boxBytes is the box ranges of a row-major array of shape with
// elementSize-byte elements, as row-major bytes (numpy's
// array[box].tobytes()): the expected value of a shard, computed apart from
// the library.
func boxBytes(array []byte, shape []int64, elementSize int, ranges []tessera.Range) []byte {
	if len(shape) == 0 {
		return append([]byte(nil), array[:elementSize]...)
	}
	inner := int64(elementSize)
	for _, d := range shape[1:] {
		inner *= d
	}
	var out []byte
	for i := ranges[0].Start; i < ranges[0].Stop; i++ {
		out = append(out, boxBytes(array[i*inner:(i+1)*inner], shape[1:], elementSize, ranges[1:])...)
	}
	return out
}

// saveMesh is the 2x4 saving mesh.
func saveMesh(t *testing.T) *tessera.Mesh {
	t.Helper()
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"batch", "model"}, cpus(8)))
	t.Cleanup(func() { mesh.Close() })
	return mesh
}

// newSaver is process p of n's saver into dir with the three tensors added.
func newSaver(t *testing.T, dir string, p, n int, settings func(o *tessera.SaveOptions)) *tessera.Saver {
	t.Helper()
	options := tessera.NewSaveOptions()
	defer options.Close()
	ok(t, options.SetProcess(p, n))
	if settings != nil {
		settings(options)
	}
	saver := must(tessera.NewSaver(dir, options))
	t.Cleanup(func() { saver.Close() })
	mesh := saveMesh(t)
	for _, tensor := range savedTensors {
		layout := must(tessera.NewLayout(tensor.axes, mesh))
		ok(t, saver.AddTensor(tensor.name, "F32", layout, tensor.shape))
		layout.Close()
	}
	return saver
}

// savedShard is device d's shard of tensor t on the saving mesh, and its box.
func savedShard(t *testing.T, tensor, device int) ([]byte, []tessera.Range) {
	t.Helper()
	layout := must(tessera.NewLayout(savedTensors[tensor].axes, saveMesh(t)))
	defer layout.Close()
	sharding := must(tessera.NewSharding(layout, savedTensors[tensor].shape, tessera.ShardModeStrict))
	defer sharding.Close()
	ranges := must(sharding.DeviceRanges(device))
	return boxBytes(savedData(tensor), savedTensors[tensor].shape, 4, ranges), ranges
}

// setShards hands every shard of process p of n's devices to saver.
func setShards(t *testing.T, saver *tessera.Saver, p, n int) {
	t.Helper()
	for tensor := range savedTensors {
		for d := p * 8 / n; d < (p+1)*8/n; d++ {
			shard, _ := savedShard(t, tensor, d)
			ok(t, saver.SetShard(tensor, d, shard))
		}
	}
}

// saveJob saves the 2-process job into a new directory, from buffers:
// process 1 writes, then process 0, which finishes.
func saveJob(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "checkpoint")
	for p := 1; p >= 0; p-- {
		saver := newSaver(t, dir, p, 2, nil)
		setShards(t, saver, p, 2)
		ok(t, saver.Write())
		if p == 0 {
			ok(t, saver.Finish())
		}
	}
	return dir
}

// fillFromData is a Stream fill that copies each part from the global arrays.
func fillFromData(tensor, device int, ranges []tessera.Range, offset int64, out []byte) bool {
	shard := boxBytes(savedData(tensor), savedTensors[tensor].shape, 4, ranges)
	copy(out, shard[offset:])
	return true
}

func TestAProcessStoresEachDistinctShardOfItsDevicesOnce(t *testing.T) {
	dir := saveJob(t)
	c := must(tessera.OpenCheckpoint(filepath.Join(dir, "process-00001-of-00002.safetensors")))
	defer c.Close()
	tensors := must(c.Tensors())
	// Process 1 holds devices 4-7: row's rows [4:8] (device 4 is their first
	// holder); col's and bias's shards are stored by process 0's devices.
	if len(tensors) != 1 || tensors[0].Name != "row@4:8,0:16" {
		t.Fatalf("process 1's file holds %+v; want row@4:8,0:16 alone", tensors)
	}
	want, _ := savedShard(t, 0, 4)
	file := must(os.ReadFile(filepath.Join(dir, "process-00001-of-00002.safetensors")))
	if got := file[tensors[0].Offset : tensors[0].Offset+tensors[0].Size]; !bytes.Equal(got, want) {
		t.Fatalf("row@4:8,0:16 holds %v; want %v", got, want)
	}
}

func TestWriteNamesAShardOfTheWrongSizeByItsPosition(t *testing.T) {
	saver := newSaver(t, filepath.Join(t.TempDir(), "checkpoint"), 0, 2, nil)
	setShards(t, saver, 0, 2)
	// Shards are handed tensor by tensor, devices 0-3 each: col on device 1
	// is the sixth, position 5.
	ok(t, saver.SetShard(1, 1, make([]byte, 8)))
	wantError(t, saver.Write(), tessera.CodeInvalidArgument,
		`shard 5: Argument 'size' is 8; expected 128, the bytes of device 1's shard of tensor "col"`)
}

func TestAfterARefusedWriteAReplacedShardWritesTheFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "checkpoint")
	saver := newSaver(t, dir, 0, 1, nil)
	setShards(t, saver, 0, 1)
	right, _ := savedShard(t, 1, 1)
	ok(t, saver.SetShard(1, 1, right[:8]))
	if err := saver.Write(); err == nil {
		t.Fatal("Write with a short buffer succeeded")
	}
	ok(t, saver.SetShard(1, 1, right))
	ok(t, saver.Write())
	ok(t, saver.Finish())
	index := must(tessera.OpenCheckpointIndex(dir))
	defer index.Close()
	if n := must(index.NumTensors()); n != 3 {
		t.Fatalf("the index holds %d tensors; want 3", n)
	}
}

func TestASaverWritesOnce(t *testing.T) {
	saver := newSaver(t, filepath.Join(t.TempDir(), "checkpoint"), 0, 1, nil)
	setShards(t, saver, 0, 1)
	ok(t, saver.Write())
	wantError(t, saver.Write(), tessera.CodeFailedPrecondition,
		"Argument 'saver' has written its file; expected a saver that has not (a saver writes once)")
}

func TestAStoredShardWithoutABufferIsAFailedPrecondition(t *testing.T) {
	saver := newSaver(t, filepath.Join(t.TempDir(), "checkpoint"), 0, 2, nil)
	wantError(t, saver.Write(), tessera.CodeFailedPrecondition,
		`tensor "row": no buffer for device 0, which stores [0:4, 0:16]; expected tessera_checkpoint_saver_set_shard for it`)
}

func TestFinishIsProcessZerosStep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "checkpoint")
	saver := newSaver(t, dir, 1, 2, nil)
	setShards(t, saver, 1, 2)
	ok(t, saver.Write())
	wantError(t, saver.Finish(), tessera.CodeFailedPrecondition,
		"Argument 'saver' saves process 1; expected process 0's saver, which writes the index")
}

func TestStreamWritesTheSameFilesAndIndexAsBuffers(t *testing.T) {
	buffered := saveJob(t)
	streamed := filepath.Join(t.TempDir(), "checkpoint")
	for p := 1; p >= 0; p-- {
		saver := newSaver(t, streamed, p, 2, nil)
		ok(t, saver.Stream(fillFromData))
		if p == 0 {
			ok(t, saver.Finish())
		}
	}
	for _, name := range []string{"tessera-index.json", "process-00000-of-00002.safetensors",
		"process-00001-of-00002.safetensors"} {
		a := must(os.ReadFile(filepath.Join(buffered, name)))
		b := must(os.ReadFile(filepath.Join(streamed, name)))
		if !bytes.Equal(a, b) {
			t.Fatalf("%s differs:\nbuffers: %q\nstream:  %q", name, a, b)
		}
	}
}

func TestStreamAsksForEachPieceInPartsOfAtMostTheChunkSize(t *testing.T) {
	saver := newSaver(t, filepath.Join(t.TempDir(), "checkpoint"), 1, 2,
		func(o *tessera.SaveOptions) { ok(t, o.SetChunkSize(100)) })
	var calls []string
	ok(t, saver.Stream(func(tensor, device int, ranges []tessera.Range, offset int64, out []byte) bool {
		calls = append(calls, fmt.Sprintf("tensor %d device %d %v: %d+%d", tensor, device, ranges, offset, len(out)))
		return fillFromData(tensor, device, ranges, offset, out)
	}))
	// Process 1 stores row's rows [4:8]: 4 x 16 F32 = 256 bytes.
	want := []string{
		"tensor 0 device 4 [{4 8} {0 16}]: 0+100",
		"tensor 0 device 4 [{4 8} {0 16}]: 100+100",
		"tensor 0 device 4 [{4 8} {0 16}]: 200+56",
	}
	if !reflect.DeepEqual(calls, want) {
		t.Fatalf("fill calls:\n%q\nwant\n%q", calls, want)
	}
}

func TestAFillThatReturnsFalseCancelsTheSaveAndLeavesNoFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "checkpoint")
	saver := newSaver(t, dir, 0, 2, nil)
	err := saver.Stream(func(int, int, []tessera.Range, int64, []byte) bool { return false })
	wantError(t, err, tessera.CodeCancelled, `the fill callback returned false for device 0 of tensor "row" at byte 0`)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the cancelled save left %v", entries)
	}
}

func TestAFillThatPanicsCancelsTheSaveAndPanicsInTheCaller(t *testing.T) {
	saver := newSaver(t, filepath.Join(t.TempDir(), "checkpoint"), 0, 2, nil)
	defer func() {
		if r := recover(); fmt.Sprint(r) != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
	}()
	saver.Stream(func(int, int, []tessera.Range, int64, []byte) bool { panic("boom") })
	t.Fatal("Stream returned")
}

func TestAClosedSaverIsInvalidArgumentNamingIt(t *testing.T) {
	saver := newSaver(t, filepath.Join(t.TempDir(), "checkpoint"), 0, 1, nil)
	saver.Close()
	const message = "Argument 'saver' is NULL; expected a valid pointer"
	wantError(t, saver.SetShard(0, 0, nil), tessera.CodeInvalidArgument, message)
	wantError(t, saver.Write(), tessera.CodeInvalidArgument, message)
	wantError(t, saver.Stream(fillFromData), tessera.CodeInvalidArgument, message)
	wantError(t, saver.Finish(), tessera.CodeInvalidArgument, message)
}

func TestSaveOptionsOutsideTheirDomainAreRefused(t *testing.T) {
	options := tessera.NewSaveOptions()
	defer options.Close()
	wantError(t, options.SetProcess(2, 2), tessera.CodeInvalidArgument,
		"Argument 'process_index' is 2; expected less than 2 (num_processes)")
	wantError(t, options.SetChunkSize(0), tessera.CodeInvalidArgument, "Argument 'chunk_size' is 0; expected at least 1")
	wantError(t, options.SetProcess(-1, 2), tessera.CodeInvalidArgument, "Argument 'process_index' is -1; expected a size >= 0")
}

func TestARepeatedTensorNameIsRefused(t *testing.T) {
	saver := newSaver(t, filepath.Join(t.TempDir(), "checkpoint"), 0, 1, nil)
	layout := must(tessera.NewLayout([]string{""}, saveMesh(t)))
	defer layout.Close()
	wantError(t, saver.AddTensor("bias", "F32", layout, []int64{16}), tessera.CodeInvalidArgument,
		`Argument 'name' is "bias"; expected a name no other tensor of the save has`)
	if n := must(saver.NumTensors()); n != 3 {
		t.Fatalf("NumTensors() = %d; want 3", n)
	}
}
