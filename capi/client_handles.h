// The definitions behind tessera_client, tessera_event and tessera_kv_list,
// read by client.cc and runtime.cc. Private to capi/.
#ifndef TESSERA_CAPI_CLIENT_HANDLES_H_
#define TESSERA_CAPI_CLIENT_HANDLES_H_

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

#endif  // TESSERA_CAPI_CLIENT_HANDLES_H_
