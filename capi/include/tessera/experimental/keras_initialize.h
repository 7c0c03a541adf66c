/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/keras_initialize.h
 * @brief Experimental: keras.distribution.initialize's argument resolution, as a pure query
 *
 * Why experimental: it reproduces what one Keras release (3.16 in
 * development) and its JAX backend make of initialize(job_addresses,
 * num_processes, process_id) and KERAS_DISTRIBUTION_*; Keras's torch backend
 * reads the same arguments differently, and either may change.
 *
 * Resolution: an argument not given (None) is read from its variable when
 * that is set: KERAS_DISTRIBUTION_JOB_ADDRESSES (the string as it is),
 * KERAS_DISTRIBUTION_NUM_PROCESSES and KERAS_DISTRIBUTION_PROCESS_ID
 * (through Python's int(): surrounding whitespace, a sign and underscores
 * between digits are allowed). An argument still None is valid: Keras
 * passes None on and JAX detects it (Cloud TPU, Slurm). JAX's backend then
 * splits job addresses that contain a comma; the coordinator address is the
 * first entry, or the string itself without a comma. Nothing is checked
 * beyond what Keras checks (a count below 1 or a negative id is JAX's to
 * refuse); tessera_detection_create, which starts Tessera's own job, adds
 * those checks.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_KERAS_INITIALIZE_H_
#define TESSERA_EXPERIMENTAL_KERAS_INITIALIZE_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/keras_initialize.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** The explicit arguments of keras.distribution.initialize. Mutable; one thread at a time. @since 0.3 */
typedef struct tessera_keras_initialize_options tessera_keras_initialize_options;
/** What Keras and its JAX backend make of the arguments. Immutable. @since 0.3 */
typedef struct tessera_keras_initialize tessera_keras_initialize;

/** New options: every argument None. NULL only without memory. @since 0.3 */
TESSERA_API tessera_keras_initialize_options* tessera_keras_initialize_options_create(void) TESSERA_NOEXCEPT;
/** Frees `options`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_keras_initialize_options_destroy(tessera_keras_initialize_options* options) TESSERA_NOEXCEPT;
/**
 * The job_addresses argument ("10.0.0.1:1234,10.0.0.2:2345", or one
 * address); copied; NULL makes it None again.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.3
 */
TESSERA_API bool tessera_keras_initialize_options_set_job_addresses(tessera_keras_initialize_options* options,
                                                                    const char* job_addresses,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * The num_processes argument, passed on as given.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.3
 */
TESSERA_API bool tessera_keras_initialize_options_set_num_processes(tessera_keras_initialize_options* options,
                                                                    int64_t num_processes,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * The process_id argument, passed on as given.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.3
 */
TESSERA_API bool tessera_keras_initialize_options_set_process_index(tessera_keras_initialize_options* options,
                                                                    int64_t process_index,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Resolves `options` (NULL: every argument None) against this process's
 * environment.
 * @return a new resolution owned by the caller
 *         (tessera_keras_initialize_destroy), or NULL: INVALID_ARGUMENT for a
 *         variable int() refuses ("invalid literal for int() with base 10:
 *         'abc' (environment variable KERAS_DISTRIBUTION_PROCESS_ID)") and
 *         for a comma list whose length differs from num_processes ("The
 *         provided job_addresses ['a:1', 'b:2'] has 2 jobs, but
 *         num_processes is 3").
 * @since 0.3
 */
TESSERA_API tessera_keras_initialize* tessera_keras_initialize_resolve(const tessera_keras_initialize_options* options,
                                                                       tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * tessera_keras_initialize_resolve over an explicit environment: `env` holds
 * `num_env` "NAME=VALUE" strings (a later entry replaces an earlier one).
 * @return as tessera_keras_initialize_resolve, plus INVALID_ARGUMENT for a
 *         NULL or malformed entry (naming "env[i]").
 * @since 0.3
 */
TESSERA_API tessera_keras_initialize* tessera_keras_initialize_resolve_from_env(
    const tessera_keras_initialize_options* options, const char* const* env, size_t num_env,
    tessera_error** out_error) TESSERA_NOEXCEPT;
/** Frees `resolution`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_keras_initialize_destroy(tessera_keras_initialize* resolution) TESSERA_NOEXCEPT;

/**
 * The job_addresses Keras passes on; lives as long as `resolution`.
 * @return the string, or NULL with no error when it is None; NULL on failure.
 * @since 0.3
 */
TESSERA_API const char* tessera_keras_initialize_job_addresses(const tessera_keras_initialize* resolution,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * How many job addresses there are: the comma list's length, 1 for an
 * address without a comma, 0 when job_addresses is None.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_keras_initialize_num_job_addresses(const tessera_keras_initialize* resolution,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Job address `index`; lives as long as `resolution`.
 * @return the address; NULL on failure (OUT_OF_RANGE for an index past the count).
 * @since 0.3
 */
TESSERA_API const char* tessera_keras_initialize_job_address(const tessera_keras_initialize* resolution,
                                                             size_t index, tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * The coordinator_address JAX's backend passes to jax.distributed.initialize:
 * the first job address; lives as long as `resolution`.
 * @return the address, or NULL with no error when job_addresses is None; NULL on failure.
 * @since 0.3
 */
TESSERA_API const char* tessera_keras_initialize_coordinator_address(const tessera_keras_initialize* resolution,
                                                                     tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Whether num_processes is known (given or read); when not, Keras passes
 * None and JAX detects it.
 * @return the answer; false on failure.
 * @since 0.3
 */
TESSERA_API bool tessera_keras_initialize_has_num_processes(const tessera_keras_initialize* resolution,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * num_processes as Keras passes it on (unchecked).
 * @return the value, 0 when it is None; 0 on failure.
 * @since 0.3
 */
TESSERA_API int64_t tessera_keras_initialize_num_processes(const tessera_keras_initialize* resolution,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Whether process_id is known (given or read).
 * @return the answer; false on failure.
 * @since 0.3
 */
TESSERA_API bool tessera_keras_initialize_has_process_index(const tessera_keras_initialize* resolution,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * process_id as Keras passes it on (unchecked).
 * @return the value, 0 when it is None; 0 on failure.
 * @since 0.3
 */
TESSERA_API int64_t tessera_keras_initialize_process_index(const tessera_keras_initialize* resolution,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_KERAS_INITIALIZE_H_ */
