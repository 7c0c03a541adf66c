// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Executing a read plan: io_uring (or pread) on a bounded number of threads
// through a bounded staging budget, delivering each piece's bytes to the
// caller.
//
// Two read paths, the same chunks and bytes. Where the reader has a queue
// (FileReader::NewQueue: io_uring, core/checkpoint/io_uring_reader.h), each
// thread keeps up to 64 reads in flight on its own ring and delivers them in
// the order it took them; the ring hands them to the kernel's workers
// (IOSQE_ASYNC). A column shard is one small run per row (8-32 KiB
// for a process's half of a row), and a disk reaches its bandwidth on small
// reads only with many of them queued: with pread that takes a blocked
// thread per request. Where it has none (built without liburing, a kernel
// or sandbox that refuses io_uring_setup, TESSERA_LOAD_IO=pread), each
// thread reads one chunk at a time with pread, as before.
//
// Work: every read of the plan is cut into chunks, and the threads take
// chunks in file order. A chunk is read into staging and copied out to
// every holder of the runs it covers. A thread's staging budget is
// staging_bytes / num_threads, shared among its reads in flight (one with
// pread; up to 64 with a queue, each of budget / 64 bytes at most), so a
// process never holds more than `staging_bytes` of staging, whatever the
// tensors' sizes (with a queue, one block of it per thread, handed out and
// given back in the order the thread takes its chunks). With a reader that
// has direct reads (FileReader::OpenDirect; TESSERA_LOAD_IO=direct), the
// page-aligned middle of a staged read of at least 1 MiB that is not mostly
// in the page cache is read with O_DIRECT in reads of up to 4 MiB (as many
// in flight as the thread's budget holds), its unaligned ends buffered: the
// same bytes, less CPU time, not hinted ahead. With destination buffers, a read that is exactly one run
// (a row shard, a replicated tensor, a column shard's run with no coalescing
// gap), or runs of at least 64 KiB each that tile it without gaps
// (neighbouring row shards of the process's devices), skips the staging:
// each run is read straight into its first holder's buffer (with a queue in
// reads of at most 1 MiB, several in flight) and copied from there to any
// replica's.
//
// Page cache: a file whose reads leave gaps is advised POSIX_FADV_RANDOM,
// since the kernel's readahead would otherwise fetch the gaps too (a column
// shard's half-rows pulled the whole file in). The chunks up to
// kHintAheadBytes ahead of the threads are advised POSIX_FADV_WILLNEED, so
// the disk has many requests in flight while a few threads (or the kernel's
// io_uring workers, a few per CPU) wait on one each (what readahead did for
// a dense plan, now for exactly the plan's bytes).
// The advice changes what the block layer reads, never what the loader
// reads: the bytes read are still the plan's.
//
// Delivery is either into caller buffers (one per piece, exactly the piece's
// size) or through a callback per (piece, byte offset inside the piece's
// shard, bytes), which may run on any loader thread, concurrently with
// itself for different pieces; it is never called twice for the same bytes
// of one piece, and it returning false cancels the load. Progress is called
// after each chunk, never concurrently with itself, with the bytes read so
// far and the plan's total; it returning false cancels too.
//
// Errors name the file and the byte offset: a file whose size differs from
// the checkpoint's record (FAILED_PRECONDITION), a read that ends early
// (DATA_LOSS), an errno from open, pread or an io_uring read (its code);
// CANCELLED when a callback asked.
#ifndef TESSERA_CORE_CHECKPOINT_LOADER_H_
#define TESSERA_CORE_CHECKPOINT_LOADER_H_

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "core/checkpoint/read_plan.h"

namespace tessera::checkpoint {

struct LoadOptions {
  size_t num_threads = 0;            // 0: min(4, hardware threads); at most 64
  uint64_t staging_bytes = 64ull << 20;  // over all threads; at least 1 byte per thread
};

// Where a piece's bytes go: a buffer of exactly Piece::size bytes.
struct Destination {
  void* data = nullptr;
  uint64_t size = 0;
};

// (piece index, byte offset inside the piece, bytes, size) -> keep going?
using PieceCallback = std::function<bool(size_t piece, uint64_t offset, const void* bytes, uint64_t size)>;
// (bytes read, total) -> keep going?
using ProgressCallback = std::function<bool(uint64_t done, uint64_t total)>;

// Reads in flight together, finishing in any order (an io_uring ring; a
// test's fake). Used by one loader thread at a time.
class ReadQueue {
 public:
  virtual ~ReadQueue() = default;
  // Queues a read of [offset, offset + size) of `handle` into `into`; `tag`
  // comes back with its result. The loader never has more reads unfinished
  // than the depth it asked NewQueue for.
  // `direct`: `handle` is from OpenDirect (so `into`, `size` and `offset`
  // are multiples of 4096), a read the kernel serves without its workers.
  virtual void Start(int handle, void* into, uint64_t size, uint64_t offset, uint64_t tag, bool direct) = 0;
  // Submits what was queued and waits for one read to finish: its tag and
  // result (the bytes read, 0 at the end of the file, or -errno). Returns 0,
  // or -errno when waiting itself failed.
  virtual int Next(uint64_t* tag, int64_t* result) = 0;
};

// The read path, so tests can count its bytes or make it fail. Read returns
// the bytes read (0 at the end of the file) or -errno.
class FileReader {
 public:
  virtual ~FileReader() = default;
  // A handle >= 0 for reading `path`, or -errno.
  virtual int Open(const char* path) = 0;
  virtual int64_t Size(int handle) = 0;  // -errno on failure
  virtual int64_t Read(int handle, void* into, uint64_t size, uint64_t offset) = 0;
  virtual void Close(int handle) = 0;
  // Advice only, never an error: the kernel is not to read ahead of the
  // reads on `handle` (its plan leaves gaps the readahead would fill).
  virtual void AdviseNoReadahead(int /*handle*/) {}
  // Advice only: [offset, offset + size) will be read soon; start it now.
  virtual void AdviseWillRead(int /*handle*/, uint64_t /*offset*/, uint64_t /*size*/) {}
  // A queue for up to `depth` reads in flight, or null when the reader has
  // none: then each loader thread calls Read, one read at a time.
  virtual std::unique_ptr<ReadQueue> NewQueue(unsigned /*depth*/) { return nullptr; }
  // A second handle on `path` whose reads bypass the page cache (O_DIRECT:
  // offsets, sizes and buffers multiples of 4096), or -errno where the reader
  // or the file system has none. Used only through a queue.
  virtual int OpenDirect(const char* /*path*/) { return -EOPNOTSUPP; }
  // Of [offset, offset + size) of `handle`, the bytes already in the page
  // cache (a direct read would fetch them from the disk again).
  virtual uint64_t CachedBytes(int /*handle*/, uint64_t /*offset*/, uint64_t /*size*/) { return 0; }
};

// The real one: open(2), fstat(2), pread(2), close(2), posix_fadvise(2)
// (POSIX_FADV_RANDOM, POSIX_FADV_WILLNEED), open(2) with O_DIRECT, and
// mincore(2) on a mapping for CachedBytes.
FileReader& PosixFileReader();

// What a load reads with unless told: io_uring where it works, else pread
// (core/checkpoint/io_uring_reader.h says when and why).
FileReader& DefaultFileReader();

// Reads `plan` into `destinations` (one per plan piece, sizes equal to the
// pieces'; INVALID_ARGUMENT naming the first that is not). `bytes_read`
// receives the bytes read even on failure; may be null.
absl::Status LoadIntoBuffers(const ReadPlan& plan, absl::Span<const Destination> destinations,
                             const LoadOptions& options, const ProgressCallback& progress,
                             uint64_t* bytes_read, FileReader& reader = DefaultFileReader());

// Reads `plan`, handing every piece's bytes to `deliver`.
absl::Status LoadWithCallback(const ReadPlan& plan, const PieceCallback& deliver, const LoadOptions& options,
                              const ProgressCallback& progress, uint64_t* bytes_read,
                              FileReader& reader = DefaultFileReader());

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_LOADER_H_
