// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// What a process tells the coordinator about itself when it registers: its
// host (name, boot id, pid) and the local devices it uses.
#ifndef TESSERA_CORE_CLUSTER_LOCAL_HOST_H_
#define TESSERA_CORE_CLUSTER_LOCAL_HOST_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "core/device.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster {

// hostname, boot_id (/proc/sys/kernel/random/boot_id; "" where absent: two
// processes on one booted host share it) and pid of this process.
v1::HostInfo LocalHostInfo();

// The local devices this process registers, from local discovery. With
// `local_device_ids` (indices into discovery) only those, renumbered 0..k-1
// in the given order; INVALID_ARGUMENT for an index out of range or repeated.
// `accelerators_only`: the ids came from a launcher's local rank (JAX applies
// those to GPUs only), so a host with only CPUs ignores them and keeps all.
// A TPU's chip coordinates travel as LocalDevice.coords (x, y, z) and its
// core as the attribute "core_on_chip"; coordinates beyond int32 are
// INVALID_ARGUMENT.
absl::StatusOr<std::vector<v1::LocalDevice>> LocalDevices(absl::Span<const int64_t> local_device_ids,
                                                          bool accelerators_only = false);

// The Device a topology entry describes: its ids, and the chip coordinates
// and core LocalDevices registered.
absl::StatusOr<Device> DeviceFromTopology(const v1::GlobalDevice& global);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_LOCAL_HOST_H_
