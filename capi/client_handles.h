// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The definitions behind tessera_client, tessera_event and tessera_kv_list,
// read by client.cc and runtime.cc. Private to capi/.
#ifndef TESSERA_CAPI_CLIENT_HANDLES_H_
#define TESSERA_CAPI_CLIENT_HANDLES_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/cluster/client.h"
#include "tessera/client.h"

// Owns the client (and, from tessera_runtime_initialize, the in-process coordinator).
struct tessera_client {
  std::unique_ptr<tessera::cluster::Client> impl;
};

struct tessera_event {
  tessera::cluster::ClientEvent impl;
};

struct tessera_kv_list {
  std::vector<tessera::cluster::KvEntry> impl;
};

namespace tessera::capi {

// A coordinator task state as the C enum. UNSPECIFIED is the C API's failure
// value, so a state the coordinator never set reads as NEVER_CONNECTED, as in 0.1.
tessera_task_state_t TaskState(int32_t state);

// A coordinator process id as a C position: a negative id (none) is TESSERA_NO_INDEX.
size_t ProcessIndex(int64_t process_id);

}  // namespace tessera::capi

#endif  // TESSERA_CAPI_CLIENT_HANDLES_H_
