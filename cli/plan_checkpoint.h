// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera plan --checkpoint`: a checkpoint's tensors placed by the layout
// rules, and the memory each device needs (the recipe's terms, the peak,
// the capacity and the verdict), through the C ABI's
// tessera/experimental/checkpoint_plan.h. `--search` lives beside it in
// plan_search.h and shares the handles made here.
#ifndef TESSERA_CLI_PLAN_CHECKPOINT_H_
#define TESSERA_CLI_PLAN_CHECKPOINT_H_

#include <memory>
#include <string>
#include <vector>

#include "cli/capacity.h"
#include "cli/handles.h"
#include "cli/plan.h"
#include "cli/plan_options.h"
#include "cli/rules.h"

namespace tessera_cli {

using Checkpoint = std::unique_ptr<tessera_checkpoint, Destroyer<tessera_checkpoint, tessera_checkpoint_destroy>>;
using CheckpointPlanOptions =
    std::unique_ptr<tessera_checkpoint_plan_options,
                    Destroyer<tessera_checkpoint_plan_options, tessera_checkpoint_plan_options_destroy>>;

// InputError "--checkpoint '<path>': <the library's message>".
Checkpoint OpenCheckpoint(const std::string& path);

// The plan options of the command line, with `capacities`.
CheckpointPlanOptions MakeCheckpointPlanOptions(const PlanOptions& options, const Capacities& capacities);

// The term names of the recipe, in the order Plan::term_names lists them.
std::vector<std::string> TermNames(const PlanOptions& options);

// The rules of the command line: `path`'s, or none (every tensor replicated).
RuleSet CheckpointRules(const std::string& path);

// The whole plan of --checkpoint. InputError for a checkpoint, mesh, rules
// or capacities the library refuses.
Plan MakeCheckpointPlan(const PlanOptions& options);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_PLAN_CHECKPOINT_H_
