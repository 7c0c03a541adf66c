// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// JAX's PartitionSpec and Mesh text for layouts and meshes, both ways.
//
// Printing follows jax's repr (checked against jax 0.10.2): P('x', None),
// P(('x', 'y'),), P('z',), P(). A mesh prints as jax's str of a Mesh without
// axis types, Mesh('x': 2, 'y': 4): Tessera meshes have no axis types, and
// jax's text carries no device ids either (they are given when parsing).
//
// Parsing accepts P(...) and PartitionSpec(...), and canonicalises entries
// as jax does (partition_spec.py): None, '', () and [] are None; ('x',) is
// 'x'; a list is a tuple; UNCONSTRAINED (also P.UNCONSTRAINED and
// PartitionSpec.UNCONSTRAINED) is None for a layout; a tuple inside a tuple
// is an error with jax's message. A trailing comma is allowed. Keyword
// arguments (unreduced=, reduced=) are rejected: layouts have no such sets.
#ifndef TESSERA_CORE_FORMATS_JAX_SPEC_H_
#define TESSERA_CORE_FORMATS_JAX_SPEC_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/mesh.h"

namespace tessera {

// P('x', None) for the axes of a layout.
std::string PartitionSpecText(absl::Span<const AxisGroup> axes);
inline std::string PartitionSpecText(const TensorLayout& layout) {
  return PartitionSpecText(layout.axes());
}

// The canonical entries of a PartitionSpec text (no padding, no checks
// against a mesh). Syntax errors name the position and the token.
absl::StatusOr<std::vector<AxisGroup>> ParsePartitionSpec(absl::string_view text);

// The layout for a tensor of `rank` dims (the spec is padded with None),
// with jax's errors in jax's order: an axis named more than once ("... has
// duplicate entries for `x`, `y`", every repeated axis, sorted), an axis
// `mesh` lacks ("Resource axis: z of P('z',) is not found in mesh: ('x',
// 'y')."), a spec longer than `rank` ("only valid for values of rank at least
// ...", with jax's hint about P() for a scalar). `mesh` may be null (a layout
// to be given a mesh later).
absl::StatusOr<TensorLayout> LayoutFromPartitionSpec(absl::string_view text, MeshPtr mesh,
                                                     size_t rank);

// jax's hint after a rank error when the value is a scalar: " For scalars
// the PartitionSpec should be P()" for rank 0, else "".
std::string ScalarSpecHint(size_t rank);

// Mesh('x': 2, 'y': 4)
std::string JaxMeshText(const DeviceMesh& mesh);

// The shape and axis names of a jax Mesh text: the str form above, with or
// without jax's ", axis_types=(Auto, Explicit, ...)" suffix, or the repr form
// Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(...)). Axis
// types are read and dropped.
struct JaxMeshDescription {
  std::vector<int64_t> shape;
  std::vector<std::string> axis_names;
};
absl::StatusOr<JaxMeshDescription> ParseJaxMesh(absl::string_view text);

// A mesh from jax Mesh text over `devices` (row-major), or over every device
// of the default type when `devices` is empty; DeviceMesh::Create's errors.
absl::StatusOr<MeshPtr> MeshFromJaxText(absl::string_view text, std::vector<Device> devices);

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_JAX_SPEC_H_
