/* Mesh construction through the C ABI: make_mesh, hybrid meshes, PyTorch's
 * slicing and coordinates, DTensor's create_mesh and create_distributed_mesh.
 * The framework vectors are in tests/conformance; these check the C surface:
 * NULL conventions, ownership, and errors with their codes and messages. */
#include <stdint.h>
#include <stdio.h>

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
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
