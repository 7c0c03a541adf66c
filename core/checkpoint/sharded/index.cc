// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/sharded/index.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/checkpoint/box_runs.h"
#include "core/checkpoint/json.h"
#include "core/checkpoint/read_plan.h"
#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/sharded/files.h"
#include "core/formats/tessera_proto.h"
#include "core/status_macros.h"

namespace tessera::checkpoint::sharded {
namespace {

using json::Value;
using Kind = json::Value::Kind;

// An index holds names and numbers; far below this even for a model of
// thousands of tensors on thousands of devices.
constexpr uint64_t kMaxIndexBytes = uint64_t{1} << 30;

std::string RangesText(absl::Span<const IndexRange> ranges) {
  return absl::StrCat("[", absl::StrJoin(ranges, ", ", [](std::string* out, const IndexRange& r) {
                        absl::StrAppend(out, r.start, ":", r.stop);
                      }),
                      "]");
}

// Where a value is, and what is wrong with it, in the caller's words.
class Fields {
 public:
  explicit Fields(absl::string_view index_name) : index_name_(index_name) {}

  absl::Status Error(uint64_t offset, absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(index_name_, ": byte ", offset, ": ", what));
  }

  // "field 'PATH' is FOUND; expected EXPECTED".
  absl::Status Wrong(const Value& value, absl::string_view path, absl::string_view expected) const {
    std::string found;
    if (value.kind == Kind::kInteger) {
      found = absl::StrCat(value.integer);
    } else if (value.kind == Kind::kString && value.string.size() <= 64) {
      found = json::Quote(value.string);
    } else {
      found = std::string(value.KindName());
    }
    return Error(value.offset, absl::StrCat("field '", path, "' is ", found, "; expected ", expected));
  }

  absl::StatusOr<const Value*> Member(const Value& object, absl::string_view path, absl::string_view key) const {
    const Value* member = object.Find(key);
    if (member == nullptr) {
      return Error(object.offset, absl::StrCat("field '", Join(path, key), "' is missing"));
    }
    return member;
  }

  // Refuses members other than `known`: a newer writer's field would
  // otherwise be dropped silently (a newer format raises the version).
  absl::Status OnlyKnown(const Value& object, absl::string_view path,
                         std::initializer_list<absl::string_view> known) const {
    for (const json::Member& member : object.object) {
      if (std::find(known.begin(), known.end(), member.key) == known.end()) {
        return Error(member.key_offset, absl::StrCat("field '", Join(path, member.key),
                                                     "' is unknown; expected only ", absl::StrJoin(known, ", ")));
      }
    }
    return absl::OkStatus();
  }

  absl::Status Expect(const Value& value, Kind kind, absl::string_view path, absl::string_view expected) const {
    if (value.kind != kind) return Wrong(value, path, expected);
    return absl::OkStatus();
  }

  absl::StatusOr<int64_t> Integer(const Value& value, absl::string_view path, int64_t min) const {
    if (value.kind != Kind::kInteger || value.integer < min) {
      return Wrong(value, path, min == 0 ? "a non-negative integer" : absl::StrCat("an integer of at least ", min));
    }
    return value.integer;
  }

  static std::string Join(absl::string_view path, absl::string_view key) {
    return path.empty() ? std::string(key) : absl::StrCat(path, ".", key);
  }

 private:
  std::string index_name_;
};

absl::StatusOr<ShardMode> ParseShardMode(const Fields& fields, const Value& value, absl::string_view path) {
  for (const ShardMode mode : {ShardMode::kStrict, ShardMode::kChunkFlat, ShardMode::kChunkNested}) {
    if (value.kind == Kind::kString && value.string == ShardModeName(mode)) return mode;
  }
  return fields.Wrong(value, path, "\"strict\", \"chunk-flat\" or \"chunk-nested\"");
}

absl::StatusOr<std::vector<IndexRange>> ParseRanges(const Fields& fields, const Value& value,
                                                    absl::string_view path, absl::Span<const int64_t> shape) {
  if (value.kind != Kind::kArray || value.array.size() != shape.size()) {
    return fields.Wrong(value, path, absl::StrCat("an array of ", shape.size(), " [start, stop] pairs"));
  }
  std::vector<IndexRange> ranges;
  for (size_t d = 0; d < shape.size(); ++d) {
    const Value& pair = value.array[d];
    const std::string at = absl::StrCat(path, "[", d, "]");
    if (pair.kind != Kind::kArray || pair.array.size() != 2) {
      return fields.Wrong(pair, at, "a [start, stop] pair");
    }
    TESSERA_ASSIGN_OR_RETURN(const int64_t start, fields.Integer(pair.array[0], absl::StrCat(at, "[0]"), 0));
    TESSERA_ASSIGN_OR_RETURN(const int64_t stop, fields.Integer(pair.array[1], absl::StrCat(at, "[1]"), 0));
    if (start > stop || stop > shape[d]) {
      return fields.Error(pair.offset, absl::StrCat("field '", at, "' is [", start, ", ", stop,
                                                    "]; expected 0 <= start <= stop <= ", shape[d],
                                                    " (dimension ", d, " of the shape)"));
    }
    ranges.push_back({start, stop});
  }
  return ranges;
}

std::vector<int64_t> Flat(absl::Span<const IndexRange> ranges) {
  std::vector<int64_t> flat;
  for (const IndexRange& r : ranges) {
    flat.push_back(r.start);
    flat.push_back(r.stop);
  }
  return flat;
}


// The pieces must be exactly the distinct shards with elements, each once.
absl::Status CheckTiling(const Fields& fields, const Value& pieces_value, const IndexTensor& tensor,
                         absl::string_view path) {
  absl::flat_hash_map<std::vector<int64_t>, size_t> shard_piece;  // -> piece + 1, 0 = none yet
  std::vector<std::vector<IndexRange>> shards;
  for (DistinctShard& shard : tensor.sharding.DistinctShards()) {
    if (!HasElements(shard.ranges)) continue;
    shard_piece.emplace(Flat(shard.ranges), 0);
    shards.push_back(std::move(shard.ranges));
  }
  for (size_t i = 0; i < tensor.pieces.size(); ++i) {
    const IndexPiece& piece = tensor.pieces[i];
    const uint64_t offset = pieces_value.array[i].offset;
    const std::string at = absl::StrCat(path, "[", i, "].ranges");
    auto it = shard_piece.find(Flat(piece.ranges));
    if (it == shard_piece.end()) {
      return fields.Error(offset, absl::StrCat("tensor '", tensor.name, "': field '", at, "' is ",
                                               RangesText(piece.ranges),
                                               HasElements(piece.ranges) ? "; expected the ranges of a shard of its layout"
                                                                         : "; expected a shard with elements"));
    }
    if (it->second != 0) {
      return fields.Error(offset, absl::StrCat("tensor '", tensor.name, "': pieces ", it->second - 1, " and ", i,
                                               " both hold ", RangesText(piece.ranges),
                                               "; expected each shard stored once"));
    }
    it->second = i + 1;
    if (i > 0 && !PieceRangesLess(tensor.pieces[i - 1].ranges, piece.ranges)) {
      return fields.Error(offset, absl::StrCat("tensor '", tensor.name, "': piece ", i, " ",
                                               RangesText(piece.ranges), " comes after piece ", i - 1, " ",
                                               RangesText(tensor.pieces[i - 1].ranges),
                                               "; expected pieces sorted by their ranges"));
    }
  }
  for (const std::vector<IndexRange>& shard : shards) {
    if (shard_piece.at(Flat(shard)) == 0) {
      return fields.Error(pieces_value.offset, absl::StrCat("tensor '", tensor.name, "': elements ",
                                                            RangesText(shard), " are in no piece"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<IndexPiece> ParsePiece(const Fields& fields, const Value& value, const std::string& path,
                                      absl::Span<const int64_t> shape, const ElementType& type,
                                      size_t num_files) {
  TESSERA_RETURN_IF_ERROR(fields.Expect(value, Kind::kObject, path, "an object"));
  TESSERA_RETURN_IF_ERROR(fields.OnlyKnown(value, path, {"file", "offset", "size", "ranges"}));
  IndexPiece piece;
  TESSERA_ASSIGN_OR_RETURN(const Value* file, fields.Member(value, path, "file"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t file_id, fields.Integer(*file, path + ".file", 0));
  if (static_cast<uint64_t>(file_id) >= num_files) {
    return fields.Wrong(*file, path + ".file", absl::StrCat("less than ", num_files, ", the number of files"));
  }
  piece.file = static_cast<size_t>(file_id);
  TESSERA_ASSIGN_OR_RETURN(const Value* offset, fields.Member(value, path, "offset"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t offset_value, fields.Integer(*offset, path + ".offset", 8));
  TESSERA_ASSIGN_OR_RETURN(const Value* size, fields.Member(value, path, "size"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t size_value, fields.Integer(*size, path + ".size", 0));
  TESSERA_ASSIGN_OR_RETURN(const Value* ranges, fields.Member(value, path, "ranges"));
  TESSERA_ASSIGN_OR_RETURN(piece.ranges, ParseRanges(fields, *ranges, path + ".ranges", shape));
  piece.offset = static_cast<uint64_t>(offset_value);
  piece.size = static_cast<uint64_t>(size_value);
  // Ranges within the shape bound the product by the tensor's elements, and
  // the shape was checked to fit int64 bytes.
  uint64_t elements = 1;
  for (const IndexRange& r : piece.ranges) elements *= static_cast<uint64_t>(r.size());
  const uint64_t expected = BoxBytes(type, piece.ranges);
  if (piece.size != expected) {
    return fields.Wrong(*size, path + ".size",
                        absl::StrCat(expected, " (", elements, " elements of ", type.name, ")"));
  }
  if (piece.offset > static_cast<uint64_t>(INT64_MAX) - piece.size) {
    return fields.Wrong(*offset, path + ".offset", "an offset that, with the size, fits in 63 bits");
  }
  return piece;
}

absl::StatusOr<std::vector<int64_t>> ParseShape(const Fields& fields, const Value& value, const std::string& path,
                                                const ElementType& type) {
  if (value.kind != Kind::kArray) return fields.Wrong(value, path, "an array of non-negative integers");
  std::vector<int64_t> shape;
  uint64_t bytes = static_cast<uint64_t>(type.block_bytes);
  for (size_t d = 0; d < value.array.size(); ++d) {
    TESSERA_ASSIGN_OR_RETURN(const int64_t n, fields.Integer(value.array[d], absl::StrCat(path, "[", d, "]"), 0));
    if (n > 0 && bytes > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(n)) {
      return fields.Wrong(value, path, "a shape whose bytes fit in 63 bits");
    }
    bytes *= static_cast<uint64_t>(n);
    shape.push_back(n);
  }
  return shape;
}

absl::StatusOr<IndexTensor> ParseTensor(const Fields& fields, const Value& value, const std::string& path,
                                        size_t num_files) {
  TESSERA_RETURN_IF_ERROR(fields.Expect(value, Kind::kObject, path, "an object"));
  TESSERA_RETURN_IF_ERROR(
      fields.OnlyKnown(value, path, {"name", "dtype", "shape", "mesh", "layout", "shard_mode", "pieces"}));
  TESSERA_ASSIGN_OR_RETURN(const Value* name, fields.Member(value, path, "name"));
  TESSERA_RETURN_IF_ERROR(fields.Expect(*name, Kind::kString, path + ".name", "a string"));
  const std::string& tensor_name = name->string;
  // Errors past the name say which tensor they are about.
  const std::string where = absl::StrCat(path, " ('", tensor_name, "')");

  TESSERA_ASSIGN_OR_RETURN(const Value* dtype, fields.Member(value, where, "dtype"));
  TESSERA_RETURN_IF_ERROR(fields.Expect(*dtype, Kind::kString, where + ".dtype", "a safetensors dtype name"));
  absl::StatusOr<ElementType> type = SafetensorsElementType(dtype->string);
  if (!type.ok()) return fields.Wrong(*dtype, where + ".dtype", "a safetensors dtype name (\"F32\", \"BF16\", ...)");
  TESSERA_ASSIGN_OR_RETURN(const Value* shape_value, fields.Member(value, where, "shape"));
  TESSERA_ASSIGN_OR_RETURN(std::vector<int64_t> shape, ParseShape(fields, *shape_value, where + ".shape", *type));

  TESSERA_ASSIGN_OR_RETURN(const Value* mesh_value, fields.Member(value, where, "mesh"));
  TESSERA_RETURN_IF_ERROR(fields.Expect(*mesh_value, Kind::kObject, where + ".mesh", "a mesh's JSON object"));
  absl::StatusOr<MeshPtr> mesh = MeshFromJson(json::Serialize(*mesh_value));
  if (!mesh.ok()) {
    return fields.Error(mesh_value->offset, absl::StrCat("field '", where, ".mesh': ", mesh.status().message()));
  }
  TESSERA_ASSIGN_OR_RETURN(const Value* layout_value, fields.Member(value, where, "layout"));
  TESSERA_RETURN_IF_ERROR(
      fields.Expect(*layout_value, Kind::kObject, where + ".layout", "a layout's JSON object"));
  absl::StatusOr<TensorLayout> layout = LayoutFromJson(json::Serialize(*layout_value));
  if (!layout.ok()) {
    return fields.Error(layout_value->offset,
                        absl::StrCat("field '", where, ".layout': ", layout.status().message()));
  }
  if (layout->mesh() != nullptr && *layout->mesh() != **mesh) {
    return fields.Error(layout_value->offset, absl::StrCat("field '", where,
                                                           ".layout' has another mesh than field '", where,
                                                           ".mesh'; expected the same mesh"));
  }
  if (layout->mesh() == nullptr) {
    absl::StatusOr<TensorLayout> on_mesh = layout->WithMesh(*mesh);
    if (!on_mesh.ok()) {
      return fields.Error(layout_value->offset,
                          absl::StrCat("field '", where, ".layout': ", on_mesh.status().message()));
    }
    layout = *std::move(on_mesh);
  }
  TESSERA_ASSIGN_OR_RETURN(const Value* mode_value, fields.Member(value, where, "shard_mode"));
  TESSERA_ASSIGN_OR_RETURN(const ShardMode mode, ParseShardMode(fields, *mode_value, where + ".shard_mode"));
  absl::StatusOr<Sharding> sharding = Sharding::Create(*layout, shape, mode);
  if (!sharding.ok()) {
    return fields.Error(layout_value->offset, absl::StrCat("tensor '", tensor_name, "': ",
                                                           sharding.status().message()));
  }
  // A sub-byte type's pieces are whole blocks, as a save stores them.
  if (absl::Status blocks = CheckWholeBlocks(tensor_name, *type, *sharding); !blocks.ok()) {
    return fields.Error(shape_value->offset, blocks.message());
  }

  IndexTensor tensor{tensor_name, *std::move(type), *std::move(sharding), {}};
  TESSERA_ASSIGN_OR_RETURN(const Value* pieces, fields.Member(value, where, "pieces"));
  TESSERA_RETURN_IF_ERROR(fields.Expect(*pieces, Kind::kArray, where + ".pieces", "an array"));
  for (size_t i = 0; i < pieces->array.size(); ++i) {
    TESSERA_ASSIGN_OR_RETURN(IndexPiece piece, ParsePiece(fields, pieces->array[i],
                                                          absl::StrCat(where, ".pieces[", i, "]"), shape,
                                                          tensor.type, num_files));
    tensor.pieces.push_back(std::move(piece));
  }
  TESSERA_RETURN_IF_ERROR(CheckTiling(fields, *pieces, tensor, where + ".pieces"));
  return tensor;
}

absl::Status CheckFileName(const Fields& fields, const Value& value, const std::string& path) {
  TESSERA_RETURN_IF_ERROR(fields.Expect(value, Kind::kString, path, "a file name"));
  const std::string& name = value.string;
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos) {
    return fields.Wrong(value, path, "a file name inside the checkpoint's directory (no '/')");
  }
  return absl::OkStatus();
}

std::string Join(absl::string_view directory, absl::string_view name) {
  if (directory.empty()) return std::string(name);
  if (directory.back() == '/') return absl::StrCat(directory, name);
  return absl::StrCat(directory, "/", name);
}

const MetadataEntry* FindMetadata(const Checkpoint& file, absl::string_view key) {
  for (const MetadataEntry& entry : file.metadata) {
    if (entry.key == key) return &entry;
  }
  return nullptr;
}

absl::Status DataLoss(const std::string& path, absl::string_view what) {
  return absl::DataLossError(absl::StrCat(path, ": ", what));
}

absl::Status CheckFileMetadata(const Checkpoint& file, const std::string& path, size_t process,
                               int64_t num_processes) {
  const std::pair<absl::string_view, std::string> expected[] = {
      {"format", kFormatName},
      {"tessera.process", absl::StrCat(process)},
      {"tessera.num_processes", absl::StrCat(num_processes)},
  };
  for (const auto& [key, value] : expected) {
    const MetadataEntry* entry = FindMetadata(file, key);
    if (entry == nullptr || entry->value != value) {
      return DataLoss(path, absl::StrCat("__metadata__ '", key, "' is ",
                                         entry == nullptr ? "missing" : json::Quote(entry->value),
                                         "; expected ", json::Quote(value), " (file ", process,
                                         " of tessera-index.json)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool HasElements(absl::Span<const IndexRange> ranges) {
  return std::all_of(ranges.begin(), ranges.end(), [](const IndexRange& r) { return r.size() > 0; });
}

bool PieceRangesLess(absl::Span<const IndexRange> a, absl::Span<const IndexRange> b) {
  for (size_t d = 0; d < a.size() && d < b.size(); ++d) {
    if (a[d].start != b[d].start) return a[d].start < b[d].start;
  }
  for (size_t d = 0; d < a.size() && d < b.size(); ++d) {
    if (a[d].stop != b[d].stop) return a[d].stop < b[d].stop;
  }
  return a.size() < b.size();
}

const IndexPiece* FindPiece(const IndexTensor& tensor, absl::Span<const IndexRange> ranges) {
  auto it = std::lower_bound(tensor.pieces.begin(), tensor.pieces.end(), ranges,
                             [](const IndexPiece& piece, absl::Span<const IndexRange> box) {
                               return PieceRangesLess(piece.ranges, box);
                             });
  if (it == tensor.pieces.end() || absl::MakeConstSpan(it->ranges) != ranges) return nullptr;
  return &*it;
}

std::string IndexPath(absl::string_view directory) { return Join(directory, kIndexFileName); }

std::string FilePath(const Index& index, absl::string_view directory, size_t file) {
  return Join(directory, index.files[file]);
}

std::string PieceName(absl::string_view name, absl::Span<const IndexRange> ranges) {
  return absl::StrCat(name, "@", absl::StrJoin(ranges, ",", [](std::string* out, const IndexRange& r) {
                        absl::StrAppend(out, r.start, ":", r.stop);
                      }));
}

absl::StatusOr<ParsedPieceName> ParsePieceName(absl::string_view text) {
  const size_t at = text.rfind('@');
  auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("Piece name ", json::Quote(text), " ", why, "; expected NAME@START:STOP,..."));
  };
  if (at == absl::string_view::npos) return bad("has no '@'");
  ParsedPieceName parsed{std::string(text.substr(0, at)), {}};
  const absl::string_view ranges = text.substr(at + 1);
  if (ranges.empty()) return parsed;
  for (const absl::string_view range : absl::StrSplit(ranges, ',')) {
    const std::vector<absl::string_view> ends = absl::StrSplit(range, ':');
    int64_t start = 0;
    int64_t stop = 0;
    const auto digits = [](absl::string_view s) {
      return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (ends.size() != 2 || !digits(ends[0]) || !digits(ends[1]) || !absl::SimpleAtoi(ends[0], &start) ||
        !absl::SimpleAtoi(ends[1], &stop) || start > stop) {
      return bad(absl::StrCat("has the range ", json::Quote(range)));
    }
    parsed.ranges.push_back({start, stop});
  }
  return parsed;
}

absl::StatusOr<Index> ParseIndex(absl::string_view text, absl::string_view index_name) {
  const Fields fields(index_name);
  if (const size_t bad = json::FirstInvalidUtf8(text); bad != text.size()) {
    return fields.Error(bad, "invalid UTF-8");
  }
  json::Error error;
  absl::StatusOr<Value> root = json::Parse(text, 0, &error);
  if (!root.ok()) return fields.Error(error.offset, absl::StrCat("invalid JSON: ", error.what));
  TESSERA_RETURN_IF_ERROR(fields.Expect(*root, Kind::kObject, "(the index)", "an object"));
  TESSERA_ASSIGN_OR_RETURN(const Value* format, fields.Member(*root, "", "format"));
  if (format->kind != Kind::kString || format->string != kFormatName) {
    return fields.Wrong(*format, "format", json::Quote(kFormatName));
  }
  TESSERA_ASSIGN_OR_RETURN(const Value* version, fields.Member(*root, "", "version"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t version_value, fields.Integer(*version, "version", 1));
  if (version_value > kIndexVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat(index_name, ": byte ", version->offset, ": field 'version' is ", version_value,
                     "; this Tessera reads version ", kIndexVersion, " (the index was written by a newer one)"));
  }
  TESSERA_RETURN_IF_ERROR(fields.OnlyKnown(*root, "", {"format", "version", "num_processes", "files", "tensors"}));

  Index index;
  index.version = version_value;
  TESSERA_ASSIGN_OR_RETURN(const Value* num_processes, fields.Member(*root, "", "num_processes"));
  TESSERA_ASSIGN_OR_RETURN(index.num_processes, fields.Integer(*num_processes, "num_processes", 1));

  TESSERA_ASSIGN_OR_RETURN(const Value* files, fields.Member(*root, "", "files"));
  if (files->kind != Kind::kArray || files->array.size() != static_cast<uint64_t>(index.num_processes)) {
    return fields.Wrong(*files, "files",
                        absl::StrCat("an array of ", index.num_processes, " file names (one per process)"));
  }
  absl::flat_hash_set<std::string> file_names;
  for (size_t i = 0; i < files->array.size(); ++i) {
    const std::string path = absl::StrCat("files[", i, "]");
    TESSERA_RETURN_IF_ERROR(CheckFileName(fields, files->array[i], path));
    if (!file_names.insert(files->array[i].string).second) {
      return fields.Wrong(files->array[i], path, "a name no other file has");
    }
    index.files.push_back(files->array[i].string);
  }

  TESSERA_ASSIGN_OR_RETURN(const Value* tensors, fields.Member(*root, "", "tensors"));
  TESSERA_RETURN_IF_ERROR(fields.Expect(*tensors, Kind::kArray, "tensors", "an array"));
  absl::flat_hash_set<std::string> tensor_names;
  for (size_t i = 0; i < tensors->array.size(); ++i) {
    const std::string path = absl::StrCat("tensors[", i, "]");
    TESSERA_ASSIGN_OR_RETURN(IndexTensor tensor, ParseTensor(fields, tensors->array[i], path, index.files.size()));
    if (!tensor_names.insert(tensor.name).second) {
      return fields.Wrong(*tensors->array[i].Find("name"), path + ".name", "a name no other tensor has");
    }
    index.tensors.push_back(std::move(tensor));
  }
  return index;
}

absl::StatusOr<Index> ReadIndex(const std::string& directory) {
  const std::string path = IndexPath(directory);
  absl::StatusOr<std::string> text = ReadWholeFile(path, kMaxIndexBytes);
  if (absl::IsNotFound(text.status())) {
    return absl::FailedPreconditionError(absl::StrCat(directory, ": no ", kIndexFileName,
                                                      "; the save did not finish, or ", directory,
                                                      " is no Tessera checkpoint"));
  }
  if (!text.ok()) return text.status();
  return ParseIndex(*text, path);
}

absl::StatusOr<std::string> IndexToJson(const Index& index) {
  std::string out = absl::StrCat("{\"format\": ", json::Quote(kFormatName), ", \"version\": ", index.version,
                                 ",\n \"num_processes\": ", index.num_processes, ",\n \"files\": [");
  for (size_t i = 0; i < index.files.size(); ++i) {
    absl::StrAppend(&out, i > 0 ? ", " : "", json::Quote(index.files[i]));
  }
  out += "],\n \"tensors\": [";
  for (size_t t = 0; t < index.tensors.size(); ++t) {
    const IndexTensor& tensor = index.tensors[t];
    TESSERA_ASSIGN_OR_RETURN(const std::string mesh, MeshToJson(tensor.sharding.mesh()));
    TESSERA_ASSIGN_OR_RETURN(const std::string layout, LayoutToJson(tensor.sharding.layout()));
    absl::StrAppend(&out, t > 0 ? ",\n  " : "\n  ", "{\"name\": ", json::Quote(tensor.name),
                    ", \"dtype\": ", json::Quote(tensor.type.name), ", \"shape\": [",
                    absl::StrJoin(tensor.sharding.shape(), ", "), "], \"mesh\": ", mesh, ", \"layout\": ", layout,
                    ", \"shard_mode\": ", json::Quote(ShardModeName(tensor.sharding.mode())), ", \"pieces\": [");
    for (size_t i = 0; i < tensor.pieces.size(); ++i) {
      const IndexPiece& piece = tensor.pieces[i];
      absl::StrAppend(&out, i > 0 ? ", " : "", "{\"file\": ", piece.file, ", \"offset\": ", piece.offset,
                      ", \"size\": ", piece.size, ", \"ranges\": [",
                      absl::StrJoin(piece.ranges, ", ",
                                    [](std::string* s, const IndexRange& r) {
                                      absl::StrAppend(s, "[", r.start, ", ", r.stop, "]");
                                    }),
                      "]}");
    }
    out += "]}";
  }
  out += index.tensors.empty() ? "]}\n" : "\n ]}\n";
  return out;
}

absl::Status VerifyIndexFiles(const Index& index, const std::string& directory) {
  // Pieces by file, so each header is read once.
  std::vector<std::vector<std::pair<const IndexTensor*, const IndexPiece*>>> by_file(index.files.size());
  for (const IndexTensor& tensor : index.tensors) {
    for (const IndexPiece& piece : tensor.pieces) by_file[piece.file].emplace_back(&tensor, &piece);
  }
  for (size_t f = 0; f < index.files.size(); ++f) {
    const std::string path = FilePath(index, directory, f);
    struct stat st;
    if (stat(path.c_str(), &st) != 0) {
      if (errno == ENOENT) {
        return absl::FailedPreconditionError(
            absl::StrCat(path, ": missing; ", kIndexFileName, " names it as file ", f));
      }
      return IoError(errno, "stat", path);
    }
    absl::StatusOr<Checkpoint> file = ReadSafetensorsFile(path);
    if (!file.ok()) {
      if (file.status().code() != absl::StatusCode::kInvalidArgument) return file.status();
      return absl::DataLossError(file.status().message());
    }
    TESSERA_RETURN_IF_ERROR(CheckFileMetadata(*file, path, f, index.num_processes));
    absl::flat_hash_map<std::string, const Tensor*> stored;
    for (const Tensor& t : file->tensors) stored.emplace(t.name, &t);
    for (const auto& [tensor, piece] : by_file[f]) {
      const std::string name = PieceName(tensor->name, piece->ranges);
      auto it = stored.find(name);
      if (it == stored.end()) {
        return DataLoss(path, absl::StrCat("no tensor '", name, "'; ", kIndexFileName,
                                           " puts that piece of tensor '", tensor->name, "' in this file"));
      }
      const Tensor& t = *it->second;
      std::vector<int64_t> shape;
      for (const IndexRange& r : piece->ranges) shape.push_back(r.size());
      if (t.type.name != tensor->type.name || t.shape != shape || t.offset != piece->offset ||
          t.size != piece->size) {
        return DataLoss(path, absl::StrCat("tensor '", name, "' is ", t.type.name, " [", absl::StrJoin(t.shape, ", "),
                                           "] at bytes [", t.offset, ", ", t.offset + t.size, "); ",
                                           kIndexFileName, " says ", tensor->type.name, " [",
                                           absl::StrJoin(shape, ", "), "] at bytes [", piece->offset, ", ",
                                           piece->offset + piece->size, ")"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace tessera::checkpoint::sharded
