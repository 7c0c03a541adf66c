// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/checkpoint/loader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
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
  int OpenDirect(const char* path) override {
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
    return fd >= 0 ? fd : -errno;
  }
  uint64_t CachedBytes(int handle, uint64_t offset, uint64_t size) override {
    const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
    const uint64_t start = offset / page * page;
    const uint64_t length = offset + size - start;
    if (size == 0) return 0;
    void* map = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, handle, static_cast<off_t>(start));
    if (map == MAP_FAILED) return 0;
    std::vector<unsigned char> resident((length + page - 1) / page);
    uint64_t cached = 0;
    if (::mincore(map, length, resident.data()) == 0) {
      for (unsigned char r : resident) cached += (r & 1) * page;
    }
    ::munmap(map, length);
    return std::min(cached, size);
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
  // A staged chunk read with O_DIRECT (page-aligned, bypassing the page
  // cache; only with a queue).
  bool direct_io = false;
  static constexpr size_t kStaged = static_cast<size_t>(-1);
};

// A thread's staging with a queue: one block of its budget handed out in
// the order the thread takes its chunks and given back in the same order
// (it delivers them in that order), so a ring, never fragmented. A read
// in flight holds its part until delivered; a chunk that does not fit waits
// for the oldest to be given back.
class StagingRing {
 public:
  // Page-aligned for direct reads; its pages are touched only when used.
  // base() is null when the memory was refused.
  explicit StagingRing(uint64_t capacity)
      : capacity_(capacity),
        base_(static_cast<char*>(std::aligned_alloc(kPage, (capacity + kPage - 1) / kPage * kPage))) {}
  ~StagingRing() { std::free(base_); }
  StagingRing(const StagingRing&) = delete;
  StagingRing& operator=(const StagingRing&) = delete;

  const char* base() const { return base_; }

  // `size` bytes at a multiple of `align` (a power of two, at most 4096), or
  // null while the parts not given back leave no room. Never null when
  // every part was given back and size <= capacity.
  char* Take(uint64_t size, uint64_t align) {
    if (parts_.empty()) head_ = tail_ = 0;
    uint64_t at = (head_ + align - 1) / align * align;
    if (parts_.empty() || tail_ < head_) {  // free: [head_, capacity_) and [0, tail_)
      if (at + size > capacity_) {
        if (size > tail_) return nullptr;
        at = 0;
      }
    } else if (at + size > tail_) {  // wrapped, free: [head_, tail_)
      return nullptr;
    }
    head_ = at + size;
    parts_.push_back(at);
    return base_ + at;
  }

  // Gives back the oldest part taken.
  void GiveBack() {
    parts_.pop_front();
    tail_ = parts_.empty() ? 0 : parts_.front();
    if (parts_.empty()) head_ = 0;
  }

  static constexpr uint64_t kPage = 4096;

 private:
  uint64_t capacity_;
  char* base_ = nullptr;
  uint64_t head_ = 0;  // the end of the newest part
  uint64_t tail_ = 0;  // the start of the oldest
  std::deque<uint64_t> parts_;  // starts, oldest first
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
// With a read queue: reads each thread keeps in flight (deep enough that
// the disk always has requests waiting: a column shard's runs are small),
// and the largest read of a buffer straight into its holder's buffer
// (several reads of one run then overlap, as readahead would).
// A staging budget too small for kQueueDepth reads of kQueuedChunkBytes
// has fewer in flight (down to one, as with pread), not smaller reads.
constexpr unsigned kQueueDepth = 64;
constexpr uint64_t kQueuedChunkBytes = 4096;
constexpr uint64_t kQueueReadBytes = 1ull << 20;
// With a queue, the page-aligned middle of a staged read of at least
// kDirectMinBytes is read with O_DIRECT in reads of kDirectReadBytes (the
// virtio disk's largest request here: max_sectors_kb 4096), unless more
// than half of it is already in the page cache: no page-cache insertion or
// copy, and no kernel worker per read, so the CPU time is the disk's
// interrupts only (core/checkpoint/io_uring_reader.h has the numbers).
// The unaligned ends, under a page each, are read buffered. A thread's
// staging budget bounds the direct reads in flight (8 of 4 MiB each by
// default); below kDirectMinBytes of budget there are none.
constexpr uint64_t kDirectMinBytes = 1ull << 20;
constexpr uint64_t kDirectReadBytes = 4ull << 20;

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
    for (int fd : direct_handles_) {
      if (fd >= 0) reader_.Close(fd);
    }
  }

  absl::Status Run() {
    TESSERA_RETURN_IF_ERROR(OpenFiles());
    // With a queue a thread's staging budget is shared by its reads in
    // flight; without one, a thread has one read at a time.
    uint64_t staged_bytes = chunk_bytes_;
    uint64_t direct_bytes = chunk_bytes_;
    depth_ = static_cast<unsigned>(std::clamp<uint64_t>(chunk_bytes_ / kQueuedChunkBytes, 1, kQueueDepth));
    std::unique_ptr<ReadQueue> first = reader_.NewQueue(depth_);
    uint64_t direct_io_bytes = 0;  // 0: no O_DIRECT reads
    if (first != nullptr) {
      staged_bytes = chunk_bytes_ / depth_;
      direct_bytes = std::min(chunk_bytes_, kQueueReadBytes);
      if (chunk_bytes_ >= kDirectMinBytes) {
        direct_io_bytes = std::min(kDirectReadBytes, chunk_bytes_ / StagingRing::kPage * StagingRing::kPage);
      }
    }
    for (size_t r = 0; r < plan_.reads.size(); ++r) {
      const Read& read = plan_.reads[r];
      if (Direct(read)) {
        for (size_t i = read.first_run; i < read.end_run; ++i) {
          const checkpoint::Run& run = plan_.runs[i];
          for (uint64_t at = 0; at < run.size; at += direct_bytes) {
            chunks_.push_back(Chunk{r, run.file_offset + at, std::min(direct_bytes, run.size - at), i});
          }
        }
        continue;
      }
      auto staged = [&](uint64_t from, uint64_t to, uint64_t step, bool direct_io) {
        for (uint64_t at = from; at < to; at += step) {
          chunks_.push_back(Chunk{r, at, std::min(step, to - at), Chunk::kStaged, direct_io});
        }
      };
      const uint64_t end = read.offset + read.size;
      const uint64_t lo = (read.offset + StagingRing::kPage - 1) / StagingRing::kPage * StagingRing::kPage;
      const uint64_t hi = end / StagingRing::kPage * StagingRing::kPage;
      if (direct_io_bytes > 0 && hi > lo && hi - lo >= kDirectMinBytes && DirectHandle(read.file) >= 0 &&
          reader_.CachedBytes(handles_[read.file], lo, hi - lo) <= (hi - lo) / 2) {
        staged(read.offset, lo, staged_bytes, false);
        staged(lo, hi, direct_io_bytes, true);
        staged(hi, end, staged_bytes, false);
        continue;
      }
      staged(read.offset, end, staged_bytes, false);
    }
    chunk_end_.reserve(chunks_.size());
    uint64_t end = 0;
    for (const Chunk& chunk : chunks_) chunk_end_.push_back(end += chunk.size);
    AdviseGaps();
    const size_t threads = std::max<size_t>(1, std::min(threads_, chunks_.size()));
    std::vector<std::unique_ptr<ReadQueue>> queues;
    if (first != nullptr) {
      queues.push_back(std::move(first));
      // A thread without a ring of its own is not started.
      while (queues.size() < threads) {
        std::unique_ptr<ReadQueue> queue = reader_.NewQueue(depth_);
        if (queue == nullptr) break;
        queues.push_back(std::move(queue));
      }
    }
    const size_t workers = queues.empty() ? threads : queues.size();
    auto work = [this, &queues](size_t i) {
      if (queues.empty()) return Work();
      WorkQueued(*queues[i]);
    };
    if (workers <= 1) {
      work(0);
    } else {
      std::vector<std::thread> pool;
      pool.reserve(workers);
      // Without another thread the ones started still finish the work.
      try {
        for (size_t i = 0; i < workers; ++i) pool.emplace_back(work, i);
      } catch (const std::system_error&) {
        if (pool.empty()) work(0);
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

  // File `file`'s O_DIRECT handle, opened at the first call; negative where
  // the reader or the file system has none.
  int DirectHandle(size_t file) {
    if (direct_handles_.empty()) direct_handles_.assign(plan_.files.size(), kNotOpened);
    if (direct_handles_[file] == kNotOpened) direct_handles_[file] = reader_.OpenDirect(plan_.files[file].path.c_str());
    return direct_handles_[file];
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

  // Hints the chunks from `chunk` on up to kHintAheadBytes (not direct
  // ones: the page cache would read them a second time). One thread hints
  // at a time; the others go on reading rather than wait for it.
  void HintAhead(size_t chunk) {
    if (!hint_mu_.TryLock()) return;
    hinted_ = std::max(hinted_, chunk);
    while (hinted_ < chunks_.size() && chunk_end_[hinted_] - chunk_end_[chunk] < kHintAheadBytes) {
      const Chunk& c = chunks_[hinted_++];
      if (c.direct_io) continue;
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

  // The error of a read of [offset, offset + size) of the read's file that
  // returned `got` (<= 0) after `done` bytes; `call` names the system call.
  absl::Status ReadError(const Read& read, uint64_t offset, uint64_t size, uint64_t done, int64_t got,
                         const char* call) const {
    const File& file = plan_.files[read.file];
    if (got < 0) {
      return absl::ErrnoToStatus(static_cast<int>(-got), absl::StrCat(file.path, ": byte ", offset + done, ": ", call));
    }
    return absl::DataLossError(absl::StrCat(file.path, ": byte ", offset + done, ": the file ended after ", done,
                                            " of the ", size, " bytes asked for; expected ", file.size,
                                            " bytes in the file"));
  }

  // Reads [offset, offset + size) of the read's file into `into`, all of it.
  absl::Status ReadFully(const Read& read, char* into, uint64_t offset, uint64_t size) {
    uint64_t done = 0;
    while (done < size) {
      const int64_t got = reader_.Read(handles_[read.file], into + done, size - done, offset + done);
      if (got <= 0) return ReadError(read, offset, size, done, got, "pread");
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

  // Where a chunk straight into a buffer (not staged) is read to: its run's
  // first holder's buffer.
  char* RunTarget(const Chunk& chunk) const {
    const checkpoint::Run& run = plan_.runs[chunk.run];
    const size_t first = plan_.distinct[run.distinct].pieces.front();
    return static_cast<char*>(destinations_[first].data) + run.piece_offset + (chunk.offset - run.file_offset);
  }

  // Where `chunk` is read to: RunTarget, or for a staged one `staging`.
  char* Target(const Chunk& chunk, std::vector<char>& staging) {
    if (chunk.run != Chunk::kStaged) return RunTarget(chunk);
    if (staging.size() < chunk.size) staging.resize(chunk.size);
    return staging.data();
  }

  absl::Status DoChunk(const Chunk& chunk, std::vector<char>& staging) {
    char* bytes = Target(chunk, staging);
    TESSERA_RETURN_IF_ERROR(ReadFully(plan_.reads[chunk.read], bytes, chunk.offset, chunk.size));
    return Finish(chunk, bytes);
  }

  // Hands `chunk`'s bytes, read to `bytes` (its Target), to the holders of
  // the runs it covers.
  absl::Status Finish(const Chunk& chunk, const char* bytes) {
    const Read& read = plan_.reads[chunk.read];
    if (chunk.run != Chunk::kStaged) {
      const checkpoint::Run& run = plan_.runs[chunk.run];
      Deliver(run.distinct, run.piece_offset + (chunk.offset - run.file_offset), bytes, chunk.size, bytes);
      return absl::OkStatus();
    }
    const uint64_t end = chunk.offset + chunk.size;
    // The first run ending after the chunk's start.
    const auto begin = plan_.runs.begin() + static_cast<std::ptrdiff_t>(read.first_run);
    const auto stop = plan_.runs.begin() + static_cast<std::ptrdiff_t>(read.end_run);
    auto it = std::upper_bound(begin, stop, chunk.offset,
                               [](uint64_t at, const checkpoint::Run& r) { return at < r.file_offset + r.size; });
    for (; it != stop && it->file_offset < end; ++it) {
      const uint64_t lo = std::max(it->file_offset, chunk.offset);
      const uint64_t hi = std::min(it->file_offset + it->size, end);
      if (!Deliver(it->distinct, it->piece_offset + (lo - it->file_offset), bytes + (lo - chunk.offset), hi - lo,
                   nullptr)) {
        return absl::CancelledError(absl::StrCat("The piece callback cancelled the load at ",
                                                 plan_.files[read.file].path, ": byte ", lo));
      }
    }
    return absl::OkStatus();
  }

  // One chunk, then its progress report.
  absl::Status Step(const Chunk& chunk, std::vector<char>& staging) {
    TESSERA_RETURN_IF_ERROR(DoChunk(chunk, staging));
    return Progressed(chunk);
  }

  // Reports a chunk done to the progress callback.
  absl::Status Progressed(const Chunk& chunk) {
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
      absl::Status status = Guarded([&] { return Step(chunks_[i], staging); });
      if (!status.ok()) return Fail(std::move(status));
    }
  }

  // `step`'s status. A caller's callback may throw; on a loader thread that
  // would end the process, so it becomes the load's error.
  template <typename Step>
  static absl::Status Guarded(const Step& step) {
    try {
      return step();
    } catch (const std::exception& e) {
      return absl::InternalError(absl::StrCat("The load stopped on an exception: ", e.what()));
    } catch (...) {
      return absl::InternalError("The load stopped on an exception");
    }
  }

  // Work with a queue: up to depth_ chunks in flight, their staging taken
  // from the thread's StagingRing, delivered in the order this thread took
  // them (so with one thread a piece's parts still come in order of their
  // offsets), each once it has all its bytes. The hints ahead stay: the
  // kernel's workers serve a queue's buffered reads, a few at a time, and
  // find them read ahead. On an error or a cancel the reads in flight are
  // still waited for, since the kernel writes into their buffers until they
  // finish.
  void WorkQueued(ReadQueue& queue) {
    struct Slot {
      size_t chunk = 0;
      uint64_t done = 0;  // bytes of the chunk read so far
      bool finished = false;
      bool staged = false;     // holds a part of the ring
      bool direct_io = false;  // read through the O_DIRECT handle
      absl::Status error;  // of its read, reported when its turn comes
      char* into = nullptr;
    };
    auto ring = std::make_unique<StagingRing>(chunk_bytes_);
    if (ring->base() == nullptr) {
      return Fail(absl::ResourceExhaustedError(
          absl::StrCat("The loader's staging of ", chunk_bytes_, " bytes for a thread was refused")));
    }
    std::vector<Slot> slots(depth_);
    std::vector<size_t> free_slots;
    for (size_t s = slots.size(); s-- > 0;) free_slots.push_back(s);
    std::deque<size_t> taken;  // slots in flight, in the order their chunks were taken
    auto start = [&](Slot& slot) {
      const Chunk& chunk = chunks_[slot.chunk];
      const size_t file = plan_.reads[chunk.read].file;
      // A direct read cut short at a page boundary goes on direct; anywhere
      // else O_DIRECT would refuse the rest.
      slot.direct_io = slot.direct_io && slot.done % StagingRing::kPage == 0;
      queue.Start(slot.direct_io ? direct_handles_[file] : handles_[file], slot.into + slot.done,
                  chunk.size - slot.done, chunk.offset + slot.done, static_cast<uint64_t>(&slot - slots.data()),
                  slot.direct_io);
    };
    size_t pending = chunks_.size();  // taken, waiting for room in the ring
    bool more = true;
    while (true) {
      while ((more || pending < chunks_.size()) && !free_slots.empty() && !stop_.load()) {
        if (pending == chunks_.size()) {
          const size_t i = next_.fetch_add(1);
          if (i >= chunks_.size()) {
            more = false;
            break;
          }
          HintAhead(i);
          pending = i;
        }
        const Chunk& chunk = chunks_[pending];
        char* into = chunk.run != Chunk::kStaged
                         ? RunTarget(chunk)
                         : ring->Take(chunk.size, chunk.direct_io ? StagingRing::kPage : 1);
        if (into == nullptr) break;  // until the oldest is delivered
        Slot& slot = slots[free_slots.back()];
        free_slots.pop_back();
        slot.chunk = std::exchange(pending, chunks_.size());
        slot.done = 0;
        slot.finished = false;
        slot.staged = chunk.run == Chunk::kStaged;
        slot.direct_io = chunk.direct_io;
        slot.into = into;
        taken.push_back(static_cast<size_t>(&slot - slots.data()));
        start(slot);
      }
      if (taken.empty()) return;
      uint64_t tag = 0;
      int64_t got = 0;
      if (const int rc = queue.Next(&tag, &got); rc < 0) {
        // The kernel may still write into the staging of the reads in
        // flight, so it is left allocated (a failed wait is rare: the
        // interruptions are retried).
        Fail(absl::ErrnoToStatus(-rc, "io_uring: waiting for reads"));
        (void)ring.release();
        (void)new std::vector<Slot>(std::move(slots));
        return;
      }
      Slot& slot = slots[tag];
      const Chunk& chunk = chunks_[slot.chunk];
      if (slot.direct_io && (got == -EINVAL || got == -EOPNOTSUPP)) {
        // O_DIRECT refused (a file system that wants a larger alignment
        // than a page, or none at all): the chunk is read buffered.
        slot.direct_io = false;
        start(slot);
        continue;
      }
      if (got <= 0) {
        slot.error = ReadError(plan_.reads[chunk.read], chunk.offset, chunk.size, slot.done, got, "read (io_uring)");
        slot.finished = true;
      } else {
        bytes_read_.fetch_add(static_cast<uint64_t>(got));
        slot.done += static_cast<uint64_t>(got);
        slot.finished = slot.done == chunk.size;
        if (!slot.finished) start(slot);  // a short read: the rest
      }
      while (!taken.empty() && slots[taken.front()].finished) {
        Slot& first = slots[taken.front()];
        taken.pop_front();
        free_slots.push_back(static_cast<size_t>(&first - slots.data()));
        if (!first.error.ok()) Fail(std::exchange(first.error, absl::OkStatus()));
        if (!stop_.load()) {
          absl::Status status = Guarded([&]() -> absl::Status {
            TESSERA_RETURN_IF_ERROR(Finish(chunks_[first.chunk], first.into));
            return Progressed(chunks_[first.chunk]);
          });
          if (!status.ok()) Fail(std::move(status));
        }
        if (first.staged) ring->GiveBack();
      }
    }
  }

  const ReadPlan& plan_;
  absl::Span<const Destination> destinations_;
  const PieceCallback* deliver_;
  const ProgressCallback& progress_;
  FileReader& reader_;
  size_t threads_ = 1;
  uint64_t chunk_bytes_ = 1;  // a thread's staging budget
  unsigned depth_ = 1;        // a queue's reads in flight
  std::vector<int> handles_;
  static constexpr int kNotOpened = std::numeric_limits<int>::min();
  std::vector<int> direct_handles_;  // O_DIRECT, by file; -errno where refused
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
