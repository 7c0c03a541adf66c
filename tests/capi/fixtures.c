/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* setenv and unsetenv are POSIX, not C99. */
#define _POSIX_C_SOURCE 200112L

#include "fixtures.h"

#include <stdlib.h>

static const char* const kDevices[] = {"cpu:0", "cpu:1", "cpu:2", "cpu:3",
                                       "cpu:4", "cpu:5", "cpu:6", "cpu:7"};

int fixture_set_cpu_devices(const char* count) {
  if (count == NULL) return unsetenv("TESSERA_CPU_DEVICE_COUNT") == 0;
  return setenv("TESSERA_CPU_DEVICE_COUNT", count, 1) == 0;
}

tessera_mesh* fixture_create_mesh(const int64_t* shape, const char* const* axis_names, size_t num_axes,
                                  const char* const* devices, size_t num_devices, tessera_error** err) {
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_mesh* mesh = NULL;
  if (tessera_mesh_options_set_devices(options, devices, num_devices, err)) {
    mesh = tessera_mesh_create(shape, axis_names, num_axes, options, err);
  }
  tessera_mesh_options_destroy(options);
  return mesh;
}

/* Options with these devices and device kind; NULL when a setter failed (err says why). */
static tessera_mesh_options* make_options(const char* const* devices, size_t num_devices, const char* device_kind,
                                          tessera_error** err) {
  tessera_mesh_options* options = tessera_mesh_options_create();
  if (tessera_mesh_options_set_devices(options, devices, num_devices, err) &&
      tessera_mesh_options_set_device_kind(options, device_kind, err)) {
    return options;
  }
  tessera_mesh_options_destroy(options);
  return NULL;
}

tessera_mesh* fixture_make_mesh(const int64_t* shape, const char* const* axis_names, size_t num_axes,
                                const char* const* devices, size_t num_devices, const char* device_kind,
                                tessera_error** err) {
  tessera_mesh_options* options = make_options(devices, num_devices, device_kind, err);
  tessera_mesh* mesh = options == NULL ? NULL : tessera_mesh_make(shape, axis_names, num_axes, options, err);
  tessera_mesh_options_destroy(options);
  return mesh;
}

tessera_mesh* fixture_make_hybrid_mesh(const int64_t* mesh_shape, const int64_t* dcn_mesh_shape,
                                       const char* const* axis_names, size_t num_axes,
                                       const char* const* devices, size_t num_devices, bool sort_granules_by_key,
                                       tessera_error** err) {
  tessera_mesh_options* options = make_options(devices, num_devices, NULL, err);
  tessera_mesh* mesh = NULL;
  if (options != NULL && tessera_mesh_options_set_sort_granules_by_key(options, sort_granules_by_key, err)) {
    mesh = tessera_mesh_make_hybrid(mesh_shape, dcn_mesh_shape, axis_names, num_axes, options, err);
  }
  tessera_mesh_options_destroy(options);
  return mesh;
}

tessera_dtensor_mesh* fixture_dtensor_mesh(bool distributed, const char* const* dim_names, const int64_t* dim_sizes,
                                           size_t num_dims, const char* name, const char* const* devices,
                                           size_t num_devices, const char* device_type, bool use_xla_spmd,
                                           tessera_error** err) {
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  tessera_dtensor_mesh* mesh = NULL;
  if ((name == NULL || tessera_dtensor_mesh_options_set_name(options, name, err)) &&
      tessera_dtensor_mesh_options_set_devices(options, devices, num_devices, err) &&
      (device_type == NULL || tessera_dtensor_mesh_options_set_device_type(options, device_type, err)) &&
      tessera_dtensor_mesh_options_set_use_xla_spmd(options, use_xla_spmd, err)) {
    mesh = distributed ? tessera_dtensor_mesh_create_distributed(dim_names, dim_sizes, num_dims, options, err)
                       : tessera_dtensor_mesh_create(dim_names, dim_sizes, num_dims, options, err);
  }
  tessera_dtensor_mesh_options_destroy(options);
  return mesh;
}

tessera_mesh* fixture_mesh_2x4(void) {
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"batch", "model"};
  return fixture_create_mesh(shape, names, 2, kDevices, 8, NULL);
}

tessera_mesh* fixture_mesh_1d(int size, const char* axis) {
  const int64_t shape[] = {size};
  const char* const names[] = {axis};
  return fixture_create_mesh(shape, names, 1, kDevices, (size_t)size, NULL);
}

tessera_layout* fixture_layout_2d(const char* axis0, const char* axis1, const tessera_mesh* mesh) {
  const char* const axes[] = {axis0, axis1};
  return tessera_layout_create(axes, 2, mesh, NULL);
}
