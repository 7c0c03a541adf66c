/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * XLA shardings for layouts: the HloSharding text XLA prints and the
 * OpSharding protobuf bytes (xla_data.proto field numbers), and back.
 *
 * The text is exactly what JAX's NamedSharding builds and XLA prints, its
 * normalisations included: V2 (iota) "{devices=[4,2]<=[2,4]T(1,0)}" or V1
 * (device list) "{devices=[4,2]0,4,1,5,2,6,3,7}", " last_tile_dim_replicate"
 * when unused mesh axes replicate, "{replicated}" when nothing is split.
 * Size-1 mesh axes are dropped, so they never come back from a parse.
 *
 * Tile assignments hold LOGICAL indices, positions in the mesh's row-major
 * device list; tessera_xla_device_order gives the device id behind each.
 *
 * Parsing accepts {replicated}, {maximal device=0} on a one-device mesh
 * (replicated; any other maximal sharding is an error), and tiled shardings
 * that some layout on the mesh produces (replication groups compared as
 * sets). Manual, unknown and unreduced shardings, tuples, V3 named shardings
 * and manual subgroups are INVALID_ARGUMENT: no layout expresses them. Text
 * errors name the byte position and the token ("HloSharding text: at
 * position 12: expected ']', got 'x'").
 */
#ifndef TESSERA_XLA_H_
#define TESSERA_XLA_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/**
 * The HloSharding text of `layout` for a tensor of `rank` dimensions.
 *
 * @param layout  a layout with a mesh.
 * @param rank    the tensor rank, at least the layout's (shorter layouts are
 *                padded with replicated dimensions, as JAX pads a spec).
 * @param v2      true for the iota form XLA prints, false for the device list.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new text buffer owned by the caller (tessera_buffer_destroy), or
 *         NULL: INVALID_ARGUMENT for a NULL layout or rank below the layout's,
 *         FAILED_PRECONDITION when the layout has no mesh.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_hlo_sharding(const tessera_layout* layout,
                                                           size_t rank, bool v2,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout on `mesh` whose HloSharding is `text`, for a tensor of `rank`
 * dimensions (a tiled text must have exactly `rank` data dims;
 * "{replicated}" fits any rank).
 *
 * @param text  NUL-terminated HloSharding text; read only during the call.
 * @param mesh  the mesh the logical indices refer to. Retained by the result.
 * @param rank  the number of dimensions of the tensor.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy), or NULL:
 *         INVALID_ARGUMENT for NULL arguments, a syntax error (position and
 *         token), a sharding over another device count or rank, or one that
 *         no layout on `mesh` produces (the message names it).
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_from_hlo_sharding(const char* text,
                                                             const tessera_mesh* mesh, size_t rank,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The serialized xla.OpSharding message of `layout` (as XLA's ToProto: iota
 * fields for v2, tile_assignment_devices otherwise; REPLICATED is the empty
 * message). Arguments and errors as tessera_layout_to_hlo_sharding.
 * @return a new buffer of bytes owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_op_sharding(const tessera_layout* layout, size_t rank,
                                                          bool v2,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout on `mesh` whose OpSharding is the `size` bytes at `bytes` (read
 * only during the call; NULL allowed when size is 0).
 * @return a new layout owned by the caller, or NULL: INVALID_ARGUMENT for
 *         bytes that are not an OpSharding message, fields Tessera does not
 *         read (tuples, metadata, shard groups, named shardings), an invalid
 *         combination of fields (both a device list and an iota, ...), and
 *         every error of tessera_layout_from_hlo_sharding.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_from_op_sharding(const void* bytes, size_t size,
                                                            const tessera_mesh* mesh, size_t rank,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The device order of `mesh`: out[i] is the id of the device at logical index
 * i (the mesh's devices, row-major), the device assignment that goes with
 * every tile assignment above.
 * @param mesh      the mesh.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return tessera_mesh_num_devices(mesh).
 * @since 0.2
 */
TESSERA_API size_t tessera_xla_device_order(const tessera_mesh* mesh, int64_t* out, size_t capacity,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_XLA_H_ */
