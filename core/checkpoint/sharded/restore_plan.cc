// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/sharded/restore_plan.h"

#include <sys/stat.h>

#include <cerrno>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/checkpoint/box_runs.h"
#include "core/reshard_plan.h"
#include "core/status_macros.h"

namespace tessera::checkpoint::sharded {
namespace {

std::string ShapeText(const std::vector<int64_t>& shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ", "), "]");
}

// The stored tensors to restore, in the order the pieces number them.
absl::StatusOr<std::vector<const IndexTensor*>> Chosen(const RestoreSource& source,
                                                       absl::Span<const RestoreRequest> requests) {
  const Index& index = source.index;
  std::vector<const IndexTensor*> chosen;
  if (requests.empty()) {
    for (const IndexTensor& tensor : index.tensors) chosen.push_back(&tensor);
    return chosen;
  }
  absl::flat_hash_map<std::string, const IndexTensor*> by_name;
  for (const IndexTensor& tensor : index.tensors) by_name.emplace(tensor.name, &tensor);
  absl::flat_hash_map<std::string, size_t> requested;
  for (size_t r = 0; r < requests.size(); ++r) {
    const RestoreRequest& request = requests[r];
    if (!requested.emplace(request.name, r).second) {
      return absl::InvalidArgumentError(absl::StrCat("Tensor '", request.name, "' is requested twice (requests ",
                                                     requested[request.name], " and ", r, "); expected once"));
    }
    auto it = by_name.find(request.name);
    if (it == by_name.end()) {
      return absl::NotFoundError(absl::StrCat("Tensor '", request.name, "' is not in the checkpoint ", source.directory));
    }
    const IndexTensor& tensor = *it->second;
    if (!request.dtype.empty() && request.dtype != tensor.type.name) {
      return absl::InvalidArgumentError(absl::StrCat("Tensor '", request.name, "' is requested as ", request.dtype,
                                                     " but the checkpoint stores ", tensor.type.name,
                                                     "; expected the same dtype"));
    }
    if (request.check_shape && request.shape != tensor.sharding.shape()) {
      return absl::InvalidArgumentError(absl::StrCat("Tensor '", request.name, "' is requested with shape ",
                                                     ShapeText(request.shape), " but the checkpoint stores shape ",
                                                     ShapeText(tensor.sharding.shape()), "; expected the same shape"));
    }
    chosen.push_back(&tensor);
  }
  return chosen;
}

}  // namespace

std::string RangesText(absl::Span<const IndexRange> ranges) {
  std::string text = "[";
  for (size_t d = 0; d < ranges.size(); ++d) {
    absl::StrAppend(&text, d > 0 ? ", " : "", ranges[d].start, ":", ranges[d].stop);
  }
  return text + "]";
}

absl::StatusOr<RestoreSource> OpenRestoreSource(const std::string& path) {
  RestoreSource source;
  source.directory = path;
  struct stat st;
  const std::string suffix = absl::StrCat("/", kIndexFileName);
  if (::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) {
    const size_t slash = path.rfind('/');
    source.directory = slash == std::string::npos ? "." : path.substr(0, slash);
    if (path.substr(slash == std::string::npos ? 0 : slash + 1) != kIndexFileName) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'path' is '", path, "'; expected a checkpoint "
                                                     "directory or its ", kIndexFileName));
    }
  }
  TESSERA_ASSIGN_OR_RETURN(source.index, ReadIndex(source.directory));
  TESSERA_RETURN_IF_ERROR(VerifyIndexFiles(source.index, source.directory));
  for (size_t f = 0; f < source.index.files.size(); ++f) {
    File file{FilePath(source.index, source.directory, f), 0};
    if (::stat(file.path.c_str(), &st) != 0) {
      return absl::ErrnoToStatus(errno, absl::StrCat(file.path, ": cannot stat"));
    }
    file.size = static_cast<uint64_t>(st.st_size);
    source.files.push_back(std::move(file));
  }
  return source;
}

absl::StatusOr<ReadPlan> MakeRestorePlan(const RestoreSource& source, const LayoutMap& layouts,
                                         const ReadPlanOptions& options,
                                         absl::Span<const RestoreRequest> requests) {
  const MeshPtr& mesh = layouts.mesh();
  if (mesh == nullptr) {
    return absl::FailedPreconditionError(
        "The layout map has no mesh; expected a map created with the mesh the checkpoint is restored onto");
  }
  TESSERA_ASSIGN_OR_RETURN(const std::vector<const IndexTensor*> tensors, Chosen(source, requests));
  ReadPlan plan;
  plan.files = source.files;
  plan.num_devices = mesh->size();
  TESSERA_ASSIGN_OR_RETURN(plan.devices, ProcessDevices(plan.num_devices, options));
  const size_t num_tensors = tensors.size();
  plan.pieces.resize(plan.devices.size() * num_tensors);
  std::vector<std::vector<Run>> file_runs(source.files.size());
  for (size_t t = 0; t < num_tensors; ++t) {
    const IndexTensor& tensor = *tensors[t];
    const Sharding& saved = tensor.sharding;
    TESSERA_ASSIGN_OR_RETURN(const Sharding target, ShardingOf(tensor.name, saved.shape(), layouts, options.mode));
    // The factored plan: each device asks for its own pieces, so the cost is
    // the process's pieces, not the whole mesh's.
    absl::StatusOr<ReshardIntervals> reshard = ReshardIntervals::Create(saved, target, 1);
    if (!reshard.ok()) {
      return absl::Status(reshard.status().code(),
                          absl::StrCat("Tensor '", tensor.name, "': ", reshard.status().message()));
    }
    TESSERA_RETURN_IF_ERROR(AddTensorPieces(
        t, num_tensors, tensor.name, tensor.type, target, &plan,
        [&](size_t distinct, int64_t device, absl::Span<const IndexRange> box) -> absl::Status {
          absl::Status missing = absl::OkStatus();
          TESSERA_RETURN_IF_ERROR(reshard->ForEachPiece(device, [&](const ReshardPiece& piece) {
            if (!missing.ok()) return;
            const IndexPiece* stored = FindPiece(tensor, piece.source_ranges);
            if (stored == nullptr) {
              // ReadIndex checked the tiling, so only an index built by hand
              // gets here.
              missing = absl::DataLossError(absl::StrCat("tensor '", tensor.name, "': elements ",
                                                         RangesText(piece.box), " are in no piece"));
              return;
            }
            AppendBoxRuns(tensor.type, piece.box, stored->ranges, stored->offset, box, distinct,
                          &file_runs[stored->file]);
          }));
          return missing;
        }));
  }
  AddReads(std::move(file_runs), options.coalesce_gap_bytes, &plan);
  return plan;
}

}  // namespace tessera::checkpoint::sharded
