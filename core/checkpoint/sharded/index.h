// The index of a sharded Tessera checkpoint (issue 13 contract 2): the
// model and its reader. PROVISIONAL: restore's stand-in, API-compatible with
// i13-save's index.h (the same names and signatures), which replaces it when
// that branch is merged.
//
// A sharded checkpoint is a directory: one safetensors file per process of
// the saving job, holding the distinct shards ("pieces") that process
// stored, and DIR/tessera-index.json, written last, naming for every tensor
// its dtype, global shape, mesh, layout, shard mode and every piece's file,
// absolute byte offset, size and index ranges.
//
// Status codes:
//   FAILED_PRECONDITION  no index in the directory; a file the index names
//                        is missing.
//   INVALID_ARGUMENT     an index that is not a valid version-1 index
//                        ("INDEX: byte N: what"); the pieces not exactly the
//                        distinct shards with elements of the tensor's
//                        sharding ("tensor 'w': elements [0:2, 4:8] are in
//                        no piece").
//   DATA_LOSS            a file the index names is not what the index says.
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
inline constexpr char kFormatName[] = "tessera.checkpoint";
inline constexpr int64_t kIndexVersion = 1;

struct IndexPiece {
  size_t file = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  std::vector<IndexRange> ranges;  // one per tensor dimension, half-open
};

struct IndexTensor {
  std::string name;
  ElementType type;   // a safetensors dtype (type.name is "F32", ...)
  Sharding sharding;  // the saved mesh, layout, global shape and shard mode
  std::vector<IndexPiece> pieces;
};

struct Index {
  int64_t version = kIndexVersion;
  int64_t num_processes = 1;
  std::vector<std::string> files;    // names inside the directory; position = file id
  std::vector<IndexTensor> tensors;  // in save order, names unique
};

// Whether every range is non-empty: only boxes with elements are stored.
bool HasElements(absl::Span<const IndexRange> ranges);

// DIR/tessera-index.json.
std::string IndexPath(absl::string_view directory);

// DIR/files[file].
std::string FilePath(const Index& index, absl::string_view directory, size_t file);

// "NAME@S0:E0,S1:E1,..."; a rank-0 tensor is "NAME@".
std::string PieceName(absl::string_view name, absl::Span<const IndexRange> ranges);

// Parses and checks the text of an index; `index_name` is how errors name it.
absl::StatusOr<Index> ParseIndex(absl::string_view text, absl::string_view index_name);

// Reads DIR/tessera-index.json and parses it.
absl::StatusOr<Index> ReadIndex(const std::string& directory);

// Checks the files against the index, reading only their headers.
absl::Status VerifyIndexFiles(const Index& index, const std::string& directory);

}  // namespace tessera::checkpoint::sharded

#endif  // TESSERA_CORE_CHECKPOINT_SHARDED_INDEX_H_
