// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// ShapeCheck is how a layout is checked against a tensor shape.
type ShapeCheck int32

const (
	ShapeCheckStrict ShapeCheck = 0 // every sharded dimension divisible (JAX)
	ShapeCheckChunk  ShapeCheck = 1 // uneven shards allowed (XLA, DTensor)
)

// Layout says, per tensor dimension, which mesh axes split it. Immutable.
type Layout struct{ p swig.Layout }

// NewLayout creates a layout with one axis name (or "" for replicated) per
// dimension; mesh may be nil (given later with WithMesh, or by a LayoutMap).
func NewLayout(axes []string, mesh *Mesh) (*Layout, error) {
	if err := checkStrings("axes", axes...); err != nil {
		return nil, err
	}
	var e errSlot
	l := wrapLayout(swig.NewLayout(axes, mesh.raw(), e[:]))
	runtime.KeepAlive(mesh)
	return l, e.take()
}

// NewGroupedLayout creates a layout whose dimension d is split over
// groupSizes[d] consecutive names of axisNames (0: replicated).
func NewGroupedLayout(axisNames []string, groupSizes []int, mesh *Mesh) (*Layout, error) {
	if err := checkStrings("axis_names", axisNames...); err != nil {
		return nil, err
	}
	var e errSlot
	l := wrapLayout(swig.LayoutGrouped(axisNames, toInt64s(groupSizes), mesh.raw(), e[:]))
	runtime.KeepAlive(mesh)
	return l, e.take()
}

// NewReplicatedLayout is rank replicated dimensions on mesh (may be nil).
func NewReplicatedLayout(rank int, mesh *Mesh) (*Layout, error) {
	var e errSlot
	l := wrapLayout(swig.LayoutReplicated(int64(rank), mesh.raw(), e[:]))
	runtime.KeepAlive(mesh)
	return l, e.take()
}

// WithMesh is the layout given mesh (FAILED_PRECONDITION when it has one).
func (l *Layout) WithMesh(mesh *Mesh) (*Layout, error) {
	var e errSlot
	r := wrapLayout(l.raw().WithMesh(mesh.raw(), e[:]))
	runtime.KeepAlive(l)
	runtime.KeepAlive(mesh)
	return r, e.take()
}

// Rank is the tensor rank.
func (l *Layout) Rank() int { return int(keep(l, l.raw().Rank)) }

// Mesh is the layout's mesh, nil when it has none.
func (l *Layout) Mesh() *Mesh { m := wrapMesh(l.raw().Mesh()); runtime.KeepAlive(l); return m }

// Axes is, per dimension, the axes that split it (empty: replicated).
func (l *Layout) Axes() [][]string {
	axes := make([][]string, l.Rank())
	for d := range axes {
		n := l.raw().NumAxes(int64(d), nil)
		axes[d] = make([]string, n)
		for p := range axes[d] {
			axes[d][p] = l.raw().Axis(int64(d), int64(p), nil)
		}
	}
	runtime.KeepAlive(l)
	return axes
}

// NumShards is the number of shards of dimension dim.
func (l *Layout) NumShards(dim int) (int, error) {
	n, err := keepErr(l, func(e []uintptr) int64 { return l.raw().ShardCount(int64(dim), e) })
	return int(n), err
}

// CheckShape checks the layout against a global tensor shape.
func (l *Layout) CheckShape(dims []int64, mode ShapeCheck) error {
	return keepDo(l, func(e []uintptr) { l.raw().CheckShape(dims, swig.Enum_SS_tessera_shape_check_t(mode), e) })
}

// MaxShardShape is ceil(dim / shards) per dimension.
func (l *Layout) MaxShardShape(dims []int64) ([]int64, error) {
	return keepErr(l, func(e []uintptr) []int64 { return l.raw().MaxShardShape(dims, e) })
}

// Equal reports whether both have the same axes and equal meshes (or none).
func (l *Layout) Equal(other *Layout) bool {
	v := l.raw().IsEqual(other.raw())
	runtime.KeepAlive(l)
	runtime.KeepAlive(other)
	return v
}

// String is Keras's repr ("<TensorLayout axes=('data', None), device_mesh=...>").
func (l *Layout) String() string { return keep(l, func() string { return l.raw().ToString(nil) }) }

// PartitionSpec is JAX's PartitionSpec text.
func (l *Layout) PartitionSpec() (string, error) {
	return keepErr(l, func(e []uintptr) string { return l.raw().ToPartitionSpec(e) })
}

// ToProto is the layout as serialized tessera.v1 bytes.
func (l *Layout) ToProto() ([]byte, error) {
	return keepErr(l, func(e []uintptr) []byte { return l.raw().ToProto(e) })
}

// LayoutFromProto parses serialized tessera.v1 layout bytes.
func LayoutFromProto(data []byte) (*Layout, error) {
	var e errSlot
	l := wrapLayout(swig.LayoutFromProto(data, e[:]))
	return l, e.take()
}
