// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Interleave sharding: which items or batches one shard of a dataset reads,
// as current Keras shards arrays, PyDatasets and samplers (keras.md §3.1).
// The tf.data path splits every global batch instead (dataset_plan.h); these
// paths keep the user's batch size per process and hand out whole batches or
// samples round-robin.
//
// Batch level (ArrayDataAdapter, PyDatasetAdapter, DistributedBatchSampler):
// of nb batches, shard i reads batches i, i+S, i+2S, ... below nb, or below
// (nb / S) * S with drop_last (DistributedBatchSampler's option; the adapters
// never drop). Sample level (DistributedSampler(num_replicas=S, rank=i),
// as Keras wraps a map-style torch dataset): every shard reads ceil(N / S)
// samples, the index list padded by repeating it from the start; with
// drop_last every shard reads floor(N / S) and the tail is cut. Shuffled, the
// index list is torch's seeded permutation (torch_random.h) instead. Keras's
// iterable-dataset filter (i % S == id) is the batch level with batches of
// one sample.
#ifndef TESSERA_CORE_INTERLEAVE_H_
#define TESSERA_CORE_INTERLEAVE_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tessera {

// Keras's DistributedBatchSampler checks, with its messages (INVALID_ARGUMENT),
// for the batch level:
// "num_data_shards must be >= 1. Received: 0" and
// "data_shard_id must be in [0, 2]. Received: 3".
absl::Status CheckInterleaveShard(int64_t num_shards, int64_t shard_index);

// ceil(num_items / batch_size): the adapters' batch count, the last one
// partial. INVALID_ARGUMENT for a negative count or a batch size below 1.
absl::StatusOr<int64_t> NumInterleaveBatches(int64_t num_items, int64_t batch_size);

// How many entries the functions below return, computed without building
// them (a caller may ask for the count of a huge dataset first). Same errors.
absl::StatusOr<int64_t> NumInterleavedBatches(int64_t num_batches, int64_t num_shards,
                                              int64_t shard_index, bool drop_last);
absl::StatusOr<int64_t> NumInterleavedBatchItems(int64_t num_items, int64_t batch_size,
                                                 int64_t num_shards, int64_t shard_index,
                                                 bool drop_last);
absl::StatusOr<int64_t> NumInterleavedSamples(int64_t num_items, int64_t num_shards,
                                              int64_t shard_index, bool drop_last);

// The global batch positions shard `shard_index` of `num_shards` reads, in
// order, out of `num_batches`.
absl::StatusOr<std::vector<int64_t>> InterleavedBatches(int64_t num_batches, int64_t num_shards,
                                                        int64_t shard_index, bool drop_last);

// The item indices shard `shard_index` reads when `num_items` items come in
// batches of `batch_size` and whole batches are interleaved: the items of
// InterleavedBatches in order.
absl::StatusOr<std::vector<int64_t>> InterleavedBatchItems(int64_t num_items, int64_t batch_size,
                                                           int64_t num_shards, int64_t shard_index,
                                                           bool drop_last);

// The sample indices DistributedSampler gives rank `shard_index` of
// `num_shards` over `num_items` samples, unshuffled. A padded list may repeat
// an index (and, with fewer items than shards, repeat it several times).
// The shard errors are DistributedSampler's, not Keras's (Keras passes its
// shard to torch unchecked): INVALID_ARGUMENT "Invalid rank 3, rank should be
// in the interval [0, 2]" for a rank outside [0, num_shards), which is every
// rank when num_shards < 1 ("... [0, -1]"; torch does not check the count).
absl::StatusOr<std::vector<int64_t>> InterleavedSamples(int64_t num_items, int64_t num_shards,
                                                        int64_t shard_index, bool drop_last);

// The same with shuffle=True, seed=`seed`, after set_epoch(`epoch`): the
// positions InterleavedSamples reads, taken from
// torch.randperm(num_items) seeded with seed + epoch. The sum wraps modulo
// 2^64, which is torch's own reading of a negative Python sum (its two's
// complement); torch refuses a Python sum of 2^64 or more ("Overflow when
// unpacking long long"), which a uint64_t cannot tell from a negative one.
// Every rank of one seed and epoch reads from one permutation, so together
// they read each sample (once, before padding). Same errors, and the count
// is NumInterleavedSamples.
absl::StatusOr<std::vector<int64_t>> InterleavedShuffledSamples(int64_t num_items, int64_t num_shards,
                                                                int64_t shard_index, bool drop_last,
                                                                uint64_t seed, uint64_t epoch);

}  // namespace tessera

#endif  // TESSERA_CORE_INTERLEAVE_H_
