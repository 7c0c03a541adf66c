/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Device meshes: creation, validation, queries. */
#include <stdint.h>

#include "fixtures.h"
#include "harness.h"

static const char* const kNames2[] = {"batch", "model"};
static const char* const kDevices8[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                                        "cpu:4", "cpu:5", "cpu:6", "cpu:7"};

static void mesh_has_the_shape_and_axes_it_was_given(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t dim = 0;
  ASSERT_NOT_NULL(mesh);
  ASSERT_EQ(2, tessera_mesh_num_axes(mesh, NULL));
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  ASSERT_EQ(TESSERA_PLATFORM_CPU, tessera_mesh_platform(mesh, NULL));
  ASSERT_TRUE(tessera_mesh_axis_extent(mesh, 0, &dim, &err));
  ASSERT_EQ(2, dim);
  ASSERT_TRUE(tessera_mesh_axis_extent(mesh, 1, &dim, &err));
  ASSERT_EQ(4, dim);
  ASSERT_STREQ("batch", tessera_mesh_axis_name(mesh, 0, &err));
  ASSERT_STREQ("model", tessera_mesh_axis_name(mesh, 1, &err));
  ASSERT_OK(err);
  tessera_mesh_destroy(mesh);
}

static void axes_are_found_by_name(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  size_t index = 9;
  int64_t size = 0;
  ASSERT_TRUE(tessera_mesh_axis_lookup(mesh, "model", &index, &err));
  ASSERT_EQ(1, index);
  ASSERT_TRUE(tessera_mesh_axis_extent_lookup(mesh, "model", &size, &err));
  ASSERT_EQ(4, size);
  ASSERT_OK(err);
  tessera_mesh_destroy(mesh);
}

static void devices_are_placed_row_major(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_device* device = tessera_mesh_device(mesh, 6, &err);
  const int64_t at[] = {1, 2};
  int64_t coords[2] = {0, 0};
  int64_t id = -1;
  ASSERT_OK(err);
  ASSERT_STREQ("cpu:6", tessera_device_name(device, NULL));
  ASSERT_TRUE(tessera_mesh_device_at(mesh, at, 2, &id, &err));
  ASSERT_EQ(6, id);
  ASSERT_EQ(2, tessera_mesh_device_coordinates(mesh, 5, coords, 2, &err));
  ASSERT_EQ(1, coords[0]);
  ASSERT_EQ(1, coords[1]);
  ASSERT_OK(err);
  tessera_device_destroy(device);
  tessera_mesh_destroy(mesh);
}

static void devices_keep_the_order_given(void) {
  static const char* const reversed[] = {"cpu:3", "cpu:2", "cpu:1", "cpu:0"};
  const int64_t shape[] = {2, 2};
  const int64_t origin[] = {0, 0};
  int64_t id = -1;
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_create_mesh(shape, kNames2, 2, reversed, 4, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_device_at(mesh, origin, 2, &id, &err));
  ASSERT_EQ(3, id);
  tessera_mesh_destroy(mesh);
}

static void null_devices_mean_all_devices_of_the_default_type(void) {
  const int64_t shape[] = {2, 4};
  tessera_error* err = NULL;
  tessera_mesh* mesh;
  tessera_device* last;
  ASSERT_TRUE(fixture_set_cpu_devices("8"));
  mesh = fixture_create_mesh(shape, kNames2, 2, NULL, 0, &err);
  ASSERT_OK(err);
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  last = tessera_mesh_device(mesh, 7, &err);
  ASSERT_STREQ("cpu:7", tessera_device_name(last, NULL));
  tessera_device_destroy(last);
  tessera_mesh_destroy(mesh);
}

static void null_options_mean_every_device_of_the_default_type(void) {
  const int64_t shape[] = {8};
  const char* const names[] = {"batch"};
  tessera_error* err = NULL;
  tessera_mesh* mesh = tessera_mesh_create(shape, names, 1, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  tessera_mesh_destroy(mesh);
}

static void null_devices_with_a_count_is_invalid_argument(void) {
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_mesh_options_set_devices(options, NULL, 3, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices' is NULL but 'num_devices' is 3");
  tessera_mesh_options_destroy(options);
}

static void devices_set_back_to_null_restore_the_default(void) {
  const int64_t shape[] = {8};
  const char* const names[] = {"batch"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  tessera_mesh* mesh;
  ASSERT_TRUE(tessera_mesh_options_set_devices(options, kDevices8, 2, &err));
  ASSERT_TRUE(tessera_mesh_options_set_devices(options, NULL, 0, &err));
  mesh = tessera_mesh_create(shape, names, 1, options, &err);
  ASSERT_OK(err);
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(options);
}

static void options_for_tessera_mesh_make_only_are_refused_naming_the_field(void) {
  const int64_t shape[] = {8};
  const char* const names[] = {"batch"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_mesh_options_set_device_kind(options, "TPU v4", &err));
  ASSERT_NULL(tessera_mesh_create(shape, names, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' sets device_kind, which tessera_mesh_create does not read; "
               "expected options without it");
  ASSERT_TRUE(tessera_mesh_options_set_device_kind(options, NULL, &err));
  ASSERT_TRUE(tessera_mesh_options_set_sort_granules_by_key(options, false, &err));
  ASSERT_NULL(tessera_mesh_create(shape, names, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' sets sort_granules_by_key, which tessera_mesh_create does not read; "
               "expected options without it");
  tessera_mesh_options_destroy(options);
}

static void default_devices_must_fill_the_shape(void) {
  const int64_t shape[] = {2, 4};
  tessera_error* err = NULL;
  ASSERT_TRUE(fixture_set_cpu_devices("4"));
  ASSERT_NULL(fixture_create_mesh(shape, kNames2, 2, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Shape does not match the number of devices. Received: shape=(2, 4); "
               "devices.shape=(4,)");
  ASSERT_TRUE(fixture_set_cpu_devices("8"));
}

static void null_shape_with_dimensions_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(NULL, kNames2, 2, kDevices8, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shape' is NULL but 'num_axes' is 2");
}

static void null_axis_names_with_a_count_is_invalid_argument(void) {
  const int64_t shape[] = {2, 4};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, NULL, 2, kDevices8, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'axis_names' is NULL but 'num_axes' is 2");
}

static void null_axis_name_entry_is_invalid_argument_naming_its_index(void) {
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"batch", NULL};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, names, 2, kDevices8, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'axis_names[1]' is NULL");
}

static void null_device_entry_is_invalid_argument_naming_its_index(void) {
  const int64_t shape[] = {2, 2};
  const char* const devices[] = {"cpu:0", "cpu:1", "cpu:2", NULL};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, kNames2, 2, devices, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices[3]' is NULL");
}

static void empty_shape_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(NULL, NULL, 0, kDevices8, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Shape and axis_names cannot be empty. Received: shape=(), axis_names=[]");
}

static void zero_dimension_is_invalid_argument(void) {
  const int64_t shape[] = {2, 0};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, kNames2, 2, kDevices8, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'shape' (2, 0) has dimension 1 equal to 0; expected sizes >= 1");
}

static void negative_dimension_is_invalid_argument_naming_it(void) {
  const int64_t shape[] = {-2, -4};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, kNames2, 2, kDevices8, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'shape' (-2, -4) has dimension 0 equal to -2");
}

static void overflowing_product_of_dimensions_is_invalid_argument(void) {
  const int64_t shape[] = {INT64_C(4294967296), INT64_C(4294967296)};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, kNames2, 2, kDevices8, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'shape' (4294967296, 4294967296): the product of its dimensions "
               "overflows int64");
}

static void device_count_must_equal_the_product_of_dimensions(void) {
  const int64_t shape[] = {2, 4};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, kNames2, 2, kDevices8, 7, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "shape=(2, 4); devices.shape=(7,)");
}

static void empty_axis_name_is_invalid_argument(void) {
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"batch", ""};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, names, 2, kDevices8, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'axis_names' entry 1 is empty");
}

static void duplicate_axis_names_are_invalid_argument_naming_them(void) {
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"model", "model"};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, names, 2, kDevices8, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "names axis 'model' twice");
}

static void duplicate_devices_are_invalid_argument_naming_them(void) {
  const int64_t shape[] = {2};
  const char* const names[] = {"batch"};
  const char* const devices[] = {"cpu:1", "cpu:1"};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, names, 1, devices, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices' lists 'cpu:1' twice");
}

static void devices_of_several_platforms_are_invalid_argument(void) {
  const int64_t shape[] = {2};
  const char* const names[] = {"batch"};
  const char* const devices[] = {"cpu:0", "gpu:0"};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, names, 1, devices, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'devices' mixes platforms: entry 0 is 'cpu:0' and entry 1 is 'gpu:0'");
}

static void unparseable_device_is_invalid_argument_naming_it(void) {
  const int64_t shape[] = {2};
  const char* const names[] = {"batch"};
  const char* const devices[] = {"cpu:0", "npu:1"};
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_create_mesh(shape, names, 1, devices, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices' entry 1: Device 'npu:1'");
}

static void dim_past_the_rank_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t dim = -1;
  ASSERT_FALSE(tessera_mesh_axis_extent(mesh, 2, &dim, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 2; expected less than 2");
  ASSERT_EQ(-1, dim);
  ASSERT_NULL(tessera_mesh_axis_name(mesh, 5, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 5");
  tessera_mesh_destroy(mesh);
}

static void unknown_axis_is_not_found_listing_the_axes(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  size_t index = 0;
  int64_t size = 0;
  ASSERT_FALSE(tessera_mesh_axis_lookup(mesh, "data", &index, &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "Axis 'data' is not in the mesh; its axes are ['batch', 'model']");
  ASSERT_FALSE(tessera_mesh_axis_extent_lookup(mesh, "data", &size, &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "data");
  tessera_mesh_destroy(mesh);
}

static void device_past_the_size_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_mesh_device(mesh, 8, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 8; expected less than 8");
  tessera_mesh_destroy(mesh);
}

static void coordinates_of_a_device_outside_the_mesh_are_not_found(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t coords[2];
  ASSERT_FALSE(tessera_mesh_device_coordinates(mesh, 99, coords, 2, &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "Device id 99 is not in the mesh");
  tessera_mesh_destroy(mesh);
}

static void coordinates_need_room_for_the_rank(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t coords[2];
  ASSERT_FALSE(tessera_mesh_device_coordinates(mesh, 1, coords, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 1; expected at least 2");
  ASSERT_FALSE(tessera_mesh_device_coordinates(mesh, 1, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL but 'capacity' is 2");
  tessera_mesh_destroy(mesh);
}

static void device_at_needs_one_coordinate_per_axis(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  const int64_t coords[] = {1};
  int64_t id = -1;
  ASSERT_FALSE(tessera_mesh_device_at(mesh, coords, 1, &id, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'coords' has 1 entries; expected the mesh rank 2");
  ASSERT_FALSE(tessera_mesh_device_at(mesh, NULL, 2, &id, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'coords' is NULL but 'num_coords' is 2");
  ASSERT_FALSE(tessera_mesh_device_at(mesh, coords, 1, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out_device_id' is NULL");
  tessera_mesh_destroy(mesh);
}

static void device_at_a_coordinate_outside_its_axis_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  const int64_t too_big[] = {0, 4};
  const int64_t negative[] = {-1, 0};
  int64_t id = -1;
  ASSERT_FALSE(tessera_mesh_device_at(mesh, too_big, 2, &id, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'coords' entry 1 is 4; expected 0 to 3 on axis 'model'");
  ASSERT_FALSE(tessera_mesh_device_at(mesh, negative, 2, &id, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'coords' entry 0 is -1; expected 0 to 1 on axis 'batch'");
  ASSERT_EQ(-1, id);
  tessera_mesh_destroy(mesh);
}

static void queries_reject_null_arguments_by_name(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t value = 0;
  size_t index = 0;
  int64_t coords[2];
  ASSERT_FALSE(tessera_mesh_axis_extent(NULL, 0, &value, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
  ASSERT_FALSE(tessera_mesh_axis_extent(mesh, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_NULL(tessera_mesh_axis_name(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
  ASSERT_FALSE(tessera_mesh_axis_lookup(mesh, NULL, &index, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'name' is NULL");
  ASSERT_FALSE(tessera_mesh_axis_lookup(mesh, "batch", NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_mesh_axis_extent_lookup(NULL, "batch", &value, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
  ASSERT_NULL(tessera_mesh_device(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
  ASSERT_FALSE(tessera_mesh_device_coordinates(NULL, 0, coords, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
  ASSERT_NULL(tessera_mesh_to_string(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL");
  tessera_mesh_destroy(mesh);
}

static void accessors_of_a_null_mesh_give_defaults(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_mesh_num_axes(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_mesh_num_devices(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_mesh_platform(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  tessera_mesh_destroy(NULL);
}

static void meshes_are_equal_by_value(void) {
  tessera_mesh* a = fixture_mesh_2x4();
  tessera_mesh* b = fixture_mesh_2x4();
  tessera_mesh* other = fixture_mesh_1d(8, "batch");
  ASSERT_TRUE(tessera_mesh_equal(a, b));
  ASSERT_FALSE(tessera_mesh_equal(a, other));
  ASSERT_FALSE(tessera_mesh_equal(a, NULL));
  ASSERT_TRUE(tessera_mesh_equal(NULL, NULL));
  tessera_mesh_destroy(a);
  tessera_mesh_destroy(b);
  tessera_mesh_destroy(other);
}

static void meshes_with_devices_in_another_order_differ(void) {
  static const char* const reversed[] = {"cpu:1", "cpu:0"};
  const int64_t shape[] = {2};
  const char* const names[] = {"batch"};
  tessera_mesh* a = fixture_mesh_1d(2, "batch");
  tessera_mesh* b = fixture_create_mesh(shape, names, 1, reversed, 2, NULL);
  ASSERT_NOT_NULL(b);
  ASSERT_FALSE(tessera_mesh_equal(a, b));
  tessera_mesh_destroy(a);
  tessera_mesh_destroy(b);
}

static void to_string_is_the_keras_repr(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_buffer* text = tessera_mesh_to_string(mesh, NULL);
  ASSERT_STREQ("<DeviceMesh shape=(2, 4), axis_names=['batch', 'model']>",
               tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(mesh);
}

static void axis_name_lives_as_long_as_the_mesh_handle(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  const char* name = tessera_mesh_axis_name(mesh, 1, NULL);
  tessera_buffer* text = tessera_mesh_to_string(mesh, NULL); /* unrelated work */
  tessera_buffer_destroy(text);
  ASSERT_STREQ("model", name);
  tessera_mesh_destroy(mesh);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(mesh_has_the_shape_and_axes_it_was_given),
      HARNESS_TEST(axes_are_found_by_name),
      HARNESS_TEST(devices_are_placed_row_major),
      HARNESS_TEST(devices_keep_the_order_given),
      HARNESS_TEST(null_devices_mean_all_devices_of_the_default_type),
      HARNESS_TEST(null_options_mean_every_device_of_the_default_type),
      HARNESS_TEST(null_devices_with_a_count_is_invalid_argument),
      HARNESS_TEST(devices_set_back_to_null_restore_the_default),
      HARNESS_TEST(options_for_tessera_mesh_make_only_are_refused_naming_the_field),
      HARNESS_TEST(default_devices_must_fill_the_shape),
      HARNESS_TEST(null_shape_with_dimensions_is_invalid_argument),
      HARNESS_TEST(null_axis_names_with_a_count_is_invalid_argument),
      HARNESS_TEST(null_axis_name_entry_is_invalid_argument_naming_its_index),
      HARNESS_TEST(null_device_entry_is_invalid_argument_naming_its_index),
      HARNESS_TEST(empty_shape_is_invalid_argument),
      HARNESS_TEST(zero_dimension_is_invalid_argument),
      HARNESS_TEST(negative_dimension_is_invalid_argument_naming_it),
      HARNESS_TEST(overflowing_product_of_dimensions_is_invalid_argument),
      HARNESS_TEST(device_count_must_equal_the_product_of_dimensions),
      HARNESS_TEST(empty_axis_name_is_invalid_argument),
      HARNESS_TEST(duplicate_axis_names_are_invalid_argument_naming_them),
      HARNESS_TEST(duplicate_devices_are_invalid_argument_naming_them),
      HARNESS_TEST(devices_of_several_platforms_are_invalid_argument),
      HARNESS_TEST(unparseable_device_is_invalid_argument_naming_it),
      HARNESS_TEST(dim_past_the_rank_is_out_of_range),
      HARNESS_TEST(unknown_axis_is_not_found_listing_the_axes),
      HARNESS_TEST(device_past_the_size_is_out_of_range),
      HARNESS_TEST(coordinates_of_a_device_outside_the_mesh_are_not_found),
      HARNESS_TEST(coordinates_need_room_for_the_rank),
      HARNESS_TEST(device_at_needs_one_coordinate_per_axis),
      HARNESS_TEST(device_at_a_coordinate_outside_its_axis_is_out_of_range),
      HARNESS_TEST(queries_reject_null_arguments_by_name),
      HARNESS_TEST(accessors_of_a_null_mesh_give_defaults),
      HARNESS_TEST(meshes_are_equal_by_value),
      HARNESS_TEST(meshes_with_devices_in_another_order_differ),
      HARNESS_TEST(to_string_is_the_keras_repr),
      HARNESS_TEST(axis_name_lives_as_long_as_the_mesh_handle),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
