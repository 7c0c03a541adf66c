// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command-line options of `tessera plan`.
#ifndef TESSERA_CLI_PLAN_OPTIONS_H_
#define TESSERA_CLI_PLAN_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tessera/tessera.h"

namespace tessera_cli {

// The most devices a planned mesh may have (as TESSERA_CPU_DEVICE_COUNT).
constexpr int64_t kMaxMeshDevices = 1048576;

struct MeshSpec {
  std::string text;  // as given, for messages
  std::vector<std::string> axis_names;
  std::vector<int64_t> sizes;
  int64_t num_devices = 0;  // product of sizes, <= kMaxMeshDevices
};

struct PlanOptions {
  MeshSpec mesh;
  std::string rules_path;  // empty: built-in rules
  std::string vars_path;   // empty: built-in variables
  std::string html_path;   // --html: also write the plan as an HTML page there
  int64_t dtype_bytes = 4;
  tessera_key_match_t match = TESSERA_KEY_MATCH_SEARCH;
  tessera_shape_check_t check = TESSERA_SHAPE_CHECK_STRICT;
  bool help = false;
  // The memory model (cli/plan_checkpoint.h).
  std::string checkpoint_path;  // empty: the built-in model or --vars
  std::vector<std::string> rules_paths;  // every --rules, in order (several only with --search)
  std::string recipe = "inference";  // or "training"
  int64_t batch = 0;
  int64_t seq_len = 0;
  std::string dtype;     // a planned cast, "" for none
  std::string kv_dtype;  // "" for the default
  std::vector<int64_t> attention;  // --attention LAYERS,KV_HEADS,HEAD_DIM, or empty
  std::optional<tessera_shard_mode_t> shard_mode;  // --shard-mode, none to follow --check
  // Capacity: --capacity (one value), --inventory (a file), else NVML.
  int64_t capacity = -1;
  std::string capacity_text;
  std::string inventory_path;
  // --search N --axes a,b: every mesh shape of N devices over the axes.
  int64_t search = 0;
  std::vector<std::string> search_axes;
  bool json = false;
};

// Parses the arguments after "plan". InputError naming the option and value.
PlanOptions ParsePlanOptions(const std::vector<std::string>& args);

// "batch=2,model=4". InputError "--mesh '<text>': <problem>".
MeshSpec ParseMeshSpec(const std::string& text);

// "80GiB", "40GB", "512MiB", "1.5TiB", "1000000" (bytes): KB/MB/GB/TB are
// powers of 1000, KiB/MiB/GiB/TiB of 1024, "B" or no unit bytes; a fraction
// is rounded down to whole bytes. InputError "<option> '<text>': ...".
int64_t ParseByteSize(const std::string& text, const std::string& option);

extern const char kPlanHelp[];

}  // namespace tessera_cli

#endif  // TESSERA_CLI_PLAN_OPTIONS_H_
