/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Tessera: device meshes, tensor layouts, layout maps and distributions,
 * behind a stable C ABI.
 *
 * Ownership
 *   1. Every handle you receive (a return value or an out parameter) is yours:
 *      release it with the matching _destroy, which accepts NULL. There are no
 *      borrowed handles; getters return new references.
 *   2. const char* results are borrowed and live as long as the handle they
 *      came from (each function says so).
 *   3. Computed strings and bytes come back as an owned tessera_buffer.
 *   4. Inputs are copied; the library keeps no caller pointer beyond the call,
 *      except a log callback's user_data (until it is replaced).
 *   5. Handles are reference-counted inside: a layout keeps its mesh alive,
 *      so handles may be destroyed in any order.
 *
 * Errors (one answer policy)
 *   Every function that takes a handle, an index or a key is fallible: its
 *   last parameter is tessera_error** out_error (may be NULL; see error.h).
 *   A NULL handle or pointer is INVALID_ARGUMENT naming the argument
 *   ("Argument 'mesh' is NULL; expected a valid pointer"); an index out of
 *   range is OUT_OF_RANGE naming the argument, its value and the valid range
 *   ("Argument 'index' is 2; expected less than 2 (the mesh's rank)");
 *   overflowing sizes are errors too, never undefined behaviour. On failure a
 *   function returns its zero value: 0, false, NULL, or the enum's 0 value
 *   (each header names it "on failure"). The zero value may also be a real
 *   answer (a rank of 0, "no mesh"), so callers tell failure by out_error,
 *   never by the value. Codes are absl's canonical codes. No C++ exception
 *   crosses the ABI. tests/capi/test_answer_policy.c calls every function
 *   with a NULL handle and with an index one past the end;
 *   check_answer_policy.py keeps its tables complete.
 *   Counts (num_*) and positions (process, shard, device and rule indices)
 *   are size_t in results and parameters; TESSERA_NO_INDEX (error.h) is "no
 *   position". Ids that are not positions (global device ids, generations,
 *   versions), extents and byte counts stay int64_t; process indices are
 *   size_t in arrays too (tessera_client_barrier's participants).
 *   The exceptions, each because its argument has a meaning when NULL or is
 *   not a handle:
 *   - _destroy, tessera_client_cancel_all and tessera_coordinator_stop: NULL
 *     is a no-op, as for free().
 *   - tessera_error_code and tessera_error_message: a NULL error means
 *     success (TESSERA_OK and "").
 *   - tessera_buffer_data and tessera_buffer_size: NULL and 0 for a NULL
 *     buffer; a buffer is only ever returned non-NULL on success.
 *   - tessera_code_name and tessera_platform_name take an enum, not a handle:
 *     an unknown value gives NULL.
 *   - tessera_mesh_equal and tessera_layout_equal: NULL equals only NULL.
 *   - tessera_distribution_set_default(NULL) clears the default.
 *   - Handle parameters documented "may be NULL" have a meaning there:
 *     options NULL means the defaults (tessera_client_connect,
 *     tessera_runtime_initialize, tessera_detection_create and _from_env,
 *     tessera_distribution_create_data_parallel_over_devices, the mesh
 *     creators tessera_mesh_create, _make, _make_hybrid and the DTensor
 *     creators tessera_dtensor_mesh_create, _create_distributed and
 *     _create_from_ids, tessera_dtensor_config_create,
 *     tessera_keras_initialize_resolve and _from_env); a mesh NULL
 *     means one given later (tessera_layout_create, _create_grouped,
 *     _create_replicated, tessera_layout_from_partition_spec,
 *     tessera_layout_map_create).
 *   - Functions without parameters (tessera_version, tessera_*_options_create,
 *     tessera_distribution_current, tessera_runtime_is_initialized) have no
 *     handle to check; a NULL result from a creator means out of memory.
 *
 * Thread safety
 *   - Immutable objects (tessera_device, tessera_device_list, tessera_mesh,
 *     tessera_layout, tessera_distribution, tessera_dataset_plan,
 *     tessera_sharding, tessera_reshard_plan, tessera_dtensor_mesh,
 *     tessera_buffer, tessera_error) may be used from any number of threads
 *     at once.
 *   - tessera_layout_map: lookups may run concurrently with each other; set
 *     and delete must not run concurrently with any other call on that map.
 *   - Options objects (tessera_distribution_options, tessera_copy_options)
 *     are used by one thread at a time.
 *   - _destroy may run on any thread (garbage-collector finalizers included)
 *     but not concurrently with other calls on the same object.
 *   - No function reports errors through thread-local state. The current
 *     distribution's scope stack is per thread by design.
 *   - The log callback may run on any thread that logs.
 *
 * Vocabulary (0.2; every function follows it, tests/capi/check_vocabulary.py
 * checks the headers)
 *   - Names are tessera_<noun>_<verb or attribute>: tessera_mesh_create,
 *     tessera_sharding_scatter, tessera_runtime_initialize,
 *     tessera_log_set_callback. No free verbs.
 *   - How many: num_<things> (tessera_mesh_num_devices,
 *     tessera_layout_map_num_rules, tessera_layout_num_dims); a count
 *     parameter is num_<things> too. _size means bytes and nothing else
 *     (tessera_buffer_size, tessera_sharding_shard_size).
 *   - A mesh axis's length is its extent (tessera_mesh_axis_extent,
 *     tessera_dtensor_mesh_dim_extent).
 *   - A process is named by its process_index (0 .. num_processes - 1) in C,
 *     in the bindings, in the CLI and in the environment (TESSERA_PROCESS_INDEX;
 *     0.1's TESSERA_PROCESS_ID is still read as an alias).
 *   - Lookup by position: an accessor taking a size_t index
 *     (tessera_mesh_axis_name, tessera_layout_map_key). Lookup by key:
 *     _lookup (tessera_layout_map_lookup, tessera_client_kv_lookup,
 *     tessera_mesh_axis_lookup). Blocking fetch: _wait (tessera_client_kv_wait,
 *     tessera_client_event_wait, tessera_coordinator_wait).
 *   - Removing an entry is _remove; freeing a handle is _destroy.
 *   - Enum types end in _t (tessera_platform_t), so the accessor returning one
 *     takes the plain name (tessera_distribution_kind). Callback types end in
 *     _fn (tessera_log_fn, tessera_event_fn).
 *   - Durations are int64_t milliseconds, named _ms, in C and in the
 *     environment (TESSERA_INIT_TIMEOUT_MS; 0.1's second-valued spellings
 *     are read as aliases).
 *   - Output arrays have one shape:
 *       size_t tessera_x(..., T* out, size_t capacity, tessera_error** out_error)
 *     returns the number of entries of the whole answer. out == NULL with
 *     capacity == 0 asks for that number (no error); a capacity below it is
 *     OUT_OF_RANGE ("Argument 'capacity' is 2; expected at least 4") and
 *     returns 0, the answer policy's zero value, with nothing written; out ==
 *     NULL with a capacity is INVALID_ARGUMENT. Ranges are one array of
 *     2 * num_dims int64_t, [start0, stop0, start1, stop1, ...] (JAX's slice
 *     per dimension), each stop one past the last index. Bytes come back the
 *     same way, through void* out (tessera_kv_list_value).
 *   - A creator with settings beyond its required inputs takes an options
 *     handle (tessera_mesh_options, tessera_dtensor_mesh_options,
 *     tessera_distribution_options, tessera_copy_options,
 *     tessera_cluster_options): _create, one _set_FIELD per setting,
 *     _destroy; NULL means every default. A new setting is a new setter,
 *     never a new creator.
 *   - The key-value space under "/_tessera/" is reserved for the library.
 *
 * Tiers
 *   The headers included below are the stable tier: exported under the
 *   version node TESSERA_0.2, kept compatible for every 0.x release after it
 *   (new functions arrive in new nodes). The headers under
 *   tessera/experimental/ are exported under TESSERA_EXPERIMENTAL_0.2 and may
 *   change in any release; each says why it is experimental. They refuse to
 *   compile unless TESSERA_EXPERIMENTAL_API is defined, and with it defined
 *   this header includes them too.
 */
#ifndef TESSERA_TESSERA_H_
#define TESSERA_TESSERA_H_

#include "tessera/buffer.h"
#include "tessera/copy.h"
#include "tessera/device.h"
#include "tessera/distribution.h"
#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/features.h"
#include "tessera/jax.h"
#include "tessera/layout.h"
#include "tessera/layout_map.h"
#include "tessera/log.h"
#include "tessera/mesh.h"
#include "tessera/mesh_construction.h"
#include "tessera/proto.h"
#include "tessera/reshard.h"
#include "tessera/shard.h"
#include "tessera/torch.h"
#include "tessera/version.h"
#include "tessera/xla.h"

#if TESSERA_HAS_CLUSTER
#include "tessera/client.h"
#include "tessera/cluster.h"
#include "tessera/coordinator.h"
#endif

#if defined(TESSERA_EXPERIMENTAL_API)
#include "tessera/experimental/distribution_scope.h"
#include "tessera/experimental/dtensor_legacy.h"
#include "tessera/experimental/mesh_make.h"
#include "tessera/experimental/dtensor_config.h"
#include "tessera/experimental/dtensor_mesh.h"
#include "tessera/experimental/dtensor_layout.h"
#include "tessera/experimental/hlo_sharding.h"
#include "tessera/experimental/keras_data.h"
#include "tessera/experimental/shardy.h"
#include "tessera/experimental/checkpoint.h"
#include "tessera/experimental/checkpoint_load.h"
#include "tessera/experimental/checkpoint_plan.h"
#include "tessera/experimental/checkpoint_save.h"
#include "tessera/experimental/checkpoint_restore.h"
#if TESSERA_HAS_CLUSTER
#include "tessera/experimental/cluster.h"
#include "tessera/experimental/keras_initialize.h"
#include "tessera/experimental/coordinator_service.h"
#endif
#endif

#endif /* TESSERA_TESSERA_H_ */
