#include "core/mesh_construction.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/device_discovery.h"
#include "core/distribution.h"
#include "core/formats/keras_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

// The product of `shape`; nullopt when it overflows int64 (then it cannot
// equal any device count).
std::optional<int64_t> Product(absl::Span<const int64_t> shape) {
  int64_t product = 1;
  for (int64_t d : shape) {
    if (__builtin_mul_overflow(product, d, &product)) return std::nullopt;
  }
  return product;
}

bool ProductIs(absl::Span<const int64_t> shape, int64_t n) {
  const std::optional<int64_t> product = Product(shape);
  return product.has_value() && *product == n;
}

// Python's repr of a list of ints: "[2, -1]".
std::string PyIntListRepr(absl::Span<const int64_t> values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

// Python's repr of a tuple of str: "('dp', 'tp')", "('tp',)".
std::string PyStrTupleRepr(absl::Span<const std::string> items) {
  std::vector<std::string> parts;
  for (const std::string& item : items) parts.push_back(PyStrRepr(item));
  if (parts.size() == 1) return absl::StrCat("(", parts[0], ",)");
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

// Row-major strides of `shape`.
std::vector<int64_t> Strides(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i > 1; --i) strides[i - 2] = strides[i - 1] * shape[i - 1];
  return strides;
}

// JAX's tray ring of a TPU v2/v3 host (S39).
constexpr size_t kTrayRingOrder[8] = {0, 1, 2, 3, 6, 7, 4, 5};

bool IsTrayRingKind(absl::string_view kind) { return kind == "TPU v2" || kind == "TPU v3"; }

}  // namespace

// ---------------------------------------------------------------- JAX

absl::StatusOr<std::vector<Device>> CreateDeviceMesh(absl::Span<const int64_t> shape,
                                                     std::vector<Device> devices,
                                                     absl::string_view device_kind) {
  if (shape.empty() || std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 1; })) {
    return absl::InvalidArgumentError(absl::StrCat(
        "`mesh_shape` passed to `create_device_mesh` should be a sequence of positive ints, got ",
        ShapeToString(shape)));
  }
  const int64_t n = static_cast<int64_t>(devices.size());
  if (!ProductIs(shape, n)) {
    return absl::InvalidArgumentError(absl::StrCat("Number of devices ", n,
                                                   " must equal the product of mesh_shape ",
                                                   ShapeToString(shape)));
  }
  if (IsTrayRingKind(device_kind) && (n == 8 || shape.back() == 8)) {
    // With 8 devices the whole list is the ring; otherwise each row of the
    // last axis (8 consecutive devices) is permuted the same way.
    std::vector<Device> ordered;
    ordered.reserve(devices.size());
    for (size_t row = 0; row < devices.size(); row += 8) {
      for (size_t i : kTrayRingOrder) ordered.push_back(devices[row + i]);
    }
    return ordered;
  }
  if (!devices.empty() && devices.back().platform == Platform::kGpu) {
    std::stable_sort(devices.begin(), devices.end(),
                     [](const Device& a, const Device& b) { return a.id < b.id; });
  } else {
    std::stable_sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) {
      return a.process_index < b.process_index;
    });
  }
  return devices;
}

namespace {

absl::StatusOr<std::vector<Device>> DevicesOrAll(std::optional<std::vector<Device>> devices) {
  if (devices.has_value()) return *std::move(devices);
  return ListDevices();
}

}  // namespace

absl::StatusOr<MeshPtr> MakeMesh(std::vector<int64_t> shape, std::vector<std::string> axis_names,
                                 std::optional<std::vector<Device>> devices,
                                 absl::string_view device_kind) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> all, DevicesOrAll(std::move(devices)));
  const std::optional<int64_t> product = Product(shape);
  if (product.has_value() && *product >= 0 && static_cast<int64_t>(all.size()) < *product) {
    return absl::InvalidArgumentError(absl::StrCat("Number of devices ", all.size(),
                                                   " must be >= the product of mesh_shape ",
                                                   ShapeToString(shape)));
  }
  if (product.has_value() && *product >= 0) all.resize(static_cast<size_t>(*product));
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> ordered,
                           CreateDeviceMesh(shape, std::move(all), device_kind));
  return DeviceMesh::Create(std::move(shape), std::move(axis_names), std::move(ordered));
}

namespace {

// Devices grouped by process: by process index, or in order of appearance.
std::vector<std::vector<Device>> Granules(const std::vector<Device>& devices, bool sort_by_key) {
  std::vector<int64_t> keys;
  std::vector<std::vector<Device>> granules;
  for (const Device& d : devices) {
    auto it = std::find(keys.begin(), keys.end(), d.process_index);
    if (it == keys.end()) {
      keys.push_back(d.process_index);
      granules.push_back({d});
    } else {
      granules[it - keys.begin()].push_back(d);
    }
  }
  if (sort_by_key) {
    std::vector<size_t> order(keys.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<std::vector<Device>> sorted;
    for (size_t i : order) sorted.push_back(std::move(granules[i]));
    granules = std::move(sorted);
  }
  return granules;
}

}  // namespace

absl::StatusOr<MeshPtr> MakeHybridMesh(std::vector<int64_t> mesh_shape,
                                       std::vector<int64_t> dcn_mesh_shape,
                                       std::vector<std::string> axis_names,
                                       std::optional<std::vector<Device>> devices,
                                       const HybridMeshOptions& options) {
  if (mesh_shape.size() != dcn_mesh_shape.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "mesh_shape ", ShapeToString(mesh_shape), " and dcn_mesh_shape ",
        ShapeToString(dcn_mesh_shape), " must have the same length"));
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> all, DevicesOrAll(std::move(devices)));
  std::vector<std::vector<Device>> granules = Granules(all, options.sort_granules_by_key);
  if (!ProductIs(dcn_mesh_shape, static_cast<int64_t>(granules.size()))) {
    return absl::InvalidArgumentError(absl::StrCat("Number of slices ", granules.size(),
                                                   " must equal the product of dcn_mesh_shape ",
                                                   ShapeToString(dcn_mesh_shape)));
  }
  for (auto& granule : granules) {
    TESSERA_ASSIGN_OR_RETURN(granule,
                             CreateDeviceMesh(mesh_shape, std::move(granule), options.device_kind));
  }
  // np.block of the granule grid: along every axis, granule coordinate
  // major, inner coordinate minor.
  const size_t rank = mesh_shape.size();
  std::vector<int64_t> shape(rank);
  for (size_t i = 0; i < rank; ++i) shape[i] = mesh_shape[i] * dcn_mesh_shape[i];
  const std::vector<int64_t> inner_strides = Strides(mesh_shape);
  const std::vector<int64_t> outer_strides = Strides(dcn_mesh_shape);
  const int64_t total = static_cast<int64_t>(all.size());
  std::vector<Device> placed;
  placed.reserve(all.size());
  std::vector<int64_t> coords(rank, 0);
  for (int64_t flat = 0; flat < total; ++flat) {
    int64_t granule = 0;
    int64_t inner = 0;
    for (size_t i = 0; i < rank; ++i) {
      granule += coords[i] / mesh_shape[i] * outer_strides[i];
      inner += coords[i] % mesh_shape[i] * inner_strides[i];
    }
    placed.push_back(granules[granule][inner]);
    for (size_t i = rank; i-- > 0;) {
      if (++coords[i] < shape[i]) break;
      coords[i] = 0;
    }
  }
  return DeviceMesh::Create(std::move(shape), std::move(axis_names), std::move(placed));
}

// ------------------------------------------------------------ TF DTensor

namespace {

constexpr char kDTensorTpuArgs[] =
    " for TPU meshes. It will be filled in automatically from environmental variables.See api.py "
    "for the list of environmental variables for DTensor.";

bool IsDTensorType(absl::string_view upper) {
  return upper == "CPU" || upper == "GPU" || upper == "TPU";
}

// TF's DeviceSpec, as much of it as mesh creation reads.
struct TfDeviceSpec {
  std::optional<std::string> job;
  std::optional<int64_t> replica;
  std::optional<int64_t> task;
  std::string type;
  std::optional<int64_t> index;  // nullopt is "*"
};

absl::Status SpecError(absl::string_view spec, absl::string_view problem) {
  return absl::InvalidArgumentError(
      absl::StrCat(problem, " while parsing the device spec: '", spec, "'."));
}

absl::StatusOr<int64_t> SpecNumber(absl::string_view spec, absl::string_view text) {
  int64_t value = 0;
  if (text.empty() || text.find_first_not_of("0123456789") != absl::string_view::npos ||
      !absl::SimpleAtoi(text, &value)) {
    return SpecError(spec, absl::StrCat("'", text, "' is not a non-negative integer"));
  }
  return value;
}

// TF's DeviceSpec.from_string (_string_to_components).
absl::StatusOr<TfDeviceSpec> ParseTfDeviceSpec(absl::string_view spec) {
  TfDeviceSpec out;
  bool has_type = false;
  for (absl::string_view component : absl::StrSplit(spec, '/')) {
    if (component.empty()) continue;
    const std::vector<absl::string_view> y = absl::StrSplit(component, ':');
    const std::string upper = absl::AsciiStrToUpper(y[0]);
    if (y.size() == 2 && y[0] == "job") {
      out.job = std::string(y[1]);
    } else if (y.size() == 2 && (y[0] == "replica" || y[0] == "task")) {
      TESSERA_ASSIGN_OR_RETURN(int64_t value, SpecNumber(spec, y[1]));
      (y[0] == "replica" ? out.replica : out.task) = value;
    } else if ((y.size() == 1 || y.size() == 2) && IsDTensorType(upper)) {
      if (has_type) return SpecError(spec, "Multiple device types are not allowed");
      has_type = true;
      out.type = upper;
      if (y.size() == 2 && y[1] != "*") {
        TESSERA_ASSIGN_OR_RETURN(out.index, SpecNumber(spec, y[1]));
      }
    } else if (y.size() == 3 && y[0] == "device") {
      if (has_type) return SpecError(spec, "Multiple device types are not allowed");
      has_type = true;
      out.type = std::string(y[1]);
      if (y[2] != "*") {
        TESSERA_ASSIGN_OR_RETURN(out.index, SpecNumber(spec, y[2]));
      }
    } else {
      return SpecError(spec, absl::StrCat("Unknown attribute '", y[0], "' is encountered"));
    }
  }
  if (!has_type) return SpecError(spec, "No device type is given");
  return out;
}

// DeviceSpec(job, replica=0, task).make_merged_spec(spec).to_string().
std::string MergedDeviceName(const TfDeviceSpec& spec, absl::string_view job, int64_t task) {
  return absl::StrCat("/job:", spec.job.value_or(std::string(job)),
                      "/replica:", spec.replica.value_or(0), "/task:", spec.task.value_or(task),
                      "/device:", spec.type, ":",
                      spec.index.has_value() ? absl::StrCat(*spec.index) : "*");
}

std::string JobName(int64_t num_clients) { return num_clients == 1 ? "localhost" : "worker"; }

// mesh_util._make_device_specs: the devices given (parsed) or this client's,
// and the device type (as given or taken from the first device).
struct DeviceSpecs {
  std::vector<TfDeviceSpec> specs;
  std::string device_type;
};

absl::StatusOr<DeviceSpecs> MakeDeviceSpecs(const std::optional<std::vector<std::string>>& devices,
                                            absl::string_view device_type, int64_t client_id) {
  DeviceSpecs out;
  out.device_type = std::string(device_type);
  if (!devices.has_value()) {
    if (out.device_type.empty()) out.device_type = "CPU";
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             DTensorLocalDevices(out.device_type, client_id));
    for (const std::string& name : names) {
      TESSERA_ASSIGN_OR_RETURN(TfDeviceSpec spec, ParseTfDeviceSpec(name));
      out.specs.push_back(std::move(spec));
    }
    return out;
  }
  if (devices->empty()) {
    return absl::InvalidArgumentError("Argument 'devices' must list at least one device, got []");
  }
  for (const std::string& name : *devices) {
    TESSERA_ASSIGN_OR_RETURN(TfDeviceSpec spec, ParseTfDeviceSpec(name));
    out.specs.push_back(std::move(spec));
  }
  if (out.device_type.empty()) out.device_type = out.specs[0].type;
  if (absl::AsciiStrToUpper(out.device_type) != absl::AsciiStrToUpper(out.specs[0].type)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Conflicting devices ", PyStrListRepr(*devices), " and device_type ", device_type));
  }
  return out;
}

std::vector<std::string> MergedNames(const std::vector<TfDeviceSpec>& specs, absl::string_view job,
                                     int64_t task) {
  std::vector<std::string> out;
  out.reserve(specs.size());
  for (const TfDeviceSpec& spec : specs) out.push_back(MergedDeviceName(spec, job, task));
  return out;
}

std::vector<int64_t> Sizes(const std::vector<DTensorMeshDim>& dims) {
  std::vector<int64_t> sizes;
  for (const DTensorMeshDim& d : dims) sizes.push_back(d.size);
  return sizes;
}

std::vector<int64_t> Iota(int64_t begin, int64_t count) {
  std::vector<int64_t> ids(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) ids[i] = begin + i;
  return ids;
}

absl::Status CheckXlaSpmd(bool use_xla_spmd, absl::string_view device_type) {
  if (use_xla_spmd && absl::AsciiStrToUpper(device_type) != "TPU") {
    return absl::InvalidArgumentError(absl::StrCat(
        "XLA SPMD is not currently not supported for ", absl::AsciiStrToUpper(device_type),
        " mesh."));
  }
  return absl::OkStatus();
}

absl::Status CheckDims(const std::vector<DTensorMeshDim>& dims) {
  if (dims.empty()) {
    return absl::InvalidArgumentError("Argument 'dims' must name at least one mesh dimension");
  }
  return absl::OkStatus();
}

// The number of this process's devices of `upper_type`.
absl::StatusOr<int64_t> NumLocalDevices(absl::string_view upper_type) {
  TESSERA_ASSIGN_OR_RETURN(Platform platform, ParsePlatform(upper_type));
  TESSERA_ASSIGN_OR_RETURN(std::vector<LocalDeviceInfo> local, DiscoverLocalDevices());
  return static_cast<int64_t>(std::count_if(local.begin(), local.end(), [&](const auto& d) {
    return d.platform == platform;
  }));
}

}  // namespace

absl::StatusOr<std::vector<std::string>> DTensorLocalDevices(absl::string_view device_type,
                                                             std::optional<int64_t> client_id) {
  const std::string upper = absl::AsciiStrToUpper(device_type);
  if (!IsDTensorType(upper)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Device type ", device_type, " is not CPU, GPU, or TPU."));
  }
  const ProcessInfo process = RuntimeProcessInfo();
  TESSERA_ASSIGN_OR_RETURN(int64_t count, NumLocalDevices(upper));
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(count));
  const std::string job = JobName(process.num_processes);
  const int64_t task = client_id.value_or(process.process_id);
  for (int64_t i = 0; i < count; ++i) {
    out.push_back(absl::StrCat("/job:", job, "/replica:0/task:", task, "/device:", upper, ":", i));
  }
  return out;
}

absl::StatusOr<DTensorMesh> DTensorCreateMesh(const DTensorCreateMeshOptions& options) {
  const ProcessInfo process = RuntimeProcessInfo();
  TESSERA_ASSIGN_OR_RETURN(DeviceSpecs specs,
                           MakeDeviceSpecs(options.devices, options.device_type, 0));
  std::vector<std::string> devices =
      MergedNames(specs.specs, JobName(process.num_processes), 0);
  const int64_t n = static_cast<int64_t>(devices.size());
  std::vector<DTensorMeshDim> dims =
      options.dims.value_or(std::vector<DTensorMeshDim>{DTensorMeshDim{"x", n}});
  TESSERA_RETURN_IF_ERROR(CheckDims(dims));
  if (dims.size() == 1 && dims[0].size == -1) dims[0].size = n;
  const std::vector<int64_t> shape = Sizes(dims);
  if (!ProductIs(shape, n)) {
    return absl::InvalidArgumentError(absl::StrCat("length of devices (", n,
                                                   ") must be equal to total size of the mesh "
                                                   "of shape ",
                                                   PyIntListRepr(shape)));
  }
  TESSERA_RETURN_IF_ERROR(CheckXlaSpmd(options.use_xla_spmd, specs.device_type));
  DTensorMesh::Fields fields;
  fields.name = options.name;
  fields.dims = std::move(dims);
  fields.global_ids = Iota(0, n);
  fields.local_ids = fields.global_ids;
  fields.local_devices = std::move(devices);
  fields.use_xla_spmd = options.use_xla_spmd;
  return DTensorMesh::Create(std::move(fields));
}

absl::StatusOr<DTensorMesh> DTensorCreateDistributedMesh(
    const DTensorDistributedMeshOptions& options) {
  TESSERA_RETURN_IF_ERROR(CheckDims(options.dims));
  if (absl::AsciiStrToUpper(options.device_type) == "TPU" && options.local_devices.has_value()) {
    return absl::InvalidArgumentError(
        "Do not specify devices for TPU meshes. Using a partial list of devices for TPU is not "
        "supported.");
  }
  const ProcessInfo process = RuntimeProcessInfo();
  TESSERA_ASSIGN_OR_RETURN(
      DeviceSpecs specs,
      MakeDeviceSpecs(options.local_devices, options.device_type, process.process_id));
  const std::string type = absl::AsciiStrToUpper(specs.device_type);
  if (type == "TPU") {
    return absl::UnimplementedError(
        "TPU meshes need the TPU topology (DTensor's create_tpu_mesh); Tessera does not build "
        "them");
  }
  if (type != "CPU" && type != "GPU") {
    return absl::InvalidArgumentError(
        absl::StrCat("Device type ", specs.device_type, " is not CPU, GPU or TPU"));
  }
  std::vector<std::string> devices =
      MergedNames(specs.specs, JobName(process.num_processes), process.process_id);
  const int64_t n_local = static_cast<int64_t>(devices.size());
  const int64_t clients = process.num_processes;
  const std::vector<int64_t> shape = Sizes(options.dims);
  int64_t n_global = 0;
  if (__builtin_mul_overflow(n_local, clients, &n_global) || !ProductIs(shape, n_global)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Global number of devices (", n_local, " per client * ", clients, " clients = ",
        n_global, ") must be equal to total size of the mesh of shape ", ShapeToString(shape)));
  }
  TESSERA_RETURN_IF_ERROR(CheckXlaSpmd(options.use_xla_spmd, type));
  DTensorMesh::Fields fields;
  fields.name = options.name;
  fields.dims = options.dims;
  fields.global_ids = Iota(0, n_global);
  fields.local_ids = Iota(n_local * process.process_id, n_local);
  fields.local_devices = std::move(devices);
  fields.use_xla_spmd = options.use_xla_spmd;
  return DTensorMesh::Create(std::move(fields));
}

absl::StatusOr<DTensorMesh> DTensorCreateLegacyDistributedMesh(
    const DTensorLegacyDistributedMeshOptions& options) {
  TESSERA_RETURN_IF_ERROR(CheckDims(options.dims));
  const std::string type = absl::AsciiStrToUpper(options.device_type);
  if (type == "TPU") {
    const std::pair<const char*, bool> given[] = {
        {"num_global_devices", options.num_global_devices.has_value()},
        {"num_clients", options.num_clients.has_value()},
        {"client_id", options.client_id.has_value()}};
    for (const auto& [arg, set] : given) {
      if (set) {
        return absl::InvalidArgumentError(absl::StrCat("Do not specify ", arg, kDTensorTpuArgs));
      }
    }
    return absl::UnimplementedError(
        "TPU meshes need the TPU topology (DTensor's create_tpu_mesh); Tessera does not build "
        "them");
  }
  if (type != "CPU" && type != "GPU") {
    return absl::InvalidArgumentError(
        absl::StrCat("Device type ", options.device_type, " is not CPU, GPU or TPU"));
  }
  const ProcessInfo process = RuntimeProcessInfo();
  const std::vector<int64_t> shape = Sizes(options.dims);
  int64_t n = 0;
  if (options.num_global_devices.has_value()) {
    n = *options.num_global_devices;
  } else {
    TESSERA_ASSIGN_OR_RETURN(int64_t local, NumLocalDevices(type));
    n = local * process.num_processes;
  }
  if (n <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("num_global_devices (", n, ") must be > 0"));
  }
  if (!ProductIs(shape, n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_global_devices (", n,
                     ") must be equal to total size of the mesh of shape ", ShapeToString(shape)));
  }
  const int64_t clients = options.num_clients.value_or(process.num_processes);
  if (clients <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("num_clients (", clients, ") must be > 0"));
  }
  if (clients > 1 && process.num_processes <= 1) {
    return absl::FailedPreconditionError(
        "Invalid multi-client topology, run dtensor.initialize_multi_client() first");
  }
  const int64_t client_id = options.client_id.value_or(process.process_id);
  if (client_id < 0) {
    return absl::InvalidArgumentError(absl::StrCat("client_id (", client_id, ") must be >= 0"));
  }
  if (client_id >= clients) {
    return absl::InvalidArgumentError(
        absl::StrCat("client_id (", client_id, ") must be < ", clients));
  }
  if (n % clients != 0) {
    return absl::InvalidArgumentError(absl::StrCat("num_global_devices (", n,
                                                   ") must be divisible by num_clients (",
                                                   clients, ")"));
  }
  const int64_t n_local = n / clients;
  TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> available,
                           DTensorLocalDevices(type, client_id));
  if (n_local > static_cast<int64_t>(available.size())) {
    return absl::InvalidArgumentError(absl::StrCat("Not enough devices; ", n_local,
                                                   " needed, only ", available.size(),
                                                   " available"));
  }
  available.resize(static_cast<size_t>(n_local));
  DTensorMesh::Fields fields;
  fields.name = options.name;
  fields.dims = options.dims;
  fields.global_ids = Iota(0, n);
  fields.local_ids = Iota(n_local * client_id, n_local);
  fields.local_devices = std::move(available);
  return DTensorMesh::Create(std::move(fields));
}

// -------------------------------------------------------------- PyTorch

absl::StatusOr<MeshPtr> SliceMesh(const DeviceMesh& mesh,
                                  absl::Span<const std::string> axis_names, int64_t device_id) {
  if (axis_names.empty()) {
    return absl::InvalidArgumentError(
        "Argument 'axis_names' must name at least one mesh dimension, got ()");
  }
  const std::string names_repr = PyStrTupleRepr(axis_names);
  std::vector<size_t> axes;
  for (const std::string& name : axis_names) {
    if (!mesh.HasAxis(name)) {
      return absl::NotFoundError(absl::StrCat("Invalid mesh_dim_names ", names_repr,
                                              " specified. Valid mesh_dim_names are ",
                                              PyStrTupleRepr(mesh.axis_names()), "."));
    }
    const size_t axis = *mesh.AxisIndex(name);
    if (!axes.empty() && axis <= axes.back()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Invalid mesh_dim_names ", names_repr,
          " specified. Mesh dim indices should be in ascending order."));
    }
    axes.push_back(axis);
  }
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> coords, mesh.CoordinatesOf(device_id));
  std::vector<int64_t> shape;
  std::vector<std::string> names;
  for (size_t axis : axes) {
    shape.push_back(mesh.shape()[axis]);
    names.push_back(mesh.axis_names()[axis]);
  }
  // Walk the sliced axes row-major with the others fixed at the device's
  // coordinates.
  const int64_t count = *Product(shape);
  std::vector<Device> devices;
  devices.reserve(static_cast<size_t>(count));
  for (size_t axis : axes) coords[axis] = 0;
  for (int64_t i = 0; i < count; ++i) {
    TESSERA_ASSIGN_OR_RETURN(Device device, mesh.DeviceAt(coords));
    devices.push_back(device);
    for (size_t k = axes.size(); k-- > 0;) {
      if (++coords[axes[k]] < mesh.shape()[axes[k]]) break;
      coords[axes[k]] = 0;
    }
  }
  return DeviceMesh::Create(std::move(shape), std::move(names), std::move(devices));
}

absl::StatusOr<MeshPtr> FlattenMesh(const DeviceMesh& mesh, absl::string_view name) {
  const std::string flat_name =
      name.empty() ? absl::StrJoin(mesh.axis_names(), "_") : std::string(name);
  if (mesh.rank() > 1 && mesh.HasAxis(flat_name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Flattened mesh dim name ", PyStrRepr(flat_name),
        " already exists in the mesh's mesh_dim_names ", PyStrTupleRepr(mesh.axis_names())));
  }
  return DeviceMesh::Create({mesh.size()}, {flat_name}, mesh.devices());
}

absl::StatusOr<int64_t> LocalRankOf(const DeviceMesh& mesh, absl::string_view axis_name,
                                    int64_t device_id) {
  TESSERA_ASSIGN_OR_RETURN(size_t axis, mesh.AxisIndex(axis_name));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> coords, mesh.CoordinatesOf(device_id));
  return coords[axis];
}

absl::StatusOr<std::vector<std::vector<int64_t>>> AxisGroups(const DeviceMesh& mesh,
                                                             absl::string_view axis_name) {
  TESSERA_ASSIGN_OR_RETURN(size_t axis, mesh.AxisIndex(axis_name));
  // mesh.swapdims(-1, axis): position k of the swapped array reads axis
  // perm[k] of the mesh.
  const size_t rank = mesh.rank();
  std::vector<size_t> perm(rank);
  for (size_t k = 0; k < rank; ++k) perm[k] = k;
  std::swap(perm[axis], perm[rank - 1]);
  const std::vector<int64_t> strides = Strides(mesh.shape());
  const int64_t group_size = mesh.shape()[axis];
  std::vector<std::vector<int64_t>> groups;
  std::vector<int64_t> t(rank, 0);  // index into the swapped array
  for (int64_t i = 0; i < mesh.size(); ++i) {
    int64_t flat = 0;
    for (size_t k = 0; k < rank; ++k) flat += t[k] * strides[perm[k]];
    if (i % group_size == 0) groups.emplace_back();
    groups.back().push_back(mesh.devices()[flat].id);
    for (size_t k = rank; k-- > 0;) {
      if (++t[k] < mesh.shape()[perm[k]]) break;
      t[k] = 0;
    }
  }
  return groups;
}

}  // namespace tessera
