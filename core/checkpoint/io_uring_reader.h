// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The loader's read path through io_uring: many reads in flight from one
// thread, where the kernel and its sandbox allow it.
//
// Why: a column shard is one run per row, and a process's half of a row is
// often 8-32 KiB. Read exactly (no coalescing gap) that is tens of thousands
// of small reads per tensor; a disk serves them at its bandwidth only with a
// deep queue of them in flight, which pread gets from as many blocked
// threads as requests, and io_uring from a few threads each keeping a ring
// full (no thread per request, no WILLNEED hints ahead of the reads).
//
// Fallback: built without liburing (-Dio_uring=disabled, or no liburing-dev),
// or where io_uring_queue_init fails at run time (kernels before 5.6,
// io_uring_disabled=2, container seccomp profiles that refuse
// io_uring_setup), the reader has no queue and the loader reads with pread on
// its threads, as before. TESSERA_LOAD_IO=pread in the environment chooses
// pread too (read at every load).
//
// Direct reads (TESSERA_LOAD_IO=direct, IoUringDirectFileReader): the
// loader reads the page-aligned middle of a large read (at least 1 MiB)
// through a second, O_DIRECT handle, in reads of 4 MiB, unless most of it is
// already in the page cache; the unaligned ends go through the page cache.
// Not the default: on this project's 2-core VM (a virtio disk with one
// queue, served partly from the host's cache) it took 4-5x less CPU
// (0.25-0.37 CPU s against 1.1-2.0 for a process's column shards, 2.4 GB)
// but 10-50% more wall time (column shards 2.2-3.1 s against 1.4-2.8 s,
// row shards 1.30-1.45 s against 1.12-1.22 s, interleaved, load average
// 6-23): the page cache's readahead keeps more of the disk busy than 16
// direct reads of 4 MiB in flight (and 64 did no better). Where CPU time,
// not the disk, bounds a load, it is the choice. Where O_DIRECT is refused
// (open fails, or a read returns EINVAL) the read is buffered.
#ifndef TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_
#define TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_

#include "core/checkpoint/loader.h"

namespace tessera::checkpoint {

// PosixFileReader's calls, plus NewQueue: an io_uring ring of the depth
// asked, or null where liburing was not built in or the kernel refuses a
// ring.
FileReader& IoUringFileReader();

// The same with direct reads (above).
FileReader& IoUringDirectFileReader();

// (DefaultFileReader, declared in loader.h: IoUringFileReader(), or
// PosixFileReader() when the environment says TESSERA_LOAD_IO=pread,
// IoUringDirectFileReader() when it says TESSERA_LOAD_IO=direct.)

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_
