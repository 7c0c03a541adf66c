/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * The coordinator service on its own (`tessera coordinator`, tests,
 * benchmarks). tessera_runtime_initialize starts one inside process 0 by itself; use
 * this header to run it anywhere else.
 *
 * Thread safety: every call is thread-safe except tessera_coordinator_destroy.
 */
#ifndef TESSERA_COORDINATOR_H_
#define TESSERA_COORDINATOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/cluster.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** A running coordinator. */
typedef struct tessera_coordinator tessera_coordinator;

/**
 * Starts serving on the options' bind address (or the coordinator address's
 * port on the wildcard address) for `num_processes` processes. Needs
 * num_processes; uses the job id, token, TLS, timeouts, recoverable mode and
 * KV limits of `options`. Configuration is resolved as tessera_detection_create does.
 * @return a new coordinator owned by the caller, or NULL: UNAVAILABLE for a
 *         failed bind ("bind 0.0.0.0:8476: Address already in use (EADDRINUSE)"),
 *         INVALID_ARGUMENT for bad options, FAILED_PRECONDITION when
 *         authentication is required and no token is set.
 * @since 0.2
 */
TESSERA_API tessera_coordinator* tessera_coordinator_start(const tessera_cluster_options* options,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;
/** The port it listens on (the chosen one when port 0 was asked); 0 on failure. @since 0.2 */
TESSERA_API int tessera_coordinator_port(const tessera_coordinator* coordinator,
                                         tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Waits up to `timeout_ms` for the job to end: every process shut down, the
 * shutdown barrier expired, or the job failed and every client is gone.
 * @return true when it ended; false with DEADLINE_EXCEEDED when still running.
 * @since 0.2
 */
TESSERA_API bool tessera_coordinator_wait(tessera_coordinator* coordinator, int64_t timeout_ms,
                                          tessera_error** out_error) TESSERA_NOEXCEPT;
/** Stops serving now; pending calls get CANCELLED/ABORTED. Idempotent. @since 0.2 */
TESSERA_API void tessera_coordinator_stop(tessera_coordinator* coordinator) TESSERA_NOEXCEPT;
/** Stops (if needed) and frees `coordinator`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_coordinator_destroy(tessera_coordinator* coordinator) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_COORDINATOR_H_ */
