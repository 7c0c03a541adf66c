/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* Devices and local discovery (TESSERA_CPU_DEVICE_COUNT, TESSERA_DEVICES). */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixtures.h"
#include "harness.h"

static void without_the_variable_there_is_one_cpu_device(void) {
  tessera_error* err = NULL;
  tessera_device_list* list;
  tessera_device* device;
  ASSERT_TRUE(fixture_set_cpu_devices(NULL));
  list = tessera_device_list_create(NULL, &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_device_list_num_devices(list, NULL));
  device = tessera_device_list_device(list, 0, &err);
  ASSERT_OK(err);
  ASSERT_STREQ("cpu:0", tessera_device_name(device, NULL));
  tessera_device_destroy(device);
  tessera_device_list_destroy(list);
}

static void the_variable_sets_the_number_of_cpu_devices(void) {
  tessera_error* err = NULL;
  tessera_device_list* list;
  size_t i;
  ASSERT_TRUE(fixture_set_cpu_devices("4"));
  list = tessera_device_list_create("cpu", &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_device_list_num_devices(list, NULL));
  for (i = 0; i < 4; ++i) {
    tessera_device* device = tessera_device_list_device(list, i, &err);
    ASSERT_OK(err);
    ASSERT_EQ(i, tessera_device_id(device, NULL));
    ASSERT_EQ(TESSERA_PLATFORM_CPU, tessera_device_platform(device, NULL));
    ASSERT_EQ(0, tessera_device_process_index(device, NULL));
    ASSERT_EQ(i, tessera_device_local_ordinal(device, NULL));
    tessera_device_destroy(device);
  }
  tessera_device_list_destroy(list);
}

static void device_count_counts_the_default_type(void) {
  tessera_error* err = NULL;
  size_t count = 0;
  ASSERT_TRUE(fixture_set_cpu_devices("3"));
  ASSERT_TRUE(tessera_platform_num_devices(NULL, &count, &err));
  ASSERT_OK(err);
  ASSERT_EQ(3, count);
  ASSERT_TRUE(tessera_platform_num_devices("", &count, &err));
  ASSERT_EQ(3, count);
}

static void type_names_are_case_insensitive(void) {
  tessera_error* err = NULL;
  size_t count = 0;
  ASSERT_TRUE(fixture_set_cpu_devices("2"));
  ASSERT_TRUE(tessera_platform_num_devices("CPU", &count, &err));
  ASSERT_OK(err);
  ASSERT_EQ(2, count);
}

static void a_platform_without_devices_gives_an_empty_list(void) {
  tessera_error* err = NULL;
  tessera_device_list* list = tessera_device_list_create("gpu", &err);
  size_t count = 7;
  ASSERT_OK(err);
  ASSERT_NOT_NULL(list);
  ASSERT_EQ(0, tessera_device_list_num_devices(list, NULL));
  tessera_device_list_destroy(list);
  ASSERT_TRUE(tessera_platform_num_devices("tpu", &count, &err));
  ASSERT_EQ(0, count);
}

static void unknown_type_is_invalid_argument_naming_it(void) {
  tessera_error* err = NULL;
  size_t count = 0;
  ASSERT_NULL(tessera_device_list_create("npu", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Device type 'npu' is unknown");
  ASSERT_FALSE(tessera_platform_num_devices("npu", &count, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Device type 'npu' is unknown");
}

static void unusable_device_count_variable_is_invalid_argument(void) {
  static const char* const bad[] = {"0", "-2", "two", "1048577", "4x"};
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    tessera_error* err = NULL;
    char expected[64];
    snprintf(expected, sizeof expected, "TESSERA_CPU_DEVICE_COUNT='%s' is not a device count",
             bad[i]);
    ASSERT_TRUE(fixture_set_cpu_devices(bad[i]));
    ASSERT_NULL(tessera_device_list_create(NULL, &err));
    ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, expected);
  }
  ASSERT_TRUE(fixture_set_cpu_devices("1048576"));
  {
    size_t count = 0;
    ASSERT_TRUE(tessera_platform_num_devices("cpu", &count, NULL));
    ASSERT_EQ(1048576, count);
  }
}

static void device_count_with_null_out_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_FALSE(tessera_platform_num_devices(NULL, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
}

static void list_get_past_the_end_is_out_of_range(void) {
  tessera_error* err = NULL;
  tessera_device_list* list;
  ASSERT_TRUE(fixture_set_cpu_devices("4"));
  list = tessera_device_list_create(NULL, NULL);
  ASSERT_NULL(tessera_device_list_device(list, 4, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 4; expected less than 4");
  ASSERT_NULL(tessera_device_list_device(list, (size_t)-1, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 18446744073709551615");
  tessera_device_list_destroy(list);
}

static void list_functions_reject_or_tolerate_a_null_list(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_device_list_device(NULL, 0, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'list' is NULL");
  ASSERT_EQ(0, tessera_device_list_num_devices(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'list' is NULL; expected a valid pointer");
  tessera_device_list_destroy(NULL);
}

static void a_device_outlives_its_list(void) {
  tessera_device_list* list;
  tessera_device* device;
  ASSERT_TRUE(fixture_set_cpu_devices("2"));
  list = tessera_device_list_create(NULL, NULL);
  device = tessera_device_list_device(list, 1, NULL);
  tessera_device_list_destroy(list);
  ASSERT_STREQ("cpu:1", tessera_device_name(device, NULL));
  tessera_device_destroy(device);
}

static void parse_reads_platform_and_id(void) {
  tessera_error* err = NULL;
  tessera_device* device;
  ASSERT_TRUE(fixture_set_cpu_devices("2"));
  device = tessera_device_parse("gpu:3", &err);
  ASSERT_OK(err);
  ASSERT_EQ(TESSERA_PLATFORM_GPU, tessera_device_platform(device, NULL));
  ASSERT_EQ(3, tessera_device_id(device, NULL));
  ASSERT_EQ(0, tessera_device_process_index(device, NULL));
  ASSERT_EQ(3, tessera_device_local_ordinal(device, NULL));
  ASSERT_STREQ("gpu:3", tessera_device_name(device, NULL));
  tessera_device_destroy(device);
}

static void parse_without_an_id_means_id_zero(void) {
  tessera_device* device = tessera_device_parse("tpu", NULL);
  ASSERT_EQ(TESSERA_PLATFORM_TPU, tessera_device_platform(device, NULL));
  ASSERT_EQ(0, tessera_device_id(device, NULL));
  ASSERT_STREQ("tpu:0", tessera_device_name(device, NULL));
  tessera_device_destroy(device);
}

static void parse_is_case_insensitive_and_accepts_cuda(void) {
  tessera_device* upper = tessera_device_parse("CPU:1", NULL);
  tessera_device* cuda = tessera_device_parse("cuda:2", NULL);
  ASSERT_STREQ("cpu:1", tessera_device_name(upper, NULL));
  ASSERT_STREQ("gpu:2", tessera_device_name(cuda, NULL));
  tessera_device_destroy(upper);
  tessera_device_destroy(cuda);
}

static void parse_rejects_malformed_text_naming_it(void) {
  static const char* const bad[] = {"npu:1", "cpu:-1", "cpu:x", "cpu:", "", "cpu:1:2",
                                    "cpu:99999999999999999999"};
  size_t i;
  for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    tessera_error* err = NULL;
    char expected[64];
    snprintf(expected, sizeof expected, "Device '%s'", bad[i]);
    ASSERT_NULL(tessera_device_parse(bad[i], &err));
    ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, expected);
  }
}

static void parse_of_null_is_invalid_argument(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_device_parse(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'text' is NULL");
}

static void device_accessors_of_null_give_defaults(void) {
  tessera_error* err = NULL;
  ASSERT_EQ(0, tessera_device_id(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_device_platform(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_device_process_index(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_device_local_ordinal(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_device_name(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL; expected a valid pointer");
  tessera_device_destroy(NULL);
}

static void platform_name_names_each_platform(void) {
  ASSERT_STREQ("cpu", tessera_platform_name(TESSERA_PLATFORM_CPU));
  ASSERT_STREQ("gpu", tessera_platform_name(TESSERA_PLATFORM_GPU));
  ASSERT_STREQ("tpu", tessera_platform_name(TESSERA_PLATFORM_TPU));
}

static void platform_name_of_unknown_value_is_null(void) {
  ASSERT_NULL(tessera_platform_name((tessera_platform_t)3));
  ASSERT_NULL(tessera_platform_name((tessera_platform_t)-1));
}

/* Local discovery with an explicit TESSERA_DEVICES list; NULL unsets it. */
static tessera_local_devices* discover_with(const char* spec, tessera_error** err) {
  const int failed = spec == NULL ? unsetenv("TESSERA_DEVICES")
                                  : setenv("TESSERA_DEVICES", spec, 1);
  return failed ? NULL : tessera_local_devices_discover(err);
}

static void local_discovery_reports_explicit_devices_then_cpus(void) {
  tessera_error* err = NULL;
  tessera_local_devices* found;
  tessera_platform_t platform = TESSERA_PLATFORM_CPU;
  int64_t value = -1;
  size_t ordinal = 7;
  ASSERT_TRUE(fixture_set_cpu_devices("2"));
  found = discover_with("gpu:NVIDIA H100 80GB HBM3:GPU-abc:85520809984,gpu", &err);
  ASSERT_OK(err);
  ASSERT_EQ(4, tessera_local_devices_num_devices(found, NULL));
  ASSERT_STREQ("explicit", tessera_local_devices_provider(found, NULL));
  ASSERT_STREQ("", tessera_local_devices_nvml_unavailable_reason(found, NULL));
  ASSERT_TRUE(tessera_local_devices_platform(found, 0, &platform, &err));
  ASSERT_EQ(TESSERA_PLATFORM_GPU, platform);
  ASSERT_STREQ("NVIDIA H100 80GB HBM3", tessera_local_devices_kind(found, 0, &err));
  ASSERT_STREQ("GPU-abc", tessera_local_devices_physical_id(found, 0, &err));
  ASSERT_STREQ("", tessera_local_devices_pci_bus_id(found, 0, &err));
  ASSERT_TRUE(tessera_local_devices_memory_bytes(found, 0, &value, &err));
  ASSERT_EQ(85520809984, value);
  ASSERT_TRUE(tessera_local_devices_ordinal(found, 1, &ordinal, &err));
  ASSERT_EQ(1, ordinal);
  ASSERT_STREQ("gpu", tessera_local_devices_kind(found, 1, &err));
  ASSERT_TRUE(tessera_local_devices_platform(found, 3, &platform, &err));
  ASSERT_EQ(TESSERA_PLATFORM_CPU, platform);
  ASSERT_TRUE(tessera_local_devices_ordinal(found, 3, &ordinal, &err));
  ASSERT_EQ(1, ordinal);
  ASSERT_OK(err);
  tessera_local_devices_destroy(found);
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "", 1)); /* the suite's hermetic default */
}

static void explicit_gpus_become_the_default_device_type(void) {
  tessera_error* err = NULL;
  size_t count = 0;
  ASSERT_TRUE(fixture_set_cpu_devices("1"));
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "gpu*8", 1));
  ASSERT_TRUE(tessera_platform_num_devices(NULL, &count, &err));
  ASSERT_OK(err);
  ASSERT_EQ(8, count);
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "", 1)); /* the suite's hermetic default */
}

static void malformed_device_list_is_invalid_argument_naming_the_entry(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(discover_with("gpu,gpu*0", &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT,
               "Environment variable TESSERA_DEVICES entry 1 'gpu*0': count '0' is not a device "
               "count; expected '*' and an integer from 1 to 1048576");
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "", 1)); /* the suite's hermetic default */
}

static void local_device_accessors_check_their_arguments(void) {
  tessera_error* err = NULL;
  tessera_local_devices* found;
  tessera_platform_t platform;
  size_t ordinal;
  ASSERT_TRUE(fixture_set_cpu_devices("1"));
  found = discover_with("", &err);
  ASSERT_OK(err);
  ASSERT_EQ(1, tessera_local_devices_num_devices(found, NULL));
  ASSERT_FALSE(tessera_local_devices_platform(found, 1, &platform, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'index' is 1");
  ASSERT_NULL(tessera_local_devices_kind(found, 5, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "the number of local devices");
  ASSERT_FALSE(tessera_local_devices_ordinal(NULL, 0, &ordinal, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices'");
  ASSERT_FALSE(tessera_local_devices_memory_bytes(found, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out'");
  ASSERT_EQ(0, tessera_local_devices_num_devices(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_local_devices_provider(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices' is NULL; expected a valid pointer");
  ASSERT_NULL(tessera_local_devices_nvml_unavailable_reason(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'devices' is NULL; expected a valid pointer");
  tessera_local_devices_destroy(NULL);
  tessera_local_devices_destroy(found);
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "", 1)); /* the suite's hermetic default */
}

/* The chip coordinates of `device` as "x.y.z/core", or "-" without them. */
static void coords_text(const tessera_device* device, char* text, size_t size) {
  int64_t c[3] = {-1, -1, -1};
  size_t axis;
  if (!tessera_device_has_coordinates(device, NULL)) {
    snprintf(text, size, "-");
    return;
  }
  for (axis = 0; axis < 3; ++axis) tessera_device_coordinate(device, axis, &c[axis], NULL);
  snprintf(text, size, "%lld.%lld.%lld/%lld", (long long)c[0], (long long)c[1], (long long)c[2],
           (long long)tessera_device_core_on_chip(device, NULL));
}

static void listed_tpus_carry_their_chip_coordinates(void) {
  tessera_error* err = NULL;
  tessera_device_list* list;
  tessera_device* device;
  char text[64];
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "tpu*4:TPU v4@2x2x1+0.0.1,tpu:TPU v3@5.6.0.1,tpu", 1));
  list = tessera_device_list_create("tpu", &err);
  ASSERT_OK(err);
  ASSERT_EQ(6, tessera_device_list_num_devices(list, NULL));
  device = tessera_device_list_device(list, 3, &err);
  coords_text(device, text, sizeof text);
  ASSERT_STREQ("1.1.1/0", text);
  tessera_device_destroy(device);
  device = tessera_device_list_device(list, 4, &err);
  coords_text(device, text, sizeof text);
  ASSERT_STREQ("5.6.0/1", text);
  tessera_device_destroy(device);
  device = tessera_device_list_device(list, 5, &err);
  coords_text(device, text, sizeof text);
  ASSERT_STREQ("-", text);
  tessera_device_destroy(device);
  ASSERT_OK(err);
  tessera_device_list_destroy(list);
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "", 1)); /* the suite's hermetic default */
}

static void coord_checks_its_arguments(void) {
  tessera_error* err = NULL;
  tessera_device* cpu = tessera_device_parse("cpu:0", &err);
  tessera_device* tpu;
  int64_t value = -1;
  ASSERT_OK(err);
  ASSERT_FALSE(tessera_device_coordinate(NULL, 0, &value, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL");
  ASSERT_FALSE(tessera_device_coordinate(cpu, 0, NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'out' is NULL");
  ASSERT_FALSE(tessera_device_coordinate(cpu, 0, &value, &err));
  ASSERT_ERROR(err, TESSERA_FAILED_PRECONDITION,
               "Device cpu:0 has no coordinates (only TPU devices listed with a place have them)");
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "tpu@1.2.3", 1));
  tpu = tessera_device_parse("tpu:0", &err);
  ASSERT_OK(err);
  ASSERT_FALSE(tessera_device_coordinate(tpu, 3, &value, &err));
  ASSERT_ERROR(err, TESSERA_OUT_OF_RANGE, "Argument 'axis' is 3; expected less than 3");
  ASSERT_TRUE(tessera_device_coordinate(tpu, 2, &value, &err));
  ASSERT_EQ(3, value);
  ASSERT_FALSE(tessera_device_has_coordinates(cpu, NULL));
  ASSERT_FALSE(tessera_device_has_coordinates(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL; expected a valid pointer");
  ASSERT_EQ(0, tessera_device_core_on_chip(NULL, &err));
  ASSERT_ERROR(err, TESSERA_INVALID_ARGUMENT, "Argument 'device' is NULL; expected a valid pointer");
  tessera_device_destroy(tpu);
  tessera_device_destroy(cpu);
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "", 1)); /* the suite's hermetic default */
}

static void mesh_over_a_tpu_v4_slice_follows_chip_coordinates(void) {
  /* S41 through the C ABI: the device at [0][j][k] is the chip (k, j / 4, j % 4). */
  tessera_error* err = NULL;
  const int64_t shape[] = {1, 16, 4};
  const char* const names[] = {"replica", "data", "model"};
  tessera_mesh* mesh;
  int64_t j, k;
  char text[64], expected[64];
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "tpu*64:TPU v4@4x4x4", 1));
  mesh = fixture_make_mesh(shape, names, 3, NULL, 0, "TPU v4", &err);
  ASSERT_OK(err);
  ASSERT_EQ(64, tessera_mesh_num_devices(mesh, NULL));
  for (j = 0; j < 16; ++j) {
    for (k = 0; k < 4; ++k) {
      tessera_device* device = tessera_mesh_device(mesh, (size_t)(j * 4 + k), &err);
      ASSERT_OK(err);
      coords_text(device, text, sizeof text);
      snprintf(expected, sizeof expected, "%lld.%lld.%lld/0", (long long)k, (long long)(j / 4),
               (long long)(j % 4));
      ASSERT_STREQ(expected, text);
      tessera_device_destroy(device);
    }
  }
  tessera_mesh_destroy(mesh);
  ASSERT_EQ(0, setenv("TESSERA_DEVICES", "", 1)); /* the suite's hermetic default */
}

int main(int argc, char** argv) {
  static const harness_test tests[] = {
      HARNESS_TEST(without_the_variable_there_is_one_cpu_device),
      HARNESS_TEST(the_variable_sets_the_number_of_cpu_devices),
      HARNESS_TEST(device_count_counts_the_default_type),
      HARNESS_TEST(type_names_are_case_insensitive),
      HARNESS_TEST(a_platform_without_devices_gives_an_empty_list),
      HARNESS_TEST(unknown_type_is_invalid_argument_naming_it),
      HARNESS_TEST(unusable_device_count_variable_is_invalid_argument),
      HARNESS_TEST(device_count_with_null_out_is_invalid_argument),
      HARNESS_TEST(list_get_past_the_end_is_out_of_range),
      HARNESS_TEST(list_functions_reject_or_tolerate_a_null_list),
      HARNESS_TEST(a_device_outlives_its_list),
      HARNESS_TEST(parse_reads_platform_and_id),
      HARNESS_TEST(parse_without_an_id_means_id_zero),
      HARNESS_TEST(parse_is_case_insensitive_and_accepts_cuda),
      HARNESS_TEST(parse_rejects_malformed_text_naming_it),
      HARNESS_TEST(parse_of_null_is_invalid_argument),
      HARNESS_TEST(device_accessors_of_null_give_defaults),
      HARNESS_TEST(platform_name_names_each_platform),
      HARNESS_TEST(platform_name_of_unknown_value_is_null),
      HARNESS_TEST(local_discovery_reports_explicit_devices_then_cpus),
      HARNESS_TEST(explicit_gpus_become_the_default_device_type),
      HARNESS_TEST(malformed_device_list_is_invalid_argument_naming_the_entry),
      HARNESS_TEST(local_device_accessors_check_their_arguments),
      HARNESS_TEST(listed_tpus_carry_their_chip_coordinates),
      HARNESS_TEST(coord_checks_its_arguments),
      HARNESS_TEST(mesh_over_a_tpu_v4_slice_follows_chip_coordinates),
  };
  return harness_main(argc, argv, tests, HARNESS_COUNT(tests));
}
