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
#ifndef TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_
#define TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_

#include "core/checkpoint/loader.h"

namespace tessera::checkpoint {

// PosixFileReader's calls, plus NewQueue: an io_uring ring of the depth
// asked, or null where liburing was not built in or the kernel refuses a
// ring.
FileReader& IoUringFileReader();

// (DefaultFileReader, declared in loader.h: IoUringFileReader(), or
// PosixFileReader() when the environment says TESSERA_LOAD_IO=pread.)

}  // namespace tessera::checkpoint

#endif  // TESSERA_CORE_CHECKPOINT_IO_URING_READER_H_
