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

TESSERA_END_DECLS

#endif /* TESSERA_EXPERIMENTAL_COORDINATOR_SERVICE_H_ */
