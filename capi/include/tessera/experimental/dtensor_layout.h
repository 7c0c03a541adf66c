/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/dtensor_layout.h
 * @brief Experimental: TF DTensor's layout of every type, its transforms and queries
 *
 * Why experimental: it reproduces DTensor's C++ Layout (tensor_layout.h),
 * whose parted type upstream still calls under investigation (b/285905569),
 * and whose names Tessera may fold into the stable tessera_dtensor_mesh
 * family once the layout and mesh models settle (issue 11).
 *
 * A tessera_dtensor_layout is any layout a DTensor job prints, read in one
 * parse with its whole DTensor mesh:
 *
 * @verbatim
 *   static        : sharding_specs:x,unsharded, mesh:<mesh text>   (specs: a mesh dim,
 *                   unsharded, any, match; a lone "scalar" is rank 0)
 *   parted        : parted:x,unsharded, mesh:<mesh text>
 *   single device : maximal:true, mesh:<device>
 *   empty         : empty_layout
 * @endverbatim
 *
 * The checks and messages are DTensor's (Layout::GetLayout, FromString,
 * ConcatenateLayouts, Transposed2D, ...). Where DTensor's C++ aborts or reads
 * out of bounds (a shard count of an "any" spec, Truncate past the rank),
 * Tessera returns an error naming the argument; DTensor's quirks are kept
 * otherwise (integer division in the local shape, IsFullyReplicated as a
 * string test, reduced or removed dims that match no axis are ignored).
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_DTENSOR_LAYOUT_H_
#define TESSERA_EXPERIMENTAL_DTENSOR_LAYOUT_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/dtensor_layout.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"

TESSERA_BEGIN_DECLS

/** A DTensor layout of any type with its DTensor mesh. Immutable; safe to share across threads. @since 0.3 */
typedef struct tessera_dtensor_layout tessera_dtensor_layout;

/** DTensor's layout type; the numbers are LayoutProto.LayoutType's. @since 0.3 */
typedef enum tessera_dtensor_layout_type_t {
  /** "empty_layout": no specs, the empty mesh. */
  TESSERA_DTENSOR_LAYOUT_EMPTY = 0,
  /** "sharding_specs:": even, static shards. */
  TESSERA_DTENSOR_LAYOUT_STATIC = 1,
  /** "parted:": the same specs, axes treated as independent (ragged data). */
  TESSERA_DTENSOR_LAYOUT_PARTED = 2,
  /** "maximal:true": on one device, over a single-device mesh; no specs. */
  TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE = 3,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_DTENSOR_LAYOUT_TYPE_FORCE_INT32 = 0x7fffffff
} tessera_dtensor_layout_type_t;

/* ---- Making and printing ------------------------------------------------------ */

/**
 * Parses DTensor layout text of any type (Layout::FromString), keeping its
 * whole mesh.
 * @param text  NUL-terminated UTF-8; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_dtensor_layout_destroy),
 *         or NULL: INVALID_ARGUMENT for NULL or text DTensor or Tessera
 *         rejects, with DTensor's message ("Unknown layout type prefix...",
 *         "type is single device, but mesh is not single device", ...), the
 *         byte offset and the token (see tessera/dtensor.h).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_parse(const char* text,
                                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * A layout from its parts (Layout::GetLayout), checked in DTensor's order
 * with its messages. A STATIC layout is what Python's Layout(sharding_specs,
 * mesh) builds, so its constructor's own checks come first, with its
 * messages: "Mesh dimension x was repeated in sharding specification ['x',
 * 'x']. Mesh dimensions must be unique in a layout." and "w: A dimension
 * sharding must either be a valid mesh dimension or UNSHARDED." (so "any"
 * and "scalar" are refused there too; parse text to get them).
 * @param type  the layout type.
 * @param specs  num_specs sharding specs (mesh dims, "unsharded", "any",
 *               "match", or a lone "scalar" for rank 0); copied.
 * @param num_specs  0 for single-device and empty layouts.
 * @param mesh  a single-device mesh for SINGLE_DEVICE, the empty mesh for
 *              EMPTY, a tile mesh otherwise.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller, or NULL (INVALID_ARGUMENT, e.g.
 *         "Attempted to shard two or more tensor dimensions over mesh dimension x").
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_create(
    tessera_dtensor_layout_type_t type, const char* const* specs, size_t num_specs,
    const tessera_dtensor_mesh* mesh, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The single-device layout on `device` (Python's Layout.from_device).
 * @param device  a device string that splits on ':' into 5 or 6 pieces; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller, or NULL: INVALID_ARGUMENT
 *         "Single device is empty." for "", "Input string is invalid: ..."
 *         for a device that would not re-parse.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_from_device(const char* device,
                                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's text of `layout` (Layout::ToString), byte for byte.
 * @return a new buffer owned by the caller, or NULL (INVALID_ARGUMENT for NULL).
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_dtensor_layout_to_text(const tessera_dtensor_layout* layout,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `layout`. NULL is allowed. Any thread. @since 0.3 */
TESSERA_API void tessera_dtensor_layout_destroy(tessera_dtensor_layout* layout) TESSERA_NOEXCEPT;

/**
 * The Tessera layout `layout` describes (tessera_layout_from_dtensor_text's
 * mapping).
 * @return a new layout owned by the caller, or NULL: INVALID_ARGUMENT saying
 *         why there is none: a parted, single-device or empty layout, an
 *         "any" or "match" spec (naming the dimension), or a mesh
 *         tessera_dtensor_mesh_to_mesh refuses.
 * @since 0.3
 */
TESSERA_API tessera_layout* tessera_dtensor_layout_to_layout(const tessera_dtensor_layout* layout,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/* ---- Parts -------------------------------------------------------------------- */

/** The type; TESSERA_DTENSOR_LAYOUT_EMPTY (0) on failure. @since 0.3 */
TESSERA_API tessera_dtensor_layout_type_t tessera_dtensor_layout_type(const tessera_dtensor_layout* layout,
                                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** The rank (number of specs; 0 for a scalar); 0 on failure. @since 0.3 */
TESSERA_API size_t tessera_dtensor_layout_num_dims(const tessera_dtensor_layout* layout,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Sharding spec `index`. UTF-8; has the lifetime of `layout`.
 * @return the spec, or NULL: INVALID_ARGUMENT for NULL, OUT_OF_RANGE when
 *         index >= the rank.
 * @since 0.3
 */
TESSERA_API const char* tessera_dtensor_layout_spec(const tessera_dtensor_layout* layout, size_t index,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout's DTensor mesh, with everything its text says.
 * @return a new DTensor mesh owned by the caller, or NULL (INVALID_ARGUMENT for NULL).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_layout_mesh(const tessera_dtensor_layout* layout,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's operator==: the same type, specs and mesh.
 * @return the answer; false on failure (INVALID_ARGUMENT for a NULL layout).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_layout_equal(const tessera_dtensor_layout* a,
                                              const tessera_dtensor_layout* b,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/* ---- Transforms: each returns a new layout owned by the caller, or NULL ------- */

/**
 * The layout over its mesh converted to `device_type` (Mesh::ToDeviceType:
 * local devices renamed "/job:J/replica:R/task:T/device:<type>:<i>", the mesh
 * name and global devices dropped).
 * @param layout  the layout.
 * @param device_type  e.g. "CPU" (host_mesh); copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the new layout, or NULL: INVALID_ARGUMENT for NULL, a device type
 *         that is not an identifier, or a single-device layout.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_to_device_type(
    const tessera_dtensor_layout* layout, const char* device_type,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout::ToParted: the same specs and mesh, type parted.
 * @return the new layout, or NULL: INVALID_ARGUMENT for NULL, or DTensor's
 *         "type is single device, but mesh is not single device" / "type is
 *         empty, but mesh is not empty" for those layouts.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_to_parted(
    const tessera_dtensor_layout* layout, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout::Truncate: the specs before `split` (end false) or from `split` on
 * (end true); type and mesh kept.
 * @return the new layout, or NULL: INVALID_ARGUMENT for NULL, OUT_OF_RANGE
 *         when split > the rank.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_truncate(
    const tessera_dtensor_layout* layout, size_t split, bool end,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout::LeftPad: "unsharded" prepended until the rank is num_dims (an
 * equal layout when it already is at least that).
 * @return the new layout, or NULL (INVALID_ARGUMENT for NULL).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_left_pad(
    const tessera_dtensor_layout* layout, size_t num_dims, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout::GetLayoutWithReducedDims: a static layout without the axes in
 * `dims`, or with them "unsharded" when keep_dims. Negative indices count
 * from the end (-1 is the last axis); indices of no axis are ignored.
 * @param layout  the layout.
 * @param dims  num_dims axis indices; may be NULL when num_dims is 0.
 * @param num_dims  the number of indices.
 * @param keep_dims  replicate the axes instead of removing them.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the new layout, or NULL: INVALID_ARGUMENT for NULL or what
 *         GetLayout refuses (a single-device or empty layout).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_reduce_dims(
    const tessera_dtensor_layout* layout, const int64_t* dims, size_t num_dims, bool keep_dims,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Python's Layout.delete: a static layout without the axes at the positions
 * in `dims` (positions of no axis are ignored).
 * @return the new layout, or NULL: INVALID_ARGUMENT for NULL or what
 *         GetLayout refuses.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_remove_dims(
    const tessera_dtensor_layout* layout, const size_t* dims, size_t num_dims,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Layout::Transposed2D: the last two specs swapped, static.
 * @return the new layout, or NULL: INVALID_ARGUMENT for NULL, "Transposed2D
 *         requires rank to be >= 2".
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_transpose_2d(
    const tessera_dtensor_layout* layout, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * ConcatenateLayouts: a's specs then b's, with a's type and mesh.
 * @return the new layout, or NULL: INVALID_ARGUMENT for NULL, "unable to
 *         concatenate layouts as they are on different meshes.", "unable to
 *         concatenate layouts as they use the same meshes dimension: x is
 *         used in both layouts." (only "unsharded" may appear in both).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_concatenate(
    const tessera_dtensor_layout* a, const tessera_dtensor_layout* b,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * GetMostShardedLayout: per axis of layouts[0], the mesh dimension the
 * layouts shard it over when exactly one is used there and on no other axis,
 * else "unsharded"; static, on layouts[0]'s mesh.
 * @param layouts  num_layouts layouts, none NULL.
 * @param num_layouts  at least 1.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller, or NULL: INVALID_ARGUMENT for a
 *         NULL entry, "Layout should not be empty" for none, or what GetLayout
 *         refuses.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_most_sharded(
    const tessera_dtensor_layout* const* layouts, size_t num_layouts,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * GetLeastShardedLayout: per axis the spec every layout has, else
 * "unsharded"; static, on layouts[0]'s mesh.
 * @param layouts  num_layouts layouts, none NULL.
 * @param num_layouts  at least 1.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller, or NULL: INVALID_ARGUMENT for a
 *         NULL entry, "Layout should not be empty", "Not all layouts to
 *         GetLeastShardedLayout are of the same rank.".
 * @since 0.3
 */
TESSERA_API tessera_dtensor_layout* tessera_dtensor_layout_least_sharded(
    const tessera_dtensor_layout* const* layouts, size_t num_layouts,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/* ---- Queries ------------------------------------------------------------------- */

/**
 * Layout::num_shards: per axis 1 for "unsharded", -1 for "match", the mesh
 * dimension's extent otherwise (the output-array shape of tessera.h).
 * @return the rank; 0 on failure: INVALID_ARGUMENT for NULL or an "any" or
 *         "scalar" spec (DTensor aborts), OUT_OF_RANGE for a short capacity.
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_layout_num_shards_per_dim(const tessera_dtensor_layout* layout,
                                                             int64_t* out, size_t capacity,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * IsFullyReplicated: a mesh that is not single-device and every spec the
 * string "unsharded" (a spec over an extent-1 dimension is not; rank 0 is).
 * @return the answer; false on failure.
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_layout_is_fully_replicated(const tessera_dtensor_layout* layout,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/** IsLastDimReplicated: not single-device, and rank 0 or the last spec "unsharded"; false on failure. @since 0.3 */
TESSERA_API bool tessera_dtensor_layout_is_last_dim_replicated(const tessera_dtensor_layout* layout,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * IsBatchParallel(): not single-device, rank > 0, the first spec sharded and
 * every other "unsharded".
 * @return the answer; false on failure.
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_layout_is_batch_parallel(const tessera_dtensor_layout* layout,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * IsBatchParallel(non_batch_rank): not single-device, and the last
 * num_non_batch_dims axes have one shard each (true at rank 0).
 * @return the answer; false on failure: INVALID_ARGUMENT for NULL,
 *         OUT_OF_RANGE when num_non_batch_dims > the rank.
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_layout_is_batch_parallel_over(const tessera_dtensor_layout* layout,
                                                               size_t num_non_batch_dims,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * IsEquivalent: the same type, rank and mesh, and each axis with the same
 * spec or one shard on both sides ("x" over an extent-1 dim equals "unsharded").
 * @return the answer; false on failure (INVALID_ARGUMENT for NULL).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_layout_is_equivalent(const tessera_dtensor_layout* a,
                                                      const tessera_dtensor_layout* b,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** IsEquivalentIgnoringType: tessera_dtensor_layout_is_equivalent without the type; false on failure. @since 0.3 */
TESSERA_API bool tessera_dtensor_layout_is_equivalent_ignoring_type(const tessera_dtensor_layout* a,
                                                                    const tessera_dtensor_layout* b,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * ReducedMesh: the mesh of the layout's unique shards. Dimensions no spec
 * names get extent 1; the global ids (and global devices) of the remaining
 * positions are kept, the local ids and devices among them in their order;
 * no name. A single-device or empty layout gives the empty mesh.
 * @return a new DTensor mesh owned by the caller, or NULL (INVALID_ARGUMENT).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_layout_reduced_mesh(const tessera_dtensor_layout* layout,
                                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * GetShardVector's text: the 1-based shard of every device in mesh order,
 * e.g. "shards:[(1,1),(2,1),(1,2),(2,2)] num_shards_per_dim:(2,2)".
 * @return a new buffer owned by the caller, or NULL: INVALID_ARGUMENT for
 *         NULL or an "any" or "match" spec.
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_dtensor_layout_shard_vector_text(const tessera_dtensor_layout* layout,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * HostShardMap()[host] as text: the sorted distinct shards of the host's
 * devices in the reduced mesh, e.g. "shards:[(1,1),(2,1)] num_shards_per_dim:(4,1)".
 * The hosts are tessera_dtensor_mesh_host of tessera_dtensor_layout_reduced_mesh.
 * @param layout  the layout.
 * @param host  "/job:<job>/task:<task>"; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new buffer owned by the caller, or NULL: INVALID_ARGUMENT for
 *         NULL or an "any" or "match" spec, NOT_FOUND for a host with no
 *         devices in the reduced mesh.
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_dtensor_layout_host_shard_vector_text(
    const tessera_dtensor_layout* layout, const char* host, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's ShardVector equality of two layouts: the same shard regions once
 * both are refined to the least common multiple of their shard counts
 * (shards [(1,1)] of (1,1) equal [(1,1),(1,2),(2,1),(2,2)] of (2,2)).
 * @return the answer; false on failure: INVALID_ARGUMENT for NULL or an
 *         "any" or "match" spec.
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_layout_shard_vector_equal(const tessera_dtensor_layout* a,
                                                           const tessera_dtensor_layout* b,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Python's offset_to_shard()[offset]: for the device at row-major mesh
 * position `offset`, per axis the coordinate of its mesh dimension, 0 for
 * "unsharded" (the output-array shape of tessera.h).
 * @return the rank; 0 on failure: INVALID_ARGUMENT for NULL or an "any" or
 *         "match" spec, OUT_OF_RANGE "Mesh offset cannot be negative or
 *         exceed Mesh's size. Offset size:4 and Mesh size:4" past the mesh,
 *         or for a short capacity.
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_layout_offset_to_shard(const tessera_dtensor_layout* layout,
                                                          size_t offset, int64_t* out,
                                                          size_t capacity,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Python's offset_tuple_to_global_index: the sum of offsets[i] times the
 * product of the shard counts of the axes after i, stored in *out.
 * @return true on success; INVALID_ARGUMENT for NULL or an "any" spec after
 *         the first offset.
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_layout_offset_tuple_to_global_index(
    const tessera_dtensor_layout* layout, const int64_t* offsets, size_t num_offsets,
    int64_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * LocalShapeFromGlobalShape: the shape unchanged when fully replicated, else
 * each extent divided by its shard count (integer division, as DTensor: 10
 * over 4 shards is 2), a dynamic extent (-1 or INT64_MIN) kept.
 * @param layout  the layout.
 * @param global_shape  num_dims extents.
 * @param num_dims  the layout's rank (any, when fully replicated).
 * @param out  receives the local shape (tessera.h's output-array shape).
 * @param capacity  room in `out`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the number of extents; 0 on failure: INVALID_ARGUMENT for NULL, a
 *         length that is not the rank, a negative static extent, or an
 *         "any" or "match" spec; OUT_OF_RANGE for a short capacity.
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_layout_local_shape_from_global(
    const tessera_dtensor_layout* layout, const int64_t* global_shape, size_t num_dims,
    int64_t* out, size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * GlobalShapeFromLocalShape: the shape unchanged for a single-device or
 * fully replicated layout (or the first local shape, when the shape is
 * dynamic and local shapes are given); else each extent times its shard
 * count, except that a dynamic extent with one local shape per local device
 * is the sum of that axis's shards, stepping through the local devices as
 * DTensor does.
 * @param layout  the layout.
 * @param local_shape  num_dims extents.
 * @param num_dims  the layout's rank.
 * @param local_shapes  NULL, or num_local_shapes shapes of num_dims extents,
 *                      one after another (one per local device).
 * @param num_local_shapes  the number of local shapes.
 * @param out  receives the global shape (tessera.h's output-array shape).
 * @param capacity  room in `out`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the number of extents; 0 on failure (INVALID_ARGUMENT, or
 *         OUT_OF_RANGE for a short capacity).
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_layout_global_shape_from_local(
    const tessera_dtensor_layout* layout, const int64_t* local_shape, size_t num_dims,
    const int64_t* local_shapes, size_t num_local_shapes, int64_t* out, size_t capacity,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/** DTensor's IsDynamicSize: -1 (TensorFlow) or INT64_MIN (MLIR's kDynamic). @since 0.3 */
TESSERA_API bool tessera_dtensor_layout_is_dynamic_extent(int64_t extent) TESSERA_NOEXCEPT;

/* ---- The DTensor mesh queries layouts need ------------------------------------- */

/**
 * Mesh::ToDeviceType (host_mesh() is "CPU"): the local devices renamed
 * "/job:J/replica:R/task:T/device:<type>:<i>" (replica 0 when unnamed), no
 * name, no global devices, then DTensor's mesh checks.
 * @return a new DTensor mesh owned by the caller, or NULL: INVALID_ARGUMENT
 *         for NULL, a type that is not an identifier, or a single-device mesh.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_to_device_type(const tessera_dtensor_mesh* mesh,
                                                                     const char* device_type,
                                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Mesh::idx_for_dim: the position of the dimension named `name`, stored in *out.
 * @return true on success; INVALID_ARGUMENT for NULL and DTensor's "dim name
 *         :z does not exist on mesh : <mesh text>".
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_mesh_dim_lookup(const tessera_dtensor_mesh* mesh, const char* name,
                                                 size_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Mesh::device_location: the row-major coordinate of mesh position `offset`
 * (the output-array shape of tessera.h).
 * @return the number of mesh dimensions; 0 on failure: INVALID_ARGUMENT for
 *         NULL, OUT_OF_RANGE "Mesh offset cannot be negative or exceed Mesh's
 *         size. Offset size:4 and Mesh size:4" past the mesh, or for a short
 *         capacity.
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_mesh_device_location(const tessera_dtensor_mesh* mesh, size_t offset,
                                                        int64_t* out, size_t capacity,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/** Mesh::hosts: how many distinct "/job:J/task:T" the local devices name; 0 on failure. @since 0.3 */
TESSERA_API size_t tessera_dtensor_mesh_num_hosts(const tessera_dtensor_mesh* mesh,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Host `index` ("/job:localhost/task:0"), first seen first. UTF-8; has the
 * lifetime of `mesh`.
 * @return the host, or NULL: INVALID_ARGUMENT for NULL, OUT_OF_RANGE for a bad index.
 * @since 0.3
 */
TESSERA_API const char* tessera_dtensor_mesh_host(const tessera_dtensor_mesh* mesh, size_t index,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_DTENSOR_LAYOUT_H_ */
