/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* DTensor mesh and layout text through the C ABI: exact round trips, the
 * DTensor mesh handle, conversions, and bad input (NULL, garbage, truncated
 * text). */
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

#define DEV(i) "/job:localhost/replica:0/task:0/device:CPU:" #i
#define CPU_2X4                                                                \
  "|batch=2,model=4|0,1,2,3,4,5,6,7|0,1,2,3,4,5,6,7|" DEV(0) "," DEV(1) "," \
  DEV(2) "," DEV(3) "," DEV(4) "," DEV(5) "," DEV(6) "," DEV(7)
/* Everything a tessera_mesh cannot hold: a name, a replica, use_xla_spmd. */
#define RICH_MESH                                                                        \
  "pod|x=2|0,1|0,1|/job:localhost/replica:1/task:0/device:TPU:0,"                      \
  "/job:localhost/replica:1/task:0/device:TPU:1|use_xla_spmd"

static void mesh_prints_as_dtensor_text(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_buffer* text = tessera_mesh_to_dtensor_text(mesh, &err);
  ASSERT_OK(err);
  ASSERT_STREQ(CPU_2X4, tessera_buffer_data(text));
  ASSERT_EQ(strlen(CPU_2X4), tessera_buffer_size(text));
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(mesh);
}

static void mesh_text_parses_back_to_an_equal_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* expected = fixture_mesh_2x4();
  tessera_mesh* parsed = tessera_mesh_from_dtensor_text(CPU_2X4, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(expected, parsed));
  tessera_mesh_destroy(parsed);
  tessera_mesh_destroy(expected);
}

static void layout_prints_as_dtensor_text(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  tessera_buffer* text = tessera_layout_to_dtensor_text(layout, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("sharding_specs:unsharded,model, mesh:" CPU_2X4, tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void layout_text_parses_with_its_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* expected_mesh = fixture_mesh_2x4();
  tessera_layout* expected = fixture_layout_2d("batch", NULL, expected_mesh);
  tessera_layout* parsed =
      tessera_layout_from_dtensor_text("sharding_specs:batch,unsharded, mesh:" CPU_2X4, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(expected, parsed));
  tessera_layout_destroy(parsed);
  tessera_layout_destroy(expected);
  tessera_mesh_destroy(expected_mesh);
}

static void grouped_layout_is_invalid_argument_naming_the_dimension(void) {
  static const char* const names[] = {"batch", "model"};
  const size_t groups[] = {2};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = tessera_layout_create_grouped(names, 2, groups, 1, mesh, NULL);
  ASSERT_NULL(tessera_layout_to_dtensor_text(layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "dimension 0 is split over the axis group");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void dtensor_mesh_round_trips_what_a_mesh_cannot_hold(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(RICH_MESH, &err);
  tessera_buffer* text = tessera_dtensor_mesh_to_text(mesh, &err);
  ASSERT_OK(err);
  ASSERT_STREQ(RICH_MESH, tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_dtensor_mesh_destroy(mesh);
}

static void dtensor_mesh_accessors_read_every_field(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(RICH_MESH, &err);
  int64_t value = -1;
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DTENSOR_MESH_TILE, tessera_dtensor_mesh_kind(mesh, NULL));
  ASSERT_STREQ("pod", tessera_dtensor_mesh_name(mesh, NULL));
  ASSERT_STREQ("TPU", tessera_dtensor_mesh_device_type(mesh, NULL));
  ASSERT_STREQ("", tessera_dtensor_mesh_single_device(mesh, NULL));
  ASSERT_TRUE(tessera_dtensor_mesh_use_xla_spmd(mesh, NULL));
  ASSERT_EQ(1, tessera_dtensor_mesh_num_dims(mesh, NULL));
  ASSERT_STREQ("x", tessera_dtensor_mesh_dim_name(mesh, 0, &err));
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent(mesh, 0, &value, &err));
  ASSERT_EQ(2, value);
  ASSERT_EQ(2, tessera_dtensor_mesh_num_global_ids(mesh, NULL));
  ASSERT_TRUE(tessera_dtensor_mesh_global_id(mesh, 1, &value, &err));
  ASSERT_EQ(1, value);
  ASSERT_EQ(2, tessera_dtensor_mesh_num_local_ids(mesh, NULL));
  ASSERT_TRUE(tessera_dtensor_mesh_local_id(mesh, 0, &value, &err));
  ASSERT_EQ(0, value);
  ASSERT_STREQ("/job:localhost/replica:1/task:0/device:TPU:1",
               tessera_dtensor_mesh_local_device(mesh, 1, &err));
  ASSERT_EQ(0, tessera_dtensor_mesh_num_global_devices(mesh, NULL));
  ASSERT_OK(err);
  tessera_dtensor_mesh_destroy(mesh);
}

static void dtensor_mesh_global_devices_are_readable(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(
      "|x=2|0,1|0|/job:a/task:0/device:CPU:0|/job:a/task:0/device:CPU:0,/job:a/task:1/device:CPU:0",
      &err);
  ASSERT_OK(err);
  ASSERT_EQ(2, tessera_dtensor_mesh_num_global_devices(mesh, NULL));
  ASSERT_STREQ("/job:a/task:1/device:CPU:0", tessera_dtensor_mesh_global_device(mesh, 1, &err));
  ASSERT_OK(err);
  tessera_dtensor_mesh_destroy(mesh);
}

static void dtensor_mesh_index_past_the_end_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(RICH_MESH, NULL);
  int64_t value = 0;
  ASSERT_NULL(tessera_dtensor_mesh_dim_name(mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 1");
  ASSERT_FALSE(tessera_dtensor_mesh_dim_extent(mesh, 5, &value, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "index");
  ASSERT_FALSE(tessera_dtensor_mesh_global_id(mesh, 2, &value, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "global ids");
  ASSERT_FALSE(tessera_dtensor_mesh_local_id(mesh, 2, &value, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "local ids");
  ASSERT_NULL(tessera_dtensor_mesh_local_device(mesh, SIZE_MAX, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "local devices");
  ASSERT_NULL(tessera_dtensor_mesh_global_device(mesh, 0, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "global devices");
  tessera_dtensor_mesh_destroy(mesh);
}

static void single_device_and_empty_meshes_have_their_kinds(void) {
  tessera_dtensor_mesh* single =
      tessera_dtensor_mesh_parse("/job:localhost/task:0/device:CPU:0", NULL);
  tessera_dtensor_mesh* empty = tessera_dtensor_mesh_parse("empty_mesh", NULL);
  ASSERT_EQ(TESSERA_DTENSOR_MESH_SINGLE_DEVICE, tessera_dtensor_mesh_kind(single, NULL));
  ASSERT_STREQ("/job:localhost/task:0/device:CPU:0", tessera_dtensor_mesh_single_device(single, NULL));
  ASSERT_STREQ("CPU", tessera_dtensor_mesh_device_type(single, NULL));
  ASSERT_EQ(TESSERA_DTENSOR_MESH_EMPTY, tessera_dtensor_mesh_kind(empty, NULL));
  ASSERT_STREQ("", tessera_dtensor_mesh_device_type(empty, NULL));
  tessera_dtensor_mesh_destroy(single);
  tessera_dtensor_mesh_destroy(empty);
}

static void dtensor_mesh_converts_to_and_from_a_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_dtensor_mesh* dmesh = tessera_dtensor_mesh_from_mesh(mesh, "named", 0, false, &err);
  tessera_mesh* back = tessera_dtensor_mesh_to_mesh(dmesh, &err);
  tessera_buffer* text = tessera_dtensor_mesh_to_text(dmesh, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(mesh, back));
  ASSERT_STREQ("named" CPU_2X4, tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(back);
  tessera_dtensor_mesh_destroy(dmesh);
  tessera_mesh_destroy(mesh);
}

static void layout_round_trips_exactly_with_its_dtensor_mesh(void) {
  const char* input = "sharding_specs:model,unsharded, mesh:pod" CPU_2X4;
  tessera_error* err = NULL;
  tessera_layout* layout = tessera_layout_from_dtensor_text(input, &err);
  tessera_dtensor_mesh* dmesh = tessera_dtensor_mesh_parse_layout_mesh(input, &err);
  tessera_buffer* text = tessera_layout_to_dtensor_text_with_mesh(layout, dmesh, &err);
  ASSERT_OK(err);
  ASSERT_STREQ(input, tessera_buffer_data(text));
  ASSERT_STREQ("pod", tessera_dtensor_mesh_name(dmesh, NULL));
  tessera_buffer_destroy(text);
  tessera_dtensor_mesh_destroy(dmesh);
  tessera_layout_destroy(layout);
}

static void layout_over_a_different_dtensor_mesh_is_invalid_argument(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(2, "x");
  tessera_layout* layout = fixture_layout_2d("x", NULL, mesh);
  tessera_dtensor_mesh* other = tessera_dtensor_mesh_parse(RICH_MESH, NULL);
  ASSERT_NULL(tessera_layout_to_dtensor_text_with_mesh(layout, other, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "expected the layout's mesh");
  tessera_dtensor_mesh_destroy(other);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void null_arguments_are_invalid_argument_naming_them(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  int64_t value = 0;
  ASSERT_NULL(tessera_mesh_to_dtensor_text(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_mesh_from_dtensor_text(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_layout_to_dtensor_text(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'layout'");
  ASSERT_NULL(tessera_layout_from_dtensor_text(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_layout_to_dtensor_text_with_mesh(layout, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_dtensor_mesh_parse(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_dtensor_mesh_parse_layout_mesh(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'layout_text'");
  ASSERT_NULL(tessera_dtensor_mesh_from_mesh(NULL, "n", 0, false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_dtensor_mesh_to_mesh(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_dtensor_mesh_to_text(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_dtensor_mesh_dim_name(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_FALSE(tessera_dtensor_mesh_global_id(NULL, 0, &value, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void null_handles_read_as_empty(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_dtensor_mesh_kind(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_dtensor_mesh_name(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_dtensor_mesh_device_type(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_dtensor_mesh_single_device(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_FALSE(tessera_dtensor_mesh_use_xla_spmd(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dtensor_mesh_num_dims(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dtensor_mesh_num_global_ids(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dtensor_mesh_num_local_ids(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_dtensor_mesh_num_global_devices(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh' is NULL; expected a valid pointer");
  tessera_dtensor_mesh_destroy(NULL);
}

static void null_output_is_invalid_argument(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(RICH_MESH, NULL);
  ASSERT_FALSE(tessera_dtensor_mesh_dim_extent(mesh, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out'");
  ASSERT_FALSE(tessera_dtensor_mesh_local_id(mesh, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out'");
  tessera_dtensor_mesh_destroy(mesh);
}

static void garbage_text_names_the_offset_and_token(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_mesh_from_dtensor_text("not a mesh", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Input string is invalid: not a mesh (at byte 0:");
  ASSERT_NULL(tessera_layout_from_dtensor_text("\x01\xff garbage", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Unknown layout type prefix");
  ASSERT_NULL(tessera_dtensor_mesh_parse("|x=2|0,1|0,1|a|b|c|d", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "mesh parts but found8 (at byte 18: '|d')");
}

static void truncated_text_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_mesh_from_dtensor_text("|batch=2,model=4|0,1,2,3,4,5,6,7|0,1,2", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "but found4 (at byte 38: '')");
  ASSERT_NULL(tessera_layout_from_dtensor_text("sharding_specs:batch,unsharded,", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Expected 2 items but found 1");
  ASSERT_NULL(tessera_layout_from_dtensor_text("sharding_specs:batch,unsharded, mesh:" CPU_2X4 "X",
                                               &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Failed to parse local_devices");
  ASSERT_NULL(tessera_dtensor_mesh_parse("|x=2|0,1|0,1|/job:localhost/task:0/device:CPU:0,/jo", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Failed to parse local_devices (at byte 48: '/jo')");
}

static void layout_types_tessera_lacks_are_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_from_dtensor_text("parted:batch, mesh:" CPU_2X4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "is not a static layout");
  ASSERT_NULL(tessera_layout_from_dtensor_text("sharding_specs:match, mesh:" CPU_2X4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "dimension 0 has sharding spec 'match'");
  ASSERT_NULL(tessera_mesh_from_dtensor_text("empty_mesh", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "empty or single-device DTensor mesh");
}

static void dtensor_validation_keeps_dtensors_message(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_from_dtensor_text("sharding_specs:batch,batch, mesh:" CPU_2X4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Attempted to shard two or more tensor dimensions over mesh dimension batch");
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(mesh_prints_as_dtensor_text),
      HARNESS_TEST(mesh_text_parses_back_to_an_equal_mesh),
      HARNESS_TEST(layout_prints_as_dtensor_text),
      HARNESS_TEST(layout_text_parses_with_its_mesh),
      HARNESS_TEST(grouped_layout_is_invalid_argument_naming_the_dimension),
      HARNESS_TEST(dtensor_mesh_round_trips_what_a_mesh_cannot_hold),
      HARNESS_TEST(dtensor_mesh_accessors_read_every_field),
      HARNESS_TEST(dtensor_mesh_global_devices_are_readable),
      HARNESS_TEST(dtensor_mesh_index_past_the_end_is_out_of_range),
      HARNESS_TEST(single_device_and_empty_meshes_have_their_kinds),
      HARNESS_TEST(dtensor_mesh_converts_to_and_from_a_mesh),
      HARNESS_TEST(layout_round_trips_exactly_with_its_dtensor_mesh),
      HARNESS_TEST(layout_over_a_different_dtensor_mesh_is_invalid_argument),
      HARNESS_TEST(null_arguments_are_invalid_argument_naming_them),
      HARNESS_TEST(null_handles_read_as_empty),
      HARNESS_TEST(null_output_is_invalid_argument),
      HARNESS_TEST(garbage_text_names_the_offset_and_token),
      HARNESS_TEST(truncated_text_is_invalid_argument),
      HARNESS_TEST(layout_types_tessera_lacks_are_invalid_argument),
      HARNESS_TEST(dtensor_validation_keeps_dtensors_message),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
