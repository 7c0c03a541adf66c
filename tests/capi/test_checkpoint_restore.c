/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* tessera/experimental/checkpoint_restore.h: restoring a sharded checkpoint
 * on another mesh and layout through the C ABI.
 *
 * The checkpoint is written here, in the index format (issue 13 contracts
 * 1-2): tensor "w", F32 [4, 4], element (r, c) = 4r + c, saved on the mesh
 * x=2 under (x, None) by 2 processes: rows [0, 2) in
 * process-00000-of-00002.safetensors, rows [2, 4) in process-00001-....
 * It is restored on the mesh y=4 under (None, y): device d gets column d,
 * the 4 values 4r + d, from both files (two rows of each). */
#define _XOPEN_SOURCE 700

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "harness.h"
#include "tessera/tessera.h"

static char dir[256];
static char files[2][320];
static char index_path[320];
static int64_t piece_offset[2]; /* absolute offset of each file's piece */

#define MESH_X2 "{\"shape\":[\"2\"],\"axisNames\":[\"x\"],\"devices\":[{},{\"id\":\"1\",\"localOrdinal\":\"1\"}]}"

static void write_piece_file(int process) {
  char header[512];
  float values[8];
  unsigned char length[8] = {0};
  size_t n;
  int i;
  FILE* f;
  snprintf(header, sizeof header,
           "{\"__metadata__\":{\"format\":\"tessera.checkpoint\",\"tessera.process\":\"%d\","
           "\"tessera.num_processes\":\"2\"},"
           "\"w@%d:%d,0:4\":{\"dtype\":\"F32\",\"shape\":[2,4],\"data_offsets\":[0,32]}}",
           process, 2 * process, 2 * process + 2);
  n = strlen(header);
  for (i = 0; i < 8; ++i) length[i] = (unsigned char)((uint64_t)n >> (8 * i));
  for (i = 0; i < 8; ++i) values[i] = (float)(8 * process + i);
  f = fopen(files[process], "wb");
  if (f == NULL) return;
  fwrite(length, 1, 8, f);
  fwrite(header, 1, n, f);
  fwrite(values, sizeof(float), 8, f);
  fclose(f);
  piece_offset[process] = (int64_t)(8 + n);
}

/* The index, with `pieces` (1 or 2) of w's pieces listed. */
static void write_index(int pieces) {
  FILE* f = fopen(index_path, "w");
  if (f == NULL) return;
  fprintf(f,
          "{\"format\":\"tessera.checkpoint\",\"version\":1,\"num_processes\":2,"
          "\"files\":[\"process-00000-of-00002.safetensors\",\"process-00001-of-00002.safetensors\"],"
          "\"tensors\":[{\"name\":\"w\",\"dtype\":\"F32\",\"shape\":[4,4],\"mesh\":" MESH_X2
          ",\"layout\":{\"dims\":[{\"axes\":[\"x\"]},{}],\"mesh\":" MESH_X2 "},\"shard_mode\":\"strict\","
          "\"pieces\":[{\"file\":0,\"offset\":%lld,\"size\":32,\"ranges\":[[0,2],[0,4]]}",
          (long long)piece_offset[0]);
  if (pieces == 2) {
    fprintf(f, ",{\"file\":1,\"offset\":%lld,\"size\":32,\"ranges\":[[2,4],[0,4]]}", (long long)piece_offset[1]);
  }
  fprintf(f, "]}]}");
  fclose(f);
}

static void write_checkpoint(void) {
  const char* tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/tessera_checkpoint_restore_XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) return;
  snprintf(files[0], sizeof files[0], "%s/process-00000-of-00002.safetensors", dir);
  snprintf(files[1], sizeof files[1], "%s/process-00001-of-00002.safetensors", dir);
  snprintf(index_path, sizeof index_path, "%s/tessera-index.json", dir);
  write_piece_file(0);
  write_piece_file(1);
  write_index(2);
}

static void remove_checkpoint(void) {
  unlink(files[0]);
  unlink(files[1]);
  unlink(index_path);
  rmdir(dir);
}

/* The rule w -> (None, y) on the mesh y=4. */
static tessera_layout_map* columns_on_4(void) {
  tessera_mesh* mesh = fixture_mesh_1d(4, "y");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_layout* columns = fixture_layout_2d(NULL, "y", mesh);
  tessera_layout_map_set(map, "w", columns, NULL);
  tessera_layout_destroy(columns);
  tessera_mesh_destroy(mesh);
  return map;
}

/* Process `process` of `num_processes` restoring with a coalescing gap of 0. */
static tessera_read_plan* restore_plan(const tessera_checkpoint_index* index, const tessera_restore_request* request,
                                       size_t process, size_t num_processes, tessera_error** err) {
  tessera_layout_map* map = columns_on_4();
  tessera_read_options* options = tessera_read_options_create();
  tessera_read_plan* plan;
  tessera_read_options_set_process(options, process, num_processes, NULL);
  tessera_read_options_set_coalesce_gap(options, 0, NULL);
  plan = tessera_restore_plan_create(index, map, request, options, err);
  tessera_read_options_destroy(options);
  tessera_layout_map_destroy(map);
  return plan;
}

/* The error of opening the checkpoint (an index opened by mistake is destroyed;
 * the missing error then fails the caller's ASSERT_ERROR). */
static tessera_error* open_error(void) {
  tessera_error* err = NULL;
  tessera_checkpoint_index_destroy(tessera_checkpoint_index_open(dir, &err));
  return err;
}

static void each_device_gets_its_column_from_both_files(void) {
  tessera_checkpoint_index* index = tessera_checkpoint_index_open(dir, NULL);
  tessera_read_plan* plan = restore_plan(index, NULL, 0, 1, NULL);
  float columns[4][4];
  void* buffers[4];
  size_t sizes[4] = {16, 16, 16, 16};
  int64_t read = 0;
  int d, r;
  ASSERT_NOT_NULL(plan);
  for (d = 0; d < 4; ++d) buffers[d] = columns[d];
  ASSERT_TRUE(tessera_read_plan_execute(plan, buffers, sizes, 4, NULL, NULL, &read, NULL));
  for (d = 0; d < 4; ++d) {
    ASSERT_EQ((size_t)d, tessera_read_plan_piece_device(plan, (size_t)d, NULL));
    for (r = 0; r < 4; ++r) ASSERT_TRUE(columns[d][r] == (float)(4 * r + d));
  }
  ASSERT_EQ(64, read);
  tessera_read_plan_destroy(plan);
  tessera_checkpoint_index_destroy(index);
}

static void a_process_reads_only_the_rows_of_its_columns(void) {
  tessera_checkpoint_index* index = tessera_checkpoint_index_open(dir, NULL);
  tessera_read_plan* plan = restore_plan(index, NULL, 1, 2, NULL); /* devices 2, 3: columns [2, 4) */
  int64_t ranges[8];
  ASSERT_NOT_NULL(plan);
  ASSERT_EQ(32, tessera_read_plan_total_bytes(plan, NULL));
  ASSERT_EQ(2, tessera_read_plan_num_files(plan, NULL));
  ASSERT_EQ(4, tessera_read_plan_file_ranges(plan, 1, ranges, 8, NULL));
  ASSERT_EQ(piece_offset[1] + 8, ranges[0]);
  ASSERT_EQ(piece_offset[1] + 16, ranges[1]);
  ASSERT_EQ(piece_offset[1] + 24, ranges[2]);
  ASSERT_EQ(piece_offset[1] + 32, ranges[3]);
  tessera_read_plan_destroy(plan);
  tessera_checkpoint_index_destroy(index);
}

static void the_index_describes_tensors_pieces_and_files(void) {
  tessera_checkpoint_index* index = tessera_checkpoint_index_open(index_path, NULL);
  int64_t values[4];
  tessera_sharding* saved;
  ASSERT_NOT_NULL(index);
  ASSERT_EQ(2, tessera_checkpoint_index_num_processes(index, NULL));
  ASSERT_EQ(2, tessera_checkpoint_index_num_files(index, NULL));
  ASSERT_STREQ(files[1], tessera_checkpoint_index_file_path(index, 1, NULL));
  ASSERT_EQ(1, tessera_checkpoint_index_num_tensors(index, NULL));
  ASSERT_STREQ("w", tessera_checkpoint_index_tensor_name(index, 0, NULL));
  ASSERT_STREQ("F32", tessera_checkpoint_index_tensor_dtype(index, 0, NULL));
  ASSERT_EQ(2, tessera_checkpoint_index_tensor_shape(index, 0, values, 4, NULL));
  ASSERT_EQ(4, values[0]);
  ASSERT_EQ(4, values[1]);
  ASSERT_EQ(2, tessera_checkpoint_index_tensor_num_pieces(index, 0, NULL));
  ASSERT_EQ(4, tessera_checkpoint_index_piece_ranges(index, 0, 1, values, 4, NULL));
  ASSERT_EQ(2, values[0]);
  ASSERT_EQ(4, values[1]);
  ASSERT_EQ(0, values[2]);
  ASSERT_EQ(4, values[3]);
  ASSERT_EQ(1, tessera_checkpoint_index_piece_file(index, 0, 1, NULL));
  saved = tessera_checkpoint_index_tensor_sharding(index, 0, NULL);
  ASSERT_EQ(2, tessera_sharding_num_devices(saved, NULL));
  tessera_sharding_destroy(saved);
  tessera_checkpoint_index_destroy(index);
}

static void a_directory_without_an_index_is_a_failed_precondition(void) {
  tessera_error* err;
  unlink(index_path);
  err = open_error();
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, dir);
  write_index(2);
}

static void a_tensor_with_a_piece_missing_is_refused_naming_the_range(void) {
  tessera_error* err;
  write_index(1);
  err = open_error();
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "tensor 'w': elements [2:4, 0:4] are in no piece");
  write_index(2);
}

static void a_missing_file_is_a_failed_precondition_naming_it(void) {
  tessera_error* err;
  unlink(files[1]);
  err = open_error();
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, files[1]);
  write_piece_file(1);
}

static void a_truncated_file_is_data_loss_naming_it(void) {
  tessera_error* err;
  ASSERT_EQ(0, truncate(files[0], piece_offset[0] + 16));
  err = open_error();
  ASSERT_ERROR(err, TESSERA_DATA_LOSS, files[0]);
  write_piece_file(0);
}

static void a_requested_shape_other_than_the_stored_is_refused_naming_both(void) {
  tessera_checkpoint_index* index = tessera_checkpoint_index_open(dir, NULL);
  tessera_restore_request* request = tessera_restore_request_create();
  const int64_t shape[] = {4, 8};
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_restore_request_add_tensor(request, "w", "F32", shape, 2, NULL));
  ASSERT_NULL(restore_plan(index, request, 0, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Tensor 'w' is requested with shape [4, 8] but the checkpoint stores shape [4, 4]; expected the "
               "same shape");
  tessera_restore_request_destroy(request);
  tessera_checkpoint_index_destroy(index);
}

static void a_requested_dtype_other_than_the_stored_is_refused(void) {
  tessera_checkpoint_index* index = tessera_checkpoint_index_open(dir, NULL);
  tessera_restore_request* request = tessera_restore_request_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_restore_request_add_tensor(request, "w", "BF16", NULL, 0, NULL));
  ASSERT_NULL(restore_plan(index, request, 0, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Tensor 'w' is requested as BF16 but the checkpoint stores F32; expected the same dtype");
  tessera_restore_request_destroy(request);
  tessera_checkpoint_index_destroy(index);
}

static void a_tensor_the_checkpoint_lacks_is_not_found(void) {
  tessera_checkpoint_index* index = tessera_checkpoint_index_open(dir, NULL);
  tessera_restore_request* request = tessera_restore_request_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_restore_request_add_tensor(request, "v", NULL, NULL, 0, NULL));
  ASSERT_NULL(restore_plan(index, request, 0, 1, &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "Tensor 'v' is not in the checkpoint ");
  tessera_restore_request_destroy(request);
  tessera_checkpoint_index_destroy(index);
}

static void a_piece_past_the_tensor_s_pieces_is_out_of_range_naming_it(void) {
  tessera_checkpoint_index* index = tessera_checkpoint_index_open(dir, NULL);
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_checkpoint_index_piece_file(index, 0, 2, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'piece' is 2; expected less than 2 (the tensor's pieces)");
  tessera_checkpoint_index_destroy(index);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(each_device_gets_its_column_from_both_files),
      HARNESS_TEST(a_process_reads_only_the_rows_of_its_columns),
      HARNESS_TEST(the_index_describes_tensors_pieces_and_files),
      HARNESS_TEST(a_directory_without_an_index_is_a_failed_precondition),
      HARNESS_TEST(a_tensor_with_a_piece_missing_is_refused_naming_the_range),
      HARNESS_TEST(a_missing_file_is_a_failed_precondition_naming_it),
      HARNESS_TEST(a_truncated_file_is_data_loss_naming_it),
      HARNESS_TEST(a_requested_shape_other_than_the_stored_is_refused_naming_both),
      HARNESS_TEST(a_requested_dtype_other_than_the_stored_is_refused),
      HARNESS_TEST(a_tensor_the_checkpoint_lacks_is_not_found),
      HARNESS_TEST(a_piece_past_the_tensor_s_pieces_is_out_of_range_naming_it),
  };
  int status;
  write_checkpoint();
  status = harness_main(argc, argv, tests, HARNESS_COUNT(tests));
  remove_checkpoint();
  return status;
}
