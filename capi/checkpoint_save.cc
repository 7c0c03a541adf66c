// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/checkpoint_save.h: sharded saves through the C ABI.
#include "tessera/experimental/checkpoint_save.h"

#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "core/checkpoint/box_runs.h"
#include "core/checkpoint/json.h"
#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/sharded/writer.h"

namespace sharded = tessera::checkpoint::sharded;

struct tessera_save_options {
  int64_t process_index = 0;
  int64_t num_processes = 1;
  tessera::ShardMode mode = tessera::ShardMode::kStrict;
  uint64_t chunk_size = uint64_t{64} << 20;
};

struct tessera_checkpoint_saver {
  std::string directory;
  tessera_save_options options;
  std::vector<sharded::SaveTensor> tensors;
  // Per tensor: device -> the caller's buffer (tessera_checkpoint_saver_set_shard).
  std::vector<absl::flat_hash_map<int64_t, absl::string_view>> buffers;
  bool written = false;
  int64_t generation = 0;
};

using tessera::capi::Guard;
using tessera::capi::SetOption;

namespace {

absl::Status CheckNotWritten(const tessera_checkpoint_saver& saver) {
  if (!saver.written) return absl::OkStatus();
  return absl::FailedPreconditionError(
      "Argument 'saver' has written its file; expected a saver that has not (a saver writes once)");
}

std::string RangesText(const std::vector<tessera::IndexRange>& ranges) {
  return absl::StrCat("[", absl::StrJoin(ranges, ", ", [](std::string* out, const tessera::IndexRange& r) {
                        absl::StrAppend(out, r.start, ":", r.stop);
                      }),
                      "]");
}

// Writes the process's file with `fill`, once.
absl::Status Write(tessera_checkpoint_saver& saver, const sharded::FillPiece& fill) {
  TESSERA_RETURN_IF_ERROR(CheckNotWritten(saver));
  absl::StatusOr<int64_t> generation = sharded::NextGeneration(saver.directory);
  if (!generation.ok()) {
    // A damaged index is a state of the directory, not a bad argument.
    if (generation.status().code() != absl::StatusCode::kInvalidArgument) return generation.status();
    return absl::FailedPreconditionError(generation.status().message());
  }
  const sharded::WriteOptions options{saver.options.process_index, saver.options.num_processes, *generation,
                                      saver.options.chunk_size};
  TESSERA_RETURN_IF_ERROR(sharded::WriteProcessFile(saver.directory, saver.tensors, options, fill).status());
  saver.written = true;
  saver.generation = *generation;
  return absl::OkStatus();
}

}  // namespace

tessera_save_options* tessera_save_options_create(void) noexcept {
  return new (std::nothrow) tessera_save_options();
}

void tessera_save_options_destroy(tessera_save_options* options) noexcept { delete options; }

bool tessera_save_options_set_process(tessera_save_options* options, size_t process_index, size_t num_processes,
                                      tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_save_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(const int64_t count, tessera::capi::ToInt64(num_processes, "num_processes"));
    TESSERA_ASSIGN_OR_RETURN(const int64_t index, tessera::capi::ToInt64(process_index, "process_index"));
    if (count < 1) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'num_processes' is ", count, "; expected at least 1"));
    }
    if (index >= count) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'process_index' is ", index,
                                                     "; expected less than ", count, " (num_processes)"));
    }
    o.process_index = index;
    o.num_processes = count;
    return absl::OkStatus();
  });
}

bool tessera_save_options_set_shard_mode(tessera_save_options* options, tessera_shard_mode_t mode,
                                         tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_save_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.mode, tessera::capi::ToCoreEnum<tessera::ShardMode>(
                                         mode, tessera::capi::kShardModeNames, "mode"));
    return absl::OkStatus();
  });
}

bool tessera_save_options_set_chunk_size(tessera_save_options* options, int64_t chunk_size,
                                         tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_save_options& o) -> absl::Status {
    if (chunk_size < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'chunk_size' is ", chunk_size, "; expected at least 1"));
    }
    o.chunk_size = static_cast<uint64_t>(chunk_size);
    return absl::OkStatus();
  });
}

tessera_checkpoint_saver* tessera_checkpoint_saver_create(const char* directory,
                                                          const tessera_save_options* options,
                                                          tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_checkpoint_saver*> {
    TESSERA_CAPI_REQUIRE(directory);
    if (*directory == '\0') {
      return absl::InvalidArgumentError("Argument 'directory' is \"\"; expected a directory path");
    }
    auto saver = std::make_unique<tessera_checkpoint_saver>();
    saver->directory = directory;
    if (options != nullptr) saver->options = *options;
    return saver.release();
  });
}

void tessera_checkpoint_saver_destroy(tessera_checkpoint_saver* saver) noexcept { delete saver; }

bool tessera_checkpoint_saver_add_tensor(tessera_checkpoint_saver* saver, const char* name, const char* dtype,
                                         const tessera_layout* layout, const int64_t* dims, size_t num_dims,
                                         tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(saver);
    TESSERA_CAPI_REQUIRE(name);
    TESSERA_CAPI_REQUIRE(dtype);
    TESSERA_CAPI_REQUIRE(layout);
    TESSERA_CAPI_REQUIRE_ARRAY(dims, num_dims);
    TESSERA_RETURN_IF_ERROR(CheckNotWritten(*saver));
    for (const sharded::SaveTensor& tensor : saver->tensors) {
      if (tensor.name == name) {
        return absl::InvalidArgumentError(absl::StrCat("Argument 'name' is ", tessera::checkpoint::json::Quote(name),
                                                       "; expected a name no other tensor of the save has"));
      }
    }
    absl::StatusOr<tessera::checkpoint::ElementType> type = tessera::checkpoint::SafetensorsElementType(dtype);
    if (!type.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'dtype' is ", tessera::checkpoint::json::Quote(dtype),
                                                     "; ", type.status().message()));
    }
    TESSERA_ASSIGN_OR_RETURN(tessera::Sharding sharding,
                             tessera::Sharding::Create(*layout->impl, std::vector<int64_t>(dims, dims + num_dims),
                                                       saver->options.mode));
    sharded::SaveTensor tensor{name, *std::move(type), std::move(sharding)};
    TESSERA_RETURN_IF_ERROR(sharded::CheckSaveTensor(tensor));
    if (tensor.sharding.num_devices() % saver->options.num_processes != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tensor ", tessera::checkpoint::json::Quote(name), " is on a mesh of ", tensor.sharding.num_devices(),
          " devices; expected a multiple of ", saver->options.num_processes, ", the number of processes"));
    }
    saver->tensors.push_back(std::move(tensor));
    saver->buffers.emplace_back();
    return absl::OkStatus();
  });
}

size_t tessera_checkpoint_saver_num_tensors(const tessera_checkpoint_saver* saver,
                                            tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(saver, saver->tensors.size());
}

namespace {

// Hands one shard's buffer to `saver` (tessera_checkpoint_saver_set_shard's
// checks); the saver keeps the pointer.
absl::Status SetShard(tessera_checkpoint_saver& saver, size_t tensor, size_t device, const void* data, size_t size) {
  TESSERA_RETURN_IF_ERROR(
      tessera::capi::CheckIndex(tensor, saver.tensors.size(), "tensor", "the saver's tensors"));
  TESSERA_CAPI_REQUIRE_ARRAY(data, size);
  const sharded::SaveTensor& t = saver.tensors[tensor];
  const tessera::Sharding& sharding = t.sharding;
  TESSERA_RETURN_IF_ERROR(tessera::capi::CheckIndex(device, static_cast<size_t>(sharding.num_devices()), "device",
                                                    "the mesh's devices"));
  const int64_t per_process = sharding.num_devices() / saver.options.num_processes;
  const int64_t first = saver.options.process_index * per_process;
  const auto d = static_cast<int64_t>(device);
  if (d < first || d >= first + per_process) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'device' is ", d, "; expected a device of process ",
                                                   saver.options.process_index, ", [", first, ", ",
                                                   first + per_process, ")"));
  }
  TESSERA_ASSIGN_OR_RETURN(const std::vector<tessera::IndexRange> ranges, sharding.DeviceRanges(d));
  const uint64_t bytes = tessera::checkpoint::BoxBytes(t.type, ranges);
  if (size != bytes) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'size' is ", size, "; expected ", bytes,
                                                   ", the bytes of device ", d, "'s shard of tensor ",
                                                   tessera::checkpoint::json::Quote(t.name)));
  }
  saver.buffers[tensor][d] = absl::string_view(static_cast<const char*>(data), size);
  return absl::OkStatus();
}

// Writes the process's file from the buffers handed to `saver`.
absl::Status WriteBuffers(tessera_checkpoint_saver& saver) {
  return Write(saver, [&saver](const sharded::SavePiece& piece, uint64_t offset, absl::Span<char> out) {
    const auto& buffers = saver.buffers[piece.tensor];
    auto it = buffers.find(piece.device);
    if (it == buffers.end()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "tensor ", tessera::checkpoint::json::Quote(saver.tensors[piece.tensor].name), ": no buffer for device ",
          piece.device, ", which stores ", RangesText(piece.ranges),
          "; expected tessera_checkpoint_saver_set_shard for it"));
    }
    std::memcpy(out.data(), it->second.data() + offset, out.size());
    return absl::OkStatus();
  });
}

// The count of a parallel array of tessera_checkpoint_saver_write_shards
// against the first one's.
absl::Status CheckParallelCount(size_t count, const char* name, size_t expected) {
  if (count == expected) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' is ", count, "; expected ", expected,
                                                 ", the entries of 'shard_tensors'"));
}

}  // namespace

bool tessera_checkpoint_saver_set_shard(tessera_checkpoint_saver* saver, size_t tensor, size_t device,
                                        const void* data, size_t size, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(saver);
    return SetShard(*saver, tensor, device, data, size);
  });
}

bool tessera_checkpoint_saver_write(tessera_checkpoint_saver* saver, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(saver);
    return WriteBuffers(*saver);
  });
}

bool tessera_checkpoint_saver_write_shards(tessera_checkpoint_saver* saver, const size_t* shard_tensors,
                                           size_t num_shard_tensors, const size_t* shard_devices,
                                           size_t num_shard_devices, const void* const* buffers,
                                           const size_t* sizes, size_t num_buffers,
                                           tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(saver);
    TESSERA_RETURN_IF_ERROR(CheckNotWritten(*saver));
    TESSERA_CAPI_REQUIRE_ARRAY(shard_tensors, num_shard_tensors);
    TESSERA_CAPI_REQUIRE_ARRAY(shard_devices, num_shard_devices);
    TESSERA_CAPI_REQUIRE_ARRAY(buffers, num_buffers);
    TESSERA_CAPI_REQUIRE_ARRAY(sizes, num_buffers);
    TESSERA_RETURN_IF_ERROR(CheckParallelCount(num_shard_devices, "num_shard_devices", num_shard_tensors));
    TESSERA_RETURN_IF_ERROR(CheckParallelCount(num_buffers, "num_buffers", num_shard_tensors));
    // The buffers are valid for this call only: whatever happens, the saver
    // is left holding none of them.
    const auto saved = saver->buffers;
    absl::Status status = absl::OkStatus();
    for (size_t i = 0; i < num_shard_tensors && status.ok(); ++i) {
      status = SetShard(*saver, shard_tensors[i], shard_devices[i], buffers[i], sizes[i]);
      if (!status.ok()) status = absl::Status(status.code(), absl::StrCat("shard ", i, ": ", status.message()));
    }
    if (status.ok()) status = WriteBuffers(*saver);
    saver->buffers = saved;
    return status;
  });
}

bool tessera_checkpoint_saver_stream(tessera_checkpoint_saver* saver, tessera_save_fill_fn fill, void* user_data,
                                     tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(saver);
    TESSERA_RETURN_IF_ERROR(tessera::capi::CheckNotNull(reinterpret_cast<const void*>(fill), "fill"));
    return Write(*saver, [saver, fill, user_data](const sharded::SavePiece& piece, uint64_t offset,
                                                   absl::Span<char> out) {
      const std::vector<int64_t> ranges = tessera::capi::StartStopPairs(piece.ranges);
      if (!fill(piece.tensor, static_cast<size_t>(piece.device), ranges.data(), ranges.size(),
                static_cast<int64_t>(offset), out.data(), out.size(), user_data)) {
        return absl::CancelledError(absl::StrCat(
            "the fill callback returned false for device ", piece.device, " of tensor ",
            tessera::checkpoint::json::Quote(saver->tensors[piece.tensor].name), " at byte ", offset));
      }
      return absl::OkStatus();
    });
  });
}

bool tessera_checkpoint_saver_finish(tessera_checkpoint_saver* saver, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(saver);
    if (saver->options.process_index != 0) {
      return absl::FailedPreconditionError(absl::StrCat("Argument 'saver' saves process ",
                                                        saver->options.process_index,
                                                        "; expected process 0's saver, which writes the index"));
    }
    int64_t generation = saver->generation;
    if (!saver->written) {
      TESSERA_ASSIGN_OR_RETURN(generation, sharded::NextGeneration(saver->directory));
    }
    return sharded::FinishSave(saver->directory, saver->tensors, saver->options.num_processes, generation)
        .status();
  });
}
