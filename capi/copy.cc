// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/copy.h: host scatter and gather.
#include <new>

#include "absl/strings/str_cat.h"

#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/sharding_handle.h"
#include "core/scatter_gather.h"

struct tessera_copy_options {
  tessera::CopyOptions impl;
};

using tessera::capi::Guard;

namespace {

const tessera::CopyOptions& OptionsOrDefault(const tessera_copy_options* options) {
  static const tessera::CopyOptions kDefaults;
  return options == nullptr ? kDefaults : options->impl;
}

}  // namespace

tessera_copy_options* tessera_copy_options_create(void) noexcept {
  return new (std::nothrow) tessera_copy_options();
}

void tessera_copy_options_destroy(tessera_copy_options* options) noexcept { delete options; }

bool tessera_copy_options_set_threads(tessera_copy_options* options, size_t threads,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    options->impl.threads = threads;
    return absl::OkStatus();
  });
}

bool tessera_copy_options_set_verify_replicas(tessera_copy_options* options, bool verify,
                                              tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    options->impl.verify_replicas = verify;
    return absl::OkStatus();
  });
}

bool tessera_copy_options_set_process_index(tessera_copy_options* options,
                                            size_t process_index,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    options->impl.process_index.reset();
    if (process_index == TESSERA_NO_INDEX) return absl::OkStatus();
    TESSERA_ASSIGN_OR_RETURN(options->impl.process_index,
                             tessera::capi::ToInt64(process_index, "process_index"));
    return absl::OkStatus();
  });
}

bool tessera_sharding_scatter(const tessera_sharding* sharding, const void* global, size_t global_size,
                     size_t element_size, void* const* shards, size_t num_shards,
                     const tessera_copy_options* options, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(shards, num_shards);
    return tessera::Scatter(sharding->impl, global, global_size, element_size,
                            absl::MakeConstSpan(shards, num_shards), OptionsOrDefault(options));
  });
}

bool tessera_sharding_gather(const tessera_sharding* sharding, const void* const* shards,
                    size_t num_shards, size_t element_size, void* global, size_t global_size,
                    const tessera_copy_options* options, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE_ARRAY(shards, num_shards);
    return tessera::Gather(sharding->impl, absl::MakeConstSpan(shards, num_shards), element_size,
                           global, global_size, OptionsOrDefault(options));
  });
}

bool tessera_sharding_shard_size(const tessera_sharding* sharding, size_t device_index,
                                 size_t element_size, size_t* out,
                                 tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(sharding);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_RETURN_IF_ERROR(tessera::capi::CheckIndex(
        device_index, static_cast<size_t>(sharding->impl.num_devices()), "device_index",
        "the mesh's device count"));
    TESSERA_ASSIGN_OR_RETURN(*out, tessera::ShardBytes(sharding->impl,
                                                       static_cast<int64_t>(device_index),
                                                       element_size));
    return absl::OkStatus();
  });
}
