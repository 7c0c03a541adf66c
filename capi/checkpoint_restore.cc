// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/checkpoint_restore.h: sharded checkpoints' indexes and
// restore plans through the C ABI.
#include "tessera/experimental/checkpoint_restore.h"

#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/read_plan_handle.h"
#include "capi/sharding_handle.h"
#include "core/checkpoint/sharded/restore_plan.h"

struct tessera_checkpoint_index {
  tessera::checkpoint::sharded::RestoreSource impl;
};

struct tessera_restore_request {
  std::vector<tessera::checkpoint::sharded::RestoreRequest> tensors;
};

using tessera::capi::Guard;

namespace {

const tessera::checkpoint::sharded::IndexTensor& TensorAt(const tessera_checkpoint_index* checkpoint, size_t index) {
  return checkpoint->impl.index.tensors[index];
}

// NULL checkpoint, then the tensor, then the piece of that tensor.
absl::Status CheckPiece(const tessera_checkpoint_index* checkpoint, size_t index, size_t piece) {
  TESSERA_RETURN_IF_ERROR(tessera::capi::CheckNotNullAndIndex(
      checkpoint, "checkpoint", index, "index", [&] { return checkpoint->impl.index.tensors.size(); },
      "the checkpoint's tensors"));
  return tessera::capi::CheckIndex(piece, TensorAt(checkpoint, index).pieces.size(), "piece", "the tensor's pieces");
}

}  // namespace

#define TESSERA_INDEX_TENSOR(...)                                                                      \
  TESSERA_CAPI_GET_AT(checkpoint, index, checkpoint->impl.index.tensors.size(), "the checkpoint's tensors", \
                      __VA_ARGS__)

tessera_checkpoint_index* tessera_checkpoint_index_open(const char* path, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_checkpoint_index*> {
    TESSERA_CAPI_REQUIRE(path);
    TESSERA_ASSIGN_OR_RETURN(tessera::checkpoint::sharded::RestoreSource source,
                             tessera::checkpoint::sharded::OpenRestoreSource(path));
    return new tessera_checkpoint_index{std::move(source)};
  });
}

void tessera_checkpoint_index_destroy(tessera_checkpoint_index* checkpoint) noexcept { delete checkpoint; }

size_t tessera_checkpoint_index_num_processes(const tessera_checkpoint_index* checkpoint,
                                              tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(checkpoint, static_cast<size_t>(checkpoint->impl.index.num_processes));
}

size_t tessera_checkpoint_index_num_files(const tessera_checkpoint_index* checkpoint, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(checkpoint, checkpoint->impl.files.size());
}

const char* tessera_checkpoint_index_file_path(const tessera_checkpoint_index* checkpoint, size_t index,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_AT(checkpoint, index, checkpoint->impl.files.size(), "the checkpoint's files",
                             checkpoint->impl.files[index].path.c_str());
}

size_t tessera_checkpoint_index_num_tensors(const tessera_checkpoint_index* checkpoint,
                                            tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(checkpoint, checkpoint->impl.index.tensors.size());
}

const char* tessera_checkpoint_index_tensor_name(const tessera_checkpoint_index* checkpoint, size_t index,
                                                 tessera_error** out_error) noexcept {
  return TESSERA_INDEX_TENSOR(TensorAt(checkpoint, index).name.c_str());
}

const char* tessera_checkpoint_index_tensor_dtype(const tessera_checkpoint_index* checkpoint, size_t index,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_INDEX_TENSOR(TensorAt(checkpoint, index).type.name.c_str());
}

size_t tessera_checkpoint_index_tensor_shape(const tessera_checkpoint_index* checkpoint, size_t index, int64_t* out,
                                             size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(
      tessera::capi::CheckNotNullAndIndex(
          checkpoint, "checkpoint", index, "index", [&] { return checkpoint->impl.index.tensors.size(); },
          "the checkpoint's tensors"),
      TensorAt(checkpoint, index).sharding.shape());
}

tessera_sharding* tessera_checkpoint_index_tensor_sharding(const tessera_checkpoint_index* checkpoint, size_t index,
                                                           tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_sharding*> {
    TESSERA_RETURN_IF_ERROR(tessera::capi::CheckNotNullAndIndex(
        checkpoint, "checkpoint", index, "index", [&] { return checkpoint->impl.index.tensors.size(); },
        "the checkpoint's tensors"));
    tessera_sharding* sharding = new (std::nothrow) tessera_sharding(TensorAt(checkpoint, index).sharding);
    if (sharding == nullptr) return absl::ResourceExhaustedError("out of memory for a sharding");
    return sharding;
  });
}

size_t tessera_checkpoint_index_tensor_num_pieces(const tessera_checkpoint_index* checkpoint, size_t index,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_INDEX_TENSOR(TensorAt(checkpoint, index).pieces.size());
}

size_t tessera_checkpoint_index_piece_ranges(const tessera_checkpoint_index* checkpoint, size_t index, size_t piece,
                                             int64_t* out, size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(CheckPiece(checkpoint, index, piece), [&] {
    std::vector<int64_t> ranges;
    for (const tessera::IndexRange& range : TensorAt(checkpoint, index).pieces[piece].ranges) {
      ranges.push_back(range.start);
      ranges.push_back(range.stop);
    }
    return ranges;
  }());
}

size_t tessera_checkpoint_index_piece_file(const tessera_checkpoint_index* checkpoint, size_t index, size_t piece,
                                           tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET_IF(CheckPiece(checkpoint, index, piece), TensorAt(checkpoint, index).pieces[piece].file);
}

tessera_restore_request* tessera_restore_request_create(void) noexcept {
  return new (std::nothrow) tessera_restore_request();
}

void tessera_restore_request_destroy(tessera_restore_request* request) noexcept { delete request; }

bool tessera_restore_request_add_tensor(tessera_restore_request* request, const char* name, const char* dtype,
                                        const int64_t* shape, size_t rank, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(request);
    TESSERA_CAPI_REQUIRE(name);
    TESSERA_CAPI_REQUIRE_ARRAY(shape, rank);
    tessera::checkpoint::sharded::RestoreRequest tensor;
    tensor.name = name;
    if (dtype != nullptr) tensor.dtype = dtype;
    tensor.check_shape = shape != nullptr;
    for (size_t d = 0; d < rank; ++d) {
      if (shape[d] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("Argument 'shape[", d, "]' is ", shape[d], "; expected at least 0"));
      }
      tensor.shape.push_back(shape[d]);
    }
    request->tensors.push_back(std::move(tensor));
    return absl::OkStatus();
  });
}

tessera_read_plan* tessera_restore_plan_create(const tessera_checkpoint_index* checkpoint,
                                               const tessera_layout_map* layout_map,
                                               const tessera_restore_request* request,
                                               const tessera_read_options* options,
                                               tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_read_plan*> {
    TESSERA_CAPI_REQUIRE(checkpoint);
    TESSERA_CAPI_REQUIRE(layout_map);
    const tessera_read_options defaults;
    const tessera_read_options& o = options != nullptr ? *options : defaults;
    auto plan = std::make_unique<tessera_read_plan>();
    static const std::vector<tessera::checkpoint::sharded::RestoreRequest> kEverything;
    TESSERA_ASSIGN_OR_RETURN(plan->impl, tessera::checkpoint::sharded::MakeRestorePlan(
                                             checkpoint->impl, layout_map->impl, o.plan,
                                             request != nullptr ? request->tensors : kEverything));
    plan->load = o.load;
    return plan.release();
  });
}
