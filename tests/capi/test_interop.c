/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Layout interchange through the C ABI: XLA HloSharding text and OpSharding
 * bytes (tessera/xla.h), JAX PartitionSpec and Mesh text (tessera/jax.h),
 * PyTorch placements (tessera/torch.h), including bad input. Mesh: 2x4 ("batch", "model"). */
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

static void hlo_sharding_v2_is_the_iota_xla_prints(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  tessera_buffer* text = tessera_layout_to_hlo_sharding(layout, 2, true, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void hlo_sharding_v1_lists_logical_indices(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("model", "batch", mesh);
  tessera_buffer* text = tessera_layout_to_hlo_sharding(layout, 2, false, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("{devices=[4,2]0,4,1,5,2,6,3,7}", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void hlo_sharding_parses_back_to_the_layout(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* expected = fixture_layout_2d("model", "batch", mesh);
  tessera_layout* parsed =
      tessera_layout_from_hlo_sharding("{devices=[4,2]<=[2,4]T(1,0)}", mesh, 2, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(expected, parsed));
  tessera_layout_destroy(parsed);
  tessera_layout_destroy(expected);
  tessera_mesh_destroy(mesh);
}

static void replicated_text_takes_the_given_rank(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* parsed = tessera_layout_from_hlo_sharding("{replicated}", mesh, 3, &err);
  ASSERT_OK(err);
  ASSERT_EQ(3, tessera_layout_num_dims(parsed, NULL));
  tessera_layout_destroy(parsed);
  tessera_mesh_destroy(mesh);
}

static void hlo_sharding_syntax_error_names_position_and_token(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_layout_from_hlo_sharding("{devices=[2,x]<=[8]}", mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "at position 12: expected an integer, got 'x'");
  ASSERT_NULL(tessera_layout_from_hlo_sharding("garbage", mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "at position 0: expected '{', got 'garbage'");
  ASSERT_NULL(tessera_layout_from_hlo_sharding("", mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "got the end of the text");
  tessera_mesh_destroy(mesh);
}

static void sharding_no_layout_produces_is_rejected(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_layout_from_hlo_sharding("{devices=[2,4]0,2,1,3,4,5,6,7}", mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "is not produced by any layout");
  ASSERT_NULL(tessera_layout_from_hlo_sharding("{maximal device=1}", mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "is not produced by any layout");
  ASSERT_NULL(tessera_layout_from_hlo_sharding("{manual}", mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'manual' sharding has no layout equivalent");
  tessera_mesh_destroy(mesh);
}

static void op_sharding_round_trips(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  tessera_buffer* bytes = tessera_layout_to_op_sharding(layout, 2, true, &err);
  tessera_layout* parsed;
  ASSERT_OK(err);
  parsed = tessera_layout_from_op_sharding(tessera_buffer_data(bytes), tessera_buffer_size(bytes),
                                           mesh, 2, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(layout, parsed));
  tessera_layout_destroy(parsed);
  tessera_buffer_destroy(bytes);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void op_sharding_bytes_are_xla_wire_format(void) {
  /* type=OTHER(3), tile_assignment_dimensions=[1,4,2] (packed), iota [2,4] T(1,0),
   * replicate_on_last_tile_dim=true: what jax 0.10.2 serializes for P(None, 'y'). */
  static const unsigned char kExpected[] = {0x08, 0x03, 0x1a, 0x03, 0x01, 0x04, 0x02, 0x30, 0x01,
                                            0x4a, 0x02, 0x02, 0x04, 0x52, 0x02, 0x01, 0x00};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  tessera_buffer* bytes = tessera_layout_to_op_sharding(layout, 2, true, &err);
  ASSERT_OK(err);
  ASSERT_EQ(sizeof kExpected, tessera_buffer_size(bytes));
  ASSERT_TRUE(memcmp(kExpected, tessera_buffer_data(bytes), sizeof kExpected) == 0);
  tessera_buffer_destroy(bytes);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void garbage_and_truncated_bytes_are_rejected(void) {
  static const unsigned char kGarbage[] = {0xff, 0xff, 0xff};
  static const unsigned char kTruncated[] = {0x08, 0x03, 0x1a, 0x05, 0x02};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_layout_from_op_sharding(kGarbage, sizeof kGarbage, mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "not a valid OpSharding message");
  ASSERT_NULL(tessera_layout_from_op_sharding(kTruncated, sizeof kTruncated, mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "not a valid OpSharding message");
  tessera_mesh_destroy(mesh);
}

static void empty_bytes_are_replicated(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* parsed = tessera_layout_from_op_sharding(NULL, 0, mesh, 1, &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_layout_num_dims(parsed, NULL));
  tessera_layout_destroy(parsed);
  tessera_mesh_destroy(mesh);
}

static void device_order_lists_the_mesh_device_ids(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t order[8] = {0};
  int64_t small[4];
  ASSERT_EQ(8, tessera_xla_device_order(mesh, order, 8, &err));
  ASSERT_OK(err);
  ASSERT_EQ(0, order[0]);
  ASSERT_EQ(7, order[7]);
  ASSERT_EQ(0, tessera_xla_device_order(mesh, small, 4, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 4; expected at least 8");
  tessera_mesh_destroy(mesh);
}

static void xla_null_arguments_are_invalid(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t order[8];
  ASSERT_NULL(tessera_layout_to_hlo_sharding(NULL, 2, true, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'layout'");
  ASSERT_NULL(tessera_layout_from_hlo_sharding(NULL, mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_layout_from_hlo_sharding("{replicated}", NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_layout_to_op_sharding(NULL, 2, true, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'layout'");
  ASSERT_NULL(tessera_layout_from_op_sharding(NULL, 3, mesh, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'bytes'");
  ASSERT_FALSE(tessera_xla_device_order(NULL, order, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_FALSE(tessera_xla_device_order(mesh, NULL, 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out'");
  tessera_mesh_destroy(mesh);
}

static void layout_without_mesh_has_no_hlo_sharding(void) {
  tessera_error* err = NULL;
  tessera_layout* layout = fixture_layout_2d("model", NULL, NULL);
  ASSERT_NULL(tessera_layout_to_hlo_sharding(layout, 2, true, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "has no mesh");
  tessera_layout_destroy(layout);
}

static void partition_spec_is_jax_repr(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  tessera_buffer* text = tessera_layout_to_partition_spec(layout, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("P('batch', None)", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void partition_spec_parses_and_pads_to_the_rank(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* expected = fixture_layout_2d("batch", NULL, mesh);
  tessera_layout* parsed = tessera_layout_from_partition_spec("PartitionSpec(('batch',))", mesh, 2, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(expected, parsed));
  tessera_layout_destroy(parsed);
  tessera_layout_destroy(expected);
  tessera_mesh_destroy(mesh);
}

static void partition_spec_names_every_repeated_axis_sorted(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_layout_from_partition_spec("P('model', ('batch', 'model'), 'batch')", mesh, 3, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "A single NamedSharding spec specification can map every mesh axis to at most one positional "
               "dimension, but P('model', ('batch', 'model'), 'batch') has duplicate entries for `batch`, `model`");
  tessera_mesh_destroy(mesh);
}

static void partition_spec_on_a_scalar_gives_jaxs_hint(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_layout_from_partition_spec("P('batch')", mesh, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "P('batch',) is only valid for values of rank at least 1, but was applied to a value of rank 0. "
               "For scalars the PartitionSpec should be P()");
  tessera_mesh_destroy(mesh);
}

static void partition_spec_nested_tuple_keeps_jaxs_whole_message(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_layout_from_partition_spec("P(('batch', ('model',)))", NULL, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "A tuple inside PartitionSpec cannot contain a nested tuple. Got partition: ('batch', ('model',)) "
               "and the nested tuple: ('model',)");
}

static void partition_spec_none_inside_a_tuple_is_jaxs_resource_axis_error(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_layout_from_partition_spec("P(('batch', None))", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Resource axis: None of P(('batch', None),) is not found in mesh: ('batch', 'model').");
  tessera_mesh_destroy(mesh);
}

static void partition_spec_errors(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  ASSERT_NULL(tessera_layout_from_partition_spec("P((('batch',),))", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "A tuple inside PartitionSpec cannot contain a nested tuple");
  ASSERT_NULL(tessera_layout_from_partition_spec("garbage", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "at position 0: expected 'P(' or 'PartitionSpec(', got 'garbage'");
  ASSERT_NULL(tessera_layout_from_partition_spec("P('batch', None)", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "only valid for values of rank at least 2");
  ASSERT_NULL(tessera_layout_from_partition_spec("P('z')", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Resource axis: z of P('z',) is not found in mesh: ('batch', 'model').");
  ASSERT_NULL(tessera_layout_from_partition_spec(NULL, mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_layout_to_partition_spec(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'layout'");
  tessera_mesh_destroy(mesh);
}

static void jax_mesh_text_round_trips(void) {
  static const char* const kDevices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                                         "cpu:4", "cpu:5", "cpu:6", "cpu:7"};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_buffer* text = tessera_mesh_to_jax_text(mesh, &err);
  tessera_mesh* parsed;
  ASSERT_OK(err);
  ASSERT_STREQ("Mesh('batch': 2, 'model': 4)", tessera_buffer_data(text));
  parsed = tessera_mesh_from_jax_text(tessera_buffer_data(text), kDevices, 8, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(mesh, parsed));
  tessera_mesh_destroy(parsed);
  parsed = tessera_mesh_from_jax_text("Mesh('batch': 2, 'model': 4, axis_types=(Auto, Auto))",
                                      NULL, 0, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_mesh_equal(mesh, parsed));
  tessera_mesh_destroy(parsed);
  tessera_buffer_destroy(text);
  tessera_mesh_destroy(mesh);
}

static void jax_mesh_text_errors(void) {
  static const char* const kSix[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5"};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_mesh_from_jax_text("Mesh('x' 2)", NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "at position 9: expected ':', got '2'");
  ASSERT_NULL(tessera_mesh_from_jax_text("Mesh('x': 2, 'y': 4)", kSix, 6, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Shape does not match the number of devices");
  ASSERT_NULL(tessera_mesh_from_jax_text(NULL, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_mesh_to_jax_text(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
}

static void torch_placements_one_per_mesh_dim(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  tessera_buffer* text = tessera_layout_to_torch_placements(layout, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("[Replicate(), Shard(dim=1)]", tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void torch_strided_shard_round_trips(void) {
  static const char* const kNames[] = {"model", "batch"};
  static const size_t kGroups[] = {2};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = tessera_layout_create_grouped(kNames, 2, kGroups, 1, mesh, &err);
  tessera_buffer* text = tessera_layout_to_torch_placements(layout, &err);
  tessera_layout* parsed;
  ASSERT_OK(err);
  ASSERT_STREQ("[_StridedShard(dim=0, sf=4), Shard(dim=0)]", tessera_buffer_data(text));
  parsed = tessera_layout_from_torch_placements(tessera_buffer_data(text), mesh, 1, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(layout, parsed));
  tessera_layout_destroy(parsed);
  tessera_buffer_destroy(text);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void torch_placements_errors(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* meshless = fixture_layout_2d("model", NULL, NULL);
  ASSERT_NULL(tessera_layout_from_torch_placements("[Shard(0)]", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Found placements length: 1, and device_mesh.ndim: 2.");
  ASSERT_NULL(tessera_layout_from_torch_placements("[Partial(), R]", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "at position 1: 'Partial' placements");
  ASSERT_NULL(tessera_layout_from_torch_placements("garbage", mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "at position 0: expected '[' or '(', got 'garbage'");
  ASSERT_NULL(tessera_layout_from_torch_placements(NULL, mesh, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'text'");
  ASSERT_NULL(tessera_layout_from_torch_placements("[R, R]", NULL, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'mesh'");
  ASSERT_NULL(tessera_layout_to_torch_placements(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'layout'");
  ASSERT_NULL(tessera_layout_to_torch_placements(meshless, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "has no mesh");
  tessera_layout_destroy(meshless);
  tessera_mesh_destroy(mesh);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(hlo_sharding_v2_is_the_iota_xla_prints),
      HARNESS_TEST(hlo_sharding_v1_lists_logical_indices),
      HARNESS_TEST(hlo_sharding_parses_back_to_the_layout),
      HARNESS_TEST(replicated_text_takes_the_given_rank),
      HARNESS_TEST(hlo_sharding_syntax_error_names_position_and_token),
      HARNESS_TEST(sharding_no_layout_produces_is_rejected),
      HARNESS_TEST(op_sharding_round_trips),
      HARNESS_TEST(op_sharding_bytes_are_xla_wire_format),
      HARNESS_TEST(garbage_and_truncated_bytes_are_rejected),
      HARNESS_TEST(empty_bytes_are_replicated),
      HARNESS_TEST(device_order_lists_the_mesh_device_ids),
      HARNESS_TEST(xla_null_arguments_are_invalid),
      HARNESS_TEST(layout_without_mesh_has_no_hlo_sharding),
      HARNESS_TEST(partition_spec_is_jax_repr),
      HARNESS_TEST(partition_spec_parses_and_pads_to_the_rank),
      HARNESS_TEST(partition_spec_errors),
      HARNESS_TEST(partition_spec_names_every_repeated_axis_sorted),
      HARNESS_TEST(partition_spec_on_a_scalar_gives_jaxs_hint),
      HARNESS_TEST(partition_spec_nested_tuple_keeps_jaxs_whole_message),
      HARNESS_TEST(partition_spec_none_inside_a_tuple_is_jaxs_resource_axis_error),
      HARNESS_TEST(jax_mesh_text_round_trips),
      HARNESS_TEST(jax_mesh_text_errors),
      HARNESS_TEST(torch_placements_one_per_mesh_dim),
      HARNESS_TEST(torch_strided_shard_round_trips),
      HARNESS_TEST(torch_placements_errors),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
