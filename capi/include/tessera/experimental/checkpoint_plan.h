/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/checkpoint_plan.h
 * @brief Experimental: will a checkpoint fit on a mesh, and on which mesh shape
 *
 * Why experimental: the memory model (its terms, the KV cache's division)
 * arrives with issue 12 and may gain terms (activations) or change how the
 * cache is divided.
 *
 * A tessera_checkpoint_plan places each tensor of a tessera_checkpoint
 * with a tessera_layout_map (the tensor's name is the path looked up; no
 * rule: replicated) on the map's mesh, and sums per device the bytes of each
 * memory term:
 *   - TESSERA_PLAN_TERM_WEIGHTS: each tensor's shard, at its element type
 *     or the planned dtype;
 *   - TESSERA_PLAN_TERM_KV_CACHE (inference, with a batch and sequence
 *     length): 2 x layers x batch x seq_len x kv_heads x head_dim x the KV
 *     element's bytes. Layers, KV heads and head dimension come from the
 *     options, else the checkpoint (GGUF `ARCH.block_count`,
 *     `ARCH.attention.head_count_kv` / `head_count`, `ARCH.attention.key_length`
 *     or `ARCH.embedding_length` / `head_count`; for safetensors a
 *     `config.json` beside the model: `num_hidden_layers`,
 *     `num_key_value_heads` / `num_attention_heads`, `head_dim` or
 *     `hidden_size` / `num_attention_heads`). The batch is split over the
 *     first mesh axis named batch, data, dp or fsdp whose size divides it;
 *     the KV heads over the axes the attention key weights (a tensor named
 *     k_proj, attn_k, c_attn, qkv, query_key_value or key) are split over,
 *     when those divide them; the rest is replicated
 *     (tessera_checkpoint_plan_kv_cache_sharding says which applied);
 *   - TESSERA_PLAN_TERM_GRADIENTS (training): as the weights;
 *   - TESSERA_PLAN_TERM_OPTIMIZER_STATE (training): Adam's two moments in
 *     f32, 8 bytes per element of each shard;
 *   - TESSERA_PLAN_TERM_MASTER_WEIGHTS (training): an f32 copy, 4 bytes per
 *     element of each 16-bit (F16, BF16) shard.
 * The peak is their sum (all resident at once; activations are not
 * modelled). A tensor whose layout does not fit it (rank; in strict mode a
 * dimension its shard count does not divide; a shard boundary inside a
 * quantized block) is flagged with the reason and counted as uneven chunks,
 * or whole where the ranks differ.
 *
 * Plans and searches are immutable: any number of threads may query one.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise. Define
 * TESSERA_EXPERIMENTAL_API before including this header.
 */
#ifndef TESSERA_EXPERIMENTAL_CHECKPOINT_PLAN_H_
#define TESSERA_EXPERIMENTAL_CHECKPOINT_PLAN_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/checkpoint_plan.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/experimental/checkpoint.h"
#include "tessera/layout.h"
#include "tessera/layout_map.h"
#include "tessera/shard.h"

TESSERA_BEGIN_DECLS

/** What the memory is planned for. @since 0.3 */
typedef enum tessera_plan_recipe_t {
  /** Weights, plus a KV cache when a batch and sequence length are set. */
  TESSERA_PLAN_RECIPE_INFERENCE = 0,
  /** Weights, gradients, Adam's moments, f32 master copies of 16-bit weights. */
  TESSERA_PLAN_RECIPE_TRAINING = 1,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_PLAN_RECIPE_FORCE_INT32 = 0x7fffffff
} tessera_plan_recipe_t;

/** One memory term of a device (see the file comment). @since 0.3 */
typedef enum tessera_plan_term_t {
  /** The tensors' shards. */
  TESSERA_PLAN_TERM_WEIGHTS = 0,
  /** The KV cache's share (inference). */
  TESSERA_PLAN_TERM_KV_CACHE = 1,
  /** Gradients, as the weights (training). */
  TESSERA_PLAN_TERM_GRADIENTS = 2,
  /** Adam's two f32 moments (training). */
  TESSERA_PLAN_TERM_OPTIMIZER_STATE = 3,
  /** f32 copies of 16-bit weights (training). */
  TESSERA_PLAN_TERM_MASTER_WEIGHTS = 4,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_PLAN_TERM_FORCE_INT32 = 0x7fffffff
} tessera_plan_term_t;

/** Whether a device's peak fits its capacity. @since 0.3 */
typedef enum tessera_plan_verdict_t {
  /** No capacity is known for the device (also the failure value). */
  TESSERA_PLAN_VERDICT_UNKNOWN = 0,
  /** peak <= capacity. */
  TESSERA_PLAN_VERDICT_FITS = 1,
  /** peak > capacity. */
  TESSERA_PLAN_VERDICT_DOES_NOT_FIT = 2,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_PLAN_VERDICT_FORCE_INT32 = 0x7fffffff
} tessera_plan_verdict_t;

/**
 * Settings of a plan or search. Mutable; one thread at a time. Defaults:
 * inference, the checkpoint's element types, strict shards, no KV cache,
 * capacity unknown.
 * @since 0.3
 */
typedef struct tessera_checkpoint_plan_options tessera_checkpoint_plan_options;

/** New plan options with the defaults; NULL only when out of memory. @since 0.3 */
TESSERA_API tessera_checkpoint_plan_options* tessera_checkpoint_plan_options_create(void) TESSERA_NOEXCEPT;

/** Frees `options`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_checkpoint_plan_options_destroy(tessera_checkpoint_plan_options* options) TESSERA_NOEXCEPT;

/**
 * What the memory is planned for.
 * @param options    the options to change.
 * @param recipe     a tessera_plan_recipe_t value.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options` or an
 *         unknown recipe.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_recipe(tessera_checkpoint_plan_options* options,
                                                            tessera_plan_recipe_t recipe,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Plans every tensor cast to `dtype`: f64, f32, f16, bf16, f8 (F8_E4M3),
 * int8, uint8 (any case; long forms such as bfloat16 too) or a safetensors
 * dtype name.
 * @param options    the options to change.
 * @param dtype      NUL-terminated; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL argument or an
 *         unknown name ("Argument 'dtype' is 'f7'; expected an element type: ...").
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_dtype(tessera_checkpoint_plan_options* options,
                                                           const char* dtype,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Plans a KV cache for `batch` sequences of `seq_len` tokens (inference);
 * 0 for either plans none.
 * @param options    the options to change.
 * @param batch      sequences, >= 0.
 * @param seq_len    tokens per sequence, >= 0.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options` or a
 *         negative count.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_kv_cache(tessera_checkpoint_plan_options* options,
                                                              int64_t batch, int64_t seq_len,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The attention shape the KV cache is sized from, instead of what the
 * checkpoint says.
 * @param options       the options to change.
 * @param num_layers    >= 1.
 * @param num_kv_heads  >= 1.
 * @param head_dim      >= 1.
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options` or a
 *         count < 1.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_attention_shape(tessera_checkpoint_plan_options* options,
                                                                     int64_t num_layers, int64_t num_kv_heads,
                                                                     int64_t head_dim,
                                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The KV cache's element type (names as tessera_checkpoint_plan_options_set_dtype);
 * by default the planned dtype, else F16.
 * @param options    the options to change.
 * @param dtype      NUL-terminated; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL argument or an
 *         unknown name.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_kv_dtype(tessera_checkpoint_plan_options* options,
                                                              const char* dtype,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The same capacity for every device, in bytes.
 * @param options    the options to change.
 * @param bytes      >= 0.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options` or a
 *         negative value.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_capacity(tessera_checkpoint_plan_options* options,
                                                              int64_t bytes,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * One capacity per device of the mesh, in mesh order (mixed devices); the
 * plan refuses another count than the mesh's devices.
 * @param options      the options to change.
 * @param bytes        `num_devices` entries >= 0; copied.
 * @param num_devices  number of entries (0: capacity unknown).
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`, a NULL
 *         array with entries or a negative entry (naming it).
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_device_capacities(tessera_checkpoint_plan_options* options,
                                                                       const int64_t* bytes, size_t num_devices,
                                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How dimensions are cut (tessera_shard_mode_t; default strict, as
 * jax.device_put with a NamedSharding).
 * @param options    the options to change.
 * @param mode       a tessera_shard_mode_t value.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options` or an
 *         unknown mode.
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_options_set_shard_mode(tessera_checkpoint_plan_options* options,
                                                                tessera_shard_mode_t mode,
                                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * A checkpoint's memory plan on one mesh. Owned by the caller; release it
 * with tessera_checkpoint_plan_destroy.
 * @since 0.3
 */
typedef struct tessera_checkpoint_plan tessera_checkpoint_plan;

/**
 * Plans `checkpoint` with `layout_map` on the map's mesh. Per-device totals
 * cost O(tensors + devices) when the shards are even; each distinct uneven
 * placement adds O(devices).
 * @param checkpoint  the checkpoint; only read during the call.
 * @param layout_map  the rules, with a mesh; only read during the call.
 * @param options     may be NULL (defaults); only read during the call.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return a new plan owned by the caller (tessera_checkpoint_plan_destroy),
 *         or NULL: INVALID_ARGUMENT for a NULL checkpoint or map, a map
 *         without a mesh, device capacities of another count than the
 *         mesh's devices, an unreadable config.json beside the model, or
 *         totals over 2^63-1 bytes.
 * @since 0.3
 */
TESSERA_API tessera_checkpoint_plan* tessera_checkpoint_plan_create(const tessera_checkpoint* checkpoint,
                                                                    const tessera_layout_map* layout_map,
                                                                    const tessera_checkpoint_plan_options* options,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `plan`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_checkpoint_plan_destroy(tessera_checkpoint_plan* plan) TESSERA_NOEXCEPT;

/**
 * How many tensors the plan places: the checkpoint's, in its order.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_plan_num_tensors(const tessera_checkpoint_plan* plan,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Element type tensor `index` is planned at (the planned dtype, else the
 * checkpoint's), in safetensors' or GGUF's spelling; has the lifetime of `plan`.
 * @return the name; NULL on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_plan_tensor_element_type(const tessera_checkpoint_plan* plan,
                                                                    size_t index,
                                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout map's rule tensor `index` matched.
 * @param plan       the plan.
 * @param index      below num_tensors.
 * @param out        receives the rule's position, or TESSERA_NO_INDEX when
 *                   no rule (or several) matched.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; false on failure (INVALID_ARGUMENT for a NULL
 *         argument, OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API bool tessera_checkpoint_plan_tensor_rule(const tessera_checkpoint_plan* plan, size_t index,
                                                     size_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The layout tensor `index` is placed with: its rule's, or replicated.
 * @return a new layout owned by the caller (tessera_layout_destroy); NULL on
 *         failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API tessera_layout* tessera_checkpoint_plan_tensor_layout(const tessera_checkpoint_plan* plan, size_t index,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Shape of tensor `index`'s largest shard (ceil(size / shards) per
 * dimension). Output array (tessera.h, Vocabulary).
 * @return the number of dimensions; 0 on failure (OUT_OF_RANGE when
 *         index >= num_tensors).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_plan_tensor_shard_shape(const tessera_checkpoint_plan* plan, size_t index,
                                                              int64_t* out, size_t capacity,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes of tensor `index`'s largest shard at its planned type (whole
 * quantized blocks).
 * @return the bytes; 0 on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_plan_tensor_shard_bytes(const tessera_checkpoint_plan* plan, size_t index,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Why tensor `index`'s layout does not fit it ("" when it does): several
 * rules match, the ranks differ, a dimension is not divisible (strict), or
 * a shard boundary cuts a quantized block; has the lifetime of `plan`.
 * @return the reason; NULL on failure (OUT_OF_RANGE when index >= num_tensors).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_plan_tensor_problem(const tessera_checkpoint_plan* plan, size_t index,
                                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Elements of all tensors (the model's parameter count).
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_plan_num_parameters(const tessera_checkpoint_plan* plan,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes of all tensors, unsharded, at their planned types.
 * @return the bytes; 0 on failure.
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_plan_weight_bytes(const tessera_checkpoint_plan* plan,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many devices the plan covers: the mesh's, in mesh order.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_plan_num_devices(const tessera_checkpoint_plan* plan,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Bytes of memory term `term` on device `index` (0 for a term the recipe
 * does not have).
 * @param plan       the plan.
 * @param index      the device's position in mesh order, below num_devices.
 * @param term       a tessera_plan_term_t value.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the bytes; 0 on failure (INVALID_ARGUMENT for a NULL plan or an
 *         unknown term, OUT_OF_RANGE when index >= num_devices).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_plan_device_term_bytes(const tessera_checkpoint_plan* plan, size_t index,
                                                              tessera_plan_term_t term,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Peak bytes of device `index`: the sum of its terms.
 * @return the bytes; 0 on failure (OUT_OF_RANGE when index >= num_devices).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_plan_device_peak_bytes(const tessera_checkpoint_plan* plan, size_t index,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Capacity of device `index` in bytes, -1 when unknown.
 * @return the bytes or -1; 0 on failure (OUT_OF_RANGE when index >= num_devices).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_plan_device_capacity_bytes(const tessera_checkpoint_plan* plan,
                                                                  size_t index,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether device `index`'s peak fits its capacity; the headroom is
 * capacity - peak.
 * @return the verdict; TESSERA_PLAN_VERDICT_UNKNOWN on failure (OUT_OF_RANGE
 *         when index >= num_devices).
 * @since 0.3
 */
TESSERA_API tessera_plan_verdict_t tessera_checkpoint_plan_device_verdict(const tessera_checkpoint_plan* plan,
                                                                          size_t index,
                                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How the KV cache is divided over the mesh ("batch 8 over 'data' (2); 8
 * KV heads over 'model' (4, as 'layers.0.k_proj.weight'); replicated over
 * the other axes"), or why none is planned, or "" when none was asked for;
 * has the lifetime of `plan`.
 * @return the text; NULL on failure.
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_plan_kv_cache_sharding(const tessera_checkpoint_plan* plan,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The mesh shapes a checkpoint was tried on, ranked. Owned by the caller;
 * release it with tessera_checkpoint_plan_search_destroy.
 * @since 0.3
 */
typedef struct tessera_checkpoint_plan_search tessera_checkpoint_plan_search;

/**
 * Tries every ordered factorization of the device count of `layout_maps[0]`'s
 * mesh over its axes (8 devices over (data, model): 1x8, 2x4, 4x2, 8x1),
 * each with each map's rules re-laid on that shape (the maps' meshes must
 * have the same axes and devices; their shapes do not matter). Candidates
 * that fit come first, by their largest device peak (ties in enumeration
 * order: first axis smallest first, then the maps' order); the rejected
 * follow in enumeration order, each with the first tensor whose layout
 * does not fit or the first device over its capacity.
 * @param checkpoint       the checkpoint; only read during the call.
 * @param layout_maps      `num_layout_maps` maps; only read during the call.
 * @param num_layout_maps  >= 1.
 * @param options          may be NULL (defaults); only read during the call.
 * @param out_error        receives a new error on failure (see error.h); may be NULL.
 * @return a new search owned by the caller, or NULL: INVALID_ARGUMENT for a
 *         NULL argument or entry, no maps, a map without a mesh, meshes of
 *         other axes or devices than the first's, and the plan's errors.
 * @since 0.3
 */
TESSERA_API tessera_checkpoint_plan_search* tessera_checkpoint_plan_search_create(
    const tessera_checkpoint* checkpoint, const tessera_layout_map* const* layout_maps, size_t num_layout_maps,
    const tessera_checkpoint_plan_options* options, tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `search`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_checkpoint_plan_search_destroy(tessera_checkpoint_plan_search* search) TESSERA_NOEXCEPT;

/**
 * How many candidates (mesh shapes x maps) were tried.
 * @return the count; 0 on failure.
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_plan_search_num_candidates(const tessera_checkpoint_plan_search* search,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Mesh shape of candidate `index`, one size per axis of the maps' mesh.
 * Output array (tessera.h, Vocabulary).
 * @return the number of axes; 0 on failure (OUT_OF_RANGE when index >=
 *         num_candidates).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_plan_search_candidate_mesh_shape(const tessera_checkpoint_plan_search* search,
                                                                       size_t index, int64_t* out, size_t capacity,
                                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Position in `layout_maps` of the map candidate `index` used.
 * @return the position; 0 on failure (OUT_OF_RANGE when index >= num_candidates).
 * @since 0.3
 */
TESSERA_API size_t tessera_checkpoint_plan_search_candidate_layout_map(const tessera_checkpoint_plan_search* search,
                                                                       size_t index,
                                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The largest device peak of candidate `index`, in bytes.
 * @return the bytes; 0 on failure (OUT_OF_RANGE when index >= num_candidates).
 * @since 0.3
 */
TESSERA_API int64_t tessera_checkpoint_plan_search_candidate_peak_bytes(const tessera_checkpoint_plan_search* search,
                                                                        size_t index,
                                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Why candidate `index` is rejected ("tensor 'w': ..." or "device 3: peak
 * ... exceeds its capacity ..."), or "" when it fits; has the lifetime of
 * `search`.
 * @return the reason; NULL on failure (OUT_OF_RANGE when index >= num_candidates).
 * @since 0.3
 */
TESSERA_API const char* tessera_checkpoint_plan_search_candidate_problem(const tessera_checkpoint_plan_search* search,
                                                                         size_t index,
                                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_CHECKPOINT_PLAN_H_ */
