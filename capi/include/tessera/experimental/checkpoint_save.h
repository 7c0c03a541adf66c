/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/checkpoint_save.h
 * @brief Experimental: saving a sharded checkpoint, each process its own shards
 *
 * Why experimental: sharded save is new in issue 13, and its options may
 * still change with the restore path that reads it.
 *
 * A sharded checkpoint is a directory (docs/checkpoint-index.md):
 *   - DIR/process-PPPPP-of-NNNNN.safetensors, one per process of the saving
 *     job, holding the distinct shards ("pieces") that process stores, each
 *     a safetensors tensor named NAME\@S0:E0,S1:E1,... (its global index
 *     ranges, half-open);
 *   - DIR/tessera-index.json, written last by process 0, naming for every
 *     tensor its dtype, global shape, mesh, layout, shard mode and each
 *     piece's file, absolute byte offset, size and ranges.
 * Devices and processes: a mesh of D devices has logical devices 0..D-1 in
 * row-major mesh order; process P of N owns the block [P*D/N, (P+1)*D/N).
 * Each distinct shard of a tensor's sharding (tessera_sharding_create) that
 * has elements is stored once in the job, by its first holder in mesh order
 * (replica id 0), in that device's process. A shard's bytes are its box of
 * the tensor as row-major contiguous bytes (numpy's `array[box].tobytes()`).
 *
 * Each process: tessera_checkpoint_saver_create, add the same tensors in
 * the same order (tessera_checkpoint_saver_add_tensor), then write its file
 * from buffers (tessera_checkpoint_saver_set_shard, then
 * tessera_checkpoint_saver_write) or from a callback
 * (tessera_checkpoint_saver_stream). Once every process's write returned
 * (the caller's barrier), process 0 calls tessera_checkpoint_saver_finish,
 * which writes the index.
 *
 * Crash safety: every file is written under a temporary name, fsynced,
 * renamed into place and the directory fsynced; the index comes last, so a
 * directory whose save did not finish has no index (or its previous one)
 * and is never taken for a whole checkpoint. A save into a directory that
 * holds a checkpoint writes its files under new names (a generation:
 * process-PPPPP-of-NNNNN.gG.safetensors), so the previous checkpoint stays
 * loadable until the new index is renamed in; finish then removes the
 * previous files.
 *
 * A saver is used by one thread at a time.
 *
 * Define TESSERA_EXPERIMENTAL_API before including this header (or
 * <tessera/tessera.h>) to use it.
 */
#ifndef TESSERA_EXPERIMENTAL_CHECKPOINT_SAVE_H_
#define TESSERA_EXPERIMENTAL_CHECKPOINT_SAVE_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/checkpoint_save.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/shard.h"

TESSERA_BEGIN_DECLS

/**
 * Settings of tessera_checkpoint_saver_create. Defaults: process 0 of 1,
 * strict shard mode, 64 MiB chunks. Used by one thread at a time; the saver
 * copies it, so it may be destroyed once the saver is made.
 * @since 0.3
 */
typedef struct tessera_save_options tessera_save_options;

/** A new options object with the defaults, owned by the caller; NULL without memory. @since 0.3 */
TESSERA_API tessera_save_options* tessera_save_options_create(void) TESSERA_NOEXCEPT;

/** Frees `options`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_save_options_destroy(tessera_save_options* options) TESSERA_NOEXCEPT;

/**
 * The process that saves: process `process_index` of `num_processes`,
 * owning logical devices [P*D/N, (P+1)*D/N) of each tensor's mesh's D.
 * @return true on success; INVALID_ARGUMENT for a NULL options,
 *         num_processes 0, or process_index >= num_processes (whether N
 *         divides D is checked by tessera_checkpoint_saver_add_tensor).
 * @since 0.3
 */
TESSERA_API bool tessera_save_options_set_process(tessera_save_options* options, size_t process_index,
                                                  size_t num_processes, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How the tensors' dimensions are cut (tessera_shard_mode_t); strict by
 * default. Recorded in the index, so a restore cuts them the same way.
 * @return true on success; INVALID_ARGUMENT for a NULL options or an
 *         unknown mode.
 * @since 0.3
 */
TESSERA_API bool tessera_save_options_set_shard_mode(tessera_save_options* options, tessera_shard_mode_t mode,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The most bytes of a piece asked of the fill callback at once (and held in
 * memory while writing); 64 MiB by default.
 * @return true on success; INVALID_ARGUMENT for a NULL options or
 *         chunk_size < 1.
 * @since 0.3
 */
TESSERA_API bool tessera_save_options_set_chunk_size(tessera_save_options* options, int64_t chunk_size,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * One process's save of a sharded checkpoint. Owned by the caller; release
 * it with tessera_checkpoint_saver_destroy.
 * @since 0.3
 */
typedef struct tessera_checkpoint_saver tessera_checkpoint_saver;

/**
 * A saver into `directory` (created at the first write if it does not
 * exist; its parent must). Writes nothing yet.
 * @param directory the checkpoint's directory; copied.
 * @param options   may be NULL for the defaults.
 * @param out_error receives a new error on failure (see error.h); may be NULL.
 * @return a new saver owned by the caller, or NULL: INVALID_ARGUMENT for a
 *         NULL or empty directory.
 * @since 0.3
 */
TESSERA_API tessera_checkpoint_saver* tessera_checkpoint_saver_create(const char* directory,
                                                                      const tessera_save_options* options,
                                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `saver` (what it wrote stays). NULL is allowed. @since 0.3 */
TESSERA_API void tessera_checkpoint_saver_destroy(tessera_checkpoint_saver* saver) TESSERA_NOEXCEPT;

/**
 * Adds a tensor to save; its position is the number of tensors added
 * before it. Every process adds the same tensors in the same order.
 * @param saver     the saver.
 * @param name      a non-empty UTF-8 name, unique in the save; copied.
 * @param dtype     a safetensors dtype ("F32", "BF16", "I64", "U8", ...,
 *                  or a sub-byte one: "F4" packs 2 elements in a byte,
 *                  "F6_E2M3" and "F6_E3M2" 4 in 3 bytes); copied. A sub-byte
 *                  tensor's shards must hold whole blocks of its innermost
 *                  dimension, as the loader reads them.
 * @param layout    a layout with a mesh. Retained: the caller may destroy
 *                  its handle at any time.
 * @param dims      the global shape, num_dims entries >= 0; copied. May be
 *                  NULL when num_dims is 0 (a scalar).
 * @param num_dims  the tensor rank; must equal the layout's rank.
 * @param out_error receives a new error on failure (see error.h); may be NULL.
 * @return true on success; false: INVALID_ARGUMENT for a NULL saver, name,
 *         dtype or layout, NULL dims with num_dims > 0, an empty or repeated
 *         name ("Argument 'name' is \"w\"; expected a name no other tensor
 *         of the save has"), an unknown dtype, a sub-byte dtype on a scalar,
 *         on an innermost dimension that is not a multiple of its block
 *         ("Tensor 'w' has innermost dimension 3 (shape [2, 3]); expected a
 *         multiple of 2, the elements per block of F4") or with a shard
 *         that splits a block ("Tensor 'w' of type F4: the shard of device 1
 *         covers [3, 6) of dimension 1 (size 6); expected a start and stop
 *         on a multiple of 2, the elements per block"), a process
 *         count that does not divide the mesh's devices, or a sharding
 *         tessera_sharding_create refuses (its message); FAILED_PRECONDITION
 *         for a layout without a mesh or a saver that already wrote.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_saver_add_tensor(tessera_checkpoint_saver* saver, const char* name,
                                                     const char* dtype, const tessera_layout* layout,
                                                     const int64_t* dims, size_t num_dims,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many tensors were added.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_saver_num_tensors(const tessera_checkpoint_saver* saver,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Hands the shard of tensor `tensor` on device `device` as a buffer, for
 * tessera_checkpoint_saver_write: `size` bytes, the device's box as
 * row-major bytes (a sub-byte type's innermost dimension counted in
 * blocks: an F4 box [0:2, 0:4] is 4 bytes). The saver keeps the pointer, not a copy: the bytes must
 * stay valid until the write returns. A later call for the same tensor and
 * device replaces the buffer. Only the shards the process stores are read
 * (replica id 0); buffers of other devices of the process are checked and
 * ignored.
 * @return true on success; false: INVALID_ARGUMENT for a NULL saver, NULL
 *         data with size > 0, a device of another process ("Argument
 *         'device' is 3; expected a device of process 0, [0, 2)") or a size
 *         other than the shard's ("Argument 'size' is 8; expected 12, the
 *         bytes of device 1's shard of tensor \"w\""); OUT_OF_RANGE for a
 *         tensor >= num_tensors or a device >= the mesh's devices.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_saver_set_shard(tessera_checkpoint_saver* saver, size_t tensor, size_t device,
                                                    const void* data, size_t size,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Writes the process's file from the buffers of
 * tessera_checkpoint_saver_set_shard, crash-safely (see the file comment).
 * A saver writes once.
 * @return true on success; false: INVALID_ARGUMENT for a NULL saver;
 *         FAILED_PRECONDITION for a saver that already wrote, a shard the
 *         process stores without a buffer ("tensor \"w\": no buffer for
 *         device 2, which stores [2:4, 0:6]; expected
 *         tessera_checkpoint_saver_set_shard for it"), or a damaged index
 *         in the directory; the errno's code for an I/O error (naming the
 *         file). On failure no file of this save is left.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_saver_write(tessera_checkpoint_saver* saver,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Writes the process's file from buffers that are valid during this call
 * only: shard i is tensor `shard_tensors[i]` on device `shard_devices[i]`,
 * `sizes[i]` bytes at `buffers[i]` (as tessera_checkpoint_saver_set_shard
 * for each, then tessera_checkpoint_saver_write). This is the form for
 * callers whose memory may move after a call returns (a garbage-collected
 * language pins its buffers for the call); the saver keeps no pointer
 * afterwards, whether the write succeeded or not, and buffers handed
 * earlier with tessera_checkpoint_saver_set_shard still count. A saver
 * writes once.
 * @param saver             the saver.
 * @param shard_tensors     `num_shard_tensors` tensor indices.
 * @param num_shard_tensors the shards handed.
 * @param shard_devices     one device per shard; `num_shard_devices` must
 *                          equal `num_shard_tensors`.
 * @param num_shard_devices entries of `shard_devices`.
 * @param buffers           one buffer per shard, each its device's box as
 *                          row-major bytes.
 * @param sizes             the bytes of each buffer.
 * @param num_buffers       entries of `buffers` and `sizes`; must equal
 *                          `num_shard_tensors`.
 * @param out_error         receives a new error on failure (see error.h);
 *                          may be NULL.
 * @return true on success; false: INVALID_ARGUMENT for a NULL saver, a NULL
 *         array with a count above 0, counts that differ ("Argument
 *         'num_buffers' is 1; expected 2, the entries of 'shard_tensors'")
 *         or a shard tessera_checkpoint_saver_set_shard refuses, prefixed
 *         with its position ("shard 1: Argument 'size' is 8; expected 12,
 *         ..."); OUT_OF_RANGE as set_shard, prefixed the same way;
 *         FAILED_PRECONDITION and I/O errors as tessera_checkpoint_saver_write.
 *         On failure no file of this save is left.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_saver_write_shards(tessera_checkpoint_saver* saver, const size_t* shard_tensors,
                                                       size_t num_shard_tensors, const size_t* shard_devices,
                                                       size_t num_shard_devices, const void* const* buffers,
                                                       const size_t* sizes, size_t num_buffers,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Called by tessera_checkpoint_saver_stream for each part of each piece the
 * process stores, in file order: fill `out` with `size` bytes starting at
 * byte `offset` of the shard of tensor `tensor` on device `device`, whose
 * box is `ranges` ([start0, stop0, start1, stop1, ...], `num_ranges` =
 * 2 * rank entries, valid only during the call). Return false to cancel.
 * @since 0.3
 */
typedef bool (*tessera_save_fill_fn)(size_t tensor, size_t device, const int64_t* ranges, size_t num_ranges,
                                     int64_t offset, void* out, size_t size, void* user_data);

/**
 * Writes the process's file, asking `fill` for the bytes (parts of at most
 * the options' chunk size), crash-safely. A saver writes once.
 * @return true on success; false: INVALID_ARGUMENT for a NULL saver or
 *         fill; CANCELLED when `fill` returned false; FAILED_PRECONDITION
 *         and I/O errors as tessera_checkpoint_saver_write. On failure no
 *         file of this save is left.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_saver_stream(tessera_checkpoint_saver* saver, tessera_save_fill_fn fill,
                                                 void* user_data, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Process 0's last step, after every process's write returned: reads each
 * process file's header, checks that the pieces store every element of
 * every tensor once, and writes tessera-index.json crash-safely; then
 * removes the files of the directory's previous checkpoint and what crashed
 * saves left.
 * @return true on success; false: INVALID_ARGUMENT for a NULL saver;
 *         FAILED_PRECONDITION for a saver of another process than 0 or a
 *         process file that is missing ("DIR/process-00001-of-00002.
 *         safetensors: missing; process 1 has not written its file ...") or
 *         does not hold what this save stores; DATA_LOSS for a process file
 *         that is not a whole safetensors file; the errno's code for an I/O
 *         error.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_saver_finish(tessera_checkpoint_saver* saver,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_CHECKPOINT_SAVE_H_ */
