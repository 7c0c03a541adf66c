/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* DTensor's configuration and the DTensor Mesh's model through the C ABI
 * (tessera/experimental/dtensor_config.h, dtensor_mesh.h): one behaviour per
 * test. The D vectors are in conformance_dtensor_config.c. */
#define _POSIX_C_SOURCE 200112L

#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char* const kTwoClients[] = {"DTENSOR_JOBS=h0:1,h1:1", "DTENSOR_CLIENT_ID=1"};

static tessera_dtensor_config* config_of(const char* const* variables, size_t num_variables) {
  tessera_dtensor_config_options* options = tessera_dtensor_config_options_create();
  tessera_dtensor_config* config;
  tessera_dtensor_config_options_set_variables(options, variables, num_variables, NULL);
  tessera_dtensor_config_options_set_num_local_devices(options, "CPU", 2, NULL);
  config = tessera_dtensor_config_create(options, NULL);
  tessera_dtensor_config_options_destroy(options);
  return config;
}

static tessera_dtensor_config* one_variable(const char* variable) {
  const char* const variables[] = {variable};
  return config_of(variables, 1);
}

/* ---- options ---------------------------------------------------------------------- */

static void variable_without_equals_sign_is_refused_naming_it(void) {
  tessera_dtensor_config_options* options = tessera_dtensor_config_options_create();
  const char* const variables[] = {"DTENSOR_JOBS"};
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_dtensor_config_options_set_variables(options, variables, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Argument 'variables' entry 0 'DTENSOR_JOBS' is not NAME=VALUE");
  tessera_dtensor_config_options_destroy(options);
}

static void device_count_of_an_unknown_type_is_refused(void) {
  tessera_dtensor_config_options* options = tessera_dtensor_config_options_create();
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_dtensor_config_options_set_num_local_devices(options, "XPU", 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Device type XPU is not CPU, GPU, or TPU.");
  tessera_dtensor_config_options_destroy(options);
}

static void device_count_type_is_case_insensitive(void) {
  tessera_dtensor_config_options* options = tessera_dtensor_config_options_create();
  tessera_dtensor_config* config;
  tessera_dtensor_config_options_set_variables(options, NULL, 0, NULL);
  ASSERT_TRUE(tessera_dtensor_config_options_set_num_local_devices(options, "gpu", 3, NULL));
  config = tessera_dtensor_config_create(options, NULL);
  ASSERT_EQ(3, tessera_dtensor_config_num_local_devices(config, "GPU", NULL));
  tessera_dtensor_config_destroy(config);
  tessera_dtensor_config_options_destroy(options);
}

static void accelerators_are_initialized_unless_set(void) {
  tessera_dtensor_config_options* options = tessera_dtensor_config_options_create();
  tessera_dtensor_config* config = tessera_dtensor_config_create(options, NULL);
  ASSERT_TRUE(tessera_dtensor_config_accelerators_initialized(config, NULL));
  tessera_dtensor_config_destroy(config);
  tessera_dtensor_config_options_set_accelerators_initialized(options, false, NULL);
  config = tessera_dtensor_config_create(options, NULL);
  ASSERT_FALSE(tessera_dtensor_config_accelerators_initialized(config, NULL));
  tessera_dtensor_config_destroy(config);
  tessera_dtensor_config_options_destroy(options);
}

static void null_options_read_the_process_environment(void) {
  tessera_error* err = NULL;
  tessera_dtensor_config* config;
  ASSERT_EQ(0, setenv("DTENSOR_JOB_NAME", "from_env", 1));
  config = tessera_dtensor_config_create(NULL, &err);
  unsetenv("DTENSOR_JOB_NAME");
  ASSERT_OK(err);
  ASSERT_STREQ("from_env", tessera_dtensor_config_job_name(config, NULL));
  tessera_dtensor_config_destroy(config);
}

/* ---- queries ---------------------------------------------------------------------- */

static void client_id_is_read_from_the_variables(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  ASSERT_EQ(1, tessera_dtensor_config_client_id(config, NULL));
  tessera_dtensor_config_destroy(config);
}

static void client_id_at_the_number_of_clients_is_dtensors_error(void) {
  tessera_dtensor_config* config = one_variable("DTENSOR_CLIENT_ID=1");
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_dtensor_config_client_id(config, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Environment variable DTENSOR_CLIENT_ID must be < 1, got 1");
  tessera_dtensor_config_destroy(config);
}

static void num_clients_counts_the_jobs(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  ASSERT_EQ(2, tessera_dtensor_config_num_clients(config, NULL));
  tessera_dtensor_config_destroy(config);
}

static void job_name_defaults_to_worker_with_several_clients(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  ASSERT_STREQ("worker", tessera_dtensor_config_job_name(config, NULL));
  tessera_dtensor_config_destroy(config);
}

static void full_job_name_defaults_to_this_client(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  tessera_buffer* name = tessera_dtensor_config_full_job_name(config, TESSERA_NO_INDEX, NULL);
  ASSERT_STREQ("worker/replica:0/task:1", tessera_buffer_data(name));
  tessera_buffer_destroy(name);
  tessera_dtensor_config_destroy(config);
}

static void full_job_name_of_another_task_in_a_local_run_is_an_error(void) {
  tessera_dtensor_config* config = config_of(NULL, 0);
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_config_full_job_name(config, 1, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Unexpected task ID 1 in local runs");
  tessera_dtensor_config_destroy(config);
}

static void jobs_are_listed_in_client_order(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  ASSERT_EQ(2, tessera_dtensor_config_num_jobs(config, NULL));
  ASSERT_STREQ("h0:1", tessera_dtensor_config_job(config, 0, NULL));
  ASSERT_STREQ("h1:1", tessera_dtensor_config_job(config, 1, NULL));
  tessera_dtensor_config_destroy(config);
}

static void unsorted_bns_jobs_are_dtensors_error(void) {
  tessera_dtensor_config* config = one_variable("DTENSOR_JOBS=/bns/c/w/1:p,/bns/c/w/0:p");
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_dtensor_config_num_jobs(config, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Unexpected DTENSOR_JOBS content /bns/c/w/1:p,/bns/c/w/0:p. Sort entries in "
               "DTENSOR_JOBS because cluster construction relies on the order.");
  tessera_dtensor_config_destroy(config);
}

static void unsorted_bns_jobs_fail_the_job_name_too(void) {
  tessera_dtensor_config* config = one_variable("DTENSOR_JOBS=/bns/c/w/1:p,/bns/c/w/0:p");
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_config_job_name(config, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Unexpected DTENSOR_JOBS content");
  tessera_dtensor_config_destroy(config);
}

static void heartbeat_can_be_disabled(void) {
  tessera_dtensor_config* config = one_variable("DTENSOR_ENABLE_HEARTBEAT=false");
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_dtensor_config_heartbeat_enabled(config, &err));
  ASSERT_OK(err);
  tessera_dtensor_config_destroy(config);
}

static void no_jobs_is_local_mode(void) {
  tessera_dtensor_config* local = config_of(NULL, 0);
  tessera_dtensor_config* distributed = config_of(kTwoClients, 2);
  ASSERT_TRUE(tessera_dtensor_config_is_local_mode(local, NULL));
  ASSERT_FALSE(tessera_dtensor_config_is_local_mode(distributed, NULL));
  tessera_dtensor_config_destroy(distributed);
  tessera_dtensor_config_destroy(local);
}

static void global_devices_are_local_devices_times_clients(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  ASSERT_EQ(4, tessera_dtensor_config_num_global_devices(config, "CPU", NULL));
  tessera_dtensor_config_destroy(config);
}

static void local_device_of_another_client_names_its_task(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  tessera_buffer* device = tessera_dtensor_config_local_device(config, "cpu", 0, 1, NULL);
  ASSERT_STREQ("/job:worker/replica:0/task:0/device:CPU:1", tessera_buffer_data(device));
  tessera_buffer_destroy(device);
  tessera_dtensor_config_destroy(config);
}

/* ---- creators over a config ------------------------------------------------------ */

static void distributed_mesh_before_initialization_is_dtensors_error(void) {
  tessera_dtensor_config_options* config_options = tessera_dtensor_config_options_create();
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  const char* const x[] = {"x"};
  const int64_t two[] = {2};
  tessera_error* err = NULL;
  tessera_dtensor_config* config;
  tessera_dtensor_config_options_set_variables(config_options, NULL, 0, NULL);
  tessera_dtensor_config_options_set_num_local_devices(config_options, "CPU", 2, NULL);
  tessera_dtensor_config_options_set_accelerators_initialized(config_options, false, NULL);
  config = tessera_dtensor_config_create(config_options, NULL);
  ASSERT_TRUE(tessera_dtensor_mesh_options_set_config(options, config, NULL));
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed(x, two, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "Accelerators are uninitialized, please run "
               "dtensor.initialize_accelerator_system() first.");
  tessera_dtensor_config_destroy(config);
  tessera_dtensor_mesh_options_destroy(options);
  tessera_dtensor_config_options_destroy(config_options);
}

static void distributed_mesh_names_the_configs_job_and_task(void) {
  tessera_dtensor_config* config = config_of(kTwoClients, 2);
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  const char* const x[] = {"x"};
  const int64_t four[] = {4};
  tessera_dtensor_mesh* mesh;
  tessera_dtensor_mesh_options_set_config(options, config, NULL);
  /* The options keep their own copy: the config may go first. */
  tessera_dtensor_config_destroy(config);
  mesh = tessera_dtensor_mesh_create_distributed(x, four, 1, options, NULL);
  ASSERT_NOT_NULL(mesh);
  ASSERT_STREQ("/job:worker/replica:0/task:1/device:CPU:1",
               tessera_dtensor_mesh_local_device(mesh, 1, NULL));
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_mesh_options_destroy(options);
}

static void config_errors_come_back_from_the_creator(void) {
  tessera_dtensor_config* config = one_variable("DTENSOR_CLIENT_ID=-1");
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  const char* const x[] = {"x"};
  const int64_t two[] = {2};
  tessera_error* err = NULL;
  tessera_dtensor_mesh_options_set_config(options, config, NULL);
  ASSERT_NULL(tessera_dtensor_mesh_create_distributed(x, two, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Environment variable DTENSOR_CLIENT_ID must be >= 0, got -1. ");
  tessera_dtensor_mesh_options_destroy(options);
  tessera_dtensor_config_destroy(config);
}

static void legacy_counts_default_to_the_legacy_variables(void) {
  const char* const variables[] = {"DTENSOR_NUM_CLIENTS=2", "DTENSOR_CLIENT_ID=1",
                                   "DTENSOR_JOB_NAME=trainer"};
  tessera_dtensor_config* config = config_of(variables, 3);
  const char* const x[] = {"x"};
  const int64_t four[] = {4};
  tessera_error* err = NULL;
  int64_t id = -1;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_create_distributed_legacy_with_config(
      x, four, 1, NULL, NULL, NULL, NULL, NULL, config, &err);
  ASSERT_OK(err);
  ASSERT_TRUE(tessera_dtensor_mesh_local_id(mesh, 0, &id, NULL));
  ASSERT_EQ(2, id);
  ASSERT_STREQ("/job:trainer/replica:0/task:1/device:CPU:0",
               tessera_dtensor_mesh_local_device(mesh, 0, NULL));
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_config_destroy(config);
}

/* ---- the mesh model ------------------------------------------------------------ */

static void mesh_naming_a_device_twice_is_refused(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_parse(
      "|x=2|0,1|0,1|/job:localhost/task:0/device:CPU:0,/job:localhost/task:0/device:CPU:0", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Duplicate devices found in mesh specification "
               "['/job:localhost/task:0/device:CPU:0', '/job:localhost/task:0/device:CPU:0'].");
}

static void created_mesh_naming_a_device_twice_is_refused(void) {
  const char* const x[] = {"x"};
  const int64_t two[] = {2};
  const int64_t ids[] = {0, 1};
  const char* const devices[] = {"/job:localhost/replica:0/task:0/device:GPU:0",
                                 "/job:localhost/replica:0/task:0/device:GPU:0"};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_create_from_ids(x, two, 1, ids, 2, ids, 2, devices, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Duplicate devices found in mesh specification");
}

static void create_mesh_over_a_device_twice_is_refused(void) {
  const char* const twice[] = {"CPU:0", "CPU:0"};
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  tessera_error* err = NULL;
  tessera_dtensor_mesh_options_set_devices(options, twice, 2, NULL);
  ASSERT_NULL(tessera_dtensor_mesh_create(NULL, NULL, 0, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Duplicate devices found in mesh specification");
  tessera_dtensor_mesh_options_destroy(options);
}

static void create_from_ids_keeps_the_name_from_the_options(void) {
  const char* const x[] = {"x"};
  const int64_t one[] = {1};
  const int64_t ids[] = {0};
  const char* const devices[] = {"/job:localhost/replica:0/task:0/device:CPU:0"};
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  tessera_dtensor_mesh* mesh;
  tessera_buffer* text;
  tessera_dtensor_mesh_options_set_name(options, "cpu_mesh", NULL);
  mesh = tessera_dtensor_mesh_create_from_ids(x, one, 1, ids, 1, ids, 1, devices, 1, options, NULL);
  text = tessera_dtensor_mesh_to_text(mesh, NULL);
  ASSERT_STREQ("cpu_mesh|x=1|0|0|/job:localhost/replica:0/task:0/device:CPU:0",
               tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_mesh_options_destroy(options);
}

static void create_from_ids_with_a_shape_that_does_not_fit_is_numpys_error(void) {
  const char* const x[] = {"x"};
  const int64_t three[] = {3};
  const int64_t ids[] = {0, 1};
  const char* const devices[] = {"/job:localhost/task:0/device:CPU:0",
                                 "/job:localhost/task:0/device:CPU:1"};
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_create_from_ids(x, three, 1, ids, 2, ids, 2, devices, 2, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "cannot reshape array of size 2 into shape (3,)");
}

static void create_from_ids_refuses_options_it_does_not_read(void) {
  const char* const x[] = {"x"};
  const int64_t one[] = {1};
  const int64_t ids[] = {0};
  const char* const devices[] = {"/job:localhost/task:0/device:CPU:0"};
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  tessera_error* err = NULL;
  tessera_dtensor_mesh_options_set_device_type(options, "CPU", NULL);
  ASSERT_NULL(tessera_dtensor_mesh_create_from_ids(x, one, 1, ids, 1, ids, 1, devices, 1, options, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'options' sets device_type");
  tessera_dtensor_mesh_options_destroy(options);
}

static void single_device_mesh_keeps_its_device(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_from_device("job:localhost/replica:0/task:0/TPU:0", &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_DTENSOR_MESH_SINGLE_DEVICE, tessera_dtensor_mesh_kind(mesh, NULL));
  ASSERT_STREQ("job:localhost/replica:0/task:0/TPU:0", tessera_dtensor_mesh_single_device(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

static void host_mesh_moves_the_devices_to_cpu_and_drops_the_name(void) {
  tessera_dtensor_mesh* gpu = tessera_dtensor_mesh_parse(
      "name|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:GPU:0,"
      "/job:localhost/replica:0/task:0/device:GPU:1",
      NULL);
  tessera_dtensor_mesh* host = tessera_dtensor_mesh_to_host_mesh(gpu, NULL);
  tessera_buffer* text = tessera_dtensor_mesh_to_text(host, NULL);
  ASSERT_STREQ("|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:CPU:0,"
               "/job:localhost/replica:0/task:0/device:CPU:1",
               tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_dtensor_mesh_destroy(host);
  tessera_dtensor_mesh_destroy(gpu);
}

/* TF 2.21's host_mesh is ToDeviceType("CPU") for a CPU mesh too (the dtensor differential). */
static void host_mesh_of_a_cpu_mesh_drops_the_name(void) {
  tessera_dtensor_mesh* cpu = tessera_dtensor_mesh_parse(
      "named|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:CPU:0,"
      "/job:localhost/replica:0/task:0/device:CPU:1",
      NULL);
  tessera_dtensor_mesh* host = tessera_dtensor_mesh_to_host_mesh(cpu, NULL);
  tessera_buffer* text = tessera_dtensor_mesh_to_text(host, NULL);
  ASSERT_STREQ("|x=2|0,1|0,1|/job:localhost/replica:0/task:0/device:CPU:0,"
               "/job:localhost/replica:0/task:0/device:CPU:1",
               tessera_buffer_data(text));
  tessera_buffer_destroy(text);
  tessera_dtensor_mesh_destroy(host);
  tessera_dtensor_mesh_destroy(cpu);
}

static void coordinates_of_a_negative_index_wrap_as_in_python(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("|a=2,b=4|*CPU", NULL);
  int64_t coords[2] = {-1, -1};
  ASSERT_EQ(2, tessera_dtensor_mesh_coordinates(mesh, -1, coords, 2, NULL));
  ASSERT_EQ(1, coords[0]);
  ASSERT_EQ(3, coords[1]);
  tessera_dtensor_mesh_destroy(mesh);
}

static void has_dim_is_false_for_an_empty_mesh(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("empty_mesh", NULL);
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_dtensor_mesh_has_dim(mesh, "x", &err));
  ASSERT_OK(err);
  tessera_dtensor_mesh_destroy(mesh);
}

static void meshes_differing_only_in_name_are_not_equal(void) {
  tessera_dtensor_mesh* a = tessera_dtensor_mesh_parse("a|x=2|*CPU", NULL);
  tessera_dtensor_mesh* b = tessera_dtensor_mesh_parse("b|x=2|*CPU", NULL);
  tessera_dtensor_mesh* a_again = tessera_dtensor_mesh_parse("a|x=2|*CPU", NULL);
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_dtensor_mesh_equal(a, b, &err));
  ASSERT_TRUE(tessera_dtensor_mesh_equal(a, a_again, &err));
  ASSERT_OK(err);
  tessera_dtensor_mesh_destroy(a_again);
  tessera_dtensor_mesh_destroy(b);
  tessera_dtensor_mesh_destroy(a);
}

static void dim_extent_lookup_gives_the_size(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("|batch=4,x=2|*CPU", NULL);
  int64_t size = 0;
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent_lookup(mesh, "x", &size, NULL));
  ASSERT_EQ(2, size);
  tessera_dtensor_mesh_destroy(mesh);
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(variable_without_equals_sign_is_refused_naming_it),
      HARNESS_TEST(device_count_of_an_unknown_type_is_refused),
      HARNESS_TEST(device_count_type_is_case_insensitive),
      HARNESS_TEST(accelerators_are_initialized_unless_set),
      HARNESS_TEST(null_options_read_the_process_environment),
      HARNESS_TEST(client_id_is_read_from_the_variables),
      HARNESS_TEST(client_id_at_the_number_of_clients_is_dtensors_error),
      HARNESS_TEST(num_clients_counts_the_jobs),
      HARNESS_TEST(job_name_defaults_to_worker_with_several_clients),
      HARNESS_TEST(full_job_name_defaults_to_this_client),
      HARNESS_TEST(full_job_name_of_another_task_in_a_local_run_is_an_error),
      HARNESS_TEST(jobs_are_listed_in_client_order),
      HARNESS_TEST(unsorted_bns_jobs_are_dtensors_error),
      HARNESS_TEST(unsorted_bns_jobs_fail_the_job_name_too),
      HARNESS_TEST(heartbeat_can_be_disabled),
      HARNESS_TEST(no_jobs_is_local_mode),
      HARNESS_TEST(global_devices_are_local_devices_times_clients),
      HARNESS_TEST(local_device_of_another_client_names_its_task),
      HARNESS_TEST(distributed_mesh_before_initialization_is_dtensors_error),
      HARNESS_TEST(distributed_mesh_names_the_configs_job_and_task),
      HARNESS_TEST(config_errors_come_back_from_the_creator),
      HARNESS_TEST(legacy_counts_default_to_the_legacy_variables),
      HARNESS_TEST(mesh_naming_a_device_twice_is_refused),
      HARNESS_TEST(created_mesh_naming_a_device_twice_is_refused),
      HARNESS_TEST(create_mesh_over_a_device_twice_is_refused),
      HARNESS_TEST(create_from_ids_keeps_the_name_from_the_options),
      HARNESS_TEST(create_from_ids_with_a_shape_that_does_not_fit_is_numpys_error),
      HARNESS_TEST(create_from_ids_refuses_options_it_does_not_read),
      HARNESS_TEST(single_device_mesh_keeps_its_device),
      HARNESS_TEST(host_mesh_moves_the_devices_to_cpu_and_drops_the_name),
      HARNESS_TEST(host_mesh_of_a_cpu_mesh_drops_the_name),
      HARNESS_TEST(coordinates_of_a_negative_index_wrap_as_in_python),
      HARNESS_TEST(has_dim_is_false_for_an_empty_mesh),
      HARNESS_TEST(meshes_differing_only_in_name_are_not_equal),
      HARNESS_TEST(dim_extent_lookup_gives_the_size),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
