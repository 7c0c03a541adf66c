/**
 * @file tessera/experimental/mesh_make.h
 * @brief Experimental: JAX's device-mesh construction (create_device_mesh, create_hybrid_device_mesh)
 *
 * Why experimental: the TPU ring and torus orders reproduce
 * jax.experimental.mesh_utils, whose heuristics change between JAX releases
 * (v4 and v5 slices gained new orders twice in 2024); Tessera follows them
 * as they move. The creators take tessera_mesh_options, so JAX's next
 * parameter is a new setter here.
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
 * JAX's device_kind ("TPU v4", "TPU v5 lite"), which picks the device order
 * (see tessera_mesh_make); NULL unsets it (no kind). Read by
 * tessera_mesh_make and tessera_mesh_make_hybrid only.
 * @param options      the options to change.
 * @param device_kind  copied; NULL to unset.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_options_set_device_kind(tessera_mesh_options* options, const char* device_kind,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How tessera_mesh_make_hybrid orders the processes: true by process index
 * (JAX's default, also when unset), false by first appearance. Read by
 * tessera_mesh_make_hybrid only.
 * @param options    the options to change.
 * @param sort       the order.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.2
 */
TESSERA_API bool tessera_mesh_options_set_sort_granules_by_key(tessera_mesh_options* options, bool sort,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

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
 * @param shape       `num_axes` mesh dimensions (each >= 1); copied.
 * @param axis_names  one name per dimension; copied.
 * @param num_axes    number of entries in `shape` and in `axis_names`.
 * @param options     devices (unset: every device of the default type) and
 *                    device_kind; NULL for the defaults. It must not set
 *                    sort_granules_by_key.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL
 *         (INVALID_ARGUMENT: fewer devices than the product, a dimension
 *         < 1, TPU coordinates that do not fill a cuboid, a shape whole
 *         torus axes cannot make (JAX's "Failed to find assignment for
 *         logical_axis_index ..."), tessera_mesh_create's checks).
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_make(const int64_t* shape, const char* const* axis_names, size_t num_axes,
                                            const tessera_mesh_options* options,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * JAX's create_hybrid_device_mesh with process_is_granule: one mesh of
 * `mesh_shape` per process (its devices as tessera_mesh_make orders them),
 * the processes placed in the grid `dcn_mesh_shape`. The result has shape
 * mesh_shape[i] * dcn_mesh_shape[i].
 *
 * @param mesh_shape      `num_axes` entries; copied.
 * @param dcn_mesh_shape  `num_axes` entries; copied.
 * @param axis_names      one name per dimension, as tessera_mesh_make.
 * @param num_axes        number of entries in each of the three arrays.
 * @param options         the devices of every process, device_kind and
 *                        sort_granules_by_key; NULL for the defaults.
 * @param out_error       receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller, or NULL (INVALID_ARGUMENT: "Number
 *         of slices 2 must equal the product of dcn_mesh_shape (1, 1)", a
 *         process whose device count is not prod(mesh_shape), and
 *         tessera_mesh_create's checks).
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_make_hybrid(const int64_t* mesh_shape, const int64_t* dcn_mesh_shape,
                                                   const char* const* axis_names, size_t num_axes,
                                                   const tessera_mesh_options* options,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_MESH_MAKE_H_ */
