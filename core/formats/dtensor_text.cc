// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/formats/dtensor_text.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/device.h"
#include "core/py_repr.h"
#include "core/status_macros.h"
#include "core/tf_device_name.h"

namespace tessera {
namespace {

constexpr size_t kMaxTokenInMessage = 64;

// Where a text came from, so a token (a view into it) has a byte offset.
struct TextPos {
  const char* origin;
  size_t base;  // offset of `origin` in the text the caller gave
  size_t Of(absl::string_view token) const {
    return base + static_cast<size_t>(token.data() - origin);
  }
};

// " (at byte 12: 'x=2')"; long tokens are cut, so a message stays readable.
std::string At(size_t pos, absl::string_view token) {
  std::string shown = PyStrRepr(token.substr(0, kMaxTokenInMessage));
  if (token.size() > kMaxTokenInMessage) shown += "...";
  return absl::StrCat(" (at byte ", pos, ": ", shown, ")");
}

// An error in a text (pos non-null) or in fields given directly (pos null).
absl::Status Fail(absl::string_view message, const TextPos* pos, absl::string_view token) {
  if (pos == nullptr) return absl::InvalidArgumentError(message);
  return absl::InvalidArgumentError(absl::StrCat(message, At(pos->Of(token), token)));
}

// Views of a parsed mesh text, to place errors the checks find.
struct MeshSpans {
  TextPos pos;
  absl::string_view dims_field, global_field, local_field;
  std::vector<absl::string_view> dims, local_devices, global_devices;
};

// Splits a comma list; an empty field is the empty list, an empty entry is
// an error.
absl::StatusOr<std::vector<absl::string_view>> SplitList(absl::string_view field,
                                                         absl::string_view what,
                                                         const TextPos& pos) {
  std::vector<absl::string_view> items;
  if (field.empty()) return items;
  items = absl::StrSplit(field, ',');
  for (absl::string_view item : items) {
    if (item.empty()) {
      return Fail(absl::StrCat("Empty entry in ", what, "; expected a comma-separated list"),
                  &pos, item);
    }
  }
  return items;
}

absl::StatusOr<std::vector<int64_t>> ParseIds(absl::string_view field, absl::string_view what,
                                              const TextPos& pos) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<absl::string_view> tokens, SplitList(field, what, pos));
  std::vector<int64_t> ids;
  ids.reserve(tokens.size());
  for (absl::string_view token : tokens) {
    const std::optional<int64_t> id = ParseCanonicalCount(token);
    if (!id) {
      return Fail(absl::StrCat("Invalid entry in ", what,
                               "; expected a non-negative decimal integer below 2^63"),
                  &pos, token);
    }
    ids.push_back(*id);
  }
  return ids;
}

absl::StatusOr<std::vector<DTensorMeshDim>> ParseDims(absl::string_view field,
                                                      MeshSpans* spans) {
  TESSERA_ASSIGN_OR_RETURN(spans->dims, SplitList(field, "mesh dimensions", spans->pos));
  std::vector<DTensorMeshDim> dims;
  for (absl::string_view token : spans->dims) {
    const size_t eq = token.find('=');
    const std::optional<int64_t> size =
        eq == absl::string_view::npos ? std::nullopt : ParseCanonicalCount(token.substr(eq + 1));
    if (eq == 0 || !size) {
      return Fail("Invalid mesh dimension; expected <name>=<size> with a non-negative "
                  "decimal size",
                  &spans->pos, token);
    }
    dims.push_back({std::string(token.substr(0, eq)), *size});
  }
  return dims;
}

std::vector<std::string> Strings(const std::vector<absl::string_view>& views) {
  return std::vector<std::string>(views.begin(), views.end());
}

// "<name>|<dims>|*<TYPE>": ids 0..n-1, devices /job:localhost/task:0/device:TYPE:i.
absl::Status ExpandShorthand(absl::string_view part, const TextPos& pos,
                             DTensorMesh::Fields* f, MeshSpans* spans) {
  absl::string_view type = part;
  if (!absl::ConsumePrefix(&type, "*") || !IsTfIdentifier(type)) {
    return Fail("Invalid mesh shorthand; expected '*<device type>' as the third part", &pos,
                part);
  }
  const int64_t n = std::max<int64_t>(DTensorMeshSize(f->dims), 0);
  if (DTensorMeshSize(f->dims) < 0 || n > DTensorMesh::kMaxShorthandDevices) {
    return Fail(absl::StrCat("Mesh shorthand expands to more than ",
                             DTensorMesh::kMaxShorthandDevices, " devices"),
                &pos, spans->dims_field);
  }
  for (int64_t i = 0; i < n; ++i) {
    f->global_ids.push_back(i);
    f->local_ids.push_back(i);
    f->local_devices.push_back(absl::StrCat("/job:localhost/task:0/device:", type, ":", i));
  }
  // Errors in generated fields point at the shorthand itself.
  spans->global_field = spans->local_field = part;
  spans->local_devices.assign(f->local_devices.size(), part);
  return absl::OkStatus();
}

// The token of the part a mesh check failed on.
absl::string_view TokenOf(const MeshSpans& spans, DTensorMesh::Part part) {
  using Field = DTensorMesh::Part::Field;
  switch (part.field) {
    case Field::kDims:
      return part.entry ? spans.dims[*part.entry] : spans.dims_field;
    case Field::kGlobalIds:
      return spans.global_field;
    case Field::kLocalIds:
      return spans.local_field;
    case Field::kLocalDevices:
      return spans.local_devices[*part.entry];
    case Field::kGlobalDevices:
      return spans.global_devices[*part.entry];
  }
  return absl::string_view();
}

// ParseDTensorMesh, with error positions counted from `base` (a layout's
// mesh part).
absl::StatusOr<DTensorMesh> ParseMeshAt(absl::string_view text, size_t base) {
  if (text == DTensorMesh::kEmptyMeshText) return DTensorMesh();
  MeshSpans spans;
  spans.pos = TextPos{text.data(), base};
  const TextPos& pos = spans.pos;
  const std::vector<absl::string_view> parts = absl::StrSplit(text, '|');
  if (parts.size() == 1) {
    if (!DTensorMesh::IsSingleDeviceName(text)) {
      return Fail(absl::StrCat("Input string is invalid: ", text), &pos, text);
    }
    return DTensorMesh::SingleDevice(std::string(text));
  }
  const size_t n = parts.size();
  if (n != 3 && n != 5 && n != 6 && n != 7) {
    // Point at the first part too many, or at the end of a short text.
    const absl::string_view where = n > 7 ? text.substr(parts[7].data() - text.data() - 1)
                                          : text.substr(text.size());
    return Fail(absl::StrCat("Expected either 5, 6, 7 or 3 mesh parts but found", n), &pos,
                where);
  }
  DTensorMesh::Fields f;
  f.name = std::string(parts[0]);
  spans.dims_field = parts[1];
  TESSERA_ASSIGN_OR_RETURN(f.dims, ParseDims(parts[1], &spans));
  if (n == 3) {
    TESSERA_RETURN_IF_ERROR(ExpandShorthand(parts[2], pos, &f, &spans));
  } else {
    spans.global_field = parts[2];
    spans.local_field = parts[3];
    TESSERA_ASSIGN_OR_RETURN(f.global_ids, ParseIds(parts[2], "global_device_ids", pos));
    TESSERA_ASSIGN_OR_RETURN(f.local_ids, ParseIds(parts[3], "local_device_ids", pos));
    TESSERA_ASSIGN_OR_RETURN(spans.local_devices, SplitList(parts[4], "local_devices", pos));
    f.local_devices = Strings(spans.local_devices);
    // 6 parts: use_xla_spmd or the global devices; 7: both, the flag may be "".
    const bool sixth_is_flag = n == 6 && parts[5] == DTensorMesh::kUseXlaSpmdText;
    if (n == 7 && !parts[6].empty() && parts[6] != DTensorMesh::kUseXlaSpmdText) {
      return Fail(absl::StrCat("Expected string use_xla_spmdas the 7th argument but got: ",
                               parts[6]),
                  &pos, parts[6]);
    }
    f.use_xla_spmd = sixth_is_flag || (n == 7 && parts[6] == DTensorMesh::kUseXlaSpmdText);
    if (n == 7 || (n == 6 && !sixth_is_flag)) {
      TESSERA_ASSIGN_OR_RETURN(spans.global_devices, SplitList(parts[5], "global_devices", pos));
      f.global_devices = Strings(spans.global_devices);
    }
  }
  return DTensorMesh::Create(std::move(f), [&spans](absl::string_view message,
                                                    DTensorMesh::Part part) {
    return Fail(message, &spans.pos, TokenOf(spans, part));
  });
}

}  // namespace

absl::StatusOr<DTensorMesh> ParseDTensorMesh(absl::string_view text) {
  return ParseMeshAt(text, 0);
}

// ---------------------------------------------------------------------------
// Layouts

namespace {

using Type = DTensorLayout::Type;

// Views of a parsed layout text, to place errors the checks find.
struct LayoutSpans {
  TextPos pos;
  absl::string_view mesh;
  std::vector<absl::string_view> specs;
};

// Static and parted specs: "a,b," -> [a, b]; "" -> []. Every spec needs its
// comma (DTensor would silently drop the last one).
absl::StatusOr<std::vector<absl::string_view>> SplitSpecs(absl::string_view rest,
                                                          const TextPos& pos) {
  std::vector<absl::string_view> specs;
  if (rest.empty()) return specs;
  specs = absl::StrSplit(rest, ',');
  const absl::string_view last = specs.back();
  if (!last.empty()) {
    return Fail("Sharding spec is not followed by ','; expected every spec to end with a comma",
                &pos, last);
  }
  specs.pop_back();
  return specs;
}

}  // namespace

absl::StatusOr<DTensorLayout> DTensorLayout::Parse(absl::string_view text) {
  if (text == kEmptyLayoutText) return DTensorLayout();
  LayoutSpans spans{TextPos{text.data(), 0}, {}, {}};
  const TextPos& pos = spans.pos;
  const std::vector<absl::string_view> parts = absl::StrSplit(text, ' ');
  if (parts.size() != 2) {
    const absl::string_view where = parts.size() > 2
                                        ? text.substr(parts[2].data() - text.data() - 1)
                                        : text.substr(text.size());
    return Fail(absl::StrCat("Expected 2 items but found ", parts.size(), parts[0]), &pos,
                where);
  }
  absl::string_view head = parts[0];
  Type type;
  if (absl::ConsumePrefix(&head, DTensorLayout::kStaticPrefix)) {
    type = Type::kStatic;
  } else if (absl::ConsumePrefix(&head, DTensorLayout::kPartedPrefix)) {
    type = Type::kParted;
  } else if (absl::ConsumePrefix(&head, DTensorLayout::kSingleDevicePrefix)) {
    type = Type::kSingleDevice;
    if (head != "true,") {
      return Fail("Invalid single-device layout; expected 'maximal:true,'", &pos, parts[0]);
    }
  } else {
    return Fail(absl::StrCat("Unknown layout type prefix", parts[0], " in ", text), &pos,
                parts[0]);
  }
  if (type != Type::kSingleDevice) {
    TESSERA_ASSIGN_OR_RETURN(spans.specs, SplitSpecs(head, pos));
  }
  absl::string_view mesh_text = parts[1];
  absl::ConsumePrefix(&mesh_text, DTensorLayout::kMeshPrefix);  // optional, as in DTensor
  spans.mesh = mesh_text;
  TESSERA_ASSIGN_OR_RETURN(DTensorMesh mesh, ParseMeshAt(mesh_text, pos.Of(mesh_text)));
  return DTensorLayout::Create(
      type, Strings(spans.specs), std::move(mesh),
      [&spans](absl::string_view message, DTensorLayout::Part part) {
        return Fail(message, &spans.pos,
                    part.field == DTensorLayout::Part::Field::kMesh ? spans.mesh
                                                                    : spans.specs[part.spec]);
      });
}

// ---------------------------------------------------------------------------
// Conversions

namespace {

std::string TfDeviceType(Platform platform) {
  return absl::AsciiStrToUpper(PlatformName(platform));
}

// A device's process (task) and ordinal (device index) from its TF name,
// which the mesh's checks already accepted.
Device DeviceFromTfName(int64_t id, Platform platform, absl::string_view name) {
  const TfDeviceName parsed = *ParseTfDeviceName(name);
  return Device{id, platform, *parsed.task, parsed.index.value_or(0)};
}

// One spec per dimension: "unsharded" or the dimension's single axis.
absl::StatusOr<std::vector<std::string>> SpecsOf(const TensorLayout& layout) {
  std::vector<std::string> specs;
  specs.reserve(layout.rank());
  for (size_t d = 0; d < layout.rank(); ++d) {
    const AxisGroup& group = layout.axes()[d];
    if (group.size() > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'layout' dimension ", d, " is split over the axis group ",
          PyAxisGroupRepr(group), "; DTensor allows one mesh axis or unsharded per dimension"));
    }
    specs.push_back(group.empty() ? DTensorLayout::kUnsharded : group.front());
  }
  return specs;
}

absl::Status RequireMesh(const TensorLayout& layout) {
  if (layout.mesh() != nullptr) return absl::OkStatus();
  return absl::InvalidArgumentError(
      "Argument 'layout' has no mesh; DTensor's layout text needs one");
}

}  // namespace

absl::StatusOr<DTensorMesh> ToDTensorMesh(const DeviceMesh& mesh,
                                          const DTensorMeshOptions& options) {
  DTensorMesh::Fields f;
  f.name = options.name;
  f.use_xla_spmd = options.use_xla_spmd;
  for (size_t i = 0; i < mesh.rank(); ++i) {
    f.dims.push_back({mesh.axis_names()[i], mesh.shape()[i]});
  }
  const std::vector<Device>& devices = mesh.devices();
  const bool one_process = std::all_of(devices.begin(), devices.end(), [&](const Device& d) {
    return d.process_index == devices.front().process_index;
  });
  const std::string job = one_process ? "localhost" : "worker";
  const std::string type = TfDeviceType(mesh.platform());
  for (const Device& d : devices) {
    f.global_ids.push_back(d.id);
    if (d.process_index != options.process_index) continue;
    f.local_ids.push_back(d.id);
    f.local_devices.push_back(absl::StrCat("/job:", job, "/replica:0/task:", d.process_index,
                                           "/device:", type, ":", d.local_ordinal));
  }
  return DTensorMesh::Create(std::move(f));
}

absl::StatusOr<MeshPtr> ToDeviceMesh(const DTensorMesh& mesh) {
  if (mesh.kind() != DTensorMesh::Kind::kTile) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'mesh' ", PyStrRepr(mesh.ToString()),
        " is an empty or single-device DTensor mesh; expected one with dimensions"));
  }
  const std::string type = mesh.device_type();
  if (type.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'mesh' ", PyStrRepr(mesh.ToString()),
        " names no devices (a remote mesh), so its device type is unknown"));
  }
  const absl::StatusOr<Platform> platform = ParsePlatform(type);
  if (!platform.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'mesh' has device type ", PyStrRepr(type), "; expected CPU, GPU or TPU"));
  }
  const std::vector<int64_t>& gids = mesh.global_ids();
  const bool named_globally = mesh.global_devices().size() == gids.size();
  absl::flat_hash_map<int64_t, size_t> local_index;
  for (size_t i = 0; i < mesh.local_ids().size(); ++i) local_index.emplace(mesh.local_ids()[i], i);
  const int64_t per_client = static_cast<int64_t>(mesh.local_ids().size());
  std::vector<Device> devices;
  devices.reserve(gids.size());
  for (size_t p = 0; p < gids.size(); ++p) {
    const int64_t position = static_cast<int64_t>(p);
    if (named_globally) {
      devices.push_back(DeviceFromTfName(gids[p], *platform, mesh.global_devices()[p]));
    } else if (auto it = local_index.find(gids[p]); it != local_index.end()) {
      devices.push_back(DeviceFromTfName(gids[p], *platform, mesh.local_devices()[it->second]));
    } else if (per_client > 0) {  // DTensor's model: equal blocks per client, in order
      devices.push_back(Device{gids[p], *platform, position / per_client, position % per_client});
    } else {
      devices.push_back(Device{gids[p], *platform, 0, position});
    }
  }
  std::vector<int64_t> shape;
  std::vector<std::string> names;
  for (const DTensorMeshDim& dim : mesh.dims()) {
    shape.push_back(dim.size);
    names.push_back(dim.name);
  }
  return DeviceMesh::Create(std::move(shape), std::move(names), std::move(devices));
}

absl::StatusOr<DTensorLayout> ToDTensorLayout(const TensorLayout& layout,
                                              const DTensorMeshOptions& options) {
  TESSERA_RETURN_IF_ERROR(RequireMesh(layout));
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> specs, SpecsOf(layout));
  TESSERA_ASSIGN_OR_RETURN(DTensorMesh mesh, ToDTensorMesh(*layout.mesh(), options));
  return DTensorLayout::Create(DTensorLayout::Type::kStatic, std::move(specs), std::move(mesh));
}

absl::StatusOr<DTensorLayout> ToDTensorLayout(const TensorLayout& layout,
                                              const DTensorMesh& mesh) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> specs, SpecsOf(layout));
  if (layout.mesh() != nullptr) {
    TESSERA_ASSIGN_OR_RETURN(MeshPtr converted, ToDeviceMesh(mesh));
    if (*converted != *layout.mesh()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'mesh' ", PyStrRepr(mesh.ToString()), " describes ", converted->ToString(),
          "; expected the layout's mesh ", layout.mesh()->ToString()));
    }
  }
  return DTensorLayout::Create(DTensorLayout::Type::kStatic, std::move(specs), mesh);
}

absl::StatusOr<TensorLayout> ToTensorLayout(const DTensorLayout& layout) {
  if (layout.type() != DTensorLayout::Type::kStatic) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'layout' ", PyStrRepr(layout.ToString()),
        " is not a static layout; Tessera has no parted, single-device or empty layouts"));
  }
  std::vector<AxisGroup> axes(layout.rank());
  for (size_t d = 0; d < layout.rank(); ++d) {
    const std::string& spec = layout.specs()[d];
    if (spec == DTensorLayout::kAny || spec == DTensorLayout::kMatch) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'layout' dimension ", d, " has sharding spec '", spec,
          "'; Tessera layouts need a mesh dimension or unsharded"));
    }
    if (spec != DTensorLayout::kUnsharded) axes[d].push_back(spec);
  }
  TESSERA_ASSIGN_OR_RETURN(MeshPtr mesh, ToDeviceMesh(layout.mesh()));
  return TensorLayout::Create(std::move(axes), std::move(mesh));
}

}  // namespace tessera
