/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/keras_data.h
 * @brief Experimental: Keras's interleave sharding of arrays, PyDatasets and samplers, and a distribution's settings
 *
 * Why experimental: the interleave split reproduces Keras's data adapters
 * as they are at Keras HEAD (3.16 in development), which released Keras
 * does not have yet; a release may still change them.
 *
 * Interleave sharding (Keras's ArrayDataAdapter, PyDatasetAdapter and
 * DistributedBatchSampler, and torch's DistributedSampler as Keras wraps a
 * map-style dataset) keeps the user's batch size per process and deals out
 * whole batches, or single samples, round-robin: shard i of S reads batches
 * i, i+S, i+2S, ... The tf.data path splits every global batch instead
 * (tessera_distribution_plan_dataset).
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_KERAS_DATA_H_
#define TESSERA_EXPERIMENTAL_KERAS_DATA_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/keras_data.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/distribution.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/experimental/distribution_scope.h"
#include "tessera/layout.h"
#include "tessera/layout_map.h"

TESSERA_BEGIN_DECLS

/**
 * The global_batch_size of tessera_distribution_plan_dataset (and
 * tessera_distribution_plan_dataset_for_process) that means "unknown", as an
 * unbatched or dynamically batched dataset: SIZE_MAX. With more than one
 * process and auto-sharding on, such a plan fails with Keras's "The batch
 * size of the input dataset is unknown" (INVALID_ARGUMENT).
 * @since 0.3
 */
#define TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES ((size_t)-1)

/**
 * The global batch positions shard `shard_index` of `num_shards` reads out
 * of `num_batches` batches, in order: shard_index, shard_index + num_shards,
 * ... below num_batches, or below (num_batches / num_shards) * num_shards
 * with `drop_last` (DistributedBatchSampler's option; the array and PyDataset
 * adapters never drop). Output array (tessera.h, Vocabulary).
 * @return the number of positions; 0 on failure: INVALID_ARGUMENT with
 *         Keras's "num_data_shards must be >= 1. Received: 0" or
 *         "data_shard_id must be in [0, 2]. Received: 3".
 * @since 0.3
 */
TESSERA_API size_t tessera_interleave_batches(size_t num_batches, size_t num_shards, size_t shard_index,
                                              bool drop_last, size_t* out, size_t capacity,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The item indices shard `shard_index` of `num_shards` reads when
 * `num_items` items come in batches of `batch_num_examples` (the last one
 * partial: ceil(num_items / batch_num_examples) batches) and whole batches
 * are interleaved as tessera_interleave_batches deals them. Keras's
 * ArrayDataAdapter without shuffling. Output array.
 * @return the number of indices; 0 on failure: the errors of
 *         tessera_interleave_batches, and INVALID_ARGUMENT for a batch of 0.
 * @since 0.3
 */
TESSERA_API size_t tessera_interleave_batch_items(size_t num_items, size_t batch_num_examples, size_t num_shards,
                                                  size_t shard_index, bool drop_last, size_t* out, size_t capacity,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The sample indices rank `shard_index` of `num_shards` reads from a
 * map-style dataset of `num_items` samples, as torch's DistributedSampler
 * (unshuffled) gives them: ceil(num_items / num_shards) samples, the index
 * list padded by repeating it from its start (so a sample may come twice),
 * or floor(num_items / num_shards) with `drop_last`. Keras's filter of an
 * iterable dataset (i % S == id) is tessera_interleave_batches over the
 * samples instead. Output array.
 * @return the number of indices; 0 on failure: INVALID_ARGUMENT with
 *         torch's "Invalid rank 3, rank should be in the interval [0, 2]"
 *         for a shard_index not below num_shards, 0 shards included
 *         ("... [0, -1]": torch does not check the count, and Keras passes
 *         its shard on unchecked).
 * @since 0.3
 */
TESSERA_API size_t tessera_interleave_samples(size_t num_items, size_t num_shards, size_t shard_index,
                                              bool drop_last, size_t* out, size_t capacity,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The sample indices rank `shard_index` of `num_shards` reads as torch's
 * shuffled DistributedSampler(shuffle=True, seed=`seed`) gives them after
 * set_epoch(`epoch`): torch.randperm(num_items) from a torch.Generator
 * seeded with seed + epoch, padded or cut and dealt round-robin as
 * tessera_interleave_samples deals range(num_items). torch 2.15's CPU
 * generator, bit for bit (MT19937 from the seed's low 32 bits). So every
 * process of one seed and epoch reads from one permutation, and together
 * they read every sample; another epoch is another order. Output array.
 *
 * seed + epoch wraps modulo 2^64, which is how torch's manual_seed reads a
 * negative Python sum (its two's complement: pass seed -1 as UINT64_MAX).
 * A Python sum of 2^64 or more, which torch refuses ("Overflow when
 * unpacking long long"), cannot be told from a negative one here and gets
 * the wrapped sum's order.
 * @return the number of indices (as tessera_interleave_samples); 0 on
 *         failure: its errors, and RESOURCE_EXHAUSTED when the permutation
 *         of num_items does not fit in memory (the count alone, out NULL
 *         with capacity 0, builds nothing).
 * @since 0.3
 */
TESSERA_API size_t tessera_interleave_samples_shuffled(size_t num_items, size_t num_shards, size_t shard_index,
                                                       bool drop_last, uint64_t seed, uint64_t epoch, size_t* out,
                                                       size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The interleave shard count this process uses for arrays and PyDatasets:
 * num_data_shards when the distribution auto-shards in the current dataset
 * mode, else 1 (Keras 3.0 sharded only tf.data).
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_distribution_interleave_num_shards(const tessera_distribution* distribution,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The interleave shard this process reads: data_shard_id when the
 * distribution auto-shards in the current dataset mode, else 0.
 * @return the index; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_distribution_interleave_shard_index(const tessera_distribution* distribution,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The interleave shard count the plan was made with (arrays and PyDatasets):
 * num_data_shards when auto-sharding in the current dataset mode, else 1
 * (Keras 3.0 sharded only tf.data). Pass it, with
 * tessera_dataset_plan_interleave_shard_index, to tessera_interleave_batches.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_dataset_plan_interleave_num_shards(const tessera_dataset_plan* plan,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The interleave shard the planned process reads; 0 unless auto-sharding in
 * the current dataset mode.
 * @return the index; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_dataset_plan_interleave_shard_index(const tessera_dataset_plan* plan,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How process `process_index` of the distribution's job reads the dataset:
 * the plan that process's tessera_distribution_plan_dataset returns, without
 * building its distribution.
 * @param distribution       the job's distribution.
 * @param global_batch_size  rows per step; TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES for unknown.
 * @param process_index      the process to plan for, 0 .. num_processes - 1.
 * @param out_error          receives a new error on failure (see error.h); may be NULL.
 * @return a new plan owned by the caller, or NULL: INVALID_ARGUMENT when
 *         process_index >= num_processes, and the errors of
 *         tessera_distribution_plan_dataset.
 * @since 0.3
 */
TESSERA_API tessera_dataset_plan* tessera_distribution_plan_dataset_for_process(
    const tessera_distribution* distribution, size_t global_batch_size, size_t process_index,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether the distribution auto-shards datasets (Keras's auto_shard_dataset).
 * @return the setting; false on failure.
 * @since 0.3
 */
TESSERA_API bool tessera_distribution_auto_shard_dataset(const tessera_distribution* distribution,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How variable layouts are checked against variable shapes.
 * @return the mode; TESSERA_SHAPE_CHECK_STRICT (0) on failure.
 * @since 0.3
 */
TESSERA_API tessera_shape_check_t tessera_distribution_shape_check(const tessera_distribution* distribution,
                                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Which Keras dataset arithmetic the distribution follows.
 * @return the mode; TESSERA_DATASET_MODE_CURRENT (0) on failure.
 * @since 0.3
 */
TESSERA_API tessera_dataset_mode_t tessera_distribution_dataset_mode(const tessera_distribution* distribution,
                                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout map of a ModelParallel distribution: a new map with the rules
 * the distribution snapshotted at creation (changing it does not change the
 * distribution).
 * @return a new map owned by the caller (tessera_layout_map_destroy); NULL
 *         with no error for a DataParallel distribution; NULL on failure.
 * @since 0.3
 */
TESSERA_API tessera_layout_map* tessera_distribution_layout_map(const tessera_distribution* distribution,
                                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether input batches are split along the batch axis: the batch axis
 * spans more than one device (num_model_replicas > 1). A DataParallel over
 * one device, or a ModelParallel whose batch axis has extent 1, gives every
 * device the whole batch.
 * @return the answer; false on failure.
 * @since 0.3
 */
TESSERA_API bool tessera_distribution_is_batch_parallel(const tessera_distribution* distribution,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether `a` and `b` are handles of the same distribution object (Keras's
 * `is`): tessera_distribution_current inside a scope opened with a
 * distribution is the same as that distribution; two distributions built
 * alike are not (compare tessera_distribution_to_string for that).
 * @return the answer; false on failure (INVALID_ARGUMENT for a NULL handle).
 * @since 0.3
 */
TESSERA_API bool tessera_distribution_is_same(const tessera_distribution* a, const tessera_distribution* b,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_KERAS_DATA_H_ */
