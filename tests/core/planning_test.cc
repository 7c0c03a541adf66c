// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Memory planning (core/planning): exact per-device bytes of every term for
// small checkpoints built in memory, the KV cache's division, flagged
// layouts, capacity verdicts, and the mesh search's ranking and reasons.
#include <cstdint>
#include <string>
#include <vector>

#include "core/planning/attention_shape.h"
#include "core/planning/element_types.h"
#include "core/planning/memory_plan.h"
#include "core/planning/mesh_search.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/core/testing.h"

namespace tessera::planning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::tessera::testing::CpuMesh;
using ::tessera::testing::Layout;
using ::tessera::testing::StatusIs;
using ::tessera::testing::Unwrap;

checkpoint::ElementType Type(const char* name) { return Unwrap(PlannedElementType(name, "dtype")); }

checkpoint::Tensor Tensor(std::string name, const char* type, std::vector<int64_t> shape) {
  checkpoint::Tensor tensor;
  tensor.name = std::move(name);
  tensor.type = Type(type);
  tensor.shape = std::move(shape);
  return tensor;
}

checkpoint::Checkpoint Model(std::vector<checkpoint::Tensor> tensors) {
  checkpoint::Checkpoint model;
  model.format = "safetensors";
  model.tensors = std::move(tensors);
  return model;
}

// A batch=2, model=4 mesh with `rules` (pattern, layout spec).
LayoutMap Map(MeshPtr mesh, std::vector<std::pair<std::string, std::vector<std::string>>> rules) {
  LayoutMap map(mesh);
  for (auto& [pattern, spec] : rules) EXPECT_TRUE(map.Set(pattern, Layout(spec, mesh)).ok());
  return map;
}

int64_t TermOf(const MemoryPlan& plan, size_t device, Term term) {
  return plan.devices[device].terms[static_cast<size_t>(term)];
}

std::vector<int64_t> Weights(const MemoryPlan& plan) {
  std::vector<int64_t> bytes;
  for (const DeviceMemory& device : plan.devices) bytes.push_back(device.terms[0]);
  return bytes;
}

TEST(MemoryPlan, EvenShardsAndReplicatedTensorsGiveEveryDeviceTheSameWeights) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  MemoryPlan plan = Unwrap(PlanMemory(Model({Tensor("w", "f32", {8, 4}), Tensor("b", "f32", {6})}),
                                      Map(mesh, {{"w", {"model", ""}}}), PlanSettings{}));
  EXPECT_EQ(plan.tensors[0].shard_bytes, 32);  // (2, 4) f32
  EXPECT_THAT(plan.tensors[0].shard_shape, ElementsAre(2, 4));
  EXPECT_EQ(plan.tensors[1].rule, -1);
  EXPECT_EQ(plan.tensors[1].shard_bytes, 24);
  EXPECT_THAT(Weights(plan), ElementsAre(56, 56, 56, 56, 56, 56, 56, 56));
  EXPECT_EQ(plan.devices[0].peak, 56);
  EXPECT_EQ(plan.num_parameters, 38);
  EXPECT_EQ(plan.weight_bytes, 152);
}

TEST(MemoryPlan, UnevenChunksAreCountedPerDevice) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.mode = ShardMode::kChunkFlat;
  MemoryPlan plan = Unwrap(PlanMemory(Model({Tensor("v", "f32", {10}), Tensor("u", "f32", {10})}),
                                      Map(mesh, {{"v|u", {"model"}}}), settings));
  // Chunks of 3, 3, 3, 1 elements along model, twice.
  EXPECT_THAT(Weights(plan), ElementsAre(24, 24, 24, 8, 24, 24, 24, 8));
  EXPECT_EQ(plan.num_flagged, 0u);
}

TEST(MemoryPlan, UnevenTensorsOfDifferentShapesOnOneAxisAddUp) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.mode = ShardMode::kChunkFlat;
  MemoryPlan plan = Unwrap(PlanMemory(Model({Tensor("v", "f32", {10}), Tensor("u", "f32", {6})}),
                                      Map(mesh, {{"v|u", {"model"}}}), settings));
  // Chunks of 3, 3, 3, 1 and 2, 2, 2, 0 elements along model.
  EXPECT_THAT(Weights(plan), ElementsAre(20, 20, 20, 4, 20, 20, 20, 4));
}

TEST(MemoryPlan, ATensorUnevenAlongTwoDimensionsIsCountedPerDevice) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.mode = ShardMode::kChunkFlat;
  MemoryPlan plan =
      Unwrap(PlanMemory(Model({Tensor("w", "f32", {3, 10})}), Map(mesh, {{"w", {"batch", "model"}}}), settings));
  // Rows 2, 1 along batch times columns 3, 3, 3, 1 along model.
  EXPECT_THAT(Weights(plan), ElementsAre(24, 24, 24, 8, 12, 12, 12, 4));
}

TEST(MemoryPlan, AnUnevenDimensionOverAnAxisGroupUsesTheGroupsShardIndex) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.mode = ShardMode::kChunkFlat;
  MemoryPlan plan = Unwrap(
      PlanMemory(Model({Tensor("w", "f32", {4, 10})}), Map(mesh, {{"w", {"", "model+batch"}}}), settings));
  // 10 over 8 shards of 2: shard index = model * 2 + batch; shards 5.. are empty.
  EXPECT_THAT(Weights(plan), ElementsAre(32, 32, 32, 0, 32, 32, 0, 0));
}

TEST(MemoryPlan, AnIndivisibleDimensionInStrictModeIsFlaggedAndCountedAsChunks) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  MemoryPlan plan =
      Unwrap(PlanMemory(Model({Tensor("v", "f32", {10})}), Map(mesh, {{"v", {"model"}}}), PlanSettings{}));
  EXPECT_THAT(plan.tensors[0].problem, HasSubstr("implies that array axis 0 is partitioned 4 times, but the "
                                                 "dimension size is 10"));
  EXPECT_EQ(plan.num_flagged, 1u);
  EXPECT_THAT(Weights(plan), ElementsAre(12, 12, 12, 4, 12, 12, 12, 4));
}

TEST(MemoryPlan, ARankMismatchIsFlaggedAndCountedAsReplicated) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  MemoryPlan plan =
      Unwrap(PlanMemory(Model({Tensor("v", "f32", {8})}), Map(mesh, {{"v", {"model", ""}}}), PlanSettings{}));
  EXPECT_THAT(plan.tensors[0].problem, HasSubstr("rank"));
  EXPECT_THAT(Weights(plan), ElementsAre(32, 32, 32, 32, 32, 32, 32, 32));
}

TEST(MemoryPlan, AQuantizedBlockCutByAShardIsFlagged) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  checkpoint::Tensor q = Tensor("q", "f32", {2, 64});
  q.type = checkpoint::ElementType{"Q8_0", 32, 34};
  MemoryPlan plan = Unwrap(PlanMemory(Model({q}), Map(mesh, {{"q", {"", "model"}}}), PlanSettings{}));
  EXPECT_EQ(plan.tensors[0].problem,
            "dimension 1 of size 64 is cut into shards of 16 elements, which split Q8_0's blocks of 32 elements");
  EXPECT_EQ(plan.tensors[0].shard_bytes, 68);  // 2 rows x one whole block
}

TEST(MemoryPlan, ADtypeCastsEveryTensor) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.dtype = Type("bf16");
  MemoryPlan plan =
      Unwrap(PlanMemory(Model({Tensor("w", "f32", {8, 4})}), Map(mesh, {{"w", {"model", ""}}}), settings));
  EXPECT_EQ(plan.tensors[0].type.name, "BF16");
  EXPECT_EQ(TermOf(plan, 0, Term::kWeights), 16);
}

TEST(MemoryPlan, TrainingAddsGradientsAdamMomentsAndF32MasterWeightsOf16BitTensors) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.recipe = Recipe::kTraining;
  MemoryPlan plan = Unwrap(PlanMemory(Model({Tensor("w", "bf16", {8, 4}), Tensor("n", "f32", {4})}),
                                      Map(mesh, {{"w", {"model", ""}}}), settings));
  // w: 8 elements per device (16 bytes); n: 4 elements (16 bytes), not 16-bit.
  EXPECT_EQ(TermOf(plan, 5, Term::kWeights), 32);
  EXPECT_EQ(TermOf(plan, 5, Term::kGradients), 32);
  EXPECT_EQ(TermOf(plan, 5, Term::kOptimizerState), 96);  // 12 elements x 2 moments x 4 bytes
  EXPECT_EQ(TermOf(plan, 5, Term::kMasterWeights), 32);   // 8 bf16 elements x 4 bytes
  EXPECT_EQ(TermOf(plan, 5, Term::kKvCache), 0);
  EXPECT_EQ(plan.devices[5].peak, 192);
}

TEST(MemoryPlan, TheKvCacheSplitsBatchOverTheDataAxisAndHeadsOverTheKeyWeightsAxis) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.batch = 2;
  settings.seq_len = 16;
  settings.attention = AttentionShape{2, 4, 8, "given"};
  MemoryPlan plan = Unwrap(PlanMemory(Model({Tensor("layers.0.k_proj.weight", "f16", {32, 16})}),
                                      Map(mesh, {{"k_proj", {"model", ""}}}), settings));
  // 2 x 2 layers x 2 x 16 x 4 heads x 8 x 2 bytes = 8192, over 2 x 4 devices.
  EXPECT_EQ(plan.kv_cache.total_bytes, 8192);
  EXPECT_EQ(TermOf(plan, 7, Term::kKvCache), 1024);
  EXPECT_EQ(plan.kv_cache.sharding,
            "batch 2 over 'batch' (2); 4 KV heads over 'model' (4, as 'layers.0.k_proj.weight'); replicated over "
            "the other axes");
}

TEST(MemoryPlan, KvHeadsThatDoNotDivideAreReplicated) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.batch = 1;
  settings.seq_len = 16;
  settings.attention = AttentionShape{2, 2, 8, "given"};
  MemoryPlan plan = Unwrap(PlanMemory(Model({Tensor("k_proj", "f16", {32, 16})}),
                                      Map(mesh, {{"k_proj", {"model", ""}}}), settings));
  EXPECT_EQ(TermOf(plan, 0, Term::kKvCache), 2 * 2 * 1 * 16 * 2 * 8 * 2);
  EXPECT_EQ(plan.kv_cache.sharding,
            "batch 1 not split (no data axis divides it); 2 KV heads not split (the axes of 'k_proj' have 4 "
            "shards, which do not divide them); replicated over the other axes");
}

TEST(MemoryPlan, GgufMetadataGivesTheAttentionShape) {
  checkpoint::Checkpoint model = Model({});
  model.format = "gguf";
  model.metadata = {{"general.architecture", "llama"},
                    {"llama.block_count", "32"},
                    {"llama.attention.head_count", "32"},
                    {"llama.attention.head_count_kv", "8"},
                    {"llama.embedding_length", "4096"}};
  std::optional<AttentionShape> shape = Unwrap(ReadAttentionShape(model));
  ASSERT_TRUE(shape.has_value());
  EXPECT_EQ(shape->num_layers, 32);
  EXPECT_EQ(shape->num_kv_heads, 8);
  EXPECT_EQ(shape->head_dim, 128);
}

TEST(MemoryPlan, CapacityGivesEachDeviceAVerdict) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.mode = ShardMode::kChunkFlat;
  settings.capacities = {12, 12, 12, 12, 11, 12, 12, 4};
  MemoryPlan plan = Unwrap(PlanMemory(Model({Tensor("v", "f32", {10})}), Map(mesh, {{"v", {"model"}}}), settings));
  EXPECT_EQ(plan.devices[0].verdict(), Verdict::kFits);
  EXPECT_EQ(plan.devices[4].verdict(), Verdict::kDoesNotFit);
  EXPECT_EQ(plan.devices[7].verdict(), Verdict::kFits);  // 4 bytes: a peak equal to the capacity fits
}

TEST(MemoryPlan, CapacitiesOfAnotherCountAreRefused) {
  MeshPtr mesh = CpuMesh({2, 4}, {"batch", "model"});
  PlanSettings settings;
  settings.capacities = {1, 2};
  EXPECT_THAT(PlanMemory(Model({}), Map(mesh, {}), settings),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Argument 'capacities' has 2 entries; expected 1 or 8 (the mesh's devices)"));
}

TEST(MemoryPlan, AnUnknownDtypeNamesTheArgumentAndTheNames) {
  EXPECT_THAT(PlannedElementType("f7", "dtype"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Argument 'dtype' is 'f7'; expected")));
}

TEST(MeshSearch, EveryOrderedFactorizationIsACandidate) {
  EXPECT_THAT(MeshShapes(8, 2), ElementsAre(ElementsAre(1, 8), ElementsAre(2, 4), ElementsAre(4, 2), ElementsAre(8, 1)));
  EXPECT_EQ(MeshShapes(12, 3).size(), 18u);
}

TEST(MeshSearch, FittingShapesComeFirstByPeakAndRejectedOnesSayWhy) {
  MeshPtr mesh = CpuMesh({8, 1}, {"data", "model"});
  LayoutMap map = Map(mesh, {{"w", {"", "model"}}});
  const LayoutMap* maps[] = {&map};
  PlanSettings settings;
  settings.capacities = {100};
  std::vector<Candidate> found =
      Unwrap(SearchMeshes(Model({Tensor("w", "f32", {8, 6})}), maps, settings));
  ASSERT_EQ(found.size(), 4u);
  EXPECT_THAT(found[0].mesh_shape, ElementsAre(4, 2));
  EXPECT_EQ(found[0].peak_bytes, 96);
  EXPECT_EQ(found[0].problem, "");
  EXPECT_THAT(found[1].mesh_shape, ElementsAre(1, 8));
  EXPECT_THAT(found[1].problem, HasSubstr("tensor 'w': Argument 'shape': the layout (None, 'model') implies that "
                                          "array axis 1 is partitioned 8 times"));
  EXPECT_THAT(found[2].mesh_shape, ElementsAre(2, 4));
  EXPECT_THAT(found[3].mesh_shape, ElementsAre(8, 1));
  EXPECT_EQ(found[3].peak_bytes, 192);
  EXPECT_EQ(found[3].problem, "device 0: peak 192 bytes exceeds its capacity 100 by 92 (largest term: weights "
                              "192 bytes)");
}

}  // namespace
}  // namespace tessera::planning
