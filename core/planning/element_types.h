// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The element types a plan may cast a checkpoint to (`--dtype bf16`): the
// short names people type, resolved to safetensors' spelling so a planned
// type and a stored one compare and print alike.
#ifndef TESSERA_CORE_PLANNING_ELEMENT_TYPES_H_
#define TESSERA_CORE_PLANNING_ELEMENT_TYPES_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/checkpoint/checkpoint.h"

namespace tessera::planning {

// `name` case-insensitively: the short names f64, f32, f16, bf16, f8
// (F8_E4M3), int8, uint8 and their long forms (float32, bfloat16, ...), or
// any safetensors dtype name ("F8_E5M2", "F4"). INVALID_ARGUMENT naming the
// argument and the value, listing the short names.
absl::StatusOr<checkpoint::ElementType> PlannedElementType(absl::string_view name,
                                                           absl::string_view argument);

// F16 or BF16 (either format's spelling): the weights training keeps an f32
// master copy of.
bool IsSixteenBitFloat(const checkpoint::ElementType& type);

// Bytes of `elements` consecutive innermost elements of `type`, rounding a
// partial block up (a flagged shard that cuts a block still needs all of it).
// Callers keep `elements` and the result within int64 (see memory_plan.cc).
int64_t InnermostBytes(const checkpoint::ElementType& type, int64_t elements);

}  // namespace tessera::planning

#endif  // TESSERA_CORE_PLANNING_ELEMENT_TYPES_H_
