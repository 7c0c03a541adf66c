// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// TF DTensor's layouts of every type, their transforms and queries
// (tessera/experimental/dtensor_layout.h; experimental: may change in a
// minor release).

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// DTensorLayoutType is DTensor's layout type (LayoutProto.LayoutType's numbers).
type DTensorLayoutType int32

const (
	DTensorLayoutEmpty        DTensorLayoutType = 0 // "empty_layout"
	DTensorLayoutStatic       DTensorLayoutType = 1 // "sharding_specs:"
	DTensorLayoutParted       DTensorLayoutType = 2 // "parted:"
	DTensorLayoutSingleDevice DTensorLayoutType = 3 // "maximal:true"
)

// DTensorLayout is a DTensor layout of any type with its whole DTensor mesh,
// as a DTensor job prints it. Immutable.
type DTensorLayout struct{ p swig.DTensorLayout }

func dtensorLayoutFrom(f func(e []uintptr) swig.DTensorLayout, keep ...any) (*DTensorLayout, error) {
	var e errSlot
	l := wrapDTensorLayout(f(e[:]))
	runtime.KeepAlive(keep)
	return l, e.take()
}

// ParseDTensorLayout reads DTensor layout text of any type
// ("sharding_specs:x,unsharded, mesh:|x=2|...", "parted:...",
// "maximal:true, mesh:<device>", "empty_layout").
func ParseDTensorLayout(text string) (*DTensorLayout, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	return dtensorLayoutFrom(func(e []uintptr) swig.DTensorLayout { return swig.DTensorLayoutParse(text, e) })
}

// NewDTensorLayout is DTensor's Layout::GetLayout: specs (mesh dims,
// "unsharded", "any", "match") over mesh; no specs for single-device and
// empty layouts.
func NewDTensorLayout(typ DTensorLayoutType, specs []string, mesh *DTensorMesh) (*DTensorLayout, error) {
	if err := checkStrings("specs", specs...); err != nil {
		return nil, err
	}
	return dtensorLayoutFrom(func(e []uintptr) swig.DTensorLayout {
		return swig.NewDTensorLayout(swig.Enum_SS_tessera_dtensor_layout_type_t(typ), specs, mesh.raw(), e)
	}, mesh)
}

// DTensorLayoutFromDevice is the single-device layout on device (Layout.from_device).
func DTensorLayoutFromDevice(device string) (*DTensorLayout, error) {
	if err := checkStrings("device", device); err != nil {
		return nil, err
	}
	return dtensorLayoutFrom(func(e []uintptr) swig.DTensorLayout { return swig.DTensorLayoutFromDevice(device, e) })
}

// Text is DTensor's text of the layout, byte for byte.
func (l *DTensorLayout) Text() (string, error) {
	return keepErr(l, func(e []uintptr) string { return l.raw().ToText(e) })
}

// Layout is the Tessera layout the DTensor layout describes (static layouts
// with mesh dims and "unsharded" specs only).
func (l *DTensorLayout) Layout() (*Layout, error) {
	return keepErr(l, func(e []uintptr) *Layout { return wrapLayout(l.raw().ToLayout(e)) })
}

// Type is the layout's type.
func (l *DTensorLayout) Type() DTensorLayoutType { return DTensorLayoutType(keep(l, l.raw().Type)) }

// Rank is the number of specs (0 for a scalar).
func (l *DTensorLayout) Rank() int { return int(keep(l, l.raw().Rank)) }

// Specs are the sharding specs, one per dimension.
func (l *DTensorLayout) Specs() []string {
	specs := make([]string, l.Rank())
	for i := range specs {
		specs[i] = l.raw().Spec(int64(i), nil)
	}
	runtime.KeepAlive(l)
	return specs
}

// Mesh is the layout's DTensor mesh, with everything its text says.
func (l *DTensorLayout) Mesh() (*DTensorMesh, error) {
	return keepErr(l, func(e []uintptr) *DTensorMesh { return wrapDTensorMesh(l.raw().Mesh(e)) })
}

// Equal is DTensor's ==: the same type, specs and mesh.
func (l *DTensorLayout) Equal(other *DTensorLayout) bool {
	v := l.raw().IsEqual(other.raw())
	runtime.KeepAlive(l)
	runtime.KeepAlive(other)
	return v
}

func (l *DTensorLayout) transform(f func(e []uintptr) swig.DTensorLayout, keep ...any) (*DTensorLayout, error) {
	return dtensorLayoutFrom(f, append(keep, l)...)
}

// ToDeviceType is the layout over its mesh converted to deviceType ("CPU":
// the host mesh).
func (l *DTensorLayout) ToDeviceType(deviceType string) (*DTensorLayout, error) {
	if err := checkStrings("device_type", deviceType); err != nil {
		return nil, err
	}
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().ToDeviceType(deviceType, e) })
}

// ToParted is Layout::ToParted: the same specs and mesh, type parted.
func (l *DTensorLayout) ToParted() (*DTensorLayout, error) {
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().ToParted(e) })
}

// Truncate is Layout::Truncate: the specs before split, or (end) from split on.
func (l *DTensorLayout) Truncate(split int, end bool) (*DTensorLayout, error) {
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().Truncate(int64(split), end, e) })
}

// LeftPad is Layout::LeftPad: "unsharded" prepended up to rank.
func (l *DTensorLayout) LeftPad(rank int) (*DTensorLayout, error) {
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().LeftPad(int64(rank), e) })
}

// ReduceDims is GetLayoutWithReducedDims: a static layout without the axes
// dims (negative ones count from the end), or with them "unsharded" when
// keepDims.
func (l *DTensorLayout) ReduceDims(dims []int, keepDims bool) (*DTensorLayout, error) {
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().ReduceDims(toInt64s(dims), keepDims, e) })
}

// RemoveDims is Python's Layout.delete: a static layout without the axes at
// the positions dims.
func (l *DTensorLayout) RemoveDims(dims []int) (*DTensorLayout, error) {
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().RemoveDims(toInt64s(dims), e) })
}

// Transpose2D is Layout::Transposed2D: the last two specs swapped.
func (l *DTensorLayout) Transpose2D() (*DTensorLayout, error) {
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().Transpose2d(e) })
}

// Concatenate is ConcatenateLayouts: l's specs then other's, on l's mesh.
func (l *DTensorLayout) Concatenate(other *DTensorLayout) (*DTensorLayout, error) {
	return l.transform(func(e []uintptr) swig.DTensorLayout { return l.raw().Concatenate(other.raw(), e) }, other)
}

// addresses are the C handles of layouts (0 for nil or closed, which C
// refuses naming the entry); the caller keeps layouts alive for the call.
func addresses(layouts []*DTensorLayout) []int64 {
	out := make([]int64, len(layouts))
	for i, l := range layouts {
		out[i] = int64(l.raw().Swigcptr())
	}
	return out
}

// MostShardedDTensorLayout is DTensor's GetMostShardedLayout (at least one
// layout), on the first one's mesh.
func MostShardedDTensorLayout(layouts ...*DTensorLayout) (*DTensorLayout, error) {
	return dtensorLayoutFrom(func(e []uintptr) swig.DTensorLayout {
		return swig.DTensorLayoutMostShardedOf(addresses(layouts), e)
	}, layouts)
}

// LeastShardedDTensorLayout is DTensor's GetLeastShardedLayout (at least one
// layout, all of one rank).
func LeastShardedDTensorLayout(layouts ...*DTensorLayout) (*DTensorLayout, error) {
	return dtensorLayoutFrom(func(e []uintptr) swig.DTensorLayout {
		return swig.DTensorLayoutLeastShardedOf(addresses(layouts), e)
	}, layouts)
}

// NumShardsPerDim is Layout::num_shards: per axis 1 for "unsharded", -1 for
// "match", else its mesh dimension's extent.
func (l *DTensorLayout) NumShardsPerDim() ([]int64, error) {
	return keepErr(l, func(e []uintptr) []int64 { return l.raw().NumShardsPerDim(e) })
}

// IsFullyReplicated is DTensor's IsFullyReplicated.
func (l *DTensorLayout) IsFullyReplicated() (bool, error) {
	return keepErr(l, func(e []uintptr) bool { return l.raw().IsFullyReplicated(e) })
}

// IsLastDimReplicated is DTensor's IsLastDimReplicated.
func (l *DTensorLayout) IsLastDimReplicated() (bool, error) {
	return keepErr(l, func(e []uintptr) bool { return l.raw().IsLastDimReplicated(e) })
}

// IsBatchParallel is DTensor's IsBatchParallel(): the first spec sharded,
// every other "unsharded".
func (l *DTensorLayout) IsBatchParallel() (bool, error) {
	return keepErr(l, func(e []uintptr) bool { return l.raw().IsBatchParallel(e) })
}

// IsBatchParallelOver is IsBatchParallel(non_batch_rank): the last
// numNonBatchDims axes have one shard each.
func (l *DTensorLayout) IsBatchParallelOver(numNonBatchDims int) (bool, error) {
	return keepErr(l, func(e []uintptr) bool { return l.raw().IsBatchParallelOver(int64(numNonBatchDims), e) })
}

func (l *DTensorLayout) compare(other *DTensorLayout, f func(e []uintptr) bool) (bool, error) {
	v, err := keepErr(l, f)
	runtime.KeepAlive(other)
	return v, err
}

// IsEquivalent is DTensor's IsEquivalent: per axis the same spec or one shard on both sides.
func (l *DTensorLayout) IsEquivalent(other *DTensorLayout) (bool, error) {
	return l.compare(other, func(e []uintptr) bool { return l.raw().IsEquivalent(other.raw(), e) })
}

// IsEquivalentIgnoringType is IsEquivalent without the type.
func (l *DTensorLayout) IsEquivalentIgnoringType(other *DTensorLayout) (bool, error) {
	return l.compare(other, func(e []uintptr) bool { return l.raw().IsEquivalentIgnoringType(other.raw(), e) })
}

// ShardVectorEqual is DTensor's ShardVector equality of the two layouts.
func (l *DTensorLayout) ShardVectorEqual(other *DTensorLayout) (bool, error) {
	return l.compare(other, func(e []uintptr) bool { return l.raw().ShardVectorEqual(other.raw(), e) })
}

// ReducedMesh is DTensor's ReducedMesh: the mesh of the layout's unique shards.
func (l *DTensorLayout) ReducedMesh() (*DTensorMesh, error) {
	return keepErr(l, func(e []uintptr) *DTensorMesh { return wrapDTensorMesh(l.raw().ReducedMesh(e)) })
}

// ShardVectorText is GetShardVector's text
// ("shards:[(1,1),(2,1)] num_shards_per_dim:(2,1)").
func (l *DTensorLayout) ShardVectorText() (string, error) {
	return keepErr(l, func(e []uintptr) string { return l.raw().ShardVectorText(e) })
}

// HostShardVectorText is HostShardMap()[host] as text (host "/job:J/task:T").
func (l *DTensorLayout) HostShardVectorText(host string) (string, error) {
	if err := checkStrings("host", host); err != nil {
		return "", err
	}
	return keepErr(l, func(e []uintptr) string { return l.raw().HostShardVectorText(host, e) })
}

// OffsetToShard is Python's offset_to_shard()[offset]: per axis the
// coordinate of the device at mesh position offset (0 when unsharded).
func (l *DTensorLayout) OffsetToShard(offset int) ([]int64, error) {
	return keepErr(l, func(e []uintptr) []int64 { return l.raw().OffsetToShard(int64(offset), e) })
}

// OffsetTupleToGlobalIndex is Python's offset_tuple_to_global_index.
func (l *DTensorLayout) OffsetTupleToGlobalIndex(offsets []int64) (int64, error) {
	return keepErr(l, func(e []uintptr) int64 { return l.raw().OffsetTupleToGlobalIndex(offsets, e) })
}

// LocalShapeFromGlobal is LocalShapeFromGlobalShape: each extent divided by
// its shard count (integer division, as DTensor).
func (l *DTensorLayout) LocalShapeFromGlobal(globalShape []int64) ([]int64, error) {
	return keepErr(l, func(e []uintptr) []int64 { return l.raw().LocalShapeFromGlobal(globalShape, e) })
}

// GlobalShapeFromLocal is GlobalShapeFromLocalShape; localShapes (nil, or
// one per local device, each as long as localShape) make a dynamic axis the
// sum of its shards.
func (l *DTensorLayout) GlobalShapeFromLocal(localShape []int64, localShapes [][]int64) ([]int64, error) {
	flat := make([]int64, 0, len(localShapes)*len(localShape))
	for k, s := range localShapes {
		if len(s) != len(localShape) {
			return nil, invalidArgument("Argument 'local_shapes' entry %d has %d extents; expected the local shape's %d",
				k, len(s), len(localShape))
		}
		flat = append(flat, s...)
	}
	return keepErr(l, func(e []uintptr) []int64 {
		return l.raw().GlobalShapeFromLocal(localShape, flat, int64(len(localShapes)), e)
	})
}

// IsDynamicDTensorExtent is DTensor's IsDynamicSize: -1 (TensorFlow) or
// math.MinInt64 (MLIR's kDynamic).
func IsDynamicDTensorExtent(extent int64) bool { return swig.DTensorLayoutIsDynamicExtent(extent) }
