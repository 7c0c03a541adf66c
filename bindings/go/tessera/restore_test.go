// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"bytes"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// Restores of save_test.go's 2-process checkpoint (saved on the 2x4 mesh)
// on other meshes, layouts and process counts.

// restoreRules are the rules on mesh: tensor name -> axes (no rule:
// replicated).
func restoreRules(t *testing.T, mesh *tessera.Mesh, axes map[string][]string) *tessera.LayoutMap {
	t.Helper()
	rules := must(tessera.NewLayoutMap(mesh, tessera.KeyMatchFull))
	t.Cleanup(func() { rules.Close() })
	for name, a := range axes {
		layout := must(tessera.NewLayout(a, mesh))
		ok(t, rules.Set(name, layout))
		layout.Close()
	}
	return rules
}

// wantRestored checks every piece of plan against the original arrays: its
// box is the device's shard under the restoring layout, and buffers[i]
// holds the original array's bytes of that box.
func wantRestored(t *testing.T, plan *tessera.ReadPlan, buffers [][]byte, mesh *tessera.Mesh,
	axes map[string][]string, tensors []int) {
	t.Helper()
	pieces := must(plan.Pieces())
	for i, piece := range pieces {
		saved := savedTensors[tensors[piece.Tensor]]
		a, found := axes[saved.name]
		if !found {
			a = make([]string, len(saved.shape))
		}
		layout := must(tessera.NewLayout(a, mesh))
		sharding := must(tessera.NewSharding(layout, saved.shape, tessera.ShardModeStrict))
		wantRanges := must(sharding.DeviceRanges(piece.Device))
		sharding.Close()
		layout.Close()
		if !reflect.DeepEqual(piece.Ranges, wantRanges) {
			t.Fatalf("piece %d (%s on device %d) has ranges %v; want %v", i, saved.name, piece.Device, piece.Ranges, wantRanges)
		}
		want := boxBytes(savedData(tensors[piece.Tensor]), saved.shape, 4, piece.Ranges)
		if !bytes.Equal(buffers[i], want) {
			t.Fatalf("piece %d (%s %v on device %d) restored %v; want %v", i, saved.name, piece.Ranges, piece.Device,
				buffers[i], want)
		}
	}
}

func TestTheIndexListsEveryTensorAndItsStoredPieces(t *testing.T) {
	dir := saveJob(t)
	index := must(tessera.OpenCheckpointIndex(dir))
	defer index.Close()
	if n := must(index.NumProcesses()); n != 2 {
		t.Fatalf("NumProcesses() = %d; want 2", n)
	}
	wantFiles := []string{filepath.Join(dir, "process-00000-of-00002.safetensors"),
		filepath.Join(dir, "process-00001-of-00002.safetensors")}
	if files := must(index.Files()); !reflect.DeepEqual(files, wantFiles) {
		t.Fatalf("Files() = %q; want %q", files, wantFiles)
	}
	rows := func(start, stop int64) tessera.Range { return tessera.Range{Start: start, Stop: stop} }
	want := []tessera.IndexedTensor{
		{Name: "row", ElementType: "F32", Shape: []int64{8, 16}, Pieces: []tessera.StoredPiece{
			{Ranges: []tessera.Range{rows(0, 4), rows(0, 16)}, File: 0},
			{Ranges: []tessera.Range{rows(4, 8), rows(0, 16)}, File: 1},
		}},
		{Name: "col", ElementType: "F32", Shape: []int64{8, 16}, Pieces: []tessera.StoredPiece{
			{Ranges: []tessera.Range{rows(0, 8), rows(0, 4)}, File: 0},
			{Ranges: []tessera.Range{rows(0, 8), rows(4, 8)}, File: 0},
			{Ranges: []tessera.Range{rows(0, 8), rows(8, 12)}, File: 0},
			{Ranges: []tessera.Range{rows(0, 8), rows(12, 16)}, File: 0},
		}},
		{Name: "bias", ElementType: "F32", Shape: []int64{16}, Pieces: []tessera.StoredPiece{
			{Ranges: []tessera.Range{rows(0, 16)}, File: 0},
		}},
	}
	if tensors := must(index.Tensors()); !reflect.DeepEqual(tensors, want) {
		t.Fatalf("Tensors() = %+v\nwant       %+v", tensors, want)
	}
}

func TestTheIndexGivesTheShardingATensorWasSavedUnder(t *testing.T) {
	index := must(tessera.OpenCheckpointIndex(saveJob(t)))
	defer index.Close()
	sharding := must(index.TensorSharding(1))
	defer sharding.Close()
	// col (-, model) on the 2x4 mesh: device 5 is (batch 1, model 1).
	ranges := must(sharding.DeviceRanges(5))
	if want := []tessera.Range{{Start: 0, Stop: 8}, {Start: 4, Stop: 8}}; !reflect.DeepEqual(ranges, want) {
		t.Fatalf("DeviceRanges(5) = %v; want %v", ranges, want)
	}
	if n := sharding.NumDevices(); n != 8 {
		t.Fatalf("NumDevices() = %d; want 8", n)
	}
}

func TestATensorPastTheEndIsOutOfRange(t *testing.T) {
	index := must(tessera.OpenCheckpointIndex(saveJob(t)))
	defer index.Close()
	_, err := index.Tensor(3)
	wantError(t, err, tessera.CodeOutOfRange, "Argument 'index' is 3; expected less than 3 (the checkpoint's tensors)")
}

func TestOneProcessRestoresATwoProcessSaveOnAnotherMeshAndLayout(t *testing.T) {
	index := must(tessera.OpenCheckpointIndex(saveJob(t)))
	defer index.Close()
	// 4x2 instead of 2x4; row's columns and col's rows are split now, bias
	// has no rule (replicated).
	mesh := must(tessera.NewMesh([]int64{4, 2}, []string{"x", "y"}, cpus(8)))
	defer mesh.Close()
	axes := map[string][]string{"row": {"y", "x"}, "col": {"x", ""}}
	plan := must(tessera.NewRestorePlan(index, restoreRules(t, mesh, axes), nil, nil))
	defer plan.Close()
	buffers := must(plan.AllocateBuffers())
	read, err := plan.Load(buffers, nil)
	ok(t, err)
	if len(buffers) != 24 || read != must(plan.TotalBytes()) {
		t.Fatalf("%d pieces, read %d bytes of %d; want 24 pieces (8 devices x 3 tensors), all read",
			len(buffers), read, must(plan.TotalBytes()))
	}
	wantRestored(t, plan, buffers, mesh, axes, []int{0, 1, 2})
}

func TestAProcessOfAnotherJobReadsExactlyTheOverlapOfItsShards(t *testing.T) {
	index := must(tessera.OpenCheckpointIndex(saveJob(t)))
	defer index.Close()
	mesh := must(tessera.NewMesh([]int64{8}, []string{"d"}, cpus(8)))
	defer mesh.Close()
	axes := map[string][]string{"row": {"d", ""}, "col": {"", "d"}}
	options := tessera.NewReadOptions()
	defer options.Close()
	ok(t, options.SetProcess(1, 4))
	ok(t, options.SetCoalesceGap(0))
	plan := must(tessera.NewRestorePlan(index, restoreRules(t, mesh, axes), nil, options))
	defer plan.Close()
	// Process 1 of 4 owns devices 2 and 3: row's rows [2:4] (128 bytes),
	// col's columns [4:8] (128 bytes, the whole of a stored piece) and bias
	// (64 bytes, once for both devices).
	if total := must(plan.TotalBytes()); total != 320 {
		t.Fatalf("TotalBytes() = %d; want 320", total)
	}
	buffers := must(plan.AllocateBuffers())
	var mu sync.Mutex
	read, err := plan.LoadEach(func(piece int, offset int64, b []byte) bool {
		mu.Lock()
		defer mu.Unlock()
		copy(buffers[piece][offset:], b)
		return true
	}, nil)
	ok(t, err)
	if read != 320 {
		t.Fatalf("LoadEach read %d bytes; want 320", read)
	}
	wantRestored(t, plan, buffers, mesh, axes, []int{0, 1, 2})
}

func TestARequestRestoresItsTensorsInItsOrder(t *testing.T) {
	index := must(tessera.OpenCheckpointIndex(saveJob(t)))
	defer index.Close()
	mesh := must(tessera.NewMesh([]int64{2}, []string{"d"}, cpus(2)))
	defer mesh.Close()
	axes := map[string][]string{"row": {"", "d"}}
	request := tessera.NewRestoreRequest()
	defer request.Close()
	ok(t, request.AddTensor("bias", "F32", []int64{16}))
	ok(t, request.AddTensor("row", "", nil))
	plan := must(tessera.NewRestorePlan(index, restoreRules(t, mesh, axes), request, nil))
	defer plan.Close()
	buffers := must(plan.AllocateBuffers())
	_, err := plan.Load(buffers, nil)
	ok(t, err)
	var order []int
	for _, piece := range must(plan.Pieces()) {
		order = append(order, piece.Tensor)
	}
	if want := []int{0, 1, 0, 1}; !reflect.DeepEqual(order, want) {
		t.Fatalf("pieces' tensors %v; want %v (bias, row per device)", order, want)
	}
	wantRestored(t, plan, buffers, mesh, axes, []int{2, 0})
}

// requestPlan is the error of a restore plan of the checkpoint in dir on 2
// devices, without rules, for the request add fills.
func requestPlan(t *testing.T, dir string, add func(r *tessera.RestoreRequest)) error {
	t.Helper()
	index := must(tessera.OpenCheckpointIndex(dir))
	defer index.Close()
	mesh := must(tessera.NewMesh([]int64{2}, []string{"d"}, cpus(2)))
	defer mesh.Close()
	request := tessera.NewRestoreRequest()
	defer request.Close()
	add(request)
	plan, err := tessera.NewRestorePlan(index, restoreRules(t, mesh, nil), request, nil)
	plan.Close()
	return err
}

func TestATensorTheCheckpointDoesNotHoldIsNotFound(t *testing.T) {
	dir := saveJob(t)
	err := requestPlan(t, dir, func(r *tessera.RestoreRequest) { ok(t, r.AddTensor("v", "", nil)) })
	wantError(t, err, tessera.CodeNotFound, "Tensor 'v' is not in the checkpoint "+dir)
}

func TestARequestedShapeOtherThanTheStoredOneIsRefused(t *testing.T) {
	err := requestPlan(t, saveJob(t), func(r *tessera.RestoreRequest) { ok(t, r.AddScalar("bias", "F32")) })
	wantError(t, err, tessera.CodeInvalidArgument,
		"Tensor 'bias' is requested with shape [] but the checkpoint stores shape [16]; expected the same shape")
}

func TestARequestedDTypeOtherThanTheStoredOneIsRefused(t *testing.T) {
	err := requestPlan(t, saveJob(t), func(r *tessera.RestoreRequest) { ok(t, r.AddTensor("row", "BF16", nil)) })
	wantError(t, err, tessera.CodeInvalidArgument,
		"Tensor 'row' is requested as BF16 but the checkpoint stores F32; expected the same dtype")
}

func TestASaveThatDidNotFinishHasNoIndex(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "checkpoint")
	saver := newSaver(t, dir, 0, 1, nil)
	setShards(t, saver, 0, 1)
	ok(t, saver.Write())
	_, err := tessera.OpenCheckpointIndex(dir)
	wantError(t, err, tessera.CodeFailedPrecondition,
		dir+": no tessera-index.json; the save did not finish, or "+dir+" is no Tessera checkpoint")
}

func TestAnUnevenSaveRestoresUnevenlyOnAnotherDeviceCount(t *testing.T) {
	// odd U8 [5] over 2 devices in chunks: [0:3] and [3:5]; restored over 3:
	// [0:2], [2:4] and [4:5].
	dir := filepath.Join(t.TempDir(), "checkpoint")
	odd := []byte{10, 11, 12, 13, 14}
	twoDevices := must(tessera.NewMesh([]int64{2}, []string{"d"}, cpus(2)))
	defer twoDevices.Close()
	layout := must(tessera.NewLayout([]string{"d"}, twoDevices))
	defer layout.Close()
	options := tessera.NewSaveOptions()
	defer options.Close()
	ok(t, options.SetShardMode(tessera.ShardModeChunkNested))
	saver := must(tessera.NewSaver(dir, options))
	defer saver.Close()
	ok(t, saver.AddTensor("odd", "U8", layout, []int64{5}))
	ok(t, saver.SetShard(0, 0, odd[0:3]))
	ok(t, saver.SetShard(0, 1, odd[3:5]))
	ok(t, saver.Write())
	ok(t, saver.Finish())

	index := must(tessera.OpenCheckpointIndex(dir))
	defer index.Close()
	pieces := must(index.Tensor(0)).Pieces
	if want := []tessera.StoredPiece{{Ranges: []tessera.Range{{Start: 0, Stop: 3}}}, {Ranges: []tessera.Range{{Start: 3, Stop: 5}}}}; !reflect.DeepEqual(pieces, want) {
		t.Fatalf("stored pieces %+v; want %+v", pieces, want)
	}
	mesh := must(tessera.NewMesh([]int64{3}, []string{"d"}, cpus(3)))
	defer mesh.Close()
	readOptions := tessera.NewReadOptions()
	defer readOptions.Close()
	ok(t, readOptions.SetShardMode(tessera.ShardModeChunkNested))
	plan := must(tessera.NewRestorePlan(index, restoreRules(t, mesh, map[string][]string{"odd": {"d"}}), nil, readOptions))
	defer plan.Close()
	buffers := must(plan.AllocateBuffers())
	_, err := plan.Load(buffers, nil)
	ok(t, err)
	if want := [][]byte{{10, 11}, {12, 13}, {14}}; !reflect.DeepEqual(buffers, want) {
		t.Fatalf("restored %v; want %v", buffers, want)
	}
}
