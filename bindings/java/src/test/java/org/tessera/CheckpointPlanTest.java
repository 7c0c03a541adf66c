// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package org.tessera;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CheckpointPlan and its search (tests/capi/test_checkpoint_plan.c's model): a
 * BF16 (8, 16) k_proj (256 bytes) and an F32 (16) norm (64 bytes), with a
 * config.json of 2 layers, 4 KV heads and head_dim 8, on the batch=2, model=4
 * mesh with the rule k_proj -> (model, None): each device holds a (2, 16)
 * shard of k_proj (64 bytes) and the whole norm (64).
 */
class CheckpointPlanTest {
  static final String HEADER =
      "{\"model.layers.0.self_attn.k_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[8,16],\"data_offsets\":[0,256]},"
      + "\"model.norm.weight\":{\"dtype\":\"F32\",\"shape\":[16],\"data_offsets\":[256,320]}}";
  static final String CONFIG =
      "{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"num_key_value_heads\": 4, \"hidden_size\": 64}";

  @TempDir Path dir;

  private Checkpoint model() throws IOException {
    Path path = CheckpointTest.writeSafetensors(dir.resolve("model.safetensors"), HEADER, 320);
    Files.writeString(dir.resolve("config.json"), CONFIG);
    return new Checkpoint(path.toString());
  }

  /** The batch=2, model=4 map, with k_proj -> (model, None) when `sharded`. */
  private static LayoutMap rules(boolean sharded) {
    try (Mesh mesh = Fixtures.mesh(2, 4, "batch", "model")) {
      LayoutMap rules = new LayoutMap(mesh, KeyMatch.SEARCH);
      if (sharded) {
        try (Layout rows = new Layout(new String[] {"model", null}, mesh)) {
          rules.set("k_proj", rows);
        }
      }
      return rules;
    }
  }

  /** The plan of the model with the sharded map and `options` (null: the defaults). */
  private CheckpointPlan plan(CheckpointPlanOptions options) throws IOException {
    try (Checkpoint checkpoint = model(); LayoutMap rules = rules(true)) {
      return new CheckpointPlan(checkpoint, rules, options);
    }
  }

  @Test
  void eachTensorHasItsTypeRuleLargestShardAndBytes() throws IOException {
    try (CheckpointPlan plan = plan(null)) {
      List<PlannedTensor> tensors = plan.tensors();
      assertEquals(2, tensors.size());
      PlannedTensor kProj = tensors.get(0);
      PlannedTensor norm = tensors.get(1);
      assertEquals(List.of("BF16", "F32"), List.of(kProj.elementType(), norm.elementType()));
      assertEquals(List.of(0L, -1L), List.of(kProj.rule(), norm.rule()));
      assertArrayEquals(new long[] {2, 16}, kProj.shardShape());
      assertArrayEquals(new long[] {16}, norm.shardShape());
      assertEquals(List.of(64L, 64L), List.of(kProj.shardBytes(), norm.shardBytes()));
      assertEquals(List.of("", ""), List.of(kProj.problem(), norm.problem()));
    }
  }

  @Test
  void aTensorHasItsRulesLayoutOrIsReplicatedWhenNoRuleMatches() throws IOException {
    try (CheckpointPlan plan = plan(null); Mesh mesh = Fixtures.mesh(2, 4, "batch", "model");
         Layout rows = new Layout(new String[] {"model", null}, mesh); Layout replicated = Layout.replicated(1, mesh);
         Layout kProj = plan.tensorLayout(0); Layout norm = plan.tensorLayout(1)) {
      assertEquals(rows, kProj);
      assertEquals(replicated, norm);
    }
  }

  @Test
  void inferenceHoldsOnlyTheWeightsOnEveryDevice() throws IOException {
    try (CheckpointPlan plan = plan(null)) {
      assertEquals(8 * 16 + 16, plan.numParameters());
      assertEquals(320, plan.weightBytes());
      assertEquals(Collections.nCopies(8, new PlannedDevice(128, 0, 0, 0, 0, 128, -1, PlanVerdict.UNKNOWN)),
                   plan.devices());
      assertEquals("", plan.kvCacheSharding());
    }
  }

  @Test
  void theKvCacheIsSizedFromConfigJsonAndSplitOverBatchAndHeads() throws IOException {
    try (CheckpointPlanOptions options = new CheckpointPlanOptions()) {
      options.setKvCache(4, 32);
      try (CheckpointPlan plan = plan(options)) {
        // 2 x 2 layers x 4 x 32 x 4 KV heads x 8 x 2 bytes (F16) = 32768, over batch 2 and model 4.
        assertEquals(new PlannedDevice(128, 4096, 0, 0, 0, 4096 + 128, -1, PlanVerdict.UNKNOWN), plan.device(5));
        assertEquals("batch 4 over 'batch' (2); 4 KV heads over 'model' (4, as "
                     + "'model.layers.0.self_attn.k_proj.weight'); replicated over the other axes",
                     plan.kvCacheSharding());
      }
    }
  }

  @Test
  void trainingAddsGradientsAdamMomentsAndMasterWeights() throws IOException {
    try (CheckpointPlanOptions options = new CheckpointPlanOptions()) {
      options.setRecipe(PlanRecipe.TRAINING);
      try (CheckpointPlan plan = plan(options)) {
        // Adam: (32 + 16) elements x 2 moments x 4 bytes; the f32 norm needs no master copy.
        assertEquals(new PlannedDevice(128, 0, 128, 384, 128, 768, -1, PlanVerdict.UNKNOWN), plan.device(3));
        assertEquals(384, plan.deviceTermBytes(3, PlanTerm.OPTIMIZER_STATE));
      }
    }
  }

  @Test
  void aDeviceFitsWhenItsPeakIsAtMostItsCapacity() throws IOException {
    try (CheckpointPlanOptions options = new CheckpointPlanOptions()) {
      options.setDeviceCapacities(new long[] {128, 127, 128, 128, 128, 128, 128, 1000});
      try (CheckpointPlan plan = plan(options)) {
        assertEquals(new PlannedDevice(128, 0, 0, 0, 0, 128, 128, PlanVerdict.FITS), plan.device(0));
        assertEquals(new PlannedDevice(128, 0, 0, 0, 0, 128, 127, PlanVerdict.DOES_NOT_FIT), plan.device(1));
        assertEquals(List.of(0L, -1L, 872L),
                     List.of(plan.device(0).headroom(), plan.device(1).headroom(), plan.device(7).headroom()));
      }
    }
  }

  @Test
  void theSearchRanksFittingShapesByPeakAndSaysWhyTheOthersFail() throws IOException {
    try (Checkpoint checkpoint = model(); LayoutMap rules = rules(true);
         CheckpointPlanOptions options = new CheckpointPlanOptions()) {
      options.setCapacity(150);
      try (CheckpointPlanSearch search = CheckpointPlan.search(checkpoint, options, rules)) {
        List<PlanCandidate> candidates = search.candidates();
        assertEquals(List.of("[1, 8]", "[2, 4]", "[4, 2]", "[8, 1]"),
                     candidates.stream().map(c -> java.util.Arrays.toString(c.meshShape())).toList());
        assertEquals(List.of(96L, 128L, 192L, 320L), candidates.stream().map(PlanCandidate::peak).toList());
        assertEquals(List.of(0L, 0L, 0L, 0L), candidates.stream().map(PlanCandidate::layoutMap).toList());
        assertEquals(List.of("", "",
                             "device 0: peak 192 bytes exceeds its capacity 150 by 42 (largest term: weights 192 bytes)",
                             "device 0: peak 320 bytes exceeds its capacity 150 by 170 (largest term: weights 320 bytes)"),
                     candidates.stream().map(PlanCandidate::problem).toList());
        assertEquals(List.of(true, true, false, false), candidates.stream().map(PlanCandidate::fits).toList());
      }
    }
  }

  @Test
  void theSearchTriesEveryMapOnEveryShape() throws IOException {
    try (Checkpoint checkpoint = model(); LayoutMap sharded = rules(true); LayoutMap replicated = rules(false);
         CheckpointPlanSearch search = CheckpointPlan.search(checkpoint, null, sharded, replicated)) {
      // Ties at 320 bytes (the replicated map everywhere, the sharded one on 8x1) keep the
      // enumeration order: shape by shape, each with the maps in their order.
      assertEquals(List.of("[1, 8] map 0: 96", "[2, 4] map 0: 128", "[4, 2] map 0: 192", "[1, 8] map 1: 320",
                           "[2, 4] map 1: 320", "[4, 2] map 1: 320", "[8, 1] map 0: 320", "[8, 1] map 1: 320"),
                   search.candidates().stream().map(c -> java.util.Arrays.toString(c.meshShape()) + " map "
                                                         + c.layoutMap() + ": " + c.peak()).toList());
    }
  }

  @Test
  void anUnknownDtypeIsInvalidArgumentNamingIt() {
    try (CheckpointPlanOptions options = new CheckpointPlanOptions()) {
      TesseraException e = assertThrows(TesseraException.class, () -> options.setDtype("f7"));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'dtype' is 'f7'; expected an element type: f64, f32, f16, bf16, f8, int8, uint8 or a "
                   + "safetensors dtype name such as F8_E5M2", e.getMessage());
    }
  }

  @Test
  void deviceCapacitiesOfAnotherCountThanTheMeshAreRefused() throws IOException {
    try (CheckpointPlanOptions options = new CheckpointPlanOptions()) {
      options.setDeviceCapacities(new long[] {100});
      TesseraException e = assertThrows(TesseraException.class, () -> plan(options));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'options' has 1 device capacities; expected 8 (the mesh's devices)", e.getMessage());
    }
  }

  @Test
  void aNullLayoutMapOfTheSearchIsInvalidArgumentNamingTheEntry() throws IOException {
    try (Checkpoint checkpoint = model(); LayoutMap rules = rules(true)) {
      TesseraException e = assertThrows(TesseraException.class,
                                        () -> CheckpointPlan.search(checkpoint, null, rules, null));
      assertEquals(Code.INVALID_ARGUMENT, e.code());
      assertEquals("Argument 'layout_maps[1]' is NULL; expected a valid pointer", e.getMessage());
    }
  }
}
