/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Tessera's protobuf bytes and JSON through the C ABI: exact round trips of
 * every object, the pinned JSON of a mesh and a layout, and bad input (NULL,
 * garbage bytes, invalid JSON, messages that break an invariant). */
#include <string.h>

#include "fixtures.h"
#include "harness.h"

#define MESH_1D_JSON "{\"shape\":[\"2\"],\"axisNames\":[\"x\"],\"devices\":[{},{\"id\":\"1\",\"localOrdinal\":\"1\"}]}"

static void mesh_json_is_pinned(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(2, "x");
  tessera_buffer* json = tessera_mesh_to_json(mesh, &err);
  ASSERT_OK(err);
  ASSERT_STREQ(MESH_1D_JSON, tessera_buffer_data(json));
  tessera_buffer_destroy(json);
  tessera_mesh_destroy(mesh);
}

static void layout_json_is_pinned(void) {
  tessera_error* err = NULL;
  tessera_layout* layout = fixture_layout_2d("x", NULL, NULL);
  tessera_buffer* json = tessera_layout_to_json(layout, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("{\"dims\":[{\"axes\":[\"x\"]},{}]}", tessera_buffer_data(json));
  tessera_buffer_destroy(json);
  tessera_layout_destroy(layout);
}

static void mesh_bytes_round_trip_exactly(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_buffer* bytes = tessera_mesh_to_proto(mesh, &err);
  ASSERT_OK(err);
  tessera_mesh* back = tessera_mesh_from_proto(tessera_buffer_data(bytes), tessera_buffer_size(bytes), &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(mesh, back));
  tessera_buffer* again = tessera_mesh_to_proto(back, &err);
  ASSERT_OK(err);
  ASSERT_EQ(tessera_buffer_size(bytes), tessera_buffer_size(again));
  ASSERT_EQ(0, memcmp(tessera_buffer_data(bytes), tessera_buffer_data(again), tessera_buffer_size(bytes)));
  tessera_buffer_destroy(again);
  tessera_buffer_destroy(bytes);
  tessera_mesh_destroy(back);
  tessera_mesh_destroy(mesh);
}

static void mesh_json_parses_back_to_an_equal_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* expected = fixture_mesh_1d(2, "x");
  tessera_mesh* parsed = tessera_mesh_from_json(MESH_1D_JSON, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(expected, parsed));
  tessera_mesh_destroy(parsed);
  tessera_mesh_destroy(expected);
}

static void layout_bytes_round_trip_with_the_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("model", NULL, mesh);
  tessera_buffer* bytes = tessera_layout_to_proto(layout, &err);
  ASSERT_OK(err);
  tessera_layout* back = tessera_layout_from_proto(tessera_buffer_data(bytes), tessera_buffer_size(bytes), &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(layout, back));
  tessera_layout_destroy(back);
  tessera_buffer_destroy(bytes);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void layout_map_json_round_trips_exactly(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, &err);
  tessera_layout* layout = fixture_layout_2d(NULL, "model", NULL);
  ASSERT_TRUE(tessera_layout_map_set(map, "dense.*kernel", layout, &err));
  tessera_buffer* json = tessera_layout_map_to_json(map, &err);
  ASSERT_OK(err);
  tessera_layout_map* back = tessera_layout_map_from_json(tessera_buffer_data(json), &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_layout_map_num_rules(back, NULL));
  ASSERT_EQ(TESSERA_KEY_MATCH_FULL, tessera_layout_map_match(back, NULL));
  tessera_buffer* again = tessera_layout_map_to_json(back, &err);
  ASSERT_OK(err);
  ASSERT_STREQ(tessera_buffer_data(json), tessera_buffer_data(again));
  tessera_buffer_destroy(again);
  tessera_layout_map_destroy(back);
  tessera_buffer_destroy(json);
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void distribution_bytes_round_trip_exactly(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, &err);
  tessera_distribution* mp = tessera_distribution_create_model_parallel(map, "batch", NULL, &err);
  ASSERT_OK(err);
  tessera_buffer* bytes = tessera_distribution_to_proto(mp, &err);
  ASSERT_OK(err);
  tessera_distribution* back =
      tessera_distribution_from_proto(tessera_buffer_data(bytes), tessera_buffer_size(bytes), &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DISTRIBUTION_MODEL_PARALLEL, tessera_distribution_kind(back, NULL));
  tessera_buffer* again = tessera_distribution_to_proto(back, &err);
  ASSERT_OK(err);
  ASSERT_EQ(tessera_buffer_size(bytes), tessera_buffer_size(again));
  ASSERT_EQ(0, memcmp(tessera_buffer_data(bytes), tessera_buffer_data(again), tessera_buffer_size(bytes)));
  tessera_buffer_destroy(again);
  tessera_distribution_destroy(back);
  tessera_buffer_destroy(bytes);
  tessera_distribution_destroy(mp);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void distribution_json_round_trips_exactly(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(4, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, NULL, &err);
  ASSERT_OK(err);
  tessera_buffer* json = tessera_distribution_to_json(dp, &err);
  ASSERT_OK(err);
  tessera_distribution* back = tessera_distribution_from_json(tessera_buffer_data(json), &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DISTRIBUTION_DATA_PARALLEL, tessera_distribution_kind(back, NULL));
  tessera_buffer* again = tessera_distribution_to_json(back, &err);
  ASSERT_STREQ(tessera_buffer_data(json), tessera_buffer_data(again));
  tessera_buffer_destroy(again);
  tessera_distribution_destroy(back);
  tessera_buffer_destroy(json);
  tessera_distribution_destroy(dp);
  tessera_mesh_destroy(mesh);
}

static void null_arguments_are_invalid_argument_naming_them(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_mesh_to_proto(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_layout_to_json(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'layout'");
  ASSERT_NULL(tessera_layout_map_to_proto(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'map'");
  ASSERT_NULL(tessera_distribution_to_json(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'distribution'");
  ASSERT_NULL(tessera_mesh_from_json(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_layout_from_proto(NULL, 3, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'bytes'");
}

static void null_bytes_of_size_zero_are_an_empty_message(void) {
  tessera_error* err = NULL;
  tessera_layout* scalar = tessera_layout_from_proto(NULL, 0, &err);
  ASSERT_OK(err);
  ASSERT_EQ(0, tessera_layout_num_dims(scalar, NULL));
  tessera_layout_destroy(scalar);
  ASSERT_NULL(tessera_mesh_from_proto(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "tessera.v1.Mesh: ");
}

static void garbage_bytes_are_invalid_argument(void) {
  static const unsigned char garbage[] = {0xff, 0xff, 0xff};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_from_proto(garbage, sizeof garbage, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Invalid tessera.v1.Distribution bytes: the 3 bytes are not a valid tessera.v1.Distribution message");
}

static void invalid_json_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_map_from_json("{\"rules\": [", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Invalid tessera.v1.LayoutMap JSON: ");
  ASSERT_NULL(tessera_mesh_from_json("{\"nope\":1}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Invalid tessera.v1.Mesh JSON: ");
}

static void duplicate_axis_names_are_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_mesh_from_json(
      "{\"shape\":[\"1\",\"1\"],\"axisNames\":[\"x\",\"x\"],\"devices\":[{}]}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "names axis 'x' twice");
}

static void unknown_axis_in_layout_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_from_json(
      "{\"dims\":[{\"axes\":[\"y\"]}],\"mesh\":" MESH_1D_JSON "}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "tessera.v1.Layout: Invalid axis names");
}

static void bad_enum_number_names_the_field(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_map_from_json("{\"match\":9}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "tessera.v1.LayoutMap field 'match': value 9 is not a KeyMatch");
}

static void invalid_pattern_names_the_rule(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_map_from_json("{\"rules\":[{\"key\":\"(\",\"layout\":{}}]}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "tessera.v1.LayoutMap field 'rules[0]': ");
}

static void missing_mesh_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_from_json("{\"dataParallel\":{}}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "tessera.v1.Distribution field 'data_parallel.mesh': is missing");
  ASSERT_NULL(tessera_distribution_from_json("{\"modelParallel\":{\"layoutMap\":{}}}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "tessera.v1.Distribution field 'model_parallel.layout_map.mesh': is missing");
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(mesh_json_is_pinned),
      HARNESS_TEST(layout_json_is_pinned),
      HARNESS_TEST(mesh_bytes_round_trip_exactly),
      HARNESS_TEST(mesh_json_parses_back_to_an_equal_mesh),
      HARNESS_TEST(layout_bytes_round_trip_with_the_mesh),
      HARNESS_TEST(layout_map_json_round_trips_exactly),
      HARNESS_TEST(distribution_bytes_round_trip_exactly),
      HARNESS_TEST(distribution_json_round_trips_exactly),
      HARNESS_TEST(null_arguments_are_invalid_argument_naming_them),
      HARNESS_TEST(null_bytes_of_size_zero_are_an_empty_message),
      HARNESS_TEST(garbage_bytes_are_invalid_argument),
      HARNESS_TEST(invalid_json_is_invalid_argument),
      HARNESS_TEST(duplicate_axis_names_are_invalid_argument),
      HARNESS_TEST(unknown_axis_in_layout_is_invalid_argument),
      HARNESS_TEST(bad_enum_number_names_the_field),
      HARNESS_TEST(invalid_pattern_names_the_rule),
      HARNESS_TEST(missing_mesh_is_invalid_argument),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
