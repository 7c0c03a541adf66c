// The definitions behind the cluster handles that more than one glue file
// reads. Private to capi/.
#ifndef TESSERA_CAPI_CLUSTER_HANDLES_H_
#define TESSERA_CAPI_CLUSTER_HANDLES_H_

#include <string>

#include "core/cluster/cluster_config.h"
#include "core/cluster/detect.h"
#include "tessera/cluster.h"

// Mutable; what the setters recorded, resolved later by detection.
struct tessera_cluster_options {
  tessera::cluster::ClusterOptions impl;
};

// Immutable once built: the resolution and its explanation joined by "\n"
// (kept here so tessera_detection_explanation can hand out a pointer).
struct tessera_detection {
  tessera::cluster::Detection impl;
  std::string explanation;
  // The resolved addresses as text, kept for the accessors' borrowed strings.
  std::string coordinator_address;
  std::string bind_address;
};

#endif  // TESSERA_CAPI_CLUSTER_HANDLES_H_
