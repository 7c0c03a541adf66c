// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera plan --json`: the plan (or the search) as one JSON object whose
// field names are stable (docs/plan.md documents them, schema
// "tessera.plan/1" and "tessera.plan-search/1").
#ifndef TESSERA_CLI_PLAN_JSON_H_
#define TESSERA_CLI_PLAN_JSON_H_

#include <string>

#include "cli/plan.h"
#include "cli/plan_search.h"

namespace tessera_cli {

std::string PlanJson(const Plan& plan);
std::string SearchJson(const Search& search);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_PLAN_JSON_H_
