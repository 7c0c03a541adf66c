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
#include "core/layout.h"
#include "core/mesh.h"

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
// parses back to an equal value.
class DTensorMesh {
 public:
  // Numbers match tessera_dtensor_mesh_kind in the C ABI.
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
  // empty dimension names, ids and sizes >= 0.
  static absl::StatusOr<DTensorMesh> Create(Fields fields);

  // Parses mesh text (see the top of this file).
  static absl::StatusOr<DTensorMesh> Parse(absl::string_view text);

  // Mesh::ToString.
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

  friend bool operator==(const DTensorMesh& a, const DTensorMesh& b);
  friend bool operator!=(const DTensorMesh& a, const DTensorMesh& b) { return !(a == b); }

 private:
  friend class DTensorLayout;

  // Parse, with error positions counted from `base` (a layout's mesh part).
  static absl::StatusOr<DTensorMesh> ParseAt(absl::string_view text, size_t base);
  // A tile mesh over fields already checked.
  static DTensorMesh MakeTile(Fields&& fields);

  Kind kind_ = Kind::kEmpty;
  Fields fields_;
  std::string single_device_;
};

// A DTensor layout (C++ tensorflow::dtensor::Layout). Immutable value.
class DTensorLayout {
 public:
  // Numbers match DTensor's LayoutProto.LayoutType.
  enum class Type { kEmpty = 0, kStatic = 1, kParted = 2, kSingleDevice = 3 };

  static constexpr char kUnsharded[] = "unsharded";
  static constexpr char kAny[] = "any";
  static constexpr char kMatch[] = "match";
  static constexpr char kScalar[] = "scalar";
  static constexpr char kEmptyLayoutText[] = "empty_layout";

  // The empty layout; prints as "empty_layout".
  DTensorLayout() = default;

  // DTensor's Layout::GetLayout checks, in its order and with its messages:
  // the type against the mesh kind, each spec a mesh dim or unsharded, any,
  // match or scalar, no mesh dim (nor match) twice, scalar only alone (it
  // gives rank 0). Tessera adds: single-device and empty layouts have no
  // specs, and the mesh text has no ' ' (the layout text splits on it).
  static absl::StatusOr<DTensorLayout> Create(Type type, std::vector<std::string> specs,
                                              DTensorMesh mesh);

  // Parses layout text (see the top of this file).
  static absl::StatusOr<DTensorLayout> Parse(absl::string_view text);

  // Layout::ToString.
  std::string ToString() const;

  Type type() const { return type_; }
  const std::vector<std::string>& specs() const { return specs_; }
  size_t rank() const { return specs_.size(); }
  const DTensorMesh& mesh() const { return mesh_; }

  friend bool operator==(const DTensorLayout& a, const DTensorLayout& b) {
    return a.type_ == b.type_ && a.specs_ == b.specs_ && a.mesh_ == b.mesh_;
  }
  friend bool operator!=(const DTensorLayout& a, const DTensorLayout& b) { return !(a == b); }

 private:
  // A layout over checked arguments; a lone "scalar" spec becomes rank 0.
  static DTensorLayout Make(Type type, std::vector<std::string> specs, DTensorMesh mesh);

  Type type_ = Type::kEmpty;
  std::vector<std::string> specs_;
  DTensorMesh mesh_;
};

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
