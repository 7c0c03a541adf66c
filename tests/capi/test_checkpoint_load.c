/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* tessera/experimental/checkpoint_load.h: read plans and loading a process's
 * own shards through the C ABI.
 *
 * The checkpoint is one safetensors file the test writes with known bytes
 * (data byte i is (i * 31 + 7) mod 256), on the 2x4 mesh (batch=2, model=4):
 *   row.kernel  F32 [8, 16]  data [0, 512)     rule "row" -> (batch, None)
 *   col.kernel  F32 [8, 16]  data [512, 1024)  rule "col" -> (None, model)
 *   bias        F32 [16]     data [1024, 1088) no rule: replicated
 * Process 0 of 2 owns devices 0-3 (batch 0, model 0-3): rows [0, 4) of
 * row.kernel on all four (one box), a quarter of the columns of col.kernel
 * each (8 runs of 16 bytes per device, 48-byte gaps, together the whole
 * tensor) and the whole bias on all four. Expected shards are numpy's
 * `array[box].tobytes()`, computed here from the bytes written. */
#define _XOPEN_SOURCE 700

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "harness.h"
#include "tessera/tessera.h"

#define DATA_SIZE 1088

static char dir[256];
static char path[320];
static char odd_path[320];
static unsigned char data[DATA_SIZE];
static int64_t header_end; /* absolute offset of the data area */

static const char* const kHeader =
    "{\"row.kernel\":{\"dtype\":\"F32\",\"shape\":[8,16],\"data_offsets\":[0,512]},"
    "\"col.kernel\":{\"dtype\":\"F32\",\"shape\":[8,16],\"data_offsets\":[512,1024]},"
    "\"bias\":{\"dtype\":\"F32\",\"shape\":[16],\"data_offsets\":[1024,1088]}}";

static void write_safetensors(const char* to, const char* header, const unsigned char* bytes, size_t size) {
  unsigned char length[8] = {0};
  const size_t n = strlen(header);
  size_t i;
  FILE* f = fopen(to, "wb");
  if (f == NULL) return;
  for (i = 0; i < 8; ++i) length[i] = (unsigned char)((uint64_t)n >> (8 * i));
  fwrite(length, 1, 8, f);
  fwrite(header, 1, n, f);
  fwrite(bytes, 1, size, f);
  fclose(f);
}

static void write_files(void) {
  const char* tmp = getenv("TMPDIR");
  size_t i;
  snprintf(dir, sizeof dir, "%s/tessera_checkpoint_load_XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) return;
  for (i = 0; i < DATA_SIZE; ++i) data[i] = (unsigned char)(i * 31 + 7);
  snprintf(path, sizeof path, "%s/model.safetensors", dir);
  write_safetensors(path, kHeader, data, DATA_SIZE);
  header_end = (int64_t)(8 + strlen(kHeader));
  snprintf(odd_path, sizeof odd_path, "%s/odd.safetensors", dir);
  write_safetensors(odd_path, "{\"col.odd\":{\"dtype\":\"F32\",\"shape\":[8,10],\"data_offsets\":[0,320]}}", data,
                    320);
}

static void remove_files(void) {
  unlink(path);
  unlink(odd_path);
  rmdir(dir);
}

/* The rules row -> (batch, None), col -> (None, model) on the 2x4 mesh. */
static tessera_layout_map* make_rules(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* rows = fixture_layout_2d("batch", NULL, mesh);
  tessera_layout* cols = fixture_layout_2d(NULL, "model", mesh);
  tessera_layout_map_set(map, "row", rows, NULL);
  tessera_layout_map_set(map, "col", cols, NULL);
  tessera_layout_destroy(rows);
  tessera_layout_destroy(cols);
  tessera_mesh_destroy(mesh);
  return map;
}

/* The plan of `file` under make_rules() with `options`. */
static tessera_read_plan* plan_with(const char* file, const tessera_read_options* options, tessera_error** err) {
  tessera_checkpoint* checkpoint = tessera_checkpoint_open(file, NULL);
  tessera_layout_map* rules = make_rules();
  tessera_read_plan* plan = tessera_read_plan_create(checkpoint, rules, options, err);
  tessera_layout_map_destroy(rules);
  tessera_checkpoint_destroy(checkpoint);
  return plan;
}

/* Options for process `process` of `num_processes`, coalescing gap `gap` (-1: the default). */
static tessera_read_options* options_for(size_t process, size_t num_processes, int64_t gap) {
  tessera_read_options* options = tessera_read_options_create();
  tessera_read_options_set_process(options, process, num_processes, NULL);
  if (gap >= 0) tessera_read_options_set_coalesce_gap(options, gap, NULL);
  return options;
}

/* The plan of process `process` of 2 with the coalescing gap `gap` (-1: the default). */
static tessera_read_plan* make_plan_of(const char* file, size_t process, int64_t gap, tessera_error** err) {
  tessera_read_options* options = options_for(process, 2, gap);
  tessera_read_plan* plan = plan_with(file, options, err);
  tessera_read_options_destroy(options);
  return plan;
}

static tessera_read_plan* make_plan(size_t process, int64_t gap) { return make_plan_of(path, process, gap, NULL); }

/* numpy's array[box].tobytes() of tensor `tensor` (F32, rank 1 or 2) from the bytes written. */
static size_t expected_shard(const tessera_read_plan* plan, size_t piece, unsigned char* out) {
  static const int64_t data_offsets[] = {0, 512, 1024};
  static const int64_t columns[] = {16, 16, 16};
  const size_t tensor = tessera_read_plan_piece_tensor(plan, piece, NULL);
  int64_t box[4] = {0, 1, 0, 0};
  size_t n = 0;
  int64_t r, c;
  const size_t rank = tessera_read_plan_piece_ranges(plan, piece, box, 4, NULL) / 2;
  if (rank == 1) {
    box[2] = box[0];
    box[3] = box[1];
    box[0] = 0;
    box[1] = 1;
  }
  for (r = box[0]; r < box[1]; ++r) {
    for (c = box[2]; c < box[3]; ++c) {
      memcpy(out + n, data + data_offsets[tensor] + (r * columns[tensor] + c) * 4, 4);
      n += 4;
    }
  }
  return n;
}

/* Buffers for every piece of `plan`, each its piece's size. */
typedef struct buffers {
  void* pointers[16];
  size_t sizes[16];
  size_t count;
} buffers;

static void make_buffers(const tessera_read_plan* plan, buffers* b) {
  size_t i;
  b->count = tessera_read_plan_num_pieces(plan, NULL);
  for (i = 0; i < b->count && i < 16; ++i) {
    b->sizes[i] = (size_t)tessera_read_plan_piece_size(plan, i, NULL);
    b->pointers[i] = calloc(1, b->sizes[i] + 1);
  }
}

static void free_buffers(buffers* b) {
  size_t i;
  for (i = 0; i < b->count && i < 16; ++i) free(b->pointers[i]);
}

/* Every buffer equals its expected shard; returns the number that differ. */
static size_t count_wrong_shards(const tessera_read_plan* plan, const buffers* b) {
  unsigned char expected[1088];
  size_t i, wrong = 0;
  for (i = 0; i < b->count; ++i) {
    const size_t n = expected_shard(plan, i, expected);
    if (n != b->sizes[i] || memcmp(expected, b->pointers[i], n) != 0) ++wrong;
  }
  return wrong;
}

static void pieces_are_the_process_devices_in_mesh_order_then_tensors(void) {
  tessera_read_plan* plan = make_plan(1, -1);
  ASSERT_EQ(12, tessera_read_plan_num_pieces(plan, NULL));
  ASSERT_EQ(4, tessera_read_plan_piece_device(plan, 0, NULL));
  ASSERT_EQ(0, tessera_read_plan_piece_tensor(plan, 0, NULL));
  ASSERT_EQ(5, tessera_read_plan_piece_device(plan, 4, NULL));
  ASSERT_EQ(1, tessera_read_plan_piece_tensor(plan, 4, NULL));
  ASSERT_EQ(7, tessera_read_plan_piece_device(plan, 11, NULL));
  ASSERT_EQ(2, tessera_read_plan_piece_tensor(plan, 11, NULL));
  tessera_read_plan_destroy(plan);
}

static void a_row_shard_is_its_rows_whole(void) {
  tessera_read_plan* plan = make_plan(1, -1);
  int64_t ranges[4], shape[2];
  ASSERT_EQ(4, tessera_read_plan_piece_ranges(plan, 3, ranges, 4, NULL)); /* device 5, row.kernel */
  ASSERT_EQ(4, ranges[0]);
  ASSERT_EQ(8, ranges[1]);
  ASSERT_EQ(0, ranges[2]);
  ASSERT_EQ(16, ranges[3]);
  ASSERT_EQ(2, tessera_read_plan_piece_shape(plan, 3, shape, 2, NULL));
  ASSERT_EQ(4, shape[0]);
  ASSERT_EQ(16, shape[1]);
  ASSERT_EQ(256, tessera_read_plan_piece_size(plan, 3, NULL));
  tessera_read_plan_destroy(plan);
}

static void a_column_shard_is_its_columns_of_every_row(void) {
  tessera_read_plan* plan = make_plan(0, -1);
  int64_t ranges[4];
  ASSERT_EQ(4, tessera_read_plan_piece_ranges(plan, 7, ranges, 4, NULL)); /* device 2, col.kernel */
  ASSERT_EQ(0, ranges[0]);
  ASSERT_EQ(8, ranges[1]);
  ASSERT_EQ(8, ranges[2]);
  ASSERT_EQ(12, ranges[3]);
  ASSERT_EQ(128, tessera_read_plan_piece_size(plan, 7, NULL));
  tessera_read_plan_destroy(plan);
}

static void without_a_gap_the_ranges_are_the_rows_then_the_touching_columns_and_bias(void) {
  tessera_read_plan* plan = make_plan(0, 0);
  int64_t ranges[8];
  ASSERT_EQ(4, tessera_read_plan_file_ranges(plan, 0, ranges, 8, NULL));
  ASSERT_EQ(header_end + 0, ranges[0]);
  ASSERT_EQ(header_end + 256, ranges[1]);
  ASSERT_EQ(header_end + 512, ranges[2]);
  ASSERT_EQ(header_end + 1088, ranges[3]);
  ASSERT_EQ(832, tessera_read_plan_total_bytes(plan, NULL));
  tessera_read_plan_destroy(plan);
}

static void the_default_gap_joins_the_rows_across_the_other_process_rows(void) {
  tessera_read_plan* plan = make_plan(0, -1);
  int64_t ranges[8];
  ASSERT_EQ(2, tessera_read_plan_file_ranges(plan, 0, ranges, 8, NULL));
  ASSERT_EQ(header_end, ranges[0]);
  ASSERT_EQ(header_end + 1088, ranges[1]);
  ASSERT_EQ(1088, tessera_read_plan_total_bytes(plan, NULL));
  tessera_read_plan_destroy(plan);
}

static void column_runs_further_apart_than_the_gap_are_separate_reads(void) {
  /* One process of 8: device 2 alone holds rows [0, 4) of row.kernel, columns
   * [8, 12) of col.kernel (8 runs of 16 bytes at 512 + 64 r + 32, 48 apart)
   * and the bias, 16 bytes after the last run. */
  tessera_read_options* options = options_for(2, 8, 47);
  tessera_read_plan* plan = plan_with(path, options, NULL);
  int64_t ranges[32];
  ASSERT_EQ(18, tessera_read_plan_file_ranges(plan, 0, ranges, 32, NULL));
  ASSERT_EQ(header_end + 544, ranges[2]);
  ASSERT_EQ(header_end + 560, ranges[3]);
  ASSERT_EQ(header_end + 608, ranges[4]);
  ASSERT_EQ(header_end + 992, ranges[16]);
  ASSERT_EQ(header_end + 1088, ranges[17]);
  ASSERT_EQ(256 + 7 * 16 + 96, tessera_read_plan_total_bytes(plan, NULL));
  tessera_read_plan_destroy(plan);
  tessera_read_options_set_coalesce_gap(options, 48, NULL);
  plan = plan_with(path, options, NULL);
  ASSERT_EQ(4, tessera_read_plan_file_ranges(plan, 0, ranges, 32, NULL));
  ASSERT_EQ(header_end + 544, ranges[2]);
  ASSERT_EQ(header_end + 1088, ranges[3]);
  ASSERT_EQ(256 + 544, tessera_read_plan_total_bytes(plan, NULL));
  tessera_read_plan_destroy(plan);
  tessera_read_options_destroy(options);
}

static void replicated_tensors_are_read_once_per_process_not_once_per_device(void) {
  tessera_checkpoint* checkpoint = tessera_checkpoint_open(path, NULL);
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* none = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_read_plan* plan = tessera_read_plan_create(checkpoint, none, NULL, NULL);
  size_t i;
  int64_t piece_bytes = 0;
  ASSERT_EQ(24, tessera_read_plan_num_pieces(plan, NULL));
  for (i = 0; i < 24; ++i) piece_bytes += tessera_read_plan_piece_size(plan, i, NULL);
  ASSERT_EQ(8 * 1088, piece_bytes);
  ASSERT_EQ(1088, tessera_read_plan_total_bytes(plan, NULL));
  tessera_read_plan_destroy(plan);
  tessera_layout_map_destroy(none);
  tessera_mesh_destroy(mesh);
  tessera_checkpoint_destroy(checkpoint);
}

static void execute_fills_each_buffer_with_its_shard(void) {
  tessera_read_plan* plan = make_plan(0, 0);
  tessera_error* err = NULL;
  buffers b;
  make_buffers(plan, &b);
  ASSERT_TRUE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, NULL, NULL, NULL, &err));
  ASSERT_OK(err);
  ASSERT_EQ(0, count_wrong_shards(plan, &b));
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
}

static void the_bytes_read_are_the_plan_bytes(void) {
  tessera_read_plan* plan = make_plan(1, 0);
  int64_t bytes_read = -1;
  buffers b;
  make_buffers(plan, &b);
  ASSERT_TRUE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, NULL, NULL, &bytes_read, NULL));
  ASSERT_EQ(832, bytes_read);
  ASSERT_EQ(tessera_read_plan_total_bytes(plan, NULL), bytes_read);
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
}

/* The process's rchar (bytes returned by read-like calls, every thread's)
 * from /proc/self/io, and in *self the bytes this read of the file returned,
 * which the next snapshot counts too. -1 without /proc. The kernel counts
 * read(2) and pread(2) there, not io_uring's reads, so a test that counts
 * with it loads with TESSERA_LOAD_IO=pread. */
static long long rchar(long long* self) {
  char text[512];
  const char* at;
  ssize_t n;
  const int fd = open("/proc/self/io", O_RDONLY);
  if (fd < 0) return -1;
  n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return -1;
  text[n] = '\0';
  *self = n;
  at = strstr(text, "rchar: ");
  return at == NULL ? -1 : atoll(at + 7);
}

/* The size of /sys/devices/system/cpu/online ("0-1\n": 4 bytes on two
 * cores), 0 without it. Abseil reads it once per process, the first time one
 * of its mutexes is contended (to size its spin loop: NumCPUs), so a load's
 * threads may add that one read to rchar, or not, by timing. */
static long long cpu_online_bytes(void) {
  char text[256];
  ssize_t n;
  const int fd = open("/sys/devices/system/cpu/online", O_RDONLY);
  if (fd < 0) return 0;
  n = read(fd, text, sizeof text);
  close(fd);
  return n < 0 ? 0 : n;
}

static void the_kernel_counts_exactly_the_plan_bytes_read_on_four_threads(void) {
  tessera_read_options* options = options_for(0, 2, 0);
  tessera_read_plan* plan;
  long long before, after, first_read = 0, unused = 0;
  buffers b;
  const char* io = getenv("TESSERA_LOAD_IO");
  char* saved = io == NULL ? NULL : strdup(io);
  const long long abseil_read = cpu_online_bytes();
  tessera_read_options_set_threads(options, 4, NULL);
  tessera_read_options_set_staging_bytes(options, 64, NULL);
  plan = plan_with(path, options, NULL);
  make_buffers(plan, &b);
  setenv("TESSERA_LOAD_IO", "pread", 1);
  before = rchar(&first_read);
  ASSERT_TRUE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, NULL, NULL, NULL, NULL));
  after = rchar(&unused);
  if (saved == NULL) {
    unsetenv("TESSERA_LOAD_IO");
  } else {
    setenv("TESSERA_LOAD_IO", saved, 1);
    free(saved);
  }
  ASSERT_TRUE(before >= 0 && after >= 0);
  /* The plan's 832 bytes, plus at most Abseil's one read of the CPU list. */
  ASSERT_TRUE(after - before - first_read == 832 || after - before - first_read == 832 + abseil_read);
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
  tessera_read_options_destroy(options);
}

static void a_staging_budget_smaller_than_a_range_reads_it_in_parts(void) {
  tessera_read_options* options = options_for(1, 2, -1);
  tessera_read_plan* plan;
  int64_t bytes_read = 0;
  buffers b;
  tessera_read_options_set_threads(options, 3, NULL);
  tessera_read_options_set_staging_bytes(options, 21, NULL); /* 7 bytes a thread */
  plan = plan_with(path, options, NULL);
  make_buffers(plan, &b);
  ASSERT_TRUE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, NULL, NULL, &bytes_read, NULL));
  ASSERT_EQ(0, count_wrong_shards(plan, &b));
  ASSERT_EQ(832, bytes_read); /* rows [4, 8) of row.kernel, col.kernel, bias: contiguous */
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
  tessera_read_options_destroy(options);
}

/* Each piece's bytes as the callback delivered them, and how often each
 * byte came (different calls touch different bytes, so threads never race). */
typedef struct delivery {
  unsigned char bytes[12][512];
  unsigned char times[12][512];
  size_t cancel_after; /* calls, 0: never */
  size_t calls;        /* counted only when cancelling (one thread) */
} delivery;

static bool collect(size_t piece, int64_t offset, const void* bytes, size_t size, void* user_data) {
  delivery* d = (delivery*)user_data;
  size_t i;
  if (d->cancel_after > 0 && ++d->calls >= d->cancel_after) return false;
  memcpy(d->bytes[piece] + offset, bytes, size);
  for (i = 0; i < size; ++i) d->times[piece][offset + (int64_t)i]++;
  return true;
}

static void the_callback_gets_every_byte_of_every_piece_once(void) {
  tessera_read_plan* plan = make_plan(0, 0);
  static delivery d;
  unsigned char expected[512];
  size_t piece, i, wrong = 0, not_once = 0;
  int64_t bytes_read = 0;
  memset(&d, 0, sizeof d);
  ASSERT_TRUE(tessera_read_plan_stream(plan, collect, &d, NULL, NULL, &bytes_read, NULL));
  for (piece = 0; piece < 12; ++piece) {
    const size_t n = expected_shard(plan, piece, expected);
    if (memcmp(expected, d.bytes[piece], n) != 0) ++wrong;
    for (i = 0; i < n; ++i) not_once += d.times[piece][i] != 1;
  }
  ASSERT_EQ(0, wrong);
  ASSERT_EQ(0, not_once);
  ASSERT_EQ(832, bytes_read);
  tessera_read_plan_destroy(plan);
}

static tessera_read_plan* make_single_thread_plan(size_t process, int64_t staging) {
  tessera_read_options* options = options_for(process, 2, 0);
  tessera_read_plan* plan;
  tessera_read_options_set_threads(options, 1, NULL);
  tessera_read_options_set_staging_bytes(options, staging, NULL);
  plan = plan_with(path, options, NULL);
  tessera_read_options_destroy(options);
  return plan;
}

/* Where each piece's next part should start; counts parts that do not. */
typedef struct in_order {
  int64_t next[12];
  size_t out_of_order;
} in_order;

static bool check_order(size_t piece, int64_t offset, const void* bytes, size_t size, void* user_data) {
  in_order* o = (in_order*)user_data;
  (void)bytes;
  if (offset != o->next[piece]) o->out_of_order++;
  o->next[piece] = offset + (int64_t)size;
  return true;
}

static void with_one_thread_each_piece_parts_come_in_offset_order(void) {
  tessera_read_plan* plan = make_single_thread_plan(0, 40);
  in_order o;
  memset(&o, 0, sizeof o);
  ASSERT_TRUE(tessera_read_plan_stream(plan, check_order, &o, NULL, NULL, NULL, NULL));
  ASSERT_EQ(0, o.out_of_order);
  ASSERT_EQ(128, o.next[1]); /* device 0's column quarter of col.kernel, whole */
  tessera_read_plan_destroy(plan);
}

static void a_piece_callback_returning_false_cancels(void) {
  tessera_read_plan* plan = make_single_thread_plan(0, 64);
  static delivery d;
  tessera_error* err = NULL;
  int64_t bytes_read = 0;
  memset(&d, 0, sizeof d);
  d.cancel_after = 2;
  ASSERT_FALSE(tessera_read_plan_stream(plan, collect, &d, NULL, NULL, &bytes_read, &err));
  ASSERT_ERROR(err, TESSERA_CANCELLED, "The piece callback cancelled the load at ");
  ASSERT_EQ(2, d.calls);
  ASSERT_EQ(64, bytes_read); /* the first 64-byte chunk's second delivery */
  tessera_read_plan_destroy(plan);
}

typedef struct progress_log {
  int64_t last_done;
  int64_t last_total;
  size_t calls;
  size_t cancel_at; /* 0: never */
} progress_log;

static bool record_progress(int64_t bytes_done, int64_t bytes_total, void* user_data) {
  progress_log* log = (progress_log*)user_data;
  log->last_done = bytes_done;
  log->last_total = bytes_total;
  return ++log->calls != log->cancel_at;
}

static void progress_counts_up_to_the_plan_bytes_chunk_by_chunk(void) {
  tessera_read_plan* plan = make_single_thread_plan(0, 64);
  progress_log log = {0, 0, 0, 0};
  buffers b;
  make_buffers(plan, &b);
  ASSERT_TRUE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, record_progress, &log, NULL, NULL));
  ASSERT_EQ(832, log.last_done);
  ASSERT_EQ(832, log.last_total);
  ASSERT_EQ(13, log.calls); /* 256 / 64 + 576 / 64 chunks */
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
}

static void a_progress_callback_returning_false_cancels(void) {
  tessera_read_plan* plan = make_single_thread_plan(0, 64);
  progress_log log = {0, 0, 0, 3};
  tessera_error* err = NULL;
  int64_t bytes_read = 0;
  buffers b;
  make_buffers(plan, &b);
  ASSERT_FALSE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, record_progress, &log, &bytes_read,
                                         &err));
  ASSERT_ERROR(err, TESSERA_CANCELLED, "The progress callback cancelled the load after 192 of 832 bytes");
  ASSERT_EQ(192, bytes_read);
  ASSERT_EQ(3, log.calls);
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
}

static void a_file_shortened_after_opening_is_refused_naming_file_and_offset(void) {
  tessera_read_plan* plan = make_plan(0, 0);
  tessera_error* err = NULL;
  char expected[512];
  buffers b;
  make_buffers(plan, &b);
  ASSERT_EQ(0, truncate(path, header_end + 1000));
  ASSERT_FALSE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, NULL, NULL, NULL, &err));
  snprintf(expected, sizeof expected,
           "%s: byte %lld: the file is %lld bytes, not the %lld it had when the checkpoint was opened", path,
           (long long)header_end, (long long)(header_end + 1000), (long long)(header_end + 1088));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, expected);
  write_safetensors(path, kHeader, data, DATA_SIZE);
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
}

static void a_buffer_of_the_wrong_size_is_refused_naming_it(void) {
  tessera_read_plan* plan = make_plan(0, 0);
  tessera_error* err = NULL;
  buffers b;
  make_buffers(plan, &b);
  b.sizes[2] = 8;
  ASSERT_FALSE(tessera_read_plan_execute(plan, b.pointers, b.sizes, b.count, NULL, NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'sizes[2]' is 8; expected 64, the bytes of piece 2");
  ASSERT_FALSE(tessera_read_plan_execute(plan, b.pointers, b.sizes, 11, NULL, NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_buffers' is 11; expected 12, one per piece");
  free_buffers(&b);
  tessera_read_plan_destroy(plan);
}

static void strict_mode_refuses_a_dimension_its_shards_do_not_divide_naming_the_tensor(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(make_plan_of(odd_path, 0, -1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Tensor 'col.odd': ");
}

static void chunk_flat_mode_gives_the_last_device_the_short_shard(void) {
  tessera_read_options* options = tessera_read_options_create();
  tessera_read_plan* plan;
  int64_t ranges[4];
  tessera_read_options_set_shard_mode(options, TESSERA_SHARD_MODE_CHUNK_FLAT, NULL);
  plan = plan_with(odd_path, options, NULL);
  ASSERT_EQ(4, tessera_read_plan_piece_ranges(plan, 3, ranges, 4, NULL)); /* device 3: c = 3 */
  ASSERT_EQ(9, ranges[2]);
  ASSERT_EQ(10, ranges[3]);
  ASSERT_EQ(32, tessera_read_plan_piece_size(plan, 3, NULL));
  tessera_read_plan_destroy(plan);
  tessera_read_options_destroy(options);
}

static void a_rule_of_another_rank_is_refused_naming_tensor_and_rule(void) {
  tessera_checkpoint* checkpoint = tessera_checkpoint_open(path, NULL);
  tessera_layout_map* rules = make_rules();
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout* layout = fixture_layout_2d("batch", "model", mesh);
  tessera_error* err = NULL;
  tessera_layout_map_set(rules, "bias", layout, NULL);
  ASSERT_NULL(tessera_read_plan_create(checkpoint, rules, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Tensor 'bias' has rank 1 (shape [16]) but the layout of rule 'bias' has rank 2; expected the same "
               "rank");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(mesh);
  tessera_layout_map_destroy(rules);
  tessera_checkpoint_destroy(checkpoint);
}

static void a_process_count_that_does_not_divide_the_devices_is_refused(void) {
  tessera_read_options* options = options_for(0, 3, -1);
  tessera_error* err = NULL;
  ASSERT_NULL(plan_with(path, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'num_processes' is 3; expected a divisor of the mesh's 8 devices");
  tessera_read_options_destroy(options);
}

static void a_map_without_a_mesh_is_a_failed_precondition(void) {
  tessera_checkpoint* checkpoint = tessera_checkpoint_open(path, NULL);
  tessera_layout_map* bare = tessera_layout_map_create(NULL, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_read_plan_create(checkpoint, bare, NULL, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "The layout map has no mesh");
  tessera_layout_map_destroy(bare);
  tessera_checkpoint_destroy(checkpoint);
}

static void option_values_out_of_their_domain_are_refused(void) {
  tessera_read_options* options = tessera_read_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_read_options_set_process(options, 2, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'process_index' is 2; expected less than 2 (num_processes)");
  ASSERT_FALSE(tessera_read_options_set_process(options, 0, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'num_processes' is 0; expected at least 1");
  ASSERT_FALSE(tessera_read_options_set_coalesce_gap(options, -1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'gap_bytes' is -1; expected at least 0");
  ASSERT_FALSE(tessera_read_options_set_staging_bytes(options, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'staging_bytes' is 0; expected at least 1");
  ASSERT_FALSE(tessera_read_options_set_shard_mode(options, (tessera_shard_mode_t)7, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mode' is 7");
  tessera_read_options_destroy(options);
}

static void a_null_piece_callback_is_refused(void) {
  tessera_read_plan* plan = make_plan(0, 0);
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_read_plan_stream(plan, NULL, NULL, NULL, NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'piece_fn' is NULL; expected a valid pointer");
  tessera_read_plan_destroy(plan);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(pieces_are_the_process_devices_in_mesh_order_then_tensors),
      HARNESS_TEST(a_row_shard_is_its_rows_whole),
      HARNESS_TEST(a_column_shard_is_its_columns_of_every_row),
      HARNESS_TEST(without_a_gap_the_ranges_are_the_rows_then_the_touching_columns_and_bias),
      HARNESS_TEST(the_default_gap_joins_the_rows_across_the_other_process_rows),
      HARNESS_TEST(column_runs_further_apart_than_the_gap_are_separate_reads),
      HARNESS_TEST(replicated_tensors_are_read_once_per_process_not_once_per_device),
      HARNESS_TEST(execute_fills_each_buffer_with_its_shard),
      HARNESS_TEST(the_bytes_read_are_the_plan_bytes),
      HARNESS_TEST(the_kernel_counts_exactly_the_plan_bytes_read_on_four_threads),
      HARNESS_TEST(a_staging_budget_smaller_than_a_range_reads_it_in_parts),
      HARNESS_TEST(the_callback_gets_every_byte_of_every_piece_once),
      HARNESS_TEST(with_one_thread_each_piece_parts_come_in_offset_order),
      HARNESS_TEST(a_piece_callback_returning_false_cancels),
      HARNESS_TEST(progress_counts_up_to_the_plan_bytes_chunk_by_chunk),
      HARNESS_TEST(a_progress_callback_returning_false_cancels),
      HARNESS_TEST(a_file_shortened_after_opening_is_refused_naming_file_and_offset),
      HARNESS_TEST(a_buffer_of_the_wrong_size_is_refused_naming_it),
      HARNESS_TEST(strict_mode_refuses_a_dimension_its_shards_do_not_divide_naming_the_tensor),
      HARNESS_TEST(chunk_flat_mode_gives_the_last_device_the_short_shard),
      HARNESS_TEST(a_rule_of_another_rank_is_refused_naming_tensor_and_rule),
      HARNESS_TEST(a_process_count_that_does_not_divide_the_devices_is_refused),
      HARNESS_TEST(a_map_without_a_mesh_is_a_failed_precondition),
      HARNESS_TEST(option_values_out_of_their_domain_are_refused),
      HARNESS_TEST(a_null_piece_callback_is_refused),
  };
  int status;
  write_files();
  status = harness_main(argc, argv, tests, HARNESS_COUNT(tests));
  remove_files();
  return status;
}
