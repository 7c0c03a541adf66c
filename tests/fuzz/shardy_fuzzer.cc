// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shardy text: the first line is a mesh text, the rest a sharding text on
// it (no newline: the whole input is a sharding on a 2x4 mesh). What parses
// prints back as text that parses to the same mesh and layout, under the
// same mesh name.
#include <string>
#include <vector>

#include "core/formats/shardy.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// A device assignment small enough to build; bigger meshes are only parsed.
constexpr int64_t kMaxDevices = 64;

std::vector<tessera::Device> Cpus(int64_t n) {
  std::vector<tessera::Device> devices;
  for (int64_t i = 0; i < n; ++i) devices.emplace_back(i, tessera::Platform::kCpu, 0, i);
  return devices;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tessera;
  const absl::string_view input = fuzz::AsText(data, size);
  const size_t newline = input.find('\n');
  const absl::string_view mesh_text =
      newline == absl::string_view::npos ? R"(sdy.mesh @mesh = <["x"=2, "y"=4]>)" : input.substr(0, newline);
  const absl::string_view sharding_text =
      newline == absl::string_view::npos ? input : input.substr(newline + 1);

  auto description = ParseShardyMesh(mesh_text);
  if (!description.ok()) {
    fuzz::CheckRejection(description.status());
    return 0;
  }
  if (description->size > kMaxDevices) return 0;
  const std::vector<Device> assignment = Cpus(description->size);
  auto mesh = MeshFromShardyText(mesh_text, assignment);
  if (!mesh.ok()) {
    fuzz::CheckRejection(mesh.status());
    return 0;
  }
  const std::string printed_mesh = fuzz::MustParse(ShardyMeshText(**mesh, description->name));
  fuzz::Check(*fuzz::MustParse(MeshFromShardyText(printed_mesh, assignment)) == **mesh);

  auto layout = LayoutFromShardyText(sharding_text, mesh_text, assignment);
  if (!layout.ok()) {
    fuzz::CheckRejection(layout.status());
    return 0;
  }
  const std::string printed = fuzz::MustParse(ShardyShardingText(*layout, description->name));
  fuzz::Check(fuzz::MustParse(LayoutFromShardyText(printed, printed_mesh, assignment)) == *layout);
  return 0;
}
