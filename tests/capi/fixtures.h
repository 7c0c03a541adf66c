// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

/* Objects most C ABI tests start from. */
#ifndef TESSERA_TESTS_CAPI_FIXTURES_H_
#define TESSERA_TESTS_CAPI_FIXTURES_H_

#include "tessera/tessera.h"

/* Sets TESSERA_CPU_DEVICE_COUNT (NULL unsets it); returns 0 on failure. */
int fixture_set_cpu_devices(const char* count);

/*
 * tessera_mesh_create over `devices` (NULL and 0: the default devices),
 * through a tessera_mesh_options made and freed here.
 */
tessera_mesh* fixture_create_mesh(const int64_t* shape, const char* const* axis_names, size_t num_axes,
                                  const char* const* devices, size_t num_devices, tessera_error** err);

/* tessera_mesh_make (hybrid: tessera_mesh_make_hybrid) with these options; NULL/0 and NULL leave them unset. */
tessera_mesh* fixture_make_mesh(const int64_t* shape, const char* const* axis_names, size_t num_axes,
                                const char* const* devices, size_t num_devices, const char* device_kind,
                                tessera_error** err);
tessera_mesh* fixture_make_hybrid_mesh(const int64_t* mesh_shape, const int64_t* dcn_mesh_shape,
                                       const char* const* axis_names, size_t num_axes,
                                       const char* const* devices, size_t num_devices, bool sort_granules_by_key,
                                       tessera_error** err);

/*
 * tessera_dtensor_mesh_create (distributed: _create_distributed) with these
 * options; a NULL name or device type and NULL/0 devices leave them unset.
 */
tessera_dtensor_mesh* fixture_dtensor_mesh(bool distributed, const char* const* dim_names, const int64_t* dim_sizes,
                                           size_t num_dims, const char* name, const char* const* devices,
                                           size_t num_devices, const char* device_type, bool use_xla_spmd,
                                           tessera_error** err);

/* Mesh shape (2, 4), axes ("batch", "model"), devices cpu:0..cpu:7 row-major. */
tessera_mesh* fixture_mesh_2x4(void);

/* A 1-D mesh of `size` devices cpu:0.. on one axis called `axis` (size <= 8). */
tessera_mesh* fixture_mesh_1d(int size, const char* axis);

/* A rank-2 layout; NULL axes are replicated. `mesh` may be NULL. */
tessera_layout* fixture_layout_2d(const char* axis0, const char* axis1, const tessera_mesh* mesh);

#endif /* TESSERA_TESTS_CAPI_FIXTURES_H_ */
