// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The seam between the error plumbing (guard.cc) and the cluster API: the
// structured detail a cluster status carries. error_detail.cc reads it with
// the cluster API; error_detail_none.cc, built with -Dcluster=disabled, has
// no cluster status to read.
#ifndef TESSERA_CAPI_ERROR_DETAIL_H_
#define TESSERA_CAPI_ERROR_DETAIL_H_

#include "absl/status/status.h"
#include "capi/handles.h"

namespace tessera::capi {

// The cluster detail riding on `status`; the empty detail when there is none.
ErrorDetail ErrorDetailOf(const absl::Status& status);

}  // namespace tessera::capi

#endif  // TESSERA_CAPI_ERROR_DETAIL_H_
