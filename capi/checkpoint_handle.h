// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The definition behind tessera_checkpoint, shared by the checkpoint glue
// (metadata, read plans). Private to capi/.
#ifndef TESSERA_CAPI_CHECKPOINT_HANDLE_H_
#define TESSERA_CAPI_CHECKPOINT_HANDLE_H_

#include "core/checkpoint/checkpoint.h"

struct tessera_checkpoint {
  tessera::checkpoint::Checkpoint impl;
};

#endif  // TESSERA_CAPI_CHECKPOINT_HANDLE_H_
