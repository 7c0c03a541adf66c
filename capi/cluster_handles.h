// The definitions behind the cluster handles that more than one glue file
// reads. Private to capi/.
#ifndef TESSERA_CAPI_CLUSTER_HANDLES_H_
#define TESSERA_CAPI_CLUSTER_HANDLES_H_

#include "core/cluster/cluster_config.h"
#include "tessera/cluster.h"

// Mutable; what the setters recorded, resolved later by detection.
struct tessera_cluster_options {
  tessera::cluster::ClusterOptions impl;
};

#endif  // TESSERA_CAPI_CLUSTER_HANDLES_H_
