/**
 * @file tessera/experimental/dtensor_mesh.h
 * @brief Experimental: more of TF DTensor's Mesh (membership of a dimension, equality)
 *
 * Why experimental: these follow DTensor's Python Mesh (`dim in mesh`,
 * `mesh == other`), whose semantics moved from Python to C++ between TF
 * releases; they may gain siblings as the rest of its model arrives.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_DTENSOR_MESH_H_
#define TESSERA_EXPERIMENTAL_DTENSOR_MESH_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/dtensor_mesh.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>

#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/**
 * DTensor's `dim_name in mesh`: whether `mesh` has a dimension of that name
 * (an empty or single-device mesh has none).
 * @param mesh       the mesh.
 * @param dim_name   the name; compared byte for byte.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the answer; false on failure (INVALID_ARGUMENT for NULL arguments).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_mesh_has_dim(const tessera_dtensor_mesh* mesh, const char* dim_name,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's Mesh equality (its proto compared field by field): the same
 * kind, name, dimensions in order, global and local ids, local and global
 * devices, single device and use_xla_spmd.
 * @param a          a mesh.
 * @param b          the other mesh.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return whether they are equal; false on failure (INVALID_ARGUMENT for a
 *         NULL mesh).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_mesh_equal(const tessera_dtensor_mesh* a, const tessera_dtensor_mesh* b,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_DTENSOR_MESH_H_ */
