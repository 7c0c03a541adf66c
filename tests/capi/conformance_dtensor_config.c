/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * DTensor conformance through the C ABI, sections C (the Python Mesh
 * constructor), F (configuration) and G (create_mesh and
 * create_distributed_mesh) of shared/conformance/dtensor_cases.md, plus
 * D19 (a mesh's dimensions by name): one row of the table at the bottom per
 * odd vector, named for its number, each calling the public C functions a
 * DTensor user's code would call. The job is always described explicitly
 * (tessera_dtensor_config from NAME=VALUE entries and device counts), so no
 * row depends on this process's environment or devices.
 *
 * D53 and D55 (the Python Layout constructor and its repr) are here too, as
 * section C's, over tessera_dtensor_layout_create.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define NO_VARIABLES ((const char* const*)NULL)

/* A config over `variables` whose clients have `num_cpus` CPUs (and as many GPUs). */
static tessera_dtensor_config* job(const char* const* variables, size_t num_variables,
                                   size_t num_cpus, bool initialized) {
  tessera_dtensor_config_options* options = tessera_dtensor_config_options_create();
  tessera_dtensor_config* config;
  tessera_dtensor_config_options_set_variables(options, variables, num_variables, NULL);
  tessera_dtensor_config_options_set_num_local_devices(options, "CPU", num_cpus, NULL);
  tessera_dtensor_config_options_set_num_local_devices(options, "GPU", num_cpus, NULL);
  tessera_dtensor_config_options_set_accelerators_initialized(options, initialized, NULL);
  config = tessera_dtensor_config_create(options, NULL);
  tessera_dtensor_config_options_destroy(options);
  return config;
}

/* Mesh options naming the job `config` (and, when not NULL, devices and a type). */
static tessera_dtensor_mesh_options* mesh_options(const tessera_dtensor_config* config,
                                                  const char* const* devices, size_t num_devices,
                                                  const char* device_type, bool use_xla_spmd) {
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  tessera_dtensor_mesh_options_set_config(options, config, NULL);
  if (devices != NULL) tessera_dtensor_mesh_options_set_devices(options, devices, num_devices, NULL);
  if (device_type != NULL) tessera_dtensor_mesh_options_set_device_type(options, device_type, NULL);
  tessera_dtensor_mesh_options_set_use_xla_spmd(options, use_xla_spmd, NULL);
  return options;
}

/* Reports unless the mesh's ids of `which` ("global" or "local") are `expected`. */
static void expect_ids(const tessera_dtensor_mesh* mesh, const char* which, const int64_t* expected,
                       size_t num_expected, int line) {
  const int global = strcmp(which, "global") == 0;
  const size_t n = global ? tessera_dtensor_mesh_num_global_ids(mesh, NULL)
                          : tessera_dtensor_mesh_num_local_ids(mesh, NULL);
  size_t i;
  if (n != num_expected) {
    harness_fail(__FILE__, line, "%s ids: expected %zu, got %zu", which, num_expected, n);
    return;
  }
  for (i = 0; i < n; ++i) {
    int64_t id = -1;
    if (global) {
      tessera_dtensor_mesh_global_id(mesh, i, &id, NULL);
    } else {
      tessera_dtensor_mesh_local_id(mesh, i, &id, NULL);
    }
    if (id != expected[i]) {
      harness_fail(__FILE__, line, "%s id %zu: expected %lld, got %lld", which, i,
                   (long long)expected[i], (long long)id);
    }
  }
}

/* ---- C. The Python Mesh constructor ------------------------------------------- */

static void d47_coords_wrap_modulo_the_mesh_size(void) {
  static const struct {
    int64_t index;
    int64_t coords[3];
  } rows[] = {{0, {0, 0, 0}},  {5, {0, 2, 1}},  {15, {1, 3, 1}},
              {16, {0, 0, 0}}, {21, {0, 2, 1}}, {47, {1, 3, 1}}};
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("|a=2,b=4,c=2|*CPU", NULL);
  size_t r;
  ASSERT_NOT_NULL(mesh);
  for (r = 0; r < HARNESS_COUNT(rows); ++r) {
    int64_t coords[3] = {-1, -1, -1};
    tessera_error* err = NULL;
    ASSERT_EQ(3, tessera_dtensor_mesh_coordinates(mesh, rows[r].index, coords, 3, &err));
    ASSERT_OK(err);
    ASSERT_TRUE(memcmp(coords, rows[r].coords, sizeof coords) == 0);
  }
  tessera_dtensor_mesh_destroy(mesh);
}

static void d49_two_device_types_are_refused(void) {
  const char* const names[] = {"batch", "x"};
  const int64_t sizes[] = {2, 2};
  const int64_t ids[] = {0, 1, 2, 3};
  const char* const devices[] = {"/job:localhost/replica:0/task:0/device:CPU:0",
                                 "/job:localhost/replica:0/task:0/device:CPU:1",
                                 "/job:localhost/replica:0/task:0/device:TPU:0",
                                 "/job:localhost/replica:0/task:0/device:TPU:1"};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_create_from_ids(names, sizes, 2, ids, 4, ids, 4, devices, 4, NULL,
                                                   &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Devices containing multiple device_types");
}

static void d51_global_ids_must_be_consecutive(void) {
  const char* const names[] = {"batch"};
  const int64_t sizes[] = {2};
  const int64_t flipped[] = {1, 0};
  const int64_t from_five[] = {5, 6, 7};
  const int64_t three[] = {3};
  const char* const devices[] = {"/job:localhost/replica:0/task:0/device:CPU:0",
                                 "/job:localhost/replica:0/task:0/device:CPU:1",
                                 "/job:localhost/replica:0/task:0/device:CPU:2"};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh;
  ASSERT_NULL(tessera_dtensor_mesh_create_from_ids(names, sizes, 1, flipped, 2, flipped, 2, devices,
                                                   2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "global_device_ids must sequentially increase: [1 0]");
  /* [D]: consecutive from any start is enough. */
  mesh = tessera_dtensor_mesh_create_from_ids(names, three, 1, from_five, 3, from_five, 3, devices, 3,
                                              NULL, &err);
  ASSERT_OK(err);
  ASSERT_NOT_NULL(mesh);
  tessera_dtensor_mesh_destroy(mesh);
}

/* ---- C. The Python Layout constructor ------------------------------------------- */

#define M2D_DEVICES                                                                         \
  "/job:localhost/replica:0/task:0/device:TPU:0,/job:localhost/replica:0/task:0/device:TPU:1," \
  "/job:localhost/replica:0/task:0/device:TPU:2,/job:localhost/replica:0/task:0/device:TPU:3"
#define M2D "|batch=2,x=2|0,1,2,3|0,1,2,3|" M2D_DEVICES

static void d53_layout_dimensions_must_be_unique(void) {
  const char* const specs[] = {"batch", "batch"};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(M2D, &err);
  ASSERT_OK(err);
  ASSERT_NULL(tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_STATIC, specs, 2, mesh, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Mesh dimension batch was repeated in sharding specification ['batch', 'batch']. "
               "Mesh dimensions must be unique in a layout.");
  tessera_dtensor_mesh_destroy(mesh);
}

/* Python's repr is "Layout.from_string(" + the text + ")": the text is the C answer. */
static void d55_batch_sharded_layout_text(void) {
  const char* const specs[] = {"batch", "unsharded"};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(M2D, &err);
  tessera_dtensor_layout* layout;
  tessera_buffer* text;
  ASSERT_OK(err);
  layout = tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_STATIC, specs, 2, mesh, &err);
  ASSERT_OK(err);
  text = tessera_dtensor_layout_to_text(layout, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("sharding_specs:batch,unsharded, mesh:" M2D, (const char*)tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_dtensor_layout_destroy(layout);
  tessera_dtensor_mesh_destroy(mesh);
}

/* ---- A. A mesh's dimensions by name -------------------------------------------- */

static void d19_dimensions_by_name(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("|batch=4,x=2|*CPU", NULL);
  tessera_error* err = NULL;
  int64_t size = 0;
  ASSERT_NOT_NULL(mesh);
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent_lookup(mesh, "batch", &size, &err));
  ASSERT_EQ(4, size);
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent_lookup(mesh, "x", &size, &err));
  ASSERT_EQ(2, size);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_dtensor_mesh_has_dim(mesh, "batch", NULL));
  ASSERT_FALSE(tessera_dtensor_mesh_has_dim(mesh, "y", &err));
  ASSERT_OK(err);
  ASSERT_FALSE(tessera_dtensor_mesh_dim_extent_lookup(mesh, "y", &size, &err));
  ASSERT_ERROR(err, TESSERA_NOT_FOUND,
               "Dimension y does not exist in mesh.Available dimensions: batch,x");
  tessera_dtensor_mesh_destroy(mesh);
}

/* ---- F. Configuration ------------------------------------------------------------ */

static void d85_local_devices_of_a_type(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 2, true);
  tessera_error* err = NULL;
  tessera_buffer* device;
  ASSERT_NOT_NULL(config);
  ASSERT_EQ(2, tessera_dtensor_config_num_local_devices(config, "CPU", &err));
  ASSERT_EQ(2, tessera_dtensor_config_num_global_devices(config, "CPU", &err));
  ASSERT_OK(err);
  device = tessera_dtensor_config_local_device(config, "CPU", TESSERA_NO_INDEX, 0, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("/job:localhost/replica:0/task:0/device:CPU:0", tessera_buffer_data(device));
  tessera_buffer_destroy(device);
  device = tessera_dtensor_config_local_device(config, "CPU", TESSERA_NO_INDEX, 1, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("/job:localhost/replica:0/task:0/device:CPU:1", tessera_buffer_data(device));
  tessera_buffer_destroy(device);
  tessera_dtensor_config_destroy(config);
}

static void d87_host_port_jobs_keep_their_order(void) {
  const char* const variables[] = {
      "DTENSOR_JOBS=localhost:16,localhost:15,localhost:14,localhost:13,localhost:12,"
      "localhost:11,localhost:10,localhost:9,localhost:8,localhost:7,localhost:6,localhost:5,"
      "localhost:4,localhost:3,localhost:2,localhost:1"};
  tessera_dtensor_config* config = job(variables, 1, 1, true);
  tessera_error* err = NULL;
  size_t i;
  ASSERT_EQ(16, tessera_dtensor_config_num_jobs(config, &err));
  ASSERT_OK(err);
  for (i = 0; i < 16; ++i) {
    char expected[32];
    snprintf(expected, sizeof expected, "localhost:%zu", 16 - i);
    ASSERT_STREQ(expected, tessera_dtensor_config_job(config, i, &err));
  }
  tessera_dtensor_config_destroy(config);
}

/* ---- G. create_mesh and create_distributed_mesh ------------------------------ */

static void d89_create_mesh_defaults_to_x_over_every_device(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 4, true);
  tessera_dtensor_mesh_options* options = mesh_options(config, NULL, 0, NULL, false);
  tessera_error* err = NULL;
  const int64_t ids[] = {0, 1, 2, 3};
  int64_t size = 0;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_create(NULL, NULL, 0, options, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("", tessera_dtensor_mesh_name(mesh, NULL));
  ASSERT_EQ(1, tessera_dtensor_mesh_num_dims(mesh, NULL));
  ASSERT_STREQ("x", tessera_dtensor_mesh_dim_name(mesh, 0, NULL));
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent(mesh, 0, &size, NULL));
  ASSERT_EQ(4, size);
  expect_ids(mesh, "global", ids, 4, __LINE__);
  expect_ids(mesh, "local", ids, 4, __LINE__);
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_mesh_options_destroy(options);
  tessera_dtensor_config_destroy(config);
}

static void d91_create_mesh_shapes_and_conflicts(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 4, true);
  tessera_dtensor_mesh_options* options = mesh_options(config, NULL, 0, NULL, false);
  const char* const x[] = {"x"};
  const int64_t three[] = {3};
  const int64_t all[] = {-1};
  const char* const cpu0[] = {"CPU:0"};
  tessera_dtensor_mesh_options* conflicting = mesh_options(config, cpu0, 1, "GPU", false);
  tessera_error* err = NULL;
  int64_t size = 0;
  tessera_dtensor_mesh* mesh;
  ASSERT_NULL(tessera_dtensor_mesh_create(x, three, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "length of devices (4) must be equal to total size of the mesh of shape [3]");
  mesh = tessera_dtensor_mesh_create(x, all, 1, options, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent(mesh, 0, &size, NULL));
  ASSERT_EQ(4, size);
  tessera_dtensor_mesh_destroy(mesh);
  ASSERT_NULL(tessera_dtensor_mesh_create(NULL, NULL, 0, conflicting, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Conflicting devices");
  tessera_dtensor_mesh_options_destroy(conflicting);
  tessera_dtensor_mesh_options_destroy(options);
  tessera_dtensor_config_destroy(config);
}

static void d93_single_client_distributed_meshes(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 4, true);
  tessera_dtensor_mesh_options* options = mesh_options(config, NULL, 0, NULL, false);
  const char* const x[] = {"x"};
  const int64_t four[] = {4};
  const char* const xy[] = {"x", "y"};
  const int64_t four_one[] = {4, 1};
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_create_distributed(x, four, 1, options, &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_dtensor_mesh_num_local_ids(mesh, NULL));
  ASSERT_EQ(4, tessera_dtensor_mesh_num_global_ids(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
  mesh = tessera_dtensor_mesh_create_distributed(xy, four_one, 2, options, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("x", tessera_dtensor_mesh_dim_name(mesh, 0, NULL));
  ASSERT_STREQ("y", tessera_dtensor_mesh_dim_name(mesh, 1, NULL));
  ASSERT_EQ(4, tessera_dtensor_mesh_num_global_ids(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_mesh_options_destroy(options);
  tessera_dtensor_config_destroy(config);
}

static void d95_single_client_wrong_shape(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 4, true);
  tessera_dtensor_mesh_options* options = mesh_options(config, NULL, 0, NULL, false);
  const char* const x[] = {"x"};
  const int64_t eight[] = {8};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed(x, eight, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Global number of devices (4 per client * 1 clients = 4) must be equal to total "
               "size of the mesh of shape (8,)");
  tessera_dtensor_mesh_options_destroy(options);
  tessera_dtensor_config_destroy(config);
}

static void d97_xla_spmd_on_cpu_is_refused(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 2, true);
  const char* const cpus[] = {"CPU:0", "CPU:1"};
  tessera_dtensor_mesh_options* options = mesh_options(config, cpus, 2, "CPU", true);
  const char* const x[] = {"x"};
  const int64_t two[] = {2};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed(x, two, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "XLA SPMD is not currently not supported for");
  tessera_dtensor_mesh_options_destroy(options);
  tessera_dtensor_config_destroy(config);
}

/* D99, current create_distributed_mesh: each client has `per_client` CPUs. */
static const struct current_row {
  const char* names[2];
  int64_t sizes[2];
  size_t num_dims;
  size_t num_clients, client_id, per_client;
  int64_t local[4];
  size_t num_local;
  const char* error; /* NULL: success */
} current_rows[] = {
    {{"x"}, {8}, 1, 2, 0, 4, {0, 1, 2, 3}, 4, NULL},
    {{"x"}, {8}, 1, 2, 1, 4, {4, 5, 6, 7}, 4, NULL},
    {{"batch", "model"}, {2, 4}, 2, 4, 3, 2, {6, 7}, 2, NULL},
    {{"batch", "model"}, {2, 4}, 2, 4, 1, 2, {2, 3}, 2, NULL},
    {{"x"}, {8}, 1, 2, 0, 3, {0}, 0,
     "Global number of devices (3 per client * 2 clients = 6) must be equal to total size of the "
     "mesh of shape (8,)"},
};

/* The variables of a job of `num_clients` clients seen from `client_id`. */
static tessera_dtensor_config* job_of(size_t num_clients, size_t client_id, size_t per_client,
                                      bool initialized) {
  char jobs[256] = "DTENSOR_JOBS=";
  char id[64];
  const char* variables[2];
  size_t i;
  for (i = 0; i < num_clients; ++i) {
    char entry[32];
    snprintf(entry, sizeof entry, "%shost%zu:9000", i == 0 ? "" : ",", i);
    strncat(jobs, entry, sizeof jobs - strlen(jobs) - 1);
  }
  snprintf(id, sizeof id, "DTENSOR_CLIENT_ID=%zu", client_id);
  variables[0] = jobs;
  variables[1] = id;
  return job(variables, 2, per_client, initialized);
}

static void d99_current_distributed_mesh_rows(void) {
  size_t r;
  for (r = 0; r < HARNESS_COUNT(current_rows); ++r) {
    const struct current_row* row = &current_rows[r];
    tessera_dtensor_config* config = job_of(row->num_clients, row->client_id, row->per_client, true);
    tessera_dtensor_mesh_options* options = mesh_options(config, NULL, 0, NULL, false);
    tessera_error* err = NULL;
    tessera_dtensor_mesh* mesh =
        tessera_dtensor_mesh_create_distributed(row->names, row->sizes, row->num_dims, options, &err);
    if (row->error != NULL) {
      ASSERT_NULL(mesh);
      ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, row->error);
    } else {
      const int64_t all[] = {0, 1, 2, 3, 4, 5, 6, 7};
      ASSERT_OK(err);
      expect_ids(mesh, "global", all, 8, __LINE__);
      expect_ids(mesh, "local", row->local, row->num_local, __LINE__);
    }
    tessera_dtensor_mesh_destroy(mesh);
    tessera_dtensor_mesh_options_destroy(options);
    tessera_dtensor_config_destroy(config);
  }
}

static void d99_current_tpu_with_devices_and_unknown_types(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 2, true);
  const char* const tpu0[] = {"TPU:0"};
  tessera_dtensor_mesh_options* tpu = mesh_options(config, tpu0, 1, "TPU", false);
  tessera_dtensor_mesh_options* xpu = mesh_options(config, NULL, 0, "XPU", false);
  const char* const x[] = {"x"};
  const int64_t two[] = {2};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed(x, two, 1, tpu, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Do not specify devices for TPU meshes. Using a partial list of devices for TPU is "
               "not supported.");
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed(x, two, 1, xpu, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Device type XPU is not CPU, GPU, or TPU.");
  tessera_dtensor_mesh_options_destroy(xpu);
  tessera_dtensor_mesh_options_destroy(tpu);
  tessera_dtensor_config_destroy(config);
}

/* D99, legacy create_distributed_mesh (TF 2.9-2.11) with explicit counts. */
static const struct legacy_row {
  const char* names[2];
  int64_t sizes[2];
  size_t num_dims;
  int64_t num_global, num_clients, client_id;
  size_t available; /* CPUs each client has */
  bool initialized;
  int64_t local[4];
  size_t num_local;
  tessera_code_t code;
  const char* error; /* NULL: success */
} legacy_rows[] = {
    {{"x"}, {8}, 1, 8, 2, 0, 4, true, {0, 1, 2, 3}, 4, TESSERA_OK, NULL},
    {{"x"}, {8}, 1, 8, 2, 1, 4, true, {4, 5, 6, 7}, 4, TESSERA_OK, NULL},
    {{"b", "m"}, {2, 4}, 2, 8, 4, 3, 2, true, {6, 7}, 2, TESSERA_OK, NULL},
    {{"x"}, {4}, 1, 4, 1, 0, 4, true, {0, 1, 2, 3}, 4, TESSERA_OK, NULL},
    {{"x"}, {8}, 1, 0, 2, 0, 4, true, {0}, 0, TESSERA_INVALID_ARGUMENT,
     "num_global_devices (0) must be > 0"},
    {{"x"}, {8}, 1, 6, 2, 0, 4, true, {0}, 0, TESSERA_INVALID_ARGUMENT,
     "num_global_devices (6) must be equal to total size of the mesh of shape (8,)"},
    {{"b", "m"}, {2, 4}, 2, 6, 2, 0, 4, true, {0}, 0, TESSERA_INVALID_ARGUMENT,
     "num_global_devices (6) must be equal to total size of the mesh of shape (2, 4)"},
    {{"x"}, {8}, 1, 8, 0, 0, 4, true, {0}, 0, TESSERA_INVALID_ARGUMENT,
     "num_clients (0) must be > 0"},
    {{"x"}, {8}, 1, 8, 2, -1, 4, true, {0}, 0, TESSERA_INVALID_ARGUMENT,
     "client_id (-1) must be >= 0"},
    {{"x"}, {8}, 1, 8, 2, 2, 4, true, {0}, 0, TESSERA_INVALID_ARGUMENT, "client_id (2) must be < 2"},
    {{"x"}, {8}, 1, 8, 3, 0, 4, true, {0}, 0, TESSERA_INVALID_ARGUMENT,
     "num_global_devices (8) must be divisible by num_clients (3)"},
    {{"x"}, {8}, 1, 8, 2, 0, 2, true, {0}, 0, TESSERA_INVALID_ARGUMENT,
     "Not enough devices; 4 needed, only 2 available"},
    {{"x"}, {8}, 1, 8, 2, 0, 4, false, {0}, 0, TESSERA_FAILED_PRECONDITION,
     "Invalid multi-client topology, run dtensor.initialize_multi_client() first"},
};

static void d99_legacy_distributed_mesh_rows(void) {
  size_t r;
  for (r = 0; r < HARNESS_COUNT(legacy_rows); ++r) {
    const struct legacy_row* row = &legacy_rows[r];
    tessera_dtensor_config* config = job(NO_VARIABLES, 0, row->available, row->initialized);
    tessera_error* err = NULL;
    tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_create_distributed_legacy_with_config(
        row->names, row->sizes, row->num_dims, "", &row->num_global, &row->num_clients,
        &row->client_id, "CPU", config, &err);
    if (row->error != NULL) {
      ASSERT_NULL(mesh);
      ASSERT_ERROR(err, row->code, row->error);
    } else {
      const int64_t all[8] = {0, 1, 2, 3, 4, 5, 6, 7};
      char first[64];
      ASSERT_OK(err);
      expect_ids(mesh, "global", all, (size_t)row->num_global, __LINE__);
      expect_ids(mesh, "local", row->local, row->num_local, __LINE__);
      /* "the first devices of this client": api.py's job name, task = client id. */
      snprintf(first, sizeof first, "/job:localhost/replica:0/task:%lld/device:CPU:0",
               (long long)row->client_id);
      ASSERT_STREQ(first, tessera_dtensor_mesh_local_device(mesh, 0, NULL));
    }
    tessera_dtensor_mesh_destroy(mesh);
    tessera_dtensor_config_destroy(config);
  }
}

static void d99_legacy_tpu_takes_no_counts(void) {
  tessera_dtensor_config* config = job(NO_VARIABLES, 0, 8, true);
  const char* const x[] = {"x"};
  const int64_t eight[] = {8};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed_legacy_with_config(
      x, eight, 1, "", &eight[0], NULL, NULL, "TPU", config, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Do not specify num_global_devices for TPU meshes. It will be filled in "
               "automatically from environmental variables.See api.py for the list of "
               "environmental variables for DTensor.");
  tessera_dtensor_config_destroy(config);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(d19_dimensions_by_name),
      HARNESS_TEST(d47_coords_wrap_modulo_the_mesh_size),
      HARNESS_TEST(d49_two_device_types_are_refused),
      HARNESS_TEST(d51_global_ids_must_be_consecutive),
      HARNESS_TEST(d53_layout_dimensions_must_be_unique),
      HARNESS_TEST(d55_batch_sharded_layout_text),
      HARNESS_TEST(d85_local_devices_of_a_type),
      HARNESS_TEST(d87_host_port_jobs_keep_their_order),
      HARNESS_TEST(d89_create_mesh_defaults_to_x_over_every_device),
      HARNESS_TEST(d91_create_mesh_shapes_and_conflicts),
      HARNESS_TEST(d93_single_client_distributed_meshes),
      HARNESS_TEST(d95_single_client_wrong_shape),
      HARNESS_TEST(d97_xla_spmd_on_cpu_is_refused),
      HARNESS_TEST(d99_current_distributed_mesh_rows),
      HARNESS_TEST(d99_current_tpu_with_devices_and_unknown_types),
      HARNESS_TEST(d99_legacy_distributed_mesh_rows),
      HARNESS_TEST(d99_legacy_tpu_takes_no_counts),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
