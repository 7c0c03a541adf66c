// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// TF DTensor's mesh construction: create_mesh, create_distributed_mesh (its
// current and legacy forms) and config.local_devices.
#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/device_discovery.h"
#include "core/distribution.h"
#include "core/mesh_construction.h"
#include "core/mesh_construction/grid.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {

using mesh_construction::ProductIs;

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

// Who this client is: the config's answers (in the order DTensor asks
// them), or without a config the runtime's.
struct Client {
  std::string job;
  int64_t client_id = 0;
  int64_t num_clients = 1;
};

absl::StatusOr<Client> CurrentClient(const std::optional<DTensorConfig>& config) {
  if (!config.has_value()) {
    const ProcessInfo process = RuntimeProcessInfo();
    return Client{JobName(process.num_processes), process.process_id, process.num_processes};
  }
  Client out;
  TESSERA_ASSIGN_OR_RETURN(out.job, config->JobName());
  TESSERA_ASSIGN_OR_RETURN(out.client_id, config->ClientId());
  TESSERA_ASSIGN_OR_RETURN(out.num_clients, config->NumClients());
  return out;
}

// config.local_devices(device_type): the config's, else the runtime's.
absl::StatusOr<std::vector<std::string>> DefaultLocalDevices(
    const std::optional<DTensorConfig>& config, absl::string_view device_type,
    int64_t runtime_client_id) {
  if (config.has_value()) return config->LocalDevices(device_type);
  return DTensorLocalDevices(device_type, runtime_client_id);
}

absl::StatusOr<DeviceSpecs> MakeDeviceSpecs(const std::optional<std::vector<std::string>>& devices,
                                            absl::string_view device_type, int64_t client_id,
                                            const std::optional<DTensorConfig>& config) {
  DeviceSpecs out;
  out.device_type = std::string(device_type);
  if (!devices.has_value()) {
    if (out.device_type.empty()) out.device_type = "CPU";
    TESSERA_ASSIGN_OR_RETURN(std::vector<std::string> names,
                             DefaultLocalDevices(config, out.device_type, client_id));
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

// DTensor's single-slice tile mesh: global ids 0..num_global-1, this
// client's `devices` holding the ids from `first_local` on.
absl::StatusOr<DTensorMesh> TileMesh(std::string name, std::vector<DTensorMeshDim> dims,
                                     int64_t num_global, int64_t first_local,
                                     std::vector<std::string> devices, bool use_xla_spmd) {
  DTensorMesh::Fields fields;
  fields.name = std::move(name);
  fields.dims = std::move(dims);
  fields.global_ids = Iota(0, num_global);
  fields.local_ids = Iota(first_local, static_cast<int64_t>(devices.size()));
  fields.local_devices = std::move(devices);
  fields.use_xla_spmd = use_xla_spmd;
  return DTensorMesh::Create(std::move(fields));
}

// The distributed meshes Tessera builds: CPU or GPU (any case).
absl::Status RequireCpuOrGpu(absl::string_view device_type) {
  const std::string type = absl::AsciiStrToUpper(device_type);
  if (type == "TPU") {
    return absl::UnimplementedError(
        "TPU meshes need the TPU topology (DTensor's create_tpu_mesh); Tessera does not build "
        "them");
  }
  if (type != "CPU" && type != "GPU") {
    return absl::InvalidArgumentError(
        absl::StrCat("Device type ", device_type, " is not CPU, GPU or TPU"));
  }
  return absl::OkStatus();
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

}  // namespace

absl::StatusOr<std::vector<std::string>> DTensorLocalDevices(absl::string_view device_type,
                                                             std::optional<int64_t> client_id) {
  const std::string upper = absl::AsciiStrToUpper(device_type);
  if (!IsDTensorType(upper)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Device type ", device_type, " is not CPU, GPU, or TPU."));
  }
  const ProcessInfo process = RuntimeProcessInfo();
  // This process's devices: a config with no variables and no counts.
  const DTensorConfig local({}, {}, /*accelerators_initialized=*/true);
  TESSERA_ASSIGN_OR_RETURN(const int64_t count, local.NumLocalDevices(upper));
  return DTensorDeviceNames(upper, JobName(process.num_processes),
                            client_id.value_or(process.process_id), count);
}

absl::StatusOr<DTensorMesh> DTensorCreateMesh(const DTensorCreateMeshOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(DeviceSpecs specs, MakeDeviceSpecs(options.devices, options.device_type,
                                                              0, options.config));
  std::string job = JobName(RuntimeProcessInfo().num_processes);
  if (options.config.has_value()) {
    TESSERA_ASSIGN_OR_RETURN(job, options.config->JobName());
  }
  std::vector<std::string> devices = MergedNames(specs.specs, job, 0);
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
  return TileMesh(options.name, std::move(dims), n, 0, std::move(devices), options.use_xla_spmd);
}

absl::StatusOr<DTensorMesh> DTensorCreateDistributedMesh(
    const DTensorDistributedMeshOptions& options) {
  TESSERA_RETURN_IF_ERROR(CheckDims(options.dims));
  if (options.config.has_value() && !options.config->accelerators_initialized()) {
    return absl::FailedPreconditionError(
        "Accelerators are uninitialized, please run dtensor.initialize_accelerator_system() "
        "first.");
  }
  if (absl::AsciiStrToUpper(options.device_type) == "TPU" && options.local_devices.has_value()) {
    return absl::InvalidArgumentError(
        "Do not specify devices for TPU meshes. Using a partial list of devices for TPU is not "
        "supported.");
  }
  const ProcessInfo process = RuntimeProcessInfo();
  TESSERA_ASSIGN_OR_RETURN(DeviceSpecs specs,
                           MakeDeviceSpecs(options.local_devices, options.device_type,
                                           process.process_id, options.config));
  const std::string type = absl::AsciiStrToUpper(specs.device_type);
  TESSERA_RETURN_IF_ERROR(RequireCpuOrGpu(specs.device_type));
  TESSERA_ASSIGN_OR_RETURN(const Client client, CurrentClient(options.config));
  std::vector<std::string> devices = MergedNames(specs.specs, client.job, client.client_id);
  const int64_t n_local = static_cast<int64_t>(devices.size());
  const int64_t clients = client.num_clients;
  const std::vector<int64_t> shape = Sizes(options.dims);
  int64_t n_global = 0;
  if (__builtin_mul_overflow(n_local, clients, &n_global) || !ProductIs(shape, n_global)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Global number of devices (", n_local, " per client * ", clients, " clients = ",
        n_global, ") must be equal to total size of the mesh of shape ", ShapeToString(shape)));
  }
  TESSERA_RETURN_IF_ERROR(CheckXlaSpmd(options.use_xla_spmd, type));
  return TileMesh(options.name, options.dims, n_global, n_local * client.client_id,
                  std::move(devices), options.use_xla_spmd);
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
  }
  TESSERA_RETURN_IF_ERROR(RequireCpuOrGpu(options.device_type));
  const ProcessInfo process = RuntimeProcessInfo();
  // api.py's job without a config: the runtime's, initialised when multi-process.
  const DTensorConfig job = options.config.value_or(DTensorConfig(
      {{DTensorConfig::kNumClients, absl::StrCat(process.num_processes)},
       {DTensorConfig::kClientId, absl::StrCat(process.process_id)},
       {DTensorConfig::kJobName, JobName(process.num_processes)}},
      {}, /*accelerators_initialized=*/process.num_processes > 1));
  const std::vector<int64_t> shape = Sizes(options.dims);
  int64_t n = 0;
  if (options.num_global_devices.has_value()) {
    n = *options.num_global_devices;
  } else {
    TESSERA_ASSIGN_OR_RETURN(const int64_t local, job.NumLocalDevices(type));
    TESSERA_ASSIGN_OR_RETURN(const int64_t clients, job.LegacyNumClients());
    n = local * clients;
  }
  if (n <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("num_global_devices (", n, ") must be > 0"));
  }
  if (!ProductIs(shape, n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_global_devices (", n,
                     ") must be equal to total size of the mesh of shape ", ShapeToString(shape)));
  }
  int64_t clients = 0;
  if (options.num_clients.has_value()) {
    clients = *options.num_clients;
  } else {
    TESSERA_ASSIGN_OR_RETURN(clients, job.LegacyNumClients());
  }
  if (clients <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("num_clients (", clients, ") must be > 0"));
  }
  if (clients > 1 && !job.accelerators_initialized()) {
    return absl::FailedPreconditionError(
        "Invalid multi-client topology, run dtensor.initialize_multi_client() first");
  }
  int64_t client_id = 0;
  if (options.client_id.has_value()) {
    client_id = *options.client_id;
  } else {
    TESSERA_ASSIGN_OR_RETURN(client_id, job.LegacyClientId());
  }
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
                           job.LegacyLocalDevices(type, client_id));
  if (n_local > static_cast<int64_t>(available.size())) {
    return absl::InvalidArgumentError(absl::StrCat("Not enough devices; ", n_local,
                                                   " needed, only ", available.size(),
                                                   " available"));
  }
  available.resize(static_cast<size_t>(n_local));
  return TileMesh(options.name, options.dims, n, n_local * client_id, std::move(available),
                  /*use_xla_spmd=*/false);
}

}  // namespace tessera
