// Command-line options of `tessera plan`.
#ifndef TESSERA_CLI_PLAN_OPTIONS_H_
#define TESSERA_CLI_PLAN_OPTIONS_H_

#include <cstdint>
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
};

// Parses the arguments after "plan". InputError naming the option and value.
PlanOptions ParsePlanOptions(const std::vector<std::string>& args);

// "batch=2,model=4". InputError "--mesh '<text>': <problem>".
MeshSpec ParseMeshSpec(const std::string& text);

extern const char kPlanHelp[];

}  // namespace tessera_cli

#endif  // TESSERA_CLI_PLAN_OPTIONS_H_
