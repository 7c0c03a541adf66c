// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/experimental/keras_data.h: interleave sharding and a distribution's
// settings.
#include "tessera/experimental/keras_data.h"

#include <vector>

#include "capi/guard.h"
#include "capi/handles.h"
#include "core/distribution.h"
#include "core/interleave.h"

using tessera::capi::CopyOut;
using tessera::capi::Guard;
using tessera::capi::ToInt64;

namespace {

// The three size_t arguments every interleave call starts from, as the core's
// int64_t (OUT_OF_RANGE above INT64_MAX, naming the argument).
struct Shard {
  int64_t num_shards;
  int64_t shard_index;
};

absl::StatusOr<Shard> ToShard(size_t num_shards, size_t shard_index) {
  TESSERA_ASSIGN_OR_RETURN(const int64_t count, ToInt64(num_shards, "num_shards"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t index, ToInt64(shard_index, "shard_index"));
  return Shard{count, index};
}

// The output-array shape over a count the core computes without building the
// answer, so asking for the count of a huge dataset allocates nothing.
template <typename Count, typename Build>
absl::StatusOr<size_t> CountedOut(size_t* out, size_t capacity, Count&& count, Build&& build) {
  TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
  TESSERA_ASSIGN_OR_RETURN(const int64_t needed, count());
  return tessera::capi::FillOut(out, capacity, static_cast<size_t>(needed), [&](absl::Span<size_t> room) {
    TESSERA_ASSIGN_OR_RETURN(const std::vector<int64_t> answer, build());
    for (size_t i = 0; i < answer.size(); ++i) room[i] = static_cast<size_t>(answer[i]);
    return absl::OkStatus();
  });
}

// DistributedSampler's share, shuffled or not: one count (NumInterleavedSamples)
// and the samples `build(items, shard)` lists.
template <typename Build>
size_t SamplesOut(size_t num_items, size_t num_shards, size_t shard_index, bool drop_last, size_t* out,
                  size_t capacity, tessera_error** out_error, Build&& build) {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_ASSIGN_OR_RETURN(const Shard shard, ToShard(num_shards, shard_index));
    TESSERA_ASSIGN_OR_RETURN(const int64_t items, ToInt64(num_items, "num_items"));
    return CountedOut(
        out, capacity,
        [&] { return tessera::NumInterleavedSamples(items, shard.num_shards, shard.shard_index, drop_last); },
        [&] { return build(items, shard); });
  });
}

}  // namespace

size_t tessera_interleave_batches(size_t num_batches, size_t num_shards, size_t shard_index, bool drop_last,
                                  size_t* out, size_t capacity, tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_ASSIGN_OR_RETURN(const Shard shard, ToShard(num_shards, shard_index));
    TESSERA_ASSIGN_OR_RETURN(const int64_t batches, ToInt64(num_batches, "num_batches"));
    return CountedOut(
        out, capacity,
        [&] { return tessera::NumInterleavedBatches(batches, shard.num_shards, shard.shard_index, drop_last); },
        [&] { return tessera::InterleavedBatches(batches, shard.num_shards, shard.shard_index, drop_last); });
  });
}

size_t tessera_interleave_batch_items(size_t num_items, size_t batch_num_examples, size_t num_shards,
                                      size_t shard_index, bool drop_last, size_t* out, size_t capacity,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_ASSIGN_OR_RETURN(const Shard shard, ToShard(num_shards, shard_index));
    TESSERA_ASSIGN_OR_RETURN(const int64_t items, ToInt64(num_items, "num_items"));
    TESSERA_ASSIGN_OR_RETURN(const int64_t batch, ToInt64(batch_num_examples, "batch_num_examples"));
    if (batch == 0) {
      return absl::InvalidArgumentError("Argument 'batch_num_examples' is 0; expected at least 1");
    }
    return CountedOut(
        out, capacity,
        [&] {
          return tessera::NumInterleavedBatchItems(items, batch, shard.num_shards, shard.shard_index, drop_last);
        },
        [&] { return tessera::InterleavedBatchItems(items, batch, shard.num_shards, shard.shard_index, drop_last); });
  });
}

size_t tessera_interleave_samples(size_t num_items, size_t num_shards, size_t shard_index, bool drop_last,
                                  size_t* out, size_t capacity, tessera_error** out_error) noexcept {
  return SamplesOut(num_items, num_shards, shard_index, drop_last, out, capacity, out_error,
                    [&](int64_t items, const Shard& shard) {
                      return tessera::InterleavedSamples(items, shard.num_shards, shard.shard_index, drop_last);
                    });
}

size_t tessera_interleave_samples_shuffled(size_t num_items, size_t num_shards, size_t shard_index, bool drop_last,
                                           uint64_t seed, uint64_t epoch, size_t* out, size_t capacity,
                                           tessera_error** out_error) noexcept {
  return SamplesOut(num_items, num_shards, shard_index, drop_last, out, capacity, out_error,
                    [&](int64_t items, const Shard& shard) {
                      return tessera::InterleavedShuffledSamples(items, shard.num_shards, shard.shard_index,
                                                                 drop_last, seed, epoch);
                    });
}

size_t tessera_distribution_interleave_num_shards(const tessera_distribution* distribution,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->interleave_num_shards());
}

size_t tessera_distribution_interleave_shard_index(const tessera_distribution* distribution,
                                                   tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->interleave_shard_index());
}

size_t tessera_dataset_plan_interleave_num_shards(const tessera_dataset_plan* plan,
                                                  tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.interleave_num_shards);
}

size_t tessera_dataset_plan_interleave_shard_index(const tessera_dataset_plan* plan,
                                                   tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.interleave_shard_index);
}

tessera_dataset_plan* tessera_distribution_plan_dataset_for_process(const tessera_distribution* distribution,
                                                                    size_t global_batch_size, size_t process_index,
                                                                    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_dataset_plan*> {
    TESSERA_CAPI_REQUIRE(distribution);
    TESSERA_ASSIGN_OR_RETURN(const int64_t rows, tessera::capi::GlobalBatchRows(global_batch_size));
    TESSERA_ASSIGN_OR_RETURN(const int64_t process, ToInt64(process_index, "process_index"));
    TESSERA_ASSIGN_OR_RETURN(tessera::DatasetPlan plan, distribution->impl->PlanDatasetForProcess(rows, process));
    return new tessera_dataset_plan{std::move(plan)};
  });
}

bool tessera_distribution_auto_shard_dataset(const tessera_distribution* distribution,
                                             tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->options().auto_shard_dataset);
}

tessera_shape_check_t tessera_distribution_shape_check(const tessera_distribution* distribution,
                                                       tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution,
                          static_cast<tessera_shape_check_t>(distribution->impl->options().shape_check));
}

tessera_dataset_mode_t tessera_distribution_dataset_mode(const tessera_distribution* distribution,
                                                         tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution,
                          static_cast<tessera_dataset_mode_t>(distribution->impl->options().dataset_mode));
}

tessera_layout_map* tessera_distribution_layout_map(const tessera_distribution* distribution,
                                                    tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_layout_map*> {
    TESSERA_CAPI_REQUIRE(distribution);
    const tessera::LayoutMapPtr& map = distribution->impl->layout_map();
    if (map == nullptr) return static_cast<tessera_layout_map*>(nullptr);  // DataParallel: no error
    return new tessera_layout_map{*map};
  });
}

bool tessera_distribution_is_batch_parallel(const tessera_distribution* distribution,
                                            tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(distribution, distribution->impl->batch_parallel());
}

bool tessera_distribution_is_same(const tessera_distribution* a, const tessera_distribution* b,
                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<bool> {
    TESSERA_CAPI_REQUIRE(a);
    TESSERA_CAPI_REQUIRE(b);
    return a->impl == b->impl;
  });
}
