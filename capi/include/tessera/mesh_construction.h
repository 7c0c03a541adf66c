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
 * DTensor's create_mesh (one client): global ids 0..n-1 row-major, all local.
 *
 * @param dim_names, dim_sizes, num_dims  the mesh dims; both NULL means
 *                 DTensor's default [("x", n)]; a single size of -1 takes
 *                 every device.
 * @param name     the mesh name; NULL means "".
 * @param devices, num_devices  "CPU:0", "/device:GPU:1" or full TF device
 *                 names; NULL means this process's devices of `device_type`.
 * @param device_type  "CPU", "GPU" or "TPU"; NULL takes the first device's
 *                 type (or CPU).
 * @param use_xla_spmd  DTensor's use_xla_spmd flag (not for CPU meshes).
 * @param out_error  receives a new error on failure (see error.h); may be
 *                 NULL.
 * @return a new DTensor mesh owned by the caller
 *         (tessera_dtensor_mesh_destroy), or NULL with DTensor's messages:
 *         "Conflicting devices ...", "length of devices (4) must be equal to
 *         total size of the mesh of shape [3]", "XLA SPMD is not currently not
 *         supported for CPU mesh.", and its Mesh checks.
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_create(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const char* const* devices, size_t num_devices, const char* device_type, bool use_xla_spmd,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's create_distributed_mesh: the number of clients and this
 * client's id are the runtime's (initialize()); every client has as many
 * devices as this one. The result's local ids
 * (tessera_dtensor_mesh_local_id) are this client's contiguous block of the
 * row-major global ids, its local devices this client's.
 *
 * @param dim_names, dim_sizes, num_dims  the mesh dims, as
 *                 tessera_dtensor_mesh_create; required here.
 * @param name     the mesh name; NULL means "".
 * @param local_devices, num_local_devices  this client's devices; NULL means
 *                 all of `device_type`. TPU with devices is an error.
 * @param device_type  "CPU", "GPU" or "TPU"; NULL takes the first device's
 *                 type (or CPU).
 * @param use_xla_spmd  DTensor's use_xla_spmd flag (not for CPU meshes).
 * @param out_error  receives a new error on failure (see error.h); may be
 *                 NULL.
 * @return a new DTensor mesh owned by the caller, or NULL: INVALID_ARGUMENT
 *         with DTensor's messages ("Global number of devices (3 per client *
 *         2 clients = 6) must be equal to total size of the mesh of shape
 *         (8,)", "Device type XPU is not CPU, GPU, or TPU."), UNIMPLEMENTED
 *         for TPU meshes.
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const char* const* local_devices, size_t num_local_devices, const char* device_type,
    bool use_xla_spmd, tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_MESH_CONSTRUCTION_H_ */
