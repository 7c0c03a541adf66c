// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/layout_map.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <shared_mutex>
#include <optional>
#include <utility>

#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "core/py_repr.h"
#include "core/python_regex.h"
#include "core/status_macros.h"
#include "re2/re2.h"
#include "re2/set.h"

namespace tessera {
namespace {

// RE2's DFA cache is bounded by max_mem; a set of many unanchored patterns
// needs more than the 8 MiB default to stay on the DFA fast path.
constexpr int64_t kMatcherMaxMem = int64_t{256} << 20;

// Bounds of a matcher's memo of answers (see Matcher::Recall).
constexpr size_t kMemoMaxEntries = size_t{1} << 14;
constexpr size_t kMemoMaxPathLength = 512;
constexpr uint64_t kMemoMissesBeforeReset = 4 * kMemoMaxEntries;

RE2::Options PatternOptions() {
  RE2::Options options;
  options.set_log_errors(false);  // errors come back as Status, not on stderr
  options.set_max_mem(kMatcherMaxMem);
  return options;
}

// Keys are Python `re` patterns (Keras matches them with re.search or
// re.fullmatch); RE2 runs their translation.
absl::StatusOr<std::string> Re2Pattern(const std::string& key, KeyMatch match) {
  absl::StatusOr<std::string> pattern = TranslatePythonRegex(
      key, match == KeyMatch::kFullMatch ? PythonRegexUse::kFullMatch : PythonRegexUse::kSearch);
  if (pattern.ok()) return pattern;
  return absl::InvalidArgumentError(
      absl::StrCat("Argument 'key' ", PyStrRepr(key), " is ", pattern.status().message()));
}

absl::Status CheckPattern(const std::string& key, KeyMatch match) {
  TESSERA_ASSIGN_OR_RETURN(const std::string pattern, Re2Pattern(key, match));
  RE2 re(pattern, PatternOptions());
  if (re.ok()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      "Argument 'key' ", PyStrRepr(key), " is beyond RE2's limits: ", re.error(),
      "; expected a smaller pattern"));
}

}  // namespace

// All patterns of a map compiled into one RE2::Set: a lookup is one DFA pass
// over the path whatever the number of rules. If the DFA ever runs out of
// memory, matching falls back to the patterns one by one (same answers).
class LayoutMap::Matcher {
 public:
  static absl::StatusOr<std::unique_ptr<Matcher>> Build(const std::vector<std::string>& keys,
                                                        KeyMatch match) {
    const RE2::Anchor anchor =
        match == KeyMatch::kFullMatch ? RE2::ANCHOR_BOTH : RE2::UNANCHORED;
    std::vector<std::string> patterns;
    for (const std::string& key : keys) {
      TESSERA_ASSIGN_OR_RETURN(std::string pattern, Re2Pattern(key, match));
      patterns.push_back(std::move(pattern));
    }
    std::unique_ptr<Matcher> m(new Matcher(patterns, anchor));
    for (const std::string& pattern : patterns) {
      std::string error;
      if (m->set_.Add(pattern, &error) < 0) {
        return absl::InternalError(absl::StrCat("RE2::Set rejected ", PyStrRepr(pattern), ": ", error));
      }
    }
    if (!keys.empty() && !m->set_.Compile()) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "Compiling the ", keys.size(), " layout-map patterns ran out of memory"));
    }
    return m;
  }

  // The remembered answer for `path` (whose absl::Hash is `hash`): a rule
  // index, or -1 for no match.
  //
  // Why a memo: callers ask about the same few thousand variable and tensor
  // paths again and again (a distribution looks up every layer output on every
  // call). Over a large rule set the DFA's states outgrow the CPU caches, and
  // a walk over cold states costs a cache miss per byte of the path: at 1,000
  // rules, random lookups took ~2.3x as long as at 10 rules. A hit costs one
  // hash probe whatever the number of rules. Paths that match several patterns
  // are not remembered (that error is rare and its message is built anew).
  // Entries are keyed by the hash, computed once per lookup, and hold the path
  // to tell collisions apart.
  std::optional<int64_t> Recall(absl::string_view path, size_t hash) const {
    std::shared_lock<std::shared_mutex> lock(memo_mu_);
    auto it = memo_.find(hash);
    if (it == memo_.end() || it->second.path != path) return std::nullopt;
    return it->second.index;
  }

  // Bounded: long paths are not kept, and a full memo takes no more entries.
  // A full memo that keeps missing (the paths asked about have changed) starts
  // over, but only after many misses, so that a stream of new paths costs no
  // insertions or clearing for most of them.
  void Remember(absl::string_view path, size_t hash, int64_t index) const {
    if (path.size() > kMemoMaxPathLength) return;
    if (memo_full_.load(std::memory_order_relaxed)) {
      if (misses_while_full_.fetch_add(1, std::memory_order_relaxed) < kMemoMissesBeforeReset) {
        return;
      }
    }
    std::unique_lock<std::shared_mutex> lock(memo_mu_);
    if (memo_.size() >= kMemoMaxEntries) {
      if (misses_while_full_.load(std::memory_order_relaxed) < kMemoMissesBeforeReset) {
        memo_full_.store(true, std::memory_order_relaxed);
        return;
      }
      memo_.clear();
      memo_full_.store(false, std::memory_order_relaxed);
      misses_while_full_.store(0, std::memory_order_relaxed);
    }
    memo_.insert_or_assign(hash, MemoEntry{std::string(path), index});
  }

  // Fills `out` with the indices of the matching patterns, ascending.
  void Match(absl::string_view path, std::vector<int>* out) const {
    out->clear();
    if (keys_.empty()) return;
    RE2::Set::ErrorInfo info;
    if (set_.Match(re2::StringPiece(path.data(), path.size()), out, &info)) {
      std::sort(out->begin(), out->end());
      return;
    }
    if (info.kind == RE2::Set::kNoError) return;
    MatchOneByOne(path, out);
  }

 private:
  Matcher(const std::vector<std::string>& keys, RE2::Anchor anchor)
      : keys_(keys), anchor_(anchor), set_(PatternOptions(), anchor) {}

  void MatchOneByOne(absl::string_view path, std::vector<int>* out) const {
    std::call_once(singles_once_, [this] {
      for (const std::string& key : keys_) singles_.push_back(std::make_unique<RE2>(key, PatternOptions()));
    });
    out->clear();
    const re2::StringPiece text(path.data(), path.size());
    for (size_t i = 0; i < singles_.size(); ++i) {
      const bool hit = anchor_ == RE2::ANCHOR_BOTH ? RE2::FullMatch(text, *singles_[i])
                                                   : RE2::PartialMatch(text, *singles_[i]);
      if (hit) out->push_back(static_cast<int>(i));
    }
  }

  const std::vector<std::string> keys_;
  const RE2::Anchor anchor_;
  RE2::Set set_;
  mutable std::once_flag singles_once_;
  mutable std::vector<std::unique_ptr<RE2>> singles_;
  struct MemoEntry {
    std::string path;
    int64_t index;
  };
  // std::shared_mutex rather than absl::Mutex: ThreadSanitizer sees it even
  // with a distribution's uninstrumented Abseil, so the memo stays checkable.
  mutable std::shared_mutex memo_mu_;
  mutable absl::flat_hash_map<size_t, MemoEntry> memo_;  // guarded by memo_mu_
  mutable std::atomic<bool> memo_full_{false};
  mutable std::atomic<uint64_t> misses_while_full_{0};
};

LayoutMap::LayoutMap(MeshPtr mesh, KeyMatch match) : mesh_(std::move(mesh)), match_(match) {}

LayoutMap::LayoutMap(const LayoutMap& other)
    : mesh_(other.mesh_),
      match_(other.match_),
      keys_(other.keys_),
      layouts_(other.layouts_),
      index_of_key_(other.index_of_key_) {
  absl::MutexLock lock(&other.mu_);
  matcher_ = other.matcher_;
  matcher_raw_.store(matcher_.get(), std::memory_order_release);
}

LayoutMap& LayoutMap::operator=(const LayoutMap& other) {
  if (this == &other) return *this;
  LayoutMap copy(other);
  mesh_ = std::move(copy.mesh_);
  match_ = copy.match_;
  keys_ = std::move(copy.keys_);
  layouts_ = std::move(copy.layouts_);
  index_of_key_ = std::move(copy.index_of_key_);
  absl::MutexLock lock(&mu_);
  matcher_ = std::move(copy.matcher_);
  matcher_raw_.store(matcher_.get(), std::memory_order_release);
  return *this;
}

LayoutMap::~LayoutMap() = default;

void LayoutMap::InvalidateMatcher() {
  absl::MutexLock lock(&mu_);
  matcher_raw_.store(nullptr, std::memory_order_release);
  matcher_.reset();
}

absl::StatusOr<const LayoutMap::Matcher*> LayoutMap::GetMatcher() const {
  // Fast path: no lock once built. The pointer stays valid because only the
  // mutating methods, which never run concurrently with lookups, replace it.
  if (const Matcher* m = matcher_raw_.load(std::memory_order_acquire)) return m;
  absl::MutexLock lock(&mu_);
  if (matcher_ == nullptr) {
    TESSERA_ASSIGN_OR_RETURN(std::unique_ptr<Matcher> built, Matcher::Build(keys_, match_));
    matcher_ = std::move(built);
    matcher_raw_.store(matcher_.get(), std::memory_order_release);
  }
  return matcher_.get();
}

absl::Status LayoutMap::Set(std::string key, TensorLayout layout) {
  if (key.empty()) {
    return absl::InvalidArgumentError("Argument 'key' is empty; expected a path or a Python regular expression");
  }
  if (auto it = index_of_key_.find(key); it != index_of_key_.end()) {
    return absl::AlreadyExistsError(absl::StrCat(
        key, " already exist in the LayoutMap with value ", layouts_[it->second]->ToString(),
        ". Please make sure to not use duplicated keys."));
  }
  TESSERA_RETURN_IF_ERROR(CheckPattern(key, match_));
  if (layout.mesh() == nullptr && mesh_ != nullptr) {
    TESSERA_ASSIGN_OR_RETURN(layout, layout.WithMesh(mesh_));
  }
  index_of_key_.emplace(key, keys_.size());
  keys_.push_back(std::move(key));
  layouts_.push_back(std::make_shared<const TensorLayout>(std::move(layout)));
  InvalidateMatcher();
  return absl::OkStatus();
}

absl::Status LayoutMap::Delete(absl::string_view key) {
  auto it = index_of_key_.find(key);
  if (it == index_of_key_.end()) {
    return absl::NotFoundError(absl::StrCat("Argument 'key' ", PyStrRepr(key),
                                            " is not a key of the LayoutMap; delete takes an exact key"));
  }
  const size_t index = it->second;
  index_of_key_.erase(it);
  keys_.erase(keys_.begin() + index);
  layouts_.erase(layouts_.begin() + index);
  for (size_t i = index; i < keys_.size(); ++i) index_of_key_[keys_[i]] = i;
  InvalidateMatcher();
  return absl::OkStatus();
}

absl::StatusOr<int64_t> LayoutMap::Find(absl::string_view path) const {
  if (auto it = index_of_key_.find(path); it != index_of_key_.end()) {
    return static_cast<int64_t>(it->second);
  }
  TESSERA_ASSIGN_OR_RETURN(const Matcher* matcher, GetMatcher());
  const size_t hash = absl::Hash<absl::string_view>{}(path);
  if (std::optional<int64_t> known = matcher->Recall(path, hash)) return *known;
  thread_local std::vector<int> matches;  // reused: no allocation per lookup
  matcher->Match(path, &matches);
  if (matches.size() <= 1) {
    const int64_t index = matches.empty() ? -1 : matches[0];
    matcher->Remember(path, hash, index);
    return index;
  }
  std::vector<std::string> matching;
  for (int i : matches) matching.push_back(keys_[i]);
  return absl::FailedPreconditionError(absl::StrCat(
      // Keras formats f"Path '{key}' ... {matching_keys}": the path raw, the list as repr.
      "Path '", path, "' matches multiple layout specification keys: ",
      PyStrListRepr(matching),
      ". Please make sure each tensor/variable path only matches at most one layout "
      "specification key in the LayoutMap."));
}

absl::StatusOr<LayoutPtr> LayoutMap::Get(absl::string_view path) const {
  TESSERA_ASSIGN_OR_RETURN(const int64_t index, Find(path));
  if (index < 0) return LayoutPtr();
  return layouts_[index];
}

}  // namespace tessera
