// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// CheckpointPlan and its search (tests/capi/test_checkpoint_plan.c's model):
// a BF16 (8, 16) k_proj (256 bytes) and an F32 (16) norm (64 bytes), with a
// config.json of 2 layers, 4 KV heads and head_dim 8, on the batch=2, model=4
// mesh with the rule k_proj -> (model, None): each device holds a (2, 16)
// shard of k_proj (64 bytes) and the whole norm (64).
using System;
using System.IO;
using System.Linq;

namespace Tessera.Tests {

public static class CheckpointPlanTests {
  const string Header =
      "{\"model.layers.0.self_attn.k_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[8,16],\"data_offsets\":[0,256]}," +
      "\"model.norm.weight\":{\"dtype\":\"F32\",\"shape\":[16],\"data_offsets\":[256,320]}}";
  const string Config =
      "{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"num_key_value_heads\": 4, \"hidden_size\": 64}";

  static Mesh Mesh24() {
    return new Mesh(new long[] {2, 4}, new[] {"batch", "model"}, Enumerable.Range(0, 8).Select(i => "cpu:" + i).ToArray());
  }

  /* The batch=2, model=4 map, with k_proj -> (model, None) when `sharded`. */
  static LayoutMap Rules(bool sharded) {
    using (var mesh = Mesh24()) {
      var rules = new LayoutMap(mesh, KeyMatch.Search);
      if (sharded) {
        using (var rows = new Layout(new[] {"model", null}, mesh)) rules.Set("k_proj", rows);
      }
      return rules;
    }
  }

  /* Runs `test` on the model's checkpoint (with its config.json beside it), then removes the files. */
  static void WithModel(Action<Checkpoint> test) {
    string path = CheckpointTests.WriteSafetensors("model.safetensors", Header, 320);
    try {
      File.WriteAllText(Path.Combine(Path.GetDirectoryName(path), "config.json"), Config);
      using (var checkpoint = new Checkpoint(path)) test(checkpoint);
    } finally {
      CheckpointTests.Remove(path);
    }
  }

  /* Runs `test` on the model's plan with the sharded map and `configure` applied to its options. */
  static void WithPlan(Action<CheckpointPlanOptions> configure, Action<CheckpointPlan> test) {
    WithModel(checkpoint => {
      using (var rules = Rules(true))
      using (var options = new CheckpointPlanOptions()) {
        configure(options);
        using (var plan = new CheckpointPlan(checkpoint, rules, options)) test(plan);
      }
    });
  }

  static string Describe(PlannedDevice d) {
    return "weights " + d.Weights + ", kv " + d.KvCache + ", gradients " + d.Gradients + ", optimizer " +
           d.OptimizerState + ", master " + d.MasterWeights + ", peak " + d.Peak + ", capacity " + d.Capacity +
           ", " + d.Verdict;
  }

  [Test]
  public static void EachTensorHasItsTypeRuleLargestShardAndBytes() {
    WithPlan(options => {}, plan => {
      var tensors = plan.Tensors();
      Assert.Equal(new[] {"BF16", "F32"}, tensors.Select(t => t.ElementType).ToArray(), "element types");
      Assert.Equal(new long[] {0, -1}, tensors.Select(t => t.Rule).ToArray(), "rules");
      Assert.Equal(new long[] {2, 16}, tensors[0].ShardShape, "k_proj shard shape");
      Assert.Equal(new long[] {16}, tensors[1].ShardShape, "norm shard shape");
      Assert.Equal(new long[] {64, 64}, tensors.Select(t => t.ShardBytes).ToArray(), "shard bytes");
      Assert.Equal(new[] {"", ""}, tensors.Select(t => t.Problem).ToArray(), "problems");
    });
  }

  [Test]
  public static void ATensorHasItsRulesLayoutOrIsReplicatedWhenNoRuleMatches() {
    WithPlan(options => {}, plan => {
      using (var mesh = Mesh24())
      using (var rows = new Layout(new[] {"model", null}, mesh))
      using (var replicated = Layout.Replicated(1, mesh))
      using (var kProj = plan.TensorLayout(0))
      using (var norm = plan.TensorLayout(1)) {
        Assert.Equal(rows, kProj, "k_proj");
        Assert.Equal(replicated, norm, "norm");
      }
    });
  }

  [Test]
  public static void InferenceHoldsOnlyTheWeightsOnEveryDevice() {
    WithPlan(options => {}, plan => {
      Assert.Equal(8L * 16 + 16, plan.NumParameters(), "parameters");
      Assert.Equal(320L, plan.WeightBytes(), "weight bytes");
      Assert.Equal(Enumerable.Repeat("weights 128, kv 0, gradients 0, optimizer 0, master 0, peak 128, capacity -1, Unknown", 8).ToArray(),
                   plan.Devices().Select(Describe).ToArray(), "devices");
      Assert.Equal("", plan.KvCacheSharding(), "kv cache");
    });
  }

  [Test]
  public static void TheKvCacheIsSizedFromConfigJsonAndSplitOverBatchAndHeads() {
    WithPlan(options => options.SetKvCache(4, 32), plan => {
      // 2 x 2 layers x 4 x 32 x 4 KV heads x 8 x 2 bytes (F16) = 32768, over batch 2 and model 4.
      Assert.Equal("weights 128, kv 4096, gradients 0, optimizer 0, master 0, peak 4224, capacity -1, Unknown",
                   Describe(plan.Device(5)), "device 5");
      Assert.Equal("batch 4 over 'batch' (2); 4 KV heads over 'model' (4, as " +
                   "'model.layers.0.self_attn.k_proj.weight'); replicated over the other axes",
                   plan.KvCacheSharding(), "kv cache");
    });
  }

  [Test]
  public static void TrainingAddsGradientsAdamMomentsAndMasterWeights() {
    WithPlan(options => options.SetRecipe(PlanRecipe.Training), plan => {
      // Adam: (32 + 16) elements x 2 moments x 4 bytes; the f32 norm needs no master copy.
      Assert.Equal("weights 128, kv 0, gradients 128, optimizer 384, master 128, peak 768, capacity -1, Unknown",
                   Describe(plan.Device(3)), "device 3");
      Assert.Equal(384L, plan.DeviceTermBytes(3, PlanTerm.OptimizerState), "optimizer state");
    });
  }

  [Test]
  public static void ADeviceFitsWhenItsPeakIsAtMostItsCapacity() {
    WithPlan(options => options.SetDeviceCapacities(new long[] {128, 127, 128, 128, 128, 128, 128, 1000}), plan => {
      Assert.Equal("weights 128, kv 0, gradients 0, optimizer 0, master 0, peak 128, capacity 128, Fits",
                   Describe(plan.Device(0)), "device 0");
      Assert.Equal("weights 128, kv 0, gradients 0, optimizer 0, master 0, peak 128, capacity 127, DoesNotFit",
                   Describe(plan.Device(1)), "device 1");
      Assert.Equal(new long[] {0, -1, 872}, new[] {plan.Device(0).Headroom, plan.Device(1).Headroom,
                                                  plan.Device(7).Headroom}, "headroom");
    });
  }

  [Test]
  public static void TheSearchRanksFittingShapesByPeakAndSaysWhyTheOthersFail() {
    WithModel(checkpoint => {
      using (var rules = Rules(true))
      using (var options = new CheckpointPlanOptions()) {
        options.SetCapacity(150);
        using (var search = CheckpointPlan.Search(checkpoint, options, rules)) {
          var candidates = search.Candidates();
          Assert.Equal(new[] {"1x8", "2x4", "4x2", "8x1"},
                       candidates.Select(c => string.Join("x", c.MeshShape)).ToArray(), "shapes");
          Assert.Equal(new long[] {96, 128, 192, 320}, candidates.Select(c => c.Peak).ToArray(), "peaks");
          Assert.Equal(new long[] {0, 0, 0, 0}, candidates.Select(c => c.LayoutMap).ToArray(), "maps");
          Assert.Equal(new[] {"", "",
                              "device 0: peak 192 bytes exceeds its capacity 150 by 42 (largest term: weights 192 bytes)",
                              "device 0: peak 320 bytes exceeds its capacity 150 by 170 (largest term: weights 320 bytes)"},
                       candidates.Select(c => c.Problem).ToArray(), "problems");
          Assert.Equal(new[] {true, true, false, false}, candidates.Select(c => c.Fits).ToArray(), "fits");
        }
      }
    });
  }

  [Test]
  public static void TheSearchTriesEveryMapOnEveryShape() {
    WithModel(checkpoint => {
      using (var sharded = Rules(true))
      using (var replicated = Rules(false))
      using (var search = CheckpointPlan.Search(checkpoint, null, sharded, replicated)) {
        // Ties at 320 bytes (the replicated map everywhere, the sharded one on 8x1) keep the
        // enumeration order: shape by shape, each with the maps in their order.
        Assert.Equal(new[] {"1x8 map 0: 96", "2x4 map 0: 128", "4x2 map 0: 192", "1x8 map 1: 320", "2x4 map 1: 320",
                            "4x2 map 1: 320", "8x1 map 0: 320", "8x1 map 1: 320"},
                     search.Candidates().Select(c => string.Join("x", c.MeshShape) + " map " + c.LayoutMap + ": " +
                                                     c.Peak).ToArray(), "candidates");
      }
    });
  }

  [Test]
  public static void AnUnknownDtypeIsInvalidArgumentNamingIt() {
    using (var options = new CheckpointPlanOptions()) {
      var e = Assert.Throws(Code.InvalidArgument, "", () => options.SetDtype("f7"));
      Assert.Equal("Argument 'dtype' is 'f7'; expected an element type: f64, f32, f16, bf16, f8, int8, uint8 or a " +
                   "safetensors dtype name such as F8_E5M2", e.Message, "message");
    }
  }

  [Test]
  public static void DeviceCapacitiesOfAnotherCountThanTheMeshAreRefused() {
    var e = Assert.Throws(Code.InvalidArgument, "", () => WithPlan(options => options.SetDeviceCapacities(new long[] {100}),
                                                                   plan => {}));
    Assert.Equal("Argument 'options' has 1 device capacities; expected 8 (the mesh's devices)", e.Message, "message");
  }

  [Test]
  public static void ANullLayoutMapOfTheSearchIsInvalidArgumentNamingTheEntry() {
    WithModel(checkpoint => {
      using (var rules = Rules(true)) {
        var e = Assert.Throws(Code.InvalidArgument, "", () => CheckpointPlan.Search(checkpoint, null, rules, null));
        Assert.Equal("Argument 'layout_maps[1]' is NULL; expected a valid pointer", e.Message, "message");
      }
    });
  }
}

}  // namespace Tessera.Tests
