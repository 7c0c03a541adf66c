/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Host scatter/gather and the resharding plan through the C ABI: round
 * trips, replica verification, the process option, plans, and every bad
 * input. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fixtures.h"
#include "harness.h"

/* A sharding of fixture_layout_2d(axis0, axis1) on the 2x4 mesh. */
static tessera_sharding* sharding_2x4(const char* axis0, const char* axis1, int64_t rows,
                                      int64_t cols) {
  const int64_t dims[2] = {rows, cols};
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d(axis0, axis1, mesh);
  tessera_sharding* sharding =
      tessera_sharding_create(layout, dims, 2, TESSERA_SHARD_MODE_CHUNK_FLAT, NULL);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
  return sharding;
}

/* Room for 8 shards of up to 64 bytes each. */
static unsigned char g_shard_bytes[8][64];
static void* g_shards[8];
static const void* g_const_shards[8];

static void reset_shards(void) {
  size_t i;
  memset(g_shard_bytes, 0xEE, sizeof g_shard_bytes);
  for (i = 0; i < 8; ++i) {
    g_shards[i] = g_shard_bytes[i];
    g_const_shards[i] = g_shard_bytes[i];
  }
}

/* --- Scatter and gather. */

static void scatter_then_gather_round_trips_on_threads(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 5, 7);
  tessera_copy_options* options = tessera_copy_options_create();
  unsigned char global[5 * 7 * 4], back[5 * 7 * 4];
  size_t i;
  ASSERT_NOT_NULL(s);
  ASSERT_NOT_NULL(options);
  for (i = 0; i < sizeof global; ++i) global[i] = (unsigned char)(i * 7 + 3);
  memset(back, 0, sizeof back);
  reset_shards();
  ASSERT_TRUE(tessera_copy_options_set_threads(options, 3, &err));
  ASSERT_TRUE(tessera_copy_options_set_verify_replicas(options, true, &err));
  ASSERT_TRUE(tessera_sharding_scatter(s, global, sizeof global, 4, g_shards, 8, options, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_sharding_gather(s, g_const_shards, 8, 4, back, sizeof back, options, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(memcmp(global, back, sizeof global) == 0);
  tessera_copy_options_destroy(options);
  tessera_sharding_destroy(s);
}

static void column_shards_hold_strided_rows(void) {
  tessera_error* err = NULL;
  /* (2, 8) bytes over "model": device 1 holds columns 2-3 of both rows. */
  tessera_sharding* s = sharding_2x4(NULL, "model", 2, 8);
  unsigned char global[16];
  size_t i;
  for (i = 0; i < 16; ++i) global[i] = (unsigned char)i;
  reset_shards();
  ASSERT_TRUE(tessera_sharding_scatter(s, global, 16, 1, g_shards, 8, NULL, &err));
  ASSERT_OK(err);
  ASSERT_EQ(2, g_shard_bytes[1][0]);
  ASSERT_EQ(3, g_shard_bytes[1][1]);
  ASSERT_EQ(10, g_shard_bytes[1][2]);
  ASSERT_EQ(11, g_shard_bytes[1][3]);
  ASSERT_EQ(0xEE, g_shard_bytes[1][4]);
  tessera_sharding_destroy(s);
}

static void verify_replicas_reports_data_loss(void) {
  tessera_error* err = NULL;
  /* ("batch", None): devices 0-3 hold rows 0-1, device 0 is replica 0. */
  tessera_sharding* s = sharding_2x4("batch", NULL, 4, 2);
  tessera_copy_options* options = tessera_copy_options_create();
  unsigned char global[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8];
  reset_shards();
  ASSERT_TRUE(tessera_sharding_scatter(s, global, 8, 1, g_shards, 8, NULL, &err));
  g_shard_bytes[3][2] = 99;
  ASSERT_TRUE(tessera_copy_options_set_verify_replicas(options, true, &err));
  ASSERT_FALSE(tessera_sharding_gather(s, g_const_shards, 8, 1, back, 8, options, &err));
  ASSERT_ERROR(err, TESSERA_DATA_LOSS,
               "The shard of device 3 (replica 3) differs from the shard of device 0 "
               "(replica 0) at byte offset 2");
  tessera_copy_options_destroy(options);
  tessera_sharding_destroy(s);
}

static void another_process_needs_no_buffers(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 4, 4);
  tessera_copy_options* options = tessera_copy_options_create();
  void* none[8] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
  unsigned char global[16] = {0};
  /* Every device of the fixture mesh is owned by process 0. */
  ASSERT_TRUE(tessera_copy_options_set_process_index(options, 1, &err));
  ASSERT_TRUE(tessera_sharding_scatter(s, global, 16, 1, none, 8, options, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_copy_options_set_process_index(options, 0, &err));
  ASSERT_FALSE(tessera_sharding_scatter(s, global, 16, 1, none, 8, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shards' entry 0 is NULL");
  tessera_copy_options_destroy(options);
  tessera_sharding_destroy(s);
}

static void shard_size_is_element_size_times_shard_elements(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 5, 7);
  size_t size = 0;
  /* Device 7 holds rows [3, 5) and columns [6, 7). */
  ASSERT_TRUE(tessera_sharding_shard_size(s, 7, 12, &size, &err));
  ASSERT_OK(err);
  ASSERT_EQ(24, size);
  ASSERT_FALSE(tessera_sharding_shard_size(s, 8, 4, &size, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'device_index' is 8");
  ASSERT_FALSE(tessera_sharding_shard_size(s, 0, 17, &size, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'element_size' is 17");
  ASSERT_FALSE(tessera_sharding_shard_size(NULL, 0, 4, &size, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'sharding'");
  ASSERT_FALSE(tessera_sharding_shard_size(s, 0, 4, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out'");
  tessera_sharding_destroy(s);
}

/* --- Bad copy inputs. */

static void copy_options_reject_bad_input(void) {
  tessera_error* err = NULL;
  tessera_copy_options* options = tessera_copy_options_create();
  tessera_copy_options_destroy(NULL);
  ASSERT_FALSE(tessera_copy_options_set_threads(NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'options'");
  ASSERT_FALSE(tessera_copy_options_set_verify_replicas(NULL, true, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'options'");
  ASSERT_FALSE(tessera_copy_options_set_process_index(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'options'");
  ASSERT_FALSE(tessera_copy_options_set_process_index(options, TESSERA_NO_INDEX - 1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE,
               "Argument 'process_index' is 18446744073709551614; expected at most 9223372036854775807");
  ASSERT_TRUE(tessera_copy_options_set_process_index(options, TESSERA_NO_INDEX, &err));
  ASSERT_OK(err);
  tessera_copy_options_destroy(options);
}

static void scatter_rejects_bad_input_by_name(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 4, 4);
  unsigned char global[64] = {0};
  reset_shards();
  ASSERT_FALSE(tessera_sharding_scatter(NULL, global, 64, 4, g_shards, 8, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'sharding'");
  ASSERT_FALSE(tessera_sharding_scatter(s, global, 64, 4, NULL, 8, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'shards'");
  ASSERT_FALSE(tessera_sharding_scatter(s, NULL, 64, 4, g_shards, 8, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'global' is NULL");
  ASSERT_FALSE(tessera_sharding_scatter(s, global, 0, 0, g_shards, 8, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'element_size' is 0; expected 1 to 16");
  ASSERT_FALSE(tessera_sharding_scatter(s, global, 63, 4, g_shards, 8, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'global_size' is 63; expected 64");
  ASSERT_FALSE(tessera_sharding_scatter(s, global, 64, 4, g_shards, 7, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_shards' is 7; expected 8");
  g_shards[5] = NULL;
  ASSERT_FALSE(tessera_sharding_scatter(s, global, 64, 4, g_shards, 8, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shards' entry 5 is NULL");
  ASSERT_EQ(0xEE, g_shard_bytes[0][0]);
  tessera_sharding_destroy(s);
}

static void gather_rejects_bad_input_by_name(void) {
  tessera_error* err = NULL;
  tessera_sharding* s = sharding_2x4("batch", "model", 4, 4);
  unsigned char global[16];
  reset_shards();
  ASSERT_FALSE(tessera_sharding_gather(NULL, g_const_shards, 8, 1, global, 16, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'sharding'");
  ASSERT_FALSE(tessera_sharding_gather(s, NULL, 8, 1, global, 16, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'shards'");
  ASSERT_FALSE(tessera_sharding_gather(s, g_const_shards, 8, 1, NULL, 16, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'global' is NULL");
  ASSERT_FALSE(tessera_sharding_gather(s, g_const_shards, 8, 17, global, 16, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'element_size' is 17");
  ASSERT_FALSE(tessera_sharding_gather(s, g_const_shards, 8, 1, global, 15, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'global_size' is 15; expected 16");
  ASSERT_FALSE(tessera_sharding_gather(s, g_const_shards, 9, 1, global, 16, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_shards' is 9; expected 8");
  g_const_shards[6] = NULL;
  ASSERT_FALSE(tessera_sharding_gather(s, g_const_shards, 8, 1, global, 16, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shards' entry 6 is NULL");
  tessera_sharding_destroy(s);
}

static void errors_without_an_error_pointer_only_return_false(void) {
  ASSERT_FALSE(tessera_sharding_scatter(NULL, NULL, 0, 4, NULL, 0, NULL, NULL));
  ASSERT_FALSE(tessera_sharding_gather(NULL, NULL, 0, 4, NULL, 0, NULL, NULL));
  ASSERT_NULL(tessera_reshard_plan_create(NULL, NULL, 4, NULL));
}

/* --- Resharding plans. */

static void plan_from_rows_to_columns(void) {
  tessera_error* err = NULL;
  /* (4, 4) over ("batch", None) -> (None, "model"): device 0 needs column 0
   * of every row, from replica-0 holders 0 (rows 0-1) and 4 (rows 2-3). */
  tessera_sharding* a = sharding_2x4("batch", NULL, 4, 4);
  tessera_sharding* b = sharding_2x4(NULL, "model", 4, 4);
  tessera_reshard_plan* plan = tessera_reshard_plan_create(a, b, 4, &err);
  size_t source = 99, destination = 99;
  int64_t bytes = -1, ranges[4] = {-1, -1, -1, -1}, total = -1;
  tessera_transfer_locality_t locality = TESSERA_TRANSFER_CROSS_PROCESS;
  ASSERT_OK(err);
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(2, tessera_reshard_plan_num_dims(plan, NULL));
  ASSERT_EQ(16, tessera_reshard_plan_num_transfers(plan, NULL));
  ASSERT_TRUE(tessera_reshard_plan_transfer(plan, 0, &source, &destination, &bytes, &locality,
                                            &err));
  ASSERT_EQ(0, source);
  ASSERT_EQ(0, destination);
  ASSERT_EQ(8, bytes);
  ASSERT_EQ(TESSERA_TRANSFER_SAME_DEVICE, locality);
  ASSERT_TRUE(tessera_reshard_plan_transfer(plan, 1, &source, &destination, &bytes, &locality,
                                            &err));
  ASSERT_EQ(4, source);
  ASSERT_EQ(0, destination);
  ASSERT_EQ(TESSERA_TRANSFER_SAME_PROCESS, locality);
  ASSERT_EQ(4, tessera_reshard_plan_transfer_ranges(plan, 1, ranges, 4, &err));
  ASSERT_EQ(2, ranges[0]);
  ASSERT_EQ(4, ranges[1]);
  ASSERT_EQ(0, ranges[2]);
  ASSERT_EQ(1, ranges[3]);
  ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_SAME_DEVICE, &total, &err));
  ASSERT_EQ(8 * 8, total);
  ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_SAME_PROCESS, &total, &err));
  ASSERT_EQ(8 * 8, total);
  ASSERT_TRUE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_CROSS_PROCESS, &total, &err));
  ASSERT_EQ(0, total);
  ASSERT_OK(err);
  tessera_reshard_plan_destroy(plan);
  tessera_sharding_destroy(a);
  tessera_sharding_destroy(b);
}

static void plan_rejects_bad_input_by_name(void) {
  tessera_error* err = NULL;
  tessera_sharding* a = sharding_2x4("batch", NULL, 4, 4);
  tessera_sharding* c = sharding_2x4("batch", NULL, 4, 6);
  ASSERT_NULL(tessera_reshard_plan_create(NULL, a, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'source'");
  ASSERT_NULL(tessera_reshard_plan_create(a, NULL, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'destination'");
  ASSERT_NULL(tessera_reshard_plan_create(a, c, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'destination' has global shape (4, 6); expected the source's shape "
               "(4, 4)");
  ASSERT_NULL(tessera_reshard_plan_create(a, a, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'element_size' is 0");
  tessera_reshard_plan_destroy(NULL);
  ASSERT_EQ(0, tessera_reshard_plan_num_transfers(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_reshard_plan_num_dims(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'plan' is NULL; expected a valid pointer");
  tessera_sharding_destroy(a);
  tessera_sharding_destroy(c);
}

static void plan_accessors_reject_bad_input(void) {
  tessera_error* err = NULL;
  tessera_sharding* a = sharding_2x4("batch", "model", 4, 4);
  tessera_reshard_plan* plan = tessera_reshard_plan_create(a, a, 4, NULL);
  size_t source, destination;
  int64_t bytes, ranges[4], total;
  tessera_transfer_locality_t locality;
  int32_t raw = 7;
  tessera_transfer_locality_t bad;
  memcpy(&bad, &raw, sizeof bad);
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(8, tessera_reshard_plan_num_transfers(plan, NULL));
  ASSERT_FALSE(tessera_reshard_plan_transfer(plan, 8, &source, &destination, &bytes, &locality,
                                             &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 8");
  ASSERT_FALSE(tessera_reshard_plan_transfer(NULL, 0, &source, &destination, &bytes, &locality,
                                             &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'plan'");
  ASSERT_FALSE(tessera_reshard_plan_transfer(plan, 0, NULL, &destination, &bytes, &locality,
                                             &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out_source'");
  ASSERT_FALSE(tessera_reshard_plan_transfer(plan, 0, &source, NULL, &bytes, &locality, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out_destination'");
  ASSERT_FALSE(tessera_reshard_plan_transfer(plan, 0, &source, &destination, NULL, &locality,
                                             &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out_bytes'");
  ASSERT_FALSE(tessera_reshard_plan_transfer(plan, 0, &source, &destination, &bytes, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out_locality'");
  ASSERT_FALSE(tessera_reshard_plan_transfer_ranges(plan, 0, ranges, 3, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 3; expected at least 4");
  ASSERT_FALSE(tessera_reshard_plan_transfer_ranges(plan, 8, ranges, 4, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 8");
  ASSERT_FALSE(tessera_reshard_plan_transfer_ranges(plan, 0, NULL, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out'");
  ASSERT_FALSE(tessera_reshard_plan_transfer_ranges(NULL, 0, ranges, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'plan'");
  ASSERT_FALSE(tessera_reshard_plan_total_bytes(plan, bad, &total, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'locality' is 7");
  ASSERT_FALSE(tessera_reshard_plan_total_bytes(plan, TESSERA_TRANSFER_SAME_DEVICE, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'out'");
  ASSERT_FALSE(tessera_reshard_plan_total_bytes(NULL, TESSERA_TRANSFER_SAME_DEVICE, &total, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "'plan'");
  tessera_reshard_plan_destroy(plan);
  tessera_sharding_destroy(a);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(scatter_then_gather_round_trips_on_threads),
      HARNESS_TEST(column_shards_hold_strided_rows),
      HARNESS_TEST(verify_replicas_reports_data_loss),
      HARNESS_TEST(another_process_needs_no_buffers),
      HARNESS_TEST(shard_size_is_element_size_times_shard_elements),
      HARNESS_TEST(copy_options_reject_bad_input),
      HARNESS_TEST(scatter_rejects_bad_input_by_name),
      HARNESS_TEST(gather_rejects_bad_input_by_name),
      HARNESS_TEST(errors_without_an_error_pointer_only_return_false),
      HARNESS_TEST(plan_from_rows_to_columns),
      HARNESS_TEST(plan_rejects_bad_input_by_name),
      HARNESS_TEST(plan_accessors_reject_bad_input),
  };
  if (!fixture_set_cpu_devices("8")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
