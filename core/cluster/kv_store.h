// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator's key-value store: in memory, bounded, keys are slash paths.
//
// Pure data structure (no locking, no waiting): CoordinatorState serializes
// access and owns blocking gets. Semantics follow coordinator.proto's comments:
// insert-once unless overwrite, "/"-terminated prefix listing, recursive
// delete, integer increment and compare-and-swap.
#ifndef TESSERA_CORE_CLUSTER_KV_STORE_H_
#define TESSERA_CORE_CLUSTER_KV_STORE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessera::cluster {

// Keys under this prefix belong to the library itself (topology, internal
// bookkeeping). User calls (CoordinatorState's Kv* methods) can neither read,
// write, list nor delete them: every spelling ("_tessera/x", "//_tessera/x/", "/_tessera")
// normalizes into it, and the checks run on the normalized key.
inline constexpr char kReservedKvPrefix[] = "/_tessera/";

class KvStore {
 public:
  struct Entry {
    // Immutable and shared: a listing or get in flight holds a reference
    // instead of a copy, so serving the store never duplicates it (issue 15).
    std::shared_ptr<const std::string> bytes;
    int64_t version = 0;  // store-wide sequence number of the last write

    const std::string& value() const { return *bytes; }
  };
  // One page of a listing: entries in key order, and whether more follow
  // the last one.
  struct Page {
    std::vector<std::pair<std::string, Entry>> entries;
    bool truncated = false;
  };
  struct CasResult {
    bool swapped = false;
    std::optional<std::string> current;  // the value after the call
  };

  KvStore(int64_t max_value_bytes, int64_t max_store_bytes)
      : max_value_bytes_(max_value_bytes), max_store_bytes_(max_store_bytes) {}

  // As TSL: "/a//b/" -> "a/b" (no leading, trailing or doubled slashes), so
  // every spelling of one path is one key. INVALID_ARGUMENT when nothing is
  // left.
  static absl::StatusOr<std::string> NormalizeKey(absl::string_view key);
  // Whether a normalized key is in the reserved space: "_tessera" or "_tessera/...".
  static bool IsReserved(absl::string_view normalized_key);
  // NormalizeKey for a user's key: CheckWireId's errors (wire_text.h), then
  // PERMISSION_DENIED naming the key and kReservedKvPrefix when it lands in
  // the reserved space.
  static absl::StatusOr<std::string> NormalizeUserKey(absl::string_view key);
  // RESOURCE_EXHAUSTED naming `key`, `size` and the limit when a value of
  // `size` bytes is over `max_value_bytes` (the store's own check, also run
  // by clients before they send a value).
  static absl::Status CheckValueSize(absl::string_view key, size_t size, int64_t max_value_bytes);
  // NOT_FOUND naming a normalized key that is absent (a try-get's answer in
  // either mode).
  static absl::Status NotFound(absl::string_view key);

  // ALREADY_EXISTS unless `overwrite`; RESOURCE_EXHAUSTED past the limits.
  absl::Status Set(const std::string& key, std::string value, bool overwrite);
  absl::Status Set(const std::string& key, std::shared_ptr<const std::string> value, bool overwrite);
  const Entry* Find(const std::string& key) const;
  // Entries under normalize(prefix) + "/" ("a/b" never lists "a/bc"); an
  // empty or "/" prefix lists everything. In key order.
  std::vector<std::pair<std::string, Entry>> List(const std::string& prefix) const;
  // List for a user: CheckWireId's errors for `prefix`,
  // PERMISSION_DENIED for a reserved prefix, and listing
  // everything ("" or "/") leaves the reserved entries out.
  absl::StatusOr<std::vector<std::pair<std::string, Entry>>> ListUser(
      absl::string_view prefix) const;
  // ListUser one page at a time: the entries after key `start_after` (""
  // from the first) until their keys and values pass `max_bytes` (at least
  // one entry per page; <= 0: no limit). Pages of a listing are not one
  // snapshot: entries written between pages may or may not appear.
  absl::StatusOr<Page> ListUserPage(absl::string_view prefix, const std::string& start_after,
                                    int64_t max_bytes) const;
  // Removes `key` and, when `recursive`, everything under `key/`. Returns the
  // number of entries removed.
  int64_t Delete(const std::string& key, bool recursive);
  // Absent = 0. INVALID_ARGUMENT when the stored value is not a decimal
  // int64, OUT_OF_RANGE on overflow.
  absl::StatusOr<int64_t> Increment(const std::string& key, int64_t delta);
  // Absent `expected`: create only if absent.
  absl::StatusOr<CasResult> CompareAndSwap(const std::string& key,
                                           const std::optional<std::string>& expected,
                                           std::string desired);

  int64_t total_bytes() const { return total_bytes_; }
  size_t size() const { return entries_.size(); }

 private:
  absl::Status CheckLimits(const std::string& key, size_t new_value_size,
                           size_t old_size) const;
  void Store(const std::string& key, std::shared_ptr<const std::string> value);
  // The entries under `dir` ("" for all) after `start_after`, up to
  // `max_bytes` (<= 0: all).
  Page Collect(const std::string& dir, bool skip_reserved, const std::string& start_after,
               int64_t max_bytes) const;

  int64_t max_value_bytes_;
  int64_t max_store_bytes_;
  int64_t total_bytes_ = 0;  // keys + values
  int64_t next_version_ = 1;
  std::map<std::string, Entry> entries_;
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_KV_STORE_H_
