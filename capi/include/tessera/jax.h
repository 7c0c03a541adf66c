/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * JAX text for layouts and meshes, both ways.
 *
 * A layout prints as jax's PartitionSpec repr: "P('x', None)",
 * "P(('x', 'y'),)", "P('z',)", "P()". Parsing accepts "P(" and
 * "PartitionSpec(", canonicalises entries as jax does (None, '', () and []
 * are None; ('x',) is 'x'; a list is a tuple; UNCONSTRAINED is None for a
 * layout) and rejects a nested tuple with jax's whole message ("A tuple
 * inside PartitionSpec cannot contain a nested tuple. Got partition: (('x',),)
 * and the nested tuple: ('x',)"). Syntax errors name the byte position and
 * the token.
 *
 * A mesh prints as jax's str of a Mesh without axis types,
 * "Mesh('x': 2, 'y': 4)" (Tessera meshes have none); parsing also accepts
 * jax's ", axis_types=(...)" suffix and the repr form
 * "Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), ...)". jax's text carries
 * no devices: they are given to the parser.
 */
#ifndef TESSERA_JAX_H_
#define TESSERA_JAX_H_

#include <stddef.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/**
 * The PartitionSpec text of `layout` ("P('x', None)"); the mesh is not needed.
 * @return a new text buffer owned by the caller (tessera_buffer_destroy), or
 *         NULL (INVALID_ARGUMENT for a NULL layout).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_partition_spec(const tessera_layout* layout,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout a PartitionSpec text gives a tensor of `rank` dimensions (the
 * spec is padded with None, as jax pads it).
 * @param text  NUL-terminated; read only during the call.
 * @param mesh  the mesh, or NULL for a layout given one later. Retained.
 * @param rank  the number of dimensions of the tensor.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy), or NULL:
 *         INVALID_ARGUMENT for a NULL text, a syntax error, and jax's errors
 *         in jax's order: an axis named more than once ("A single
 *         NamedSharding spec specification can map every mesh axis to at most
 *         one positional dimension, but P('y', 'x', 'y') has duplicate entries
 *         for `x`, `y`": every repeated axis, sorted), (with a mesh) an axis it
 *         lacks ("Resource axis: z of P('z',) is not found in mesh: ('x',
 *         'y')."), a spec longer than `rank` ("... is only valid for values of
 *         rank at least 1, but was applied to a value of rank 0. For scalars
 *         the PartitionSpec should be P()", the hint for rank 0 only).
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_from_partition_spec(const char* text,
                                                               const tessera_mesh* mesh,
                                                               size_t rank,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The jax Mesh text of `mesh` ("Mesh('x': 2, 'y': 4)").
 * @return a new text buffer owned by the caller, or NULL (INVALID_ARGUMENT for
 *         a NULL mesh).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_mesh_to_jax_text(const tessera_mesh* mesh,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * A mesh from jax Mesh text, over `devices` as tessera_mesh_create takes them
 * (strings such as "cpu:3", row-major; NULL for all devices of the default
 * type, and num_devices is then ignored).
 * @param text  NUL-terminated; read only during the call.
 * @param devices  the devices, row-major, as tessera_mesh_create takes them;
 *                 NULL for all devices of the default type.
 * @param num_devices  number of entries in `devices`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL:
 *         INVALID_ARGUMENT for a NULL text, a syntax error (position and
 *         token), and every error of tessera_mesh_create.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_from_jax_text(const char* text, const char* const* devices,
                                                     size_t num_devices,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_JAX_H_ */
