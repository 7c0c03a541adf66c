/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Shard math: which slice of a global tensor each device of a mesh holds,
 * for a layout (with a mesh) and a global shape.
 *
 * Devices are named by their logical index: the row-major position in the
 * mesh (0 .. tessera_mesh_num_devices - 1), as XLA tile assignments do; use
 * tessera_mesh_device to get the device itself. An index range is half-open,
 * [start, stop), one per tensor dimension. An empty shard is [n, n), n being
 * the dimension's global size, in every mode.
 *
 * Per-device queries cost O(rank) and allocate nothing; only
 * tessera_sharding_index_map and the distinct-shard functions visit every
 * device.
 *
 * A sharding is immutable and safe to share across threads; it keeps its
 * layout's mesh alive.
 */
#ifndef TESSERA_SHARD_H_
#define TESSERA_SHARD_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"

TESSERA_BEGIN_DECLS

/** A layout applied to one global shape. Immutable; safe to share across threads. */
typedef struct tessera_sharding tessera_sharding;

/** How a dimension is cut into shards. */
typedef enum tessera_shard_mode_t {
  /**
   * Every sharded dimension divisible by its shard count, as JAX outside jit;
   * shard i of k is [i*n/k, (i+1)*n/k).
   */
  TESSERA_SHARD_MODE_STRICT = 0,
  /**
   * Uneven shards, a group of axes splitting the dimension once, as XLA
   * tiles: c = ceil(n/k), shard i is [min(i*c, n), min((i+1)*c, n)).
   */
  TESSERA_SHARD_MODE_CHUNK_FLAT = 1,
  /**
   * Uneven shards as PyTorch DTensor places them
   * (compute_local_shape_and_global_offset) with the placements
   * tessera/torch.h gives the layout. A group in mesh order is Shard
   * placements: axis by axis in the group's order, each axis re-chunks
   * (torch.chunk) what the previous axes left. A group against mesh order has
   * _StridedShard placements: for a size the group's shard count divides that
   * is the same nested chunking; for any other size the shards are PyTorch's
   * pieces (mesh (3, 2) axes a, b, layout (('b', 'a'),), shape (7,): devices
   * 0 to 5 hold [0, 2), [4, 5), [2, 4), [5, 6), [6, 7) and the empty
   * [7, 7)). Where PyTorch gives some device elements that are not one range
   * (the same layout, shape (13,): device 4 holds [6, 7) and [11, 12)),
   * tessera_sharding_create refuses in this mode (INVALID_ARGUMENT, naming
   * the device and its elements) rather than differ. The torch differential
   * test checks every case both ways.
   */
  TESSERA_SHARD_MODE_CHUNK_NESTED = 2,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_SHARD_MODE_FORCE_INT32 = 0x7fffffff
} tessera_shard_mode_t;

/**
 * Creates the sharding of `layout` for a tensor of global shape `dims`.
 *
 * @param layout    a layout with a mesh. Retained (with its mesh): the caller
 *                  may destroy its handle at any time.
 * @param dims      the global shape, num_dims entries >= 0; copied. May be
 *                  NULL when num_dims is 0 (a scalar).
 * @param num_dims  the tensor rank; must equal the layout's rank.
 * @param mode      a tessera_shard_mode_t value.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new sharding owned by the caller (tessera_sharding_destroy), or
 *         NULL: INVALID_ARGUMENT for a NULL layout, NULL dims with
 *         num_dims > 0, a rank mismatch, a negative dimension, an unknown
 *         mode, or (strict) a dimension not divisible by its shard count
 *         ("... implies that array axis 1 is partitioned 4 times, but the
 *         dimension size is 10 ..."), or (chunk-nested) PyTorch's elements
 *         for some device are not one range ("... PyTorch gives device 4
 *         (mesh coordinate (2, 0)) elements [6, 7) and [11, 12), not one
 *         range ..."); FAILED_PRECONDITION when the layout has no mesh. In
 *         chunk-nested mode a dimension whose group is a _StridedShard on a
 *         size its shard count k does not divide costs up to O(k) per shard
 *         index here, and a table of k ranges.
 * @since 0.2
 */
TESSERA_API tessera_sharding* tessera_sharding_create(const tessera_layout* layout,
                                                      const int64_t* dims, size_t num_dims,
                                                      tessera_shard_mode_t mode,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `sharding`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_sharding_destroy(tessera_sharding* sharding) TESSERA_NOEXCEPT;

/** Tensor rank of `sharding`; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_sharding_num_dims(const tessera_sharding* sharding,
                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of devices in the mesh of `sharding`; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_sharding_num_devices(const tessera_sharding* sharding,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The index range of every dimension held by device `device_index`, as
 * [start0, stop0, start1, stop1, ...]: 2 * rank entries, each stop one past
 * the last index (JAX's slice per dimension).
 *
 * @param sharding    the sharding.
 * @param device_index  a logical device index, below tessera_sharding_num_devices.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return 2 * rank; OUT_OF_RANGE for a device_index not below
 *         tessera_sharding_num_devices.
 * @since 0.2
 */
TESSERA_API size_t tessera_sharding_device_ranges(const tessera_sharding* sharding,
                                                  size_t device_index, int64_t* out,
                                                  size_t capacity,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The shape of the shard of device `device_index` (stop - start per
 * dimension).
 * @param sharding  the sharding.
 * @param device_index  a logical device index, below tessera_sharding_num_devices.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the rank; OUT_OF_RANGE for a bad device_index.
 * @since 0.2
 */
TESSERA_API size_t tessera_sharding_shard_shape(const tessera_sharding* sharding,
                                                size_t device_index, int64_t* out, size_t capacity,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The replica id of device `device_index`, as JAX's device_replica_id_map:
 * the number of devices before it, in mesh order, that hold identical index
 * ranges. Empty shards are identical whatever their shard index, so devices
 * holding [n, n) count each other.
 * @return true on success; INVALID_ARGUMENT for NULL arguments, OUT_OF_RANGE
 *         for a bad device_index.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_replica_id(const tessera_sharding* sharding,
                                             size_t device_index, size_t* out,
                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether device `device_index` belongs to process `process_index` (the
 * process index of the mesh's device).
 * @return true on success (the answer in *out); INVALID_ARGUMENT for NULL
 *         arguments, OUT_OF_RANGE for a bad device_index.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_device_in_process(const tessera_sharding* sharding,
                                                    size_t device_index, size_t process_index,
                                                    bool* out,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The addressable shards of process `process_index` (JAX's
 * addressable_devices_indices_map): the logical indices, in mesh order, of
 * the devices that process owns. Their ranges and replica ids come from
 * tessera_sharding_device_ranges and tessera_sharding_replica_id.
 *
 * @param sharding  the sharding.
 * @param process_index  the process.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the number of devices of the process.
 * @since 0.2
 */
TESSERA_API size_t tessera_sharding_addressable_devices(const tessera_sharding* sharding,
                                                        size_t process_index, size_t* out,
                                                        size_t capacity,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The whole device -> ranges map, flat: for device i and dimension d,
 * out[(i * rank + d) * 2] is the start and out[(i * rank + d) * 2 + 1] the
 * stop. Visits every device.
 *
 * @param sharding  the sharding.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return num_devices * rank * 2; INVALID_ARGUMENT when that overflows.
 * @since 0.2
 */
TESSERA_API size_t tessera_sharding_index_map(const tessera_sharding* sharding, int64_t* out,
                                              size_t capacity,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Number of distinct slices held by the mesh's devices. The distinct shards
 * are numbered 0.. in order of first appearance in mesh order; they are
 * computed once per sharding, on the first call to this function or to the
 * other tessera_sharding_distinct_shard_* functions (which visits every
 * device), and kept with the sharding.
 * @return true on success; INVALID_ARGUMENT for NULL arguments.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_num_distinct_shards(const tessera_sharding* sharding,
                                                      size_t* out,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The index ranges of distinct shard `shard`, as [start0, stop0, start1,
 * stop1, ...] (2 * rank entries).
 * @param sharding  the sharding.
 * @param shard     below tessera_sharding_num_distinct_shards.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return 2 * rank; OUT_OF_RANGE for a shard not below
 *         tessera_sharding_num_distinct_shards.
 * @since 0.2
 */
TESSERA_API size_t tessera_sharding_distinct_shard_ranges(const tessera_sharding* sharding,
                                                          size_t shard, int64_t* out,
                                                          size_t capacity,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many devices hold distinct shard `shard`.
 * @return true on success; INVALID_ARGUMENT for NULL arguments, OUT_OF_RANGE
 *         for a bad shard.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_distinct_shard_num_devices(const tessera_sharding* sharding,
                                                             size_t shard, size_t* out,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The logical indices of the devices holding distinct shard `shard`, in mesh
 * order; a device's position in this list is its replica id.
 * @param sharding  the sharding.
 * @param shard     below tessera_sharding_num_distinct_shards.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return tessera_sharding_distinct_shard_num_devices; OUT_OF_RANGE for a
 *         bad shard.
 * @since 0.2
 */
TESSERA_API size_t tessera_sharding_distinct_shard_devices(const tessera_sharding* sharding,
                                                           size_t shard, size_t* out,
                                                           size_t capacity,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The shape of the largest shard, ceil(n / k) per dimension (JAX's
 * shard_shape in strict mode).
 * @param sharding  the sharding.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the rank.
 * @since 0.2
 */
TESSERA_API size_t tessera_sharding_max_shard_shape(const tessera_sharding* sharding, int64_t* out,
                                                    size_t capacity,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether every device holds the whole tensor: no dimension is split over
 * axes whose sizes multiply to more than 1.
 * @return true on success (the answer in *out); INVALID_ARGUMENT for NULL
 *         arguments.
 * @since 0.2
 */
TESSERA_API bool tessera_sharding_is_fully_replicated(const tessera_sharding* sharding, bool* out,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_SHARD_H_ */
