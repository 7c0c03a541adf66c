// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/plan.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "cli/handles.h"
#include "cli/text_input.h"

namespace tessera_cli {
namespace {

// A stand-in for the data() of an empty vector, which may be NULL: the C ABI
// receives a valid pointer with a count of 0.
const int64_t kNoDims[1] = {0};

const int64_t* DimsPtr(const std::vector<int64_t>& dims) {
  return dims.empty() ? kNoDims : dims.data();
}

// Rejects a variable whose bytes, or the bytes of all variables, do not fit
// in int64, so that no later product or sum can overflow: every shard and
// per-device total is bounded by these. A zero dimension does not excuse the
// others (a partial product could still overflow).
int64_t CheckedTotalBytes(const VariableSet& set, int64_t dtype_bytes) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t total = 0;
  for (const Variable& var : set.variables) {
    int64_t bytes = dtype_bytes;
    for (int64_t dim : var.dims) {
      if (dim != 0 && bytes > kMax / dim) {
        throw InputError(set.source + ":" + std::to_string(var.line) + ": variable '" + var.name +
                         "' " + FormatShape(var.dims) + " holds more than 2^63-1 bytes at " +
                         std::to_string(dtype_bytes) + " bytes per element");
      }
      if (dim != 0) bytes *= dim;
    }
    for (int64_t dim : var.dims) {
      if (dim == 0) bytes = 0;
    }
    if (bytes > kMax - total) {
      throw InputError(set.source + ": the variables hold more than 2^63-1 bytes in all");
    }
    total += bytes;
  }
  return total;
}

}  // namespace

std::string DescribeDevices(const MeshSpec& spec) {
  std::string text = spec.num_devices == 1
                         ? "cpu:0"
                         : "cpu:0 .. cpu:" + std::to_string(spec.num_devices - 1);
  size_t num_present = 0;
  tessera_error* error = nullptr;
  if (!tessera_platform_num_devices("cpu", &num_present, &error)) {
    throw InputError("TESSERA_CPU_DEVICE_COUNT: " + TakeMessage(error));
  }
  const auto present = static_cast<int64_t>(num_present);  // a device count fits
  if (present < spec.num_devices) {
    text += " (" + std::to_string(spec.num_devices - present) + " simulated)";
  }
  return text;
}

// The axes of `layout` as the CLI writes them.
std::vector<AxisGroup> AxesOf(const tessera_layout* layout) {
  std::vector<AxisGroup> axes(tessera_layout_num_dims(layout, nullptr));
  for (size_t dim = 0; dim < axes.size(); ++dim) {
    size_t count = 0;
    tessera_layout_dim_num_axes(layout, dim, &count, nullptr);
    for (size_t position = 0; position < count; ++position) {
      axes[dim].push_back(tessera_layout_dim_axis(layout, dim, position, nullptr));
    }
  }
  return axes;
}

namespace {

std::vector<std::vector<size_t>> AxisPositions(const std::vector<AxisGroup>& axes,
                                               const tessera_mesh* mesh) {
  std::vector<std::vector<size_t>> positions(axes.size());
  for (size_t dim = 0; dim < axes.size(); ++dim) {
    for (const std::string& name : axes[dim]) {
      size_t position = 0;
      tessera_mesh_axis_lookup(mesh, name.c_str(), &position, nullptr);
      positions[dim].push_back(position);
    }
  }
  return positions;
}

// Fills the layout columns of `row` from `layout`: its axes, whether it fits,
// and the largest shard. Returns the placement, or replicated (with
// shard_bytes -1) when the layout cannot be placed on this shape at all.
Placement FillLayoutColumns(const tessera_layout* layout, const tessera_mesh* mesh,
                            const Variable& var, const PlanOptions& options, Row* row) {
  std::vector<AxisGroup> axes = AxesOf(layout);
  row->layout = FormatAxes(axes);
  row->axes = axes;
  tessera_error* error = nullptr;
  if (tessera_layout_check_shape(layout, DimsPtr(var.dims), var.dims.size(), options.check,
                                 &error)) {
    row->fit = "ok";
  } else {
    row->fit = TakeMessage(error);
    row->flagged = true;
  }
  std::vector<int64_t> shard(var.dims.size());
  tessera_error* shard_error = nullptr;
  tessera_layout_max_shard_shape(layout, DimsPtr(var.dims), var.dims.size(), shard.data(),
                                 shard.size(), &shard_error);
  if (shard_error != nullptr) {
    tessera_error_destroy(shard_error);
    row->shard_shape = "-";
    return {var.dims, std::vector<std::vector<size_t>>(var.dims.size())};
  }
  row->shard_shape = FormatShape(shard);
  row->shard_dims = shard;
  row->shard_bytes = options.dtype_bytes;
  for (int64_t dim : shard) row->shard_bytes *= dim;
  return {var.dims, AxisPositions(axes, mesh)};
}

// One variable: the rule the map selects (or replicated when none does).
Placement PlanVariable(const tessera_layout_map* map, const tessera_mesh* mesh,
                       const Variable& var, const PlanOptions& options, Row* row) {
  row->name = var.name;
  row->dtype = std::to_string(options.dtype_bytes) + " bytes";
  row->shape = FormatShape(var.dims);
  row->dims = var.dims;
  size_t index = TESSERA_NO_INDEX;
  tessera_error* error = nullptr;
  if (!tessera_layout_map_lookup_rule(map, var.name.c_str(), &index, &error)) {
    row->rule = "(several)";
    row->layout = row->shard_shape = "-";
    row->fit = TakeMessage(error);
    row->flagged = true;
    return {var.dims, std::vector<std::vector<size_t>>(var.dims.size())};
  }
  Layout layout;
  if (index != TESSERA_NO_INDEX) {
    row->rule = tessera_layout_map_key(map, index, nullptr);
    layout.reset(tessera_layout_map_layout(map, index, &error));
  } else {
    row->rule = "-";
    layout.reset(tessera_layout_create_replicated(var.dims.size(), mesh, &error));
  }
  if (!layout) throw InputError("variable '" + var.name + "': " + TakeMessage(error));
  return FillLayoutColumns(layout.get(), mesh, var, options, row);
}

std::vector<int64_t> MeshDims(const tessera_mesh* mesh) {
  std::vector<int64_t> dims(tessera_mesh_num_axes(mesh, nullptr));
  for (size_t i = 0; i < dims.size(); ++i) tessera_mesh_axis_extent(mesh, i, &dims[i], nullptr);
  return dims;
}

std::vector<DeviceTotal> DeviceTotals(const tessera_mesh* mesh,
                                      const std::vector<Placement>& placements,
                                      int64_t dtype_bytes) {
  std::vector<int64_t> mesh_dims = MeshDims(mesh);
  std::vector<DeviceTotal> totals = DeviceLabels(mesh);
  std::vector<int64_t> coords(mesh_dims.size());
  for (size_t i = 0; i < totals.size(); ++i) {
    Device device(tessera_mesh_device(mesh, i, nullptr));
    tessera_mesh_device_coordinates(mesh, tessera_device_id(device.get(), nullptr), coords.data(),
                                    coords.size(), nullptr);
    for (const Placement& placement : placements) {
      totals[i].bytes += DeviceBytes(placement, coords, mesh_dims, dtype_bytes);
    }
    totals[i].peak_bytes = totals[i].bytes;
    totals[i].terms = {totals[i].bytes};
  }
  return totals;
}

}  // namespace

std::vector<DeviceTotal> DeviceLabels(const tessera_mesh* mesh) {
  std::vector<DeviceTotal> totals;
  std::vector<int64_t> coords(tessera_mesh_num_axes(mesh, nullptr));
  for (size_t i = 0; i < tessera_mesh_num_devices(mesh, nullptr); ++i) {
    Device device(tessera_mesh_device(mesh, i, nullptr));
    tessera_mesh_device_coordinates(mesh, tessera_device_id(device.get(), nullptr), coords.data(),
                                    coords.size(), nullptr);
    DeviceTotal total{tessera_device_name(device.get(), nullptr), "", 0};
    for (size_t axis = 0; axis < coords.size(); ++axis) {
      total.coordinates += (axis ? " " : "") +
                           std::string(tessera_mesh_axis_name(mesh, axis, nullptr)) + "=" +
                           std::to_string(coords[axis]);
    }
    totals.push_back(std::move(total));
  }
  return totals;
}

void ApplyCapacities(const std::vector<int64_t>& capacities, Plan* plan) {
  if (capacities.empty()) return;
  for (size_t i = 0; i < plan->totals.size(); ++i) {
    DeviceTotal& total = plan->totals[i];
    total.capacity_bytes = capacities[capacities.size() == 1 ? 0 : i];
    plan->not_fitting += total.peak_bytes > total.capacity_bytes;
  }
}

std::string MeshRepr(const tessera_mesh* mesh) {
  tessera_error* error = nullptr;
  Buffer text(tessera_mesh_to_string(mesh, &error));
  if (!text) throw InputError("--mesh: " + TakeMessage(error));
  return tessera_buffer_data(text.get());
}

int64_t DeviceBytes(const Placement& placement, const std::vector<int64_t>& coords,
                    const std::vector<int64_t>& mesh_dims, int64_t dtype_bytes) {
  int64_t bytes = dtype_bytes;
  for (size_t d = 0; d < placement.dims.size(); ++d) {
    int64_t size = placement.dims[d];
    // The chunk this device holds: its coordinates on the dimension's axes,
    // read as one number (major axis first).
    int64_t shards = 1, index = 0;
    for (size_t axis : placement.dim_axes[d]) {
      shards *= mesh_dims[axis];
      index = index * mesh_dims[axis] + coords[axis];
    }
    int64_t chunk = size / shards + (size % shards != 0);
    int64_t start = (chunk == 0 || index > size / chunk) ? size : index * chunk;
    bytes *= std::min(chunk, size - start);
  }
  return bytes;
}

Plan MakePlan(const PlanOptions& options, const RuleSet& rules, const VariableSet& variables) {
  Plan plan;
  plan.bytes = CheckedTotalBytes(variables, options.dtype_bytes);
  plan.parameters = plan.bytes / options.dtype_bytes;
  Mesh mesh = CreateMesh(options.mesh);
  LayoutMap map = CreateLayoutMap(mesh.get(), rules, options.match);
  plan.mesh = MeshRepr(mesh.get());
  plan.devices = DescribeDevices(options.mesh);
  plan.rules = std::to_string(rules.rules.size()) + " from " + rules.source +
               (options.match == TESSERA_KEY_MATCH_FULL ? ", re.fullmatch" : ", re.search");
  plan.variables = std::to_string(variables.variables.size()) + " from " + variables.source +
                   ", " + std::to_string(options.dtype_bytes) + " bytes per element";
  plan.check = options.check == TESSERA_SHAPE_CHECK_CHUNK ? "chunk (uneven shards allowed)"
                                                          : "strict (shards must divide)";
  std::vector<Placement> placements;
  for (const Variable& var : variables.variables) {
    Row row;
    placements.push_back(PlanVariable(map.get(), mesh.get(), var, options, &row));
    plan.flagged += row.flagged;
    plan.unplaced += row.shard_bytes < 0;
    plan.rows.push_back(std::move(row));
  }
  plan.totals = DeviceTotals(mesh.get(), placements, options.dtype_bytes);
  return plan;
}

}  // namespace tessera_cli
