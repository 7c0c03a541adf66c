// Helpers of the sharded-checkpoint tests: tensors whose bytes say where
// they are, the fill that saves them, a fresh directory per test, and
// reading a stored piece back.
#ifndef TESSERA_TESTS_CORE_SHARDED_TESTING_H_
#define TESSERA_TESTS_CORE_SHARDED_TESTING_H_

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/checkpoint/safetensors.h"
#include "core/checkpoint/sharded/writer.h"
#include "tests/core/testing.h"

namespace tessera::checkpoint::sharded::testing {

// A U8 tensor on `mesh` under the layout `spec` (testing::Layout's compact
// form); element i of the row-major global array is (i * 7 + seed) % 251,
// so a slice in the wrong place or order shows.
inline SaveTensor U8Tensor(const std::string& name, std::vector<int64_t> shape, const std::vector<std::string>& spec,
                           MeshPtr mesh, ShardMode mode = ShardMode::kStrict) {
  TensorLayout layout = ::tessera::testing::Layout(spec, std::move(mesh));
  return SaveTensor{name, ::tessera::testing::Unwrap(SafetensorsElementType("U8")),
                    ::tessera::testing::Unwrap(Sharding::Create(layout, std::move(shape), mode))};
}

inline char ElementByte(int64_t linear, int seed) { return static_cast<char>((linear * 7 + seed) % 251); }

// The box of a U8 tensor of global `shape` as row-major bytes.
inline std::string BoxBytes(const std::vector<int64_t>& shape, const std::vector<IndexRange>& box, int seed) {
  std::string out;
  const size_t rank = shape.size();
  std::vector<int64_t> at(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (box[d].size() == 0) return out;
    at[d] = box[d].start;
  }
  while (true) {
    int64_t linear = 0;
    for (size_t d = 0; d < rank; ++d) linear = linear * shape[d] + at[d];
    out.push_back(ElementByte(linear, seed));
    size_t d = rank;
    while (d > 0 && ++at[d - 1] == box[d - 1].stop) {
      at[d - 1] = box[d - 1].start;
      --d;
    }
    if (d == 0) return out;
  }
}

// A fill for WriteProcessFile giving each piece its BoxBytes.
inline FillPiece FillFrom(const std::vector<SaveTensor>& tensors, int seed) {
  return [&tensors, seed](const SavePiece& piece, uint64_t offset, absl::Span<char> out) {
    const std::string bytes = BoxBytes(tensors[piece.tensor].sharding.shape(), piece.ranges, seed);
    std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(offset), out.size(), out.begin());
    return absl::OkStatus();
  };
}

// Saves `tensors` as every process of a job would, then finishes.
inline Index SaveAll(const std::string& directory, const std::vector<SaveTensor>& tensors, int64_t num_processes,
                     int seed, uint64_t chunk_bytes = uint64_t{64} << 20) {
  const int64_t generation = ::tessera::testing::Unwrap(NextGeneration(directory));
  for (int64_t p = 0; p < num_processes; ++p) {
    WriteOptions options{p, num_processes, generation, chunk_bytes};
    ::tessera::testing::Unwrap(WriteProcessFile(directory, tensors, options, FillFrom(tensors, seed)));
  }
  return ::tessera::testing::Unwrap(FinishSave(directory, tensors, num_processes, generation));
}

// The bytes [offset, offset + size) of a file.
inline std::string ReadBytes(const std::string& path, uint64_t offset, uint64_t size) {
  std::string out(size, '\0');
  const int fd = open(path.c_str(), O_RDONLY);
  const ssize_t got = fd < 0 ? -1 : pread(fd, out.data(), size, static_cast<off_t>(offset));
  if (fd >= 0) close(fd);
  out.resize(got < 0 ? 0 : static_cast<size_t>(got));
  return out;
}

// A new empty directory under the test's temporary directory.
inline std::string FreshDirectory(const std::string& name) {
  std::string path = absl::StrCat(::testing::TempDir(), "/sharded-", name, "-XXXXXX");
  if (mkdtemp(path.data()) == nullptr) return "";
  return path;
}

// The names in a directory, sorted.
inline std::vector<std::string> ListDirectory(const std::string& directory) {
  std::vector<std::string> names;
  if (DIR* dir = opendir(directory.c_str())) {
    while (const dirent* entry = readdir(dir)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Whether every piece of the index holds its box's bytes of `seed`'s data.
inline bool PiecesHoldData(const Index& index, const std::string& directory, int seed) {
  for (const IndexTensor& tensor : index.tensors) {
    for (const IndexPiece& piece : tensor.pieces) {
      if (ReadBytes(FilePath(index, directory, piece.file), piece.offset, piece.size) !=
          BoxBytes(tensor.sharding.shape(), piece.ranges, seed)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace tessera::checkpoint::sharded::testing

#endif  // TESSERA_TESTS_CORE_SHARDED_TESTING_H_
