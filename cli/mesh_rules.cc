// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "cli/mesh_rules.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera_cli {
namespace {

// Stand-ins for the data() of empty vectors, which may be NULL: the C ABI
// receives a valid pointer with a count of 0.
const char* const kNoNames[1] = {nullptr};
const size_t kNoSizes[1] = {0};

}  // namespace

Layout CreateLayout(const std::vector<AxisGroup>& axes, const tessera_mesh* mesh, tessera_error** error) {
  std::vector<const char*> names;
  std::vector<size_t> group_sizes;
  for (const AxisGroup& group : axes) {
    group_sizes.push_back(group.size());
    for (const std::string& name : group) names.push_back(name.c_str());
  }
  return Layout(tessera_layout_create_grouped(names.empty() ? kNoNames : names.data(), names.size(),
                                              group_sizes.empty() ? kNoSizes : group_sizes.data(),
                                              group_sizes.size(), mesh, error));
}

// Naming the devices (instead of letting the library take every local
// device) lets a mesh have more devices than this process has.
Mesh CreateMesh(const MeshSpec& spec) {
  std::vector<std::string> names;
  for (int64_t i = 0; i < spec.num_devices; ++i) names.push_back("cpu:" + std::to_string(i));
  std::vector<const char*> devices, axes;
  for (const std::string& name : names) devices.push_back(name.c_str());
  for (const std::string& axis : spec.axis_names) axes.push_back(axis.c_str());
  tessera_error* error = nullptr;
  std::unique_ptr<tessera_mesh_options, decltype(&tessera_mesh_options_destroy)> options(
      tessera_mesh_options_create(), tessera_mesh_options_destroy);
  if (!tessera_mesh_options_set_devices(options.get(), devices.data(), devices.size(), &error)) {
    throw InputError("--mesh '" + spec.text + "': " + TakeMessage(error));
  }
  Mesh mesh(tessera_mesh_create(spec.sizes.data(), axes.data(), axes.size(), options.get(), &error));
  if (!mesh) throw InputError("--mesh '" + spec.text + "': " + TakeMessage(error));
  return mesh;
}

LayoutMap CreateLayoutMap(const tessera_mesh* mesh, const RuleSet& rules, tessera_key_match_t match) {
  tessera_error* error = nullptr;
  LayoutMap map(tessera_layout_map_create(mesh, match, &error));
  if (!map) throw InputError("layout map: " + TakeMessage(error));
  for (const Rule& rule : rules.rules) {
    Layout layout = CreateLayout(rule.axes, mesh, &error);
    if (!layout || !tessera_layout_map_set(map.get(), rule.pattern.c_str(), layout.get(), &error)) {
      throw InputError(rules.source + ":" + std::to_string(rule.line) + ": rule '" + rule.pattern + "': " +
                       TakeMessage(error));
    }
  }
  return map;
}

}  // namespace tessera_cli
