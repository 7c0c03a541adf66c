// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TF DTensor's layout (C++ tensorflow::dtensor::Layout, reference/dtensor.md
// §2): the value with its four types, DTensor's checks with its messages, its
// text as DTensor prints it, and the transforms and queries DTensor users
// call. Reading the text is core/formats/dtensor_text.h.
//
// Where DTensor's C++ aborts (.value() on an error, "any" or "match" where a
// shard count is needed) or reads out of bounds, Tessera returns an error
// naming the argument; everything else follows DTensor, quirks included
// (integer division in LocalShapeFromGlobalShape, IsFullyReplicated as a
// string test, out-of-range indices ignored by GetLayoutWithReducedDims and
// Delete).
#ifndef TESSERA_CORE_DTENSOR_LAYOUT_H_
#define TESSERA_CORE_DTENSOR_LAYOUT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/dtensor_mesh.h"

namespace tessera {

// DTensor's ShardVector: one 1-based shard coordinate per tensor axis for
// each device (row-major over the mesh), and the shard count per axis.
struct DTensorShardVector {
  std::vector<std::vector<int64_t>> shards;
  std::vector<int64_t> num_shards_per_dim;

  // "shards:[(1,1),(1,2)] num_shards_per_dim:(2,2)".
  std::string ToString() const;
  // DTensor's equality: the same regions once both are refined to the least
  // common multiple of the shard counts.
  friend bool operator==(const DTensorShardVector& a, const DTensorShardVector& b);
  friend bool operator!=(const DTensorShardVector& a, const DTensorShardVector& b) {
    return !(a == b);
  }
};

// A DTensor layout. Immutable value; every instance passed DTensor's checks.
class DTensorLayout {
 public:
  // Numbers match DTensor's LayoutProto.LayoutType.
  enum class Type { kEmpty = 0, kStatic = 1, kParted = 2, kSingleDevice = 3 };

  static constexpr char kUnsharded[] = "unsharded";
  static constexpr char kAny[] = "any";
  static constexpr char kMatch[] = "match";
  static constexpr char kScalar[] = "scalar";
  static constexpr char kEmptyLayoutText[] = "empty_layout";
  static constexpr char kStaticPrefix[] = "sharding_specs:";
  static constexpr char kPartedPrefix[] = "parted:";
  static constexpr char kSingleDevicePrefix[] = "maximal:";
  static constexpr char kMeshPrefix[] = "mesh:";

  // The empty layout; prints as "empty_layout".
  DTensorLayout() = default;

  // The part of a layout a failed check is about, so a parser can say where
  // in its text that part was.
  struct Part {
    enum class Field { kMesh, kSpec };
    Field field;
    size_t spec = 0;  // the spec, for kSpec
  };
  using ErrorFn = absl::FunctionRef<absl::Status(absl::string_view message, Part part)>;

  // DTensor's Layout::GetLayout checks, in its order and with its messages:
  // the type against the mesh kind, each spec a mesh dim or unsharded, any,
  // match or scalar, no mesh dim (nor match) twice, scalar only alone (it
  // gives rank 0). Tessera adds: single-device and empty layouts have no
  // specs, and the mesh text has no ' ' (the layout text splits on it).
  static absl::StatusOr<DTensorLayout> Create(Type type, std::vector<std::string> specs,
                                              DTensorMesh mesh);
  // Create, with `error` making the errors the checks place on a part.
  static absl::StatusOr<DTensorLayout> Create(Type type, std::vector<std::string> specs,
                                              DTensorMesh mesh, ErrorFn error);

  // Python's Layout(sharding_specs, mesh) constructor: its own first pass
  // (a mesh dim repeated, a spec that is neither a mesh dim nor unsharded or
  // match), with its messages, before Create's checks. Python users meet
  // these messages rather than the C++ ones, which the text parser keeps.
  static absl::StatusOr<DTensorLayout> FromPython(std::vector<std::string> specs, DTensorMesh mesh);

  // Python's Layout.from_device: the single-device layout on `device`
  // ("Single device is empty." for "").
  static absl::StatusOr<DTensorLayout> FromDevice(std::string device);

  // Parses layout text (defined in core/formats/dtensor_text.cc, which says
  // what it accepts).
  static absl::StatusOr<DTensorLayout> Parse(absl::string_view text);

  // Layout::ToString.
  std::string ToString() const;

  Type type() const { return type_; }
  const std::vector<std::string>& specs() const { return specs_; }
  size_t rank() const { return specs_.size(); }
  const DTensorMesh& mesh() const { return mesh_; }

  // ---- Transforms (each result passes Create's checks) ----

  // The same layout over Mesh::ToDeviceType(device_type) (DTensorMeshToDeviceType).
  absl::StatusOr<DTensorLayout> ToDeviceType(absl::string_view device_type) const;
  // ToParted: the same specs and mesh, type parted.
  absl::StatusOr<DTensorLayout> ToParted() const;
  // Truncate: end false keeps specs[:split], end true specs[split:]; type
  // and mesh kept. OUT_OF_RANGE when split > rank (DTensor would pad with
  // empty specs or read out of bounds).
  absl::StatusOr<DTensorLayout> Truncate(size_t split, bool end) const;
  // LeftPad: "unsharded" prepended up to `rank`; unchanged when rank <= rank().
  DTensorLayout LeftPad(size_t rank) const;
  // GetLayoutWithReducedDims: a static layout without the listed axes (or
  // with them "unsharded" when keep_dims); index i also matches i - rank, so
  // -1 is the last axis. Indices matching no axis are ignored, as in DTensor.
  absl::StatusOr<DTensorLayout> WithReducedDims(absl::Span<const int64_t> dims,
                                                bool keep_dims) const;
  // Python's Layout.delete: a static layout without the listed axes
  // (non-negative positions; others match nothing, as in Python).
  absl::StatusOr<DTensorLayout> Delete(absl::Span<const int64_t> dims) const;
  // Transposed2D: the last two specs swapped, static; "Transposed2D requires
  // rank to be >= 2" below rank 2.
  absl::StatusOr<DTensorLayout> Transposed2D() const;

  // ---- Queries ----

  // num_shards_for_dim: 1 for unsharded, -1 for match, the mesh dim's size
  // otherwise; INVALID_ARGUMENT for any or scalar (DTensor aborts), and
  // OUT_OF_RANGE for dim >= rank.
  absl::StatusOr<int64_t> NumShardsForDim(size_t dim) const;
  absl::StatusOr<std::vector<int64_t>> NumShards() const;

  // A tile mesh and every spec the string "unsharded" (a string test: a
  // spec over a size-1 mesh dim is not replicated; rank 0 is).
  bool IsFullyReplicated() const;
  // A tile mesh, and no specs or the last one unsharded.
  bool IsLastDimReplicated() const;
  // A tile mesh, rank > 0, spec 0 not unsharded and all others unsharded.
  bool IsBatchParallel() const;
  // IsBatchParallel(non_batch_rank): a tile mesh and the last
  // non_batch_rank axes have one shard (true at rank 0). OUT_OF_RANGE when
  // non_batch_rank > rank.
  absl::StatusOr<bool> IsBatchParallel(size_t non_batch_rank) const;

  // IsEquivalentIgnoringType: the same rank and mesh, and each axis with the
  // same spec or one shard on both sides (a spec with no shard count, any,
  // counts as not one).
  bool IsEquivalentIgnoringType(const DTensorLayout& other) const;
  // IsEquivalent: the same type as well.
  bool IsEquivalent(const DTensorLayout& other) const;

  // ReducedMesh: the mesh dims no spec names set to size 1, global ids (and
  // global devices) of the remaining positions, local ids and devices among
  // them in their original order, no name.
  absl::StatusOr<DTensorMesh> ReducedMesh() const;
  // GetShardVector. INVALID_ARGUMENT for an any or match spec.
  absl::StatusOr<DTensorShardVector> ShardVector() const;
  // HostShardMap: per host ("/job:J/task:T" of the reduced mesh's local
  // devices) the sorted distinct shards of its devices.
  absl::StatusOr<std::map<std::string, DTensorShardVector>> HostShardMap() const;

  // Python's offset_to_shard()[offset]: per axis the mesh coordinate of its
  // mesh dim, 0 when unsharded. OUT_OF_RANGE for offset >= the mesh size,
  // INVALID_ARGUMENT for an any or match spec.
  absl::StatusOr<std::vector<int64_t>> OffsetToShard(size_t offset) const;
  // Python's offset_tuple_to_global_index: sum of t[i] times the product of
  // num_shards(x) for x in i+1 .. rank-1.
  absl::StatusOr<int64_t> OffsetTupleToGlobalIndex(absl::Span<const int64_t> offsets) const;

  // LocalShapeFromGlobalShape: unchanged when fully replicated; else each
  // size divided by its shard count (integer division, as in DTensor), a
  // dynamic size (IsDTensorDynamicSize) kept. INVALID_ARGUMENT for a shape
  // whose length is not the rank, a negative static size, or an any or
  // match spec.
  absl::StatusOr<std::vector<int64_t>> LocalShapeFromGlobalShape(
      absl::Span<const int64_t> global_shape) const;
  // GlobalShapeFromLocalShape: unchanged (or local_shapes[0] for a dynamic
  // shape when given) for a single-device or fully replicated layout; else
  // each size times its shard count, except that a dynamic size with one
  // local shape per local device is the sum of the sizes of that axis's
  // shards, stepping through the local devices as DTensor does.
  absl::StatusOr<std::vector<int64_t>> GlobalShapeFromLocalShape(
      absl::Span<const int64_t> local_shape,
      const std::vector<std::vector<int64_t>>* local_shapes = nullptr) const;

  friend bool operator==(const DTensorLayout& a, const DTensorLayout& b) {
    return a.type_ == b.type_ && a.specs_ == b.specs_ && a.mesh_ == b.mesh_;
  }
  friend bool operator!=(const DTensorLayout& a, const DTensorLayout& b) { return !(a == b); }

 private:
  // A layout over checked arguments; a lone "scalar" spec becomes rank 0.
  static DTensorLayout Make(Type type, std::vector<std::string> specs, DTensorMesh mesh);
  // The mesh dim index of spec `dim`; INVALID_ARGUMENT for any, match, scalar.
  absl::StatusOr<size_t> MeshDimOfSpec(size_t dim) const;

  Type type_ = Type::kEmpty;
  std::vector<std::string> specs_;
  DTensorMesh mesh_;
};

// ConcatenateLayouts: a's specs then b's, a's type and mesh. "unable to
// concatenate layouts as they are on different meshes." / "... they use the
// same meshes dimension: <d> is used in both layouts." (only "unsharded" may
// repeat).
absl::StatusOr<DTensorLayout> ConcatenateDTensorLayouts(const DTensorLayout& a,
                                                        const DTensorLayout& b);

// GetMostShardedLayout: per axis of layouts[0], the mesh dim the layouts
// shard it over when exactly one is used there and nowhere else, else
// "unsharded"; static, on layouts[0]'s mesh. "Layout should not be empty"
// for none.
absl::StatusOr<DTensorLayout> MostShardedDTensorLayout(absl::Span<const DTensorLayout> layouts);
// GetLeastShardedLayout: per axis the spec all layouts agree on, else
// "unsharded"; static, on layouts[0]'s mesh. "Layout should not be empty",
// "Not all layouts to GetLeastShardedLayout are of the same rank."
absl::StatusOr<DTensorLayout> LeastShardedDTensorLayout(absl::Span<const DTensorLayout> layouts);

// IsDynamicSize: -1 (TF) or INT64_MIN (MLIR's kDynamic).
bool IsDTensorDynamicSize(int64_t size);

// Mesh queries the layout's need (DTensor's Mesh methods of the same names).

// Mesh::device_location: the row-major coordinate of `offset`; "Mesh offset
// cannot be negative or exceed Mesh's size. Offset size:<o> and Mesh
// size:<s>" (OUT_OF_RANGE) past the end.
absl::StatusOr<std::vector<int64_t>> DTensorMeshDeviceLocation(const DTensorMesh& mesh,
                                                               size_t offset);
// Mesh::hosts: "/job:J/task:T" of each local device, first seen first.
std::vector<std::string> DTensorMeshHosts(const DTensorMesh& mesh);
// Mesh::ToDeviceType (host_mesh() is "CPU"): each local device renamed
// "/job:J/replica:R/task:T/device:<type>:<index>", no name, no global
// devices; then GetMesh's checks. INVALID_ARGUMENT for a single-device mesh
// (DTensor would silently give the empty mesh).
absl::StatusOr<DTensorMesh> DTensorMeshToDeviceType(const DTensorMesh& mesh,
                                                    absl::string_view device_type);

}  // namespace tessera

#endif  // TESSERA_CORE_DTENSOR_LAYOUT_H_
