/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Mesh construction through the C ABI: make_mesh, hybrid meshes, PyTorch's
 * slicing and coordinates, DTensor's create_mesh and create_distributed_mesh.
 * The framework vectors are in tests/conformance; these check the C surface:
 * NULL conventions, ownership, and errors with their codes and messages. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixtures.h"
#include "harness.h"

static const char* const kGpus[] = {"gpu:0", "gpu:1", "gpu:2", "gpu:3",
                                    "gpu:4", "gpu:5", "gpu:6", "gpu:7"};

/* The global id of the mesh's device `index`; -1 when there is none. */
static int64_t device_id_at(const tessera_mesh* mesh, size_t index) {
  tessera_device* device = tessera_mesh_device(mesh, index, NULL);
  const int64_t id = device == NULL ? -1 : tessera_device_id(device, NULL);
  tessera_device_destroy(device);
  return id;
}

static void make_truncates_to_the_product_of_the_shape(void) {
  tessera_error* err = NULL;
  const int64_t shape[] = {2, 2};
  const char* const names[] = {"x", "y"};
  tessera_mesh* mesh = fixture_make_mesh(shape, names, 2, kGpus, 8, NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_mesh_num_devices(mesh, NULL));
  ASSERT_EQ(3, device_id_at(mesh, 3));
  tessera_mesh_destroy(mesh);
}

static void make_over_all_devices_when_devices_is_null(void) {
  tessera_error* err = NULL;
  const int64_t shape[] = {4, 2};
  const char* const names[] = {"x", "y"};
  tessera_mesh* mesh;
  ASSERT_TRUE(fixture_set_cpu_devices("8"));
  mesh = fixture_make_mesh(shape, names, 2, NULL, 0, "", &err);
  ASSERT_OK(err);
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  tessera_mesh_destroy(mesh);
}

static void make_with_too_few_devices_names_the_counts(void) {
  tessera_error* err = NULL;
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"x", "y"};
  ASSERT_NULL(fixture_make_mesh(shape, names, 2, kGpus, 6, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Number of devices 6 must be >= the product of mesh_shape (2, 4)");
}

static void make_applies_the_tpu_v3_tray_ring(void) {
  tessera_error* err = NULL;
  const int64_t shape[] = {8};
  const char* const names[] = {"x"};
  const char* const tpus[] = {"tpu:0", "tpu:1", "tpu:2", "tpu:3",
                              "tpu:4", "tpu:5", "tpu:6", "tpu:7"};
  tessera_mesh* mesh = fixture_make_mesh(shape, names, 1, tpus, 8, "TPU v3", &err);
  ASSERT_OK(err);
  ASSERT_EQ(6, device_id_at(mesh, 4));
  ASSERT_EQ(5, device_id_at(mesh, 7));
  tessera_mesh_destroy(mesh);
}

static void make_rejects_a_null_shape(void) {
  tessera_error* err = NULL;
  const char* const names[] = {"x"};
  ASSERT_NULL(fixture_make_mesh(NULL, names, 1, NULL, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'shape'");
}

static void hybrid_with_one_process_and_two_dcn_slots_fails(void) {
  tessera_error* err = NULL;
  const int64_t mesh_shape[] = {2, 2};
  const int64_t dcn[] = {1, 2};
  const char* const names[] = {"a", "b"};
  /* Parsed devices not in the device list belong to process 0: one granule. */
  ASSERT_NULL(fixture_make_hybrid_mesh(mesh_shape, dcn, names, 2, kGpus, 8, true, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Number of slices 1 must equal the product of dcn_mesh_shape (1, 2)");
}

static void hybrid_of_one_granule_is_its_mesh(void) {
  tessera_error* err = NULL;
  const int64_t mesh_shape[] = {2, 4};
  const int64_t dcn[] = {1, 1};
  const char* const names[] = {"a", "b"};
  tessera_mesh* mesh =
      fixture_make_hybrid_mesh(mesh_shape, dcn, names, 2, kGpus, 8, false, &err);
  ASSERT_OK(err);
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  ASSERT_EQ(5, device_id_at(mesh, 5));
  tessera_mesh_destroy(mesh);
}

static void submesh_holds_the_given_device(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  const char* const model[] = {"model"};
  tessera_mesh* sub = tessera_mesh_submesh(mesh, model, 1, 6, &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_mesh_num_devices(sub, NULL));
  ASSERT_EQ(4, device_id_at(sub, 0));
  ASSERT_EQ(7, device_id_at(sub, 3));
  tessera_mesh_destroy(sub);
  tessera_mesh_destroy(mesh);
}

static void submesh_names_out_of_order_are_invalid(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  const char* const names[] = {"model", "batch"};
  ASSERT_NULL(tessera_mesh_submesh(mesh, names, 2, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Invalid mesh_dim_names ('model', 'batch') specified. Mesh dim indices should be "
               "in ascending order.");
  ASSERT_NULL(tessera_mesh_submesh(NULL, names, 1, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'mesh'");
  tessera_mesh_destroy(mesh);
}

static void flatten_joins_the_axis_names(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  tessera_mesh* flat = tessera_mesh_flatten(mesh, NULL, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("batch_model", tessera_mesh_axis_name(flat, 0, &err));
  ASSERT_EQ(8, tessera_mesh_num_devices(flat, NULL));
  tessera_mesh_destroy(flat);
  tessera_mesh_destroy(mesh);
}

static void local_rank_is_the_coordinate_on_the_axis(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t rank = -1;
  ASSERT_TRUE(tessera_mesh_local_rank(mesh, "model", 6, &rank, &err));
  ASSERT_OK(err);
  ASSERT_EQ(2, rank);
  ASSERT_FALSE(tessera_mesh_local_rank(mesh, "pp", 6, &rank, &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND, "pp");
  tessera_mesh_destroy(mesh);
}

static void axis_groups_are_consecutive_runs(void) {
  tessera_error* err = NULL;
  tessera_mesh* mesh = fixture_mesh_2x4();
  int64_t ids[8];
  const int64_t expected[8] = {0, 4, 1, 5, 2, 6, 3, 7};
  size_t i;
  ASSERT_EQ(8, tessera_mesh_axis_groups(mesh, "batch", ids, 8, &err));
  ASSERT_OK(err);
  for (i = 0; i < 8; ++i) ASSERT_EQ(expected[i], ids[i]);
  ASSERT_EQ(0, tessera_mesh_axis_groups(mesh, "batch", ids, 7, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'capacity' is 7; expected at least 8");
  tessera_mesh_destroy(mesh);
}

static void dtensor_create_defaults_to_one_x_axis_over_local_cpus(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh;
  int64_t id = -1;
  ASSERT_TRUE(fixture_set_cpu_devices("4"));
  mesh = fixture_dtensor_mesh(false, NULL, NULL, 0, NULL, NULL, 0, NULL, false, &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_dtensor_mesh_num_dims(mesh, NULL));
  ASSERT_STREQ("x", tessera_dtensor_mesh_dim_name(mesh, 0, &err));
  ASSERT_EQ(4, tessera_dtensor_mesh_num_local_ids(mesh, NULL));
  ASSERT_TRUE(tessera_dtensor_mesh_local_id(mesh, 3, &id, &err));
  ASSERT_EQ(3, id);
  ASSERT_STREQ("/job:localhost/replica:0/task:0/device:CPU:3",
               tessera_dtensor_mesh_local_device(mesh, 3, &err));
  ASSERT_OK(err);
  tessera_dtensor_mesh_destroy(mesh);
}

static void dtensor_create_size_mismatch_uses_dtensors_message(void) {
  tessera_error* err = NULL;
  const char* const names[] = {"x"};
  const int64_t sizes[] = {3};
  ASSERT_TRUE(fixture_set_cpu_devices("4"));
  ASSERT_NULL(fixture_dtensor_mesh(false, names, sizes, 1, "", NULL, 0, "CPU", false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "length of devices (4) must be equal to total size of the mesh of shape [3]");
}

static void dtensor_distributed_single_client_owns_every_id(void) {
  tessera_error* err = NULL;
  const char* const names[] = {"batch", "model"};
  const int64_t sizes[] = {2, 2};
  const char* const devices[] = {"CPU:0", "CPU:1", "CPU:2", "CPU:3"};
  tessera_dtensor_mesh* mesh;
  ASSERT_TRUE(fixture_set_cpu_devices("4"));
  mesh = fixture_dtensor_mesh(true, names, sizes, 2, "m", devices, 4, NULL, false, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("m", tessera_dtensor_mesh_name(mesh, NULL));
  ASSERT_EQ(4, tessera_dtensor_mesh_num_global_ids(mesh, NULL));
  ASSERT_EQ(4, tessera_dtensor_mesh_num_local_ids(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

static void dtensor_distributed_with_xla_spmd_on_cpu_fails(void) {
  tessera_error* err = NULL;
  const char* const names[] = {"x"};
  const int64_t sizes[] = {2};
  const char* const devices[] = {"CPU:0", "CPU:1"};
  ASSERT_NULL(fixture_dtensor_mesh(true, names, sizes, 1, NULL, devices, 2, NULL, true, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "XLA SPMD is not currently not supported for");
}

static void dtensor_distributed_needs_dims(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(fixture_dtensor_mesh(true, NULL, NULL, 1, NULL, NULL, 0, NULL, false, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'dim_sizes'");
}

static void dtensor_legacy_multi_client_needs_initialize(void) {
  tessera_error* err = NULL;
  const char* const names[] = {"x"};
  const int64_t sizes[] = {8};
  const int64_t num_global = 8, num_clients = 2, client_id = 0;
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed_legacy(
      names, sizes, 1, NULL, &num_global, &num_clients, &client_id, NULL, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "Invalid multi-client topology, run dtensor.initialize_multi_client() first");
}

static void dtensor_legacy_single_client_defaults(void) {
  tessera_error* err = NULL;
  const char* const names[] = {"x"};
  const int64_t sizes[] = {4};
  tessera_dtensor_mesh* mesh;
  ASSERT_TRUE(fixture_set_cpu_devices("4"));
  mesh = tessera_dtensor_mesh_create_distributed_legacy(names, sizes, 1, NULL, NULL, NULL, NULL,
                                                        "CPU", &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_dtensor_mesh_num_local_ids(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

static void dtensor_legacy_tpu_counts_are_refused(void) {
  tessera_error* err = NULL;
  const char* const names[] = {"x"};
  const int64_t sizes[] = {8};
  const int64_t num_clients = 1;
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed_legacy(names, sizes, 1, NULL, NULL,
                                                             &num_clients, NULL, "TPU", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Do not specify num_clients for TPU meshes.");
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed_legacy(names, sizes, 1, NULL, NULL, NULL,
                                                             NULL, "TPU", &err));
  ASSERT_ERROR(err, TESSERA_UNIMPLEMENTED, "TPU meshes");
}

static void make_refuses_the_hybrid_only_option_naming_it(void) {
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"data", "model"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_mesh_options_set_sort_granules_by_key(options, true, &err));
  ASSERT_NULL(tessera_mesh_make(shape, names, 2, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' sets sort_granules_by_key, which tessera_mesh_make does not read; "
               "expected options without it");
  tessera_mesh_options_destroy(options);
}

static void dtensor_options_name_and_type_are_required_strings(void) {
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_dtensor_mesh_options_set_name(options, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'name' is NULL");
  ASSERT_FALSE(tessera_dtensor_mesh_options_set_device_type(options, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device_type' is NULL");
  tessera_dtensor_mesh_options_destroy(options);
}

static void dtensor_null_options_are_the_defaults(void) {
  const char* const names[] = {"x"};
  const int64_t sizes[] = {-1};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_create(names, sizes, 1, NULL, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("", tessera_dtensor_mesh_name(mesh, NULL));
  ASSERT_FALSE(tessera_dtensor_mesh_use_xla_spmd(mesh, NULL));
  ASSERT_STREQ("CPU", tessera_dtensor_mesh_device_type(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

/* --- JAX's create_device_mesh and the TPU axis assignment (issue 11) --- */

static const char* const kTpu64[] = {
    "tpu:0",  "tpu:1",  "tpu:2",  "tpu:3",  "tpu:4",  "tpu:5",  "tpu:6",  "tpu:7",  "tpu:8",  "tpu:9",  "tpu:10",
    "tpu:11", "tpu:12", "tpu:13", "tpu:14", "tpu:15", "tpu:16", "tpu:17", "tpu:18", "tpu:19", "tpu:20", "tpu:21",
    "tpu:22", "tpu:23", "tpu:24", "tpu:25", "tpu:26", "tpu:27", "tpu:28", "tpu:29", "tpu:30", "tpu:31", "tpu:32",
    "tpu:33", "tpu:34", "tpu:35", "tpu:36", "tpu:37", "tpu:38", "tpu:39", "tpu:40", "tpu:41", "tpu:42", "tpu:43",
    "tpu:44", "tpu:45", "tpu:46", "tpu:47", "tpu:48", "tpu:49", "tpu:50", "tpu:51", "tpu:52", "tpu:53", "tpu:54",
    "tpu:55", "tpu:56", "tpu:57", "tpu:58", "tpu:59", "tpu:60", "tpu:61", "tpu:62", "tpu:63"};

/* create_device_mesh over the 64 chips of a TPU v4 4x4x4 slice (device i at
 * x = i % 4, y = i / 4 % 4, z = i / 16), with or without contiguous submeshes. */
static tessera_mesh* create_on_v4_4x4x4(const int64_t* shape, size_t num_axes, bool contiguous, tessera_error** err) {
  const char* const names[] = {"a", "b", "c"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_mesh* mesh = NULL;
  if (setenv("TESSERA_DEVICES", "tpu*64:TPU v4@4x4x4", 1) != 0) return NULL;
  if (tessera_mesh_options_set_devices(options, kTpu64, 64, err) &&
      tessera_mesh_options_set_device_kind(options, "TPU v4", err) &&
      tessera_mesh_options_set_contiguous_submeshes(options, contiguous, err)) {
    mesh = tessera_mesh_create_device_mesh(shape, names, num_axes, options, err);
  }
  tessera_mesh_options_destroy(options);
  setenv("TESSERA_DEVICES", "", 1); /* the suite's hermetic default */
  return mesh;
}

static void create_device_mesh_needs_exactly_the_product_of_the_shape(void) {
  const int64_t shape[] = {2, 2};
  const char* const names[] = {"x", "y"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_mesh_options_set_devices(options, kGpus, 8, &err));
  ASSERT_NULL(tessera_mesh_create_device_mesh(shape, names, 2, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Number of devices 8 must equal the product of mesh_shape (2, 2)");
  tessera_mesh_options_destroy(options);
}

static void create_device_mesh_sorts_gpus_by_id(void) {
  const int64_t shape[] = {2, 2};
  const char* const names[] = {"x", "y"};
  const char* const gpus[] = {"gpu:3", "gpu:1", "gpu:2", "gpu:0"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  tessera_mesh* mesh;
  ASSERT_TRUE(tessera_mesh_options_set_devices(options, gpus, 4, &err));
  mesh = tessera_mesh_create_device_mesh(shape, names, 2, options, &err);
  ASSERT_OK(err);
  ASSERT_EQ(0, device_id_at(mesh, 0));
  ASSERT_EQ(3, device_id_at(mesh, 3));
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(options);
}

static void create_device_mesh_places_v4_chips_on_the_torus(void) {  /* S41's shape without the size-1 axis */
  const int64_t shape[] = {16, 4};
  tessera_error* err = NULL;
  tessera_mesh* mesh = create_on_v4_4x4x4(shape, 2, false, &err);
  ASSERT_OK(err);
  /* Axis 1 (4) takes x, axis 0 (16) takes y and z: the next row is z + 1. */
  ASSERT_EQ(1, device_id_at(mesh, 1));
  ASSERT_EQ(16, device_id_at(mesh, 4));
  ASSERT_EQ(4, device_id_at(mesh, 16));
  tessera_mesh_destroy(mesh);
}

static void contiguous_submeshes_transposes_the_physical_mesh_first(void) {
  const int64_t shape[] = {16, 4};
  tessera_error* err = NULL;
  tessera_mesh* mesh = create_on_v4_4x4x4(shape, 2, true, &err);
  ASSERT_OK(err);
  /* JAX's trick for 4x4x4 and (16, 4) swaps y and z: rows run along y. */
  ASSERT_EQ(4, device_id_at(mesh, 4));
  ASSERT_EQ(16, device_id_at(mesh, 16));
  tessera_mesh_destroy(mesh);
}

static void contiguous_submeshes_for_a_shape_jax_has_no_trick_for_fails(void) {
  const int64_t shape[] = {8, 8};
  tessera_error* err = NULL;
  ASSERT_NULL(create_on_v4_4x4x4(shape, 2, true, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "create_device_mesh cannot create contiguous submeshes for mesh_shape (8, 8) and physical mesh "
               "topology (4, 4, 4). Available mesh_shapes: [(16, 4)]");
}

static void make_refuses_allow_split_physical_axes(void) {
  const int64_t shape[] = {2, 4};
  const char* const names[] = {"data", "model"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_mesh_options_set_allow_split_physical_axes(options, true, &err));
  ASSERT_NULL(tessera_mesh_make(shape, names, 2, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' sets allow_split_physical_axes, which tessera_mesh_make does not read");
  tessera_mesh_options_destroy(options);
}

static void tpu_axis_assignment_gives_jaxs_matrix(void) {  /* S41 */
  const int64_t physical[] = {4, 4, 4};
  const int64_t logical[] = {1, 16, 4};
  const int64_t expected[] = {1, 1, 4, 1, 4, 1, 1, 4, 1};
  int64_t out[9] = {0};
  tessera_error* err = NULL;
  ASSERT_EQ(9, tessera_mesh_tpu_axis_assignment(physical, 3, logical, 3, NULL, out, 9, &err));
  ASSERT_OK(err);
  for (size_t i = 0; i < 9; ++i) ASSERT_EQ(expected[i], out[i]);
}

static void tpu_axis_assignment_without_split_fails_as_jax(void) {
  const int64_t physical[] = {4, 4};
  const int64_t logical[] = {2, 8};
  int64_t out[4];
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_mesh_tpu_axis_assignment(physical, 2, logical, 2, NULL, out, 4, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Failed to find assignment for logical_axis_index 1 of size 8 with remaining assignable mesh [4, 4].");
}

static void tpu_axis_assignment_splits_when_allowed(void) {
  const int64_t physical[] = {4, 4};
  const int64_t logical[] = {2, 8};
  const int64_t expected[] = {1, 4, 2, 2};
  int64_t out[4] = {0};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_mesh_options_set_allow_split_physical_axes(options, true, &err));
  ASSERT_EQ(4, tessera_mesh_tpu_axis_assignment(physical, 2, logical, 2, options, out, 4, &err));
  ASSERT_OK(err);
  for (size_t i = 0; i < 4; ++i) ASSERT_EQ(expected[i], out[i]);
  tessera_mesh_options_destroy(options);
}

static void tpu_axis_assignment_needs_equal_products(void) {
  const int64_t physical[] = {4, 4};
  const int64_t logical[] = {2, 2};
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_mesh_tpu_axis_assignment(physical, 2, logical, 2, NULL, NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'mesh_shape' (2, 2) has 4 devices; expected the 16 of physical_shape (4, 4)");
}

/* Options listing kGpus, owned by processes 0, 0, 0, 0, 1, 1, 1, 1 (or the first `num_processes` of them). */
static tessera_mesh_options* gpus_of_two_processes(size_t num_processes, tessera_error** err) {
  static const size_t kProcesses[] = {0, 0, 0, 0, 1, 1, 1, 1};
  tessera_mesh_options* options = tessera_mesh_options_create();
  if (!tessera_mesh_options_set_devices(options, kGpus, 8, err) ||
      !tessera_mesh_options_set_device_processes(options, kProcesses, num_processes, err)) {
    tessera_mesh_options_destroy(options);
    return NULL;
  }
  return options;
}

static void device_processes_own_the_listed_devices_with_their_own_ordinals(void) {
  const int64_t shape[] = {8};
  const char* const names[] = {"x"};
  tessera_error* err = NULL;
  tessera_mesh_options* options = gpus_of_two_processes(8, &err);
  tessera_mesh* mesh = tessera_mesh_create_device_mesh(shape, names, 1, options, &err);
  tessera_device* device;
  ASSERT_OK(err);
  device = tessera_mesh_device(mesh, 5, &err);
  ASSERT_EQ(5, tessera_device_id(device, &err));
  ASSERT_EQ(1, tessera_device_process_index(device, &err));
  ASSERT_EQ(1, tessera_device_local_ordinal(device, &err));
  ASSERT_OK(err);
  tessera_device_destroy(device);
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(options);
}

static void device_processes_make_one_granule_per_process(void) {
  const int64_t mesh_shape[] = {2, 2};
  const int64_t dcn[] = {1, 2};
  const char* const names[] = {"a", "b"};
  tessera_error* err = NULL;
  tessera_mesh_options* options = gpus_of_two_processes(8, &err);
  tessera_mesh* mesh = tessera_mesh_make_hybrid(mesh_shape, dcn, names, 2, options, &err);
  ASSERT_OK(err);
  ASSERT_EQ(8, tessera_mesh_num_devices(mesh, NULL));
  ASSERT_EQ(4, device_id_at(mesh, 2)); /* row 0: process 0's 0, 1, then process 1's 4, 5 */
  tessera_mesh_destroy(mesh);
  tessera_mesh_options_destroy(options);
}

static void device_processes_need_one_entry_per_device(void) {
  const int64_t shape[] = {8};
  const char* const names[] = {"x"};
  tessera_error* err = NULL;
  tessera_mesh_options* options = gpus_of_two_processes(2, &err);
  ASSERT_NULL(tessera_mesh_create_device_mesh(shape, names, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' sets 2 process indices for 8 devices; expected one per device");
  tessera_mesh_options_destroy(options);
}

static void device_processes_need_devices(void) {
  static const size_t kProcesses[] = {0, 1};
  const int64_t shape[] = {2};
  const char* const names[] = {"x"};
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_TRUE(tessera_mesh_options_set_device_processes(options, kProcesses, 2, &err));
  ASSERT_NULL(tessera_mesh_make(shape, names, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' sets device_processes but no devices; expected "
               "tessera_mesh_options_set_devices too (the processes own the devices it lists, in order)");
  tessera_mesh_options_destroy(options);
}

static void device_processes_null_with_a_count_is_invalid(void) {
  tessera_mesh_options* options = tessera_mesh_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_mesh_options_set_device_processes(options, NULL, 2, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'process_indices'");
  tessera_mesh_options_destroy(options);
}

static void mesh_create_refuses_device_processes(void) {
  const int64_t shape[] = {8};
  const char* const names[] = {"x"};
  tessera_error* err = NULL;
  tessera_mesh_options* options = gpus_of_two_processes(8, &err);
  ASSERT_NULL(tessera_mesh_create(shape, names, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'options' sets device_processes, which tessera_mesh_create does not read; "
               "expected options without it");
  tessera_mesh_options_destroy(options);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(make_truncates_to_the_product_of_the_shape),
      HARNESS_TEST(make_refuses_the_hybrid_only_option_naming_it),
      HARNESS_TEST(dtensor_options_name_and_type_are_required_strings),
      HARNESS_TEST(dtensor_null_options_are_the_defaults),
      HARNESS_TEST(make_over_all_devices_when_devices_is_null),
      HARNESS_TEST(make_with_too_few_devices_names_the_counts),
      HARNESS_TEST(make_applies_the_tpu_v3_tray_ring),
      HARNESS_TEST(make_rejects_a_null_shape),
      HARNESS_TEST(hybrid_with_one_process_and_two_dcn_slots_fails),
      HARNESS_TEST(hybrid_of_one_granule_is_its_mesh),
      HARNESS_TEST(submesh_holds_the_given_device),
      HARNESS_TEST(submesh_names_out_of_order_are_invalid),
      HARNESS_TEST(flatten_joins_the_axis_names),
      HARNESS_TEST(local_rank_is_the_coordinate_on_the_axis),
      HARNESS_TEST(axis_groups_are_consecutive_runs),
      HARNESS_TEST(dtensor_create_defaults_to_one_x_axis_over_local_cpus),
      HARNESS_TEST(dtensor_create_size_mismatch_uses_dtensors_message),
      HARNESS_TEST(dtensor_distributed_single_client_owns_every_id),
      HARNESS_TEST(dtensor_distributed_with_xla_spmd_on_cpu_fails),
      HARNESS_TEST(dtensor_distributed_needs_dims),
      HARNESS_TEST(dtensor_legacy_multi_client_needs_initialize),
      HARNESS_TEST(dtensor_legacy_single_client_defaults),
      HARNESS_TEST(dtensor_legacy_tpu_counts_are_refused),
      HARNESS_TEST(create_device_mesh_needs_exactly_the_product_of_the_shape),
      HARNESS_TEST(create_device_mesh_sorts_gpus_by_id),
      HARNESS_TEST(create_device_mesh_places_v4_chips_on_the_torus),
      HARNESS_TEST(contiguous_submeshes_transposes_the_physical_mesh_first),
      HARNESS_TEST(contiguous_submeshes_for_a_shape_jax_has_no_trick_for_fails),
      HARNESS_TEST(make_refuses_allow_split_physical_axes),
      HARNESS_TEST(tpu_axis_assignment_gives_jaxs_matrix),
      HARNESS_TEST(tpu_axis_assignment_without_split_fails_as_jax),
      HARNESS_TEST(tpu_axis_assignment_splits_when_allowed),
      HARNESS_TEST(tpu_axis_assignment_needs_equal_products),
      HARNESS_TEST(device_processes_own_the_listed_devices_with_their_own_ordinals),
      HARNESS_TEST(device_processes_make_one_granule_per_process),
      HARNESS_TEST(device_processes_need_one_entry_per_device),
      HARNESS_TEST(device_processes_need_devices),
      HARNESS_TEST(device_processes_null_with_a_count_is_invalid),
      HARNESS_TEST(mesh_create_refuses_device_processes),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
