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
 * Errors
 *   Fallible functions take a trailing tessera_error** (may be NULL) and
 *   return NULL or false on failure. Codes are absl's canonical codes. NULL
 *   handles and pointers, out-of-range indices and overflowing sizes are
 *   errors, never undefined behaviour. No C++ exception crosses the ABI.
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
 *   - Durations are int64_t milliseconds, named _ms.
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
#if TESSERA_HAS_CLUSTER
#include "tessera/experimental/cluster.h"
#endif
#endif

#endif /* TESSERA_TESSERA_H_ */
