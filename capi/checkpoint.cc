// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/checkpoint.h: a checkpoint's metadata through the C ABI.
#include "tessera/experimental/checkpoint.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "capi/checkpoint_handle.h"
#include "capi/guard.h"
#include "core/checkpoint/checkpoint.h"
#include "core/checkpoint/open.h"


using tessera::capi::Guard;

namespace {

const tessera::checkpoint::Tensor& TensorAt(const tessera_checkpoint* checkpoint, size_t index) {
  return checkpoint->impl.tensors[index];
}

}  // namespace

// The accessors by position over one of the checkpoint's lists.
#define TESSERA_CHECKPOINT_FILE(...) \
  TESSERA_CAPI_GET_AT(checkpoint, index, checkpoint->impl.files.size(), "the checkpoint's files", __VA_ARGS__)
#define TESSERA_CHECKPOINT_TENSOR(...) \
  TESSERA_CAPI_GET_AT(checkpoint, index, checkpoint->impl.tensors.size(), "the checkpoint's tensors", __VA_ARGS__)
#define TESSERA_CHECKPOINT_METADATA(...)                                                                     \
  TESSERA_CAPI_GET_AT(checkpoint, index, checkpoint->impl.metadata.size(), "the checkpoint's metadata entries", \
                      __VA_ARGS__)

tessera_checkpoint* tessera_checkpoint_open(const char* path, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_checkpoint*> {
    TESSERA_CAPI_REQUIRE(path);
    TESSERA_ASSIGN_OR_RETURN(tessera::checkpoint::Checkpoint checkpoint,
                             tessera::checkpoint::OpenCheckpoint(path));
    return new tessera_checkpoint{std::move(checkpoint)};
  });
}

void tessera_checkpoint_destroy(tessera_checkpoint* checkpoint) noexcept { delete checkpoint; }

const char* tessera_checkpoint_format(const tessera_checkpoint* checkpoint, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(checkpoint, checkpoint->impl.format.c_str());
}

size_t tessera_checkpoint_num_files(const tessera_checkpoint* checkpoint, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(checkpoint, checkpoint->impl.files.size());
}

const char* tessera_checkpoint_file_path(const tessera_checkpoint* checkpoint, size_t index,
                                         tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_FILE(checkpoint->impl.files[index].path.c_str());
}

int64_t tessera_checkpoint_file_size(const tessera_checkpoint* checkpoint, size_t index,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_FILE(static_cast<int64_t>(checkpoint->impl.files[index].size));
}

size_t tessera_checkpoint_num_tensors(const tessera_checkpoint* checkpoint, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(checkpoint, checkpoint->impl.tensors.size());
}

const char* tessera_checkpoint_tensor_name(const tessera_checkpoint* checkpoint, size_t index,
                                           tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_TENSOR(TensorAt(checkpoint, index).name.c_str());
}

const char* tessera_checkpoint_tensor_element_type(const tessera_checkpoint* checkpoint, size_t index,
                                                   tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_TENSOR(TensorAt(checkpoint, index).type.name.c_str());
}

int64_t tessera_checkpoint_tensor_block_num_elements(const tessera_checkpoint* checkpoint, size_t index,
                                                     tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_TENSOR(TensorAt(checkpoint, index).type.block_elements);
}

int64_t tessera_checkpoint_tensor_block_size(const tessera_checkpoint* checkpoint, size_t index,
                                             tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_TENSOR(TensorAt(checkpoint, index).type.block_bytes);
}

size_t tessera_checkpoint_tensor_shape(const tessera_checkpoint* checkpoint, size_t index, int64_t* out,
                                       size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(
      tessera::capi::CheckNotNullAndIndex(
          checkpoint, "checkpoint", index, "index", [&] { return checkpoint->impl.tensors.size(); },
          "the checkpoint's tensors"),
      TensorAt(checkpoint, index).shape);
}

size_t tessera_checkpoint_tensor_file_index(const tessera_checkpoint* checkpoint, size_t index,
                                            tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_TENSOR(TensorAt(checkpoint, index).file_index);
}

int64_t tessera_checkpoint_tensor_offset(const tessera_checkpoint* checkpoint, size_t index,
                                         tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_TENSOR(static_cast<int64_t>(TensorAt(checkpoint, index).offset));
}

int64_t tessera_checkpoint_tensor_size(const tessera_checkpoint* checkpoint, size_t index,
                                       tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_TENSOR(static_cast<int64_t>(TensorAt(checkpoint, index).size));
}

bool tessera_checkpoint_tensor_lookup(const tessera_checkpoint* checkpoint, const char* name, size_t* out,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(checkpoint);
    TESSERA_CAPI_REQUIRE(name);
    TESSERA_CAPI_REQUIRE(out);
    const auto& tensors = checkpoint->impl.tensors;
    for (size_t i = 0; i < tensors.size(); ++i) {
      if (tensors[i].name == name) {
        *out = i;
        return absl::OkStatus();
      }
    }
    return absl::NotFoundError(absl::StrCat("No tensor named '", name, "' in the checkpoint"));
  });
}

size_t tessera_checkpoint_num_metadata_entries(const tessera_checkpoint* checkpoint,
                                               tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(checkpoint, checkpoint->impl.metadata.size());
}

const char* tessera_checkpoint_metadata_key(const tessera_checkpoint* checkpoint, size_t index,
                                            tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_METADATA(checkpoint->impl.metadata[index].key.c_str());
}

const char* tessera_checkpoint_metadata_value(const tessera_checkpoint* checkpoint, size_t index,
                                              tessera_error** out_error) noexcept {
  return TESSERA_CHECKPOINT_METADATA(checkpoint->impl.metadata[index].value.c_str());
}

const char* tessera_checkpoint_metadata_lookup(const tessera_checkpoint* checkpoint, const char* key,
                                               tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<const char*> {
    TESSERA_CAPI_REQUIRE(checkpoint);
    TESSERA_CAPI_REQUIRE(key);
    for (const auto& entry : checkpoint->impl.metadata) {
      if (entry.key == key) return entry.value.c_str();
    }
    return absl::NotFoundError(absl::StrCat("No metadata entry with key '", key, "' in the checkpoint"));
  });
}
