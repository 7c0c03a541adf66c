/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/checkpoint_load.h
 * @brief Experimental: read plans, and loading each process's own shards of a checkpoint
 *
 * Why experimental: the loading work of issue 12 is new, and its options
 * (threads, staging, the coalescing gap) may still change with the
 * benchmarks that tune them.
 *
 * A read plan says which bytes of a checkpoint's files one process of a job
 * reads so that each of its devices gets its shard of every tensor:
 *   - devices: a mesh of D devices has logical devices 0..D-1 in row-major
 *     mesh order; process P of N owns the block [P*D/N, (P+1)*D/N);
 *   - layouts: the layout map's answer for the tensor's name
 *     (tessera_layout_map_lookup); no rule: fully replicated;
 *   - a piece is one (device of the process, tensor), in mesh order then
 *     checkpoint tensor order; its bytes are the device's box of the tensor
 *     (per dimension [start, stop), tessera_sharding_device_ranges) as
 *     row-major contiguous bytes in the checkpoint's element type (numpy's
 *     `array[box].tobytes()`);
 *   - the plan reads each box once per process, however many of the
 *     process's devices hold it (replicas), and coalesces the file's runs
 *     that lie at most the coalescing gap apart into one read; its bytes
 *     (tessera_read_plan_total_bytes) are the bytes those reads cover, gaps
 *     included, which is exactly what executing it reads.
 * A plan is immutable: any number of threads may query or execute it at once.
 *
 * Define TESSERA_EXPERIMENTAL_API before including this header (or
 * <tessera/tessera.h>) to use it.
 */
#ifndef TESSERA_EXPERIMENTAL_CHECKPOINT_LOAD_H_
#define TESSERA_EXPERIMENTAL_CHECKPOINT_LOAD_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/checkpoint_load.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/experimental/checkpoint.h"
#include "tessera/layout_map.h"
#include "tessera/shard.h"

TESSERA_BEGIN_DECLS

/**
 * Settings of tessera_read_plan_create. Defaults: process 0 of 1, strict
 * shard mode, a 65536-byte coalescing gap, min(4, hardware threads) loader
 * threads, 64 MiB of staging. Used by one thread at a time; the plan copies
 * it, so it may be destroyed once the plan is made.
 * @since 0.3
 */
typedef struct tessera_read_options tessera_read_options;

/** A new options object with the defaults, owned by the caller; NULL without memory. @since 0.3 */
TESSERA_API tessera_read_options* tessera_read_options_create(void) TESSERA_NOEXCEPT;

/** Frees `options`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_read_options_destroy(tessera_read_options* options) TESSERA_NOEXCEPT;

/**
 * The process the plan is for: process `process_index` of `num_processes`,
 * owning logical devices [P*D/N, (P+1)*D/N) of the mesh's D.
 * @return true on success; INVALID_ARGUMENT for a NULL options,
 *         num_processes 0, or process_index >= num_processes (whether N
 *         divides D is checked by tessera_read_plan_create).
 * @since 0.3
 */
TESSERA_API bool tessera_read_options_set_process(tessera_read_options* options, size_t process_index,
                                                  size_t num_processes, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How dimensions are cut (tessera_shard_mode_t); strict by default, as
 * jax.device_put with a NamedSharding.
 * @return true on success; INVALID_ARGUMENT for a NULL options or an
 *         unknown mode.
 * @since 0.3
 */
TESSERA_API bool tessera_read_options_set_shard_mode(tessera_read_options* options, tessera_shard_mode_t mode,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Runs of a file at most `gap_bytes` apart are read in one read, the gap
 * included (its bytes count in tessera_read_plan_total_bytes); 0 joins only
 * runs that touch.
 * @return true on success; INVALID_ARGUMENT for a NULL options or a
 *         negative gap.
 * @since 0.3
 */
TESSERA_API bool tessera_read_options_set_coalesce_gap(tessera_read_options* options, int64_t gap_bytes,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Loader threads of tessera_read_plan_execute*: 0 (the default) means
 * min(4, hardware threads); more than 64 are used as 64.
 * @return true on success; INVALID_ARGUMENT for a NULL options.
 * @since 0.3
 */
TESSERA_API bool tessera_read_options_set_threads(tessera_read_options* options, size_t threads,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Staging memory of tessera_read_plan_execute*, over all threads: each
 * thread reads at most staging_bytes / threads bytes at a time, so a range
 * longer than that is read in pieces.
 * @return true on success; INVALID_ARGUMENT for a NULL options or
 *         staging_bytes < 1.
 * @since 0.3
 */
TESSERA_API bool tessera_read_options_set_staging_bytes(tessera_read_options* options, int64_t staging_bytes,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * What one process reads of a checkpoint, and how. Owned by the caller;
 * release it with tessera_read_plan_destroy.
 * @since 0.3
 */
typedef struct tessera_read_plan tessera_read_plan;

/**
 * Plans the reads of one process (see the file comment). O(tensors x the
 * process's devices x rank), plus the file runs; reads no tensor data.
 * @param checkpoint  the checkpoint; the plan copies what it needs.
 * @param layout_map  the rules, looked up with each tensor's name; must have
 *                    a mesh, which is the mesh loaded onto.
 * @param options     may be NULL for the defaults.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return a new plan owned by the caller, or NULL: INVALID_ARGUMENT for a
 *         NULL checkpoint or layout map, a process count that does not
 *         divide the mesh's devices, or a tensor that cannot be split (its
 *         name first: a layout of another rank "Tensor 'w' has rank 2 (shape
 *         [4, 8]) but the layout of rule 'w' has rank 1; expected the same
 *         rank", a dimension strict mode cannot divide, a quantized box not
 *         on a block boundary of the innermost dimension);
 *         FAILED_PRECONDITION for a map without a mesh.
 * @since 0.3
 */
TESSERA_API tessera_read_plan* tessera_read_plan_create(const tessera_checkpoint* checkpoint,
                                                        const tessera_layout_map* layout_map,
                                                        const tessera_read_options* options,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `plan`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_read_plan_destroy(tessera_read_plan* plan) TESSERA_NOEXCEPT;

/**
 * How many pieces the plan delivers: the process's devices times the
 * checkpoint's tensors.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_read_plan_num_pieces(const tessera_read_plan* plan,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Logical device (row-major mesh position) of piece `index`.
 * @return the device; 0 on failure (OUT_OF_RANGE when index >= num_pieces).
 * @since 0.3
 */
TESSERA_API size_t tessera_read_plan_piece_device(const tessera_read_plan* plan, size_t index,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Checkpoint tensor position of piece `index`.
 * @return the position; 0 on failure (OUT_OF_RANGE when index >= num_pieces).
 * @since 0.3
 */
TESSERA_API size_t tessera_read_plan_piece_tensor(const tessera_read_plan* plan, size_t index,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The box of piece `index` as [start0, stop0, start1, stop1, ...] (2 * rank
 * entries). Output array (tessera.h, Vocabulary).
 * @return 2 * rank; 0 on failure (OUT_OF_RANGE when index >= num_pieces).
 * @since 0.3
 */
TESSERA_API size_t tessera_read_plan_piece_ranges(const tessera_read_plan* plan, size_t index, int64_t* out,
                                                  size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The shard shape of piece `index` (stop - start per dimension). Output
 * array (tessera.h, Vocabulary).
 * @return the rank; 0 on failure (OUT_OF_RANGE when index >= num_pieces).
 * @since 0.3
 */
TESSERA_API size_t tessera_read_plan_piece_shape(const tessera_read_plan* plan, size_t index, int64_t* out,
                                                 size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes of piece `index`'s shard: the size its buffer must have.
 * @return the size; 0 on failure (OUT_OF_RANGE when index >= num_pieces).
 * @since 0.3
 */
TESSERA_API int64_t tessera_read_plan_piece_size(const tessera_read_plan* plan, size_t index,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many files the checkpoint has (tessera_checkpoint_num_files); files
 * the process needs nothing of have no ranges.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_read_plan_num_files(const tessera_read_plan* plan,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The coalesced byte ranges read from file `index`, sorted, as
 * [start0, stop0, start1, stop1, ...] absolute in the file. Output array
 * (tessera.h, Vocabulary).
 * @return twice the number of ranges; 0 on failure (OUT_OF_RANGE when
 *         index >= num_files).
 * @since 0.3
 */
TESSERA_API size_t tessera_read_plan_file_ranges(const tessera_read_plan* plan, size_t index, int64_t* out,
                                                 size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes the plan reads from the files: the ranges' lengths summed over every
 * file, gaps included; executing the plan reads exactly this many.
 * @return the bytes; 0 on failure.
 * @since 0.3
 */
TESSERA_API int64_t tessera_read_plan_total_bytes(const tessera_read_plan* plan,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Called with bytes of a piece: `size` bytes at byte `offset` of piece
 * `piece`'s shard. The bytes are valid only during the call. Return false
 * to cancel the load.
 * @since 0.3
 */
typedef bool (*tessera_read_piece_fn)(size_t piece, int64_t offset, const void* bytes, size_t size,
                                      void* user_data);

/**
 * Called after each block of reads with the bytes read so far and the
 * plan's total. Return false to cancel the load.
 * @since 0.3
 */
typedef bool (*tessera_read_progress_fn)(int64_t bytes_done, int64_t bytes_total, void* user_data);

/**
 * Reads the plan into the caller's buffers, one per piece: buffers[i] gets
 * piece i's shard, sizes[i] bytes (tessera_read_plan_piece_size). Reads on
 * the options' threads through at most the staging budget, with io_uring
 * (each thread keeping up to 64 reads in flight) where the library was built
 * with liburing and the kernel allows a ring, else with pread (one read at
 * a time per thread); TESSERA_LOAD_IO=pread in the environment, read at
 * each call, chooses pread, and TESSERA_LOAD_IO=direct reads the
 * page-aligned middle of each read of at least 1 MiB through staging with
 * O_DIRECT (bypassing the page cache: less CPU time, not always faster). A read that is one contiguous run of a shard,
 * or runs of at least 64 KiB each with no gap between them, goes straight
 * into the buffers. The kernel is told what comes next (posix_fadvise:
 * WILLNEED on the reads up to 128 MiB ahead; RANDOM on a file whose reads
 * leave gaps, so that its readahead does not fetch them); this changes what
 * the disk reads, not the bytes read.
 * @param plan          the plan.
 * @param buffers       num_buffers pointers; one may be NULL where its size is 0.
 * @param sizes         num_buffers sizes.
 * @param num_buffers   must equal tessera_read_plan_num_pieces.
 * @param progress      may be NULL. Runs on a loader thread (the calling
 *                      thread when the load uses one thread), never
 *                      concurrently with itself; the call returns only
 *                      after its last run.
 * @param progress_data passed to `progress`.
 * @param out_bytes_read receives the bytes read from the files, also on
 *                      failure; may be NULL. On success it equals
 *                      tessera_read_plan_total_bytes.
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return true on success; false: INVALID_ARGUMENT for a NULL plan, NULL
 *         buffers or sizes with num_buffers > 0, a count or size other than
 *         the plan's ("Argument 'sizes[3]' is 8; expected 16, the bytes of
 *         piece 3"); FAILED_PRECONDITION when a file's size changed since
 *         the checkpoint was opened, DATA_LOSS when a file ends early, the
 *         errno's code when a read fails (each "FILE: byte OFFSET: ...");
 *         CANCELLED when `progress` returned false. Buffers may then hold
 *         part of their bytes.
 * @since 0.3
 */
TESSERA_API bool tessera_read_plan_execute(const tessera_read_plan* plan, void* const* buffers,
                                           const size_t* sizes, size_t num_buffers,
                                           tessera_read_progress_fn progress, void* progress_data,
                                           int64_t* out_bytes_read, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Reads the plan, handing each piece's bytes to `piece_fn` in parts (piece,
 * offset inside its shard, bytes); every byte of every piece arrives exactly
 * once, replicas each get their own call. `piece_fn` runs on the loader
 * threads (the calling thread when the load uses one thread), possibly
 * concurrently with itself for different bytes, even of the same piece, and
 * a piece's parts may come in any order: it must be thread-safe. With one
 * thread (tessera_read_options_set_threads) a piece's parts come in order of
 * their offsets. The call returns only after every call has returned.
 * @param plan          the plan.
 * @param piece_fn      required.
 * @param piece_data    passed to `piece_fn`.
 * @param progress      may be NULL; as tessera_read_plan_execute.
 * @param progress_data passed to `progress`.
 * @param out_bytes_read as tessera_read_plan_execute.
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return true on success; false: INVALID_ARGUMENT for a NULL plan or
 *         piece_fn; CANCELLED when a callback returned false; the file
 *         errors of tessera_read_plan_execute.
 * @since 0.3
 */
TESSERA_API bool tessera_read_plan_stream(const tessera_read_plan* plan, tessera_read_piece_fn piece_fn,
                                          void* piece_data, tessera_read_progress_fn progress,
                                          void* progress_data, int64_t* out_bytes_read,
                                          tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_CHECKPOINT_LOAD_H_ */
