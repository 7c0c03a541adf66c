// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/dtensor_mesh.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/py_repr.h"
#include "core/status_macros.h"
#include "core/tf_device_name.h"

namespace tessera {
namespace {

using Part = DTensorMesh::Part;
using Field = DTensorMesh::Part::Field;

// DTensor reserves its special layout specs as dimension names.
constexpr absl::string_view kReservedDimNames[] = {"any", "match", "unsharded"};

// Checks device names: each parses with job, task and type, and all share
// one type (DTensor's GetMesh step 6, its messages).
absl::Status CheckDeviceNames(const std::vector<std::string>& devices, Field field,
                              absl::string_view what, DTensorMesh::ErrorFn error,
                              absl::flat_hash_set<std::string>* types) {
  for (size_t i = 0; i < devices.size(); ++i) {
    const Part part{field, i};
    if (devices[i].find_first_of("|,") != std::string::npos) {
      return error(absl::StrCat("Argument '", what, "' entry ", i, " ", PyStrRepr(devices[i]),
                                " contains '|' or ','; DTensor's text cannot carry it"),
                   part);
    }
    const std::optional<TfDeviceName> parsed = ParseTfDeviceName(devices[i]);
    if (!parsed) return error(absl::StrCat("Failed to parse ", what), part);
    if (!parsed->job || !parsed->task || !parsed->type) {
      return error("Failed to either identify host or device type", part);
    }
    types->insert(*parsed->type);
    if (types->size() > 1) {
      return error(absl::StrCat("More than one device type per mesh not supported. Found ",
                                types->size()),
                   part);
    }
  }
  return absl::OkStatus();
}

// A device named twice is refused (ARCHITECTURE.md: duplicate devices in a
// mesh are rejected), with DTensor's Python message listing every occurrence;
// unlike DTensor, also when the repeated device is the one host CPU. Names
// are compared as TF compares DeviceSpecs, a missing replica being 0.
absl::Status CheckDistinctDevices(const std::vector<std::string>& devices, Field field,
                                  DTensorMesh::ErrorFn error) {
  using Key = std::tuple<std::string, int64_t, int64_t, std::string, int64_t>;
  absl::flat_hash_map<Key, size_t> first;
  std::optional<size_t> repeated;
  std::vector<Key> keys;
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::optional<TfDeviceName> n = ParseTfDeviceName(devices[i]);
    if (n) {
      keys.emplace_back(n->job.value_or(""), n->replica.value_or(0), n->task.value_or(-1),
                        n->type.value_or(""), n->index.value_or(-1));
    } else {  // not a TF name: only the same text is the same device
      keys.emplace_back(devices[i], -1, -1, "", -1);
    }
    if (!first.emplace(keys.back(), i).second && !repeated) repeated = i;
  }
  if (!repeated) return absl::OkStatus();
  absl::flat_hash_map<Key, size_t> count;
  for (const Key& key : keys) ++count[key];
  std::vector<std::string> listed;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (count[keys[i]] > 1) listed.push_back(devices[i]);
  }
  return error(absl::StrCat("Duplicate devices found in mesh specification ",
                            PyStrListRepr(listed), "."),
               Part{field, *repeated});
}

// Ids name devices too: a repeated id would give two mesh positions one
// device (C++ DTensor does not check; its Python Mesh requires consecutive ids).
absl::Status CheckDistinctIds(const std::vector<int64_t>& ids, Field field, absl::string_view what,
                              DTensorMesh::ErrorFn error) {
  absl::flat_hash_map<int64_t, size_t> first;
  for (size_t i = 0; i < ids.size(); ++i) {
    const auto [it, inserted] = first.emplace(ids[i], i);
    if (!inserted) {
      return error(absl::StrCat("Argument '", what, "' lists device id ", ids[i],
                                " twice (entries ", it->second, " and ", i,
                                "); expected each device once"),
                   Part{field, i});
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDims(const std::vector<DTensorMeshDim>& dims, DTensorMesh::ErrorFn error) {
  absl::flat_hash_set<absl::string_view> seen;
  for (size_t i = 0; i < dims.size(); ++i) {
    const std::string& name = dims[i].name;
    const Part part{Field::kDims, i};
    if (name.empty() || name.find_first_of("|,=") != std::string::npos || dims[i].size < 0) {
      return error(absl::StrCat("Mesh dimension ", i, " ", PyStrRepr(name), "=", dims[i].size,
                                " is not valid; expected a non-empty name without '|', ',' "
                                "or '=' and a size >= 0"),
                   part);
    }
    if (std::find(std::begin(kReservedDimNames), std::end(kReservedDimNames), name) !=
        std::end(kReservedDimNames)) {
      return error(absl::StrCat("mesh dimension name ", name, " is reserved"), part);
    }
    if (!seen.insert(name).second) {
      return error(absl::StrCat("repeated mesh dimension ", name), part);
    }
  }
  return absl::OkStatus();
}

// DTensor's GetMesh checks in its order, except step 3 (no global ids means
// the empty mesh), which the caller applies after the count check passes.
absl::Status CheckCounts(const DTensorMesh::Fields& f, DTensorMesh::ErrorFn error) {
  const size_t g = f.global_ids.size(), l = f.local_ids.size(), d = f.local_devices.size();
  if (!(g >= l && d == l)) {
    return error(absl::StrCat("number of global_device_ids ", g, " local_devices ids ", l,
                              " and local devices ", d, "not meeting requirements"),
                 Part{Field::kGlobalIds, std::nullopt});
  }
  return absl::OkStatus();
}

absl::Status CheckTile(const DTensorMesh::Fields& f, DTensorMesh::ErrorFn error) {
  const size_t g = f.global_ids.size(), l = f.local_ids.size();
  if (l != 0 && g % l != 0) {
    return error(absl::StrCat("Uneven local clusters with global_ids ", g,
                              " and local_devices ids ", l),
                 Part{Field::kLocalIds, std::nullopt});
  }
  if (DTensorMeshSize(f.dims) != static_cast<int64_t>(g)) {
    return error("mesh size doesn't match number of devices", Part{Field::kDims, std::nullopt});
  }
  absl::flat_hash_set<std::string> types;
  TESSERA_RETURN_IF_ERROR(
      CheckDeviceNames(f.local_devices, Field::kLocalDevices, "local_devices", error, &types));
  TESSERA_RETURN_IF_ERROR(
      CheckDeviceNames(f.global_devices, Field::kGlobalDevices, "global_devices", error, &types));
  for (const std::vector<int64_t>* ids : {&f.global_ids, &f.local_ids}) {
    for (int64_t id : *ids) {
      if (id < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Mesh device id ", id, " is negative; expected ids >= 0"));
      }
    }
  }
  TESSERA_RETURN_IF_ERROR(CheckDistinctDevices(f.local_devices, Field::kLocalDevices, error));
  TESSERA_RETURN_IF_ERROR(CheckDistinctDevices(f.global_devices, Field::kGlobalDevices, error));
  TESSERA_RETURN_IF_ERROR(CheckDistinctIds(f.global_ids, Field::kGlobalIds, "global_ids", error));
  TESSERA_RETURN_IF_ERROR(CheckDistinctIds(f.local_ids, Field::kLocalIds, "local_ids", error));
  return absl::OkStatus();
}

// numpy's str() of an int array of `shape` (without its line wrapping):
// "[1 0]", "[[ 0  1]\n [10  3]]", every entry right-aligned to the widest.
std::string NumpyIntArrayStr(absl::Span<const int64_t> values, absl::Span<const int64_t> shape) {
  size_t width = 0;
  for (int64_t v : values) width = std::max(width, absl::StrCat(v).size());
  std::string out;
  size_t next = 0;
  std::function<void(size_t)> emit = [&](size_t depth) {
    out += '[';
    for (int64_t i = 0; i < shape[depth]; ++i) {
      if (depth + 1 == shape.size()) {
        if (i > 0) out += ' ';
        const std::string v = absl::StrCat(values[next++]);
        out += std::string(width - v.size(), ' ') + v;
      } else {
        if (i > 0) out += std::string(shape.size() - depth - 1, '\n') + std::string(depth + 1, ' ');
        emit(depth + 1);
      }
    }
    out += ']';
  };
  if (shape.empty()) return absl::StrCat(values.empty() ? 0 : values[0]);
  emit(0);
  return out;
}

std::string PyIntTupleRepr(absl::Span<const int64_t> values) {
  std::vector<std::string> items;
  for (int64_t v : values) items.push_back(absl::StrCat(v));
  return PyTupleRepr(items);
}

// "CPU" etc. from a device spec string; nullopt when it names no type.
std::optional<std::string> DeviceTypeOf(const std::string& device) {
  const std::optional<TfDeviceName> parsed = ParseTfDeviceName(device);
  if (!parsed) return std::nullopt;
  return parsed->type;
}

}  // namespace

absl::StatusOr<DTensorMesh> DTensorMesh::CreateAsPython(Fields f) {
  const auto invalid = [](absl::string_view message) { return absl::InvalidArgumentError(message); };
  std::vector<int64_t> shape;
  for (const DTensorMeshDim& d : f.dims) shape.push_back(d.size);
  const int64_t size = f.dims.empty() ? 1 : DTensorMeshSize(f.dims);
  if (size != static_cast<int64_t>(f.global_ids.size())) {
    return invalid(absl::StrCat("cannot reshape array of size ", f.global_ids.size(),
                                " into shape ", PyIntTupleRepr(shape)));
  }
  if (f.global_ids.empty()) return invalid("Variable global_device_ids must be non-empty.");
  for (size_t i = 0; i < f.global_ids.size(); ++i) {
    if (f.global_ids[i] - static_cast<int64_t>(i) != f.global_ids[0]) {
      return invalid(absl::StrCat("global_device_ids must sequentially increase: ",
                                  NumpyIntArrayStr(f.global_ids, shape)));
    }
  }
  if (f.local_devices.empty() && f.global_devices.empty()) {
    return invalid("Empty list of devices not allowed.");
  }
  const auto plain = [](absl::string_view message, Part) {
    return absl::InvalidArgumentError(message);
  };
  TESSERA_RETURN_IF_ERROR(CheckDistinctDevices(f.local_devices, Field::kLocalDevices, plain));
  if (f.local_ids.size() != f.local_devices.size()) {
    return invalid("Variable local_device_ids does not have same size as local_devices.");
  }
  if (f.local_ids.size() > f.global_ids.size()) {
    return invalid("Cannot have more local than gobal device IDs.");
  }
  std::vector<std::string> types;
  bool missing = false;
  for (const std::string& device : f.local_devices.empty() ? f.global_devices : f.local_devices) {
    const std::optional<std::string> type = DeviceTypeOf(device);
    if (!type) missing = true;
    if (type && std::find(types.begin(), types.end(), *type) == types.end()) types.push_back(*type);
  }
  if (missing) return invalid("device_type is required");
  if (types.size() > 1) {
    return invalid(absl::StrCat("Devices containing multiple device_types : ", PyStrSetRepr(types)));
  }
  if (f.use_xla_spmd && types.front() != "TPU") {
    return invalid(absl::StrCat("XLA SPMD is not currently not supported for ", types.front(),
                                " mesh."));
  }
  return Create(std::move(f));
}

std::vector<int64_t> DTensorMesh::Coords(int64_t device_index) const {
  std::vector<int64_t> coords(fields_.dims.size());
  int64_t stride = 1;
  for (size_t i = fields_.dims.size(); i-- > 0;) {
    const int64_t size = fields_.dims[i].size;
    // Python's // and % round toward negative infinity.
    int64_t q = device_index / stride;
    if ((device_index % stride != 0) && ((device_index < 0) != (stride < 0))) --q;
    int64_t r = size == 0 ? 0 : q % size;
    if (r < 0) r += size;
    coords[i] = r;
    stride *= size == 0 ? 1 : size;
  }
  return coords;
}

absl::StatusOr<DTensorMesh> DTensorMesh::HostMesh() const {
  if (kind_ != Kind::kTile) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'mesh' ", PyStrRepr(ToString()),
        " is an empty or single-device DTensor mesh; expected one with dimensions"));
  }
  return ToDeviceType("CPU");
}

absl::StatusOr<DTensorMesh> DTensorMesh::ToDeviceType(absl::string_view device_type) const {
  if (is_single_device()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'mesh' ", PyStrRepr(ToString()),
        " is a single-device mesh; expected a mesh with dimensions"));
  }
  if (!IsTfIdentifier(device_type)) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'device_type' ",
                                                   PyStrRepr(device_type),
                                                   " is not a device type; expected e.g. 'CPU'"));
  }
  Fields f;
  f.dims = dims();
  f.global_ids = global_ids();
  f.local_ids = local_ids();
  for (const std::string& device : local_devices()) {
    const TfDeviceName name = *ParseTfDeviceName(device);  // checked by Create
    f.local_devices.push_back(absl::StrCat("/job:", *name.job, "/replica:",
                                           name.replica.value_or(0), "/task:", *name.task,
                                           "/device:", device_type, ":", name.index.value_or(0)));
  }
  return Create(std::move(f));
}

int64_t DTensorMeshSize(absl::Span<const DTensorMeshDim> dims) {
  if (dims.empty()) return 0;
  int64_t size = 1;
  for (const DTensorMeshDim& dim : dims) {
    if (dim.size != 0 && size > std::numeric_limits<int64_t>::max() / dim.size) return -1;
    size *= dim.size;
  }
  return size;
}

bool DTensorMesh::IsSingleDeviceName(absl::string_view device) {
  const size_t pieces = static_cast<size_t>(std::count(device.begin(), device.end(), ':')) + 1;
  return pieces == 5 || pieces == 6;
}

absl::StatusOr<DTensorMesh> DTensorMesh::SingleDevice(std::string device) {
  if (device.empty()) return absl::InvalidArgumentError("Single device is empty.");
  if (device.find('|') != std::string::npos || !IsSingleDeviceName(device)) {
    return absl::InvalidArgumentError(absl::StrCat("Input string is invalid: ", device));
  }
  DTensorMesh mesh;
  mesh.kind_ = Kind::kSingleDevice;
  mesh.single_device_ = std::move(device);
  return mesh;
}

absl::StatusOr<DTensorMesh> DTensorMesh::Create(Fields fields) {
  return Create(std::move(fields), [](absl::string_view message, Part) {
    return absl::InvalidArgumentError(message);
  });
}

absl::StatusOr<DTensorMesh> DTensorMesh::Create(Fields fields, ErrorFn error) {
  if (fields.name.find('|') != std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'name' ", PyStrRepr(fields.name), " contains '|'; DTensor's text cannot carry it"));
  }
  TESSERA_RETURN_IF_ERROR(CheckDims(fields.dims, error));
  TESSERA_RETURN_IF_ERROR(CheckCounts(fields, error));
  if (fields.global_ids.empty()) return DTensorMesh();  // DTensor: the empty mesh
  TESSERA_RETURN_IF_ERROR(CheckTile(fields, error));
  return MakeTile(std::move(fields));
}

DTensorMesh DTensorMesh::MakeTile(Fields&& fields) {
  DTensorMesh mesh;
  mesh.kind_ = Kind::kTile;
  mesh.fields_ = std::move(fields);
  return mesh;
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

}  // namespace tessera
