// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Memory plans of checkpoints (tessera/experimental/checkpoint_plan.h,
// experimental): will a checkpoint fit on a mesh, and on which mesh shape.

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// PlanRecipe is what the memory is planned for.
type PlanRecipe int32

const (
	PlanRecipeInference PlanRecipe = 0 // weights, plus a KV cache when PlanOptions set a batch and sequence length
	PlanRecipeTraining  PlanRecipe = 1 // weights, gradients, Adam's moments, f32 master copies of 16-bit weights
)

// PlanVerdict is whether a device's peak fits its capacity.
type PlanVerdict int32

const (
	PlanVerdictUnknown    PlanVerdict = 0 // no capacity is known for the device
	PlanVerdictFits       PlanVerdict = 1 // peak <= capacity
	PlanVerdictDoesNotFit PlanVerdict = 2 // peak > capacity
)

// AttentionShape is what a KV cache is sized from.
type AttentionShape struct {
	Layers, KVHeads, HeadDim int64
}

// PlanOptions are the settings of NewCheckpointPlan and SearchMeshShapes;
// the zero value (and nil) plans inference at the checkpoint's element
// types, strict shards, no KV cache, capacity unknown.
type PlanOptions struct {
	Recipe PlanRecipe
	// DType casts every tensor: f64, f32, f16, bf16, f8, int8, uint8 (any
	// case, long forms such as bfloat16 too) or a safetensors dtype name;
	// "": the checkpoint's types.
	DType string
	// Batch sequences of SeqLen tokens get a KV cache (inference); 0 for
	// either: none.
	Batch, SeqLen int64
	// Attention replaces the shape the checkpoint gives (GGUF metadata, a
	// config.json beside a safetensors model); the zero value keeps it.
	Attention AttentionShape
	// KVDType is the KV cache's element type (names as DType); "": the
	// planned dtype, else F16.
	KVDType string
	// Capacity is every device's, in bytes; 0: unknown.
	Capacity int64
	// DeviceCapacities are one capacity per device in mesh order (mixed
	// devices), replacing Capacity; their count must be the mesh's devices.
	DeviceCapacities []int64
	ShardMode        ShardMode
}

// raw is the C options of o (a NULL handle for nil: the defaults), to be
// deleted with swig.DeleteCheckpointPlanOptions.
func (o *PlanOptions) raw() (swig.CheckpointPlanOptions, error) {
	if o == nil {
		return swig.SwigcptrCheckpointPlanOptions(0), nil
	}
	if err := checkStrings("dtype", o.DType); err != nil {
		return nil, err
	}
	if err := checkStrings("kv_dtype", o.KVDType); err != nil {
		return nil, err
	}
	raw := swig.NewCheckpointPlanOptions()
	steps := []func(e []uintptr){
		func(e []uintptr) { raw.SetRecipe(swig.Enum_SS_tessera_plan_recipe_t(o.Recipe), e) },
		func(e []uintptr) { raw.SetShardMode(swig.Enum_SS_tessera_shard_mode_t(o.ShardMode), e) },
	}
	if o.DType != "" {
		steps = append(steps, func(e []uintptr) { raw.SetDtype(o.DType, e) })
	}
	if o.Batch != 0 || o.SeqLen != 0 {
		steps = append(steps, func(e []uintptr) { raw.SetKvCache(o.Batch, o.SeqLen, e) })
	}
	if o.Attention != (AttentionShape{}) {
		a := o.Attention
		steps = append(steps, func(e []uintptr) { raw.SetAttentionShape(a.Layers, a.KVHeads, a.HeadDim, e) })
	}
	if o.KVDType != "" {
		steps = append(steps, func(e []uintptr) { raw.SetKvDtype(o.KVDType, e) })
	}
	if o.Capacity != 0 {
		steps = append(steps, func(e []uintptr) { raw.SetCapacity(o.Capacity, e) })
	}
	if len(o.DeviceCapacities) > 0 {
		steps = append(steps, func(e []uintptr) { raw.SetDeviceCapacities(o.DeviceCapacities, e) })
	}
	for _, step := range steps {
		var e errSlot
		step(e[:])
		if err := e.take(); err != nil {
			swig.DeleteCheckpointPlanOptions(raw)
			return nil, err
		}
	}
	return raw, nil
}

// CheckpointPlan is a checkpoint's memory plan on one mesh: per tensor its
// planned type, layout and largest shard, per device the bytes of each
// memory term, the peak, the capacity and the verdict. Immutable: any number
// of goroutines may query it at once.
type CheckpointPlan struct{ p swig.CheckpointPlan }

// PlannedTensor is a tensor of the checkpoint as the plan places it.
type PlannedTensor struct {
	ElementType string  // the planned dtype, else the checkpoint's, as the format spells it
	Rule        int     // the index of the layout map's rule it matched, -1 when none (or several) did
	ShardShape  []int64 // the largest shard's shape (ceil(size / shards) per dimension)
	ShardBytes  int64   // the largest shard's bytes at its planned type
	// Problem is why its layout does not fit it (several rules, the ranks
	// differ, a dimension not divisible, a cut quantized block); "" when it
	// does.
	Problem string
}

// PlannedDevice is a device's memory in the plan, in bytes per term; a term
// the recipe does not have is 0.
type PlannedDevice struct {
	Weights        int64 // the tensors' shards
	KVCache        int64 // the KV cache's share (inference)
	Gradients      int64 // as the weights (training)
	OptimizerState int64 // Adam's two f32 moments (training)
	MasterWeights  int64 // f32 copies of 16-bit weights (training)
	Peak           int64 // the sum of the terms
	Capacity       int64 // -1 when unknown
	Verdict        PlanVerdict
}

// Headroom is Capacity - Peak: negative when the device does not fit
// (meaningless when the capacity is unknown).
func (d PlannedDevice) Headroom() int64 { return d.Capacity - d.Peak }

// NewCheckpointPlan plans c with each tensor's layout rules.Get(its name)
// on rules' mesh, fully replicated when no rule matches (options nil: the
// defaults).
func NewCheckpointPlan(c *Checkpoint, rules *LayoutMap, options *PlanOptions) (*CheckpointPlan, error) {
	rawOptions, err := options.raw()
	if err != nil {
		return nil, err
	}
	defer swig.DeleteCheckpointPlanOptions(rawOptions)
	var e errSlot
	p := wrapCheckpointPlan(swig.NewCheckpointPlan(c.raw(), rules.raw(), rawOptions, e[:]))
	runtime.KeepAlive(c)
	runtime.KeepAlive(rules)
	return p, e.take()
}

// NumTensors is the checkpoint's tensor count.
func (p *CheckpointPlan) NumTensors() (int, error) {
	n, err := keepErr(p, func(e []uintptr) int64 { return p.raw().NumTensors(e) })
	return int(n), err
}

// Tensor is tensor index, in the checkpoint's order (OUT_OF_RANGE from
// NumTensors on).
func (p *CheckpointPlan) Tensor(index int) (PlannedTensor, error) {
	var e errSlot
	raw := p.raw()
	i := int64(index)
	elementType := raw.TensorElementType(i, e[:])
	if err := e.take(); err != nil {
		return PlannedTensor{}, err
	}
	t := PlannedTensor{
		ElementType: elementType,
		Rule:        int(raw.TensorRule(i, nil)),
		ShardShape:  raw.TensorShardShape(i, nil),
		ShardBytes:  raw.TensorShardBytes(i, nil),
		Problem:     raw.TensorProblem(i, nil),
	}
	runtime.KeepAlive(p)
	return t, nil
}

// Tensors are every tensor, in the checkpoint's order.
func (p *CheckpointPlan) Tensors() ([]PlannedTensor, error) {
	return planList(p.NumTensors, p.Tensor)
}

// TensorLayout is the layout tensor index is placed with: its rule's, or
// replicated.
func (p *CheckpointPlan) TensorLayout(index int) (*Layout, error) {
	return keepErr(p, func(e []uintptr) *Layout { return wrapLayout(p.raw().TensorLayout(int64(index), e)) })
}

// NumParameters is the elements of all tensors.
func (p *CheckpointPlan) NumParameters() (int64, error) {
	return keepErr(p, func(e []uintptr) int64 { return p.raw().NumParameters(e) })
}

// WeightBytes are the bytes of all tensors, unsharded, at their planned
// types.
func (p *CheckpointPlan) WeightBytes() (int64, error) {
	return keepErr(p, func(e []uintptr) int64 { return p.raw().WeightBytes(e) })
}

// NumDevices is the mesh's device count.
func (p *CheckpointPlan) NumDevices() (int, error) {
	n, err := keepErr(p, func(e []uintptr) int64 { return p.raw().NumDevices(e) })
	return int(n), err
}

// Device is device index's memory, in mesh order (OUT_OF_RANGE from
// NumDevices on).
func (p *CheckpointPlan) Device(index int) (PlannedDevice, error) {
	var e errSlot
	raw := p.raw()
	i := int64(index)
	weights := raw.DeviceTermBytes(i, swig.TESSERA_PLAN_TERM_WEIGHTS, e[:])
	if err := e.take(); err != nil {
		return PlannedDevice{}, err
	}
	d := PlannedDevice{
		Weights:        weights,
		KVCache:        raw.DeviceTermBytes(i, swig.TESSERA_PLAN_TERM_KV_CACHE, nil),
		Gradients:      raw.DeviceTermBytes(i, swig.TESSERA_PLAN_TERM_GRADIENTS, nil),
		OptimizerState: raw.DeviceTermBytes(i, swig.TESSERA_PLAN_TERM_OPTIMIZER_STATE, nil),
		MasterWeights:  raw.DeviceTermBytes(i, swig.TESSERA_PLAN_TERM_MASTER_WEIGHTS, nil),
		Peak:           raw.DevicePeakBytes(i, nil),
		Capacity:       raw.DeviceCapacityBytes(i, nil),
		Verdict:        PlanVerdict(raw.DeviceVerdict(i, nil)),
	}
	runtime.KeepAlive(p)
	return d, nil
}

// Devices are every device's memory, in mesh order.
func (p *CheckpointPlan) Devices() ([]PlannedDevice, error) {
	return planList(p.NumDevices, p.Device)
}

// KVCacheSharding says how the KV cache is divided over the mesh ("batch 8
// over 'data' (2); ..."), or why none is planned, or "" when none was
// asked for.
func (p *CheckpointPlan) KVCacheSharding() (string, error) {
	return keepErr(p, func(e []uintptr) string { return p.raw().KvCacheSharding(e) })
}

// planList is item(0..n-1) for the n that count reports.
func planList[T any](count func() (int, error), item func(int) (T, error)) ([]T, error) {
	n, err := count()
	if err != nil {
		return nil, err
	}
	list := make([]T, n)
	for i := range list {
		if list[i], err = item(i); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// PlanCandidate is a mesh shape and layout map a checkpoint was tried on.
type PlanCandidate struct {
	MeshShape []int64 // one size per axis of the maps' mesh
	LayoutMap int     // the position of its map in the maps searched
	Peak      int64   // its largest device peak, in bytes
	// Problem is why it is rejected (a tensor whose layout does not fit, or
	// the first device over its capacity); "" when it fits.
	Problem string
}

// Fits is whether every tensor's layout fits and every device's peak fits
// its capacity.
func (c PlanCandidate) Fits() bool { return c.Problem == "" }

// SearchMeshShapes tries c on every ordered factorization of the first
// map's device count over its axes (8 devices over (data, model): 1x8, 2x4,
// 4x2, 8x1), each with each map's rules re-laid on that shape (the maps'
// meshes must have the same axes and devices; their shapes do not matter).
// The candidates that fit come first, by their largest device peak (ties in
// enumeration order: first axis smallest first, then the maps' order); the
// rejected follow in enumeration order.
func SearchMeshShapes(c *Checkpoint, options *PlanOptions, maps ...*LayoutMap) ([]PlanCandidate, error) {
	rawOptions, err := options.raw()
	if err != nil {
		return nil, err
	}
	defer swig.DeleteCheckpointPlanOptions(rawOptions)
	addresses := make([]int64, len(maps))
	for i, m := range maps {
		addresses[i] = int64(m.raw().Swigcptr())
	}
	var e errSlot
	search := swig.CheckpointPlanSearchOf(c.raw(), addresses, rawOptions, e[:])
	runtime.KeepAlive(c)
	runtime.KeepAlive(maps)
	if err := e.take(); err != nil {
		return nil, err
	}
	defer swig.DeleteCheckpointPlanSearch(search)
	candidates := make([]PlanCandidate, search.NumCandidates(nil))
	for i := range candidates {
		k := int64(i)
		candidates[i] = PlanCandidate{
			MeshShape: search.CandidateMeshShape(k, nil),
			LayoutMap: int(search.CandidateLayoutMap(k, nil)),
			Peak:      search.CandidatePeakBytes(k, nil),
			Problem:   search.CandidateProblem(k, nil),
		}
	}
	return candidates, nil
}
