// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/checkpoint_load.h: read plans and loading them through the C ABI.
#include "tessera/experimental/checkpoint_load.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "capi/checkpoint_handle.h"
#include "capi/enums.h"
#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/read_plan_handle.h"
#include "core/checkpoint/loader.h"
#include "core/checkpoint/read_plan.h"

using tessera::capi::Guard;
using tessera::capi::SetOption;

namespace {

const tessera::checkpoint::Piece& PieceAt(const tessera_read_plan* plan, size_t index) {
  return plan->impl.pieces[index];
}

// The progress callback as the core calls it; an empty function without one.
tessera::checkpoint::ProgressCallback Progress(tessera_read_progress_fn progress, void* progress_data) {
  if (progress == nullptr) return nullptr;
  return [progress, progress_data](uint64_t done, uint64_t total) {
    return progress(static_cast<int64_t>(done), static_cast<int64_t>(total), progress_data);
  };
}

absl::Status AtLeast(int64_t value, int64_t min, const char* name) {
  if (value >= min) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("Argument '", name, "' is ", value, "; expected at least ", min));
}

absl::Status ReturnBytes(absl::Status status, uint64_t bytes_read, int64_t* out_bytes_read) {
  if (out_bytes_read != nullptr) *out_bytes_read = static_cast<int64_t>(bytes_read);
  return status;
}

}  // namespace

#define TESSERA_READ_PLAN_PIECE(...) \
  TESSERA_CAPI_GET_AT(plan, index, plan->impl.pieces.size(), "the plan's pieces", __VA_ARGS__)

tessera_read_options* tessera_read_options_create(void) noexcept {
  return new (std::nothrow) tessera_read_options();
}

void tessera_read_options_destroy(tessera_read_options* options) noexcept { delete options; }

bool tessera_read_options_set_process(tessera_read_options* options, size_t process_index, size_t num_processes,
                                      tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_read_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(const int64_t count, tessera::capi::ToInt64(num_processes, "num_processes"));
    TESSERA_ASSIGN_OR_RETURN(const int64_t index, tessera::capi::ToInt64(process_index, "process_index"));
    TESSERA_RETURN_IF_ERROR(AtLeast(count, 1, "num_processes"));
    if (index >= count) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'process_index' is ", index,
                                                     "; expected less than ", count, " (num_processes)"));
    }
    o.plan.process_index = index;
    o.plan.num_processes = count;
    return absl::OkStatus();
  });
}

bool tessera_read_options_set_shard_mode(tessera_read_options* options, tessera_shard_mode_t mode,
                                         tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_read_options& o) -> absl::Status {
    TESSERA_ASSIGN_OR_RETURN(o.plan.mode, tessera::capi::ToCoreEnum<tessera::ShardMode>(
                                              mode, tessera::capi::kShardModeNames, "mode"));
    return absl::OkStatus();
  });
}

bool tessera_read_options_set_coalesce_gap(tessera_read_options* options, int64_t gap_bytes,
                                           tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_read_options& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(AtLeast(gap_bytes, 0, "gap_bytes"));
    o.plan.coalesce_gap_bytes = static_cast<uint64_t>(gap_bytes);
    return absl::OkStatus();
  });
}

bool tessera_read_options_set_threads(tessera_read_options* options, size_t threads,
                                      tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_read_options& o) -> absl::Status {
    o.load.num_threads = threads;
    return absl::OkStatus();
  });
}

bool tessera_read_options_set_staging_bytes(tessera_read_options* options, int64_t staging_bytes,
                                            tessera_error** out_error) noexcept {
  return SetOption(options, out_error, [&](tessera_read_options& o) -> absl::Status {
    TESSERA_RETURN_IF_ERROR(AtLeast(staging_bytes, 1, "staging_bytes"));
    o.load.staging_bytes = static_cast<uint64_t>(staging_bytes);
    return absl::OkStatus();
  });
}

tessera_read_plan* tessera_read_plan_create(const tessera_checkpoint* checkpoint,
                                            const tessera_layout_map* layout_map,
                                            const tessera_read_options* options,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_read_plan*> {
    TESSERA_CAPI_REQUIRE(checkpoint);
    TESSERA_CAPI_REQUIRE(layout_map);
    const tessera_read_options defaults;
    const tessera_read_options& o = options != nullptr ? *options : defaults;
    auto plan = std::make_unique<tessera_read_plan>();
    TESSERA_ASSIGN_OR_RETURN(plan->impl,
                             tessera::checkpoint::MakeReadPlan(checkpoint->impl, layout_map->impl, o.plan));
    plan->load = o.load;
    return plan.release();
  });
}

void tessera_read_plan_destroy(tessera_read_plan* plan) noexcept { delete plan; }

size_t tessera_read_plan_num_pieces(const tessera_read_plan* plan, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.pieces.size());
}

size_t tessera_read_plan_piece_device(const tessera_read_plan* plan, size_t index,
                                      tessera_error** out_error) noexcept {
  return TESSERA_READ_PLAN_PIECE(static_cast<size_t>(PieceAt(plan, index).device));
}

size_t tessera_read_plan_piece_tensor(const tessera_read_plan* plan, size_t index,
                                      tessera_error** out_error) noexcept {
  return TESSERA_READ_PLAN_PIECE(PieceAt(plan, index).tensor);
}

size_t tessera_read_plan_piece_ranges(const tessera_read_plan* plan, size_t index, int64_t* out, size_t capacity,
                                      tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(
      tessera::capi::CheckNotNullAndIndex(
          plan, "plan", index, "index", [&] { return plan->impl.pieces.size(); }, "the plan's pieces"),
      tessera::capi::StartStopPairs(PieceAt(plan, index).box));
}

size_t tessera_read_plan_piece_shape(const tessera_read_plan* plan, size_t index, int64_t* out, size_t capacity,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(
      tessera::capi::CheckNotNullAndIndex(
          plan, "plan", index, "index", [&] { return plan->impl.pieces.size(); }, "the plan's pieces"),
      PieceAt(plan, index).shape);
}

int64_t tessera_read_plan_piece_size(const tessera_read_plan* plan, size_t index,
                                     tessera_error** out_error) noexcept {
  return TESSERA_READ_PLAN_PIECE(static_cast<int64_t>(PieceAt(plan, index).size));
}

size_t tessera_read_plan_num_files(const tessera_read_plan* plan, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.files.size());
}

size_t tessera_read_plan_file_ranges(const tessera_read_plan* plan, size_t index, int64_t* out,
                                     size_t capacity, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_ARRAY_IF(
      tessera::capi::CheckNotNullAndIndex(
          plan, "plan", index, "index", [&] { return plan->impl.files.size(); }, "the plan's files"),
      [&] {
        std::vector<int64_t> pairs;
        for (const auto& read : plan->impl.FileReads(index)) {
          pairs.push_back(static_cast<int64_t>(read.offset));
          pairs.push_back(static_cast<int64_t>(read.offset + read.size));
        }
        return pairs;
      }());
}

int64_t tessera_read_plan_total_bytes(const tessera_read_plan* plan, tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, static_cast<int64_t>(plan->impl.total_bytes));
}

bool tessera_read_plan_execute(const tessera_read_plan* plan, void* const* buffers, const size_t* sizes,
                               size_t num_buffers, tessera_read_progress_fn progress, void* progress_data,
                               int64_t* out_bytes_read, tessera_error** out_error) noexcept {
  if (out_bytes_read != nullptr) *out_bytes_read = 0;
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(plan);
    TESSERA_CAPI_REQUIRE_ARRAY(buffers, num_buffers);
    TESSERA_CAPI_REQUIRE_ARRAY(sizes, num_buffers);
    std::vector<tessera::checkpoint::Destination> destinations(num_buffers);
    for (size_t i = 0; i < num_buffers; ++i) destinations[i] = {buffers[i], sizes[i]};
    uint64_t bytes_read = 0;
    absl::Status status = tessera::checkpoint::LoadIntoBuffers(plan->impl, destinations, plan->load,
                                                               Progress(progress, progress_data), &bytes_read);
    return ReturnBytes(std::move(status), bytes_read, out_bytes_read);
  });
}

bool tessera_read_plan_stream(const tessera_read_plan* plan, tessera_read_piece_fn piece_fn, void* piece_data,
                              tessera_read_progress_fn progress, void* progress_data, int64_t* out_bytes_read,
                              tessera_error** out_error) noexcept {
  if (out_bytes_read != nullptr) *out_bytes_read = 0;
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(plan);
    TESSERA_RETURN_IF_ERROR(
        tessera::capi::CheckNotNull(reinterpret_cast<const void*>(piece_fn), "piece_fn"));
    const tessera::checkpoint::PieceCallback deliver = [piece_fn, piece_data](size_t piece, uint64_t offset,
                                                                              const void* bytes, uint64_t size) {
      return piece_fn(piece, static_cast<int64_t>(offset), bytes, static_cast<size_t>(size), piece_data);
    };
    uint64_t bytes_read = 0;
    absl::Status status = tessera::checkpoint::LoadWithCallback(plan->impl, deliver, plan->load,
                                                                Progress(progress, progress_data), &bytes_read);
    return ReturnBytes(std::move(status), bytes_read, out_bytes_read);
  });
}
