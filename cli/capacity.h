// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Device capacities for `tessera plan`: declared (--capacity, one value for
// every device; --inventory, one line per device for mixed devices) or
// discovered (NVML's total memory of this host's GPUs, through the C ABI's
// local device list).
#ifndef TESSERA_CLI_CAPACITY_H_
#define TESSERA_CLI_CAPACITY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/plan_options.h"

namespace tessera_cli {

struct Capacities {
  std::vector<int64_t> bytes;  // empty: unknown; one: every device; else one per device
  std::string source;          // for the report, "" when unknown
};

// An inventory file: one "DEVICE SIZE" line per device ('#' comments and
// blank lines skipped). DEVICE is "cpu:3", "gpu:3" or "3": the number after
// the last ':' is the logical device; each of 0..num_devices-1 exactly once.
// InputError "<source>:<line>: <problem>".
std::vector<int64_t> ParseInventory(std::string_view text, const std::string& source, int64_t num_devices);

// --capacity, else --inventory, else NVML: the GPUs' memory when there is
// one per device, or one value when they all have the same; else unknown.
Capacities ResolveCapacities(const PlanOptions& options, int64_t num_devices);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_CAPACITY_H_
