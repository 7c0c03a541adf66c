// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The global topology a coordinator hands every process: devices numbered
// deterministically (process id, then local ordinal), slice indices, a
// fingerprint, and the sanity checks that catch launch mistakes before any
// collective runs (coordinator.md §6.3, §6.6).
#ifndef TESSERA_CORE_CLUSTER_TOPOLOGY_H_
#define TESSERA_CORE_CLUSTER_TOPOLOGY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster {

// What one process registered.
struct ProcessTopology {
  v1::HostInfo host;
  std::vector<v1::LocalDevice> devices;
  std::optional<int32_t> partition_index;
};

// Builds the topology of `processes` (indexed by process id) at `generation`.
// Slice index: the partition indices when every process set one, else one
// slice per distinct boot id in process order. FAILED_PRECONDITION (naming the
// processes) when: processes disagree on platform; two processes on one boot
// id claim one physical device; partition indices are set for some processes
// only; `coordinator_address` is a loopback address while the processes run
// on more than one host (distinct boot ids).
absl::StatusOr<v1::GlobalTopology> BuildTopology(const std::vector<ProcessTopology>& processes,
                                                 int64_t generation,
                                                 const std::string& coordinator_address);

// FNV-1a of the devices' deterministic serialization and the hosts' boot
// ids: equal for equal topologies, independent of pids and generation.
uint64_t TopologyFingerprint(const v1::GlobalTopology& topology);

// True for "localhost", 127.0.0.0/8 and ::1 (with or without ":port").
bool IsLoopbackAddress(const std::string& address);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_TOPOLOGY_H_
