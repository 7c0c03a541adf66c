/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * TF DTensor's mesh and layout text, printed and parsed byte for byte:
 *
 * @verbatim
 *   mesh   : <name>|<dim>=<size>,...|<global ids>|<local ids>|<local devices>
 *            [|<global devices>][|use_xla_spmd]   e.g. |x=2|0,1|0,1|/job:localhost/...
 *            <name>|<dims>|*<TYPE>                 (shorthand: ids 0..n-1 on task 0)
 *            <device>  (single device)             empty_mesh
 *   layout : sharding_specs:<spec>,<spec>, mesh:<mesh>   (every spec ends in ',')
 *            parted:<spec>,... mesh:<mesh>    maximal:true, mesh:<device>    empty_layout
 * @endverbatim
 *
 * Parsing applies DTensor's checks with DTensor's messages (e.g. "Attempted
 * to shard two or more tensor dimensions over mesh dimension x"); every error
 * found in a text is INVALID_ARGUMENT and its message ends with the byte
 * offset and the token: "... (at byte 12: 'x=2')". Tessera is stricter than
 * DTensor's parser: integers are canonical decimals, list entries are not
 * empty, and a spec without its trailing comma is an error (DTensor drops it).
 *
 * A DTensor mesh says more than a tessera_mesh (a name, local ids and device
 * strings, global devices, use_xla_spmd). tessera_mesh_from_dtensor_text
 * keeps what a tessera_mesh can hold; the tessera_dtensor_mesh handle keeps
 * everything, so its text round-trips exactly.
 *
 * From DTensor to Tessera: the dims become the axes, the global ids the device
 * ids, on the platform of the device strings' type (CPU, GPU or TPU); a local
 * id's device takes its process from the string's task and its ordinal from
 * the string's device index; any other id at row-major position p follows
 * DTensor's client model (equal blocks of L = number of local ids per client,
 * in order): process p / L, ordinal p % L. The name, job and replica names,
 * use_xla_spmd and which client the text was written for are lost.
 * From Tessera to DTensor: the name is empty (or given), the local devices are
 * those of one process (0 by default), named
 * `/job:<job>/replica:0/task:<process>/device:<TYPE>:<ordinal>`, with job
 * "localhost" for a one-process mesh and "worker" otherwise, as DTensor's
 * DTENSOR_JOB_NAME defaults; use_xla_spmd is false unless given.
 */
#ifndef TESSERA_DTENSOR_H_
#define TESSERA_DTENSOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/layout.h"
#include "tessera/mesh.h"

TESSERA_BEGIN_DECLS

/** A DTensor mesh with everything its text says. Immutable; safe to share across threads. */
typedef struct tessera_dtensor_mesh tessera_dtensor_mesh;

/** What kind of mesh a DTensor mesh is. */
typedef enum tessera_dtensor_mesh_kind_t {
  /** "empty_mesh": no dimensions, no devices. */
  TESSERA_DTENSOR_MESH_EMPTY = 0,
  /** A grid of devices with named dimensions. */
  TESSERA_DTENSOR_MESH_TILE = 1,
  /** One device, named by its string; no dimensions. */
  TESSERA_DTENSOR_MESH_SINGLE_DEVICE = 2,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_DTENSOR_MESH_KIND_FORCE_INT32 = 0x7fffffff
} tessera_dtensor_mesh_kind_t;

/**
 * DTensor mesh text for `mesh`, as seen by process 0 with an empty name
 * (see the top of this file).
 * @return a new buffer owned by the caller (tessera_buffer_destroy), or NULL:
 *         INVALID_ARGUMENT for a NULL mesh, an axis named any, match or
 *         unsharded (reserved in DTensor), or process 0 holding an uneven
 *         share of the devices ("Uneven local clusters ...").
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_mesh_to_dtensor_text(const tessera_mesh* mesh,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Parses DTensor mesh text into a Tessera mesh (what is kept: see the top of
 * this file).
 * @param text  NUL-terminated UTF-8; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new mesh owned by the caller (tessera_mesh_destroy), or NULL:
 *         INVALID_ARGUMENT for NULL, text DTensor or Tessera rejects (with
 *         the byte offset and token), an empty or single-device mesh, a mesh
 *         with no device strings, or a device type other than CPU, GPU or TPU.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_mesh_from_dtensor_text(const char* text,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor static layout text for `layout` ("sharding_specs:x,unsharded, mesh:..."),
 * its mesh printed as tessera_mesh_to_dtensor_text does.
 * @return a new buffer owned by the caller, or NULL: INVALID_ARGUMENT for a
 *         NULL layout, a layout without a mesh, or a dimension split over an
 *         axis group (DTensor allows one mesh axis or unsharded per dimension;
 *         the message names the dimension), or the mesh errors above.
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_dtensor_text(const tessera_layout* layout,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * As tessera_layout_to_dtensor_text, over the DTensor mesh `mesh`, so its
 * name, device strings and flags are printed as they are.
 * @param layout  the layout to print.
 * @param mesh  must describe the layout's mesh (its tessera_dtensor_mesh_to_mesh
 *              equals it) when the layout has one; retained only for the call.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new buffer owned by the caller, or NULL (INVALID_ARGUMENT).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_layout_to_dtensor_text_with_mesh(
    const tessera_layout* layout, const tessera_dtensor_mesh* mesh,
    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Parses DTensor layout text into a Tessera layout with its mesh: "unsharded"
 * becomes a replicated dimension, a mesh dimension a one-axis dimension, and
 * a lone "scalar" rank 0.
 * @param text  NUL-terminated UTF-8; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new layout owned by the caller (tessera_layout_destroy; it keeps
 *         its mesh alive, see tessera_layout_mesh), or NULL: INVALID_ARGUMENT
 *         for NULL, text DTensor or Tessera rejects (with the byte offset and
 *         token), a parted, single-device or empty layout, an "any" or "match"
 *         spec (naming the dimension), or the mesh errors of
 *         tessera_mesh_from_dtensor_text. Every layout a DTensor job prints,
 *         with its whole DTensor mesh, reads as a tessera_dtensor_layout
 *         (tessera/experimental/dtensor_layout.h).
 * @since 0.2
 */
TESSERA_API tessera_layout* tessera_layout_from_dtensor_text(const char* text,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Parses DTensor mesh text, keeping everything it says.
 * @param text  NUL-terminated UTF-8; copied.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new DTensor mesh owned by the caller (tessera_dtensor_mesh_destroy),
 *         or NULL: INVALID_ARGUMENT for NULL or rejected text.
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_parse(const char* text,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The mesh of DTensor layout text (the part after "mesh:"), keeping
 * everything it says; the whole layout is checked. The experimental
 * tessera_dtensor_layout_parse reads the layout and this mesh in one parse
 * (tessera_dtensor_layout_mesh), for every layout type; when that tier
 * becomes stable this function and tessera_layout_from_dtensor_text are its
 * two halves and will be deprecated.
 * @return a new DTensor mesh owned by the caller, or NULL (INVALID_ARGUMENT).
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_parse_layout_mesh(
    const char* layout_text, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The DTensor mesh for `mesh` as seen by `process_index` (its devices are the
 * local ones; a process without devices in the mesh gives a remote mesh).
 * @param mesh  the mesh to describe.
 * @param name  the DTensor mesh name; NULL means ""; copied.
 * @param process_index  the process whose devices are the local ones; >= 0.
 * @param use_xla_spmd  DTensor's use_xla_spmd flag of the result.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new DTensor mesh owned by the caller, or NULL (INVALID_ARGUMENT:
 *         NULL mesh, a name with '|', reserved axis names, an uneven share).
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_from_mesh(const tessera_mesh* mesh,
                                                                const char* name,
                                                                size_t process_index,
                                                                bool use_xla_spmd,
                                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The Tessera mesh `mesh` describes (see the top of this file for what is kept).
 * @return a new mesh owned by the caller, or NULL: INVALID_ARGUMENT for NULL,
 *         an empty or single-device mesh, no device strings, a device type
 *         other than CPU, GPU or TPU, or duplicate global ids.
 * @since 0.2
 */
TESSERA_API tessera_mesh* tessera_dtensor_mesh_to_mesh(const tessera_dtensor_mesh* mesh,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The text of `mesh`; the text it was parsed from when that was canonical.
 * @return a new buffer owned by the caller, or NULL (INVALID_ARGUMENT for NULL).
 * @since 0.2
 */
TESSERA_API tessera_buffer* tessera_dtensor_mesh_to_text(const tessera_dtensor_mesh* mesh,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `mesh`. NULL is allowed. Any thread. @since 0.2 */
TESSERA_API void tessera_dtensor_mesh_destroy(tessera_dtensor_mesh* mesh) TESSERA_NOEXCEPT;

/** The kind of `mesh`; TESSERA_DTENSOR_MESH_EMPTY (0) on failure. @since 0.2 */
TESSERA_API tessera_dtensor_mesh_kind_t tessera_dtensor_mesh_kind(const tessera_dtensor_mesh* mesh,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/** The name ("" when none). UTF-8; has the lifetime of `mesh`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_dtensor_mesh_name(const tessera_dtensor_mesh* mesh,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's device type ("CPU", "TPU"...): from the single device, else the
 * first global device, else the first local device; "" for an empty or
 * remote mesh; NULL on failure. Has the lifetime of `mesh`.
 * @since 0.2
 */
TESSERA_API const char* tessera_dtensor_mesh_device_type(const tessera_dtensor_mesh* mesh,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/** The device of a single-device mesh; "" otherwise; NULL on failure. Lifetime of `mesh`. @since 0.2 */
TESSERA_API const char* tessera_dtensor_mesh_single_device(const tessera_dtensor_mesh* mesh,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/** Whether the text carries use_xla_spmd; false on failure. @since 0.2 */
TESSERA_API bool tessera_dtensor_mesh_use_xla_spmd(const tessera_dtensor_mesh* mesh,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of mesh dimensions; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dtensor_mesh_num_dims(const tessera_dtensor_mesh* mesh,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Name of dimension `index`. UTF-8; has the lifetime of `mesh`.
 * @return the name, or NULL: INVALID_ARGUMENT for NULL, OUT_OF_RANGE when
 *         index >= rank.
 * @since 0.2
 */
TESSERA_API const char* tessera_dtensor_mesh_dim_name(const tessera_dtensor_mesh* mesh, size_t index,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Size of dimension `index`, stored in *out.
 * @return true on success; INVALID_ARGUMENT for NULL, OUT_OF_RANGE when index >= rank.
 * @since 0.2
 */
TESSERA_API bool tessera_dtensor_mesh_dim_extent(const tessera_dtensor_mesh* mesh, size_t index,
                                              int64_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of global device ids; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dtensor_mesh_num_global_ids(const tessera_dtensor_mesh* mesh,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Global device id `index` (row-major mesh position), stored in *out.
 * @return true on success; INVALID_ARGUMENT for NULL, OUT_OF_RANGE for a bad index.
 * @since 0.2
 */
TESSERA_API bool tessera_dtensor_mesh_global_id(const tessera_dtensor_mesh* mesh, size_t index,
                                               int64_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of local device ids (= local devices); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dtensor_mesh_num_local_ids(const tessera_dtensor_mesh* mesh,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Local device id `index`, stored in *out.
 * @return true on success; INVALID_ARGUMENT for NULL, OUT_OF_RANGE for a bad index.
 * @since 0.2
 */
TESSERA_API bool tessera_dtensor_mesh_local_id(const tessera_dtensor_mesh* mesh, size_t index,
                                              int64_t* out, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Local device `index` ("/job:localhost/replica:0/task:0/device:CPU:0"), the
 * device of local id `index`. UTF-8; has the lifetime of `mesh`.
 * @return the name, or NULL: INVALID_ARGUMENT for NULL, OUT_OF_RANGE for a bad index.
 * @since 0.2
 */
TESSERA_API const char* tessera_dtensor_mesh_local_device(const tessera_dtensor_mesh* mesh,
                                                         size_t index,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/** Number of global device strings (usually 0); 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_dtensor_mesh_num_global_devices(const tessera_dtensor_mesh* mesh,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Global device string `index`. UTF-8; has the lifetime of `mesh`.
 * @return the name, or NULL: INVALID_ARGUMENT for NULL, OUT_OF_RANGE for a bad index.
 * @since 0.2
 */
TESSERA_API const char* tessera_dtensor_mesh_global_device(const tessera_dtensor_mesh* mesh,
                                                          size_t index,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_DTENSOR_H_ */
