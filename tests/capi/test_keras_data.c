/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * Keras's interleave sharding of arrays, PyDatasets and samplers, a
 * distribution's settings and identity, and the dataset plan's extras
 * (tessera/experimental/keras_data.h). Vectors: keras_cases.md K53 K55 K57 K59
 * K61.
 */
#include <stdint.h>

#include "fixtures.h"
#include "harness.h"

/* Options for process `index` of `count`, in dataset mode `mode`. */
static tessera_distribution_options* options_for(size_t count, size_t index, tessera_dataset_mode_t mode) {
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_distribution_options_set_process(options, count, index, NULL);
  tessera_distribution_options_set_dataset_mode(options, mode, NULL);
  return options;
}

/* A mesh of shape (rows, cols), axes ("batch", "model"), over cpu:0.. (at most 16). */
static tessera_mesh* mesh_2d(int64_t rows, int64_t cols) {
  static const char* const axes[] = {"batch", "model"};
  static const char* const devices[] = {"cpu:0", "cpu:1", "cpu:2",  "cpu:3",  "cpu:4",  "cpu:5",  "cpu:6",  "cpu:7",
                                        "cpu:8", "cpu:9", "cpu:10", "cpu:11", "cpu:12", "cpu:13", "cpu:14", "cpu:15"};
  const int64_t shape[] = {rows, cols};
  return fixture_create_mesh(shape, axes, 2, devices, (size_t)(rows * cols), NULL);
}

/* ModelParallel over an empty layout map on `mesh`. */
static tessera_distribution* model_parallel(const tessera_mesh* mesh, const tessera_distribution_options* options,
                                            tessera_error** err) {
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_distribution* mp = tessera_distribution_create_model_parallel(map, NULL, options, err);
  tessera_layout_map_destroy(map);
  return mp;
}

static tessera_distribution* data_parallel(int devices, const tessera_distribution_options* options) {
  tessera_mesh* mesh = fixture_mesh_1d(devices, "batch");
  tessera_distribution* dp = tessera_distribution_create_data_parallel(mesh, options, NULL);
  tessera_mesh_destroy(mesh);
  return dp;
}

#define ASSERT_ARRAY(expected, actual, count)                   \
  do {                                                          \
    size_t i_;                                                  \
    for (i_ = 0; i_ < (count); ++i_) ASSERT_EQ((expected)[i_], (actual)[i_]); \
  } while (0)

/* --- Batch level ------------------------------------------------------------- */

static void k61_batches_are_dealt_round_robin(void) {
  const size_t expected[3][4] = {{0, 3, 6, 9}, {1, 4, 7, 10}, {2, 5, 8, 0}};
  const size_t counts[3] = {4, 4, 3};
  size_t id;
  for (id = 0; id < 3; ++id) {
    size_t out[4] = {0};
    tessera_error* err = NULL;
    ASSERT_EQ(counts[id], tessera_interleave_batches(11, 3, id, false, out, 4, &err));
    ASSERT_OK(err);
    ASSERT_ARRAY(expected[id], out, counts[id]);
  }
}

static void drop_last_stops_at_a_multiple_of_the_shard_count(void) {
  const size_t expected[] = {2, 5, 8};
  size_t out[4] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(3, tessera_interleave_batches(11, 3, 2, true, out, 4, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(expected, out, 3);
  ASSERT_EQ(3, tessera_interleave_batches(11, 3, 1, true, NULL, 0, &err)); /* batch 10 dropped */
}

static void a_shard_past_the_batches_reads_nothing(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_batches(2, 4, 3, false, NULL, 0, &err));
  ASSERT_OK(err);
}

static void null_out_and_zero_capacity_asks_for_the_count(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(5, tessera_interleave_batches(10, 2, 1, false, NULL, 0, &err));
  ASSERT_OK(err);
}

static void capacity_below_the_count_is_out_of_range(void) {
  size_t out[2] = {7, 7};
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_batches(10, 2, 1, false, out, 2, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 2; expected at least 5");
  ASSERT_EQ(7, out[0]);
}

static void null_out_with_a_capacity_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_batches(10, 2, 1, false, NULL, 5, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
}

static void a_shard_count_below_one_is_kerass_error(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_batches(10, 0, 0, false, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "num_data_shards must be >= 1. Received: 0");
}

static void a_shard_index_out_of_range_is_kerass_error(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_batches(10, 3, 3, false, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "data_shard_id must be in [0, 2]. Received: 3");
}

static void k53_array_items_come_in_whole_batches(void) {
  /* 100 samples, batch 10, S = 2, id = 1: global batches 1, 3, 5, 7, 9. */
  size_t out[50] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(50, tessera_interleave_batch_items(100, 10, 2, 1, false, out, 50, &err));
  ASSERT_OK(err);
  ASSERT_EQ(10, out[0]);
  ASSERT_EQ(19, out[9]);
  ASSERT_EQ(30, out[10]);
  ASSERT_EQ(90, out[40]);
  ASSERT_EQ(99, out[49]);
}

static void the_last_partial_batch_goes_to_its_shard(void) {
  const size_t expected[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 22, 23, 24};
  size_t out[15] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(15, tessera_interleave_batch_items(25, 10, 2, 0, false, out, 15, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(expected, out, 15);
}

static void a_batch_of_zero_items_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_batch_items(25, 0, 2, 0, false, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'batch_num_examples' is 0; expected at least 1");
}

/* --- Sample level ------------------------------------------------------------ */

static void k57_samples_interleave_one_by_one(void) {
  /* 100 samples, S = 2, rank 1; in batches of 10 the first samples are 1, 21, 41. */
  size_t out[50] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(50, tessera_interleave_samples(100, 2, 1, false, out, 50, &err));
  ASSERT_OK(err);
  ASSERT_EQ(1, out[0]);
  ASSERT_EQ(21, out[10]);
  ASSERT_EQ(41, out[20]);
  ASSERT_EQ(99, out[49]);
}

static void an_uneven_split_pads_from_the_start(void) {
  /* 10 samples over 4 ranks: 3 each; the list is padded with 0, 1. */
  const size_t expected[] = {2, 6, 0};
  size_t out[3] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(3, tessera_interleave_samples(10, 4, 2, false, out, 3, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(expected, out, 3);
}

static void drop_last_cuts_the_tail_instead(void) {
  const size_t expected[] = {3, 7};
  size_t out[2] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(2, tessera_interleave_samples(10, 4, 3, true, out, 2, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(expected, out, 2);
}

static void fewer_samples_than_ranks_repeat_the_list(void) {
  /* 2 samples over 5 ranks: the padded list is 0, 1, 0, 1, 0. */
  size_t out[1] = {9};
  tessera_error* err = NULL;
  ASSERT_EQ(1, tessera_interleave_samples(2, 5, 4, false, out, 1, &err));
  ASSERT_OK(err);
  ASSERT_EQ(0, out[0]);
}

/* Keras hands its shard to torch's DistributedSampler unchecked: torch 2.15's
 * ValueError, exactly. */
static void expect_torchs_error(size_t num_shards, size_t shard_index, const char* message) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_samples(10, num_shards, shard_index, false, NULL, 0, &err));
  ASSERT_ERROR_CONTAINS(err, TESSERA_INVALID_ARGUMENT, "");
  ASSERT_STREQ(message, tessera_error_message(err));
  tessera_error_destroy(err);
}

static void a_rank_out_of_range_is_torchs_error(void) {
  expect_torchs_error(3, 3, "Invalid rank 3, rank should be in the interval [0, 2]");
}

/* torch has no check of its own for 0 replicas. */
static void no_ranks_fail_on_the_rank_as_in_torch(void) {
  expect_torchs_error(0, 0, "Invalid rank 0, rank should be in the interval [0, -1]");
}

static void no_samples_read_nothing(void) {
  size_t out[1] = {9};
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_samples(0, 3, 2, false, out, 1, &err));
  ASSERT_OK(err);
  ASSERT_EQ(9, out[0]);
}

/* --- Sample level, shuffled ---------------------------------------------------
 * Expected values are torch 2.15's list(DistributedSampler(range(N),
 * num_replicas=S, rank=i, shuffle=True, seed=seed, drop_last=d)) after
 * set_epoch(epoch). */

static void shuffled_samples_are_torchs_order(void) {
  size_t out[50] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(50, tessera_interleave_samples_shuffled(100, 2, 1, false, 0, 0, out, 50, &err));
  ASSERT_OK(err);
  ASSERT_EQ(19, out[0]);
  ASSERT_EQ(90, out[1]);
  ASSERT_EQ(69, out[2]);
  ASSERT_EQ(51, out[49]);
}

static void shuffled_samples_pad_from_the_start_of_the_permutation(void) {
  /* 10 samples over 4 ranks: torch.randperm(10) with seed 0 is 4 1 7 5 3 9 0 8 6 2, padded with 4 1. */
  const size_t expected[] = {5, 8, 1};
  size_t out[3] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(3, tessera_interleave_samples_shuffled(10, 4, 3, false, 0, 0, out, 3, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(expected, out, 3);
}

static void shuffled_drop_last_cuts_the_tail(void) {
  const size_t expected[] = {5, 8};
  size_t out[2] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(2, tessera_interleave_samples_shuffled(10, 4, 3, true, 0, 0, out, 2, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(expected, out, 2);
}

/* K59: set_epoch(2) deals another order than set_epoch(1). */
static void k59_another_epoch_is_another_order(void) {
  const size_t epoch_1[] = {5, 0, 7};
  const size_t epoch_2[] = {8, 6, 2};
  size_t out[3] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(3, tessera_interleave_samples_shuffled(10, 4, 0, false, 0, 1, out, 3, &err));
  ASSERT_ARRAY(epoch_1, out, 3);
  ASSERT_EQ(3, tessera_interleave_samples_shuffled(10, 4, 0, false, 0, 2, out, 3, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(epoch_2, out, 3);
}

/* seed=-1 with set_epoch(1) is torch's manual_seed(0): the sum wraps as torch reads a negative seed. */
static void a_negative_seed_is_its_twos_complement(void) {
  const size_t expected[] = {7, 9, 6, 1};
  size_t out[4] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(4, tessera_interleave_samples_shuffled(10, 3, 2, false, UINT64_MAX, 1, out, 4, &err));
  ASSERT_OK(err);
  ASSERT_ARRAY(expected, out, 4);
}

static void the_shuffled_count_needs_no_permutation(void) {
  tessera_error* err = NULL;
  ASSERT_EQ((size_t)1 << 60, tessera_interleave_samples_shuffled((size_t)1 << 61, 2, 1, false, 0, 0, NULL, 0, &err));
  ASSERT_OK(err);
}

static void a_shuffled_rank_out_of_range_is_torchs_error(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_interleave_samples_shuffled(10, 3, 3, false, 0, 0, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Invalid rank 3, rank should be in the interval [0, 2]");
}

/* --- Distributions and plans -------------------------------------------------- */

static void k53_model_parallel_interleaves_by_replica_group(void) {
  tessera_distribution_options* options = options_for(8, 5, TESSERA_DATASET_MODE_CURRENT);
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(mesh, options, &err);
  ASSERT_OK(err);
  ASSERT_EQ(2, tessera_distribution_interleave_num_shards(mp, NULL));
  ASSERT_EQ(1, tessera_distribution_interleave_shard_index(mp, NULL));
  tessera_distribution_destroy(mp);
  tessera_mesh_destroy(mesh);
  tessera_distribution_options_destroy(options);
}

static void without_auto_shard_every_process_reads_every_batch(void) {
  tessera_distribution_options* options = options_for(4, 3, TESSERA_DATASET_MODE_CURRENT);
  tessera_distribution* dp;
  tessera_distribution_options_set_auto_shard_dataset(options, false, NULL);
  dp = data_parallel(8, options);
  ASSERT_EQ(1, tessera_distribution_interleave_num_shards(dp, NULL));
  ASSERT_EQ(0, tessera_distribution_interleave_shard_index(dp, NULL));
  tessera_distribution_destroy(dp);
  tessera_distribution_options_destroy(options);
}

static void the_plan_carries_the_interleave_split(void) {
  tessera_distribution_options* options = options_for(8, 5, TESSERA_DATASET_MODE_CURRENT);
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_distribution* mp = model_parallel(mesh, options, NULL);
  tessera_error* err = NULL;
  tessera_dataset_plan* plan = tessera_distribution_plan_dataset(mp, 8, &err);
  ASSERT_OK(err);
  ASSERT_EQ(2, tessera_dataset_plan_interleave_num_shards(plan, NULL));
  ASSERT_EQ(1, tessera_dataset_plan_interleave_shard_index(plan, NULL));
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(mp);
  tessera_mesh_destroy(mesh);
  tessera_distribution_options_destroy(options);
}

static void keras_3_0_plans_interleave_nothing(void) {
  tessera_distribution_options* options = options_for(4, 1, TESSERA_DATASET_MODE_KERAS_3_0);
  tessera_distribution* dp = data_parallel(8, options);
  tessera_error* err = NULL;
  tessera_dataset_plan* plan = tessera_distribution_plan_dataset(dp, 8, &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_distribution_interleave_num_shards(dp, NULL));
  ASSERT_EQ(0, tessera_distribution_interleave_shard_index(dp, NULL));
  ASSERT_EQ(1, tessera_dataset_plan_interleave_num_shards(plan, NULL));
  ASSERT_EQ(0, tessera_dataset_plan_interleave_shard_index(plan, NULL));
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(dp);
  tessera_distribution_options_destroy(options);
}

static void a_plan_for_another_process_is_that_processs_plan(void) {
  tessera_distribution_options* options = options_for(4, 0, TESSERA_DATASET_MODE_CURRENT);
  tessera_distribution* dp = data_parallel(8, options);
  tessera_error* err = NULL;
  tessera_dataset_plan* plan = tessera_distribution_plan_dataset_for_process(dp, 8, 3, &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DATASET_PLAN_SHARD, tessera_dataset_plan_kind(plan, NULL));
  ASSERT_EQ(3, tessera_dataset_plan_shard_index(plan, NULL));
  ASSERT_EQ(2, tessera_dataset_plan_per_process_batch_num_examples(plan, NULL));
  ASSERT_EQ(0, tessera_distribution_process_index(dp, NULL));
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(dp);
  tessera_distribution_options_destroy(options);
}

static void a_plan_for_a_process_outside_the_job_is_invalid_argument(void) {
  tessera_distribution_options* options = options_for(4, 0, TESSERA_DATASET_MODE_CURRENT);
  tessera_distribution* dp = data_parallel(8, options);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_plan_dataset_for_process(dp, 8, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'process_index' is 4; expected 0 to 3 (the distribution's num_processes is 4)");
  tessera_distribution_destroy(dp);
  tessera_distribution_options_destroy(options);
}

static void the_unknown_batch_size_is_kerass_error_with_several_processes(void) {
  tessera_distribution_options* options = options_for(2, 0, TESSERA_DATASET_MODE_CURRENT);
  tessera_distribution* dp = data_parallel(8, options);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_plan_dataset(dp, TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "The batch size of the input dataset is unknown");
  tessera_distribution_destroy(dp);
  tessera_distribution_options_destroy(options);
}

static void the_unknown_batch_size_passes_through_in_one_process(void) {
  tessera_distribution* dp = data_parallel(8, NULL);
  tessera_error* err = NULL;
  tessera_dataset_plan* plan = tessera_distribution_plan_dataset(dp, TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES, &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DATASET_PLAN_PASSTHROUGH, tessera_dataset_plan_kind(plan, NULL));
  tessera_dataset_plan_destroy(plan);
  tessera_distribution_destroy(dp);
}

/* Keras 3.3.3 on TF: batch 9 over 4 processes is cut into slices of 3 rows. */
static void keras_3_0_uneven_batch_gives_whole_slices_first(void) {
  const size_t expected[] = {3, 3, 3, 0};
  tessera_distribution_options* options = options_for(4, 0, TESSERA_DATASET_MODE_KERAS_3_0);
  tessera_distribution* dp = data_parallel(8, options);
  size_t pid;
  for (pid = 0; pid < 4; ++pid) {
    tessera_error* err = NULL;
    tessera_dataset_plan* plan = tessera_distribution_plan_dataset_for_process(dp, 9, pid, &err);
    ASSERT_OK(err);
    ASSERT_EQ(expected[pid], tessera_dataset_plan_per_process_batch_num_examples(plan, NULL));
    tessera_dataset_plan_destroy(plan);
  }
  tessera_distribution_destroy(dp);
  tessera_distribution_options_destroy(options);
}

static void keras_3_0_accepts_processes_not_dividing_replicas(void) {
  /* Mesh (4, 4) with 6 processes: Keras 3.3 has no divisibility check. */
  tessera_distribution_options* options = options_for(6, 0, TESSERA_DATASET_MODE_KERAS_3_0);
  tessera_mesh* mesh = mesh_2d(4, 4);
  tessera_error* err = NULL;
  tessera_distribution* mp = model_parallel(mesh, options, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(mp);
  tessera_distribution_destroy(mp);
  tessera_mesh_destroy(mesh);
  tessera_distribution_options_destroy(options);
}

static void the_current_mode_rejects_processes_not_dividing_replicas(void) {
  tessera_distribution_options* options = options_for(6, 0, TESSERA_DATASET_MODE_CURRENT);
  tessera_mesh* mesh = mesh_2d(4, 4);
  tessera_error* err = NULL;
  ASSERT_NULL(model_parallel(mesh, options, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION, "Got num_processes=6, num_model_replicas=4.");
  tessera_mesh_destroy(mesh);
  tessera_distribution_options_destroy(options);
}

static void keras_3_0_model_parallel_with_an_uneven_batch_slices_it_too(void) {
  /* Mesh (8, 2) over 4 processes: 4 local devices, 2 shards; 9 rows -> 5 and 4. */
  tessera_distribution_options* options = options_for(4, 0, TESSERA_DATASET_MODE_KERAS_3_0);
  tessera_mesh* mesh = mesh_2d(8, 2);
  tessera_distribution* mp = model_parallel(mesh, options, NULL);
  tessera_error* err = NULL;
  tessera_dataset_plan* first = tessera_distribution_plan_dataset_for_process(mp, 9, 0, &err);
  tessera_dataset_plan* second = tessera_distribution_plan_dataset_for_process(mp, 9, 1, &err);
  ASSERT_OK(err);
  ASSERT_EQ(5, tessera_dataset_plan_per_process_batch_num_examples(first, NULL));
  ASSERT_EQ(4, tessera_dataset_plan_per_process_batch_num_examples(second, NULL));
  tessera_dataset_plan_destroy(second);
  tessera_dataset_plan_destroy(first);
  tessera_distribution_destroy(mp);
  tessera_mesh_destroy(mesh);
  tessera_distribution_options_destroy(options);
}

/* --- Settings ----------------------------------------------------------------- */

static void auto_shard_reads_back(void) {
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_distribution* on = data_parallel(2, NULL);
  tessera_distribution* off;
  tessera_distribution_options_set_auto_shard_dataset(options, false, NULL);
  off = data_parallel(2, options);
  ASSERT_TRUE(tessera_distribution_auto_shard_dataset(on, NULL));
  ASSERT_FALSE(tessera_distribution_auto_shard_dataset(off, NULL));
  tessera_distribution_destroy(off);
  tessera_distribution_destroy(on);
  tessera_distribution_options_destroy(options);
}

static void shape_check_reads_back(void) {
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_distribution* strict = data_parallel(2, NULL);
  tessera_distribution* chunk;
  tessera_distribution_options_set_shape_check(options, TESSERA_SHAPE_CHECK_CHUNK, NULL);
  chunk = data_parallel(2, options);
  ASSERT_EQ(TESSERA_SHAPE_CHECK_STRICT, tessera_distribution_shape_check(strict, NULL));
  ASSERT_EQ(TESSERA_SHAPE_CHECK_CHUNK, tessera_distribution_shape_check(chunk, NULL));
  tessera_distribution_destroy(chunk);
  tessera_distribution_destroy(strict);
  tessera_distribution_options_destroy(options);
}

static void dataset_mode_reads_back(void) {
  tessera_distribution_options* options = options_for(1, 0, TESSERA_DATASET_MODE_KERAS_3_0);
  tessera_distribution* current = data_parallel(2, NULL);
  tessera_distribution* old = data_parallel(2, options);
  ASSERT_EQ(TESSERA_DATASET_MODE_CURRENT, tessera_distribution_dataset_mode(current, NULL));
  ASSERT_EQ(TESSERA_DATASET_MODE_KERAS_3_0, tessera_distribution_dataset_mode(old, NULL));
  tessera_distribution_destroy(old);
  tessera_distribution_destroy(current);
  tessera_distribution_options_destroy(options);
}

static void model_parallel_hands_out_its_layout_map(void) {
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_SEARCH, NULL);
  tessera_layout* layout = fixture_layout_2d(NULL, "model", NULL);
  tessera_error* err = NULL;
  tessera_distribution* mp;
  tessera_layout_map* copy;
  tessera_layout_map_set(map, "dense.*kernel", layout, NULL);
  mp = tessera_distribution_create_model_parallel(map, NULL, NULL, NULL);
  copy = tessera_distribution_layout_map(mp, &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_layout_map_num_rules(copy, NULL));
  ASSERT_STREQ("dense.*kernel", tessera_layout_map_key(copy, 0, NULL));
  tessera_layout_map_destroy(copy);
  tessera_distribution_destroy(mp);
  tessera_layout_destroy(layout);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void data_parallel_has_no_layout_map(void) {
  tessera_distribution* dp = data_parallel(2, NULL);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_distribution_layout_map(dp, &err));
  ASSERT_OK(err);
  tessera_distribution_destroy(dp);
}

static void data_over_several_devices_is_batch_parallel(void) {
  tessera_distribution* dp = data_parallel(8, NULL);
  ASSERT_TRUE(tessera_distribution_is_batch_parallel(dp, NULL));
  tessera_distribution_destroy(dp);
}

static void a_batch_axis_of_extent_one_is_not_batch_parallel(void) {
  tessera_mesh* mesh = mesh_2d(1, 8);
  tessera_distribution* mp = model_parallel(mesh, NULL, NULL);
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_is_batch_parallel(mp, &err));
  ASSERT_OK(err);
  tessera_distribution_destroy(mp);
  tessera_mesh_destroy(mesh);
}

/* --- Identity ------------------------------------------------------------------ */

static void the_current_distribution_in_a_scope_is_the_same_distribution(void) {
  tessera_distribution* dp = data_parallel(2, NULL);
  tessera_distribution* current;
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_distribution_scope_push(dp, NULL));
  current = tessera_distribution_current();
  ASSERT_TRUE(tessera_distribution_is_same(current, dp, &err));
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_distribution_scope_pop(NULL));
  tessera_distribution_destroy(current);
  tessera_distribution_destroy(dp);
}

static void two_distributions_built_alike_are_not_the_same(void) {
  tessera_distribution* a = data_parallel(2, NULL);
  tessera_distribution* b = data_parallel(2, NULL);
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_is_same(a, b, &err));
  ASSERT_OK(err);
  tessera_distribution_destroy(b);
  tessera_distribution_destroy(a);
}

static void is_same_needs_two_handles(void) {
  tessera_distribution* a = data_parallel(2, NULL);
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_distribution_is_same(a, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'b' is NULL");
  tessera_distribution_destroy(a);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(k61_batches_are_dealt_round_robin),
      HARNESS_TEST(drop_last_stops_at_a_multiple_of_the_shard_count),
      HARNESS_TEST(a_shard_past_the_batches_reads_nothing),
      HARNESS_TEST(null_out_and_zero_capacity_asks_for_the_count),
      HARNESS_TEST(capacity_below_the_count_is_out_of_range),
      HARNESS_TEST(null_out_with_a_capacity_is_invalid_argument),
      HARNESS_TEST(a_shard_count_below_one_is_kerass_error),
      HARNESS_TEST(a_shard_index_out_of_range_is_kerass_error),
      HARNESS_TEST(k53_array_items_come_in_whole_batches),
      HARNESS_TEST(the_last_partial_batch_goes_to_its_shard),
      HARNESS_TEST(a_batch_of_zero_items_is_invalid_argument),
      HARNESS_TEST(k57_samples_interleave_one_by_one),
      HARNESS_TEST(an_uneven_split_pads_from_the_start),
      HARNESS_TEST(drop_last_cuts_the_tail_instead),
      HARNESS_TEST(fewer_samples_than_ranks_repeat_the_list),
      HARNESS_TEST(a_rank_out_of_range_is_torchs_error),
      HARNESS_TEST(no_ranks_fail_on_the_rank_as_in_torch),
      HARNESS_TEST(no_samples_read_nothing),
      HARNESS_TEST(shuffled_samples_are_torchs_order),
      HARNESS_TEST(shuffled_samples_pad_from_the_start_of_the_permutation),
      HARNESS_TEST(shuffled_drop_last_cuts_the_tail),
      HARNESS_TEST(k59_another_epoch_is_another_order),
      HARNESS_TEST(a_negative_seed_is_its_twos_complement),
      HARNESS_TEST(the_shuffled_count_needs_no_permutation),
      HARNESS_TEST(a_shuffled_rank_out_of_range_is_torchs_error),
      HARNESS_TEST(k53_model_parallel_interleaves_by_replica_group),
      HARNESS_TEST(without_auto_shard_every_process_reads_every_batch),
      HARNESS_TEST(the_plan_carries_the_interleave_split),
      HARNESS_TEST(keras_3_0_plans_interleave_nothing),
      HARNESS_TEST(a_plan_for_another_process_is_that_processs_plan),
      HARNESS_TEST(a_plan_for_a_process_outside_the_job_is_invalid_argument),
      HARNESS_TEST(the_unknown_batch_size_is_kerass_error_with_several_processes),
      HARNESS_TEST(the_unknown_batch_size_passes_through_in_one_process),
      HARNESS_TEST(keras_3_0_uneven_batch_gives_whole_slices_first),
      HARNESS_TEST(keras_3_0_accepts_processes_not_dividing_replicas),
      HARNESS_TEST(the_current_mode_rejects_processes_not_dividing_replicas),
      HARNESS_TEST(keras_3_0_model_parallel_with_an_uneven_batch_slices_it_too),
      HARNESS_TEST(auto_shard_reads_back),
      HARNESS_TEST(shape_check_reads_back),
      HARNESS_TEST(dataset_mode_reads_back),
      HARNESS_TEST(model_parallel_hands_out_its_layout_map),
      HARNESS_TEST(data_parallel_has_no_layout_map),
      HARNESS_TEST(data_over_several_devices_is_batch_parallel),
      HARNESS_TEST(a_batch_axis_of_extent_one_is_not_batch_parallel),
      HARNESS_TEST(the_current_distribution_in_a_scope_is_the_same_distribution),
      HARNESS_TEST(two_distributions_built_alike_are_not_the_same),
      HARNESS_TEST(is_same_needs_two_handles),
  };
  if (!fixture_set_cpu_devices("16")) return 1;
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
