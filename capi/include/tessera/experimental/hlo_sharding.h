/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/hlo_sharding.h
 * @brief Experimental: XLA HloSharding as a value of its own
 *
 * Why experimental: XLA's HloSharding grows (V3 named shardings, shard
 * groups, unreduced) and its normalisations change between XLA releases;
 * this value follows the XLA that jax 0.10.2 ships. Tuples and V3 named
 * shardings are not read yet.
 *
 * A tessera_hlo_sharding holds any single HloSharding XLA prints: {replicated},
 * {manual}, {unknown}, {unreduced}, {maximal device=N}, and tile assignments
 * in V1 (device list) or V2 (iota) form, tile assignments no layout produces
 * included, with " last_tile_dim_replicate" or " last_tile_dims={manual,
 * replicated}". Parsing normalises as XLA's parser does (replication groups
 * sorted, subgroups of one dropped, equal types merged, types reordered
 * REPLICATED last) and printing gives the text XLA prints, so parse and print
 * reproduce XLA's round trip. Tile assignments hold LOGICAL indices, as in
 * tessera/xla.h.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_HLO_SHARDING_H_
#define TESSERA_EXPERIMENTAL_HLO_SHARDING_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/hlo_sharding.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/** An XLA HloSharding (tuples and V3 named shardings aside). Immutable. @since 0.3 */
typedef struct tessera_hlo_sharding tessera_hlo_sharding;

/** The form of an HloSharding. @since 0.3 */
typedef enum tessera_hlo_sharding_kind_t {
  /** {replicated}: every device holds the whole tensor. */
  TESSERA_HLO_SHARDING_REPLICATED = 0,
  /** {maximal device=N}: one device holds the whole tensor. */
  TESSERA_HLO_SHARDING_MAXIMAL = 1,
  /** {devices=[...]...}: a tile assignment, perhaps with subgroups. */
  TESSERA_HLO_SHARDING_TILED = 2,
  /** {manual}: the program is already partitioned by hand. */
  TESSERA_HLO_SHARDING_MANUAL = 3,
  /** {unknown}: the partitioner decides. */
  TESSERA_HLO_SHARDING_UNKNOWN = 4,
  /** {unreduced}: every device holds a partial value still to be reduced. */
  TESSERA_HLO_SHARDING_UNREDUCED = 5,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_HLO_SHARDING_KIND_FORCE_INT32 = 0x7fffffff
} tessera_hlo_sharding_kind_t;

/**
 * Parses HloSharding text as XLA's parser does (see the file comment), and
 * validates it as XLA's Validate does.
 * @param text       NUL-terminated; read only during the call.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new sharding owned by the caller (tessera_hlo_sharding_destroy),
 *         or NULL: INVALID_ARGUMENT for a NULL text, a syntax error (byte
 *         position and token), a tuple or V3 named sharding, a tile
 *         assignment of one device (XLA's "non-maximal shardings must have
 *         more than one device assigned"), repeated or negative indices, and
 *         dims that do not multiply to the device count.
 * @since 0.3
 */
TESSERA_API tessera_hlo_sharding* tessera_hlo_sharding_parse(const char* text,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `sharding`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_hlo_sharding_destroy(tessera_hlo_sharding* sharding) TESSERA_NOEXCEPT;

/**
 * The sharding JAX builds for `layout` on a tensor of `rank` dimensions (as
 * tessera_layout_to_hlo_sharding, V2), with `manual_axes` as mesh axes of
 * type Manual (JAX inside shard_map): they form a MANUAL subgroup beside the
 * replicated one ("{devices=[2,1,2,2]<=[8] last_tile_dims={manual,
 * replicated}}"), or "{manual}" when nothing else is split.
 * @param layout           a layout with a mesh.
 * @param rank             the tensor rank, at least the layout's.
 * @param manual_axes      `num_manual_axes` mesh axis names, none used by the
 *                         layout; NULL with 0 for none. Copied.
 * @param num_manual_axes  number of entries in `manual_axes`.
 * @param out_error        receives a new error on failure (see error.h); may be NULL.
 * @return a new sharding owned by the caller, or NULL: INVALID_ARGUMENT for
 *         a NULL layout, rank below the layout's, a manual axis the mesh
 *         lacks or the layout shards a dimension over; FAILED_PRECONDITION
 *         for a layout without a mesh.
 * @since 0.3
 */
TESSERA_API tessera_hlo_sharding* tessera_hlo_sharding_from_layout(const tessera_layout* layout, size_t rank,
                                                                   const char* const* manual_axes,
                                                                   size_t num_manual_axes,
                                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The text XLA prints for `sharding` ("{devices=[4,2]<=[2,4]T(1,0)}",
 * "{devices=[1,2,2]<=[2,2]T(1,0) last_tile_dims={manual}}", "{manual}").
 * @return a new text buffer owned by the caller (tessera_buffer_destroy), or
 *         NULL (INVALID_ARGUMENT for a NULL sharding).
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_hlo_sharding_to_text(const tessera_hlo_sharding* sharding,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout on `mesh` that produces `sharding` for a tensor of `rank`
 * dimensions, as tessera_layout_from_hlo_sharding; when there is none the
 * error says why: "HloSharding {manual}: 'manual' sharding has no layout
 * equivalent ...", "'manual' subgroups have no layout ...", "HloSharding
 * {devices=[2,1,2]2,3,5,7} is not produced by any layout on ...: it covers
 * 4 devices; the mesh has 8".
 * @param sharding   the sharding.
 * @param mesh       the mesh the logical indices refer to. Retained by the result.
 * @param rank       the number of dimensions of the tensor.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy), or NULL
 *         (INVALID_ARGUMENT).
 * @since 0.3
 */
TESSERA_API tessera_layout* tessera_hlo_sharding_to_layout(const tessera_hlo_sharding* sharding,
                                                           const tessera_mesh* mesh, size_t rank,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The form of `sharding`.
 * @return the kind; TESSERA_HLO_SHARDING_REPLICATED with INVALID_ARGUMENT for
 *         a NULL sharding.
 * @since 0.3
 */
TESSERA_API tessera_hlo_sharding_kind_t tessera_hlo_sharding_kind(const tessera_hlo_sharding* sharding,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The device of a maximal sharding ({maximal device=N}).
 * @param sharding   the sharding.
 * @param out        receives N.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for NULL arguments,
 *         FAILED_PRECONDITION when the sharding is not maximal.
 * @since 0.3
 */
TESSERA_API bool tessera_hlo_sharding_maximal_device(const tessera_hlo_sharding* sharding, int64_t* out,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The tile assignment dimensions of a tiled sharding, the replication and
 * subgroup dims included (xla.OpSharding's tile_assignment_dimensions); none
 * for the other kinds.
 * @param sharding       the sharding.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                       (Vocabulary): NULL and 0 ask for the number.
 * @param out_error      receives a new error on failure (see error.h); may be NULL.
 * @return the number of dims (0 for a sharding that is not tiled).
 * @since 0.3
 */
TESSERA_API size_t tessera_hlo_sharding_tile_dims(const tessera_hlo_sharding* sharding, int64_t* out,
                                                  size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The logical index of every tile of a tiled sharding, row-major over the
 * tile dims (the V1 device list, also for an iota); none for the other kinds.
 * @param sharding       the sharding.
 * @param out, capacity  the array and its room, in tessera.h's one shape.
 * @param out_error      receives a new error on failure (see error.h); may be NULL.
 * @return the number of tiles (0 for a sharding that is not tiled).
 * @since 0.3
 */
TESSERA_API size_t tessera_hlo_sharding_tile_devices(const tessera_hlo_sharding* sharding, int64_t* out,
                                                     size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The types of the trailing subgroup dims (last_tile_dims) as
 * xla.OpSharding.Type values (REPLICATED 0, MAXIMAL 1, MANUAL 4, UNREDUCED
 * 6), in XLA's order; a last_tile_dim_replicate group is one REPLICATED entry.
 * @param sharding       the sharding.
 * @param out, capacity  the array and its room, in tessera.h's one shape.
 * @param out_error      receives a new error on failure (see error.h); may be NULL.
 * @return the number of subgroup dims (0 when there are none).
 * @since 0.3
 */
TESSERA_API size_t tessera_hlo_sharding_subgroup_types(const tessera_hlo_sharding* sharding, int64_t* out,
                                                       size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_HLO_SHARDING_H_ */
