// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// What one configuration source (the TESSERA_* variables, Keras's and
// DTensor's variables, a launcher) says about the job, and the helpers the
// sources share for reading variables. detect.h merges the sources per field.
#ifndef TESSERA_CORE_CLUSTER_SOURCE_H_
#define TESSERA_CORE_CLUSTER_SOURCE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/cluster/host_port.h"

namespace tessera::cluster {

// Environment variables by name.
using Environment = absl::flat_hash_map<std::string, std::string>;

// The fields a source may supply; unset ones fall through to the next source.
struct Contribution {
  std::optional<HostPort> coordinator;  // port may be unset (a later source or the default supplies it)
  std::string port_formula;             // how coordinator->port was derived; "" when it was given
  std::optional<int64_t> num_processes;
  std::optional<int64_t> process_id;
  std::optional<std::vector<int64_t>> local_device_ids;
  std::optional<std::string> job_id;
  std::vector<std::string> notes;  // caveats for the explanation
};

// A launcher's verdict on the environment.
struct SourceResult {
  enum class State { kAbsent, kPartial, kPresent };
  State state = State::kAbsent;
  Contribution contribution;  // kPresent only
  std::string diagnostic;     // kAbsent/kPartial: why it was skipped; kPresent: what it read
};

// The value of `name`, or nullptr when it is not set.
const std::string* FindVar(const Environment& env, absl::string_view name);

// Which of `names` are set and which are not, in the order given.
struct Presence {
  std::vector<std::string> present;
  std::vector<std::string> missing;
  bool all() const { return missing.empty(); }
  bool none() const { return present.empty(); }
};
Presence CheckPresence(const Environment& env, absl::Span<const char* const> names);

// "A, B present but C missing" / "none of A, B, C set".
std::string DescribePartial(const Presence& presence);
std::string DescribeAbsent(absl::Span<const char* const> names);

// The decimal integer in variable `name` (surrounding whitespace allowed, as
// Python's int() does): INVALID_ARGUMENT "Environment variable X must be an
// integer, got \"v\"" otherwise.
absl::StatusOr<int64_t> ParseIntVar(absl::string_view name, absl::string_view value);

// ParseIntVar plus a lower bound (e.g. ">= 0" for ids, ">= 1" for counts).
absl::StatusOr<int64_t> ParseIntVarAtLeast(absl::string_view name, absl::string_view value, int64_t min);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_SOURCE_H_
