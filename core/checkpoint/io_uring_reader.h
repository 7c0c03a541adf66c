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
// Direct reads: the loader reads the page-aligned middle of a large read
// (at least 1 MiB) through a second, O_DIRECT handle, in reads of 4 MiB,
// unless most of it is already in the page cache. On this project's 2-core
// VM, 2.4 GB in 4 MiB reads at 16 in flight took 0.1-0.3 CPU seconds
// direct against 0.8-4.8 buffered (the kernel's workers copying through the
// page cache), and under a load average of 10-22 direct held 1.0-1.2 GB/s
// where buffered fell to 0.2-0.4 GB/s. Where O_DIRECT is refused (a file
// system without it: open fails, or a read returns EINVAL) the read is
// buffered. TESSERA_LOAD_IO=buffered keeps io_uring and reads everything
// through the page cache.
#ifndef TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_
#define TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_

#include "core/checkpoint/loader.h"

namespace tessera::checkpoint {

// PosixFileReader's calls, plus NewQueue: an io_uring ring of the depth
// asked, or null where liburing was not built in or the kernel refuses a
// ring.
FileReader& IoUringFileReader();

// The same without direct reads: everything through the page cache.
FileReader& IoUringBufferedFileReader();

// (DefaultFileReader, declared in loader.h: IoUringFileReader(), or
// PosixFileReader() when the environment says TESSERA_LOAD_IO=pread,
// IoUringBufferedFileReader() when it says TESSERA_LOAD_IO=buffered.)

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_
