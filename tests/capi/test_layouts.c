/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Tensor layouts: creation, meshes, queries, shape checks. */
#include <stdint.h>

#include "fixtures.h"
#include "harness.h"

static void layout_maps_each_dimension_to_at_most_one_axis(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  size_t count = 9;
  ASSERT_NOT_NULL(layout);
  ASSERT_EQ(2, tessera_layout_num_dims(layout, NULL));
  ASSERT_TRUE(tessera_layout_dim_num_axes(layout, 0, &count, &err));
  ASSERT_EQ(1, count);
  ASSERT_STREQ("batch", tessera_layout_dim_axis(layout, 0, 0, &err));
  ASSERT_TRUE(tessera_layout_dim_num_axes(layout, 1, &count, &err));
  ASSERT_EQ(0, count);
  ASSERT_OK(err);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void empty_axis_name_means_replicated(void) {
  tessera_layout* layout = fixture_layout_2d("", "model", NULL);
  size_t count = 9;
  ASSERT_NOT_NULL(layout);
  ASSERT_TRUE(tessera_layout_dim_num_axes(layout, 0, &count, NULL));
  ASSERT_EQ(0, count);
  tessera_layout_destroy(layout);
}

static void scalar_layout_has_rank_zero(void) {
  tessera_error* err = NULL;
  tessera_layout* layout = tessera_layout_create(NULL, 0, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(0, tessera_layout_num_dims(layout, NULL));
  tessera_layout_destroy(layout);
}

static void shard_count_is_the_product_of_the_axes(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("model", NULL, mesh);
  size_t shards = 0;
  ASSERT_TRUE(tessera_layout_dim_num_shards(layout, 0, &shards, &err));
  ASSERT_EQ(4, shards);
  ASSERT_TRUE(tessera_layout_dim_num_shards(layout, 1, &shards, &err));
  ASSERT_EQ(1, shards);
  ASSERT_OK(err);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void grouped_layout_splits_a_dimension_over_several_axes(void) {
  static const char* const names[] = {"model", "batch"};
  const size_t groups[] = {0, 2};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = tessera_layout_create_grouped(names, 2, groups, 2, mesh, &err);
  size_t count = 0;
  size_t shards = 0;
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_dim_num_axes(layout, 1, &count, &err));
  ASSERT_EQ(2, count);
  ASSERT_STREQ("model", tessera_layout_dim_axis(layout, 1, 0, &err));
  ASSERT_STREQ("batch", tessera_layout_dim_axis(layout, 1, 1, &err));
  ASSERT_TRUE(tessera_layout_dim_num_shards(layout, 1, &shards, &err));
  ASSERT_EQ(8, shards);
  ASSERT_OK(err);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void group_sizes_adding_up_to_more_than_the_names_are_invalid(void) {
  static const char* const names[] = {"model", "batch"};
  const size_t groups[] = {1, 5};
  const size_t huge[] = {(size_t)-1, 3};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_create_grouped(names, 2, groups, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'group_sizes' adds up to more than 'num_axis_names' (2): "
               "group_sizes[1] is 5 with 1 names left");
  ASSERT_NULL(tessera_layout_create_grouped(names, 2, huge, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "group_sizes[0] is 18446744073709551615");
}

static void group_sizes_adding_up_to_fewer_than_the_names_are_invalid(void) {
  static const char* const names[] = {"model", "batch"};
  const size_t groups[] = {1, 0};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_create_grouped(names, 2, groups, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'group_sizes' adds up to 1; expected 'num_axis_names' (2)");
}

static void grouped_layout_rejects_null_arrays_by_name(void) {
  static const char* const good_names[] = {"model", "batch"};
  static const char* const names[] = {"model", NULL};
  const size_t groups[] = {1, 1};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_create_grouped(good_names, 2, NULL, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'group_sizes' is NULL but 'num_dims' is 2");
  ASSERT_NULL(tessera_layout_create_grouped(NULL, 2, groups, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'axis_names' is NULL but 'num_axis_names' is 2");
  ASSERT_NULL(tessera_layout_create_grouped(names, 2, groups, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'axis_names[1]' is NULL");
}

static void replicated_layout_has_no_axes(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = tessera_layout_create_replicated(3, mesh, &err);
  size_t dim;
  ASSERT_OK(err);
  ASSERT_EQ(3, tessera_layout_num_dims(layout, NULL));
  for (dim = 0; dim < 3; ++dim) {
    size_t count = 9;
    ASSERT_TRUE(tessera_layout_dim_num_axes(layout, dim, &count, &err));
    ASSERT_EQ(0, count);
  }
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void replicated_layout_above_the_maximum_rank_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_create_replicated((size_t)-1, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "expected at most 1024");
}

static void replicated_layout_just_above_the_maximum_rank_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_create_replicated(1025, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'rank' has rank 1025");
}

static void null_axes_with_a_rank_are_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_create(NULL, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'axes' is NULL but 'num_axes' is 2");
}

static void axis_used_twice_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  const char* const axes[] = {"model", "model"};
  ASSERT_NULL(tessera_layout_create(axes, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'axes' uses mesh axis 'model' twice (dimensions 0 and 1)");
}

static void axis_the_mesh_lacks_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  const char* const axes[] = {"data", NULL};
  ASSERT_NULL(tessera_layout_create(axes, 2, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Invalid axis names for Layout. Valid axis names: {'batch', 'model'}, Got {'data'}");
  tessera_mesh_destroy(mesh);
}

static void layout_without_a_mesh_gets_one_once(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* bare = fixture_layout_2d(NULL, "model", NULL);
  tessera_layout* placed = tessera_layout_with_mesh(bare, mesh, &err);
  tessera_mesh* placed_mesh = tessera_layout_mesh(placed, NULL);
  ASSERT_OK(err);
  ASSERT_NULL(tessera_layout_mesh(bare, NULL));
  ASSERT_TRUE(tessera_mesh_equal(mesh, placed_mesh));
  ASSERT_NULL(tessera_layout_with_mesh(placed, mesh, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "Cannot override device mesh value");
  tessera_mesh_destroy(placed_mesh);
  tessera_layout_destroy(placed);
  tessera_layout_destroy(bare);
  tessera_mesh_destroy(mesh);
}

static void with_mesh_checks_the_axes_against_the_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(2, "data");
  tessera_layout* bare = fixture_layout_2d(NULL, "model", NULL);
  ASSERT_NULL(tessera_layout_with_mesh(bare, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Invalid axis names for Layout. Valid axis names: {'data'}, Got {'model'}");
  ASSERT_NULL(tessera_layout_with_mesh(bare, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
  ASSERT_NULL(tessera_layout_with_mesh(NULL, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL");
  tessera_layout_destroy(bare);
  tessera_mesh_destroy(mesh);
}

static void shard_count_needs_a_mesh(void) {
  tessera_error* err = NULL;
  tessera_layout* bare = fixture_layout_2d("model", NULL, NULL);
  size_t shards = 0;
  ASSERT_FALSE(tessera_layout_dim_num_shards(bare, 0, &shards, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "Layout <TensorLayout axes=('model', None), device_mesh=None> has no device mesh");
  tessera_layout_destroy(bare);
}

static void dimension_past_the_rank_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  size_t count = 0;
  size_t shards = 0;
  ASSERT_FALSE(tessera_layout_dim_num_axes(layout, 2, &count, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'dim' is 2; expected less than 2");
  ASSERT_NULL(tessera_layout_dim_axis(layout, 7, 0, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'dim' is 7");
  ASSERT_FALSE(tessera_layout_dim_num_shards(layout, 2, &shards, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'dim' is 2");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void axis_position_past_the_group_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_layout* layout = fixture_layout_2d("batch", NULL, NULL);
  ASSERT_NULL(tessera_layout_dim_axis(layout, 0, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE,
               "Argument 'position' is 1; expected less than 1 (the number of axes of dimension 0)");
  ASSERT_NULL(tessera_layout_dim_axis(layout, 1, 0, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'position' is 0; expected less than 0");
  tessera_layout_destroy(layout);
}

static void check_shape_accepts_divisible_dimensions(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", "model", mesh);
  const int64_t dims[] = {8, 12};
  ASSERT_TRUE(tessera_layout_check_shape(layout, dims, 2, TESSERA_SHAPE_CHECK_STRICT, &err));
  ASSERT_OK(err);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void strict_check_rejects_an_indivisible_dimension(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", "model", mesh);
  const int64_t dims[] = {8, 6};
  ASSERT_FALSE(tessera_layout_check_shape(layout, dims, 2, TESSERA_SHAPE_CHECK_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'shape' (8, 6) dimension 1 has size 6, which is not divisible by 4, "
               "the number of shards of mesh axes 'model'");
  ASSERT_TRUE(tessera_layout_check_shape(layout, dims, 2, TESSERA_SHAPE_CHECK_CHUNK, &err));
  ASSERT_OK(err);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void check_shape_rejects_a_rank_mismatch(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  const int64_t dims[] = {8, 4, 4};
  ASSERT_FALSE(tessera_layout_check_shape(layout, dims, 3, TESSERA_SHAPE_CHECK_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'shape' (8, 4, 4) has rank 3; the layout ('batch', None) expects rank 2");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void check_shape_rejects_a_negative_dimension(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  const int64_t dims[] = {8, -5};
  ASSERT_FALSE(tessera_layout_check_shape(layout, dims, 2, TESSERA_SHAPE_CHECK_CHUNK, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'shape' (8, -5) has dimension 1 equal to -5; expected sizes >= 0");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void check_shape_needs_a_mesh(void) {
  tessera_error* err = NULL;
  tessera_layout* bare = fixture_layout_2d("batch", NULL, NULL);
  const int64_t dims[] = {8, 4};
  ASSERT_FALSE(tessera_layout_check_shape(bare, dims, 2, TESSERA_SHAPE_CHECK_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "has no device mesh");
  tessera_layout_destroy(bare);
}

static void check_shape_rejects_an_unknown_mode_naming_it(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  const int64_t dims[] = {8, 4};
  ASSERT_FALSE(tessera_layout_check_shape(layout, dims, 2, (tessera_shape_check_t)7, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'mode' is 7; expected one of TESSERA_SHAPE_CHECK_STRICT (0), "
               "TESSERA_SHAPE_CHECK_CHUNK (1)");
  ASSERT_FALSE(tessera_layout_check_shape(layout, dims, 2, (tessera_shape_check_t)-1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mode' is -1");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void check_shape_rejects_null_arguments_by_name(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  const int64_t dims[] = {8, 4};
  ASSERT_FALSE(tessera_layout_check_shape(layout, NULL, 2, TESSERA_SHAPE_CHECK_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'dims' is NULL but 'num_dims' is 2");
  ASSERT_FALSE(tessera_layout_check_shape(NULL, dims, 2, TESSERA_SHAPE_CHECK_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void max_shard_shape_rounds_up(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", "model", mesh);
  const int64_t dims[] = {7, 10};
  int64_t shard[2] = {0, 0};
  ASSERT_EQ(2, tessera_layout_max_shard_shape(layout, dims, 2, shard, 2, &err));
  ASSERT_OK(err);
  ASSERT_EQ(4, shard[0]);
  ASSERT_EQ(3, shard[1]);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void max_shard_shape_needs_room_for_every_dimension(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", "model", mesh);
  const int64_t dims[] = {8, 8};
  int64_t shard[2] = {-1, -1};
  ASSERT_FALSE(tessera_layout_max_shard_shape(layout, dims, 2, shard, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 1; expected at least 2");
  ASSERT_FALSE(tessera_layout_max_shard_shape(layout, dims, 2, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL but 'capacity' is 2");
  ASSERT_EQ(-1, shard[0]);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void layouts_are_equal_by_axes_and_mesh(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* a = fixture_layout_2d("batch", NULL, mesh);
  tessera_layout* b = fixture_layout_2d("batch", "", mesh);
  tessera_layout* other_axes = fixture_layout_2d(NULL, "batch", mesh);
  tessera_layout* no_mesh = fixture_layout_2d("batch", NULL, NULL);
  ASSERT_TRUE(tessera_layout_equal(a, b));
  ASSERT_FALSE(tessera_layout_equal(a, other_axes));
  ASSERT_FALSE(tessera_layout_equal(a, no_mesh));
  ASSERT_FALSE(tessera_layout_equal(a, NULL));
  ASSERT_TRUE(tessera_layout_equal(NULL, NULL));
  tessera_layout_destroy(a);
  tessera_layout_destroy(b);
  tessera_layout_destroy(other_axes);
  tessera_layout_destroy(no_mesh);
  tessera_mesh_destroy(mesh);
}

static void to_string_is_the_keras_repr(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  tessera_buffer* text = tessera_layout_to_string(layout, NULL);
  ASSERT_STREQ("<TensorLayout axes=('batch', None), device_mesh=<DeviceMesh shape=(2, 4), "
               "axis_names=['batch', 'model']>>",
               tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void a_layout_keeps_its_mesh_alive(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", "model", mesh);
  tessera_mesh* again;
  size_t shards = 0;
  tessera_mesh_destroy(mesh);
  ASSERT_TRUE(tessera_layout_dim_num_shards(layout, 1, &shards, NULL));
  ASSERT_EQ(4, shards);
  again = tessera_layout_mesh(layout, NULL);
  ASSERT_EQ(8, tessera_mesh_num_devices(again, NULL));
  tessera_layout_destroy(layout);
  ASSERT_STREQ("model", tessera_mesh_axis_name(again, 1, NULL));
  tessera_mesh_destroy(again);
}

static void accessors_of_a_null_layout_give_defaults(void) {
  tessera_error* err = NULL;
  size_t count = 0;
  ASSERT_EQ(0, tessera_layout_num_dims(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_layout_mesh(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL; expected a valid pointer");
  ASSERT_FALSE(tessera_layout_dim_num_axes(NULL, 0, &count, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL");
  ASSERT_NULL(tessera_layout_to_string(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL");
  tessera_layout_destroy(NULL);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(layout_maps_each_dimension_to_at_most_one_axis),
      HARNESS_TEST(empty_axis_name_means_replicated),
      HARNESS_TEST(scalar_layout_has_rank_zero),
      HARNESS_TEST(shard_count_is_the_product_of_the_axes),
      HARNESS_TEST(grouped_layout_splits_a_dimension_over_several_axes),
      HARNESS_TEST(group_sizes_adding_up_to_more_than_the_names_are_invalid),
      HARNESS_TEST(group_sizes_adding_up_to_fewer_than_the_names_are_invalid),
      HARNESS_TEST(grouped_layout_rejects_null_arrays_by_name),
      HARNESS_TEST(replicated_layout_has_no_axes),
      HARNESS_TEST(replicated_layout_above_the_maximum_rank_is_invalid_argument),
      HARNESS_TEST(replicated_layout_just_above_the_maximum_rank_is_invalid_argument),
      HARNESS_TEST(null_axes_with_a_rank_are_invalid_argument),
      HARNESS_TEST(axis_used_twice_is_invalid_argument_naming_it),
      HARNESS_TEST(axis_the_mesh_lacks_is_invalid_argument_naming_it),
      HARNESS_TEST(layout_without_a_mesh_gets_one_once),
      HARNESS_TEST(with_mesh_checks_the_axes_against_the_mesh),
      HARNESS_TEST(shard_count_needs_a_mesh),
      HARNESS_TEST(dimension_past_the_rank_is_out_of_range),
      HARNESS_TEST(axis_position_past_the_group_is_out_of_range),
      HARNESS_TEST(check_shape_accepts_divisible_dimensions),
      HARNESS_TEST(strict_check_rejects_an_indivisible_dimension),
      HARNESS_TEST(check_shape_rejects_a_rank_mismatch),
      HARNESS_TEST(check_shape_rejects_a_negative_dimension),
      HARNESS_TEST(check_shape_needs_a_mesh),
      HARNESS_TEST(check_shape_rejects_an_unknown_mode_naming_it),
      HARNESS_TEST(check_shape_rejects_null_arguments_by_name),
      HARNESS_TEST(max_shard_shape_rounds_up),
      HARNESS_TEST(max_shard_shape_needs_room_for_every_dimension),
      HARNESS_TEST(layouts_are_equal_by_axes_and_mesh),
      HARNESS_TEST(to_string_is_the_keras_repr),
      HARNESS_TEST(a_layout_keeps_its_mesh_alive),
      HARNESS_TEST(accessors_of_a_null_layout_give_defaults),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
