// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/gguf_split.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "core/checkpoint/gguf.h"

namespace tessera::checkpoint {
namespace {

absl::Status FileError(absl::string_view file, uint64_t offset, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(file, ": byte ", offset, ": ", what));
}

// An integer key of a split's header: its value, and the byte to name in an
// error about it (the value's, or where the key/values start when absent).
struct IntegerKey {
  std::optional<int64_t> value;
  uint64_t offset;

  std::string Text() const { return value ? absl::StrCat(*value) : "missing"; }
};

absl::StatusOr<IntegerKey> FindInteger(const GgufHeader& header, absl::string_view key) {
  const Checkpoint& checkpoint = header.checkpoint;
  for (size_t i = 0; i < checkpoint.metadata.size(); ++i) {
    const MetadataEntry& entry = checkpoint.metadata[i];
    if (entry.key != key) continue;
    int64_t value;
    if (!absl::SimpleAtoi(entry.value, &value)) {
      return FileError(checkpoint.files[0].path, header.value_offsets[i],
                       absl::StrCat(key, " is \"", entry.value, "\"; expected an integer"));
    }
    return IntegerKey{value, header.value_offsets[i]};
  }
  return IntegerKey{std::nullopt, header.metadata_offset};
}

}  // namespace

std::optional<GgufSplitName> ParseGgufSplitName(absl::string_view path) {
  constexpr absl::string_view kSuffix = ".gguf";
  if (!absl::ConsumeSuffix(&path, kSuffix)) return std::nullopt;
  const size_t of = path.rfind("-of-");
  if (of == absl::string_view::npos) return std::nullopt;
  const size_t dash = path.substr(0, of).rfind('-');
  if (dash == absl::string_view::npos) return std::nullopt;
  absl::string_view number = path.substr(dash + 1, of - dash - 1);
  absl::string_view count = path.substr(of + 4);
  GgufSplitName name{std::string(path.substr(0, dash)), 0, 0};
  if (number.size() != 5 || count.size() != 5 || !absl::SimpleAtoi(number, &name.number) ||
      !absl::SimpleAtoi(count, &name.count)) {
    return std::nullopt;
  }
  return name;
}

absl::StatusOr<Checkpoint> ReadGgufCheckpoint(const std::string& path) {
  absl::StatusOr<GgufHeader> first = ReadGgufHeader(path);
  if (!first.ok()) return first.status();
  absl::StatusOr<IntegerKey> count = FindInteger(*first, "split.count");
  if (!count.ok()) return count.status();
  if (!count->value || *count->value == 1) return std::move(first->checkpoint);
  const int64_t n = *count->value;
  if (n < 1 || n > 99999) {
    return FileError(path, count->offset, absl::StrCat("split.count is ", n, "; expected 1 to 99999"));
  }
  absl::StatusOr<IntegerKey> number = FindInteger(*first, "split.no");
  if (!number.ok()) return number.status();
  if (number->value != 0) {
    return FileError(path, number->offset,
                     absl::StrCat("split.no is ", number->Text(), "; give the first split (split.no 0) of the ", n));
  }
  std::optional<GgufSplitName> name = ParseGgufSplitName(path);
  if (!name || name->number != 1 || name->count != n) {
    return FileError(path, count->offset,
                     absl::StrFormat("the first of %d splits must be named NAME-00001-of-%05d.gguf", n, n));
  }
  absl::StatusOr<IntegerKey> total = FindInteger(*first, "split.tensors.count");
  if (!total.ok()) return total.status();
  Checkpoint checkpoint = std::move(first->checkpoint);
  absl::flat_hash_map<std::string, size_t> file_of_tensor;
  for (const Tensor& tensor : checkpoint.tensors) file_of_tensor.emplace(tensor.name, 0);
  for (int64_t k = 1; k < n; ++k) {
    const std::string sibling = absl::StrFormat("%s-%05d-of-%05d.gguf", name->stem, k + 1, n);
    absl::StatusOr<GgufHeader> part = ReadGgufHeader(sibling);
    if (!part.ok()) return part.status();
    for (const auto& [key, want] : {std::pair<absl::string_view, int64_t>{"split.no", k}, {"split.count", n}}) {
      absl::StatusOr<IntegerKey> got = FindInteger(*part, key);
      if (!got.ok()) return got.status();
      if (got->value != want) {
        return FileError(sibling, got->offset,
                         absl::StrCat(key, " is ", got->Text(), "; expected ", want, " (split ", k + 1, " of ", n, ")"));
      }
    }
    std::vector<Tensor>& tensors = part->checkpoint.tensors;
    for (size_t i = 0; i < tensors.size(); ++i) {
      auto [it, added] = file_of_tensor.emplace(tensors[i].name, static_cast<size_t>(k));
      if (!added) {
        return FileError(sibling, part->tensor_offsets[i],
                         absl::StrCat("tensor \"", tensors[i].name, "\" is also in the earlier split ",
                                      checkpoint.files[it->second].path));
      }
      tensors[i].file_index = static_cast<size_t>(k);
      checkpoint.tensors.push_back(std::move(tensors[i]));
    }
    checkpoint.files.push_back(part->checkpoint.files[0]);
  }
  if (total->value && *total->value != static_cast<int64_t>(checkpoint.tensors.size())) {
    return FileError(path, total->offset,
                     absl::StrCat("split.tensors.count is ", *total->value, " but the ", n, " splits hold ",
                                  checkpoint.tensors.size(), " tensors"));
  }
  return checkpoint;
}

}  // namespace tessera::checkpoint
