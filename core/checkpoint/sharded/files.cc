#include "core/checkpoint/sharded/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessera::checkpoint::sharded {
namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

absl::Status CloseFd(int fd, const std::string& path) {
  if (close(fd) != 0) return IoError(errno, "close", path);
  return absl::OkStatus();
}

}  // namespace

absl::Status IoError(int error, absl::string_view what, absl::string_view path) {
  return absl::ErrnoToStatus(error, absl::StrCat("cannot ", what, " ", path));
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path, uint64_t max_bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError(errno, "open", path);
  std::string out;
  absl::Status status = [&]() -> absl::Status {
    struct stat st;
    if (fstat(fd, &st) != 0) return IoError(errno, "stat", path);
    if (!S_ISREG(st.st_mode)) return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
    if (static_cast<uint64_t>(st.st_size) > max_bytes) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": ", st.st_size, " bytes, over the limit of ", max_bytes));
    }
    out.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while (done < out.size()) {
      const ssize_t got = pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) return IoError(errno, "read", path);
      if (got == 0) break;
      done += static_cast<size_t>(got);
    }
    out.resize(done);
    return absl::OkStatus();
  }();
  close(fd);
  if (!status.ok()) return status;
  return out;
}

absl::Status SyncDirectory(const std::string& directory) {
  const int fd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError(errno, "open directory", directory);
  if (fsync(fd) != 0) {
    const int error = errno;
    close(fd);
    return IoError(error, "fsync directory", directory);
  }
  return CloseFd(fd, directory);
}

std::string TemporaryName(absl::string_view final_path) {
  return absl::StrCat(final_path, ".tmp.", static_cast<int64_t>(getpid()));
}

absl::StatusOr<AtomicFile> AtomicFile::Create(const std::string& final_path) {
  std::string temporary = TemporaryName(final_path);
  const int fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return IoError(errno, "create", temporary);
  return AtomicFile(final_path, std::move(temporary), fd);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : final_path_(std::move(other.final_path_)),
      temporary_path_(std::move(other.temporary_path_)),
      fd_(std::exchange(other.fd_, -1)),
      size_(other.size_),
      committed_(std::exchange(other.committed_, true)) {}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) close(fd_);
  if (!committed_) unlink(temporary_path_.c_str());
}

absl::Status AtomicFile::Append(absl::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t put = write(fd_, bytes.data() + done, bytes.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return IoError(errno, "write", temporary_path_);
    done += static_cast<size_t>(put);
  }
  size_ += bytes.size();
  return absl::OkStatus();
}

absl::Status AtomicFile::Commit() {
  if (fsync(fd_) != 0) return IoError(errno, "fsync", temporary_path_);
  const int fd = std::exchange(fd_, -1);
  if (absl::Status closed = CloseFd(fd, temporary_path_); !closed.ok()) return closed;
  if (rename(temporary_path_.c_str(), final_path_.c_str()) != 0) {
    return IoError(errno, absl::StrCat("rename ", temporary_path_, " to"), final_path_);
  }
  committed_ = true;
  return SyncDirectory(DirectoryOf(final_path_));
}

}  // namespace tessera::checkpoint::sharded
