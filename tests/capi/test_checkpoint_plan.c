/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* tessera/experimental/checkpoint_plan.h: memory plans and the mesh search
 * through the C ABI, on a two-tensor safetensors model with a config.json
 * beside it, written into a fresh directory:
 *   model.layers.0.self_attn.k_proj.weight  BF16 (8, 16)  256 bytes
 *   model.norm.weight                       F32  (16,)     64 bytes
 *   config.json: 2 layers, 8 heads, 4 KV heads, hidden size 64 (head_dim 8).
 * On the batch=2, model=4 mesh with the rule k_proj -> (model, None), each
 * device holds a (2, 16) BF16 shard (64 bytes) and the whole norm (64). */
#define _XOPEN_SOURCE 700

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "harness.h"
#include "tessera/tessera.h"

static char dir[256];
static char model_path[320];
static char config_path[320];

static const char kHeader[] =
    "{\"model.layers.0.self_attn.k_proj.weight\":{\"dtype\":\"BF16\",\"shape\":[8,16],\"data_offsets\":[0,256]},"
    "\"model.norm.weight\":{\"dtype\":\"F32\",\"shape\":[16],\"data_offsets\":[256,320]}}";
static const char kConfig[] =
    "{\"num_hidden_layers\": 2, \"num_attention_heads\": 8, \"num_key_value_heads\": 4, \"hidden_size\": 64}";

static int write_model(void) {
  unsigned char length[8] = {0};
  static const unsigned char data[320];
  const size_t n = sizeof kHeader - 1;
  FILE* f = fopen(model_path, "wb");
  size_t i;
  if (f == NULL) return 0;
  for (i = 0; i < 8; ++i) length[i] = (unsigned char)((uint64_t)n >> (8 * i));
  fwrite(length, 1, sizeof length, f);
  fwrite(kHeader, 1, n, f);
  fwrite(data, 1, sizeof data, f);
  fclose(f);
  f = fopen(config_path, "wb");
  if (f == NULL) return 0;
  fwrite(kConfig, 1, sizeof kConfig - 1, f);
  fclose(f);
  return 1;
}

static tessera_checkpoint* open_model(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = tessera_checkpoint_open(model_path, &err);
  if (err != NULL) {
    harness_fail(__FILE__, __LINE__, "open: %s", tessera_error_message(err));
    tessera_error_destroy(err);
  }
  return checkpoint;
}

/* The batch=2, model=4 mesh; `rule` -> (`axis0`, `axis1`) when rule is not NULL. */
static tessera_layout_map* map_with(const char* rule, const char* axis0, const char* axis1) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  if (rule != NULL) {
    tessera_layout* layout = fixture_layout_2d(axis0, axis1, mesh);
    tessera_layout_map_set(map, rule, layout, NULL);
    tessera_layout_destroy(layout);
  }
  tessera_mesh_destroy(mesh);
  return map;
}

static tessera_checkpoint_plan* plan_with(const tessera_checkpoint_plan_options* options) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_model();
  tessera_layout_map* map = map_with("k_proj", "model", NULL);
  tessera_checkpoint_plan* plan = tessera_checkpoint_plan_create(checkpoint, map, options, &err);
  if (err != NULL) {
    harness_fail(__FILE__, __LINE__, "plan: %s", tessera_error_message(err));
    tessera_error_destroy(err);
  }
  tessera_layout_map_destroy(map);
  tessera_checkpoint_destroy(checkpoint);
  return plan;
}

static void each_tensor_has_its_rule_type_largest_shard_and_bytes(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan* plan = plan_with(NULL);
  int64_t shape[2] = {0, 0};
  size_t rule = 7;
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(2, tessera_checkpoint_plan_num_tensors(plan, &err));
  ASSERT_STREQ("BF16", tessera_checkpoint_plan_tensor_element_type(plan, 0, &err));
  ASSERT_TRUE(tessera_checkpoint_plan_tensor_rule(plan, 0, &rule, &err));
  ASSERT_EQ(0, rule);
  ASSERT_EQ(2, tessera_checkpoint_plan_tensor_shard_shape(plan, 0, shape, 2, &err));
  ASSERT_EQ(2, shape[0]);
  ASSERT_EQ(16, shape[1]);
  ASSERT_EQ(64, tessera_checkpoint_plan_tensor_shard_bytes(plan, 0, &err));
  ASSERT_STREQ("", tessera_checkpoint_plan_tensor_problem(plan, 0, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
}

static void a_tensor_no_rule_matches_is_replicated(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan* plan = plan_with(NULL);
  size_t rule = 7;
  tessera_layout* layout;
  ASSERT_NOT_NULL(plan);
  ASSERT_TRUE(tessera_checkpoint_plan_tensor_rule(plan, 1, &rule, &err));
  ASSERT_EQ(TESSERA_NO_INDEX, rule);
  layout = tessera_checkpoint_plan_tensor_layout(plan, 1, &err);
  ASSERT_NOT_NULL(layout);
  ASSERT_EQ(1, tessera_layout_num_dims(layout, &err));
  ASSERT_EQ(64, tessera_checkpoint_plan_tensor_shard_bytes(plan, 1, &err));
  ASSERT_OK(err);
  tessera_layout_destroy(layout);
  tessera_checkpoint_plan_destroy(plan);
}

static void inference_holds_only_the_weights_on_every_device(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan* plan = plan_with(NULL);
  size_t device;
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(8 * 16 + 16, tessera_checkpoint_plan_num_parameters(plan, &err));
  ASSERT_EQ(320, tessera_checkpoint_plan_weight_bytes(plan, &err));
  ASSERT_EQ(8, tessera_checkpoint_plan_num_devices(plan, &err));
  for (device = 0; device < 8; ++device) {
    ASSERT_EQ(128, tessera_checkpoint_plan_device_term_bytes(plan, device, TESSERA_PLAN_TERM_WEIGHTS, &err));
    ASSERT_EQ(0, tessera_checkpoint_plan_device_term_bytes(plan, device, TESSERA_PLAN_TERM_GRADIENTS, &err));
    ASSERT_EQ(128, tessera_checkpoint_plan_device_peak_bytes(plan, device, &err));
    ASSERT_EQ(-1, tessera_checkpoint_plan_device_capacity_bytes(plan, device, &err));
    ASSERT_EQ(TESSERA_PLAN_VERDICT_UNKNOWN, tessera_checkpoint_plan_device_verdict(plan, device, &err));
  }
  ASSERT_STREQ("", tessera_checkpoint_plan_kv_cache_sharding(plan, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
}

static void the_kv_cache_is_sized_from_config_json_and_split_over_batch_and_heads(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  tessera_checkpoint_plan* plan;
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_kv_cache(options, 4, 32, &err));
  plan = plan_with(options);
  ASSERT_NOT_NULL(plan);
  /* 2 x 2 layers x 4 x 32 x 4 KV heads x 8 x 2 bytes (F16) = 32768, over batch 2 and model 4. */
  ASSERT_EQ(4096, tessera_checkpoint_plan_device_term_bytes(plan, 5, TESSERA_PLAN_TERM_KV_CACHE, &err));
  ASSERT_EQ(4096 + 128, tessera_checkpoint_plan_device_peak_bytes(plan, 5, &err));
  ASSERT_STREQ("batch 4 over 'batch' (2); 4 KV heads over 'model' (4, as 'model.layers.0.self_attn.k_proj.weight'); "
               "replicated over the other axes",
               tessera_checkpoint_plan_kv_cache_sharding(plan, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
  tessera_checkpoint_plan_options_destroy(options);
}

static void a_given_attention_shape_and_kv_dtype_replace_the_checkpoints(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  tessera_checkpoint_plan* plan;
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_kv_cache(options, 1, 10, &err));
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_attention_shape(options, 3, 8, 4, &err));
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_kv_dtype(options, "f32", &err));
  plan = plan_with(options);
  ASSERT_NOT_NULL(plan);
  /* 2 x 3 x 1 x 10 x 8 x 4 x 4 bytes = 7680; batch 1 unsplit, heads over model 4. */
  ASSERT_EQ(1920, tessera_checkpoint_plan_device_term_bytes(plan, 0, TESSERA_PLAN_TERM_KV_CACHE, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
  tessera_checkpoint_plan_options_destroy(options);
}

static void training_adds_gradients_adam_moments_and_master_weights(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  tessera_checkpoint_plan* plan;
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_recipe(options, TESSERA_PLAN_RECIPE_TRAINING, &err));
  plan = plan_with(options);
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(128, tessera_checkpoint_plan_device_term_bytes(plan, 3, TESSERA_PLAN_TERM_WEIGHTS, &err));
  ASSERT_EQ(128, tessera_checkpoint_plan_device_term_bytes(plan, 3, TESSERA_PLAN_TERM_GRADIENTS, &err));
  /* (32 + 16) elements x 2 moments x 4 bytes; the f32 norm needs no master copy. */
  ASSERT_EQ(384, tessera_checkpoint_plan_device_term_bytes(plan, 3, TESSERA_PLAN_TERM_OPTIMIZER_STATE, &err));
  ASSERT_EQ(128, tessera_checkpoint_plan_device_term_bytes(plan, 3, TESSERA_PLAN_TERM_MASTER_WEIGHTS, &err));
  ASSERT_EQ(768, tessera_checkpoint_plan_device_peak_bytes(plan, 3, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
  tessera_checkpoint_plan_options_destroy(options);
}

static void a_planned_dtype_casts_every_tensor(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  tessera_checkpoint_plan* plan;
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_dtype(options, "int8", &err));
  plan = plan_with(options);
  ASSERT_NOT_NULL(plan);
  ASSERT_STREQ("I8", tessera_checkpoint_plan_tensor_element_type(plan, 1, &err));
  ASSERT_EQ(32 + 16, tessera_checkpoint_plan_device_term_bytes(plan, 0, TESSERA_PLAN_TERM_WEIGHTS, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
  tessera_checkpoint_plan_options_destroy(options);
}

static void a_device_fits_when_its_peak_is_at_most_its_capacity(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  const int64_t capacities[8] = {128, 127, 128, 128, 128, 128, 128, 1000};
  tessera_checkpoint_plan* plan;
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_device_capacities(options, capacities, 8, &err));
  plan = plan_with(options);
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(TESSERA_PLAN_VERDICT_FITS, tessera_checkpoint_plan_device_verdict(plan, 0, &err));
  ASSERT_EQ(TESSERA_PLAN_VERDICT_DOES_NOT_FIT, tessera_checkpoint_plan_device_verdict(plan, 1, &err));
  ASSERT_EQ(127, tessera_checkpoint_plan_device_capacity_bytes(plan, 1, &err));
  ASSERT_EQ(1000, tessera_checkpoint_plan_device_capacity_bytes(plan, 7, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
  tessera_checkpoint_plan_options_destroy(options);
}

static void device_capacities_of_another_count_than_the_mesh_are_refused(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  const int64_t capacities[1] = {100};
  tessera_checkpoint* checkpoint = open_model();
  tessera_layout_map* map = map_with(NULL, NULL, NULL);
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_device_capacities(options, capacities, 1, &err));
  ASSERT_NULL(tessera_checkpoint_plan_create(checkpoint, map, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' has 1 device capacities; expected 8 (the mesh's devices)");
  tessera_layout_map_destroy(map);
  tessera_checkpoint_destroy(checkpoint);
  tessera_checkpoint_plan_options_destroy(options);
}

static void a_rule_of_another_rank_is_flagged_and_counted_whole(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_model();
  tessera_layout_map* map = map_with("norm", "model", NULL); /* rank 2 for a rank-1 tensor */
  tessera_checkpoint_plan* plan = tessera_checkpoint_plan_create(checkpoint, map, NULL, &err);
  ASSERT_NOT_NULL(plan);
  ASSERT_CONTAINS(tessera_checkpoint_plan_tensor_problem(plan, 1, &err), "rank");
  ASSERT_EQ(256 + 64, tessera_checkpoint_plan_device_term_bytes(plan, 0, TESSERA_PLAN_TERM_WEIGHTS, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_destroy(plan);
  tessera_layout_map_destroy(map);
  tessera_checkpoint_destroy(checkpoint);
}

static void an_unknown_dtype_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  ASSERT_FALSE(tessera_checkpoint_plan_options_set_dtype(options, "f7", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'dtype' is 'f7'; expected an element type: f64, f32, f16, bf16, f8, int8, uint8 or a "
               "safetensors dtype name such as F8_E5M2");
  tessera_checkpoint_plan_options_destroy(options);
}

static void an_unknown_term_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan* plan = plan_with(NULL);
  ASSERT_EQ(0, tessera_checkpoint_plan_device_term_bytes(plan, 0, (tessera_plan_term_t)5, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'term' is 5");
  tessera_checkpoint_plan_destroy(plan);
}

static void the_search_ranks_fitting_shapes_by_peak_and_says_why_the_others_fail(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_plan_options* options = tessera_checkpoint_plan_options_create();
  tessera_checkpoint* checkpoint = open_model();
  tessera_layout_map* map = map_with("k_proj", "model", NULL);
  const tessera_layout_map* maps[1];
  tessera_checkpoint_plan_search* search;
  int64_t shape[2] = {0, 0};
  maps[0] = map;
  ASSERT_TRUE(tessera_checkpoint_plan_options_set_capacity(options, 150, &err));
  search = tessera_checkpoint_plan_search_create(checkpoint, maps, 1, options, &err);
  ASSERT_NOT_NULL(search);
  ASSERT_EQ(4, tessera_checkpoint_plan_search_num_candidates(search, &err));
  /* k_proj's shard is (8/model, 16) BF16, plus the 64-byte norm everywhere. */
  ASSERT_EQ(2, tessera_checkpoint_plan_search_candidate_mesh_shape(search, 0, shape, 2, &err));
  ASSERT_EQ(1, shape[0]);
  ASSERT_EQ(8, shape[1]);
  ASSERT_EQ(96, tessera_checkpoint_plan_search_candidate_peak_bytes(search, 0, &err));
  ASSERT_STREQ("", tessera_checkpoint_plan_search_candidate_problem(search, 0, &err));
  tessera_checkpoint_plan_search_candidate_mesh_shape(search, 1, shape, 2, &err);
  ASSERT_EQ(2, shape[0]);
  ASSERT_EQ(128, tessera_checkpoint_plan_search_candidate_peak_bytes(search, 1, &err));
  tessera_checkpoint_plan_search_candidate_mesh_shape(search, 2, shape, 2, &err);
  ASSERT_EQ(4, shape[0]);
  ASSERT_STREQ("device 0: peak 192 bytes exceeds its capacity 150 by 42 (largest term: weights 192 bytes)",
               tessera_checkpoint_plan_search_candidate_problem(search, 2, &err));
  ASSERT_EQ(0, tessera_checkpoint_plan_search_candidate_layout_map(search, 3, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_search_destroy(search);
  tessera_layout_map_destroy(map);
  tessera_checkpoint_destroy(checkpoint);
  tessera_checkpoint_plan_options_destroy(options);
}

static void the_search_tries_every_map_on_every_shape(void) {
  tessera_error* err = NULL;
  tessera_checkpoint* checkpoint = open_model();
  tessera_layout_map* sharded = map_with("k_proj", "model", NULL);
  tessera_layout_map* replicated = map_with(NULL, NULL, NULL);
  const tessera_layout_map* maps[2];
  tessera_checkpoint_plan_search* search;
  maps[0] = sharded;
  maps[1] = replicated;
  search = tessera_checkpoint_plan_search_create(checkpoint, maps, 2, NULL, &err);
  ASSERT_NOT_NULL(search);
  ASSERT_EQ(8, tessera_checkpoint_plan_search_num_candidates(search, &err));
  /* The replicated map's 320 bytes rank last, in enumeration order. */
  ASSERT_EQ(1, tessera_checkpoint_plan_search_candidate_layout_map(search, 4, &err));
  ASSERT_EQ(320, tessera_checkpoint_plan_search_candidate_peak_bytes(search, 4, &err));
  ASSERT_OK(err);
  tessera_checkpoint_plan_search_destroy(search);
  tessera_layout_map_destroy(replicated);
  tessera_layout_map_destroy(sharded);
  tessera_checkpoint_destroy(checkpoint);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(each_tensor_has_its_rule_type_largest_shard_and_bytes),
      HARNESS_TEST(a_tensor_no_rule_matches_is_replicated),
      HARNESS_TEST(inference_holds_only_the_weights_on_every_device),
      HARNESS_TEST(the_kv_cache_is_sized_from_config_json_and_split_over_batch_and_heads),
      HARNESS_TEST(a_given_attention_shape_and_kv_dtype_replace_the_checkpoints),
      HARNESS_TEST(training_adds_gradients_adam_moments_and_master_weights),
      HARNESS_TEST(a_planned_dtype_casts_every_tensor),
      HARNESS_TEST(a_device_fits_when_its_peak_is_at_most_its_capacity),
      HARNESS_TEST(device_capacities_of_another_count_than_the_mesh_are_refused),
      HARNESS_TEST(a_rule_of_another_rank_is_flagged_and_counted_whole),
      HARNESS_TEST(an_unknown_dtype_is_invalid_argument_naming_it),
      HARNESS_TEST(an_unknown_term_is_invalid_argument_naming_it),
      HARNESS_TEST(the_search_ranks_fitting_shapes_by_peak_and_says_why_the_others_fail),
      HARNESS_TEST(the_search_tries_every_map_on_every_shape),
  };
  const char* tmp = getenv("TMPDIR");
  int status;
  snprintf(dir, sizeof dir, "%s/tessera_capi_checkpoint_plan_XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(model_path, sizeof model_path, "%s/model.safetensors", dir);
  snprintf(config_path, sizeof config_path, "%s/config.json", dir);
  if (!write_model()) {
    perror("write");
    return 1;
  }
  status = harness_main(argc, argv, tests, HARNESS_COUNT(tests));
  unlink(model_path);
  unlink(config_path);
  rmdir(dir);
  return status;
}
