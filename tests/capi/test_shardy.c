/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Shardy text through the C ABI (tessera/experimental/shardy.h): layouts and
 * meshes printed as Shardy prints them, parsed back, and the input a
 * Tessera layout cannot hold refused with position and token. Mesh: 2x4
 * ("batch", "model") over cpu:0-7 unless a test says otherwise. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

static const char* const kDevices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
static const char kMeshText[] = "sdy.mesh @mesh = <[\"batch\"=2, \"model\"=4]>";

static void layout_prints_as_a_shardy_sharding(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  tessera_buffer* text = tessera_layout_to_shardy_text(layout, NULL, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("#sdy.sharding<@mesh, [{}, {\"model\"}]>", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void layout_text_names_the_given_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  tessera_buffer* text = tessera_layout_to_shardy_text(layout, "mesh_0", &err);
  ASSERT_OK(err);
  ASSERT_STREQ("#sdy.sharding<@mesh_0, [{\"batch\"}, {}]>", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void mesh_prints_as_a_shardy_mesh_symbol(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_buffer* text = tessera_mesh_to_shardy_text(mesh, NULL, &err);
  ASSERT_OK(err);
  ASSERT_STREQ(kMeshText, tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(mesh);
}

static void mesh_in_another_order_prints_its_device_ids(void) {
  static const int64_t shape[] = {4};
  static const char* const axes[] = {"x"};
  static const char* const devices[] = {"cpu:0", "cpu:2", "cpu:1", "cpu:3"};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_create_mesh(shape, axes, 1, devices, 4, &err);
  tessera_buffer* text;
  ASSERT_OK(err);
  text = tessera_mesh_to_shardy_text(mesh, "m", &err);
  ASSERT_OK(err);
  ASSERT_STREQ("sdy.mesh @m = <[\"x\"=4], device_ids=[0, 2, 1, 3]>", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(mesh);
}

static void mesh_text_places_the_assignment_by_device_ids(void) {
  static const int64_t shape[] = {4};
  static const char* const axes[] = {"x"};
  static const char* const ordered[] = {"cpu:0", "cpu:2", "cpu:1", "cpu:3"};
  tessera_error* err = NULL;
  tessera_mesh* expected = fixture_create_mesh(shape, axes, 1, ordered, 4, &err);
  tessera_mesh* parsed = tessera_mesh_from_shardy_text("sdy.mesh @mesh = <[\"x\"=4], device_ids=[0, 2, 1, 3]>",
                                                       kDevices, 4, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(expected, parsed));
  tessera_mesh_destroy(parsed);
  tessera_mesh_destroy(expected);
}

static void mesh_text_without_devices_uses_the_default_devices(void) {
  tessera_error* err = NULL;
  tessera_mesh* expected = fixture_mesh_2x4();
  tessera_mesh* parsed = tessera_mesh_from_shardy_text(kMeshText, NULL, 0, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(expected, parsed));
  tessera_mesh_destroy(parsed);
  tessera_mesh_destroy(expected);
}

static void sharding_text_parses_to_the_layout(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* expected = fixture_layout_2d("model", NULL, mesh);
  tessera_layout* parsed =
      tessera_layout_from_shardy_text("#sdy.sharding<@mesh, [{\"model\", ?}, {?}], replicated={\"batch\"}>",
                                      kMeshText, kDevices, 8, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(expected, parsed));
  tessera_layout_destroy(parsed);
  tessera_layout_destroy(expected);
  tessera_mesh_destroy(mesh);
}

static void what_a_layout_cannot_hold_is_refused_with_position_and_token(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_from_shardy_text("#sdy.sharding<@mesh, [{\"model\":(2)2}, {}]>", kMeshText,
                                              kDevices, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Shardy sharding text: at position 30: ':' starts a sub-axis of \"model\": Tessera layouts have "
               "no sub-axes");
  ASSERT_NULL(tessera_layout_from_shardy_text("#sdy.sharding<@mesh, [{}, {}], unreduced={\"batch\"}>", kMeshText,
                                              kDevices, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Shardy sharding text: at position 31: 'unreduced' lists unreduced axes: Tessera layouts have none");
  ASSERT_NULL(tessera_layout_from_shardy_text("#sdy.sharding<@mesh, [{\"z\"}, {}]>", kMeshText, kDevices, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Shardy sharding text: at position 23: '\"z\"' is not an axis of the mesh: unknown axis name: \"z\"");
}

static void mesh_text_errors(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_mesh_from_shardy_text("sdy.mesh @mesh = <[\"x\"=2], device_ids=[0, 1]>", NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "if the ordered device ids are the same as iota(product(axes)), no need to specify them");
  ASSERT_NULL(tessera_mesh_from_shardy_text(kMeshText, kDevices, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "The Shardy mesh @mesh has 8 devices, but the device assignment has 4");
  ASSERT_NULL(tessera_mesh_from_shardy_text(kMeshText, kDevices, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_devices' is 0");
}

static void empty_mesh_name_is_invalid(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_mesh_to_shardy_text(mesh, "", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'mesh_name' is \"\": expected a non-empty name for the Shardy mesh");
  tessera_mesh_destroy(mesh);
}

static void null_texts_are_invalid(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_mesh_from_shardy_text(NULL, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'text' is NULL");
  ASSERT_NULL(tessera_layout_from_shardy_text(NULL, kMeshText, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding_text' is NULL");
  ASSERT_NULL(tessera_layout_from_shardy_text("#sdy.sharding<@mesh, []>", NULL, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh_text' is NULL");
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(layout_prints_as_a_shardy_sharding),
      HARNESS_TEST(layout_text_names_the_given_mesh),
      HARNESS_TEST(mesh_prints_as_a_shardy_mesh_symbol),
      HARNESS_TEST(mesh_in_another_order_prints_its_device_ids),
      HARNESS_TEST(mesh_text_places_the_assignment_by_device_ids),
      HARNESS_TEST(mesh_text_without_devices_uses_the_default_devices),
      HARNESS_TEST(sharding_text_parses_to_the_layout),
      HARNESS_TEST(what_a_layout_cannot_hold_is_refused_with_position_and_token),
      HARNESS_TEST(mesh_text_errors),
      HARNESS_TEST(empty_mesh_name_is_invalid),
      HARNESS_TEST(null_texts_are_invalid),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
