// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/open.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/checkpoint/gguf_split.h"
#include "core/checkpoint/safetensors.h"

namespace tessera::checkpoint {
namespace {

enum class Format { kSafetensors, kGguf, kSafetensorsIndex };

constexpr absl::string_view kIndexSuffix = ".safetensors.index.json";

// How much of a file is looked at: a safetensors length and the header's
// first byte, GGUF's magic, or an index's opening brace after some
// whitespace (json.dump's indentation puts it first).
constexpr size_t kFirstBytes = 4096;

// The format `head` (a file's first bytes) is in, if any.
std::optional<Format> FormatOfContent(absl::string_view head) {
  if (head.size() > 8 && head[8] == '{') {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(head[i]);
    if (n <= kSafetensorsMaxHeaderBytes) return Format::kSafetensors;
  }
  if (absl::StartsWith(head, "GGUF")) return Format::kGguf;
  const size_t first = head.find_first_not_of(" \t\n\r");  // JSON's whitespace
  if (first != absl::string_view::npos && head[first] == '{') return Format::kSafetensorsIndex;
  return std::nullopt;
}

std::optional<Format> FormatOfName(absl::string_view path) {
  if (absl::EndsWith(path, ".index.json")) return Format::kSafetensorsIndex;
  if (absl::EndsWith(path, ".safetensors")) return Format::kSafetensors;
  if (absl::EndsWith(path, ".gguf")) return Format::kGguf;
  return std::nullopt;
}

absl::StatusOr<std::string> FirstBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kFirstBytes, '\0');
  if (in) in.read(head.data(), static_cast<std::streamsize>(head.size()));
  if (!in && !in.eof()) return absl::ErrnoToStatus(errno, absl::StrCat("cannot read ", path));
  head.resize(static_cast<size_t>(in.gcount()));
  return head;
}

absl::StatusOr<Checkpoint> OpenFile(const std::string& path) {
  absl::StatusOr<std::string> head = FirstBytes(path);
  if (!head.ok()) return head.status();
  std::optional<Format> format = FormatOfContent(*head);
  if (!format) format = FormatOfName(path);
  if (!format) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Argument 'path' is '", path,
        "'; expected a checkpoint: its first bytes are none of safetensors (an 8-byte little-endian "
        "header length, then '{'), GGUF (\"GGUF\") or a safetensors index (a JSON object), and its "
        "name ends in none of .index.json, .safetensors or .gguf"));
  }
  switch (*format) {
    case Format::kSafetensors:
      return ReadSafetensorsFile(path);
    case Format::kGguf:
      return ReadGgufCheckpoint(path);
    case Format::kSafetensorsIndex:
      return ReadSafetensorsIndex(path);
  }
  return absl::InternalError("unknown checkpoint format");
}

// "a, b, c", or the first 10 and how many more.
std::string NameList(const std::vector<std::string>& names) {
  constexpr size_t kShown = 10;
  if (names.size() <= kShown) return absl::StrJoin(names, ", ");
  return absl::StrCat(absl::StrJoin(names.begin(), names.begin() + kShown, ", "), " and ",
                      names.size() - kShown, " more");
}

// Whether `names` (sorted) are all the splits of one gguf-split model.
bool AreTheSplitsOfOneModel(const std::vector<std::string>& names) {
  std::optional<GgufSplitName> first = ParseGgufSplitName(names.front());
  if (!first || first->number != 1 || first->count != static_cast<int64_t>(names.size())) return false;
  for (size_t k = 0; k < names.size(); ++k) {
    std::optional<GgufSplitName> name = ParseGgufSplitName(names[k]);
    if (!name || name->stem != first->stem || name->count != first->count ||
        name->number != static_cast<int64_t>(k) + 1) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<Checkpoint> OpenDirectory(const std::string& directory) {
  namespace fs = std::filesystem;
  std::vector<std::string> indexes, safetensors, gguf;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    std::error_code not_a_file;
    if (!it->is_regular_file(not_a_file)) continue;  // follows links; a broken one is no file
    std::string name = it->path().filename().string();
    if (absl::EndsWith(name, kIndexSuffix)) {
      indexes.push_back(std::move(name));
    } else if (absl::EndsWith(name, ".safetensors")) {
      safetensors.push_back(std::move(name));
    } else if (absl::EndsWith(name, ".gguf")) {
      gguf.push_back(std::move(name));
    }
  }
  if (error) return absl::ErrnoToStatus(error.value(), absl::StrCat("cannot list the directory ", directory));
  for (std::vector<std::string>* names : {&indexes, &safetensors, &gguf}) std::sort(names->begin(), names->end());

  const std::string prefix = absl::EndsWith(directory, "/") ? directory : absl::StrCat(directory, "/");
  auto ambiguous = [&](absl::string_view what, const std::vector<std::string>& names, absl::string_view give) {
    return absl::InvalidArgumentError(
        absl::StrCat(directory, ": the directory holds ", what, " (", NameList(names), "); give ", give));
  };
  if (!gguf.empty() && (!indexes.empty() || !safetensors.empty())) {
    std::vector<std::string> all = indexes;
    all.insert(all.end(), safetensors.begin(), safetensors.end());
    all.insert(all.end(), gguf.begin(), gguf.end());
    return ambiguous("both safetensors and GGUF files", all, "the path of the one to open");
  }
  if (indexes.size() > 1) return ambiguous("several safetensors indexes", indexes, "the path of one");
  if (indexes.size() == 1) return OpenFile(prefix + indexes[0]);
  if (safetensors.size() > 1) {
    return ambiguous(absl::StrCat("several safetensors files and no *", kIndexSuffix), safetensors,
                     "the path of one, or write the index");
  }
  if (safetensors.size() == 1) return OpenFile(prefix + safetensors[0]);
  if (gguf.size() == 1 || (gguf.size() > 1 && AreTheSplitsOfOneModel(gguf))) return OpenFile(prefix + gguf[0]);
  if (gguf.size() > 1) {
    return ambiguous("GGUF files of more than one model", gguf,
                     "the path of one (of a split model, its first split)");
  }
  return absl::InvalidArgumentError(absl::StrCat(
      directory, ": the directory holds no checkpoint; expected a *", kIndexSuffix,
      ", a .safetensors file or the .gguf file(s) of one model"));
}

}  // namespace

absl::StatusOr<Checkpoint> OpenCheckpoint(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return absl::ErrnoToStatus(errno, absl::StrCat("cannot open ", path));
  if (S_ISDIR(st.st_mode)) return OpenDirectory(path);
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Argument 'path' is '", path, "'; expected a regular file or a directory"));
  }
  return OpenFile(path);
}

}  // namespace tessera::checkpoint
