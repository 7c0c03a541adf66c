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

namespace tessera {
namespace {

constexpr char kStaticPrefix[] = "sharding_specs:";
constexpr char kPartedPrefix[] = "parted:";
constexpr char kSingleDevicePrefix[] = "maximal:";
constexpr char kMeshPrefix[] = "mesh:";
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

// Canonical non-negative decimal: "0" or no leading zero, within int64.
std::optional<int64_t> ParseCount(absl::string_view token) {
  if (token.empty() || token.size() > 19 ||
      token.find_first_not_of("0123456789") != absl::string_view::npos ||
      (token.size() > 1 && token[0] == '0')) {
    return std::nullopt;
  }
  int64_t value = 0;
  if (!absl::SimpleAtoi(token, &value)) return std::nullopt;
  return value;
}

bool IsIdentifier(absl::string_view s) {
  if (s.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// The parts of a TF device name ("/job:J/replica:R/task:T/device:TYPE:N",
// components in any order, each at most once), as DeviceNameUtils parses it.
struct TfDeviceName {
  std::optional<std::string> job;
  std::optional<int64_t> replica, task, index;
  std::optional<std::string> type;
};

std::optional<TfDeviceName> ParseTfDeviceName(absl::string_view s) {
  TfDeviceName name;
  auto take_identifier = [&s](std::optional<std::string>* out) {
    const size_t end = std::min(s.find('/'), s.find(':'));
    const absl::string_view word = s.substr(0, end);
    if (out->has_value() || !IsIdentifier(word)) return false;
    *out = std::string(word);
    s.remove_prefix(word.size());
    return true;
  };
  auto take_number = [&s](std::optional<int64_t>* out) {
    const absl::string_view digits = s.substr(0, s.find_first_not_of("0123456789"));
    const std::optional<int64_t> value = ParseCount(digits);
    if (out->has_value() || !value) return false;
    *out = *value;
    s.remove_prefix(digits.size());
    return true;
  };
  while (!s.empty()) {
    bool ok = false;
    if (absl::ConsumePrefix(&s, "/job:")) {
      ok = take_identifier(&name.job);
    } else if (absl::ConsumePrefix(&s, "/replica:")) {
      ok = take_number(&name.replica);
    } else if (absl::ConsumePrefix(&s, "/task:")) {
      ok = take_number(&name.task);
    } else if (absl::ConsumePrefix(&s, "/device:")) {
      ok = take_identifier(&name.type) && absl::ConsumePrefix(&s, ":") &&
           take_number(&name.index);
    }
    if (!ok) return std::nullopt;
  }
  return name;
}

// DTensor's single-device check: the name splits on ':' into 5 or 6 pieces.
bool LooksLikeSingleDevice(absl::string_view device) {
  const size_t pieces = static_cast<size_t>(std::count(device.begin(), device.end(), ':')) + 1;
  return pieces == 5 || pieces == 6;
}

// Views of a parsed mesh text, to place errors the checks find.
struct MeshSpans {
  TextPos pos;
  absl::string_view dims_field, global_field, local_field;
  std::vector<absl::string_view> dims, local_devices, global_devices;
};

// The token of entry `i`, or the whole field when spans are absent.
const TextPos* PosOf(const MeshSpans* spans) { return spans ? &spans->pos : nullptr; }
absl::string_view Entry(const std::vector<absl::string_view>* tokens, size_t i) {
  return tokens ? (*tokens)[i] : absl::string_view();
}

// Checks device names: each parses with job, task and type, and all share
// one type (DTensor's GetMesh step 6, its messages).
absl::Status CheckDeviceNames(const std::vector<std::string>& devices, absl::string_view what,
                              const TextPos* pos, const std::vector<absl::string_view>* tokens,
                              absl::flat_hash_set<std::string>* types) {
  for (size_t i = 0; i < devices.size(); ++i) {
    const absl::string_view token = Entry(tokens, i);
    if (devices[i].find_first_of("|,") != std::string::npos) {
      return Fail(absl::StrCat("Argument '", what, "' entry ", i, " ", PyStrRepr(devices[i]),
                               " contains '|' or ','; DTensor's text cannot carry it"),
                  pos, token);
    }
    const std::optional<TfDeviceName> parsed = ParseTfDeviceName(devices[i]);
    if (!parsed) return Fail(absl::StrCat("Failed to parse ", what), pos, token);
    if (!parsed->job || !parsed->task || !parsed->type) {
      return Fail("Failed to either identify host or device type", pos, token);
    }
    types->insert(*parsed->type);
    if (types->size() > 1) {
      return Fail(absl::StrCat("More than one device type per mesh not supported. Found ",
                               types->size()),
                  pos, token);
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDims(const std::vector<DTensorMeshDim>& dims, const MeshSpans* spans) {
  absl::flat_hash_set<absl::string_view> seen;
  for (size_t i = 0; i < dims.size(); ++i) {
    const std::string& name = dims[i].name;
    const absl::string_view token = spans ? spans->dims[i] : absl::string_view();
    if (name.empty() || name.find_first_of("|,=") != std::string::npos || dims[i].size < 0) {
      return Fail(absl::StrCat("Mesh dimension ", i, " ", PyStrRepr(name), "=", dims[i].size,
                               " is not valid; expected a non-empty name without '|', ',' "
                               "or '=' and a size >= 0"),
                  PosOf(spans), token);
    }
    if (name == DTensorLayout::kAny || name == DTensorLayout::kMatch ||
        name == DTensorLayout::kUnsharded) {
      return Fail(absl::StrCat("mesh dimension name ", name, " is reserved"), PosOf(spans),
                  token);
    }
    if (!seen.insert(name).second) {
      return Fail(absl::StrCat("repeated mesh dimension ", name), PosOf(spans), token);
    }
  }
  return absl::OkStatus();
}

// Product of the dims, or 0 with no dims (DTensor's size()); -1 on overflow,
// which then matches no id count.
int64_t MeshSize(const std::vector<DTensorMeshDim>& dims) {
  if (dims.empty()) return 0;
  int64_t size = 1;
  for (const DTensorMeshDim& dim : dims) {
    if (dim.size != 0 && size > std::numeric_limits<int64_t>::max() / dim.size) return -1;
    size *= dim.size;
  }
  return size;
}

// DTensor's GetMesh checks in its order, except step 3 (no global ids means
// the empty mesh), which the caller applies after the count check passes.
absl::Status CheckCounts(const DTensorMesh::Fields& f, const MeshSpans* spans) {
  const size_t g = f.global_ids.size(), l = f.local_ids.size(), d = f.local_devices.size();
  if (!(g >= l && d == l)) {
    return Fail(absl::StrCat("number of global_device_ids ", g, " local_devices ids ", l,
                             " and local devices ", d, "not meeting requirements"),
                PosOf(spans), spans ? spans->global_field : absl::string_view());
  }
  return absl::OkStatus();
}

absl::Status CheckTile(const DTensorMesh::Fields& f, const MeshSpans* spans) {
  const TextPos* pos = PosOf(spans);
  const size_t g = f.global_ids.size(), l = f.local_ids.size();
  if (l != 0 && g % l != 0) {
    return Fail(absl::StrCat("Uneven local clusters with global_ids ", g,
                             " and local_devices ids ", l),
                pos, spans ? spans->local_field : absl::string_view());
  }
  if (MeshSize(f.dims) != static_cast<int64_t>(g)) {
    return Fail("mesh size doesn't match number of devices", pos,
                spans ? spans->dims_field : absl::string_view());
  }
  absl::flat_hash_set<std::string> types;
  TESSERA_RETURN_IF_ERROR(CheckDeviceNames(f.local_devices, "local_devices", pos,
                                           spans ? &spans->local_devices : nullptr, &types));
  TESSERA_RETURN_IF_ERROR(CheckDeviceNames(f.global_devices, "global_devices", pos,
                                           spans ? &spans->global_devices : nullptr, &types));
  for (const std::vector<int64_t>* ids : {&f.global_ids, &f.local_ids}) {
    for (int64_t id : *ids) {
      if (id < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Mesh device id ", id, " is negative; expected ids >= 0"));
      }
    }
  }
  return absl::OkStatus();
}

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
    const std::optional<int64_t> id = ParseCount(token);
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
        eq == absl::string_view::npos ? std::nullopt : ParseCount(token.substr(eq + 1));
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
  if (!absl::ConsumePrefix(&type, "*") || !IsIdentifier(type)) {
    return Fail("Invalid mesh shorthand; expected '*<device type>' as the third part", &pos,
                part);
  }
  const int64_t n = std::max<int64_t>(MeshSize(f->dims), 0);
  if (MeshSize(f->dims) < 0 || n > DTensorMesh::kMaxShorthandDevices) {
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

}  // namespace

absl::StatusOr<DTensorMesh> DTensorMesh::SingleDevice(std::string device) {
  if (device.empty()) return absl::InvalidArgumentError("Single device is empty.");
  if (device.find('|') != std::string::npos || !LooksLikeSingleDevice(device)) {
    return absl::InvalidArgumentError(absl::StrCat("Input string is invalid: ", device));
  }
  DTensorMesh mesh;
  mesh.kind_ = Kind::kSingleDevice;
  mesh.single_device_ = std::move(device);
  return mesh;
}

// Create and ParseAt share this: the checks, then the mesh.
namespace {
absl::StatusOr<DTensorMesh> BuildTile(DTensorMesh::Fields fields, const MeshSpans* spans,
                                      DTensorMesh (*make)(DTensorMesh::Fields&&)) {
  if (fields.name.find('|') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'name' ", PyStrRepr(fields.name), " contains '|'; DTensor's text cannot carry it"));
  }
  TESSERA_RETURN_IF_ERROR(CheckDims(fields.dims, spans));
  TESSERA_RETURN_IF_ERROR(CheckCounts(fields, spans));
  if (fields.global_ids.empty()) return DTensorMesh();  // DTensor: the empty mesh
  TESSERA_RETURN_IF_ERROR(CheckTile(fields, spans));
  return make(std::move(fields));
}
}  // namespace

absl::StatusOr<DTensorMesh> DTensorMesh::Create(Fields fields) {
  return BuildTile(std::move(fields), nullptr, &DTensorMesh::MakeTile);
}

DTensorMesh DTensorMesh::MakeTile(Fields&& fields) {
  DTensorMesh mesh;
  mesh.kind_ = Kind::kTile;
  mesh.fields_ = std::move(fields);
  return mesh;
}

absl::StatusOr<DTensorMesh> DTensorMesh::Parse(absl::string_view text) { return ParseAt(text, 0); }

absl::StatusOr<DTensorMesh> DTensorMesh::ParseAt(absl::string_view text, size_t base) {
  if (text == kEmptyMeshText) return DTensorMesh();
  MeshSpans spans;
  spans.pos = TextPos{text.data(), base};
  const TextPos& pos = spans.pos;
  const std::vector<absl::string_view> parts = absl::StrSplit(text, '|');
  if (parts.size() == 1) {
    if (!LooksLikeSingleDevice(text)) {
      return Fail(absl::StrCat("Input string is invalid: ", text), &pos, text);
    }
    return SingleDevice(std::string(text));
  }
  const size_t n = parts.size();
  if (n != 3 && n != 5 && n != 6 && n != 7) {
    // Point at the first part too many, or at the end of a short text.
    const absl::string_view where = n > 7 ? text.substr(parts[7].data() - text.data() - 1)
                                          : text.substr(text.size());
    return Fail(absl::StrCat("Expected either 5, 6, 7 or 3 mesh parts but found", n), &pos,
                where);
  }
  Fields f;
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
    const bool sixth_is_flag = n == 6 && parts[5] == kUseXlaSpmdText;
    if (n == 7 && !parts[6].empty() && parts[6] != kUseXlaSpmdText) {
      return Fail(absl::StrCat("Expected string use_xla_spmdas the 7th argument but got: ",
                               parts[6]),
                  &pos, parts[6]);
    }
    f.use_xla_spmd = sixth_is_flag || (n == 7 && parts[6] == kUseXlaSpmdText);
    if (n == 7 || (n == 6 && !sixth_is_flag)) {
      TESSERA_ASSIGN_OR_RETURN(spans.global_devices, SplitList(parts[5], "global_devices", pos));
      f.global_devices = Strings(spans.global_devices);
    }
  }
  return BuildTile(std::move(f), &spans, &DTensorMesh::MakeTile);
}

std::string DTensorMesh::ToString() const {
  switch (kind_) {
    case Kind::kEmpty:
      return kEmptyMeshText;
    case Kind::kSingleDevice:
      return single_device_;
    case Kind::kTile:
      break;
  }
  std::string out = absl::StrCat(
      fields_.name, "|",
      absl::StrJoin(fields_.dims, ",",
                    [](std::string* o, const DTensorMeshDim& d) {
                      absl::StrAppend(o, d.name, "=", d.size);
                    }),
      "|", absl::StrJoin(fields_.global_ids, ","), "|", absl::StrJoin(fields_.local_ids, ","),
      "|", absl::StrJoin(fields_.local_devices, ","));
  if (!fields_.global_devices.empty()) {
    absl::StrAppend(&out, "|", absl::StrJoin(fields_.global_devices, ","));
  }
  if (fields_.use_xla_spmd) absl::StrAppend(&out, "|", kUseXlaSpmdText);
  return out;
}

std::string DTensorMesh::device_type() const {
  const std::string* device = nullptr;
  if (kind_ == Kind::kSingleDevice) {
    device = &single_device_;
  } else if (!fields_.global_devices.empty()) {
    device = &fields_.global_devices.front();
  } else if (!fields_.local_devices.empty()) {
    device = &fields_.local_devices.front();
  }
  if (device == nullptr) return "";
  const std::optional<TfDeviceName> parsed = ParseTfDeviceName(*device);
  if (parsed && parsed->type) return *parsed->type;
  // A single device need not be a full TF name ("job:l/replica:0/task:0/TPU:0"):
  // its type is the piece before the last ':'.
  const std::vector<absl::string_view> pieces = absl::StrSplit(*device, ':');
  const absl::string_view before = pieces[pieces.size() - 2];
  return std::string(before.substr(before.rfind('/') + 1));
}

bool DTensorMesh::HasDim(absl::string_view name) const { return DimIndex(name).ok(); }

absl::StatusOr<size_t> DTensorMesh::DimIndex(absl::string_view name) const {
  for (size_t i = 0; i < fields_.dims.size(); ++i) {
    if (fields_.dims[i].name == name) return i;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("dim name :", name, " does not exist on mesh : ", ToString()));
}

absl::StatusOr<int64_t> DTensorMesh::DimSize(absl::string_view name) const {
  for (const DTensorMeshDim& dim : fields_.dims) {
    if (dim.name == name) return dim.size;
  }
  return absl::NotFoundError(absl::StrCat(
      "Dimension ", name, " does not exist in mesh.Available dimensions: ",
      absl::StrJoin(fields_.dims, ",",
                    [](std::string* out, const DTensorMeshDim& d) { out->append(d.name); })));
}

bool operator==(const DTensorMesh& a, const DTensorMesh& b) {
  const DTensorMesh::Fields& x = a.fields_;
  const DTensorMesh::Fields& y = b.fields_;
  return a.kind_ == b.kind_ && a.single_device_ == b.single_device_ && x.name == y.name &&
         x.dims == y.dims && x.global_ids == y.global_ids && x.local_ids == y.local_ids &&
         x.local_devices == y.local_devices && x.global_devices == y.global_devices &&
         x.use_xla_spmd == y.use_xla_spmd;
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

bool IsSpecial(absl::string_view spec) {
  return spec == DTensorLayout::kUnsharded || spec == DTensorLayout::kAny ||
         spec == DTensorLayout::kMatch || spec == DTensorLayout::kScalar;
}

// DTensor's GetLayout checks, in its order.
absl::Status CheckLayout(Type type, const std::vector<std::string>& specs,
                         const DTensorMesh& mesh, const LayoutSpans* spans) {
  const TextPos* pos = spans ? &spans->pos : nullptr;
  const absl::string_view mesh_token = spans ? spans->mesh : absl::string_view();
  if ((type == Type::kSingleDevice) != mesh.is_single_device()) {
    return Fail("type is single device, but mesh is not single device", pos, mesh_token);
  }
  if ((type == Type::kEmpty) != mesh.is_empty()) {
    return Fail("type is empty, but mesh is not empty", pos, mesh_token);
  }
  if ((type == Type::kSingleDevice || type == Type::kEmpty) && !specs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'specs' has ", specs.size(),
        " entries; expected none for an empty or single-device layout"));
  }
  const std::string mesh_text = mesh.ToString();
  if (mesh_text.find(' ') != std::string::npos) {
    return Fail(absl::StrCat("Mesh ", PyStrRepr(mesh_text),
                             " contains ' '; DTensor's layout text cannot carry it"),
                pos, mesh_token);
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    if (!IsSpecial(specs[i]) && !mesh.HasDim(specs[i])) {
      return Fail(absl::StrCat("sharding spec (", specs[i],
                               ") refers to mesh dimension not contained in mesh ", mesh_text),
                  pos, spans ? spans->specs[i] : absl::string_view());
    }
  }
  absl::flat_hash_set<absl::string_view> used;
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string& spec = specs[i];
    const absl::string_view token = spans ? spans->specs[i] : absl::string_view();
    if (spec == DTensorLayout::kUnsharded || spec == DTensorLayout::kAny) continue;
    if (spec == DTensorLayout::kScalar) {
      if (specs.size() == 1) continue;
      return Fail(absl::StrCat("A scalar sharding_spec can only be used as a single "
                               "sharding_spec instruction, not as part of list of "
                               "sharding_specs as attempted here with ",
                               specs.size(), " sharding_specs"),
                  pos, token);
    }
    if (!used.insert(spec).second) {  // "match" is not exempt in DTensor's C++
      return Fail(absl::StrCat("Attempted to shard two or more tensor dimensions over mesh "
                               "dimension ",
                               spec),
                  pos, token);
    }
  }
  return absl::OkStatus();
}

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

absl::StatusOr<DTensorLayout> DTensorLayout::Create(Type type, std::vector<std::string> specs,
                                                    DTensorMesh mesh) {
  TESSERA_RETURN_IF_ERROR(CheckLayout(type, specs, mesh, nullptr));
  return Make(type, std::move(specs), std::move(mesh));
}

DTensorLayout DTensorLayout::Make(Type type, std::vector<std::string> specs, DTensorMesh mesh) {
  if (specs.size() == 1 && specs[0] == kScalar) specs.clear();  // rank 0
  DTensorLayout layout;
  layout.type_ = type;
  layout.specs_ = std::move(specs);
  layout.mesh_ = std::move(mesh);
  return layout;
}

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
  if (absl::ConsumePrefix(&head, kStaticPrefix)) {
    type = Type::kStatic;
  } else if (absl::ConsumePrefix(&head, kPartedPrefix)) {
    type = Type::kParted;
  } else if (absl::ConsumePrefix(&head, kSingleDevicePrefix)) {
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
  absl::ConsumePrefix(&mesh_text, kMeshPrefix);  // optional, as in DTensor
  spans.mesh = mesh_text;
  TESSERA_ASSIGN_OR_RETURN(DTensorMesh mesh, DTensorMesh::ParseAt(mesh_text, pos.Of(mesh_text)));
  std::vector<std::string> specs = Strings(spans.specs);
  TESSERA_RETURN_IF_ERROR(CheckLayout(type, specs, mesh, &spans));
  return Make(type, std::move(specs), std::move(mesh));
}

std::string DTensorLayout::ToString() const {
  switch (type_) {
    case Type::kEmpty:
      return kEmptyLayoutText;
    case Type::kSingleDevice:
      return absl::StrCat(kSingleDevicePrefix, "true, ", kMeshPrefix, mesh_.ToString());
    case Type::kStatic:
    case Type::kParted:
      break;
  }
  std::string out = type_ == Type::kParted ? kPartedPrefix : kStaticPrefix;
  for (const std::string& spec : specs_) absl::StrAppend(&out, spec, ",");
  absl::StrAppend(&out, " ", kMeshPrefix, mesh_.ToString());
  return out;
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
