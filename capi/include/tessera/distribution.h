/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Distributions: data-parallel and model-parallel policies (Keras's
 * DataParallel and ModelParallel), the dataset plan, and the current
 * distribution (a process-wide default plus a per-thread scope stack).
 */
#ifndef TESSERA_DISTRIBUTION_H_
#define TESSERA_DISTRIBUTION_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/layout_map.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/** A distribution. Immutable; safe to share across threads. */
typedef struct tessera_distribution tessera_distribution;
/** Options for creating a distribution. Mutable; one thread at a time. */
typedef struct tessera_distribution_options tessera_distribution_options;
/** How this process reads a dataset. Immutable. */
typedef struct tessera_dataset_plan tessera_dataset_plan;

/** The policy a distribution follows. */
typedef enum tessera_distribution_kind_t {
  /** Keras's DataParallel: the batch is split over every device, variables are replicated. */
  TESSERA_DISTRIBUTION_DATA_PARALLEL = 0,
  /** Keras's ModelParallel: variables follow a layout map, the batch is split over one axis. */
  TESSERA_DISTRIBUTION_MODEL_PARALLEL = 1,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_DISTRIBUTION_KIND_FORCE_INT32 = 0x7fffffff
} tessera_distribution_kind_t;

/** What a process does with its dataset (tessera_dataset_plan_kind_t). */
typedef enum tessera_dataset_plan_kind_t {
  /** Leave the dataset as it is. */
  TESSERA_DATASET_PLAN_PASSTHROUGH = 0,
  /** Every process reads every global batch. */
  TESSERA_DATASET_PLAN_REPLICATE = 1,
  /** This process reads shard `shard_index` of `num_shards` of each batch. */
  TESSERA_DATASET_PLAN_SHARD = 2,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_DATASET_PLAN_KIND_FORCE_INT32 = 0x7fffffff
} tessera_dataset_plan_kind_t;

/** New options with defaults: auto-shard on, strict shape check, current dataset mode, process info from the runtime. @since 0.2 */
TESSERA_API tessera_distribution_options* tessera_distribution_options_create(void) TESSERA_NOEXCEPT;
/** Frees `options`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_distribution_options_destroy(tessera_distribution_options* options) TESSERA_NOEXCEPT;
/** Whether the dataset plan shards at all (Keras's auto_shard_dataset). @since 0.2 */
TESSERA_API bool tessera_distribution_options_set_auto_shard_dataset(
    tessera_distribution_options* options, bool auto_shard, tessera_error** out_error) TESSERA_NOEXCEPT;
/** How variable layouts are checked against variable shapes. @since 0.2 */
TESSERA_API bool tessera_distribution_options_set_shape_check(
    tessera_distribution_options* options, tessera_shape_check_t mode, tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Overrides the process count and index read from the runtime (for planning
 * a job from outside it, and for tests). INVALID_ARGUMENT unless
 * num_processes >= 1 and process_index < num_processes.
 * @since 0.2
 */
TESSERA_API bool tessera_distribution_options_set_process(tessera_distribution_options* options,
                                                          size_t num_processes,
                                                          size_t process_index,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DataParallel over `mesh`; the batch axis is its first axis. A mesh of rank
 * > 1 logs a warning and still uses the first axis.
 * @param mesh     the devices to spread the batch over. Retained.
 * @param options  may be NULL (defaults); copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new distribution owned by the caller (tessera_distribution_destroy), or NULL.
 * @since 0.2
 */
TESSERA_API tessera_distribution* tessera_distribution_create_data_parallel(
    const tessera_mesh* mesh, const tessera_distribution_options* options,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DataParallel over a 1-D mesh "batch" of `devices` (Keras's form, copied);
 * NULL or an empty list means all devices of the default type.
 * @return a new distribution owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_distribution* tessera_distribution_create_data_parallel_over_devices(
    const char* const* devices, size_t num_devices, const tessera_distribution_options* options,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * ModelParallel over the layout map's mesh; the map is copied (a snapshot).
 * @param layout_map      the variable layouts and, through them, the mesh.
 * @param batch_dim_name  the batch axis; NULL or "" for the mesh's first axis.
 * @param options         may be NULL (defaults); copied.
 * @param out_error       receives a new error on failure (see error.h); may be NULL.
 * @return a new distribution owned by the caller, or NULL: FAILED_PRECONDITION
 *         when the map has no mesh, or when the job has more processes than
 *         model replicas and they do not divide; INVALID_ARGUMENT for an
 *         unknown batch axis.
 * @since 0.2
 */
TESSERA_API tessera_distribution* tessera_distribution_create_model_parallel(
    const tessera_layout_map* layout_map, const char* batch_dim_name,
    const tessera_distribution_options* options, tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `distribution`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_distribution_destroy(tessera_distribution* distribution) TESSERA_NOEXCEPT;

/** Kind of `distribution`; DATA_PARALLEL (0) on failure. @since 0.2 */
TESSERA_API tessera_distribution_kind_t tessera_distribution_kind(
    const tessera_distribution* distribution, tessera_error** out_error) TESSERA_NOEXCEPT;
/** The mesh as a new reference; NULL on failure. @since 0.2 */
TESSERA_API tessera_mesh* tessera_distribution_mesh(const tessera_distribution* distribution,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;
/** The batch axis name; has the lifetime of `distribution`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_distribution_batch_dim_name(
    const tessera_distribution* distribution, tessera_error** out_error) TESSERA_NOEXCEPT;
/** P, read at creation; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_distribution_num_processes(const tessera_distribution* distribution,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;
/** This process's index, read at creation; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_distribution_process_index(const tessera_distribution* distribution,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;
/** R: every device (DataParallel) or the batch axis size (ModelParallel); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_distribution_num_model_replicas(
    const tessera_distribution* distribution, tessera_error** out_error) TESSERA_NOEXCEPT;
/** S = min(R, P); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_distribution_num_data_shards(const tessera_distribution* distribution,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;
/** pid if R >= P, else pid / (P / R); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_distribution_data_shard_id(const tessera_distribution* distribution,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout of an input batch: first dimension on the batch axis, the rest
 * replicated.
 * @return a new layout owned by the caller, or NULL (INVALID_ARGUMENT for
 *         rank 0 or a negative dimension).
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_distribution_data_layout(
    const tessera_distribution* distribution, const int64_t* dims, size_t num_dims,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout of a variable: `explicit_layout` when not NULL, else the layout
 * map's rule for `path` (ModelParallel), else replicated; then checked
 * against the shape with the distribution's shape-check mode.
 * @return a new layout owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_distribution_variable_layout(
    const tessera_distribution* distribution, const char* path, const int64_t* dims,
    size_t num_dims, const tessera_layout* explicit_layout, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout for an intermediate tensor at `path`: the layout map's rule
 * (ModelParallel). NULL with no error when there is none.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_distribution_tensor_layout(
    const tessera_distribution* distribution, const char* path, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How this process reads a dataset of `global_batch_size` rows per step;
 * SIZE_MAX means unknown, as an unbatched dataset
 * (TESSERA_DATASET_UNKNOWN_BATCH_NUM_EXAMPLES in
 * tessera/experimental/keras_data.h).
 * @return a new plan owned by the caller (tessera_dataset_plan_destroy), or
 *         NULL (INVALID_ARGUMENT: unknown batch size, batch not divisible by
 *         the number of shards, Keras 3.0 mesh incompatible with the local
 *         device count).
 * @since 0.2
 */
TESSERA_API tessera_dataset_plan* tessera_distribution_plan_dataset(
    const tessera_distribution* distribution, size_t global_batch_size,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Keras's repr: "<DataParallel device_mesh=<DeviceMesh ...>>".
 * @return a new buffer owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_distribution_to_string(
    const tessera_distribution* distribution, tessera_error** out_error) TESSERA_NOEXCEPT;

/** Kind of plan; PASSTHROUGH (0) on failure. @since 0.2 */
TESSERA_API tessera_dataset_plan_kind_t tessera_dataset_plan_kind(const tessera_dataset_plan* plan,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;
/** The global batch size planned for; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dataset_plan_global_batch_num_examples(const tessera_dataset_plan* plan,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;
/** Rows this process reads per step; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dataset_plan_per_process_batch_num_examples(const tessera_dataset_plan* plan, tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of shards (1 unless SHARD); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dataset_plan_num_shards(const tessera_dataset_plan* plan,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;
/** This process's shard; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dataset_plan_shard_index(const tessera_dataset_plan* plan,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;
/** Entries of the Keras 3.0 DataParallel rebatch sizes (0 otherwise, and on failure). @since 0.2 */
TESSERA_API size_t tessera_dataset_plan_num_rebatches(const tessera_dataset_plan* plan,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Rebatch size `index` (TF's batch_sizes_for_worker order).
 * @return true on success; OUT_OF_RANGE when index >= the count.
 * @since 0.2
 */
TESSERA_API bool tessera_dataset_plan_rebatch_num_examples(const tessera_dataset_plan* plan, size_t index,
                                                   size_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;
/** Frees `plan`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_dataset_plan_destroy(tessera_dataset_plan* plan) TESSERA_NOEXCEPT;

/**
 * The distribution in effect on this thread: the innermost open scope, else
 * the process-wide default.
 * @return a new reference owned by the caller, or NULL when there is none.
 * @since 0.2
 */
TESSERA_API tessera_distribution* tessera_distribution_current(void) TESSERA_NOEXCEPT;

/** Sets the process-wide default; NULL clears it. Retained. Thread-safe. @since 0.2 */
TESSERA_API void tessera_distribution_set_default(const tessera_distribution* distribution) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_DISTRIBUTION_H_ */
