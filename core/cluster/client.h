// The client agent: one process's membership in a job (registration,
// heartbeats, the event stream, KV, barriers, shutdown).
#ifndef TESSERA_CORE_CLUSTER_CLIENT_H_
#define TESSERA_CORE_CLUSTER_CLIENT_H_

namespace tessera::cluster {

class Client;

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_CLIENT_H_
