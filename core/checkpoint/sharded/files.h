// The file operations of a crash-safe save: a file is written under a
// temporary name, made durable (fsync), renamed to its final name, and the
// rename made durable (fsync of the directory), so that after a crash the
// final name holds either nothing, the previous file, or the whole new file,
// never a part of one.
#ifndef TESSERA_CORE_CHECKPOINT_SHARDED_FILES_H_
#define TESSERA_CORE_CHECKPOINT_SHARDED_FILES_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessera::checkpoint::sharded {

// An errno as a status: "cannot WHAT PATH: strerror", the errno's code.
absl::Status IoError(int error, absl::string_view what, absl::string_view path);

// The whole of a regular file of at most `max_bytes` bytes (INVALID_ARGUMENT
// naming the file beyond that); NOT_FOUND when it does not exist.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path, uint64_t max_bytes);

// fsync of a directory, which makes the renames and removals in it durable.
absl::Status SyncDirectory(const std::string& directory);

// "FINAL.tmp.<pid>": the temporary name of a file being written.
std::string TemporaryName(absl::string_view final_path);

// A file written under its temporary name and renamed into place by Commit.
// Destroyed without a successful Commit, it removes the temporary file (a
// crash leaves it behind; save removes such leftovers when it finishes).
class AtomicFile {
 public:
  // Creates (or truncates) TemporaryName(final_path), mode 0644.
  static absl::StatusOr<AtomicFile> Create(const std::string& final_path);

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&&) = delete;
  AtomicFile(const AtomicFile&) = delete;
  ~AtomicFile();

  absl::Status Append(absl::string_view bytes);
  // Bytes appended so far.
  uint64_t size() const { return size_; }
  // fsync, close, rename over the final name, fsync of the directory.
  absl::Status Commit();

 private:
  AtomicFile(std::string final_path, std::string temporary_path, int fd)
      : final_path_(std::move(final_path)), temporary_path_(std::move(temporary_path)), fd_(fd) {}

  std::string final_path_;
  std::string temporary_path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  bool committed_ = false;
};

}  // namespace tessera::checkpoint::sharded

#endif  // TESSERA_CORE_CHECKPOINT_SHARDED_FILES_H_
