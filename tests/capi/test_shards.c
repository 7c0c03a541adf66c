/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Shard math through the C ABI: ranges, shapes, replica ids, processes, the
 * index map, distinct shards, and every bad input. */
#include <stdbool.h>
#include <stdint.h>

#include "fixtures.h"
#include "harness.h"

/* Mesh (2, 2), axes ("x", "y"), devices cpu:0..cpu:3. */
static tessera_mesh* mesh_2x2(void) {
  static const int64_t shape[] = {2, 2};
  static const char* const names[] = {"x", "y"};
  static const char* const devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3"};
  return fixture_create_mesh(shape, names, 2, devices, 4, NULL);
}

/* One dimension split over ("x", "y") of mesh_2x2. */
static tessera_layout* layout_xy(const tessera_mesh* mesh) {
  static const char* const names[] = {"x", "y"};
  static const size_t groups[] = {2};
  return tessera_layout_create_grouped(names, 2, groups, 1, mesh, NULL);
}

/* A sharding of fixture_layout_2d(axis0, axis1) on the 2x4 mesh. */
static tessera_sharding* sharding_2x4(const char* axis0, const char* axis1, int64_t rows,
                                      int64_t cols, tessera_shard_mode_t mode) {
  const int64_t dims[2] = {rows, cols};
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(axis0, axis1, mesh);
  tessera_sharding* sharding = tessera_sharding_create(layout, dims, 2, mode, NULL);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
  return sharding;
}

/* --- Per-device queries. */

static void strict_sharding_tiles_each_dimension(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  int64_t ranges[4] = {-1, -1, -1, -1};
  ASSERT_NOT_NULL(s);
  ASSERT_EQ(2, tessera_sharding_num_dims(s, NULL));
  ASSERT_EQ(8, tessera_sharding_num_devices(s, NULL));
  /* Device 5 is at (1, 1): [4:8, 4:8]. */
  ASSERT_EQ(4, tessera_sharding_device_ranges(s, 5, ranges, 4, &err));
  ASSERT_OK(err);
  ASSERT_EQ(4, ranges[0]);
  ASSERT_EQ(8, ranges[1]);
  ASSERT_EQ(4, ranges[2]);
  ASSERT_EQ(8, ranges[3]);
  tessera_sharding_destroy(s);
}

static void shard_shape_is_stop_minus_start(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4(NULL, "model", 4, 10, TESSERA_SHARD_MODE_CHUNK_FLAT);
  int64_t shape[2] = {-1, -1};
  ASSERT_EQ(2, tessera_sharding_shard_shape(s, 3, shape, 2, &err));
  ASSERT_OK(err);
  ASSERT_EQ(4, shape[0]);
  ASSERT_EQ(1, shape[1]);
  tessera_sharding_destroy(s);
}

static void flat_and_nested_chunking_differ_on_a_group(void) {
  const int64_t dims[] = {5};
  tessera_mesh* mesh = mesh_2x2();
  tessera_layout* layout = layout_xy(mesh);
  tessera_sharding* flat =
      tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_CHUNK_FLAT, NULL);
  tessera_sharding* nested =
      tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_CHUNK_NESTED, NULL);
  int64_t range[2] = {-1, -1};
  ASSERT_NOT_NULL(flat);
  ASSERT_NOT_NULL(nested);
  /* Flat: c = 2, device 3 gets the empty [5:5]. Nested: 5 -> 3|2 -> ... [4:5]. */
  ASSERT_EQ(2, tessera_sharding_device_ranges(flat, 3, range, 2, NULL));
  ASSERT_EQ(5, range[0]);
  ASSERT_EQ(5, range[1]);
  ASSERT_EQ(2, tessera_sharding_device_ranges(nested, 3, range, 2, NULL));
  ASSERT_EQ(4, range[0]);
  ASSERT_EQ(5, range[1]);
  tessera_sharding_destroy(flat);
  tessera_sharding_destroy(nested);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

/* Mesh (3, 2) axes a, b and the layout (('b', 'a'),): PyTorch's placements
 * [_StridedShard(dim=0, sf=2), Shard(dim=0)]. */
static tessera_layout* layout_ba_on_3x2(tessera_mesh** mesh) {
  const int64_t shape[] = {3, 2};
  const char* const names[] = {"a", "b"};
  const char* const group[] = {"b", "a"};
  const char* const devices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5"};
  const size_t sizes[] = {2};
  *mesh = fixture_create_mesh(shape, names, 2, devices, 6, NULL);
  return tessera_layout_create_grouped(group, 2, sizes, 1, *mesh, NULL);
}

/* torch 2.15 cuts 7 into 4 | 3, each of those by b into 2 | 2 and 2 | 1, and
 * device (a, b) takes chunk a of the elements b left it: device 1 holds
 * [4, 5) where nested chunking would give [2, 4). */
static void chunk_nested_gives_pytorchs_strided_pieces_for_an_uneven_group_against_mesh_order(void) {
  const int64_t dims[] = {7};
  const int64_t expected[] = {0, 2, 4, 5, 2, 4, 5, 6, 6, 7, 7, 7};
  tessera_error* err = NULL;
  tessera_mesh* mesh = NULL;
  tessera_layout* layout = layout_ba_on_3x2(&mesh);
  tessera_sharding* s = tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_CHUNK_NESTED, &err);
  int64_t map[12];
  size_t i;
  ASSERT_OK(err);
  ASSERT_EQ(12, tessera_sharding_index_map(s, map, 12, &err));
  ASSERT_OK(err);
  for (i = 0; i < 12; ++i) ASSERT_EQ(expected[i], map[i]);
  tessera_sharding_destroy(s);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

/* For 13 elements torch gives device 4 (a=2, b=0) elements 6 and 11. */
static void chunk_nested_refuses_where_pytorch_gives_a_device_no_single_range(void) {
  const int64_t dims[] = {13};
  tessera_error* err = NULL;
  tessera_mesh* mesh = NULL;
  tessera_layout* layout = layout_ba_on_3x2(&mesh);
  ASSERT_NULL(tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_CHUNK_NESTED, &err));
  ASSERT_NOT_NULL(err);
  ASSERT_EQ(TESSERA_INVALID_ARGUMENT, tessera_error_code(err));
  ASSERT_STREQ("Argument 'mode': chunk-nested cannot place dimension 0 (size 13) of layout (('b', 'a'),) as "
               "PyTorch does: its axes ('b', 'a') run against mesh order, which PyTorch shards by "
               "_StridedShard, and PyTorch gives device 4 (mesh coordinate (2, 0)) elements [6, 7) and "
               "[11, 12), not one range; expected a size divisible by 6, the chunk-flat mode, or the axes "
               "in mesh order",
               tessera_error_message(err));
  tessera_error_destroy(err);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void chunk_nested_accepts_a_group_against_mesh_order_of_divisible_size(void) {
  const int64_t dims[] = {12};
  tessera_error* err = NULL;
  tessera_mesh* mesh = NULL;
  tessera_layout* layout = layout_ba_on_3x2(&mesh);
  int64_t range[2] = {-1, -1};
  tessera_sharding* s = tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_CHUNK_NESTED, &err);
  ASSERT_OK(err);
  /* Device 1 is (a=0, b=1): b is major, so its shard index is 1 * 3 + 0. */
  ASSERT_EQ(2, tessera_sharding_device_ranges(s, 1, range, 2, &err));
  ASSERT_EQ(6, range[0]);
  ASSERT_EQ(8, range[1]);
  tessera_sharding_destroy(s);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void replica_id_counts_earlier_devices_with_the_same_slice(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4(NULL, "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  size_t id = 9;
  ASSERT_TRUE(tessera_sharding_replica_id(s, 2, &id, &err));
  ASSERT_EQ(0, id);
  ASSERT_TRUE(tessera_sharding_replica_id(s, 6, &id, &err));
  ASSERT_EQ(1, id);
  ASSERT_OK(err);
  tessera_sharding_destroy(s);
}

static void empty_shards_are_replicas_of_each_other(void) {
  const int64_t dims[] = {2};
  const char* const axes[] = {"x"};
  tessera_mesh* mesh = fixture_mesh_1d(4, "x");
  tessera_layout* layout = tessera_layout_create(axes, 1, mesh, NULL);
  tessera_sharding* s =
      tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_CHUNK_FLAT, NULL);
  size_t id = 9;
  /* Devices 2 and 3 both hold [2:2]. */
  ASSERT_TRUE(tessera_sharding_replica_id(s, 3, &id, NULL));
  ASSERT_EQ(1, id);
  tessera_sharding_destroy(s);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void device_in_process_follows_the_mesh_device(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", NULL, 8, 8, TESSERA_SHARD_MODE_STRICT);
  bool in = false;
  /* Unlisted or locally discovered CPU devices belong to process 0. */
  ASSERT_TRUE(tessera_sharding_device_in_process(s, 7, 0, &in, &err));
  ASSERT_TRUE(in);
  ASSERT_TRUE(tessera_sharding_device_in_process(s, 7, 1, &in, &err));
  ASSERT_FALSE(in);
  ASSERT_OK(err);
  tessera_sharding_destroy(s);
}

static void addressable_devices_are_the_process_devices_in_mesh_order(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", NULL, 8, 8, TESSERA_SHARD_MODE_STRICT);
  size_t devices[8] = {99, 99, 99, 99, 99, 99, 99, 99};
  size_t i;
  /* Unlisted or locally discovered CPU devices belong to process 0. */
  ASSERT_EQ(8, tessera_sharding_addressable_devices(s, 0, devices, 8, &err));
  for (i = 0; i < 8; ++i) ASSERT_EQ(i, devices[i]);
  ASSERT_EQ(0, tessera_sharding_addressable_devices(s, 1, NULL, 0, &err));
  ASSERT_OK(err);
  tessera_sharding_destroy(s);
}

static void addressable_devices_with_too_little_room_are_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", NULL, 8, 8, TESSERA_SHARD_MODE_STRICT);
  size_t devices[3] = {99, 99, 99};
  ASSERT_EQ(0, tessera_sharding_addressable_devices(s, 0, devices, 3, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 3; expected at least 8");
  ASSERT_EQ(99, devices[0]);
  tessera_sharding_destroy(s);
}

static void addressable_devices_reject_a_process_beyond_int64_and_a_null_sharding(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", NULL, 8, 8, TESSERA_SHARD_MODE_STRICT);
  ASSERT_FALSE(tessera_sharding_addressable_devices(s, SIZE_MAX, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'process_index' is 18446744073709551615; expected at most 9223372036854775807");
  ASSERT_FALSE(tessera_sharding_addressable_devices(NULL, 0, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "sharding");
  tessera_sharding_destroy(s);
}

static void max_shard_shape_rounds_up(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 3, 10, TESSERA_SHARD_MODE_CHUNK_NESTED);
  int64_t shape[2] = {-1, -1};
  ASSERT_EQ(2, tessera_sharding_max_shard_shape(s, shape, 2, &err));
  ASSERT_OK(err);
  ASSERT_EQ(2, shape[0]);
  ASSERT_EQ(3, shape[1]);
  tessera_sharding_destroy(s);
}

static void fully_replicated_only_without_split_dimensions(void) {
  tessera_sharding* replicated = sharding_2x4(NULL, NULL, 8, 8, TESSERA_SHARD_MODE_STRICT);
  tessera_sharding* split = sharding_2x4(NULL, "model", 8, 8, TESSERA_SHARD_MODE_STRICT);
  bool answer = false;
  ASSERT_TRUE(tessera_sharding_is_fully_replicated(replicated, &answer, NULL));
  ASSERT_TRUE(answer);
  ASSERT_TRUE(tessera_sharding_is_fully_replicated(split, &answer, NULL));
  ASSERT_FALSE(answer);
  tessera_sharding_destroy(replicated);
  tessera_sharding_destroy(split);
}

static void scalar_sharding_has_no_ranges(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = tessera_layout_create(NULL, 0, mesh, NULL);
  tessera_sharding* s = tessera_sharding_create(layout, NULL, 0, TESSERA_SHARD_MODE_STRICT, &err);
  ASSERT_OK(err);
  ASSERT_EQ(0, tessera_sharding_num_dims(s, NULL));
  ASSERT_EQ(0, tessera_sharding_device_ranges(s, 7, NULL, 0, &err));
  ASSERT_EQ(0, tessera_sharding_index_map(s, NULL, 0, &err));
  ASSERT_OK(err);
  tessera_sharding_destroy(s);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void a_sharding_keeps_its_layout_and_mesh_alive(void) {
  /* sharding_2x4 has destroyed its mesh and layout handles already. */
  tessera_sharding* s = sharding_2x4("batch", NULL, 8, 8, TESSERA_SHARD_MODE_STRICT);
  int64_t ranges[4] = {-1, -1, -1, -1};
  ASSERT_EQ(4, tessera_sharding_device_ranges(s, 4, ranges, 4, NULL));
  ASSERT_EQ(4, ranges[0]);
  ASSERT_EQ(8, ranges[1]);
  ASSERT_EQ(0, ranges[2]);
  ASSERT_EQ(8, ranges[3]);
  tessera_sharding_destroy(s);
}

/* --- Bulk queries. */

static void index_map_is_start_stop_per_dimension_per_device(void) {
  const int64_t dims[] = {4, 3};
  const int64_t expected[] = {0, 2, 0, 3, 2, 4, 0, 3};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_1d(2, "x");
  tessera_layout* layout = fixture_layout_2d("x", NULL, mesh);
  tessera_sharding* s = tessera_sharding_create(layout, dims, 2, TESSERA_SHARD_MODE_STRICT, NULL);
  int64_t map[8];
  size_t i;
  ASSERT_EQ(8, tessera_sharding_index_map(s, map, 8, &err));
  ASSERT_OK(err);
  for (i = 0; i < 8; ++i) ASSERT_EQ(expected[i], map[i]);
  tessera_sharding_destroy(s);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void index_map_without_an_array_answers_its_size(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  ASSERT_EQ(32, tessera_sharding_index_map(s, NULL, 0, &err));
  ASSERT_OK(err);
  tessera_sharding_destroy(s);
}

static void index_map_too_small_writes_nothing(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  int64_t map[31];
  map[0] = -7;
  ASSERT_EQ(0, tessera_sharding_index_map(s, map, 31, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 31; expected at least 32");
  ASSERT_EQ(-7, map[0]);
  tessera_sharding_destroy(s);
}

static void distinct_shards_in_order_of_first_appearance(void) {
  tessera_error* err = NULL;
  /* "model" over dim 0 of (8, 2): 4 shards, each on devices m and m + 4. */
  tessera_sharding* s = sharding_2x4("model", NULL, 8, 2, TESSERA_SHARD_MODE_STRICT);
  size_t num = 0, devices[2] = {9, 9};
  int64_t ranges[4];
  ASSERT_TRUE(tessera_sharding_num_distinct_shards(s, &num, &err));
  ASSERT_EQ(4, num);
  ASSERT_EQ(4, tessera_sharding_distinct_shard_ranges(s, 1, ranges, 4, &err));
  ASSERT_EQ(2, ranges[0]);
  ASSERT_EQ(4, ranges[1]);
  ASSERT_EQ(0, ranges[2]);
  ASSERT_EQ(2, ranges[3]);
  ASSERT_TRUE(tessera_sharding_distinct_shard_num_devices(s, 1, &num, &err));
  ASSERT_EQ(2, num);
  ASSERT_EQ(2, tessera_sharding_distinct_shard_devices(s, 1, devices, 2, &err));
  ASSERT_OK(err);
  ASSERT_EQ(1, devices[0]);
  ASSERT_EQ(5, devices[1]);
  tessera_sharding_destroy(s);
}

static void empty_shards_of_different_indices_are_one_distinct_shard(void) {
  const int64_t dims[] = {1};
  tessera_mesh* mesh = mesh_2x2();
  tessera_layout* layout = layout_xy(mesh);
  tessera_sharding* s =
      tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_CHUNK_FLAT, NULL);
  size_t num = 0, devices[3] = {9, 9, 9};
  ASSERT_TRUE(tessera_sharding_num_distinct_shards(s, &num, NULL));
  ASSERT_EQ(2, num);
  ASSERT_EQ(3, tessera_sharding_distinct_shard_devices(s, 1, devices, 3, NULL));
  ASSERT_EQ(1, devices[0]);
  ASSERT_EQ(2, devices[1]);
  ASSERT_EQ(3, devices[2]);
  tessera_sharding_destroy(s);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

/* --- Bad input. */

static void create_rejects_null_layout_and_dims(void) {
  const int64_t dims[] = {8, 8};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  ASSERT_NULL(tessera_sharding_create(NULL, dims, 2, TESSERA_SHARD_MODE_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'layout' is NULL");
  ASSERT_NULL(tessera_sharding_create(layout, NULL, 2, TESSERA_SHARD_MODE_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'dims' is NULL but 'num_dims' is 2");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void create_rejects_an_unknown_mode_naming_it(void) {
  const int64_t dims[] = {8, 8};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  ASSERT_NULL(tessera_sharding_create(layout, dims, 2, (tessera_shard_mode_t)3, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'mode' is 3; expected one of TESSERA_SHARD_MODE_STRICT (0)");
  ASSERT_NULL(tessera_sharding_create(layout, dims, 2, (tessera_shard_mode_t)-1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mode' is -1");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void create_rejects_a_rank_mismatch(void) {
  const int64_t dims[] = {8};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  ASSERT_NULL(tessera_sharding_create(layout, dims, 1, TESSERA_SHARD_MODE_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shape' (8,) has rank 1");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void create_rejects_a_negative_dimension(void) {
  const int64_t dims[] = {8, -1};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", NULL, mesh);
  ASSERT_NULL(tessera_sharding_create(layout, dims, 2, TESSERA_SHARD_MODE_CHUNK_FLAT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "dimension 1 equal to -1");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void strict_create_rejects_an_indivisible_dimension(void) {
  const int64_t dims[] = {4, 10};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  ASSERT_NULL(tessera_sharding_create(layout, dims, 2, TESSERA_SHARD_MODE_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "implies that array axis 1 is partitioned 4 times, but the dimension size is 10");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void indivisible_error_prints_the_tiling_factors_as_jaxs_list(void) {
  const int64_t dims[] = {4, 10};
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(NULL, "model", mesh);
  ASSERT_NULL(tessera_sharding_create(layout, dims, 2, TESSERA_SHARD_MODE_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "(full shape: (4, 10), per-dimension tiling factors: [1, 4] should evenly divide the shape)");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void create_needs_a_layout_with_a_mesh(void) {
  const int64_t dims[] = {8, 8};
  tessera_error* err = NULL;
  tessera_layout* layout = fixture_layout_2d("batch", NULL, NULL);
  ASSERT_NULL(tessera_sharding_create(layout, dims, 2, TESSERA_SHARD_MODE_STRICT, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "has no device mesh");
  tessera_layout_destroy(layout);
}

static void device_index_past_the_mesh_is_out_of_range_everywhere(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  int64_t ranges[4];
  size_t id = 0;
  bool in = false;
  ASSERT_EQ(0, tessera_sharding_device_ranges(s, 8, ranges, 4, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'device_index' is 8; expected less than 8");
  ASSERT_EQ(0, tessera_sharding_shard_shape(s, (size_t)-1, ranges, 2, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'device_index'");
  ASSERT_FALSE(tessera_sharding_replica_id(s, 8, &id, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'device_index' is 8");
  ASSERT_FALSE(tessera_sharding_device_in_process(s, 8, 0, &in, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'device_index' is 8");
  tessera_sharding_destroy(s);
}

static void capacity_below_the_answer_is_out_of_range_and_writes_nothing(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  int64_t room[3] = {-7, -7, -7};
  ASSERT_EQ(0, tessera_sharding_device_ranges(s, 0, room, 3, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 3; expected at least 4");
  ASSERT_EQ(-7, room[0]);
  ASSERT_EQ(0, tessera_sharding_shard_shape(s, 0, room, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 1; expected at least 2");
  ASSERT_EQ(0, tessera_sharding_max_shard_shape(s, room, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 1; expected at least 2");
  ASSERT_EQ(0, tessera_sharding_distinct_shard_ranges(s, 0, room, 3, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 3; expected at least 4");
  ASSERT_EQ(-7, room[0]);
  tessera_sharding_destroy(s);
}

static void distinct_shard_index_and_device_capacity_are_checked(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("model", NULL, 8, 2, TESSERA_SHARD_MODE_STRICT);
  size_t num = 0, devices[1] = {9};
  int64_t ranges[4];
  ASSERT_FALSE(tessera_sharding_distinct_shard_ranges(s, 4, ranges, 4, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'shard' is 4; expected less than 4");
  ASSERT_FALSE(tessera_sharding_distinct_shard_num_devices(s, 4, &num, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'shard' is 4");
  ASSERT_FALSE(tessera_sharding_distinct_shard_devices(s, 4, devices, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'shard' is 4");
  ASSERT_FALSE(tessera_sharding_distinct_shard_devices(s, 0, devices, 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 1; expected at least 2");
  ASSERT_EQ(9, devices[0]);
  tessera_sharding_destroy(s);
}

static void process_index_beyond_int64_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", NULL, 8, 8, TESSERA_SHARD_MODE_STRICT);
  bool in = true;
  ASSERT_FALSE(tessera_sharding_device_in_process(s, 0, SIZE_MAX, &in, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'process_index' is 18446744073709551615; expected at most 9223372036854775807");
  tessera_sharding_destroy(s);
}

static void null_outputs_are_invalid_argument_by_name(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  ASSERT_FALSE(tessera_sharding_device_ranges(s, 0, NULL, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL but 'capacity' is 4");
  ASSERT_FALSE(tessera_sharding_shard_shape(s, 0, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_replica_id(s, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_device_in_process(s, 0, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_index_map(s, NULL, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL but 'capacity' is 4");
  ASSERT_FALSE(tessera_sharding_num_distinct_shards(s, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_distinct_shard_ranges(s, 0, NULL, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_distinct_shard_num_devices(s, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_distinct_shard_devices(s, 0, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_max_shard_shape(s, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_sharding_is_fully_replicated(s, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  tessera_sharding_destroy(s);
}

static void null_sharding_is_invalid_argument_everywhere(void) {
  tessera_error* err = NULL;
  int64_t values[2];
  size_t num = 0, devices[2];
  bool answer = false;
  ASSERT_FALSE(tessera_sharding_device_ranges(NULL, 0, values, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_shard_shape(NULL, 0, values, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_replica_id(NULL, 0, &num, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_device_in_process(NULL, 0, 0, &answer, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_index_map(NULL, values, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_num_distinct_shards(NULL, &num, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_distinct_shard_ranges(NULL, 0, values, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_distinct_shard_num_devices(NULL, 0, &num, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_distinct_shard_devices(NULL, 0, devices, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_max_shard_shape(NULL, values, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_FALSE(tessera_sharding_is_fully_replicated(NULL, &answer, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL");
  ASSERT_EQ(0, tessera_sharding_num_dims(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_sharding_num_devices(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sharding' is NULL; expected a valid pointer");
  tessera_sharding_destroy(NULL);
}

static void errors_without_an_error_pointer_only_return_the_sentinel(void) {
  const int64_t dims[] = {8};
  tessera_sharding* s = sharding_2x4("batch", "model", 8, 16, TESSERA_SHARD_MODE_STRICT);
  size_t id = 0;
  ASSERT_NULL(tessera_sharding_create(NULL, dims, 1, TESSERA_SHARD_MODE_STRICT, NULL));
  ASSERT_FALSE(tessera_sharding_replica_id(s, 99, &id, NULL));
  tessera_sharding_destroy(s);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(strict_sharding_tiles_each_dimension),
      HARNESS_TEST(shard_shape_is_stop_minus_start),
      HARNESS_TEST(flat_and_nested_chunking_differ_on_a_group),
      HARNESS_TEST(chunk_nested_gives_pytorchs_strided_pieces_for_an_uneven_group_against_mesh_order),
      HARNESS_TEST(chunk_nested_refuses_where_pytorch_gives_a_device_no_single_range),
      HARNESS_TEST(chunk_nested_accepts_a_group_against_mesh_order_of_divisible_size),
      HARNESS_TEST(replica_id_counts_earlier_devices_with_the_same_slice),
      HARNESS_TEST(empty_shards_are_replicas_of_each_other),
      HARNESS_TEST(device_in_process_follows_the_mesh_device),
      HARNESS_TEST(addressable_devices_are_the_process_devices_in_mesh_order),
      HARNESS_TEST(addressable_devices_with_too_little_room_are_out_of_range),
      HARNESS_TEST(addressable_devices_reject_a_process_beyond_int64_and_a_null_sharding),
      HARNESS_TEST(max_shard_shape_rounds_up),
      HARNESS_TEST(fully_replicated_only_without_split_dimensions),
      HARNESS_TEST(scalar_sharding_has_no_ranges),
      HARNESS_TEST(a_sharding_keeps_its_layout_and_mesh_alive),
      HARNESS_TEST(index_map_is_start_stop_per_dimension_per_device),
      HARNESS_TEST(index_map_without_an_array_answers_its_size),
      HARNESS_TEST(index_map_too_small_writes_nothing),
      HARNESS_TEST(distinct_shards_in_order_of_first_appearance),
      HARNESS_TEST(empty_shards_of_different_indices_are_one_distinct_shard),
      HARNESS_TEST(create_rejects_null_layout_and_dims),
      HARNESS_TEST(create_rejects_an_unknown_mode_naming_it),
      HARNESS_TEST(create_rejects_a_rank_mismatch),
      HARNESS_TEST(create_rejects_a_negative_dimension),
      HARNESS_TEST(strict_create_rejects_an_indivisible_dimension),
      HARNESS_TEST(indivisible_error_prints_the_tiling_factors_as_jaxs_list),
      HARNESS_TEST(create_needs_a_layout_with_a_mesh),
      HARNESS_TEST(device_index_past_the_mesh_is_out_of_range_everywhere),
      HARNESS_TEST(capacity_below_the_answer_is_out_of_range_and_writes_nothing),
      HARNESS_TEST(distinct_shard_index_and_device_capacity_are_checked),
      HARNESS_TEST(process_index_beyond_int64_is_out_of_range),
      HARNESS_TEST(null_outputs_are_invalid_argument_by_name),
      HARNESS_TEST(null_sharding_is_invalid_argument_everywhere),
      HARNESS_TEST(errors_without_an_error_pointer_only_return_the_sentinel),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
