// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Shardy (MLIR `sdy` dialect) text for layouts and meshes, both ways.
//
// Printing follows Shardy's printers (shardy/dialect/sdy/ir/printers.cc and
// the attrs.td assembly formats) byte for byte:
//   sharding  #sdy.sharding<@mesh, [{"x", "y"}, {}]>   (a scalar: [])
//   mesh      sdy.mesh @mesh = <["x"=2, "y"=4]>
//             sdy.mesh @mesh = <["x"=4], device_ids=[0, 2, 1, 3]>
// Names are quoted and escaped as MLIR prints strings; the mesh name is bare
// when it is an MLIR bare identifier, quoted otherwise. A Tessera layout has
// no open dims, priorities, explicit replicated axes, unreduced axes or
// sub-axes, so none is printed: every dim is closed, and the axes a layout
// leaves unused are replicated implicitly, as JAX lowers a NamedSharding.
//
// Shardy's device_ids are logical ids, positions in the executable's device
// assignment (as HloSharding's tile assignments are). Tessera takes the
// assignment to be the mesh's devices sorted by global id, so a mesh over
// devices 0..N-1 prints its ids as they are, and any other mesh prints the
// rank of each id; device_ids is left out when they are iota, as Shardy's
// MeshAttr builder drops it.
//
// Parsing reads what Shardy prints (spaces anywhere between tokens), with or
// without the `#sdy.sharding` prefix, the mesh by reference (@name) or inline
// (mesh<[...]>). Open dims ({?}, {"x", ?}) are read as their axes, as the
// PartitionSpec parser reads UNCONSTRAINED as None, and replicated={...} is
// checked and dropped (unused axes are replicated anyway). Refused, with the
// byte position and the token: sub-axes ("y":(2)2), unreduced={...},
// priorities ({"x"}p1), axis names the mesh lacks and axes used twice
// (Shardy's messages), and meshes Tessera cannot hold (no axes, maximal).
#ifndef TESSERA_CORE_FORMATS_SHARDY_H_
#define TESSERA_CORE_FORMATS_SHARDY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"

namespace tessera {

// The mesh name JAX gives the one mesh of a module.
inline constexpr char kShardyDefaultMeshName[] = "mesh";

// #sdy.sharding<@mesh_name, [...]>; INVALID_ARGUMENT for an empty mesh name.
// The layout's mesh is not needed.
absl::StatusOr<std::string> ShardyShardingText(const TensorLayout& layout,
                                               absl::string_view mesh_name = kShardyDefaultMeshName);

// sdy.mesh @mesh_name = <[...]>; INVALID_ARGUMENT for an empty mesh name.
absl::StatusOr<std::string> ShardyMeshText(const DeviceMesh& mesh,
                                           absl::string_view mesh_name = kShardyDefaultMeshName);

// What a Shardy mesh text says.
struct ShardyMeshDescription {
  std::string name;
  std::vector<int64_t> shape;
  std::vector<std::string> axis_names;
  // The logical id of each device, row-major, as the text lists them; empty
  // when it lists none (iota).
  std::vector<int64_t> device_ids;
  // The number of devices: the product of the axis sizes.
  int64_t size = 1;
};

// `sdy.mesh @name = <[...]>`, checked as Shardy's MeshAttr verifier checks
// it (its messages), and refused when it has no axes or its size overflows
// int64.
absl::StatusOr<ShardyMeshDescription> ParseShardyMesh(absl::string_view text);

// The mesh of a Shardy mesh text: the device at row-major position k is
// assignment[device_ids[k]]. An empty `assignment` means every device of the
// default type (ListDevices()). INVALID_ARGUMENT when the assignment's size
// differs from the mesh's, and DeviceMesh::Create's errors.
absl::StatusOr<MeshPtr> MeshFromShardyText(absl::string_view text, std::vector<Device> assignment);

// The layout of a Shardy sharding text on the mesh of `mesh_text` (as
// MeshFromShardyText builds it). The sharding must name that mesh (@name) or
// inline an equal one.
absl::StatusOr<TensorLayout> LayoutFromShardyText(absl::string_view sharding_text,
                                                  absl::string_view mesh_text,
                                                  std::vector<Device> assignment);

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_SHARDY_H_
