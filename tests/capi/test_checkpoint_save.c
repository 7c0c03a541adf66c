/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* tessera/experimental/checkpoint_save.h: sharded saves through the C ABI.
 *
 * Three F32 tensors on the 2x4 mesh (batch=2, model=4; devices 0-7 in
 * row-major order):
 *   row   [8, 16] (batch, None): rows [0:4] on devices 0-3, [4:8] on 4-7
 *   col   [8, 16] (None, model): a quarter of the columns per model index,
 *                               each quarter on devices m and 4 + m
 *   bias  [16]    replicated on all 8
 * Byte i of a tensor's row-major global array is (i * 31 + seed) mod 256
 * (seed 7, 8, 9 for row, col, bias). Each distinct shard is stored once, by
 * its first holder: row by devices 0 and 4, col by 0-3, bias by 0. The
 * stored files are read back with the safetensors reader of
 * tessera_checkpoint_open; a piece's bytes must be numpy's
 * `array[box].tobytes()`, computed here. */
#define _XOPEN_SOURCE 700

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "harness.h"
#include "tessera/tessera.h"

#define NUM_TENSORS 3

static const char* const kNames[NUM_TENSORS] = {"row", "col", "bias"};
static const int64_t kShapes[NUM_TENSORS][2] = {{8, 16}, {8, 16}, {16, 0}};
static const size_t kRanks[NUM_TENSORS] = {2, 2, 1};
static unsigned char data[NUM_TENSORS][8 * 16 * 4];

static char root[256];
static int dir_count;

static void make_data(void) {
  size_t t, i;
  const char* tmp = getenv("TMPDIR");
  for (t = 0; t < NUM_TENSORS; ++t) {
    for (i = 0; i < sizeof data[t]; ++i) data[t][i] = (unsigned char)(i * 31 + 7 + t);
  }
  snprintf(root, sizeof root, "%s/tessera_checkpoint_save_XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(root) == NULL) root[0] = '\0';
}

/* A new directory path (not created) for one test. */
static void new_dir(char* out, size_t size) { snprintf(out, size, "%s/save%d", root, ++dir_count); }

static void remove_all(void) {
  char command[600];
  snprintf(command, sizeof command, "rm -rf '%s'", root);
  if (system(command) != 0) fprintf(stderr, "could not remove %s\n", root);
}

/* The box [starts, stops) of tensor t as row-major bytes, into out; returns the size. */
static size_t box_bytes(size_t t, const int64_t* ranges, unsigned char* out) {
  size_t n = 0;
  int64_t r, c;
  if (kRanks[t] == 1) {
    memcpy(out, data[t] + ranges[0] * 4, (size_t)(ranges[1] - ranges[0]) * 4);
    return (size_t)(ranges[1] - ranges[0]) * 4;
  }
  for (r = ranges[0]; r < ranges[1]; ++r) {
    for (c = ranges[2] * 4; c < ranges[3] * 4; ++c) out[n++] = data[t][r * 64 + c];
  }
  return n;
}

static tessera_layout* layout_of(size_t t, const tessera_mesh* mesh) {
  const char* const replicated[] = {NULL};
  if (t == 0) return fixture_layout_2d("batch", NULL, mesh);
  if (t == 1) return fixture_layout_2d(NULL, "model", mesh);
  return tessera_layout_create(replicated, 1, mesh, NULL);
}

/* A saver of process p of n with the three tensors added. */
static tessera_checkpoint_saver* make_saver(const char* dir, size_t p, size_t n) {
  tessera_save_options* options = tessera_save_options_create();
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_checkpoint_saver* saver;
  size_t t;
  tessera_save_options_set_process(options, p, n, NULL);
  saver = tessera_checkpoint_saver_create(dir, options, NULL);
  tessera_save_options_destroy(options);
  for (t = 0; t < NUM_TENSORS; ++t) {
    tessera_layout* layout = layout_of(t, mesh);
    tessera_checkpoint_saver_add_tensor(saver, kNames[t], "F32", layout, kShapes[t], kRanks[t], NULL);
    tessera_layout_destroy(layout);
  }
  tessera_mesh_destroy(mesh);
  return saver;
}

static unsigned char shards[NUM_TENSORS][8][8 * 16 * 4];

/* Hands every device's shard of process p of n as a buffer. */
static void set_all_shards(tessera_checkpoint_saver* saver, size_t p, size_t n) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  size_t t, d;
  for (t = 0; t < NUM_TENSORS; ++t) {
    tessera_layout* layout = layout_of(t, mesh);
    tessera_sharding* sharding = tessera_sharding_create(layout, kShapes[t], kRanks[t], TESSERA_SHARD_MODE_STRICT, NULL);
    for (d = p * 8 / n; d < (p + 1) * 8 / n; ++d) {
      int64_t ranges[4];
      size_t size;
      tessera_sharding_device_ranges(sharding, d, ranges, 4, NULL);
      size = box_bytes(t, ranges, shards[t][d]);
      tessera_checkpoint_saver_set_shard(saver, t, d, shards[t][d], size, NULL);
    }
    tessera_sharding_destroy(sharding);
    tessera_layout_destroy(layout);
  }
  tessera_mesh_destroy(mesh);
}

/* Saves all processes of an n-process job from buffers, then finishes. */
static int save_job(const char* dir, size_t n) {
  size_t p;
  int ok = 1;
  for (p = n; p-- > 0;) {
    tessera_checkpoint_saver* saver = make_saver(dir, p, n);
    set_all_shards(saver, p, n);
    ok = ok && tessera_checkpoint_saver_write(saver, NULL);
    if (p == 0) ok = ok && tessera_checkpoint_saver_finish(saver, NULL);
    tessera_checkpoint_saver_destroy(saver);
  }
  return ok;
}

static tessera_checkpoint* open_file(const char* dir, const char* name) {
  char path[400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return tessera_checkpoint_open(path, NULL);
}

/* Whether piece `index` of the file holds the bytes of its box, read from its name. */
static int piece_matches(const tessera_checkpoint* file, const char* path, size_t index) {
  const char* name = tessera_checkpoint_tensor_name(file, index, NULL);
  const char* at = strchr(name, '@');
  unsigned char expected[8 * 16 * 4], stored[8 * 16 * 4];
  int64_t ranges[4] = {0, 0, 0, 0};
  size_t t, size;
  FILE* f;
  for (t = 0; t < NUM_TENSORS; ++t) {
    if (strncmp(name, kNames[t], (size_t)(at - name)) == 0 && strlen(kNames[t]) == (size_t)(at - name)) break;
  }
  if (t == NUM_TENSORS) return 0;
  if (kRanks[t] == 1) {
    if (sscanf(at + 1, "%ld:%ld", (long*)&ranges[0], (long*)&ranges[1]) != 2) return 0;
  } else if (sscanf(at + 1, "%ld:%ld,%ld:%ld", (long*)&ranges[0], (long*)&ranges[1], (long*)&ranges[2],
                    (long*)&ranges[3]) != 4) {
    return 0;
  }
  size = box_bytes(t, ranges, expected);
  if ((int64_t)size != tessera_checkpoint_tensor_size(file, index, NULL)) return 0;
  f = fopen(path, "rb");
  if (f == NULL) return 0;
  fseek(f, (long)tessera_checkpoint_tensor_offset(file, index, NULL), SEEK_SET);
  if (fread(stored, 1, size, f) != size) size = (size_t)-1;
  fclose(f);
  return size != (size_t)-1 && memcmp(expected, stored, size) == 0;
}

/* The whole file at `path` (NULL when unreadable); *size its bytes. A NUL
 * follows them, so a text file reads as a string. */
static char* read_file(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* bytes;
  long n;
  *size = 0;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  bytes = calloc((size_t)n + 1, 1);
  if (fread(bytes, 1, (size_t)n, f) == (size_t)n) *size = (size_t)n;
  fclose(f);
  return bytes;
}

static char* read_text(const char* path) {
  size_t size;
  return read_file(path, &size);
}

/* The file `name` of directories a and b holds the same bytes. */
static void assert_same_file(const char* a, const char* b, const char* name) {
  char pa[400], pb[400];
  char *ba, *bb;
  size_t na, nb;
  snprintf(pa, sizeof pa, "%s/%s", a, name);
  snprintf(pb, sizeof pb, "%s/%s", b, name);
  ba = read_file(pa, &na);
  bb = read_file(pb, &nb);
  ASSERT_TRUE(ba != NULL && bb != NULL);
  ASSERT_TRUE(na > 0);
  ASSERT_EQ(na, nb);
  ASSERT_EQ(0, memcmp(ba, bb, na));
  free(ba);
  free(bb);
}

/* The one-process saves in directories a and b wrote the same checkpoint:
 * the same index and the same process file, byte for byte. */
static void assert_same_checkpoint(const char* a, const char* b) {
  assert_same_file(a, b, "tessera-index.json");
  assert_same_file(a, b, "process-00000-of-00001.safetensors");
}

static void a_one_process_save_stores_each_distinct_shard_once_as_a_named_piece(void) {
  char dir[300];
  tessera_checkpoint* file;
  new_dir(dir, sizeof dir);
  ASSERT_TRUE(save_job(dir, 1));
  file = open_file(dir, "process-00000-of-00001.safetensors");
  ASSERT_NOT_NULL(file);
  ASSERT_EQ(7, tessera_checkpoint_num_tensors(file, NULL));
  ASSERT_STREQ("row@0:4,0:16", tessera_checkpoint_tensor_name(file, 0, NULL));
  ASSERT_STREQ("row@4:8,0:16", tessera_checkpoint_tensor_name(file, 1, NULL));
  ASSERT_STREQ("col@0:8,0:4", tessera_checkpoint_tensor_name(file, 2, NULL));
  ASSERT_STREQ("col@0:8,12:16", tessera_checkpoint_tensor_name(file, 5, NULL));
  ASSERT_STREQ("bias@0:16", tessera_checkpoint_tensor_name(file, 6, NULL));
  tessera_checkpoint_destroy(file);
}

static void each_stored_piece_holds_the_bytes_of_its_box(void) {
  char dir[300], path[400];
  tessera_checkpoint* file;
  size_t i;
  new_dir(dir, sizeof dir);
  ASSERT_TRUE(save_job(dir, 1));
  snprintf(path, sizeof path, "%s/process-00000-of-00001.safetensors", dir);
  file = open_file(dir, "process-00000-of-00001.safetensors");
  ASSERT_NOT_NULL(file);
  for (i = 0; i < 7; ++i) ASSERT_TRUE(piece_matches(file, path, i));
  tessera_checkpoint_destroy(file);
}

static void the_file_metadata_names_format_and_process(void) {
  char dir[300];
  tessera_checkpoint* file;
  new_dir(dir, sizeof dir);
  ASSERT_TRUE(save_job(dir, 2));
  file = open_file(dir, "process-00001-of-00002.safetensors");
  ASSERT_NOT_NULL(file);
  ASSERT_STREQ("tessera.checkpoint", tessera_checkpoint_metadata_lookup(file, "format", NULL));
  ASSERT_STREQ("1", tessera_checkpoint_metadata_lookup(file, "tessera.process", NULL));
  ASSERT_STREQ("2", tessera_checkpoint_metadata_lookup(file, "tessera.num_processes", NULL));
  ASSERT_CONTAINS(tessera_checkpoint_metadata_lookup(file, "tessera.layouts", NULL), "{\"row\":{\"mesh\":{");
  tessera_checkpoint_destroy(file);
}

static void replicas_are_stored_once_across_the_job_by_the_first_holder(void) {
  /* Process 1 (devices 4-7) stores only rows [4:8]: col's and bias's first holders are on process 0. */
  char dir[300];
  tessera_checkpoint* p0;
  tessera_checkpoint* p1;
  new_dir(dir, sizeof dir);
  ASSERT_TRUE(save_job(dir, 2));
  p0 = open_file(dir, "process-00000-of-00002.safetensors");
  p1 = open_file(dir, "process-00001-of-00002.safetensors");
  ASSERT_NOT_NULL(p0);
  ASSERT_NOT_NULL(p1);
  ASSERT_EQ(6, tessera_checkpoint_num_tensors(p0, NULL));
  ASSERT_EQ(1, tessera_checkpoint_num_tensors(p1, NULL));
  ASSERT_STREQ("row@4:8,0:16", tessera_checkpoint_tensor_name(p1, 0, NULL));
  tessera_checkpoint_destroy(p0);
  tessera_checkpoint_destroy(p1);
}

static void the_index_is_written_with_every_field_exact(void) {
  char dir[300], path[400], expected[20000], pieces[4000];
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_buffer* mesh_json = tessera_mesh_to_json(mesh, NULL);
  tessera_buffer* layout_json[NUM_TENSORS];
  tessera_checkpoint* file;
  char* text;
  size_t t;
  int64_t o[7];
  new_dir(dir, sizeof dir);
  ASSERT_TRUE(save_job(dir, 1));
  file = open_file(dir, "process-00000-of-00001.safetensors");
  ASSERT_NOT_NULL(file);
  for (t = 0; t < 7; ++t) o[t] = tessera_checkpoint_tensor_offset(file, t, NULL);
  tessera_checkpoint_destroy(file);
  for (t = 0; t < NUM_TENSORS; ++t) {
    tessera_layout* layout = layout_of(t, mesh);
    layout_json[t] = tessera_layout_to_json(layout, NULL);
    tessera_layout_destroy(layout);
  }
  snprintf(expected, sizeof expected,
           "{\"format\": \"tessera.checkpoint\", \"version\": 1,\n \"num_processes\": 1,\n"
           " \"files\": [\"process-00000-of-00001.safetensors\"],\n \"tensors\": [\n"
           "  {\"name\": \"row\", \"dtype\": \"F32\", \"shape\": [8, 16], \"mesh\": %s, \"layout\": %s, "
           "\"shard_mode\": \"strict\", \"pieces\": [",
           tessera_buffer_data(mesh_json), tessera_buffer_data(layout_json[0]));
  snprintf(pieces, sizeof pieces,
           "{\"file\": 0, \"offset\": %ld, \"size\": 256, \"ranges\": [[0, 4], [0, 16]]}, "
           "{\"file\": 0, \"offset\": %ld, \"size\": 256, \"ranges\": [[4, 8], [0, 16]]}]},\n",
           (long)o[0], (long)o[1]);
  strcat(expected, pieces);
  snprintf(pieces, sizeof pieces,
           "  {\"name\": \"col\", \"dtype\": \"F32\", \"shape\": [8, 16], \"mesh\": %s, \"layout\": %s, "
           "\"shard_mode\": \"strict\", \"pieces\": [",
           tessera_buffer_data(mesh_json), tessera_buffer_data(layout_json[1]));
  strcat(expected, pieces);
  for (t = 0; t < 4; ++t) {
    snprintf(pieces, sizeof pieces, "%s{\"file\": 0, \"offset\": %ld, \"size\": 128, \"ranges\": [[0, 8], [%d, %d]]}",
             t > 0 ? ", " : "", (long)o[2 + t], (int)t * 4, (int)t * 4 + 4);
    strcat(expected, pieces);
  }
  snprintf(pieces, sizeof pieces,
           "]},\n  {\"name\": \"bias\", \"dtype\": \"F32\", \"shape\": [16], \"mesh\": %s, \"layout\": %s, "
           "\"shard_mode\": \"strict\", \"pieces\": [{\"file\": 0, \"offset\": %ld, \"size\": 64, "
           "\"ranges\": [[0, 16]]}]}\n ]}\n",
           tessera_buffer_data(mesh_json), tessera_buffer_data(layout_json[2]), (long)o[6]);
  strcat(expected, pieces);
  snprintf(path, sizeof path, "%s/tessera-index.json", dir);
  text = read_text(path);
  for (t = 0; t < NUM_TENSORS; ++t) tessera_buffer_destroy(layout_json[t]);
  tessera_buffer_destroy(mesh_json);
  tessera_mesh_destroy(mesh);
  ASSERT_STREQ(expected, text);
  free(text);
}

typedef struct fill_log {
  int calls;
  int cancel_at;       /* the call that returns false; -1: none */
  size_t first_tensor; /* the data of the saver's tensor 0 (2: a saver of bias alone) */
} fill_log;

static bool fill_box(size_t tensor, size_t device, const int64_t* ranges, size_t num_ranges, int64_t offset,
                     void* out, size_t size, void* user_data) {
  fill_log* log = user_data;
  unsigned char bytes[8 * 16 * 4];
  (void)device;
  (void)num_ranges;
  if (log->calls++ == log->cancel_at) return false;
  box_bytes(tensor + log->first_tensor, ranges, bytes);
  memcpy(out, bytes + offset, size);
  return true;
}

static void a_streamed_save_writes_the_same_file_as_buffers(void) {
  char a[300], b[300];
  fill_log log = {0, -1, 0};
  tessera_save_options* options = tessera_save_options_create();
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(a, sizeof a);
  new_dir(b, sizeof b);
  ASSERT_TRUE(save_job(a, 1));
  saver = make_saver(b, 0, 1);
  ASSERT_TRUE(tessera_checkpoint_saver_stream(saver, fill_box, &log, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_checkpoint_saver_finish(saver, &err));
  ASSERT_OK(err);
  tessera_checkpoint_saver_destroy(saver);
  tessera_save_options_destroy(options);
  ASSERT_EQ(7, log.calls);
  assert_same_checkpoint(a, b);
}

/* Every (tensor, device) shard of process 0 of 1, as write_shards' arrays. */
typedef struct {
  size_t tensors[NUM_TENSORS * 8];
  size_t devices[NUM_TENSORS * 8];
  const void* buffers[NUM_TENSORS * 8];
  size_t sizes[NUM_TENSORS * 8];
  size_t count;
} shard_arrays;

static void all_shard_arrays(shard_arrays* out) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  size_t t, d;
  out->count = 0;
  for (t = 0; t < NUM_TENSORS; ++t) {
    tessera_layout* layout = layout_of(t, mesh);
    tessera_sharding* sharding = tessera_sharding_create(layout, kShapes[t], kRanks[t], TESSERA_SHARD_MODE_STRICT, NULL);
    for (d = 0; d < 8; ++d) {
      int64_t ranges[4];
      tessera_sharding_device_ranges(sharding, d, ranges, 4, NULL);
      out->tensors[out->count] = t;
      out->devices[out->count] = d;
      out->sizes[out->count] = box_bytes(t, ranges, shards[t][d]);
      out->buffers[out->count] = shards[t][d];
      ++out->count;
    }
    tessera_sharding_destroy(sharding);
    tessera_layout_destroy(layout);
  }
  tessera_mesh_destroy(mesh);
}

static void write_shards_saves_the_same_checkpoint_as_set_shard_and_write(void) {
  char a[300], b[300];
  shard_arrays arrays;
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(a, sizeof a);
  new_dir(b, sizeof b);
  ASSERT_TRUE(save_job(a, 1));
  all_shard_arrays(&arrays);
  ASSERT_EQ(24, arrays.count);
  saver = make_saver(b, 0, 1);
  ASSERT_TRUE(tessera_checkpoint_saver_write_shards(saver, arrays.tensors, arrays.count, arrays.devices, arrays.count,
                                                    arrays.buffers, arrays.sizes, arrays.count, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_checkpoint_saver_finish(saver, &err));
  ASSERT_OK(err);
  tessera_checkpoint_saver_destroy(saver);
  assert_same_checkpoint(a, b);
}

static void write_shards_names_the_refused_shard_and_keeps_none_of_its_buffers(void) {
  char dir[300];
  shard_arrays arrays;
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  all_shard_arrays(&arrays);
  arrays.sizes[9] = 8; /* tensor 1 ("col"), device 1: 128 bytes */
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_write_shards(saver, arrays.tensors, arrays.count, arrays.devices,
                                                     arrays.count, arrays.buffers, arrays.sizes, arrays.count, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "shard 9: Argument 'size' is 8; expected 128, the bytes of device 1's shard of tensor \"col\"");
  /* The shards before it were handed for that call only. */
  ASSERT_FALSE(tessera_checkpoint_saver_write(saver, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "tensor \"row\": no buffer for device 0");
  tessera_checkpoint_saver_destroy(saver);
}

static void write_shards_refuses_parallel_arrays_of_different_lengths(void) {
  char dir[300];
  shard_arrays arrays;
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  all_shard_arrays(&arrays);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_write_shards(saver, arrays.tensors, 2, arrays.devices, 2, arrays.buffers,
                                                     arrays.sizes, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_buffers' is 1; expected 2, the entries of 'shard_tensors'");
  ASSERT_FALSE(tessera_checkpoint_saver_write_shards(saver, arrays.tensors, 2, arrays.devices, 3, arrays.buffers,
                                                     arrays.sizes, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'num_shard_devices' is 3; expected 2, the entries of 'shard_tensors'");
  ASSERT_FALSE(tessera_checkpoint_saver_write_shards(saver, NULL, 2, arrays.devices, 2, arrays.buffers, arrays.sizes,
                                                     2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shard_tensors' is NULL");
  tessera_checkpoint_saver_destroy(saver);
}

static void a_small_chunk_size_asks_for_each_piece_in_parts(void) {
  char dir[300];
  fill_log log = {0, -1, 2};
  tessera_save_options* options = tessera_save_options_create();
  tessera_checkpoint_saver* saver;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = layout_of(2, mesh);
  new_dir(dir, sizeof dir);
  tessera_save_options_set_chunk_size(options, 16, NULL);
  saver = tessera_checkpoint_saver_create(dir, options, NULL);
  ASSERT_TRUE(tessera_checkpoint_saver_add_tensor(saver, "bias", "F32", layout, kShapes[2], 1, NULL));
  ASSERT_TRUE(tessera_checkpoint_saver_stream(saver, fill_box, &log, NULL));
  ASSERT_EQ(4, log.calls); /* 64 bytes in parts of 16 */
  tessera_checkpoint_saver_destroy(saver);
  tessera_save_options_destroy(options);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

static void a_fill_returning_false_cancels_and_leaves_no_file(void) {
  char dir[300], path[400];
  fill_log log = {0, 2, 0};
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_stream(saver, fill_box, &log, &err));
  ASSERT_ERROR(err, TESSERA_CANCELLED, "the fill callback returned false for device 0 of tensor \"col\" at byte 0");
  snprintf(path, sizeof path, "%s/process-00000-of-00001.safetensors", dir);
  ASSERT_TRUE(access(path, F_OK) != 0);
  tessera_checkpoint_saver_destroy(saver);
}

static void a_shard_of_another_process_device_is_refused(void) {
  char dir[300];
  float shard[32];
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 2);
  ASSERT_FALSE(tessera_checkpoint_saver_set_shard(saver, 0, 5, shard, 256, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is 5; expected a device of process 0, [0, 4)");
  tessera_checkpoint_saver_destroy(saver);
}

static void a_shard_of_the_wrong_size_is_refused_naming_the_expected_bytes(void) {
  char dir[300];
  float shard[64];
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_set_shard(saver, 1, 1, shard, 64, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'size' is 64; expected 128, the bytes of device 1's shard of tensor \"col\"");
  tessera_checkpoint_saver_destroy(saver);
}

static void a_tensor_or_device_past_the_end_is_out_of_range(void) {
  char dir[300];
  float shard[64];
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_set_shard(saver, 3, 0, shard, 64, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'tensor' is 3");
  ASSERT_FALSE(tessera_checkpoint_saver_set_shard(saver, 0, 8, shard, 64, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'device' is 8");
  tessera_checkpoint_saver_destroy(saver);
}

static void a_stored_shard_without_a_buffer_is_a_failed_precondition(void) {
  char dir[300];
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_write(saver, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "tensor \"row\": no buffer for device 0, which stores [0:4, 0:16]; expected "
               "tessera_checkpoint_saver_set_shard for it");
  tessera_checkpoint_saver_destroy(saver);
}

static void a_saver_writes_once(void) {
  char dir[300];
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  set_all_shards(saver, 0, 1);
  ASSERT_TRUE(tessera_checkpoint_saver_write(saver, &err));
  ASSERT_FALSE(tessera_checkpoint_saver_write(saver, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "Argument 'saver' has written its file");
  tessera_checkpoint_saver_destroy(saver);
}

static void a_repeated_tensor_name_or_unknown_dtype_is_refused(void) {
  char dir[300];
  tessera_checkpoint_saver* saver;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = layout_of(2, mesh);
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_add_tensor(saver, "bias", "F32", layout, kShapes[2], 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'name' is \"bias\"; expected a name no other tensor of the save has");
  ASSERT_FALSE(tessera_checkpoint_saver_add_tensor(saver, "b2", "F31", layout, kShapes[2], 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'dtype' is \"F31\"; unknown safetensors dtype");
  ASSERT_EQ(3, tessera_checkpoint_saver_num_tensors(saver, NULL));
  tessera_checkpoint_saver_destroy(saver);
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
}

/* F4 packs 2 elements in a byte: a save stores and a restore reads whole
 * bytes, so shards that split a byte are refused, in the loader's words. */
static void a_sub_byte_tensor_whose_shards_split_a_byte_is_refused(void) {
  static const int64_t odd[1] = {3};
  static const int64_t four[2] = {2, 4};
  char dir[300];
  tessera_checkpoint_saver* saver;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* replicated = layout_of(2, mesh);
  tessera_layout* columns = fixture_layout_2d(NULL, "model", mesh);
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_add_tensor(saver, "b3", "F4", replicated, odd, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Tensor 'b3' has innermost dimension 3 (shape [3]); expected a multiple of 2, the elements per "
               "block of F4");
  /* Over model=4, each device holds one column of 4: half a byte. */
  ASSERT_FALSE(tessera_checkpoint_saver_add_tensor(saver, "q", "F4", columns, four, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Tensor 'q' of type F4: the shard of device 0 covers [0, 1) of dimension 1 (size 4); expected a "
               "start and stop on a multiple of 2, the elements per block");
  ASSERT_EQ(3, tessera_checkpoint_saver_num_tensors(saver, NULL));
  tessera_checkpoint_saver_destroy(saver);
  tessera_layout_destroy(columns);
  tessera_layout_destroy(replicated);
  tessera_mesh_destroy(mesh);
}

/* q, F4 [2, 16], packed byte i = (i * 31 + 5) mod 256 (row r is bytes
 * [8r, 8r + 8)), saved by one process under (None, model): model index m
 * holds columns [4m, 4m + 4), bytes [2m, 2m + 2) of each row, 4 bytes. It is
 * restored under (batch, None): device d gets row d / 4, its 8 packed bytes
 * exactly. */
static void a_sub_byte_tensor_is_saved_and_restored_as_whole_bytes(void) {
  static const int64_t shape[2] = {2, 16};
  unsigned char packed[16];
  unsigned char saved[8][4];
  unsigned char restored[8][8];
  void* buffers[8];
  size_t sizes[8];
  char dir[300];
  tessera_save_options* options = tessera_save_options_create();
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* columns = fixture_layout_2d(NULL, "model", mesh);
  tessera_layout* rows = fixture_layout_2d("batch", NULL, mesh);
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_read_options* read_options = tessera_read_options_create();
  tessera_checkpoint_saver* saver;
  tessera_checkpoint_index* index;
  tessera_read_plan* plan;
  tessera_error* err = NULL;
  size_t d, i;
  for (i = 0; i < sizeof packed; ++i) packed[i] = (unsigned char)(i * 31 + 5);
  new_dir(dir, sizeof dir);
  tessera_save_options_set_process(options, 0, 1, NULL);
  saver = tessera_checkpoint_saver_create(dir, options, NULL);
  ASSERT_TRUE(tessera_checkpoint_saver_add_tensor(saver, "q", "F4", columns, shape, 2, NULL));
  ASSERT_FALSE(tessera_checkpoint_saver_set_shard(saver, 0, 0, saved[0], 8, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'size' is 8; expected 4, the bytes of device 0's shard of tensor \"q\"");
  for (d = 0; d < 8; ++d) {
    const size_t m = d % 4;
    memcpy(saved[d], packed + 2 * m, 2);
    memcpy(saved[d] + 2, packed + 8 + 2 * m, 2);
    ASSERT_TRUE(tessera_checkpoint_saver_set_shard(saver, 0, d, saved[d], 4, NULL));
  }
  ASSERT_TRUE(tessera_checkpoint_saver_write(saver, NULL));
  ASSERT_TRUE(tessera_checkpoint_saver_finish(saver, NULL));
  index = tessera_checkpoint_index_open(dir, &err);
  ASSERT_NULL(err);
  tessera_layout_map_set(map, "q", rows, NULL);
  tessera_read_options_set_process(read_options, 0, 1, NULL);
  plan = tessera_restore_plan_create(index, map, NULL, read_options, &err);
  ASSERT_NULL(err);
  ASSERT_EQ(8, tessera_read_plan_num_pieces(plan, NULL));
  for (d = 0; d < 8; ++d) {
    ASSERT_EQ(8, tessera_read_plan_piece_size(plan, d, NULL));
    buffers[d] = restored[d];
    sizes[d] = 8;
  }
  ASSERT_TRUE(tessera_read_plan_execute(plan, buffers, sizes, 8, NULL, NULL, NULL, NULL));
  for (d = 0; d < 8; ++d) {
    ASSERT_EQ(d, tessera_read_plan_piece_device(plan, d, NULL));
    ASSERT_EQ(0, memcmp(restored[d], packed + 8 * (d / 4), 8));
  }
  tessera_read_plan_destroy(plan);
  tessera_checkpoint_index_destroy(index);
  tessera_checkpoint_saver_destroy(saver);
  tessera_read_options_destroy(read_options);
  tessera_layout_map_destroy(map);
  tessera_layout_destroy(rows);
  tessera_layout_destroy(columns);
  tessera_mesh_destroy(mesh);
  tessera_save_options_destroy(options);
}

static void finish_is_process_zeros_and_needs_every_process_file(void) {
  char dir[300];
  tessera_checkpoint_saver* p0;
  tessera_checkpoint_saver* p1;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  p0 = make_saver(dir, 0, 2);
  p1 = make_saver(dir, 1, 2);
  set_all_shards(p0, 0, 2);
  ASSERT_TRUE(tessera_checkpoint_saver_write(p0, &err));
  ASSERT_FALSE(tessera_checkpoint_saver_finish(p1, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "Argument 'saver' saves process 1; expected process 0's saver, which writes the index");
  ASSERT_FALSE(tessera_checkpoint_saver_finish(p0, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "process-00001-of-00002.safetensors: missing; process 1 has not written its file");
  tessera_checkpoint_saver_destroy(p0);
  tessera_checkpoint_saver_destroy(p1);
}

static void option_values_out_of_their_domain_are_refused(void) {
  tessera_save_options* options = tessera_save_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_save_options_set_process(options, 2, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'process_index' is 2; expected less than 2 (num_processes)");
  ASSERT_FALSE(tessera_save_options_set_process(options, 0, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_processes' is 0; expected at least 1");
  ASSERT_FALSE(tessera_save_options_set_chunk_size(options, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'chunk_size' is 0; expected at least 1");
  ASSERT_FALSE(tessera_checkpoint_saver_create("", options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'directory' is \"\"; expected a directory path");
  tessera_save_options_destroy(options);
}

static void a_null_fill_callback_is_refused(void) {
  char dir[300];
  tessera_checkpoint_saver* saver;
  tessera_error* err = NULL;
  new_dir(dir, sizeof dir);
  saver = make_saver(dir, 0, 1);
  ASSERT_FALSE(tessera_checkpoint_saver_stream(saver, NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'fill' is NULL; expected a valid pointer");
  tessera_checkpoint_saver_destroy(saver);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(a_one_process_save_stores_each_distinct_shard_once_as_a_named_piece),
      HARNESS_TEST(each_stored_piece_holds_the_bytes_of_its_box),
      HARNESS_TEST(the_file_metadata_names_format_and_process),
      HARNESS_TEST(replicas_are_stored_once_across_the_job_by_the_first_holder),
      HARNESS_TEST(the_index_is_written_with_every_field_exact),
      HARNESS_TEST(a_streamed_save_writes_the_same_file_as_buffers),
      HARNESS_TEST(write_shards_saves_the_same_checkpoint_as_set_shard_and_write),
      HARNESS_TEST(write_shards_names_the_refused_shard_and_keeps_none_of_its_buffers),
      HARNESS_TEST(write_shards_refuses_parallel_arrays_of_different_lengths),
      HARNESS_TEST(a_small_chunk_size_asks_for_each_piece_in_parts),
      HARNESS_TEST(a_fill_returning_false_cancels_and_leaves_no_file),
      HARNESS_TEST(a_shard_of_another_process_device_is_refused),
      HARNESS_TEST(a_shard_of_the_wrong_size_is_refused_naming_the_expected_bytes),
      HARNESS_TEST(a_tensor_or_device_past_the_end_is_out_of_range),
      HARNESS_TEST(a_stored_shard_without_a_buffer_is_a_failed_precondition),
      HARNESS_TEST(a_saver_writes_once),
      HARNESS_TEST(a_repeated_tensor_name_or_unknown_dtype_is_refused),
      HARNESS_TEST(a_sub_byte_tensor_whose_shards_split_a_byte_is_refused),
      HARNESS_TEST(a_sub_byte_tensor_is_saved_and_restored_as_whole_bytes),
      HARNESS_TEST(finish_is_process_zeros_and_needs_every_process_file),
      HARNESS_TEST(option_values_out_of_their_domain_are_refused),
      HARNESS_TEST(a_null_fill_callback_is_refused),
  };
  int status;
  make_data();
  status = harness_main(argc, argv, tests, HARNESS_COUNT(tests));
  remove_all();
  return status;
}
