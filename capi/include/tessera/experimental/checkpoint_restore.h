/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/checkpoint_restore.h
 * @brief Experimental: restoring a sharded Tessera checkpoint on any mesh and layout
 *
 * Why experimental: sharded save and restore (issue 13) are new, and the
 * index format (docs/checkpoint-index.md, version 1) may still grow.
 *
 * A sharded checkpoint is a directory: tessera-index.json, written last,
 * beside one safetensors file per process of the saving job. The index
 * names for every tensor its dtype, global shape, the mesh, layout and shard
 * mode it was saved under, and its pieces: the distinct shards of that
 * sharding, each stored once, with their file, byte range and index ranges.
 *
 * Restoring makes a read plan (tessera/experimental/checkpoint_load.h) for
 * one process of the restoring job, on the mesh and under the layouts of a
 * layout map that need have nothing to do with the saved ones:
 *   - layouts: the map's answer for the tensor's name
 *     (tessera_layout_map_lookup); no rule: fully replicated;
 *   - devices: process P of N owns logical devices [P*D/N, (P+1)*D/N) of the
 *     map's mesh of D;
 *   - pieces: one per (device of the process, restored tensor), in mesh
 *     order then the tensors' order (the request's, or the index's); their
 *     bytes are the device's box of the tensor as row-major contiguous
 *     bytes, as tessera_read_plan_create's;
 *   - reads: for each box the process needs (once, however many of its
 *     devices hold it), the parts of the stored pieces it overlaps, row by
 *     row; tessera_read_plan_total_bytes is exactly those overlaps plus the
 *     coalescing gaps.
 * The plan is executed, queried and destroyed with the read-plan functions
 * (tessera_read_plan_execute, tessera_read_plan_stream, ...).
 *
 * Define TESSERA_EXPERIMENTAL_API before including this header (or
 * <tessera/tessera.h>) to use it.
 */
#ifndef TESSERA_EXPERIMENTAL_CHECKPOINT_RESTORE_H_
#define TESSERA_EXPERIMENTAL_CHECKPOINT_RESTORE_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/checkpoint_restore.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/experimental/checkpoint_load.h"
#include "tessera/layout_map.h"
#include "tessera/shard.h"

TESSERA_BEGIN_DECLS

/**
 * A sharded checkpoint's index, checked against its files. Immutable; owned
 * by the caller; release it with tessera_checkpoint_index_destroy.
 * @since 0.3
 */
typedef struct tessera_checkpoint_index tessera_checkpoint_index;

/**
 * Opens the sharded checkpoint at `path`: its directory, or the directory's
 * tessera-index.json. Reads the index and every file's header (never tensor
 * data) and checks them against each other.
 * @param path      the directory or the index.
 * @param out_error receives a new error on failure (see error.h); may be NULL.
 * @return a new index owned by the caller, or NULL: INVALID_ARGUMENT for a
 *         NULL path, an index that is not valid version-1 JSON ("INDEX: byte
 *         N: ..."), or a tensor whose pieces do not tile it ("tensor 'w':
 *         elements [0:4, 8:16] are in no piece"); FAILED_PRECONDITION for a
 *         directory without tessera-index.json (a save that did not finish)
 *         or a file the index names that is missing; DATA_LOSS for a file
 *         that is not what the index says (another size, header, piece
 *         offset or dtype), naming the file; the errno's code for an I/O
 *         error.
 * @since 0.3
 */
TESSERA_API tessera_checkpoint_index* tessera_checkpoint_index_open(const char* path,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `checkpoint`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_checkpoint_index_destroy(tessera_checkpoint_index* checkpoint) TESSERA_NOEXCEPT;

/**
 * How many processes wrote the checkpoint.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_index_num_processes(const tessera_checkpoint_index* checkpoint,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many files the index names (one per writing process); the file ids of
 * tessera_checkpoint_index_piece_file and of the read plans' files.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_index_num_files(const tessera_checkpoint_index* checkpoint,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Path of file `index` (the directory joined with the index's name for it);
 * has the lifetime of `checkpoint`.
 * @return the path; NULL on failure (OUT_OF_RANGE when index >= num_files).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_index_file_path(const tessera_checkpoint_index* checkpoint, size_t index,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many tensors the checkpoint holds.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_index_num_tensors(const tessera_checkpoint_index* checkpoint,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Name of tensor `index`, in save order; has the lifetime of `checkpoint`.
 * @return the name; NULL on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_index_tensor_name(const tessera_checkpoint_index* checkpoint, size_t index,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The safetensors dtype of tensor `index` ("F32", "BF16", ...); has the
 * lifetime of `index`.
 * @return the dtype; NULL on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_index_tensor_dtype(const tessera_checkpoint_index* checkpoint, size_t index,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The global shape of tensor `index`. Output array (tessera.h, Vocabulary).
 * @return the rank; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_index_tensor_shape(const tessera_checkpoint_index* checkpoint, size_t index,
                                                         int64_t* out, size_t capacity,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The sharding tensor `index` was saved under: its mesh, layout, global
 * shape and shard mode (tessera/shard.h answers about it).
 * @return a new sharding owned by the caller; NULL on failure (OUT_OF_RANGE
 *         when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API tessera_sharding* tessera_checkpoint_index_tensor_sharding(const tessera_checkpoint_index* checkpoint,
                                                                       size_t index,
                                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many pieces tensor `index` is stored in (its distinct shards with
 * elements).
 * @return the count; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_index_tensor_num_pieces(const tessera_checkpoint_index* checkpoint, size_t index,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The index ranges of piece `piece` of tensor `index` as [start0, stop0,
 * start1, stop1, ...] (2 * rank entries). Pieces are sorted by ranges.
 * Output array (tessera.h, Vocabulary).
 * @return 2 * rank; 0 on failure (OUT_OF_RANGE when index >= num_tensors
 *         or piece >= the tensor's pieces).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_index_piece_ranges(const tessera_checkpoint_index* checkpoint, size_t index,
                                                         size_t piece, int64_t* out, size_t capacity,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The file (tessera_checkpoint_index_file_path) piece `piece` of tensor
 * `tensor` is stored in.
 * @return the file id; 0 on failure (OUT_OF_RANGE as
 *         tessera_checkpoint_index_piece_ranges).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_index_piece_file(const tessera_checkpoint_index* checkpoint, size_t index,
                                                       size_t piece, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The tensors a restore asks for, with what it expects of each; restored in
 * the order added. Used by one thread at a time; the plan copies it.
 * @since 0.3
 */
typedef struct tessera_restore_request tessera_restore_request;

/** A new, empty request owned by the caller; NULL without memory. @since 0.3 */
TESSERA_API tessera_restore_request* tessera_restore_request_create(void) TESSERA_NOEXCEPT;

/** Frees `request`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_restore_request_destroy(tessera_restore_request* request) TESSERA_NOEXCEPT;

/**
 * Asks for tensor `name`; tessera_restore_plan_create refuses the plan when
 * the checkpoint stores it with another dtype or shape.
 * @param request   the request.
 * @param name      the tensor's name; required.
 * @param dtype     the safetensors dtype expected ("F32"); NULL: any.
 * @param shape     the global shape expected, `rank` sizes; NULL (with rank
 *                  0): any shape. A rank-0 tensor's shape is checked by
 *                  giving a non-NULL `shape` with rank 0.
 * @param rank      entries of `shape`.
 * @param out_error receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL request or name, a
 *         NULL shape with rank > 0, or a negative size.
 * @since 0.3
 */
TESSERA_API bool tessera_restore_request_add_tensor(tessera_restore_request* request, const char* name,
                                                    const char* dtype, const int64_t* shape, size_t rank,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Plans the reads of one process restoring the checkpoint under
 * `layout_map` (see the file comment). The plan is a read plan: query it,
 * execute it and destroy it with the functions of checkpoint_load.h. Its
 * files are the index's (tessera_checkpoint_index_file_path); a piece's
 * tensor (tessera_read_plan_piece_tensor) is its position in the request, or
 * in the index without one.
 * Cost: the resharding plan between the saved and the target sharding of
 * each restored tensor, plus the runs; no tensor data is read.
 * @param checkpoint  the checkpoint; the plan copies what it needs.
 * @param layout_map  the rules, looked up with each tensor's name; must have
 *                    a mesh, which is the mesh restored onto (any mesh).
 * @param request     the tensors to restore; NULL: every tensor of the index.
 * @param options     process, shard mode, coalescing gap, threads, staging;
 *                    NULL for the defaults (tessera_read_options_create).
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return a new read plan owned by the caller, or NULL: INVALID_ARGUMENT for
 *         a NULL checkpoint or layout map, a process count that does not divide
 *         the mesh's devices, a tensor that cannot be split under its rule
 *         (tessera_read_plan_create's errors), a requested dtype or shape
 *         other than the stored one ("Tensor 'w' is requested with shape
 *         [4, 8] but the checkpoint stores shape [8, 8]; expected the same
 *         shape"), or a tensor requested twice; NOT_FOUND for a requested
 *         tensor the checkpoint does not hold; FAILED_PRECONDITION for a map
 *         without a mesh.
 * @since 0.3
 */
TESSERA_API tessera_read_plan* tessera_restore_plan_create(const tessera_checkpoint_index* checkpoint,
                                                           const tessera_layout_map* layout_map,
                                                           const tessera_restore_request* request,
                                                           const tessera_read_options* options,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_CHECKPOINT_RESTORE_H_ */
