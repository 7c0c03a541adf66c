// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// tessera/reshard.h: the resharding plan.
#include <utility>

#include "capi/guard.h"
#include "capi/handles.h"
#include "capi/sharding_handle.h"
#include "core/reshard_plan.h"

// The factored plan: counts and totals come without listing transfers, and
// transfer i is computed when asked (O(log devices + rank)).
struct tessera_reshard_plan {
  tessera::ReshardIntervals impl;
};

using tessera::capi::CheckIndex;
using tessera::capi::Guard;

namespace {

constexpr const char* kLocalityNames[] = {"TESSERA_TRANSFER_SAME_DEVICE",
                                          "TESSERA_TRANSFER_SAME_PROCESS",
                                          "TESSERA_TRANSFER_CROSS_PROCESS"};
static_assert(TESSERA_TRANSFER_SAME_DEVICE ==
              static_cast<int>(tessera::TransferLocality::kSameDevice));
static_assert(TESSERA_TRANSFER_SAME_PROCESS ==
              static_cast<int>(tessera::TransferLocality::kSameProcess));
static_assert(TESSERA_TRANSFER_CROSS_PROCESS ==
              static_cast<int>(tessera::TransferLocality::kCrossProcess));

absl::Status CheckTransfer(const tessera_reshard_plan* plan, size_t index) {
  return CheckIndex(index, plan->impl.num_pieces(), "index", "the number of transfers");
}

absl::StatusOr<tessera::ReshardPiece> TransferAt(const tessera_reshard_plan* plan, size_t index) {
  TESSERA_RETURN_IF_ERROR(CheckTransfer(plan, index));
  tessera::ReshardPiece piece;
  TESSERA_RETURN_IF_ERROR(plan->impl.Piece(index, piece));
  return piece;
}

}  // namespace

tessera_reshard_plan* tessera_reshard_plan_create(const tessera_sharding* source,
                                                  const tessera_sharding* destination,
                                                  size_t element_size,
                                                  tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<tessera_reshard_plan*> {
    TESSERA_CAPI_REQUIRE(source);
    TESSERA_CAPI_REQUIRE(destination);
    TESSERA_ASSIGN_OR_RETURN(
        tessera::ReshardIntervals plan,
        tessera::ReshardIntervals::Create(source->impl, destination->impl, element_size));
    return new tessera_reshard_plan{std::move(plan)};
  });
}

void tessera_reshard_plan_destroy(tessera_reshard_plan* plan) noexcept { delete plan; }

size_t tessera_reshard_plan_num_transfers(const tessera_reshard_plan* plan,
                                          tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.num_pieces());
}

size_t tessera_reshard_plan_num_dims(const tessera_reshard_plan* plan,
                                     tessera_error** out_error) noexcept {
  return TESSERA_CAPI_GET(plan, plan->impl.rank());
}

bool tessera_reshard_plan_transfer(const tessera_reshard_plan* plan, size_t index,
                                   size_t* out_source, size_t* out_destination,
                                   int64_t* out_bytes, tessera_transfer_locality_t* out_locality,
                                   tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(plan);
    TESSERA_CAPI_REQUIRE(out_source);
    TESSERA_CAPI_REQUIRE(out_destination);
    TESSERA_CAPI_REQUIRE(out_bytes);
    TESSERA_CAPI_REQUIRE(out_locality);
    TESSERA_ASSIGN_OR_RETURN(const tessera::ReshardPiece transfer, TransferAt(plan, index));
    *out_source = static_cast<size_t>(transfer.source);
    *out_destination = static_cast<size_t>(transfer.destination);
    *out_bytes = transfer.bytes;
    *out_locality = static_cast<tessera_transfer_locality_t>(transfer.locality);
    return absl::OkStatus();
  });
}

size_t tessera_reshard_plan_transfer_ranges(const tessera_reshard_plan* plan, size_t index,
                                            int64_t* out, size_t capacity,
                                            tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::StatusOr<size_t> {
    TESSERA_CAPI_REQUIRE(plan);
    TESSERA_CAPI_REQUIRE_ARRAY(out, capacity);
    TESSERA_ASSIGN_OR_RETURN(const tessera::ReshardPiece transfer, TransferAt(plan, index));
    return tessera::capi::CopyOut(out, capacity, tessera::capi::StartStopPairs(transfer.box));
  });
}

bool tessera_reshard_plan_total_bytes(const tessera_reshard_plan* plan,
                                      tessera_transfer_locality_t locality, int64_t* out,
                                      tessera_error** out_error) noexcept {
  return Guard(out_error, [&]() -> absl::Status {
    TESSERA_CAPI_REQUIRE(plan);
    TESSERA_CAPI_REQUIRE(out);
    TESSERA_ASSIGN_OR_RETURN(const tessera::TransferLocality which,
                             tessera::capi::ToCoreEnum<tessera::TransferLocality>(
                                 locality, kLocalityNames, "locality"));
    switch (which) {
      case tessera::TransferLocality::kSameDevice:
        *out = plan->impl.same_device_bytes();
        break;
      case tessera::TransferLocality::kSameProcess:
        *out = plan->impl.same_process_bytes();
        break;
      case tessera::TransferLocality::kCrossProcess:
        *out = plan->impl.cross_process_bytes();
        break;
    }
    return absl::OkStatus();
  });
}
