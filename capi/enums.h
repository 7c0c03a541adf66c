// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The C enums' accepted values, in order, for argument checks and messages,
// and the compile-time proof that each C enum has the core enum's numbers
// (the glue converts between them with static_cast). Private to capi/.
#ifndef TESSERA_CAPI_ENUMS_H_
#define TESSERA_CAPI_ENUMS_H_

#include "core/dataset_plan.h"
#include "core/device.h"
#include "core/distribution.h"
#include "core/layout.h"
#include "core/layout_map.h"
#include "core/log.h"
#include "core/shard.h"
#include "tessera/tessera.h"

namespace tessera::capi {

inline constexpr const char* kPlatformNames[] = {
    "TESSERA_PLATFORM_CPU", "TESSERA_PLATFORM_GPU", "TESSERA_PLATFORM_TPU"};
static_assert(TESSERA_PLATFORM_CPU == static_cast<int>(Platform::kCpu));
static_assert(TESSERA_PLATFORM_GPU == static_cast<int>(Platform::kGpu));
static_assert(TESSERA_PLATFORM_TPU == static_cast<int>(Platform::kTpu));

inline constexpr const char* kShapeCheckNames[] = {"TESSERA_SHAPE_CHECK_STRICT",
                                                   "TESSERA_SHAPE_CHECK_CHUNK"};
static_assert(TESSERA_SHAPE_CHECK_STRICT == static_cast<int>(ShapeCheck::kStrict));
static_assert(TESSERA_SHAPE_CHECK_CHUNK == static_cast<int>(ShapeCheck::kChunk));

inline constexpr const char* kKeyMatchNames[] = {"TESSERA_KEY_MATCH_SEARCH",
                                                 "TESSERA_KEY_MATCH_FULL"};
static_assert(TESSERA_KEY_MATCH_SEARCH == static_cast<int>(KeyMatch::kSearch));
static_assert(TESSERA_KEY_MATCH_FULL == static_cast<int>(KeyMatch::kFullMatch));

inline constexpr const char* kLogLevelNames[] = {"TESSERA_LOG_DEBUG", "TESSERA_LOG_INFO",
                                                 "TESSERA_LOG_WARNING", "TESSERA_LOG_ERROR"};
static_assert(TESSERA_LOG_DEBUG == static_cast<int>(LogLevel::kDebug));
static_assert(TESSERA_LOG_INFO == static_cast<int>(LogLevel::kInfo));
static_assert(TESSERA_LOG_WARNING == static_cast<int>(LogLevel::kWarning));
static_assert(TESSERA_LOG_ERROR == static_cast<int>(LogLevel::kError));

inline constexpr const char* kDatasetModeNames[] = {"TESSERA_DATASET_MODE_CURRENT",
                                                    "TESSERA_DATASET_MODE_KERAS_3_0"};
static_assert(TESSERA_DATASET_MODE_CURRENT == static_cast<int>(DatasetMode::kCurrent));
static_assert(TESSERA_DATASET_MODE_KERAS_3_0 == static_cast<int>(DatasetMode::kKeras30));

static_assert(TESSERA_DISTRIBUTION_DATA_PARALLEL ==
              static_cast<int>(DistributionKind::kDataParallel));
static_assert(TESSERA_DISTRIBUTION_MODEL_PARALLEL ==
              static_cast<int>(DistributionKind::kModelParallel));

static_assert(TESSERA_DATASET_PLAN_PASSTHROUGH ==
              static_cast<int>(DatasetPlan::Kind::kPassthrough));
static_assert(TESSERA_DATASET_PLAN_REPLICATE == static_cast<int>(DatasetPlan::Kind::kReplicate));
static_assert(TESSERA_DATASET_PLAN_SHARD == static_cast<int>(DatasetPlan::Kind::kShard));

inline constexpr const char* kShardModeNames[] = {"TESSERA_SHARD_MODE_STRICT",
                                                  "TESSERA_SHARD_MODE_CHUNK_FLAT",
                                                  "TESSERA_SHARD_MODE_CHUNK_NESTED"};
static_assert(TESSERA_SHARD_MODE_STRICT == static_cast<int>(ShardMode::kStrict));
static_assert(TESSERA_SHARD_MODE_CHUNK_FLAT == static_cast<int>(ShardMode::kChunkFlat));
static_assert(TESSERA_SHARD_MODE_CHUNK_NESTED == static_cast<int>(ShardMode::kChunkNested));

}  // namespace tessera::capi

#endif  // TESSERA_CAPI_ENUMS_H_
