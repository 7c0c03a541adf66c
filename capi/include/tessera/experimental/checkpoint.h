/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/checkpoint.h
 * @brief Experimental: a checkpoint's metadata (safetensors, GGUF) without its tensor data
 *
 * Why experimental: the checkpoint model (files, tensors, metadata rendered
 * as text) arrives with the planning and loading work of issue 12, which may
 * still change what a tensor or an entry carries.
 *
 * A tessera_checkpoint holds what the headers of a checkpoint's files say:
 * the files with their sizes, per tensor its name, element type, shape and
 * the bytes [offset, offset + size) it occupies in which file, and the
 * model's metadata entries. Opening one reads headers only, never the data.
 * A checkpoint is immutable: any number of threads may query it at once.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_CHECKPOINT_H_
#define TESSERA_EXPERIMENTAL_CHECKPOINT_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/checkpoint.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/**
 * A checkpoint's metadata, read from its files' headers. Owned by the
 * caller; release it with tessera_checkpoint_destroy.
 * @since 0.3
 */
typedef struct tessera_checkpoint tessera_checkpoint;

/**
 * Reads the headers of the checkpoint at `path`, a file or a directory. A
 * file's format is told by its first bytes:
 *   - safetensors: an 8-byte little-endian header length (at most
 *     100,000,000), then '{': that one file;
 *   - GGUF: the magic "GGUF": that file, or, when it is the first of
 *     gguf-split's `NAME-00001-of-0000N.gguf` files, all N splits;
 *   - a safetensors index (a sharded model's `model.safetensors.index.json`):
 *     a JSON object; the index and every file its "weight_map" names.
 * When the first bytes are none of these, the name decides (`*.index.json`,
 * `*.safetensors`, `*.gguf`), so a damaged file gets its format's error.
 * A directory (not searched recursively; symbolic links followed) opens:
 * its one `*.safetensors.index.json`; else its one `*.safetensors` file;
 * else, when it holds only `.gguf` files, its one `.gguf` file or the first
 * of the splits of one model. Other files are ignored. A directory holding
 * several indexes, several safetensors files and no index, both
 * safetensors and GGUF files, or GGUF files of several models is refused as
 * ambiguous, listing the file names; give one of them instead.
 * @param path       NUL-terminated; read only during the call.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new checkpoint owned by the caller (tessera_checkpoint_destroy),
 *         or NULL: INVALID_ARGUMENT for a NULL path, a file that is none of
 *         the above by content or by name ("Argument 'path' is 'x.bin';
 *         expected a checkpoint: ..."), a path neither a regular file nor a
 *         directory, or an ambiguous or empty directory ("DIR: the directory
 *         holds ..."); a malformed file's INVALID_ARGUMENT "FILE: byte
 *         OFFSET: what was wrong"; NOT_FOUND or the errno's code when a file
 *         cannot be read.
 * @since 0.3
 */
TESSERA_API tessera_checkpoint* tessera_checkpoint_open(const char* path,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `checkpoint`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_checkpoint_destroy(tessera_checkpoint* checkpoint) TESSERA_NOEXCEPT;

/**
 * The format: "safetensors" or "gguf"; has the lifetime of `checkpoint`.
 * @return the name; NULL on failure.
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_format(const tessera_checkpoint* checkpoint,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many files the checkpoint spans (1 for a single file).
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_num_files(const tessera_checkpoint* checkpoint,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Path of file `index`: as the caller gave it, or the index's directory
 * joined with the name the index gives; has the lifetime of `checkpoint`.
 * Files come in the order of their names.
 * @return the path; NULL on failure (OUT_OF_RANGE when index >= num_files).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_file_path(const tessera_checkpoint* checkpoint, size_t index,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Length in bytes of file `index` when it was opened.
 * @return the size; 0 on failure (OUT_OF_RANGE when index >= num_files).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_file_size(const tessera_checkpoint* checkpoint, size_t index,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many tensors the checkpoint holds, over all its files.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_num_tensors(const tessera_checkpoint* checkpoint,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Name of tensor `index`; has the lifetime of `checkpoint`. Tensors come
 * file by file, in each header's order.
 * @return the name; NULL on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_tensor_name(const tessera_checkpoint* checkpoint, size_t index,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Element type of tensor `index` as the format spells it ("F16", "BF16",
 * "Q4_K"); has the lifetime of `checkpoint`.
 * @return the name; NULL on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_tensor_element_type(const tessera_checkpoint* checkpoint,
                                                               size_t index,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Elements per storage block of tensor `index`'s type: 1 for plain types;
 * for packed and quantized types (safetensors' F4, GGUF's Q4_K) the number
 * of consecutive innermost elements stored together, so a shard starts and
 * ends on a multiple of it.
 * @return the count; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_tensor_block_num_elements(const tessera_checkpoint* checkpoint,
                                                                 size_t index,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes per storage block of tensor `index`'s type (for a plain type, bytes
 * per element).
 * @return the size; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_tensor_block_size(const tessera_checkpoint* checkpoint, size_t index,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Shape of tensor `index`, outermost dimension first (GGUF's innermost-first
 * dimensions reversed), row-major. Output array (tessera.h, Vocabulary); a
 * scalar has 0 dimensions.
 * @return the number of dimensions; 0 on failure (OUT_OF_RANGE when
 *         index >= num_tensors).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_tensor_shape(const tessera_checkpoint* checkpoint, size_t index,
                                                   int64_t* out, size_t capacity,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Position of the file holding tensor `index`'s data, below num_files.
 * @return the position; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_tensor_file_index(const tessera_checkpoint* checkpoint, size_t index,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Offset of tensor `index`'s first byte, absolute in its file; its bytes
 * are row-major and contiguous.
 * @return the offset; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_tensor_offset(const tessera_checkpoint* checkpoint, size_t index,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes tensor `index` occupies in its file.
 * @return the size; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_tensor_size(const tessera_checkpoint* checkpoint, size_t index,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Position of the tensor called `name`.
 * @param checkpoint  the checkpoint to search.
 * @param name        NUL-terminated; read only during the call.
 * @param out         receives the position on success.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return true on success; false on failure: INVALID_ARGUMENT for a NULL
 *         argument, NOT_FOUND "No tensor named 'x' in the checkpoint".
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_tensor_lookup(const tessera_checkpoint* checkpoint, const char* name,
                                                  size_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many metadata entries the checkpoint has: safetensors' `__metadata__`
 * (and a sharded model's index `metadata`), GGUF's key/values.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_num_metadata_entries(const tessera_checkpoint* checkpoint,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Key of metadata entry `index`, in file order; has the lifetime of
 * `checkpoint`.
 * @return the key; NULL on failure (OUT_OF_RANGE when index >=
 *         num_metadata_entries).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_metadata_key(const tessera_checkpoint* checkpoint, size_t index,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Value of metadata entry `index` as text (GGUF's typed values rendered as
 * core/checkpoint/gguf.h documents: integers in decimal, strings unquoted,
 * arrays as "[a, b]"); has the lifetime of `checkpoint`.
 * @return the value; NULL on failure (OUT_OF_RANGE when index >=
 *         num_metadata_entries).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_metadata_value(const tessera_checkpoint* checkpoint, size_t index,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Value of the metadata entry with key `key`; has the lifetime of
 * `checkpoint`.
 * @param checkpoint  the checkpoint to search.
 * @param key         NUL-terminated; read only during the call.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return the value; NULL on failure: INVALID_ARGUMENT for a NULL argument,
 *         NOT_FOUND "No metadata entry with key 'x' in the checkpoint".
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_metadata_lookup(const tessera_checkpoint* checkpoint, const char* key,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_CHECKPOINT_H_ */
