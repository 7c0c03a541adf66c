// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera plan --checkpoint PATH --search N --axes A,B [--rules F]...`:
// every mesh shape of N devices over the axes, with each rules file, ranked
// by the largest per-device peak among those that fit; each rejected one
// with its reason (the C ABI's tessera_checkpoint_plan_search).
#ifndef TESSERA_CLI_PLAN_SEARCH_H_
#define TESSERA_CLI_PLAN_SEARCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cli/plan_options.h"

namespace tessera_cli {

struct Candidate {
  int rank = 0;  // 1 for the best fit, 0 when rejected
  std::string mesh;  // "data=2,model=4"
  std::vector<int64_t> shape;
  std::string rules;  // the rules file, or "none"
  int64_t peak_bytes = 0;
  std::string problem;  // "" when it fits
};

struct Search {
  int64_t num_devices = 0;
  std::vector<std::string> axes;
  std::string checkpoint;
  std::string recipe;
  std::string capacity;  // as Plan::capacity
  std::vector<Candidate> candidates;  // fitting by rank, then the rejected
  int fitting = 0;
};

// InputError for a checkpoint, rules or capacities the library refuses.
Search SearchMeshes(const PlanOptions& options);

// The search as a table.
std::string FormatSearch(const Search& search);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_PLAN_SEARCH_H_
