// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// XLA's HloSharding as a value (tessera/experimental/hlo_sharding.h,
// experimental): parsed and printed as XLA does, read, and turned into a
// layout where one exists.

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// HloSharding is an XLA HloSharding (tuples and V3 named shardings aside).
type HloSharding struct{ p swig.HloSharding }

// HloShardingKind is the form of an HloSharding.
type HloShardingKind int32

// The forms, as tessera_hlo_sharding_kind_t numbers them.
const (
	HloShardingReplicated HloShardingKind = 0 // {replicated}
	HloShardingMaximal    HloShardingKind = 1 // {maximal device=N}
	HloShardingTiled      HloShardingKind = 2 // {devices=[...]...}
	HloShardingManual     HloShardingKind = 3 // {manual}
	HloShardingUnknown    HloShardingKind = 4 // {unknown}
	HloShardingUnreduced  HloShardingKind = 5 // {unreduced}
)

// ParseHloSharding parses HloSharding text as XLA's parser does.
func ParseHloSharding(text string) (*HloSharding, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	var e errSlot
	h := wrapHloSharding(swig.NewHloSharding(text, e[:]))
	return h, e.take()
}

// HloShardingFromLayout is the sharding JAX builds for l on a tensor of
// rank dims, with manualAxes as mesh axes of type Manual.
func HloShardingFromLayout(l *Layout, rank int, manualAxes []string) (*HloSharding, error) {
	if err := checkStrings("manual_axes", manualAxes...); err != nil {
		return nil, err
	}
	var e errSlot
	h := wrapHloSharding(swig.HloShardingFromLayout(l.raw(), int64(rank), manualAxes, e[:]))
	runtime.KeepAlive(l)
	return h, e.take()
}

// Text is the sharding as XLA prints it.
func (h *HloSharding) Text() (string, error) {
	return textOf(func(e []uintptr) string { return h.raw().ToText(e) }, h)
}

// Layout is the layout on m that produces h for a tensor of rank dims, or
// an error saying why none does.
func (h *HloSharding) Layout(m *Mesh, rank int) (*Layout, error) {
	l, err := layoutFrom(func(e []uintptr) swig.Layout { return h.raw().ToLayout(m.raw(), int64(rank), e) }, h)
	runtime.KeepAlive(m)
	return l, err
}

// Kind is the form of h.
func (h *HloSharding) Kind() HloShardingKind {
	k := HloShardingKind(h.raw().Kind())
	runtime.KeepAlive(h)
	return k
}

// MaximalDevice is N of {maximal device=N}.
func (h *HloSharding) MaximalDevice() (int64, error) {
	return keepErr(h, func(e []uintptr) int64 { return h.raw().MaximalDevice(e) })
}

// TileDims are the tile assignment dims, subgroup dims included.
func (h *HloSharding) TileDims() ([]int64, error) {
	return keepErr(h, func(e []uintptr) []int64 { return h.raw().TileDims(e) })
}

// TileDevices are the logical indices of the tiles, row-major (V1).
func (h *HloSharding) TileDevices() ([]int64, error) {
	return keepErr(h, func(e []uintptr) []int64 { return h.raw().TileDevices(e) })
}

// SubgroupTypes are the xla.OpSharding types of the trailing subgroup dims.
func (h *HloSharding) SubgroupTypes() ([]int64, error) {
	return keepErr(h, func(e []uintptr) []int64 { return h.raw().SubgroupTypes(e) })
}
