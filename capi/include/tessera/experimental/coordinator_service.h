/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/coordinator_service.h
 * @brief Experimental: the coordinator as an operated service (metrics)
 *
 * Why experimental: the metric names and labels follow what operators asked
 * for first (issue 14) and may still be renamed or split before they are
 * promised; the coordinator itself (coordinator.h) is stable.
 *
 * Every coordinator also serves the standard gRPC health service
 * (grpc.health.v1.Health, Check and Watch) on its own port, without a job
 * token: SERVING once it accepts registrations, NOT_SERVING once the job
 * ended or the coordinator is stopping. Nothing needs to be set for it.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_COORDINATOR_SERVICE_H_
#define TESSERA_EXPERIMENTAL_COORDINATOR_SERVICE_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/coordinator_service.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include "tessera/cluster.h"
#include "tessera/coordinator.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/**
 * Serve the coordinator's metrics over HTTP at `/metrics` on `address`
 * ("HOST:PORT"; port 0: any free port, see tessera_coordinator_metrics_port).
 * Off by default. Used by whichever coordinator these options start
 * (tessera_coordinator_start, or process 0's in tessera_runtime_initialize).
 *
 * The answer is OpenMetrics 1.0 text (ending "# EOF") when the request's
 * Accept header names application/openmetrics-text, else Prometheus 0.0.4
 * text. Families (prefix tessera_coordinator_): processes_expected,
 * processes_registered, processes_connected, processes_failed (gauges);
 * processes_lost_total, heartbeats_missed_total; barriers_waiting,
 * barrier_processes_waiting (gauges); barriers_passed_total,
 * barriers_failed_total; barrier_duration_seconds (histogram); kv_keys,
 * kv_bytes (gauges); rpcs_total{service,method,code}; job_state{state}
 * (1 for the current state). The endpoint has no authentication: bind it
 * where only the monitoring system reaches it.
 *
 * @param options  the options.
 * @param address  "HOST:PORT" to listen on.
 * @param out_error  on failure: INVALID_ARGUMENT for a NULL argument, an
 *        address that does not parse, or one without a port.
 * @return true on success.
 * @since 0.3
 */
TESSERA_API bool tessera_cluster_options_set_metrics_bind(tessera_cluster_options* options, const char* address,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The port `/metrics` listens on (the chosen one when port 0 was asked).
 * @param coordinator  the coordinator.
 * @param out_error  on failure: INVALID_ARGUMENT for NULL; FAILED_PRECONDITION
 *        when its options set no metrics address.
 * @return the port, or 0 on failure.
 * @since 0.3
 */
TESSERA_API int tessera_coordinator_metrics_port(const tessera_coordinator* coordinator,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * A running job's state as its coordinator sees it, queried by an operator
 * ("who is stuck where"): per process its state, the time since its last
 * heartbeat, and the barriers and keys it waits on. A snapshot: it does not
 * change after the query.
 */
typedef struct tessera_job_status tessera_job_status;

/**
 * Asks the coordinator at the options' coordinator address for the job's
 * state, as an operator (no process of the job): with the options' job id,
 * job token (or TESSERA_JOB_TOKEN) and TLS settings.
 * @param options  the options; needs the coordinator address.
 * @param timeout_ms  how long to wait for the answer (>= 1).
 * @param out_error  on failure: INVALID_ARGUMENT for NULL options, no
 *        coordinator address or a timeout below 1; UNAVAILABLE when nothing
 *        answers; DEADLINE_EXCEEDED after `timeout_ms`; UNAUTHENTICATED for a
 *        wrong token; FAILED_PRECONDITION (TESSERA_REASON_WRONG_JOB) for
 *        another job's coordinator.
 * @return a new status owned by the caller (tessera_job_status_destroy), or NULL.
 * @since 0.3
 */
TESSERA_API tessera_job_status* tessera_job_status_query(const tessera_cluster_options* options, int64_t timeout_ms,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `status`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_job_status_destroy(tessera_job_status* status) TESSERA_NOEXCEPT;

/**
 * The job's state: "REGISTERING", "RUNNING", "SHUTTING_DOWN", "STOPPED" or
 * "FAILED"; owned by `status`. NULL (INVALID_ARGUMENT) for a NULL status.
 * @since 0.3
 */
TESSERA_API const char* tessera_job_status_job_state(const tessera_job_status* status,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/** The job's process count; 0 (INVALID_ARGUMENT) for a NULL status. @since 0.3 */
TESSERA_API size_t tessera_job_status_num_processes(const tessera_job_status* status,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Process `index`'s state: "never connected", "pending", "running",
 * "disconnected" or "failed"; owned by `status`. NULL with OUT_OF_RANGE for
 * an index at or past tessera_job_status_num_processes.
 * @since 0.3
 */
TESSERA_API const char* tessera_job_status_process_state(const tessera_job_status* status, size_t index,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Milliseconds since process `index`'s last heartbeat when queried; -1 when
 * it never sent one. 0 with INVALID_ARGUMENT for a NULL status, OUT_OF_RANGE
 * for an index at or past tessera_job_status_num_processes.
 * @since 0.3
 */
TESSERA_API int64_t tessera_job_status_process_ms_since_heartbeat(const tessera_job_status* status, size_t index,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * What process `index` waits on: "barrier ID#COUNTER" and "key KEY" parts
 * joined by ", ", "" when nothing; owned by `status`. NULL with OUT_OF_RANGE
 * for a bad index.
 * @since 0.3
 */
TESSERA_API const char* tessera_job_status_process_waiting_on(const tessera_job_status* status, size_t index,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_COORDINATOR_SERVICE_H_ */
