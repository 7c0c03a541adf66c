// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command-line options of `tessera show`.
#ifndef TESSERA_CLI_SHOW_OPTIONS_H_
#define TESSERA_CLI_SHOW_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cli/plan_options.h"
#include "tessera/tessera.h"

namespace tessera_cli {

enum class ColourWhen { kAuto, kAlways, kNever };

struct ShowOptions {
  MeshSpec mesh;             // num_devices 0: not given
  std::string layout;        // --layout, as written
  std::string rules_path;    // --rules
  tessera_key_match_t match = TESSERA_KEY_MATCH_SEARCH;  // how --rules patterns match
  std::string name;          // --name
  std::string shape;         // --shape, as written
  std::string checkpoint;    // --checkpoint
  tessera_shard_mode_t mode = TESSERA_SHARD_MODE_STRICT;
  int64_t width = 0;         // 0: the terminal's width, else 80
  ColourWhen colour = ColourWhen::kAuto;
  bool help = false;
};

// Parses the arguments after "show" and checks that they name one layout and
// one shape. InputError naming the option and value.
ShowOptions ParseShowOptions(const std::vector<std::string>& args);

extern const char kShowHelp[];

}  // namespace tessera_cli

#endif  // TESSERA_CLI_SHOW_OPTIONS_H_
