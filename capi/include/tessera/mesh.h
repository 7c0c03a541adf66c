/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Device meshes: n-dimensional grids of devices with named axes.
 *
 * Devices are placed row-major: with shape (4, 2) the device at (i, j) is
 * entry i * 2 + j. A mesh is immutable; layouts and distributions keep the
 * meshes they use alive, so destroy order never matters.
 */
#ifndef TESSERA_MESH_H_
#define TESSERA_MESH_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/device.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** A device mesh. Immutable; safe to share across threads. */
typedef struct tessera_mesh tessera_mesh;

/**
 * Settings for the mesh creators (tessera_mesh_create, and the experimental
 * tessera_mesh_make and tessera_mesh_make_hybrid): a field left unset keeps
 * the creator's default, and a creator given a field it does not read
 * refuses it (INVALID_ARGUMENT naming the field) rather than ignore it. New
 * settings arrive as new setters, so the creators keep their signatures.
 * Mutable; one thread at a time. The creators copy what they read.
 */
typedef struct tessera_mesh_options tessera_mesh_options;

/** New mesh options with every field unset; NULL only when out of memory. @since 0.2 */
TESSERA_API tessera_mesh_options* tessera_mesh_options_create(void) TESSERA_NOEXCEPT;

/** Frees `options`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_mesh_options_destroy(tessera_mesh_options* options) TESSERA_NOEXCEPT;

/**
 * The mesh's devices, in Keras's form ("cpu:3"), row-major; copied. Unset (or
 * set back with NULL and 0): every device of the default type
 * (tessera_device_list_create(NULL)). The names are parsed by the creator.
 * @param options      the options to change.
 * @param devices      `num_devices` device names, or NULL with 0 for the default.
 * @param num_devices  number of entries in `devices`.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`, a NULL
 *         `devices` with a non-zero count, or a NULL entry.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_options_set_devices(tessera_mesh_options* options, const char* const* devices,
                                                  size_t num_devices, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Creates a mesh (Keras's DeviceMesh).
 *
 * Checks, in this order (INVALID_ARGUMENT): shape and axis names non-NULL and
 * num_axes >= 1; every dimension >= 1 and their product within int64; as many
 * devices as the product; axis names non-empty and distinct; devices
 * parseable, distinct and of one platform.
 *
 * @param shape       `num_axes` mesh dimensions; copied.
 * @param axis_names  one UTF-8 name per dimension; copied.
 * @param num_axes    number of entries in `shape` and in `axis_names`.
 * @param options     the devices (tessera_mesh_options_set_devices); NULL for
 *                    the defaults. It must not set device_kind or
 *                    sort_granules_by_key, which only tessera_mesh_make reads.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_create(const int64_t* shape, const char* const* axis_names,
                                              size_t num_axes, const tessera_mesh_options* options,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `mesh` (the mesh lives on while layouts use it). NULL is allowed. @since 0.2 */
TESSERA_API void tessera_mesh_destroy(tessera_mesh* mesh) TESSERA_NOEXCEPT;

/** Number of dimensions; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_mesh_num_axes(const tessera_mesh* mesh,
                                         tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of devices; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_mesh_num_devices(const tessera_mesh* mesh,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;
/** Platform of the mesh's devices; TESSERA_PLATFORM_CPU (0) on failure. @since 0.2 */
TESSERA_API tessera_platform_t tessera_mesh_platform(const tessera_mesh* mesh,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Size of dimension `index`.
 * @return true on success; OUT_OF_RANGE when index >= rank.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_axis_extent(const tessera_mesh* mesh, size_t index, int64_t* out,
                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Name of axis `index`: UTF-8, has the lifetime of `mesh`.
 * @return the name, or NULL (OUT_OF_RANGE when index >= rank).
 * @since 0.2
 */
TESSERA_API const char* tessera_mesh_axis_name(const tessera_mesh* mesh, size_t index,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Position of the axis called `name`.
 * @return true on success; NOT_FOUND (listing the mesh's axes) otherwise.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_axis_lookup(const tessera_mesh* mesh, const char* name, size_t* out,
                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Size of the axis called `name`.
 * @return true on success; NOT_FOUND (listing the mesh's axes) otherwise.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_axis_extent_lookup(const tessera_mesh* mesh, const char* name, int64_t* out,
                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The device at row-major position `index`.
 * @return a new device owned by the caller, or NULL (OUT_OF_RANGE when
 *         index >= size).
 * @since 0.2
 */
TESSERA_API tessera_device* tessera_mesh_device(const tessera_mesh* mesh, size_t index,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Coordinates of the device whose global id is `device_id` (PyTorch's
 * get_coordinate, whose None is the NOT_FOUND error here).
 * @param mesh        the mesh.
 * @param device_id   the global id of a device of the mesh.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the rank; NOT_FOUND naming device_id when the mesh does not
 *         hold the device.
 * @since 0.2
 */
TESSERA_API size_t tessera_mesh_device_coordinates(const tessera_mesh* mesh, int64_t device_id,
                                                   int64_t* out, size_t capacity,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Global id of the device at `coords`.
 * @return true on success; INVALID_ARGUMENT when num_coords != rank,
 *         OUT_OF_RANGE when a coordinate lies outside its axis.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_device_at(const tessera_mesh* mesh, const int64_t* coords,
                                        size_t num_coords, int64_t* out_device_id,
                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/** True when both meshes have the same shape, axis names and devices, or both are NULL. @since 0.2 */
TESSERA_API bool tessera_mesh_equal(const tessera_mesh* a, const tessera_mesh* b) TESSERA_NOEXCEPT;

/**
 * Keras's repr: "<DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>".
 * @return a new buffer owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_mesh_to_string(const tessera_mesh* mesh,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_MESH_H_ */
