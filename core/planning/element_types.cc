// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/planning/element_types.h"

#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "core/checkpoint/safetensors.h"

namespace tessera::planning {
namespace {

// Short and long spellings -> safetensors'. f8 is E4M3, the format inference
// stacks serve FP8 weights in.
constexpr std::pair<const char*, const char*> kAliases[] = {
    {"f64", "F64"},      {"float64", "F64"},   {"f32", "F32"},      {"float32", "F32"},
    {"f16", "F16"},      {"float16", "F16"},   {"bf16", "BF16"},    {"bfloat16", "BF16"},
    {"f8", "F8_E4M3"},   {"fp8", "F8_E4M3"},   {"float8", "F8_E4M3"}, {"int8", "I8"},
    {"uint8", "U8"},
};

}  // namespace

absl::StatusOr<checkpoint::ElementType> PlannedElementType(absl::string_view name,
                                                           absl::string_view argument) {
  const std::string lower = absl::AsciiStrToLower(name);
  for (const auto& [alias, spelling] : kAliases) {
    if (lower == alias) return checkpoint::SafetensorsElementType(spelling);
  }
  absl::StatusOr<checkpoint::ElementType> type =
      checkpoint::SafetensorsElementType(absl::AsciiStrToUpper(name));
  if (type.ok()) return type;
  return absl::InvalidArgumentError(
      absl::StrCat("Argument '", argument, "' is '", name,
                   "'; expected an element type: f64, f32, f16, bf16, f8, int8, uint8 or a "
                   "safetensors dtype name such as F8_E5M2"));
}

bool IsSixteenBitFloat(const checkpoint::ElementType& type) {
  return type.name == "F16" || type.name == "BF16";
}

int64_t InnermostBytes(const checkpoint::ElementType& type, int64_t elements) {
  const int64_t blocks = elements / type.block_elements + (elements % type.block_elements != 0);
  return blocks * type.block_bytes;
}

}  // namespace tessera::planning
