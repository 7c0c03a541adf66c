/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/*
 * The one SWIG interface of Tessera's bindings (Java, C#, Go), over the
 * public C headers only (tessera/tessera.h), never the C++ core.
 *
 * Layout of this file
 *   1. The language file (java/tessera_java.i, csharp/tessera_csharp.i,
 *      go/tessera_go.i) is included FIRST: it sets names, loading, and the
 *      typemaps of the contract below.
 *   2. Whitelist: every C function is ignored; the binding API is exactly the
 *      %extend classes and the few functions unignored here. A new C function
 *      never becomes binding API by accident.
 *   3. The enums, from the headers themselves (no copies).
 *   4. One shadow class per handle (GDAL's pattern): `typedef struct {} Mesh;`
 *      for SWIG, `typedef tessera_mesh Mesh;` for the compiler, so the
 *      %extend helpers are named Mesh_rank, new_Mesh, delete_Mesh and never
 *      collide with the C API's tessera_mesh_num_axes. Constructor = create,
 *      destructor = destroy. Methods are snake_case here; each language file
 *      applies its case (%rename("%(lowercamelcase)s") ...).
 *
 * The contract a language file fulfils (the common part only %applies these):
 *   - tessera_error** out_error: hidden argument; after the call a non-NULL
 *     error is raised with TESSERA_SWIG_RAISE(err) (a C macro the language
 *     defines in its %{ %} block; it takes ownership of err and must not
 *     return from the wrapper, so freearg cleanup still runs). A language
 *     that maps errors another way (Go) defines TESSERA_SWIG_CUSTOM_ERRORS
 *     (SWIG preprocessor) and its own typemaps for tessera_error** out_error.
 *   - (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT):
 *     the language's int64 array (NULL allowed: count 0).
 *   - (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT):
 *     the language's string array, UTF-8; a NULL array and NULL entries pass
 *     through as NULL (a replicated layout dimension is a NULL axis).
 *   - (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE): bytes.
 *   - tessera_buffer* (returned, owned): bytes; copy, then
 *     tessera_buffer_destroy. NULL (an error) gives the language's null.
 *   - tessera_swig_text* (returned, owned): a UTF-8 string; copy, destroy.
 *   - tessera_swig_int64s (returned by value): an int64 array malloc'd by
 *     the wrapper; copy, then free(data). data == NULL with size > 0 means
 *     the wrapper ran out of memory.
 *   - tessera_swig_bytes (returned by value): bytes malloc'd by the wrapper;
 *     copy, then free(data); data == NULL with size > 0: out of memory.
 *   - const char*: UTF-8 in and out (borrowed results are copied).
 *   - size_t is 64-bit in every language (C# must override SWIG's uint).
 *
 * The cluster API (ClusterOptions, Detection, Client, Event, KvList,
 * Coordinator) can be left out with -DTESSERA_SWIG_NO_CLUSTER.
 */
%module tessera

%{
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TESSERA_EXPERIMENTAL_API

#include "tessera/tessera.h"
%}

#if defined(SWIGJAVA)
%include "java/tessera_java.i"
#elif defined(SWIGCSHARP)
%include "csharp/tessera_csharp.i"
#elif defined(SWIGGO)
%include "go/tessera_go.i"
#endif

/* int64_t is `long` on the LP64 platforms Tessera builds for (Linux); without
 * this stdint.i declares it `long long` and the wrapper's pointers mismatch. */
#if !defined(SWIGWORDSIZE32) && !defined(SWIGWORDSIZE64)
#define SWIGWORDSIZE64
#endif
%include <stdint.i>
/* ...but C `long` is 32-bit in SWIG's Java and C# maps (int): 64-bit integers
 * take the `long long` typemaps (Java long, C# long, Go int64). */
%apply long long { int64_t };
%apply unsigned long long { uint64_t };

/* ---- 2. Whitelist --------------------------------------------------------- */

%rename("$ignore", regextarget=1, %$isfunction) "^tessera_";
%rename("$ignore", regextarget=1, %$isenumitem) "_FORCE_INT32$";
%nodefaultctor;
%nodefaultdtor;

/* The only free functions: version and names. */
%rename(version) tessera_version;
%rename(version_string) tessera_version_string;
%rename(code_name) tessera_code_name;
%rename(platform_name) tessera_platform_name;

/* ---- 3. Enums (and the free functions above) from the headers ------------- */

%rename(Code) tessera_code_t;
%rename(LogLevel) tessera_log_level_t;
%rename(Platform) tessera_platform_t;
%rename(ShapeCheck) tessera_shape_check_t;
%rename(KeyMatch) tessera_key_match_t;
%rename(DistributionKind) tessera_distribution_kind_t;
%rename(DatasetMode) tessera_dataset_mode_t;
%rename(DatasetPlanKind) tessera_dataset_plan_kind_t;
%rename(ShardMode) tessera_shard_mode_t;
%rename(TransferLocality) tessera_transfer_locality_t;
%rename(DTensorMeshKind) tessera_dtensor_mesh_kind_t;
%rename(EventKind) tessera_event_kind_t;
%rename(TaskState) tessera_task_state_t;
%rename(ErrorReason) tessera_error_reason_t;
%rename(DTensorLayoutType) tessera_dtensor_layout_type_t;

%include "tessera/export.h"
%include "tessera/error.h"
%include "tessera/log.h"
%include "tessera/device.h"
%include "tessera/layout.h"
%include "tessera/layout_map.h"
%include "tessera/distribution.h"
%include "tessera/shard.h"
%include "tessera/reshard.h"
%include "tessera/dtensor.h"
%include "tessera/mesh_construction.h"
/* Every binding wraps both tiers; its docs mark the experimental part. */
#define TESSERA_EXPERIMENTAL_API
%include "tessera/experimental/distribution_scope.h"
%include "tessera/experimental/dtensor_legacy.h"
%include "tessera/experimental/mesh_make.h"
%include "tessera/experimental/keras_data.h"
%include "tessera/experimental/dtensor_config.h"
%include "tessera/experimental/dtensor_mesh.h"
%include "tessera/experimental/dtensor_layout.h"
#if !defined(TESSERA_SWIG_NO_CLUSTER)
%include "tessera/client.h"
%include "tessera/experimental/cluster.h"
%include "tessera/experimental/keras_initialize.h"
#endif

/* version.h is generated; declared here instead of included. */
uint32_t tessera_version(void);
const char* tessera_version_string(void);

/*
 * The check every binding runs when it loads: the wrapper was compiled against
 * one version.h, and a library of another major, or of an older minor, lacks
 * what the wrapper calls or means something else by it. NULL when `loaded`
 * (tessera_version()) can serve this binding, else a message naming both
 * versions. Each binding passes tessera_version() at load and fails with the
 * message; its tests pass other numbers.
 */
%rename(binding_version_problem) tessera_binding_version_problem;
const char* tessera_binding_version_problem(uint32_t loaded);
%{
const char* tessera_binding_version_problem(uint32_t loaded) {
  /* Per thread: the caller copies it into a managed string at once. */
  static __thread char message[200];
  if (TESSERA_VERSION_COMPATIBLE(loaded)) return NULL;
  snprintf(message, sizeof message,
           "libtessera %u.%u.%u cannot serve this binding, built for tessera %s: "
           "the major version must be the same and the minor not older",
           (unsigned)(loaded / 10000), (unsigned)(loaded / 100 % 100), (unsigned)(loaded % 100),
           TESSERA_VERSION_STRING);
  return message;
}
%}


/* Methods that only forward to a C function with the same arguments are
 * declared without a body in their %extend; SWIG calls Class_method(self, ...),
 * which these names alias. */
%{
#define Sharding_scatter_concat(...) tessera_swig_scatter_concat(__VA_ARGS__)
#define Sharding_gather_concat(...) tessera_swig_gather_concat(__VA_ARGS__)
#define DeviceList_get(...) tessera_device_list_device(__VA_ARGS__)
#define LocalDevices_kind(...) tessera_local_devices_kind(__VA_ARGS__)
#define LocalDevices_physical_id(...) tessera_local_devices_physical_id(__VA_ARGS__)
#define LocalDevices_pci_bus_id(...) tessera_local_devices_pci_bus_id(__VA_ARGS__)
#define Mesh_axis_name(...) tessera_mesh_axis_name(__VA_ARGS__)
#define Mesh_device(...) tessera_mesh_device(__VA_ARGS__)
#define Mesh_is_equal(...) tessera_mesh_equal(__VA_ARGS__)
#define Mesh_to_string(...) tessera_mesh_to_string(__VA_ARGS__)
#define Mesh_to_dtensor_text(...) tessera_mesh_to_dtensor_text(__VA_ARGS__)
#define Mesh_to_jax_text(...) tessera_mesh_to_jax_text(__VA_ARGS__)
#define Mesh_to_proto(...) tessera_mesh_to_proto(__VA_ARGS__)
#define Mesh_to_json(...) tessera_mesh_to_json(__VA_ARGS__)
#define Mesh_submesh(...) tessera_mesh_submesh(__VA_ARGS__)
#define Mesh_flatten(...) tessera_mesh_flatten(__VA_ARGS__)
#define Layout_with_mesh(...) tessera_layout_with_mesh(__VA_ARGS__)
#define Layout_axis(...) tessera_layout_dim_axis(__VA_ARGS__)
#define Layout_is_equal(...) tessera_layout_equal(__VA_ARGS__)
#define Layout_to_string(...) tessera_layout_to_string(__VA_ARGS__)
#define Layout_to_partition_spec(...) tessera_layout_to_partition_spec(__VA_ARGS__)
#define Layout_to_hlo_sharding(...) tessera_layout_to_hlo_sharding(__VA_ARGS__)
#define Layout_to_op_sharding(...) tessera_layout_to_op_sharding(__VA_ARGS__)
#define Layout_to_torch_placements(...) tessera_layout_to_torch_placements(__VA_ARGS__)
#define Layout_to_dtensor_text(...) tessera_layout_to_dtensor_text(__VA_ARGS__)
#define Layout_to_dtensor_text_with_mesh(...) tessera_layout_to_dtensor_text_with_mesh(__VA_ARGS__)
#define Layout_to_proto(...) tessera_layout_to_proto(__VA_ARGS__)
#define Layout_to_json(...) tessera_layout_to_json(__VA_ARGS__)
#define LayoutMap_get(...) tessera_layout_map_lookup(__VA_ARGS__)
#define LayoutMap_key(...) tessera_layout_map_key(__VA_ARGS__)
#define LayoutMap_layout(...) tessera_layout_map_layout(__VA_ARGS__)
#define LayoutMap_to_proto(...) tessera_layout_map_to_proto(__VA_ARGS__)
#define LayoutMap_to_json(...) tessera_layout_map_to_json(__VA_ARGS__)
#define Distribution_data_layout(...) tessera_distribution_data_layout(__VA_ARGS__)
#define Distribution_variable_layout(...) tessera_distribution_variable_layout(__VA_ARGS__)
#define Distribution_tensor_layout(...) tessera_distribution_tensor_layout(__VA_ARGS__)
#define Distribution_plan_dataset(...) tessera_distribution_plan_dataset(__VA_ARGS__)
#define Distribution_to_string(...) tessera_distribution_to_string(__VA_ARGS__)
#define Distribution_to_proto(...) tessera_distribution_to_proto(__VA_ARGS__)
#define Distribution_to_json(...) tessera_distribution_to_json(__VA_ARGS__)
#define DTensorMesh_to_mesh(...) tessera_dtensor_mesh_to_mesh(__VA_ARGS__)
#define DTensorMesh_to_text(...) tessera_dtensor_mesh_to_text(__VA_ARGS__)
#define DTensorMesh_dim_name(...) tessera_dtensor_mesh_dim_name(__VA_ARGS__)
#define DTensorMesh_local_device(...) tessera_dtensor_mesh_local_device(__VA_ARGS__)
#define DTensorMesh_global_device(...) tessera_dtensor_mesh_global_device(__VA_ARGS__)
#define ClusterOptions_detect(...) tessera_detection_create(__VA_ARGS__)
#define ClusterOptions_detect_env(...) tessera_detection_create_from_env(__VA_ARGS__)
#define ClusterOptions_initialize(...) tessera_runtime_initialize(__VA_ARGS__)
#define ClusterOptions_connect(...) tessera_client_connect(__VA_ARGS__)
#define Client_devices(...) tessera_client_devices(__VA_ARGS__)
#define Client_kv_get(...) tessera_client_kv_wait(__VA_ARGS__)
#define Client_kv_try_get(...) tessera_client_kv_lookup(__VA_ARGS__)
#define Client_kv_list(...) tessera_client_kv_list(__VA_ARGS__)
#define Client_next_event(...) tessera_client_event_wait(__VA_ARGS__)
%}

/* ---- Wrapper-side types and helpers ---------------------------------------- */

%{
typedef tessera_device Device;
typedef tessera_device_list DeviceList;
typedef tessera_local_devices LocalDevices;
typedef tessera_mesh Mesh;
typedef tessera_layout Layout;
typedef tessera_layout_map LayoutMap;
typedef tessera_distribution_options DistributionOptions;
typedef tessera_distribution Distribution;
typedef tessera_dataset_plan DatasetPlan;
typedef tessera_sharding Sharding;
typedef tessera_reshard_plan ReshardPlan;
typedef tessera_dtensor_mesh DTensorMesh;
typedef tessera_cluster_options ClusterOptions;
typedef tessera_detection Detection;
typedef tessera_client Client;
typedef tessera_event Event;
typedef tessera_kv_list KvList;
typedef tessera_coordinator Coordinator;
typedef struct tessera_keras_initialize_options KerasInitializeOptions;
typedef struct tessera_keras_initialize KerasInitialize;
/* Before every %extend body: DTensorMesh's methods take a DTensorConfig. */
typedef tessera_dtensor_layout DTensorLayout;
typedef tessera_dtensor_config DTensorConfig;
typedef tessera_dtensor_config_options DTensorConfigOptions;
/* Before every %extend body: Mesh's creators take MeshOptions. */
typedef tessera_mesh_options MeshOptions;

/* How a Client handle is destroyed; a language that keeps per-client state
 * (Java event listeners) defines its own in its wrapper code. */
#ifndef TESSERA_SWIG_CLIENT_DESTROY
#define TESSERA_SWIG_CLIENT_DESTROY(client) tessera_client_destroy(client)
#endif

/* An owned text buffer: the language returns it as a string. */
typedef tessera_buffer tessera_swig_text;

/* An int64 array the wrapper malloc'd; the out typemap copies and frees it. */
typedef struct tessera_swig_int64s {
  int64_t* data;
  size_t size;
} tessera_swig_int64s;


/* n zeroed entries; data NULL with size n > 0 when memory ran out. */
static tessera_swig_int64s tessera_swig_int64s_new(size_t n) {
  tessera_swig_int64s a;
  a.size = n;
  a.data = n == 0 || n > SIZE_MAX / sizeof(int64_t) ? NULL : (int64_t*)calloc(n, sizeof(int64_t));
  return a;
}

/* True when `a` needs room it could not get. */
static int tessera_swig_int64s_oom(tessera_swig_int64s a) { return a.data == NULL && a.size > 0; }

/* Two arrays that must be as long as each other: the count to pass, or 0
 * with *mismatch set. */
static size_t tessera_swig_same_count(size_t a, size_t b, int* mismatch) {
  *mismatch = a != b;
  return a != b ? (a > b ? a : b) : a;
}

/* Mesh options with these settings (devices NULL: unset; device_kind NULL:
 * unset; sort < 0: unset); NULL with out_error set when a setter refused. */
static tessera_mesh_options* tessera_swig_mesh_options(const char* const* devices, size_t num_devices,
                                                       const char* device_kind, int sort,
                                                       tessera_error** out_error) {
  tessera_mesh_options* options = tessera_mesh_options_create();
  if ((devices == NULL || tessera_mesh_options_set_devices(options, devices, num_devices, out_error)) &&
      (device_kind == NULL || tessera_mesh_options_set_device_kind(options, device_kind, out_error)) &&
      (sort < 0 || tessera_mesh_options_set_sort_granules_by_key(options, sort != 0, out_error))) {
    return options;
  }
  tessera_mesh_options_destroy(options);
  return NULL;
}

/* DTensor mesh options with these settings (NULL: unset). */
static tessera_dtensor_mesh_options* tessera_swig_dtensor_mesh_options(const char* name, const char* const* devices,
                                                                       size_t num_devices, const char* device_type,
                                                                       bool use_xla_spmd, tessera_error** out_error) {
  tessera_dtensor_mesh_options* options = tessera_dtensor_mesh_options_create();
  if ((name == NULL || tessera_dtensor_mesh_options_set_name(options, name, out_error)) &&
      (devices == NULL || tessera_dtensor_mesh_options_set_devices(options, devices, num_devices, out_error)) &&
      (device_type == NULL || tessera_dtensor_mesh_options_set_device_type(options, device_type, out_error)) &&
      tessera_dtensor_mesh_options_set_use_xla_spmd(options, use_xla_spmd, out_error)) {
    return options;
  }
  tessera_dtensor_mesh_options_destroy(options);
  return NULL;
}

/* Non-NULL and never read: stands in for a string array whose partner array
 * is passed as NULL so that the C function rejects the call before reading. */
static const char* const tessera_swig_no_strings[1] = {NULL};

/* Room for n entries of `size` bytes; at least one byte when keep_empty, so
 * that an empty answer (data non-NULL) differs from a failed call (NULL). */
static void* tessera_swig_array_room(size_t n, size_t size, int keep_empty) {
  if (n > SIZE_MAX / size) return NULL;
  if (n == 0) return keep_empty ? malloc(1) : NULL;
  return calloc(n, size);
}

/* Hands a failed call's error to the caller, or drops it when out_error is NULL. */
static void tessera_swig_pass_error(tessera_error* error, tessera_error** out_error) {
  if (out_error != NULL) {
    *out_error = error;
  } else {
    tessera_error_destroy(error);
  }
}

/*
 * The one output-array shape of the C ABI (tessera.h, Vocabulary: `size_t
 * f(..., T* out, size_t capacity, tessera_error** out_error)`) as a binding
 * result, the whole body of a wrapper (TESSERA_INT64S_METHOD below writes the
 * method around it):
 *   TESSERA_SWIG_RETURN_INT64S(out_error, tessera_xla_device_order, $self);
 * asks for the length (out NULL, capacity 0), allocates, fills, and returns
 * a tessera_swig_int64s. size_t entries (positions) fill the same array: the
 * languages see them as int64, and long and unsigned long may alias. _BYTES
 * returns a tessera_swig_bytes (void* out), non-NULL even when empty.
 * TESSERA_SWIG_RETURN_ARRAY with room > 0 skips the question and passes that
 * capacity (a call that must run once, as an agreement). On failure the
 * result is empty and the error goes to out_error (NULL: dropped); data NULL
 * with size > 0 means out of memory.
 */
#define TESSERA_SWIG_RETURN_ARRAY(Result, element_size, keep_empty, room, out_error, fn, ...) \
  do {                                                                                 \
    Result result_;                                                                    \
    tessera_error* error_ = NULL;                                                      \
    result_.size = (room) > 0 ? (size_t)(room) : fn(__VA_ARGS__, NULL, 0, &error_);   \
    result_.data = NULL;                                                               \
    if (error_ == NULL) {                                                              \
      result_.data = tessera_swig_array_room(result_.size, element_size, keep_empty);  \
      if (result_.data == NULL && result_.size > 0) return result_;                    \
      if (result_.data != NULL) {                                                      \
        result_.size = fn(__VA_ARGS__, (void*)result_.data, result_.size, &error_);    \
      }                                                                                \
    }                                                                                  \
    if (error_ != NULL) {                                                              \
      free(result_.data);                                                              \
      result_.data = NULL;                                                             \
      result_.size = 0;                                                                \
      tessera_swig_pass_error(error_, out_error);                                      \
    }                                                                                  \
    return result_;                                                                    \
  } while (0)
#define TESSERA_SWIG_RETURN_INT64S(out_error, ...) \
  TESSERA_SWIG_RETURN_ARRAY(tessera_swig_int64s, sizeof(int64_t), 0, 0, out_error, __VA_ARGS__)
#define TESSERA_SWIG_RETURN_BYTES(out_error, ...) \
  TESSERA_SWIG_RETURN_ARRAY(tessera_swig_bytes, 1, 1, 0, out_error, __VA_ARGS__)
%}

/* A method returning the C ABI's one output-array shape as an int64 array,
 * without a hand-written body: TESSERA_INT64S_METHOD(name, (parameters, with
 * tessera_error** out_error last), the C function, its arguments before
 * `out`). The body is TESSERA_SWIG_RETURN_INT64S above. */
%define TESSERA_INT64S_METHOD(name, parameters, ...)
  tessera_swig_int64s name parameters { TESSERA_SWIG_RETURN_INT64S(out_error, __VA_ARGS__); }
%enddef

/* What SWIG sees of those types (bodies are the compiler's business). */
typedef struct tessera_buffer tessera_swig_text;
typedef struct tessera_swig_int64s tessera_swig_int64s;

/* ---- The error typemap pair ------------------------------------------------ */

#if !defined(TESSERA_SWIG_CUSTOM_ERRORS)
%typemap(in, numinputs=0, noblock=1) tessera_error** out_error (tessera_error* err = NULL) {
  $1 = &err;
}
%typemap(argout, noblock=1, canthrow=1) tessera_error** out_error {
  if (err$argnum != NULL) {
    TESSERA_SWIG_RAISE(err$argnum);
  }
}
#endif

/* ---- Arrays, applied by argument name -------------------------------------- */

%apply (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) {
  (const int64_t* shape, size_t num_dims),
  (const int64_t* dims, size_t num_dims),
  (const int64_t* coords, size_t num_coords),
  (const int64_t* group_sizes, size_t num_groups),
  (const int64_t* ids, size_t count),
  (const int64_t* participants, size_t count),
  (const int64_t* candidates, size_t count),
  (const int64_t* mesh_shape, size_t num_mesh_dims),
  (const int64_t* dcn_mesh_shape, size_t num_dcn_dims),
  (const int64_t* dim_sizes, size_t num_dim_sizes),
  (const int64_t* physical_shape, size_t num_physical_dims)
};
%apply (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) {
  (const char* const* axis_names, size_t num_axis_names),
  (const char* const* axes, size_t num_axes),
  (const char* const* devices, size_t num_devices),
  (const char* const* env, size_t count),
  (const char* const* dim_names, size_t num_dim_names),
  (const char* const* local_devices, size_t num_local_devices)
};
%apply (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) {
  (const void* bytes, size_t size),
  (const void* value, size_t size),
  (const void* expected, size_t expected_size),
  (const void* desired, size_t desired_size)
};

/* The DTensor layout, config and mesh methods (experimental, issue 11). */
%apply (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) {
  (const int64_t* offsets, size_t num_offsets),
  (const int64_t* local_shape, size_t num_dims),
  (const int64_t* local_shapes, size_t num_local_shape_extents),
  (const int64_t* global_ids, size_t num_global_ids),
  (const int64_t* local_ids, size_t num_local_ids),
  (const int64_t* layout_addresses, size_t num_layouts)
};
%apply (const char* const* TESSERA_STRINGS_IN, size_t TESSERA_STRINGS_IN_COUNT) {
  (const char* const* specs, size_t num_specs),
  (const char* const* variables, size_t num_variables)
};

/* ---- Host scatter and gather (copy.h) --------------------------------------- */

/*
 * The shards travel as ONE byte array, every device's shard concatenated in
 * device order (device i's part: shard_size(i, element_size) bytes), so each
 * language passes and receives a single array; its layer splits or joins
 * them. The C helpers build the void* pointer array into that one buffer
 * and call tessera_sharding_scatter/tessera_sharding_gather; errors pass through unchanged.
 *
 * The result is a tessera_swig_bytes: memory the wrapper malloc'd (only the
 * library can make a tessera_buffer), copied by the language, then freed.
 * Its typemaps are in each language's file (java/tessera_java.i,
 * csharp/tessera_csharp.i, go/tessera_go.i).
 */
%{
typedef tessera_copy_options CopyOptions;

/* Bytes malloc'd by the wrapper; data NULL with size > 0: out of memory. */
typedef struct tessera_swig_bytes {
  void* data;
  size_t size;
} tessera_swig_bytes;

static tessera_swig_bytes tessera_swig_bytes_failed(size_t wanted) {
  tessera_swig_bytes b;
  b.data = NULL;
  b.size = wanted;
  return b;
}

/* Every device's shard size in bytes and their sum in *total; NULL with
 * out_error set (the library's error) or, when it is not, out of memory. */
static size_t* tessera_swig_shard_sizes(const tessera_sharding* sharding, size_t n,
                                        size_t element_size, size_t* total,
                                        tessera_error** out_error) {
  size_t* sizes = (size_t*)calloc(n > 0 ? n : 1, sizeof(size_t));
  size_t i;
  *total = 0;
  if (sizes == NULL) return NULL;
  for (i = 0; i < n; ++i) {
    if (!tessera_sharding_shard_size(sharding, i, element_size, &sizes[i], out_error) ||
        sizes[i] > SIZE_MAX - *total) {
      /* A sum past SIZE_MAX is memory nobody has: reported as out of memory. */
      free(sizes);
      *total = SIZE_MAX;
      return NULL;
    }
    *total += sizes[i];
  }
  return sizes;
}

/* Pointers into `base`, one per device, each past the previous shard. */
static void tessera_swig_shard_pointers(char* base, const size_t* sizes, size_t n, void** out) {
  size_t i, offset = 0;
  for (i = 0; i < n; ++i) {
    out[i] = base + offset;
    offset += sizes[i];
  }
}

/* Every device's shard, concatenated; zeros for devices options leave out. */
static tessera_swig_bytes tessera_swig_scatter_concat(const tessera_sharding* sharding,
                                                      const void* global, size_t global_size,
                                                      size_t element_size,
                                                      const tessera_copy_options* options,
                                                      tessera_error** out_error) {
  size_t n = tessera_sharding_num_devices(sharding, NULL), total = 0;
  tessera_error* err = NULL;
  size_t* sizes = tessera_swig_shard_sizes(sharding, n, element_size, &total, &err);
  void** shards;
  tessera_swig_bytes out = tessera_swig_bytes_failed(0);
  if (sizes == NULL) {
    if (err == NULL) return tessera_swig_bytes_failed(total > 0 ? total : 1);
    if (out_error != NULL) *out_error = err; else tessera_error_destroy(err);
    return out;
  }
  out.data = calloc(total > 0 ? total : 1, 1);
  shards = (void**)calloc(n > 0 ? n : 1, sizeof(void*));
  if (out.data == NULL || shards == NULL) {
    free(out.data);
    free(shards);
    free(sizes);
    return tessera_swig_bytes_failed(total > 0 ? total : 1);
  }
  tessera_swig_shard_pointers((char*)out.data, sizes, n, shards);
  if (tessera_sharding_scatter(sharding, global, global_size, element_size, shards, n, options,
                      out_error)) {
    out.size = total;
  } else {
    free(out.data);
    out.data = NULL;
  }
  free(shards);
  free(sizes);
  return out;
}

/* The global array from the concatenated shards. A concatenation of another
 * size than the shards' sum goes to the library as a NULL shard array (its
 * INVALID_ARGUMENT names 'shards'); the language layers check each shard's
 * size first, with their own message. */
static tessera_swig_bytes tessera_swig_gather_concat(const tessera_sharding* sharding,
                                                     const void* concat, size_t concat_size,
                                                     size_t element_size, size_t global_size,
                                                     const tessera_copy_options* options,
                                                     tessera_error** out_error) {
  static char empty[1];
  size_t n = tessera_sharding_num_devices(sharding, NULL), total = 0;
  tessera_error* err = NULL;
  size_t* sizes = tessera_swig_shard_sizes(sharding, n, element_size, &total, &err);
  void** shards;
  tessera_swig_bytes out = tessera_swig_bytes_failed(0);
  if (sizes == NULL) {
    if (err == NULL) return tessera_swig_bytes_failed(total > 0 ? total : 1);
    if (out_error != NULL) *out_error = err; else tessera_error_destroy(err);
    return out;
  }
  out.data = calloc(global_size > 0 ? global_size : 1, 1);
  shards = (void**)calloc(n > 0 ? n : 1, sizeof(void*));
  if (out.data == NULL || shards == NULL) {
    free(out.data);
    free(shards);
    free(sizes);
    return tessera_swig_bytes_failed(global_size > 0 ? global_size : 1);
  }
  tessera_swig_shard_pointers(concat != NULL ? (char*)concat : empty, sizes, n, shards);
  if (tessera_sharding_gather(sharding, concat_size == total ? (const void* const*)shards : NULL, n,
                     element_size, out.data, global_size, options, out_error)) {
    out.size = global_size;
  } else {
    free(out.data);
    out.data = NULL;
  }
  free(shards);
  free(sizes);
  return out;
}
%}

typedef struct tessera_swig_bytes tessera_swig_bytes;
typedef struct {} CopyOptions;

%apply (const void* TESSERA_BYTES_IN, size_t TESSERA_BYTES_IN_SIZE) {
  (const void* global, size_t global_size),
  (const void* shards, size_t shards_size)
};

/* Defaults: the calling thread only, no replica check, every process. */
%extend CopyOptions {
  CopyOptions() { return tessera_copy_options_create(); }
  ~CopyOptions() { tessera_copy_options_destroy($self); }
  void set_threads(size_t threads, tessera_error** out_error) {
    tessera_copy_options_set_threads($self, threads, out_error);
  }
  void set_verify_replicas(bool verify, tessera_error** out_error) {
    tessera_copy_options_set_verify_replicas($self, verify, out_error);
  }
  void set_process_index(int64_t process_index, tessera_error** out_error) {
    tessera_copy_options_set_process_index($self, process_index, out_error);
  }
}

%extend Sharding {
  /* Every device's shard, concatenated in device order (sizes: shard_size(i,
   * element_size)). options NULL: the defaults. */
  tessera_swig_bytes scatter_concat(const void* global, size_t global_size, size_t element_size,
                                    const CopyOptions* options, tessera_error** out_error);
  /* The global array (global_size bytes) from the concatenated shards. */
  tessera_swig_bytes gather_concat(const void* shards, size_t shards_size, size_t element_size,
                                   size_t global_size, const CopyOptions* options,
                                   tessera_error** out_error);
}

/* ---- 4. Shadow classes ---------------------------------------------------- */

/* Every handle a method returns is new and owned by the caller. */
%newobject Device::parse;
%newobject DeviceList::get;
%newobject Mesh::device;
%newobject Mesh::from_dtensor_text;
%newobject Mesh::from_jax_text;
%newobject Mesh::from_proto;
%newobject Mesh::from_json;
%newobject Mesh::make;
%newobject Mesh::make_hybrid;
%newobject Mesh::submesh;
%newobject Mesh::flatten;
%newobject DTensorMesh::create;
%newobject DTensorMesh::create_distributed;
%newobject DTensorMesh::create_distributed_legacy;
%newobject Layout::grouped;
%newobject Layout::replicated;
%newobject Layout::with_mesh;
%newobject Layout::mesh;
%newobject Layout::from_partition_spec;
%newobject Layout::from_hlo_sharding;
%newobject Layout::from_op_sharding;
%newobject Layout::from_torch_placements;
%newobject Layout::from_dtensor_text;
%newobject Layout::from_proto;
%newobject Layout::from_json;
%newobject LayoutMap::get;
%newobject LayoutMap::layout;
%newobject LayoutMap::mesh;
%newobject LayoutMap::from_proto;
%newobject LayoutMap::from_json;
%newobject Distribution::data_parallel;
%newobject Distribution::data_parallel_over_devices;
%newobject Distribution::model_parallel;
%newobject Distribution::mesh;
%newobject Distribution::data_layout;
%newobject Distribution::variable_layout;
%newobject Distribution::tensor_layout;
%newobject Distribution::plan_dataset;
%newobject Distribution::current;
%newobject Distribution::from_proto;
%newobject Distribution::from_json;
%newobject DTensorMesh::parse;
%newobject DTensorMesh::parse_layout_mesh;
%newobject DTensorMesh::from_mesh;
%newobject DTensorMesh::to_mesh;

typedef struct {} Device;
typedef struct {} DeviceList;
typedef struct {} LocalDevices;
typedef struct {} Mesh;
typedef struct {} Layout;
typedef struct {} LayoutMap;
typedef struct {} DistributionOptions;
typedef struct {} Distribution;
typedef struct {} DatasetPlan;
typedef struct {} Sharding;
typedef struct {} ReshardPlan;
typedef struct {} DTensorMesh;

/* A device: parsed from Keras's "gpu:3", or taken from a list or a mesh. */
%extend Device {
  ~Device() { tessera_device_destroy($self); }
  static Device* parse(const char* text, tessera_error** out_error) {
    return tessera_device_parse(text, out_error);
  }
  int64_t id() { return tessera_device_id($self, NULL); }
  tessera_platform_t platform() { return tessera_device_platform($self, NULL); }
  int64_t process_index() { return tessera_device_process_index($self, NULL); }
  int64_t local_ordinal() { return tessera_device_local_ordinal($self, NULL); }
  const char* name() { return tessera_device_name($self, NULL); }
  bool has_coords() { return tessera_device_has_coordinates($self, NULL); }
  int64_t coord(size_t axis, tessera_error** out_error) {
    int64_t v = 0;
    tessera_device_coordinate($self, axis, &v, out_error);
    return v;
  }
  int64_t core_on_chip() { return tessera_device_core_on_chip($self, NULL); }
}

/* The devices of one platform ("cpu", "gpu", "tpu"; NULL: the default). */
%extend DeviceList {
  DeviceList(const char* type, tessera_error** out_error) {
    return tessera_device_list_create(type, out_error);
  }
  ~DeviceList() { tessera_device_list_destroy($self); }
  size_t size() { return tessera_device_list_num_devices($self, NULL); }
  Device* get(size_t index, tessera_error** out_error);
  static int64_t count(const char* type, tessera_error** out_error) {
    size_t n = 0;
    tessera_platform_num_devices(type, &n, out_error);
    return (int64_t)n;
  }
}

/* The accelerators and CPUs of this host as discovery found them. */
%extend LocalDevices {
  LocalDevices(tessera_error** out_error) { return tessera_local_devices_discover(out_error); }
  ~LocalDevices() { tessera_local_devices_destroy($self); }
  size_t size() { return tessera_local_devices_num_devices($self, NULL); }
  const char* provider() { return tessera_local_devices_provider($self, NULL); }
  const char* nvml_unavailable_reason() {
    return tessera_local_devices_nvml_unavailable_reason($self, NULL);
  }
  tessera_platform_t platform(size_t index, tessera_error** out_error) {
    tessera_platform_t p = TESSERA_PLATFORM_CPU;
    tessera_local_devices_platform($self, index, &p, out_error);
    return p;
  }
  int64_t ordinal(size_t index, tessera_error** out_error) {
    size_t v = 0;
    tessera_local_devices_ordinal($self, index, &v, out_error);
    return (int64_t)v;
  }
  int64_t memory_bytes(size_t index, tessera_error** out_error) {
    int64_t v = 0;
    tessera_local_devices_memory_bytes($self, index, &v, out_error);
    return v;
  }
  const char* kind(size_t index, tessera_error** out_error);
  const char* physical_id(size_t index, tessera_error** out_error);
  const char* pci_bus_id(size_t index, tessera_error** out_error);
}

%extend Mesh {
  Mesh(const int64_t* shape, size_t num_dims, const char* const* axis_names,
       size_t num_axis_names, const char* const* devices, size_t num_devices,
       tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dims, num_axis_names, &mismatch);
    tessera_mesh_options* options = tessera_swig_mesh_options(devices, num_devices, NULL, -1, out_error);
    /* Different lengths: the C function rejects the NULL shape (no read past an end). */
    Mesh* mesh = options == NULL ? NULL : tessera_mesh_create(mismatch ? NULL : shape, axis_names, n, options, out_error);
    tessera_mesh_options_destroy(options);
    return mesh;
  }
  ~Mesh() { tessera_mesh_destroy($self); }
  size_t rank() { return tessera_mesh_num_axes($self, NULL); }
  int64_t size() { return tessera_mesh_num_devices($self, NULL); }
  tessera_platform_t platform() { return tessera_mesh_platform($self, NULL); }
  int64_t dim(size_t index, tessera_error** out_error) {
    int64_t value = 0;
    tessera_mesh_axis_extent($self, index, &value, out_error);
    return value;
  }
  const char* axis_name(size_t index, tessera_error** out_error);
  size_t axis_index(const char* name, tessera_error** out_error) {
    size_t value = 0;
    tessera_mesh_axis_lookup($self, name, &value, out_error);
    return value;
  }
  int64_t axis_size(const char* name, tessera_error** out_error) {
    int64_t value = 0;
    tessera_mesh_axis_extent_lookup($self, name, &value, out_error);
    return value;
  }
  Device* device(size_t index, tessera_error** out_error);
  /* rank entries. */
  TESSERA_INT64S_METHOD(device_coordinates, (int64_t device_id, tessera_error** out_error),
                        tessera_mesh_device_coordinates, $self, device_id)
  int64_t device_at(const int64_t* coords, size_t num_coords, tessera_error** out_error) {
    int64_t id = 0;
    tessera_mesh_device_at($self, coords, num_coords, &id, out_error);
    return id;
  }
  bool is_equal(const Mesh* other);
  tessera_swig_text* to_string(tessera_error** out_error);
  /* The device id at each logical index (XLA's device assignment). */
  TESSERA_INT64S_METHOD(xla_device_order, (tessera_error** out_error),
                        tessera_xla_device_order, $self)
  tessera_swig_text* to_dtensor_text(tessera_error** out_error);
  static Mesh* from_dtensor_text(const char* text, tessera_error** out_error) {
    return tessera_mesh_from_dtensor_text(text, out_error);
  }
  tessera_swig_text* to_jax_text(tessera_error** out_error);
  static Mesh* from_jax_text(const char* text, const char* const* devices, size_t num_devices,
                             tessera_error** out_error) {
    return tessera_mesh_from_jax_text(text, devices, num_devices, out_error);
  }
  tessera_buffer* to_proto(tessera_error** out_error);
  static Mesh* from_proto(const void* bytes, size_t size, tessera_error** out_error) {
    return tessera_mesh_from_proto(bytes, size, out_error);
  }
  tessera_swig_text* to_json(tessera_error** out_error);
  static Mesh* from_json(const char* text, tessera_error** out_error) {
    return tessera_mesh_from_json(text, out_error);
  }
  /* JAX's make_mesh; devices NULL: every device of the default type. */
  static Mesh* make(const int64_t* shape, size_t num_dims, const char* const* axis_names,
                    size_t num_axis_names, const char* const* devices, size_t num_devices,
                    const char* device_kind, tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dims, num_axis_names, &mismatch);
    tessera_mesh_options* options = tessera_swig_mesh_options(devices, num_devices, device_kind, -1, out_error);
    Mesh* mesh = options == NULL ? NULL : tessera_mesh_make(mismatch ? NULL : shape, axis_names, n, options, out_error);
    tessera_mesh_options_destroy(options);
    return mesh;
  }
  /* JAX's create_hybrid_device_mesh; both shapes as long as each other. */
  static Mesh* make_hybrid(const int64_t* mesh_shape, size_t num_mesh_dims,
                           const int64_t* dcn_mesh_shape, size_t num_dcn_dims,
                           const char* const* axis_names, size_t num_axis_names,
                           const char* const* devices, size_t num_devices,
                           bool sort_granules_by_key, const char* device_kind,
                           tessera_error** out_error) {
    int mismatch, names_mismatch;
    size_t n = tessera_swig_same_count(num_mesh_dims, num_dcn_dims, &mismatch);
    n = tessera_swig_same_count(n, num_axis_names, &names_mismatch);
    tessera_mesh_options* options =
        tessera_swig_mesh_options(devices, num_devices, device_kind, sort_granules_by_key, out_error);
    /* Different lengths: the C function rejects the NULL array (no read past an end). */
    Mesh* mesh = options == NULL ? NULL
                                 : tessera_mesh_make_hybrid(mismatch || names_mismatch ? NULL : mesh_shape,
                                                            mismatch ? NULL : dcn_mesh_shape, axis_names, n,
                                                            options, out_error);
    tessera_mesh_options_destroy(options);
    return mesh;
  }
  /* PyTorch's mesh[names] as device_id sees it. */
  Mesh* submesh(const char* const* axis_names, size_t num_axis_names, int64_t device_id,
                tessera_error** out_error);
  /* PyTorch's _flatten; name NULL or "": the axis names joined with "_". */
  Mesh* flatten(const char* name, tessera_error** out_error);
  /* PyTorch's get_coordinate: rank entries, or none when the mesh lacks the device. */
  tessera_swig_int64s coordinate_of(int64_t device_id, tessera_error** out_error) {
    TESSERA_SWIG_RETURN_INT64S(NULL, tessera_mesh_device_coordinates, $self, device_id);
  }
  /* PyTorch's get_local_rank(axis_name) for device_id. */
  int64_t local_rank(const char* axis_name, int64_t device_id, tessera_error** out_error) {
    int64_t v = 0;
    tessera_mesh_local_rank($self, axis_name, device_id, &v, out_error);
    return v;
  }
  /* PyTorch's process groups along axis_name: size() ids, axis_size(axis_name) per group. */
  TESSERA_INT64S_METHOD(axis_groups, (const char* axis_name, tessera_error** out_error),
                        tessera_mesh_axis_groups, $self, axis_name)
}

%extend Layout {
  /* One axis (or NULL: replicated) per dimension; mesh may be NULL. */
  Layout(const char* const* axes, size_t num_axes, const Mesh* mesh,
         tessera_error** out_error) {
    return tessera_layout_create(axes, num_axes, mesh, out_error);
  }
  ~Layout() { tessera_layout_destroy($self); }
  /* Dimensions split over groups: group_sizes[d] of axis_names per dimension. */
  static Layout* grouped(const char* const* axis_names, size_t num_axis_names,
                         const int64_t* group_sizes, size_t num_groups, const Mesh* mesh,
                         tessera_error** out_error) {
    size_t* sizes = NULL;
    size_t d;
    Layout* layout;
    if (num_groups > 0) {
      sizes = (size_t*)calloc(num_groups, sizeof(size_t));
      if (sizes == NULL) return NULL;
      /* A negative size becomes a huge one, which the sum check rejects. */
      for (d = 0; d < num_groups; ++d) sizes[d] = (size_t)group_sizes[d];
    }
    layout = tessera_layout_create_grouped(axis_names, num_axis_names,
                                           group_sizes == NULL ? NULL : sizes, num_groups,
                                           mesh, out_error);
    free(sizes);
    return layout;
  }
  static Layout* replicated(size_t rank, const Mesh* mesh, tessera_error** out_error) {
    return tessera_layout_create_replicated(rank, mesh, out_error);
  }
  Layout* with_mesh(const Mesh* mesh, tessera_error** out_error);
  size_t rank() { return tessera_layout_num_dims($self, NULL); }
  /* NULL when the layout has no mesh. */
  Mesh* mesh() { return tessera_layout_mesh($self, NULL); }
  size_t num_axes(size_t dim, tessera_error** out_error) {
    size_t n = 0;
    tessera_layout_dim_num_axes($self, dim, &n, out_error);
    return n;
  }
  const char* axis(size_t dim, size_t position, tessera_error** out_error);
  int64_t shard_count(size_t dim, tessera_error** out_error) {
    size_t n = 0;
    tessera_layout_dim_num_shards($self, dim, &n, out_error);
    return (int64_t)n;
  }
  void check_shape(const int64_t* dims, size_t num_dims, tessera_shape_check_t mode,
                   tessera_error** out_error) {
    tessera_layout_check_shape($self, dims, num_dims, mode, out_error);
  }
  TESSERA_INT64S_METHOD(max_shard_shape, (const int64_t* dims, size_t num_dims, tessera_error** out_error),
                        tessera_layout_max_shard_shape, $self, dims, num_dims)
  bool is_equal(const Layout* other);
  tessera_swig_text* to_string(tessera_error** out_error);
  tessera_swig_text* to_partition_spec(tessera_error** out_error);
  static Layout* from_partition_spec(const char* text, const Mesh* mesh, size_t rank,
                                     tessera_error** out_error) {
    return tessera_layout_from_partition_spec(text, mesh, rank, out_error);
  }
  tessera_swig_text* to_hlo_sharding(size_t rank, bool v2, tessera_error** out_error);
  static Layout* from_hlo_sharding(const char* text, const Mesh* mesh, size_t rank,
                                   tessera_error** out_error) {
    return tessera_layout_from_hlo_sharding(text, mesh, rank, out_error);
  }
  tessera_buffer* to_op_sharding(size_t rank, bool v2, tessera_error** out_error);
  static Layout* from_op_sharding(const void* bytes, size_t size, const Mesh* mesh, size_t rank,
                                  tessera_error** out_error) {
    return tessera_layout_from_op_sharding(bytes, size, mesh, rank, out_error);
  }
  tessera_swig_text* to_torch_placements(tessera_error** out_error);
  static Layout* from_torch_placements(const char* text, const Mesh* mesh, size_t rank,
                                       tessera_error** out_error) {
    return tessera_layout_from_torch_placements(text, mesh, rank, out_error);
  }
  tessera_swig_text* to_dtensor_text(tessera_error** out_error);
  tessera_swig_text* to_dtensor_text_with_mesh(const DTensorMesh* mesh,
                                               tessera_error** out_error);
  static Layout* from_dtensor_text(const char* text, tessera_error** out_error) {
    return tessera_layout_from_dtensor_text(text, out_error);
  }
  tessera_buffer* to_proto(tessera_error** out_error);
  static Layout* from_proto(const void* bytes, size_t size, tessera_error** out_error) {
    return tessera_layout_from_proto(bytes, size, out_error);
  }
  tessera_swig_text* to_json(tessera_error** out_error);
  static Layout* from_json(const char* text, tessera_error** out_error) {
    return tessera_layout_from_json(text, out_error);
  }
}

%extend LayoutMap {
  /* mesh may be NULL. */
  LayoutMap(const Mesh* mesh, tessera_key_match_t match, tessera_error** out_error) {
    return tessera_layout_map_create(mesh, match, out_error);
  }
  ~LayoutMap() { tessera_layout_map_destroy($self); }
  void set(const char* key, const Layout* layout, tessera_error** out_error) {
    tessera_layout_map_set($self, key, layout, out_error);
  }
  /* ("delete" is taken in Java and C#.) */
  void remove(const char* key, tessera_error** out_error) {
    tessera_layout_map_remove($self, key, out_error);
  }
  /* NULL (the language's null) when no rule matches. */
  Layout* get(const char* path, tessera_error** out_error);
  /* The rule's index, -1 when none matches. */
  int64_t find(const char* path, tessera_error** out_error) {
    size_t index = TESSERA_NO_INDEX;
    tessera_layout_map_lookup_rule($self, path, &index, out_error);
    return index == TESSERA_NO_INDEX ? -1 : (int64_t)index;
  }
  size_t size() { return tessera_layout_map_num_rules($self, NULL); }
  const char* key(size_t index, tessera_error** out_error);
  Layout* layout(size_t index, tessera_error** out_error);
  Mesh* mesh() { return tessera_layout_map_mesh($self, NULL); }
  tessera_key_match_t match() { return tessera_layout_map_match($self, NULL); }
  tessera_buffer* to_proto(tessera_error** out_error);
  static LayoutMap* from_proto(const void* bytes, size_t size, tessera_error** out_error) {
    return tessera_layout_map_from_proto(bytes, size, out_error);
  }
  tessera_swig_text* to_json(tessera_error** out_error);
  static LayoutMap* from_json(const char* text, tessera_error** out_error) {
    return tessera_layout_map_from_json(text, out_error);
  }
}

%extend DistributionOptions {
  DistributionOptions() { return tessera_distribution_options_create(); }
  ~DistributionOptions() { tessera_distribution_options_destroy($self); }
  void set_auto_shard_dataset(bool auto_shard, tessera_error** out_error) {
    tessera_distribution_options_set_auto_shard_dataset($self, auto_shard, out_error);
  }
  void set_shape_check(tessera_shape_check_t mode, tessera_error** out_error) {
    tessera_distribution_options_set_shape_check($self, mode, out_error);
  }
  void set_dataset_mode(tessera_dataset_mode_t mode, tessera_error** out_error) {
    tessera_distribution_options_set_dataset_mode($self, mode, out_error);
  }
  void set_process(int64_t num_processes, int64_t process_index, tessera_error** out_error) {
    tessera_distribution_options_set_process($self, num_processes, process_index, out_error);
  }
}

%extend Distribution {
  ~Distribution() { tessera_distribution_destroy($self); }
  /* options may be NULL (defaults). */
  static Distribution* data_parallel(const Mesh* mesh, const DistributionOptions* options,
                                     tessera_error** out_error) {
    return tessera_distribution_create_data_parallel(mesh, options, out_error);
  }
  static Distribution* data_parallel_over_devices(const char* const* devices, size_t num_devices,
                                                  const DistributionOptions* options,
                                                  tessera_error** out_error) {
    return tessera_distribution_create_data_parallel_over_devices(devices, num_devices, options,
                                                                  out_error);
  }
  /* batch_dim_name NULL or "": the mesh's first axis. */
  static Distribution* model_parallel(const LayoutMap* layout_map, const char* batch_dim_name,
                                      const DistributionOptions* options,
                                      tessera_error** out_error) {
    return tessera_distribution_create_model_parallel(layout_map, batch_dim_name, options,
                                                      out_error);
  }
  tessera_distribution_kind_t kind() { return tessera_distribution_kind($self, NULL); }
  Mesh* mesh() { return tessera_distribution_mesh($self, NULL); }
  const char* batch_dim_name() { return tessera_distribution_batch_dim_name($self, NULL); }
  int64_t num_processes() { return tessera_distribution_num_processes($self, NULL); }
  int64_t process_index() { return tessera_distribution_process_index($self, NULL); }
  int64_t num_model_replicas() { return tessera_distribution_num_model_replicas($self, NULL); }
  int64_t num_data_shards() { return tessera_distribution_num_data_shards($self, NULL); }
  int64_t data_shard_id() { return tessera_distribution_data_shard_id($self, NULL); }
  Layout* data_layout(const int64_t* dims, size_t num_dims, tessera_error** out_error);
  /* explicit_layout may be NULL. */
  Layout* variable_layout(const char* path, const int64_t* dims, size_t num_dims,
                          const Layout* explicit_layout, tessera_error** out_error);
  /* NULL when the layout map has no rule for path. */
  Layout* tensor_layout(const char* path, tessera_error** out_error);
  DatasetPlan* plan_dataset(int64_t global_batch_size, tessera_error** out_error);
  tessera_swig_text* to_string(tessera_error** out_error);
  tessera_buffer* to_proto(tessera_error** out_error);
  static Distribution* from_proto(const void* bytes, size_t size, tessera_error** out_error) {
    return tessera_distribution_from_proto(bytes, size, out_error);
  }
  tessera_swig_text* to_json(tessera_error** out_error);
  static Distribution* from_json(const char* text, tessera_error** out_error) {
    return tessera_distribution_from_json(text, out_error);
  }
  /* The distribution in effect on this thread; NULL when none. */
  static Distribution* current() { return tessera_distribution_current(); }
  /* NULL clears the process-wide default. */
  static void set_default(const Distribution* distribution) {
    tessera_distribution_set_default(distribution);
  }
  /* Opens a scope on this thread (pop_scope closes it). */
  void push_scope(tessera_error** out_error) {
    tessera_distribution_scope_push($self, out_error);
  }
  static void pop_scope(tessera_error** out_error) { tessera_distribution_scope_pop(out_error); }
  /* Keras's interleave split of arrays and PyDatasets (keras_data.h). */
  int64_t interleave_num_shards() { return tessera_distribution_interleave_num_shards($self, NULL); }
  int64_t interleave_shard_index() { return tessera_distribution_interleave_shard_index($self, NULL); }
  /* global_batch_size -1: unknown. */
  DatasetPlan* plan_dataset_for_process(int64_t global_batch_size, size_t process_index,
                                        tessera_error** out_error) {
    return tessera_distribution_plan_dataset_for_process($self, (size_t)global_batch_size, process_index,
                                                         out_error);
  }
  bool auto_shard_dataset() { return tessera_distribution_auto_shard_dataset($self, NULL); }
  tessera_shape_check_t shape_check() { return tessera_distribution_shape_check($self, NULL); }
  tessera_dataset_mode_t dataset_mode() { return tessera_distribution_dataset_mode($self, NULL); }
  /* NULL for a DataParallel distribution. */
  LayoutMap* layout_map(tessera_error** out_error) { return tessera_distribution_layout_map($self, out_error); }
  bool is_batch_parallel() { return tessera_distribution_is_batch_parallel($self, NULL); }
  bool is_same(const Distribution* other, tessera_error** out_error) {
    return tessera_distribution_is_same($self, other, out_error);
  }
  /* Positions of the batches (or items, or samples) one interleave shard reads. */
  static TESSERA_INT64S_METHOD(interleave_batches, (size_t num_batches, size_t num_shards, size_t shard_index,
                                                    bool drop_last, tessera_error** out_error),
                               tessera_interleave_batches, num_batches, num_shards, shard_index, drop_last)
  static TESSERA_INT64S_METHOD(interleave_batch_items, (size_t num_items, size_t batch_size, size_t num_shards,
                                                        size_t shard_index, bool drop_last,
                                                        tessera_error** out_error),
                               tessera_interleave_batch_items, num_items, batch_size, num_shards, shard_index,
                               drop_last)
  static TESSERA_INT64S_METHOD(interleave_samples, (size_t num_items, size_t num_shards, size_t shard_index,
                                                    bool drop_last, tessera_error** out_error),
                               tessera_interleave_samples, num_items, num_shards, shard_index, drop_last)
  /* The same shuffled as torch shuffles it; seed and epoch as the language's signed 64-bit integers, whose
   * two's complement is what torch's manual_seed makes of a negative Python seed. */
  static TESSERA_INT64S_METHOD(interleave_samples_shuffled, (size_t num_items, size_t num_shards,
                                                             size_t shard_index, bool drop_last, int64_t seed,
                                                             int64_t epoch, tessera_error** out_error),
                               tessera_interleave_samples_shuffled, num_items, num_shards, shard_index, drop_last,
                               (uint64_t)seed, (uint64_t)epoch)
}

%extend DatasetPlan {
  ~DatasetPlan() { tessera_dataset_plan_destroy($self); }
  tessera_dataset_plan_kind_t kind() { return tessera_dataset_plan_kind($self, NULL); }
  int64_t global_batch_size() { return tessera_dataset_plan_global_batch_num_examples($self, NULL); }
  int64_t per_process_batch_size() { return tessera_dataset_plan_per_process_batch_num_examples($self, NULL); }
  int64_t num_shards() { return tessera_dataset_plan_num_shards($self, NULL); }
  int64_t shard_index() { return tessera_dataset_plan_shard_index($self, NULL); }
  size_t num_rebatch_sizes() { return tessera_dataset_plan_num_rebatches($self, NULL); }
  int64_t rebatch_size(size_t index, tessera_error** out_error) {
    size_t n = 0;
    tessera_dataset_plan_rebatch_num_examples($self, index, &n, out_error);
    return (int64_t)n;
  }
  int64_t interleave_num_shards() { return tessera_dataset_plan_interleave_num_shards($self, NULL); }
  int64_t interleave_shard_index() { return tessera_dataset_plan_interleave_shard_index($self, NULL); }
}

%extend Sharding {
  Sharding(const Layout* layout, const int64_t* dims, size_t num_dims, tessera_shard_mode_t mode,
           tessera_error** out_error) {
    return tessera_sharding_create(layout, dims, num_dims, mode, out_error);
  }
  ~Sharding() { tessera_sharding_destroy($self); }
  size_t rank() { return tessera_sharding_num_dims($self, NULL); }
  size_t num_devices() { return tessera_sharding_num_devices($self, NULL); }
  /* [start0, stop0, start1, stop1, ...]: rank half-open ranges. */
  TESSERA_INT64S_METHOD(device_ranges, (size_t device_index, tessera_error** out_error),
                        tessera_sharding_device_ranges, $self, device_index)
  TESSERA_INT64S_METHOD(shard_shape, (size_t device_index, tessera_error** out_error),
                        tessera_sharding_shard_shape, $self, device_index)
  size_t replica_id(size_t device_index, tessera_error** out_error) {
    size_t id = 0;
    tessera_sharding_replica_id($self, device_index, &id, out_error);
    return id;
  }
  bool device_in_process(size_t device_index, int64_t process_index,
                         tessera_error** out_error) {
    bool in = false;
    tessera_sharding_device_in_process($self, device_index, process_index, &in, out_error);
    return in;
  }
  /* Logical device indices, in mesh order. */
  TESSERA_INT64S_METHOD(addressable_devices, (int64_t process_index, tessera_error** out_error),
                        tessera_sharding_addressable_devices, $self, (size_t)process_index)
  /* For device i and dimension d: [(i*rank+d)*2] start, [(i*rank+d)*2+1] stop. */
  TESSERA_INT64S_METHOD(index_map, (tessera_error** out_error), tessera_sharding_index_map, $self)
  size_t num_distinct_shards(tessera_error** out_error) {
    size_t n = 0;
    tessera_sharding_num_distinct_shards($self, &n, out_error);
    return n;
  }
  /* [start0, stop0, start1, stop1, ...]. */
  TESSERA_INT64S_METHOD(distinct_shard_ranges, (size_t shard, tessera_error** out_error),
                        tessera_sharding_distinct_shard_ranges, $self, shard)
  size_t distinct_shard_num_devices(size_t shard, tessera_error** out_error) {
    size_t n = 0;
    tessera_sharding_distinct_shard_num_devices($self, shard, &n, out_error);
    return n;
  }
  TESSERA_INT64S_METHOD(distinct_shard_devices, (size_t shard, tessera_error** out_error),
                        tessera_sharding_distinct_shard_devices, $self, shard)
  TESSERA_INT64S_METHOD(max_shard_shape, (tessera_error** out_error),
                        tessera_sharding_max_shard_shape, $self)
  bool is_fully_replicated(tessera_error** out_error) {
    bool replicated = false;
    tessera_sharding_is_fully_replicated($self, &replicated, out_error);
    return replicated;
  }
  size_t shard_size(size_t device_index, size_t element_size, tessera_error** out_error) {
    size_t n = 0;
    tessera_sharding_shard_size($self, device_index, element_size, &n, out_error);
    return n;
  }
}

%extend ReshardPlan {
  ReshardPlan(const Sharding* source, const Sharding* destination, size_t element_size,
              tessera_error** out_error) {
    return tessera_reshard_plan_create(source, destination, element_size, out_error);
  }
  ~ReshardPlan() { tessera_reshard_plan_destroy($self); }
  size_t num_transfers() { return tessera_reshard_plan_num_transfers($self, NULL); }
  size_t rank() { return tessera_reshard_plan_num_dims($self, NULL); }
  /* [source device, destination device, bytes, TransferLocality value]. */
  tessera_swig_int64s transfer(size_t index, tessera_error** out_error) {
    size_t source = 0, destination = 0;
    int64_t bytes = 0;
    tessera_transfer_locality_t locality = TESSERA_TRANSFER_SAME_DEVICE;
    tessera_swig_int64s a;
    if (!tessera_reshard_plan_transfer($self, index, &source, &destination, &bytes, &locality,
                                       out_error)) {
      return tessera_swig_int64s_new(0);
    }
    a = tessera_swig_int64s_new(4);
    if (a.data == NULL) return a;
    a.data[0] = (int64_t)source;
    a.data[1] = (int64_t)destination;
    a.data[2] = bytes;
    a.data[3] = (int64_t)locality;
    return a;
  }
  /* [start0, stop0, start1, stop1, ...] of the transfer's box. */
  TESSERA_INT64S_METHOD(transfer_ranges, (size_t index, tessera_error** out_error),
                        tessera_reshard_plan_transfer_ranges, $self, index)
  int64_t total_bytes(tessera_transfer_locality_t locality, tessera_error** out_error) {
    int64_t n = 0;
    tessera_reshard_plan_total_bytes($self, locality, &n, out_error);
    return n;
  }
}

%extend DTensorMesh {
  ~DTensorMesh() { tessera_dtensor_mesh_destroy($self); }
  /* DTensor's create_mesh. Names and sizes as long as each other; both empty
   * (or NULL): DTensor's default [("x", n)]. */
  static DTensorMesh* create(const char* const* dim_names, size_t num_dim_names,
                             const int64_t* dim_sizes, size_t num_dim_sizes, const char* name,
                             const char* const* devices, size_t num_devices,
                             const char* device_type, bool use_xla_spmd,
                             tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dim_names, num_dim_sizes, &mismatch);
    tessera_dtensor_mesh_options* options =
        tessera_swig_dtensor_mesh_options(name, devices, num_devices, device_type, use_xla_spmd, out_error);
    DTensorMesh* mesh = NULL;
    if (options != NULL && n == 0) {
      mesh = tessera_dtensor_mesh_create(NULL, NULL, 0, options, out_error);
    } else if (options != NULL) {
      /* Different lengths: sizes NULL is rejected before the names are read. */
      mesh = tessera_dtensor_mesh_create(mismatch ? tessera_swig_no_strings : dim_names,
                                         mismatch ? NULL : dim_sizes, n, options, out_error);
    }
    tessera_dtensor_mesh_options_destroy(options);
    return mesh;
  }
  /* DTensor's create_distributed_mesh over the runtime's clients. */
  static DTensorMesh* create_distributed(const char* const* dim_names, size_t num_dim_names,
                                         const int64_t* dim_sizes, size_t num_dim_sizes,
                                         const char* name, const char* const* local_devices,
                                         size_t num_local_devices, const char* device_type,
                                         bool use_xla_spmd, tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dim_names, num_dim_sizes, &mismatch);
    tessera_dtensor_mesh_options* options = tessera_swig_dtensor_mesh_options(
        name, local_devices, num_local_devices, device_type, use_xla_spmd, out_error);
    DTensorMesh* mesh = options == NULL ? NULL
                                        : tessera_dtensor_mesh_create_distributed(
                                              mismatch ? tessera_swig_no_strings : dim_names,
                                              mismatch ? NULL : dim_sizes, n, options, out_error);
    tessera_dtensor_mesh_options_destroy(options);
    return mesh;
  }
  /* The legacy create_distributed_mesh; a negative count or id means "not
   * given" (the runtime's value). */
  static DTensorMesh* create_distributed_legacy(const char* const* dim_names,
                                                size_t num_dim_names, const int64_t* dim_sizes,
                                                size_t num_dim_sizes, const char* name,
                                                int64_t num_global_devices, int64_t num_clients,
                                                int64_t client_id, const char* device_type,
                                                tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dim_names, num_dim_sizes, &mismatch);
    return tessera_dtensor_mesh_create_distributed_legacy(
        mismatch ? tessera_swig_no_strings : dim_names, mismatch ? NULL : dim_sizes, n, name,
        num_global_devices < 0 ? NULL : &num_global_devices, num_clients < 0 ? NULL : &num_clients,
        client_id < 0 ? NULL : &client_id, device_type, out_error);
  }
  static DTensorMesh* parse(const char* text, tessera_error** out_error) {
    return tessera_dtensor_mesh_parse(text, out_error);
  }
  static DTensorMesh* parse_layout_mesh(const char* layout_text, tessera_error** out_error) {
    return tessera_dtensor_mesh_parse_layout_mesh(layout_text, out_error);
  }
  static DTensorMesh* from_mesh(const Mesh* mesh, const char* name, int64_t process_index,
                                bool use_xla_spmd, tessera_error** out_error) {
    return tessera_dtensor_mesh_from_mesh(mesh, name, process_index, use_xla_spmd, out_error);
  }
  Mesh* to_mesh(tessera_error** out_error);
  tessera_swig_text* to_text(tessera_error** out_error);
  tessera_dtensor_mesh_kind_t kind() { return tessera_dtensor_mesh_kind($self, NULL); }
  const char* name() { return tessera_dtensor_mesh_name($self, NULL); }
  const char* device_type() { return tessera_dtensor_mesh_device_type($self, NULL); }
  const char* single_device() { return tessera_dtensor_mesh_single_device($self, NULL); }
  bool use_xla_spmd() { return tessera_dtensor_mesh_use_xla_spmd($self, NULL); }
  size_t rank() { return tessera_dtensor_mesh_num_dims($self, NULL); }
  const char* dim_name(size_t index, tessera_error** out_error);
  int64_t dim_size(size_t index, tessera_error** out_error) {
    int64_t n = 0;
    tessera_dtensor_mesh_dim_extent($self, index, &n, out_error);
    return n;
  }
  size_t num_global_ids() { return tessera_dtensor_mesh_num_global_ids($self, NULL); }
  int64_t global_id(size_t index, tessera_error** out_error) {
    int64_t id = 0;
    tessera_dtensor_mesh_global_id($self, index, &id, out_error);
    return id;
  }
  size_t num_local_ids() { return tessera_dtensor_mesh_num_local_ids($self, NULL); }
  int64_t local_id(size_t index, tessera_error** out_error) {
    int64_t id = 0;
    tessera_dtensor_mesh_local_id($self, index, &id, out_error);
    return id;
  }
  const char* local_device(size_t index, tessera_error** out_error);
  size_t num_global_devices() { return tessera_dtensor_mesh_num_global_devices($self, NULL); }
  const char* global_device(size_t index, tessera_error** out_error);
}

/* ---- Experimental: DTensor layouts, config and more of its mesh (issue 11) ---- */

/*
 * dtensor_layout.h, dtensor_config.h and dtensor_mesh.h. A list of layouts
 * (most_sharded, least_sharded) crosses as the handles' addresses in an int64
 * array: each language's layer takes a list of its DTensorLayout objects,
 * keeps them alive for the call and passes their addresses (0 for a null
 * entry, which the C function refuses naming the entry).
 */
%{
#define DTensorLayout_to_text(...) tessera_dtensor_layout_to_text(__VA_ARGS__)
#define DTensorLayout_to_layout(...) tessera_dtensor_layout_to_layout(__VA_ARGS__)
#define DTensorLayout_spec(...) tessera_dtensor_layout_spec(__VA_ARGS__)
#define DTensorLayout_mesh(...) tessera_dtensor_layout_mesh(__VA_ARGS__)
#define DTensorLayout_to_device_type(...) tessera_dtensor_layout_to_device_type(__VA_ARGS__)
#define DTensorLayout_to_parted(...) tessera_dtensor_layout_to_parted(__VA_ARGS__)
#define DTensorLayout_truncate(...) tessera_dtensor_layout_truncate(__VA_ARGS__)
#define DTensorLayout_left_pad(...) tessera_dtensor_layout_left_pad(__VA_ARGS__)
#define DTensorLayout_transpose_2d(...) tessera_dtensor_layout_transpose_2d(__VA_ARGS__)
#define DTensorLayout_concatenate(...) tessera_dtensor_layout_concatenate(__VA_ARGS__)
#define DTensorLayout_is_fully_replicated(...) tessera_dtensor_layout_is_fully_replicated(__VA_ARGS__)
#define DTensorLayout_is_last_dim_replicated(...) tessera_dtensor_layout_is_last_dim_replicated(__VA_ARGS__)
#define DTensorLayout_is_batch_parallel(...) tessera_dtensor_layout_is_batch_parallel(__VA_ARGS__)
#define DTensorLayout_is_batch_parallel_over(...) tessera_dtensor_layout_is_batch_parallel_over(__VA_ARGS__)
#define DTensorLayout_is_equivalent(...) tessera_dtensor_layout_is_equivalent(__VA_ARGS__)
#define DTensorLayout_is_equivalent_ignoring_type(...) tessera_dtensor_layout_is_equivalent_ignoring_type(__VA_ARGS__)
#define DTensorLayout_reduced_mesh(...) tessera_dtensor_layout_reduced_mesh(__VA_ARGS__)
#define DTensorLayout_shard_vector_text(...) tessera_dtensor_layout_shard_vector_text(__VA_ARGS__)
#define DTensorLayout_host_shard_vector_text(...) tessera_dtensor_layout_host_shard_vector_text(__VA_ARGS__)
#define DTensorLayout_shard_vector_equal(...) tessera_dtensor_layout_shard_vector_equal(__VA_ARGS__)
#define DTensorMesh_to_device_type(...) tessera_dtensor_mesh_to_device_type(__VA_ARGS__)
#define DTensorMesh_host(...) tessera_dtensor_mesh_host(__VA_ARGS__)
#define DTensorMesh_has_dim(...) tessera_dtensor_mesh_has_dim(__VA_ARGS__)
#define DTensorMesh_to_host_mesh(...) tessera_dtensor_mesh_to_host_mesh(__VA_ARGS__)
#define DTensorConfig_client_id(...) tessera_dtensor_config_client_id(__VA_ARGS__)
#define DTensorConfig_num_clients(...) tessera_dtensor_config_num_clients(__VA_ARGS__)
#define DTensorConfig_job_name(...) tessera_dtensor_config_job_name(__VA_ARGS__)
#define DTensorConfig_num_jobs(...) tessera_dtensor_config_num_jobs(__VA_ARGS__)
#define DTensorConfig_job(...) tessera_dtensor_config_job(__VA_ARGS__)
#define DTensorConfig_is_local_mode(...) tessera_dtensor_config_is_local_mode(__VA_ARGS__)
#define DTensorConfig_num_local_devices(...) tessera_dtensor_config_num_local_devices(__VA_ARGS__)
#define DTensorConfig_num_global_devices(...) tessera_dtensor_config_num_global_devices(__VA_ARGS__)

/* A negative task or client index: this client's (TESSERA_NO_INDEX). */
static size_t tessera_swig_index_or_none(int64_t index) {
  return index < 0 ? TESSERA_NO_INDEX : (size_t)index;
}
%}

%newobject DTensorLayout::parse;
%newobject DTensorLayout::from_device;
%newobject DTensorLayout::to_layout;
%newobject DTensorLayout::mesh;
%newobject DTensorLayout::to_device_type;
%newobject DTensorLayout::to_parted;
%newobject DTensorLayout::truncate;
%newobject DTensorLayout::left_pad;
%newobject DTensorLayout::reduce_dims;
%newobject DTensorLayout::remove_dims;
%newobject DTensorLayout::transpose_2d;
%newobject DTensorLayout::concatenate;
%newobject DTensorLayout::most_sharded_of;
%newobject DTensorLayout::least_sharded_of;
%newobject DTensorLayout::reduced_mesh;
%newobject DTensorMesh::from_device;
%newobject DTensorMesh::create_from_ids;
%newobject DTensorMesh::create_distributed_with_config;
%newobject DTensorMesh::create_distributed_legacy_with_config;
%newobject DTensorMesh::to_device_type;
%newobject DTensorMesh::to_host_mesh;

typedef struct {} DTensorLayout;
typedef struct {} DTensorConfig;
typedef struct {} DTensorConfigOptions;

/* A DTensor layout of any type (static, parted, single device, empty). */
%extend DTensorLayout {
  /* specs: empty for single-device and empty layouts. */
  DTensorLayout(tessera_dtensor_layout_type_t type, const char* const* specs, size_t num_specs,
                const DTensorMesh* mesh, tessera_error** out_error) {
    return tessera_dtensor_layout_create(type, specs, num_specs, mesh, out_error);
  }
  ~DTensorLayout() { tessera_dtensor_layout_destroy($self); }
  static DTensorLayout* parse(const char* text, tessera_error** out_error) {
    return tessera_dtensor_layout_parse(text, out_error);
  }
  static DTensorLayout* from_device(const char* device, tessera_error** out_error) {
    return tessera_dtensor_layout_from_device(device, out_error);
  }
  tessera_swig_text* to_text(tessera_error** out_error);
  Layout* to_layout(tessera_error** out_error);
  tessera_dtensor_layout_type_t type() { return tessera_dtensor_layout_type($self, NULL); }
  size_t rank() { return tessera_dtensor_layout_num_dims($self, NULL); }
  const char* spec(size_t index, tessera_error** out_error);
  DTensorMesh* mesh(tessera_error** out_error);
  bool is_equal(const DTensorLayout* other) { return tessera_dtensor_layout_equal($self, other, NULL); }
  DTensorLayout* to_device_type(const char* device_type, tessera_error** out_error);
  DTensorLayout* to_parted(tessera_error** out_error);
  DTensorLayout* truncate(size_t split, bool end, tessera_error** out_error);
  DTensorLayout* left_pad(size_t num_dims, tessera_error** out_error);
  /* Negative axes count from the end. */
  DTensorLayout* reduce_dims(const int64_t* dims, size_t num_dims, bool keep_dims, tessera_error** out_error) {
    return tessera_dtensor_layout_reduce_dims($self, dims, num_dims, keep_dims, out_error);
  }
  /* Positions of no axis (negative ones included) are ignored. */
  DTensorLayout* remove_dims(const int64_t* dims, size_t num_dims, tessera_error** out_error) {
    size_t* positions = (size_t*)tessera_swig_array_room(num_dims, sizeof(size_t), 1);
    size_t i;
    DTensorLayout* layout;
    if (positions == NULL) return NULL;
    /* A negative position becomes a huge one, which names no axis. */
    for (i = 0; i < num_dims; ++i) positions[i] = (size_t)dims[i];
    layout = tessera_dtensor_layout_remove_dims($self, positions, num_dims, out_error);
    free(positions);
    return layout;
  }
  DTensorLayout* transpose_2d(tessera_error** out_error);
  DTensorLayout* concatenate(const DTensorLayout* other, tessera_error** out_error);
  /* The layers' most_sharded / least_sharded: addresses of live layouts. */
  static DTensorLayout* most_sharded_of(const int64_t* layout_addresses, size_t num_layouts,
                                        tessera_error** out_error) {
    return tessera_dtensor_layout_most_sharded(
        (const tessera_dtensor_layout* const*)(const void*)layout_addresses, num_layouts, out_error);
  }
  static DTensorLayout* least_sharded_of(const int64_t* layout_addresses, size_t num_layouts,
                                         tessera_error** out_error) {
    return tessera_dtensor_layout_least_sharded(
        (const tessera_dtensor_layout* const*)(const void*)layout_addresses, num_layouts, out_error);
  }
  /* 1 for "unsharded", -1 for "match", else the mesh dimension's extent. */
  TESSERA_INT64S_METHOD(num_shards_per_dim, (tessera_error** out_error),
                        tessera_dtensor_layout_num_shards_per_dim, $self)
  bool is_fully_replicated(tessera_error** out_error);
  bool is_last_dim_replicated(tessera_error** out_error);
  bool is_batch_parallel(tessera_error** out_error);
  bool is_batch_parallel_over(size_t num_non_batch_dims, tessera_error** out_error);
  bool is_equivalent(const DTensorLayout* other, tessera_error** out_error);
  bool is_equivalent_ignoring_type(const DTensorLayout* other, tessera_error** out_error);
  DTensorMesh* reduced_mesh(tessera_error** out_error);
  tessera_swig_text* shard_vector_text(tessera_error** out_error);
  tessera_swig_text* host_shard_vector_text(const char* host, tessera_error** out_error);
  bool shard_vector_equal(const DTensorLayout* other, tessera_error** out_error);
  TESSERA_INT64S_METHOD(offset_to_shard, (size_t offset, tessera_error** out_error),
                        tessera_dtensor_layout_offset_to_shard, $self, offset)
  int64_t offset_tuple_to_global_index(const int64_t* offsets, size_t num_offsets, tessera_error** out_error) {
    int64_t index = 0;
    tessera_dtensor_layout_offset_tuple_to_global_index($self, offsets, num_offsets, &index, out_error);
    return index;
  }
  TESSERA_INT64S_METHOD(local_shape_from_global, (const int64_t* shape, size_t num_dims, tessera_error** out_error),
                        tessera_dtensor_layout_local_shape_from_global, $self, shape, num_dims)
  /* local_shapes: num_local_shapes shapes of the rank's extents, one after
   * another (empty: none); another length goes to C as a NULL array. */
  tessera_swig_int64s global_shape_from_local(const int64_t* local_shape, size_t num_dims,
                                              const int64_t* local_shapes, size_t num_local_shape_extents,
                                              size_t num_local_shapes, tessera_error** out_error) {
    int fits = num_local_shape_extents == 0 ? num_local_shapes == 0
               : num_dims != 0 && num_local_shape_extents / num_dims == num_local_shapes &&
                     num_local_shape_extents % num_dims == 0;
    const int64_t* shapes = fits && num_local_shapes > 0 ? local_shapes : NULL;
    TESSERA_SWIG_RETURN_INT64S(out_error, tessera_dtensor_layout_global_shape_from_local, $self, local_shape,
                               num_dims, shapes, num_local_shapes);
  }
  /* -1 (TensorFlow) or INT64_MIN (MLIR). */
  static bool is_dynamic_extent(int64_t extent) { return tessera_dtensor_layout_is_dynamic_extent(extent); }
}

%extend DTensorMesh {
  /* Python's Mesh(dim_names, global_device_ids, local_device_ids, local_devices, mesh_name, use_xla_spmd). */
  static DTensorMesh* create_from_ids(const char* const* dim_names, size_t num_dim_names,
                                      const int64_t* dim_sizes, size_t num_dim_sizes,
                                      const int64_t* global_ids, size_t num_global_ids,
                                      const int64_t* local_ids, size_t num_local_ids,
                                      const char* const* local_devices, size_t num_local_devices,
                                      const char* name, bool use_xla_spmd, tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dim_names, num_dim_sizes, &mismatch);
    tessera_dtensor_mesh_options* options =
        tessera_swig_dtensor_mesh_options(name, NULL, 0, NULL, use_xla_spmd, out_error);
    DTensorMesh* mesh = options == NULL ? NULL
                                        : tessera_dtensor_mesh_create_from_ids(
                                              mismatch ? tessera_swig_no_strings : dim_names,
                                              mismatch ? NULL : dim_sizes, n, global_ids, num_global_ids,
                                              local_ids, num_local_ids, local_devices, num_local_devices,
                                              options, out_error);
    tessera_dtensor_mesh_options_destroy(options);
    return mesh;
  }
  /* Mesh.from_device: a single-device mesh. */
  static DTensorMesh* from_device(const char* device, tessera_error** out_error) {
    return tessera_dtensor_mesh_from_device(device, out_error);
  }
  /* create_distributed over the job `config` describes. */
  static DTensorMesh* create_distributed_with_config(const char* const* dim_names, size_t num_dim_names,
                                                     const int64_t* dim_sizes, size_t num_dim_sizes,
                                                     const char* name, const char* const* local_devices,
                                                     size_t num_local_devices, const char* device_type,
                                                     bool use_xla_spmd, const DTensorConfig* config,
                                                     tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dim_names, num_dim_sizes, &mismatch);
    tessera_dtensor_mesh_options* options =
        tessera_swig_dtensor_mesh_options(name, local_devices, num_local_devices, device_type, use_xla_spmd, out_error);
    DTensorMesh* mesh = NULL;
    /* A NULL config is refused here, naming it: never the runtime's job instead. */
    if (options != NULL && tessera_dtensor_mesh_options_set_config(options, config, out_error)) {
      mesh = tessera_dtensor_mesh_create_distributed(mismatch ? tessera_swig_no_strings : dim_names,
                                                     mismatch ? NULL : dim_sizes, n, options, out_error);
    }
    tessera_dtensor_mesh_options_destroy(options);
    return mesh;
  }
  /* The legacy create_distributed_mesh over `config`; a negative count or id: not given. */
  static DTensorMesh* create_distributed_legacy_with_config(const char* const* dim_names, size_t num_dim_names,
                                                            const int64_t* dim_sizes, size_t num_dim_sizes,
                                                            const char* name, int64_t num_global_devices,
                                                            int64_t num_clients, int64_t client_id,
                                                            const char* device_type, const DTensorConfig* config,
                                                            tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dim_names, num_dim_sizes, &mismatch);
    return tessera_dtensor_mesh_create_distributed_legacy_with_config(
        mismatch ? tessera_swig_no_strings : dim_names, mismatch ? NULL : dim_sizes, n, name,
        num_global_devices < 0 ? NULL : &num_global_devices, num_clients < 0 ? NULL : &num_clients,
        client_id < 0 ? NULL : &client_id, device_type, config, out_error);
  }
  DTensorMesh* to_device_type(const char* device_type, tessera_error** out_error);
  DTensorMesh* to_host_mesh(tessera_error** out_error);
  bool has_dim(const char* dim_name, tessera_error** out_error);
  size_t dim_index(const char* dim_name, tessera_error** out_error) {
    size_t index = 0;
    tessera_dtensor_mesh_dim_lookup($self, dim_name, &index, out_error);
    return index;
  }
  int64_t dim_size_of(const char* dim_name, tessera_error** out_error) {
    int64_t extent = 0;
    tessera_dtensor_mesh_dim_extent_lookup($self, dim_name, &extent, out_error);
    return extent;
  }
  /* Mesh::device_location: the coordinate of row-major position `offset`. */
  TESSERA_INT64S_METHOD(device_location, (size_t offset, tessera_error** out_error),
                        tessera_dtensor_mesh_device_location, $self, offset)
  /* Python's Mesh.coords: any index, wrapping. */
  TESSERA_INT64S_METHOD(coordinates, (int64_t device_index, tessera_error** out_error),
                        tessera_dtensor_mesh_coordinates, $self, device_index)
  size_t num_hosts() { return tessera_dtensor_mesh_num_hosts($self, NULL); }
  const char* host(size_t index, tessera_error** out_error);
  bool is_equal(const DTensorMesh* other) { return tessera_dtensor_mesh_equal($self, other, NULL); }
}

%extend DTensorConfigOptions {
  DTensorConfigOptions() { return tessera_dtensor_config_options_create(); }
  ~DTensorConfigOptions() { tessera_dtensor_config_options_destroy($self); }
  /* "NAME=VALUE" entries instead of this process's environment. */
  void set_variables(const char* const* variables, size_t num_variables, tessera_error** out_error) {
    tessera_dtensor_config_options_set_variables($self, variables, num_variables, out_error);
  }
  void set_num_local_devices(const char* device_type, size_t num_devices, tessera_error** out_error) {
    tessera_dtensor_config_options_set_num_local_devices($self, device_type, num_devices, out_error);
  }
  void set_accelerators_initialized(bool initialized, tessera_error** out_error) {
    tessera_dtensor_config_options_set_accelerators_initialized($self, initialized, out_error);
  }
}

/* DTensor's config.py as a value; each query fails where DTensor raises. */
%extend DTensorConfig {
  /* options NULL: this process's environment and devices. */
  DTensorConfig(const DTensorConfigOptions* options, tessera_error** out_error) {
    return tessera_dtensor_config_create(options, out_error);
  }
  ~DTensorConfig() { tessera_dtensor_config_destroy($self); }
  size_t client_id(tessera_error** out_error);
  size_t num_clients(tessera_error** out_error);
  const char* job_name(tessera_error** out_error);
  /* task_index negative: this client's id. */
  tessera_swig_text* full_job_name(int64_t task_index, tessera_error** out_error) {
    return tessera_dtensor_config_full_job_name($self, tessera_swig_index_or_none(task_index), out_error);
  }
  size_t num_jobs(tessera_error** out_error);
  const char* job(size_t index, tessera_error** out_error);
  bool heartbeat_enabled() { return tessera_dtensor_config_heartbeat_enabled($self, NULL); }
  bool is_local_mode(tessera_error** out_error);
  bool accelerators_initialized() { return tessera_dtensor_config_accelerators_initialized($self, NULL); }
  size_t num_local_devices(const char* device_type, tessera_error** out_error);
  size_t num_global_devices(const char* device_type, tessera_error** out_error);
  /* client_index negative: this client's id. */
  tessera_swig_text* local_device(const char* device_type, int64_t client_index, size_t index,
                                  tessera_error** out_error) {
    return tessera_dtensor_config_local_device($self, device_type, tessera_swig_index_or_none(client_index),
                                               index, out_error);
  }
}

/* Shardy text (tessera/experimental/shardy.h); mesh_name NULL is "mesh". */
%{
#define Mesh_to_shardy_text(...) tessera_mesh_to_shardy_text(__VA_ARGS__)
#define Layout_to_shardy_text(...) tessera_layout_to_shardy_text(__VA_ARGS__)
%}
%newobject Mesh::from_shardy_text;
%newobject Layout::from_shardy_text;
%extend Mesh {
  tessera_swig_text* to_shardy_text(const char* mesh_name, tessera_error** out_error);
  static Mesh* from_shardy_text(const char* text, const char* const* devices, size_t num_devices,
                                tessera_error** out_error) {
    return tessera_mesh_from_shardy_text(text, devices, num_devices, out_error);
  }
}
%extend Layout {
  tessera_swig_text* to_shardy_text(const char* mesh_name, tessera_error** out_error);
  static Layout* from_shardy_text(const char* sharding_text, const char* mesh_text, const char* const* devices,
                                  size_t num_devices, tessera_error** out_error) {
    return tessera_layout_from_shardy_text(sharding_text, mesh_text, devices, num_devices, out_error);
  }
}

/* ---- The cluster API -------------------------------------------------------- */

#if !defined(TESSERA_SWIG_NO_CLUSTER)

%newobject ClusterOptions::detect;
%newobject ClusterOptions::detect_env;
%newobject ClusterOptions::initialize;
%newobject ClusterOptions::connect;
%newobject Client::devices;
%newobject Client::kv_list;
%newobject Client::next_event;

typedef struct {} ClusterOptions;
typedef struct {} Detection;
typedef struct {} Client;
typedef struct {} Event;
typedef struct {} KvList;
typedef struct {} Coordinator;

%extend ClusterOptions {
  ClusterOptions() { return tessera_cluster_options_create(); }
  ~ClusterOptions() { tessera_cluster_options_destroy($self); }
  void set_coordinator_address(const char* address, tessera_error** out_error) {
    tessera_cluster_options_set_coordinator_address($self, address, out_error);
  }
  void set_bind_address(const char* address, tessera_error** out_error) {
    tessera_cluster_options_set_bind_address($self, address, out_error);
  }
  void set_num_processes(int64_t num_processes, tessera_error** out_error) {
    tessera_cluster_options_set_num_processes($self, num_processes, out_error);
  }
  void set_process_index(int64_t process_index, tessera_error** out_error) {
    tessera_cluster_options_set_process_index($self, process_index, out_error);
  }
  void set_local_device_ids(const int64_t* ids, size_t count, tessera_error** out_error) {
    tessera_cluster_options_set_local_device_ids($self, ids, count, out_error);
  }
  void set_job_id(const char* job_id, tessera_error** out_error) {
    tessera_cluster_options_set_job_id($self, job_id, out_error);
  }
  void set_job_token(const char* token, tessera_error** out_error) {
    tessera_cluster_options_set_job_token($self, token, out_error);
  }
  void set_require_auth(bool require, tessera_error** out_error) {
    tessera_cluster_options_set_require_auth($self, require, out_error);
  }
  void set_tls(const char* cert_file, const char* key_file, const char* ca_file,
               tessera_error** out_error) {
    tessera_cluster_options_set_tls($self, cert_file, key_file, ca_file, out_error);
  }
  void set_tls_require_client_cert(bool require, tessera_error** out_error) {
    tessera_cluster_options_set_tls_require_client_cert($self, require, out_error);
  }
  void set_tls_peer_uri_prefix(const char* prefix, tessera_error** out_error) {
    tessera_cluster_options_set_tls_peer_uri_prefix($self, prefix, out_error);
  }
  void set_tls_server_name(const char* name, tessera_error** out_error) {
    tessera_cluster_options_set_tls_server_name($self, name, out_error);
  }
  void set_tls_reload_interval_ms(int64_t interval_ms, tessera_error** out_error) {
    tessera_cluster_options_set_tls_reload_interval_ms($self, interval_ms, out_error);
  }
  void set_init_timeout_ms(int64_t timeout_ms, tessera_error** out_error) {
    tessera_cluster_options_set_init_timeout_ms($self, timeout_ms, out_error);
  }
  void set_heartbeat(int64_t interval_ms, int64_t timeout_ms, tessera_error** out_error) {
    tessera_cluster_options_set_heartbeat($self, interval_ms, timeout_ms, out_error);
  }
  void set_shutdown_timeout_ms(int64_t timeout_ms, tessera_error** out_error) {
    tessera_cluster_options_set_shutdown_timeout_ms($self, timeout_ms, out_error);
  }
  void set_rpc_timeout_ms(int64_t timeout_ms, tessera_error** out_error) {
    tessera_cluster_options_set_rpc_timeout_ms($self, timeout_ms, out_error);
  }
  void set_recoverable(bool recoverable, tessera_error** out_error) {
    tessera_cluster_options_set_recoverable($self, recoverable, out_error);
  }
  void set_fail_job_on_duplicate_id(bool fail, tessera_error** out_error) {
    tessera_cluster_options_set_fail_job_on_duplicate_id($self, fail, out_error);
  }
  void set_partition_index(int64_t index, tessera_error** out_error) {
    tessera_cluster_options_set_partition_index($self, index, out_error);
  }
  void set_kv_limits(int64_t max_value_bytes, int64_t max_store_bytes,
                     tessera_error** out_error) {
    tessera_cluster_options_set_kv_limits($self, max_value_bytes, max_store_bytes, out_error);
  }
  void set_detection(const char* method, tessera_error** out_error) {
    tessera_cluster_options_set_detection($self, method, out_error);
  }
  /* The configuration these options and the environment give (connects nowhere). */
  Detection* detect(tessera_error** out_error);
  /* As detect, over `env` ("NAME=VALUE" strings) instead of the process's. */
  Detection* detect_env(const char* const* env, size_t count, tessera_error** out_error);
  /* tessera_runtime_initialize: joins the job (process 0 also runs the coordinator). */
  Client* initialize(tessera_error** out_error);
  /* A plain client of a running coordinator; nothing process-wide changes. */
  Client* connect(tessera_error** out_error);
  /* Issue 15: how long the coordinator keeps handshaking and idle connections. */
  void set_connection_timeouts(int64_t handshake_timeout_ms, int64_t idle_timeout_ms,
                               tessera_error** out_error) {
    tessera_cluster_options_set_connection_timeouts($self, handshake_timeout_ms, idle_timeout_ms,
                                                    out_error);
  }
}

%extend Detection {
  ~Detection() { tessera_detection_destroy($self); }
  const char* source() { return tessera_detection_source($self, NULL); }
  const char* coordinator_address() { return tessera_detection_coordinator_address($self, NULL); }
  const char* bind_address() { return tessera_detection_bind_address($self, NULL); }
  int64_t num_processes() { return tessera_detection_num_processes($self, NULL); }
  int64_t process_index() { return tessera_detection_process_index($self, NULL); }
  const char* job_id() { return tessera_detection_job_id($self, NULL); }
  size_t local_device_id_count() { return tessera_detection_num_local_device_ids($self, NULL); }
  int64_t local_device_id(size_t index) { return tessera_detection_local_device_id($self, index, NULL); }
  const char* explanation() { return tessera_detection_explanation($self, NULL); }
}

%extend Client {
  /* Without shutdown() first, the others see this process stop heartbeating. */
  ~Client() { TESSERA_SWIG_CLIENT_DESTROY($self); }
  static bool is_initialized() { return tessera_runtime_is_initialized(); }
  int64_t process_index() { return tessera_client_process_index($self, NULL); }
  int64_t num_processes() { return tessera_client_num_processes($self, NULL); }
  /* The uint64 fingerprint's bits as int64. */
  int64_t topology_fingerprint() { return (int64_t)tessera_client_topology_fingerprint($self, NULL); }
  int64_t topology_generation() { return tessera_client_topology_generation($self, NULL); }
  const char* coordinator_address() { return tessera_client_coordinator_address($self, NULL); }
  DeviceList* devices(tessera_error** out_error);
  void kv_set(const char* key, const void* value, size_t size, bool allow_overwrite,
              tessera_error** out_error) {
    tessera_client_kv_set($self, key, value, size, allow_overwrite, out_error);
  }
  tessera_buffer* kv_get(const char* key, int64_t timeout_ms, tessera_error** out_error);
  tessera_buffer* kv_try_get(const char* key, tessera_error** out_error);
  KvList* kv_list(const char* prefix, tessera_error** out_error);
  void kv_delete(const char* key, bool recursive, tessera_error** out_error) {
    tessera_client_kv_remove($self, key, recursive, out_error);
  }
  int64_t kv_increment(const char* key, int64_t delta, tessera_error** out_error) {
    int64_t value = 0;
    tessera_client_kv_increment($self, key, delta, &value, out_error);
    return value;
  }
  /* expected NULL: only if absent. Whether it swapped. */
  bool kv_compare_and_swap(const char* key, const void* expected, size_t expected_size,
                           const void* desired, size_t desired_size,
                           tessera_error** out_error) {
    bool swapped = false;
    tessera_client_kv_compare_and_swap($self, key, expected, expected_size, desired,
                                       desired_size, &swapped, NULL, out_error);
    return swapped;
  }
  /* participants: the process ids; empty means every process. */
  void barrier(const char* barrier_id, int64_t timeout_ms, const int64_t* participants,
               size_t count, tessera_error** out_error) {
    /* int64 in the languages, size_t in C: the same bits for every valid index. */
    tessera_client_barrier($self, barrier_id, timeout_ms, (const size_t*)(const void*)participants,
                           count, out_error);
  }
  void cancel_barrier(const char* barrier_id, tessera_error** out_error) {
    tessera_client_cancel_barrier($self, barrier_id, out_error);
  }
  tessera_swig_int64s agree_live_processes(const int64_t* candidates, size_t count,
                                           int64_t timeout_ms, tessera_error** out_error) {
    /* One agreement: room for every candidate instead of asking the length first. */
    TESSERA_SWIG_RETURN_ARRAY(tessera_swig_int64s, sizeof(int64_t), 0, count, out_error,
                              tessera_client_agree_live_processes, $self,
                              (const size_t*)(const void*)candidates, count, timeout_ms);
  }
  void report_error(tessera_code_t code, const char* message, tessera_error** out_error) {
    tessera_client_report_error($self, code, message, out_error);
  }
  /* The next queued event (none are queued while a callback is installed). */
  Event* next_event(int64_t timeout_ms, tessera_error** out_error);
  void cancel_all() { tessera_client_cancel_all($self); }
  void shutdown(tessera_error** out_error) { tessera_client_shutdown($self, out_error); }
}

%extend Event {
  ~Event() { tessera_event_destroy($self); }
  tessera_event_kind_t kind() { return tessera_event_kind($self, NULL); }
  int64_t process_index() { return tessera_event_process_index($self, NULL); }
  tessera_task_state_t task_state() { return tessera_event_task_state($self, NULL); }
  tessera_code_t code() { return tessera_event_code($self, NULL); }
  const char* message() { return tessera_event_message($self, NULL); }
  int64_t generation() { return tessera_event_generation($self, NULL); }
  int64_t version() { return tessera_event_version($self, NULL); }
}

%extend KvList {
  ~KvList() { tessera_kv_list_destroy($self); }
  size_t size() { return tessera_kv_list_num_entries($self, NULL); }
  const char* key(size_t index) { return tessera_kv_list_key($self, index, NULL); }
  tessera_swig_bytes value(size_t index) {
    TESSERA_SWIG_RETURN_BYTES(NULL, tessera_kv_list_value, $self, index);
  }
}

%extend Coordinator {
  /* Starts serving (tessera_coordinator_start). */
  Coordinator(const ClusterOptions* options, tessera_error** out_error) {
    return tessera_coordinator_start(options, out_error);
  }
  ~Coordinator() { tessera_coordinator_destroy($self); }
  int port() { return tessera_coordinator_port($self, NULL); }
  /* Waits for the job to end; DEADLINE_EXCEEDED when still running. ("wait" is taken in Java.) */
  void wait_for_end(int64_t timeout_ms, tessera_error** out_error) {
    tessera_coordinator_wait($self, timeout_ms, out_error);
  }
  void stop() { tessera_coordinator_stop($self); }
}

/* keras.distribution.initialize's arguments as Keras and its JAX backend
 * resolve them (experimental/keras_initialize.h). */
%newobject KerasInitializeOptions::resolve;
%newobject KerasInitializeOptions::resolve_env;
typedef struct {} KerasInitializeOptions;
typedef struct {} KerasInitialize;

%extend KerasInitializeOptions {
  KerasInitializeOptions() { return tessera_keras_initialize_options_create(); }
  ~KerasInitializeOptions() { tessera_keras_initialize_options_destroy($self); }
  /* NULL makes job_addresses None again. */
  void set_job_addresses(const char* job_addresses, tessera_error** out_error) {
    tessera_keras_initialize_options_set_job_addresses($self, job_addresses, out_error);
  }
  void set_num_processes(int64_t num_processes, tessera_error** out_error) {
    tessera_keras_initialize_options_set_num_processes($self, num_processes, out_error);
  }
  void set_process_index(int64_t process_index, tessera_error** out_error) {
    tessera_keras_initialize_options_set_process_index($self, process_index, out_error);
  }
  /* Against the process's environment. */
  KerasInitialize* resolve(tessera_error** out_error) {
    return tessera_keras_initialize_resolve($self, out_error);
  }
  /* Against `env` ("NAME=VALUE" strings). */
  KerasInitialize* resolve_env(const char* const* env, size_t count, tessera_error** out_error) {
    return tessera_keras_initialize_resolve_from_env($self, env, count, out_error);
  }
}

%extend KerasInitialize {
  ~KerasInitialize() { tessera_keras_initialize_destroy($self); }
  /* NULL (None) when not given. */
  const char* job_addresses() { return tessera_keras_initialize_job_addresses($self, NULL); }
  size_t num_job_addresses() { return tessera_keras_initialize_num_job_addresses($self, NULL); }
  const char* job_address(size_t index, tessera_error** out_error) {
    return tessera_keras_initialize_job_address($self, index, out_error);
  }
  /* NULL (None) when job_addresses is None. */
  const char* coordinator_address() { return tessera_keras_initialize_coordinator_address($self, NULL); }
  bool has_num_processes() { return tessera_keras_initialize_has_num_processes($self, NULL); }
  int64_t num_processes() { return tessera_keras_initialize_num_processes($self, NULL); }
  bool has_process_index() { return tessera_keras_initialize_has_process_index($self, NULL); }
  int64_t process_index() { return tessera_keras_initialize_process_index($self, NULL); }
}

#endif /* TESSERA_SWIG_NO_CLUSTER */

/* ---- issue 11: JAX's create_device_mesh and the TPU axis assignment -------- */

%newobject Mesh::create_device_mesh;
%extend Mesh {
  /* JAX's create_device_mesh: exactly prod(shape) devices (devices NULL:
   * every device of the default type), with JAX's two options. */
  static Mesh* create_device_mesh(const int64_t* shape, size_t num_dims, const char* const* axis_names,
                                  size_t num_axis_names, const char* const* devices, size_t num_devices,
                                  const char* device_kind, bool allow_split_physical_axes,
                                  bool contiguous_submeshes, tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dims, num_axis_names, &mismatch);
    tessera_mesh_options* options = tessera_swig_mesh_options(devices, num_devices, device_kind, -1, out_error);
    Mesh* mesh = NULL;
    if (options != NULL &&
        tessera_mesh_options_set_allow_split_physical_axes(options, allow_split_physical_axes, out_error) &&
        tessera_mesh_options_set_contiguous_submeshes(options, contiguous_submeshes, out_error)) {
      mesh = tessera_mesh_create_device_mesh(mismatch ? NULL : shape, axis_names, n, options, out_error);
    }
    tessera_mesh_options_destroy(options);
    return mesh;
  }
  /* The TPU physical-to-logical axis assignment, row-major
   * [physical axis][logical axis]: the size each physical axis gives each logical one. */
  static tessera_swig_int64s tpu_axis_assignment(const int64_t* physical_shape, size_t num_physical_dims,
                                                 const int64_t* mesh_shape, size_t num_mesh_dims,
                                                 bool allow_split_physical_axes, tessera_error** out_error) {
    tessera_swig_int64s result = {NULL, 0};
    tessera_mesh_options* options = tessera_mesh_options_create();
    if (tessera_mesh_options_set_allow_split_physical_axes(options, allow_split_physical_axes, out_error)) {
      const size_t n = tessera_mesh_tpu_axis_assignment(physical_shape, num_physical_dims, mesh_shape,
                                                        num_mesh_dims, options, NULL, 0, out_error);
      result = tessera_swig_int64s_new(n);
      if (result.data != NULL) {
        tessera_mesh_tpu_axis_assignment(physical_shape, num_physical_dims, mesh_shape, num_mesh_dims, options,
                                         result.data, n, out_error);
      }
    }
    tessera_mesh_options_destroy(options);
    return result;
  }
}

/* ---- issue 11: XLA HloSharding as a value (experimental/hlo_sharding.h) ---- */

%{
typedef tessera_hlo_sharding HloSharding;
%}
%newobject HloSharding::from_layout;
%newobject HloSharding::to_layout;
typedef struct {} HloSharding;
%extend HloSharding {
  /* Parses HloSharding text as XLA's parser does. */
  HloSharding(const char* text, tessera_error** out_error) { return tessera_hlo_sharding_parse(text, out_error); }
  ~HloSharding() { tessera_hlo_sharding_destroy($self); }
  /* The sharding JAX builds for `layout`, with `axes` as Manual mesh axes. */
  static HloSharding* from_layout(const Layout* layout, size_t rank, const char* const* axes, size_t num_axes,
                                  tessera_error** out_error) {
    return tessera_hlo_sharding_from_layout(layout, rank, axes, num_axes, out_error);
  }
  /* The text XLA prints. */
  tessera_swig_text* to_text(tessera_error** out_error) { return tessera_hlo_sharding_to_text($self, out_error); }
  /* The layout on `mesh` that produces it, or the error saying why none does. */
  Layout* to_layout(const Mesh* mesh, size_t rank, tessera_error** out_error) {
    return tessera_hlo_sharding_to_layout($self, mesh, rank, out_error);
  }
  /* tessera_hlo_sharding_kind_t: 0 replicated, 1 maximal, 2 tiled, 3 manual, 4 unknown, 5 unreduced. */
  int kind() { return (int)tessera_hlo_sharding_kind($self, NULL); }
  /* The device of {maximal device=N}; FAILED_PRECONDITION for other kinds. */
  int64_t maximal_device(tessera_error** out_error) {
    int64_t v = 0;
    tessera_hlo_sharding_maximal_device($self, &v, out_error);
    return v;
  }
  TESSERA_INT64S_METHOD(tile_dims, (tessera_error** out_error), tessera_hlo_sharding_tile_dims, $self)
  TESSERA_INT64S_METHOD(tile_devices, (tessera_error** out_error), tessera_hlo_sharding_tile_devices, $self)
  TESSERA_INT64S_METHOD(subgroup_types, (tessera_error** out_error), tessera_hlo_sharding_subgroup_types, $self)
}

/* ---- issue 11: mesh options as a value (the processes of another job) ------ */

/* JAX's creators with every setting of tessera_mesh_options, device
 * processes included: those plan the mesh of a job that is not running
 * here, which the creators above (options from their arguments) cannot. */
%newobject Mesh::make_with_options;
%newobject Mesh::make_hybrid_with_options;
%newobject Mesh::create_device_mesh_with_options;
%apply (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) {
  (const int64_t* process_indices, size_t num_process_indices)
};
typedef struct {} MeshOptions;

/* Every field unset: each creator's defaults. */
%extend MeshOptions {
  MeshOptions() { return tessera_mesh_options_create(); }
  ~MeshOptions() { tessera_mesh_options_destroy($self); }
  /* NULL (or empty): every device of the default type. */
  void set_devices(const char* const* devices, size_t num_devices, tessera_error** out_error) {
    tessera_mesh_options_set_devices($self, devices, num_devices, out_error);
  }
  /* NULL: no kind. */
  void set_device_kind(const char* device_kind, tessera_error** out_error) {
    tessera_mesh_options_set_device_kind($self, device_kind, out_error);
  }
  void set_sort_granules_by_key(bool sort, tessera_error** out_error) {
    tessera_mesh_options_set_sort_granules_by_key($self, sort, out_error);
  }
  void set_allow_split_physical_axes(bool allow, tessera_error** out_error) {
    tessera_mesh_options_set_allow_split_physical_axes($self, allow, out_error);
  }
  void set_contiguous_submeshes(bool contiguous, tessera_error** out_error) {
    tessera_mesh_options_set_contiguous_submeshes($self, contiguous, out_error);
  }
  /* The process of each device set_devices lists, in order; NULL (or empty) unsets. */
  void set_device_processes(const int64_t* process_indices, size_t num_process_indices,
                            tessera_error** out_error) {
    /* int64 in the languages, size_t in C: the same bits, and a negative
     * index comes back negative in the core, which names it. */
    tessera_mesh_options_set_device_processes($self, (const size_t*)(const void*)process_indices,
                                              num_process_indices, out_error);
  }
}

%extend Mesh {
  /* JAX's make_mesh with `options` (NULL: the defaults). */
  static Mesh* make_with_options(const int64_t* shape, size_t num_dims, const char* const* axis_names,
                                 size_t num_axis_names, const MeshOptions* options, tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dims, num_axis_names, &mismatch);
    return tessera_mesh_make(mismatch ? NULL : shape, axis_names, n, options, out_error);
  }
  /* JAX's create_hybrid_device_mesh with `options`; the three arrays as long as each other. */
  static Mesh* make_hybrid_with_options(const int64_t* mesh_shape, size_t num_mesh_dims,
                                        const int64_t* dcn_mesh_shape, size_t num_dcn_dims,
                                        const char* const* axis_names, size_t num_axis_names,
                                        const MeshOptions* options, tessera_error** out_error) {
    int mismatch, names_mismatch;
    size_t n = tessera_swig_same_count(num_mesh_dims, num_dcn_dims, &mismatch);
    n = tessera_swig_same_count(n, num_axis_names, &names_mismatch);
    return tessera_mesh_make_hybrid(mismatch || names_mismatch ? NULL : mesh_shape, mismatch ? NULL : dcn_mesh_shape,
                                    axis_names, n, options, out_error);
  }
  /* JAX's create_device_mesh with `options`. */
  static Mesh* create_device_mesh_with_options(const int64_t* shape, size_t num_dims,
                                               const char* const* axis_names, size_t num_axis_names,
                                               const MeshOptions* options, tessera_error** out_error) {
    int mismatch;
    size_t n = tessera_swig_same_count(num_dims, num_axis_names, &mismatch);
    return tessera_mesh_create_device_mesh(mismatch ? NULL : shape, axis_names, n, options, out_error);
  }
}

/* ---- issue 12: checkpoint metadata (experimental/checkpoint.h) ------------- */

/* A checkpoint's headers: files, tensors (element type and block, shape,
 * file, offset, size) and metadata entries. Read-only, so every method
 * forwards to the C function of the same arguments (the aliases below). */
#define TESSERA_EXPERIMENTAL_API
%include "tessera/experimental/checkpoint.h"
%{
typedef tessera_checkpoint Checkpoint;
#define Checkpoint_format(...) tessera_checkpoint_format(__VA_ARGS__)
#define Checkpoint_num_files(...) tessera_checkpoint_num_files(__VA_ARGS__)
#define Checkpoint_file_path(...) tessera_checkpoint_file_path(__VA_ARGS__)
#define Checkpoint_file_size(...) tessera_checkpoint_file_size(__VA_ARGS__)
#define Checkpoint_num_tensors(...) tessera_checkpoint_num_tensors(__VA_ARGS__)
#define Checkpoint_tensor_name(...) tessera_checkpoint_tensor_name(__VA_ARGS__)
#define Checkpoint_tensor_element_type(...) tessera_checkpoint_tensor_element_type(__VA_ARGS__)
#define Checkpoint_tensor_block_num_elements(...) tessera_checkpoint_tensor_block_num_elements(__VA_ARGS__)
#define Checkpoint_tensor_block_size(...) tessera_checkpoint_tensor_block_size(__VA_ARGS__)
#define Checkpoint_tensor_file_index(...) tessera_checkpoint_tensor_file_index(__VA_ARGS__)
#define Checkpoint_tensor_offset(...) tessera_checkpoint_tensor_offset(__VA_ARGS__)
#define Checkpoint_tensor_size(...) tessera_checkpoint_tensor_size(__VA_ARGS__)
#define Checkpoint_num_metadata_entries(...) tessera_checkpoint_num_metadata_entries(__VA_ARGS__)
#define Checkpoint_metadata_key(...) tessera_checkpoint_metadata_key(__VA_ARGS__)
#define Checkpoint_metadata_value(...) tessera_checkpoint_metadata_value(__VA_ARGS__)
#define Checkpoint_metadata_lookup(...) tessera_checkpoint_metadata_lookup(__VA_ARGS__)
%}
typedef struct {} Checkpoint;
%extend Checkpoint {
  /* Reads the headers of the checkpoint at `path` (tessera_checkpoint_open). */
  Checkpoint(const char* path, tessera_error** out_error) { return tessera_checkpoint_open(path, out_error); }
  ~Checkpoint() { tessera_checkpoint_destroy($self); }
  /* "safetensors" or "gguf". */
  const char* format(tessera_error** out_error);
  size_t num_files(tessera_error** out_error);
  const char* file_path(size_t index, tessera_error** out_error);
  int64_t file_size(size_t index, tessera_error** out_error);
  size_t num_tensors(tessera_error** out_error);
  const char* tensor_name(size_t index, tessera_error** out_error);
  const char* tensor_element_type(size_t index, tessera_error** out_error);
  int64_t tensor_block_num_elements(size_t index, tessera_error** out_error);
  int64_t tensor_block_size(size_t index, tessera_error** out_error);
  /* Outermost dimension first. */
  TESSERA_INT64S_METHOD(tensor_shape, (size_t index, tessera_error** out_error),
                        tessera_checkpoint_tensor_shape, $self, index)
  size_t tensor_file_index(size_t index, tessera_error** out_error);
  int64_t tensor_offset(size_t index, tessera_error** out_error);
  int64_t tensor_size(size_t index, tessera_error** out_error);
  /* The position of the tensor called `name`; NOT_FOUND when none is. */
  size_t tensor_lookup(const char* name, tessera_error** out_error) {
    size_t index = 0;
    tessera_checkpoint_tensor_lookup($self, name, &index, out_error);
    return index;
  }
  size_t num_metadata_entries(tessera_error** out_error);
  const char* metadata_key(size_t index, tessera_error** out_error);
  const char* metadata_value(size_t index, tessera_error** out_error);
  /* The value of the entry with key `key`; NOT_FOUND when none has it. */
  const char* metadata_lookup(const char* key, tessera_error** out_error);
}

/* ---- issue 12: read plans and loading (experimental/checkpoint_load.h) ----- */

/* One process's reads of a checkpoint, executed into the caller's buffers:
 * (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES,
 * size_t TESSERA_BUFFERS_OUT_COUNT) is each language's writable memory (Go
 * [][]byte pinned, Java direct ByteBuffers, C# pinned byte[]/Memory<byte>),
 * valid for the call only: the load is synchronous, so no buffer is used
 * after the wrapper returns. */
%include "tessera/experimental/checkpoint_load.h"
%{
typedef tessera_read_options ReadOptions;
typedef tessera_read_plan ReadPlan;
#define ReadPlan_num_pieces(...) tessera_read_plan_num_pieces(__VA_ARGS__)
#define ReadPlan_piece_device(...) tessera_read_plan_piece_device(__VA_ARGS__)
#define ReadPlan_piece_tensor(...) tessera_read_plan_piece_tensor(__VA_ARGS__)
#define ReadPlan_piece_size(...) tessera_read_plan_piece_size(__VA_ARGS__)
#define ReadPlan_num_files(...) tessera_read_plan_num_files(__VA_ARGS__)
#define ReadPlan_total_bytes(...) tessera_read_plan_total_bytes(__VA_ARGS__)
%}
%apply (void* const* TESSERA_BUFFERS_OUT, const size_t* TESSERA_BUFFERS_OUT_SIZES, size_t TESSERA_BUFFERS_OUT_COUNT) {
  (void* const* buffers, const size_t* sizes, size_t num_buffers)
};
typedef struct {} ReadOptions;
typedef struct {} ReadPlan;
/* Defaults: process 0 of 1, strict, a 65536-byte coalescing gap, min(4,
 * hardware threads) threads, 64 MiB of staging. */
%extend ReadOptions {
  ReadOptions() { return tessera_read_options_create(); }
  ~ReadOptions() { tessera_read_options_destroy($self); }
  /* Process `process_index` of `num_processes`: logical devices [P*D/N, (P+1)*D/N). */
  void set_process(size_t process_index, size_t num_processes, tessera_error** out_error) {
    tessera_read_options_set_process($self, process_index, num_processes, out_error);
  }
  void set_shard_mode(tessera_shard_mode_t mode, tessera_error** out_error) {
    tessera_read_options_set_shard_mode($self, mode, out_error);
  }
  /* Runs at most `gap_bytes` apart are read in one read. */
  void set_coalesce_gap(int64_t gap_bytes, tessera_error** out_error) {
    tessera_read_options_set_coalesce_gap($self, gap_bytes, out_error);
  }
  /* 0: min(4, hardware threads). */
  void set_threads(size_t threads, tessera_error** out_error) {
    tessera_read_options_set_threads($self, threads, out_error);
  }
  void set_staging_bytes(int64_t staging_bytes, tessera_error** out_error) {
    tessera_read_options_set_staging_bytes($self, staging_bytes, out_error);
  }
}
%extend ReadPlan {
  /* The reads of one process (tessera_read_plan_create): the layout map's
   * rules by tensor name, on its mesh; options NULL: the defaults. */
  ReadPlan(const Checkpoint* checkpoint, const LayoutMap* layout_map, const ReadOptions* options,
           tessera_error** out_error) {
    return tessera_read_plan_create(checkpoint, layout_map, options, out_error);
  }
  ~ReadPlan() { tessera_read_plan_destroy($self); }
  /* The process's devices times the checkpoint's tensors, in mesh order then tensor order. */
  size_t num_pieces(tessera_error** out_error);
  size_t piece_device(size_t index, tessera_error** out_error);
  size_t piece_tensor(size_t index, tessera_error** out_error);
  /* [start0, stop0, start1, stop1, ...]: the piece's box of its tensor. */
  TESSERA_INT64S_METHOD(piece_ranges, (size_t index, tessera_error** out_error),
                        tessera_read_plan_piece_ranges, $self, index)
  TESSERA_INT64S_METHOD(piece_shape, (size_t index, tessera_error** out_error),
                        tessera_read_plan_piece_shape, $self, index)
  /* The bytes its buffer must have. */
  int64_t piece_size(size_t index, tessera_error** out_error);
  size_t num_files(tessera_error** out_error);
  /* [start0, stop0, ...]: the coalesced ranges read from file `file_index`. */
  TESSERA_INT64S_METHOD(file_ranges, (size_t file_index, tessera_error** out_error),
                        tessera_read_plan_file_ranges, $self, file_index)
  int64_t total_bytes(tessera_error** out_error);
  /* Reads piece i into buffers[i] (tessera_read_plan_execute without a
   * progress callback); the bytes read from the files. */
  int64_t execute(void* const* buffers, const size_t* sizes, size_t num_buffers, tessera_error** out_error) {
    int64_t bytes_read = 0;
    tessera_read_plan_execute($self, buffers, sizes, num_buffers, NULL, NULL, &bytes_read, out_error);
    return bytes_read;
  }
}

/* ---- issue 12: checkpoint memory plans (experimental/checkpoint_plan.h) ---- */

/* Will a checkpoint fit on a mesh, and on which shape: the settings (a
 * handle, as ReadOptions), a plan's per-tensor and per-device answers, and
 * the search over mesh shapes. The search's layout maps cross as the
 * handles' addresses in an int64 array, as DTensorLayout's lists do: each
 * language's layer takes its LayoutMap objects, keeps them alive for the
 * call and passes their addresses (0 for a null entry, which the C function
 * refuses naming the entry). */
%rename(PlanRecipe) tessera_plan_recipe_t;
%rename(PlanTerm) tessera_plan_term_t;
%rename(PlanVerdict) tessera_plan_verdict_t;
%include "tessera/experimental/checkpoint_plan.h"
%{
typedef tessera_checkpoint_plan_options CheckpointPlanOptions;
typedef tessera_checkpoint_plan CheckpointPlan;
typedef tessera_checkpoint_plan_search CheckpointPlanSearch;
#define CheckpointPlan_num_tensors(...) tessera_checkpoint_plan_num_tensors(__VA_ARGS__)
#define CheckpointPlan_tensor_element_type(...) tessera_checkpoint_plan_tensor_element_type(__VA_ARGS__)
#define CheckpointPlan_tensor_layout(...) tessera_checkpoint_plan_tensor_layout(__VA_ARGS__)
#define CheckpointPlan_tensor_shard_bytes(...) tessera_checkpoint_plan_tensor_shard_bytes(__VA_ARGS__)
#define CheckpointPlan_tensor_problem(...) tessera_checkpoint_plan_tensor_problem(__VA_ARGS__)
#define CheckpointPlan_num_parameters(...) tessera_checkpoint_plan_num_parameters(__VA_ARGS__)
#define CheckpointPlan_weight_bytes(...) tessera_checkpoint_plan_weight_bytes(__VA_ARGS__)
#define CheckpointPlan_num_devices(...) tessera_checkpoint_plan_num_devices(__VA_ARGS__)
#define CheckpointPlan_device_term_bytes(...) tessera_checkpoint_plan_device_term_bytes(__VA_ARGS__)
#define CheckpointPlan_device_peak_bytes(...) tessera_checkpoint_plan_device_peak_bytes(__VA_ARGS__)
#define CheckpointPlan_device_capacity_bytes(...) tessera_checkpoint_plan_device_capacity_bytes(__VA_ARGS__)
#define CheckpointPlan_device_verdict(...) tessera_checkpoint_plan_device_verdict(__VA_ARGS__)
#define CheckpointPlan_kv_cache_sharding(...) tessera_checkpoint_plan_kv_cache_sharding(__VA_ARGS__)
#define CheckpointPlanSearch_num_candidates(...) tessera_checkpoint_plan_search_num_candidates(__VA_ARGS__)
#define CheckpointPlanSearch_candidate_layout_map(...) \
  tessera_checkpoint_plan_search_candidate_layout_map(__VA_ARGS__)
#define CheckpointPlanSearch_candidate_peak_bytes(...) \
  tessera_checkpoint_plan_search_candidate_peak_bytes(__VA_ARGS__)
#define CheckpointPlanSearch_candidate_problem(...) tessera_checkpoint_plan_search_candidate_problem(__VA_ARGS__)
%}
%apply (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) {
  (const int64_t* capacities, size_t num_capacities),
  (const int64_t* layout_map_addresses, size_t num_layout_maps)
};
%newobject CheckpointPlan::tensor_layout;
%newobject CheckpointPlan::search_of;
typedef struct {} CheckpointPlanOptions;
typedef struct {} CheckpointPlan;
typedef struct {} CheckpointPlanSearch;
/* Defaults: inference, the checkpoint's element types, strict shards, no KV
 * cache, capacity unknown. */
%extend CheckpointPlanOptions {
  CheckpointPlanOptions() { return tessera_checkpoint_plan_options_create(); }
  ~CheckpointPlanOptions() { tessera_checkpoint_plan_options_destroy($self); }
  void set_recipe(tessera_plan_recipe_t recipe, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_recipe($self, recipe, out_error);
  }
  /* Every tensor cast to `dtype` (f32, bf16, int8, ... or a safetensors name). */
  void set_dtype(const char* dtype, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_dtype($self, dtype, out_error);
  }
  /* A KV cache for `batch` sequences of `seq_len` tokens; 0 for either: none. */
  void set_kv_cache(int64_t batch, int64_t seq_len, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_kv_cache($self, batch, seq_len, out_error);
  }
  /* The attention shape instead of the checkpoint's (config.json, GGUF metadata). */
  void set_attention_shape(int64_t num_layers, int64_t num_kv_heads, int64_t head_dim, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_attention_shape($self, num_layers, num_kv_heads, head_dim, out_error);
  }
  void set_kv_dtype(const char* dtype, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_kv_dtype($self, dtype, out_error);
  }
  /* The same capacity for every device, in bytes. */
  void set_capacity(int64_t bytes, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_capacity($self, bytes, out_error);
  }
  /* One capacity per device in mesh order; the plan refuses another count. */
  void set_device_capacities(const int64_t* capacities, size_t num_capacities, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_device_capacities($self, capacities, num_capacities, out_error);
  }
  void set_shard_mode(tessera_shard_mode_t mode, tessera_error** out_error) {
    tessera_checkpoint_plan_options_set_shard_mode($self, mode, out_error);
  }
}
%extend CheckpointPlan {
  /* The memory plan of `checkpoint` with the layout map's rules by tensor
   * name, on its mesh (tessera_checkpoint_plan_create); options NULL: the
   * defaults. */
  CheckpointPlan(const Checkpoint* checkpoint, const LayoutMap* layout_map, const CheckpointPlanOptions* options,
                 tessera_error** out_error) {
    return tessera_checkpoint_plan_create(checkpoint, layout_map, options, out_error);
  }
  ~CheckpointPlan() { tessera_checkpoint_plan_destroy($self); }
  /* The checkpoint's tensors, in its order. */
  size_t num_tensors(tessera_error** out_error);
  const char* tensor_element_type(size_t index, tessera_error** out_error);
  /* The index of the rule the tensor matched, -1 when none (or several) did. */
  int64_t tensor_rule(size_t index, tessera_error** out_error) {
    size_t rule = TESSERA_NO_INDEX;
    tessera_checkpoint_plan_tensor_rule($self, index, &rule, out_error);
    return rule == TESSERA_NO_INDEX ? -1 : (int64_t)rule;
  }
  Layout* tensor_layout(size_t index, tessera_error** out_error);
  /* The largest shard's shape (ceil(size / shards) per dimension). */
  TESSERA_INT64S_METHOD(tensor_shard_shape, (size_t index, tessera_error** out_error),
                        tessera_checkpoint_plan_tensor_shard_shape, $self, index)
  int64_t tensor_shard_bytes(size_t index, tessera_error** out_error);
  /* Why the tensor's layout does not fit it; "" when it does. */
  const char* tensor_problem(size_t index, tessera_error** out_error);
  int64_t num_parameters(tessera_error** out_error);
  int64_t weight_bytes(tessera_error** out_error);
  /* The mesh's devices, in mesh order. */
  size_t num_devices(tessera_error** out_error);
  int64_t device_term_bytes(size_t index, tessera_plan_term_t term, tessera_error** out_error);
  int64_t device_peak_bytes(size_t index, tessera_error** out_error);
  /* -1 when unknown. */
  int64_t device_capacity_bytes(size_t index, tessera_error** out_error);
  tessera_plan_verdict_t device_verdict(size_t index, tessera_error** out_error);
  const char* kv_cache_sharding(tessera_error** out_error);
  /* The layers' search: every mesh shape of the first map's devices and
   * axes, with each map (addresses of live maps). */
  static CheckpointPlanSearch* search_of(const Checkpoint* checkpoint, const int64_t* layout_map_addresses,
                                         size_t num_layout_maps, const CheckpointPlanOptions* options,
                                         tessera_error** out_error) {
    return tessera_checkpoint_plan_search_create(
        checkpoint, (const tessera_layout_map* const*)(const void*)layout_map_addresses, num_layout_maps, options,
        out_error);
  }
}
%extend CheckpointPlanSearch {
  ~CheckpointPlanSearch() { tessera_checkpoint_plan_search_destroy($self); }
  /* Those that fit first, by their largest device peak; then the rejected. */
  size_t num_candidates(tessera_error** out_error);
  /* One size per axis of the maps' mesh. */
  TESSERA_INT64S_METHOD(candidate_mesh_shape, (size_t index, tessera_error** out_error),
                        tessera_checkpoint_plan_search_candidate_mesh_shape, $self, index)
  /* The position of the candidate's map in the list searched. */
  size_t candidate_layout_map(size_t index, tessera_error** out_error);
  int64_t candidate_peak_bytes(size_t index, tessera_error** out_error);
  /* Why the candidate is rejected; "" when it fits. */
  const char* candidate_problem(size_t index, tessera_error** out_error);
}

/* ---- issue 13: sharded save (experimental/checkpoint_save.h) --------------- */

/* Each process writes the distinct shards it holds; process 0 then writes the
 * index. The shards cross as write_shards' buffers (the TESSERA_BUFFERS_OUT
 * typemap: Go [][]byte, Java direct ByteBuffers, C# PinnedBuffers), pinned
 * for that call only, so a language's moving memory is never kept by the
 * saver. tessera_checkpoint_saver_set_shard keeps the caller's pointer until
 * the write: each language's layer collects its shards and hands them to
 * write_shards in one call instead. The fill callback
 * (tessera_checkpoint_saver_stream) is bound in each language's file. */
%include "tessera/experimental/checkpoint_save.h"
%{
typedef tessera_save_options SaveOptions;
typedef tessera_checkpoint_saver CheckpointSaver;
#define CheckpointSaver_num_tensors(...) tessera_checkpoint_saver_num_tensors(__VA_ARGS__)
%}
%apply (const int64_t* TESSERA_INT64_IN, size_t TESSERA_INT64_IN_COUNT) {
  (const int64_t* shard_tensors, size_t num_shard_tensors),
  (const int64_t* shard_devices, size_t num_shard_devices)
};
typedef struct {} SaveOptions;
typedef struct {} CheckpointSaver;
/* Defaults: process 0 of 1, strict shards, 64 MiB parts. */
%extend SaveOptions {
  SaveOptions() { return tessera_save_options_create(); }
  ~SaveOptions() { tessera_save_options_destroy($self); }
  /* Process `process_index` of `num_processes`: logical devices [P*D/N, (P+1)*D/N). */
  void set_process(size_t process_index, size_t num_processes, tessera_error** out_error) {
    tessera_save_options_set_process($self, process_index, num_processes, out_error);
  }
  void set_shard_mode(tessera_shard_mode_t mode, tessera_error** out_error) {
    tessera_save_options_set_shard_mode($self, mode, out_error);
  }
  /* The largest part a fill callback is asked for, in bytes. */
  void set_chunk_size(int64_t chunk_size, tessera_error** out_error) {
    tessera_save_options_set_chunk_size($self, chunk_size, out_error);
  }
}
%extend CheckpointSaver {
  /* A save of one process into `directory` (tessera_checkpoint_saver_create);
   * options NULL: the defaults. */
  CheckpointSaver(const char* directory, const SaveOptions* options, tessera_error** out_error) {
    return tessera_checkpoint_saver_create(directory, options, out_error);
  }
  ~CheckpointSaver() { tessera_checkpoint_saver_destroy($self); }
  /* Tensor `name` of safetensors dtype `dtype` ("F32"), global shape `dims`,
   * saved under `layout` (its mesh is the saving mesh). */
  void add_tensor(const char* name, const char* dtype, const Layout* layout, const int64_t* dims, size_t num_dims,
                  tessera_error** out_error) {
    tessera_checkpoint_saver_add_tensor($self, name, dtype, layout, dims, num_dims, out_error);
  }
  size_t num_tensors(tessera_error** out_error);
  /* Writes the process's file: shard i is tensor shard_tensors[i] on device
   * shard_devices[i], buffers[i] its box as row-major bytes. */
  void write_shards(const int64_t* shard_tensors, size_t num_shard_tensors, const int64_t* shard_devices,
                    size_t num_shard_devices, void* const* buffers, const size_t* sizes, size_t num_buffers,
                    tessera_error** out_error) {
    tessera_checkpoint_saver_write_shards($self, (const size_t*)(const void*)shard_tensors, num_shard_tensors,
                                          (const size_t*)(const void*)shard_devices, num_shard_devices,
                                          (const void* const*)buffers, sizes, num_buffers, out_error);
  }
  /* Process 0, after every process wrote: checks the files and writes the index. */
  void finish(tessera_error** out_error) { tessera_checkpoint_saver_finish($self, out_error); }
}

/* ---- issue 13: restore on any mesh (experimental/checkpoint_restore.h) ------ */

/* A saved checkpoint's index, and the read plan of one process restoring it
 * under a layout map: the plan is a ReadPlan, executed as a loaded one. */
%include "tessera/experimental/checkpoint_restore.h"
%{
typedef tessera_checkpoint_index CheckpointIndex;
typedef tessera_restore_request RestoreRequest;
#define CheckpointIndex_num_processes(...) tessera_checkpoint_index_num_processes(__VA_ARGS__)
#define CheckpointIndex_num_files(...) tessera_checkpoint_index_num_files(__VA_ARGS__)
#define CheckpointIndex_file_path(...) tessera_checkpoint_index_file_path(__VA_ARGS__)
#define CheckpointIndex_num_tensors(...) tessera_checkpoint_index_num_tensors(__VA_ARGS__)
#define CheckpointIndex_tensor_name(...) tessera_checkpoint_index_tensor_name(__VA_ARGS__)
#define CheckpointIndex_tensor_dtype(...) tessera_checkpoint_index_tensor_dtype(__VA_ARGS__)
#define CheckpointIndex_tensor_sharding(...) tessera_checkpoint_index_tensor_sharding(__VA_ARGS__)
#define CheckpointIndex_tensor_num_pieces(...) tessera_checkpoint_index_tensor_num_pieces(__VA_ARGS__)
#define CheckpointIndex_piece_file(...) tessera_checkpoint_index_piece_file(__VA_ARGS__)
%}
%newobject CheckpointIndex::tensor_sharding;
%newobject CheckpointIndex::restore_plan;
typedef struct {} CheckpointIndex;
typedef struct {} RestoreRequest;
%extend CheckpointIndex {
  /* Reads the index at `path` (the directory or its tessera-index.json). */
  CheckpointIndex(const char* path, tessera_error** out_error) { return tessera_checkpoint_index_open(path, out_error); }
  ~CheckpointIndex() { tessera_checkpoint_index_destroy($self); }
  size_t num_processes(tessera_error** out_error);
  size_t num_files(tessera_error** out_error);
  const char* file_path(size_t index, tessera_error** out_error);
  size_t num_tensors(tessera_error** out_error);
  const char* tensor_name(size_t index, tessera_error** out_error);
  const char* tensor_dtype(size_t index, tessera_error** out_error);
  TESSERA_INT64S_METHOD(tensor_shape, (size_t index, tessera_error** out_error),
                        tessera_checkpoint_index_tensor_shape, $self, index)
  /* The sharding it was saved under. */
  Sharding* tensor_sharding(size_t index, tessera_error** out_error);
  size_t tensor_num_pieces(size_t index, tessera_error** out_error);
  /* [start0, stop0, ...]: the stored piece's box. */
  TESSERA_INT64S_METHOD(piece_ranges, (size_t index, size_t piece, tessera_error** out_error),
                        tessera_checkpoint_index_piece_ranges, $self, index, piece)
  size_t piece_file(size_t index, size_t piece, tessera_error** out_error);
  /* The reads of one process restoring onto the layout map's mesh
   * (tessera_restore_plan_create); request NULL: every tensor; options
   * NULL: the defaults. */
  ReadPlan* restore_plan(const LayoutMap* layout_map, const RestoreRequest* request, const ReadOptions* options,
                         tessera_error** out_error) {
    return tessera_restore_plan_create($self, layout_map, request, options, out_error);
  }
}
%extend RestoreRequest {
  RestoreRequest() { return tessera_restore_request_create(); }
  ~RestoreRequest() { tessera_restore_request_destroy($self); }
  /* Asks for `name`; dtype NULL: any; `dims` empty: any shape (a scalar's
   * shape is checked with add_scalar). */
  void add_tensor(const char* name, const char* dtype, const int64_t* dims, size_t num_dims,
                  tessera_error** out_error) {
    tessera_restore_request_add_tensor($self, name, dtype, num_dims == 0 ? NULL : dims, num_dims, out_error);
  }
  /* Asks for the rank-0 tensor `name`. */
  void add_scalar(const char* name, const char* dtype, tessera_error** out_error) {
    static const int64_t no_dims[1] = {0};
    tessera_restore_request_add_tensor($self, name, dtype, no_dims, 0, out_error);
  }
}

/* ---- issue 14: the coordinator as a service (experimental/coordinator_service.h) */

/* The /metrics address and port, and "who is stuck where": a job's state as
 * its coordinator sees it, queried by an operator (a snapshot handle). */
#if !defined(TESSERA_SWIG_NO_CLUSTER)
%include "tessera/experimental/coordinator_service.h"
%{
typedef tessera_job_status JobStatus;
#define ClusterOptions_query_job_status(...) tessera_job_status_query(__VA_ARGS__)
#define Coordinator_metrics_port(...) tessera_coordinator_metrics_port(__VA_ARGS__)
#define JobStatus_job_state(...) tessera_job_status_job_state(__VA_ARGS__)
#define JobStatus_num_processes(...) tessera_job_status_num_processes(__VA_ARGS__)
#define JobStatus_process_state(...) tessera_job_status_process_state(__VA_ARGS__)
#define JobStatus_process_ms_since_heartbeat(...) tessera_job_status_process_ms_since_heartbeat(__VA_ARGS__)
#define JobStatus_process_waiting_on(...) tessera_job_status_process_waiting_on(__VA_ARGS__)
%}
%newobject ClusterOptions::query_job_status;
typedef struct {} JobStatus;
%extend ClusterOptions {
  /* Serve /metrics on "HOST:PORT" (port 0: any free one); off by default. */
  void set_metrics_bind(const char* address, tessera_error** out_error) {
    tessera_cluster_options_set_metrics_bind($self, address, out_error);
  }
  /* Asks the coordinator at these options' address for its job's state, as
   * an operator (job id, token and TLS from these options). */
  JobStatus* query_job_status(int64_t timeout_ms, tessera_error** out_error);
}
%extend Coordinator {
  /* The port /metrics listens on; FAILED_PRECONDITION without set_metrics_bind. */
  int metrics_port(tessera_error** out_error);
}
%extend JobStatus {
  ~JobStatus() { tessera_job_status_destroy($self); }
  /* "REGISTERING", "RUNNING", "SHUTTING_DOWN", "STOPPED" or "FAILED". */
  const char* job_state(tessera_error** out_error);
  size_t num_processes(tessera_error** out_error);
  /* "never connected", "pending", "running", "disconnected" or "failed". */
  const char* process_state(size_t index, tessera_error** out_error);
  /* -1 when it never sent one. */
  int64_t process_ms_since_heartbeat(size_t index, tessera_error** out_error);
  /* "barrier ID#COUNTER" and "key KEY" parts joined by ", "; "" when nothing. */
  const char* process_waiting_on(size_t index, tessera_error** out_error);
}
#endif
