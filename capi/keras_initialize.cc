// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/keras_initialize.h: keras.distribution.initialize's
// argument resolution.
#include "tessera/experimental/keras_initialize.h"

#include <string>
#include <utility>

#include "capi/cluster_handles.h"
#include "capi/guard.h"
#include "core/cluster/framework_env.h"

struct tessera_keras_initialize_options {
  tessera::cluster::KerasInitializeArguments impl;
};

struct tessera_keras_initialize {
  tessera::cluster::KerasInitializeResolution impl;
};

using tessera::capi::Guard;

namespace {

template <typename Set>
bool Setter(tessera_keras_initialize_options* options, tessera_error** out_error, Set&& set) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(options);
    set(options->impl);
    return absl::OkStatus();
  });
}

absl::StatusOr<tessera_keras_initialize*> Resolve(const tessera_keras_initialize_options* options,
                                                  const tessera::cluster::Environment& env) {
  const tessera::cluster::KerasInitializeArguments none;
  TESSERA_ASSIGN_OR_RETURN(tessera::cluster::KerasInitializeResolution resolution,
                           tessera::cluster::ResolveKerasInitialize(options ? options->impl : none, env));
  return new tessera_keras_initialize{std::move(resolution)};
}

}  // namespace

tessera_keras_initialize_options* tessera_keras_initialize_options_create(void) noexcept {
  return Guard(nullptr, []() -> absl::StatusOr<tessera_keras_initialize_options*> {
    return new tessera_keras_initialize_options();
  });
}

void tessera_keras_initialize_options_destroy(tessera_keras_initialize_options* options) noexcept { delete options; }

bool tessera_keras_initialize_options_set_job_addresses(tessera_keras_initialize_options* options,
                                                        const char* job_addresses,
                                                        tessera_error** out_error) noexcept {
  return Setter(options, out_error, [&](tessera::cluster::KerasInitializeArguments& a) {
    if (job_addresses == nullptr) {
      a.job_addresses.reset();
    } else {
      a.job_addresses = std::string(job_addresses);
    }
  });
}

bool tessera_keras_initialize_options_set_num_processes(tessera_keras_initialize_options* options,
                                                        int64_t num_processes, tessera_error** out_error) noexcept {
  return Setter(options, out_error,
                [&](tessera::cluster::KerasInitializeArguments& a) { a.num_processes = num_processes; });
}

bool tessera_keras_initialize_options_set_process_index(tessera_keras_initialize_options* options,
                                                        int64_t process_index, tessera_error** out_error) noexcept {
  return Setter(options, out_error,
                [&](tessera::cluster::KerasInitializeArguments& a) { a.process_id = process_index; });
}

tessera_keras_initialize* tessera_keras_initialize_resolve(const tessera_keras_initialize_options* options,
                                                           tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() { return Resolve(options, tessera::cluster::ProcessEnvironment()); });
}

tessera_keras_initialize* tessera_keras_initialize_resolve_from_env(const tessera_keras_initialize_options* options,
                                                                    const char* const* env, size_t num_env,
                                                                    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_keras_initialize*> {
    TESSERA_ASSIGN_OR_RETURN(const tessera::cluster::Environment parsed,
                             tessera::capi::ParseEnvironment(env, num_env));
    return Resolve(options, parsed);
  });
}

void tessera_keras_initialize_destroy(tessera_keras_initialize* resolution) noexcept { delete resolution; }

const char* tessera_keras_initialize_job_addresses(const tessera_keras_initialize* resolution,
                                                   tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(resolution, resolution->impl.arguments.job_addresses
                                          ? resolution->impl.arguments.job_addresses->c_str()
                                          : static_cast<const char*>(nullptr));
}

size_t tessera_keras_initialize_num_job_addresses(const tessera_keras_initialize* resolution,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(resolution, resolution->impl.job_address_list.size());
}

const char* tessera_keras_initialize_job_address(const tessera_keras_initialize* resolution, size_t index,
                                                 tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(resolution, index, resolution->impl.job_address_list.size(), "the job addresses",
                             resolution->impl.job_address_list[index].c_str());
}

const char* tessera_keras_initialize_coordinator_address(const tessera_keras_initialize* resolution,
                                                         tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(resolution, resolution->impl.coordinator_address
                                          ? resolution->impl.coordinator_address->c_str()
                                          : static_cast<const char*>(nullptr));
}

bool tessera_keras_initialize_has_num_processes(const tessera_keras_initialize* resolution,
                                                tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(resolution, resolution->impl.arguments.num_processes.has_value());
}

int64_t tessera_keras_initialize_num_processes(const tessera_keras_initialize* resolution,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(resolution, resolution->impl.arguments.num_processes.value_or(0));
}

bool tessera_keras_initialize_has_process_index(const tessera_keras_initialize* resolution,
                                                tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(resolution, resolution->impl.arguments.process_id.has_value());
}

int64_t tessera_keras_initialize_process_index(const tessera_keras_initialize* resolution,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(resolution, resolution->impl.arguments.process_id.value_or(0));
}
