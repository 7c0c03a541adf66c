/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Host scatter and gather: between one row-major global buffer and one
 * row-major buffer per device holding that device's shard.
 *
 * Shard buffers are passed as an array of num_devices pointers in mesh order
 * (logical device index, as tessera/shard.h). Device i's buffer holds its
 * shard row-major, shaped as tessera_sharding_shard_shape(i): its size in
 * bytes is element_size times the product of that shape. The library never
 * keeps a buffer pointer beyond the call.
 *
 * A contiguous shard is one memcpy; any other is one memcpy per row of the
 * dimensions left after merging the trailing dimensions that are complete.
 * With tessera_copy_options_set_threads the copies are spread over threads,
 * shard by shard and, for a large shard, by rows; the call returns when
 * every thread is done.
 */
#ifndef TESSERA_COPY_H_
#define TESSERA_COPY_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/shard.h"

TESSERA_BEGIN_DECLS

/**
 * Options of tessera_sharding_scatter and tessera_sharding_gather. Defaults: the calling
 * thread only, no replica check, every process. An options object must be
 * used by one thread at a time; it may be destroyed as soon as the copy
 * that used it returns.
 */
typedef struct tessera_copy_options tessera_copy_options;

/** A new options object with the defaults, owned by the caller; NULL without memory. @since 0.2 */
TESSERA_API tessera_copy_options* tessera_copy_options_create(void) TESSERA_NOEXCEPT;

/** Frees `options`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_copy_options_destroy(tessera_copy_options* options) TESSERA_NOEXCEPT;

/**
 * Spreads the copies over up to `threads` threads (0 and 1: the calling
 * thread only). The library uses fewer for small copies (about one per MiB)
 * and never more than 64.
 * @return true on success; INVALID_ARGUMENT for a NULL options.
 * @since 0.2
 */
TESSERA_API bool tessera_copy_options_set_threads(tessera_copy_options* options, size_t threads,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Gather only: before writing anything, compare every replica of each shard
 * with the replica it reads (replica 0, or the first one in the process) and
 * fail with DATA_LOSS naming both devices and the first differing byte
 * offset. Every holder then needs a buffer.
 * @return true on success; INVALID_ARGUMENT for a NULL options.
 * @since 0.2
 */
TESSERA_API bool tessera_copy_options_set_verify_replicas(tessera_copy_options* options,
                                                          bool verify,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Only the devices of process `process_index` take part: scatter fills only
 * their buffers, gather reads only them (regions they do not hold are left
 * as they are in the global buffer). Other devices' pointers may be NULL.
 * TESSERA_NO_INDEX (the default) means every process.
 * @return true on success; INVALID_ARGUMENT for a NULL options.
 * @since 0.2
 */
TESSERA_API bool tessera_copy_options_set_process_index(tessera_copy_options* options,
                                                        size_t process_index,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Copies `global` into each device's shard buffer.
 *
 * @param sharding      the layout and global shape.
 * @param global        the tensor, row-major; read only. May be NULL when
 *                      global_size is 0.
 * @param global_size   bytes of `global`: must be element_size times the
 *                      number of elements.
 * @param element_size  bytes per element, 1 to 16.
 * @param shards        num_shards buffer pointers in mesh order; a device
 *                      whose shard is empty, or outside options' process,
 *                      may have NULL.
 * @param num_shards    must be tessera_sharding_num_devices(sharding).
 * @param options       NULL for the defaults.
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return true on success. INVALID_ARGUMENT (nothing written) for a NULL
 *         sharding or shards, a NULL global with global_size > 0, an
 *         element_size outside 1..16, a global_size other than the expected
 *         one (the message gives it), a num_shards other than the device
 *         count, a NULL buffer for a device that needs one (the message
 *         names the device index), or a size that overflows.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_scatter(const tessera_sharding* sharding, const void* global,
                                 size_t global_size, size_t element_size, void* const* shards,
                                 size_t num_shards, const tessera_copy_options* options,
                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Assembles `global` from the shard buffers: each distinct shard is read
 * once, from its replica-0 device (with a process index: its first holder in
 * that process).
 *
 * @param sharding  the layout and global shape, as tessera_sharding_scatter.
 * @param shards    num_shards buffer pointers in mesh order; only the
 *                  devices read need one (every holder with
 *                  verify_replicas). Read only.
 * @param global    receives the tensor, row-major (global_size bytes).
 * @param num_shards  must be tessera_sharding_num_devices(sharding).
 * @param element_size  bytes per element, 1 to 16.
 * @param global_size  bytes of `global`, as tessera_sharding_scatter.
 * @param options   NULL for the defaults.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; errors as tessera_sharding_scatter, plus DATA_LOSS
 *         (nothing written) when verify_replicas finds replicas that differ.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_gather(const tessera_sharding* sharding, const void* const* shards,
                                size_t num_shards, size_t element_size, void* global,
                                size_t global_size, const tessera_copy_options* options,
                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes of device `device_index`'s shard buffer: element_size times the
 * product of its shard shape.
 * @return true on success; INVALID_ARGUMENT for NULL arguments, an
 *         element_size outside 1..16 or an overflow; OUT_OF_RANGE for a bad
 *         device_index.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_shard_size(const tessera_sharding* sharding, size_t device_index,
                                             size_t element_size, size_t* out,
                                             tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_COPY_H_ */
