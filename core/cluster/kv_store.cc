// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/kv_store.h"

#include <limits>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "core/cluster/wire_text.h"

namespace tessera::cluster {

absl::StatusOr<std::string> KvStore::NormalizeKey(absl::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i] == '/') {
      if (!out.empty() && out.back() != '/') out.push_back('/');
    } else {
      out.push_back(key[i]);
    }
  }
  if (!out.empty() && out.back() == '/') out.pop_back();
  if (out.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("key '", key, "' is empty after normalization; expected a path like 'a/b'"));
  }
  return out;
}

namespace {

// kReservedKvPrefix as a normalized key: "_tessera".
constexpr absl::string_view kReservedRoot = "_tessera";

absl::Status ReservedError(absl::string_view what, absl::string_view key) {
  return absl::PermissionDeniedError(absl::StrCat(
      what, " '", key, "' is in the reserved key space '", kReservedKvPrefix,
      "': keys there belong to the library (topology, internal state); use another key"));
}

}  // namespace

bool KvStore::IsReserved(absl::string_view normalized_key) {
  return absl::StartsWith(normalized_key, kReservedRoot) &&
         (normalized_key.size() == kReservedRoot.size() ||
          normalized_key[kReservedRoot.size()] == '/');
}

absl::Status KvStore::CheckValueSize(absl::string_view key, size_t size, int64_t max_value_bytes) {
  if (static_cast<int64_t>(size) <= max_value_bytes) return absl::OkStatus();
  return absl::ResourceExhaustedError(
      absl::StrCat("value of key '", key, "' has ", size, " bytes; the limit is ", max_value_bytes));
}

absl::Status KvStore::NotFound(absl::string_view key) {
  return absl::NotFoundError(absl::StrCat("key '", key, "' is not in the key-value store"));
}

absl::StatusOr<std::string> KvStore::NormalizeUserKey(absl::string_view key) {
  if (absl::Status s = CheckWireId("key", key); !s.ok()) return s;
  absl::StatusOr<std::string> normalized = NormalizeKey(key);
  if (normalized.ok() && IsReserved(*normalized)) return ReservedError("key", key);
  return normalized;
}

absl::Status KvStore::CheckLimits(const std::string& key, size_t new_value_size,
                                  size_t old_size) const {
  if (absl::Status s = CheckValueSize(key, new_value_size, max_value_bytes_); !s.ok()) return s;
  const int64_t after = total_bytes_ - static_cast<int64_t>(old_size) +
                        static_cast<int64_t>(key.size() + new_value_size);
  if (after > max_store_bytes_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "storing key '", key, "' would grow the key-value store to ", after,
        " bytes; the limit is ", max_store_bytes_, " (", total_bytes_, " in use)"));
  }
  return absl::OkStatus();
}

void KvStore::Store(const std::string& key, std::shared_ptr<const std::string> value) {
  auto [it, inserted] = entries_.try_emplace(key);
  if (inserted) {
    total_bytes_ += static_cast<int64_t>(key.size());
  } else {
    total_bytes_ -= static_cast<int64_t>(it->second.value().size());
  }
  total_bytes_ += static_cast<int64_t>(value->size());
  it->second.bytes = std::move(value);
  it->second.version = next_version_++;
}

absl::Status KvStore::Set(const std::string& key, std::string value, bool overwrite) {
  return Set(key, std::make_shared<const std::string>(std::move(value)), overwrite);
}

absl::Status KvStore::Set(const std::string& key, std::shared_ptr<const std::string> value,
                          bool overwrite) {
  auto it = entries_.find(key);
  if (it != entries_.end() && !overwrite) {
    return absl::AlreadyExistsError(
        absl::StrCat("key '", key, "' already exists (set allow_overwrite to replace it)"));
  }
  const size_t old_size = it == entries_.end() ? 0 : key.size() + it->second.value().size();
  if (absl::Status s = CheckLimits(key, value->size(), old_size); !s.ok()) return s;
  Store(key, std::move(value));
  return absl::OkStatus();
}

const KvStore::Entry* KvStore::Find(const std::string& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

KvStore::Page KvStore::Collect(const std::string& dir, bool skip_reserved,
                              const std::string& start_after, int64_t max_bytes) const {
  Page page;
  int64_t used = 0;
  auto it = start_after.empty() || start_after < dir ? entries_.lower_bound(dir)
                                                     : entries_.upper_bound(start_after);
  for (; it != entries_.end() && it->first.compare(0, dir.size(), dir) == 0; ++it) {
    if (skip_reserved && IsReserved(it->first)) continue;
    const int64_t size = static_cast<int64_t>(it->first.size() + it->second.value().size());
    if (max_bytes > 0 && !page.entries.empty() && used + size > max_bytes) {
      page.truncated = true;
      break;
    }
    page.entries.emplace_back(it->first, it->second);
    used += size;
  }
  return page;
}

std::vector<std::pair<std::string, KvStore::Entry>> KvStore::List(
    const std::string& prefix) const {
  auto normalized = NormalizeKey(prefix);  // "" or "/": everything
  return Collect(normalized.ok() ? *normalized + "/" : "", false, "", 0).entries;
}

absl::StatusOr<std::vector<std::pair<std::string, KvStore::Entry>>> KvStore::ListUser(
    absl::string_view prefix) const {
  absl::StatusOr<Page> page = ListUserPage(prefix, "", 0);
  if (!page.ok()) return page.status();
  return std::move(page->entries);
}

absl::StatusOr<KvStore::Page> KvStore::ListUserPage(absl::string_view prefix,
                                                    const std::string& start_after,
                                                    int64_t max_bytes) const {
  if (absl::Status s = CheckWireId("prefix", prefix); !s.ok()) return s;
  absl::StatusOr<std::string> normalized = NormalizeKey(prefix);
  if (normalized.ok() && IsReserved(*normalized)) return ReservedError("prefix", prefix);
  // "" or "/": everything but the reserved keys
  return Collect(normalized.ok() ? *normalized + "/" : "", !normalized.ok(), start_after,
                 max_bytes);
}

int64_t KvStore::Delete(const std::string& key, bool recursive) {
  int64_t removed = 0;
  auto erase = [&](std::map<std::string, Entry>::iterator it) {
    total_bytes_ -= static_cast<int64_t>(it->first.size() + it->second.value().size());
    ++removed;
    return entries_.erase(it);
  };
  if (auto it = entries_.find(key); it != entries_.end()) erase(it);
  if (recursive) {
    const std::string dir = key + "/";
    for (auto it = entries_.lower_bound(dir);
         it != entries_.end() && it->first.compare(0, dir.size(), dir) == 0;) {
      it = erase(it);
    }
  }
  return removed;
}

absl::StatusOr<int64_t> KvStore::Increment(const std::string& key, int64_t delta) {
  int64_t value = 0;
  size_t old_size = 0;
  if (const Entry* entry = Find(key)) {
    if (!absl::SimpleAtoi(entry->value(), &value)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "key '", key, "' holds ", entry->value().size(),
          " bytes that are not a decimal integer; increment needs one"));
    }
    old_size = key.size() + entry->value().size();
  }
  if ((delta > 0 && value > std::numeric_limits<int64_t>::max() - delta) ||
      (delta < 0 && value < std::numeric_limits<int64_t>::min() - delta)) {
    return absl::OutOfRangeError(
        absl::StrCat("incrementing key '", key, "' (", value, ") by ", delta, " overflows int64"));
  }
  value += delta;
  std::string text = absl::StrCat(value);
  if (absl::Status s = CheckLimits(key, text.size(), old_size); !s.ok()) return s;
  Store(key, std::make_shared<const std::string>(std::move(text)));
  return value;
}

absl::StatusOr<KvStore::CasResult> KvStore::CompareAndSwap(
    const std::string& key, const std::optional<std::string>& expected, std::string desired) {
  CasResult result;
  const Entry* entry = Find(key);
  const bool matches = expected.has_value() ? (entry != nullptr && entry->value() == *expected)
                                            : entry == nullptr;
  if (!matches) {
    if (entry != nullptr) result.current = entry->value();
    return result;
  }
  const size_t old_size = entry == nullptr ? 0 : key.size() + entry->value().size();
  if (absl::Status s = CheckLimits(key, desired.size(), old_size); !s.ok()) return s;
  result.current = desired;
  Store(key, std::make_shared<const std::string>(std::move(desired)));
  result.swapped = true;
  return result;
}

}  // namespace tessera::cluster
