// The index of a sharded Tessera checkpoint (docs/checkpoint-index.md): the
// model, its JSON text, and the checks a reader makes before trusting it.
//
// A sharded checkpoint is a directory: one safetensors file per process of
// the saving job, holding the distinct shards ("pieces") that process
// stored, and DIR/tessera-index.json, written last, naming for every tensor
// its dtype, global shape, mesh, layout, shard mode and every piece's file,
// absolute byte offset, size and index ranges.
//
// API used by save (writer.h) and by restore:
//   struct IndexPiece, IndexTensor, Index          the model
//   ReadIndex(directory)       -> StatusOr<Index>  file -> model, fully checked
//   ParseIndex(text, name)     -> StatusOr<Index>  the same on text
//   IndexToJson(index)         -> StatusOr<string> model -> text (canonical)
//   VerifyIndexFiles(index, directory) -> Status   files against the index
//   PieceName(name, ranges) / ParsePieceName(text) the in-file tensor names
//   HasElements(ranges), PieceRangesLess(a, b)     which boxes are stored, in what order
//   FindPiece(tensor, ranges)  -> const IndexPiece* the piece of a box, O(log pieces)
//   IndexPath(directory), FilePath(index, directory, file)
//
// The index is untrusted input. ParseIndex checks every field (types,
// ranges, the dtype, the mesh and layout through their normal constructors,
// the tensor's sharding under its mode) and that each tensor's pieces are
// exactly the distinct shards of that sharding that have elements, each
// once: a piece that is no shard, a piece twice, or a shard with no piece
// ("tensor 'w': elements [0:2, 4:8] are in no piece") is refused, so the
// pieces tile the tensor. Errors name the index, the byte offset of the
// value, the field path and what was expected:
//   "DIR/tessera-index.json: byte 120: field 'tensors[0].pieces[1].size' is
//    -4; expected a non-negative integer".
//
// Status codes, for callers that branch on them:
//   FAILED_PRECONDITION  no index in the directory (a save that never
//                        finished, or no Tessera checkpoint); an index of a
//                        newer version; a file the index names is missing.
//   INVALID_ARGUMENT     an index that is not a valid version-1 index.
//   DATA_LOSS            a file the index names is not what the index says
//                        (not safetensors, shorter, another header, a piece
//                        at another offset or of another dtype or shape).
//   the errno's code     an I/O error.
#ifndef TESSERA_CORE_CHECKPOINT_SHARDED_INDEX_H_
#define TESSERA_CORE_CHECKPOINT_SHARDED_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/checkpoint/checkpoint.h"
#include "core/shard.h"

namespace tessera::checkpoint::sharded {

inline constexpr char kIndexFileName[] = "tessera-index.json";
// The "format" of the index and of each process file's __metadata__.
inline constexpr char kFormatName[] = "tessera.checkpoint";
inline constexpr int64_t kIndexVersion = 1;

// One stored piece: a distinct shard of its tensor, row-major contiguous in
// bytes [offset, offset + size) of files[file], offset absolute in the file.
struct IndexPiece {
  size_t file = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  std::vector<IndexRange> ranges;  // one per tensor dimension, half-open

  friend bool operator==(const IndexPiece& a, const IndexPiece& b) {
    return a.file == b.file && a.offset == b.offset && a.size == b.size && a.ranges == b.ranges;
  }
};

struct IndexTensor {
  std::string name;
  ElementType type;   // a safetensors dtype (type.name is "F32", ...)
  Sharding sharding;  // the saved mesh, layout, global shape and shard mode
  // Sorted by ranges (row-major on the starts).
  std::vector<IndexPiece> pieces;
};

struct Index {
  int64_t version = kIndexVersion;
  int64_t num_processes = 1;
  std::vector<std::string> files;  // names inside the directory; position = file id
  std::vector<IndexTensor> tensors;  // in save order, names unique
};

// Whether every range is non-empty: only boxes with elements are stored.
bool HasElements(absl::Span<const IndexRange> ranges);

// The order of a tensor's pieces: row-major on the starts, then the stops.
bool PieceRangesLess(absl::Span<const IndexRange> a, absl::Span<const IndexRange> b);

// The piece of `tensor` whose ranges are `ranges` (a distinct shard's box:
// restore maps a source device to its piece this way), or nullptr when
// none is (an empty box has none). Binary search on the sorted pieces.
const IndexPiece* FindPiece(const IndexTensor& tensor, absl::Span<const IndexRange> ranges);

// DIR/tessera-index.json.
std::string IndexPath(absl::string_view directory);

// DIR/files[file].
std::string FilePath(const Index& index, absl::string_view directory, size_t file);

// "NAME@S0:E0,S1:E1,..."; a rank-0 tensor is "NAME@".
std::string PieceName(absl::string_view name, absl::Span<const IndexRange> ranges);

// The inverse of PieceName (the last '@' separates the name, so a tensor
// name may hold '@'); INVALID_ARGUMENT naming the text when it has no '@',
// a range that is not START:STOP of decimal integers with 0 <= START <=
// STOP, or an empty element between commas.
struct ParsedPieceName {
  std::string name;
  std::vector<IndexRange> ranges;
};
absl::StatusOr<ParsedPieceName> ParsePieceName(absl::string_view text);

// Parses and checks (see the file comment) the text of an index;
// `index_name` is how errors name it.
absl::StatusOr<Index> ParseIndex(absl::string_view text, absl::string_view index_name);

// Reads DIR/tessera-index.json and parses it. FAILED_PRECONDITION "DIR: no
// tessera-index.json; the save did not finish, or DIR is no Tessera
// checkpoint" when it does not exist.
absl::StatusOr<Index> ReadIndex(const std::string& directory);

// The JSON text of `index` (docs/checkpoint-index.md), one tensor per line;
// ParseIndex(IndexToJson(x)) == x. Fails only when a mesh or layout has no
// JSON form (a name that is not UTF-8).
absl::StatusOr<std::string> IndexToJson(const Index& index);

// Checks the files against the index, reading only their headers: each
// file exists (FAILED_PRECONDITION "FILE: missing; tessera-index.json names
// it as file 1"), is a safetensors file whose __metadata__ says format
// tessera.checkpoint, its process and the process count, and holds every
// piece the index puts in it under PieceName, with the index's dtype, the
// piece's shape and exactly the index's offset and size (DATA_LOSS naming
// the file and the piece otherwise).
absl::Status VerifyIndexFiles(const Index& index, const std::string& directory);

}  // namespace tessera::checkpoint::sharded

#endif  // TESSERA_CORE_CHECKPOINT_SHARDED_INDEX_H_
