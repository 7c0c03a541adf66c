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
 * Creates a mesh.
 *
 * Checks, in this order (INVALID_ARGUMENT): shape and axis names non-empty;
 * as many axis names as dimensions; every dimension >= 1 and their product
 * within int64; as many devices as the product; axis names non-empty and
 * distinct; devices parseable, distinct and of one platform.
 *
 * @param shape           mesh dimensions; copied.
 * @param num_dims        number of entries in `shape`.
 * @param axis_names      one UTF-8 name per dimension; copied.
 * @param num_axis_names  number of entries in `axis_names`.
 * @param devices         devices in Keras's form ("cpu:3"), row-major; copied.
 *                        NULL means all devices of the default type
 *                        (tessera_device_list_create(NULL)).
 * @param num_devices     number of entries in `devices` (ignored when NULL).
 * @param out_error       receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_create(const int64_t* shape, size_t num_dims,
                                              const char* const* axis_names, size_t num_axis_names,
                                              const char* const* devices, size_t num_devices,
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
