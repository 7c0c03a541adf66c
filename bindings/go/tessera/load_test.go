// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"bytes"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// A checkpoint whose data byte i is i: w U8 [4, 6] (data [0, 24)) with the
// rule w -> (x, y) on a 2x2 mesh, and b U8 [6] (data [24, 30)) with no rule
// (replicated). Process 0 of 2 owns devices 0 (x0, y0) and 1 (x0, y1):
// w's rows [0, 2), columns [0, 3) and [3, 6), and the whole of b on each.
const loadHeader = `{"w":{"dtype":"U8","shape":[4,6],"data_offsets":[0,24]},` +
	`"b":{"dtype":"U8","shape":[6],"data_offsets":[24,30]}}`

// The data area's first byte, absolute in the file.
const loadDataStart = 8 + int64(len(loadHeader))

// Each piece's bytes, numpy's array[box].tobytes() of the bytes written.
var loadShards = [][]byte{
	{0, 1, 2, 6, 7, 8},       // device 0, w: rows [0, 2), columns [0, 3)
	{24, 25, 26, 27, 28, 29}, // device 0, b
	{3, 4, 5, 9, 10, 11},     // device 1, w: rows [0, 2), columns [3, 6)
	{24, 25, 26, 27, 28, 29}, // device 1, b
}

// loadPlan is process 0 of 2's plan over that checkpoint, with the
// options' settings applied.
func loadPlan(t *testing.T, settings func(o *tessera.ReadOptions)) (*tessera.ReadPlan, string) {
	t.Helper()
	path := writeSafetensors(t, "model.safetensors", loadHeader, 30)
	c, err := tessera.OpenCheckpoint(path)
	ok(t, err)
	defer c.Close()
	mesh := must(tessera.NewMesh([]int64{2, 2}, []string{"x", "y"}, cpus(4)))
	defer mesh.Close()
	rules := must(tessera.NewLayoutMap(mesh, tessera.KeyMatchFull))
	defer rules.Close()
	layout := must(tessera.NewLayout([]string{"x", "y"}, mesh))
	defer layout.Close()
	ok(t, rules.Set("w", layout))
	options := tessera.NewReadOptions()
	defer options.Close()
	ok(t, options.SetProcess(0, 2))
	if settings != nil {
		settings(options)
	}
	plan, err := tessera.NewReadPlan(c, rules, options)
	ok(t, err)
	t.Cleanup(func() { plan.Close() })
	return plan, path
}

func TestAReadPlanHasOnePiecePerDeviceOfTheProcessAndTensor(t *testing.T) {
	plan, _ := loadPlan(t, nil)
	pieces, err := plan.Pieces()
	ok(t, err)
	w0 := []tessera.Range{{Start: 0, Stop: 2}, {Start: 0, Stop: 3}}
	w1 := []tessera.Range{{Start: 0, Stop: 2}, {Start: 3, Stop: 6}}
	b := []tessera.Range{{Start: 0, Stop: 6}}
	want := []tessera.ReadPiece{
		{Device: 0, Tensor: 0, Ranges: w0, Shape: []int64{2, 3}, Size: 6},
		{Device: 0, Tensor: 1, Ranges: b, Shape: []int64{6}, Size: 6},
		{Device: 1, Tensor: 0, Ranges: w1, Shape: []int64{2, 3}, Size: 6},
		{Device: 1, Tensor: 1, Ranges: b, Shape: []int64{6}, Size: 6},
	}
	if !reflect.DeepEqual(pieces, want) {
		t.Fatalf("Pieces() = %+v\nwant      %+v", pieces, want)
	}
}

func TestAReadPlanReadsEachFileRangeOnceWithoutGaps(t *testing.T) {
	plan, _ := loadPlan(t, func(o *tessera.ReadOptions) { ok(t, o.SetCoalesceGap(0)) })
	ranges, err := plan.FileRanges(0)
	ok(t, err)
	total, err := plan.TotalBytes()
	ok(t, err)
	// w's rows [0, 2) and b, each once although both devices hold b.
	want := []tessera.Range{{Start: loadDataStart, Stop: loadDataStart + 12}, {Start: loadDataStart + 24, Stop: loadDataStart + 30}}
	if !reflect.DeepEqual(ranges, want) || total != 18 {
		t.Fatalf("FileRanges(0) = %v, TotalBytes() = %d; want %v, 18", ranges, total, want)
	}
}

func TestLoadFillsEachPiecesBufferWithItsShardsBytes(t *testing.T) {
	plan, _ := loadPlan(t, nil)
	buffers, err := plan.AllocateBuffers()
	ok(t, err)
	read, err := plan.Load(buffers, nil)
	ok(t, err)
	if !reflect.DeepEqual(buffers, loadShards) || read != 30 {
		t.Fatalf("Load read %d bytes into %v; want 30 into %v", read, buffers, loadShards)
	}
}

func TestLoadReportsProgressUpToTheTotal(t *testing.T) {
	plan, _ := loadPlan(t, nil)
	buffers, err := plan.AllocateBuffers()
	ok(t, err)
	var last [2]int64
	_, err = plan.Load(buffers, func(done, total int64) bool {
		last = [2]int64{done, total}
		return true
	})
	ok(t, err)
	if last != [2]int64{30, 30} || !reflect.DeepEqual(buffers, loadShards) {
		t.Fatalf("last progress %v, buffers %v", last, buffers)
	}
}

func TestAProgressThatReturnsFalseCancelsTheLoad(t *testing.T) {
	plan, _ := loadPlan(t, func(o *tessera.ReadOptions) {
		ok(t, o.SetCoalesceGap(0))
		ok(t, o.SetThreads(1))
	})
	buffers, err := plan.AllocateBuffers()
	ok(t, err)
	_, err = plan.Load(buffers, func(done, total int64) bool { return false })
	wantError(t, err, tessera.CodeCancelled, "The progress callback cancelled the load after 12 of 18 bytes")
}

func TestABufferOfTheWrongSizeIsInvalidArgumentNamingIt(t *testing.T) {
	plan, _ := loadPlan(t, nil)
	buffers, err := plan.AllocateBuffers()
	ok(t, err)
	buffers[1] = buffers[1][:5]
	_, err = plan.Load(buffers, nil)
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'sizes[1]' is 5; expected 6, the bytes of piece 1")
}

func TestLoadEachHandsEveryByteOfEveryPieceOnce(t *testing.T) {
	plan, _ := loadPlan(t, nil)
	got := make([][]byte, len(loadShards))
	for i := range got {
		got[i] = bytes.Repeat([]byte{0xff}, 6)
	}
	var mu sync.Mutex
	calls := 0
	read, err := plan.LoadEach(func(piece int, offset int64, b []byte) bool {
		mu.Lock()
		defer mu.Unlock()
		// Each byte once: a second write would find it already taken.
		for i, v := range b {
			if got[piece][offset+int64(i)] != 0xff {
				t.Errorf("piece %d byte %d delivered twice", piece, offset+int64(i))
			}
			got[piece][offset+int64(i)] = v
		}
		calls++
		return true
	}, nil)
	ok(t, err)
	if !reflect.DeepEqual(got, loadShards) || read != 30 || calls == 0 {
		t.Fatalf("LoadEach read %d bytes in %d calls into %v; want 30 into %v", read, calls, got, loadShards)
	}
}

func TestAPieceCallbackThatPanicsCancelsTheLoadAndPanicsInTheCaller(t *testing.T) {
	plan, _ := loadPlan(t, func(o *tessera.ReadOptions) { ok(t, o.SetThreads(1)) })
	defer func() {
		if r := recover(); fmt.Sprint(r) != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
	}()
	plan.LoadEach(func(int, int64, []byte) bool { panic("boom") }, nil)
	t.Fatal("LoadEach returned")
}

func TestAClosedReadPlanIsInvalidArgumentNamingIt(t *testing.T) {
	plan, _ := loadPlan(t, nil)
	plan.Close()
	_, err := plan.Load(nil, nil)
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'plan' is NULL; expected a valid pointer")
}

func TestAnEmptyTensorsPiecesLoadIntoEmptySlices(t *testing.T) {
	path := writeSafetensors(t, "empty.safetensors",
		`{"b":{"dtype":"U8","shape":[6],"data_offsets":[0,6]},"e":{"dtype":"U8","shape":[0],"data_offsets":[6,6]}}`, 6)
	c := must(tessera.OpenCheckpoint(path))
	defer c.Close()
	mesh := must(tessera.NewMesh([]int64{2}, []string{"x"}, cpus(2)))
	defer mesh.Close()
	rules := must(tessera.NewLayoutMap(mesh, tessera.KeyMatchFull))
	defer rules.Close()
	plan := must(tessera.NewReadPlan(c, rules, nil))
	defer plan.Close()
	buffers := must(plan.AllocateBuffers())
	read, err := plan.Load(buffers, nil)
	ok(t, err)
	want := [][]byte{{0, 1, 2, 3, 4, 5}, {}, {0, 1, 2, 3, 4, 5}, {}}
	if !reflect.DeepEqual(buffers, want) || read != 6 {
		t.Fatalf("Load read %d bytes into %v; want 6 into %v", read, buffers, want)
	}
}
