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
#include "core/layout.h"
#include "core/status_macros.h"

namespace tessera::checkpoint {
namespace {

std::string ShapeText(const std::vector<int64_t>& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ", "), "]");
}

// Byte geometry of one tensor in its file: bytes per index of each dimension
// (the innermost counted in blocks).
struct Geometry {
  std::vector<uint64_t> stride;  // bytes per index of dimension d, d < rank - 1
  uint64_t row_bytes = 0;        // bytes of one whole innermost row
};

absl::StatusOr<Geometry> GeometryOf(const Tensor& tensor) {
  const ElementType& type = tensor.type;
  if (type.block_elements < 1 || type.block_bytes < 1) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor '", tensor.name, "' has element type ", type.name,
                                                   " with blocks of ", type.block_elements, " elements in ",
                                                   type.block_bytes, " bytes; expected both at least 1"));
  }
  Geometry g;
  const size_t rank = tensor.shape.size();
  uint64_t expected = static_cast<uint64_t>(type.block_bytes);
  if (rank > 0) {
    const int64_t inner = tensor.shape[rank - 1];
    if (inner % type.block_elements != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tensor '", tensor.name, "' has innermost dimension ", inner, " (shape ", ShapeText(tensor.shape),
          "); expected a multiple of ", type.block_elements, ", the elements per block of ", type.name));
    }
    g.row_bytes = static_cast<uint64_t>(inner / type.block_elements) * static_cast<uint64_t>(type.block_bytes);
    g.stride.assign(rank, 0);
    uint64_t stride = g.row_bytes;
    for (size_t d = rank - 1; d-- > 0;) {
      g.stride[d] = stride;
      stride *= static_cast<uint64_t>(tensor.shape[d]);
    }
    expected = stride;
  }
  if (expected != tensor.size) {
    return absl::InvalidArgumentError(absl::StrCat("Tensor '", tensor.name, "' occupies ", tensor.size,
                                                   " bytes; expected ", expected, " for shape ",
                                                   ShapeText(tensor.shape), " of ", type.name));
  }
  return g;
}

// A block is the smallest unit a block-packed type can be cut at, so a box
// must start and stop on a block boundary of the innermost dimension.
absl::Status CheckBlockBoundary(const Tensor& tensor, const IndexRange& inner, int64_t device) {
  const int64_t block = tensor.type.block_elements;
  if (block == 1 || (inner.start % block == 0 && inner.stop % block == 0)) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Tensor '", tensor.name, "' of type ", tensor.type.name, ": the shard of device ", device,
      " covers [", inner.start, ", ", inner.stop, ") of dimension ", tensor.shape.size() - 1,
      " (size ", tensor.shape.back(), "); expected a start and stop on a multiple of ", block,
      ", the elements per block"));
}

// Appends the runs of `box` of `tensor` for distinct piece `distinct`.
void AppendRuns(const Tensor& tensor, const Geometry& g, absl::Span<const IndexRange> box, size_t distinct,
                std::vector<Run>* runs) {
  const size_t rank = box.size();
  if (rank == 0) {
    runs->push_back(Run{tensor.offset, 0, tensor.size, distinct});
    return;
  }
  for (const IndexRange& range : box) {
    if (range.size() == 0) return;
  }
  const uint64_t block_bytes = static_cast<uint64_t>(tensor.type.block_bytes);
  const int64_t block = tensor.type.block_elements;
  auto unit = [&](size_t d) -> uint64_t { return d + 1 == rank ? 0 : g.stride[d]; };
  // Innermost-to-outer, dimensions covered whole join the run; `k` is the
  // outermost dimension of the run.
  size_t k = rank - 1;
  while (k > 0 && box[k].start == 0 && box[k].stop == tensor.shape[k]) --k;
  auto bytes_of = [&](size_t d, int64_t count) -> uint64_t {
    return d + 1 == rank ? static_cast<uint64_t>(count / block) * block_bytes : static_cast<uint64_t>(count) * unit(d);
  };
  const uint64_t run_bytes = bytes_of(k, box[k].size());
  const uint64_t run_start = bytes_of(k, box[k].start);
  // Odometer over dimensions [0, k), row-major.
  std::vector<int64_t> index(k, 0);
  uint64_t piece_offset = 0;
  while (true) {
    uint64_t offset = tensor.offset + run_start;
    for (size_t d = 0; d < k; ++d) offset += static_cast<uint64_t>(box[d].start + index[d]) * g.stride[d];
    runs->push_back(Run{offset, piece_offset, run_bytes, distinct});
    piece_offset += run_bytes;
    size_t d = k;
    while (d > 0) {
      --d;
      if (++index[d] < box[d].size()) break;
      index[d] = 0;
      if (d == 0) return;
    }
    if (k == 0) return;
  }
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

// The sharding of `tensor` under the map's rule for its name.
absl::StatusOr<Sharding> ShardingOf(const Tensor& tensor, const LayoutMap& layouts, const MeshPtr& mesh,
                                    ShardMode mode) {
  auto named = [&](const absl::Status& status) {
    return absl::Status(status.code(), absl::StrCat("Tensor '", tensor.name, "': ", status.message()));
  };
  absl::StatusOr<int64_t> rule = layouts.Find(tensor.name);
  if (!rule.ok()) return named(rule.status());
  if (*rule < 0) {
    TESSERA_ASSIGN_OR_RETURN(TensorLayout replicated, TensorLayout::Replicated(tensor.shape.size(), mesh));
    return Sharding::Create(replicated, tensor.shape, mode);
  }
  {
    const LayoutPtr& chosen = layouts.layout(static_cast<size_t>(*rule));
    const std::string& key = layouts.key(static_cast<size_t>(*rule));
    if (chosen->mesh() == nullptr || !(*chosen->mesh() == *mesh)) {
      return absl::InvalidArgumentError(absl::StrCat("Tensor '", tensor.name, "': the layout of rule '", key,
                                                     "' is on another mesh; expected the map's mesh"));
    }
    if (chosen->rank() != tensor.shape.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tensor '", tensor.name, "' has rank ", tensor.shape.size(), " (shape ", ShapeText(tensor.shape),
          ") but the layout of rule '", key, "' has rank ", chosen->rank(), "; expected the same rank"));
    }
    absl::StatusOr<Sharding> sharding = Sharding::Create(*chosen, tensor.shape, mode);
    if (!sharding.ok()) return named(sharding.status());
    return sharding;
  }
}

}  // namespace

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
  const size_t num_local = plan.devices.size();
  plan.pieces.resize(num_local * num_tensors);
  // Runs per file, so each file's can be sorted on its own.
  std::vector<std::vector<Run>> file_runs(checkpoint.files.size());
  std::vector<IndexRange> box;
  for (size_t t = 0; t < num_tensors; ++t) {
    const Tensor& tensor = checkpoint.tensors[t];
    if (tensor.file_index >= checkpoint.files.size()) {
      return absl::InvalidArgumentError(absl::StrCat("Tensor '", tensor.name, "' is in file ", tensor.file_index,
                                                     "; expected less than ", checkpoint.files.size()));
    }
    TESSERA_ASSIGN_OR_RETURN(const Geometry geometry, GeometryOf(tensor));
    TESSERA_ASSIGN_OR_RETURN(const Sharding sharding, ShardingOf(tensor, layouts, mesh, options.mode));
    const size_t rank = tensor.shape.size();
    box.assign(rank, IndexRange{});
    // Replicas among the process's devices hold equal boxes: one distinct
    // piece each, found by the box's bounds.
    absl::flat_hash_map<std::vector<int64_t>, size_t> distinct_of_box;
    for (size_t l = 0; l < num_local; ++l) {
      const int64_t device = plan.devices[l];
      TESSERA_RETURN_IF_ERROR(sharding.DeviceRanges(device, absl::MakeSpan(box)));
      if (rank > 0) TESSERA_RETURN_IF_ERROR(CheckBlockBoundary(tensor, box[rank - 1], device));
      Piece& piece = plan.pieces[l * num_tensors + t];
      piece.device = device;
      piece.tensor = t;
      piece.box = box;
      uint64_t size = tensor.size;
      if (rank > 0) {
        size = static_cast<uint64_t>(box[rank - 1].size() / tensor.type.block_elements) *
               static_cast<uint64_t>(tensor.type.block_bytes);
      }
      piece.shape.resize(rank);
      for (size_t d = 0; d < rank; ++d) {
        piece.shape[d] = box[d].size();
        if (d + 1 < rank) size *= static_cast<uint64_t>(box[d].size());
      }
      piece.size = size;
      std::vector<int64_t> key;
      key.reserve(2 * rank);
      for (const IndexRange& range : box) {
        key.push_back(range.start);
        key.push_back(range.stop);
      }
      auto [it, inserted] = distinct_of_box.emplace(std::move(key), plan.distinct.size());
      if (inserted) {
        plan.distinct.push_back(DistinctPiece{t, size, {}});
        plan.piece_bytes += size;
        AppendRuns(tensor, geometry, box, it->second, &file_runs[tensor.file_index]);
      }
      piece.distinct = it->second;
      plan.distinct[it->second].pieces.push_back(l * num_tensors + t);
    }
  }
  // Pieces were filled device-major; distinct holders were appended tensor by
  // tensor, so sort each holder list into mesh order.
  for (DistinctPiece& d : plan.distinct) std::sort(d.pieces.begin(), d.pieces.end());
  for (size_t f = 0; f < file_runs.size(); ++f) {
    std::vector<Run>& runs = file_runs[f];
    std::sort(runs.begin(), runs.end(),
              [](const Run& a, const Run& b) { return a.file_offset < b.file_offset; });
    for (const Run& run : runs) {
      const size_t index = plan.runs.size();
      plan.runs.push_back(run);
      if (!plan.reads.empty()) {
        Read& last = plan.reads.back();
        if (last.file == f && run.file_offset <= last.offset + last.size + options.coalesce_gap_bytes) {
          last.size = std::max(last.offset + last.size, run.file_offset + run.size) - last.offset;
          last.end_run = index + 1;
          continue;
        }
      }
      plan.reads.push_back(Read{f, run.file_offset, run.size, index, index + 1});
    }
  }
  for (const Read& read : plan.reads) plan.total_bytes += read.size;
  return plan;
}

}  // namespace tessera::checkpoint
