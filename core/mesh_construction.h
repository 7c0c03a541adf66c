// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Mesh construction over the (global) device list, the way each framework
// builds its meshes: JAX's make_mesh / create_device_mesh /
// create_hybrid_device_mesh (sharding.md §2.6), TF DTensor's create_mesh /
// create_distributed_mesh (dtensor.md §4), and PyTorch's DeviceMesh slicing,
// flattening, coordinates and local ranks (sharding.md §4.1).
//
// Errors are INVALID_ARGUMENT unless stated; where the framework has a
// message ours is the same text (JAX's InvalidMesh/ValueError texts, DTensor's
// ValueErrors, PyTorch's KeyErrors), so users can search for it.
//
// TPU placement: the v2/v3 tray ring (S39) and the v4 lite ring need only the
// device kind; other TPUs follow their chips' coordinates (Device::coords)
// through JAX's _create_device_mesh_for_nd_torus (S41), splitting physical
// axes on request, after JAX's per-kind orders for small v5e/v6e, v5p and 7x
// slices; contiguous_submeshes applies JAX's transpose trick first.
//
// Implemented per framework under core/mesh_construction/: jax.cc, tpu.cc
// (JAX's TPU orders), dtensor.cc, torch.cc, over grid.h's shared arithmetic.
#ifndef TESSERA_CORE_MESH_CONSTRUCTION_H_
#define TESSERA_CORE_MESH_CONSTRUCTION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/device.h"
#include "core/dtensor_config.h"
#include "core/dtensor_mesh.h"
#include "core/mesh.h"

namespace tessera {

// ---------------------------------------------------------------- JAX

// JAX's create_device_mesh: `devices` in mesh order (row-major) for `shape`.
// `device_kind` is JAX's devices[-1].device_kind: "TPU v2" and "TPU v3"
// apply the tray ring (S39), "TPU v4 lite" and "TPU8i" with 4 devices the
// ring (0, 1, 3, 2); "TPU v5 lite"/"TPU v6 lite" (4, 8 or 16 chips), "TPU
// v5p" (2x2x2) and "TPU7x"/"TPU7" (up to 32 devices, at most 2x2 in x and y)
// get JAX's rings for those small slices. Otherwise TPU devices with
// coordinates are placed on
// the torus (S41): the devices, arranged by chip over the cuboid their
// coordinates span (x, y, z; plus the core for two-core kinds: "TPU7x",
// "TPU7", "TPU8i", "TPU v5p" with two cores per chip), are mapped from
// logical axes to physical axes, the last logical axis first, each taking the
// most whole physical axes whose sizes multiply to its size. GPU devices are
// sorted by global id (XLA numbers them process by process, so each
// process's devices stay together) and other devices (TPUs without
// coordinates included) keep their order, stably grouped by process.
// Errors: a dimension < 1 ("`mesh_shape` passed to `create_device_mesh`
// should be a sequence of positive ints, got (2, 0)"), "Number of devices 6
// must equal the product of mesh_shape (2, 4)"; for the torus, some TPU
// devices without coordinates, coordinates that do not fill a cuboid (JAX's
// "Constructed mesh contains a \"hole\"..."), a core other than 0 on a
// one-device-per-chip kind ("Creating meshes for TPU >v3 requires one device
// per chip..."), and a shape the physical axes cannot make without being
// split (JAX's "Failed to find assignment for logical_axis_index 1 of size 8
// with remaining assignable mesh [0, 4, 4]. ...").
//
// `allow_split_physical_axes` (JAX's argument of that name): where whole
// physical axes cannot make the shape, split them instead of failing (JAX's
// _create_device_mesh_for_nd_torus_splitting_axes: TpuTorusSplitAssignment).
// `contiguous_submeshes` (JAX's argument): before the torus placement,
// transpose the physical mesh by JAX's table (_TRANSPOSE_TRICKS) so each
// process's devices form a contiguous submesh; a topology or shape missing
// from the table fails with JAX's "create_device_mesh cannot create
// contiguous submeshes for mesh_shape (8,) and physical mesh topology (4, 4,
// 4). Available mesh_shapes: [(16, 4)]". Ignored where no torus placement
// happens (non-TPU devices, JAX's per-kind orders), as in JAX.
absl::StatusOr<std::vector<Device>> CreateDeviceMesh(absl::Span<const int64_t> shape,
                                                     std::vector<Device> devices,
                                                     absl::string_view device_kind = "",
                                                     bool allow_split_physical_axes = false,
                                                     bool contiguous_submeshes = false);

// JAX's create_device_mesh semantics as a DeviceMesh: `devices` (nullopt:
// ListDevices()) must number exactly prod(shape) (unlike MakeMesh, which
// truncates), ordered by CreateDeviceMesh, then DeviceMesh::Create's checks.
struct CreateDeviceMeshOptions {
  std::string device_kind;
  bool allow_split_physical_axes = false;
  bool contiguous_submeshes = false;
};
absl::StatusOr<MeshPtr> CreateDeviceMeshOver(std::vector<int64_t> shape, std::vector<std::string> axis_names,
                                             std::optional<std::vector<Device>> devices,
                                             const CreateDeviceMeshOptions& options);

// The assignment matrix JAX's _create_device_mesh_for_nd_torus returns with
// the mesh: [physical axis][logical axis] -> the size that physical axis
// gives that logical axis (1 where it gives none; rows multiply to
// `physical_shape`, columns to `mesh_shape`). Whole physical axes
// (TpuTorusAxisAssignment) first; with `allow_split_physical_axes`, where
// they cannot make the shape, JAX's split (TpuTorusSplitAssignment). The
// products must agree ("Argument 'mesh_shape' (2, 2) has 4 devices; expected
// the 16 of physical_shape (4, 4)").
absl::StatusOr<std::vector<std::vector<int64_t>>> TpuAxisAssignmentMatrix(
    absl::Span<const int64_t> physical_shape, absl::Span<const int64_t> mesh_shape,
    bool allow_split_physical_axes);

// JAX's _create_device_mesh_for_nd_torus axis assignment (without splitting
// physical axes): for each logical axis of `mesh_shape`, the axes of
// `physical_shape` it spans, e.g. [(), (1, 2), (0,)] for physical (4, 4, 4)
// and mesh [1, 16, 4] (S41). CreateDeviceMesh's "Failed to find assignment
// ..." when an axis cannot be made of whole physical axes. Both shapes must
// have the same product (CreateDeviceMesh's callers ensure it).
absl::StatusOr<std::vector<std::vector<size_t>>> TpuTorusAxisAssignment(
    absl::Span<const int64_t> physical_shape, absl::Span<const int64_t> mesh_shape);

// JAX's _create_device_mesh_for_nd_torus_splitting_axes assignment: the
// matrix [physical axis][logical axis] of the size each physical axis gives
// each logical axis (rows multiply to the physical sizes, columns to the
// logical ones). Logical axes, last first, take the feasible split JAX
// prefers: whole physical axes first, then more of them, then axes already
// shared, then the larger split. Fails with JAX's "The number of devices in
// physical mesh (4, 4) does not match the number of devices in logical mesh
// (2, 2, 2)." when the products differ.
absl::StatusOr<std::vector<std::vector<int64_t>>> TpuTorusSplitAssignment(
    absl::Span<const int64_t> physical_shape, absl::Span<const int64_t> mesh_shape);

// JAX's make_mesh: the first prod(shape) of `devices` (nullopt: ListDevices())
// through CreateDeviceMesh (splitting physical axes for "TPU v5 lite" and
// "TPU v5e", as JAX), as a DeviceMesh. Fewer devices fail with "Number
// of devices 6 must be >= the product of mesh_shape (2, 4)"; then
// DeviceMesh::Create's checks apply.
absl::StatusOr<MeshPtr> MakeMesh(std::vector<int64_t> shape, std::vector<std::string> axis_names,
                                 std::optional<std::vector<Device>> devices = std::nullopt,
                                 absl::string_view device_kind = "");

struct HybridMeshOptions {
  // JAX's should_sort_granules_by_key: granules ordered by process index;
  // false keeps the order in which each process first appears.
  bool sort_granules_by_key = true;
  std::string device_kind;  // as CreateDeviceMesh's
  bool allow_split_physical_axes = false;  // as CreateDeviceMesh's, for every granule
};

// JAX's create_hybrid_device_mesh with process_is_granule=True (Device has
// no slice index, so a granule is a process): one CreateDeviceMesh(mesh_shape)
// per process, placed in the grid arange(granules).reshape(dcn_mesh_shape);
// the result has shape mesh_shape[i] * dcn_mesh_shape[i]. Errors: lengths
// that differ ("mesh_shape (2, 2) and dcn_mesh_shape (2,) must have the same
// length"), "Number of slices 2 must equal the product of dcn_mesh_shape
// (1, 1)", CreateDeviceMesh's errors per granule, then DeviceMesh::Create's.
// `devices` nullopt means ListDevices().
absl::StatusOr<MeshPtr> MakeHybridMesh(std::vector<int64_t> mesh_shape,
                                       std::vector<int64_t> dcn_mesh_shape,
                                       std::vector<std::string> axis_names,
                                       std::optional<std::vector<Device>> devices = std::nullopt,
                                       const HybridMeshOptions& options = {});

// ------------------------------------------------------------ TF DTensor

// DTensor's config.local_devices(device_type, for_client_id): one
// "/job:<job>/replica:0/task:<client>/device:<TYPE>:<i>" per device this
// process has of that type (ListDevices filtered to this process). The job
// is "localhost" with one client, else "worker"; `client_id` nullopt means
// this process. `device_type` is case-insensitive; another than CPU, GPU or
// TPU fails with "Device type XPU is not CPU, GPU, or TPU.".
absl::StatusOr<std::vector<std::string>> DTensorLocalDevices(
    absl::string_view device_type, std::optional<int64_t> client_id = std::nullopt);

struct DTensorCreateMeshOptions {
  // nullopt: [("x", number of devices)]; one dim of size -1 takes them all.
  std::optional<std::vector<DTensorMeshDim>> dims;
  std::string name;
  // "CPU:0", "/device:GPU:1", "/job:localhost/replica:0/task:0/device:CPU:0";
  // nullopt: DTensorLocalDevices(device_type or "CPU").
  std::optional<std::vector<std::string>> devices;
  std::string device_type;  // "" = the type of devices[0]
  bool use_xla_spmd = false;
  // The job as DTensor's config.py describes it (job name, client id, local
  // devices); nullopt: the runtime's (RuntimeProcessInfo, this process's devices).
  std::optional<DTensorConfig> config;
};

// DTensor's create_mesh (single client): global ids 0..n-1 row-major, all
// local. Errors in DTensor's order: "Conflicting devices [...] and
// device_type GPU", "length of devices (4) must be equal to total size of the
// mesh of shape [3]", then DTensor's Mesh checks (DTensorMesh::Create) and
// "XLA SPMD is not currently not supported for CPU mesh.".
absl::StatusOr<DTensorMesh> DTensorCreateMesh(const DTensorCreateMeshOptions& options);

struct DTensorDistributedMeshOptions {
  std::vector<DTensorMeshDim> dims;
  std::string name;
  // This client's devices; nullopt: DTensorLocalDevices(device_type or "CPU").
  std::optional<std::vector<std::string>> local_devices;
  std::string device_type;  // "" = the type of local_devices[0], else CPU
  bool use_xla_spmd = false;
  // As DTensorCreateMeshOptions::config; with one, its accelerators must be
  // initialised.
  std::optional<DTensorConfig> config;
};

// DTensor's create_distributed_mesh (current): num_clients and client_id are
// the config's or else the runtime's (RuntimeProcessInfo); with a config
// whose accelerators are not initialised it fails first with "Accelerators
// are uninitialized, please run dtensor.initialize_accelerator_system()
// first."; every client has as many devices as
// this one; local ids are this client's contiguous block of the row-major
// global ids. Errors: "Do not specify devices for TPU meshes. ...", "Device
// type XPU is not CPU, GPU, or TPU.", "Global number of devices (3 per
// client * 2 clients = 6) must be equal to total size of the mesh of shape
// (8,)", DTensor's Mesh checks. TPU meshes (topology-aware ring) are
// UNIMPLEMENTED.
absl::StatusOr<DTensorMesh> DTensorCreateDistributedMesh(
    const DTensorDistributedMeshOptions& options);

struct DTensorLegacyDistributedMeshOptions {
  std::vector<DTensorMeshDim> dims;
  std::string name;
  std::optional<int64_t> num_global_devices;  // nullopt: local count * num_clients
  std::optional<int64_t> num_clients;         // nullopt: the runtime's process count
  std::optional<int64_t> client_id;           // nullopt: the runtime's process id
  std::string device_type = "CPU";
  // The job as TF 2.9-2.11's api.py read it (DTensorConfig's Legacy*
  // readings and device counts; "initialize_multi_client() was called" is
  // accelerators_initialized()); nullopt: the runtime's, initialised when it
  // has more than one process.
  std::optional<DTensorConfig> config;
};

// DTensor's legacy create_distributed_mesh (TF 2.9-2.11) with its checks in
// its order (dtensor.md §4.3): num_global_devices > 0 and equal to the mesh
// size, num_clients > 0, "Invalid multi-client topology, run
// dtensor.initialize_multi_client() first" when num_clients > 1 and the
// runtime is single-process, 0 <= client_id < num_clients, divisibility,
// "Not enough devices; 4 needed, only 2 available". The local devices are the
// first num_global / num_clients of DTensorLocalDevices(type, client_id).
absl::StatusOr<DTensorMesh> DTensorCreateLegacyDistributedMesh(
    const DTensorLegacyDistributedMeshOptions& options);

// -------------------------------------------------------------- PyTorch

// PyTorch's mesh[names] seen from device `device_id` (the current rank): the
// submesh over `axis_names` that holds the device, axes in mesh order.
// Errors: no names; "Invalid mesh_dim_names ('x',) specified. Valid
// mesh_dim_names are ('dp', 'tp')." (NOT_FOUND); a name twice or out of mesh
// order: "Invalid mesh_dim_names ('cp', 'dp') specified. Mesh dim indices
// should be in ascending order."; a device the mesh lacks (NOT_FOUND, as
// DeviceMesh::CoordinatesOf).
absl::StatusOr<MeshPtr> SliceMesh(const DeviceMesh& mesh,
                                  absl::Span<const std::string> axis_names, int64_t device_id);

// PyTorch's _flatten(name): a 1-D mesh over `mesh`'s devices in row-major
// order, named `name` or, when empty, the axis names joined by "_"
// ("dp_cp"). A name that is one of the mesh's axes and the mesh has more than
// one fails: "Flattened mesh dim name 'dp' already exists in the mesh's
// mesh_dim_names ('dp', 'cp')".
absl::StatusOr<MeshPtr> FlattenMesh(const DeviceMesh& mesh, absl::string_view name = "");

// PyTorch's get_local_rank(dim) for device `device_id`: its coordinate along
// `axis_name`. NOT_FOUND for an unknown axis or a device not in the mesh.
absl::StatusOr<int64_t> LocalRankOf(const DeviceMesh& mesh, absl::string_view axis_name,
                                    int64_t device_id);

// The process groups along `axis_name` as PyTorch builds them
// (mesh.swapdims(-1, dim).reshape(-1, size)): device ids, one group per row.
absl::StatusOr<std::vector<std::vector<int64_t>>> AxisGroups(const DeviceMesh& mesh,
                                                             absl::string_view axis_name);

}  // namespace tessera

#endif  // TESSERA_CORE_MESH_CONSTRUCTION_H_
