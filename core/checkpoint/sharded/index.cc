#include "core/checkpoint/sharded/index.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <cstring>
#include <sstream>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "core/checkpoint/box_runs.h"
#include "core/checkpoint/json.h"
#include "core/checkpoint/safetensors.h"
#include "core/formats/tessera_proto.h"
#include "core/status_macros.h"

namespace tessera::checkpoint::sharded {
namespace {

using json::Value;

// The index's text and path, for errors that say where it is wrong.
class IndexText {
 public:
  IndexText(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }

  absl::Status Error(const Value& at, absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(path_, ": byte ", at.offset, ": ", what));
  }

  // The member `key` of object `object`, of kind `kind`.
  absl::StatusOr<const Value*> Member(const Value& object, absl::string_view key, Value::Kind kind,
                                      absl::string_view expected) const {
    const Value* value = object.Find(key);
    if (value == nullptr) return Error(object, absl::StrCat("no \"", key, "\"; expected ", expected));
    if (value->kind != kind) {
      return Error(*value, absl::StrCat("\"", key, "\" is ", value->KindName(), "; expected ", expected));
    }
    return value;
  }

  absl::StatusOr<int64_t> Integer(const Value& value, absl::string_view what, int64_t min) const {
    if (value.kind != Value::Kind::kInteger || value.integer < min) {
      return Error(value, absl::StrCat(what, " is ", value.kind == Value::Kind::kInteger ? "" : value.KindName(),
                                       value.kind == Value::Kind::kInteger ? absl::StrCat(value.integer) : "",
                                       "; expected an integer of at least ", min));
    }
    return value.integer;
  }

  // The text of the value at `at` (the index parsed, so it is valid JSON).
  absl::string_view Raw(const Value& at) const {
    const size_t begin = static_cast<size_t>(at.offset);
    size_t i = begin;
    int depth = 0;
    bool in_string = false;
    for (; i < text_.size(); ++i) {
      const char c = text_[i];
      if (in_string) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          in_string = false;
          if (depth == 0) return absl::string_view(text_).substr(begin, i + 1 - begin);
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return absl::string_view(text_).substr(begin, i + 1 - begin);
      } else if (depth == 0 && (c == ',' || c == ' ' || c == '\n' || c == '\t' || c == '\r')) {
        break;
      }
    }
    return absl::string_view(text_).substr(begin, i - begin);
  }

 private:
  std::string path_;
  std::string text_;
};

std::string RangesText(absl::Span<const IndexRange> ranges) {
  std::string text = "[";
  for (size_t d = 0; d < ranges.size(); ++d) {
    absl::StrAppend(&text, d > 0 ? ", " : "", ranges[d].start, ":", ranges[d].stop);
  }
  return text + "]";
}

absl::StatusOr<ShardMode> ModeNamed(const IndexText& index, const Value& value) {
  for (ShardMode mode : {ShardMode::kStrict, ShardMode::kChunkFlat, ShardMode::kChunkNested}) {
    if (value.string == ShardModeName(mode)) return mode;
  }
  return index.Error(value, absl::StrCat("\"shard_mode\" is \"", value.string,
                                         "\"; expected \"strict\", \"chunk-flat\" or \"chunk-nested\""));
}

absl::StatusOr<std::string> ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::ErrnoToStatus(errno, absl::StrCat(path, ": cannot open"));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return absl::ErrnoToStatus(errno, absl::StrCat(path, ": cannot read"));
  return text.str();
}

absl::StatusOr<IndexPiece> ReadPiece(const IndexText& index, const Value& value, const std::string& tensor,
                                      const ElementType& type, const std::vector<int64_t>& shape,
                                      size_t num_files) {
  if (value.kind != Value::Kind::kObject) {
    return index.Error(value, absl::StrCat("a piece of tensor '", tensor, "' is ", value.KindName(),
                                           "; expected an object"));
  }
  IndexPiece piece;
  TESSERA_ASSIGN_OR_RETURN(const Value* file, index.Member(value, "file", Value::Kind::kInteger, "a file id"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t file_id, index.Integer(*file, "\"file\"", 0));
  if (static_cast<uint64_t>(file_id) >= num_files) {
    return index.Error(*file, absl::StrCat("\"file\" is ", file_id, "; expected less than ", num_files,
                                           " (the files listed)"));
  }
  piece.file = static_cast<size_t>(file_id);
  TESSERA_ASSIGN_OR_RETURN(const Value* offset, index.Member(value, "offset", Value::Kind::kInteger, "a byte offset"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t at, index.Integer(*offset, "\"offset\"", 0));
  TESSERA_ASSIGN_OR_RETURN(const Value* size, index.Member(value, "size", Value::Kind::kInteger, "a byte count"));
  TESSERA_ASSIGN_OR_RETURN(const int64_t bytes, index.Integer(*size, "\"size\"", 0));
  piece.offset = static_cast<uint64_t>(at);
  piece.size = static_cast<uint64_t>(bytes);
  TESSERA_ASSIGN_OR_RETURN(const Value* ranges,
                           index.Member(value, "ranges", Value::Kind::kArray, "[start, stop] per dimension"));
  if (ranges->array.size() != shape.size()) {
    return index.Error(*ranges, absl::StrCat("a piece of tensor '", tensor, "' has ", ranges->array.size(),
                                             " ranges; expected ", shape.size(), ", one per dimension"));
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    const Value& range = ranges->array[d];
    const bool pair = range.kind == Value::Kind::kArray && range.array.size() == 2 &&
                      range.array[0].kind == Value::Kind::kInteger && range.array[1].kind == Value::Kind::kInteger;
    if (!pair || range.array[0].integer < 0 || range.array[0].integer > range.array[1].integer ||
        range.array[1].integer > shape[d]) {
      return index.Error(range, absl::StrCat("range ", d, " of a piece of tensor '", tensor,
                                             "' is not [start, stop] with 0 <= start <= stop <= ", shape[d]));
    }
    piece.ranges.push_back(IndexRange{range.array[0].integer, range.array[1].integer});
  }
  if (!shape.empty() && type.block_elements > 1 &&
      (piece.ranges.back().start % type.block_elements != 0 || piece.ranges.back().stop % type.block_elements != 0)) {
    return index.Error(*ranges, absl::StrCat("the piece ", RangesText(piece.ranges), " of tensor '", tensor,
                                             "' cuts a block of ", type.block_elements, " elements of ", type.name));
  }
  const uint64_t expected = BoxBytes(type, piece.ranges);
  if (piece.size != expected) {
    return index.Error(*size, absl::StrCat("the piece ", RangesText(piece.ranges), " of tensor '", tensor, "' is ",
                                           piece.size, " bytes; expected ", expected, " for ", type.name));
  }
  return piece;
}

// The pieces must be exactly the non-empty distinct shards of the saved
// sharding: those tile the tensor, so nothing is missing or stored twice.
absl::Status CheckTiling(const IndexTensor& tensor) {
  absl::flat_hash_map<std::vector<int64_t>, size_t> piece_of;
  for (size_t p = 0; p < tensor.pieces.size(); ++p) {
    if (!piece_of.emplace(RangesKey(tensor.pieces[p].ranges), p).second) {
      return absl::InvalidArgumentError(absl::StrCat("tensor '", tensor.name, "': elements ",
                                              RangesText(tensor.pieces[p].ranges), " are in two pieces"));
    }
  }
  absl::flat_hash_set<std::vector<int64_t>> shards;
  for (const DistinctShard& shard : tensor.sharding.DistinctShards()) {
    bool empty = false;
    for (const IndexRange& r : shard.ranges) empty = empty || r.size() == 0;
    if (!empty && !piece_of.contains(RangesKey(shard.ranges))) {
      return absl::InvalidArgumentError(absl::StrCat("tensor '", tensor.name, "': elements ", RangesText(shard.ranges),
                                              " are in no piece"));
    }
    shards.insert(RangesKey(shard.ranges));
  }
  for (const IndexPiece& piece : tensor.pieces) {
    if (!shards.contains(RangesKey(piece.ranges))) {
      return absl::InvalidArgumentError(absl::StrCat("tensor '", tensor.name, "': the piece ", RangesText(piece.ranges),
                                              " is not a shard of its saved layout"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool HasElements(absl::Span<const IndexRange> ranges) {
  for (const IndexRange& range : ranges) {
    if (range.size() == 0) return false;
  }
  return true;
}

std::string IndexPath(absl::string_view directory) { return absl::StrCat(directory, "/", kIndexFileName); }

std::string FilePath(const Index& index, absl::string_view directory, size_t file) {
  return absl::StrCat(directory, "/", index.files[file]);
}

absl::Status VerifyIndexFiles(const Index& index, const std::string& directory) {
  const std::string index_path = IndexPath(directory);
  for (size_t f = 0; f < index.files.size(); ++f) {
    const std::string path = FilePath(index, directory, f);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, ": missing; ", kIndexFileName, " names it as file ", f));
    }
    absl::StatusOr<Checkpoint> header = ReadSafetensorsFile(path);
    if (!header.ok()) {
      return absl::DataLossError(absl::StrCat(header.status().message(), " (file ", f, " of ", index_path, ")"));
    }
    absl::flat_hash_map<std::string, const Tensor*> by_name;
    for (const Tensor& t : header->tensors) by_name.emplace(t.name, &t);
    for (const IndexTensor& tensor : index.tensors) {
      for (const IndexPiece& piece : tensor.pieces) {
        if (piece.file != f) continue;
        const std::string name = PieceName(tensor.name, piece.ranges);
        auto it = by_name.find(name);
        if (it == by_name.end()) {
          return absl::DataLossError(absl::StrCat(path, ": no tensor '", name, "'; ", index_path,
                                                  " places it at byte ", piece.offset));
        }
        const Tensor& stored = *it->second;
        if (stored.offset != piece.offset || stored.size != piece.size || !(stored.type == tensor.type)) {
          return absl::DataLossError(absl::StrCat(path, ": tensor '", name, "' is ", stored.size, " bytes of ",
                                                  stored.type.name, " at byte ", stored.offset, "; ", index_path,
                                                  " says ", piece.size, " bytes of ", tensor.type.name,
                                                  " at byte ", piece.offset));
        }
      }
    }
  }
  return absl::OkStatus();
}

std::string PieceName(absl::string_view tensor, absl::Span<const IndexRange> ranges) {
  std::string name = absl::StrCat(tensor, "@");
  for (size_t d = 0; d < ranges.size(); ++d) {
    absl::StrAppend(&name, d > 0 ? "," : "", ranges[d].start, ":", ranges[d].stop);
  }
  return name;
}

absl::StatusOr<Index> ReadIndex(const std::string& directory) {
  const std::string index_path = IndexPath(directory);
  struct stat st;
  if (::stat(index_path.c_str(), &st) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(directory, ": no ", kIndexFileName,
                                                      "; the save did not finish, or ", directory,
                                                      " is no Tessera checkpoint"));
  }
  TESSERA_ASSIGN_OR_RETURN(std::string text, ReadText(index_path));
  return ParseIndex(text, index_path);
}

absl::StatusOr<Index> ParseIndex(absl::string_view text, absl::string_view index_name) {
  const IndexText index_text{std::string(index_name), std::string(text)};
  absl::StatusOr<Value> parsed = json::Parse(index_text.text());
  if (!parsed.ok()) return absl::InvalidArgumentError(absl::StrCat(index_name, ": ", parsed.status().message()));
  const Value& root = *parsed;
  if (root.kind != Value::Kind::kObject) {
    return index_text.Error(root, absl::StrCat("the index is ", root.KindName(), "; expected an object"));
  }
  TESSERA_ASSIGN_OR_RETURN(const Value* format,
                           index_text.Member(root, "format", Value::Kind::kString, "\"tessera.checkpoint\""));
  if (format->string != "tessera.checkpoint") {
    return index_text.Error(*format, absl::StrCat("\"format\" is \"", format->string,
                                                  "\"; expected \"tessera.checkpoint\""));
  }
  TESSERA_ASSIGN_OR_RETURN(const Value* version, index_text.Member(root, "version", Value::Kind::kInteger, "1"));
  if (version->integer != 1) {
    return index_text.Error(*version, absl::StrCat("\"version\" is ", version->integer,
                                                   "; expected 1 (the version this Tessera reads)"));
  }
  Index index;
  TESSERA_ASSIGN_OR_RETURN(const Value* processes,
                           index_text.Member(root, "num_processes", Value::Kind::kInteger, "a process count"));
  TESSERA_ASSIGN_OR_RETURN(index.num_processes, index_text.Integer(*processes, "\"num_processes\"", 1));
  TESSERA_ASSIGN_OR_RETURN(const Value* files,
                           index_text.Member(root, "files", Value::Kind::kArray, "an array of file names"));
  for (const Value& file : files->array) {
    if (file.kind != Value::Kind::kString || file.string.empty() || file.string.find('/') != std::string::npos ||
        file.string == "." || file.string == "..") {
      return index_text.Error(file, "a file is not the name of a file in the index's directory");
    }
    index.files.push_back(file.string);
  }
  TESSERA_ASSIGN_OR_RETURN(const Value* tensors,
                           index_text.Member(root, "tensors", Value::Kind::kArray, "an array of tensors"));
  absl::flat_hash_map<std::string, size_t> seen;
  for (const Value& entry : tensors->array) {
    if (entry.kind != Value::Kind::kObject) {
      return index_text.Error(entry, absl::StrCat("a tensor is ", entry.KindName(), "; expected an object"));
    }
    TESSERA_ASSIGN_OR_RETURN(const Value* name, index_text.Member(entry, "name", Value::Kind::kString, "a name"));
    if (!seen.emplace(name->string, seen.size()).second) {
      return index_text.Error(*name, absl::StrCat("tensor '", name->string, "' is listed twice"));
    }
    auto named = [&](const absl::Status& status, const Value& at) {
      return index_text.Error(at, absl::StrCat("tensor '", name->string, "': ", status.message()));
    };
    TESSERA_ASSIGN_OR_RETURN(const Value* dtype,
                             index_text.Member(entry, "dtype", Value::Kind::kString, "a safetensors dtype"));
    absl::StatusOr<ElementType> type = SafetensorsElementType(dtype->string);
    if (!type.ok()) return named(type.status(), *dtype);
    TESSERA_ASSIGN_OR_RETURN(const Value* shape_value,
                             index_text.Member(entry, "shape", Value::Kind::kArray, "an array of sizes"));
    std::vector<int64_t> shape;
    for (const Value& size : shape_value->array) {
      TESSERA_ASSIGN_OR_RETURN(const int64_t n, index_text.Integer(size, "a dimension", 0));
      shape.push_back(n);
    }
    TESSERA_ASSIGN_OR_RETURN(const Value* mesh_value,
                             index_text.Member(entry, "mesh", Value::Kind::kObject, "a Tessera mesh (JSON)"));
    TESSERA_ASSIGN_OR_RETURN(const Value* layout_value,
                             index_text.Member(entry, "layout", Value::Kind::kObject, "a Tessera layout (JSON)"));
    absl::StatusOr<MeshPtr> mesh = MeshFromJson(index_text.Raw(*mesh_value));
    if (!mesh.ok()) return named(mesh.status(), *mesh_value);
    absl::StatusOr<TensorLayout> layout = LayoutFromJson(index_text.Raw(*layout_value));
    if (!layout.ok()) return named(layout.status(), *layout_value);
    if (layout->mesh() == nullptr || !(*layout->mesh() == **mesh)) {
      return named(absl::InvalidArgumentError("the layout's mesh is not the tensor's \"mesh\"; expected the same"),
                   *layout_value);
    }
    TESSERA_ASSIGN_OR_RETURN(const Value* mode_value,
                             index_text.Member(entry, "shard_mode", Value::Kind::kString, "a shard mode"));
    TESSERA_ASSIGN_OR_RETURN(const ShardMode mode, ModeNamed(index_text, *mode_value));
    absl::StatusOr<Sharding> saved = Sharding::Create(*layout, shape, mode);
    if (!saved.ok()) return named(saved.status(), *layout_value);
    IndexTensor tensor{name->string, *type, *std::move(saved), {}};
    TESSERA_ASSIGN_OR_RETURN(const Value* pieces,
                             index_text.Member(entry, "pieces", Value::Kind::kArray, "an array of pieces"));
    for (const Value& piece : pieces->array) {
      TESSERA_ASSIGN_OR_RETURN(IndexPiece stored,
                               ReadPiece(index_text, piece, tensor.name, tensor.type, shape, index.files.size()));
      tensor.pieces.push_back(std::move(stored));
    }
    TESSERA_RETURN_IF_ERROR(CheckTiling(tensor));
    index.tensors.push_back(std::move(tensor));
  }
  return index;
}

}  // namespace tessera::checkpoint::sharded
