/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Tensor layouts: for each tensor dimension, nothing (replicated), one mesh
 * axis, or an ordered group of axes (split over their product, major first).
 *
 * A layout is immutable. One may be created without a mesh and given one
 * exactly once with tessera_layout_with_mesh, which returns a new layout.
 */
#ifndef TESSERA_LAYOUT_H_
#define TESSERA_LAYOUT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/** A tensor layout. Immutable; safe to share across threads. */
typedef struct tessera_layout tessera_layout;

/** How a layout is checked against a tensor shape. */
typedef enum tessera_shape_check_t {
  /** Every sharded dimension divisible by its shard count (as JAX). */
  TESSERA_SHAPE_CHECK_STRICT = 0,
  /** Uneven shards allowed: ceil-sized chunks (as XLA and DTensor). */
  TESSERA_SHAPE_CHECK_CHUNK = 1,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_SHAPE_CHECK_FORCE_INT32 = 0x7fffffff
} tessera_shape_check_t;

/**
 * Creates a layout with at most one axis per dimension.
 *
 * @param axes      one entry per tensor dimension: an axis name, or NULL/""
 *                  for a replicated dimension; copied. May be NULL when
 *                  num_axes is 0 (a scalar).
 * @param num_axes  the tensor rank.
 * @param mesh      the mesh, or NULL to give one later. Retained.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy), or NULL:
 *         INVALID_ARGUMENT for an axis used twice, or (with a mesh) an axis
 *         the mesh lacks ("Invalid axis names for Layout. ...").
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_create(const char* const* axes, size_t num_axes,
                                                  const tessera_mesh* mesh,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Creates a layout whose dimensions may be split over groups of axes.
 *
 * @param axis_names   the axes of every dimension, concatenated in order.
 * @param group_sizes  per dimension, how many of `axis_names` it takes
 *                     (0 = replicated); their sum must be num_axis_names.
 * @param num_dims     the tensor rank (entries in `group_sizes`).
 * @param mesh         the mesh, or NULL. Retained.
 * @param num_axis_names  number of entries in `axis_names`.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller, or NULL (errors as
 *         tessera_layout_create, plus INVALID_ARGUMENT when the group sizes
 *         do not add up).
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_create_grouped(const char* const* axis_names,
                                                          size_t num_axis_names,
                                                          const size_t* group_sizes,
                                                          size_t num_dims,
                                                          const tessera_mesh* mesh,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * A layout of `rank` replicated dimensions on `mesh` (may be NULL).
 * @return a new layout owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_create_replicated(size_t rank, const tessera_mesh* mesh,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * `layout` given `mesh`.
 * @return a new layout owned by the caller, or NULL: FAILED_PRECONDITION when
 *         `layout` already has a mesh ("Cannot override device mesh value"),
 *         INVALID_ARGUMENT when its axes are not in `mesh`.
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_with_mesh(const tessera_layout* layout,
                                                     const tessera_mesh* mesh,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `layout`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_layout_destroy(tessera_layout* layout) TESSERA_NOEXCEPT;

/** Tensor rank of `layout`; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_layout_num_dims(const tessera_layout* layout,
                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The mesh of `layout`.
 * @return a new reference owned by the caller, or NULL when the layout has no
 *         mesh (then out_error is untouched) and on failure.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_layout_mesh(const tessera_layout* layout,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Number of mesh axes dimension `dim` is split over (0 = replicated).
 * @return true on success; OUT_OF_RANGE when dim >= rank.
 * @since 0.2
 */
TESSERA_API bool tessera_layout_dim_num_axes(const tessera_layout* layout, size_t dim, size_t* out,
                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Axis `position` of dimension `dim`: UTF-8, has the lifetime of `layout`.
 * @return the name, or NULL (OUT_OF_RANGE for a bad dim or position).
 * @since 0.2
 */
TESSERA_API const char* tessera_layout_dim_axis(const tessera_layout* layout, size_t dim,
                                            size_t position, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Number of shards of dimension `dim`: the product of its axes' sizes.
 * @return true on success; FAILED_PRECONDITION without a mesh, OUT_OF_RANGE
 *         when dim >= rank.
 * @since 0.2
 */
TESSERA_API bool tessera_layout_dim_num_shards(const tessera_layout* layout, size_t dim, size_t* out,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Checks `layout` against a global tensor shape: a mesh is attached
 * (FAILED_PRECONDITION), ranks agree, dimensions are >= 0 and, in strict
 * mode, each sharded dimension is divisible by its shard count
 * (INVALID_ARGUMENT naming the dimension, its size and the axes).
 * @return true when the layout fits.
 * @since 0.2
 */
TESSERA_API bool tessera_layout_check_shape(const tessera_layout* layout, const int64_t* dims,
                                            size_t num_dims, tessera_shape_check_t mode,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The largest per-device shard shape, ceil(dim / shards) per dimension.
 * @param layout    the layout; it needs a mesh.
 * @param dims      the global shape, num_dims entries.
 * @param num_dims  the tensor rank.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return num_dims (the layout is checked as in chunk mode first).
 * @since 0.2
 */
TESSERA_API size_t tessera_layout_max_shard_shape(const tessera_layout* layout, const int64_t* dims,
                                                  size_t num_dims, int64_t* out, size_t capacity,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/** True when both have the same axes and equal meshes (or none), or both are NULL. @since 0.2 */
TESSERA_API bool tessera_layout_equal(const tessera_layout* a, const tessera_layout* b) TESSERA_NOEXCEPT;

/**
 * Keras's repr: "<TensorLayout axes=('data', None), device_mesh=<DeviceMesh ...>>".
 * @return a new buffer owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_string(const tessera_layout* layout,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_LAYOUT_H_ */
