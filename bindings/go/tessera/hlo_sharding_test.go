// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

func TestHloShardingPrintsAsXla(t *testing.T) {
	h, err := tessera.ParseHloSharding("{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}")
	ok(t, err)
	defer h.Close()
	text, err := h.Text()
	ok(t, err)
	if want := "{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}"; text != want {
		t.Fatalf("Text() = %q, want %q", text, want)
	}
	if h.Kind() != tessera.HloShardingTiled {
		t.Fatalf("Kind() = %v, want tiled", h.Kind())
	}
	types, err := h.SubgroupTypes()
	ok(t, err)
	if !reflect.DeepEqual(types, []int64{4, 0}) {
		t.Fatalf("SubgroupTypes() = %v", types)
	}
	dims, err := h.TileDims()
	ok(t, err)
	devices, err := h.TileDevices()
	ok(t, err)
	if !reflect.DeepEqual(dims, []int64{1, 1, 2, 2}) || !reflect.DeepEqual(devices, []int64{0, 2, 1, 3}) {
		t.Fatalf("TileDims() = %v, TileDevices() = %v", dims, devices)
	}
}

func TestManualHloShardingHasNoLayout(t *testing.T) {
	h, err := tessera.ParseHloSharding("{manual}")
	ok(t, err)
	defer h.Close()
	m := mesh42(t, "x", "y")
	defer m.Close()
	_, err = h.Layout(m, 2)
	wantError(t, err, tessera.CodeInvalidArgument,
		"HloSharding {manual}: 'manual' sharding has no layout equivalent (a layout says which part of the tensor each device holds)")
	if _, err := h.MaximalDevice(); err == nil {
		t.Fatal("MaximalDevice() of {manual}: no error")
	}
}

func TestHloShardingFromLayoutWithAManualAxis(t *testing.T) {
	m := mesh42(t, "x", "y")
	defer m.Close()
	l, err := tessera.NewLayout([]string{"", ""}, m)
	ok(t, err)
	defer l.Close()
	h, err := tessera.HloShardingFromLayout(l, 2, []string{"x"})
	ok(t, err)
	defer h.Close()
	text, err := h.Text()
	ok(t, err)
	if want := "{devices=[1,1,4,2]<=[8] last_tile_dims={manual, replicated}}"; text != want {
		t.Fatalf("Text() = %q, want %q", text, want)
	}
	back, err := tessera.ParseHloSharding("{devices=[4,2]<=[8]}")
	ok(t, err)
	defer back.Close()
	layout, err := back.Layout(m, 2)
	ok(t, err)
	defer layout.Close()
}
