// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The definitions behind tessera_read_options and tessera_read_plan, shared
// by the glue that makes read plans (checkpoint_load.h, checkpoint_restore.h).
// Private to capi/.
#ifndef TESSERA_CAPI_READ_PLAN_HANDLE_H_
#define TESSERA_CAPI_READ_PLAN_HANDLE_H_

#include "core/checkpoint/loader.h"
#include "core/checkpoint/read_plan.h"

struct tessera_read_options {
  tessera::checkpoint::ReadPlanOptions plan;
  tessera::checkpoint::LoadOptions load;
};

struct tessera_read_plan {
  tessera::checkpoint::ReadPlan impl;
  tessera::checkpoint::LoadOptions load;
};

#endif  // TESSERA_CAPI_READ_PLAN_HANDLE_H_
