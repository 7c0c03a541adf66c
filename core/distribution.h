// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Distributions: data- and model-parallel policies (Keras's DataParallel and
// ModelParallel). They answer which layout an input, a variable or an
// intermediate tensor gets, and which part of the dataset this process reads.
//
// A distribution is immutable: it snapshots its layout map and reads the
// process count and id once at construction, as Keras does (tests may
// override them through DistributionOptions::process, Keras's "forced P/pid").
#ifndef TESSERA_CORE_DISTRIBUTION_H_
#define TESSERA_CORE_DISTRIBUTION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/dataset_plan.h"
#include "core/device.h"
#include "core/layout.h"
#include "core/layout_map.h"
#include "core/mesh.h"

namespace tessera {

// Keras's DEFAULT_BATCH_DIM_NAME.
inline constexpr absl::string_view kDefaultBatchDimName = "batch";

struct ProcessInfo {
  int64_t num_processes = 1;
  int64_t process_id = 0;
};

struct DistributionOptions {
  bool auto_shard_dataset = true;
  // How variable layouts are checked against variable shapes.
  ShapeCheck shape_check = ShapeCheck::kStrict;
  DatasetMode dataset_mode = DatasetMode::kCurrent;
  // Overrides the process count and id read from the runtime.
  std::optional<ProcessInfo> process;
};

// Numbers match tessera_distribution_kind_t in the C ABI.
enum class DistributionKind { kDataParallel = 0, kModelParallel = 1 };

class Distribution {
 public:
  // DataParallel over `mesh`, batch axis = its first axis. A mesh of rank > 1
  // logs a warning and still uses the first axis (Keras meant to warn; its
  // call raises a TypeError instead).
  static absl::StatusOr<std::shared_ptr<const Distribution>> DataParallel(
      MeshPtr mesh, const DistributionOptions& options = {});
  // DataParallel over a 1-D mesh "batch" of `devices`; an empty list means
  // every device (Keras: an empty list is falsy).
  static absl::StatusOr<std::shared_ptr<const Distribution>>
  DataParallelOverDevices(std::vector<Device> devices,
                          const DistributionOptions& options = {});
  // DataParallel over ListDevices() (listed exactly once).
  static absl::StatusOr<std::shared_ptr<const Distribution>>
  DataParallelOverAllDevices(const DistributionOptions& options = {});

  // ModelParallel over the layout map's mesh. `batch_dim_name` empty means
  // the mesh's first axis. Errors: a map without a mesh (FAILED_PRECONDITION),
  // an unknown batch axis (INVALID_ARGUMENT; Keras fails later, lazily), and
  // with P > R, P not divisible by R (FAILED_PRECONDITION, Keras 3.15's check;
  // skipped in the Keras 3.0 dataset mode, as Keras 3.0-3.14 had none).
  static absl::StatusOr<std::shared_ptr<const Distribution>> ModelParallel(
      const LayoutMap& layout_map, absl::string_view batch_dim_name = "",
      const DistributionOptions& options = {});

  DistributionKind kind() const { return kind_; }
  const MeshPtr& mesh() const { return mesh_; }
  const std::string& batch_dim_name() const { return batch_dim_name_; }
  // The snapshot of the layout map (ModelParallel), or nullptr.
  const LayoutMapPtr& layout_map() const { return layout_map_; }
  const DistributionOptions& options() const { return options_; }
  int64_t num_processes() const { return process_.num_processes; }
  int64_t process_id() const { return process_.process_id; }

  // R: DataParallel counts every device of the mesh; ModelParallel the size
  // of the batch axis.
  int64_t num_model_replicas() const { return num_model_replicas_; }
  // S = min(R, P).
  int64_t num_data_shards() const;
  // pid if R >= P, else pid / (P / R): contiguous replica groups.
  int64_t data_shard_id() const;

  // Layout of an input batch: first dimension on the batch axis, the rest
  // replicated. INVALID_ARGUMENT for rank 0 or a negative dimension.
  absl::StatusOr<TensorLayout> DataLayout(absl::Span<const int64_t> shape) const;

  // Layout of a variable: `explicit_layout` if given (Keras 3.10+), else the
  // layout map's rule for `path` (ModelParallel), else replicated; then checked
  // against `shape` with options().shape_check.
  absl::StatusOr<LayoutPtr> VariableLayout(
      absl::string_view path, absl::Span<const int64_t> shape,
      const LayoutPtr& explicit_layout = nullptr) const;

  // Layout for an intermediate tensor at `path`: the layout map's rule
  // (ModelParallel), else nullptr.
  absl::StatusOr<LayoutPtr> TensorLayoutForPath(absl::string_view path) const;

  // How this process reads a dataset with `global_batch_size` rows per step
  // (< 0: unknown).
  absl::StatusOr<DatasetPlan> PlanDataset(int64_t global_batch_size) const;
  // As PlanDataset, for the process `process_id` of the same job (the plan
  // any other process of the job computes). INVALID_ARGUMENT outside [0, P).
  absl::StatusOr<DatasetPlan> PlanDatasetForProcess(int64_t global_batch_size,
                                                    int64_t process_id) const;

  // The interleave split of arrays and PyDatasets (interleave.h): S and
  // data_shard_id when auto-sharding in the current dataset mode, else 1
  // and 0 (as the dataset plan's interleave fields).
  int64_t interleave_num_shards() const;
  int64_t interleave_shard_index() const;

  // Whether input batches are split along the batch axis: the batch axis
  // spans more than one device (R > 1). DataParallel over one device, or a
  // ModelParallel whose batch axis has extent 1, replicates every batch.
  bool batch_parallel() const { return num_model_replicas_ > 1; }

  // Keras's repr: <DataParallel device_mesh=<DeviceMesh ...>>.
  std::string ToString() const;

 private:
  Distribution() = default;
  static absl::StatusOr<ProcessInfo> ResolveProcess(const DistributionOptions& options);
  bool interleaves() const;

  DistributionKind kind_ = DistributionKind::kDataParallel;
  MeshPtr mesh_;
  std::string batch_dim_name_;
  LayoutMapPtr layout_map_;
  DistributionOptions options_;
  ProcessInfo process_;
  int64_t num_model_replicas_ = 1;
};

using DistributionPtr = std::shared_ptr<const Distribution>;

// The distribution in effect on this thread: the innermost scope pushed on
// this thread, else the process-wide default (nullptr if none).
DistributionPtr CurrentDistribution();

// Sets (nullptr: clears) the process-wide default. Thread-safe.
void SetDefaultDistribution(DistributionPtr distribution);

// Per-thread scope stack, as Keras's `with distribution.scope():`.
void PushDistributionScope(DistributionPtr distribution);
// FAILED_PRECONDITION when this thread has no scope open.
absl::Status PopDistributionScope();

// RAII scope: pops on destruction, also during unwinding.
class DistributionScope {
 public:
  explicit DistributionScope(DistributionPtr distribution) {
    PushDistributionScope(std::move(distribution));
  }
  ~DistributionScope() { (void)PopDistributionScope(); }
  DistributionScope(const DistributionScope&) = delete;
  DistributionScope& operator=(const DistributionScope&) = delete;
};

// The process count and id the runtime reports (1 and 0 until multi-host
// initialize() installs others). Thread-safe.
ProcessInfo RuntimeProcessInfo();
void SetRuntimeProcessInfo(ProcessInfo info);

}  // namespace tessera

#endif  // TESSERA_CORE_DISTRIBUTION_H_
