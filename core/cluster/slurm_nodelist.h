// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Slurm's compressed host lists (SLURM_STEP_NODELIST, SLURM_JOB_NODELIST):
// "n001", "n[001-015],h2", "n[001,007-015]", "rack[1-2]-n[01-04]".
//
// A bracket group holds comma-separated numbers and ranges; a range keeps the
// zero padding of its first bound ("n[08-10]" is n08 n09 n10). Several groups
// in one name expand as a product, leftmost slowest, as Slurm's hostlist does.
#ifndef TESSERA_CORE_CLUSTER_SLURM_NODELIST_H_
#define TESSERA_CORE_CLUSTER_SLURM_NODELIST_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessera::cluster {

// Every host, in order. Fails with INVALID_ARGUMENT on malformed text
// (unbalanced brackets, empty entries, a range whose end is below its start)
// and with OUT_OF_RANGE when more than `max_hosts` would be produced, so a
// hostile "n[0-999999999]" cannot exhaust memory.
absl::StatusOr<std::vector<std::string>> ExpandSlurmNodelist(absl::string_view nodelist,
                                                             size_t max_hosts = size_t{1} << 20);

// The first host of the list (where Slurm places task 0 under the default
// block distribution), without expanding the rest; the whole list is still
// validated.
absl::StatusOr<std::string> FirstSlurmHost(absl::string_view nodelist);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_SLURM_NODELIST_H_
