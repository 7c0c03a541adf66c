/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/shardy.h
 * @brief Experimental: Shardy (MLIR sdy dialect) text for layouts and meshes
 *
 * Why experimental: Shardy's attribute syntax is young and still gains
 * forms (unreduced axes and their reduction kind, priorities, maximal
 * meshes arrived in 2024 and 2025); Tessera prints and reads it as Shardy's
 * printers do now and follows them as they move.
 *
 * A layout prints as Shardy prints a tensor sharding,
 * "#sdy.sharding<@mesh, [{"x", "y"}, {}]>" (a scalar: "[]"), every dim
 * closed and no replicated={...}, as JAX lowers a NamedSharding. A mesh
 * prints as its symbol, "sdy.mesh @mesh = <["x"=2, "y"=4]>", with
 * ", device_ids=[...]" when the devices' order is not iota. Shardy's device
 * ids are logical ids, positions in the executable's device assignment;
 * Tessera takes the assignment to be the mesh's devices sorted by global id,
 * so a mesh over devices 0..N-1 prints their ids, another the rank of each
 * id. Names are quoted and escaped as MLIR prints strings; a mesh name that
 * is not an MLIR bare identifier prints quoted (@"my mesh").
 *
 * Parsing reads what Shardy prints, with or without "\#sdy.sharding", the
 * mesh by reference or inline ("mesh<[...]>"). Open dims ("{?}",
 * "{"x", ?}", jax's UNCONSTRAINED) are read as their axes, as
 * tessera_layout_from_partition_spec reads UNCONSTRAINED as None; replicated
 * axes are checked and dropped. Errors name the byte position and the token:
 * syntax, sub-axes ("y":(2)2), unreduced axes, priorities ({"x"}p1), an axis
 * the mesh lacks or one used twice, a mesh without axes, and the checks of
 * Shardy's mesh verifier (its messages).
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_SHARDY_H_
#define TESSERA_EXPERIMENTAL_SHARDY_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/shardy.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stddef.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/**
 * The Shardy sharding text of `layout`
 * ("#sdy.sharding<@mesh, [{"x"}, {}]>"); the layout's mesh is not needed.
 * @param layout     the layout.
 * @param mesh_name  the mesh symbol the sharding refers to; NULL for "mesh",
 *                   the name JAX gives a module's mesh. Read only during the
 *                   call.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new text buffer owned by the caller (tessera_buffer_destroy), or
 *         NULL: INVALID_ARGUMENT for a NULL layout or an empty mesh name.
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_layout_to_shardy_text(const tessera_layout* layout, const char* mesh_name,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The Shardy mesh symbol of `mesh` ("sdy.mesh @mesh = <["x"=2, "y"=4]>",
 * with ", device_ids=[...]" when the order is not iota).
 * @param mesh       the mesh.
 * @param mesh_name  the symbol's name; NULL for "mesh". Read only during the
 *                   call.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new text buffer owned by the caller (tessera_buffer_destroy), or
 *         NULL: INVALID_ARGUMENT for a NULL mesh or an empty mesh name.
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_mesh_to_shardy_text(const tessera_mesh* mesh, const char* mesh_name,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * A mesh from Shardy mesh text ("sdy.mesh @mesh = <["x"=2, "y"=4]>"): the
 * device at row-major position k is the device assignment's entry
 * device_ids[k] (iota when the text has no device_ids).
 * @param text         NUL-terminated; read only during the call.
 * @param devices      the device assignment, as tessera_mesh_create takes
 *                     devices ("cpu:3"); NULL for all devices of the default
 *                     type, and num_devices is then ignored.
 * @param num_devices  number of entries in `devices`: the mesh's size.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL:
 *         INVALID_ARGUMENT for a NULL text, a syntax error, a mesh without
 *         axes, Shardy's mesh checks (an axis size below 1, an axis named
 *         twice, device ids that are not a permutation of iota or are iota),
 *         an assignment of another size than the mesh, and
 *         tessera_mesh_create's errors.
 * @since 0.3
 */
TESSERA_API tessera_mesh* tessera_mesh_from_shardy_text(const char* text, const char* const* devices,
                                                        size_t num_devices,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout of a Shardy sharding text on the mesh of a Shardy mesh text
 * (built as tessera_mesh_from_shardy_text builds it). The sharding must name
 * that mesh ("@mesh") or inline an equal one.
 * @param sharding_text  NUL-terminated; read only during the call.
 * @param mesh_text      NUL-terminated; read only during the call.
 * @param devices        the device assignment, as for
 *                       tessera_mesh_from_shardy_text; NULL for all devices
 *                       of the default type.
 * @param num_devices    number of entries in `devices`.
 * @param out_error      receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy), or NULL:
 *         INVALID_ARGUMENT for a NULL text, the errors of
 *         tessera_mesh_from_shardy_text, a syntax error, another mesh, a
 *         sub-axis, unreduced axes, a priority, an axis the mesh lacks or one
 *         used twice.
 * @since 0.3
 */
TESSERA_API tessera_layout* tessera_layout_from_shardy_text(const char* sharding_text, const char* mesh_text,
                                                            const char* const* devices, size_t num_devices,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_SHARDY_H_ */
