// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// The sharding queries beyond sharding.go: processes, the index map,
// distinct shards, shard sizes, and the resharding plan's transfers.

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// DeviceInProcess reports whether the device at logical index device
// belongs to process processIndex.
func (s *Sharding) DeviceInProcess(device int, processIndex int) (bool, error) {
	return keepErr(s, func(e []uintptr) bool {
		return s.raw().DeviceInProcess(int64(device), int64(processIndex), e)
	})
}

// AddressableDevices are the logical indices of process processIndex's
// devices, in mesh order.
func (s *Sharding) AddressableDevices(processIndex int) ([]int, error) {
	devices, err := keepErr(s, func(e []uintptr) []int64 { return s.raw().AddressableDevices(int64(processIndex), e) })
	return toInts(devices), err
}

// IndexMap is every device's ranges (JAX's devices_indices_map), by logical index.
func (s *Sharding) IndexMap() ([][]Range, error) {
	var e errSlot
	flat := s.raw().IndexMap(e[:])
	runtime.KeepAlive(s)
	if err := e.take(); err != nil {
		return nil, err
	}
	rank := s.Rank()
	out := make([][]Range, s.NumDevices())
	for i := range out {
		if (i+1)*2*rank <= len(flat) {
			out[i] = pairs(flat[i*2*rank : (i+1)*2*rank])
		}
	}
	return out, nil
}

// NumDistinctShards is the number of different shards (replicas counted once).
func (s *Sharding) NumDistinctShards() (int, error) {
	var e errSlot
	v := s.raw().NumDistinctShards(e[:])
	runtime.KeepAlive(s)
	return int(v), e.take()
}

// DistinctShardRanges are the ranges of distinct shard shard.
func (s *Sharding) DistinctShardRanges(shard int) ([]Range, error) {
	var e errSlot
	flat := s.raw().DistinctShardRanges(int64(shard), e[:])
	runtime.KeepAlive(s)
	if err := e.take(); err != nil {
		return nil, err
	}
	return pairs(flat), nil
}

// DistinctShardDevices are the logical indices of the devices holding distinct shard shard.
func (s *Sharding) DistinctShardDevices(shard int) ([]int, error) {
	devices, err := keepErr(s, func(e []uintptr) []int64 { return s.raw().DistinctShardDevices(int64(shard), e) })
	return toInts(devices), err
}

// ShardSize is the byte size of the device's shard for elementSize-byte elements.
func (s *Sharding) ShardSize(device int, elementSize int) (int, error) {
	size, err := keepErr(s, func(e []uintptr) int64 {
		return s.raw().ShardSize(int64(device), int64(elementSize), e)
	})
	return int(size), err
}

// TransferLocality says where a transfer's two ends are.
type TransferLocality int32

// The localities (tessera_transfer_locality_t).
const (
	TransferLocalitySameDevice   TransferLocality = 0
	TransferLocalitySameProcess  TransferLocality = 1
	TransferLocalityCrossProcess TransferLocality = 2
)

// Transfer is one copy of a resharding plan: the box Ranges of the global
// tensor moves from logical device Source (of the source sharding) to
// Destination (of the destination sharding).
type Transfer struct {
	Source, Destination int
	Bytes               int
	Locality            TransferLocality
	Ranges              []Range
}

// Transfer is transfer index of the plan.
func (p *ReshardPlan) Transfer(index int) (Transfer, error) {
	var e errSlot
	v := p.raw().Transfer(int64(index), e[:])
	if err := e.take(); err != nil {
		return Transfer{}, err
	}
	flat := p.raw().TransferRanges(int64(index), e[:])
	runtime.KeepAlive(p)
	if err := e.take(); err != nil {
		return Transfer{}, err
	}
	if len(v) != 4 {
		return Transfer{}, &Error{Code: CodeResourceExhausted, Message: "out of memory", SourceProcess: -1}
	}
	return Transfer{Source: int(v[0]), Destination: int(v[1]), Bytes: int(v[2]), Locality: TransferLocality(v[3]),
		Ranges: pairs(flat)}, nil
}

// TotalBytes is the bytes the plan moves with the given locality.
func (p *ReshardPlan) TotalBytes(locality TransferLocality) (int, error) {
	total, err := keepErr(p, func(e []uintptr) int64 {
		return p.raw().TotalBytes(swig.Enum_SS_tessera_transfer_locality_t(locality), e)
	})
	return int(total), err
}
