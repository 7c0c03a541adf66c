// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/formats/shardy.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/formats/text_cursor.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

constexpr char kShardingWhat[] = "Shardy sharding text";
constexpr char kMeshWhat[] = "Shardy mesh text";

// llvm::printEscapedString, which MLIR's printString uses: a backslash
// doubled, printable ASCII other than '"' as is, any other byte as \XX.
std::string MlirString(absl::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "\"";
  for (const unsigned char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c < 0x7F && c != '"') {
      out += static_cast<char>(c);
    } else {
      out += '\\';
      out += kHex[c >> 4];
      out += kHex[c & 0x0F];
    }
  }
  return out + "\"";
}

// MLIR's printKeywordOrString, for symbol names: bare when the name is a
// bare identifier, a string literal otherwise.
std::string MlirSymbol(absl::string_view name) {
  const bool bare =
      !name.empty() && (absl::ascii_isalpha(name[0]) || name[0] == '_') &&
      std::all_of(name.begin() + 1, name.end(), [](char c) {
        return absl::ascii_isalnum(c) || c == '_' || c == '$' || c == '.';
      });
  return absl::StrCat("@", bare ? std::string(name) : MlirString(name));
}

absl::Status CheckMeshName(absl::string_view mesh_name) {
  if (!mesh_name.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "Argument 'mesh_name' is \"\": expected a non-empty name for the Shardy mesh");
}

// <["x"=2, "y"=4]> or <["x"=4], device_ids=[0, 2, 1, 3]>: the mesh attribute
// as it prints inside sdy.mesh and inline after `mesh`.
std::string MeshAttrText(const DeviceMesh& mesh) {
  std::vector<std::string> axes;
  for (size_t i = 0; i < mesh.rank(); ++i) {
    axes.push_back(absl::StrCat(MlirString(mesh.axis_names()[i]), "=", mesh.shape()[i]));
  }
  std::string text = absl::StrCat("<[", absl::StrJoin(axes, ", "), "]");
  // The logical ids: each device's rank among the mesh's ids (see shardy.h).
  std::vector<int64_t> sorted_ids;
  for (const Device& device : mesh.devices()) sorted_ids.push_back(device.id);
  std::sort(sorted_ids.begin(), sorted_ids.end());
  std::vector<int64_t> logical_ids;
  bool iota = true;
  for (const Device& device : mesh.devices()) {
    const int64_t logical_id =
        std::lower_bound(sorted_ids.begin(), sorted_ids.end(), device.id) - sorted_ids.begin();
    iota = iota && logical_id == static_cast<int64_t>(logical_ids.size());
    logical_ids.push_back(logical_id);
  }
  if (!iota) absl::StrAppend(&text, ", device_ids=[", absl::StrJoin(logical_ids, ", "), "]");
  return text + ">";
}

// A mesh attribute as parsed, with where each part began (for messages).
struct ParsedMesh {
  ShardyMeshDescription description;
  std::vector<size_t> axis_positions;
  size_t device_ids_position = 0;
  bool has_device_ids = false;
};

// An MLIR integer, which may be negative (Shardy's verifier, not its parser,
// refuses negative sizes and ids).
absl::StatusOr<int64_t> ExpectSignedInt(TextCursor& cursor) {
  const bool negative = cursor.TryConsume("-");
  TESSERA_ASSIGN_OR_RETURN(const int64_t value, cursor.ExpectInt());
  return negative ? -value : value;
}

// Shardy's MeshAttr::verify, in its order and with its messages; a mesh
// without axes (Shardy's empty and maximal meshes) is refused as Tessera
// meshes have at least one axis.
absl::Status VerifyMesh(TextCursor& cursor, const ParsedMesh& mesh, size_t start) {
  const ShardyMeshDescription& d = mesh.description;
  for (const int64_t id : d.device_ids) {
    if (id < 0) {
      return cursor.ErrorAt(mesh.device_ids_position, "device_ids",
                            absl::StrCat("holds a negative id: device id must be non-negative, got: ", id));
    }
  }
  if (d.shape.empty()) {
    return cursor.ErrorAt(start, "<", "opens a mesh without axes (an empty or maximal Shardy mesh): "
                                      "a Tessera mesh has at least one axis");
  }
  absl::flat_hash_set<std::string> seen;
  for (size_t i = 0; i < d.axis_names.size(); ++i) {
    if (!seen.insert(d.axis_names[i]).second) {
      return cursor.ErrorAt(mesh.axis_positions[i], MlirString(d.axis_names[i]),
                            absl::StrCat("names an axis twice: duplicate axis name: ",
                                         MlirString(d.axis_names[i])));
    }
  }
  if (!mesh.has_device_ids) return absl::OkStatus();
  if (d.size != static_cast<int64_t>(d.device_ids.size())) {
    return cursor.ErrorAt(mesh.device_ids_position, "device_ids",
                          absl::StrCat("has the wrong length: total product of axis sizes must match "
                                       "total number of device ids, got: ",
                                       d.size, " != ", d.device_ids.size()));
  }
  std::vector<int64_t> sorted = d.device_ids;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> iota(sorted.size());
  std::iota(iota.begin(), iota.end(), 0);
  if (sorted != iota) {
    return cursor.ErrorAt(mesh.device_ids_position, "device_ids",
                          absl::StrCat("is not a permutation: sorted device ids must be "
                                       "iota(product(axes)), got: [",
                                       absl::StrJoin(sorted, ", "), "]"));
  }
  if (d.device_ids == iota) {
    return cursor.ErrorAt(mesh.device_ids_position, "device_ids",
                          "is iota: if the ordered device ids are the same as iota(product(axes)), "
                          "no need to specify them for simplicity");
  }
  return absl::OkStatus();
}

// <[ "x"=2, ... ] (, device_ids=[...])? >, verified.
absl::StatusOr<ParsedMesh> ParseMeshAttr(TextCursor& cursor) {
  cursor.SkipSpace();
  const size_t start = cursor.position();
  TESSERA_RETURN_IF_ERROR(cursor.Expect("<"));
  TESSERA_RETURN_IF_ERROR(cursor.Expect("["));
  ParsedMesh mesh;
  ShardyMeshDescription& d = mesh.description;
  while (!cursor.TryConsume("]")) {
    if (!d.shape.empty()) TESSERA_RETURN_IF_ERROR(cursor.Expect(","));
    cursor.SkipSpace();
    mesh.axis_positions.push_back(cursor.position());
    TESSERA_ASSIGN_OR_RETURN(std::string name, cursor.ExpectMlirString());
    TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
    cursor.SkipSpace();
    const size_t size_position = cursor.position();
    TESSERA_ASSIGN_OR_RETURN(const int64_t size, ExpectSignedInt(cursor));
    if (size < 1) {  // MeshAxisAttr::verify, which runs as each axis is built
      return cursor.ErrorAt(size_position, absl::StrCat(size),
                            absl::StrCat("is not an axis size: axis size must be at least 1, got: ", size));
    }
    if (d.size > std::numeric_limits<int64_t>::max() / size) {
      return cursor.ErrorAt(size_position, absl::StrCat(size),
                            "makes the mesh's size overflow int64");
    }
    d.size *= size;
    d.axis_names.push_back(std::move(name));
    d.shape.push_back(size);
  }
  if (cursor.TryConsume(",")) {
    cursor.SkipSpace();
    mesh.device_ids_position = cursor.position();
    if (!cursor.TryConsumeWord("device_ids")) return cursor.Error("'device_ids'");
    mesh.has_device_ids = true;
    TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
    TESSERA_RETURN_IF_ERROR(cursor.Expect("["));
    do {
      TESSERA_ASSIGN_OR_RETURN(const int64_t id, ExpectSignedInt(cursor));
      d.device_ids.push_back(id);
    } while (cursor.TryConsume(","));
    TESSERA_RETURN_IF_ERROR(cursor.Expect("]"));
  }
  TESSERA_RETURN_IF_ERROR(cursor.Expect(">"));
  TESSERA_RETURN_IF_ERROR(VerifyMesh(cursor, mesh, start));
  return mesh;
}

bool SameMesh(const ShardyMeshDescription& a, const ShardyMeshDescription& b) {
  return a.shape == b.shape && a.axis_names == b.axis_names && a.device_ids == b.device_ids;
}

// One axis reference of a sharding, checked as Shardy's verifier checks it
// (an axis of the mesh, not used before); sub-axes are refused. Returns the
// axis's index in the mesh.
absl::StatusOr<size_t> ParseAxisRef(TextCursor& cursor, const ShardyMeshDescription& mesh,
                                    absl::flat_hash_set<std::string>& used, AxisGroup& into) {
  cursor.SkipSpace();
  const size_t at = cursor.position();
  TESSERA_ASSIGN_OR_RETURN(std::string axis, cursor.ExpectMlirString());
  cursor.SkipSpace();
  if (cursor.PeekToken() == ":") {
    return cursor.ErrorAt(cursor.position(), ":",
                          absl::StrCat("starts a sub-axis of ", MlirString(axis),
                                       ": Tessera layouts have no sub-axes"));
  }
  const auto found = std::find(mesh.axis_names.begin(), mesh.axis_names.end(), axis);
  if (found == mesh.axis_names.end()) {
    return cursor.ErrorAt(at, MlirString(axis),
                          absl::StrCat("is not an axis of the mesh: unknown axis name: ", MlirString(axis)));
  }
  if (!used.insert(axis).second) {
    return cursor.ErrorAt(at, MlirString(axis),
                          absl::StrCat("is used twice: duplicate axis ref: ", MlirString(axis)));
  }
  into.push_back(std::move(axis));
  return static_cast<size_t>(found - mesh.axis_names.begin());
}

// Reads one dimension sharding, {"x", "y"}, {}, {?} or {"x", ?}, checking
// each axis against the mesh and the axes already used.
absl::StatusOr<AxisGroup> ParseDim(TextCursor& cursor, const ShardyMeshDescription& mesh,
                                   absl::flat_hash_set<std::string>& used) {
  TESSERA_RETURN_IF_ERROR(cursor.Expect("{"));
  AxisGroup axes;
  while (!cursor.TryConsume("}")) {
    if (!axes.empty()) TESSERA_RETURN_IF_ERROR(cursor.Expect(","));
    if (cursor.TryConsume("?")) {  // open: read as its axes (see shardy.h)
      TESSERA_RETURN_IF_ERROR(cursor.Expect("}"));
      break;
    }
    TESSERA_RETURN_IF_ERROR(ParseAxisRef(cursor, mesh, used, axes).status());
  }
  cursor.SkipSpace();
  if (!cursor.PeekToken().empty() && cursor.PeekToken()[0] == 'p') {
    return cursor.ErrorAt(cursor.position(), cursor.PeekToken(),
                          "is a priority: Tessera layouts have no sharding priorities");
  }
  return axes;
}

// , replicated={"x", ...}: checked as Shardy checks it (axes of the mesh,
// not used elsewhere, in mesh order) and dropped.
absl::Status ParseReplicatedAxes(TextCursor& cursor, const ShardyMeshDescription& mesh,
                                 absl::flat_hash_set<std::string>& used) {
  TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
  TESSERA_RETURN_IF_ERROR(cursor.Expect("{"));
  AxisGroup axes;
  size_t previous_index = 0;
  while (!cursor.TryConsume("}")) {
    if (!axes.empty()) TESSERA_RETURN_IF_ERROR(cursor.Expect(","));
    cursor.SkipSpace();
    const size_t at = cursor.position();
    TESSERA_ASSIGN_OR_RETURN(const size_t index, ParseAxisRef(cursor, mesh, used, axes));
    if (axes.size() > 1 && index < previous_index) {
      return cursor.ErrorAt(at, MlirString(axes.back()),
                            "is out of mesh order: replicated axes are not ordered w.r.t. mesh");
    }
    previous_index = index;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<AxisGroup>> ParseSharding(absl::string_view text,
                                                     const ShardyMeshDescription& mesh) {
  TextCursor cursor(text, kShardingWhat);
  if (cursor.TryConsume("#")) {
    TESSERA_RETURN_IF_ERROR(cursor.Expect("sdy.sharding"));
  }
  TESSERA_RETURN_IF_ERROR(cursor.Expect("<"));
  cursor.SkipSpace();
  const size_t mesh_at = cursor.position();
  if (cursor.TryConsume("@")) {
    TESSERA_ASSIGN_OR_RETURN(const std::string name, cursor.ExpectMlirSymbolName());
    if (name != mesh.name) {
      return cursor.ErrorAt(mesh_at, MlirSymbol(name),
                            absl::StrCat("is not the mesh given (", MlirSymbol(mesh.name),
                                         "): unknown mesh: ", MlirSymbol(name)));
    }
  } else if (cursor.TryConsumeWord("mesh")) {
    TESSERA_ASSIGN_OR_RETURN(const ParsedMesh inline_mesh, ParseMeshAttr(cursor));
    if (!SameMesh(inline_mesh.description, mesh)) {
      return cursor.ErrorAt(mesh_at, "mesh", absl::StrCat("inlines a mesh other than the one given (",
                                                          MlirSymbol(mesh.name), ")"));
    }
  } else {
    return cursor.Error("'@' and a mesh name, or an inline 'mesh<...>'");
  }
  TESSERA_RETURN_IF_ERROR(cursor.Expect(","));
  TESSERA_RETURN_IF_ERROR(cursor.Expect("["));
  std::vector<AxisGroup> dims;
  absl::flat_hash_set<std::string> used;
  while (!cursor.TryConsume("]")) {
    if (!dims.empty()) TESSERA_RETURN_IF_ERROR(cursor.Expect(","));
    TESSERA_ASSIGN_OR_RETURN(AxisGroup axes, ParseDim(cursor, mesh, used));
    dims.push_back(std::move(axes));
  }
  // Shardy prints replicated={...} before unreduced={...}.
  const auto refuse_unreduced = [&cursor]() {
    return cursor.ErrorAt(cursor.position(), "unreduced",
                          "lists unreduced axes: Tessera layouts have none");
  };
  if (cursor.TryConsume(",")) {
    cursor.SkipSpace();
    if (cursor.PeekToken() == "unreduced") return refuse_unreduced();
    if (!cursor.TryConsumeWord("replicated")) return cursor.Error("'replicated' or 'unreduced'");
    TESSERA_RETURN_IF_ERROR(ParseReplicatedAxes(cursor, mesh, used));
    if (cursor.TryConsume(",")) {
      cursor.SkipSpace();
      if (cursor.PeekToken() == "unreduced") return refuse_unreduced();
      return cursor.Error("'unreduced'");
    }
  }
  TESSERA_RETURN_IF_ERROR(cursor.Expect(">"));
  TESSERA_RETURN_IF_ERROR(cursor.ExpectEnd());
  return dims;
}

}  // namespace

absl::StatusOr<std::string> ShardyShardingText(const TensorLayout& layout, absl::string_view mesh_name) {
  TESSERA_RETURN_IF_ERROR(CheckMeshName(mesh_name));
  std::vector<std::string> dims;
  for (const AxisGroup& group : layout.axes()) {
    std::vector<std::string> axes;
    for (const std::string& axis : group) axes.push_back(MlirString(axis));
    dims.push_back(absl::StrCat("{", absl::StrJoin(axes, ", "), "}"));
  }
  return absl::StrCat("#sdy.sharding<", MlirSymbol(mesh_name), ", [", absl::StrJoin(dims, ", "), "]>");
}

absl::StatusOr<std::string> ShardyMeshText(const DeviceMesh& mesh, absl::string_view mesh_name) {
  TESSERA_RETURN_IF_ERROR(CheckMeshName(mesh_name));
  return absl::StrCat("sdy.mesh ", MlirSymbol(mesh_name), " = ", MeshAttrText(mesh));
}

absl::StatusOr<ShardyMeshDescription> ParseShardyMesh(absl::string_view text) {
  TextCursor cursor(text, kMeshWhat);
  TESSERA_RETURN_IF_ERROR(cursor.Expect("sdy.mesh"));
  TESSERA_RETURN_IF_ERROR(cursor.Expect("@"));
  const size_t name_at = cursor.position();
  TESSERA_ASSIGN_OR_RETURN(std::string name, cursor.ExpectMlirSymbolName());
  if (name.empty()) {  // printing refuses it too: MLIR symbols have names
    return cursor.ErrorAt(name_at, "\"\"", "is an empty mesh name: expected a non-empty name");
  }
  TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
  TESSERA_ASSIGN_OR_RETURN(ParsedMesh mesh, ParseMeshAttr(cursor));
  TESSERA_RETURN_IF_ERROR(cursor.ExpectEnd());
  mesh.description.name = std::move(name);
  return std::move(mesh.description);
}

namespace {

absl::StatusOr<MeshPtr> MeshOf(ShardyMeshDescription description, std::vector<Device> assignment) {
  if (assignment.empty()) {
    TESSERA_ASSIGN_OR_RETURN(assignment, ListDevices());
  }
  if (static_cast<int64_t>(assignment.size()) != description.size) {
    return absl::InvalidArgumentError(absl::StrCat("The Shardy mesh ", MlirSymbol(description.name), " has ",
                                                   description.size, " devices, but the device assignment has ",
                                                   assignment.size()));
  }
  std::vector<Device> devices = description.device_ids.empty() ? std::move(assignment) : std::vector<Device>{};
  for (const int64_t id : description.device_ids) devices.push_back(assignment[id]);
  return DeviceMesh::Create(std::move(description.shape), std::move(description.axis_names),
                            std::move(devices));
}

}  // namespace

absl::StatusOr<MeshPtr> MeshFromShardyText(absl::string_view text, std::vector<Device> assignment) {
  TESSERA_ASSIGN_OR_RETURN(ShardyMeshDescription description, ParseShardyMesh(text));
  return MeshOf(std::move(description), std::move(assignment));
}

absl::StatusOr<TensorLayout> LayoutFromShardyText(absl::string_view sharding_text,
                                                  absl::string_view mesh_text,
                                                  std::vector<Device> assignment) {
  TESSERA_ASSIGN_OR_RETURN(ShardyMeshDescription description, ParseShardyMesh(mesh_text));
  TESSERA_ASSIGN_OR_RETURN(std::vector<AxisGroup> dims, ParseSharding(sharding_text, description));
  TESSERA_ASSIGN_OR_RETURN(MeshPtr mesh, MeshOf(std::move(description), std::move(assignment)));
  return TensorLayout::Create(std::move(dims), std::move(mesh));
}

}  // namespace tessera
