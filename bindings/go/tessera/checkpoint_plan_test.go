// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// tests/capi/test_checkpoint_plan.c's model: a BF16 (8, 16) k_proj (256
// bytes) and an F32 (16) norm (64 bytes), with a config.json of 2 layers,
// 4 KV heads and head_dim 8. On the batch=2, model=4 mesh with the rule
// k_proj -> (model, None) each device holds a (2, 16) shard of k_proj (64
// bytes) and the whole norm (64).
const planHeader = `{"model.layers.0.self_attn.k_proj.weight":{"dtype":"BF16","shape":[8,16],"data_offsets":[0,256]},` +
	`"model.norm.weight":{"dtype":"F32","shape":[16],"data_offsets":[256,320]}}`

const planConfig = `{"num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 4, "hidden_size": 64}`

func openPlanModel(t *testing.T) *tessera.Checkpoint {
	t.Helper()
	path := writeSafetensors(t, "model.safetensors", planHeader, 320)
	ok(t, os.WriteFile(filepath.Join(filepath.Dir(path), "config.json"), []byte(planConfig), 0o644))
	c, err := tessera.OpenCheckpoint(path)
	ok(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func mesh24(t *testing.T) *tessera.Mesh {
	t.Helper()
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"batch", "model"}, cpus(8)))
	t.Cleanup(func() { mesh.Close() })
	return mesh
}

// planRules is the batch=2, model=4 map, with k_proj -> (model, None) when
// sharded.
func planRules(t *testing.T, sharded bool) *tessera.LayoutMap {
	t.Helper()
	mesh := mesh24(t)
	rules := must(tessera.NewLayoutMap(mesh, tessera.KeyMatchSearch))
	t.Cleanup(func() { rules.Close() })
	if sharded {
		rows := must(tessera.NewLayout([]string{"model", ""}, mesh))
		defer rows.Close()
		ok(t, rules.Set("k_proj", rows))
	}
	return rules
}

func newPlan(t *testing.T, options *tessera.PlanOptions) *tessera.CheckpointPlan {
	t.Helper()
	plan, err := tessera.NewCheckpointPlan(openPlanModel(t), planRules(t, true), options)
	ok(t, err)
	t.Cleanup(func() { plan.Close() })
	return plan
}

func TestEachPlannedTensorHasItsTypeRuleLargestShardAndBytes(t *testing.T) {
	tensors, err := newPlan(t, nil).Tensors()
	ok(t, err)
	want := []tessera.PlannedTensor{
		{ElementType: "BF16", Rule: 0, ShardShape: []int64{2, 16}, ShardBytes: 64},
		{ElementType: "F32", Rule: -1, ShardShape: []int64{16}, ShardBytes: 64},
	}
	if !reflect.DeepEqual(tensors, want) {
		t.Fatalf("Tensors() = %+v\nwant      %+v", tensors, want)
	}
}

func TestAPlannedTensorHasItsRulesLayoutOrIsReplicatedWhenNoRuleMatches(t *testing.T) {
	plan := newPlan(t, nil)
	mesh := mesh24(t)
	rows := must(tessera.NewLayout([]string{"model", ""}, mesh))
	defer rows.Close()
	replicated := must(tessera.NewReplicatedLayout(1, mesh))
	defer replicated.Close()
	kProj := must(plan.TensorLayout(0))
	defer kProj.Close()
	norm := must(plan.TensorLayout(1))
	defer norm.Close()
	if !kProj.Equal(rows) || !norm.Equal(replicated) {
		t.Fatalf("TensorLayout(0) = %v, TensorLayout(1) = %v", kProj, norm)
	}
}

func TestInferenceHoldsOnlyTheWeightsOnEveryDevice(t *testing.T) {
	plan := newPlan(t, nil)
	parameters := must(plan.NumParameters())
	weightBytes := must(plan.WeightBytes())
	devices := must(plan.Devices())
	sharding := must(plan.KVCacheSharding())
	want := tessera.PlannedDevice{Weights: 128, Peak: 128, Capacity: -1, Verdict: tessera.PlanVerdictUnknown}
	if parameters != 8*16+16 || weightBytes != 320 || len(devices) != 8 || sharding != "" {
		t.Fatalf("NumParameters() = %d, WeightBytes() = %d, %d devices, KVCacheSharding() = %q",
			parameters, weightBytes, len(devices), sharding)
	}
	for i, d := range devices {
		if d != want {
			t.Errorf("device %d = %+v, want %+v", i, d, want)
		}
	}
}

func TestTheKVCacheIsSizedFromConfigJSONAndSplitOverBatchAndHeads(t *testing.T) {
	plan := newPlan(t, &tessera.PlanOptions{Batch: 4, SeqLen: 32})
	// 2 x 2 layers x 4 x 32 x 4 KV heads x 8 x 2 bytes (F16) = 32768, over batch 2 and model 4.
	device := must(plan.Device(5))
	want := tessera.PlannedDevice{Weights: 128, KVCache: 4096, Peak: 4096 + 128, Capacity: -1}
	sharding := must(plan.KVCacheSharding())
	if device != want || sharding != "batch 4 over 'batch' (2); 4 KV heads over 'model' (4, as "+
		"'model.layers.0.self_attn.k_proj.weight'); replicated over the other axes" {
		t.Fatalf("Device(5) = %+v, KVCacheSharding() = %q", device, sharding)
	}
}

func TestAGivenAttentionShapeAndKVDTypeReplaceTheCheckpoints(t *testing.T) {
	plan := newPlan(t, &tessera.PlanOptions{Batch: 1, SeqLen: 10,
		Attention: tessera.AttentionShape{Layers: 3, KVHeads: 8, HeadDim: 4}, KVDType: "f32"})
	// 2 x 3 x 1 x 10 x 8 x 4 x 4 bytes = 7680; batch 1 unsplit, heads over model 4.
	if device := must(plan.Device(0)); device.KVCache != 1920 {
		t.Fatalf("Device(0) = %+v, want a KV cache of 1920 bytes", device)
	}
}

func TestTrainingAddsGradientsAdamMomentsAndMasterWeights(t *testing.T) {
	plan := newPlan(t, &tessera.PlanOptions{Recipe: tessera.PlanRecipeTraining})
	// Adam: (32 + 16) elements x 2 moments x 4 bytes; the f32 norm needs no master copy.
	want := tessera.PlannedDevice{Weights: 128, Gradients: 128, OptimizerState: 384, MasterWeights: 128, Peak: 768,
		Capacity: -1}
	if device := must(plan.Device(3)); device != want {
		t.Fatalf("Device(3) = %+v\nwant        %+v", device, want)
	}
}

func TestAPlannedDTypeCastsEveryTensor(t *testing.T) {
	plan := newPlan(t, &tessera.PlanOptions{DType: "int8"})
	tensor := must(plan.Tensor(1))
	device := must(plan.Device(0))
	if tensor.ElementType != "I8" || device.Weights != 32+16 {
		t.Fatalf("Tensor(1) = %+v, Device(0) = %+v", tensor, device)
	}
}

func TestADeviceFitsWhenItsPeakIsAtMostItsCapacity(t *testing.T) {
	plan := newPlan(t, &tessera.PlanOptions{DeviceCapacities: []int64{128, 127, 128, 128, 128, 128, 128, 1000}})
	devices := must(plan.Devices())
	fits := tessera.PlannedDevice{Weights: 128, Peak: 128, Capacity: 128, Verdict: tessera.PlanVerdictFits}
	over := tessera.PlannedDevice{Weights: 128, Peak: 128, Capacity: 127, Verdict: tessera.PlanVerdictDoesNotFit}
	headroom := []int64{devices[0].Headroom(), devices[1].Headroom(), devices[7].Headroom()}
	if devices[0] != fits || devices[1] != over || !reflect.DeepEqual(headroom, []int64{0, -1, 872}) {
		t.Fatalf("devices 0, 1 = %+v, %+v; headroom of 0, 1, 7 = %v", devices[0], devices[1], headroom)
	}
}

func TestTheSearchRanksFittingShapesByPeakAndSaysWhyTheOthersFail(t *testing.T) {
	candidates, err := tessera.SearchMeshShapes(openPlanModel(t), &tessera.PlanOptions{Capacity: 150},
		planRules(t, true))
	ok(t, err)
	want := []tessera.PlanCandidate{
		{MeshShape: []int64{1, 8}, Peak: 96},
		{MeshShape: []int64{2, 4}, Peak: 128},
		{MeshShape: []int64{4, 2}, Peak: 192,
			Problem: "device 0: peak 192 bytes exceeds its capacity 150 by 42 (largest term: weights 192 bytes)"},
		{MeshShape: []int64{8, 1}, Peak: 320,
			Problem: "device 0: peak 320 bytes exceeds its capacity 150 by 170 (largest term: weights 320 bytes)"},
	}
	if !reflect.DeepEqual(candidates, want) || !candidates[1].Fits() || candidates[2].Fits() {
		t.Fatalf("SearchMeshShapes = %+v\nwant             %+v", candidates, want)
	}
}

func TestTheSearchTriesEveryMapOnEveryShape(t *testing.T) {
	candidates, err := tessera.SearchMeshShapes(openPlanModel(t), nil, planRules(t, true), planRules(t, false))
	ok(t, err)
	// Ties at 320 bytes (the replicated map everywhere, the sharded one on
	// 8x1) keep the enumeration order: shape by shape, the maps in order.
	var got [][3]int64
	for _, c := range candidates {
		got = append(got, [3]int64{c.MeshShape[0], int64(c.LayoutMap), c.Peak})
	}
	want := [][3]int64{{1, 0, 96}, {2, 0, 128}, {4, 0, 192}, {1, 1, 320}, {2, 1, 320}, {4, 1, 320}, {8, 0, 320},
		{8, 1, 320}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("(first axis, map, peak) = %v\nwant                      %v", got, want)
	}
}

func TestAnUnknownPlanDTypeIsInvalidArgumentNamingIt(t *testing.T) {
	_, err := tessera.NewCheckpointPlan(openPlanModel(t), planRules(t, true), &tessera.PlanOptions{DType: "f7"})
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'dtype' is 'f7'; expected an element type: f64, f32, "+
		"f16, bf16, f8, int8, uint8 or a safetensors dtype name such as F8_E5M2")
}

func TestDeviceCapacitiesOfAnotherCountThanTheMeshAreRefused(t *testing.T) {
	_, err := tessera.NewCheckpointPlan(openPlanModel(t), planRules(t, true),
		&tessera.PlanOptions{DeviceCapacities: []int64{100}})
	wantError(t, err, tessera.CodeInvalidArgument,
		"Argument 'options' has 1 device capacities; expected 8 (the mesh's devices)")
}

func TestANilLayoutMapOfTheSearchIsInvalidArgumentNamingTheEntry(t *testing.T) {
	_, err := tessera.SearchMeshShapes(openPlanModel(t), nil, planRules(t, true), nil)
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'layout_maps[1]' is NULL; expected a valid pointer")
}

func TestAClosedCheckpointPlanIsInvalidArgumentNamingIt(t *testing.T) {
	plan := newPlan(t, nil)
	plan.Close()
	_, err := plan.Devices()
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'plan' is NULL; expected a valid pointer")
}
