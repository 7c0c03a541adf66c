/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* DataParallel and ModelParallel distributions, options and dataset plans. */
#include <stdint.h>

#include "fixtures.h"
#include "harness.h"

/* ModelParallel on the (2, 4) mesh with "dense.*kernel" -> (None, "model"). */
static tessera_distribution* model_parallel(const tessera_distribution_options* options,
                                            tessera_error** err) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layout = fixture_layout_2d(NULL, "model", NULL);
  tessera_distribution* distribution = NULL;
  if (tessera_layout_map_set(map, "dense.*kernel", layout, err)) {
    distribution = tessera_distribution_create_model_parallel(map, "batch", options, err);
  }
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
  return distribution;
}

/* Options for process `id` of `count`. */
static tessera_distribution_options* options_for_process(int64_t count, int64_t id) {
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_distribution_options_set_process(options, count, id, NULL);
  return options;
}

static void data_parallel_uses_every_device_and_the_first_axis(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(8, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, &err);
  tessera_mesh* dp_mesh = tessera_distribution_mesh(dp, NULL);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DISTRIBUTION_DATA_PARALLEL, tessera_distribution_kind(dp, NULL));
  ASSERT_STREQ("batch", tessera_distribution_batch_dim_name(dp, NULL));
  ASSERT_TRUE(tessera_mesh_equal(mesh, dp_mesh));
  ASSERT_EQ(8, tessera_distribution_num_model_replicas(dp, NULL));
  ASSERT_EQ(1, tessera_distribution_num_processes(dp, NULL));
  ASSERT_EQ(0, tessera_distribution_process_index(dp, NULL));
  ASSERT_EQ(1, tessera_distribution_num_data_shards(dp, NULL));
  ASSERT_EQ(0, tessera_distribution_data_shard_id(dp, NULL));
  tessera_mesh_destroy(dp_mesh);
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
}

static void data_parallel_on_a_2d_mesh_counts_every_device(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("batch", tessera_distribution_batch_dim_name(dp, NULL));
  ASSERT_EQ(8, tessera_distribution_num_model_replicas(dp, NULL));
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
}

static void data_parallel_over_devices_builds_a_batch_mesh(void) {
  static const char* const devices[] = {"cpu:2", "cpu:3"};
  tessera_error* err = NULL;
  tessera_distribution* dp =
      tessera_distribution_create_data_parallel_over_devices(devices, 2, NULL, &err);
  tessera_mesh* mesh = tessera_distribution_mesh(dp, NULL);
  tessera_buffer* text = tessera_mesh_to_string(mesh, NULL);
  tessera_device* first = tessera_mesh_device(mesh, 0, NULL);
  ASSERT_OK(err);
  ASSERT_STREQ("<DeviceMesh shape=(2,), axis_names=['batch']>", tessera_buffer_data(text));
  ASSERT_STREQ("cpu:2", tessera_device_name(first, NULL));
  ASSERT_EQ(2, tessera_distribution_num_model_replicas(dp, NULL));
  tessera_device_destroy(first);
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(mesh);
  tessera_distribution_destroy(dp);
}

static void data_parallel_over_no_devices_uses_all_devices(void) {
  tessera_error* err = NULL;
  tessera_distribution* dp =
      tessera_distribution_create_data_parallel_over_devices(NULL, 0, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(8, tessera_distribution_num_model_replicas(dp, NULL));
  tessera_distribution_destroy(dp);
}

static void data_parallel_over_bad_devices_is_invalid_argument(void) {
  static const char* const unknown[] = {"cpu:0", "npu:1"};
  static const char* const with_null[] = {"cpu:0", NULL};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_create_data_parallel_over_devices(unknown, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'devices' entry 1: Device 'npu:1' has an unknown type 'npu'");
  ASSERT_NULL(tessera_distribution_create_data_parallel_over_devices(with_null, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices[1]' is NULL");
}

static void data_parallel_needs_a_mesh(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_create_data_parallel(NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
}

static void data_layout_shards_the_first_dimension_on_the_batch_axis(void) {
  tessera_error* err = NULL;
  tessera_distribution* dp = model_parallel(NULL, &err);
  const int64_t dims[] = {16, 3, 5};
  tessera_layout* layout = tessera_distribution_data_layout(dp, dims, 3, &err);
  size_t count = 9;
  ASSERT_OK(err);
  ASSERT_EQ(3, tessera_layout_num_dims(layout, NULL));
  ASSERT_STREQ("batch", tessera_layout_dim_axis(layout, 0, 0, &err));
  ASSERT_TRUE(tessera_layout_dim_num_axes(layout, 1, &count, &err));
  ASSERT_EQ(0, count);
  ASSERT_TRUE(tessera_layout_dim_num_axes(layout, 2, &count, &err));
  ASSERT_EQ(0, count);
  tessera_layout_destroy(layout);
  tessera_distribution_destroy(dp);
}

static void data_layout_rejects_scalars_negative_dims_and_null_dims(void) {
  tessera_error* err = NULL;
  tessera_distribution* dp = model_parallel(NULL, &err);
  const int64_t negative[] = {-4, 3};
  ASSERT_NULL(tessera_distribution_data_layout(dp, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shape' () has rank 0");
  ASSERT_NULL(tessera_distribution_data_layout(dp, negative, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shape' (-4, 3) has dimension 0 equal to -4");
  ASSERT_NULL(tessera_distribution_data_layout(dp, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'dims' is NULL but 'num_dims' is 2");
  ASSERT_NULL(tessera_distribution_data_layout(NULL, negative, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL");
  tessera_distribution_destroy(dp);
}

static void data_parallel_replicates_variables(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(8, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, NULL);
  const int64_t dims[] = {7, 3};
  tessera_layout* layout = tessera_distribution_variable_layout(dp, "dense/kernel", dims, 2,
                                                                NULL, &err);
  tessera_layout* expected = tessera_layout_create_replicated(2, mesh, NULL);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(expected, layout));
  ASSERT_NULL(tessera_distribution_tensor_layout(dp, "dense/output", &err));
  ASSERT_OK(err);
  tessera_layout_destroy(expected);
  tessera_layout_destroy(layout);
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
}

static void explicit_variable_layout_wins_and_is_checked(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(8, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, NULL);
  tessera_layout* mine = fixture_layout_2d("batch", NULL, mesh);
  const int64_t fits[] = {16, 3};
  const int64_t does_not_fit[] = {12, 3};
  tessera_layout* layout =
      tessera_distribution_variable_layout(dp, "v", fits, 2, mine, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(mine, layout));
  ASSERT_NULL(tessera_distribution_variable_layout(dp, "v", does_not_fit, 2, mine, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Variable 'v': Argument 'shape' (12, 3) dimension 0 has size 12, which is not "
               "divisible by 8");
  tessera_layout_destroy(layout);
  tessera_layout_destroy(mine);
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
}

static void model_parallel_takes_variable_layouts_from_the_map(void) {
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(NULL, &err);
  const int64_t dims[] = {16, 8};
  tessera_layout* layout;
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DISTRIBUTION_MODEL_PARALLEL, tessera_distribution_kind(mp, NULL));
  ASSERT_EQ(2, tessera_distribution_num_model_replicas(mp, NULL));
  layout = tessera_distribution_variable_layout(mp, "model/dense/kernel", dims, 2, NULL, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("model", tessera_layout_dim_axis(layout, 1, 0, &err));
  tessera_layout_destroy(layout);
  tessera_distribution_destroy(mp);
}

static void model_parallel_checks_variable_shapes_strictly_by_default(void) {
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(NULL, &err);
  const int64_t dims[] = {16, 6};
  ASSERT_NULL(tessera_distribution_variable_layout(mp, "dense/kernel", dims, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Variable 'dense/kernel': Argument 'shape' (16, 6) dimension 1 has size 6, which "
               "is not divisible by 4, the number of shards of mesh axes 'model'");
  tessera_distribution_destroy(mp);
}

static void chunk_shape_check_allows_uneven_variable_shards(void) {
  tessera_error* err = NULL;
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_distribution* mp;
  const int64_t dims[] = {16, 6};
  tessera_layout* layout;
  ASSERT_TRUE(tessera_distribution_options_set_shape_check(options, TESSERA_SHAPE_CHECK_CHUNK,
                                                           &err));
  mp = model_parallel(options, &err);
  tessera_distribution_options_destroy(options);
  layout = tessera_distribution_variable_layout(mp, "dense/kernel", dims, 2, NULL, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(layout);
  tessera_layout_destroy(layout);
  tessera_distribution_destroy(mp);
}

static void model_parallel_tensor_layout_comes_from_the_map(void) {
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(NULL, &err);
  tessera_layout* hit = tessera_distribution_tensor_layout(mp, "dense_1/kernel", &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(hit);
  ASSERT_NULL(tessera_distribution_tensor_layout(mp, "conv/output", &err));
  ASSERT_OK(err);
  tessera_layout_destroy(hit);
  tessera_distribution_destroy(mp);
}

static void model_parallel_defaults_to_the_first_axis(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_error* err = NULL;
  tessera_distribution* mp = tessera_distribution_create_model_parallel(map, NULL, NULL, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("batch", tessera_distribution_batch_dim_name(mp, NULL));
  tessera_distribution_destroy(mp);
  mp = tessera_distribution_create_model_parallel(map, "", NULL, &err);
  ASSERT_STREQ("batch", tessera_distribution_batch_dim_name(mp, NULL));
  tessera_distribution_destroy(mp);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void model_parallel_on_another_batch_axis_counts_its_size(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_distribution* mp = tessera_distribution_create_model_parallel(map, "model", NULL, NULL);
  ASSERT_STREQ("model", tessera_distribution_batch_dim_name(mp, NULL));
  ASSERT_EQ(4, tessera_distribution_num_model_replicas(mp, NULL));
  tessera_distribution_destroy(mp);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void model_parallel_with_an_unknown_batch_axis_is_invalid_argument(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_create_model_parallel(map, "data", NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'batch_dim_name' 'data' is not an axis of the mesh");
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void model_parallel_needs_a_map_with_a_mesh(void) {
  tessera_layout_map* map = tessera_layout_map_create(NULL, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_create_model_parallel(map, NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "Argument 'layout_map' has no device mesh");
  ASSERT_NULL(tessera_distribution_create_model_parallel(NULL, NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout_map' is NULL");
  tessera_layout_map_destroy(map);
}

static void model_parallel_keeps_a_snapshot_of_the_map(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layout = fixture_layout_2d(NULL, "model", NULL);
  tessera_error* err = NULL;
  tessera_distribution* mp = tessera_distribution_create_model_parallel(map, NULL, NULL, &err);
  ASSERT_TRUE(tessera_layout_map_set(map, "kernel", layout, &err));
  ASSERT_NULL(tessera_distribution_tensor_layout(mp, "dense/kernel", &err));
  ASSERT_OK(err);
  tessera_layout_map_destroy(map);
  ASSERT_NULL(tessera_distribution_tensor_layout(mp, "dense/kernel", &err));
  ASSERT_OK(err);
  tessera_distribution_destroy(mp);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void model_parallel_rejects_processes_not_divisible_by_replicas(void) {
  tessera_distribution_options* options = options_for_process(3, 0);
  tessera_error* err = NULL;
  ASSERT_NULL(model_parallel(options, &err));
  ASSERT_ERROR_CONTAINS(err, TESSERA_FAILED_PRECONDITION, "num_processes=3");
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "num_model_replicas=2");
  tessera_distribution_options_destroy(options);
}

static void options_set_process_overrides_the_runtime(void) {
  tessera_distribution_options* options = options_for_process(4, 3);
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(options, &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_distribution_num_processes(mp, NULL));
  ASSERT_EQ(3, tessera_distribution_process_index(mp, NULL));
  ASSERT_EQ(2, tessera_distribution_num_data_shards(mp, NULL)); /* min(R=2, P=4) */
  ASSERT_EQ(1, tessera_distribution_data_shard_id(mp, NULL));   /* 3 / (4 / 2) */
  tessera_distribution_destroy(mp);
  tessera_distribution_options_destroy(options);
}

static void options_reject_impossible_process_numbers(void) {
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_options_set_process(options, 0, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_processes' is 0; expected at least 1");
  ASSERT_FALSE(tessera_distribution_options_set_process(options, 2, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'process_index' is 2; expected 0 to 1 ('num_processes' is 2)");
  ASSERT_FALSE(tessera_distribution_options_set_process(options, SIZE_MAX, 0, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE,
               "Argument 'num_processes' is 18446744073709551615; expected at most 9223372036854775807");
  tessera_distribution_options_destroy(options);
}

static void options_reject_unknown_enum_values_naming_them(void) {
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_options_set_shape_check(options, (tessera_shape_check_t)5, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mode' is 5");
  ASSERT_FALSE(
      tessera_distribution_options_set_dataset_mode(options, (tessera_dataset_mode_t)9, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'mode' is 9; expected one of TESSERA_DATASET_MODE_CURRENT (0), "
               "TESSERA_DATASET_MODE_KERAS_3_0 (1)");
  tessera_distribution_options_destroy(options);
}

static void options_setters_reject_null_options(void) {
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_options_set_auto_shard_dataset(NULL, false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
  ASSERT_FALSE(tessera_distribution_options_set_shape_check(NULL, TESSERA_SHAPE_CHECK_CHUNK, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
  ASSERT_FALSE(
      tessera_distribution_options_set_dataset_mode(NULL, TESSERA_DATASET_MODE_CURRENT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
  ASSERT_FALSE(tessera_distribution_options_set_process(NULL, 1, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' is NULL");
  tessera_distribution_options_destroy(NULL);
}

static void a_single_process_reads_the_dataset_as_it_is(void) {
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(NULL, &err);
  tessera_dataset_plan* plan = tessera_distribution_plan_dataset(mp, 32, &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DATASET_PLAN_PASSTHROUGH, tessera_dataset_plan_kind(plan, NULL));
  ASSERT_EQ(32, tessera_dataset_plan_global_batch_num_examples(plan, NULL));
  ASSERT_EQ(32, tessera_dataset_plan_per_process_batch_num_examples(plan, NULL));
  ASSERT_EQ(1, tessera_dataset_plan_num_shards(plan, NULL));
  ASSERT_EQ(0, tessera_dataset_plan_shard_index(plan, NULL));
  ASSERT_EQ(0, tessera_dataset_plan_num_rebatches(plan, NULL));
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(mp);
}

static void processes_read_contiguous_shards_of_each_batch(void) {
  tessera_distribution_options* options = options_for_process(4, 3);
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(options, &err);
  tessera_dataset_plan* plan = tessera_distribution_plan_dataset(mp, 32, &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DATASET_PLAN_SHARD, tessera_dataset_plan_kind(plan, NULL));
  ASSERT_EQ(16, tessera_dataset_plan_per_process_batch_num_examples(plan, NULL));
  ASSERT_EQ(2, tessera_dataset_plan_num_shards(plan, NULL));
  ASSERT_EQ(1, tessera_dataset_plan_shard_index(plan, NULL));
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(mp);
  tessera_distribution_options_destroy(options);
}

static void auto_shard_off_leaves_the_dataset_alone(void) {
  tessera_distribution_options* options = options_for_process(4, 3);
  tessera_error* err = NULL;
  tessera_distribution* mp;
  tessera_dataset_plan* plan;
  ASSERT_TRUE(tessera_distribution_options_set_auto_shard_dataset(options, false, &err));
  mp = model_parallel(options, &err);
  plan = tessera_distribution_plan_dataset(mp, 32, &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DATASET_PLAN_PASSTHROUGH, tessera_dataset_plan_kind(plan, NULL));
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(mp);
  tessera_distribution_options_destroy(options);
}

static void batch_not_divisible_by_the_shards_is_invalid_argument(void) {
  tessera_distribution_options* options = options_for_process(4, 0);
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(options, &err);
  ASSERT_NULL(tessera_distribution_plan_dataset(mp, 33, &err));
  ASSERT_ERROR_CONTAINS(err, TESSERA_INVALID_ARGUMENT, "`global_batch_size`=33");
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "`num_shards`=2");
  tessera_distribution_destroy(mp);
  tessera_distribution_options_destroy(options);
}

static void batch_size_beyond_int64_is_out_of_range(void) {
  tessera_distribution_options* options = options_for_process(4, 0);
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(options, &err);
  /* SIZE_MAX itself means "unknown" (TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES). */
  ASSERT_NULL(tessera_distribution_plan_dataset(mp, SIZE_MAX - 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE,
               "Argument 'global_batch_size' is 18446744073709551614; expected at most 9223372036854775807");
  tessera_distribution_destroy(mp);
  tessera_distribution_options_destroy(options);
}

static void keras_3_0_data_parallel_plans_uneven_rebatch_sizes(void) {
  tessera_distribution_options* options = options_for_process(4, 1);
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(8, "batch");
  tessera_distribution* dp;
  tessera_dataset_plan* plan;
  const int64_t expected[] = {3, 2, 2, 3}; /* [3, 3, 2, 2] rotated left by pid 1 */
  size_t i;
  ASSERT_TRUE(tessera_distribution_options_set_dataset_mode(options,
                                                            TESSERA_DATASET_MODE_KERAS_3_0, &err));
  dp = tessera_distribution_create_data_parallel(mesh, options, &err);
  plan = tessera_distribution_plan_dataset(dp, 10, &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_dataset_plan_num_rebatches(plan, NULL));
  for (i = 0; i < 4; ++i) {
    size_t size = 0;
    ASSERT_TRUE(tessera_dataset_plan_rebatch_num_examples(plan, i, &size, &err));
    ASSERT_EQ(expected[i], size);
  }
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
  tessera_distribution_options_destroy(options);
}

static void rebatch_size_past_the_count_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(NULL, &err);
  tessera_dataset_plan* plan = tessera_distribution_plan_dataset(mp, 32, &err);
  size_t size = 3;
  ASSERT_FALSE(tessera_dataset_plan_rebatch_num_examples(plan, 0, &size, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 0; expected less than 0");
  ASSERT_EQ(3, size);
  ASSERT_FALSE(tessera_dataset_plan_rebatch_num_examples(plan, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_dataset_plan_rebatch_num_examples(NULL, 0, &size, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL");
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(mp);
}

static void plan_accessors_of_null_give_defaults(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_dataset_plan_kind(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dataset_plan_global_batch_num_examples(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dataset_plan_per_process_batch_num_examples(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dataset_plan_num_shards(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dataset_plan_shard_index(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dataset_plan_num_rebatches(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_distribution_plan_dataset(NULL, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL");
  tessera_dataset_plan_destroy(NULL);
}

static void distribution_accessors_of_null_give_defaults(void) {
  tessera_error* err = NULL;
  const int64_t dims[] = {2};
  ASSERT_EQ(0, tessera_distribution_kind(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_distribution_mesh(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_distribution_batch_dim_name(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_distribution_num_processes(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_distribution_process_index(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_distribution_num_model_replicas(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_distribution_num_data_shards(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_distribution_data_shard_id(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_distribution_variable_layout(NULL, "v", dims, 1, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL");
  ASSERT_NULL(tessera_distribution_tensor_layout(NULL, "v", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL");
  ASSERT_NULL(tessera_distribution_to_string(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'distribution' is NULL");
  tessera_distribution_destroy(NULL);
}

static void variable_and_tensor_layouts_need_a_path(void) {
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(NULL, &err);
  const int64_t dims[] = {2};
  ASSERT_NULL(tessera_distribution_variable_layout(mp, NULL, dims, 1, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'path' is NULL");
  ASSERT_NULL(tessera_distribution_variable_layout(mp, "v", NULL, 1, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'dims' is NULL but 'num_dims' is 1");
  ASSERT_NULL(tessera_distribution_tensor_layout(mp, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'path' is NULL");
  tessera_distribution_destroy(mp);
}

static void to_string_is_the_keras_repr(void) {
  tessera_mesh* mesh = fixture_mesh_1d(8, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, NULL);
  tessera_buffer* text = tessera_distribution_to_string(dp, NULL);
  ASSERT_STREQ("<DataParallel device_mesh=<DeviceMesh shape=(8,), axis_names=['batch']>>",
               tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
}

static void a_distribution_keeps_its_mesh_alive(void) {
  tessera_mesh* mesh = fixture_mesh_1d(8, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, NULL);
  const int64_t dims[] = {16};
  tessera_layout* layout;
  tessera_mesh_destroy(mesh);
  layout = tessera_distribution_data_layout(dp, dims, 1, NULL);
  tessera_distribution_destroy(dp);
  ASSERT_STREQ("batch", tessera_layout_dim_axis(layout, 0, 0, NULL));
  tessera_layout_destroy(layout);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(data_parallel_uses_every_device_and_the_first_axis),
      HARNESS_TEST(data_parallel_on_a_2d_mesh_counts_every_device),
      HARNESS_TEST(data_parallel_over_devices_builds_a_batch_mesh),
      HARNESS_TEST(data_parallel_over_no_devices_uses_all_devices),
      HARNESS_TEST(data_parallel_over_bad_devices_is_invalid_argument),
      HARNESS_TEST(data_parallel_needs_a_mesh),
      HARNESS_TEST(data_layout_shards_the_first_dimension_on_the_batch_axis),
      HARNESS_TEST(data_layout_rejects_scalars_negative_dims_and_null_dims),
      HARNESS_TEST(data_parallel_replicates_variables),
      HARNESS_TEST(explicit_variable_layout_wins_and_is_checked),
      HARNESS_TEST(model_parallel_takes_variable_layouts_from_the_map),
      HARNESS_TEST(model_parallel_checks_variable_shapes_strictly_by_default),
      HARNESS_TEST(chunk_shape_check_allows_uneven_variable_shards),
      HARNESS_TEST(model_parallel_tensor_layout_comes_from_the_map),
      HARNESS_TEST(model_parallel_defaults_to_the_first_axis),
      HARNESS_TEST(model_parallel_on_another_batch_axis_counts_its_size),
      HARNESS_TEST(model_parallel_with_an_unknown_batch_axis_is_invalid_argument),
      HARNESS_TEST(model_parallel_needs_a_map_with_a_mesh),
      HARNESS_TEST(model_parallel_keeps_a_snapshot_of_the_map),
      HARNESS_TEST(model_parallel_rejects_processes_not_divisible_by_replicas),
      HARNESS_TEST(options_set_process_overrides_the_runtime),
      HARNESS_TEST(options_reject_impossible_process_numbers),
      HARNESS_TEST(options_reject_unknown_enum_values_naming_them),
      HARNESS_TEST(options_setters_reject_null_options),
      HARNESS_TEST(a_single_process_reads_the_dataset_as_it_is),
      HARNESS_TEST(processes_read_contiguous_shards_of_each_batch),
      HARNESS_TEST(auto_shard_off_leaves_the_dataset_alone),
      HARNESS_TEST(batch_not_divisible_by_the_shards_is_invalid_argument),
      HARNESS_TEST(batch_size_beyond_int64_is_out_of_range),
      HARNESS_TEST(keras_3_0_data_parallel_plans_uneven_rebatch_sizes),
      HARNESS_TEST(rebatch_size_past_the_count_is_out_of_range),
      HARNESS_TEST(plan_accessors_of_null_give_defaults),
      HARNESS_TEST(distribution_accessors_of_null_give_defaults),
      HARNESS_TEST(variable_and_tensor_layouts_need_a_path),
      HARNESS_TEST(to_string_is_the_keras_repr),
      HARNESS_TEST(a_distribution_keeps_its_mesh_alive),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
