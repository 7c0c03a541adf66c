/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * PyTorch DTensor placements for layouts, both ways: one placement per MESH
 * dim, "[Shard(dim=0), Replicate()]".
 *
 * Mesh dim m is Replicate() when the layout does not use its axis, and
 * Shard(dim=d) when dimension d is split over it, or _StridedShard(dim=d,
 * sf=sf) when d's group of axes runs against mesh order (sf = the product of
 * the group's axes before m in the group and after it in the mesh). The text
 * is torch 2.15's repr. Parsing also accepts Shard(0), S(0), R,
 * _StridedShard(0, split_factor=2) (older torch's spelling),
 * _StridedShard(dim=0, sf=2) and _S(0, 2), a list or a tuple, and negative
 * dims (from the end); Partial placements are rejected. Syntax errors name
 * the byte position and the token.
 *
 * Which elements each device holds: TESSERA_SHARD_MODE_CHUNK_NESTED is
 * PyTorch's compute_local_shape_and_global_offset for these placements,
 * uneven sizes included, _StridedShard too (mesh (3, 2) axes a, b, layout
 * (('b', 'a'),), shape (7,): devices 0 to 5 hold [0, 2), [4, 5), [2, 4),
 * [5, 6), [6, 7) and nothing). Where PyTorch gives a device elements that are
 * not one range (the same layout, shape (13,): device 4 holds 6 and 11),
 * tessera_sharding_create refuses in that mode rather than differ (see
 * tessera/shard.h).
 */
#ifndef TESSERA_TORCH_H_
#define TESSERA_TORCH_H_

#include <stddef.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/**
 * The placements of `layout`, one per dim of its mesh.
 * @return a new text buffer owned by the caller (tessera_buffer_destroy), or
 *         NULL: INVALID_ARGUMENT for a NULL layout, FAILED_PRECONDITION when
 *         it has no mesh.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_torch_placements(const tessera_layout* layout,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout on `mesh` that placements text gives a tensor of `rank` dims.
 * @param text  NUL-terminated; read only during the call.
 * @param mesh  the DeviceMesh the placements refer to. Retained by the result.
 * @param rank  the number of dimensions of the tensor.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy), or NULL:
 *         INVALID_ARGUMENT for NULL arguments, a syntax error, a placement
 *         count other than the mesh rank, a dim outside the rank, or split
 *         factors that no order of a group's axes produces.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_from_torch_placements(const char* text,
                                                                 const tessera_mesh* mesh,
                                                                 size_t rank,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_TORCH_H_ */
