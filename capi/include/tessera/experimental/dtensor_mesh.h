/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/dtensor_mesh.h
 * @brief Experimental: more of TF DTensor's Mesh (its Python constructor, single-device and host meshes, dimensions by name, coordinates, equality)
 *
 * Why experimental: these follow DTensor's Python Mesh (`dim in mesh`,
 * `mesh == other`), whose semantics moved from Python to C++ between TF
 * releases; they may gain siblings as the rest of its model arrives.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_DTENSOR_MESH_H_
#define TESSERA_EXPERIMENTAL_DTENSOR_MESH_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/dtensor_mesh.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/mesh_construction.h"

TESSERA_BEGIN_DECLS

/**
 * DTensor's `dim_name in mesh`: whether `mesh` has a dimension of that name
 * (an empty or single-device mesh has none).
 * @param mesh       the mesh.
 * @param dim_name   the name; compared byte for byte.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the answer; false on failure (INVALID_ARGUMENT for NULL arguments).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_mesh_has_dim(const tessera_dtensor_mesh* mesh, const char* dim_name,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's Mesh equality (its proto compared field by field): the same
 * kind, name, dimensions in order, global and local ids, local and global
 * devices, single device and use_xla_spmd.
 * @param a          a mesh.
 * @param b          the other mesh.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return whether they are equal; false on failure (INVALID_ARGUMENT for a
 *         NULL mesh).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_mesh_equal(const tessera_dtensor_mesh* a, const tessera_dtensor_mesh* b,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's Python Mesh(dim_names, global_device_ids, local_device_ids,
 * local_devices, mesh_name, use_xla_spmd): the mesh as given, checked in
 * DTensor's order with its messages ("global_device_ids must sequentially
 * increase: [1 0]", "Duplicate devices found in mesh specification [...].",
 * "Devices containing multiple device_types : {'CPU', 'TPU'}", "XLA SPMD is
 * not currently not supported for CPU mesh.", ...), then the checks of
 * tessera_dtensor_mesh_parse. Unlike DTensor, a repeated host CPU is a
 * duplicate too.
 *
 * @param dim_names          `num_dims` names.
 * @param dim_sizes          `num_dims` sizes: the shape of the global ids.
 * @param num_dims           the mesh rank.
 * @param global_ids         `num_global_ids` ids, row-major; consecutive.
 * @param num_global_ids     their number (the product of the sizes).
 * @param local_ids          `num_local_ids` ids of this client's devices.
 * @param num_local_ids      their number.
 * @param local_devices      `num_local_devices` TF device names, 1:1 with local_ids.
 * @param num_local_devices  their number.
 * @param options            name and use_xla_spmd; NULL for the defaults.
 *                           Setting devices, device_type or config is
 *                           INVALID_ARGUMENT (not read here).
 * @param out_error          receives a new error on failure (see error.h); may be NULL.
 * @return a new DTensor mesh owned by the caller, or NULL (INVALID_ARGUMENT).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_create_from_ids(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const int64_t* global_ids,
    size_t num_global_ids, const int64_t* local_ids, size_t num_local_ids, const char* const* local_devices,
    size_t num_local_devices, const tessera_dtensor_mesh_options* options,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's Mesh.from_device(device) (C++ GetSingleDeviceMesh): a
 * single-device mesh.
 * @param device     the device string, kept verbatim; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new DTensor mesh owned by the caller, or NULL: INVALID_ARGUMENT
 *         "Single device is empty." for "", "Input string is invalid: <d>"
 *         for a string DTensor's text cannot read back.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_from_device(const char* device,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's dim_size(name), stored in *out.
 * @return true on success; INVALID_ARGUMENT for NULL arguments, NOT_FOUND
 *         "Dimension y does not exist in mesh.Available dimensions: batch,x".
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_mesh_dim_extent_lookup(const tessera_dtensor_mesh* mesh, const char* dim_name,
                                                        int64_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's Mesh.host_mesh() (TF 2.21: ToDeviceType("CPU"), for a CPU mesh
 * too): the same ids over the CPU devices of the same tasks, named
 * "/job:J/replica:R/task:T/device:CPU:<i>" (replica 0 when unnamed), with an
 * empty name, no global devices and no use_xla_spmd.
 * @return a new DTensor mesh owned by the caller, or NULL: INVALID_ARGUMENT
 *         for NULL or an empty or single-device mesh.
 * @since 0.3
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_to_host_mesh(const tessera_dtensor_mesh* mesh,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's Mesh.coords(device_idx): (device_idx // strides) % shape, one
 * coordinate per dimension, row-major; any index wraps (16 on a mesh of 16
 * gives the coordinates of 0).
 * @param mesh          the mesh.
 * @param device_index  the index; any value, negative ones as Python's // and %.
 * @param out, capacity the array and its room, in tessera.h's one shape
 *                      (Vocabulary): NULL and 0 ask for the number.
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return the mesh's number of dimensions; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_mesh_coordinates(const tessera_dtensor_mesh* mesh, int64_t device_index,
                                                    int64_t* out, size_t capacity,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_DTENSOR_MESH_H_ */
