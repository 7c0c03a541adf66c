// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/topology.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace tessera::cluster {
namespace {

absl::Status CheckPlatforms(const std::vector<ProcessTopology>& processes) {
  std::map<std::string, std::vector<int>> by_platform;
  for (size_t p = 0; p < processes.size(); ++p) {
    for (const auto& device : processes[p].devices) {
      auto& ids = by_platform[device.platform()];
      if (ids.empty() || ids.back() != static_cast<int>(p)) ids.push_back(static_cast<int>(p));
    }
  }
  if (by_platform.size() <= 1) return absl::OkStatus();
  std::vector<std::string> parts;
  for (const auto& [platform, ids] : by_platform) {
    parts.push_back(absl::StrCat("'", platform, "' on processes ", absl::StrJoin(ids, ",")));
  }
  return absl::FailedPreconditionError(
      absl::StrCat("processes disagree on the device platform: ", absl::StrJoin(parts, "; ")));
}

absl::Status CheckPhysicalIds(const std::vector<ProcessTopology>& processes) {
  // (boot id, physical id) -> (process, local ordinal) of the first claim.
  absl::flat_hash_map<std::pair<std::string, std::string>, std::pair<int, int>> claimed;
  for (size_t p = 0; p < processes.size(); ++p) {
    const std::string& boot_id = processes[p].host.boot_id();
    for (const auto& device : processes[p].devices) {
      if (device.physical_id().empty()) continue;
      auto [it, inserted] = claimed.try_emplace(std::make_pair(boot_id, device.physical_id()),
                                                static_cast<int>(p), device.local_ordinal());
      if (!inserted && it->second.first != static_cast<int>(p)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "processes ", it->second.first, " and ", p, " both claim device '",
            device.physical_id(), "' on host ", processes[p].host.hostname(), " (boot id ",
            boot_id, "); check local_device_ids"));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int32_t>> SliceIndices(const std::vector<ProcessTopology>& processes) {
  std::vector<int> with, without;
  for (size_t p = 0; p < processes.size(); ++p) {
    (processes[p].partition_index.has_value() ? with : without).push_back(static_cast<int>(p));
  }
  std::vector<int32_t> slices(processes.size());
  if (!with.empty() && !without.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "partition index is set for processes ", absl::StrJoin(with, ","), " but not for ",
        absl::StrJoin(without, ","), "; set it for all processes or none"));
  }
  if (!with.empty()) {
    for (size_t p = 0; p < processes.size(); ++p) slices[p] = *processes[p].partition_index;
    return slices;
  }
  absl::flat_hash_map<std::string, int32_t> slice_of_boot;
  for (size_t p = 0; p < processes.size(); ++p) {
    auto [it, inserted] = slice_of_boot.try_emplace(processes[p].host.boot_id(),
                                                    static_cast<int32_t>(slice_of_boot.size()));
    slices[p] = it->second;
  }
  return slices;
}

absl::Status CheckLoopback(const std::vector<ProcessTopology>& processes,
                           const std::string& coordinator_address) {
  if (!IsLoopbackAddress(coordinator_address)) return absl::OkStatus();
  std::vector<std::string> boots;
  for (const auto& p : processes) {
    const std::string& boot = p.host.boot_id();
    if (!boot.empty() && std::find(boots.begin(), boots.end(), boot) == boots.end()) {
      boots.push_back(boot);
    }
  }
  if (boots.size() <= 1) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "coordinator address ", coordinator_address, " is a loopback address but the processes run on ",
      boots.size(), " different hosts (distinct boot ids); advertise a routable address"));
}

}  // namespace

bool IsLoopbackAddress(const std::string& address) {
  std::string host = address;
  if (absl::StartsWith(host, "[")) {
    host = host.substr(1, host.find(']') == std::string::npos ? std::string::npos
                                                              : host.find(']') - 1);
  } else if (std::count(host.begin(), host.end(), ':') == 1) {
    host = host.substr(0, host.find(':'));
  }
  return host == "localhost" || host == "::1" || absl::StartsWith(host, "127.");
}

uint64_t TopologyFingerprint(const v1::GlobalTopology& topology) {
  uint64_t hash = 1469598103934665603ull;
  auto mix = [&hash](const std::string& bytes) {
    for (unsigned char c : bytes) {
      hash ^= c;
      hash *= 1099511628211ull;
    }
    hash ^= 0xff;  // separator, so ("ab","c") != ("a","bc")
    hash *= 1099511628211ull;
  };
  for (const auto& device : topology.devices()) {
    std::string bytes;
    google::protobuf::io::StringOutputStream stream(&bytes);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    device.SerializeToCodedStream(&coded);
    coded.Trim();
    mix(bytes);
  }
  for (const auto& host : topology.hosts()) mix(host.boot_id());
  return hash;
}

absl::StatusOr<v1::GlobalTopology> BuildTopology(const std::vector<ProcessTopology>& processes,
                                                 int64_t generation,
                                                 const std::string& coordinator_address) {
  if (absl::Status s = CheckPlatforms(processes); !s.ok()) return s;
  if (absl::Status s = CheckPhysicalIds(processes); !s.ok()) return s;
  if (absl::Status s = CheckLoopback(processes, coordinator_address); !s.ok()) return s;
  absl::StatusOr<std::vector<int32_t>> slices = SliceIndices(processes);
  if (!slices.ok()) return slices.status();

  v1::GlobalTopology topology;
  int32_t next_id = 0;
  for (size_t p = 0; p < processes.size(); ++p) {
    std::vector<const v1::LocalDevice*> local;
    for (const auto& device : processes[p].devices) local.push_back(&device);
    std::stable_sort(local.begin(), local.end(), [](const auto* a, const auto* b) {
      return a->local_ordinal() < b->local_ordinal();
    });
    for (const v1::LocalDevice* device : local) {
      v1::GlobalDevice* global = topology.add_devices();
      global->set_global_id(next_id++);
      global->set_process_id(static_cast<int32_t>(p));
      global->set_slice_index((*slices)[p]);
      *global->mutable_local() = *device;
    }
    *topology.add_hosts() = processes[p].host;
  }
  topology.set_generation(generation);
  topology.set_fingerprint(TopologyFingerprint(topology));
  return topology;
}

}  // namespace tessera::cluster
