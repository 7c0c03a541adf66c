// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/shard.h: shard math.
#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/sharding_handle.h"
#include "core/shard.h"

using tessera::capi::CopyOut;
using tessera::capi::FillOut;
using tessera::capi::StartStopPairs;
using tessera::capi::CheckIndex;
using tessera::capi::Guard;
using tessera::capi::ToInt64;

namespace {


// The device index as the core's int64, after the range check that makes the
// conversion exact.
absl::StatusOr<int64_t> DeviceIndex(const tessera_sharding* sharding, size_t device_index) {
  TESSERA_RETURN_IF_ERROR(CheckIndex(device_index,
                                     static_cast<size_t>(sharding->impl.num_devices()),
                                     "device_index", "the mesh's device count"));
  return static_cast<int64_t>(device_index);
}

const std::vector<tessera::DistinctShard>& DistinctShards(const tessera_sharding* sharding) {
  absl::MutexLock lock(&sharding->mutex);
  if (!sharding->distinct) sharding->distinct = sharding->impl.DistinctShards();
  return *sharding->distinct;
}

absl::StatusOr<const tessera::DistinctShard*> DistinctShard(const tessera_sharding* sharding,
                                                             size_t shard) {
  const std::vector<tessera::DistinctShard>& shards = DistinctShards(sharding);
  TESSERA_RETURN_IF_ERROR(
      CheckIndex(shard, shards.size(), "shard", "the number of distinct shards"));
  return &shards[shard];
}

}  // namespace

tessera_sharding* tessera_sharding_create(const tessera_layout* layout, const int64_t* dims,
                                          size_t num_dims, tessera_shard_mode_t mode,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_sharding*> {
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
    TESSERA_ASSIGN_OR_RETURN(
        const tessera::ShardMode core_mode,
        tessera::capi::ToCoreEnum<tessera::ShardMode>(mode, tessera::capi::kShardModeNames, "mode"));
    TESSERA_ASSIGN_OR_RETURN(
        tessera::Sharding sharding,
        tessera::Sharding::Create(*layout->impl, std::vector<int64_t>(dims, dims + num_dims),
                                  core_mode));
    return new tessera_sharding(std::move(sharding));
  });
}

void tessera_sharding_destroy(tessera_sharding* sharding) noexcept { delete sharding; }

size_t tessera_sharding_num_dims(const tessera_sharding* sharding,
                                 tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(sharding, sharding->impl.rank());
}

size_t tessera_sharding_num_devices(const tessera_sharding* sharding,
                                    tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(sharding, static_cast<size_t>(sharding->impl.num_devices()));
}

size_t tessera_sharding_device_ranges(const tessera_sharding* sharding, size_t device_index,
                                      int64_t* out, size_t capacity,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(const int64_t device, DeviceIndex(sharding, device_index));
    TESSERA_ASSIGN_OR_RETURN(const std::vector<tessera::IndexRange> ranges,
                             sharding->impl.DeviceRanges(device));
    return CopyOut(out, capacity, StartStopPairs(ranges));
  });
}

size_t tessera_sharding_shard_shape(const tessera_sharding* sharding, size_t device_index,
                                    int64_t* out, size_t capacity,
                                    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(const int64_t device, DeviceIndex(sharding, device_index));
    return CopyOut(out, capacity, sharding->impl.ShardShape(device));
  });
}

bool tessera_sharding_replica_id(const tessera_sharding* sharding, size_t device_index,
                                 size_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const int64_t device, DeviceIndex(sharding, device_index));
    TESSERA_ASSIGN_OR_RETURN(const int64_t id, sharding->impl.ReplicaId(device));
    *out = static_cast<size_t>(id);  // 0 <= id < the device count
    return absl::OkStatus();
  });
}

bool tessera_sharding_device_in_process(const tessera_sharding* sharding, size_t device_index,
                                        size_t process_index, bool* out,
                                        tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const int64_t device, DeviceIndex(sharding, device_index));
    TESSERA_ASSIGN_OR_RETURN(const int64_t process, ToInt64(process_index, "process_index"));
    TESSERA_ASSIGN_OR_RETURN(*out, sharding->impl.DeviceInProcess(device, process));
    return absl::OkStatus();
  });
}

size_t tessera_sharding_addressable_devices(const tessera_sharding* sharding,
                                            size_t process_index, size_t* out, size_t capacity,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(const int64_t process, ToInt64(process_index, "process_index"));
    TESSERA_ASSIGN_OR_RETURN(const std::vector<tessera::AddressableShard> shards,
                             sharding->impl.AddressableShards(process));
    std::vector<int64_t> devices;
    for (const tessera::AddressableShard& shard : shards) devices.push_back(shard.device_index);
    return CopyOut(out, capacity, devices);
  });
}

// Fills in place: the map of a large mesh is big enough that a copy shows in
// benchmarks/index_map_compare.c.
size_t tessera_sharding_index_map(const tessera_sharding* sharding, int64_t* out, size_t capacity,
                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(const size_t needed, sharding->impl.IndexMapSize());
    return FillOut(out, capacity, needed, [&](absl::Span<int64_t> room) {
      return sharding->impl.FillIndexMap(room);
    });
  });
}

bool tessera_sharding_num_distinct_shards(const tessera_sharding* sharding, size_t* out,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(out);
    *out = DistinctShards(sharding).size();
    return absl::OkStatus();
  });
}

size_t tessera_sharding_distinct_shard_ranges(const tessera_sharding* sharding, size_t shard,
                                              int64_t* out, size_t capacity,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(const tessera::DistinctShard* distinct,
                             DistinctShard(sharding, shard));
    return CopyOut(out, capacity, StartStopPairs(distinct->ranges));
  });
}

bool tessera_sharding_distinct_shard_num_devices(const tessera_sharding* sharding, size_t shard,
                                                 size_t* out, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const tessera::DistinctShard* distinct,
                             DistinctShard(sharding, shard));
    *out = distinct->devices.size();
    return absl::OkStatus();
  });
}

size_t tessera_sharding_distinct_shard_devices(const tessera_sharding* sharding, size_t shard,
                                               size_t* out, size_t capacity,
                                               tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(const tessera::DistinctShard* distinct,
                             DistinctShard(sharding, shard));
    return CopyOut(out, capacity, distinct->devices);
  });
}

size_t tessera_sharding_max_shard_shape(const tessera_sharding* sharding, int64_t* out,
                                        size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY(sharding, sharding->impl.max_shard_shape());
}

bool tessera_sharding_is_fully_replicated(const tessera_sharding* sharding, bool* out,
                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(out);
    *out = sharding->impl.is_fully_replicated();
    return absl::OkStatus();
  });
}
