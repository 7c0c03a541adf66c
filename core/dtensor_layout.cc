// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/dtensor_layout.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/py_repr.h"
#include "core/status_macros.h"
#include "core/tf_device_name.h"

namespace tessera {
namespace {

using Type = DTensorLayout::Type;
using Part = DTensorLayout::Part;

bool IsSpecial(absl::string_view spec) {
  return spec == DTensorLayout::kUnsharded || spec == DTensorLayout::kAny ||
         spec == DTensorLayout::kMatch || spec == DTensorLayout::kScalar;
}

// DTensor's GetLayout checks, in its order.
absl::Status CheckLayout(Type type, const std::vector<std::string>& specs,
                         const DTensorMesh& mesh, DTensorLayout::ErrorFn error) {
  const Part mesh_part{Part::Field::kMesh};
  if ((type == Type::kSingleDevice) != mesh.is_single_device()) {
    return error("type is single device, but mesh is not single device", mesh_part);
  }
  if ((type == Type::kEmpty) != mesh.is_empty()) {
    return error("type is empty, but mesh is not empty", mesh_part);
  }
  if ((type == Type::kSingleDevice || type == Type::kEmpty) && !specs.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'specs' has ", specs.size(),
        " entries; expected none for an empty or single-device layout"));
  }
  const std::string mesh_text = mesh.ToString();
  if (mesh_text.find(' ') != std::string::npos) {
    return error(absl::StrCat("Mesh ", PyStrRepr(mesh_text),
                              " contains ' '; DTensor's layout text cannot carry it"),
                 mesh_part);
  }
  for (size_t i = 0; i < specs.size(); ++i) {
    if (!IsSpecial(specs[i]) && !mesh.HasDim(specs[i])) {
      return error(absl::StrCat("sharding spec (", specs[i],
                                ") refers to mesh dimension not contained in mesh ", mesh_text),
                   Part{Part::Field::kSpec, i});
    }
  }
  absl::flat_hash_set<absl::string_view> used;
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string& spec = specs[i];
    if (spec == DTensorLayout::kUnsharded || spec == DTensorLayout::kAny) continue;
    if (spec == DTensorLayout::kScalar) {
      if (specs.size() == 1) continue;
      return error(absl::StrCat("A scalar sharding_spec can only be used as a single "
                                "sharding_spec instruction, not as part of list of "
                                "sharding_specs as attempted here with ",
                                specs.size(), " sharding_specs"),
                   Part{Part::Field::kSpec, i});
    }
    if (!used.insert(spec).second) {  // "match" is not exempt in DTensor's C++
      return error(absl::StrCat("Attempted to shard two or more tensor dimensions over mesh "
                                "dimension ",
                                spec),
                   Part{Part::Field::kSpec, i});
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRankArgument(const char* name, size_t value, size_t rank) {
  if (value <= rank) return absl::OkStatus();
  return absl::OutOfRangeError(absl::StrCat("Argument '", name, "' is ", value,
                                            "; expected at most the layout's rank ", rank));
}

absl::Status CheckShapeLength(const char* name, size_t length, size_t rank) {
  if (length == rank) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' has ", length,
                                                 " entries; expected the layout's rank ", rank));
}

// Row-major positions of every coordinate of `sizes` (DTensor's
// ComputeDeviceLocations).
std::vector<std::vector<int64_t>> AllLocations(const std::vector<int64_t>& sizes) {
  std::vector<std::vector<int64_t>> out;
  if (sizes.empty()) return out;
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  std::vector<int64_t> loc(sizes.size(), 0);
  for (int64_t n = 0; n < total; ++n) {
    out.push_back(loc);
    for (size_t i = sizes.size(); i-- > 0;) {
      if (++loc[i] < sizes[i]) break;
      loc[i] = 0;
    }
  }
  return out;
}

std::vector<int64_t> DimSizes(const DTensorMesh& mesh) {
  std::vector<int64_t> sizes;
  for (const DTensorMeshDim& dim : mesh.dims()) sizes.push_back(dim.size);
  return sizes;
}

int64_t Flatten(const std::vector<int64_t>& loc, const std::vector<int64_t>& sizes) {
  int64_t pos = 0;
  for (size_t i = 0; i < sizes.size(); ++i) pos = pos * sizes[i] + loc[i];
  return pos;
}

// DTensor's ExpandShardVector: every shard split into new/old pieces per axis.
std::vector<std::vector<int64_t>> Expand(const DTensorShardVector& v,
                                         const std::vector<int64_t>& sizes) {
  std::vector<std::vector<int64_t>> shards = v.shards;
  for (size_t d = 0; d < sizes.size(); ++d) {
    const int64_t ratio = sizes[d] / v.num_shards_per_dim[d];
    std::vector<std::vector<int64_t>> next;
    for (const std::vector<int64_t>& shard : shards) {
      for (int64_t i = 0; i < ratio; ++i) {
        std::vector<int64_t> piece = shard;
        piece[d] = (shard[d] - 1) * ratio + 1 + i;
        next.push_back(std::move(piece));
      }
    }
    shards = std::move(next);
  }
  std::sort(shards.begin(), shards.end());
  return shards;
}

}  // namespace

// ---------------------------------------------------------------------------
// DTensorShardVector

std::string DTensorShardVector::ToString() const {
  return absl::StrCat(
      "shards:[",
      absl::StrJoin(shards, ",",
                    [](std::string* out, const std::vector<int64_t>& shard) {
                      absl::StrAppend(out, "(", absl::StrJoin(shard, ","), ")");
                    }),
      "] num_shards_per_dim:(", absl::StrJoin(num_shards_per_dim, ","), ")");
}

bool operator==(const DTensorShardVector& a, const DTensorShardVector& b) {
  if (a.shards.empty() && b.shards.empty()) return true;
  if (a.shards.empty() || b.shards.empty()) return false;
  if (a.num_shards_per_dim.size() != b.num_shards_per_dim.size()) return false;
  std::vector<int64_t> lcm;
  for (size_t i = 0; i < a.num_shards_per_dim.size(); ++i) {
    const int64_t x = a.num_shards_per_dim[i], y = b.num_shards_per_dim[i];
    if (x <= 0 || y <= 0) return x == y && a.shards == b.shards;
    lcm.push_back(x / std::gcd(x, y) * y);
  }
  return Expand(a, lcm) == Expand(b, lcm);
}

// ---------------------------------------------------------------------------
// DTensorLayout: construction and text

absl::StatusOr<DTensorLayout> DTensorLayout::Create(Type type, std::vector<std::string> specs,
                                                    DTensorMesh mesh) {
  return Create(type, std::move(specs), std::move(mesh),
                [](absl::string_view message, Part) {
                  return absl::InvalidArgumentError(message);
                });
}

absl::StatusOr<DTensorLayout> DTensorLayout::Create(Type type, std::vector<std::string> specs,
                                                    DTensorMesh mesh, ErrorFn error) {
  TESSERA_RETURN_IF_ERROR(CheckLayout(type, specs, mesh, error));
  return Make(type, std::move(specs), std::move(mesh));
}

absl::StatusOr<DTensorLayout> DTensorLayout::FromPython(std::vector<std::string> specs,
                                                       DTensorMesh mesh) {
  for (const std::string& spec : specs) {
    if (spec == kUnsharded || spec == kMatch) continue;
    if (std::count(specs.begin(), specs.end(), spec) > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Mesh dimension ", spec, " was repeated in sharding specification ",
          PyStrListRepr(specs), ". Mesh dimensions must be unique in a layout."));
    }
    if (!mesh.HasDim(spec)) {
      return absl::InvalidArgumentError(absl::StrCat(
          spec, ": A dimension sharding must either be a valid mesh dimension or UNSHARDED."));
    }
  }
  return Create(Type::kStatic, std::move(specs), std::move(mesh));
}

absl::StatusOr<DTensorLayout> DTensorLayout::FromDevice(std::string device) {
  TESSERA_ASSIGN_OR_RETURN(DTensorMesh mesh, DTensorMesh::SingleDevice(std::move(device)));
  return Create(Type::kSingleDevice, {}, std::move(mesh));
}

DTensorLayout DTensorLayout::Make(Type type, std::vector<std::string> specs, DTensorMesh mesh) {
  if (specs.size() == 1 && specs[0] == kScalar) specs.clear();  // rank 0
  DTensorLayout layout;
  layout.type_ = type;
  layout.specs_ = std::move(specs);
  layout.mesh_ = std::move(mesh);
  return layout;
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
// Transforms

absl::StatusOr<DTensorLayout> DTensorLayout::ToDeviceType(absl::string_view device_type) const {
  TESSERA_ASSIGN_OR_RETURN(DTensorMesh mesh, DTensorMeshToDeviceType(mesh_, device_type));
  return Create(type_, specs_, std::move(mesh));
}

absl::StatusOr<DTensorLayout> DTensorLayout::ToParted() const {
  return Create(Type::kParted, specs_, mesh_);
}

absl::StatusOr<DTensorLayout> DTensorLayout::Truncate(size_t split, bool end) const {
  TESSERA_RETURN_IF_ERROR(CheckRankArgument("split", split, rank()));
  DTensorLayout out = *this;
  if (end) {
    out.specs_.erase(out.specs_.begin(), out.specs_.begin() + static_cast<ptrdiff_t>(split));
  } else {
    out.specs_.resize(split);
  }
  return out;
}

DTensorLayout DTensorLayout::LeftPad(size_t rank) const {
  if (rank <= this->rank()) return *this;
  DTensorLayout out = *this;
  out.specs_.insert(out.specs_.begin(), rank - this->rank(), kUnsharded);
  return out;
}

absl::StatusOr<DTensorLayout> DTensorLayout::WithReducedDims(absl::Span<const int64_t> dims,
                                                             bool keep_dims) const {
  const int64_t r = static_cast<int64_t>(rank());
  std::vector<std::string> specs;
  for (int64_t i = 0; i < r; ++i) {
    const bool reduced = std::find(dims.begin(), dims.end(), i) != dims.end() ||
                         std::find(dims.begin(), dims.end(), i - r) != dims.end();
    if (!reduced) {
      specs.push_back(specs_[static_cast<size_t>(i)]);
    } else if (keep_dims) {
      specs.push_back(kUnsharded);
    }
  }
  return Create(Type::kStatic, std::move(specs), mesh_);
}

absl::StatusOr<DTensorLayout> DTensorLayout::Delete(absl::Span<const int64_t> dims) const {
  std::vector<std::string> specs;
  for (size_t i = 0; i < rank(); ++i) {
    if (std::find(dims.begin(), dims.end(), static_cast<int64_t>(i)) == dims.end()) {
      specs.push_back(specs_[i]);
    }
  }
  return Create(Type::kStatic, std::move(specs), mesh_);
}

absl::StatusOr<DTensorLayout> DTensorLayout::Transposed2D() const {
  if (rank() < 2) return absl::InvalidArgumentError("Transposed2D requires rank to be >= 2");
  std::vector<std::string> specs = specs_;
  std::swap(specs[specs.size() - 2], specs[specs.size() - 1]);
  return Create(Type::kStatic, std::move(specs), mesh_);
}

absl::StatusOr<DTensorLayout> ConcatenateDTensorLayouts(const DTensorLayout& a,
                                                        const DTensorLayout& b) {
  if (a.mesh() != b.mesh()) {
    return absl::InvalidArgumentError(
        "unable to concatenate layouts as they are on different meshes.");
  }
  absl::flat_hash_set<absl::string_view> used;
  for (const std::string& spec : a.specs()) {
    if (spec != DTensorLayout::kUnsharded) used.insert(spec);
  }
  for (const std::string& spec : b.specs()) {
    if (spec != DTensorLayout::kUnsharded && used.contains(spec)) {
      return absl::InvalidArgumentError(
          absl::StrCat("unable to concatenate layouts as they use the same meshes dimension: ",
                       spec, " is used in both layouts."));
    }
  }
  std::vector<std::string> specs = a.specs();
  specs.insert(specs.end(), b.specs().begin(), b.specs().end());
  return DTensorLayout::Create(a.type(), std::move(specs), a.mesh());
}

absl::StatusOr<DTensorLayout> MostShardedDTensorLayout(absl::Span<const DTensorLayout> layouts) {
  if (layouts.empty()) return absl::InvalidArgumentError("Layout should not be empty");
  // Each mesh dim's tensor axes, and each axis's mesh dims; a conflict on
  // either side leaves the axis unsharded.
  std::map<std::string, std::set<size_t>> axes_of;
  for (const DTensorLayout& layout : layouts) {
    for (size_t i = 0; i < layout.rank(); ++i) {
      if (layout.specs()[i] != DTensorLayout::kUnsharded) axes_of[layout.specs()[i]].insert(i);
    }
  }
  std::map<size_t, std::set<std::string>> dims_of;
  for (const auto& [dim, axes] : axes_of) {
    if (axes.size() == 1) dims_of[*axes.begin()].insert(dim);
  }
  std::vector<std::string> specs;
  for (size_t i = 0; i < layouts[0].rank(); ++i) {
    const auto it = dims_of.find(i);
    specs.push_back(it != dims_of.end() && it->second.size() == 1 ? *it->second.begin()
                                                                   : DTensorLayout::kUnsharded);
  }
  return DTensorLayout::Create(Type::kStatic, std::move(specs), layouts[0].mesh());
}

absl::StatusOr<DTensorLayout> LeastShardedDTensorLayout(absl::Span<const DTensorLayout> layouts) {
  if (layouts.empty()) return absl::InvalidArgumentError("Layout should not be empty");
  const size_t rank = layouts[0].rank();
  for (const DTensorLayout& layout : layouts) {
    if (layout.rank() != rank) {
      return absl::InvalidArgumentError(
          "Not all layouts to GetLeastShardedLayout are of the same rank.");
    }
  }
  std::vector<std::string> specs(rank, DTensorLayout::kAny);
  for (const DTensorLayout& layout : layouts) {
    for (size_t i = 0; i < rank; ++i) {
      if (specs[i] == DTensorLayout::kAny) {
        specs[i] = layout.specs()[i];
      } else if (specs[i] != layout.specs()[i]) {
        specs[i] = DTensorLayout::kUnsharded;
      }
    }
  }
  return DTensorLayout::Create(Type::kStatic, std::move(specs), layouts[0].mesh());
}

// ---------------------------------------------------------------------------
// Queries

absl::StatusOr<size_t> DTensorLayout::MeshDimOfSpec(size_t dim) const {
  const std::string& spec = specs_[dim];
  if (spec == kAny || spec == kMatch || spec == kScalar) {
    return absl::InvalidArgumentError(
        absl::StrCat("Layout dimension ", dim, " has sharding spec '", spec,
                     "', which names no mesh dimension; expected a mesh dimension or unsharded"));
  }
  return mesh_.DimIndex(spec);
}

absl::StatusOr<int64_t> DTensorLayout::NumShardsForDim(size_t dim) const {
  if (dim >= rank()) {
    return absl::OutOfRangeError(absl::StrCat("Argument 'dim' is ", dim,
                                              "; expected less than the layout's rank ", rank()));
  }
  if (specs_[dim] == kUnsharded) return 1;
  if (specs_[dim] == kMatch) return -1;
  TESSERA_ASSIGN_OR_RETURN(size_t index, MeshDimOfSpec(dim));
  return mesh_.dims()[index].size;
}

absl::StatusOr<std::vector<int64_t>> DTensorLayout::NumShards() const {
  std::vector<int64_t> out;
  for (size_t i = 0; i < rank(); ++i) {
    TESSERA_ASSIGN_OR_RETURN(int64_t n, NumShardsForDim(i));
    out.push_back(n);
  }
  return out;
}

bool DTensorLayout::IsFullyReplicated() const {
  if (mesh_.kind() != DTensorMesh::Kind::kTile && !mesh_.is_empty()) return false;
  return std::all_of(specs_.begin(), specs_.end(),
                     [](const std::string& s) { return s == kUnsharded; });
}

bool DTensorLayout::IsLastDimReplicated() const {
  const bool tile = !mesh_.is_single_device();
  return tile && (specs_.empty() || specs_.back() == kUnsharded);
}

bool DTensorLayout::IsBatchParallel() const {
  if (mesh_.is_single_device() || specs_.empty()) return false;
  for (size_t i = 1; i < specs_.size(); ++i) {
    if (specs_[i] != kUnsharded) return false;
  }
  return specs_[0] != kUnsharded;
}

absl::StatusOr<bool> DTensorLayout::IsBatchParallel(size_t non_batch_rank) const {
  if (mesh_.is_single_device()) return false;
  if (specs_.empty()) return true;
  TESSERA_RETURN_IF_ERROR(CheckRankArgument("non_batch_rank", non_batch_rank, rank()));
  for (size_t i = rank() - non_batch_rank; i < rank(); ++i) {
    const absl::StatusOr<int64_t> n = NumShardsForDim(i);
    if (!n.ok() || *n != 1) return false;
  }
  return true;
}

bool DTensorLayout::IsEquivalentIgnoringType(const DTensorLayout& other) const {
  if (rank() != other.rank() || mesh_ != other.mesh_) return false;
  for (size_t i = 0; i < rank(); ++i) {
    if (specs_[i] == other.specs_[i]) continue;
    const absl::StatusOr<int64_t> a = NumShardsForDim(i), b = other.NumShardsForDim(i);
    if (!a.ok() || !b.ok() || *a != 1 || *b != 1) return false;
  }
  return true;
}

bool DTensorLayout::IsEquivalent(const DTensorLayout& other) const {
  return type_ == other.type_ && IsEquivalentIgnoringType(other);
}

absl::StatusOr<DTensorMesh> DTensorLayout::ReducedMesh() const {
  DTensorMesh::Fields f;
  for (const DTensorMeshDim& dim : mesh_.dims()) {
    const bool named = std::find(specs_.begin(), specs_.end(), dim.name) != specs_.end();
    f.dims.push_back({dim.name, named ? dim.size : 1});
  }
  const std::vector<int64_t> sizes = DimSizes(mesh_);
  std::vector<int64_t> reduced_sizes;
  for (const DTensorMeshDim& dim : f.dims) reduced_sizes.push_back(dim.size);
  const std::vector<std::string>& global_devices = mesh_.global_devices();
  if (!global_devices.empty() && global_devices.size() != mesh_.global_ids().size()) {
    // DTensor reads global_devices().at(position) and aborts.
    return absl::InvalidArgumentError(absl::StrCat(
        "Layout's mesh has ", global_devices.size(), " global devices for ",
        mesh_.global_ids().size(), " global ids; ReducedMesh needs one device per id"));
  }
  absl::flat_hash_set<int64_t> kept;
  for (const std::vector<int64_t>& loc : AllLocations(reduced_sizes)) {
    const size_t pos = static_cast<size_t>(Flatten(loc, sizes));
    f.global_ids.push_back(mesh_.global_ids()[pos]);
    kept.insert(mesh_.global_ids()[pos]);
    if (!global_devices.empty()) f.global_devices.push_back(global_devices[pos]);
  }
  for (size_t i = 0; i < mesh_.local_ids().size(); ++i) {
    if (!kept.contains(mesh_.local_ids()[i])) continue;
    f.local_ids.push_back(mesh_.local_ids()[i]);
    f.local_devices.push_back(mesh_.local_devices()[i]);
  }
  return DTensorMesh::Create(std::move(f));
}

absl::StatusOr<DTensorShardVector> DTensorLayout::ShardVector() const {
  DTensorShardVector out;
  std::vector<std::optional<size_t>> mesh_dim(rank());
  for (size_t i = 0; i < rank(); ++i) {
    if (specs_[i] == kUnsharded) {
      out.num_shards_per_dim.push_back(1);
      continue;
    }
    TESSERA_ASSIGN_OR_RETURN(mesh_dim[i], MeshDimOfSpec(i));
    out.num_shards_per_dim.push_back(mesh_.dims()[*mesh_dim[i]].size);
  }
  for (const std::vector<int64_t>& loc : AllLocations(DimSizes(mesh_))) {
    std::vector<int64_t> shard;
    for (size_t i = 0; i < rank(); ++i) shard.push_back(mesh_dim[i] ? loc[*mesh_dim[i]] + 1 : 1);
    out.shards.push_back(std::move(shard));
  }
  return out;
}

absl::StatusOr<std::map<std::string, DTensorShardVector>> DTensorLayout::HostShardMap() const {
  TESSERA_ASSIGN_OR_RETURN(DTensorMesh reduced_mesh, ReducedMesh());
  TESSERA_ASSIGN_OR_RETURN(DTensorLayout reduced,
                           Create(Type::kStatic, specs_, std::move(reduced_mesh)));
  TESSERA_ASSIGN_OR_RETURN(DTensorShardVector all, reduced.ShardVector());
  std::map<std::string, DTensorShardVector> out;
  const std::vector<std::string>& devices = reduced.mesh().local_devices();
  // DTensor pairs the i-th local device with the i-th shard of the whole mesh.
  for (size_t i = 0; i < devices.size() && i < all.shards.size(); ++i) {
    const TfDeviceName name = *ParseTfDeviceName(devices[i]);
    const std::string host = absl::StrCat("/job:", *name.job, "/task:", *name.task);
    DTensorShardVector& v = out[host];
    v.num_shards_per_dim = all.num_shards_per_dim;
    if (std::find(v.shards.begin(), v.shards.end(), all.shards[i]) == v.shards.end()) {
      v.shards.push_back(all.shards[i]);
    }
  }
  for (auto& [host, v] : out) std::sort(v.shards.begin(), v.shards.end());
  return out;
}

absl::StatusOr<std::vector<int64_t>> DTensorLayout::OffsetToShard(size_t offset) const {
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> loc, DTensorMeshDeviceLocation(mesh_, offset));
  std::vector<int64_t> out;
  for (size_t i = 0; i < rank(); ++i) {
    if (specs_[i] == kUnsharded) {
      out.push_back(0);
      continue;
    }
    TESSERA_ASSIGN_OR_RETURN(size_t index, MeshDimOfSpec(i));
    out.push_back(loc[index]);
  }
  return out;
}

absl::StatusOr<int64_t> DTensorLayout::OffsetTupleToGlobalIndex(
    absl::Span<const int64_t> offsets) const {
  int64_t index = 0;
  for (size_t i = 0; i < offsets.size(); ++i) {
    int64_t m = 1;
    for (size_t x = i + 1; x < rank(); ++x) {
      TESSERA_ASSIGN_OR_RETURN(int64_t n, NumShardsForDim(x));
      m *= n;
    }
    index += m * offsets[i];
  }
  return index;
}

absl::StatusOr<std::vector<int64_t>> DTensorLayout::LocalShapeFromGlobalShape(
    absl::Span<const int64_t> global_shape) const {
  if (IsFullyReplicated()) return std::vector<int64_t>(global_shape.begin(), global_shape.end());
  TESSERA_RETURN_IF_ERROR(CheckShapeLength("global_shape", global_shape.size(), rank()));
  std::vector<int64_t> out;
  for (size_t i = 0; i < rank(); ++i) {
    const int64_t size = global_shape[i];
    if (IsDTensorDynamicSize(size)) {
      out.push_back(size);
      continue;
    }
    if (size < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'global_shape' entry ", i, " is ", size,
          "; expected a size >= 0 or a dynamic size (-1)"));
    }
    if (specs_[i] == kMatch) TESSERA_RETURN_IF_ERROR(MeshDimOfSpec(i).status());
    TESSERA_ASSIGN_OR_RETURN(int64_t shards, NumShardsForDim(i));
    out.push_back(size / shards);
  }
  return out;
}

absl::StatusOr<std::vector<int64_t>> DTensorLayout::GlobalShapeFromLocalShape(
    absl::Span<const int64_t> local_shape,
    const std::vector<std::vector<int64_t>>* local_shapes) const {
  const bool dynamic = std::any_of(local_shape.begin(), local_shape.end(), IsDTensorDynamicSize);
  if (mesh_.is_single_device() || IsFullyReplicated()) {
    if (dynamic && local_shapes != nullptr && !local_shapes->empty()) return local_shapes->front();
    return std::vector<int64_t>(local_shape.begin(), local_shape.end());
  }
  TESSERA_RETURN_IF_ERROR(CheckShapeLength("local_shape", local_shape.size(), rank()));
  std::vector<int64_t> shards(rank());
  for (size_t i = 0; i < rank(); ++i) {
    if (specs_[i] == kMatch) TESSERA_RETURN_IF_ERROR(MeshDimOfSpec(i).status());
    TESSERA_ASSIGN_OR_RETURN(shards[i], NumShardsForDim(i));
  }
  const size_t num_local = mesh_.local_devices().size();
  std::vector<size_t> stride(rank());
  size_t s = num_local;
  for (size_t i = 0; i < rank(); ++i) {
    s /= static_cast<size_t>(shards[i]);
    stride[i] = s;
  }
  std::vector<int64_t> out;
  for (size_t d = 0; d < rank(); ++d) {
    const int64_t local = local_shape[d];
    if (IsDTensorDynamicSize(local) && local_shapes != nullptr &&
        local_shapes->size() == num_local) {
      int64_t sum = 0;
      size_t index = 0;
      for (int64_t k = 0; k < shards[d]; ++k, index += stride[d]) {
        // A remote mesh (no local devices) has no shard to sum.
        if (index >= local_shapes->size()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Argument 'local_shapes' has ", local_shapes->size(),
              " entries; shard ", k, " of dimension ", d, " needs entry ", index));
        }
        const std::vector<int64_t>& shape = (*local_shapes)[index];
        if (shape.size() <= d) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Argument 'local_shapes' entry ", index, " has ", shape.size(),
              " sizes; expected the layout's rank ", rank()));
        }
        sum += shape[d];
      }
      out.push_back(sum);
    } else {
      out.push_back(local * shards[d]);
    }
  }
  return out;
}

bool IsDTensorDynamicSize(int64_t size) {
  return size == -1 || size == std::numeric_limits<int64_t>::min();
}

// ---------------------------------------------------------------------------
// Mesh queries

absl::StatusOr<std::vector<int64_t>> DTensorMeshDeviceLocation(const DTensorMesh& mesh,
                                                               size_t offset) {
  const int64_t size = DTensorMeshSize(mesh.dims());
  if (static_cast<int64_t>(offset) >= size || offset > static_cast<size_t>(INT64_MAX)) {
    return absl::OutOfRangeError(
        absl::StrCat("Mesh offset cannot be negative or exceed Mesh's size. Offset size:", offset,
                     " and Mesh size:", size));
  }
  const std::vector<int64_t> sizes = DimSizes(mesh);
  std::vector<int64_t> loc(sizes.size());
  int64_t rest = static_cast<int64_t>(offset);
  for (size_t i = sizes.size(); i-- > 0;) {
    loc[i] = rest % sizes[i];
    rest /= sizes[i];
  }
  return loc;
}

std::vector<std::string> DTensorMeshHosts(const DTensorMesh& mesh) {
  std::vector<std::string> hosts;
  for (const std::string& device : mesh.local_devices()) {
    const TfDeviceName name = *ParseTfDeviceName(device);  // checked by DTensorMesh::Create
    std::string host = absl::StrCat("/job:", *name.job, "/task:", *name.task);
    if (std::find(hosts.begin(), hosts.end(), host) == hosts.end()) {
      hosts.push_back(std::move(host));
    }
  }
  return hosts;
}

absl::StatusOr<DTensorMesh> DTensorMeshToDeviceType(const DTensorMesh& mesh,
                                                    absl::string_view device_type) {
  return mesh.ToDeviceType(device_type);
}

}  // namespace tessera
