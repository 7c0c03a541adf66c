// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// `tessera plan`: from a mesh, layout rules and variables to one row per
// variable and the bytes each device holds, all through the C ABI.
#ifndef TESSERA_CLI_PLAN_H_
#define TESSERA_CLI_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cli/handles.h"
#include "cli/mesh_rules.h"
#include "cli/plan_options.h"
#include "cli/rules.h"
#include "cli/variables.h"

namespace tessera_cli {

// Where a variable's dimensions go: per dimension, the positions of the mesh
// axes it is split over, major first (empty: replicated).
struct Placement {
  std::vector<int64_t> dims;
  std::vector<std::vector<size_t>> dim_axes;
};

struct Row {
  std::string name;
  std::string dtype;        // "BF16" (a checkpoint's type, or the planned one), or "4 bytes"
  std::string rule;         // the key that selected the layout, or "-"
  std::string layout;       // "(None, model)", or "-" when none could be chosen
  std::string shape;        // "(768, 2304)"
  std::string shard_shape;  // the largest per-device shard, or "-"
  int64_t shard_bytes = -1; // -1 when the variable cannot be placed
  std::string fit;          // "ok", or why the layout does not fit
  bool flagged = false;
  std::vector<int64_t> dims;        // the shape, for --json
  std::vector<AxisGroup> axes;      // the layout's axes (empty when none)
  std::vector<int64_t> shard_dims;  // the largest shard (empty when none)
};

struct DeviceTotal {
  std::string device;       // "cpu:3"
  std::string coordinates;  // "batch=0 model=3"
  int64_t bytes = 0;         // the weights this device holds
  int64_t capacity_bytes = -1;  // -1 unknown
  int64_t peak_bytes = 0;    // the sum of `terms`
  std::vector<int64_t> terms;  // one per Plan::term_names
};

struct Plan {
  std::string mesh;     // Keras's repr of the mesh
  std::string devices;  // "cpu:0 .. cpu:7 (7 simulated)"
  std::string rules;    // "7 from <source>, re.search"
  std::string variables;
  std::string check;
  std::vector<Row> rows;
  std::vector<DeviceTotal> totals;
  int64_t parameters = 0;
  int64_t bytes = 0;
  int flagged = 0;
  int unplaced = 0;  // counted as replicated in `totals`
  // The memory model (--checkpoint): what is planned and where capacities
  // came from; the built-in and --vars plans hold weights only.
  std::string recipe = "inference";
  std::string shard_mode = "strict";
  std::vector<std::string> term_names = {"weights"};
  std::string capacity;  // "80GiB for every device", "NVML", or "" when unknown
  std::string kv_cache;  // how the KV cache is divided, why none, or ""
  std::string checkpoint;  // its path, or "" for the built-in and --vars plans
  int not_fitting = 0;     // devices whose peak exceeds their capacity
};

// The axes of `layout` as the CLI writes them (FormatAxes).
std::vector<AxisGroup> AxesOf(const tessera_layout* layout);

// InputError for a mesh the library rejects, a rule it rejects (naming the
// rules source and line) or variables too large to count in bytes.
Plan MakePlan(const PlanOptions& options, const RuleSet& rules, const VariableSet& variables);

// The mesh over "cpu:0".."cpu:N-1" (planning needs no hardware).
// InputError "--mesh '<text>': ..." when the library rejects it.
Mesh CreateMesh(const MeshSpec& spec);

// "cpu:0 .. cpu:7 (7 simulated)".
std::string DescribeDevices(const MeshSpec& spec);

// A layout map on `mesh` with `rules`; InputError naming the rules source and line.
LayoutMap CreateLayoutMap(const tessera_mesh* mesh, const RuleSet& rules, tessera_key_match_t match);

// The axes of `layout` as the CLI writes them.
std::vector<AxisGroup> AxesOf(const tessera_layout* layout);

// Keras's repr of `mesh`.
std::string MeshRepr(const tessera_mesh* mesh);

// One total per device of `mesh`, in mesh order, with its name and
// coordinates and no bytes yet.
std::vector<DeviceTotal> DeviceLabels(const tessera_mesh* mesh);

// Fills each total's capacity (when `capacities` is not empty: one for all,
// or one per device) and counts in plan->not_fitting the devices whose peak
// exceeds it.
void ApplyCapacities(const std::vector<int64_t>& capacities, Plan* plan);

// The bytes of one variable on the device at `coords` of a mesh with
// dimensions `mesh_dims`: a dimension split into S shards is cut into chunks
// of ceil(size / S), the last ones shorter or empty.
int64_t DeviceBytes(const Placement& placement, const std::vector<int64_t>& coords,
                    const std::vector<int64_t>& mesh_dims, int64_t dtype_bytes);

}  // namespace tessera_cli

#endif  // TESSERA_CLI_PLAN_H_
