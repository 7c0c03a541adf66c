/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* A free-standing XLA HloSharding through the C ABI
 * (tessera/experimental/hlo_sharding.h): parse and print as XLA does, the
 * forms no layout has, the way to a layout and why not, manual axes on
 * export. Expected strings are what jax 0.10.2's
 * xla_client.HloSharding.from_string prints for the same text. */
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

/* The text XLA prints after parsing `text`, or the error message. */
static char printed[256];
static const char* reprint(const char* text) {
  tessera_error* err = NULL;
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse(text, &err);
  tessera_buffer* buffer = tessera_hlo_sharding_to_text(sharding, err == NULL ? &err : NULL);
  const char* answer = err != NULL ? tessera_error_message(err) : tessera_buffer_data(buffer);
  printed[0] = '\0';
  if (strlen(answer) < sizeof printed) memcpy(printed, answer, strlen(answer) + 1);
  tessera_error_destroy(err);
  tessera_buffer_destroy(buffer);
  tessera_hlo_sharding_destroy(sharding);
  return printed;
}

static void replicated_manual_unknown_unreduced_print_back(void) {
  ASSERT_STREQ("{replicated}", reprint("{replicated}"));
  ASSERT_STREQ("{manual}", reprint("{manual}"));
  ASSERT_STREQ("{unknown}", reprint("{unknown}"));
  ASSERT_STREQ("{unreduced}", reprint("{unreduced}"));
}

static void maximal_prints_back_and_gives_its_device(void) {
  tessera_error* err = NULL;
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse("{maximal device=7}", &err);
  int64_t device = -1;
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_HLO_SHARDING_MAXIMAL, tessera_hlo_sharding_kind(sharding, &err));
  ASSERT_TRUE(tessera_hlo_sharding_maximal_device(sharding, &device, &err));
  ASSERT_EQ(7, device);
  ASSERT_STREQ("{maximal device=7}", reprint("{maximal device=7}"));
  tessera_hlo_sharding_destroy(sharding);
}

static void maximal_device_of_a_tiled_sharding_is_failed_precondition(void) {
  tessera_error* err = NULL;
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse("{devices=[2]0,1}", NULL);
  int64_t device = -1;
  ASSERT_FALSE(tessera_hlo_sharding_maximal_device(sharding, &device, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "HloSharding {devices=[2]0,1} is not maximal");
  tessera_hlo_sharding_destroy(sharding);
}

static void v1_tile_assignment_no_layout_produces_prints_back(void) {  /* S47's Tile(V1 array) */
  ASSERT_STREQ("{devices=[2,1,2]2,3,5,7}", reprint("{devices=[2,1,2]2,3,5,7}"));
}

static void v2_iota_prints_canonicalised(void) {
  ASSERT_STREQ("{devices=[3,4]<=[2,2,3]T(2,1,0)}", reprint("{devices=[3,4]<=[2,2,3]T(2,1,0)}"));
  ASSERT_STREQ("{devices=[8]<=[4,2]T(1,0)}", reprint("{devices=[8]<=[2,2,2]T(2,0,1)}"));
}

static void last_tile_dims_manual_prints_back(void) {
  ASSERT_STREQ("{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}",
               reprint("{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}"));
}

static void subgroup_types_are_reordered_replicated_last(void) {
  ASSERT_STREQ("{devices=[1,1,2,2]<=[2,2]T(1,0) last_tile_dims={manual, replicated}}",
               reprint("{devices=[1,1,2,2]<=[4] last_tile_dims={replicated, manual}}"));
}

static void last_tile_dim_replicate_groups_are_sorted(void) {
  ASSERT_STREQ("{devices=[2,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}",
               reprint("{devices=[2,4]3,2,1,0,7,6,5,4 last_tile_dim_replicate}"));
}

static void one_device_tiling_is_xlas_error(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_hlo_sharding_parse("{devices=[1,1]0}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "non-maximal shardings must have more than one device assigned");
}

static void tuple_is_refused_naming_the_position(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_hlo_sharding_parse("{{replicated}, {maximal device=1}}", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "at position 1: '{' starts a tuple sharding");
}

static void tile_dims_devices_and_subgroup_types_are_readable(void) {
  tessera_error* err = NULL;
  tessera_hlo_sharding* sharding =
      tessera_hlo_sharding_parse("{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}", &err);
  int64_t dims[3] = {0};
  int64_t devices[4] = {0};
  int64_t types[1] = {0};
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_HLO_SHARDING_TILED, tessera_hlo_sharding_kind(sharding, &err));
  ASSERT_EQ(3, tessera_hlo_sharding_tile_dims(sharding, dims, 3, &err));
  ASSERT_EQ(2, dims[1]);
  ASSERT_EQ(2, dims[2]);
  ASSERT_EQ(4, tessera_hlo_sharding_tile_devices(sharding, devices, 4, &err));
  ASSERT_EQ(0, devices[0]);
  ASSERT_EQ(2, devices[1]);
  ASSERT_EQ(1, devices[2]);
  ASSERT_EQ(3, devices[3]);
  ASSERT_EQ(1, tessera_hlo_sharding_subgroup_types(sharding, types, 1, &err));
  ASSERT_EQ(4, types[0]); /* xla.OpSharding.MANUAL */
  tessera_hlo_sharding_destroy(sharding);
}

static void replication_group_reads_as_one_replicated_subgroup(void) {
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse("{devices=[2,2]<=[4] last_tile_dim_replicate}", NULL);
  int64_t types[1] = {-1};
  ASSERT_EQ(1, tessera_hlo_sharding_subgroup_types(sharding, types, 1, NULL));
  ASSERT_EQ(0, types[0]); /* xla.OpSharding.REPLICATED */
  tessera_hlo_sharding_destroy(sharding);
}

static void tiled_sharding_of_a_layout_converts(void) {  /* S3 */
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse("{devices=[4,2]0,4,1,5,2,6,3,7}", NULL);
  tessera_layout* expected = fixture_layout_2d("model", "batch", mesh);
  tessera_layout* layout = tessera_hlo_sharding_to_layout(sharding, mesh, 2, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(expected, layout));
  tessera_layout_destroy(layout);
  tessera_layout_destroy(expected);
  tessera_hlo_sharding_destroy(sharding);
  tessera_mesh_destroy(mesh);
}

static void manual_has_no_layout_and_says_so(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse("{manual}", NULL);
  ASSERT_NULL(tessera_hlo_sharding_to_layout(sharding, mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "HloSharding {manual}: 'manual' sharding has no layout equivalent");
  tessera_hlo_sharding_destroy(sharding);
  tessera_mesh_destroy(mesh);
}

static void manual_subgroups_have_no_layout_and_say_so(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse("{devices=[2,2,2]<=[8] last_tile_dims={manual}}", NULL);
  ASSERT_NULL(tessera_hlo_sharding_to_layout(sharding, mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "HloSharding {devices=[2,2,2]<=[8] last_tile_dims={manual}}: 'manual' subgroups have no layout");
  tessera_hlo_sharding_destroy(sharding);
  tessera_mesh_destroy(mesh);
}

static void tile_assignment_over_other_devices_has_no_layout_and_says_why(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_parse("{devices=[2,1,2]2,3,5,7}", NULL);
  ASSERT_NULL(tessera_hlo_sharding_to_layout(sharding, mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "is not produced by any layout on");
  tessera_hlo_sharding_destroy(sharding);
  tessera_mesh_destroy(mesh);
}

static void export_with_a_manual_axis_adds_a_manual_subgroup(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, NULL, mesh);
  const char* const manual[] = {"batch"};
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_from_layout(layout, 2, manual, 1, &err);
  tessera_buffer* text = tessera_hlo_sharding_to_text(sharding, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("{devices=[1,1,2,4]<=[8] last_tile_dims={manual, replicated}}", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_hlo_sharding_destroy(sharding);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void export_with_every_unused_axis_manual_is_manual(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, NULL, mesh);
  const char* const manual[] = {"batch", "model"};
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_from_layout(layout, 2, manual, 2, &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_HLO_SHARDING_MANUAL, tessera_hlo_sharding_kind(sharding, &err));
  tessera_hlo_sharding_destroy(sharding);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void export_refuses_a_manual_axis_the_layout_shards_over(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  const char* const manual[] = {"batch"};
  ASSERT_NULL(tessera_hlo_sharding_from_layout(layout, 2, manual, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'manual_axes' names 'batch', which layout ('batch', None) shards dimension 0 over");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void export_without_manual_axes_is_the_layouts_hlo_sharding(void) {  /* S5 */
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  tessera_hlo_sharding* sharding = tessera_hlo_sharding_from_layout(layout, 2, NULL, 0, &err);
  tessera_buffer* text = tessera_hlo_sharding_to_text(sharding, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_hlo_sharding_destroy(sharding);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(replicated_manual_unknown_unreduced_print_back),
      HARNESS_TEST(maximal_prints_back_and_gives_its_device),
      HARNESS_TEST(maximal_device_of_a_tiled_sharding_is_failed_precondition),
      HARNESS_TEST(v1_tile_assignment_no_layout_produces_prints_back),
      HARNESS_TEST(v2_iota_prints_canonicalised),
      HARNESS_TEST(last_tile_dims_manual_prints_back),
      HARNESS_TEST(subgroup_types_are_reordered_replicated_last),
      HARNESS_TEST(last_tile_dim_replicate_groups_are_sorted),
      HARNESS_TEST(one_device_tiling_is_xlas_error),
      HARNESS_TEST(tuple_is_refused_naming_the_position),
      HARNESS_TEST(tile_dims_devices_and_subgroup_types_are_readable),
      HARNESS_TEST(replication_group_reads_as_one_replicated_subgroup),
      HARNESS_TEST(tiled_sharding_of_a_layout_converts),
      HARNESS_TEST(manual_has_no_layout_and_says_so),
      HARNESS_TEST(manual_subgroups_have_no_layout_and_say_so),
      HARNESS_TEST(tile_assignment_over_other_devices_has_no_layout_and_says_why),
      HARNESS_TEST(export_with_a_manual_axis_adds_a_manual_subgroup),
      HARNESS_TEST(export_with_every_unused_axis_manual_is_manual),
      HARNESS_TEST(export_refuses_a_manual_axis_the_layout_shards_over),
      HARNESS_TEST(export_without_manual_axes_is_the_layouts_hlo_sharding),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
