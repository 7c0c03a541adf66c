// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command-line options of `tessera load`.
#ifndef TESSERA_CLI_LOAD_OPTIONS_H_
#define TESSERA_CLI_LOAD_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cli/plan_options.h"

namespace tessera_cli {

struct LoadOptions {
  std::string checkpoint_path;  // required
  MeshSpec mesh;
  std::string rules_path;  // empty: no rules, every tensor replicated
  tessera_key_match_t match = TESSERA_KEY_MATCH_SEARCH;
  tessera_shard_mode_t shard_mode = TESSERA_SHARD_MODE_STRICT;
  int64_t process = 0;
  int64_t num_processes = 1;
  int64_t threads = 0;          // 0: the library's default
  int64_t staging_bytes = -1;   // -1: the library's default
  int64_t gap_bytes = -1;       // -1: the library's default
  bool sha256 = false;
  bool help = false;
};

// Parses the arguments after "load". InputError naming the option and value.
LoadOptions ParseLoadOptions(const std::vector<std::string>& args);

extern const char kLoadHelp[];

// --- Shared with `tessera reshard`, which takes the same options.

// Sets the option `name` of load's table (the value options but --sha256;
// any other name is --gap-bytes) from `value`. InputError naming the option.
void SetLoadOption(const std::string& name, const std::string& value, LoadOptions* options);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_LOAD_OPTIONS_H_
