// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/formats/jax_spec.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/formats/text_cursor.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

constexpr char kSpecWhat[] = "PartitionSpec text";
constexpr char kMeshWhat[] = "jax Mesh text";

// One element of a tuple entry, kept as the Python value jax sees: a name,
// None, or a nested tuple or list (which jax rejects, printing it whole).
struct TupleMember {
  size_t position = 0;
  std::string repr;
  std::optional<std::string> axis;  // set for a str
  bool is_sequence = false;
};

absl::StatusOr<TupleMember> ParseTupleMember(TextCursor& cursor, int depth);

// The rest of a tuple or list after its opening bracket, as its members.
absl::StatusOr<std::vector<TupleMember>> ParseSequence(TextCursor& cursor, absl::string_view close,
                                                       int depth) {
  std::vector<TupleMember> members;
  while (!cursor.TryConsume(close)) {
    TESSERA_ASSIGN_OR_RETURN(TupleMember member, ParseTupleMember(cursor, depth));
    members.push_back(std::move(member));
    if (cursor.TryConsume(",")) continue;
    TESSERA_RETURN_IF_ERROR(cursor.Expect(close));
    break;
  }
  return members;
}

std::string SequenceRepr(const std::vector<TupleMember>& members, bool is_list) {
  std::vector<std::string> reprs;
  for (const TupleMember& m : members) reprs.push_back(m.repr);
  if (is_list) return absl::StrCat("[", absl::StrJoin(reprs, ", "), "]");
  return PyTupleRepr(reprs);
}

// Nesting deeper than this is refused before it can exhaust the stack.
constexpr int kMaxNesting = 32;

absl::StatusOr<TupleMember> ParseTupleMember(TextCursor& cursor, int depth) {
  cursor.SkipSpace();
  TupleMember member;
  member.position = cursor.position();
  const absl::string_view token = cursor.PeekToken();
  if (token == "(" || token == "[") {
    if (depth >= kMaxNesting) return cursor.Error(absl::StrCat("at most ", kMaxNesting, " nested tuples"));
    cursor.TryConsume(token);
    const bool is_list = token == "[";
    TESSERA_ASSIGN_OR_RETURN(std::vector<TupleMember> inner,
                             ParseSequence(cursor, is_list ? "]" : ")", depth + 1));
    member.repr = SequenceRepr(inner, is_list);
    member.is_sequence = true;
    return member;
  }
  if (cursor.TryConsumeWord("None")) {
    member.repr = "None";
    return member;
  }
  TESSERA_ASSIGN_OR_RETURN(std::string axis, cursor.ExpectPyString());
  member.repr = PyStrRepr(axis);
  member.axis = std::move(axis);
  return member;
}

// A member of a spec entry as jax keeps it: an axis name, or None (nullopt),
// which a tuple may hold (jax then reports it as a resource axis).
struct SpecMember {
  std::optional<std::string> axis;
  size_t position = 0;
};
using SpecEntry = std::vector<SpecMember>;  // empty: None

// ( ... ) or [ ... ] of axis names; `close` is the matching bracket.
absl::StatusOr<SpecEntry> ParseTuple(TextCursor& cursor, absl::string_view close) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<TupleMember> members, ParseSequence(cursor, close, 1));
  // jax's canonicalisation (jaxlib partition_spec.cc) rejects the first
  // nested tuple or list, printing the entry and that member.
  for (const TupleMember& m : members) {
    if (!m.is_sequence) continue;
    return absl::InvalidArgumentError(absl::StrCat(
        kSpecWhat, ": at position ", m.position,
        ": A tuple inside PartitionSpec cannot contain a nested tuple. Got partition: ",
        SequenceRepr(members, close == "]"), " and the nested tuple: ", m.repr));
  }
  SpecEntry entry;
  for (TupleMember& m : members) {
    // '' inside a tuple names no axis and has no use in a layout.
    if (m.axis.has_value() && m.axis->empty()) {
      return cursor.ErrorAt(m.position, m.repr, "is not an axis name inside a tuple");
    }
    entry.push_back({std::move(m.axis), m.position});
  }
  // () is None and ('x',) is 'x': already what an entry means; (None,) is None.
  if (entry.size() == 1 && !entry[0].axis.has_value()) entry.clear();
  return entry;
}

bool TryConsumeUnconstrained(TextCursor& cursor) {
  for (const char* prefix : {"P.", "PartitionSpec."}) {
    if (cursor.TryConsume(absl::StrCat(prefix, "UNCONSTRAINED"))) return true;
  }
  return cursor.TryConsumeWord("UNCONSTRAINED");
}

absl::StatusOr<SpecEntry> ParseEntry(TextCursor& cursor) {
  if (cursor.TryConsumeWord("None") || TryConsumeUnconstrained(cursor)) return SpecEntry{};
  if (cursor.TryConsume("(")) return ParseTuple(cursor, ")");
  if (cursor.TryConsume("[")) return ParseTuple(cursor, "]");
  cursor.SkipSpace();
  const char next = cursor.PeekToken().empty() ? '\0' : cursor.PeekToken()[0];
  if (next != '\'' && next != '"') {
    return cursor.Error("an axis name, a tuple of axis names, None or UNCONSTRAINED");
  }
  const size_t at = cursor.position();
  TESSERA_ASSIGN_OR_RETURN(std::string axis, cursor.ExpectPyString());
  if (axis.empty()) return SpecEntry{};  // '' is falsy: None
  return SpecEntry{{std::move(axis), at}};
}

absl::StatusOr<std::vector<int64_t>> ParseIntTuple(TextCursor& cursor) {
  std::vector<int64_t> values;
  TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
  while (!cursor.TryConsume(")")) {
    TESSERA_ASSIGN_OR_RETURN(int64_t value, cursor.ExpectInt());
    values.push_back(value);
    if (!cursor.TryConsume(",")) {
      TESSERA_RETURN_IF_ERROR(cursor.Expect(")"));
      break;
    }
  }
  return values;
}

absl::StatusOr<std::vector<std::string>> ParseStrTuple(TextCursor& cursor) {
  std::vector<std::string> values;
  TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
  while (!cursor.TryConsume(")")) {
    TESSERA_ASSIGN_OR_RETURN(std::string value, cursor.ExpectPyString());
    values.push_back(std::move(value));
    if (!cursor.TryConsume(",")) {
      TESSERA_RETURN_IF_ERROR(cursor.Expect(")"));
      break;
    }
  }
  return values;
}

// axis_types=(Auto, Explicit, Manual), also spelled AxisType.Auto.
absl::Status SkipAxisTypes(TextCursor& cursor) {
  TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
  TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
  while (!cursor.TryConsume(")")) {
    cursor.TryConsume("AxisType.");
    if (!cursor.TryConsumeWord("Auto") && !cursor.TryConsumeWord("Explicit") &&
        !cursor.TryConsumeWord("Manual")) {
      return cursor.Error("an axis type (Auto, Explicit or Manual)");
    }
    if (!cursor.TryConsume(",")) {
      TESSERA_RETURN_IF_ERROR(cursor.Expect(")"));
      break;
    }
  }
  return absl::OkStatus();
}

// Mesh(axis_sizes=(2, 4), axis_names=('x', 'y')[, axis_types=(...)])
absl::Status ParseMeshRepr(TextCursor& cursor, JaxMeshDescription& mesh) {
  TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
  TESSERA_ASSIGN_OR_RETURN(mesh.shape, ParseIntTuple(cursor));
  TESSERA_RETURN_IF_ERROR(cursor.Expect(","));
  if (!cursor.TryConsumeWord("axis_names")) return cursor.Error("'axis_names'");
  TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
  TESSERA_ASSIGN_OR_RETURN(mesh.axis_names, ParseStrTuple(cursor));
  if (cursor.TryConsume(",")) {
    if (!cursor.TryConsumeWord("axis_types")) return cursor.Error("'axis_types'");
    TESSERA_RETURN_IF_ERROR(SkipAxisTypes(cursor));
  }
  return absl::OkStatus();
}

// Mesh('x': 2, 'y': 4[, axis_types=(...)])
absl::Status ParseMeshStr(TextCursor& cursor, JaxMeshDescription& mesh) {
  while (!cursor.TryConsume(")")) {
    if (cursor.TryConsumeWord("axis_types")) {
      TESSERA_RETURN_IF_ERROR(SkipAxisTypes(cursor));
      return cursor.Expect(")");
    }
    TESSERA_ASSIGN_OR_RETURN(std::string name, cursor.ExpectPyString());
    TESSERA_RETURN_IF_ERROR(cursor.Expect(":"));
    TESSERA_ASSIGN_OR_RETURN(int64_t size, cursor.ExpectInt());
    mesh.axis_names.push_back(std::move(name));
    mesh.shape.push_back(size);
    if (!cursor.TryConsume(",")) return cursor.Expect(")");
  }
  return absl::OkStatus();
}

}  // namespace

std::string PartitionSpecText(absl::Span<const AxisGroup> axes) {
  std::vector<std::string> entries;
  for (const AxisGroup& group : axes) {
    // jax writes a group as a tuple with its trailing comma only when it has
    // one member, which a canonical spec never has.
    entries.push_back(PyAxisGroupRepr(group));
  }
  const char* one_comma = entries.size() == 1 ? "," : "";
  return absl::StrCat("P(", absl::StrJoin(entries, ", "), one_comma, ")");
}

namespace {

absl::StatusOr<std::vector<SpecEntry>> ParseSpecEntries(absl::string_view text) {
  TextCursor cursor(text, kSpecWhat);
  if (!cursor.TryConsumeWord("PartitionSpec") && !cursor.TryConsumeWord("P")) {
    return cursor.Error("'P(' or 'PartitionSpec('");
  }
  TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
  std::vector<SpecEntry> entries;
  while (!cursor.TryConsume(")")) {
    cursor.SkipSpace();
    const size_t at = cursor.position();
    if (cursor.PeekToken() == "unreduced" || cursor.PeekToken() == "reduced") {
      return cursor.ErrorAt(at, cursor.PeekToken(), "sets have no layout equivalent");
    }
    TESSERA_ASSIGN_OR_RETURN(SpecEntry entry, ParseEntry(cursor));
    entries.push_back(std::move(entry));
    TESSERA_RETURN_IF_ERROR(CheckRank(entries.size(), "PartitionSpec"));
    if (!cursor.TryConsume(",")) {
      TESSERA_RETURN_IF_ERROR(cursor.Expect(")"));
      break;
    }
  }
  TESSERA_RETURN_IF_ERROR(cursor.ExpectEnd());
  return entries;
}

std::string MemberRepr(const SpecMember& m) { return m.axis.has_value() ? PyStrRepr(*m.axis) : "None"; }

// jax's repr of the spec, None members of tuples included.
std::string EntriesText(const std::vector<SpecEntry>& entries) {
  std::vector<std::string> parts;
  for (const SpecEntry& entry : entries) {
    if (entry.empty()) {
      parts.push_back("None");
    } else if (entry.size() == 1) {
      parts.push_back(MemberRepr(entry[0]));
    } else {
      std::vector<std::string> members;
      for (const SpecMember& m : entry) members.push_back(MemberRepr(m));
      parts.push_back(absl::StrCat("(", absl::StrJoin(members, ", "), ")"));
    }
  }
  return absl::StrCat("P(", absl::StrJoin(parts, ", "), parts.size() == 1 ? "," : "", ")");
}

// The layout's groups; a None left inside a tuple has no layout.
absl::StatusOr<std::vector<AxisGroup>> ToAxisGroups(std::vector<SpecEntry> entries) {
  std::vector<AxisGroup> axes;
  for (SpecEntry& entry : entries) {
    AxisGroup group;
    for (SpecMember& m : entry) {
      if (!m.axis.has_value()) {
        return absl::InvalidArgumentError(absl::StrCat(kSpecWhat, ": at position ", m.position,
                                                       ": 'None' is not an axis name inside a tuple"));
      }
      group.push_back(*std::move(m.axis));
    }
    axes.push_back(std::move(group));
  }
  return axes;
}

// jax's _check_unique_resources: every axis (None too) named more than once,
// in show_axes's form (sorted, each in backticks).
absl::Status CheckUniqueAxes(const std::vector<SpecEntry>& entries) {
  std::vector<std::optional<std::string>> seen;
  std::vector<std::optional<std::string>> repeated;
  for (const SpecEntry& entry : entries) {
    for (const SpecMember& m : entry) {
      if (std::find(seen.begin(), seen.end(), m.axis) == seen.end()) {
        seen.push_back(m.axis);
      } else if (std::find(repeated.begin(), repeated.end(), m.axis) == repeated.end()) {
        repeated.push_back(m.axis);
      }
    }
  }
  if (repeated.empty()) return absl::OkStatus();
  std::vector<std::string> shown;
  for (const auto& axis : repeated) shown.push_back(absl::StrCat("`", axis.value_or("None"), "`"));
  std::sort(shown.begin(), shown.end());
  return absl::InvalidArgumentError(absl::StrCat(
      "A single NamedSharding spec specification can map every mesh axis to at most one "
      "positional dimension, but ",
      EntriesText(entries), " has duplicate entries for ", absl::StrJoin(shown, ", ")));
}

// jax's _check_mesh_resource_axis (None is no mesh axis).
absl::Status CheckAxesInMesh(const std::vector<SpecEntry>& entries, const DeviceMesh& mesh) {
  for (const SpecEntry& entry : entries) {
    for (const SpecMember& m : entry) {
      if (m.axis.has_value() && mesh.HasAxis(*m.axis)) continue;
      return absl::InvalidArgumentError(absl::StrCat("Resource axis: ", m.axis.value_or("None"), " of ",
                                                     EntriesText(entries), " is not found in mesh: ",
                                                     PyStrTupleRepr(mesh.axis_names()), "."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<AxisGroup>> ParsePartitionSpec(absl::string_view text) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<SpecEntry> entries, ParseSpecEntries(text));
  return ToAxisGroups(std::move(entries));
}

std::string ScalarSpecHint(size_t rank) {
  return rank == 0 ? " For scalars the PartitionSpec should be P()" : "";
}

absl::StatusOr<TensorLayout> LayoutFromPartitionSpec(absl::string_view text, MeshPtr mesh,
                                                     size_t rank) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<SpecEntry> entries, ParseSpecEntries(text));
  TESSERA_RETURN_IF_ERROR(CheckRank(rank, "rank"));
  // In jax's order: NamedSharding's constructor checks repetition, then the
  // mesh; the rank is checked when the sharding is applied.
  TESSERA_RETURN_IF_ERROR(CheckUniqueAxes(entries));
  if (mesh != nullptr) TESSERA_RETURN_IF_ERROR(CheckAxesInMesh(entries, *mesh));
  TESSERA_ASSIGN_OR_RETURN(std::vector<AxisGroup> axes, ToAxisGroups(std::move(entries)));
  if (axes.size() > rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'rank': ", PartitionSpecText(axes), " is only valid for values of rank at least ",
        axes.size(), ", but was applied to a value of rank ", rank, ".", ScalarSpecHint(rank)));
  }
  axes.resize(rank);
  absl::StatusOr<TensorLayout> layout = TensorLayout::Create(std::move(axes), std::move(mesh));
  if (!layout.ok()) {
    return absl::Status(layout.status().code(),
                        absl::StrCat("PartitionSpec ", text, ": ", layout.status().message()));
  }
  return layout;
}

std::string JaxMeshText(const DeviceMesh& mesh) {
  std::vector<std::string> parts;
  for (size_t a = 0; a < mesh.rank(); ++a) {
    parts.push_back(absl::StrCat(PyStrRepr(mesh.axis_names()[a]), ": ", mesh.shape()[a]));
  }
  return absl::StrCat("Mesh(", absl::StrJoin(parts, ", "), ")");
}

absl::StatusOr<JaxMeshDescription> ParseJaxMesh(absl::string_view text) {
  TextCursor cursor(text, kMeshWhat);
  if (!cursor.TryConsumeWord("Mesh")) return cursor.Error("'Mesh('");
  TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
  JaxMeshDescription mesh;
  if (cursor.TryConsumeWord("axis_sizes")) {
    TESSERA_RETURN_IF_ERROR(ParseMeshRepr(cursor, mesh));
    TESSERA_RETURN_IF_ERROR(cursor.Expect(")"));
  } else {
    TESSERA_RETURN_IF_ERROR(ParseMeshStr(cursor, mesh));
  }
  TESSERA_RETURN_IF_ERROR(cursor.ExpectEnd());
  if (mesh.shape.size() != mesh.axis_names.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        kMeshWhat, ": axis_sizes has ", mesh.shape.size(), " entries and axis_names ",
        mesh.axis_names.size(), "; expected the same"));
  }
  return mesh;
}

absl::StatusOr<MeshPtr> MeshFromJaxText(absl::string_view text, std::vector<Device> devices) {
  TESSERA_ASSIGN_OR_RETURN(JaxMeshDescription mesh, ParseJaxMesh(text));
  if (devices.empty()) {
    return DeviceMesh::CreateOverAllDevices(std::move(mesh.shape), std::move(mesh.axis_names));
  }
  return DeviceMesh::Create(std::move(mesh.shape), std::move(mesh.axis_names), std::move(devices));
}

}  // namespace tessera
