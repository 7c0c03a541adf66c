// initialize(): detection, the in-process coordinator for process 0, the
// client, and the global device list and process info it installs.
#ifndef TESSERA_CORE_CLUSTER_RUNTIME_H_
#define TESSERA_CORE_CLUSTER_RUNTIME_H_

namespace tessera::cluster {}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_RUNTIME_H_
