// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/interleave.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/torch_random.h"

namespace tessera {
namespace {

absl::Status CheckCount(int64_t value, const char* name) {
  if (value >= 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("Argument '", name, "' is ", value, "; expected at least 0"));
}

// DistributedSampler's only argument check, with its ValueError text: it has
// none for num_replicas, so a count below 1 fails here as every rank does
// ("Invalid rank 0, rank should be in the interval [0, -1]").
absl::Status CheckSamplerRank(int64_t num_replicas, int64_t rank) {
  if (rank >= 0 && rank < num_replicas) return absl::OkStatus();
  // Python's num_replicas - 1, which int64_t cannot hold for INT64_MIN.
  const std::string last = num_replicas >= 0 ? absl::StrCat(num_replicas - 1)
                                             : absl::StrCat("-", static_cast<uint64_t>(-(num_replicas + 1)) + 2);
  return absl::InvalidArgumentError(
      absl::StrCat("Invalid rank ", rank, ", rank should be in the interval [0, ", last, "]"));
}

}  // namespace

absl::Status CheckInterleaveShard(int64_t num_shards, int64_t shard_index) {
  if (num_shards < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_data_shards must be >= 1. Received: ", num_shards));
  }
  if (shard_index < 0 || shard_index >= num_shards) {
    return absl::InvalidArgumentError(absl::StrCat("data_shard_id must be in [0, ", num_shards - 1,
                                                   "]. Received: ", shard_index));
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> NumInterleaveBatches(int64_t num_items, int64_t batch_size) {
  TESSERA_RETURN_IF_ERROR(CheckCount(num_items, "num_items"));
  if (batch_size < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument 'batch_size' is ", batch_size, "; expected at least 1"));
  }
  // No overflow: num_items + batch_size - 1 could overflow, this cannot.
  return num_items / batch_size + (num_items % batch_size != 0 ? 1 : 0);
}

absl::StatusOr<int64_t> NumInterleavedBatches(int64_t num_batches, int64_t num_shards,
                                              int64_t shard_index, bool drop_last) {
  TESSERA_RETURN_IF_ERROR(CheckInterleaveShard(num_shards, shard_index));
  TESSERA_RETURN_IF_ERROR(CheckCount(num_batches, "num_batches"));
  const int64_t limit = drop_last ? (num_batches / num_shards) * num_shards : num_batches;
  // Keras's len(): (limit - id + S - 1) // S, written so that it cannot overflow.
  if (shard_index >= limit) return 0;
  return (limit - shard_index - 1) / num_shards + 1;
}

absl::StatusOr<int64_t> NumInterleavedBatchItems(int64_t num_items, int64_t batch_size,
                                                 int64_t num_shards, int64_t shard_index,
                                                 bool drop_last) {
  TESSERA_RETURN_IF_ERROR(CheckInterleaveShard(num_shards, shard_index));
  TESSERA_ASSIGN_OR_RETURN(const int64_t num_batches, NumInterleaveBatches(num_items, batch_size));
  TESSERA_ASSIGN_OR_RETURN(const int64_t read,
                           NumInterleavedBatches(num_batches, num_shards, shard_index, drop_last));
  if (read == 0) return 0;
  const int64_t last = shard_index + (read - 1) * num_shards;
  // Every batch read is full except possibly the dataset's last one.
  return (read - 1) * batch_size + std::min(batch_size, num_items - last * batch_size);
}

absl::StatusOr<int64_t> NumInterleavedSamples(int64_t num_items, int64_t num_shards,
                                              int64_t shard_index, bool drop_last) {
  TESSERA_RETURN_IF_ERROR(CheckSamplerRank(num_shards, shard_index));
  TESSERA_RETURN_IF_ERROR(CheckCount(num_items, "num_items"));
  // DistributedSampler: num_samples = ceil(N / S), or floor(N / S) with drop_last.
  return drop_last ? num_items / num_shards
                   : num_items / num_shards + (num_items % num_shards != 0 ? 1 : 0);
}

absl::StatusOr<std::vector<int64_t>> InterleavedBatches(int64_t num_batches, int64_t num_shards,
                                                        int64_t shard_index, bool drop_last) {
  TESSERA_ASSIGN_OR_RETURN(const int64_t count,
                           NumInterleavedBatches(num_batches, num_shards, shard_index, drop_last));
  std::vector<int64_t> batches(count);
  for (int64_t k = 0; k < count; ++k) batches[k] = shard_index + k * num_shards;
  return batches;
}

absl::StatusOr<std::vector<int64_t>> InterleavedBatchItems(int64_t num_items, int64_t batch_size,
                                                           int64_t num_shards, int64_t shard_index,
                                                           bool drop_last) {
  TESSERA_ASSIGN_OR_RETURN(const int64_t count, NumInterleavedBatchItems(num_items, batch_size, num_shards,
                                                                         shard_index, drop_last));
  TESSERA_ASSIGN_OR_RETURN(const int64_t num_batches, NumInterleaveBatches(num_items, batch_size));
  TESSERA_ASSIGN_OR_RETURN(const std::vector<int64_t> batches,
                           InterleavedBatches(num_batches, num_shards, shard_index, drop_last));
  std::vector<int64_t> items;
  items.reserve(count);
  for (const int64_t b : batches) {
    const int64_t start = b * batch_size;
    const int64_t stop = std::min(num_items, start + std::min(batch_size, num_items - start));
    for (int64_t i = start; i < stop; ++i) items.push_back(i);
  }
  return items;
}

absl::StatusOr<std::vector<int64_t>> InterleavedSamples(int64_t num_items, int64_t num_shards,
                                                        int64_t shard_index, bool drop_last) {
  TESSERA_ASSIGN_OR_RETURN(const int64_t count,
                           NumInterleavedSamples(num_items, num_shards, shard_index, drop_last));
  // The padded list repeats range(N) from its start, so its position p holds
  // p % N. p < N + S - 1 < 2^64: unsigned arithmetic cannot overflow.
  std::vector<int64_t> samples(count);
  for (int64_t k = 0; k < count; ++k) {
    const uint64_t p = static_cast<uint64_t>(k) * static_cast<uint64_t>(num_shards) +
                       static_cast<uint64_t>(shard_index);
    samples[k] = static_cast<int64_t>(p % static_cast<uint64_t>(num_items));
  }
  return samples;
}

absl::StatusOr<std::vector<int64_t>> InterleavedShuffledSamples(int64_t num_items, int64_t num_shards,
                                                                int64_t shard_index, bool drop_last,
                                                                uint64_t seed, uint64_t epoch) {
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> samples,
                           InterleavedSamples(num_items, num_shards, shard_index, drop_last));
  TESSERA_ASSIGN_OR_RETURN(const std::vector<int64_t> order, TorchRandperm(num_items, seed + epoch));
  for (int64_t& sample : samples) sample = order[sample];
  return samples;
}

}  // namespace tessera
