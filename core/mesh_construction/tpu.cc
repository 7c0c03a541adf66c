// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/mesh_construction/tpu.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/mesh_construction.h"
#include "core/mesh_construction/grid.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

using mesh_construction::Product;
using mesh_construction::Strides;

// JAX's tray ring of a TPU v2/v3 host (S39).
constexpr size_t kTrayRingOrder[8] = {0, 1, 2, 3, 6, 7, 4, 5};

bool IsTrayRingKind(absl::string_view kind) { return kind == "TPU v2" || kind == "TPU v3"; }

// JAX's ring of a TPU v4 lite / TPU8i host of 4 devices (_TRAY_2x2_RING_ORDER).
constexpr size_t kTray2x2RingOrder[4] = {0, 1, 3, 2};

bool IsTray2x2RingKind(absl::string_view kind) { return kind == "TPU v4 lite" || kind == "TPU8i"; }

// The most physical axes a torus assignment considers (chips x, y, z and cores).
constexpr size_t kMaxTorusAxes = 8;
// The most devices a split assignment takes: its prime factoring costs
// sqrt(size) steps; the largest TPU slices have some 10^4 chips.
constexpr int64_t kMaxSplitDevices = int64_t{1} << 24;

// ---------------------------------------------------------------- TPU torus

std::string CoordsRepr(const ChipCoords& c) { return absl::StrCat("(", c[0], ", ", c[1], ", ", c[2], ")"); }

// A TPU slice's devices over its physical axes (JAX's _get_physical_tpu_mesh).
struct PhysicalMesh {
  std::vector<int64_t> shape;   // chips along x, y, z; then cores per chip for two-core kinds
  std::vector<Device> devices;  // row-major over shape
};

// Kinds whose chips hold two devices, each its own place in the torus.
bool HasCoreAxis(absl::string_view kind, int64_t cores_per_chip) {
  return kind == "TPU7x" || kind == "TPU7" || kind == "TPU8i" || (kind == "TPU v5p" && cores_per_chip == 2);
}

absl::Status TpuHole(absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "Constructed mesh contains a \"hole\"; probable cause: coordinates of the devices are not a contiguous "
      "cuboid: ",
      why));
}

// The devices (all with coordinates) placed by chip, relative to the
// smallest coordinates: the cuboid they span must hold exactly one device per
// place.
absl::StatusOr<PhysicalMesh> PhysicalTpuMesh(const std::vector<Device>& devices, absl::string_view kind) {
  ChipCoords low = *devices.front().coords;
  ChipCoords high = low;
  int64_t core_low = devices.front().core_on_chip;
  int64_t core_high = core_low;
  for (const Device& d : devices) {
    for (size_t k = 0; k < 3; ++k) {
      low[k] = std::min(low[k], (*d.coords)[k]);
      high[k] = std::max(high[k], (*d.coords)[k]);
    }
    core_low = std::min(core_low, d.core_on_chip);
    core_high = std::max(core_high, d.core_on_chip);
  }
  const uint64_t n = devices.size();
  // Spans as unsigned differences: one above n places cannot be filled.
  std::vector<int64_t> dims;
  uint64_t places = 1;
  bool too_many = false;
  for (size_t k = 0; k < 4; ++k) {
    const uint64_t span =
        (k < 3 ? static_cast<uint64_t>(high[k]) - static_cast<uint64_t>(low[k])
               : static_cast<uint64_t>(core_high) - static_cast<uint64_t>(core_low)) + 1;
    too_many = too_many || span == 0 || span > n || __builtin_mul_overflow(places, span, &places);
    dims.push_back(static_cast<int64_t>(span));
  }
  if (too_many) {
    return TpuHole(absl::StrCat(n, " devices span coords ", CoordsRepr(low), " to ", CoordsRepr(high), " and cores ",
                                core_low, " to ", core_high, ": more places than devices"));
  }
  const int64_t cores = dims[3];
  if (places != n) {
    return TpuHole(absl::StrCat(n, " devices span ", dims[0], "x", dims[1], "x", dims[2], " chips with ", cores,
                                " core", cores == 1 ? "" : "s", " per chip (", places, " places)"));
  }
  const bool core_axis = HasCoreAxis(kind, cores);
  if (!core_axis) dims.pop_back();
  PhysicalMesh mesh;
  mesh.shape = dims;
  std::vector<const Device*> slots(n, nullptr);
  for (const Device& d : devices) {
    if (!core_axis && d.core_on_chip != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Creating meshes for TPU >v3 requires one device per chip (\"megacore\" mode). Got device id ",
          d.core_on_chip, " for a device of kind ", kind, ": ", d.ToString(), "."));
    }
    const ChipCoords& c = *d.coords;
    int64_t flat = ((c[0] - low[0]) * dims[1] + (c[1] - low[1])) * dims[2] + (c[2] - low[2]);
    if (core_axis) flat = flat * cores + (d.core_on_chip - core_low);
    const Device*& slot = slots[static_cast<size_t>(flat)];
    if (slot != nullptr) {
      return TpuHole(absl::StrCat(slot->ToString(), " and ", d.ToString(), " are both at coords ", CoordsRepr(c),
                                  ", core ", d.core_on_chip));
    }
    slot = &d;
  }
  mesh.devices.reserve(n);
  for (const Device* d : slots) mesh.devices.push_back(*d);
  return mesh;
}

// The next k-combination of 0..n-1 in lexicographic order (itertools'); false after the last.
bool NextCombination(std::vector<size_t>& c, size_t n) {
  const size_t k = c.size();
  size_t i = k;
  while (i > 0 && c[i - 1] == n - k + i - 1) --i;
  if (i == 0) return false;
  ++c[i - 1];
  for (size_t j = i; j < k; ++j) c[j] = c[j - 1] + 1;
  return true;
}

// Candidates grow as 2^axes; a torus has 3 or 4.
absl::Status CheckPhysicalShape(absl::Span<const int64_t> physical) {
  if (physical.empty() || physical.size() > kMaxTorusAxes ||
      std::any_of(physical.begin(), physical.end(), [](int64_t d) { return d < 1; })) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'physical_shape' must be 1 to ", kMaxTorusAxes,
                                                   " sizes >= 1, got ", ShapeToString(physical)));
  }
  return absl::OkStatus();
}

}  // namespace

// Logical axes from the last (most network-intensive) to the first each take
// the largest set of whole, still-free physical axes whose sizes multiply to
// the axis size (the first such set in itertools.combinations order). A
// size-1 axis may take none.
absl::StatusOr<std::vector<std::vector<size_t>>> TpuTorusAxisAssignment(absl::Span<const int64_t> physical,
                                                                        absl::Span<const int64_t> logical) {
  TESSERA_RETURN_IF_ERROR(CheckPhysicalShape(physical));
  if (std::any_of(logical.begin(), logical.end(), [](int64_t d) { return d < 1; })) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument 'mesh_shape' must be sizes >= 1, got ", ShapeToString(logical)));
  }
  std::vector<int64_t> assignable(physical.begin(), physical.end());
  std::vector<std::vector<size_t>> assignment(logical.size());
  const size_t p = physical.size();
  for (size_t l = logical.size(); l-- > 0;) {
    bool found = false;
    for (size_t k = p; k >= 1 && !found; --k) {
      std::vector<size_t> c(k);
      for (size_t i = 0; i < k; ++i) c[i] = i;
      do {
        // Taken axes are 0; an overflowing product matches no size.
        int64_t product = 1;
        bool overflow = false;
        for (size_t i : c) overflow = overflow || __builtin_mul_overflow(product, assignable[i], &product);
        if (!overflow && product == logical[l]) {
          assignment[l] = c;
          for (size_t i : c) assignable[i] = 0;
          found = true;
        }
      } while (!found && NextCombination(c, p));
    }
    if (!found && logical[l] > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Failed to find assignment for logical_axis_index ", l, " of size ", logical[l],
          " with remaining assignable mesh ", PyIntListRepr(assignable),
          ". The size of each axis in your logical mesh must be equal to the product of some subset of the physical "
          "mesh axis sizes. E.g. logical mesh (4, 16) is compatible with physical mesh 4x4x4 since 4=4 and 16=4x4. If "
          "you want to split physical axes, set  allow_split_physical_axes to True."));
    }
  }
  return assignment;
}

namespace {
std::vector<int64_t> JaxPrimeFactors(int64_t x);
std::vector<std::vector<int64_t>> FeasibleSplits(absl::Span<const int64_t> physical,
                                                 const std::vector<std::vector<int64_t>>& assignment,
                                                 int64_t size);
bool PreferSplit(const std::vector<int64_t>& x, const std::vector<int64_t>& y, absl::Span<const int64_t> physical,
                 const std::vector<int64_t>& assigned);
std::vector<int64_t> AssignedPerPhysicalAxis(const std::vector<std::vector<int64_t>>& assignment);
}  // namespace

absl::StatusOr<std::vector<std::vector<int64_t>>> TpuTorusSplitAssignment(absl::Span<const int64_t> physical,
                                                                          absl::Span<const int64_t> logical) {
  TESSERA_RETURN_IF_ERROR(CheckPhysicalShape(physical));
  const std::optional<int64_t> physical_size = Product(physical);
  const std::optional<int64_t> logical_size = Product(logical);
  if (physical_size && *physical_size > kMaxSplitDevices) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'physical_shape' ", ShapeToString(physical),
                                                   " has more than ", kMaxSplitDevices, " devices"));
  }
  if (!physical_size || !logical_size || *physical_size != *logical_size ||
      std::any_of(logical.begin(), logical.end(), [](int64_t d) { return d < 1; })) {
    return absl::InvalidArgumentError(absl::StrCat("The number of devices in physical mesh ",
                                                   ShapeToString(physical),
                                                   " does not match the number of devices in logical mesh ",
                                                   ShapeToString(logical), "."));
  }
  std::vector<std::vector<int64_t>> assignment(physical.size(), std::vector<int64_t>(logical.size(), 1));
  for (size_t l = logical.size(); l-- > 0;) {
    const std::vector<int64_t> assigned = AssignedPerPhysicalAxis(assignment);
    std::optional<std::vector<int64_t>> best;
    for (std::vector<int64_t>& split : FeasibleSplits(physical, assignment, logical[l])) {
      if (!best || PreferSplit(split, *best, physical, assigned)) best = std::move(split);
    }
    if (!best) {
      // JAX fails here too (numpy cannot store None in the assignment).
      return absl::InvalidArgumentError(absl::StrCat("No split of the physical mesh ", ShapeToString(physical),
                                                     " gives logical_axis_index ", l, " its size ", logical[l]));
    }
    for (size_t p = 0; p < physical.size(); ++p) assignment[p][l] = (*best)[p];
  }
  return assignment;
}

namespace {

// devices.reshape(shape).transpose(axes).flatten(): the devices of a
// row-major array in the order of that array with its axes permuted.
std::vector<Device> Transposed(const std::vector<Device>& devices, absl::Span<const int64_t> shape,
                               absl::Span<const size_t> axes) {
  const std::vector<int64_t> strides = Strides(shape);
  std::vector<Device> out;
  out.reserve(devices.size());
  std::vector<int64_t> t(axes.size(), 0);
  for (size_t i = 0; i < devices.size(); ++i) {
    int64_t flat = 0;
    for (size_t k = 0; k < axes.size(); ++k) flat += t[k] * strides[axes[k]];
    out.push_back(devices[static_cast<size_t>(flat)]);
    for (size_t k = axes.size(); k-- > 0;) {
      if (++t[k] < shape[axes[k]]) break;
      t[k] = 0;
    }
  }
  return out;
}

// ---- splitting physical axes (JAX's _create_device_mesh_for_nd_torus_splitting_axes)

// JAX's _get_prime_factors, quirk included: the trial divisors stop at
// isqrt(x) + 1 of the original x, and a remainder above 1 then replaces the
// factors found (14 gives [7]).
std::vector<int64_t> JaxPrimeFactors(int64_t x) {
  std::vector<int64_t> factors;
  int64_t root = 0;
  while ((root + 1) <= x / (root + 1)) ++root;  // isqrt without overflow
  for (int64_t p = 2; p < root + 2; ++p) {
    while (x % p == 0) {
      factors.push_back(p);
      x /= p;
    }
    if (x == 1) return factors;
  }
  return {x};
}

// prod(assignment, axis=-1): what each physical axis has given away so far.
std::vector<int64_t> AssignedPerPhysicalAxis(const std::vector<std::vector<int64_t>>& assignment) {
  std::vector<int64_t> out;
  for (const std::vector<int64_t>& row : assignment) {
    int64_t product = 1;
    for (int64_t v : row) product *= v;
    out.push_back(product);
  }
  return out;
}

// Every split of a logical axis over the physical axes that still have room
// (JAX's _enumerate_feasible_logical_axis_assignments): each prime factor of
// the size, with its multiplicity, goes to that many distinct slots among the
// physical axes' own prime factors.
std::vector<std::vector<int64_t>> FeasibleSplits(absl::Span<const int64_t> physical,
                                                 const std::vector<std::vector<int64_t>>& assignment,
                                                 int64_t size) {
  std::vector<std::pair<int64_t, size_t>> factors;  // prime, multiplicity, in order of appearance
  for (int64_t f : JaxPrimeFactors(size)) {
    if (!factors.empty() && factors.back().first == f) {
      ++factors.back().second;
    } else {
      factors.emplace_back(f, 1);
    }
  }
  const std::vector<int64_t> assigned = AssignedPerPhysicalAxis(assignment);
  // Per prime: the distinct combinations of its slots (a physical axis is
  // listed once per occurrence of the prime in its free size).
  std::vector<std::vector<std::vector<size_t>>> choices;
  for (const auto& [prime, multiplicity] : factors) {
    std::vector<size_t> slots;
    for (size_t axis = 0; axis < physical.size(); ++axis) {
      for (int64_t f : JaxPrimeFactors(physical[axis] / assigned[axis])) {
        if (f == prime) slots.push_back(axis);
      }
    }
    std::vector<std::vector<size_t>> combos;
    if (multiplicity <= slots.size()) {
      std::vector<size_t> c(multiplicity);
      for (size_t i = 0; i < multiplicity; ++i) c[i] = i;
      do {
        std::vector<size_t> axes;
        for (size_t i : c) axes.push_back(slots[i]);
        if (std::find(combos.begin(), combos.end(), axes) == combos.end()) combos.push_back(axes);
      } while (NextCombination(c, slots.size()));
    }
    choices.push_back(std::move(combos));
  }
  std::vector<std::vector<int64_t>> out;
  std::vector<size_t> pick(choices.size(), 0);
  for (const auto& combos : choices) {
    if (combos.empty()) return out;
  }
  while (true) {
    std::vector<int64_t> split(physical.size(), 1);
    for (size_t f = 0; f < choices.size(); ++f) {
      for (size_t axis : choices[f][pick[f]]) split[axis] *= factors[f].first;
    }
    out.push_back(std::move(split));
    size_t f = choices.size();
    while (f > 0 && ++pick[f - 1] == choices[f - 1].size()) pick[--f] = 0;
    if (f == 0) return out;
  }
}

// JAX's _prefer_first_logical_axis_assignment.
bool PreferSplit(const std::vector<int64_t>& x, const std::vector<int64_t>& y, absl::Span<const int64_t> physical,
                 const std::vector<int64_t>& assigned) {
  auto whole_size = [&](const std::vector<int64_t>& v) {
    int64_t product = 1;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == physical[i]) product *= v[i];
    }
    return product;
  };
  auto whole_count = [&](const std::vector<int64_t>& v) {
    int64_t count = 0;
    for (size_t i = 0; i < v.size(); ++i) count += v[i] == physical[i] && v[i] > 1;
    return count;
  };
  auto on_taken_axes = [&](const std::vector<int64_t>& v) {
    int64_t product = 1;
    for (size_t i = 0; i < v.size(); ++i) {
      if (assigned[i] > 1) product *= v[i];
    }
    return product;
  };
  if (whole_size(x) != whole_size(y)) return whole_size(x) > whole_size(y);
  if (whole_count(x) != whole_count(y)) return whole_count(x) > whole_count(y);
  if (on_taken_axes(x) != on_taken_axes(y)) return on_taken_axes(x) > on_taken_axes(y);
  return x > y;
}

// JAX's _generate_logical_mesh: physical axis p is split into
// assignment[p][0..L-1] (logical 0 outermost), then the pieces are ordered by
// logical axis, then physical axis.
std::vector<Device> SplitPhysical(const PhysicalMesh& physical, const std::vector<std::vector<int64_t>>& assignment,
                                  size_t logical_rank) {
  std::vector<int64_t> pieces;
  for (const std::vector<int64_t>& row : assignment) pieces.insert(pieces.end(), row.begin(), row.end());
  std::vector<size_t> order;  // piece p * L + l, by (l, p)
  for (size_t l = 0; l < logical_rank; ++l) {
    for (size_t p = 0; p < assignment.size(); ++p) order.push_back(p * logical_rank + l);
  }
  return Transposed(physical.devices, pieces, order);
}

absl::StatusOr<std::vector<Device>> SplitTorusDeviceMesh(absl::Span<const int64_t> shape,
                                                         const PhysicalMesh& physical) {
  TESSERA_ASSIGN_OR_RETURN(const std::vector<std::vector<int64_t>> assignment,
                           TpuTorusSplitAssignment(physical.shape, shape));
  return SplitPhysical(physical, assignment, shape.size());
}

// JAX's _TRANSPOSE_TRICKS: for a physical topology and a mesh shape without
// its size-1 dims, the transpose of the physical mesh after which each
// process's devices form a contiguous submesh (in JAX's insertion order,
// which its error lists).
struct TransposeTrick {
  std::vector<int64_t> topology;
  std::vector<int64_t> mesh_shape;
  std::vector<size_t> transpose;
};

const std::vector<TransposeTrick>& TransposeTricks() {
  static const auto* const tricks = new std::vector<TransposeTrick>{
      {{2, 2, 1}, {2, 2}, {0, 1, 2}},     {{2, 2, 4}, {4, 4}, {0, 1, 2}},
      {{4, 4, 4}, {16, 4}, {0, 2, 1}},    {{4, 8, 8}, {64, 4}, {0, 2, 1}},
      {{4, 8, 8}, {4, 64}, {0, 2, 1}},    {{8, 8, 8}, {64, 8}, {0, 2, 1}},
      {{8, 16, 16}, {256, 8}, {0, 2, 1}}, {{8, 16, 16}, {8, 256}, {0, 2, 1}},
  };
  return *tricks;
}

// JAX's _transpose_trick (create_device_mesh's contiguous_submeshes).
absl::StatusOr<PhysicalMesh> ContiguousSubmeshPhysical(PhysicalMesh physical, absl::Span<const int64_t> shape) {
  std::vector<int64_t> nontrivial;
  for (int64_t d : shape) {
    if (d != 1) nontrivial.push_back(d);
  }
  std::vector<std::string> available;
  for (const TransposeTrick& trick : TransposeTricks()) {
    if (trick.topology != physical.shape) continue;
    if (trick.mesh_shape == nontrivial) {
      PhysicalMesh out;
      out.devices = Transposed(physical.devices, physical.shape, trick.transpose);
      for (size_t axis : trick.transpose) out.shape.push_back(physical.shape[axis]);
      return out;
    }
    available.push_back(ShapeToString(trick.mesh_shape));
  }
  if (available.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "create_device_mesh cannot create contiguous submeshes for physical mesh topology ",
        ShapeToString(physical.shape)));
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "create_device_mesh cannot create contiguous submeshes for mesh_shape ", ShapeToString(shape),
      " and physical mesh topology ", ShapeToString(physical.shape), ". Available mesh_shapes: [",
      absl::StrJoin(available, ", "), "]"));
}

absl::StatusOr<std::vector<Device>> TorusDeviceMesh(absl::Span<const int64_t> shape,
                                                    const std::vector<Device>& devices,
                                                    absl::string_view kind, bool allow_split,
                                                    bool contiguous_submeshes) {
  for (const Device& d : devices) {
    if (!d.coords.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Device ", d.ToString(), " has no coordinates, but other TPU devices of the mesh have: a TPU mesh "
          "follows the chips' coordinates, so every device needs them (TESSERA_DEVICES '@<place>')"));
    }
  }
  TESSERA_ASSIGN_OR_RETURN(PhysicalMesh physical, PhysicalTpuMesh(devices, kind));
  if (contiguous_submeshes) {
    TESSERA_ASSIGN_OR_RETURN(physical, ContiguousSubmeshPhysical(std::move(physical), shape));
  }
  absl::StatusOr<std::vector<std::vector<size_t>>> whole = TpuTorusAxisAssignment(physical.shape, shape);
  // JAX falls back to splitting only where whole axes cannot do.
  if (!whole.ok() && allow_split) return SplitTorusDeviceMesh(shape, physical);
  TESSERA_ASSIGN_OR_RETURN(const std::vector<std::vector<size_t>> assignment, std::move(whole));
  std::vector<size_t> axes;
  for (const std::vector<size_t>& taken : assignment) axes.insert(axes.end(), taken.begin(), taken.end());
  // Every physical axis is taken: a free one of size > 1 would leave the
  // products unequal, and a free one of size 1 joins the first axis assigned.
  if (axes.size() != physical.shape.size()) {
    return absl::InternalError(absl::StrCat("TPU axis assignment left a physical axis of ",
                                            ShapeToString(physical.shape), " unassigned"));
  }
  return Transposed(physical.devices, physical.shape, axes);
}

// ---- JAX's per-kind orders for small slices (device_kind_handler_dict)

constexpr size_t kTray4x4RingOrder[16] = {0, 1, 2, 3, 7, 6, 5, 9, 10, 11, 15, 14, 13, 12, 8, 4};
constexpr size_t kV5eTrayRingOrder[8] = {0, 1, 2, 3, 7, 6, 5, 4};
constexpr size_t kV5eTrayIotaOrder[8] = {0, 4, 2, 6, 1, 5, 3, 7};
constexpr size_t kV5p2x2x2Order[8] = {0, 1, 3, 2, 6, 7, 5, 4};
constexpr size_t k7xTray2x2x2RingOrder[8] = {0, 1, 2, 3, 6, 7, 4, 5};

ChipCoords CoordsOrOrigin(const Device& d) { return d.coords.value_or(ChipCoords{0, 0, 0}); }

// JAX's bounds, max(d.coords) + 1, are those of the lexicographically
// largest coordinates (devices without them count as (0, 0, 0)); compared
// here as that maximum, bound - 1, so no coordinate can overflow.
ChipCoords LexicographicMax(const std::vector<Device>& devices) {
  ChipCoords high{0, 0, 0};
  for (size_t i = 0; i < devices.size(); ++i) {
    const ChipCoords c = CoordsOrOrigin(devices[i]);
    if (i == 0 || c > high) high = c;
  }
  return high;
}

// The devices sorted by (z, y, x), stably: "sequential" in JAX's handlers.
std::vector<Device> SequentialOrder(std::vector<Device> devices) {
  std::stable_sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) {
    const ChipCoords x = CoordsOrOrigin(a);
    const ChipCoords y = CoordsOrOrigin(b);
    return ChipCoords{x[2], x[1], x[0]} < ChipCoords{y[2], y[1], y[0]};
  });
  return devices;
}

std::vector<Device> Pick(const std::vector<Device>& devices, absl::Span<const size_t> order) {
  std::vector<Device> out;
  out.reserve(order.size());
  for (size_t i : order) out.push_back(devices[i]);
  return out;
}

// JAX's _v5e_create_device_mesh (TPU v5 lite, TPU v6 lite).
std::optional<std::vector<Device>> V5eOrder(absl::Span<const int64_t> shape, const std::vector<Device>& devices) {
  const ChipCoords high = LexicographicMax(devices);
  const size_t n = devices.size();
  if (high == ChipCoords{1, 1, 0} && n == 4) {
    return Pick(SequentialOrder(devices), kTray2x2RingOrder);
  }
  if (n == 8) {
    const bool cube = high == ChipCoords{1, 1, 1};
    return Pick(SequentialOrder(devices), cube ? absl::MakeConstSpan(kV5eTrayIotaOrder)
                                               : absl::MakeConstSpan(kV5eTrayRingOrder));
  }
  // The ring only when the whole mesh is one replica group.
  if (high == ChipCoords{3, 3, 0} && n == 16 &&
      *std::max_element(shape.begin(), shape.end()) == 16) {
    return Pick(SequentialOrder(devices), kTray4x4RingOrder);
  }
  return std::nullopt;
}

// JAX's _v5p_create_device_mesh.
std::optional<std::vector<Device>> V5pOrder(const std::vector<Device>& devices) {
  if (LexicographicMax(devices) == ChipCoords{1, 1, 1} && devices.size() == 8) {
    return Pick(SequentialOrder(devices), kV5p2x2x2Order);
  }
  return std::nullopt;
}

// JAX's _7x_create_device_mesh: up to 32 devices whose slice is at most 2x2
// in x and y, ringed 8 at a time in the order given.
absl::StatusOr<std::optional<std::vector<Device>>> Tpu7xOrder(const std::vector<Device>& devices,
                                                              absl::string_view kind) {
  if (devices.size() % 8 != 0 || devices.size() > 32) return std::nullopt;
  TESSERA_ASSIGN_OR_RETURN(const PhysicalMesh physical, PhysicalTpuMesh(devices, kind));
  if (physical.shape[0] > 2 || physical.shape[1] > 2) return std::nullopt;
  std::vector<size_t> order;
  for (size_t i = 0; i < devices.size(); i += 8) {
    for (size_t k : k7xTray2x2x2RingOrder) order.push_back(i + k);
  }
  return std::optional<std::vector<Device>>(Pick(devices, order));
}

bool AllHaveCoords(const std::vector<Device>& devices) {
  return std::all_of(devices.begin(), devices.end(), [](const Device& d) { return d.coords.has_value(); });
}

// The order JAX's handler for `kind` gives, or nullopt where it has none (or
// declines: then the torus placement decides).
absl::StatusOr<std::optional<std::vector<Device>>> KindOrder(absl::string_view kind, absl::Span<const int64_t> shape,
                                                             const std::vector<Device>& devices) {
  if (kind == "TPU v5 lite" || kind == "TPU v6 lite") return V5eOrder(shape, devices);
  if (kind == "TPU v5p") return V5pOrder(devices);
  if ((kind == "TPU7x" || kind == "TPU7") && AllHaveCoords(devices)) return Tpu7xOrder(devices, kind);
  return std::nullopt;
}

bool AnyHasCoords(const std::vector<Device>& devices) {
  return std::any_of(devices.begin(), devices.end(), [](const Device& d) { return d.coords.has_value(); });
}

}  // namespace

namespace mesh_construction {

absl::StatusOr<std::optional<std::vector<Device>>> TpuDeviceOrder(absl::Span<const int64_t> shape,
                                                                  const std::vector<Device>& devices,
                                                                  absl::string_view device_kind,
                                                                  bool allow_split_physical_axes,
                                                                  bool contiguous_submeshes) {
  const int64_t n = static_cast<int64_t>(devices.size());
  if (IsTrayRingKind(device_kind) && (n == 8 || shape.back() == 8)) {
    // With 8 devices the whole list is the ring; otherwise each row of the
    // last axis (8 consecutive devices) is permuted the same way.
    std::vector<Device> ordered;
    ordered.reserve(devices.size());
    for (size_t row = 0; row < devices.size(); row += 8) {
      for (size_t i : kTrayRingOrder) ordered.push_back(devices[row + i]);
    }
    return std::optional<std::vector<Device>>(std::move(ordered));
  }
  if (IsTray2x2RingKind(device_kind) && n == 4) {
    return std::optional<std::vector<Device>>(Pick(devices, kTray2x2RingOrder));
  }
  TESSERA_ASSIGN_OR_RETURN(std::optional<std::vector<Device>> by_kind, KindOrder(device_kind, shape, devices));
  if (by_kind.has_value()) return by_kind;
  if (!IsTrayRingKind(device_kind) && devices.back().platform == Platform::kTpu && AnyHasCoords(devices)) {
    TESSERA_ASSIGN_OR_RETURN(std::vector<Device> placed,
                             TorusDeviceMesh(shape, devices, device_kind, allow_split_physical_axes,
                                             contiguous_submeshes));
    return std::optional<std::vector<Device>>(std::move(placed));
  }
  return std::nullopt;
}

}  // namespace mesh_construction

}  // namespace tessera
