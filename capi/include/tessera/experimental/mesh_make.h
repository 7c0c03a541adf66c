/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

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
 * JAX's allow_split_physical_axes: where whole physical TPU axes cannot make
 * a logical axis, split them (JAX's
 * _create_device_mesh_for_nd_torus_splitting_axes) instead of failing with
 * "Failed to find assignment for logical_axis_index ...". Unset: false.
 * Read by tessera_mesh_create_device_mesh, tessera_mesh_make_hybrid and
 * tessera_mesh_tpu_axis_assignment; tessera_mesh_make refuses it (jax.make_mesh
 * decides it from the device kind).
 * @param options    the options to change.
 * @param allow      the flag.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.3
 */
TESSERA_API bool tessera_mesh_options_set_allow_split_physical_axes(tessera_mesh_options* options, bool allow,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * JAX's contiguous_submeshes: before placing TPU devices on the torus,
 * transpose the physical mesh by JAX's table (_TRANSPOSE_TRICKS: topologies
 * 2x2x1, 2x2x4, 4x4x4, 4x8x8, 8x8x8, 8x16x16 with their mesh shapes) so each
 * process's devices form a contiguous submesh. Unset: false. Ignored, as in
 * JAX, where no torus placement happens (other platforms, JAX's per-kind
 * rings). Read by tessera_mesh_create_device_mesh only.
 * @param options     the options to change.
 * @param contiguous  the flag.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.3
 */
TESSERA_API bool tessera_mesh_options_set_contiguous_submeshes(tessera_mesh_options* options, bool contiguous,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The process that owns each device tessera_mesh_options_set_devices lists,
 * in the same order (JAX's device.process_index), to build the mesh of a
 * job that is not running here: tessera_mesh_make_hybrid's granules, and the
 * grouping by process of tessera_mesh_make and
 * tessera_mesh_create_device_mesh, follow them, and each device's local
 * ordinal becomes its index among the listed devices of its process and
 * platform. Unset, a listed device keeps the process the running job gives
 * it, or process 0. tessera_mesh_create does not read it.
 * @param options              the options to change.
 * @param process_indices      one process index per listed device; copied.
 *                             NULL with 0 unsets.
 * @param num_process_indices  number of entries in `process_indices`.
 * @param out_error            receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`, or a NULL
 *         `process_indices` with a nonzero count. The creators fail with
 *         INVALID_ARGUMENT ("Argument 'options' sets 2 process indices for 8
 *         devices; expected one per device") when the count is not the
 *         number of devices set, or no devices are set.
 * @since 0.3
 */
TESSERA_API bool tessera_mesh_options_set_device_processes(tessera_mesh_options* options,
                                                           const size_t* process_indices,
                                                           size_t num_process_indices,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * JAX's create_device_mesh, as a mesh with `axis_names`: the devices
 * ordered as tessera_mesh_make orders them, but they must number exactly
 * prod(shape) (tessera_mesh_make takes the first prod(shape)), and the
 * options' allow_split_physical_axes and contiguous_submeshes are read.
 *
 * @param shape       `num_axes` mesh dimensions (each >= 1); copied.
 * @param axis_names  one name per dimension; copied.
 * @param num_axes    number of entries in `shape` and in `axis_names`.
 * @param options     devices (unset: every device of the default type),
 *                    device_kind, allow_split_physical_axes,
 *                    contiguous_submeshes; NULL for the defaults. It must not
 *                    set sort_granules_by_key.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL:
 *         INVALID_ARGUMENT with JAX's "Number of devices 6 must equal the
 *         product of mesh_shape (2, 4)", "create_device_mesh cannot create
 *         contiguous submeshes for mesh_shape (8,) and physical mesh topology
 *         (4, 4, 4). Available mesh_shapes: [(16, 4)]", and
 *         tessera_mesh_make's other errors.
 * @since 0.3
 */
TESSERA_API tessera_mesh* tessera_mesh_create_device_mesh(const int64_t* shape, const char* const* axis_names,
                                                          size_t num_axes, const tessera_mesh_options* options,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The physical-to-logical axis assignment JAX's TPU torus placement makes
 * (the matrix _create_device_mesh_for_nd_torus returns with the mesh): for
 * physical axis p and logical axis l, out[p * num_axes + l] is the size
 * that p gives l, 1 where it gives none; row p multiplies to
 * physical_shape[p], column l to mesh_shape[l]. Logical axes from the last
 * take whole physical axes (S41: physical (4, 4, 4), mesh (1, 16, 4) gives
 * [1, 1, 4,  1, 4, 1,  1, 4, 1]); with allow_split_physical_axes, JAX's split
 * where whole axes cannot do.
 *
 * @param physical_shape     the chips along x, y, z (and cores per chip for
 *                           two-core kinds), 1 to 8 sizes >= 1.
 * @param num_physical_axes  number of entries in `physical_shape`.
 * @param mesh_shape         the logical mesh, `num_axes` sizes >= 1 with the
 *                           same product.
 * @param num_axes           number of entries in `mesh_shape`.
 * @param options            allow_split_physical_axes only (any other set
 *                           field is INVALID_ARGUMENT); NULL for the default.
 * @param out, capacity      num_physical_axes * num_axes entries, in
 *                           tessera.h's one output-array shape (Vocabulary).
 * @param out_error          receives a new error on failure (see error.h); may be NULL.
 * @return num_physical_axes * num_axes, or 0: INVALID_ARGUMENT for products
 *         that differ ("Argument 'mesh_shape' (2, 2) has 4 devices; expected
 *         the 16 of physical_shape (4, 4)") and JAX's "Failed to find
 *         assignment for logical_axis_index ...", OUT_OF_RANGE for too small
 *         a capacity.
 * @since 0.3
 */
TESSERA_API size_t tessera_mesh_tpu_axis_assignment(const int64_t* physical_shape, size_t num_physical_axes,
                                                    const int64_t* mesh_shape, size_t num_axes,
                                                    const tessera_mesh_options* options, int64_t* out,
                                                    size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

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
 *                    sort_granules_by_key, allow_split_physical_axes (set
 *                    for "TPU v5 lite" and "TPU v5e", as jax.make_mesh does)
 *                    or contiguous_submeshes: tessera_mesh_create_device_mesh
 *                    reads those.
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
 * @param options         the devices of every process, device_kind,
 *                        sort_granules_by_key and allow_split_physical_axes
 *                        (applied to every process's mesh); NULL for the
 *                        defaults. It must not set contiguous_submeshes.
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
