// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

const sdyMesh2x4 = `sdy.mesh @mesh = <["x"=2, "y"=4]>`

// S7: P(('y', 'x')) on the 2x4 mesh is #sdy.sharding<@mesh, [{"y", "x"}, {}]>.
func TestLayoutShardyTextS7(t *testing.T) {
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"x", "y"}, cpus(8)))
	layout := must(tessera.LayoutFromPartitionSpec("P(('y', 'x'))", mesh, 2))
	if got := must(layout.ShardyText("")); got != `#sdy.sharding<@mesh, [{"y", "x"}, {}]>` {
		t.Fatalf("ShardyText = %q", got)
	}
}

func TestMeshShardyTextNamesTheMesh(t *testing.T) {
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"x", "y"}, cpus(8)))
	if got := must(mesh.ShardyText("m")); got != `sdy.mesh @m = <["x"=2, "y"=4]>` {
		t.Fatalf("ShardyText = %q", got)
	}
}

func TestMeshFromShardyTextPlacesDevicesByDeviceIds(t *testing.T) {
	want := must(tessera.NewMesh([]int64{4}, []string{"x"}, []string{"cpu:0", "cpu:2", "cpu:1", "cpu:3"}))
	got := must(tessera.MeshFromShardyText(`sdy.mesh @mesh = <["x"=4], device_ids=[0, 2, 1, 3]>`, cpus(4)))
	if !got.Equal(want) {
		t.Fatalf("mesh %v, want %v", got, want)
	}
}

// S21: the open dim {?} parses to the layout of P(UNCONSTRAINED, 'y').
func TestLayoutFromShardyTextReadsAnOpenDimS21(t *testing.T) {
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"x", "y"}, cpus(8)))
	want := must(tessera.LayoutFromPartitionSpec("P(UNCONSTRAINED, 'y')", mesh, 2))
	got := must(tessera.LayoutFromShardyText(`#sdy.sharding<@mesh, [{?}, {"y"}]>`, sdyMesh2x4, cpus(8)))
	if !got.Equal(want) {
		t.Fatalf("layout %v, want %v", got, want)
	}
}

func TestLayoutFromShardyTextRefusesASubAxis(t *testing.T) {
	_, err := tessera.LayoutFromShardyText(`#sdy.sharding<@mesh, [{"y":(2)2}]>`, sdyMesh2x4, cpus(8))
	wantError(t, err, tessera.CodeInvalidArgument,
		`Shardy sharding text: at position 26: ':' starts a sub-axis of "y": Tessera layouts have no sub-axes`)
}
