// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// LayoutMap: insertion-ordered rules from variable paths to layouts.
//
// Lookup: an exact key wins; otherwise every key is a Python `re` pattern
// (core/python_regex.h turns it into RE2 syntax with the same meaning) and all
// of them are matched at once with one RE2::Set (one pass over the path, however
// many rules), with re.search semantics by default (Keras 3.0-3.13) or
// fullmatch as an option (Keras 3.14+). No match yields "none"; several
// matches are an error that lists every matching key in insertion order.
//
// Never-seen paths: the set's DFA builds its states as paths arrive, each
// state holding the threads of every pattern alive there. A pattern opening
// with `.*` would be alive everywhere, so under re.search the translation
// drops that `.*` (same answers; python_regex.h). Then 1,000 per-layer rules
// cost about 1.5x per first lookup what 10 rules cost
// (benchmarks/layout_map_checkpoint_bench.cc: 100,000 checkpoint names).
//
// Repeated lookups: each compiled matcher remembers up to 16,384 recent
// answers (paths up to 512 bytes), so asking again about a path costs one hash
// probe whatever the number of rules. Over a large rule set the DFA's states
// outgrow the CPU caches and a walk over cold states costs a cache miss per
// byte; callers (a distribution answering for every layer on every step) ask
// about the same paths again and again. Answers are rebuilt with the matcher
// on Set and Delete; several-match errors are never remembered.
//
// Thread safety: const methods may run concurrently with each other; the
// mutating ones (Set, Delete) must not run concurrently with anything else on
// the same map. Copies share the compiled matcher until either is modified.
#ifndef TESSERA_CORE_LAYOUT_MAP_H_
#define TESSERA_CORE_LAYOUT_MAP_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "core/layout.h"

namespace tessera {

// Numbers match tessera_key_match_t in the C ABI.
enum class KeyMatch {
  kSearch = 0,     // re.search: the pattern may match anywhere in the path
  kFullMatch = 1,  // re.fullmatch: the pattern must match the whole path
};

class LayoutMap {
 public:
  // `mesh` may be null (then inserted layouts keep whatever mesh they have).
  explicit LayoutMap(MeshPtr mesh, KeyMatch match = KeyMatch::kSearch);
  LayoutMap(const LayoutMap& other);
  LayoutMap& operator=(const LayoutMap& other);
  ~LayoutMap();

  // Appends a rule. Errors: ALREADY_EXISTS for a key already present (Keras's
  // message); INVALID_ARGUMENT for an empty key, a pattern Python refuses or
  // RE2 cannot run (TranslatePythonRegex's message after the key), or a
  // layout whose axes the map's mesh lacks. A layout without a mesh gets the
  // map's mesh.
  absl::Status Set(std::string key, TensorLayout layout);

  // Removes the rule with exactly this key; NOT_FOUND otherwise.
  absl::Status Delete(absl::string_view key);

  // Index of the rule `path` selects, or -1 when none does.
  // FAILED_PRECONDITION when several patterns match (message lists them).
  absl::StatusOr<int64_t> Find(absl::string_view path) const;

  // The layout `path` selects, or nullptr when none does (errors as Find).
  absl::StatusOr<LayoutPtr> Get(absl::string_view path) const;

  size_t size() const { return keys_.size(); }
  // Rule `index` (< size()).
  const std::string& key(size_t index) const { return keys_[index]; }
  const LayoutPtr& layout(size_t index) const { return layouts_[index]; }
  const MeshPtr& mesh() const { return mesh_; }
  KeyMatch match() const { return match_; }

 private:
  class Matcher;

  absl::StatusOr<const Matcher*> GetMatcher() const;
  void InvalidateMatcher();

  MeshPtr mesh_;
  KeyMatch match_;
  std::vector<std::string> keys_;
  std::vector<LayoutPtr> layouts_;
  absl::flat_hash_map<std::string, size_t> index_of_key_;

  // Built on the first lookup after a change. `matcher_raw_` is the lock-free
  // fast path; `matcher_` owns it and is written under `mu_`.
  mutable absl::Mutex mu_;
  mutable std::shared_ptr<const Matcher> matcher_;
  mutable std::atomic<const Matcher*> matcher_raw_{nullptr};
};

using LayoutMapPtr = std::shared_ptr<const LayoutMap>;

}  // namespace tessera

#endif  // TESSERA_CORE_LAYOUT_MAP_H_
