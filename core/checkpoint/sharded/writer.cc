// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/sharded/writer.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/checkpoint/box_runs.h"
#include "core/checkpoint/json.h"
#include "core/checkpoint/read_plan.h"
#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/sharded/files.h"
#include "core/formats/tessera_proto.h"
#include "core/status_macros.h"
#include "re2/re2.h"

namespace tessera::checkpoint::sharded {
namespace {

// Names a save writes; FinishSave removes those the new index does not use.
const RE2& SaveFilePattern() {
  static const RE2 pattern(
      R"(process-\d{5,}-of-\d{5,}(?:\.g(\d+))?\.safetensors(?:\.tmp\.\d+)?|tessera-index\.json\.tmp\.\d+)");
  return pattern;
}

std::string Join(const std::string& directory, const std::string& name) {
  if (!directory.empty() && directory.back() == '/') return directory + name;
  return absl::StrCat(directory, "/", name);
}

// The __metadata__ "tessera.layouts" value: NAME -> {"mesh", "layout"}.
absl::StatusOr<std::string> LayoutsJson(absl::Span<const SaveTensor> tensors) {
  std::string out = "{";
  for (size_t t = 0; t < tensors.size(); ++t) {
    TESSERA_ASSIGN_OR_RETURN(const std::string mesh, MeshToJson(tensors[t].sharding.mesh()));
    TESSERA_ASSIGN_OR_RETURN(const std::string layout, LayoutToJson(tensors[t].sharding.layout()));
    absl::StrAppend(&out, t > 0 ? "," : "", json::Quote(tensors[t].name), ":{\"mesh\":", mesh,
                    ",\"layout\":", layout, "}");
  }
  return out + "}";
}

// The safetensors header of a process file, padded with spaces to a
// multiple of 8 bytes as the reference writer does, so the data is aligned.
absl::StatusOr<std::string> Header(absl::Span<const SaveTensor> tensors, absl::Span<const SavePiece> pieces,
                                   const WriteOptions& options) {
  TESSERA_ASSIGN_OR_RETURN(const std::string layouts, LayoutsJson(tensors));
  std::string header = absl::StrCat(
      "{\"__metadata__\":{\"format\":", json::Quote(kFormatName), ",\"tessera.process\":\"",
      options.process_index, "\",\"tessera.num_processes\":\"", options.num_processes,
      "\",\"tessera.layouts\":", json::Quote(layouts), "}");
  uint64_t begin = 0;
  for (const SavePiece& piece : pieces) {
    const SaveTensor& tensor = tensors[piece.tensor];
    absl::StrAppend(&header, ",", json::Quote(PieceName(tensor.name, piece.ranges)), ":{\"dtype\":",
                    json::Quote(tensor.type.name), ",\"shape\":[",
                    absl::StrJoin(piece.ranges, ",", [](std::string* s, const IndexRange& r) {
                      absl::StrAppend(s, r.size());
                    }),
                    "],\"data_offsets\":[", begin, ",", begin + piece.size, "]}");
    begin += piece.size;
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' ');
  return header;
}

std::string LittleEndian64(uint64_t n) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((n >> (8 * i)) & 0xFF);
  return out;
}

absl::Status MakeDirectory(const std::string& directory) {
  if (mkdir(directory.c_str(), 0755) == 0 || errno == EEXIST) return absl::OkStatus();
  return IoError(errno, "create directory", directory);
}

absl::Status CheckProcess(int64_t process_index, int64_t num_processes) {
  if (num_processes < 1) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'num_processes' is ", num_processes,
                                                   "; expected at least 1"));
  }
  if (process_index < 0 || process_index >= num_processes) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'process_index' is ", process_index,
                                                   "; expected at least 0 and less than ", num_processes,
                                                   " (num_processes)"));
  }
  return absl::OkStatus();
}

// Removes what a save leaves that `keep` does not name.
absl::Status RemoveLeftovers(const std::string& directory, const absl::flat_hash_set<std::string>& keep) {
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return IoError(errno, "list", directory);
  std::vector<std::string> remove;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (!keep.contains(name) && RE2::FullMatch(name, SaveFilePattern())) remove.push_back(name);
  }
  closedir(dir);
  for (const std::string& name : remove) {
    const std::string path = Join(directory, name);
    if (unlink(path.c_str()) != 0 && errno != ENOENT) return IoError(errno, "remove", path);
  }
  return remove.empty() ? absl::OkStatus() : SyncDirectory(directory);
}

// The pieces of process file `process`, read back from its header.
absl::Status AddFilePieces(const std::string& path, size_t process,
                           const absl::flat_hash_map<std::string, size_t>& tensor_of, Index* index) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    if (errno != ENOENT) return IoError(errno, "stat", path);
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": missing; process ", process, " has not written its file (finish after every process's write)"));
  }
  absl::StatusOr<Checkpoint> file = ReadSafetensorsFile(path);
  if (!file.ok()) {
    if (file.status().code() != absl::StatusCode::kInvalidArgument) return file.status();
    return absl::DataLossError(file.status().message());
  }
  for (const Tensor& stored : file->tensors) {
    absl::StatusOr<ParsedPieceName> parsed = ParsePieceName(stored.name);
    auto it = parsed.ok() ? tensor_of.find(parsed->name) : tensor_of.end();
    if (it == tensor_of.end()) {
      return absl::DataLossError(absl::StrCat(path, ": tensor ", json::Quote(stored.name),
                                              " is no piece of a tensor of this save"));
    }
    index->tensors[it->second].pieces.push_back(IndexPiece{process, stored.offset, stored.size, parsed->ranges});
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckSaveTensor(const SaveTensor& tensor) {
  if (tensor.name.empty() || json::FirstInvalidUtf8(tensor.name) != tensor.name.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'name' is ", json::Quote(tensor.name),
                                                   "; expected a non-empty UTF-8 name"));
  }
  // Sub-byte types (F4, F6_*) are stored as the loader reads them: each
  // piece whole blocks of the innermost dimension.
  return CheckWholeBlocks(tensor.name, tensor.type, tensor.sharding);
}

absl::StatusOr<std::vector<SavePiece>> ProcessPieces(absl::Span<const SaveTensor> tensors, int64_t process_index,
                                                     int64_t num_processes) {
  TESSERA_RETURN_IF_ERROR(CheckProcess(process_index, num_processes));
  std::vector<SavePiece> pieces;
  for (size_t t = 0; t < tensors.size(); ++t) {
    const Sharding& sharding = tensors[t].sharding;
    const int64_t devices = sharding.num_devices();
    if (devices % num_processes != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Argument 'num_processes' is ", num_processes, "; expected a divisor of ", devices,
          ", the devices of the mesh of tensor ", json::Quote(tensors[t].name)));
    }
    const int64_t per_process = devices / num_processes;
    const size_t first = pieces.size();
    for (DistinctShard& shard : sharding.DistinctShards()) {
      const int64_t writer = shard.devices.front();
      if (!HasElements(shard.ranges) || writer / per_process != process_index) continue;
      const uint64_t size = BoxBytes(tensors[t].type, shard.ranges);
      pieces.push_back(SavePiece{t, writer, std::move(shard.ranges), size});
    }
    std::sort(pieces.begin() + static_cast<ptrdiff_t>(first), pieces.end(),
              [](const SavePiece& a, const SavePiece& b) { return PieceRangesLess(a.ranges, b.ranges); });
  }
  return pieces;
}

std::string ProcessFileName(int64_t process_index, int64_t num_processes, int64_t generation) {
  if (generation == 0) return absl::StrFormat("process-%05d-of-%05d.safetensors", process_index, num_processes);
  return absl::StrFormat("process-%05d-of-%05d.g%d.safetensors", process_index, num_processes, generation);
}

absl::StatusOr<int64_t> NextGeneration(const std::string& directory) {
  struct stat st;
  if (stat(IndexPath(directory).c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return 0;
    return IoError(errno, "stat", IndexPath(directory));
  }
  absl::StatusOr<Index> index = ReadIndex(directory);
  if (!index.ok()) {
    return absl::Status(index.status().code(),
                        absl::StrCat(index.status().message(), " (a save into ", directory,
                                     " keeps the files of the checkpoint there; remove its index to save anyway)"));
  }
  int64_t generation = 0;
  for (const std::string& name : index->files) {
    std::string digits;
    int64_t g = 0;
    if (RE2::FullMatch(name, SaveFilePattern(), &digits) && absl::SimpleAtoi(digits, &g)) {
      generation = std::max(generation, g);
    }
  }
  return generation + 1;
}

absl::StatusOr<std::vector<IndexPiece>> WriteProcessFile(const std::string& directory,
                                                         absl::Span<const SaveTensor> tensors,
                                                         const WriteOptions& options, const FillPiece& fill) {
  for (const SaveTensor& tensor : tensors) TESSERA_RETURN_IF_ERROR(CheckSaveTensor(tensor));
  TESSERA_ASSIGN_OR_RETURN(const std::vector<SavePiece> pieces,
                           ProcessPieces(tensors, options.process_index, options.num_processes));
  TESSERA_ASSIGN_OR_RETURN(const std::string header, Header(tensors, pieces, options));
  TESSERA_RETURN_IF_ERROR(MakeDirectory(directory));
  TESSERA_ASSIGN_OR_RETURN(
      AtomicFile file,
      AtomicFile::Create(Join(directory, ProcessFileName(options.process_index, options.num_processes,
                                                         options.generation))));
  TESSERA_RETURN_IF_ERROR(file.Append(LittleEndian64(header.size())));
  TESSERA_RETURN_IF_ERROR(file.Append(header));
  std::vector<IndexPiece> written;
  std::string buffer;
  for (const SavePiece& piece : pieces) {
    written.push_back(IndexPiece{static_cast<size_t>(options.process_index), file.size(), piece.size, piece.ranges});
    for (uint64_t offset = 0; offset < piece.size;) {
      const uint64_t n = std::min(piece.size - offset, std::max<uint64_t>(options.chunk_bytes, 1));
      buffer.resize(static_cast<size_t>(n));
      TESSERA_RETURN_IF_ERROR(fill(piece, offset, absl::MakeSpan(buffer)));
      TESSERA_RETURN_IF_ERROR(file.Append(buffer));
      offset += n;
    }
  }
  TESSERA_RETURN_IF_ERROR(file.Commit());
  return written;
}

absl::StatusOr<Index> FinishSave(const std::string& directory, absl::Span<const SaveTensor> tensors,
                                 int64_t num_processes, int64_t generation) {
  TESSERA_RETURN_IF_ERROR(CheckProcess(0, num_processes));
  Index index;
  index.num_processes = num_processes;
  absl::flat_hash_map<std::string, size_t> tensor_of;
  for (size_t t = 0; t < tensors.size(); ++t) {
    TESSERA_RETURN_IF_ERROR(CheckSaveTensor(tensors[t]));
    if (!tensor_of.emplace(tensors[t].name, t).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Tensor ", json::Quote(tensors[t].name), " is added twice; expected unique names"));
    }
    index.tensors.push_back(IndexTensor{tensors[t].name, tensors[t].type, tensors[t].sharding, {}});
  }
  for (int64_t p = 0; p < num_processes; ++p) {
    index.files.push_back(ProcessFileName(p, num_processes, generation));
    TESSERA_RETURN_IF_ERROR(
        AddFilePieces(Join(directory, index.files.back()), static_cast<size_t>(p), tensor_of, &index));
  }
  for (IndexTensor& tensor : index.tensors) {
    std::sort(tensor.pieces.begin(), tensor.pieces.end(),
              [](const IndexPiece& a, const IndexPiece& b) { return PieceRangesLess(a.ranges, b.ranges); });
  }
  TESSERA_ASSIGN_OR_RETURN(const std::string text, IndexToJson(index));
  // The index a reader would get, checked as a reader checks it: a process
  // file holding the wrong pieces is caught here, before the index exists.
  if (absl::Status parsed = ParseIndex(text, IndexPath(directory)).status(); !parsed.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("the process files do not make a whole checkpoint: ", parsed.message()));
  }
  TESSERA_RETURN_IF_ERROR(VerifyIndexFiles(index, directory));
  TESSERA_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(IndexPath(directory)));
  TESSERA_RETURN_IF_ERROR(file.Append(text));
  TESSERA_RETURN_IF_ERROR(file.Commit());
  const absl::flat_hash_set<std::string> keep(index.files.begin(), index.files.end());
  TESSERA_RETURN_IF_ERROR(RemoveLeftovers(directory, keep));
  return index;
}

}  // namespace tessera::checkpoint::sharded
