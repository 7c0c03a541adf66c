/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* tessera_dtensor_layout through the C ABI, one behaviour per test: reading
 * any layout a DTensor job prints, its parts, the conversion to a
 * tessera_layout, the transforms and queries, and the DTensor mesh queries
 * beside them. The conformance vectors are in conformance_dtensor.c. */
#include <stdint.h>
#include <string.h>

#include "harness.h"

#define DEV(t, i) "/job:localhost/task:0/device:" t ":" #i
#define XY "|x=2,y=2|*CPU"
#define X2 "|x=2|0,1|0,1|" DEV("CPU", 0) "," DEV("CPU", 1)
#define NAMED_MESH "pod|x=2|0,1|0,1|" DEV("TPU", 0) "," DEV("TPU", 1) "|use_xla_spmd"

static tessera_buffer* last_text;

/* The text of a buffer, kept until the next call. */
static const char* text_of(tessera_buffer* buffer) {
  tessera_buffer_destroy(last_text);
  last_text = buffer;
  return buffer == NULL ? NULL : tessera_buffer_data(buffer);
}

static const char* specs_of(const tessera_dtensor_layout* layout) {
  static char joined[256];
  size_t i, n = tessera_dtensor_layout_num_dims(layout, NULL);
  joined[0] = '\0';
  for (i = 0; i < n; ++i) {
    if (i > 0) strcat(joined, ",");
    strcat(joined, tessera_dtensor_layout_spec(layout, i, NULL));
  }
  return joined;
}

static void one_parse_gives_the_layout_and_its_whole_mesh(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout =
      tessera_dtensor_layout_parse("parted:x, mesh:" NAMED_MESH, &err);
  tessera_dtensor_mesh* mesh = tessera_dtensor_layout_mesh(layout, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("pod", tessera_dtensor_mesh_name(mesh, NULL));
  ASSERT_TRUE(tessera_dtensor_mesh_use_xla_spmd(mesh, NULL));
  ASSERT_STREQ(NAMED_MESH, text_of(tessera_dtensor_mesh_to_text(mesh, NULL)));
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_layout_destroy(layout);
}

static void empty_layout_round_trips(void) {
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("empty_layout", NULL);
  ASSERT_EQ(TESSERA_DTENSOR_LAYOUT_EMPTY, tessera_dtensor_layout_type(layout, NULL));
  ASSERT_STREQ("empty_layout", text_of(tessera_dtensor_layout_to_text(layout, NULL)));
  tessera_dtensor_layout_destroy(layout);
}

static void specs_are_read_by_position(void) {
  tessera_dtensor_layout* layout =
      tessera_dtensor_layout_parse("sharding_specs:unsharded,any,x, mesh:" XY, NULL);
  ASSERT_STREQ("unsharded,any,x", specs_of(layout));
  tessera_dtensor_layout_destroy(layout);
}

static void static_layout_converts_to_a_tessera_layout(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout =
      tessera_dtensor_layout_parse("sharding_specs:x,unsharded, mesh:" XY, NULL);
  tessera_layout* converted = tessera_dtensor_layout_to_layout(layout, &err);
  tessera_layout* expected = tessera_layout_from_dtensor_text("sharding_specs:x,unsharded, mesh:" XY, NULL);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_layout_equal(expected, converted));
  tessera_layout_destroy(expected);
  tessera_layout_destroy(converted);
  tessera_dtensor_layout_destroy(layout);
}

static void parted_layout_has_no_tessera_layout_and_says_why(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("parted:x, mesh:" XY, NULL);
  ASSERT_NULL(tessera_dtensor_layout_to_layout(layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "is not a static layout");
  tessera_dtensor_layout_destroy(layout);
}

static void create_with_a_null_spec_names_the_entry(void) {
  const char* specs[] = {"x", NULL};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(XY, NULL);
  ASSERT_NULL(tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_STATIC, specs, 2, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'specs' entry 1 is NULL");
  tessera_dtensor_mesh_destroy(mesh);
}

static void create_with_an_unknown_type_fails(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(XY, NULL);
  ASSERT_NULL(tessera_dtensor_layout_create((tessera_dtensor_layout_type_t)7, NULL, 0, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'type' is 7");
  tessera_dtensor_mesh_destroy(mesh);
}

/* Python's Layout(specs, mesh) checks its specs before the C++ checks, with its words. */
static void static_create_refuses_a_spec_that_is_not_a_mesh_dim(void) {
  const char* const specs[] = {"WRONG", "unsharded"};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(XY, &err);
  ASSERT_OK(err);
  ASSERT_NULL(tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_STATIC, specs, 2, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "WRONG: A dimension sharding must either be a valid mesh dimension or UNSHARDED.");
  tessera_dtensor_mesh_destroy(mesh);
}

static void parted_create_keeps_the_cc_message_for_a_repeated_dim(void) {
  const char* const specs[] = {"x", "x"};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(XY, &err);
  ASSERT_OK(err);
  ASSERT_NULL(tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_PARTED, specs, 2, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Attempted to shard two or more tensor dimensions over mesh dimension x");
  tessera_dtensor_mesh_destroy(mesh);
}

static void to_parted_keeps_specs_and_mesh(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" X2, NULL);
  tessera_dtensor_layout* parted = tessera_dtensor_layout_to_parted(layout, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("parted:x, mesh:" X2, text_of(tessera_dtensor_layout_to_text(parted, NULL)));
  tessera_dtensor_layout_destroy(parted);
  tessera_dtensor_layout_destroy(layout);
}

static void to_device_type_renames_the_devices(void) {
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" X2, NULL);
  tessera_dtensor_layout* gpu = tessera_dtensor_layout_to_device_type(layout, "GPU", NULL);
  ASSERT_STREQ("sharding_specs:x, mesh:|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:GPU:0,"
               "/job:localhost/replica:0/task:0/device:GPU:1",
               text_of(tessera_dtensor_layout_to_text(gpu, NULL)));
  tessera_dtensor_layout_destroy(gpu);
  tessera_dtensor_layout_destroy(layout);
}

static void truncate_at_the_end_keeps_the_back(void) {
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x,unsharded,y, mesh:" XY, NULL);
  tessera_dtensor_layout* back = tessera_dtensor_layout_truncate(layout, 1, true, NULL);
  ASSERT_STREQ("unsharded,y", specs_of(back));
  tessera_dtensor_layout_destroy(back);
  tessera_dtensor_layout_destroy(layout);
}

static void truncate_past_the_rank_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" XY, NULL);
  ASSERT_NULL(tessera_dtensor_layout_truncate(layout, 2, false, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'split' is 2; expected at most the layout's rank 1");
  tessera_dtensor_layout_destroy(layout);
}

static void left_pad_prepends_unsharded(void) {
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" XY, NULL);
  tessera_dtensor_layout* padded = tessera_dtensor_layout_left_pad(layout, 3, NULL);
  ASSERT_STREQ("unsharded,unsharded,x", specs_of(padded));
  tessera_dtensor_layout_destroy(padded);
  tessera_dtensor_layout_destroy(layout);
}

static void reduce_dims_counts_negative_indices_from_the_end(void) {
  const int64_t last[] = {-1};
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("parted:x,unsharded,y, mesh:" XY, NULL);
  tessera_dtensor_layout* reduced = tessera_dtensor_layout_reduce_dims(layout, last, 1, false, NULL);
  ASSERT_STREQ("x,unsharded", specs_of(reduced));
  ASSERT_EQ(TESSERA_DTENSOR_LAYOUT_STATIC, tessera_dtensor_layout_type(reduced, NULL));
  tessera_dtensor_layout_destroy(reduced);
  tessera_dtensor_layout_destroy(layout);
}

static void reduce_dims_keeping_dims_replicates_them(void) {
  const int64_t first[] = {0};
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x,y, mesh:" XY, NULL);
  tessera_dtensor_layout* reduced = tessera_dtensor_layout_reduce_dims(layout, first, 1, true, NULL);
  ASSERT_STREQ("unsharded,y", specs_of(reduced));
  tessera_dtensor_layout_destroy(reduced);
  tessera_dtensor_layout_destroy(layout);
}

static void remove_dims_drops_the_listed_positions(void) {
  const size_t dims[] = {0, 2};
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x,unsharded,y, mesh:" XY, NULL);
  tessera_dtensor_layout* removed = tessera_dtensor_layout_remove_dims(layout, dims, 2, NULL);
  ASSERT_STREQ("unsharded", specs_of(removed));
  tessera_dtensor_layout_destroy(removed);
  tessera_dtensor_layout_destroy(layout);
}

static void batch_parallel_over_the_last_dims_counts_shards(void) {
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x,y, mesh:|x=2,y=1|*CPU", NULL);
  ASSERT_TRUE(tessera_dtensor_layout_is_batch_parallel_over(layout, 1, NULL));
  ASSERT_FALSE(tessera_dtensor_layout_is_batch_parallel(layout, NULL));
  tessera_dtensor_layout_destroy(layout);
}

static void batch_parallel_over_more_dims_than_the_rank_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" XY, NULL);
  ASSERT_FALSE(tessera_dtensor_layout_is_batch_parallel_over(layout, 2, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'non_batch_rank' is 2");
  tessera_dtensor_layout_destroy(layout);
}

static void last_dim_replicated_reads_the_last_spec(void) {
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x,unsharded, mesh:" XY, NULL);
  ASSERT_TRUE(tessera_dtensor_layout_is_last_dim_replicated(layout, NULL));
  tessera_dtensor_layout_destroy(layout);
}

static void equivalence_ignoring_type_accepts_parted_and_static(void) {
  tessera_dtensor_layout* a = tessera_dtensor_layout_parse("parted:x, mesh:" XY, NULL);
  tessera_dtensor_layout* b = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" XY, NULL);
  ASSERT_TRUE(tessera_dtensor_layout_is_equivalent_ignoring_type(a, b, NULL));
  ASSERT_FALSE(tessera_dtensor_layout_is_equivalent(a, b, NULL));
  tessera_dtensor_layout_destroy(b);
  tessera_dtensor_layout_destroy(a);
}

static void offset_to_shard_gives_the_mesh_coordinates(void) {
  int64_t shard[2] = {9, 9};
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:y,unsharded, mesh:" XY, NULL);
  ASSERT_EQ(2, tessera_dtensor_layout_offset_to_shard(layout, 3, shard, 2, NULL));
  ASSERT_EQ(1, shard[0]);
  ASSERT_EQ(0, shard[1]);
  tessera_dtensor_layout_destroy(layout);
}

static void offset_past_the_mesh_is_out_of_range(void) {
  int64_t shard[1];
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" XY, NULL);
  ASSERT_EQ(0, tessera_dtensor_layout_offset_to_shard(layout, 4, shard, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE,
               "Mesh offset cannot be negative or exceed Mesh's size. Offset size:4 and Mesh size:4");
  tessera_dtensor_layout_destroy(layout);
}

static void offset_tuple_is_row_major_over_the_shards(void) {
  const int64_t offsets[] = {1, 2};
  int64_t index = -1;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x,y, mesh:|x=2,y=3|*CPU", NULL);
  ASSERT_TRUE(tessera_dtensor_layout_offset_tuple_to_global_index(layout, offsets, 2, &index, NULL));
  ASSERT_EQ(5, index);
  tessera_dtensor_layout_destroy(layout);
}

static void global_shape_sums_dynamic_local_shapes(void) {
  /* x,unsharded on x=2,y=2: local devices 0 and 2 hold the two x shards. */
  const int64_t local[] = {-1, 5};
  const int64_t locals[] = {3, 5, 3, 5, 4, 5, 4, 5};
  int64_t global[2] = {0, 0};
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x,unsharded, mesh:" XY, NULL);
  ASSERT_EQ(2, tessera_dtensor_layout_global_shape_from_local(layout, local, 2, locals, 4, global, 2, NULL));
  ASSERT_EQ(7, global[0]);
  ASSERT_EQ(5, global[1]);
  tessera_dtensor_layout_destroy(layout);
}

static void local_shape_over_match_fails(void) {
  const int64_t shape[] = {4};
  int64_t out[1];
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:match, mesh:" XY, NULL);
  ASSERT_EQ(0, tessera_dtensor_layout_local_shape_from_global(layout, shape, 1, out, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "sharding spec 'match'");
  tessera_dtensor_layout_destroy(layout);
}

static void host_shards_of_an_unknown_host_are_not_found(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" XY, NULL);
  ASSERT_NULL(tessera_dtensor_layout_host_shard_vector_text(layout, "/job:other/task:3", &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "its hosts are [/job:localhost/task:0]");
  tessera_dtensor_layout_destroy(layout);
}

static void shard_vector_of_any_fails(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse("sharding_specs:any, mesh:" XY, NULL);
  ASSERT_NULL(tessera_dtensor_layout_shard_vector_text(layout, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "sharding spec 'any'");
  tessera_dtensor_layout_destroy(layout);
}

static void shard_vectors_over_different_dims_of_equal_extent_are_equal(void) {
  tessera_dtensor_layout* x = tessera_dtensor_layout_parse("sharding_specs:x, mesh:" XY, NULL);
  tessera_dtensor_layout* y = tessera_dtensor_layout_parse("sharding_specs:y, mesh:" XY, NULL);
  tessera_dtensor_layout* replicated = tessera_dtensor_layout_parse("sharding_specs:unsharded, mesh:" XY, NULL);
  ASSERT_TRUE(tessera_dtensor_layout_shard_vector_equal(x, y, NULL));
  ASSERT_FALSE(tessera_dtensor_layout_shard_vector_equal(x, replicated, NULL));
  tessera_dtensor_layout_destroy(replicated);
  tessera_dtensor_layout_destroy(y);
  tessera_dtensor_layout_destroy(x);
}

static void device_location_is_row_major(void) {
  int64_t location[2] = {9, 9};
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("|x=2,y=3|*CPU", NULL);
  ASSERT_EQ(2, tessera_dtensor_mesh_device_location(mesh, 4, location, 2, NULL));
  ASSERT_EQ(1, location[0]);
  ASSERT_EQ(1, location[1]);
  tessera_dtensor_mesh_destroy(mesh);
}

typedef tessera_dtensor_layout* (*merge_fn)(const tessera_dtensor_layout* const*, size_t,
                                            tessera_error**);

/* The specs of `merge` over the layouts of texts `a` and `b`. */
static const char* merged_specs(merge_fn merge, const char* a, const char* b) {
  const tessera_dtensor_layout* layouts[2];
  tessera_dtensor_layout* merged;
  const char* specs;
  layouts[0] = tessera_dtensor_layout_parse(a, NULL);
  layouts[1] = tessera_dtensor_layout_parse(b, NULL);
  merged = merge(layouts, 2, NULL);
  specs = merged == NULL ? NULL : specs_of(merged);
  tessera_dtensor_layout_destroy(merged);
  tessera_dtensor_layout_destroy((tessera_dtensor_layout*)layouts[1]);
  tessera_dtensor_layout_destroy((tessera_dtensor_layout*)layouts[0]);
  return specs;
}

static void most_sharded_merges_the_axes_each_layout_shards(void) {
  ASSERT_STREQ("x,y", merged_specs(tessera_dtensor_layout_most_sharded,
                                   "sharding_specs:x,unsharded, mesh:" XY,
                                   "sharding_specs:unsharded,y, mesh:" XY));
}

static void least_sharded_replicates_where_layouts_differ(void) {
  ASSERT_STREQ("x,unsharded", merged_specs(tessera_dtensor_layout_least_sharded,
                                           "sharding_specs:x,y, mesh:" XY,
                                           "sharding_specs:x,unsharded, mesh:" XY));
}

static void merging_a_null_layout_names_the_entry(void) {
  const tessera_dtensor_layout* layouts[1] = {NULL};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_layout_least_sharded(layouts, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layouts' entry 0 is NULL");
}

static void single_device_mesh_has_no_other_device_type(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_from_device(DEV("CPU", 0), NULL);
  ASSERT_NULL(tessera_dtensor_mesh_to_device_type(mesh, "GPU", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "is a single-device mesh");
  tessera_dtensor_mesh_destroy(mesh);
}

static void mesh_hosts_come_in_first_seen_order(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(
      "|x=3|0,1,2|0,1,2|/job:w/task:1/device:CPU:0,/job:w/task:0/device:CPU:0,"
      "/job:w/task:1/device:CPU:1",
      NULL);
  ASSERT_EQ(2, tessera_dtensor_mesh_num_hosts(mesh, NULL));
  ASSERT_STREQ("/job:w/task:1", tessera_dtensor_mesh_host(mesh, 0, NULL));
  ASSERT_STREQ("/job:w/task:0", tessera_dtensor_mesh_host(mesh, 1, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(one_parse_gives_the_layout_and_its_whole_mesh),
      HARNESS_TEST(static_create_refuses_a_spec_that_is_not_a_mesh_dim),
      HARNESS_TEST(parted_create_keeps_the_cc_message_for_a_repeated_dim),
      HARNESS_TEST(empty_layout_round_trips),
      HARNESS_TEST(specs_are_read_by_position),
      HARNESS_TEST(static_layout_converts_to_a_tessera_layout),
      HARNESS_TEST(parted_layout_has_no_tessera_layout_and_says_why),
      HARNESS_TEST(create_with_a_null_spec_names_the_entry),
      HARNESS_TEST(create_with_an_unknown_type_fails),
      HARNESS_TEST(to_parted_keeps_specs_and_mesh),
      HARNESS_TEST(to_device_type_renames_the_devices),
      HARNESS_TEST(truncate_at_the_end_keeps_the_back),
      HARNESS_TEST(truncate_past_the_rank_is_out_of_range),
      HARNESS_TEST(left_pad_prepends_unsharded),
      HARNESS_TEST(reduce_dims_counts_negative_indices_from_the_end),
      HARNESS_TEST(reduce_dims_keeping_dims_replicates_them),
      HARNESS_TEST(remove_dims_drops_the_listed_positions),
      HARNESS_TEST(batch_parallel_over_the_last_dims_counts_shards),
      HARNESS_TEST(batch_parallel_over_more_dims_than_the_rank_is_out_of_range),
      HARNESS_TEST(last_dim_replicated_reads_the_last_spec),
      HARNESS_TEST(equivalence_ignoring_type_accepts_parted_and_static),
      HARNESS_TEST(offset_to_shard_gives_the_mesh_coordinates),
      HARNESS_TEST(offset_past_the_mesh_is_out_of_range),
      HARNESS_TEST(offset_tuple_is_row_major_over_the_shards),
      HARNESS_TEST(global_shape_sums_dynamic_local_shapes),
      HARNESS_TEST(local_shape_over_match_fails),
      HARNESS_TEST(host_shards_of_an_unknown_host_are_not_found),
      HARNESS_TEST(shard_vector_of_any_fails),
      HARNESS_TEST(shard_vectors_over_different_dims_of_equal_extent_are_equal),
      HARNESS_TEST(device_location_is_row_major),
      HARNESS_TEST(most_sharded_merges_the_axes_each_layout_shards),
      HARNESS_TEST(least_sharded_replicates_where_layouts_differ),
      HARNESS_TEST(merging_a_null_layout_names_the_entry),
      HARNESS_TEST(single_device_mesh_has_no_other_device_type),
      HARNESS_TEST(mesh_hosts_come_in_first_seen_order),
  };
  const int status = harness_main(argc, argv, tests, HARNESS_COUNT(tests));
  text_of(NULL);
  return status;
}
