// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/cluster.h: tessera_runtime_initialize and tessera_runtime_is_initialized.
#include <memory>
#include <utility>

#include "capi/client_handles.h"
#include "capi/cluster_handles.h"
#include "capi/guard.h"
#include "core/cluster/runtime.h"
#include "core/status_macros.h"
#include "tessera/cluster.h"

tessera_client* tessera_runtime_initialize(const tessera_cluster_options* options,
                                   tessera_error** out_error) noexcept {
  return tessera::capi::Guard(out_error, [&]() -> absl::StatusOr<tessera_client*> {
    const tessera::cluster::ClusterOptions defaults;
    TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<tessera::cluster::Client> client,
                             tessera::cluster::Initialize(options == nullptr ? defaults : options->impl));
    return new tessera_client{std::move(client)};
  });
}

bool tessera_runtime_is_initialized(void) noexcept { return tessera::cluster::IsInitialized(); }
