/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/dtensor_legacy.h
 * @brief Experimental: the TF 2.9 legacy distributed DTensor mesh
 *
 * Why experimental: it reproduces a TensorFlow code path
 * (create_distributed_mesh before TF 2.10) that upstream has deprecated; it
 * is kept for jobs still launched by old TF, and will go when they do.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_DTENSOR_LEGACY_H_
#define TESSERA_EXPERIMENTAL_DTENSOR_LEGACY_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/dtensor_legacy.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/**
 * DTensor's legacy create_distributed_mesh (TF 2.9-2.11) with explicit
 * counts, checked in its order with its messages.
 *
 * @param dim_names           the mesh dimension names, num_dims entries.
 * @param dim_sizes           the mesh dimension sizes, num_dims entries.
 * @param num_dims            the mesh rank.
 * @param name                the mesh name; NULL means "".
 * @param num_global_devices  NULL: this client's device count times the
 *                            number of clients.
 * @param num_clients         NULL: the runtime's process count.
 * @param client_id           NULL: the runtime's process id.
 * @param device_type         "CPU" or "GPU"; NULL means "CPU". With "TPU"
 *                            any given count is INVALID_ARGUMENT and none is
 *                            UNIMPLEMENTED.
 * @param out_error           receives a new error on failure (see error.h); may be NULL.
 * @return a new DTensor mesh owned by the caller, or NULL: INVALID_ARGUMENT
 *         ("num_global_devices (6) must be equal to total size of the mesh
 *         of shape (8,)", "client_id (2) must be < 2", "Not enough devices;
 *         4 needed, only 2 available", ...), FAILED_PRECONDITION "Invalid
 *         multi-client topology, run dtensor.initialize_multi_client()
 *         first" when num_clients > 1 before initialize().
 * @since 0.2
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed_legacy(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const int64_t* num_global_devices, const int64_t* num_clients, const int64_t* client_id,
    const char* device_type, tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_DTENSOR_LEGACY_H_ */
