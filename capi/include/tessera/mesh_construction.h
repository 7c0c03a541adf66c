/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Mesh construction the way each framework builds its meshes: JAX's
 * make_mesh and create_hybrid_device_mesh, TF DTensor's create_mesh and
 * create_distributed_mesh, PyTorch's mesh["dp", "cp"], _flatten,
 * get_coordinate and get_local_rank.
 *
 * Where the framework has an error message Tessera's is the same text, e.g.
 * "Number of devices 6 must be >= the product of mesh_shape (2, 4)".
 * Devices are given in Keras's form ("gpu:3") and resolved against the
 * current device list, so after initialize() they carry their process.
 */
#ifndef TESSERA_MESH_CONSTRUCTION_H_
#define TESSERA_MESH_CONSTRUCTION_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/**
 * PyTorch's mesh[names] as seen by device `device_id`: the submesh over the
 * named axes that holds the device.
 * @param mesh                        the mesh to slice.
 * @param axis_names, num_axis_names  at least one name, in the mesh's order.
 * @param device_id                   the global id of a device of the mesh.
 * @param out_error                   receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller, or NULL: INVALID_ARGUMENT for no
 *         names or names out of order ("Invalid mesh_dim_names ('cp', 'dp')
 *         specified. Mesh dim indices should be in ascending order."),
 *         NOT_FOUND for an unknown name or a device the mesh lacks.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_submesh(const tessera_mesh* mesh,
                                               const char* const* axis_names,
                                               size_t num_axis_names, int64_t device_id,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * PyTorch's _flatten: a 1-D mesh over `mesh`'s devices in row-major order.
 * @param mesh  the mesh to flatten.
 * @param name  the axis name; NULL or "" joins the axis names with "_"
 *              ("dp_cp"). One of the axes of a mesh of rank > 1 is
 *              INVALID_ARGUMENT.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_flatten(const tessera_mesh* mesh, const char* name,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * PyTorch's get_local_rank(axis_name) for device `device_id`: its coordinate
 * along that axis.
 * @return true on success; NOT_FOUND for an unknown axis or device.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_local_rank(const tessera_mesh* mesh, const char* axis_name,
                                         int64_t device_id, int64_t* out,
                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The process groups along `axis_name` as PyTorch builds them
 * (mesh.swapdims(-1, dim).reshape(-1, size)): mesh-size device ids, each run
 * of tessera_mesh_axis_extent_lookup ids one group.
 * @param mesh      the mesh.
 * @param axis_name  the axis the groups run along.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the mesh's number of devices; NOT_FOUND for an unknown axis.
 * @since 0.2
 */
TESSERA_API size_t tessera_mesh_axis_groups(const tessera_mesh* mesh, const char* axis_name,
                                            int64_t* out, size_t capacity,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Settings for the DTensor mesh creators (tessera_dtensor_mesh_create,
 * tessera_dtensor_mesh_create_distributed); unset fields keep DTensor's
 * defaults. Mutable; one thread at a time. The creators copy what they read.
 */
typedef struct tessera_dtensor_mesh_options tessera_dtensor_mesh_options;

/** New DTensor mesh options with every field unset; NULL only when out of memory. @since 0.2 */
TESSERA_API tessera_dtensor_mesh_options* tessera_dtensor_mesh_options_create(void) TESSERA_NOEXCEPT;

/** Frees `options`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_dtensor_mesh_options_destroy(tessera_dtensor_mesh_options* options) TESSERA_NOEXCEPT;

/**
 * The mesh name (default "").
 * @param options    the options to change.
 * @param name       copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL argument.
 * @since 0.2
 */
TESSERA_API bool tessera_dtensor_mesh_options_set_name(tessera_dtensor_mesh_options* options, const char* name,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The devices: "CPU:0", "/device:GPU:1" or full TF device names; for
 * tessera_dtensor_mesh_create the mesh's devices, for
 * tessera_dtensor_mesh_create_distributed this client's (a TPU mesh with
 * devices is an error there). Unset (or NULL with 0): this process's devices
 * of the device type.
 * @param options      the options to change.
 * @param devices      `num_devices` names, or NULL with 0 for the default; copied.
 * @param num_devices  number of entries in `devices`.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`, a NULL
 *         `devices` with a non-zero count, or a NULL entry.
 * @since 0.2
 */
TESSERA_API bool tessera_dtensor_mesh_options_set_devices(tessera_dtensor_mesh_options* options,
                                                          const char* const* devices, size_t num_devices,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * "CPU", "GPU" or "TPU". Unset: the first device's type (or CPU).
 * @param options      the options to change.
 * @param device_type  copied.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL argument.
 * @since 0.2
 */
TESSERA_API bool tessera_dtensor_mesh_options_set_device_type(tessera_dtensor_mesh_options* options,
                                                              const char* device_type,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's use_xla_spmd flag (default false; not for CPU meshes).
 * @param options       the options to change.
 * @param use_xla_spmd  the flag.
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.2
 */
TESSERA_API bool tessera_dtensor_mesh_options_set_use_xla_spmd(tessera_dtensor_mesh_options* options,
                                                               bool use_xla_spmd,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's create_mesh (one client): global ids 0..n-1 row-major, all local.
 *
 * @param dim_names  `num_dims` dim names; with `dim_sizes` both NULL means
 *                   DTensor's default [("x", n)].
 * @param dim_sizes  `num_dims` sizes; a single size of -1 takes every device.
 * @param num_dims   number of entries in `dim_names` and `dim_sizes`.
 * @param options    name, devices, device type, use_xla_spmd; NULL for the
 *                   defaults.
 * @param out_error  receives a new error on failure (see error.h); may be
 *                   NULL.
 * @return a new DTensor mesh owned by the caller
 *         (tessera_dtensor_mesh_destroy), or NULL with DTensor's messages:
 *         "Conflicting devices ...", "length of devices (4) must be equal to
 *         total size of the mesh of shape [3]", "XLA SPMD is not currently not
 *         supported for CPU mesh.", and its Mesh checks.
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_create(const char* const* dim_names,
                                                              const int64_t* dim_sizes, size_t num_dims,
                                                              const tessera_dtensor_mesh_options* options,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's create_distributed_mesh: the number of clients and this
 * client's id are the runtime's (initialize()); every client has as many
 * devices as this one. The result's local ids
 * (tessera_dtensor_mesh_local_id) are this client's contiguous block of the
 * row-major global ids, its local devices this client's.
 *
 * @param dim_names  `num_dims` dim names; required here.
 * @param dim_sizes  `num_dims` sizes; required here.
 * @param num_dims   number of entries in `dim_names` and `dim_sizes`.
 * @param options    name, this client's devices (unset: all of the device
 *                   type), device type, use_xla_spmd; NULL for the defaults.
 * @param out_error  receives a new error on failure (see error.h); may be
 *                   NULL.
 * @return a new DTensor mesh owned by the caller, or NULL: INVALID_ARGUMENT
 *         with DTensor's messages ("Global number of devices (3 per client *
 *         2 clients = 6) must be equal to total size of the mesh of shape
 *         (8,)", "Device type XPU is not CPU, GPU, or TPU."), UNIMPLEMENTED
 *         for TPU meshes.
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims,
    const tessera_dtensor_mesh_options* options, tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_MESH_CONSTRUCTION_H_ */
