// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client_local.h"

#include "absl/strings/string_view.h"

namespace tessera::cluster::internal {

namespace {

uint64_t Fnv1a(absl::string_view bytes, uint64_t hash = 1469598103934665603ull) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}


}  // namespace

v1::GlobalTopology LocalTopology(const v1::HostInfo& host,
                                 const std::vector<v1::LocalDevice>& devices) {
  v1::GlobalTopology topology;
  uint64_t fingerprint = Fnv1a("tessera/v1 topology");
  for (size_t i = 0; i < devices.size(); ++i) {
    v1::GlobalDevice* device = topology.add_devices();
    device->set_global_id(static_cast<int32_t>(i));
    device->set_process_id(0);
    device->set_slice_index(0);
    *device->mutable_local() = devices[i];
    fingerprint = Fnv1a(absl::StrCat(i, "/0/", devices[i].platform(), "/",
                                     devices[i].local_ordinal(), ";"),
                        fingerprint);
  }
  *topology.add_hosts() = host;
  topology.set_fingerprint(fingerprint);
  topology.set_generation(1);
  return topology;
}

absl::Status CheckLocalParticipants(const std::vector<int64_t>& ids, const char* what) {
  for (int64_t id : ids) {
    if (id != 0) {
      return absl::InvalidArgumentError(absl::StrCat(what, " lists process ", id,
                                                     "; this job has 1 process (id 0)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tessera::cluster::internal
