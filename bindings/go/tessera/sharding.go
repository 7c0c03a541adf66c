// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// ShardMode is how a dimension is cut into shards.
type ShardMode int32

const (
	ShardModeStrict      ShardMode = 0 // divisible dimensions only (JAX)
	ShardModeChunkFlat   ShardMode = 1 // uneven, a group splits once (XLA)
	ShardModeChunkNested ShardMode = 2 // uneven, axis by axis (DTensor, PyTorch)
)

// Range is a half-open index range [Start, Stop) of one dimension.
type Range struct{ Start, Stop int64 }

// Sharding is a layout applied to one global shape. Immutable.
type Sharding struct {
	p    swig.Sharding
	dims []int64 // the global shape, for Gather's element count
}

// NewSharding creates the sharding of layout (which has a mesh) for a
// tensor of global shape dims.
func NewSharding(layout *Layout, dims []int64, mode ShardMode) (*Sharding, error) {
	var e errSlot
	s := wrapSharding(swig.NewSharding(layout.raw(), dims, swig.Enum_SS_tessera_shard_mode_t(mode), e[:]))
	runtime.KeepAlive(layout)
	if s != nil {
		s.dims = append([]int64(nil), dims...)
	}
	return s, e.take()
}

// Rank is the tensor rank.
func (s *Sharding) Rank() int { return int(keep(s, s.raw().Rank)) }

// NumDevices is the number of devices in the mesh.
func (s *Sharding) NumDevices() int { return int(keep(s, s.raw().NumDevices)) }

// pairs turns [start0, stop0, start1, stop1, ...] into ranges.
func pairs(flat []int64) []Range {
	r := make([]Range, len(flat)/2)
	for d := range r {
		r[d] = Range{flat[2*d], flat[2*d+1]}
	}
	return r
}

// DeviceRanges is the index range of every dimension held by the device at
// logical index device.
func (s *Sharding) DeviceRanges(device int) ([]Range, error) {
	var e errSlot
	flat := s.raw().DeviceRanges(int64(device), e[:])
	runtime.KeepAlive(s)
	if err := e.take(); err != nil {
		return nil, err
	}
	return pairs(flat), nil
}

// ShardShape is the shape of the device's shard.
func (s *Sharding) ShardShape(device int) ([]int64, error) {
	return keepErr(s, func(e []uintptr) []int64 { return s.raw().ShardShape(int64(device), e) })
}

// ReplicaID is the device's replica id (JAX's device_replica_id_map).
func (s *Sharding) ReplicaID(device int) (int, error) {
	id, err := keepErr(s, func(e []uintptr) int64 { return s.raw().ReplicaId(int64(device), e) })
	return int(id), err
}

// MaxShardShape is the largest shard's shape.
func (s *Sharding) MaxShardShape() ([]int64, error) {
	return keepErr(s, func(e []uintptr) []int64 { return s.raw().MaxShardShape(e) })
}

// IsFullyReplicated reports whether every device holds the whole tensor.
func (s *Sharding) IsFullyReplicated() (bool, error) {
	return keepErr(s, func(e []uintptr) bool { return s.raw().IsFullyReplicated(e) })
}

// ReshardPlan is the transfers that turn one sharding into another.
type ReshardPlan struct{ p swig.ReshardPlan }

// NewReshardPlan plans moving a tensor of elementSize-byte elements from
// source to destination.
func NewReshardPlan(source, destination *Sharding, elementSize int) (*ReshardPlan, error) {
	var e errSlot
	p := wrapReshardPlan(swig.NewReshardPlan(source.raw(), destination.raw(), int64(elementSize), e[:]))
	runtime.KeepAlive(source)
	runtime.KeepAlive(destination)
	return p, e.take()
}

// NumTransfers is the number of transfers.
func (p *ReshardPlan) NumTransfers() int {
	return int(keep(p, p.raw().NumTransfers))
}

// DTensorMesh is a TF DTensor mesh (its text form and ids). Immutable.
type DTensorMesh struct{ p swig.DTensorMesh }

// ParseDTensorMesh parses DTensor's mesh text
// ("|x=2,y=4|0,1,...|0,1,...|/job:localhost/.../device:CPU:0,...").
func ParseDTensorMesh(text string) (*DTensorMesh, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapDTensorMesh(swig.DTensorMeshParse(text, e[:]))
	return m, e.take()
}

// DTensorMeshFromMesh is mesh as a DTensor mesh named name, seen from
// process processIndex.
func DTensorMeshFromMesh(mesh *Mesh, name string, processIndex int, useXLASPMD bool) (*DTensorMesh, error) {
	if err := checkStrings("name", name); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapDTensorMesh(swig.DTensorMeshFromMesh(mesh.raw(), name, int64(processIndex), useXLASPMD, e[:]))
	runtime.KeepAlive(mesh)
	return m, e.take()
}

// Text is DTensor's text form.
func (m *DTensorMesh) Text() (string, error) {
	return keepErr(m, func(e []uintptr) string { return m.raw().ToText(e) })
}

// Rank is the number of mesh dimensions.
func (m *DTensorMesh) Rank() int { return int(keep(m, m.raw().Rank)) }
