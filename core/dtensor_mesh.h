// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TF DTensor's mesh (C++ tensorflow::dtensor::Mesh, reference/dtensor.md
// §1.3): the value, DTensor's checks with its messages, and its text as
// DTensor prints it. Reading the text is core/formats/dtensor_text.h.
#ifndef TESSERA_CORE_DTENSOR_MESH_H_
#define TESSERA_CORE_DTENSOR_MESH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessera {

struct DTensorMeshDim {
  std::string name;
  int64_t size = 0;

  friend bool operator==(const DTensorMeshDim& a, const DTensorMeshDim& b) {
    return a.name == b.name && a.size == b.size;
  }
  friend bool operator!=(const DTensorMeshDim& a, const DTensorMeshDim& b) { return !(a == b); }
};

// A DTensor mesh as its text describes it (C++ tensorflow::dtensor::Mesh's
// fields). Immutable value; every instance is valid and prints to text that
// parses back to an equal value
// (ParseDTensorMesh in core/formats/dtensor_text.h).
class DTensorMesh {
 public:
  // Numbers match tessera_dtensor_mesh_kind_t in the C ABI.
  enum class Kind { kEmpty = 0, kTile = 1, kSingleDevice = 2 };

  // What Create takes: the fields of a tile mesh.
  struct Fields {
    std::string name;
    std::vector<DTensorMeshDim> dims;      // row-major, last dim fastest
    std::vector<int64_t> global_ids;       // row-major, one per mesh position
    std::vector<int64_t> local_ids;        // this client's, 1:1 with local_devices
    std::vector<std::string> local_devices;   // "/job:J/replica:R/task:T/device:TYPE:N"
    std::vector<std::string> global_devices;  // optional (several meshes in use)
    bool use_xla_spmd = false;
  };

  static constexpr char kEmptyMeshText[] = "empty_mesh";
  static constexpr char kUseXlaSpmdText[] = "use_xla_spmd";
  // The shorthand `*TYPE` expands to at most this many devices, so a short
  // hostile text cannot ask for gigabytes.
  static constexpr int64_t kMaxShorthandDevices = int64_t{1} << 17;

  // The empty mesh (no dims, no ids); prints as "empty_mesh".
  DTensorMesh() = default;

  // DTensor's GetSingleDeviceMesh: "Single device is empty." for "". The
  // device must also re-parse: no '|', and split on ':' into 5 or 6 pieces
  // ("Input string is invalid: <device>").
  static absl::StatusOr<DTensorMesh> SingleDevice(std::string device);

  // DTensor's Mesh::GetMesh checks, in its order and with its messages:
  // reserved (any, match, unsharded) or repeated dimension names, the counts
  // of ids and devices, no global ids (gives the empty mesh, not an error),
  // uneven local clusters, the size, device names with job, task and type,
  // one device type. Tessera adds what the text needs to re-parse: no '|' in
  // any field, no ',' or '=' in dimension names, no ',' in device names, no
  // empty dimension names, ids and sizes >= 0; and, as ARCHITECTURE.md
  // decides, no device twice: a device named twice among the local or the
  // global devices gives DTensor's Python "Duplicate devices found in mesh
  // specification ['...', '...']." (also for a repeated host CPU, which
  // DTensor lets through), an id listed twice its own error.
  static absl::StatusOr<DTensorMesh> Create(Fields fields);

  // The part of Fields a failed check is about, so a parser can say where in
  // its text that part was.
  struct Part {
    enum class Field { kDims, kGlobalIds, kLocalIds, kLocalDevices, kGlobalDevices };
    Field field;
    std::optional<size_t> entry;  // a list entry; nullopt: the whole field
  };
  // Makes the error of a failed check from its message and the part at fault.
  using ErrorFn = absl::FunctionRef<absl::Status(absl::string_view message, Part part)>;
  // Create, with `error` making the errors the checks place on a part (the
  // others are INVALID_ARGUMENT with the message alone).
  static absl::StatusOr<DTensorMesh> Create(Fields fields, ErrorFn error);

  // DTensor's Python Mesh(dim_names, global_device_ids, local_device_ids,
  // local_devices, mesh_name, global_devices, use_xla_spmd): its checks in
  // its order with its messages, the dims giving global_device_ids' shape
  // (numpy's "cannot reshape array of size 4 into shape (3,)" when they
  // cannot), then Create's. Python's messages: "Variable global_device_ids
  // must be non-empty.", "global_device_ids must sequentially increase: [1
  // 0]" (numpy's print, without its line wrapping), "Empty list of devices not
  // allowed.", "Duplicate devices found in mesh specification [...]." (also
  // for a repeated host CPU), "Variable local_device_ids does not have same
  // size as local_devices.", "Cannot have more local than gobal device IDs.",
  // "device_type is required", "Devices containing multiple device_types :
  // {'CPU', 'TPU'}", "XLA SPMD is not currently not supported for CPU mesh.".
  static absl::StatusOr<DTensorMesh> CreateAsPython(Fields fields);

  // DTensor's single-device check: the name splits on ':' into 5 or 6 pieces.
  static bool IsSingleDeviceName(absl::string_view device);

  // Mesh::ToString: the mesh text.
  std::string ToString() const;

  Kind kind() const { return kind_; }
  bool is_empty() const { return kind_ == Kind::kEmpty; }
  bool is_single_device() const { return kind_ == Kind::kSingleDevice; }
  // A tile mesh's fields (empty lists otherwise).
  const std::string& name() const { return fields_.name; }
  const std::vector<DTensorMeshDim>& dims() const { return fields_.dims; }
  const std::vector<int64_t>& global_ids() const { return fields_.global_ids; }
  const std::vector<int64_t>& local_ids() const { return fields_.local_ids; }
  const std::vector<std::string>& local_devices() const { return fields_.local_devices; }
  const std::vector<std::string>& global_devices() const { return fields_.global_devices; }
  bool use_xla_spmd() const { return fields_.use_xla_spmd; }
  // The device of a single-device mesh ("" otherwise).
  const std::string& single_device() const { return single_device_; }

  // DTensor's device_type(): "" for the empty mesh and for a tile mesh with
  // no device strings (a remote mesh); else the type in the single device,
  // the first global device or the first local device ("CPU").
  std::string device_type() const;

  bool HasDim(absl::string_view name) const;
  // DTensor's dim_size: NOT_FOUND "Dimension <n> does not exist in
  // mesh.Available dimensions: a,b" (DTensor's text, without its space).
  absl::StatusOr<int64_t> DimSize(absl::string_view name) const;
  // DTensor's idx_for_dim: INVALID_ARGUMENT "dim name :<n> does not exist on
  // mesh : <text>".
  absl::StatusOr<size_t> DimIndex(absl::string_view name) const;

  // Python's Mesh.coords(device_idx) = (device_idx // strides) % shape, with
  // Python's floor division: any index wraps onto the mesh.
  std::vector<int64_t> Coords(int64_t device_index) const;

  // Python's Mesh.host_mesh() (TF 2.21: C++ host_mesh, ToDeviceType("CPU"),
  // for a CPU mesh too). INVALID_ARGUMENT for an empty or single-device mesh.
  absl::StatusOr<DTensorMesh> HostMesh() const;

  // Mesh::ToDeviceType: each local device renamed
  // "/job:J/replica:R/task:T/device:<type>:<index>" (replica 0 when unnamed),
  // no name, no global devices, no use_xla_spmd; then GetMesh's checks.
  // INVALID_ARGUMENT for a single-device mesh (DTensor would silently give the
  // empty mesh) or a type that is not an identifier.
  absl::StatusOr<DTensorMesh> ToDeviceType(absl::string_view device_type) const;

  friend bool operator==(const DTensorMesh& a, const DTensorMesh& b);
  friend bool operator!=(const DTensorMesh& a, const DTensorMesh& b) { return !(a == b); }

 private:
  // A tile mesh over fields already checked.
  static DTensorMesh MakeTile(Fields&& fields);

  Kind kind_ = Kind::kEmpty;
  Fields fields_;
  std::string single_device_;
};

// Product of the dims, or 0 with no dims (DTensor's size()); -1 on
// overflow, which then matches no id count.
int64_t DTensorMeshSize(absl::Span<const DTensorMeshDim> dims);

}  // namespace tessera

#endif  // TESSERA_CORE_DTENSOR_MESH_H_
