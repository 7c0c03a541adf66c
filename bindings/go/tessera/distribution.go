// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// DistributionKind is DataParallel or ModelParallel.
type DistributionKind int32

const (
	DistributionKindDataParallel  DistributionKind = 0
	DistributionKindModelParallel DistributionKind = 1
)

// DatasetMode is which Keras dataset arithmetic a distribution follows.
type DatasetMode int32

const (
	DatasetModeCurrent  DatasetMode = 0
	DatasetModeKeras3_0 DatasetMode = 1
)

// DatasetPlanKind is how a process reads a dataset.
type DatasetPlanKind int32

const (
	DatasetPlanKindPassthrough DatasetPlanKind = 0
	DatasetPlanKindReplicate   DatasetPlanKind = 1
	DatasetPlanKindShard       DatasetPlanKind = 2
)

// DistributionOptions are options for creating a distribution. Mutable; one
// goroutine at a time.
type DistributionOptions struct{ p swig.DistributionOptions }

// NewDistributionOptions is the defaults: auto-shard on, strict shape
// check, current dataset mode, process info from the runtime.
func NewDistributionOptions() *DistributionOptions {
	return wrapDistributionOptions(swig.NewDistributionOptions())
}

// SetAutoShardDataset says whether the dataset plan shards at all.
func (o *DistributionOptions) SetAutoShardDataset(on bool) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetAutoShardDataset(on, e) })
}

// SetShapeCheck sets how variable layouts are checked against shapes.
func (o *DistributionOptions) SetShapeCheck(mode ShapeCheck) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetShapeCheck(swig.Enum_SS_tessera_shape_check_t(mode), e) })
}

// SetDatasetMode sets which dataset arithmetic to follow.
func (o *DistributionOptions) SetDatasetMode(mode DatasetMode) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetDatasetMode(swig.Enum_SS_tessera_dataset_mode_t(mode), e) })
}

// SetProcess overrides the process count and index read from the runtime.
func (o *DistributionOptions) SetProcess(numProcesses, processIndex int) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetProcess(int64(numProcesses), int64(processIndex), e) })
}

// Distribution is a DataParallel or ModelParallel policy. Immutable.
type Distribution struct{ p swig.Distribution }

// NewDataParallel is DataParallel over mesh (its first axis is the batch
// axis); options may be nil.
func NewDataParallel(mesh *Mesh, options *DistributionOptions) (*Distribution, error) {
	var e errSlot
	d := wrapDistribution(swig.DistributionDataParallel(mesh.raw(), options.raw(), e[:]))
	runtime.KeepAlive(mesh)
	runtime.KeepAlive(options)
	return d, e.take()
}

// NewModelParallel is ModelParallel over the layout map's mesh (a snapshot
// of the map); batchDimName "" means the mesh's first axis.
func NewModelParallel(layoutMap *LayoutMap, batchDimName string, options *DistributionOptions) (*Distribution, error) {
	if err := checkStrings("batch_dim_name", batchDimName); err != nil {
		return nil, err
	}
	var e errSlot
	d := wrapDistribution(swig.DistributionModelParallel(layoutMap.raw(), batchDimName, options.raw(), e[:]))
	runtime.KeepAlive(layoutMap)
	runtime.KeepAlive(options)
	return d, e.take()
}

// Kind is DataParallel or ModelParallel.
func (d *Distribution) Kind() DistributionKind {
	return DistributionKind(keep(d, d.raw().Kind))
}

// Mesh is the distribution's mesh.
func (d *Distribution) Mesh() *Mesh { return wrapMesh(keep(d, d.raw().Mesh)) }

// BatchDimName is the batch axis.
func (d *Distribution) BatchDimName() string {
	return keep(d, d.raw().BatchDimName)
}

// NumProcesses is P, read at creation.
func (d *Distribution) NumProcesses() int {
	return int(keep(d, d.raw().NumProcesses))
}

// ProcessIndex is this process's index, read at creation.
func (d *Distribution) ProcessIndex() int { return int(keep(d, d.raw().ProcessIndex)) }

// NumModelReplicas is R.
func (d *Distribution) NumModelReplicas() int {
	return int(keep(d, d.raw().NumModelReplicas))
}

// NumDataShards is S = min(R, P).
func (d *Distribution) NumDataShards() int {
	return int(keep(d, d.raw().NumDataShards))
}

// DataShardIndex is this process's data shard.
func (d *Distribution) DataShardIndex() int {
	return int(keep(d, d.raw().DataShardId))
}

// DataLayout is the layout of an input batch of shape dims.
func (d *Distribution) DataLayout(dims []int64) (*Layout, error) {
	return keepErr(d, func(e []uintptr) *Layout { return wrapLayout(d.raw().DataLayout(dims, e)) })
}

// VariableLayout is the layout of the variable at path with shape dims:
// explicit when not nil, else the layout map's rule, else replicated; then
// checked against the shape.
func (d *Distribution) VariableLayout(path string, dims []int64, explicit *Layout) (*Layout, error) {
	if err := checkStrings("path", path); err != nil {
		return nil, err
	}
	var e errSlot
	l := wrapLayout(d.raw().VariableLayout(path, dims, explicit.raw(), e[:]))
	runtime.KeepAlive(d)
	runtime.KeepAlive(explicit)
	return l, e.take()
}

// PlanDataset is how this process reads a dataset of globalBatchSize rows
// per step.
func (d *Distribution) PlanDataset(globalBatchSize int) (*DatasetPlan, error) {
	return keepErr(d, func(e []uintptr) *DatasetPlan {
		return wrapDatasetPlan(d.raw().PlanDataset(int64(globalBatchSize), e))
	})
}

// String is Keras's repr.
func (d *Distribution) String() string {
	return keep(d, func() string { return d.raw().ToString(nil) })
}

// DatasetPlan is how this process reads a dataset. Immutable.
type DatasetPlan struct{ p swig.DatasetPlan }

// Kind is passthrough, replicate or shard.
func (p *DatasetPlan) Kind() DatasetPlanKind {
	return DatasetPlanKind(keep(p, p.raw().Kind))
}

// PerProcessBatchSize is the rows this process reads per step.
func (p *DatasetPlan) PerProcessBatchSize() int {
	return int(keep(p, p.raw().PerProcessBatchSize))
}

// NumShards is the number of shards (1 unless Kind is DatasetPlanKindShard).
func (p *DatasetPlan) NumShards() int { return int(keep(p, p.raw().NumShards)) }

// ShardIndex is this process's shard.
func (p *DatasetPlan) ShardIndex() int { return int(keep(p, p.raw().ShardIndex)) }
