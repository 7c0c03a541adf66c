/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * The resharding plan: the transfers that build every shard of a
 * destination sharding from the shards of a source sharding of the same
 * global shape (a checkpoint restored onto another mesh, a layout change).
 *
 * Each destination device's shard is covered exactly once by boxes, each cut
 * from one distinct source shard. A box comes from the destination device
 * itself when it holds that source shard (same id and platform: no copy),
 * else from a holder in the destination device's process, else from the
 * holder with the lowest replica id. Transfers are ordered by destination
 * device, then row-major by box. Devices are logical indices in their mesh
 * (tessera/shard.h).
 *
 * Cost: tessera_reshard_plan_create walks each mesh once and lists no
 * transfer (the plan is kept per dimension, as interval intersections); the
 * counts and totals are then read in O(1) and each transfer is computed when
 * asked, in O(log devices + rank).
 *
 * A plan is immutable and safe to share across threads; it does not keep the
 * shardings it was made from.
 */
#ifndef TESSERA_RESHARD_H_
#define TESSERA_RESHARD_H_

#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/shard.h"

TESSERA_BEGIN_DECLS

/** The transfers from one sharding to another. Immutable. */
typedef struct tessera_reshard_plan tessera_reshard_plan;

/** Where a transfer's bytes move. */
typedef enum tessera_transfer_locality_t {
  /** Source and destination are the same device: nothing to copy. */
  TESSERA_TRANSFER_SAME_DEVICE = 0,
  /** Two devices of the same process. */
  TESSERA_TRANSFER_SAME_PROCESS = 1,
  /** Between processes. */
  TESSERA_TRANSFER_CROSS_PROCESS = 2,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_TRANSFER_LOCALITY_FORCE_INT32 = 0x7fffffff
} tessera_transfer_locality_t;

/**
 * Plans the move from `source` to `destination`.
 *
 * @param source        the current sharding; not retained.
 * @param destination   the wanted sharding, of the same global shape (any
 *                      mesh, layout and mode); not retained.
 * @param element_size  bytes per element, 1 to 16 (for the byte counts).
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return a new plan owned by the caller (tessera_reshard_plan_destroy), or
 *         NULL: INVALID_ARGUMENT for a NULL sharding, global shapes that
 *         differ, an element_size outside 1..16, or byte counts that
 *         overflow int64.
 * @since 0.2
 */
TESSERA_API tessera_reshard_plan* tessera_reshard_plan_create(
    const tessera_sharding* source, const tessera_sharding* destination, size_t element_size,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `plan`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_reshard_plan_destroy(tessera_reshard_plan* plan) TESSERA_NOEXCEPT;

/** Number of transfers; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_reshard_plan_num_transfers(const tessera_reshard_plan* plan,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** Tensor rank (entries per transfer's ranges); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_reshard_plan_num_dims(const tessera_reshard_plan* plan,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Transfer `index`: which devices, how many bytes, and where they move.
 *
 * @param plan             the plan.
 * @param index            below tessera_reshard_plan_num_transfers.
 * @param out_source       receives the source device's logical index in the
 *                         source mesh.
 * @param out_destination  receives the destination device's logical index
 *                         in the destination mesh.
 * @param out_bytes        receives the bytes of the box.
 * @param out_locality     receives a tessera_transfer_locality_t.
 * @param out_error        receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for NULL arguments, OUT_OF_RANGE
 *         for an index not below tessera_reshard_plan_num_transfers.
 * @since 0.2
 */
TESSERA_API bool tessera_reshard_plan_transfer(const tessera_reshard_plan* plan, size_t index,
                                               size_t* out_source, size_t* out_destination,
                                               int64_t* out_bytes,
                                               tessera_transfer_locality_t* out_locality,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The global index ranges of transfer `index`'s box, as [start0, stop0,
 * start1, stop1, ...] (2 * rank entries, each range half-open).
 * @param plan      the plan.
 * @param index     below tessera_reshard_plan_num_transfers.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return 2 * rank; OUT_OF_RANGE for an index not below
 *         tessera_reshard_plan_num_transfers.
 * @since 0.2
 */
TESSERA_API size_t tessera_reshard_plan_transfer_ranges(const tessera_reshard_plan* plan,
                                                        size_t index, int64_t* out,
                                                        size_t capacity,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Total bytes of the transfers of one locality.
 * @return true on success; INVALID_ARGUMENT for NULL arguments or an unknown
 *         locality.
 * @since 0.2
 */
TESSERA_API bool tessera_reshard_plan_total_bytes(const tessera_reshard_plan* plan,
                                                  tessera_transfer_locality_t locality,
                                                  int64_t* out,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_RESHARD_H_ */
