// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// A (4, 3) tensor of 4-byte elements on a (2, 4) mesh x, y: dimension 0
// split over x, dimension 1 replicated. Device i (mesh order) is at
// (i / 4, i % 4), so devices 0-3 hold rows 0-1 and devices 4-7 rows 2-3.
const copyElementSize = 4

func copySharding(t *testing.T) *tessera.Sharding {
	t.Helper()
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"x", "y"}, cpus(8)))
	defer mesh.Close()
	layout := must(tessera.NewLayout([]string{"x", ""}, mesh))
	defer layout.Close()
	s := must(tessera.NewSharding(layout, []int64{4, 3}, tessera.ShardModeStrict))
	t.Cleanup(func() { s.Close() })
	return s
}

// The tensor's bytes: byte i is i (48 bytes).
func copyGlobal() []byte {
	global := make([]byte, 4*3*copyElementSize)
	for i := range global {
		global[i] = byte(i)
	}
	return global
}

func TestScatterGivesEachDeviceItsRows(t *testing.T) {
	s := copySharding(t)
	global := copyGlobal()
	shards := must(s.ScatterBytes(global, copyElementSize, nil))
	if len(shards) != 8 {
		t.Fatalf("Scatter gave %d shards, want 8", len(shards))
	}
	for device, shard := range shards {
		rows := global[:24] // rows 0-1
		if device >= 4 {
			rows = global[24:] // rows 2-3
		}
		if !bytes.Equal(shard, rows) {
			t.Errorf("device %d holds % x, want % x", device, shard, rows)
		}
	}
}

func TestGatherOfScatterIsTheTensor(t *testing.T) {
	s := copySharding(t)
	opts := tessera.NewCopyOptions()
	defer opts.Close()
	ok(t, opts.SetThreads(4))
	ok(t, opts.SetVerifyReplicas(true))
	global := copyGlobal()
	shards := must(s.ScatterBytes(global, copyElementSize, opts))
	got := must(s.GatherBytes(shards, copyElementSize, len(global), opts))
	if !bytes.Equal(got, global) {
		t.Fatalf("Gather(Scatter(x)) = % x, want % x", got, global)
	}
}

func TestAppendingToAScatteredShardLeavesTheNextAlone(t *testing.T) {
	s := copySharding(t)
	shards := must(s.ScatterBytes(copyGlobal(), copyElementSize, nil))
	_ = append(shards[0], 0xff)
	if shards[1][0] != 0 {
		t.Fatalf("appending to shard 0 changed shard 1 to % x", shards[1])
	}
}

func TestGatherWithVerifyReplicasFindsADifferingReplica(t *testing.T) {
	s := copySharding(t)
	opts := tessera.NewCopyOptions()
	defer opts.Close()
	ok(t, opts.SetVerifyReplicas(true))
	shards := must(s.ScatterBytes(copyGlobal(), copyElementSize, nil))
	shards[2][5] = 0xee // device 2 is replica 2 of device 0's shard
	_, err := s.GatherBytes(shards, copyElementSize, 48, opts)
	wantError(t, err, tessera.CodeDataLoss, "The shard of device 2 (replica 2) differs from the shard of "+
		"device 0 (replica 0) at byte offset 5 of the shard buffer (238 vs 5)")
}

func TestGatherRejectsAShardOfTheWrongSize(t *testing.T) {
	s := copySharding(t)
	shards := must(s.ScatterBytes(copyGlobal(), copyElementSize, nil))
	shards[3] = shards[3][:23]
	_, err := s.GatherBytes(shards, copyElementSize, 48, nil)
	wantError(t, err, tessera.CodeInvalidArgument,
		"Argument 'shards' entry 3 is 23 bytes; expected 24 (the shard of device 3)")
}

func TestGatherRejectsAMissingShard(t *testing.T) {
	s := copySharding(t)
	shards := must(s.ScatterBytes(copyGlobal(), copyElementSize, nil))
	_, err := s.GatherBytes(shards[:7], copyElementSize, 48, nil)
	wantError(t, err, tessera.CodeInvalidArgument,
		"Argument 'shards' has 7 entries; expected 8 (one buffer per device of the mesh)")
}

func TestScatterRejectsAGlobalOfTheWrongSize(t *testing.T) {
	s := copySharding(t)
	_, err := s.ScatterBytes(copyGlobal()[:47], copyElementSize, nil)
	wantError(t, err, tessera.CodeInvalidArgument,
		"Argument 'global_size' is 47; expected 48 ((4, 3) elements of 4 bytes)")
}

func TestNegativeSizesAreRejectedBeforeTheCall(t *testing.T) {
	s := copySharding(t)
	_, err := s.ScatterBytes(copyGlobal(), -4, nil)
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'element_size' is -4; expected a size >= 0")
	opts := tessera.NewCopyOptions()
	defer opts.Close()
	wantError(t, opts.SetThreads(-1), tessera.CodeInvalidArgument, "Argument 'threads' is -1; expected a size >= 0")
}

func TestCopyOptionsRejectAProcessIndexBelowMinusOne(t *testing.T) {
	opts := tessera.NewCopyOptions()
	defer opts.Close()
	// -2 reaches the C size_t as 2^64 - 2: beyond int64, so OUT_OF_RANGE.
	wantError(t, opts.SetProcessIndex(-2), tessera.CodeOutOfRange,
		"Argument 'process_index' is 18446744073709551614; expected at most 9223372036854775807")
}

func TestScatterForAProcessWithoutDevicesLeavesEveryShardZero(t *testing.T) {
	s := copySharding(t) // every device is in process 0
	opts := tessera.NewCopyOptions()
	defer opts.Close()
	ok(t, opts.SetProcessIndex(1))
	shards := must(s.ScatterBytes(copyGlobal(), copyElementSize, opts))
	zero := make([]byte, 24)
	for device, shard := range shards {
		if !bytes.Equal(shard, zero) {
			t.Errorf("device %d holds % x, want 24 zero bytes", device, shard)
		}
	}
}

// The (4, 3) tensor as float32s 0..11.
func copyFloats() []float32 {
	global := make([]float32, 12)
	for i := range global {
		global[i] = float32(i)
	}
	return global
}

func TestScatterOfFloat32sGivesEachDeviceItsRows(t *testing.T) {
	shards := must(tessera.Scatter(copySharding(t), copyFloats(), nil))
	want := [][]float32{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}}
	for device, shard := range shards {
		if !reflect.DeepEqual(shard, want[device/4]) {
			t.Errorf("device %d holds %v, want %v", device, shard, want[device/4])
		}
	}
	if len(shards) != 8 {
		t.Fatalf("Scatter gave %d shards, want 8", len(shards))
	}
}

func TestGatherOfScatteredComplex128sIsTheTensor(t *testing.T) {
	s := copySharding(t)
	global := make([]complex128, 12)
	for i := range global {
		global[i] = complex(float64(i), -float64(i))
	}
	got := must(tessera.Gather(s, must(tessera.Scatter(s, global, nil)), nil))
	if !reflect.DeepEqual(got, global) {
		t.Fatalf("Gather(Scatter(x)) = %v, want %v", got, global)
	}
}

func TestScatterRejectsATypedGlobalOfTheWrongLength(t *testing.T) {
	_, err := tessera.Scatter(copySharding(t), copyFloats()[:11], nil)
	wantError(t, err, tessera.CodeInvalidArgument,
		"Argument 'global_size' is 44; expected 48 ((4, 3) elements of 4 bytes)")
}
