/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * Multi-host start-up: the cluster options, launcher detection and
 * tessera_runtime_initialize.
 *
 * Where the configuration comes from, first match wins per field:
 *   1. the options set on tessera_cluster_options;
 *   2. TESSERA_COORDINATOR_ADDRESS, TESSERA_NUM_PROCESSES,
 *      TESSERA_PROCESS_INDEX (0.1's TESSERA_PROCESS_ID is read as an alias;
 *      when both are set they must agree, else INVALID_ARGUMENT naming both),
 *      TESSERA_LOCAL_DEVICE_IDS (comma list), TESSERA_JOB_ID,
 *      TESSERA_COORDINATOR_PORT (also overrides a launcher's derived port),
 *      TESSERA_BIND_ADDRESS, TESSERA_JOB_TOKEN / TESSERA_JOB_TOKEN_FILE (a
 *      warning when the file's mode is wider than 0600), TESSERA_REQUIRE_AUTH,
 *      TESSERA_INIT_TIMEOUT_MS, TESSERA_HEARTBEAT_TIMEOUT_MS (milliseconds;
 *      0.1's TESSERA_INIT_TIMEOUT and TESSERA_HEARTBEAT_TIMEOUT in seconds are
 *      read as aliases, and both set must agree);
 *   3. KERAS_DISTRIBUTION_JOB_ADDRESSES / _NUM_PROCESSES / _PROCESS_ID (the
 *      number of addresses must equal the number of processes, as in Keras);
 *   4. DTENSOR_CLIENT_ID / DTENSOR_NUM_CLIENTS / DTENSOR_JOB_NAME / DTENSOR_JOBS
 *      (DTensor's checks and messages);
 *   5. launcher detection, in this order: torchrun (RANK, WORLD_SIZE,
 *      LOCAL_RANK, MASTER_ADDR; port MASTER_PORT + 1, MASTER_PORT being
 *      torch's own store), Open MPI 4 (OMPI_MCA_orte_hnp_uri) and 5
 *      (PRTE_LAUNCHED / PMIX_SERVER_URI*) with OMPI_COMM_WORLD_*, MPICH/Hydra
 *      and PMI (PMI_RANK, PMI_SIZE: no coordinator, give it explicitly),
 *      Slurm (SLURM_JOB_ID, SLURM_STEP_NODELIST, SLURM_NTASKS, SLURM_PROCID,
 *      SLURM_LOCALID; port 61440 + SLURM_JOB_ID % 4096 as JAX), Kubernetes
 *      indexed jobs (JOB_COMPLETION_INDEX plus TESSERA_K8S_COORDINATOR_HOST,
 *      or JobSet's JOBSET_NAME/REPLICATED_JOB_NAME, or TESSERA_K8S_SUBDOMAIN
 *      with HOSTNAME; the count from TESSERA_NUM_PROCESSES).
 * Sources 3-5 are read only while the coordinator address, the process count
 * or the id is still open. A launcher whose variables are only partly present
 * is skipped with a diagnostic naming the present and missing ones, never
 * half-used. Open MPI and Slurm set the local device ids to the local rank, as
 * JAX does. Nothing set at all means one process without a coordinator.
 * tessera_detection_create explains the decision without connecting anywhere.
 *
 * Failure detection (fate sharing makes each a job failure, ABORTED with
 * TESSERA_REASON_JOB_FAILED and the lost process as the source):
 *   - A process whose connection to the coordinator closes (it exited, was
 *     killed, crashed, or destroyed its client without
 *     tessera_client_shutdown) is lost 500 ms after the close unless it
 *     re-dials within them: every other process holds the error well under
 *     a second later, whatever the heartbeat timeout. A network blip that
 *     resets the connection and re-dials within the 500 ms is forgiven.
 *     This applies once the job runs; while it registers, a crashed process
 *     may still be restarted until the heartbeat timeout.
 *   - A process that hangs with its connection open (SIGSTOP, a suspended
 *     VM, a partition that drops packets without resetting) is lost when it
 *     has sent no heartbeat for the heartbeat timeout: within the timeout
 *     plus one interval. One that resumes before then is unharmed.
 *   - Losing the coordinator (process 0) is UNAVAILABLE with
 *     TESSERA_REASON_COORDINATOR_LOST: at once when its connection closes
 *     and a re-dial fails, else after the heartbeat timeout.
 *
 * Security: the job token is never sent or logged in clear; each call carries
 * an HMAC-SHA256 of the job id under the token. Without TLS the HMAC can be
 * replayed by an on-path attacker: it stops wrong-job and stale processes,
 * not a hostile network (use the TLS options there).
 */
#ifndef TESSERA_CLUSTER_H_
#define TESSERA_CLUSTER_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** How a job starts. Mutable; one thread at a time; copied by the functions that take it. */
typedef struct tessera_cluster_options tessera_cluster_options;
/** The outcome of configuration resolution: values, their source, and why. Immutable. */
typedef struct tessera_detection tessera_detection;
/** A process's membership in a job (defined in tessera/client.h). */
typedef struct tessera_client tessera_client;

/** New options, all unset (resolution fills them). @since 0.2 */
TESSERA_API tessera_cluster_options* tessera_cluster_options_create(void) TESSERA_NOEXCEPT;
/** Frees `options`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_cluster_options_destroy(tessera_cluster_options* options) TESSERA_NOEXCEPT;

/*
 * Setters. Each returns false with INVALID_ARGUMENT (naming the option, the
 * value and what is expected) for a NULL `options` or a bad value; strings are
 * copied. @since 0.2
 */

/**
 * "host:port" the coordinator is reached at (IPv6 as "[::1]:port"). Without a
 * port, TESSERA_COORDINATOR_PORT or a launcher's derived port completes it.
 * Port 0 lets process 0 bind any free port (the others need the real one).
 */
TESSERA_API bool tessera_cluster_options_set_coordinator_address(tessera_cluster_options* options, const char* address,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;
/** "host:port" process 0 listens on; port 0 picks a free port. Default: the advertised address's port on the wildcard address. */
TESSERA_API bool tessera_cluster_options_set_bind_address(tessera_cluster_options* options, const char* address,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of processes in the job, >= 1. */
TESSERA_API bool tessera_cluster_options_set_num_processes(tessera_cluster_options* options, size_t num_processes,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;
/** This process's index, below num_processes. */
TESSERA_API bool tessera_cluster_options_set_process_index(tessera_cluster_options* options, size_t process_index,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;
/** Which local devices this process uses (distinct indices >= 0 into local discovery); num_ids 0 means all. */
TESSERA_API bool tessera_cluster_options_set_local_device_ids(tessera_cluster_options* options, const int64_t* ids,
                                                              size_t num_ids, tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Job id: not secret, it only stops processes of one job reaching another's
 * coordinator. UTF-8 text of at most 4096 bytes, as keys (client.h); another
 * fails the start with INVALID_ARGUMENT naming job_id.
 */
TESSERA_API bool tessera_cluster_options_set_job_id(tessera_cluster_options* options, const char* job_id,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;
/** Shared secret proven by HMAC; "" clears the option (TESSERA_JOB_TOKEN(_FILE) may then give one). Never logged. */
TESSERA_API bool tessera_cluster_options_set_job_token(tessera_cluster_options* options, const char* token,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;
/** Refuse to start without a job token (also TESSERA_REQUIRE_AUTH=1). */
TESSERA_API bool tessera_cluster_options_set_require_auth(tessera_cluster_options* options, bool require,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * TLS: PEM files. cert+key make the server speak TLS; `ca_file` is what
 * clients verify the server with (and the server verifies clients with when
 * client certificates are required). NULL leaves a field unset; cert and key
 * are set together.
 */
TESSERA_API bool tessera_cluster_options_set_tls(tessera_cluster_options* options, const char* cert_file,
                                                 const char* key_file, const char* ca_file,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;
/** Mutual TLS: the server requires and verifies client certificates. */
TESSERA_API bool tessera_cluster_options_set_tls_require_client_cert(tessera_cluster_options* options, bool require,
                                                                     tessera_error** out_error) TESSERA_NOEXCEPT;
/** The host name the client checks the server's certificate for (default: the address's host). */
TESSERA_API bool tessera_cluster_options_set_tls_server_name(tessera_cluster_options* options, const char* name,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;
/** Time to register and for every process to arrive (default 300000 ms; TESSERA_INIT_TIMEOUT_MS). */
TESSERA_API bool tessera_cluster_options_set_init_timeout_ms(tessera_cluster_options* options, int64_t timeout_ms,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;
/** Heartbeat period (default 10000 ms) and loss timeout (default 100000 ms, >= 3 x interval). */
TESSERA_API bool tessera_cluster_options_set_heartbeat(tessera_cluster_options* options, int64_t interval_ms,
                                                       int64_t timeout_ms, tessera_error** out_error) TESSERA_NOEXCEPT;
/** Shutdown barrier timeout (default 300000 ms). */
TESSERA_API bool tessera_cluster_options_set_shutdown_timeout_ms(tessera_cluster_options* options, int64_t timeout_ms,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;
/** Deadline of each non-blocking call (default 60000 ms). */
TESSERA_API bool tessera_cluster_options_set_rpc_timeout_ms(tessera_cluster_options* options, int64_t timeout_ms,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Which detection runs: "auto" (default), "none" (options and TESSERA_* only),
 * or one of "keras", "dtensor", "torchrun", "openmpi", "hydra", "slurm",
 * "gketpu" (GKE TPU: TPU_WORKER_ID, TPU_WORKER_HOSTNAMES, MEGASCALE_*),
 * "kubernetes" to force it.
 */
TESSERA_API bool tessera_cluster_options_set_detection(tessera_cluster_options* options, const char* method,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Resolves the configuration from `options` (may be NULL) and the process
 * environment, without connecting anywhere.
 * @return a new detection owned by the caller (tessera_detection_destroy), or
 *         NULL with INVALID_ARGUMENT when a source is chosen but inconsistent
 *         (e.g. KERAS_DISTRIBUTION_JOB_ADDRESSES with 3 entries for 2
 *         processes, DTENSOR_CLIENT_ID out of range); the message names it.
 * @since 0.2
 */
TESSERA_API tessera_detection* tessera_detection_create(const tessera_cluster_options* options,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * tessera_detection_create over an explicit environment instead of the process's:
 * `env` holds `num_env` "NAME=VALUE" strings (a later entry replaces an
 * earlier one; an entry without '=' or without a name is INVALID_ARGUMENT
 * naming "env[i]"). For tests and dry runs.
 * @since 0.2
 */
TESSERA_API tessera_detection* tessera_detection_create_from_env(const tessera_cluster_options* options, const char* const* env,
                                                  size_t num_env, tessera_error** out_error) TESSERA_NOEXCEPT;

/** "options", "tessera", "keras", "dtensor", "torchrun", "openmpi", "hydra", "slurm", "gketpu", "kubernetes" or "single-process". Lifetime of `detection`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_detection_source(const tessera_detection* detection,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;
/** "host:port" clients dial; "" for a single process. Lifetime of `detection`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_detection_coordinator_address(const tessera_detection* detection,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;
/** "host:port" process 0 binds. Lifetime of `detection`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_detection_bind_address(const tessera_detection* detection,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of processes; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_detection_num_processes(const tessera_detection* detection,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;
/** This process's index; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_detection_process_index(const tessera_detection* detection,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;
/** Job id ("" when none). Lifetime of `detection`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_detection_job_id(const tessera_detection* detection,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of local device ids chosen (0: all local devices, and on failure). @since 0.2 */
TESSERA_API size_t tessera_detection_num_local_device_ids(const tessera_detection* detection,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;
/** Local device id `index`; 0 on failure (OUT_OF_RANGE when index >= tessera_detection_num_local_device_ids). @since 0.2 */
TESSERA_API int64_t tessera_detection_local_device_id(const tessera_detection* detection, size_t index, tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Human-readable lines: which source was used and why each other one was
 * skipped (e.g. "slurm: skipped: SLURM_JOB_ID, SLURM_NTASKS present but
 * SLURM_STEP_NODELIST, SLURM_PROCID, SLURM_LOCALID missing"), and how a
 * derived port was computed. Lifetime of `detection`.
 * @since 0.2
 */
TESSERA_API const char* tessera_detection_explanation(const tessera_detection* detection,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;
/** Frees `detection`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_detection_destroy(tessera_detection* detection) TESSERA_NOEXCEPT;

/**
 * Starts this process's part in a job (jax.distributed.initialize,
 * dtensor.initialize_multi_client): resolves the configuration as
 * tessera_detection_create does, starts the coordinator inside this library instance
 * when this is process 0, registers with it, and waits (up to the init
 * timeout) for every process. Then tessera_device_list_create returns the
 * job's global devices and distributions see the process count and id.
 *
 * A single process (no coordinator address and one process) starts no server
 * and succeeds at once.
 *
 * Errors: INVALID_ARGUMENT (configuration), FAILED_PRECONDITION (already
 * initialized in this process; or a wrong job id, with
 * TESSERA_REASON_WRONG_JOB and both ids, also when a job token is used),
 * UNAVAILABLE (bind failure naming address:port and errno),
 * DEADLINE_EXCEEDED (processes missing: which ones, and whether they were
 * ever seen), UNAUTHENTICATED (wrong or missing token, for the right job id),
 * ALREADY_EXISTS with TESSERA_REASON_DUPLICATE_PROCESS (the id is held by a
 * live process, whether the job is forming or running: its host and pid).
 *
 * @return a new client owned by the caller; tessera_client_shutdown then
 *         tessera_client_destroy end the membership. NULL on failure.
 * @since 0.2
 */
TESSERA_API tessera_client* tessera_runtime_initialize(const tessera_cluster_options* options,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;

/** True between a successful tessera_runtime_initialize and the destruction of its client. @since 0.2 */
TESSERA_API bool tessera_runtime_is_initialized(void) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_CLUSTER_H_ */
