/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * Conformance through the C ABI: every odd vector of
 * ../shared/conformance/keras_cases.md (K1-K159), one table row per vector
 * (or several), each calling the public function a Keras user's code would
 * reach: DeviceMesh and TensorLayout (tessera_mesh_create,
 * tessera_layout_create), LayoutMap, DataParallel and ModelParallel, their
 * num_data_shards and data_shard_id, the dataset plan of the data adapters,
 * the distribution scope, list_devices, and initialize's resolution of its
 * arguments (tessera_detection_create_from_env).
 *
 * "forced P/pid" is tessera_distribution_options_set_process. Where a vector
 * iterates a dataset, the rows come from the plan (rows_read below); the
 * plan is what is under test.
 *
 * What does not pass through the C ABI yet, or where Tessera decides against
 * Keras (ARCHITECTURE.md), is in kPending with the reason;
 * check_conformance_coverage.py fails when an odd vector is in neither.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "conformance.h"
#include "fixtures.h"
#include "harness.h"

static const char* const kCpus[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5", "cpu:6", "cpu:7"};

/* DeviceMesh(shape, names, devs(n)), n the product of the shape. */
static tessera_mesh* cpu_mesh(const int64_t* shape, size_t num_axes, const char* axis0, const char* axis1,
                              tessera_error** err) {
  const char* const names[] = {axis0, axis1};
  size_t i, n = 1;
  for (i = 0; i < num_axes; ++i) n *= (size_t)shape[i];
  return fixture_create_mesh(shape, names, num_axes, kCpus, n, err);
}

static tessera_mesh* mesh_2d(int64_t a, int64_t b, const char* axis0, const char* axis1) {
  const int64_t shape[] = {a, b};
  return cpu_mesh(shape, 2, axis0, axis1, NULL);
}

static tessera_mesh* mesh_1d(int64_t n, const char* axis) {
  const int64_t shape[] = {n};
  return cpu_mesh(shape, 1, axis, NULL, NULL);
}

/* A layout of up to three dimensions; NULL axes are replicated. */
static tessera_layout* layout_of(size_t rank, const char* a0, const char* a1, const char* a2,
                                 const tessera_mesh* mesh) {
  const char* const axes[] = {a0, a1, a2};
  return tessera_layout_create(axes, rank, mesh, NULL);
}

/* Options for a forced P/pid, a dataset mode and auto-sharding. */
static tessera_distribution_options* forced(size_t num_processes, size_t process_index, tessera_dataset_mode_t mode,
                                            bool auto_shard) {
  tessera_distribution_options* options = tessera_distribution_options_create();
  tessera_distribution_options_set_process(options, num_processes, process_index, NULL);
  tessera_distribution_options_set_dataset_mode(options, mode, NULL);
  tessera_distribution_options_set_auto_shard_dataset(options, auto_shard, NULL);
  return options;
}

typedef enum policy { DATA_PARALLEL, MODEL_PARALLEL } policy;

/*
 * DataParallel(devices=devs(mesh[0])) for a one-entry mesh shape; otherwise
 * ModelParallel(layout_map=LayoutMap(DeviceMesh(mesh, ["batch", "model"])))
 * with the default batch axis.
 */
static tessera_distribution* distribution_of(policy p, const int64_t* mesh, size_t num_axes,
                                             const tessera_distribution_options* options, tessera_error** err) {
  tessera_mesh* m;
  tessera_layout_map* map;
  tessera_distribution* distribution;
  if (p == DATA_PARALLEL) {
    return tessera_distribution_create_data_parallel_over_devices(kCpus, (size_t)mesh[0], options, err);
  }
  m = cpu_mesh(mesh, num_axes, "batch", "model", err);
  map = tessera_layout_map_create(m, TESSERA_KEY_MATCH_SEARCH, err);
  distribution = map == NULL ? NULL : tessera_distribution_create_model_parallel(map, NULL, options, err);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(m);
  return distribution;
}

/* ------------------------------------------------------------------------
 * num_data_shards = min(R, P); data_shard_id = pid if R >= P else
 * pid // (P // R) (HEAD's contiguous replica groups).
 */
typedef struct shard_id_case {
  const char* vector;
  policy policy;
  size_t num_axes;
  int64_t mesh[2];
  size_t num_processes;
  size_t num_model_replicas;
  size_t num_data_shards;
  size_t shard_ids[8]; /* by process index */
} shard_id_case;

static const shard_id_case kShardIds[] = {
    {"K15", DATA_PARALLEL, 1, {2}, 4, 2, 2, {0, 0, 1, 1}},
    {"K159", DATA_PARALLEL, 1, {2}, 6, 2, 2, {0, 0, 0, 1, 1, 1}},
    {"K159", DATA_PARALLEL, 1, {8}, 3, 8, 3, {0, 1, 2}},
    {"K159", DATA_PARALLEL, 1, {8}, 1, 8, 1, {0}},
    {"K159", MODEL_PARALLEL, 2, {2, 4}, 1, 2, 1, {0}},
    /* HEAD's pid // (P // R); see kPending for Keras 3.5-3.14's pid % (P // R). */
    {"K129", MODEL_PARALLEL, 2, {2, 4}, 4, 2, 2, {0, 0, 1, 1}},
    /* K53's ids: mesh (2, 4), P = 8; pid 5 reads shard 5 // 4 = 1. */
    {"K53", MODEL_PARALLEL, 2, {2, 4}, 8, 2, 2, {0, 0, 0, 0, 1, 1, 1, 1}},
    /* K57's: the same job through the torch DataLoader adapter: rank 1 of 2. */
    {"K57", MODEL_PARALLEL, 2, {2, 4}, 8, 2, 2, {0, 0, 0, 0, 1, 1, 1, 1}},
    /* K61's: DistributedBatchSampler with S = 3: a job of 3 replicas and 3 processes. */
    {"K61", DATA_PARALLEL, 1, {3}, 3, 3, 3, {0, 1, 2}},
};

static void check_shard_ids(const shard_id_case* c) {
  size_t pid;
  for (pid = 0; pid < c->num_processes; ++pid) {
    tessera_error* err = NULL;
    tessera_distribution_options* options = forced(c->num_processes, pid, TESSERA_DATASET_MODE_CURRENT, true);
    tessera_distribution* d = distribution_of(c->policy, c->mesh, c->num_axes, options, &err);
    tessera_distribution_options_destroy(options);
    ROW_OK(c->vector, err);
    ROW_EQ(c->vector, c->num_processes, tessera_distribution_num_processes(d, &err));
    ROW_EQ(c->vector, pid, tessera_distribution_process_index(d, &err));
    ROW_EQ(c->vector, c->num_model_replicas, tessera_distribution_num_model_replicas(d, &err));
    ROW_EQ(c->vector, c->num_data_shards, tessera_distribution_num_data_shards(d, &err));
    ROW_EQ(c->vector, c->shard_ids[pid], tessera_distribution_data_shard_id(d, &err));
    ROW_OK(c->vector, err);
    tessera_distribution_destroy(d);
  }
}

static void num_data_shards_and_data_shard_id_match_keras(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kShardIds); ++i) check_shard_ids(&kShardIds[i]);
}

/* ------------------------------------------------------------------------
 * The dataset plan (G table, K101-K125, current and Keras 3.0 modes).
 * DataParallel rows use DataParallel(devices=devs(mesh[0])); ModelParallel
 * rows an empty LayoutMap over mesh (b, m) with batch axis b. Where the table
 * gives only R (K111) the mesh is (2, 3).
 */
typedef struct plan_case {
  const char* vector;
  policy policy;
  size_t num_axes;
  int64_t mesh[2];
  size_t global_batch;
  size_t num_processes;
  bool auto_shard;
  tessera_dataset_mode_t mode;
  tessera_dataset_plan_kind_t kind;
  size_t per_process_batch;
  size_t num_shards;
  size_t shard_index[8]; /* by process index */
  size_t num_rebatches;  /* Keras 3.0 DataParallel: batch_sizes_for_worker */
  size_t rebatches[2];
} plan_case;

#define CURRENT TESSERA_DATASET_MODE_CURRENT
#define KERAS30 TESSERA_DATASET_MODE_KERAS_3_0
#define PASSTHROUGH TESSERA_DATASET_PLAN_PASSTHROUGH
#define REPLICATE TESSERA_DATASET_PLAN_REPLICATE
#define SHARD TESSERA_DATASET_PLAN_SHARD

static const plan_case kPlans[] = {
    /* HEAD (TFDatasetAdapter with num_data_shards and data_shard_id). */
    {"K101", DATA_PARALLEL, 1, {8}, 8, 4, false, CURRENT, PASSTHROUGH, 8, 1, {0, 0, 0, 0}, 0, {0}},
    {"K103", MODEL_PARALLEL, 2, {1, 8}, 8, 4, true, CURRENT, REPLICATE, 8, 1, {0, 0, 0, 0}, 0, {0}},
    {"K105", MODEL_PARALLEL, 2, {4, 2}, 8, 4, true, CURRENT, SHARD, 2, 4, {0, 1, 2, 3}, 0, {0}},
    {"K107", DATA_PARALLEL, 1, {4}, 8, 2, true, CURRENT, SHARD, 4, 2, {0, 1}, 0, {0}},
    {"K109", MODEL_PARALLEL, 2, {2, 4}, 8, 8, true, CURRENT, SHARD, 4, 2, {0, 0, 0, 0, 1, 1, 1, 1}, 0, {0}},
    {"K111", MODEL_PARALLEL, 2, {2, 3}, 12, 6, true, CURRENT, SHARD, 6, 2, {0, 0, 0, 1, 1, 1}, 0, {0}},
    {"K113", MODEL_PARALLEL, 2, {6, 1}, 24, 4, true, CURRENT, SHARD, 6, 4, {0, 1, 2, 3}, 0, {0}},
    {"K117", MODEL_PARALLEL, 2, {8, 1}, 24, 2, true, CURRENT, SHARD, 12, 2, {0, 1}, 0, {0}},
    {"K119", MODEL_PARALLEL, 2, {4, 2}, 24, 2, true, CURRENT, SHARD, 12, 2, {0, 1}, 0, {0}},
    {"K121", MODEL_PARALLEL, 2, {2, 4}, 24, 4, true, CURRENT, SHARD, 12, 2, {0, 0, 1, 1}, 0, {0}},
    {"K123", MODEL_PARALLEL, 2, {1, 8}, 24, 8, true, CURRENT, REPLICATE, 24, 1, {0, 0, 0, 0, 0, 0, 0, 0}, 0, {0}},
    {"K125", MODEL_PARALLEL, 2, {2, 2}, 24, 4, true, CURRENT, SHARD, 12, 2, {0, 0, 1, 1}, 0, {0}},
    /* Keras 3.0-3.4 (the "legacy" column); the switch turns sharding off in both modes (K101). */
    {"K101", DATA_PARALLEL, 1, {8}, 8, 4, false, KERAS30, PASSTHROUGH, 8, 1, {0, 0, 0, 0}, 0, {0}},
    {"K103", MODEL_PARALLEL, 2, {1, 8}, 8, 4, true, KERAS30, REPLICATE, 8, 1, {0, 0, 0, 0}, 0, {0}},
    {"K105", MODEL_PARALLEL, 2, {4, 2}, 8, 4, true, KERAS30, SHARD, 4, 2, {0, 1, 0, 1}, 0, {0}},
    {"K107", DATA_PARALLEL, 1, {4}, 8, 2, true, KERAS30, SHARD, 4, 2, {0, 1}, 2, {4, 4}},
    {"K109", MODEL_PARALLEL, 2, {2, 4}, 8, 8, true, KERAS30, SHARD, 4, 2, {0, 1, 0, 1, 0, 1, 0, 1}, 0, {0}},
    {"K111", MODEL_PARALLEL, 2, {2, 3}, 12, 6, true, KERAS30, SHARD, 6, 2, {0, 1, 0, 1, 0, 1}, 0, {0}},
    {"K113", MODEL_PARALLEL, 2, {6, 1}, 24, 4, true, KERAS30, SHARD, 4, 6, {0, 1, 2, 3}, 0, {0}},
    {"K117", MODEL_PARALLEL, 2, {8, 1}, 24, 2, true, KERAS30, SHARD, 12, 2, {0, 1}, 0, {0}},
    /* The flaw fixed in Keras 3.5: one shard, every worker reads the whole batch. */
    {"K119", MODEL_PARALLEL, 2, {4, 2}, 24, 2, true, KERAS30, SHARD, 24, 1, {0, 0}, 0, {0}},
    {"K121", MODEL_PARALLEL, 2, {2, 4}, 24, 4, true, KERAS30, SHARD, 24, 1, {0, 0, 0, 0}, 0, {0}},
    {"K123", MODEL_PARALLEL, 2, {1, 8}, 24, 8, true, KERAS30, SHARD, 24, 1, {0, 0, 0, 0, 0, 0, 0, 0}, 0, {0}},
    {"K125", MODEL_PARALLEL, 2, {2, 2}, 24, 4, true, KERAS30, SHARD, 12, 2, {0, 1, 0, 1}, 0, {0}},
    /* K127 (single-process half): Keras 3.0 leaves the dataset alone, DataParallel and ModelParallel. */
    {"K127", DATA_PARALLEL, 1, {8}, 8, 1, true, KERAS30, PASSTHROUGH, 8, 1, {0}, 0, {0}},
    {"K127", MODEL_PARALLEL, 2, {4, 2}, 8, 1, true, KERAS30, PASSTHROUGH, 8, 1, {0}, 0, {0}},
};

static void check_plan(const plan_case* c) {
  size_t pid;
  for (pid = 0; pid < c->num_processes; ++pid) {
    tessera_error* err = NULL;
    tessera_distribution_options* options = forced(c->num_processes, pid, c->mode, c->auto_shard);
    tessera_distribution* d = distribution_of(c->policy, c->mesh, c->num_axes, options, &err);
    tessera_dataset_plan* plan;
    size_t i;
    tessera_distribution_options_destroy(options);
    ROW_OK(c->vector, err);
    plan = tessera_distribution_plan_dataset(d, c->global_batch, &err);
    tessera_distribution_destroy(d);
    ROW_OK(c->vector, err);
    ROW_EQ(c->vector, c->kind, tessera_dataset_plan_kind(plan, &err));
    ROW_EQ(c->vector, c->global_batch, tessera_dataset_plan_global_batch_num_examples(plan, &err));
    ROW_EQ(c->vector, c->per_process_batch, tessera_dataset_plan_per_process_batch_num_examples(plan, &err));
    ROW_EQ(c->vector, c->num_shards, tessera_dataset_plan_num_shards(plan, &err));
    ROW_EQ(c->vector, c->shard_index[pid], tessera_dataset_plan_shard_index(plan, &err));
    ROW_EQ(c->vector, c->num_rebatches, tessera_dataset_plan_num_rebatches(plan, &err));
    for (i = 0; i < c->num_rebatches; ++i) {
      size_t size = 0;
      ROW_TRUE(c->vector, tessera_dataset_plan_rebatch_num_examples(plan, i, &size, &err));
      ROW_EQ(c->vector, c->rebatches[i], size);
    }
    ROW_OK(c->vector, err);
    tessera_dataset_plan_destroy(plan);
  }
}

static void every_process_gets_the_planned_share_of_each_batch(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kPlans); ++i) check_plan(&kPlans[i]);
}

/* ------------------------------------------------------------------------
 * The rows of range(num_rows).batch(G) each process reads: the whole batch
 * (passthrough, replicate) or rows [t*G + index*per, t*G + (index+1)*per)
 * of step t (shard).
 */
typedef struct rows_case {
  const char* vector;
  policy policy;
  size_t num_axes;
  int64_t mesh[2];
  size_t num_processes;
  size_t num_rows;
  size_t global_batch;
  tessera_dataset_mode_t mode;
  size_t per_process_batch;
  int64_t first_rows[8][4]; /* by process index: the first row of each step */
} rows_case;

static const rows_case kRows[] = {
    /* K35 = K51 with N = 4: R = 2, P = 4, range(8).batch(4) (K51's rep("cpu:0", 2): see kPending). */
    {"K35", DATA_PARALLEL, 1, {2}, 4, 8, 4, CURRENT, 2, {{0, 4}, {0, 4}, {2, 6}, {2, 6}}},
    {"K51", DATA_PARALLEL, 1, {2}, 4, 8, 4, CURRENT, 2, {{0, 4}, {0, 4}, {2, 6}, {2, 6}}},
    /* K51 with N = 8: R = 4, P = 8, range(16).batch(8). */
    {"K51", DATA_PARALLEL, 1, {4}, 8, 16, 8, CURRENT, 2,
     {{0, 8}, {0, 8}, {2, 10}, {2, 10}, {4, 12}, {4, 12}, {6, 14}, {6, 14}}},
    /* K41 (v3.15; and Keras 3.0's arithmetic) and K47 (HEAD): R = 4, P = 2, range(16).batch(8). */
    {"K41", DATA_PARALLEL, 1, {4}, 2, 16, 8, CURRENT, 4, {{0, 8}, {4, 12}}},
    {"K41", DATA_PARALLEL, 1, {4}, 2, 16, 8, KERAS30, 4, {{0, 8}, {4, 12}}},
    {"K47", DATA_PARALLEL, 1, {4}, 2, 16, 8, CURRENT, 4, {{0, 8}, {4, 12}}},
    /* K45: R = 1, multi-process: every process reads every batch. */
    {"K45", DATA_PARALLEL, 1, {1}, 2, 16, 8, CURRENT, 8, {{0, 8}, {0, 8}}},
    /* K83: DataParallel over 8 devices, P = 4, range(32).batch(8). */
    {"K83", DATA_PARALLEL, 1, {8}, 4, 32, 8, CURRENT, 2,
     {{0, 8, 16, 24}, {2, 10, 18, 26}, {4, 12, 20, 28}, {6, 14, 22, 30}}},
    /* K85: mesh (4, 2), R = 4: as K83. */
    {"K85", MODEL_PARALLEL, 2, {4, 2}, 4, 32, 8, CURRENT, 2,
     {{0, 8, 16, 24}, {2, 10, 18, 26}, {4, 12, 20, 28}, {6, 14, 22, 30}}},
    /* K87: mesh (1, 8), R = 1: replicated. */
    {"K87", MODEL_PARALLEL, 2, {1, 8}, 4, 32, 8, CURRENT, 8,
     {{0, 8, 16, 24}, {0, 8, 16, 24}, {0, 8, 16, 24}, {0, 8, 16, 24}}},
};

static void check_rows(const rows_case* c) {
  size_t pid;
  for (pid = 0; pid < c->num_processes; ++pid) {
    tessera_error* err = NULL;
    tessera_distribution_options* options = forced(c->num_processes, pid, c->mode, true);
    tessera_distribution* d = distribution_of(c->policy, c->mesh, c->num_axes, options, &err);
    tessera_dataset_plan* plan;
    size_t step, per, offset;
    tessera_distribution_options_destroy(options);
    ROW_OK(c->vector, err);
    plan = tessera_distribution_plan_dataset(d, c->global_batch, &err);
    tessera_distribution_destroy(d);
    ROW_OK(c->vector, err);
    if (tessera_dataset_plan_kind(plan, NULL) == SHARD) {
      per = tessera_dataset_plan_per_process_batch_num_examples(plan, NULL);
      offset = tessera_dataset_plan_shard_index(plan, NULL) * per;
    } else {
      per = c->global_batch;
      offset = 0;
    }
    ROW_EQ(c->vector, c->per_process_batch, per);
    for (step = 0; step * c->global_batch < c->num_rows; ++step) {
      ROW_EQ(c->vector, c->first_rows[pid][step], step * c->global_batch + offset);
    }
    tessera_dataset_plan_destroy(plan);
  }
}

static void every_process_reads_the_rows_keras_reads(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kRows); ++i) check_rows(&kRows[i]);
}

/* K49: range(16) unbatched, DataParallel over one device, forced P = 2: the unknown batch size is refused
 * before R == 1 would replicate the dataset. */
static void k49_unknown_batch_size_is_refused_before_the_replicate_shortcut(void) {
  const int64_t mesh[] = {1};
  tessera_error* err = NULL;
  tessera_distribution_options* options = forced(2, 0, CURRENT, true);
  tessera_distribution* d = distribution_of(DATA_PARALLEL, mesh, 1, options, &err);
  tessera_distribution_options_destroy(options);
  ROW_OK("K49", err);
  ROW_EQ("K49", 1, tessera_distribution_num_model_replicas(d, &err));
  ROW_NULL("K49", tessera_distribution_plan_dataset(d, TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES, &err));
  ROW_ERROR("K49", err, TESSERA_INVALID_ARGUMENT, "The batch size of the input dataset is unknown");
  tessera_distribution_destroy(d);
}

/* ------------------------------------------------------------------------
 * Interleave sharding (K53, K57, K61): arrays, PyDatasets and samplers keep
 * the batch size per process and deal out whole batches (or samples)
 * round-robin over the distribution's S shards; the process reads its id's
 * share. Data: sample i has value i.
 */
typedef enum interleave_unit {
  BATCHES,            /* the global batch positions read (tessera_interleave_batches) */
  BATCH_FIRST_VALUES, /* the first value of each batch read (ArrayDataAdapter) */
  SAMPLE_BATCH_FIRSTS /* the first sample of each batch read (DistributedSampler, then batches) */
} interleave_unit;

typedef struct interleave_case {
  const char* vector;
  policy policy;
  size_t num_axes;
  int64_t mesh[2];
  size_t num_processes;
  size_t process_index;
  interleave_unit unit;
  size_t num_items; /* batches for BATCHES, samples otherwise */
  size_t batch;     /* samples per batch; unused for BATCHES */
  size_t num_data_shards;
  size_t data_shard_id;
  size_t num_read;
  size_t read[5];
} interleave_case;

static const interleave_case kInterleaves[] = {
    /* K53: mesh (2, 4), P = 8, pid 5; 100 samples in batches of 10. */
    {"K53", MODEL_PARALLEL, 2, {2, 4}, 8, 5, BATCHES, 10, 0, 2, 1, 5, {1, 3, 5, 7, 9}},
    {"K53", MODEL_PARALLEL, 2, {2, 4}, 8, 5, BATCH_FIRST_VALUES, 100, 10, 2, 1, 5, {10, 30, 50, 70, 90}},
    /* K57: the same job through the torch DataLoader adapter (map-style, 100 samples, batch 10). */
    {"K57", MODEL_PARALLEL, 2, {2, 4}, 8, 5, SAMPLE_BATCH_FIRSTS, 100, 10, 2, 1, 5, {1, 21, 41, 61, 81}},
    /* K61: DistributedBatchSampler over 0..10 with S = 3, drop_last False. */
    {"K61", DATA_PARALLEL, 1, {3}, 3, 0, BATCHES, 11, 0, 3, 0, 4, {0, 3, 6, 9}},
    {"K61", DATA_PARALLEL, 1, {3}, 3, 1, BATCHES, 11, 0, 3, 1, 4, {1, 4, 7, 10}},
    {"K61", DATA_PARALLEL, 1, {3}, 3, 2, BATCHES, 11, 0, 3, 2, 3, {2, 5, 8}},
};

static void check_interleave(const interleave_case* c) {
  tessera_error* err = NULL;
  tessera_distribution_options* options = forced(c->num_processes, c->process_index, CURRENT, true);
  tessera_distribution* d = distribution_of(c->policy, c->mesh, c->num_axes, options, &err);
  size_t shards, id, n, i;
  size_t read[100];
  tessera_distribution_options_destroy(options);
  ROW_OK(c->vector, err);
  shards = tessera_distribution_interleave_num_shards(d, &err);
  id = tessera_distribution_interleave_shard_index(d, &err);
  ROW_EQ(c->vector, c->num_data_shards, shards);
  ROW_EQ(c->vector, c->data_shard_id, id);
  switch (c->unit) {
    case BATCHES:
      n = tessera_interleave_batches(c->num_items, shards, id, false, read, 100, &err);
      ROW_EQ(c->vector, c->num_read, n);
      for (i = 0; i < c->num_read; ++i) ROW_EQ(c->vector, c->read[i], read[i]);
      break;
    case BATCH_FIRST_VALUES:
    case SAMPLE_BATCH_FIRSTS:
      n = c->unit == BATCH_FIRST_VALUES
              ? tessera_interleave_batch_items(c->num_items, c->batch, shards, id, false, read, 100, &err)
              : tessera_interleave_samples(c->num_items, shards, id, false, read, 100, &err);
      ROW_EQ(c->vector, c->num_read * c->batch, n);
      for (i = 0; i < c->num_read; ++i) ROW_EQ(c->vector, c->read[i], read[i * c->batch]);
      break;
  }
  ROW_OK(c->vector, err);
  tessera_distribution_destroy(d);
}

static void every_process_reads_the_interleaved_share_keras_reads(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kInterleaves); ++i) check_interleave(&kInterleaves[i]);
}

/* K59: DistributedSampler(shuffle=True) over the K57 job's share (100 samples, S = 2, rank 1): set_epoch(1)
 * twice deals one order, set_epoch(2) another; both are torch 2.15's. */
static void k59_set_epoch_reseeds_the_sampler(void) {
  static const size_t epoch_1_first[] = {15, 32, 63, 72, 96};
  static const size_t epoch_2_first[] = {97, 81, 49, 8, 20};
  size_t first[50], again[50], other[50];
  size_t i, n;
  int differs = 0;
  tessera_error* err = NULL;
  n = tessera_interleave_samples_shuffled(100, 2, 1, false, 0, 1, first, 50, &err);
  ROW_EQ("K59", 50, n);
  n = tessera_interleave_samples_shuffled(100, 2, 1, false, 0, 1, again, 50, &err);
  ROW_EQ("K59", 50, n);
  n = tessera_interleave_samples_shuffled(100, 2, 1, false, 0, 2, other, 50, &err);
  ROW_EQ("K59", 50, n);
  ROW_OK("K59", err);
  for (i = 0; i < 5; ++i) ROW_EQ("K59", epoch_1_first[i], first[i]);
  for (i = 0; i < 5; ++i) ROW_EQ("K59", epoch_2_first[i], other[i]);
  for (i = 0; i < 50; ++i) {
    ROW_EQ("K59", first[i], again[i]);
    differs |= first[i] != other[i];
  }
  ROW_TRUE("K59", differs);
}

/* K55: with the epoch fixed to 1, every process of the K53 job (S = 2) shuffles alike: the two shares are
 * one permutation of the 100 samples, split as the unshuffled K53 split deals positions. */
static void k55_every_process_shuffles_alike(void) {
  size_t share[2][50];
  int seen[100] = {0};
  size_t id, i;
  tessera_error* err = NULL;
  for (id = 0; id < 2; ++id) {
    ROW_EQ("K55", 50, tessera_interleave_samples_shuffled(100, 2, id, false, 0, 1, share[id], 50, &err));
    ROW_OK("K55", err);
    for (i = 0; i < 50; ++i) {
      ROW_TRUE("K55", share[id][i] < 100);
      seen[share[id][i]] += 1;
    }
  }
  for (i = 0; i < 100; ++i) ROW_EQ("K55", 1, seen[i]);
  ROW_EQ("K55", 45, share[0][0]);
  ROW_EQ("K55", 15, share[1][0]);
}

/* K115: R = 3, P = 4: Keras 3.15's ModelParallel constructor refuses the job, with Keras's message. */
static void k115_processes_not_a_multiple_of_replicas_are_refused(void) {
  const int64_t mesh[] = {3, 2};
  tessera_error* err = NULL;
  tessera_distribution_options* options = forced(4, 3, CURRENT, true);
  ROW_NULL("K115", distribution_of(MODEL_PARALLEL, mesh, 2, options, &err));
  tessera_distribution_options_destroy(options);
  ROW_ERROR("K115", err, TESSERA_FAILED_PRECONDITION,
            "If `num_processes` is greater than `num_model_replicas`, `num_processes` must be divisible by "
            "`num_model_replicas`. Got num_processes=4, num_model_replicas=3.");
}

/* ------------------------------------------------------------------------
 * DeviceMesh and TensorLayout (K5, K7, K9, K11, K75, K97, K131, K133, K135).
 */
typedef struct mesh_error_case {
  const char* vector;
  size_t num_axes;
  int64_t shape[2];
  const char* names[2];
  size_t num_devices;
  const char* message;
} mesh_error_case;

static const mesh_error_case kMeshErrors[] = {
    /* DeviceMesh((4,), "", devs(4)): one count gives the shape's and the names' length in C, so the
     * empty names come with an empty shape ("Received: shape=(), axis_names=[]"). */
    {"K5", 0, {4, 0}, {NULL, NULL}, 4, "Shape and axis_names cannot be empty"},
    {"K7", 2, {4, 2}, {"batch", "model"}, 4,
     "Shape does not match the number of devices. Received: shape=(4, 2); devices.shape=(4,)"},
};

static void check_mesh_error(const mesh_error_case* c) {
  tessera_error* err = NULL;
  ROW_NULL(c->vector, fixture_create_mesh(c->shape, c->names, c->num_axes, kCpus, c->num_devices, &err));
  ROW_ERROR(c->vector, err, TESSERA_INVALID_ARGUMENT, c->message);
}

static void device_mesh_errors_use_keras_messages(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kMeshErrors); ++i) check_mesh_error(&kMeshErrors[i]);
}

/* K131: DeviceMesh([4, 2], ["a", "b"], devs(8)).shape == [4, 2]. */
static void k131_shape_is_kept_as_given(void) {
  tessera_mesh* mesh = mesh_2d(4, 2, "a", "b");
  int64_t extent = 0;
  ROW_EQ("K131", 2, tessera_mesh_num_axes(mesh, NULL));
  ROW_TRUE("K131", tessera_mesh_axis_extent(mesh, 0, &extent, NULL));
  ROW_EQ("K131", 4, extent);
  ROW_TRUE("K131", tessera_mesh_axis_extent(mesh, 1, &extent, NULL));
  ROW_EQ("K131", 2, extent);
  tessera_mesh_destroy(mesh);
}

/* K133: shape (8,) over a 2x4 nested list: only the element count is compared. A C device list is
 * flat, so the nested list arrives flattened: its 8 devices in row-major order. */
static void k133_eight_devices_fill_a_shape_of_eight(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_1d(8, "b");
  tessera_device* last;
  ROW_TRUE("K133", mesh != NULL);
  ROW_EQ("K133", 8, tessera_mesh_num_devices(mesh, &err));
  last = tessera_mesh_device(mesh, 7, &err);
  ROW_OK("K133", err);
  ROW_STREQ("K133", "cpu:7", tessera_device_name(last, NULL));
  tessera_device_destroy(last);
  tessera_mesh_destroy(mesh);
}

/* K9: TensorLayout(("data", "unknown", None), M). */
static void k9_unknown_axis_is_refused_with_the_valid_names(void) {
  tessera_error* err = NULL;
  tessera_mesh* m = mesh_2d(4, 2, "data", "model");
  const char* const axes[] = {"data", "unknown", NULL};
  ROW_NULL("K9", tessera_layout_create(axes, 3, m, &err));
  ROW_ERROR("K9", err, TESSERA_INVALID_ARGUMENT,
            "Invalid axis names for Layout. Valid axis names: {'data', 'model'}, Got {'data', 'unknown'}");
  tessera_mesh_destroy(m);
}

/* K11: without a mesh nothing is validated; giving it M validates. */
static void k11_validation_waits_for_the_mesh(void) {
  tessera_error* err = NULL;
  tessera_mesh* m = mesh_2d(4, 2, "data", "model");
  tessera_layout* layout = layout_of(3, "data", "unknown", NULL, NULL);
  tessera_mesh* none;
  size_t num_axes = 9;
  ROW_TRUE("K11", layout != NULL);
  none = tessera_layout_mesh(layout, &err);
  ROW_OK("K11", err);
  ROW_NULL("K11", none);
  ROW_STREQ("K11", "unknown", tessera_layout_dim_axis(layout, 1, 0, &err));
  ROW_TRUE("K11", tessera_layout_dim_num_axes(layout, 2, &num_axes, &err));
  ROW_EQ("K11", 0, num_axes);
  ROW_NULL("K11", tessera_layout_with_mesh(layout, m, &err));
  ROW_ERROR("K11", err, TESSERA_INVALID_ARGUMENT, "Invalid axis names for Layout");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(m);
}

/* K135: a layout that has a mesh cannot be given another. */
static void k135_mesh_cannot_be_overridden(void) {
  tessera_error* err = NULL;
  tessera_mesh* m = mesh_2d(4, 2, "data", "model");
  tessera_mesh* m2 = mesh_1d(8, "data");
  tessera_layout* layout = layout_of(2, "data", NULL, NULL, m);
  ROW_NULL("K135", tessera_layout_with_mesh(layout, m2, &err));
  ROW_ERROR("K135", err, TESSERA_FAILED_PRECONDITION,
            "Cannot override device mesh value. Existing value is <DeviceMesh shape=(4, 2), axis_names=['data', "
            "'model']>");
  tessera_layout_destroy(layout);
  tessera_mesh_destroy(m2);
  tessera_mesh_destroy(m);
}

/* K75 (JAX) and K97 (torch): a layout without a mesh cannot become shards or placements. */
static void k75_k97_meshless_layout_cannot_be_sharded(void) {
  tessera_error* err = NULL;
  tessera_layout* layout = layout_of(2, "data", NULL, NULL, NULL);
  const int64_t shape[] = {8, 2};
  ROW_NULL("K75", tessera_layout_to_hlo_sharding(layout, 2, true, &err));
  ROW_ERROR("K75", err, TESSERA_FAILED_PRECONDITION, "has no mesh");
  ROW_NULL("K75", tessera_sharding_create(layout, shape, 2, TESSERA_SHARD_MODE_STRICT, &err));
  ROW_ERROR("K75", err, TESSERA_FAILED_PRECONDITION, "has no device mesh");
  ROW_NULL("K97", tessera_layout_to_torch_placements(layout, &err));
  ROW_ERROR("K97", err, TESSERA_FAILED_PRECONDITION, "has no mesh");
  tessera_layout_destroy(layout);
}

/* K97 (second half): axes ("invalid",) on mesh ["data"]: Tessera cannot bypass validation, so the
 * layout is refused when created, before any conversion. */
static void k97_invalid_axis_is_refused_at_creation(void) {
  tessera_error* err = NULL;
  tessera_mesh* m = mesh_1d(2, "data");
  const char* const axes[] = {"invalid"};
  ROW_NULL("K97", tessera_layout_create(axes, 1, m, &err));
  ROW_ERROR("K97", err, TESSERA_INVALID_ARGUMENT, "Valid axis names: {'data'}, Got {'invalid'}");
  tessera_mesh_destroy(m);
}

/* ------------------------------------------------------------------------
 * DataParallel (K17, K19, K21, K23, K77, K149, K151).
 */
static void k17_devices_make_a_one_axis_batch_mesh(void) {
  tessera_error* err = NULL;
  tessera_distribution* d = tessera_distribution_create_data_parallel_over_devices(kCpus, 8, NULL, &err);
  tessera_mesh* mesh = tessera_distribution_mesh(d, &err);
  ROW_OK("K17", err);
  ROW_EQ("K17", 8, tessera_mesh_num_devices(mesh, &err));
  ROW_EQ("K17", 1, tessera_mesh_num_axes(mesh, &err));
  ROW_STREQ("K17", "batch", tessera_mesh_axis_name(mesh, 0, &err));
  ROW_STREQ("K17", "batch", tessera_distribution_batch_dim_name(d, &err));
  tessera_mesh_destroy(mesh);
  tessera_distribution_destroy(d);
}

/* K19 and K25: get_data_layout((4, 2, 2)) has the batch axis first, on the distribution's mesh. */
typedef struct data_layout_case {
  const char* vector;
  policy policy;
  int64_t mesh[2];
  const char* axis0;
  const char* axis1;
  const char* batch_dim_name;
} data_layout_case;

static const data_layout_case kDataLayouts[] = {
    {"K19", DATA_PARALLEL, {8, 0}, "data", NULL, NULL},
    {"K25", MODEL_PARALLEL, {2, 4}, "data", "model", "data"},
};

static void check_data_layout(const data_layout_case* c) {
  const int64_t dims[] = {4, 2, 2};
  tessera_error* err = NULL;
  tessera_mesh* mesh = c->policy == DATA_PARALLEL ? mesh_1d(c->mesh[0], c->axis0)
                                                  : mesh_2d(c->mesh[0], c->mesh[1], c->axis0, c->axis1);
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_distribution* d = c->policy == DATA_PARALLEL
                                ? tessera_distribution_create_data_parallel(mesh, NULL, &err)
                                : tessera_distribution_create_model_parallel(map, c->batch_dim_name, NULL, &err);
  tessera_layout* expected = layout_of(3, "data", NULL, NULL, mesh);
  tessera_layout* layout;
  tessera_mesh* layout_mesh;
  ROW_OK(c->vector, err);
  layout = tessera_distribution_data_layout(d, dims, 3, &err);
  ROW_OK(c->vector, err);
  ROW_TRUE(c->vector, tessera_layout_equal(expected, layout));
  layout_mesh = tessera_layout_mesh(layout, &err);
  ROW_TRUE(c->vector, tessera_mesh_equal(mesh, layout_mesh));
  tessera_mesh_destroy(layout_mesh);
  tessera_layout_destroy(layout);
  tessera_layout_destroy(expected);
  tessera_distribution_destroy(d);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void data_layout_puts_the_batch_axis_first(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kDataLayouts); ++i) check_data_layout(&kDataLayouts[i]);
}

/*
 * K21 and K27: a variable of shape (3,) with an explicit layout E = (["x"], X),
 * X = DeviceMesh((8,), ["x"], devs(8)): E is returned as is, its mesh X.
 * Tessera checks layouts against shapes (ARCHITECTURE.md): 3 rows over 8
 * devices pass in chunk mode, which is what these rows use; kPending has
 * the strict default.
 */
static void check_explicit_layout_wins(const char* vector, policy p) {
  tessera_error* err = NULL;
  const int64_t dims[] = {3};
  tessera_mesh* x = mesh_1d(8, "x");
  tessera_layout* e = layout_of(1, "x", NULL, NULL, x);
  tessera_mesh* mesh = p == DATA_PARALLEL ? mesh_1d(8, "data") : mesh_2d(2, 4, "data", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_layout* kernel = layout_of(2, NULL, "model", NULL, NULL);
  tessera_distribution_options* chunk = tessera_distribution_options_create();
  tessera_distribution* d;
  tessera_layout* layout;
  tessera_mesh* layout_mesh;
  /* K27's map: lm[".*kernel"] = TensorLayout([None, "model"]), which the explicit layout overrides. */
  if (p == MODEL_PARALLEL) ROW_TRUE(vector, tessera_layout_map_set(map, ".*kernel", kernel, &err));
  ROW_TRUE(vector, tessera_distribution_options_set_shape_check(chunk, TESSERA_SHAPE_CHECK_CHUNK, &err));
  d = p == DATA_PARALLEL ? tessera_distribution_create_data_parallel(mesh, chunk, &err)
                         : tessera_distribution_create_model_parallel(map, "data", chunk, &err);
  ROW_OK(vector, err);
  layout = tessera_distribution_variable_layout(d, "kernel", dims, 1, e, &err);
  ROW_OK(vector, err);
  ROW_TRUE(vector, tessera_layout_equal(e, layout));
  layout_mesh = tessera_layout_mesh(layout, &err);
  ROW_TRUE(vector, tessera_mesh_equal(x, layout_mesh));
  tessera_mesh_destroy(layout_mesh);
  tessera_layout_destroy(layout);
  tessera_distribution_destroy(d);
  tessera_distribution_options_destroy(chunk);
  tessera_layout_destroy(kernel);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
  tessera_layout_destroy(e);
  tessera_mesh_destroy(x);
}

static void k21_k27_explicit_layout_is_returned_as_is(void) {
  check_explicit_layout_wins("K21", DATA_PARALLEL);
  check_explicit_layout_wins("K27", MODEL_PARALLEL);
}

/* K23: DataParallel has no tensor layouts. */
static void k23_tensor_layout_is_none(void) {
  tessera_error* err = NULL;
  tessera_mesh* dp = mesh_1d(8, "data");
  tessera_distribution* d = tessera_distribution_create_data_parallel(dp, NULL, &err);
  ROW_NULL("K23", tessera_distribution_tensor_layout(d, "path/to/tensor", &err));
  ROW_OK("K23", err);
  tessera_distribution_destroy(d);
  tessera_mesh_destroy(dp);
}

/* K77: DataParallel() over every device replicates every weight of the MNIST model. */
static void k77_data_parallel_replicates_every_weight(void) {
  const int64_t kernel[] = {784, 200};
  const int64_t kernel_1[] = {200, 10};
  const int64_t bias_1[] = {10};
  tessera_error* err = NULL;
  tessera_distribution* d;
  tessera_mesh* mesh;
  tessera_layout* expected2;
  tessera_layout* expected1;
  tessera_layout* layout;
  ROW_TRUE("K77", fixture_set_cpu_devices("8"));
  d = tessera_distribution_create_data_parallel_over_devices(NULL, 0, NULL, &err);
  ROW_OK("K77", err);
  mesh = tessera_distribution_mesh(d, &err);
  ROW_EQ("K77", 8, tessera_mesh_num_devices(mesh, &err));
  expected2 = layout_of(2, NULL, NULL, NULL, mesh);
  expected1 = layout_of(1, NULL, NULL, NULL, mesh);
  layout = tessera_distribution_variable_layout(d, "dense/kernel", kernel, 2, NULL, &err);
  ROW_TRUE("K77", tessera_layout_equal(expected2, layout));
  tessera_layout_destroy(layout);
  layout = tessera_distribution_variable_layout(d, "dense_1/kernel", kernel_1, 2, NULL, &err);
  ROW_TRUE("K77", tessera_layout_equal(expected2, layout));
  tessera_layout_destroy(layout);
  layout = tessera_distribution_variable_layout(d, "dense_1/bias", bias_1, 1, NULL, &err);
  ROW_TRUE("K77", tessera_layout_equal(expected1, layout));
  ROW_OK("K77", err);
  tessera_layout_destroy(layout);
  tessera_layout_destroy(expected1);
  tessera_layout_destroy(expected2);
  tessera_mesh_destroy(mesh);
  tessera_distribution_destroy(d);
  ROW_TRUE("K77", fixture_set_cpu_devices(NULL));
}

/* K149: DataParallel(device_mesh=<not a DeviceMesh>): in C the only non-mesh is NULL. */
static void k149_non_mesh_is_refused(void) {
  tessera_error* err = NULL;
  ROW_NULL("K149", tessera_distribution_create_data_parallel(NULL, NULL, &err));
  ROW_ERROR("K149", err, TESSERA_INVALID_ARGUMENT, "'mesh' is NULL");
}

/* K151: DataParallel(devices=[]) falls back to list_devices(). */
static void k151_empty_device_list_means_all_devices(void) {
  tessera_error* err = NULL;
  tessera_distribution* d;
  tessera_mesh* mesh;
  ROW_TRUE("K151", fixture_set_cpu_devices("8"));
  d = tessera_distribution_create_data_parallel_over_devices(kCpus, 0, NULL, &err);
  ROW_TRUE("K151", fixture_set_cpu_devices(NULL));
  ROW_OK("K151", err);
  mesh = tessera_distribution_mesh(d, &err);
  ROW_EQ("K151", 8, tessera_mesh_num_devices(mesh, &err));
  tessera_mesh_destroy(mesh);
  tessera_distribution_destroy(d);
}

/* ------------------------------------------------------------------------
 * ModelParallel (K29, K79, K89, K145, K147).
 */

/* K29: the backend reports 2 processes (forced here); mesh (4, 2), batch "data". */
static void k29_replicas_and_processes(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_2d(4, 2, "data", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_distribution_options* options = forced(2, 0, CURRENT, true);
  tessera_distribution* d = tessera_distribution_create_model_parallel(map, "data", options, &err);
  ROW_OK("K29", err);
  ROW_EQ("K29", 4, tessera_distribution_num_model_replicas(d, &err));
  ROW_EQ("K29", 2, tessera_distribution_num_processes(d, &err));
  tessera_distribution_destroy(d);
  tessera_distribution_options_destroy(options);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

/* K79 (with K78's map): "<layer path>/output" gets ("batch", None); kernels and biases their rules. */
static void k79_output_path_gets_its_rule(void) {
  const int64_t kernel_dims[] = {784, 200};
  const int64_t bias_dims[] = {10};
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_2d(4, 2, "batch", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_layout* kernel = layout_of(2, NULL, "model", NULL, NULL);
  tessera_layout* bias = layout_of(1, "model", NULL, NULL, NULL);
  tessera_layout* output = layout_of(2, "batch", NULL, NULL, NULL);
  tessera_layout* expected_output = layout_of(2, "batch", NULL, NULL, mesh);
  tessera_layout* expected_kernel = layout_of(2, NULL, "model", NULL, mesh);
  tessera_layout* expected_bias = layout_of(1, "model", NULL, NULL, mesh);
  tessera_distribution* d;
  tessera_layout* layout;
  ROW_TRUE("K79", tessera_layout_map_set(map, ".*dense.*kernel", kernel, &err));
  ROW_TRUE("K79", tessera_layout_map_set(map, ".*dense.*bias", bias, &err));
  ROW_TRUE("K79", tessera_layout_map_set(map, ".*dense.*output", output, &err));
  d = tessera_distribution_create_model_parallel(map, NULL, NULL, &err);
  ROW_OK("K79", err);
  layout = tessera_distribution_tensor_layout(d, "dense/output", &err);
  ROW_TRUE("K79", tessera_layout_equal(expected_output, layout));
  tessera_layout_destroy(layout);
  layout = tessera_distribution_variable_layout(d, "dense/kernel", kernel_dims, 2, NULL, &err);
  ROW_TRUE("K79", tessera_layout_equal(expected_kernel, layout));
  tessera_layout_destroy(layout);
  layout = tessera_distribution_variable_layout(d, "dense_1/bias", bias_dims, 1, NULL, &err);
  ROW_TRUE("K79", tessera_layout_equal(expected_bias, layout));
  ROW_OK("K79", err);
  tessera_layout_destroy(layout);
  tessera_distribution_destroy(d);
  tessera_layout_destroy(expected_bias);
  tessera_layout_destroy(expected_kernel);
  tessera_layout_destroy(expected_output);
  tessera_layout_destroy(output);
  tessera_layout_destroy(bias);
  tessera_layout_destroy(kernel);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

/* K89: mesh (8 / m, m), empty LayoutMap, ModelParallel(layout_map=lm): batch axis "batch", R = 8 / m,
 * every weight replicated. */
static void k89_empty_map_replicates_every_weight(void) {
  static const int64_t kModelDims[] = {1, 2, 4, 8};
  const int64_t kernel_dims[] = {784, 200};
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kModelDims); ++i) {
    tessera_error* err = NULL;
    tessera_mesh* mesh = mesh_2d(8 / kModelDims[i], kModelDims[i], "batch", "model");
    tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
    tessera_distribution* d = tessera_distribution_create_model_parallel(map, NULL, NULL, &err);
    tessera_layout* expected = layout_of(2, NULL, NULL, NULL, mesh);
    tessera_layout* layout;
    ROW_OK("K89", err);
    ROW_STREQ("K89", "batch", tessera_distribution_batch_dim_name(d, &err));
    ROW_EQ("K89", 8 / kModelDims[i], tessera_distribution_num_model_replicas(d, &err));
    layout = tessera_distribution_variable_layout(d, "dense/kernel", kernel_dims, 2, NULL, &err);
    ROW_OK("K89", err);
    ROW_TRUE("K89", tessera_layout_equal(expected, layout));
    tessera_layout_destroy(layout);
    tessera_layout_destroy(expected);
    tessera_distribution_destroy(d);
    tessera_layout_map_destroy(map);
    tessera_mesh_destroy(mesh);
  }
}

/* K145: the mesh comes from the layout map (Keras ignores a device_mesh keyword; C has no such argument). */
static void k145_mesh_comes_from_the_layout_map(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_2d(2, 4, "data", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_distribution* d = tessera_distribution_create_model_parallel(map, NULL, NULL, &err);
  tessera_mesh* used = tessera_distribution_mesh(d, &err);
  ROW_OK("K145", err);
  ROW_TRUE("K145", tessera_mesh_equal(mesh, used));
  tessera_mesh_destroy(used);
  tessera_distribution_destroy(d);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

/* K147: batch_dim_name="x" in a multi-process job: the constructor fails at once (the single-process
 * half: kPending). */
static void k147_unknown_batch_axis_is_refused_in_a_job(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_2d(2, 4, "data", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_distribution_options* options = forced(2, 0, CURRENT, true);
  ROW_NULL("K147", tessera_distribution_create_model_parallel(map, "x", options, &err));
  ROW_ERROR("K147", err, TESSERA_INVALID_ARGUMENT, "Argument 'batch_dim_name' 'x' is not an axis of the mesh");
  tessera_distribution_options_destroy(options);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

/* ------------------------------------------------------------------------
 * LayoutMap (K31, K33, K37, K39, K137, K143), on LM = DeviceMesh((4, 2),
 * ["data", "model"]). K31 and K39 are HEAD's re.fullmatch, K37 is re.search
 * (Keras 3.0-3.13). Layouts are inserted without a mesh; "is" is the rule
 * lookup_rule selects, and the lookup's layout equals that rule's.
 */
typedef struct rule {
  const char* key;
  size_t rank;
  const char* axes[4];
} rule;

typedef struct lookup {
  const char* path;
  const char* key;           /* the rule selected; NULL for none or an error */
  const char* matching_keys; /* a multi-match error's list; NULL otherwise */
} lookup;

typedef struct layout_map_case {
  const char* vector;
  tessera_key_match_t match;
  size_t num_rules;
  rule rules[5];
  size_t num_lookups;
  lookup lookups[8];
} layout_map_case;

#define LAYOUT_S2 2, {NULL, "model", NULL, NULL} /* TensorLayout([None, "model"]) */
#define LAYOUT_S1 1, {"model", NULL, NULL, NULL} /* TensorLayout(["model"]) */
#define LAYOUT_R2 2, {NULL, NULL, NULL, NULL}    /* TensorLayout([None, None]) */
#define LAYOUT_R1 1, {NULL, NULL, NULL, NULL}    /* TensorLayout([None]) */

static const layout_map_case kLayoutMaps[] = {
    {"K31", TESSERA_KEY_MATCH_FULL, 5,
     {{"dense/kernel", LAYOUT_S2},
      {"dense/bias", LAYOUT_S1},
      {".*dense.*kernel", LAYOUT_R2},
      {".*dense.*bias", LAYOUT_R1},
      {".*bias", LAYOUT_S1}},
     6,
     {{"dense/kernel", "dense/kernel", NULL},
      {"dense/bias", "dense/bias", NULL},
      {"dense_2/kernel", ".*dense.*kernel", NULL},
      {"dense_2/bias", NULL, "['.*dense.*bias', '.*bias']"},
      {"conv2d/kernel", NULL, NULL},
      {"conv2d/bias", ".*bias", NULL}}},
    {"K37", TESSERA_KEY_MATCH_SEARCH, 5,
     {{"dense/kernel", LAYOUT_S2},
      {"dense/bias", LAYOUT_S1},
      {"dense.*kernel", LAYOUT_R2},
      {"dense.*bias", LAYOUT_R1},
      {"bias", LAYOUT_S1}},
     6,
     {{"dense/kernel", "dense/kernel", NULL},
      {"dense/bias", "dense/bias", NULL},
      {"dense_2/kernel", "dense.*kernel", NULL},
      {"dense_2/bias", NULL, "['dense.*bias', 'bias']"},
      {"conv2d/kernel", NULL, NULL},
      {"conv2d/bias", "bias", NULL}}},
    {"K39", TESSERA_KEY_MATCH_FULL, 4,
     {{".*dense.*kernel", LAYOUT_S2},
      {".*dense.*bias", LAYOUT_S1},
      {".*conv2d.*kernel", 4, {NULL, NULL, NULL, "model"}},
      {".*conv2d.*bias", LAYOUT_S1}},
     8,
     {{"dense_1.kernel", ".*dense.*kernel", NULL},
      {"dense_1.bias", ".*dense.*bias", NULL},
      {"dense_2.kernel", ".*dense.*kernel", NULL},
      {"dense_2.bias", ".*dense.*bias", NULL},
      {"my_model/conv2d_123/kernel", ".*conv2d.*kernel", NULL},
      {"my_model/conv2d_123/bias", ".*conv2d.*bias", NULL},
      {"my_model/conv3d_1/kernel", NULL, NULL},
      {"my_model/conv3d_1/bias", NULL, NULL}}},
    /* K143: no match is None (and no rule), never an error. */
    {"K143", TESSERA_KEY_MATCH_SEARCH, 1, {{"dense.*kernel", LAYOUT_S2}}, 1, {{"nomatch", NULL, NULL}}},
};

/* The index of `key` among the map's rules; the number of rules when absent. */
static size_t rule_index(const tessera_layout_map* map, const char* key) {
  size_t i, n = tessera_layout_map_num_rules(map, NULL);
  for (i = 0; i < n; ++i) {
    if (strcmp(tessera_layout_map_key(map, i, NULL), key) == 0) return i;
  }
  return n;
}

static void check_lookup(const char* vector, const tessera_layout_map* map, const lookup* l) {
  tessera_error* err = NULL;
  tessera_layout* found = tessera_layout_map_lookup(map, l->path, &err);
  size_t index = 0;
  if (l->matching_keys != NULL) {
    char message[160];
    sprintf(message, "Path '%s' matches multiple layout specification keys: %s", l->path, l->matching_keys);
    ROW_NULL(vector, found);
    ROW_ERROR(vector, err, TESSERA_FAILED_PRECONDITION, message);
    ROW_TRUE(vector, !tessera_layout_map_lookup_rule(map, l->path, &index, &err));
    ROW_ERROR(vector, err, TESSERA_FAILED_PRECONDITION, message);
    return;
  }
  ROW_OK(vector, err);
  ROW_TRUE(vector, tessera_layout_map_lookup_rule(map, l->path, &index, &err));
  if (l->key == NULL) {
    ROW_NULL(vector, found);
    ROW_EQ(vector, TESSERA_NO_INDEX, index);
  } else {
    tessera_layout* expected = tessera_layout_map_layout(map, index, &err);
    ROW_EQ(vector, rule_index(map, l->key), index);
    ROW_TRUE(vector, tessera_layout_equal(expected, found));
    tessera_layout_destroy(expected);
  }
  tessera_layout_destroy(found);
}

static void check_layout_map(const layout_map_case* c) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_2d(4, 2, "data", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, c->match, &err);
  size_t i;
  for (i = 0; i < c->num_rules; ++i) {
    tessera_layout* layout = tessera_layout_create(c->rules[i].axes, c->rules[i].rank, NULL, &err);
    ROW_TRUE(c->vector, tessera_layout_map_set(map, c->rules[i].key, layout, &err));
    tessera_layout_destroy(layout);
  }
  ROW_OK(c->vector, err);
  for (i = 0; i < c->num_lookups; ++i) check_lookup(c->vector, map, &c->lookups[i]);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

static void every_lookup_selects_the_keras_rule(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kLayoutMaps); ++i) check_layout_map(&kLayoutMaps[i]);
}

/* K33: len counts the rules. */
static void k33_length_counts_the_rules(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_2d(4, 2, "data", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, &err);
  tessera_layout* s2 = layout_of(2, NULL, "model", NULL, NULL);
  tessera_layout* s1 = layout_of(1, "model", NULL, NULL, NULL);
  ROW_EQ("K33", 0, tessera_layout_map_num_rules(map, &err));
  ROW_TRUE("K33", tessera_layout_map_set(map, "dense/kernel", s2, &err));
  ROW_TRUE("K33", tessera_layout_map_set(map, "dense/bias", s1, &err));
  ROW_EQ("K33", 2, tessera_layout_map_num_rules(map, &err));
  tessera_layout_destroy(s1);
  tessera_layout_destroy(s2);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

/* K137: giving the layout the map's mesh fails; the key is not inserted. */
static void k137_failed_mesh_injection_inserts_nothing(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_2d(4, 2, "data", "model");
  tessera_layout_map* map = tessera_layout_map_create(mesh, TESSERA_KEY_MATCH_FULL, NULL);
  tessera_layout* bogus = layout_of(2, "data", "bogus", NULL, NULL);
  ROW_TRUE("K137", !tessera_layout_map_set(map, "k", bogus, &err));
  ROW_ERROR("K137", err, TESSERA_INVALID_ARGUMENT, "Invalid axis names for Layout");
  ROW_EQ("K137", 0, tessera_layout_map_num_rules(map, &err));
  tessera_layout_destroy(bogus);
  tessera_layout_map_destroy(map);
  tessera_mesh_destroy(mesh);
}

/* ------------------------------------------------------------------------
 * The current distribution (K13, K157), D = DeviceMesh((4, 2), ["batch",
 * "model"]); Keras's test builds the internal base class, which Tessera does
 * not expose: DataParallel(D).
 */
static tessera_distribution* on_d(void) {
  tessera_mesh* d = mesh_2d(4, 2, "batch", "model");
  tessera_distribution* distribution = tessera_distribution_create_data_parallel(d, NULL, NULL);
  tessera_mesh_destroy(d);
  return distribution;
}

/* Whether the current distribution is `expected` (NULL: none). The C ABI hands out new references,
 * so a distribution is recognised by its repr: the tests that tell two apart give them different meshes. */
static bool current_is(const tessera_distribution* expected) {
  tessera_distribution* current = tessera_distribution_current();
  tessera_buffer* a = current == NULL ? NULL : tessera_distribution_to_string(current, NULL);
  tessera_buffer* b = expected == NULL ? NULL : tessera_distribution_to_string(expected, NULL);
  bool same = (current == NULL) == (expected == NULL) &&
              (a == NULL || strcmp(tessera_buffer_data(a), tessera_buffer_data(b)) == 0);
  tessera_buffer_destroy(b);
  tessera_buffer_destroy(a);
  tessera_distribution_destroy(current);
  return same;
}

/* K13: nested scopes; distribution() reads None, d1, d2, d1, None. */
static void k13_nested_scopes_restore_in_order(void) {
  tessera_error* err = NULL;
  tessera_distribution* d1 = on_d();
  tessera_mesh* other = mesh_1d(8, "batch");
  /* d2 over another mesh, so that d1 and d2 can be told apart through the C ABI. */
  tessera_distribution* d2 = tessera_distribution_create_data_parallel(other, NULL, NULL);
  ROW_TRUE("K13", current_is(NULL));
  ROW_TRUE("K13", tessera_distribution_scope_push(d1, &err));
  ROW_TRUE("K13", current_is(d1));
  ROW_TRUE("K13", tessera_distribution_scope_push(d2, &err));
  ROW_TRUE("K13", current_is(d2));
  ROW_TRUE("K13", tessera_distribution_scope_pop(&err));
  ROW_TRUE("K13", current_is(d1));
  ROW_TRUE("K13", tessera_distribution_scope_pop(&err));
  ROW_TRUE("K13", current_is(NULL));
  ROW_OK("K13", err);
  tessera_distribution_destroy(d2);
  tessera_mesh_destroy(other);
  tessera_distribution_destroy(d1);
}

/* K157: a failure inside the scope (C has no exceptions: the caller pops on its error path) restores
 * the previous value, here the process default. */
static void k157_scope_closed_on_an_error_path_restores_the_previous_value(void) {
  tessera_error* err = NULL;
  tessera_mesh* other = mesh_1d(8, "batch");
  tessera_distribution* previous = tessera_distribution_create_data_parallel(other, NULL, NULL);
  tessera_distribution* inner = on_d();
  const int64_t scalar_dims[] = {0};
  tessera_distribution_set_default(previous);
  ROW_TRUE("K157", tessera_distribution_scope_push(inner, &err));
  /* The failing call inside the scope: a data layout of rank 0. */
  ROW_NULL("K157", tessera_distribution_data_layout(inner, scalar_dims, 0, &err));
  ROW_TRUE("K157", err != NULL);
  tessera_error_destroy(err);
  err = NULL;
  ROW_TRUE("K157", tessera_distribution_scope_pop(&err));
  ROW_TRUE("K157", current_is(previous));
  tessera_distribution_set_default(NULL);
  tessera_distribution_destroy(inner);
  tessera_distribution_destroy(previous);
  tessera_mesh_destroy(other);
}

/* ------------------------------------------------------------------------
 * Devices (K65, K73, K81, K91, K95, K155).
 */

/* K65: list_devices() and list_devices(default backend) both see the n devices. */
static void k65_list_devices_sees_every_device(void) {
  tessera_error* err = NULL;
  tessera_device_list* all;
  tessera_device_list* cpus;
  ROW_TRUE("K65", fixture_set_cpu_devices("8"));
  all = tessera_device_list_create(NULL, &err);
  cpus = tessera_device_list_create("cpu", &err);
  ROW_TRUE("K65", fixture_set_cpu_devices(NULL));
  ROW_OK("K65", err);
  ROW_EQ("K65", 8, tessera_device_list_num_devices(all, &err));
  ROW_EQ("K65", 8, tessera_device_list_num_devices(cpus, &err));
  tessera_device_list_destroy(cpus);
  tessera_device_list_destroy(all);
}

/* K73: DeviceMesh((n/2, 2), ["batch", "model"]) over the default devices. */
static void k73_mesh_over_the_default_devices(void) {
  tessera_error* err = NULL;
  const int64_t shape[] = {4, 2};
  const char* const names[] = {"batch", "model"};
  tessera_mesh* mesh;
  int64_t extent = 0;
  ROW_TRUE("K73", fixture_set_cpu_devices("8"));
  mesh = fixture_create_mesh(shape, names, 2, NULL, 0, &err);
  ROW_TRUE("K73", fixture_set_cpu_devices(NULL));
  ROW_OK("K73", err);
  ROW_TRUE("K73", tessera_mesh_axis_extent(mesh, 0, &extent, &err));
  ROW_EQ("K73", 4, extent);
  ROW_STREQ("K73", "batch", tessera_mesh_axis_name(mesh, 0, &err));
  ROW_STREQ("K73", "model", tessera_mesh_axis_name(mesh, 1, &err));
  ROW_EQ("K73", 8, tessera_mesh_num_devices(mesh, &err));
  tessera_mesh_destroy(mesh);
}

/* K81: each list_devices() string converts back to the same device. */
static void k81_listed_names_parse_back_to_the_same_device(void) {
  tessera_error* err = NULL;
  tessera_device_list* list;
  size_t i;
  ROW_TRUE("K81", fixture_set_cpu_devices("8"));
  list = tessera_device_list_create(NULL, &err);
  ROW_TRUE("K81", fixture_set_cpu_devices(NULL));
  ROW_OK("K81", err);
  for (i = 0; i < tessera_device_list_num_devices(list, NULL); ++i) {
    tessera_device* device = tessera_device_list_device(list, i, &err);
    tessera_device* parsed = tessera_device_parse(tessera_device_name(device, NULL), &err);
    ROW_OK("K81", err);
    ROW_EQ("K81", tessera_device_id(device, NULL), tessera_device_id(parsed, NULL));
    ROW_EQ("K81", tessera_device_platform(device, NULL), tessera_device_platform(parsed, NULL));
    tessera_device_destroy(parsed);
    tessera_device_destroy(device);
  }
  tessera_device_list_destroy(list);
}

/* K91: list_devices() starts with a known type; an explicit type lists "<type>:i" for i below its
 * count ("cpu" -> ["cpu:0"]); no GPUs here. */
static void k91_explicit_type_lists_type_colon_index(void) {
  tessera_error* err = NULL;
  tessera_device_list* all = tessera_device_list_create(NULL, &err);
  tessera_device* any = tessera_device_list_device(all, 0, &err);
  tessera_device_list* cpus = tessera_device_list_create("cpu", &err);
  tessera_device_list* gpus = tessera_device_list_create("gpu", &err);
  tessera_device* first = tessera_device_list_device(cpus, 0, &err);
  size_t num_gpus = 9;
  ROW_OK("K91", err);
  ROW_EQ("K91", 1, tessera_device_list_num_devices(cpus, &err));
  ROW_STREQ("K91", "cpu:0", tessera_device_name(first, &err));
  ROW_EQ("K91", 0, tessera_device_list_num_devices(gpus, &err));
  ROW_TRUE("K91", tessera_platform_num_devices("gpu", &num_gpus, &err));
  ROW_EQ("K91", 0, num_gpus);
  ROW_TRUE("K91", strncmp(tessera_device_name(any, &err), "cpu:", 4) == 0);
  tessera_device_destroy(any);
  tessera_device_list_destroy(all);
  tessera_device_destroy(first);
  tessera_device_list_destroy(gpus);
  tessera_device_list_destroy(cpus);
}

/* K95: DeviceMesh((1,), ["x"], ["cpu:0"]) keeps its device type and axis name. */
static void k95_one_device_mesh_keeps_type_and_axis_name(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = mesh_1d(1, "x");
  ROW_EQ("K95", TESSERA_PLATFORM_CPU, tessera_mesh_platform(mesh, &err));
  ROW_STREQ("K95", "x", tessera_mesh_axis_name(mesh, 0, &err));
  ROW_OK("K95", err);
  tessera_mesh_destroy(mesh);
}

/* K155: "cpu" is the cpu device with id 0 (the absent "cpu:99": kPending). */
static void k155_device_without_an_id_is_id_zero(void) {
  tessera_error* err = NULL;
  tessera_device* cpu = tessera_device_parse("cpu", &err);
  ROW_OK("K155", err);
  ROW_EQ("K155", TESSERA_PLATFORM_CPU, tessera_device_platform(cpu, &err));
  ROW_EQ("K155", 0, tessera_device_id(cpu, &err));
  tessera_device_destroy(cpu);
}

/* ------------------------------------------------------------------------
 * initialize (K1, K3, K67, K69, K93, K153): Keras hands (job_addresses,
 * num_processes, process_id) to the backend's initialize; Tessera resolves
 * the same triple (tessera_detection_create_from_env is
 * tessera_runtime_initialize's resolution without the connection). Keras's
 * arguments arrive through KERAS_DISTRIBUTION_* (what Keras reads when an
 * argument is None); explicit options stand for explicit arguments.
 */
#if TESSERA_HAS_CLUSTER
typedef struct initialize_case {
  const char* vector;
  size_t num_env;
  const char* env[3];
  const char* coordinator_option; /* NULL: not given */
  size_t num_processes_option;    /* 0: not given */
  size_t process_index_option;    /* TESSERA_NO_INDEX: not given */
  const char* coordinator_address;
  size_t num_processes;
  size_t process_index;
  const char* source;
} initialize_case;

#define TWO_JOBS "KERAS_DISTRIBUTION_JOB_ADDRESSES=10.0.0.1:1234,10.0.0.2:2345"
#define NONE TESSERA_NO_INDEX

static const initialize_case kInitialize[] = {
    /* initialize("10.0.0.1:1234,10.0.0.2:2345", 2, 0): the list passes unchanged; JAX's backend
     * takes its first entry as the coordinator. */
    {"K1", 3, {TWO_JOBS, "KERAS_DISTRIBUTION_NUM_PROCESSES=2", "KERAS_DISTRIBUTION_PROCESS_ID=0"}, NULL, 0, NONE,
     "10.0.0.1:1234", 2, 0, "keras"},
    {"K1", 1, {TWO_JOBS}, NULL, 2, 0, "10.0.0.1:1234", 2, 0, "options"},
    /* initialize() with no environment: one process, no coordinator. */
    {"K3", 0, {NULL}, NULL, 0, NONE, "", 1, 0, "single-process"},
    {"K67", 3, {TWO_JOBS, "KERAS_DISTRIBUTION_NUM_PROCESSES=2", "KERAS_DISTRIBUTION_PROCESS_ID=0"}, NULL, 0, NONE,
     "10.0.0.1:1234", 2, 0, "keras"},
    {"K69",
     3,
     {"KERAS_DISTRIBUTION_JOB_ADDRESSES=10.0.0.1:1234", "KERAS_DISTRIBUTION_NUM_PROCESSES=2",
      "KERAS_DISTRIBUTION_PROCESS_ID=0"},
     NULL, 0, NONE, "10.0.0.1:1234", 2, 0, "keras"},
    /* Torch backend: ("127.0.0.1:29506", 1, 0) with MASTER_* unset. */
    {"K93", 0, {NULL}, "127.0.0.1:29506", 1, 0, "127.0.0.1:29506", 1, 0, "options"},
    /* ("127.0.0.1", 1, 0) with MASTER_PORT=29507: one process needs no coordinator. */
    {"K93", 1, {"MASTER_PORT=29507"}, "127.0.0.1", 1, 0, "", 1, 0, "options"},
    /* (None, 1, 0) with MASTER_ADDR and MASTER_PORT preset. */
    {"K93", 2, {"MASTER_ADDR=127.0.0.1", "MASTER_PORT=29508"}, NULL, 1, 0, "", 1, 0, "options"},
    /* initialize(num_processes=2) with KERAS_DISTRIBUTION_NUM_PROCESSES=4: the explicit 2 wins. */
    {"K153",
     3,
     {"KERAS_DISTRIBUTION_NUM_PROCESSES=4", "KERAS_DISTRIBUTION_JOB_ADDRESSES=10.0.0.1:1234",
      "KERAS_DISTRIBUTION_PROCESS_ID=1"},
     NULL, 2, NONE, "10.0.0.1:1234", 2, 1, "keras"},
};

static void check_initialize(const initialize_case* c) {
  tessera_error* err = NULL;
  tessera_cluster_options* options = tessera_cluster_options_create();
  tessera_detection* detection;
  if (c->coordinator_option != NULL) {
    ROW_TRUE(c->vector, tessera_cluster_options_set_coordinator_address(options, c->coordinator_option, &err));
  }
  if (c->num_processes_option != 0) {
    ROW_TRUE(c->vector, tessera_cluster_options_set_num_processes(options, c->num_processes_option, &err));
  }
  if (c->process_index_option != NONE) {
    ROW_TRUE(c->vector, tessera_cluster_options_set_process_index(options, c->process_index_option, &err));
  }
  detection = tessera_detection_create_from_env(options, c->env, c->num_env, &err);
  tessera_cluster_options_destroy(options);
  ROW_OK(c->vector, err);
  ROW_STREQ(c->vector, c->coordinator_address, tessera_detection_coordinator_address(detection, &err));
  ROW_EQ(c->vector, c->num_processes, tessera_detection_num_processes(detection, &err));
  ROW_EQ(c->vector, c->process_index, tessera_detection_process_index(detection, &err));
  ROW_STREQ(c->vector, c->source, tessera_detection_source(detection, &err));
  tessera_detection_destroy(detection);
}

static void initialize_resolves_the_triple_keras_passes_on(void) {
  size_t i;
  for (i = 0; i < HARNESS_COUNT(kInitialize); ++i) check_initialize(&kInitialize[i]);
}

/* K153: KERAS_DISTRIBUTION_PROCESS_ID="abc" is an error (Keras: int() raises ValueError). */
static void k153_non_integer_process_id_is_an_error(void) {
  static const char* const env[] = {"KERAS_DISTRIBUTION_PROCESS_ID=abc"};
  tessera_error* err = NULL;
  ROW_NULL("K153", tessera_detection_create_from_env(NULL, env, 1, &err));
  ROW_ERROR("K153", err, TESSERA_INVALID_ARGUMENT,
            "invalid literal for int() with base 10: 'abc' (environment variable KERAS_DISTRIBUTION_PROCESS_ID)");
}
#endif

/* ------------------------------------------------------------------------
 * Odd vectors, or parts of them, that do not pass through the C ABI yet, or
 * where Tessera decides against Keras.
 */
static const conformance_pending kPending[] = {
    {"K21", "Keras returns E for a (3,) variable over 8 devices; Tessera's default strict shape check refuses "
            "it (ARCHITECTURE.md: layouts are checked against shapes); the row passes in chunk mode"},
    {"K27", "as K21: the explicit layout wins, but only in chunk mode"},
    {"K43", "a Python list handed to the TF dataset adapter (\"is not supported for auto-sharding\"): the C ABI "
            "has no dataset objects, so there is no type to refuse"},
    {"K51", "the mesh over rep(\"cpu:0\", R): Tessera rejects a device listed twice (ARCHITECTURE.md); the "
            "rows run over distinct devices"},
    {"K53", "the mesh over rep(\"cpu:0\", 8): Tessera rejects a device listed twice (ARCHITECTURE.md); the "
            "rows run over distinct devices"},
    {"K55", "the array and PyDataset adapters' own shuffled orders (NumPy's default_rng(epoch), TF's "
            "stateless_shuffle, Python's random.Random(epoch)): the C ABI reproduces torch's epoch-seeded order "
            "(tessera_interleave_samples_shuffled), whose agreement across processes the K55 row checks"},
    {"K63", "a Python generator under a multi-worker distribution: the C ABI has no dataset objects"},
    {"K71", "distribute_tensor with a JAX Format/Layout wrapper: Tessera holds no tensors, and the expected "
            "values are K70's"},
    {"K75", "Keras's JAX-backend wording (\"Cannot create sharding when device mesh is not set\"): the "
            "refusal passes (FAILED_PRECONDITION) with Tessera's message (\"Layout ... has no mesh\"); the "
            "wording is keras.src.backend.jax's, and the C ABI has no Keras-backend conversion to give it: "
            "a layout becomes an HloSharding or a sharding, whose messages are Tessera's"},
    {"K93", "torch's MASTER_ADDR/MASTER_PORT: Tessera does not reuse torch's store port, and one process "
            "needs no coordinator, so (\"127.0.0.1\", 1, 0) with MASTER_PORT=29507 and (None, 1, 0) with both "
            "preset resolve to no coordinator rather than 127.0.0.1:29507 / :29508"},
    {"K97", "Keras's torch-backend wording (\"... because the 'device_mesh' is not specified ...\"): the "
            "refusal passes with Tessera's message; the wording is keras.src.backend.torch's, and the C ABI "
            "has no Keras-backend conversion (torch placements are torch's own); the bypassed-validation half "
            "cannot happen (layouts are validated when created)"},
    {"K99", "distribute_data_input on tensors and DTensors: Tessera holds no tensors"},
    {"K115", "the forced plan past the last shard (\"If forced anyway: S 3, index 3\"): the C ABI refuses the "
             "job at construction, before any plan"},
    {"K127", "the tf.data type check before the single-process shortcut: the C ABI has no dataset objects"},
    {"K129", "Keras 3.5-3.14's replica-group index pid % (P // R): Tessera keeps HEAD's pid // (P // R) and "
             "has no mode for the interim bug"},
    {"K139", "the tuple shortcut against a list (TypeError): C has one layout type"},
    {"K141", "Keras stores the invalid pattern \"dense[\" and fails at lookup; Tessera refuses it at "
             "insertion (ARCHITECTURE.md)"},
    {"K145", "unknown keyword arguments and positional TypeError: Python calling conventions"},
    {"K147", "single process: Keras constructs ModelParallel(batch_dim_name=\"x\") and fails later; Tessera "
             "refuses it at construction in every job (decided in tests/conformance/keras_distribution_test.cc; "
             "ARCHITECTURE.md does not say it)"},
    {"K149", "Keras's message (\"Expect `mesh` to be an instance of `DeviceMesh`.\"): the C ABI's answer "
             "policy names the NULL argument"},
    {"K155", "\"cpu:99\" absent: JAX's backend fails (\"Device not found\"); Tessera plans meshes over devices "
             "that need not exist here, so it parses (decided in tests/conformance/keras_mesh_layout_test.cc; "
             "ARCHITECTURE.md does not say it)"},
#if !TESSERA_HAS_CLUSTER
    {"K1", "initialize's resolution needs the cluster API (built without it)"},
    {"K3", "initialize's resolution needs the cluster API (built without it)"},
    {"K67", "initialize's resolution needs the cluster API (built without it)"},
    {"K69", "initialize's resolution needs the cluster API (built without it)"},
    {"K93", "initialize's resolution needs the cluster API (built without it)"},
    {"K153", "initialize's resolution needs the cluster API (built without it)"},
#endif
};

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(num_data_shards_and_data_shard_id_match_keras),
      HARNESS_TEST(every_process_gets_the_planned_share_of_each_batch),
      HARNESS_TEST(every_process_reads_the_rows_keras_reads),
      HARNESS_TEST(k115_processes_not_a_multiple_of_replicas_are_refused),
      HARNESS_TEST(k49_unknown_batch_size_is_refused_before_the_replicate_shortcut),
      HARNESS_TEST(every_process_reads_the_interleaved_share_keras_reads),
      HARNESS_TEST(k59_set_epoch_reseeds_the_sampler),
      HARNESS_TEST(k55_every_process_shuffles_alike),
      HARNESS_TEST(device_mesh_errors_use_keras_messages),
      HARNESS_TEST(k131_shape_is_kept_as_given),
      HARNESS_TEST(k133_eight_devices_fill_a_shape_of_eight),
      HARNESS_TEST(k9_unknown_axis_is_refused_with_the_valid_names),
      HARNESS_TEST(k11_validation_waits_for_the_mesh),
      HARNESS_TEST(k135_mesh_cannot_be_overridden),
      HARNESS_TEST(k75_k97_meshless_layout_cannot_be_sharded),
      HARNESS_TEST(k97_invalid_axis_is_refused_at_creation),
      HARNESS_TEST(k17_devices_make_a_one_axis_batch_mesh),
      HARNESS_TEST(data_layout_puts_the_batch_axis_first),
      HARNESS_TEST(k21_k27_explicit_layout_is_returned_as_is),
      HARNESS_TEST(k23_tensor_layout_is_none),
      HARNESS_TEST(k77_data_parallel_replicates_every_weight),
      HARNESS_TEST(k149_non_mesh_is_refused),
      HARNESS_TEST(k151_empty_device_list_means_all_devices),
      HARNESS_TEST(k29_replicas_and_processes),
      HARNESS_TEST(k79_output_path_gets_its_rule),
      HARNESS_TEST(k89_empty_map_replicates_every_weight),
      HARNESS_TEST(k145_mesh_comes_from_the_layout_map),
      HARNESS_TEST(k147_unknown_batch_axis_is_refused_in_a_job),
      HARNESS_TEST(every_lookup_selects_the_keras_rule),
      HARNESS_TEST(k33_length_counts_the_rules),
      HARNESS_TEST(k137_failed_mesh_injection_inserts_nothing),
      HARNESS_TEST(k13_nested_scopes_restore_in_order),
      HARNESS_TEST(k157_scope_closed_on_an_error_path_restores_the_previous_value),
      HARNESS_TEST(k65_list_devices_sees_every_device),
      HARNESS_TEST(k73_mesh_over_the_default_devices),
      HARNESS_TEST(k81_listed_names_parse_back_to_the_same_device),
      HARNESS_TEST(k91_explicit_type_lists_type_colon_index),
      HARNESS_TEST(k95_one_device_mesh_keeps_type_and_axis_name),
      HARNESS_TEST(k155_device_without_an_id_is_id_zero),
#if TESSERA_HAS_CLUSTER
      HARNESS_TEST(initialize_resolves_the_triple_keras_passes_on),
      HARNESS_TEST(k153_non_integer_process_id_is_an_error),
#endif
  };
  conformance_print_pending("keras_cases.md", kPending, HARNESS_COUNT(kPending));
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
