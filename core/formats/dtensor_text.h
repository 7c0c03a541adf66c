// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TF DTensor's mesh and layout text (reference/dtensor.md §1.3, §2.5):
// values that hold everything the text says, byte-exact printing and strict
// parsing, DTensor's validation with its messages, and conversions to and
// from Tessera's DeviceMesh and TensorLayout.
//
//   mesh   : empty_mesh
//            <device>                                  (single device)
//            <name>|<d>=<n>,...|<gids>|<lids>|<local devices>[|<global devices>][|use_xla_spmd]
//            <name>|<d>=<n>,...|*<TYPE>                (shorthand; expanded)
//   layout : sharding_specs:<spec>,...<,> mesh:<mesh>   (every spec ends in ',')
//            parted:<spec>,... mesh:<mesh>
//            maximal:true, mesh:<device>
//            empty_layout
//
// The mesh and layout values, their checks and their printing live in
// core/dtensor_mesh.h and core/dtensor_layout.h; this file reads the text
// (DTensorLayout::Parse is defined here).
//
// Printing the parse of a text gives the text back, byte for byte, except
// where the text is a shorthand: `*TYPE` (expanded), a `scalar` spec (rank 0,
// printed without specs), a layout's mesh without its optional `mesh:` prefix,
// an empty 7th mesh part, and a mesh without global ids (DTensor makes that
// the empty mesh, `empty_mesh`).
//
// Errors are INVALID_ARGUMENT. Where DTensor has a message, ours starts with
// the same text; every error found in a text ends with where it was found:
// " (at byte 12: 'x=2')", the byte offset from the start of the text given
// to Parse and the token there. Deliberate departures from DTensor's parser,
// which uses unchecked std::stoi and index access:
//   - integers are canonical non-negative decimals ("0", "12", not "+1",
//     "012" or " 1") that fit int64;
//   - list entries and dimension names cannot be empty, a dimension needs
//     "=", and the shorthand's third part must be "*<TYPE>";
//   - a static or parted layout whose last spec lacks its comma is an error
//     (DTensor silently drops that spec), and the single-device layout must
//     read "maximal:true,".
#ifndef TESSERA_CORE_FORMATS_DTENSOR_TEXT_H_
#define TESSERA_CORE_FORMATS_DTENSOR_TEXT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/dtensor_layout.h"
#include "core/dtensor_mesh.h"
#include "core/layout.h"
#include "core/mesh.h"

namespace tessera {

// Parses mesh text (see the top of this file) into a DTensorMesh, with
// DTensorMesh::Create's checks placed in the text.
absl::StatusOr<DTensorMesh> ParseDTensorMesh(absl::string_view text);

// How a Tessera mesh becomes a DTensor mesh.
struct DTensorMeshOptions {
  std::string name;           // DTensor's mesh name
  int64_t process_index = 0;  // the client whose devices are the local ones
  bool use_xla_spmd = false;
};

// A DeviceMesh as DTensor sees it from one client: the dims are the axes,
// the global ids the device ids (row-major), the local ids those of the
// devices of `options.process_index`, each local device named
// "/job:<job>/replica:0/task:<process>/device:<TYPE>:<local ordinal>", with
// TYPE the platform in upper case and job "localhost" when the mesh spans
// one process, "worker" otherwise (DTENSOR_JOB_NAME's defaults). DTensor's
// checks then apply: e.g. axis names any/match/unsharded are reserved, and
// the client must hold an equal share ("Uneven local clusters ...").
absl::StatusOr<DTensorMesh> ToDTensorMesh(const DeviceMesh& mesh,
                                          const DTensorMeshOptions& options = {});

// A tile DTensorMesh as a DeviceMesh: shape and axis names from the dims,
// device ids = global ids, platform from device_type() (CPU/GPU/TPU, any
// case). A local id's device takes its process (task) and ordinal (device
// index) from its local device string, or from the global device strings
// when they are given; any other id at row-major position p follows
// DTensor's own client model (equal blocks of local_ids().size() devices per
// client, in order): process p / L, ordinal p % L. Lost: the name, job and
// replica names, use_xla_spmd and which client the text was written for.
// INVALID_ARGUMENT for an empty or single-device mesh, a mesh with no device
// strings, an unknown type, or what DeviceMesh::Create rejects (duplicate
// ids).
absl::StatusOr<MeshPtr> ToDeviceMesh(const DTensorMesh& mesh);

// A static DTensor layout over ToDTensorMesh(*layout.mesh(), options): a
// replicated dimension is "unsharded", a one-axis dimension that axis.
// INVALID_ARGUMENT for a layout without a mesh or with a dimension split
// over an axis group (DTensor allows one mesh axis per dimension), naming
// the dimension.
absl::StatusOr<DTensorLayout> ToDTensorLayout(const TensorLayout& layout,
                                              const DTensorMeshOptions& options = {});

// As above, over a given DTensor mesh (so its name, jobs and flags are kept);
// the layout's mesh, if any, must equal ToDeviceMesh(mesh).
absl::StatusOr<DTensorLayout> ToDTensorLayout(const TensorLayout& layout,
                                              const DTensorMesh& mesh);

// A static DTensor layout as a TensorLayout on ToDeviceMesh(layout.mesh()).
// INVALID_ARGUMENT for other layout types, or an "any" or "match" spec
// (naming the dimension): Tessera has no equivalent.
absl::StatusOr<TensorLayout> ToTensorLayout(const DTensorLayout& layout);

}  // namespace tessera

#endif  // TESSERA_CORE_FORMATS_DTENSOR_TEXT_H_
