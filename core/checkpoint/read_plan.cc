// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/read_plan.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "core/checkpoint/box_runs.h"
#include "core/layout.h"
#include "core/status_macros.h"

namespace tessera::checkpoint {
namespace {

std::string ShapeText(const std::vector<int64_t>& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ", "), "]");
}

// The bytes a tensor occupies must be those of its shape and type.
absl::Status CheckSize(const Tensor& tensor) {
  const ElementType& type = tensor.type;
  if (type.block_elements < 1 || type.block_bytes < 1) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor '", tensor.name, "' has element type ", type.name,
                                                   " with blocks of ", type.block_elements, " elements in ",
                                                   type.block_bytes, " bytes; expected both at least 1"));
  }
  const size_t rank = tensor.shape.size();
  uint64_t expected = static_cast<uint64_t>(type.block_bytes);
  if (rank > 0) {
    TESSERA_RETURN_IF_ERROR(CheckInnermostBlocks(tensor.name, type, tensor.shape));
    const int64_t inner = tensor.shape[rank - 1];
    expected = static_cast<uint64_t>(inner / type.block_elements) * static_cast<uint64_t>(type.block_bytes);
    for (size_t d = rank - 1; d-- > 0;) expected *= static_cast<uint64_t>(tensor.shape[d]);
  }
  if (expected != tensor.size) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor '", tensor.name, "' occupies ", tensor.size,
                                                   " bytes; expected ", expected, " for shape ",
                                                   ShapeText(tensor.shape), " of ", type.name));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckInnermostBlocks(absl::string_view name, const ElementType& type,
                                  const std::vector<int64_t>& shape) {
  if (shape.empty() || shape.back() % type.block_elements == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Tensor '", name, "' has innermost dimension ", shape.back(), " (shape ", ShapeText(shape),
      "); expected a multiple of ", type.block_elements, ", the elements per block of ", type.name));
}

absl::Status CheckWholeBlocks(absl::string_view name, const ElementType& type, const Sharding& sharding) {
  if (type.block_elements == 1) return absl::OkStatus();
  const std::vector<int64_t>& shape = sharding.shape();
  if (shape.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor '", name, "' of type ", type.name,
                                                   " has rank 0; expected at least one dimension (", type.name,
                                                   " packs ", type.block_elements, " elements in a block)"));
  }
  TESSERA_RETURN_IF_ERROR(CheckInnermostBlocks(name, type, shape));
  for (const DistinctShard& shard : sharding.DistinctShards()) {
    TESSERA_RETURN_IF_ERROR(CheckBlockBoundary(name, type, shape, shard.ranges.back(), shard.devices.front()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> ProcessDevices(int64_t num_devices, const ReadPlanOptions& options) {
  if (options.num_processes < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument 'num_processes' is ", options.num_processes, "; expected at least 1"));
  }
  if (options.process_index < 0 || options.process_index >= options.num_processes) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'process_index' is ", options.process_index,
                                                   "; expected less than ", options.num_processes,
                                                   " (the number of processes)"));
  }
  if (num_devices % options.num_processes != 0) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'num_processes' is ", options.num_processes,
                                                   "; expected a divisor of the mesh's ", num_devices,
                                                   " devices (each process owns an equal block)"));
  }
  const int64_t per = num_devices / options.num_processes;
  std::vector<int64_t> devices;
  devices.reserve(per);
  for (int64_t i = 0; i < per; ++i) devices.push_back(options.process_index * per + i);
  return devices;
}

absl::StatusOr<Sharding> ShardingOf(absl::string_view name, const std::vector<int64_t>& shape,
                                    const LayoutMap& layouts, ShardMode mode) {
  const MeshPtr& mesh = layouts.mesh();
  auto named = [&](const absl::Status& status) {
    return absl::Status(status.code(), absl::StrCat("Tensor '", name, "': ", status.message()));
  };
  absl::StatusOr<int64_t> rule = layouts.Find(name);
  if (!rule.ok()) return named(rule.status());
  if (*rule < 0) {
    TESSERA_ASSIGN_OR_RETURN(TensorLayout replicated, TensorLayout::Replicated(shape.size(), mesh));
    return Sharding::Create(replicated, shape, mode);
  }
  {
    const LayoutPtr& chosen = layouts.layout(static_cast<size_t>(*rule));
    const std::string& key = layouts.key(static_cast<size_t>(*rule));
    if (chosen->mesh() == nullptr || !(*chosen->mesh() == *mesh)) {
      return absl::InvalidArgumentError(absl::StrCat("Tensor '", name, "': the layout of rule '", key,
                                                     "' is on another mesh; expected the map's mesh"));
    }
    if (chosen->rank() != shape.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tensor '", name, "' has rank ", shape.size(), " (shape ", ShapeText(shape),
          ") but the layout of rule '", key, "' has rank ", chosen->rank(), "; expected the same rank"));
    }
    absl::StatusOr<Sharding> sharding = Sharding::Create(*chosen, shape, mode);
    if (!sharding.ok()) return named(sharding.status());
    return sharding;
  }
}

absl::Status CheckBlockBoundary(absl::string_view name, const ElementType& type, const std::vector<int64_t>& shape,
                                const IndexRange& inner, int64_t device) {
  const int64_t block = type.block_elements;
  if (block == 1 || (inner.start % block == 0 && inner.stop % block == 0)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Tensor '", name, "' of type ", type.name, ": the shard of device ", device, " covers [", inner.start, ", ",
      inner.stop, ") of dimension ", shape.size() - 1, " (size ", shape.back(),
      "); expected a start and stop on a multiple of ", block, ", the elements per block"));
}

absl::Status AddTensorPieces(size_t tensor, size_t num_tensors, absl::string_view name, const ElementType& type,
                             const Sharding& sharding, ReadPlan* plan, const NewDistinctFn& new_distinct) {
  const size_t rank = sharding.rank();
  std::vector<IndexRange> box(rank);
  // Replicas among the process's devices hold equal boxes: one distinct
  // piece each, found by the box's bounds.
  absl::flat_hash_map<std::vector<int64_t>, size_t> distinct_of_box;
  for (size_t l = 0; l < plan->devices.size(); ++l) {
    const int64_t device = plan->devices[l];
    TESSERA_RETURN_IF_ERROR(sharding.DeviceRanges(device, absl::MakeSpan(box)));
    if (rank > 0) TESSERA_RETURN_IF_ERROR(CheckBlockBoundary(name, type, sharding.shape(), box[rank - 1], device));
    Piece& piece = plan->pieces[l * num_tensors + tensor];
    piece.device = device;
    piece.tensor = tensor;
    piece.box = box;
    piece.size = BoxBytes(type, box);
    piece.shape.resize(rank);
    for (size_t d = 0; d < rank; ++d) piece.shape[d] = box[d].size();
    auto [it, inserted] = distinct_of_box.emplace(RangesKey(box), plan->distinct.size());
    if (inserted) {
      plan->distinct.push_back(DistinctPiece{tensor, piece.size, {}});
      plan->piece_bytes += piece.size;
      TESSERA_RETURN_IF_ERROR(new_distinct(it->second, device, box));
    }
    piece.distinct = it->second;
    plan->distinct[it->second].pieces.push_back(l * num_tensors + tensor);
  }
  return absl::OkStatus();
}

void AddReads(std::vector<std::vector<Run>> file_runs, uint64_t coalesce_gap_bytes, ReadPlan* plan) {
  // Pieces were filled device-major; distinct holders were appended tensor by
  // tensor, so sort each holder list into mesh order.
  for (DistinctPiece& d : plan->distinct) std::sort(d.pieces.begin(), d.pieces.end());
  for (size_t f = 0; f < file_runs.size(); ++f) {
    std::vector<Run>& runs = file_runs[f];
    std::sort(runs.begin(), runs.end(),
              [](const Run& a, const Run& b) { return a.file_offset < b.file_offset; });
    for (const Run& run : runs) {
      const size_t index = plan->runs.size();
      plan->runs.push_back(run);
      if (!plan->reads.empty()) {
        Read& last = plan->reads.back();
        if (last.file == f && run.file_offset <= last.offset + last.size + coalesce_gap_bytes) {
          last.size = std::max(last.offset + last.size, run.file_offset + run.size) - last.offset;
          last.end_run = index + 1;
          continue;
        }
      }
      plan->reads.push_back(Read{f, run.file_offset, run.size, index, index + 1});
    }
  }
  for (const Read& read : plan->reads) plan->total_bytes += read.size;
}

std::vector<Read> ReadPlan::FileReads(size_t file) const {
  std::vector<Read> out;
  for (const Read& read : reads) {
    if (read.file == file) out.push_back(read);
  }
  return out;
}

absl::StatusOr<ReadPlan> MakeReadPlan(const Checkpoint& checkpoint, const LayoutMap& layouts,
                                      const ReadPlanOptions& options) {
  const MeshPtr& mesh = layouts.mesh();
  if (mesh == nullptr) {
    return absl::FailedPreconditionError(
        "The layout map has no mesh; expected a map created with the mesh the checkpoint is loaded onto");
  }
  ReadPlan plan;
  plan.files = checkpoint.files;
  plan.num_devices = mesh->size();
  TESSERA_ASSIGN_OR_RETURN(plan.devices, ProcessDevices(plan.num_devices, options));
  const size_t num_tensors = checkpoint.tensors.size();
  plan.pieces.resize(plan.devices.size() * num_tensors);
  // Runs per file, so each file's can be sorted on its own.
  std::vector<std::vector<Run>> file_runs(checkpoint.files.size());
  for (size_t t = 0; t < num_tensors; ++t) {
    const Tensor& tensor = checkpoint.tensors[t];
    if (tensor.file_index >= checkpoint.files.size()) {
      return absl::InvalidArgumentError(absl::StrCat("Tensor '", tensor.name, "' is in file ", tensor.file_index,
                                                     "; expected less than ", checkpoint.files.size()));
    }
    TESSERA_RETURN_IF_ERROR(CheckSize(tensor));
    TESSERA_ASSIGN_OR_RETURN(const Sharding sharding, ShardingOf(tensor.name, tensor.shape, layouts, options.mode));
    std::vector<IndexRange> whole(tensor.shape.size());
    for (size_t d = 0; d < whole.size(); ++d) whole[d] = IndexRange{0, tensor.shape[d]};
    TESSERA_RETURN_IF_ERROR(AddTensorPieces(
        t, num_tensors, tensor.name, tensor.type, sharding, &plan,
        [&](size_t distinct, int64_t, absl::Span<const IndexRange> box) {
          AppendBoxRuns(tensor.type, box, whole, tensor.offset, box, distinct, &file_runs[tensor.file_index]);
          return absl::OkStatus();
        }));
  }
  AddReads(std::move(file_runs), options.coalesce_gap_bytes, &plan);
  return plan;
}

}  // namespace tessera::checkpoint
