/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Tessera's own protobuf (package tessera.v1; the .proto files are installed
 * under share/tessera/proto) and its JSON form (protobuf's JSON mapping) for
 * meshes, layouts, layout maps and distributions.
 *
 * Round trips are exact: bytes or JSON written here, read back and written
 * again, are identical. Reading rebuilds the object through its normal
 * constructor, so every rule of tessera_mesh_create, tessera_layout_create,
 * tessera_layout_map_set and the distribution constructors holds; errors name
 * the message and the field ("tessera.v1.Mesh field 'devices[1].platform':
 * value 7 is not a Platform; ..."). Messages with fields this version does
 * not know are rejected. Writing fails with FAILED_PRECONDITION only when a
 * name or key is not UTF-8, which protobuf strings cannot carry.
 *
 * JSON is compact, with lowerCamelCase field names ("axisNames"), enums by
 * name, 64-bit integers as strings and default values omitted, e.g.
 * {"shape":["2"],"axisNames":["x"],"devices":[{},{"id":"1","localOrdinal":"1"}]}.
 * Reading also accepts the .proto field names ("axis_names").
 *
 * A layout-map rule is written without its mesh when it is the map's mesh. A
 * distribution records its policy, its mesh or layout map, its batch axis,
 * auto-shard, shape check and dataset mode; NOT the process count and id: a
 * distribution read back takes them from the runtime, as one created in the
 * reading process does.
 *
 * Every function here is thread-safe on its arguments (a layout map may not
 * be modified during the call). Inputs are read only during the call.
 */
#ifndef TESSERA_PROTO_H_
#define TESSERA_PROTO_H_

#include <stddef.h>

#include "tessera/buffer.h"
#include "tessera/distribution.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/layout_map.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/**
 * The tessera.v1.Mesh bytes of `mesh`.
 * @return a new buffer owned by the caller (tessera_buffer_destroy), or NULL:
 *         INVALID_ARGUMENT for a NULL mesh, FAILED_PRECONDITION for a non-UTF-8
 *         axis name.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_mesh_to_proto(const tessera_mesh* mesh,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The mesh in tessera.v1.Mesh bytes.
 * @param bytes  `size` bytes; may be NULL only when `size` is 0.
 * @param size   number of bytes at `bytes`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL with
 *         INVALID_ARGUMENT: bytes that are not a Mesh, unknown fields, a bad
 *         platform number, a negative device field, or any error of
 *         tessera_mesh_create.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_from_proto(const void* bytes, size_t size,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The JSON text of `mesh` (see above).
 * @return a new NUL-terminated text buffer owned by the caller, or NULL
 *         (errors as tessera_mesh_to_proto).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_mesh_to_json(const tessera_mesh* mesh,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The mesh in JSON `text` (NUL-terminated).
 * @return a new mesh owned by the caller, or NULL with INVALID_ARGUMENT: NULL
 *         text, text that is not JSON of a Mesh (unknown fields included), or
 *         the errors of tessera_mesh_from_proto.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_from_json(const char* text,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The tessera.v1.Layout bytes of `layout` (its mesh included when it has one).
 * @return a new buffer owned by the caller, or NULL (INVALID_ARGUMENT for a
 *         NULL layout, FAILED_PRECONDITION for a non-UTF-8 name).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_proto(const tessera_layout* layout,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout in tessera.v1.Layout bytes; without a mesh when the message has
 * none.
 * @param bytes  `size` bytes; may be NULL only when `size` is 0 (an empty
 *               message is a rank-0 layout).
 * @param size   number of bytes at `bytes`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy), or NULL
 *         with INVALID_ARGUMENT: as tessera_mesh_from_proto for the mesh, and
 *         any error of tessera_layout_create (unknown or repeated axes).
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_from_proto(const void* bytes, size_t size,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** The JSON text of `layout`; errors as tessera_layout_to_proto. @since 0.2 */
TESSERA_API tessera_buffer* tessera_layout_to_json(const tessera_layout* layout,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout in JSON `text` (NUL-terminated); errors as
 * tessera_layout_from_proto, plus text that is not JSON of a Layout.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_from_json(const char* text,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The tessera.v1.LayoutMap bytes of `map`: its mesh, match mode and rules in
 * insertion order.
 * @return a new buffer owned by the caller, or NULL (INVALID_ARGUMENT for a
 *         NULL map, FAILED_PRECONDITION for a non-UTF-8 key or name).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_map_to_proto(const tessera_layout_map* map,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout map in tessera.v1.LayoutMap bytes, its rules set in order.
 * @param bytes  `size` bytes; may be NULL only when `size` is 0.
 * @param size   number of bytes at `bytes`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new map owned by the caller (tessera_layout_map_destroy), or NULL:
 *         INVALID_ARGUMENT as tessera_layout_from_proto, for a bad match
 *         number, a rule without a layout, or an invalid pattern;
 *         ALREADY_EXISTS for a repeated key. Errors name the rule
 *         ("field 'rules[1]'").
 * @since 0.2
 */
TESSERA_API tessera_layout_map* tessera_layout_map_from_proto(const void* bytes, size_t size,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/** The JSON text of `map`; errors as tessera_layout_map_to_proto. @since 0.2 */
TESSERA_API tessera_buffer* tessera_layout_map_to_json(const tessera_layout_map* map,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout map in JSON `text` (NUL-terminated); errors as
 * tessera_layout_map_from_proto, plus text that is not JSON of a LayoutMap.
 * @since 0.2
 */
TESSERA_API tessera_layout_map* tessera_layout_map_from_json(const char* text,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The tessera.v1.Distribution bytes of `distribution` (not its process count
 * and id; see above).
 * @return a new buffer owned by the caller, or NULL (INVALID_ARGUMENT for a
 *         NULL distribution, FAILED_PRECONDITION for a non-UTF-8 name).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_distribution_to_proto(const tessera_distribution* distribution,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The distribution in tessera.v1.Distribution bytes, with the runtime's
 * process count and id.
 * @param bytes  `size` bytes; may be NULL only when `size` is 0.
 * @param size   number of bytes at `bytes`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new distribution owned by the caller (tessera_distribution_destroy),
 *         or NULL: INVALID_ARGUMENT for no policy, a DataParallel without a
 *         mesh, a ModelParallel without a layout map or without the map's
 *         mesh, bad enum numbers, the errors of tessera_layout_map_from_proto,
 *         and those of the distribution constructors (an unknown batch axis);
 *         FAILED_PRECONDITION when the runtime's process count does not fit
 *         the mesh (as tessera_distribution_create_model_parallel).
 * @since 0.2
 */
TESSERA_API tessera_distribution* tessera_distribution_from_proto(const void* bytes, size_t size,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/** The JSON text of `distribution`; errors as tessera_distribution_to_proto. @since 0.2 */
TESSERA_API tessera_buffer* tessera_distribution_to_json(const tessera_distribution* distribution,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The distribution in JSON `text` (NUL-terminated); errors as
 * tessera_distribution_from_proto, plus text that is not JSON of a
 * Distribution.
 * @since 0.2
 */
TESSERA_API tessera_distribution* tessera_distribution_from_json(const char* text,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_PROTO_H_ */
