// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Built with -Dcluster=disabled instead of error_detail.cc: only the cluster
// API attaches a detail to a status, so every error's detail is empty.
#include "capi/error_detail.h"

namespace tessera::capi {

ErrorDetail ErrorDetailOf(const absl::Status&) { return {}; }

}  // namespace tessera::capi
