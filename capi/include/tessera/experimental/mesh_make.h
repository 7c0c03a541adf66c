/**
 * @file tessera/experimental/mesh_make.h
 * @brief Experimental: JAX's device-mesh construction (create_device_mesh, create_hybrid_device_mesh)
 *
 * Why experimental: the TPU ring and torus orders reproduce
 * jax.experimental.mesh_utils, whose heuristics change between JAX releases
 * (v4 and v5 slices gained new orders twice in 2024); Tessera follows them
 * as they move, and the creators will take an options handle when JAX's
 * next parameter arrives.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_MESH_MAKE_H_
#define TESSERA_EXPERIMENTAL_MESH_MAKE_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/mesh_make.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include "tessera/device.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/**
 * JAX's make_mesh: the first prod(shape) devices, ordered as
 * create_device_mesh orders them (GPU devices by global id, so each
 * process's devices stay together; the TPU v2/v3 tray ring when
 * `device_kind` is "TPU v2" or "TPU v3"; JAX's rings for small v4 lite,
 * v5e/v6e, v5p and 7x slices; TPU devices with chip coordinates
 * (tessera_device_coordinate) placed on the torus, each logical axis from the
 * last taking whole physical axes, split for "TPU v5 lite" as JAX does;
 * other platforms as given, grouped by process).
 *
 * @param shape, num_dims              mesh dimensions (each >= 1); copied.
 * @param axis_names, num_axis_names   one name per dimension; copied.
 * @param devices, num_devices         "gpu:3" strings; NULL means every
 *                                     device of the default type.
 * @param device_kind                  JAX's device_kind; NULL or "" for none.
 * @param out_error                    receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL
 *         (INVALID_ARGUMENT: fewer devices than the product, a dimension
 *         < 1, TPU coordinates that do not fill a cuboid, a shape whole
 *         torus axes cannot make (JAX's "Failed to find assignment for
 *         logical_axis_index ..."), tessera_mesh_create's checks).
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_make(const int64_t* shape, size_t num_dims,
                                            const char* const* axis_names, size_t num_axis_names,
                                            const char* const* devices, size_t num_devices,
                                            const char* device_kind,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * JAX's create_hybrid_device_mesh with process_is_granule: one mesh of
 * `mesh_shape` per process (its devices as tessera_mesh_make orders them),
 * the processes placed in the grid `dcn_mesh_shape`. The result has shape
 * mesh_shape[i] * dcn_mesh_shape[i].
 *
 * @param mesh_shape, dcn_mesh_shape   num_dims entries each; copied.
 * @param sort_granules_by_key         true: processes by index (JAX's
 *                                     default); false: by first appearance.
 * @param num_dims                     number of entries in `mesh_shape` and `dcn_mesh_shape`.
 * @param axis_names                   one name per dimension, as tessera_mesh_make.
 * @param num_axis_names               number of entries in `axis_names`.
 * @param devices                      the devices of every process, as tessera_mesh_make.
 * @param num_devices                  number of entries in `devices`.
 * @param device_kind                  as tessera_mesh_make.
 * @param out_error                    receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller, or NULL (INVALID_ARGUMENT: "Number
 *         of slices 2 must equal the product of dcn_mesh_shape (1, 1)", a
 *         process whose device count is not prod(mesh_shape), and
 *         tessera_mesh_create's checks).
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_make_hybrid(
    const int64_t* mesh_shape, const int64_t* dcn_mesh_shape, size_t num_dims,
    const char* const* axis_names, size_t num_axis_names, const char* const* devices,
    size_t num_devices, bool sort_granules_by_key, const char* device_kind,
    tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_MESH_MAKE_H_ */
