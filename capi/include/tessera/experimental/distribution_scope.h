/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/distribution_scope.h
 * @brief Experimental: thread-local distribution scopes and the Keras 3.0 dataset mode
 *
 * Why experimental: a scope is per thread, which Go's goroutines, the JVM's
 * virtual threads and .NET's async continuations do not map onto one way
 * yet; the Keras 3.0 dataset mode reproduces the arithmetic of one Keras
 * release (3.0's data adapters), which later Keras releases replaced.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_DISTRIBUTION_SCOPE_H_
#define TESSERA_EXPERIMENTAL_DISTRIBUTION_SCOPE_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/distribution_scope.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include "tessera/distribution.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** Which Keras arithmetic the dataset plan follows. */
typedef enum tessera_dataset_mode_t {
  /** Current Keras: num_data_shards = min(R, P), contiguous replica groups. */
  TESSERA_DATASET_MODE_CURRENT = 0,
  /**
   * Keras 3.0-3.4 as it runs on TensorFlow (checked against keras 3.3.3 on
   * TensorFlow 2.21): processes shard DataParallel, the local device count
   * rule shards ModelParallel, and TF's auto-shard rewrite cuts each global
   * batch into one slice per shard of ceil(G / shards) rows, so with a batch
   * the shards do not divide the last ones read fewer rows or none (batch 9
   * over 4 processes: 3, 3, 3, 0). No process/replica divisibility check.
   * Known flaw, kept on purpose: mesh (4, 2) over 2 processes gives one
   * shard, so every process reads the whole global batch (fixed in Keras 3.5).
   */
  TESSERA_DATASET_MODE_KERAS_3_0 = 1,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_DATASET_MODE_FORCE_INT32 = 0x7fffffff
} tessera_dataset_mode_t;

/**
 * Opens a scope on this thread in which `distribution` is current (Keras's
 * `with distribution.scope():`). Retained until the scope is popped.
 * @return true on success; INVALID_ARGUMENT when `distribution` is NULL.
 * @since 0.2
 */
TESSERA_API bool tessera_distribution_scope_push(const tessera_distribution* distribution,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Closes this thread's innermost scope.
 * @return true on success; FAILED_PRECONDITION when no scope is open.
 * @since 0.2
 */
TESSERA_API bool tessera_distribution_scope_pop(tessera_error** out_error) TESSERA_NOEXCEPT;

/** Which dataset arithmetic to follow. @since 0.2 */
TESSERA_API bool tessera_distribution_options_set_dataset_mode(
    tessera_distribution_options* options, tessera_dataset_mode_t mode, tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_DISTRIBUTION_SCOPE_H_ */
