// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/distribution.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/log.h"
#include "core/py_repr.h"
#include "core/shape.h"
#include "core/status_macros.h"

namespace tessera {
namespace {

struct RuntimeState {
  absl::Mutex mu;
  ProcessInfo info;
};

RuntimeState& Runtime() {
  static RuntimeState* state = new RuntimeState();
  return *state;
}

absl::Status CheckProcessInfo(const ProcessInfo& info) {
  if (info.num_processes < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'num_processes' is ", info.num_processes, "; expected at least 1"));
  }
  if (info.process_id < 0 || info.process_id >= info.num_processes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'process_id' is ", info.process_id, "; expected 0 to ",
        info.num_processes - 1));
  }
  return absl::OkStatus();
}

// Prefixes an error with the variable it concerns, keeping its code.
absl::Status ForVariable(absl::string_view path, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat("Variable ", PyStrRepr(path), ": ", status.message()));
}

}  // namespace

ProcessInfo RuntimeProcessInfo() {
  RuntimeState& state = Runtime();
  absl::MutexLock lock(&state.mu);
  return state.info;
}

void SetRuntimeProcessInfo(ProcessInfo info) {
  RuntimeState& state = Runtime();
  absl::MutexLock lock(&state.mu);
  state.info = info;
}

absl::StatusOr<ProcessInfo> Distribution::ResolveProcess(const DistributionOptions& options) {
  const ProcessInfo info = options.process.value_or(RuntimeProcessInfo());
  TESSERA_RETURN_IF_ERROR(CheckProcessInfo(info));
  return info;
}

absl::StatusOr<std::shared_ptr<const Distribution>> Distribution::DataParallel(
    MeshPtr mesh, const DistributionOptions& options) {
  if (mesh == nullptr) {
    return absl::InvalidArgumentError("Argument 'mesh' is NULL; expected a device mesh");
  }
  TESSERA_ASSIGN_OR_RETURN(const ProcessInfo process, ResolveProcess(options));
  if (mesh->rank() != 1) {
    Log(LogLevel::kWarning,
        absl::StrCat("Expect the input mesh to be 1D, but received mesh.devices.ndim=",
                     mesh->rank(), ". The first axis will be used for data-parallel sharding."));
  }
  std::shared_ptr<Distribution> d(new Distribution());
  d->kind_ = DistributionKind::kDataParallel;
  d->batch_dim_name_ = mesh->axis_names().front();
  d->num_model_replicas_ = mesh->size();  // every device, as Keras counts
  d->mesh_ = std::move(mesh);
  d->options_ = options;
  d->process_ = process;
  return std::shared_ptr<const Distribution>(std::move(d));
}

absl::StatusOr<std::shared_ptr<const Distribution>> Distribution::DataParallelOverDevices(
    std::vector<Device> devices, const DistributionOptions& options) {
  // Keras: an empty device list is falsy and falls back to every device.
  if (devices.empty()) return DataParallelOverAllDevices(options);
  const int64_t n = static_cast<int64_t>(devices.size());
  TESSERA_ASSIGN_OR_RETURN(
      MeshPtr mesh,
      DeviceMesh::Create({n}, {std::string(kDefaultBatchDimName)}, std::move(devices)));
  return DataParallel(std::move(mesh), options);
}

absl::StatusOr<std::shared_ptr<const Distribution>> Distribution::DataParallelOverAllDevices(
    const DistributionOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<Device> devices, ListDevices());
  if (devices.empty()) {
    return absl::FailedPreconditionError("No devices are available for DataParallel");
  }
  return DataParallelOverDevices(std::move(devices), options);
}

absl::StatusOr<std::shared_ptr<const Distribution>> Distribution::ModelParallel(
    const LayoutMap& layout_map, absl::string_view batch_dim_name,
    const DistributionOptions& options) {
  const MeshPtr& mesh = layout_map.mesh();
  if (mesh == nullptr) {
    return absl::FailedPreconditionError(
        "Argument 'layout_map' has no device mesh; ModelParallel takes its mesh from the "
        "layout map (create it with a mesh)");
  }
  const std::string batch =
      batch_dim_name.empty() ? mesh->axis_names().front() : std::string(batch_dim_name);
  auto replicas = mesh->AxisSize(batch);
  if (!replicas.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'batch_dim_name' ", PyStrRepr(batch), " is not an axis of the mesh; expected one of ",
        PyStrListRepr(mesh->axis_names())));
  }
  TESSERA_ASSIGN_OR_RETURN(const ProcessInfo process, ResolveProcess(options));
  const int64_t p = process.num_processes;
  if (options.dataset_mode != DatasetMode::kKeras30 && p > 1 && p > *replicas &&
      p % *replicas != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "If `num_processes` is greater than `num_model_replicas`, `num_processes` must be "
        "divisible by `num_model_replicas`. Got num_processes=", p,
        ", num_model_replicas=", *replicas, "."));
  }
  std::shared_ptr<Distribution> d(new Distribution());
  d->kind_ = DistributionKind::kModelParallel;
  d->mesh_ = mesh;
  d->batch_dim_name_ = batch;
  d->layout_map_ = std::make_shared<const LayoutMap>(layout_map);
  d->options_ = options;
  d->process_ = process;
  d->num_model_replicas_ = *replicas;
  return std::shared_ptr<const Distribution>(std::move(d));
}

int64_t Distribution::num_data_shards() const {
  return NumDataShards(num_model_replicas_, process_.num_processes);
}

int64_t Distribution::data_shard_id() const {
  return DataShardId(num_model_replicas_, process_.num_processes, process_.process_id);
}

absl::StatusOr<TensorLayout> Distribution::DataLayout(absl::Span<const int64_t> shape) const {
  if (shape.empty()) {
    return absl::InvalidArgumentError(
        "Argument 'shape' () has rank 0; expected a batch dimension first");
  }
  TESSERA_RETURN_IF_ERROR(CheckTensorShape(shape, "shape"));
  std::vector<AxisGroup> axes(shape.size());
  axes[0] = {batch_dim_name_};
  return TensorLayout::Create(std::move(axes), mesh_);
}

absl::StatusOr<LayoutPtr> Distribution::VariableLayout(absl::string_view path,
                                                       absl::Span<const int64_t> shape,
                                                       const LayoutPtr& explicit_layout) const {
  if (absl::Status s = CheckTensorShape(shape, "shape"); !s.ok()) return ForVariable(path, s);
  LayoutPtr layout = explicit_layout;
  if (layout == nullptr && layout_map_ != nullptr) {
    auto found = layout_map_->Get(path);
    if (!found.ok()) return found.status();
    layout = *std::move(found);
  }
  if (layout == nullptr) {
    auto replicated = TensorLayout::Replicated(shape.size(), mesh_);
    if (!replicated.ok()) return ForVariable(path, replicated.status());
    layout = std::make_shared<const TensorLayout>(*std::move(replicated));
  }
  if (absl::Status s = layout->CheckShape(shape, options_.shape_check); !s.ok()) {
    return ForVariable(path, s);
  }
  return layout;
}

absl::StatusOr<LayoutPtr> Distribution::TensorLayoutForPath(absl::string_view path) const {
  if (layout_map_ == nullptr) return LayoutPtr();
  return layout_map_->Get(path);
}

absl::StatusOr<DatasetPlan> Distribution::PlanDataset(int64_t global_batch_size) const {
  return PlanDatasetForProcess(global_batch_size, process_.process_id);
}

absl::StatusOr<DatasetPlan> Distribution::PlanDatasetForProcess(int64_t global_batch_size,
                                                                int64_t process_id) const {
  if (process_id < 0 || process_id >= process_.num_processes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'process_index' is ", process_id, "; expected 0 to ",
        process_.num_processes - 1, " (the distribution's num_processes is ",
        process_.num_processes, ")"));
  }
  DatasetJob job;
  job.model_parallel = kind_ == DistributionKind::kModelParallel;
  job.auto_shard = options_.auto_shard_dataset;
  job.num_processes = process_.num_processes;
  job.process_id = process_id;
  job.num_model_replicas = num_model_replicas_;
  job.mesh_batch_size = mesh_->AxisSize(batch_dim_name_).value_or(1);
  job.mesh_size = mesh_->size();
  return tessera::PlanDataset(job, global_batch_size, options_.dataset_mode);
}

// Keras 3.0 sharded only tf.data: arrays and PyDatasets were read whole.
bool Distribution::interleaves() const {
  return options_.auto_shard_dataset && options_.dataset_mode == DatasetMode::kCurrent;
}

int64_t Distribution::interleave_num_shards() const { return interleaves() ? num_data_shards() : 1; }

int64_t Distribution::interleave_shard_index() const { return interleaves() ? data_shard_id() : 0; }

std::string Distribution::ToString() const {
  const char* name = kind_ == DistributionKind::kDataParallel ? "DataParallel" : "ModelParallel";
  return absl::StrCat("<", name, " device_mesh=", mesh_->ToString(), ">");
}

}  // namespace tessera
