// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/formats/hlo_sharding.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/formats/jax_spec.h"
#include "core/formats/text_cursor.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"
#include "tessera/v1/xla_op_sharding.pb.h"

namespace tessera {
namespace {

using Dims = std::vector<int64_t>;

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= d;  // callers pass validated dims
  return product;
}

// XLA's CanonicalizeIotaDims (tile_assignment.cc): drop reshape dims of size
// 1 and merge every run perm[i], perm[i]+1, ... into one dim, until nothing
// changes. XLA's IotaTileAssignment::Create then turns an empty result into
// [1]T(0).
void CanonicalizeIota(Dims& reshape, Dims& perm) {
  if (reshape.size() > 1) {
    while (true) {
      std::vector<int64_t> old_to_new(reshape.size());
      int64_t kept = 0;
      for (size_t i = 0; i < reshape.size(); ++i) old_to_new[i] = reshape[i] == 1 ? -1 : kept++;
      if (kept != static_cast<int64_t>(reshape.size())) {
        Dims new_reshape, new_perm;
        for (size_t i = 0; i < reshape.size(); ++i) {
          if (old_to_new[i] >= 0) new_reshape.push_back(reshape[i]);
          if (old_to_new[perm[i]] >= 0) new_perm.push_back(old_to_new[perm[i]]);
        }
        reshape = std::move(new_reshape);
        perm = std::move(new_perm);
      }
      bool changed = false;
      for (size_t i = 1, base = 0; i < reshape.size(); ++i) {
        if (perm[base] + static_cast<int64_t>(i - base) == perm[i]) {
          reshape[perm[base]] *= reshape[perm[i]];
          reshape[perm[i]] = 1;
          changed = true;
        } else {
          base = i;
        }
      }
      if (!changed) break;
    }
  }
  if (reshape.empty()) {
    reshape = {1};
    perm = {0};
  }
}

// The logical index at row-major position `pos` of an iota tile assignment:
// pos decomposed over the transposed shape, mapped back through the perm and
// flattened over the reshape dims. O(iota rank).
int64_t IotaValue(const Dims& reshape, const Dims& perm, int64_t pos) {
  Dims source(reshape.size());
  for (size_t i = perm.size(); i-- > 0;) {
    const int64_t extent = reshape[perm[i]];
    source[perm[i]] = pos % extent;
    pos /= extent;
  }
  int64_t value = 0;
  for (size_t i = 0; i < reshape.size(); ++i) value = value * reshape[i] + source[i];
  return value;
}

// Every tile's logical index, row-major over the tile dims. O(N).
Dims Materialize(const HloSharding& sharding) {
  if (!sharding.is_iota()) return sharding.devices;
  const int64_t n = Product(sharding.dims);
  Dims out(static_cast<size_t>(n));
  for (int64_t p = 0; p < n; ++p) {
    out[p] = IotaValue(sharding.iota_reshape_dims, sharding.iota_transpose_perm, p);
  }
  return out;
}

// Sorts each replication group (the runs of the last dim) of a V1 list.
void SortGroups(Dims& devices, int64_t group_size) {
  for (size_t start = 0; start + group_size <= devices.size(); start += group_size) {
    std::sort(devices.begin() + start, devices.begin() + start + group_size);
  }
}

// XLA's GroupMinorIotaDimsSorted (hlo_sharding.cc): regroups the minor iota
// dims so that the last `group_size` devices of each tile form whole dims,
// splitting one dim if needed, and sorts those dims so each group ascends.
// False when the dims do not divide that way (XLA then falls back to V1).
bool GroupMinorIotaDimsSorted(const Dims& dims, const Dims& perm, int64_t group_size,
                              Dims& new_dims, Dims& new_perm) {
  int64_t grouped_dims = 0;
  bool split = false;
  int64_t split_dim = 0, split_size = 0;
  for (size_t i = perm.size(); i-- > 0;) {
    const int64_t dim = perm[i];
    const int64_t dim_size = dims[dim];
    if (dim_size <= group_size) {
      if (group_size % dim_size != 0) return false;
      group_size /= dim_size;
      ++grouped_dims;
    } else {
      if (dim_size % group_size != 0) return false;
      split = true;
      split_dim = dim;
      split_size = dim_size / group_size;
      ++grouped_dims;
      break;
    }
  }
  if (!split) {
    new_dims = dims;
    new_perm = perm;
  } else {
    new_dims.assign(dims.size() + 1, 0);
    new_perm.assign(perm.size() + 1, 0);
    for (int64_t i = 0; i < split_dim; ++i) new_dims[i] = dims[i];
    new_dims[split_dim] = split_size;
    new_dims[split_dim + 1] = dims[split_dim] / split_size;
    for (size_t i = split_dim + 2; i < new_perm.size(); ++i) new_dims[i] = dims[i - 1];
    size_t perm_split = 0;
    for (size_t i = 0; i < perm.size(); ++i) {
      new_perm[i] = perm[i] <= split_dim ? perm[i] : perm[i] + 1;
      if (perm[i] == split_dim) {
        perm_split = i;
        break;
      }
    }
    new_perm[perm_split + 1] = new_perm[perm_split] + 1;
    for (size_t i = perm_split + 2; i < new_perm.size(); ++i) {
      new_perm[i] = perm[i - 1] <= split_dim ? perm[i - 1] : perm[i - 1] + 1;
    }
  }
  std::stable_sort(new_perm.end() - grouped_dims, new_perm.end());
  return true;
}

HloSharding Replicated() { return HloSharding{}; }

// XLA's HloSharding::PartialTile: the last tile dim of `tiled` is a
// replication group. A group of every device is {replicated}, a group of one
// is no group; an iota keeps its V2 form when its minor dims can hold the
// group in ascending order, otherwise it becomes V1 with sorted groups.
HloSharding PartialTile(HloSharding tiled) {
  const int64_t group = tiled.dims.back();
  const int64_t n = Product(tiled.dims);
  if (tiled.dims.size() == 1 || group == n) return Replicated();
  if (group == 1) {
    tiled.dims.pop_back();
    tiled.replicate_on_last_tile_dim = false;
    return tiled;
  }
  tiled.replicate_on_last_tile_dim = true;
  if (tiled.is_iota()) {
    const Dims& reshape = tiled.iota_reshape_dims;
    const Dims& perm = tiled.iota_transpose_perm;
    if (reshape[perm.back()] == group) return tiled;
    Dims new_reshape, new_perm;
    if (GroupMinorIotaDimsSorted(reshape, perm, group, new_reshape, new_perm)) {
      CanonicalizeIota(new_reshape, new_perm);
      tiled.iota_reshape_dims = std::move(new_reshape);
      tiled.iota_transpose_perm = std::move(new_perm);
      return tiled;
    }
  }
  tiled.devices = Materialize(tiled);
  tiled.iota_reshape_dims.clear();
  tiled.iota_transpose_perm.clear();
  SortGroups(tiled.devices, group);
  return tiled;
}

HloSharding OfKind(HloSharding::Kind kind) {
  HloSharding sharding;
  sharding.kind = kind;
  return sharding;
}

// XLA's GetTransposeKind (tile_assignment.cc).
enum class TransposeKind { kNoop, kReshape, kTranspose };
TransposeKind GetTransposeKind(const Dims& dims, const Dims& perm) {
  TransposeKind kind = TransposeKind::kNoop;
  int64_t prev_non_one_dim = -1;
  for (size_t i = 0; i < perm.size(); ++i) {
    const int64_t d = perm[i];
    if (dims[d] == 1) {
      if (d != static_cast<int64_t>(i) && dims[i] != 1) kind = TransposeKind::kReshape;
      continue;
    }
    if (d <= prev_non_one_dim) return TransposeKind::kTranspose;
    prev_non_one_dim = d;
  }
  return kind;
}

// The rest of XLA's IotaTileAssignment::Transpose, for a transpose that is
// not a permutation of the iota's own dims: the reshape dims are split into
// prime factors (FullyDecanonicalize), grouped major to minor into the
// non-1 tile dims (looking ahead within one original dim for a factor that
// divides), and the groups permuted. False where the factors do not group.
bool DecanonicalizedTranspose(const Dims& non_one_dims, const std::vector<int64_t>& one_to_non_one,
                              Dims& reshape, Dims& iota_perm, const Dims& perm) {
  Dims factors;
  std::vector<size_t> old_to_new(reshape.size() + 1, 0);
  for (size_t i = 0; i < reshape.size(); ++i) {
    int64_t size = reshape[i];
    while (size % 2 == 0) {
      factors.push_back(2);
      size /= 2;
    }
    for (int64_t f = 3; f * f <= size; f += 2) {
      while (size % f == 0) {
        factors.push_back(f);
        size /= f;
      }
    }
    if (size > 1) factors.push_back(size);
    old_to_new[i + 1] = factors.size();
  }
  Dims factor_perm;
  std::vector<int64_t> perm_idx_to_original;
  std::vector<std::vector<size_t>> original_to_perm_idx(iota_perm.size());
  for (size_t i = 0; i < iota_perm.size(); ++i) {
    const int64_t old_dim = iota_perm[i];
    for (size_t j = old_to_new[old_dim]; j < old_to_new[old_dim + 1]; ++j) {
      factor_perm.push_back(static_cast<int64_t>(j));
      perm_idx_to_original.push_back(old_dim);
      original_to_perm_idx[old_dim].push_back(factor_perm.size() - 1);
    }
  }
  const size_t dn = factors.size();
  auto candidate = [&](int64_t target, size_t idx) -> int64_t {
    const int64_t dim = factor_perm[idx];
    if (target % factors[dim] == 0) return dim;
    for (size_t later : original_to_perm_idx[perm_idx_to_original[idx]]) {
      if (later <= idx) continue;
      const int64_t other = factor_perm[later];
      if (target % factors[other] == 0) {
        std::swap(factors[dim], factors[other]);
        return dim;
      }
    }
    return -1;
  };
  std::vector<Dims> groups(non_one_dims.size());
  size_t idx = 0;
  for (size_t i = 0; i < non_one_dims.size() && idx < dn; ++i) {
    int64_t target = non_one_dims[i];
    for (int64_t dim = candidate(target, idx); dim >= 0;) {
      target /= factors[dim];
      groups[i].push_back(dim);
      if (++idx >= dn) break;
      dim = candidate(target, idx);
    }
    if (target != 1) return false;
  }
  Dims flattened;
  for (size_t i = 0; i < perm.size(); ++i) {
    const int64_t group = one_to_non_one[perm[i]];
    if (group < 0) continue;
    flattened.insert(flattened.end(), groups[group].begin(), groups[group].end());
  }
  if (flattened.size() != factors.size()) return false;
  reshape = std::move(factors);
  iota_perm = std::move(flattened);
  CanonicalizeIota(reshape, iota_perm);
  return true;
}

// XLA's IotaTileAssignment::Transpose: the iota (reshape, iota_perm) of tile
// dims `dims` with those dims permuted by `perm`, as a new (reshape,
// iota_perm), or false where XLA has no iota form for it (then V1).
bool IotaTranspose(const Dims& dims, Dims& reshape, Dims& iota_perm, const Dims& perm) {
  const TransposeKind kind = GetTransposeKind(dims, perm);
  if (kind == TransposeKind::kNoop || kind == TransposeKind::kReshape) {
    CanonicalizeIota(reshape, iota_perm);
    return true;
  }
  if (reshape.size() == 1) {
    reshape = dims;
    iota_perm = perm;
    CanonicalizeIota(reshape, iota_perm);
    return true;
  }
  bool pure = true;
  Dims non_one_dims;
  std::vector<int64_t> one_to_non_one(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1) {
      one_to_non_one[i] = -1;
      continue;
    }
    if (non_one_dims.size() >= reshape.size() || reshape[iota_perm[non_one_dims.size()]] != dims[i]) pure = false;
    one_to_non_one[i] = static_cast<int64_t>(non_one_dims.size());
    non_one_dims.push_back(dims[i]);
  }
  if (!pure) return DecanonicalizedTranspose(non_one_dims, one_to_non_one, reshape, iota_perm, perm);
  Dims new_perm;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[perm[i]] == 1) continue;
    new_perm.push_back(iota_perm[one_to_non_one[perm[i]]]);
  }
  iota_perm = std::move(new_perm);
  CanonicalizeIota(reshape, iota_perm);
  return true;
}

// XLA's HloSharding::Subgroup: `tiled` with its last subgroup_types.size()
// dims typed. Size-1 subgroup dims go, dims of one type merge, the types are
// reordered (REPLICATED last); a lone REPLICATED type is PartialTile, a lone
// MANUAL over every device {manual}, one type and no data split {manual},
// {replicated} or {unreduced}.
HloSharding Subgroup(HloSharding tiled) {
  const std::vector<int> types = std::move(tiled.subgroup_types);
  tiled.subgroup_types.clear();
  tiled.replicate_on_last_tile_dim = false;
  if (types.empty()) return tiled;
  const size_t data_dims = tiled.dims.size() - types.size();
  const bool one_type = std::all_of(types.begin(), types.end(), [&](int t) { return t == types[0]; });
  if (one_type && Product(absl::MakeConstSpan(tiled.dims).subspan(0, data_dims)) == 1) {
    if (types[0] == kOpShardingManual) return OfKind(HloSharding::Kind::kManual);
    if (types[0] == kOpShardingReplicated) return Replicated();
    if (types[0] == kOpShardingUnreduced) return OfKind(HloSharding::Kind::kUnreduced);
  }
  constexpr int kTypes = 7;
  Dims perm(data_dims);
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<Dims> type_to_dims(kTypes);
  Dims removed;
  int subgroup_count = 0;
  bool needs_merging = false;
  for (size_t i = 0; i < types.size(); ++i) {
    const int64_t dim = static_cast<int64_t>(i + data_dims);
    if (tiled.dims[dim] == 1) {
      removed.push_back(dim);
      needs_merging = true;
      continue;
    }
    Dims& dims = type_to_dims[types[i]];
    if (!dims.empty()) {
      needs_merging = true;
    } else {
      ++subgroup_count;
    }
    dims.push_back(dim);
  }
  needs_merging |= subgroup_count > 1;
  auto create = [](HloSharding tiles, std::vector<int> merged) {
    if (merged.size() == 1 && merged.back() == kOpShardingReplicated) return PartialTile(std::move(tiles));
    if (merged.size() == 1 && merged.back() == kOpShardingManual && Product(tiles.dims) == tiles.dims.back()) {
      return OfKind(HloSharding::Kind::kManual);
    }
    if (!merged.empty() && merged.back() == kOpShardingReplicated) {
      HloSharding sharding = PartialTile(std::move(tiles));
      sharding.replicate_on_last_tile_dim = false;
      sharding.subgroup_types = std::move(merged);
      return sharding;
    }
    tiles.subgroup_types = std::move(merged);
    return tiles;
  };
  if (!needs_merging) return create(std::move(tiled), types);
  Dims merged_shape(tiled.dims.begin(), tiled.dims.begin() + data_dims);
  Dims transposed_shape = merged_shape;
  std::vector<int> merged_types;
  // MAXIMAL, TUPLE, OTHER, MANUAL, UNREDUCED, REPLICATED, UNKNOWN.
  constexpr int kOrderedTypes[kTypes] = {1, 2, 3, 4, 6, 0, 5};
  for (int type : kOrderedTypes) {
    const Dims& dims = type_to_dims[type];
    if (dims.empty()) continue;
    int64_t size = 1;
    for (int64_t dim : dims) {
      perm.push_back(dim);
      size *= tiled.dims[dim];
      transposed_shape.push_back(tiled.dims[dim]);
    }
    merged_shape.push_back(size);
    merged_types.push_back(type);
  }
  HloSharding out = tiled;
  out.dims = merged_shape;
  if (tiled.is_iota()) {
    Dims iota_full_perm = perm;
    iota_full_perm.insert(iota_full_perm.end(), removed.begin(), removed.end());
    Dims reshape = tiled.iota_reshape_dims;
    Dims iota_perm = tiled.iota_transpose_perm;
    if (IotaTranspose(tiled.dims, reshape, iota_perm, iota_full_perm)) {
      out.iota_reshape_dims = std::move(reshape);
      out.iota_transpose_perm = std::move(iota_perm);
      return create(std::move(out), std::move(merged_types));
    }
  }
  // V1: the array transposed by `perm` (removed dims are size 1), reshaped.
  const Dims values = Materialize(tiled);
  const Dims strides = [&] {
    Dims s(tiled.dims.size(), 1);
    for (size_t i = s.size() - 1; i-- > 0;) s[i] = s[i + 1] * tiled.dims[i + 1];
    return s;
  }();
  out.iota_reshape_dims.clear();
  out.iota_transpose_perm.clear();
  out.devices.clear();
  out.devices.reserve(values.size());
  Dims index(transposed_shape.size(), 0);
  for (size_t k = 0; k < values.size(); ++k) {
    int64_t src = 0;
    for (size_t i = 0; i < index.size(); ++i) src += index[i] * strides[perm[i]];
    out.devices.push_back(values[src]);
    for (size_t i = index.size(); i-- > 0;) {
      if (++index[i] < transposed_shape[i]) break;
      index[i] = 0;
    }
  }
  return create(std::move(out), std::move(merged_types));
}

// The text of a sharding for messages, cut short when a V1 list is long.
std::string ShortText(const HloSharding& sharding) {
  std::string text = HloShardingToString(sharding);
  constexpr size_t kMax = 200;
  if (text.size() > kMax) text = absl::StrCat(text.substr(0, kMax), "...}");
  return text;
}

// XLA's Validate for a tiled sharding read from text or bytes, then the
// iota canonicalisation XLA applies on construction. `what` names the source.
absl::Status ValidateTiled(HloSharding& sharding, absl::string_view what) {
  if (sharding.dims.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": the tile assignment has no dims; expected at least one"));
  }
  TESSERA_RETURN_IF_ERROR(CheckRank(sharding.dims.size(), "tile_assignment_dimensions"));
  for (int64_t d : sharding.dims) {
    if (d < 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": tile dims ", ShapeToString(sharding.dims), " have a dim of ", d,
          "; expected every dim >= 1"));
    }
  }
  TESSERA_ASSIGN_OR_RETURN(const int64_t n,
                           CheckedProduct(sharding.dims, "tile_assignment_dimensions"));
  if (sharding.is_iota()) {
    Dims& reshape = sharding.iota_reshape_dims;
    Dims& perm = sharding.iota_transpose_perm;
    TESSERA_RETURN_IF_ERROR(CheckRank(reshape.size(), "iota_reshape_dims"));
    for (int64_t d : reshape) {
      if (d < 1) {
        return absl::InvalidArgumentError(absl::StrCat(
            what, ": iota reshape dims ", ShapeToString(reshape), " have a dim of ", d,
            "; expected every dim >= 1"));
      }
    }
    TESSERA_ASSIGN_OR_RETURN(const int64_t reshape_n, CheckedProduct(reshape, "iota_reshape_dims"));
    if (reshape_n != n) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": iota reshape dims ", ShapeToString(reshape), " hold ", reshape_n,
          " devices; expected the tile dims' ", n));
    }
    Dims sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    Dims identity(reshape.size());
    std::iota(identity.begin(), identity.end(), 0);
    if (sorted != identity) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, ": iota transpose perm (", absl::StrJoin(perm, ","),
          ") is not a permutation of 0..", reshape.size() - 1));
    }
    CanonicalizeIota(reshape, perm);
    return absl::OkStatus();
  }
  if (static_cast<int64_t>(sharding.devices.size()) != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": the tile assignment lists ", sharding.devices.size(), " devices; tile dims ",
        ShapeToString(sharding.dims), " need ", n));
  }
  // As XLA, the indices may exceed the tile count (a sharding over a subset
  // of a larger device assignment); LayoutFromHloSharding checks the mesh.
  Dims sorted = sharding.devices;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": device ", sorted[i], " is negative; expected indices >= 0"));
    }
    if (i > 0 && sorted[i] == sorted[i - 1]) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": device ", sorted[i], " is not unique in the tile assignment"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Dims> ParseIntList(TextCursor& cursor, absl::string_view close) {
  Dims values;
  do {
    TESSERA_ASSIGN_OR_RETURN(int64_t value, cursor.ExpectInt());
    values.push_back(value);
  } while (cursor.TryConsume(","));
  TESSERA_RETURN_IF_ERROR(cursor.Expect(close));
  return values;
}

// The subgroup type names XLA prints and parses in last_tile_dims.
const char* SubgroupTypeName(int type) {
  switch (type) {
    case kOpShardingReplicated: return "replicated";
    case kOpShardingMaximal: return "maximal";
    case kOpShardingManual: return "manual";
    case kOpShardingUnreduced: return "unreduced";
    default: return "error_type.";
  }
}

// The suffixes after the tile assignment: last_tile_dim_replicate and
// last_tile_dims={manual, replicated}. Both at once is an error (XLA's
// parser CHECK-fails on it).
absl::Status ParseSuffixes(TextCursor& cursor, HloSharding& sharding) {
  bool typed = false;
  while (true) {
    cursor.SkipSpace();
    const size_t suffix_at = cursor.position();
    const std::string suffix(cursor.PeekToken());
    if (cursor.TryConsumeWord("last_tile_dim_replicate")) {
      sharding.replicate_on_last_tile_dim = true;
    } else if (cursor.TryConsumeWord("last_tile_dims")) {
      typed = true;
      TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
      TESSERA_RETURN_IF_ERROR(cursor.Expect("{"));
      while (!cursor.TryConsume("}")) {
        cursor.SkipSpace();
        const size_t at = cursor.position();
        TESSERA_ASSIGN_OR_RETURN(std::string type, cursor.ExpectIdentifier());
        int value = -1;
        for (int t : {kOpShardingReplicated, kOpShardingMaximal, kOpShardingManual, kOpShardingUnreduced}) {
          if (type == SubgroupTypeName(t)) value = t;
        }
        if (value < 0) {
          return cursor.ErrorAt(at, type,
                                "is not a subgroup type; expected 'manual', 'maximal', 'replicated' or 'unreduced'");
        }
        sharding.subgroup_types.push_back(value);
        if (!cursor.TryConsume(",")) {
          TESSERA_RETURN_IF_ERROR(cursor.Expect("}"));
          break;
        }
      }
    } else {
      return absl::OkStatus();
    }
    if (typed && sharding.replicate_on_last_tile_dim) {
      return cursor.ErrorAt(suffix_at, suffix,
                            "conflicts: last_tile_dim_replicate and last_tile_dims cannot both be set");
    }
  }
}

absl::StatusOr<HloSharding> ParseDevices(TextCursor& cursor) {
  HloSharding sharding;
  sharding.kind = HloSharding::Kind::kTiled;
  TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
  TESSERA_RETURN_IF_ERROR(cursor.Expect("["));
  TESSERA_ASSIGN_OR_RETURN(sharding.dims, ParseIntList(cursor, "]"));
  if (cursor.TryConsume("<=")) {
    TESSERA_RETURN_IF_ERROR(cursor.Expect("["));
    TESSERA_ASSIGN_OR_RETURN(sharding.iota_reshape_dims, ParseIntList(cursor, "]"));
    cursor.SkipSpace();
    if (sharding.iota_reshape_dims.size() == 1 && cursor.PeekToken() == "T") {
      // XLA's parser reads T(...) only after a reshape of several dims.
      return cursor.ErrorAt(cursor.position(), "T", "is unexpected: a one-dim iota has no transpose");
    }
    if (cursor.TryConsumeWord("T")) {
      TESSERA_RETURN_IF_ERROR(cursor.Expect("("));
      TESSERA_ASSIGN_OR_RETURN(sharding.iota_transpose_perm, ParseIntList(cursor, ")"));
    } else {
      sharding.iota_transpose_perm.resize(sharding.iota_reshape_dims.size());
      std::iota(sharding.iota_transpose_perm.begin(), sharding.iota_transpose_perm.end(), 0);
    }
  } else {
    Dims devices;
    do {
      TESSERA_ASSIGN_OR_RETURN(int64_t device, cursor.ExpectInt());
      devices.push_back(device);
    } while (cursor.TryConsume(","));
    sharding.devices = std::move(devices);
  }
  TESSERA_RETURN_IF_ERROR(ParseSuffixes(cursor, sharding));
  return sharding;
}

absl::StatusOr<HloSharding> ParseBody(TextCursor& cursor) {
  cursor.SkipSpace();
  const size_t at = cursor.position();
  if (cursor.PeekToken() == "{") {
    return cursor.ErrorAt(at, "{", "starts a tuple sharding, which Tessera does not read");
  }
  absl::StatusOr<std::string> word = cursor.ExpectIdentifier();
  if (!word.ok()) return cursor.Error("'replicated', 'maximal' or 'devices'");
  if (*word == "replicated") return Replicated();
  for (const auto& [name, kind] : {std::pair<const char*, HloSharding::Kind>{"manual", HloSharding::Kind::kManual},
                                   {"unknown", HloSharding::Kind::kUnknown},
                                   {"unreduced", HloSharding::Kind::kUnreduced}}) {
    if (*word != name) continue;
    HloSharding sharding;
    sharding.kind = kind;
    return sharding;
  }
  if (*word == "maximal") {
    HloSharding sharding;
    sharding.kind = HloSharding::Kind::kMaximal;
    if (!cursor.TryConsumeWord("device")) return cursor.Error("'device'");
    TESSERA_RETURN_IF_ERROR(cursor.Expect("="));
    TESSERA_ASSIGN_OR_RETURN(sharding.maximal_device, cursor.ExpectInt());
    return sharding;
  }
  if (*word == "devices") return ParseDevices(cursor);
  if (*word == "mesh") return cursor.ErrorAt(at, *word, "(V3 named) sharding is not read by Tessera");
  return cursor.ErrorAt(at, *word, "is not a sharding; expected 'replicated', 'maximal' or 'devices'");
}

absl::Status NotProduced(const HloSharding& sharding, const DeviceMesh& mesh,
                         absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("HloSharding ", ShortText(sharding),
                                                 " is not produced by any layout on ",
                                                 mesh.ToString(), ": ", why));
}

// The mesh axes tensor dim `d` is split over, major first, read from the
// tile assignment: stepping the dim's tile index by the running stride must
// move exactly one new axis by one.
absl::StatusOr<AxisGroup> AxesOfDim(const HloSharding& sharding, const Dims& devices,
                                    const DeviceMesh& mesh, size_t d, std::vector<bool>& used) {
  int64_t row = 1;  // elements per step of tile dim d
  for (size_t i = d + 1; i < sharding.dims.size(); ++i) row *= sharding.dims[i];
  const int64_t tiles = sharding.dims[d];
  AxisGroup group;
  for (int64_t stride = 1; stride < tiles;) {
    TESSERA_ASSIGN_OR_RETURN(Dims coords, mesh.CoordinatesOfIndex(devices[stride * row]));
    int64_t moved = -1;
    for (size_t a = 0; a < coords.size(); ++a) {
      if (coords[a] == 0) continue;
      if (moved >= 0 || coords[a] != 1 || used[a]) {
        return NotProduced(sharding, mesh,
                           absl::StrCat("tile dim ", d, " does not step along one mesh axis"));
      }
      moved = static_cast<int64_t>(a);
    }
    if (moved < 0 || mesh.shape()[moved] > tiles / stride ||
        tiles % (stride * mesh.shape()[moved]) != 0) {
      return NotProduced(sharding, mesh,
                         absl::StrCat("tile dim ", d, " of size ", tiles,
                                      " is not a product of mesh axes"));
    }
    used[moved] = true;
    group.insert(group.begin(), mesh.axis_names()[moved]);
    stride *= mesh.shape()[moved];
  }
  return group;
}

}  // namespace

bool operator==(const HloSharding& a, const HloSharding& b) {
  return a.kind == b.kind && a.maximal_device == b.maximal_device && a.dims == b.dims &&
         a.replicate_on_last_tile_dim == b.replicate_on_last_tile_dim &&
         a.iota_reshape_dims == b.iota_reshape_dims &&
         a.iota_transpose_perm == b.iota_transpose_perm && a.devices == b.devices;
}

absl::StatusOr<HloSharding> HloShardingFromLayout(const TensorLayout& layout, size_t rank,
                                                  absl::Span<const std::string> manual_axes) {
  if (layout.mesh() == nullptr) {
    return absl::FailedPreconditionError(absl::StrCat(
        "Layout ", layout.ToString(), " has no mesh; an HloSharding needs one"));
  }
  TESSERA_RETURN_IF_ERROR(CheckRank(rank, "rank"));
  if (rank < layout.rank()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'rank' is ", rank, "; layout ", PyAxesRepr(layout.axes()),
        " is only valid for tensors of rank at least ", layout.rank(), ".", ScalarSpecHint(rank)));
  }
  const DeviceMesh& mesh = *layout.mesh();
  std::vector<bool> manual(mesh.rank(), false);
  for (const std::string& axis : manual_axes) {
    absl::StatusOr<size_t> a = mesh.AxisIndex(axis);
    if (!a.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'manual_axes' names ", PyStrRepr(axis),
                                                     ", which mesh ", mesh.ToString(), " lacks"));
    }
    manual[*a] = true;
  }
  // Step 1 (§2.4): size-1 mesh axes take no part; the others are numbered
  // in mesh order and their sizes are the iota's reshape dims.
  std::vector<int64_t> kept_index(mesh.rank(), -1);
  HloSharding sharding;
  sharding.kind = HloSharding::Kind::kTiled;
  for (size_t a = 0; a < mesh.rank(); ++a) {
    if (mesh.shape()[a] == 1) continue;
    kept_index[a] = static_cast<int64_t>(sharding.iota_reshape_dims.size());
    sharding.iota_reshape_dims.push_back(mesh.shape()[a]);
  }
  // Steps 2-3: tile dims in tensor-dim order, tuple members in tuple order.
  sharding.dims.assign(rank, 1);
  std::vector<bool> mapped(mesh.rank(), false);
  for (size_t d = 0; d < layout.rank(); ++d) {
    for (const std::string& axis : layout.axes()[d]) {
      TESSERA_ASSIGN_OR_RETURN(size_t a, mesh.AxisIndex(axis));
      if (manual[a]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Argument 'manual_axes' names ", PyStrRepr(axis), ", which layout ", PyAxesRepr(layout.axes()),
            " shards dimension ", d, " over; expected manual axes the layout does not use"));
      }
      mapped[a] = true;
      if (kept_index[a] < 0) continue;
      sharding.dims[d] *= mesh.shape()[a];
      sharding.iota_transpose_perm.push_back(kept_index[a]);
    }
  }
  bool any_manual = false;
  for (size_t a = 0; a < mesh.rank(); ++a) any_manual = any_manual || (manual[a] && kept_index[a] >= 0);
  if (sharding.iota_transpose_perm.empty() && !any_manual) return Replicated();
  // Step 4: the unused axes, in mesh order, form one group per type,
  // REPLICATED (0) before MANUAL (4) as JAX sorts them; Subgroup reorders.
  for (const int type : {kOpShardingReplicated, kOpShardingManual}) {
    int64_t group = 1;
    for (size_t a = 0; a < mesh.rank(); ++a) {
      if (mapped[a] || kept_index[a] < 0 || manual[a] != (type == kOpShardingManual)) continue;
      group *= mesh.shape()[a];
      sharding.iota_transpose_perm.push_back(kept_index[a]);
    }
    if (group == 1) continue;
    sharding.dims.push_back(group);
    sharding.subgroup_types.push_back(type);
  }
  CanonicalizeIota(sharding.iota_reshape_dims, sharding.iota_transpose_perm);
  return Subgroup(std::move(sharding));
}

HloSharding ToV1(const HloSharding& sharding) {
  if (sharding.kind != HloSharding::Kind::kTiled || !sharding.is_iota()) return sharding;
  HloSharding v1 = sharding;
  v1.devices = Materialize(sharding);
  v1.iota_reshape_dims.clear();
  v1.iota_transpose_perm.clear();
  return v1;
}

std::string HloShardingToString(const HloSharding& sharding) {
  switch (sharding.kind) {
    case HloSharding::Kind::kReplicated:
      return "{replicated}";
    case HloSharding::Kind::kMaximal:
      return absl::StrCat("{maximal device=", sharding.maximal_device, "}");
    case HloSharding::Kind::kManual:
      return "{manual}";
    case HloSharding::Kind::kUnknown:
      return "{unknown}";
    case HloSharding::Kind::kUnreduced:
      return "{unreduced}";
    case HloSharding::Kind::kTiled:
      break;
  }
  std::string out = absl::StrCat("{devices=[", absl::StrJoin(sharding.dims, ","), "]");
  if (sharding.is_iota()) {
    absl::StrAppend(&out, "<=[", absl::StrJoin(sharding.iota_reshape_dims, ","), "]");
    if (sharding.iota_reshape_dims.size() > 1) {
      absl::StrAppend(&out, "T(", absl::StrJoin(sharding.iota_transpose_perm, ","), ")");
    }
  } else {
    absl::StrAppend(&out, absl::StrJoin(sharding.devices, ","));
  }
  if (sharding.replicate_on_last_tile_dim) out += " last_tile_dim_replicate";
  if (!sharding.subgroup_types.empty()) {
    std::vector<std::string> names;
    for (int type : sharding.subgroup_types) names.push_back(SubgroupTypeName(type));
    absl::StrAppend(&out, " last_tile_dims={", absl::StrJoin(names, ", "), "}");
  }
  out += "}";
  return out;
}

absl::StatusOr<HloSharding> ParseHloSharding(absl::string_view text) {
  TextCursor cursor(text, "HloSharding text");
  TESSERA_RETURN_IF_ERROR(cursor.Expect("{"));
  TESSERA_ASSIGN_OR_RETURN(HloSharding sharding, ParseBody(cursor));
  TESSERA_RETURN_IF_ERROR(cursor.Expect("}"));
  TESSERA_RETURN_IF_ERROR(cursor.ExpectEnd());
  if (sharding.kind != HloSharding::Kind::kTiled) return sharding;
  TESSERA_RETURN_IF_ERROR(ValidateTiled(sharding, "HloSharding text"));
  if (Product(sharding.dims) == 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "HloSharding text: ", HloShardingToString(sharding),
        ": non-maximal shardings must have more than one device assigned"));
  }
  if (sharding.subgroup_types.size() > sharding.dims.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "HloSharding text: ", sharding.subgroup_types.size(), " last_tile_dims types for ", sharding.dims.size(),
        " tile dims; expected at most one per dim"));
  }
  // XLA's parser builds the sharding through PartialTile or Subgroup.
  if (sharding.replicate_on_last_tile_dim) return PartialTile(std::move(sharding));
  return Subgroup(std::move(sharding));
}

absl::StatusOr<TensorLayout> LayoutFromHloSharding(const HloSharding& given,
                                                   const MeshPtr& mesh, size_t rank) {
  if (mesh == nullptr) {
    return absl::InvalidArgumentError(
        "Argument 'mesh' is NULL; expected the mesh to place the layout on");
  }
  TESSERA_RETURN_IF_ERROR(CheckRank(rank, "rank"));
  HloSharding sharding = given;
  if (sharding.replicate_on_last_tile_dim && sharding.dims.back() == 1) {
    sharding.dims.pop_back();  // XLA's PartialTile: a group of one is no group
    sharding.replicate_on_last_tile_dim = false;
  }
  if (sharding.kind == HloSharding::Kind::kReplicated) return TensorLayout::Replicated(rank, mesh);
  if (sharding.kind == HloSharding::Kind::kManual || sharding.kind == HloSharding::Kind::kUnknown ||
      sharding.kind == HloSharding::Kind::kUnreduced) {
    const std::string text = HloShardingToString(sharding);
    return absl::InvalidArgumentError(absl::StrCat(
        "HloSharding ", text, ": '", text.substr(1, text.size() - 2),
        "' sharding has no layout equivalent (a layout says which part of the tensor each device holds)"));
  }
  if (!sharding.subgroup_types.empty()) {
    std::vector<std::string> names;
    for (int type : sharding.subgroup_types) names.push_back(SubgroupTypeName(type));
    return absl::InvalidArgumentError(absl::StrCat(
        "HloSharding ", ShortText(sharding), ": '", absl::StrJoin(names, ", "),
        "' subgroups have no layout (only a replication group, last_tile_dim_replicate, has one)"));
  }
  if (sharding.kind == HloSharding::Kind::kMaximal) {
    if (mesh->size() == 1 && sharding.maximal_device == 0) {
      return TensorLayout::Replicated(rank, mesh);
    }
    return NotProduced(sharding, *mesh,
                       "a maximal sharding puts the whole tensor on one device, which only a "
                       "one-device mesh does (as {maximal device=0})");
  }
  const int64_t n = Product(sharding.dims);
  if (n != mesh->size()) {
    return NotProduced(sharding, *mesh,
                       absl::StrCat("it covers ", n, " devices; the mesh has ", mesh->size()));
  }
  const size_t data_rank = sharding.dims.size() - (sharding.replicate_on_last_tile_dim ? 1 : 0);
  if (Product(absl::MakeConstSpan(sharding.dims).subspan(0, data_rank)) == 1) {
    return TensorLayout::Replicated(rank, mesh);  // XLA: {replicated}
  }
  if (data_rank != rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "HloSharding ", ShortText(sharding), " has ", data_rank,
        " data dims; expected the tensor rank ", rank));
  }
  Dims devices = Materialize(sharding);
  // Replication groups are sets: sorted, each starts at its smallest index,
  // which is what the axis walk below reads.
  if (sharding.replicate_on_last_tile_dim) SortGroups(devices, sharding.dims.back());
  for (int64_t device : devices) {
    if (device >= n) {
      return NotProduced(sharding, *mesh, absl::StrCat("it uses logical index ", device,
                                                       "; the mesh has ", n, " devices"));
    }
  }
  std::vector<bool> used(mesh->rank(), false);
  std::vector<AxisGroup> axes(rank);
  for (size_t d = 0; d < rank; ++d) {
    TESSERA_ASSIGN_OR_RETURN(axes[d], AxesOfDim(sharding, devices, *mesh, d, used));
  }
  TESSERA_ASSIGN_OR_RETURN(TensorLayout layout, TensorLayout::Create(std::move(axes), mesh));
  // The candidate is right only if its sharding is this one, replication
  // groups compared as sets (XLA sorts them).
  TESSERA_ASSIGN_OR_RETURN(HloSharding expected, HloShardingFromLayout(layout, rank));
  Dims expected_devices = Materialize(expected);
  if (expected.dims != sharding.dims ||
      expected.replicate_on_last_tile_dim != sharding.replicate_on_last_tile_dim ||
      expected_devices != devices) {
    return NotProduced(sharding, *mesh,
                       absl::StrCat("the nearest layout ", PyAxesRepr(layout.axes()), " gives ",
                                    ShortText(expected)));
  }
  return layout;
}

std::string HloShardingToOpSharding(const HloSharding& sharding) {
  v1::OpSharding proto;
  switch (sharding.kind) {
    case HloSharding::Kind::kReplicated:
      proto.set_type(v1::OpSharding::REPLICATED);
      break;
    case HloSharding::Kind::kMaximal:
      proto.set_type(v1::OpSharding::MAXIMAL);
      proto.add_tile_assignment_dimensions(1);
      proto.add_tile_assignment_devices(sharding.maximal_device);
      break;
    case HloSharding::Kind::kManual:
      proto.set_type(v1::OpSharding::MANUAL);
      break;
    case HloSharding::Kind::kUnknown:
      proto.set_type(v1::OpSharding::UNKNOWN);
      break;
    case HloSharding::Kind::kUnreduced:
      proto.set_type(v1::OpSharding::UNREDUCED);
      break;
    case HloSharding::Kind::kTiled:
      proto.set_type(v1::OpSharding::OTHER);
      for (int64_t d : sharding.dims) proto.add_tile_assignment_dimensions(d);
      for (int64_t d : sharding.devices) proto.add_tile_assignment_devices(d);
      for (int64_t d : sharding.iota_reshape_dims) proto.add_iota_reshape_dims(d);
      for (int64_t p : sharding.iota_transpose_perm) {
        proto.add_iota_transpose_perm(static_cast<int32_t>(p));
      }
      proto.set_replicate_on_last_tile_dim(sharding.replicate_on_last_tile_dim);
      for (int type : sharding.subgroup_types) proto.add_last_tile_dims(static_cast<v1::OpSharding::Type>(type));
      break;
  }
  return proto.SerializeAsString();
}

namespace {

absl::Status ProtoError(absl::string_view problem) {
  return absl::InvalidArgumentError(absl::StrCat("OpSharding bytes: ", problem));
}

// REPLICATED carries nothing else; anything else set is a malformed message.
bool HasTileFields(const v1::OpSharding& proto) {
  return proto.tile_assignment_dimensions_size() > 0 || proto.tile_assignment_devices_size() > 0 ||
         proto.iota_reshape_dims_size() > 0 || proto.iota_transpose_perm_size() > 0 ||
         proto.replicate_on_last_tile_dim() || proto.last_tile_dims_size() > 0;
}

absl::StatusOr<HloSharding> MaximalFromProto(const v1::OpSharding& proto) {
  if (proto.tile_assignment_devices_size() != 1 || proto.iota_reshape_dims_size() > 0 ||
      proto.iota_transpose_perm_size() > 0 || proto.replicate_on_last_tile_dim() ||
      proto.last_tile_dims_size() > 0 ||
      (proto.tile_assignment_dimensions_size() > 0 &&
       !(proto.tile_assignment_dimensions_size() == 1 && proto.tile_assignment_dimensions(0) == 1))) {
    return ProtoError("type MAXIMAL needs exactly one tile_assignment_devices entry and no other tile field");
  }
  if (proto.tile_assignment_devices(0) < 0) {
    return ProtoError(absl::StrCat("MAXIMAL device ", proto.tile_assignment_devices(0),
                                   " is negative; expected >= 0"));
  }
  HloSharding sharding;
  sharding.kind = HloSharding::Kind::kMaximal;
  sharding.maximal_device = proto.tile_assignment_devices(0);
  return sharding;
}

absl::StatusOr<HloSharding> TiledFromProto(const v1::OpSharding& proto) {
  const bool has_iota = proto.iota_reshape_dims_size() > 0 || proto.iota_transpose_perm_size() > 0;
  if (has_iota && proto.tile_assignment_devices_size() > 0) {
    return ProtoError("both tile_assignment_devices and iota fields are set; expected one");
  }
  if (!has_iota && proto.tile_assignment_devices_size() == 0) {
    return ProtoError("type OTHER needs tile_assignment_devices or iota_reshape_dims");
  }
  if (proto.iota_reshape_dims_size() != proto.iota_transpose_perm_size()) {
    return ProtoError(absl::StrCat("iota_reshape_dims has ", proto.iota_reshape_dims_size(),
                                   " entries and iota_transpose_perm ",
                                   proto.iota_transpose_perm_size(), "; expected the same"));
  }
  if (proto.replicate_on_last_tile_dim() && proto.last_tile_dims_size() > 0) {
    return ProtoError("replicate_on_last_tile_dim and last_tile_dims are both set");
  }
  HloSharding sharding;
  sharding.kind = HloSharding::Kind::kTiled;
  sharding.dims.assign(proto.tile_assignment_dimensions().begin(),
                       proto.tile_assignment_dimensions().end());
  sharding.devices.assign(proto.tile_assignment_devices().begin(),
                          proto.tile_assignment_devices().end());
  sharding.iota_reshape_dims.assign(proto.iota_reshape_dims().begin(),
                                    proto.iota_reshape_dims().end());
  sharding.iota_transpose_perm.assign(proto.iota_transpose_perm().begin(),
                                      proto.iota_transpose_perm().end());
  sharding.replicate_on_last_tile_dim = proto.replicate_on_last_tile_dim();
  if (proto.last_tile_dims_size() > 1) {
    return ProtoError(absl::StrCat("last_tile_dims has ", proto.last_tile_dims_size(),
                                   " subgroups; only one REPLICATED subgroup has a layout"));
  }
  if (proto.last_tile_dims_size() == 1) {
    if (proto.last_tile_dims(0) != v1::OpSharding::REPLICATED) {
      return ProtoError(absl::StrCat("last_tile_dims type ", proto.last_tile_dims(0),
                                     " has no layout; expected REPLICATED (0)"));
    }
    sharding.replicate_on_last_tile_dim = true;
  }
  TESSERA_RETURN_IF_ERROR(ValidateTiled(sharding, "OpSharding bytes"));
  if (Product(sharding.dims) == 1) return Replicated();  // XLA FromProto: one device
  return sharding;
}

}  // namespace

absl::StatusOr<HloSharding> ParseOpSharding(absl::string_view bytes) {
  v1::OpSharding proto;
  if (bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return ProtoError(absl::StrCat("the ", bytes.size(),
                                   " bytes are not a valid OpSharding message"));
  }
  const auto& unknown = proto.GetReflection()->GetUnknownFields(proto);
  if (unknown.field_count() > 0) {
    return ProtoError(absl::StrCat("field ", unknown.field(0).number(),
                                   " is not supported; expected only fields 1, 3, 4, 6, 8, 9, 10"));
  }
  switch (proto.type()) {
    case v1::OpSharding::REPLICATED:
      if (HasTileFields(proto)) return ProtoError("type REPLICATED with tile fields set");
      return Replicated();
    case v1::OpSharding::MAXIMAL:
      return MaximalFromProto(proto);
    case v1::OpSharding::OTHER:
      return TiledFromProto(proto);
    default:
      break;
  }
  const int type = proto.type();
  if (!v1::OpSharding::Type_IsValid(type)) {
    return ProtoError(absl::StrCat("type ", type, " is not an OpSharding.Type"));
  }
  return ProtoError(absl::StrCat("type ", v1::OpSharding::Type_Name(proto.type()),
                                 " has no layout equivalent"));
}

absl::StatusOr<std::string> LayoutToHloShardingText(const TensorLayout& layout, size_t rank,
                                                    bool v2) {
  TESSERA_ASSIGN_OR_RETURN(HloSharding sharding, HloShardingFromLayout(layout, rank));
  return HloShardingToString(v2 ? sharding : ToV1(sharding));
}

absl::StatusOr<TensorLayout> LayoutFromHloShardingText(absl::string_view text,
                                                       const MeshPtr& mesh, size_t rank) {
  TESSERA_ASSIGN_OR_RETURN(HloSharding sharding, ParseHloSharding(text));
  return LayoutFromHloSharding(sharding, mesh, rank);
}

absl::StatusOr<std::string> LayoutToOpSharding(const TensorLayout& layout, size_t rank, bool v2) {
  TESSERA_ASSIGN_OR_RETURN(HloSharding sharding, HloShardingFromLayout(layout, rank));
  return HloShardingToOpSharding(v2 ? sharding : ToV1(sharding));
}

absl::StatusOr<TensorLayout> LayoutFromOpSharding(absl::string_view bytes, const MeshPtr& mesh,
                                                  size_t rank) {
  TESSERA_ASSIGN_OR_RETURN(HloSharding sharding, ParseOpSharding(bytes));
  return LayoutFromHloSharding(sharding, mesh, rank);
}

std::vector<int64_t> DeviceOrder(const DeviceMesh& mesh) {
  std::vector<int64_t> ids;
  ids.reserve(mesh.devices().size());
  for (const Device& device : mesh.devices()) ids.push_back(device.id);
  return ids;
}

}  // namespace tessera
