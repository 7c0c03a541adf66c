#include "core/checkpoint/gguf_split.h"

#include <cstdint>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "core/checkpoint/gguf.h"

namespace tessera::checkpoint {
namespace {

const MetadataEntry* Find(const Checkpoint& checkpoint, absl::string_view key) {
  for (const MetadataEntry& entry : checkpoint.metadata) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

// The integer value of `key`, nullopt when absent.
absl::StatusOr<std::optional<int64_t>> IntegerKey(const Checkpoint& checkpoint, absl::string_view key) {
  const MetadataEntry* entry = Find(checkpoint, key);
  if (entry == nullptr) return std::optional<int64_t>();
  int64_t value;
  if (!absl::SimpleAtoi(entry->value, &value)) {
    return absl::InvalidArgumentError(absl::StrCat(checkpoint.files[0].path, ": ", key, " is \"", entry->value,
                                                   "\"; expected an integer"));
  }
  return std::optional<int64_t>(value);
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
  absl::StatusOr<Checkpoint> first = ReadGgufFile(path);
  if (!first.ok()) return first.status();
  absl::StatusOr<std::optional<int64_t>> count = IntegerKey(*first, "split.count");
  if (!count.ok()) return count.status();
  if (!count->has_value() || **count == 1) return first;
  auto refuse = [](absl::string_view file, absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": ", what));
  };
  const int64_t n = **count;
  if (n < 1 || n > 99999) return refuse(path, absl::StrCat("split.count is ", n, "; expected 1 to 99999"));
  absl::StatusOr<std::optional<int64_t>> number = IntegerKey(*first, "split.no");
  if (!number.ok()) return number.status();
  if (!number->has_value() || **number != 0) {
    return refuse(path, absl::StrCat("split.no is ", number->has_value() ? absl::StrCat(**number) : "missing",
                                     "; give the first split (split.no 0) of the ", n));
  }
  std::optional<GgufSplitName> name = ParseGgufSplitName(path);
  if (!name || name->number != 1 || name->count != n) {
    return refuse(path, absl::StrFormat("the first of %d splits must be named NAME-00001-of-%05d.gguf", n, n));
  }
  Checkpoint checkpoint = *std::move(first);
  absl::flat_hash_set<std::string> names;
  for (const Tensor& tensor : checkpoint.tensors) names.insert(tensor.name);
  for (int64_t k = 1; k < n; ++k) {
    const std::string sibling = absl::StrFormat("%s-%05d-of-%05d.gguf", name->stem, k + 1, n);
    absl::StatusOr<Checkpoint> part = ReadGgufFile(sibling);
    if (!part.ok()) return part.status();
    for (const auto& [key, want] : {std::pair<absl::string_view, int64_t>{"split.no", k}, {"split.count", n}}) {
      absl::StatusOr<std::optional<int64_t>> got = IntegerKey(*part, key);
      if (!got.ok()) return got.status();
      if (!got->has_value() || **got != want) {
        return refuse(sibling, absl::StrCat(key, " is ", got->has_value() ? absl::StrCat(**got) : "missing",
                                            "; expected ", want, " (split ", k + 1, " of ", n, ")"));
      }
    }
    for (Tensor& tensor : part->tensors) {
      if (!names.insert(tensor.name).second) {
        return refuse(sibling, absl::StrCat("tensor \"", tensor.name, "\" is also in an earlier split"));
      }
      tensor.file_index = static_cast<size_t>(k);
      checkpoint.tensors.push_back(std::move(tensor));
    }
    checkpoint.files.push_back(part->files[0]);
  }
  absl::StatusOr<std::optional<int64_t>> total = IntegerKey(checkpoint, "split.tensors.count");
  if (!total.ok()) return total.status();
  if (total->has_value() && **total != static_cast<int64_t>(checkpoint.tensors.size())) {
    return refuse(path, absl::StrCat("split.tensors.count is ", **total, " but the ", n, " splits hold ",
                                     checkpoint.tensors.size(), " tensors"));
  }
  return checkpoint;
}

}  // namespace tessera::checkpoint
