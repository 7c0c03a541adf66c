/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/dtensor_config.h
 * @brief Experimental: TF DTensor's configuration (config.py) as a value, and the DTensor mesh creators over it
 *
 * A tessera_dtensor_config answers what tf.experimental.dtensor's config
 * functions answer (client_id(), num_clients(), job_name(),
 * full_job_name(), jobs(), heartbeat_enabled(), local mode,
 * local_devices()), read from DTENSOR_* variables the way config.py reads
 * them: from this process's environment or from an explicit list of
 * NAME=VALUE entries. Each query fails where its DTensor function raises,
 * with DTensor's message (ValueError is INVALID_ARGUMENT): "Environment
 * variable DTENSOR_CLIENT_ID must be < 2, got 2", "Unexpected DTENSOR_JOBS
 * content ... Sort entries in DTENSOR_JOBS because cluster construction
 * relies on the order.", "Unexpected task ID 1 in local runs". As in
 * DTensor, every query that needs the number of clients (the job name's
 * default too) reports a bad DTENSOR_JOBS.
 *
 * A config also describes the job to the DTensor mesh creators
 * (tessera_dtensor_mesh_options_set_config,
 * tessera_dtensor_mesh_create_distributed_legacy_with_config): its number
 * of clients, client id, job name, local device counts and whether the
 * accelerators were initialised, so meshes can be built and tested without a
 * running multi-process job.
 *
 * Why experimental: it follows config.py, which TensorFlow changes between
 * releases (DTENSOR_NUM_CLIENTS was dropped in 2.12), and the state
 * DTensor keeps in its TF context is modelled here by explicit settings.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_DTENSOR_CONFIG_H_
#define TESSERA_EXPERIMENTAL_DTENSOR_CONFIG_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/dtensor_config.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/dtensor.h"
#include "tessera/error.h"
#include "tessera/export.h"
#include "tessera/mesh_construction.h"

TESSERA_BEGIN_DECLS

/** DTensor's configuration, read once. Immutable; safe to share across threads. @since 0.3 */
typedef struct tessera_dtensor_config tessera_dtensor_config;

/**
 * Settings for tessera_dtensor_config_create; unset fields read this
 * process. Mutable; one thread at a time.
 * @since 0.3
 */
typedef struct tessera_dtensor_config_options tessera_dtensor_config_options;

/** New config options with every field unset; NULL only when out of memory. @since 0.3 */
TESSERA_API tessera_dtensor_config_options* tessera_dtensor_config_options_create(void) TESSERA_NOEXCEPT;

/** Frees `options`. NULL is allowed. @since 0.3 */
TESSERA_API void tessera_dtensor_config_options_destroy(tessera_dtensor_config_options* options) TESSERA_NOEXCEPT;

/**
 * The variables, instead of this process's environment: "NAME=VALUE"
 * entries, split at the first '='; a later entry for a name wins. Only
 * these are read ("DTENSOR_JOBS=a:1,b:1", "DTENSOR_CLIENT_ID=1").
 * @param options        the options to change.
 * @param variables      `num_variables` entries; copied.
 * @param num_variables  number of entries (0: no variable is set).
 * @param out_error      receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`, a NULL
 *         array with entries, a NULL entry, or an entry without '=' or with
 *         an empty name (naming it).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_config_options_set_variables(tessera_dtensor_config_options* options,
                                                              const char* const* variables,
                                                              size_t num_variables,
                                                              tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How many devices of `device_type` this client has (DTensor's
 * num_local_devices, which counts the TF context's logical devices). A type
 * not set is counted on this process.
 * @param options      the options to change.
 * @param device_type  "CPU", "GPU" or "TPU", any case; copied.
 * @param num_devices  the count.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for NULL arguments or another
 *         type ("Device type XPU is not CPU, GPU, or TPU.").
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_config_options_set_num_local_devices(tessera_dtensor_config_options* options,
                                                                      const char* device_type,
                                                                      size_t num_devices,
                                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether DTensor's initialize_accelerator_system() (in TF 2.9-2.11,
 * initialize_multi_client()) has run. Unset: true, since Tessera's devices
 * need no such call. false gives the creators DTensor's errors for that
 * state ("Accelerators are uninitialized, please run
 * dtensor.initialize_accelerator_system() first.").
 * @param options      the options to change.
 * @param initialized  the state.
 * @param out_error    receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for a NULL `options`.
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_config_options_set_accelerators_initialized(
    tessera_dtensor_config_options* options, bool initialized, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Reads DTensor's configuration. Never fails for what the variables say:
 * each query reports its own DTensor error.
 * @param options    the variables, device counts and state; NULL reads this
 *                   process's DTENSOR_* environment and devices.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return a new config owned by the caller (tessera_dtensor_config_destroy),
 *         or NULL (out of memory).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_config* tessera_dtensor_config_create(const tessera_dtensor_config_options* options,
                                                                  tessera_error** out_error) TESSERA_NOEXCEPT;

/** Frees `config`. NULL is allowed. Any thread. @since 0.3 */
TESSERA_API void tessera_dtensor_config_destroy(tessera_dtensor_config* config) TESSERA_NOEXCEPT;

/**
 * DTensor's client_id(): int(DTENSOR_CLIENT_ID), default 0, read as
 * Python's int() reads it.
 * @return the id; 0 on failure: INVALID_ARGUMENT "invalid literal for int()
 *         with base 10: 'one'", "Environment variable DTENSOR_CLIENT_ID must
 *         be >= 0, got -1. ", "... must be < 2, got 2", or jobs' error.
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_config_client_id(const tessera_dtensor_config* config,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's num_clients(): 1 in local mode, else the number of jobs
 * (DTENSOR_NUM_CLIENTS is not read, as in TF 2.12 and later).
 * @return the count; 0 on failure (jobs' error).
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_config_num_clients(const tessera_dtensor_config* config,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's job_name(): DTENSOR_JOB_NAME, else "localhost" with one client
 * and "worker" with more. UTF-8; has the lifetime of `config`.
 * @return the name, or NULL (INVALID_ARGUMENT for NULL, jobs' error).
 * @since 0.3
 */
TESSERA_API const char* tessera_dtensor_config_job_name(const tessera_dtensor_config* config,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's full_job_name(task_id): "<job_name>/replica:0/task:<task>".
 * @param config      the config.
 * @param task_index  the task; TESSERA_NO_INDEX means this client's id.
 * @param out_error   receives a new error on failure (see error.h); may be NULL.
 * @return a new buffer owned by the caller, or NULL: INVALID_ARGUMENT
 *         "Unexpected task ID 1 in local runs" (one client, task not 0), the
 *         client id's and jobs' errors.
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_dtensor_config_full_job_name(const tessera_dtensor_config* config,
                                                                 size_t task_index,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The number of entries of DTensor's jobs(): DTENSOR_JOBS split on ','
 * (0 when unset or empty, DTensor's local mode). Entries are host:port or
 * "/bns/" names; a list with a "/bns/" entry must be sorted by task id.
 * @return the count; 0 on failure: INVALID_ARGUMENT "Unexpected DTENSOR_JOBS
 *         content <value>. Sort entries in DTENSOR_JOBS because cluster
 *         construction relies on the order." (or, for task ids Python cannot
 *         compare, "'<' not supported between instances of 'str' and 'int'").
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_config_num_jobs(const tessera_dtensor_config* config,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Job `index` of jobs(), in client-id order. UTF-8; has the lifetime of `config`.
 * @return the entry, or NULL: INVALID_ARGUMENT for NULL, OUT_OF_RANGE for a
 *         bad index, jobs' error.
 * @since 0.3
 */
TESSERA_API const char* tessera_dtensor_config_job(const tessera_dtensor_config* config, size_t index,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's heartbeat_enabled(): DTENSOR_ENABLE_HEARTBEAT (default "true")
 * is "true" or "1", any case.
 * @return the flag; false on failure (INVALID_ARGUMENT for NULL).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_config_heartbeat_enabled(const tessera_dtensor_config* config,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's is_local_mode(): jobs() is empty.
 * @return the flag; false on failure (INVALID_ARGUMENT for NULL, jobs' error).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_config_is_local_mode(const tessera_dtensor_config* config,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Whether the accelerators were initialised (see
 * tessera_dtensor_config_options_set_accelerators_initialized).
 * @return the flag; false on failure (INVALID_ARGUMENT for NULL).
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_config_accelerators_initialized(const tessera_dtensor_config* config,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's num_local_devices(device_type): this client's devices of that
 * type (any case); 0 for a type other than CPU, GPU or TPU, as TF lists none.
 * @return the count; 0 on failure (INVALID_ARGUMENT for NULL arguments).
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_config_num_local_devices(const tessera_dtensor_config* config,
                                                            const char* device_type,
                                                            tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * DTensor's num_global_devices(device_type): num_local_devices times
 * num_clients (every client is assumed to have as many).
 * @return the count; 0 on failure (INVALID_ARGUMENT for NULL arguments, jobs' error).
 * @since 0.3
 */
TESSERA_API size_t tessera_dtensor_config_num_global_devices(const tessera_dtensor_config* config,
                                                             const char* device_type,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Device `index` of DTensor's local_devices(device_type, for_client_id):
 * "/job:<job_name>/replica:0/task:<client>/device:<TYPE>:<index>".
 * @param config        the config.
 * @param device_type   "CPU", "GPU" or "TPU", any case.
 * @param client_index  the client (for_client_id); TESSERA_NO_INDEX means client_id().
 * @param index         0 .. tessera_dtensor_config_num_local_devices - 1.
 * @param out_error     receives a new error on failure (see error.h); may be NULL.
 * @return a new buffer owned by the caller, or NULL: INVALID_ARGUMENT for
 *         NULL arguments or "Device type XPU is not CPU, GPU, or TPU.", the
 *         client id's and jobs' errors, OUT_OF_RANGE for a bad index.
 * @since 0.3
 */
TESSERA_API tessera_buffer* tessera_dtensor_config_local_device(const tessera_dtensor_config* config,
                                                                const char* device_type, size_t client_index,
                                                                size_t index,
                                                                tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Makes tessera_dtensor_mesh_create and tessera_dtensor_mesh_create_distributed
 * describe the job by `config` instead of the runtime: its job name, client
 * id, number of clients and (for unset devices) local devices; and
 * create_distributed fails first with FAILED_PRECONDITION "Accelerators are
 * uninitialized, please run dtensor.initialize_accelerator_system() first."
 * when the config says so. The config's errors (client id, jobs) come back
 * from the creators where DTensor's would.
 * @param options    the options to change.
 * @param config     retained by `options`.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return true on success; INVALID_ARGUMENT for NULL arguments.
 * @since 0.3
 */
TESSERA_API bool tessera_dtensor_mesh_options_set_config(tessera_dtensor_mesh_options* options,
                                                         const tessera_dtensor_config* config,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * tessera_dtensor_mesh_create_distributed_legacy (TF 2.9-2.11) over the job
 * `config` describes as that TF's api.py read it: a NULL count defaults to
 * int(DTENSOR_NUM_CLIENTS or "1"), a NULL client id to
 * int(DTENSOR_CLIENT_ID or "0"), a NULL num_global_devices to the local
 * device count times the number of clients; the devices are named for
 * DTENSOR_JOB_NAME (default "localhost"); "initialize_multi_client() was
 * called" is the config's accelerators_initialized.
 *
 * @param dim_names           the mesh dimension names, num_dims entries.
 * @param dim_sizes           the mesh dimension sizes, num_dims entries.
 * @param num_dims            the mesh rank.
 * @param name                the mesh name; NULL means "".
 * @param num_global_devices  NULL: as above.
 * @param num_clients         NULL: as above.
 * @param client_id           NULL: as above.
 * @param device_type         "CPU" or "GPU"; NULL means "CPU".
 * @param config              the job; required.
 * @param out_error           receives a new error on failure (see error.h); may be NULL.
 * @return a new DTensor mesh owned by the caller, or NULL with the errors of
 *         tessera_dtensor_mesh_create_distributed_legacy (FAILED_PRECONDITION
 *         "Invalid multi-client topology, run dtensor.initialize_multi_client()
 *         first" for more than one client before initialisation).
 * @since 0.3
 */
TESSERA_API tessera_dtensor_mesh* tessera_dtensor_mesh_create_distributed_legacy_with_config(
    const char* const* dim_names, const int64_t* dim_sizes, size_t num_dims, const char* name,
    const int64_t* num_global_devices, const int64_t* num_clients, const int64_t* client_id,
    const char* device_type, const tessera_dtensor_config* config, tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_DTENSOR_CONFIG_H_ */
