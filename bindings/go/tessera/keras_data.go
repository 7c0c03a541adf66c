// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// Keras's interleave sharding of arrays, PyDatasets and samplers, and a
// distribution's settings (experimental: tessera/experimental/keras_data.h).

// UnknownBatchSize is the global batch size PlanDataset and
// PlanDatasetForProcess read as "unknown" (an unbatched dataset).
const UnknownBatchSize = -1

// InterleaveBatches is the global batch positions shard shardIndex of
// numShards reads out of numBatches, round-robin; with dropLast only below
// the last multiple of numShards (Keras's DistributedBatchSampler).
func InterleaveBatches(numBatches, numShards, shardIndex int, dropLast bool) ([]int, error) {
	var e errSlot
	v := swig.DistributionInterleaveBatches(int64(numBatches), int64(numShards), int64(shardIndex), dropLast, e[:])
	return toInts(v), e.take()
}

// InterleaveBatchItems is the item indices shard shardIndex reads when
// numItems items come in batches of batchSize and whole batches are
// interleaved (Keras's ArrayDataAdapter).
func InterleaveBatchItems(numItems, batchSize, numShards, shardIndex int, dropLast bool) ([]int, error) {
	var e errSlot
	v := swig.DistributionInterleaveBatchItems(int64(numItems), int64(batchSize), int64(numShards),
		int64(shardIndex), dropLast, e[:])
	return toInts(v), e.take()
}

// InterleaveSamples is the sample indices rank shardIndex of numShards reads
// from numItems samples as torch's DistributedSampler deals them (padded by
// repeating from the start, or cut with dropLast).
func InterleaveSamples(numItems, numShards, shardIndex int, dropLast bool) ([]int, error) {
	var e errSlot
	v := swig.DistributionInterleaveSamples(int64(numItems), int64(numShards), int64(shardIndex), dropLast, e[:])
	return toInts(v), e.take()
}

// InterleaveSamplesShuffled is the sample indices rank shardIndex of
// numShards reads from torch's DistributedSampler(shuffle=True, seed=seed)
// after set_epoch(epoch): torch's seeded permutation of numItems (torch 2.15,
// bit for bit), dealt as InterleaveSamples deals 0..numItems-1. Every rank of
// one seed and epoch reads from one permutation. seed + epoch wraps as torch
// reads a negative Python sum.
func InterleaveSamplesShuffled(numItems, numShards, shardIndex int, dropLast bool, seed, epoch int64) ([]int, error) {
	var e errSlot
	v := swig.DistributionInterleaveSamplesShuffled(int64(numItems), int64(numShards), int64(shardIndex), dropLast,
		seed, epoch, e[:])
	return toInts(v), e.take()
}

// InterleaveNumShards is the interleave shard count this process uses for
// arrays and PyDatasets: NumDataShards when auto-sharding, else 1.
func (d *Distribution) InterleaveNumShards() int { return int(keep(d, d.raw().InterleaveNumShards)) }

// InterleaveShardIndex is the interleave shard this process reads.
func (d *Distribution) InterleaveShardIndex() int { return int(keep(d, d.raw().InterleaveShardIndex)) }

// PlanDatasetForProcess is the plan process processIndex of the job gets.
func (d *Distribution) PlanDatasetForProcess(globalBatchSize, processIndex int) (*DatasetPlan, error) {
	return keepErr(d, func(e []uintptr) *DatasetPlan {
		return wrapDatasetPlan(d.raw().PlanDatasetForProcess(int64(globalBatchSize), int64(processIndex), e))
	})
}

// AutoShardDataset is whether the distribution auto-shards datasets.
func (d *Distribution) AutoShardDataset() bool { return keep(d, d.raw().AutoShardDataset) }

// ShapeCheck is how variable layouts are checked against shapes.
func (d *Distribution) ShapeCheck() ShapeCheck { return ShapeCheck(keep(d, d.raw().ShapeCheck)) }

// DatasetMode is which Keras dataset arithmetic the distribution follows.
func (d *Distribution) DatasetMode() DatasetMode { return DatasetMode(keep(d, d.raw().DatasetMode)) }

// LayoutMap is a ModelParallel's layout map (a copy); nil for DataParallel.
func (d *Distribution) LayoutMap() (*LayoutMap, error) {
	return keepErr(d, func(e []uintptr) *LayoutMap { return wrapLayoutMap(d.raw().LayoutMap(e)) })
}

// IsBatchParallel is whether input batches are split along the batch axis.
func (d *Distribution) IsBatchParallel() bool { return keep(d, d.raw().IsBatchParallel) }

// IsSame is whether d and other are the same distribution object (the
// current distribution in a scope is the scope's distribution).
func (d *Distribution) IsSame(other *Distribution) (bool, error) {
	var e errSlot
	same := d.raw().IsSame(other.raw(), e[:])
	runtime.KeepAlive(d)
	runtime.KeepAlive(other)
	return same, e.take()
}

// InterleaveNumShards is the interleave shard count the plan was made with.
func (p *DatasetPlan) InterleaveNumShards() int { return int(keep(p, p.raw().InterleaveNumShards)) }

// InterleaveShardIndex is the interleave shard of the planned process.
func (p *DatasetPlan) InterleaveShardIndex() int { return int(keep(p, p.raw().InterleaveShardIndex)) }
