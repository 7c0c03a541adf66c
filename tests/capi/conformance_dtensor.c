/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/* The DTensor conformance vectors of sections A (mesh text), B (layout text),
 * D (shape arithmetic and shard math) and E (ReducedMesh, equivalence,
 * helpers) of shared/conformance/dtensor_cases.md, through the public C
 * functions a DTensor user calls: one row per odd vector, each named by its
 * number. Messages are matched as prefixes, as the vectors ask (DTensor
 * appends its context, Tessera the byte offset and token).
 *
 * Where Tessera decides against DTensor the row asserts Tessera's decision
 * and says so (D45: a spec without its trailing comma is an error). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define M2D                                                                              \
  "|batch=2,x=2|0,1,2,3|0,1,2,3|/job:localhost/replica:0/task:0/device:TPU:0,"         \
  "/job:localhost/replica:0/task:0/device:TPU:1,/job:localhost/replica:0/task:0/device:" \
  "TPU:2,/job:localhost/replica:0/task:0/device:TPU:3"
#define CPU1 "|x=1|0|0|/job:localhost/task:0/device:CPU:0"
#define LT0(d) "/job:localhost/task:0/device:" d
#define LT1(d) "/job:localhost/task:1/device:" d
#define H2 LT1("CPU:0") "," LT1("CPU:1") "," LT1("CPU:2") "," LT1("CPU:3")
#define TPU32                                                                                   \
  LT0("TPU:0") "," LT0("TPU:1") "," LT0("TPU:2") "," LT0("TPU:3") "," LT0("TPU:4") ","         \
  LT0("TPU:5") "," LT0("TPU:6") "," LT0("TPU:7") "," LT0("TPU:8") "," LT0("TPU:9") ","         \
  LT0("TPU:10") "," LT0("TPU:11") "," LT0("TPU:12") "," LT0("TPU:13") "," LT0("TPU:14") ","    \
  LT0("TPU:15") "," LT0("TPU:16") "," LT0("TPU:17") "," LT0("TPU:18") "," LT0("TPU:19") ","    \
  LT0("TPU:20") "," LT0("TPU:21") "," LT0("TPU:22") "," LT0("TPU:23") "," LT0("TPU:24") ","    \
  LT0("TPU:25") "," LT0("TPU:26") "," LT0("TPU:27") "," LT0("TPU:28") "," LT0("TPU:29") ","    \
  LT0("TPU:30") "," LT0("TPU:31")
#define BATCH32                                                                               \
  "|x=4,batch=8|0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27," \
  "28,29,30,31|0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,"  \
  "28,29,30,31|" TPU32

/* ---- Helpers: each returns 0 after recording a failure ---------------------------- */

/* The text of a buffer, kept until the next call (the buffer is destroyed then). */
static const char* text_of(tessera_buffer* buffer) {
  static tessera_buffer* last;
  tessera_buffer_destroy(last);
  last = buffer;
  return buffer == NULL ? NULL : tessera_buffer_data(buffer);
}

static const char* mesh_text(const tessera_dtensor_mesh* mesh) {
  return text_of(tessera_dtensor_mesh_to_text(mesh, NULL));
}

static const char* layout_text(const tessera_dtensor_layout* layout) {
  return text_of(tessera_dtensor_layout_to_text(layout, NULL));
}

static tessera_dtensor_layout* parse_layout(const char* text) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* layout = tessera_dtensor_layout_parse(text, &err);
  if (err != NULL) {
    harness_fail(__FILE__, __LINE__, "parse %s: %s", text, tessera_error_message(err));
    tessera_error_destroy(err);
  }
  return layout;
}

/* `message` starts with `prefix`. */
static int starts_with(const char* message, const char* prefix) {
  return message != NULL && strncmp(message, prefix, strlen(prefix)) == 0;
}

/* Fails unless `err` has `code` and a message starting with `prefix`; destroys err. */
static int error_is(const char* vector, tessera_error* err, tessera_code_t code,
                    const char* prefix) {
  int ok = err != NULL && tessera_error_code(err) == code &&
           starts_with(tessera_error_message(err), prefix);
  if (!ok) {
    harness_fail(__FILE__, __LINE__, "%s: expected %s \"%s...\", got %s \"%s\"", vector,
                 tessera_code_name(code), prefix,
                 err ? tessera_code_name(tessera_error_code(err)) : "no error",
                 err ? tessera_error_message(err) : "");
  }
  tessera_error_destroy(err);
  return ok;
}

/* A mesh text that parses and prints back unchanged. */
static int mesh_round_trips(const char* text) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(text, NULL);
  const char* printed = mesh_text(mesh);
  const int ok = printed != NULL && strcmp(printed, text) == 0;
  if (!ok) harness_fail(__FILE__, __LINE__, "%s: printed as %s", text, printed ? printed : "NULL");
  tessera_dtensor_mesh_destroy(mesh);
  return ok;
}

/* A layout text that parses and prints as `expected`. */
static int layout_prints_as(const char* text, const char* expected) {
  tessera_dtensor_layout* layout = parse_layout(text);
  const char* printed = layout_text(layout);
  const int ok = printed != NULL && strcmp(printed, expected) == 0;
  if (!ok) harness_fail(__FILE__, __LINE__, "%s: printed as %s", text, printed ? printed : "NULL");
  tessera_dtensor_layout_destroy(layout);
  return ok;
}

static size_t reduced_mesh_size(const tessera_dtensor_mesh* mesh) {
  return tessera_dtensor_mesh_num_global_ids(mesh, NULL);
}

/* ---- A. Mesh text round-trips and parsing ---------------------------------------- */

static void d1_mesh_text_round_trips(void) { ASSERT_TRUE(mesh_round_trips(M2D)); }

static void d3_empty_mesh(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("empty_mesh", NULL);
  ASSERT_EQ(TESSERA_DTENSOR_MESH_EMPTY, tessera_dtensor_mesh_kind(mesh, NULL));
  ASSERT_STREQ("", tessera_dtensor_mesh_device_type(mesh, NULL));
  ASSERT_STREQ("empty_mesh", mesh_text(mesh));
  tessera_dtensor_mesh_destroy(mesh);
}

static void d5_seven_parts_give_global_devices_and_xla_spmd(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(
      "mesh:|x=2|0,1|0|" LT0("CPU:0") "|" LT0("CPU:1") "|use_xla_spmd", NULL);
  ASSERT_TRUE(tessera_dtensor_mesh_use_xla_spmd(mesh, NULL));
  ASSERT_EQ(1, tessera_dtensor_mesh_num_global_devices(mesh, NULL));
  ASSERT_STREQ(LT0("CPU:1"), tessera_dtensor_mesh_global_device(mesh, 0, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

static void d7_no_xla_spmd(void) {
  tessera_error* err = NULL;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("mesh:|x=1|0|0|" LT0("CPU:0"), &err);
  ASSERT_OK(err);
  ASSERT_FALSE(tessera_dtensor_mesh_use_xla_spmd(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

static void d9_sixth_part_use_xla_spmd(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(
      "|batch=2|0,1|0,1|/job:localhost/replica:0/task:0/device:TPU:0,"
      "/job:localhost/replica:0/task:0/device:TPU:1|use_xla_spmd",
      NULL);
  ASSERT_TRUE(tessera_dtensor_mesh_use_xla_spmd(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
}

static void d11_single_device_mesh_round_trips(void) {
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(LT0("CPU:0"), NULL);
  ASSERT_EQ(TESSERA_DTENSOR_MESH_SINGLE_DEVICE, tessera_dtensor_mesh_kind(mesh, NULL));
  ASSERT_STREQ(LT0("CPU:0"), mesh_text(mesh));
  tessera_dtensor_mesh_destroy(mesh);
}

static void d13_single_device_mesh_of_empty_string_fails(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_mesh_from_device("", &err));
  ASSERT_TRUE(error_is("D13", err, TESSERA_INVALID_ARGUMENT, "Single device is empty."));
}

static void d15_single_device_mesh_survives_its_text(void) {
  const char* device = "job:localhost/replica:0/task:0/TPU:0";
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_from_device(device, NULL);
  tessera_dtensor_mesh* again = tessera_dtensor_mesh_parse(mesh_text(mesh), NULL);
  ASSERT_EQ(TESSERA_DTENSOR_MESH_SINGLE_DEVICE, tessera_dtensor_mesh_kind(mesh, NULL));
  ASSERT_STREQ(device, mesh_text(mesh));
  ASSERT_EQ(TESSERA_DTENSOR_MESH_SINGLE_DEVICE, tessera_dtensor_mesh_kind(again, NULL));
  ASSERT_STREQ(device, tessera_dtensor_mesh_single_device(again, NULL));
  tessera_dtensor_mesh_destroy(again);
  tessera_dtensor_mesh_destroy(mesh);
}

#define GPU8(t)                                                                              \
  "/job:localhost/replica:0/task:0/device:" t ":0,/job:localhost/replica:0/task:0/device:" t \
  ":1,/job:localhost/replica:0/task:0/device:" t ":2,/job:localhost/replica:0/task:0/device:" t \
  ":3,/job:localhost/replica:0/task:0/device:" t ":4,/job:localhost/replica:0/task:0/device:" t \
  ":5,/job:localhost/replica:0/task:0/device:" t ":6,/job:localhost/replica:0/task:0/device:" t \
  ":7"

static void d17_host_mesh_is_on_cpus_without_the_name(void) {
  tessera_dtensor_mesh* gpu = tessera_dtensor_mesh_parse(
      "name_not_preserved|batch=4,x=2|0,1,2,3,4,5,6,7|0,1,2,3,4,5,6,7|" GPU8("GPU"), NULL);
  tessera_dtensor_mesh* host = tessera_dtensor_mesh_to_device_type(gpu, "CPU", NULL);
  ASSERT_STREQ("|batch=4,x=2|0,1,2,3,4,5,6,7|0,1,2,3,4,5,6,7|" GPU8("CPU"), mesh_text(host));
  tessera_dtensor_mesh_destroy(host);
  tessera_dtensor_mesh_destroy(gpu);
}

static void d19_mesh_dims_by_name(void) {
  tessera_error* err = NULL;
  int64_t extent = 0;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("|batch=4,x=2|*CPU", NULL);
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent_lookup(mesh, "batch", &extent, NULL));
  ASSERT_EQ(4, extent);
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent_lookup(mesh, "x", &extent, NULL));
  ASSERT_EQ(2, extent);
  ASSERT_FALSE(tessera_dtensor_mesh_dim_extent_lookup(mesh, "y", &extent, &err));
  ASSERT_TRUE(error_is("D19", err, TESSERA_NOT_FOUND,
                       "Dimension y does not exist in mesh.Available dimensions: batch,x"));
  tessera_dtensor_mesh_destroy(mesh);
}

typedef struct error_row {
  const char* text;
  const char* prefix;
} error_row;

static void d21_mesh_parse_quirk_and_errors(void) {
  static const error_row rows[] = {
      {"|x=2|0,1|0,1", "Expected either 5, 6, 7 or 3 mesh parts but found4"},
      {"|x=2|0,1|0,1|" LT0("CPU:0") "," LT0("CPU:1") "|" LT0("CPU:0") "," LT0("CPU:1") "|bogus",
       "Expected string use_xla_spmdas the 7th argument but got: bogus"},
      {"|x=2|0,1|0,1,2|" LT0("CPU:0") "," LT0("CPU:1") "," LT0("CPU:2"),
       "number of global_device_ids 2 local_devices ids 3 and local devices 3not meeting "
       "requirements"},
      {"|x=2|0,1|0|",
       "number of global_device_ids 2 local_devices ids 1 and local devices 0not meeting "
       "requirements"},
      {"|x=4|0,1,2,3|0,1,2|" LT0("CPU:0") "," LT0("CPU:1") "," LT0("CPU:2"),
       "Uneven local clusters with global_ids 4 and local_devices ids 3"},
      {"|x=3|0,1|0,1|" LT0("CPU:0") "," LT0("CPU:1"), "mesh size doesn't match number of devices"},
      {"|x=2,x=1|0,1|0,1|" LT0("CPU:0") "," LT0("CPU:1"), "repeated mesh dimension"},
      {"|unsharded=2|0,1|0,1|" LT0("CPU:0") "," LT0("CPU:1"),
       "mesh dimension name unsharded is reserved"},
      {"|any=2|0,1|0,1|" LT0("CPU:0") "," LT0("CPU:1"), "mesh dimension name any is reserved"},
      {"|match=2|0,1|0,1|" LT0("CPU:0") "," LT0("CPU:1"), "mesh dimension name match is reserved"},
      {"|x=2|0,1|0,1|" LT0("CPU:0") "," LT0("TPU:0"),
       "More than one device type per mesh not supported. Found 2"},
      {"|x=1|0|0|/device:CPU:0", "Failed to either identify host or device type"},
  };
  size_t i;
  tessera_dtensor_mesh* empty = tessera_dtensor_mesh_parse("||||", NULL);
  ASSERT_EQ(TESSERA_DTENSOR_MESH_EMPTY, tessera_dtensor_mesh_kind(empty, NULL));
  ASSERT_STREQ("empty_mesh", mesh_text(empty));
  tessera_dtensor_mesh_destroy(empty);
  for (i = 0; i < HARNESS_COUNT(rows); ++i) {
    tessera_error* err = NULL;
    ASSERT_NULL(tessera_dtensor_mesh_parse(rows[i].text, &err));
    ASSERT_TRUE(error_is(rows[i].text, err, TESSERA_INVALID_ARGUMENT, rows[i].prefix));
  }
}

/* ---- B. Layout text round-trips and parsing -------------------------------------- */

static void d23_layout_text_round_trips(void) {
  ASSERT_TRUE(layout_prints_as("sharding_specs:batch,x, mesh:" M2D, "sharding_specs:batch,x, mesh:" M2D));
}

static void d25_no_spec_differs_from_one_unsharded_spec(void) {
  tessera_dtensor_layout* one = parse_layout("sharding_specs:unsharded, mesh:" M2D);
  tessera_dtensor_layout* none = parse_layout("sharding_specs: mesh:" M2D);
  ASSERT_FALSE(tessera_dtensor_layout_equal(one, none, NULL));
  ASSERT_EQ(1, tessera_dtensor_layout_num_dims(one, NULL));
  ASSERT_EQ(0, tessera_dtensor_layout_num_dims(none, NULL));
  ASSERT_TRUE(tessera_dtensor_layout_is_fully_replicated(none, NULL));
  ASSERT_STREQ("sharding_specs:unsharded, mesh:" M2D, layout_text(one));
  ASSERT_STREQ("sharding_specs: mesh:" M2D, layout_text(none));
  tessera_dtensor_layout_destroy(none);
  tessera_dtensor_layout_destroy(one);
}

static void d27_any_round_trips(void) {
  ASSERT_TRUE(layout_prints_as("sharding_specs:any, mesh:" CPU1, "sharding_specs:any, mesh:" CPU1));
}

static void d29_shorthand_mesh_expands(void) {
  ASSERT_TRUE(layout_prints_as(
      "sharding_specs:x, mesh:|x=2,y=2|*CPU",
      "sharding_specs:x, mesh:|x=2,y=2|0,1,2,3|0,1,2,3|" LT0("CPU:0") "," LT0("CPU:1") ","
      LT0("CPU:2") "," LT0("CPU:3")));
}

static void d31_batch_layout_round_trips(void) {
  tessera_dtensor_layout* short_form = parse_layout("sharding_specs:x,batch, mesh:|x=4,batch=8|*TPU");
  tessera_dtensor_layout* long_form = parse_layout("sharding_specs:x,batch, mesh:" BATCH32);
  ASSERT_STREQ("sharding_specs:x,batch, mesh:" BATCH32, layout_text(short_form));
  ASSERT_TRUE(tessera_dtensor_layout_equal(short_form, long_form, NULL));
  tessera_dtensor_layout_destroy(long_form);
  tessera_dtensor_layout_destroy(short_form);
}

static void d33_layout_types(void) {
  static const struct {
    const char* text;
    tessera_dtensor_layout_type_t type;
  } rows[] = {
      {"maximal:true, mesh:/job:localhost/task:1/device:CPU:0", TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE},
      {"parted:x, mesh:|x=2|*TPU", TESSERA_DTENSOR_LAYOUT_PARTED},
      {"sharding_specs:x, mesh:|x=2|*TPU", TESSERA_DTENSOR_LAYOUT_STATIC},
  };
  size_t i;
  for (i = 0; i < HARNESS_COUNT(rows); ++i) {
    tessera_dtensor_layout* layout = parse_layout(rows[i].text);
    ASSERT_EQ(rows[i].type, tessera_dtensor_layout_type(layout, NULL));
    tessera_dtensor_layout_destroy(layout);
  }
}

static void d35_single_device_layout(void) {
  const char* device = "job:localhost/replica:0/task:0/TPU:0";
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_from_device(device, NULL);
  tessera_dtensor_layout* from_mesh =
      tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE, NULL, 0, mesh, NULL);
  tessera_dtensor_layout* from_device = tessera_dtensor_layout_from_device(device, NULL);
  tessera_dtensor_layout* again;
  tessera_dtensor_mesh* its_mesh = tessera_dtensor_layout_mesh(from_device, NULL);
  ASSERT_TRUE(tessera_dtensor_layout_equal(from_mesh, from_device, NULL));
  ASSERT_EQ(TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE, tessera_dtensor_layout_type(from_device, NULL));
  ASSERT_STREQ(device, tessera_dtensor_mesh_single_device(its_mesh, NULL));
  ASSERT_STREQ("maximal:true, mesh:job:localhost/replica:0/task:0/TPU:0", layout_text(from_device));
  again = parse_layout(layout_text(from_device));
  ASSERT_TRUE(tessera_dtensor_layout_equal(again, from_device, NULL));
  tessera_dtensor_layout_destroy(again);
  tessera_dtensor_mesh_destroy(its_mesh);
  tessera_dtensor_layout_destroy(from_device);
  tessera_dtensor_layout_destroy(from_mesh);
  tessera_dtensor_mesh_destroy(mesh);
}

static void d37_scalar_layout_is_rank_zero(void) {
  tessera_dtensor_layout* layout = parse_layout("sharding_specs:scalar, mesh:|x=4,y=4|*TPU");
  tessera_dtensor_mesh* mesh = tessera_dtensor_layout_mesh(layout, NULL);
  int64_t extent = 0;
  ASSERT_EQ(0, tessera_dtensor_layout_num_dims(layout, NULL));
  ASSERT_EQ(16, tessera_dtensor_mesh_num_global_ids(mesh, NULL));
  ASSERT_STREQ("TPU", tessera_dtensor_mesh_device_type(mesh, NULL));
  ASSERT_TRUE(tessera_dtensor_mesh_dim_extent(mesh, 0, &extent, NULL));
  ASSERT_EQ(4, extent);
  ASSERT_TRUE(starts_with(layout_text(layout), "sharding_specs: mesh:|x=4,y=4|0,1,2,"));
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_layout_destroy(layout);
}

static void d39_cpu_mesh_of_sixteen(void) {
  tessera_dtensor_layout* layout = parse_layout("sharding_specs:x,unsharded, mesh:|x=4,y=4|*CPU");
  tessera_dtensor_mesh* mesh = tessera_dtensor_layout_mesh(layout, NULL);
  ASSERT_EQ(16, tessera_dtensor_mesh_num_global_ids(mesh, NULL));
  ASSERT_STREQ("CPU", tessera_dtensor_mesh_device_type(mesh, NULL));
  tessera_dtensor_mesh_destroy(mesh);
  tessera_dtensor_layout_destroy(layout);
}

static void d41_repeated_spec_fails(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_layout_parse("sharding_specs:x,x, mesh:|x=1,y=2|*CPU", &err));
  ASSERT_TRUE(error_is("D41", err, TESSERA_INVALID_ARGUMENT,
                       "Attempted to shard two or more tensor dimensions over mesh dimension x"));
}

static void d43_spec_over_missing_dim_fails(void) {
  tessera_error* err = NULL;
  ASSERT_NULL(tessera_dtensor_layout_parse("sharding_specs:x,z, mesh:|x=1,y=2|*CPU", &err));
  ASSERT_TRUE(error_is("D43", err, TESSERA_INVALID_ARGUMENT,
                       "sharding spec (z) refers to mesh dimension not contained in mesh "));
}

static void d45_more_layout_parse_cases(void) {
  static const error_row errors[] = {
      {"specs:x, mesh:|x=2|*CPU", "Unknown layout type prefixspecs:x, in specs:x, mesh:|x=2|*CPU"},
      {"maximal:true, mesh:|x=2|*CPU", "type is single device, but mesh is not single device"},
      {"sharding_specs:x, mesh:" LT0("CPU:0"), "type is single device, but mesh is not single device"},
      {"sharding_specs:x, mesh:empty_mesh", "type is empty, but mesh is not empty"},
      {"sharding_specs:match,match, mesh:|x=2|*CPU",
       "Attempted to shard two or more tensor dimensions over mesh dimension match"},
      {"sharding_specs:, mesh:|x=2|*CPU",
       "sharding spec () refers to mesh dimension not contained in mesh "},
      /* Tessera's decision: DTensor drops the last spec (rank 1), Tessera refuses. */
      {"sharding_specs:x,y mesh:|x=2,y=2|*CPU", "Sharding spec is not followed by ','"},
  };
  size_t i;
  tessera_dtensor_layout* any_twice = parse_layout("sharding_specs:any,any, mesh:|x=2|*CPU");
  tessera_dtensor_layout* no_prefix = parse_layout("sharding_specs:x, |x=2|*CPU");
  ASSERT_EQ(2, tessera_dtensor_layout_num_dims(any_twice, NULL));
  ASSERT_EQ(1, tessera_dtensor_layout_num_dims(no_prefix, NULL));
  tessera_dtensor_layout_destroy(no_prefix);
  tessera_dtensor_layout_destroy(any_twice);
  for (i = 0; i < HARNESS_COUNT(errors); ++i) {
    tessera_error* err = NULL;
    ASSERT_NULL(tessera_dtensor_layout_parse(errors[i].text, &err));
    ASSERT_TRUE(error_is(errors[i].text, err, TESSERA_INVALID_ARGUMENT, errors[i].prefix));
  }
}

/* ---- D. Shape arithmetic and shard math -------------------------------------------- */

static void d57_batch_sharded_shards_per_dim(void) {
  static const char* const specs[] = {"batch", "unsharded"};
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(M2D, NULL);
  tessera_dtensor_layout* layout =
      tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_STATIC, specs, 2, mesh, NULL);
  int64_t shards[2] = {0, 0};
  ASSERT_EQ(2, tessera_dtensor_layout_num_shards_per_dim(layout, shards, 2, NULL));
  ASSERT_EQ(2, shards[0]);
  ASSERT_EQ(1, shards[1]);
  tessera_dtensor_layout_destroy(layout);
  tessera_dtensor_mesh_destroy(mesh);
}

/* The upstream test's layout shards the first two axes (batch, x) of a rank-3
 * shape: (2,6,5) -> (1,3,5) needs both. */
static void d59_local_shape_from_global(void) {
  static const char* const specs[] = {"batch", "x", "unsharded"};
  static const int64_t global[] = {2, 6, 5};
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse(M2D, NULL);
  tessera_dtensor_layout* layout =
      tessera_dtensor_layout_create(TESSERA_DTENSOR_LAYOUT_STATIC, specs, 3, mesh, NULL);
  int64_t local[3] = {0, 0, 0};
  ASSERT_EQ(3, tessera_dtensor_layout_local_shape_from_global(layout, global, 3, local, 3, NULL));
  ASSERT_EQ(1, local[0]);
  ASSERT_EQ(3, local[1]);
  ASSERT_EQ(5, local[2]);
  tessera_dtensor_layout_destroy(layout);
  tessera_dtensor_mesh_destroy(mesh);
}

static void d61_more_shape_cases(void) {
  static const struct {
    const char* layout;
    int global_from_local; /* 0: local_from_global */
    int64_t in[2], expected[2];
  } rows[] = {
      {"sharding_specs:unsharded,unsharded, mesh:|x=4,batch=8|*TPU", 0, {8, 16}, {8, 16}},
      {"sharding_specs:x,unsharded, mesh:|x=4,y=4|*CPU", 0, {12, 7}, {3, 7}},
      /* DTensor's integer division (no divisibility check), kept. */
      {"sharding_specs:x,unsharded, mesh:|x=4,y=4|*CPU", 0, {10, 7}, {2, 7}},
      {"sharding_specs:x,y, mesh:|x=2,y=2|*CPU", 0, {-1, 8}, {-1, 4}},
      {"sharding_specs:x,y, mesh:|x=2,y=2|*CPU", 1, {3, 4}, {6, 8}},
  };
  size_t i;
  tessera_dtensor_layout* layout;
  int64_t shards = 0, out[2] = {0, 0};
  for (i = 0; i < HARNESS_COUNT(rows); ++i) {
    layout = parse_layout(rows[i].layout);
    if (rows[i].global_from_local) {
      ASSERT_EQ(2, tessera_dtensor_layout_global_shape_from_local(layout, rows[i].in, 2, NULL, 0,
                                                                  out, 2, NULL));
    } else {
      ASSERT_EQ(2, tessera_dtensor_layout_local_shape_from_global(layout, rows[i].in, 2, out, 2,
                                                                  NULL));
    }
    ASSERT_EQ(rows[i].expected[0], out[0]);
    ASSERT_EQ(rows[i].expected[1], out[1]);
    tessera_dtensor_layout_destroy(layout);
  }
  /* IsFullyReplicated is a string test: x over an extent-1 dim is not replicated. */
  layout = parse_layout("sharding_specs:x, mesh:|x=1|*CPU");
  ASSERT_FALSE(tessera_dtensor_layout_is_fully_replicated(layout, NULL));
  ASSERT_EQ(1, tessera_dtensor_layout_num_shards_per_dim(layout, &shards, 1, NULL));
  ASSERT_EQ(1, shards);
  tessera_dtensor_layout_destroy(layout);
  layout = parse_layout("sharding_specs: mesh:|x=2|*CPU");
  ASSERT_TRUE(tessera_dtensor_layout_is_fully_replicated(layout, NULL));
  ASSERT_EQ(0, tessera_dtensor_layout_local_shape_from_global(layout, NULL, 0, NULL, 0, NULL));
  tessera_dtensor_layout_destroy(layout);
  layout = parse_layout("sharding_specs:match, mesh:|x=2|*CPU");
  ASSERT_EQ(1, tessera_dtensor_layout_num_shards_per_dim(layout, &shards, 1, NULL));
  ASSERT_EQ(-1, shards);
  tessera_dtensor_layout_destroy(layout);
}

static void d63_mesh_dimension_index(void) {
  tessera_error* err = NULL;
  size_t index = 9;
  tessera_dtensor_mesh* mesh = tessera_dtensor_mesh_parse("|x=2,y=2|*CPU", NULL);
  ASSERT_TRUE(tessera_dtensor_mesh_dim_lookup(mesh, "x", &index, NULL));
  ASSERT_EQ(0, index);
  ASSERT_TRUE(tessera_dtensor_mesh_dim_lookup(mesh, "y", &index, NULL));
  ASSERT_EQ(1, index);
  ASSERT_FALSE(tessera_dtensor_mesh_dim_lookup(mesh, "z", &index, &err));
  ASSERT_TRUE(error_is("D63", err, TESSERA_INVALID_ARGUMENT, "dim name :z does not exist on mesh : "));
  tessera_dtensor_mesh_destroy(mesh);
}

static void d65_shard_vector_with_inverted_specs(void) {
  tessera_dtensor_layout* layout = parse_layout("sharding_specs:y,x, mesh:|x=2,y=3|*CPU");
  ASSERT_STREQ("shards:[(1,1),(2,1),(3,1),(1,2),(2,2),(3,2)] num_shards_per_dim:(3,2)",
               text_of(tessera_dtensor_layout_shard_vector_text(layout, NULL)));
  tessera_dtensor_layout_destroy(layout);
}

static void d67_multi_host_shards(void) {
  tessera_dtensor_layout* layout = parse_layout(
      "sharding_specs:x,unsharded, mesh:TPU|x=4,y=1|0,1,2,3|0,1,2,3|" LT0("TPU:0") ","
      LT0("TPU:1") "," LT1("TPU:0") "," LT1("TPU:1"));
  ASSERT_STREQ("shards:[(1,1),(2,1),(3,1),(4,1)] num_shards_per_dim:(4,1)",
               text_of(tessera_dtensor_layout_shard_vector_text(layout, NULL)));
  ASSERT_STREQ("shards:[(1,1),(2,1)] num_shards_per_dim:(4,1)",
               text_of(tessera_dtensor_layout_host_shard_vector_text(layout, "/job:localhost/task:0",
                                                                     NULL)));
  ASSERT_STREQ("shards:[(3,1),(4,1)] num_shards_per_dim:(4,1)",
               text_of(tessera_dtensor_layout_host_shard_vector_text(layout, "/job:localhost/task:1",
                                                                     NULL)));
  tessera_dtensor_layout_destroy(layout);
}

/* The devices of D68 (not listed): two per task, tasks 0 and 1. */
#define XY_MESH(t) "|x=2,y=2|0,1,2,3|0,1,2,3|" LT0(t ":0") "," LT0(t ":1") "," LT1(t ":0") "," LT1(t ":1")

static void d69_send_and_recv_reduced_meshes_share_hosts(void) {
  tessera_dtensor_layout* send = parse_layout("sharding_specs:y,x, mesh:" XY_MESH("CPU"));
  tessera_dtensor_layout* recv = parse_layout("sharding_specs:x,y, mesh:" XY_MESH("TPU"));
  tessera_dtensor_mesh* a = tessera_dtensor_layout_reduced_mesh(send, NULL);
  tessera_dtensor_mesh* b = tessera_dtensor_layout_reduced_mesh(recv, NULL);
  size_t i;
  ASSERT_EQ(2, tessera_dtensor_mesh_num_hosts(a, NULL));
  ASSERT_EQ(2, tessera_dtensor_mesh_num_hosts(b, NULL));
  for (i = 0; i < 2; ++i) {
    ASSERT_STREQ(tessera_dtensor_mesh_host(a, i, NULL), tessera_dtensor_mesh_host(b, i, NULL));
  }
  ASSERT_STREQ("/job:localhost/task:0", tessera_dtensor_mesh_host(a, 0, NULL));
  ASSERT_STREQ("/job:localhost/task:1", tessera_dtensor_mesh_host(a, 1, NULL));
  tessera_dtensor_mesh_destroy(b);
  tessera_dtensor_mesh_destroy(a);
  tessera_dtensor_layout_destroy(recv);
  tessera_dtensor_layout_destroy(send);
}

/* ---- E. ReducedMesh, equivalence, helpers ------------------------------------------ */

static void d71_replicated_reduced_mesh_is_one_device(void) {
  tessera_dtensor_layout* layout = parse_layout("sharding_specs:unsharded,unsharded, mesh:|x=2,y=2|*CPU");
  tessera_dtensor_mesh* reduced = tessera_dtensor_layout_reduced_mesh(layout, NULL);
  ASSERT_EQ(1, reduced_mesh_size(reduced));
  ASSERT_EQ(1, tessera_dtensor_mesh_num_hosts(reduced, NULL));
  tessera_dtensor_mesh_destroy(reduced);
  tessera_dtensor_layout_destroy(layout);
}

static void d73_replicated_reduced_mesh_on_another_host_is_remote(void) {
  tessera_dtensor_layout* layout = parse_layout(
      "sharding_specs:unsharded,unsharded, mesh:|x=4,y=2|0,1,2,3,4,5,6,7|4,5,6,7|" H2);
  tessera_dtensor_mesh* reduced = tessera_dtensor_layout_reduced_mesh(layout, NULL);
  int64_t id = -1;
  ASSERT_EQ(1, reduced_mesh_size(reduced));
  ASSERT_TRUE(tessera_dtensor_mesh_global_id(reduced, 0, &id, NULL));
  ASSERT_EQ(0, id);
  ASSERT_EQ(0, tessera_dtensor_mesh_num_local_ids(reduced, NULL));
  ASSERT_EQ(0, tessera_dtensor_mesh_num_hosts(reduced, NULL));
  tessera_dtensor_mesh_destroy(reduced);
  tessera_dtensor_layout_destroy(layout);
}

static void d75_fully_sharded_reduced_mesh_keeps_everything(void) {
  static const char* const h2[] = {LT1("CPU:0"), LT1("CPU:1"), LT1("CPU:2"), LT1("CPU:3")};
  tessera_dtensor_layout* layout =
      parse_layout("sharding_specs:x,y, mesh:|x=4,y=2|0,1,2,3,4,5,6,7|4,5,6,7|" H2);
  tessera_dtensor_mesh* reduced = tessera_dtensor_layout_reduced_mesh(layout, NULL);
  int64_t id = -1;
  size_t i;
  ASSERT_EQ(8, reduced_mesh_size(reduced));
  for (i = 0; i < 8; ++i) {
    ASSERT_TRUE(tessera_dtensor_mesh_global_id(reduced, i, &id, NULL));
    ASSERT_EQ(i, id);
  }
  ASSERT_EQ(4, tessera_dtensor_mesh_num_local_ids(reduced, NULL));
  for (i = 0; i < 4; ++i) {
    ASSERT_TRUE(tessera_dtensor_mesh_local_id(reduced, i, &id, NULL));
    ASSERT_EQ(4 + i, id);
    ASSERT_STREQ(h2[i], tessera_dtensor_mesh_local_device(reduced, i, NULL));
  }
  ASSERT_EQ(1, tessera_dtensor_mesh_num_hosts(reduced, NULL));
  tessera_dtensor_mesh_destroy(reduced);
  tessera_dtensor_layout_destroy(layout);
}

static void d77_equivalent_layouts(void) {
  tessera_dtensor_layout* fully = parse_layout("sharding_specs:x,y, mesh:|x=2,y=1|*TPU");
  tessera_dtensor_layout* xs = parse_layout("sharding_specs:x,unsharded, mesh:|x=2,y=1|*TPU");
  tessera_dtensor_layout* ys = parse_layout("sharding_specs:unsharded,y, mesh:|x=2,y=1|*TPU");
  ASSERT_TRUE(tessera_dtensor_layout_is_equivalent(fully, xs, NULL));
  ASSERT_TRUE(tessera_dtensor_layout_is_equivalent(xs, fully, NULL));
  ASSERT_FALSE(tessera_dtensor_layout_is_equivalent(fully, ys, NULL));
  ASSERT_FALSE(tessera_dtensor_layout_is_equivalent(ys, fully, NULL));
  tessera_dtensor_layout_destroy(ys);
  tessera_dtensor_layout_destroy(xs);
  tessera_dtensor_layout_destroy(fully);
}

static void d79_transposed_2d(void) {
  static const struct {
    const char* layout;
    const char* transposed;
  } rows[] = {
      {"sharding_specs:x,y, mesh:|x=2,y=2|*CPU", "sharding_specs:y,x, mesh:|x=2,y=2|*CPU"},
      {"sharding_specs:b1,b2,x,y, mesh:|x=2,y=2,b1=2,b2=2|*CPU",
       "sharding_specs:b1,b2,y,x, mesh:|x=2,y=2,b1=2,b2=2|*CPU"},
  };
  size_t i;
  tessera_error* err = NULL;
  tessera_dtensor_layout* rank_one = parse_layout("sharding_specs:x, mesh:|x=2,y=2|*CPU");
  for (i = 0; i < HARNESS_COUNT(rows); ++i) {
    tessera_dtensor_layout* layout = parse_layout(rows[i].layout);
    tessera_dtensor_layout* expected = parse_layout(rows[i].transposed);
    tessera_dtensor_layout* transposed = tessera_dtensor_layout_transpose_2d(layout, NULL);
    ASSERT_TRUE(tessera_dtensor_layout_equal(expected, transposed, NULL));
    tessera_dtensor_layout_destroy(transposed);
    tessera_dtensor_layout_destroy(expected);
    tessera_dtensor_layout_destroy(layout);
  }
  ASSERT_NULL(tessera_dtensor_layout_transpose_2d(rank_one, &err));
  ASSERT_TRUE(error_is("D79", err, TESSERA_INVALID_ARGUMENT, "Transposed2D requires rank to be >= 2"));
  tessera_dtensor_layout_destroy(rank_one);
}

static void d81_concatenate(void) {
  tessera_error* err = NULL;
  tessera_dtensor_layout* x = parse_layout("sharding_specs:x, mesh:CPU|x=2,y=2|*CPU");
  tessera_dtensor_layout* y = parse_layout("sharding_specs:y, mesh:CPU|x=2,y=2|*CPU");
  tessera_dtensor_layout* xy = parse_layout("sharding_specs:x,y, mesh:CPU|x=2,y=2|*CPU");
  tessera_dtensor_layout* x_alone = parse_layout("sharding_specs:x, mesh:CPU|x=2|*CPU");
  tessera_dtensor_layout* y_alone = parse_layout("sharding_specs:y, mesh:CPU|y=2|*CPU");
  tessera_dtensor_layout* joined = tessera_dtensor_layout_concatenate(x, y, NULL);
  ASSERT_TRUE(tessera_dtensor_layout_equal(xy, joined, NULL));
  ASSERT_NULL(tessera_dtensor_layout_concatenate(x_alone, y_alone, &err));
  ASSERT_TRUE(error_is("D81", err, TESSERA_INVALID_ARGUMENT,
                       "unable to concatenate layouts as they are on different meshes."));
  ASSERT_NULL(tessera_dtensor_layout_concatenate(x, x, &err));
  ASSERT_TRUE(error_is("D81", err, TESSERA_INVALID_ARGUMENT,
                       "unable to concatenate layouts as they use the same meshes dimension: x "
                       "is used in both layouts."));
  tessera_dtensor_layout_destroy(joined);
  tessera_dtensor_layout_destroy(y_alone);
  tessera_dtensor_layout_destroy(x_alone);
  tessera_dtensor_layout_destroy(xy);
  tessera_dtensor_layout_destroy(y);
  tessera_dtensor_layout_destroy(x);
}

static void d83_dynamic_sizes(void) {
  ASSERT_TRUE(tessera_dtensor_layout_is_dynamic_extent(-1));
  ASSERT_TRUE(tessera_dtensor_layout_is_dynamic_extent(INT64_MIN));
  ASSERT_FALSE(tessera_dtensor_layout_is_dynamic_extent(10));
}

int main(int argc, char** argv) {
  static const harness_test rows[] = {
      HARNESS_TEST(d1_mesh_text_round_trips),
      HARNESS_TEST(d3_empty_mesh),
      HARNESS_TEST(d5_seven_parts_give_global_devices_and_xla_spmd),
      HARNESS_TEST(d7_no_xla_spmd),
      HARNESS_TEST(d9_sixth_part_use_xla_spmd),
      HARNESS_TEST(d11_single_device_mesh_round_trips),
      HARNESS_TEST(d13_single_device_mesh_of_empty_string_fails),
      HARNESS_TEST(d15_single_device_mesh_survives_its_text),
      HARNESS_TEST(d17_host_mesh_is_on_cpus_without_the_name),
      HARNESS_TEST(d19_mesh_dims_by_name),
      HARNESS_TEST(d21_mesh_parse_quirk_and_errors),
      HARNESS_TEST(d23_layout_text_round_trips),
      HARNESS_TEST(d25_no_spec_differs_from_one_unsharded_spec),
      HARNESS_TEST(d27_any_round_trips),
      HARNESS_TEST(d29_shorthand_mesh_expands),
      HARNESS_TEST(d31_batch_layout_round_trips),
      HARNESS_TEST(d33_layout_types),
      HARNESS_TEST(d35_single_device_layout),
      HARNESS_TEST(d37_scalar_layout_is_rank_zero),
      HARNESS_TEST(d39_cpu_mesh_of_sixteen),
      HARNESS_TEST(d41_repeated_spec_fails),
      HARNESS_TEST(d43_spec_over_missing_dim_fails),
      HARNESS_TEST(d45_more_layout_parse_cases),
      HARNESS_TEST(d57_batch_sharded_shards_per_dim),
      HARNESS_TEST(d59_local_shape_from_global),
      HARNESS_TEST(d61_more_shape_cases),
      HARNESS_TEST(d63_mesh_dimension_index),
      HARNESS_TEST(d65_shard_vector_with_inverted_specs),
      HARNESS_TEST(d67_multi_host_shards),
      HARNESS_TEST(d69_send_and_recv_reduced_meshes_share_hosts),
      HARNESS_TEST(d71_replicated_reduced_mesh_is_one_device),
      HARNESS_TEST(d73_replicated_reduced_mesh_on_another_host_is_remote),
      HARNESS_TEST(d75_fully_sharded_reduced_mesh_keeps_everything),
      HARNESS_TEST(d77_equivalent_layouts),
      HARNESS_TEST(d79_transposed_2d),
      HARNESS_TEST(d81_concatenate),
      HARNESS_TEST(d83_dynamic_sizes),
  };
  const int status = harness_main(argc, argv, rows, HARNESS_COUNT(rows));
  text_of(NULL);
  return status;
}
