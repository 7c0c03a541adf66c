// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/loader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "core/status_macros.h"

namespace tessera::checkpoint {
namespace {

class PosixReader final : public FileReader {
 public:
  int Open(const char* path) override {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    return fd >= 0 ? fd : -errno;
  }
  int64_t Size(int handle) override {
    struct stat st;
    if (::fstat(handle, &st) != 0) return -errno;
    return static_cast<int64_t>(st.st_size);
  }
  int64_t Read(int handle, void* into, uint64_t size, uint64_t offset) override {
    while (true) {
      const ssize_t got = ::pread(handle, into, size, static_cast<off_t>(offset));
      if (got >= 0) return got;
      if (errno != EINTR) return -errno;
    }
  }
  void Close(int handle) override { ::close(handle); }
  void AdviseNoReadahead(int handle) override { ::posix_fadvise(handle, 0, 0, POSIX_FADV_RANDOM); }
  void AdviseWillRead(int handle, uint64_t offset, uint64_t size) override {
    ::posix_fadvise(handle, static_cast<off_t>(offset), static_cast<off_t>(size), POSIX_FADV_WILLNEED);
  }
};

// A part of one read, the unit a thread takes.
struct Chunk {
  size_t read = 0;
  uint64_t offset = 0;  // absolute in the file
  uint64_t size = 0;
  // The run a direct chunk lies in (it is read straight into that run's
  // first holder's buffer); kStaged for a chunk read through staging.
  size_t run = kStaged;
  static constexpr size_t kStaged = static_cast<size_t>(-1);
};

// Runs at least this long are read straight into their buffers when they
// tile their read: one request per run costs nothing next to its bytes,
// and the copy out of staging is saved.
constexpr uint64_t kDirectRunBytes = 64 * 1024;
// More threads than this only queue on the disk.
constexpr size_t kMaxThreads = 64;
// How far ahead of the threads the loader asks the kernel to start reading:
// enough requests in flight to keep a disk busy, little enough page cache
// filled ahead of its use. A hint covers at most kHintBytes, about the most
// one POSIX_FADV_WILLNEED starts (the kernel caps it at its readahead size).
constexpr uint64_t kHintAheadBytes = 128ull << 20;
constexpr uint64_t kHintBytes = 4ull << 20;

class Load {
 public:
  Load(const ReadPlan& plan, absl::Span<const Destination> destinations, const PieceCallback* deliver,
       const LoadOptions& options, const ProgressCallback& progress, FileReader& reader)
      : plan_(plan), destinations_(destinations), deliver_(deliver), progress_(progress), reader_(reader) {
    size_t threads = options.num_threads;
    if (threads == 0) threads = std::min<size_t>(4, std::max(1u, std::thread::hardware_concurrency()));
    threads_ = std::min(threads, kMaxThreads);
    chunk_bytes_ = std::max<uint64_t>(1, options.staging_bytes / threads_);
  }

  ~Load() {
    for (int fd : handles_) {
      if (fd >= 0) reader_.Close(fd);
    }
  }

  absl::Status Run() {
    TESSERA_RETURN_IF_ERROR(OpenFiles());
    for (size_t r = 0; r < plan_.reads.size(); ++r) {
      const Read& read = plan_.reads[r];
      if (Direct(read)) {
        for (size_t i = read.first_run; i < read.end_run; ++i) {
          const checkpoint::Run& run = plan_.runs[i];
          for (uint64_t at = 0; at < run.size; at += chunk_bytes_) {
            chunks_.push_back(Chunk{r, run.file_offset + at, std::min(chunk_bytes_, run.size - at), i});
          }
        }
        continue;
      }
      for (uint64_t at = 0; at < read.size; at += chunk_bytes_) {
        chunks_.push_back(Chunk{r, read.offset + at, std::min(chunk_bytes_, read.size - at)});
      }
    }
    chunk_end_.reserve(chunks_.size());
    uint64_t end = 0;
    for (const Chunk& chunk : chunks_) chunk_end_.push_back(end += chunk.size);
    AdviseGaps();
    const size_t threads = std::min(threads_, chunks_.size());
    if (threads <= 1) {
      Work();
    } else {
      std::vector<std::thread> pool;
      pool.reserve(threads);
      // Without another thread the ones started still finish the work.
      try {
        for (size_t i = 0; i < threads; ++i) pool.emplace_back([this] { Work(); });
      } catch (const std::system_error&) {
        if (pool.empty()) Work();
      }
      for (std::thread& t : pool) t.join();
    }
    absl::MutexLock lock(&mu_);
    return error_;
  }

  uint64_t bytes_read() const { return bytes_read_.load(); }

 private:
  absl::Status OpenFiles() {
    handles_.assign(plan_.files.size(), -1);
    for (const Read& read : plan_.reads) {
      if (handles_[read.file] >= 0) continue;
      const File& file = plan_.files[read.file];
      const int fd = reader_.Open(file.path.c_str());
      if (fd < 0) {
        return absl::ErrnoToStatus(-fd, absl::StrCat(file.path, ": byte ", read.offset, ": cannot open"));
      }
      handles_[read.file] = fd;
      const int64_t size = reader_.Size(fd);
      if (size < 0) return absl::ErrnoToStatus(static_cast<int>(-size), absl::StrCat(file.path, ": fstat"));
      if (static_cast<uint64_t>(size) != file.size) {
        return absl::FailedPreconditionError(absl::StrCat(
            file.path, ": byte ", read.offset, ": the file is ", size, " bytes, not the ", file.size,
            " it had when the checkpoint was opened; expected an unchanged file"));
      }
    }
    return absl::OkStatus();
  }

  // Readahead across a gap reads bytes the plan skips, so a file whose
  // reads leave one gets none.
  void AdviseGaps() {
    for (size_t r = 1; r < plan_.reads.size(); ++r) {
      const Read& read = plan_.reads[r];
      const Read& last = plan_.reads[r - 1];
      if (read.file == last.file && read.offset > last.offset + last.size) {
        reader_.AdviseNoReadahead(handles_[read.file]);
      }
    }
  }

  // Hints the chunks from `chunk` on up to kHintAheadBytes. One thread hints
  // at a time; the others go on reading rather than wait for it.
  void HintAhead(size_t chunk) {
    if (!hint_mu_.TryLock()) return;
    hinted_ = std::max(hinted_, chunk);
    while (hinted_ < chunks_.size() && chunk_end_[hinted_] - chunk_end_[chunk] < kHintAheadBytes) {
      const Chunk& c = chunks_[hinted_++];
      const int handle = handles_[plan_.reads[c.read].file];
      for (uint64_t at = 0; at < c.size; at += kHintBytes) {
        reader_.AdviseWillRead(handle, c.offset + at, std::min(kHintBytes, c.size - at));
      }
    }
    hint_mu_.Unlock();
  }

  void Fail(absl::Status status) {
    absl::MutexLock lock(&mu_);
    if (error_.ok()) error_ = std::move(status);
    stop_.store(true);
  }

  // Reads [offset, offset + size) of the read's file into `into`, all of it.
  absl::Status ReadFully(const Read& read, char* into, uint64_t offset, uint64_t size) {
    const File& file = plan_.files[read.file];
    uint64_t done = 0;
    while (done < size) {
      const int64_t got = reader_.Read(handles_[read.file], into + done, size - done, offset + done);
      if (got < 0) {
        return absl::ErrnoToStatus(static_cast<int>(-got),
                                   absl::StrCat(file.path, ": byte ", offset + done, ": pread"));
      }
      if (got == 0) {
        return absl::DataLossError(absl::StrCat(file.path, ": byte ", offset + done, ": the file ended after ",
                                                done, " of the ", size, " bytes asked for; expected ",
                                                file.size, " bytes in the file"));
      }
      bytes_read_.fetch_add(static_cast<uint64_t>(got));
      done += static_cast<uint64_t>(got);
    }
    return absl::OkStatus();
  }

  // With buffers, whether `read` goes straight into them: it is one run, or
  // runs of at least kDirectRunBytes that tile it with no gap (a gap's bytes
  // are in the plan, so they must still be read, through staging).
  bool Direct(const Read& read) const {
    if (deliver_ != nullptr) return false;
    const bool one = read.end_run == read.first_run + 1;
    uint64_t at = read.offset;
    for (size_t i = read.first_run; i < read.end_run; ++i) {
      const checkpoint::Run& run = plan_.runs[i];
      if (run.file_offset != at || (!one && run.size < kDirectRunBytes)) return false;
      at += run.size;
    }
    return at == read.offset + read.size;
  }

  // Hands [lo, lo + n) of distinct piece `distinct`'s bytes to its holders.
  bool Deliver(size_t distinct, uint64_t piece_offset, const char* bytes, uint64_t n, const char* skip) {
    for (size_t piece : plan_.distinct[distinct].pieces) {
      if (deliver_ != nullptr) {
        if (!(*deliver_)(piece, piece_offset, bytes, n)) return false;
        continue;
      }
      char* to = static_cast<char*>(destinations_[piece].data) + piece_offset;
      if (to != skip) std::memcpy(to, bytes, n);
    }
    return true;
  }

  absl::Status DoChunk(const Chunk& chunk, std::vector<char>& staging) {
    const Read& read = plan_.reads[chunk.read];
    if (chunk.run != Chunk::kStaged) {
      const checkpoint::Run* run = &plan_.runs[chunk.run];
      const size_t first = plan_.distinct[run->distinct].pieces.front();
      const uint64_t piece_offset = run->piece_offset + (chunk.offset - run->file_offset);
      char* into = static_cast<char*>(destinations_[first].data) + piece_offset;
      TESSERA_RETURN_IF_ERROR(ReadFully(read, into, chunk.offset, chunk.size));
      Deliver(run->distinct, piece_offset, into, chunk.size, into);
      return absl::OkStatus();
    }
    if (staging.size() < chunk.size) staging.resize(chunk.size);
    TESSERA_RETURN_IF_ERROR(ReadFully(read, staging.data(), chunk.offset, chunk.size));
    const uint64_t end = chunk.offset + chunk.size;
    // The first run ending after the chunk's start.
    const auto begin = plan_.runs.begin() + static_cast<std::ptrdiff_t>(read.first_run);
    const auto stop = plan_.runs.begin() + static_cast<std::ptrdiff_t>(read.end_run);
    auto it = std::upper_bound(begin, stop, chunk.offset,
                               [](uint64_t at, const checkpoint::Run& r) { return at < r.file_offset + r.size; });
    for (; it != stop && it->file_offset < end; ++it) {
      const uint64_t lo = std::max(it->file_offset, chunk.offset);
      const uint64_t hi = std::min(it->file_offset + it->size, end);
      if (!Deliver(it->distinct, it->piece_offset + (lo - it->file_offset), staging.data() + (lo - chunk.offset),
                   hi - lo, nullptr)) {
        return absl::CancelledError(absl::StrCat("The piece callback cancelled the load at ",
                                                 plan_.files[read.file].path, ": byte ", lo));
      }
    }
    return absl::OkStatus();
  }

  // One chunk, then its progress report.
  absl::Status Step(const Chunk& chunk, std::vector<char>& staging) {
    TESSERA_RETURN_IF_ERROR(DoChunk(chunk, staging));
    if (!progress_) return absl::OkStatus();
    absl::MutexLock lock(&progress_mu_);
    done_ += chunk.size;
    if (stop_.load() || progress_(done_, plan_.total_bytes)) return absl::OkStatus();
    return absl::CancelledError(
        absl::StrCat("The progress callback cancelled the load after ", done_, " of ", plan_.total_bytes, " bytes"));
  }

  void Work() {
    std::vector<char> staging;
    while (!stop_.load()) {
      const size_t i = next_.fetch_add(1);
      if (i >= chunks_.size()) return;
      HintAhead(i);
      absl::Status status;
      // A caller's callback may throw; on a loader thread that would end the
      // process, so it becomes the load's error.
      try {
        status = Step(chunks_[i], staging);
      } catch (const std::exception& e) {
        status = absl::InternalError(absl::StrCat("The load stopped on an exception: ", e.what()));
      } catch (...) {
        status = absl::InternalError("The load stopped on an exception");
      }
      if (!status.ok()) return Fail(std::move(status));
    }
  }

  const ReadPlan& plan_;
  absl::Span<const Destination> destinations_;
  const PieceCallback* deliver_;
  const ProgressCallback& progress_;
  FileReader& reader_;
  size_t threads_ = 1;
  uint64_t chunk_bytes_ = 1;
  std::vector<int> handles_;
  std::vector<Chunk> chunks_;
  std::atomic<size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> bytes_read_{0};
  absl::Mutex mu_;
  absl::Status error_;
  absl::Mutex progress_mu_;
  uint64_t done_ = 0;
  absl::Mutex hint_mu_;
  size_t hinted_ = 0;  // chunks before it have been hinted
  std::vector<uint64_t> chunk_end_;  // bytes of chunks_ up to and including each
};

absl::Status Execute(const ReadPlan& plan, absl::Span<const Destination> destinations,
                     const PieceCallback* deliver, const LoadOptions& options, const ProgressCallback& progress,
                     uint64_t* bytes_read, FileReader& reader) {
  Load load(plan, destinations, deliver, options, progress, reader);
  absl::Status status = load.Run();
  if (bytes_read != nullptr) *bytes_read = load.bytes_read();
  return status;
}

}  // namespace

FileReader& PosixFileReader() {
  static PosixReader* const reader = new PosixReader();
  return *reader;
}

absl::Status LoadIntoBuffers(const ReadPlan& plan, absl::Span<const Destination> destinations,
                             const LoadOptions& options, const ProgressCallback& progress, uint64_t* bytes_read,
                             FileReader& reader) {
  if (bytes_read != nullptr) *bytes_read = 0;
  if (destinations.size() != plan.pieces.size()) {
    return absl::InvalidArgumentError(absl::StrCat("Argument 'num_buffers' is ", destinations.size(),
                                                   "; expected ", plan.pieces.size(), ", one per piece"));
  }
  for (size_t i = 0; i < destinations.size(); ++i) {
    if (destinations[i].size != plan.pieces[i].size) {
      return absl::InvalidArgumentError(absl::StrCat("Argument 'sizes[", i, "]' is ", destinations[i].size,
                                                     "; expected ", plan.pieces[i].size,
                                                     ", the bytes of piece ", i));
    }
    if (destinations[i].data == nullptr && destinations[i].size > 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Argument 'buffers[", i, "]' is NULL; expected a valid pointer"));
    }
  }
  return Execute(plan, destinations, nullptr, options, progress, bytes_read, reader);
}

absl::Status LoadWithCallback(const ReadPlan& plan, const PieceCallback& deliver, const LoadOptions& options,
                              const ProgressCallback& progress, uint64_t* bytes_read, FileReader& reader) {
  if (bytes_read != nullptr) *bytes_read = 0;
  if (!deliver) return absl::InvalidArgumentError("Argument 'piece_fn' is NULL; expected a valid pointer");
  return Execute(plan, {}, &deliver, options, progress, bytes_read, reader);
}

}  // namespace tessera::checkpoint
