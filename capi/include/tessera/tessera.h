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
 */
#ifndef TESSERA_TESSERA_H_
#define TESSERA_TESSERA_H_

#include "tessera/buffer.h"
#include "tessera/client.h"
#include "tessera/cluster.h"
#include "tessera/coordinator.h"
#include "tessera/copy.h"
#include "tessera/device.h"
#include "tessera/distribution.h"
#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"
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

#endif /* TESSERA_TESSERA_H_ */
