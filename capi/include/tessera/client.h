/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file
 * A process's membership in a multi-host job: the global topology, the
 * key-value store, barriers, live-process agreement, failure events and the
 * shutdown barrier.
 *
 * A client comes from tessera_runtime_initialize (which also installs the global
 * device list) or from tessera_client_connect (a plain client: nothing
 * process-wide changes; many may live in one process, e.g. in tests and
 * benchmarks).
 *
 * Thread safety: every call is thread-safe, except that tessera_client_destroy
 * must not run concurrently with another call on the same client.
 * Every blocking call takes `timeout_ms` (>= 0) and returns early with
 * CANCELLED when tessera_client_cancel_all runs on another thread.
 *
 * Failure: in the default fate-sharing mode, once any process fails every
 * later call returns ABORTED with tessera_error_reason() ==
 * TESSERA_REASON_JOB_FAILED and the source process; losing the coordinator
 * gives UNAVAILABLE with TESSERA_REASON_COORDINATOR_LOST. Nothing aborts the
 * host process.
 */
#ifndef TESSERA_CLIENT_H_
#define TESSERA_CLIENT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tessera/buffer.h"
#include "tessera/cluster.h"
#include "tessera/device.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** One notification from the coordinator. Immutable. */
typedef struct tessera_event tessera_event;
/** A snapshot of key-value entries. Immutable. */
typedef struct tessera_kv_list tessera_kv_list;

/** What an event reports. */
typedef enum tessera_event_kind_t {
  /** A process changed state (tessera_event_process_index, tessera_event_task_state). */
  TESSERA_EVENT_TASK_CHANGED = 0,
  /** The job failed (tessera_event_process_index is the source, -1 when none). */
  TESSERA_EVENT_JOB_ERROR = 1,
  /** Some process started the shutdown barrier. */
  TESSERA_EVENT_SHUTDOWN_STARTED = 2,
  /** A recoverable process rejoined; tessera_event_generation is the new generation. */
  TESSERA_EVENT_TOPOLOGY_CHANGED = 3,
  /** This client lost the coordinator (no heartbeat answered within the timeout). */
  TESSERA_EVENT_COORDINATOR_LOST = 4,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_EVENT_KIND_FORCE_INT32 = 0x7fffffff
} tessera_event_kind_t;

/** A process's state as the coordinator sees it. */
typedef enum tessera_task_state_t {
  /** Not a state: the zero value an accessor returns on failure. */
  TESSERA_TASK_UNSPECIFIED = 0,
  /** The process has not registered yet. */
  TESSERA_TASK_NEVER_CONNECTED = 1,
  /** The process registered; the job is not running yet. */
  TESSERA_TASK_PENDING = 2,
  /** The process is part of the running job. */
  TESSERA_TASK_RUNNING = 3,
  /** The process shut down or closed its connection cleanly. */
  TESSERA_TASK_DISCONNECTED = 4,
  /** The process lost its heartbeat, restarted, or reported an error. */
  TESSERA_TASK_FAILED = 5,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_TASK_STATE_FORCE_INT32 = 0x7fffffff
} tessera_task_state_t;

/** Called on a library thread, never concurrently with itself for one client. Must not destroy the client. */
typedef void (*tessera_event_fn)(const tessera_event* event, void* user_data);

/**
 * Connects to a running coordinator as one process (registration plus the
 * wait for every process), without starting a server or changing
 * process-wide state. Configuration as in tessera_runtime_initialize.
 * @return a new client owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_client* tessera_client_connect(const tessera_cluster_options* options,
                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/** This process's index; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_client_process_index(const tessera_client* client,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of processes in the job; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_client_num_processes(const tessera_client* client,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;
/** "host:port" of the coordinator this client talks to (process 0's bound port when port 0 was asked). Lifetime of `client`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_client_coordinator_address(const tessera_client* client,
                                                           tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * The job's devices: global ids in process order, then local ordinal.
 * @return a new list owned by the caller, or NULL.
 * @since 0.2
 */
TESSERA_API tessera_device_list* tessera_client_devices(const tessera_client* client,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;

/* ---- key-value store ---------------------------------------------------- */

/*
 * Keys are "/"-separated paths, normalized by the coordinator ("/a//b/" and
 * "a/b" are one key). A key (and a list prefix) is UTF-8 text of at most
 * 4096 bytes as given: any other is INVALID_ARGUMENT naming the argument,
 * showing the key's first 64 bytes escaped, and saying what is expected
 * (its length and the limit, or "expected valid UTF-8"). Values are at most
 * 64 MiB and the store 1 GiB (keys and values) unless the coordinator's
 * process sets other limits (experimental/cluster.h). Every call checks its
 * key, and a value's size against the coordinator's limit, before anything
 * is sent, so a single process and a job refuse the same arguments alike. The space under "/_tessera/" (and "/_tessera" itself) is reserved
 * for the library's own entries: every call below fails there with
 * PERMISSION_DENIED, naming the key and the prefix, and changes nothing,
 * whatever the spelling ("_tessera/x", "//_tessera/", "/_tessera"). Listing "" or "/"
 * leaves the reserved entries out. Look-alikes ("_tessera0", "a/_tessera/x") are
 * ordinary keys. PERMISSION_DENIED rather than INVALID_ARGUMENT: the key is
 * well formed, it is just not the caller's to touch.
 *
 * A blocking get that is cancelled (tessera_client_cancel_all) or runs past
 * its client deadline leaves the coordinator at once: it no longer holds a
 * slot of the coordinator's limit on parked calls.
 */

/**
 * Stores `value` (`size` bytes, any content) under `key` (a "/"-separated
 * path). Without `allow_overwrite` an existing key gives ALREADY_EXISTS.
 * A value over the limit gives RESOURCE_EXHAUSTED naming the key, its size
 * and the limit, before it is sent; a store that would grow past its limit
 * gives RESOURCE_EXHAUSTED naming the total. @since 0.2
 */
TESSERA_API bool tessera_client_kv_set(tessera_client* client, const char* key, const void* value, size_t size,
                                       bool allow_overwrite, tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Waits up to `timeout_ms` for `key` to exist and returns its value.
 * DEADLINE_EXCEEDED names the key; a job failure while waiting returns that
 * error instead. @return a new buffer owned by the caller, or NULL. @since 0.2
 */
TESSERA_API tessera_buffer* tessera_client_kv_wait(tessera_client* client, const char* key, int64_t timeout_ms,
                                                  tessera_error** out_error) TESSERA_NOEXCEPT;
/** The value of `key` now, or NULL with NOT_FOUND. @since 0.2 */
TESSERA_API tessera_buffer* tessera_client_kv_lookup(tessera_client* client, const char* key,
                                                      tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Every entry under `prefix` + "/" ("a/b" never lists "a/bc"); may be empty.
 * Large listings are fetched in pages of a few MiB (so the coordinator never
 * builds one store-sized message): entries written or removed while a
 * listing is under way may or may not be in it; each entry is whole.
 * @since 0.2
 */
TESSERA_API tessera_kv_list* tessera_client_kv_list(tessera_client* client, const char* prefix,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;
/** Deletes `key` and, when `recursive`, everything under `key` + "/". Absent keys are not an error. @since 0.2 */
TESSERA_API bool tessera_client_kv_remove(tessera_client* client, const char* key, bool recursive,
                                          tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of entries; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_kv_list_num_entries(const tessera_kv_list* list,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;
/** Key of entry `index`; lifetime of `list`; NULL on failure (OUT_OF_RANGE when index >= the number of entries). @since 0.2 */
TESSERA_API const char* tessera_kv_list_key(const tessera_kv_list* list, size_t index,
                                            tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * A copy of the value bytes of entry `index`.
 * @param list      the list.
 * @param index     below tessera_kv_list_num_entries.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the value's size in bytes; OUT_OF_RANGE for an index not below
 *         tessera_kv_list_num_entries.
 * @since 0.2
 */
TESSERA_API size_t tessera_kv_list_value(const tessera_kv_list* list, size_t index, void* out,
                                         size_t capacity, tessera_error** out_error) TESSERA_NOEXCEPT;
/** Frees `list`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_kv_list_destroy(tessera_kv_list* list) TESSERA_NOEXCEPT;

/* ---- barriers and agreement --------------------------------------------- */

/**
 * Waits until every participant (`participants`, num_participants process
 * indices; num_participants 0 means all processes) has called the barrier `barrier_id`. Ids may be reused: the
 * client counts the uses of each id. The first arrival's timeout fixes the
 * deadline. On failure the error's code says why (DEADLINE_EXCEEDED,
 * CANCELLED, ABORTED for a failed participant, INVALID_ARGUMENT for differing
 * participant sets or a caller that is not a participant) and
 * tessera_error_reason() is TESSERA_REASON_BARRIER_FAILED with the arrived
 * and missing processes, each missing one with its state and the barrier it
 * waits at. A caller that is not a participant, or passes another set, gets
 * that INVALID_ARGUMENT also once the barrier has passed or failed (whose
 * result then stays; it is replayed to participants only). A call cancelled
 * by tessera_client_cancel_all or past its deadline withdraws this process's
 * arrival at the coordinator: the others do not pass on its account (unless
 * the barrier passed before the cancel arrived) but fail at the deadline with
 * this process among the missing, or at once after
 * tessera_client_cancel_barrier. The next call of the id is its next use.
 * Barrier ids are UTF-8 text of at most 4096 bytes, as keys (INVALID_ARGUMENT
 * naming barrier_id otherwise, here and in tessera_client_cancel_barrier).
 * @since 0.2
 */
TESSERA_API bool tessera_client_barrier(tessera_client* client, const char* barrier_id, int64_t timeout_ms,
                                        const size_t* participants, size_t num_participants,
                                        tessera_error** out_error) TESSERA_NOEXCEPT;
/** Cancels the current use of `barrier_id` for every waiter (CANCELLED). @since 0.2 */
TESSERA_API bool tessera_client_cancel_barrier(tessera_client* client, const char* barrier_id,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;
/* ---- failures and events ------------------------------------------------ */

/**
 * Reports a fatal error of this process to the job (fate sharing: the job
 * fails). A `message` that is not UTF-8 travels with its bytes outside
 * printable ASCII escaped in hex, rather than being lost. @since 0.2
 */
TESSERA_API bool tessera_client_report_error(tessera_client* client, tessera_code_t code, const char* message,
                                             tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Installs `callback` (NULL removes it), called on a library thread for every
 * event from now on. Events are also queued for tessera_client_event_wait
 * only while no callback is installed.
 * @since 0.2
 */
TESSERA_API bool tessera_client_set_event_callback(tessera_client* client, tessera_event_fn callback,
                                                   void* user_data, tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Takes the next queued event, waiting up to `timeout_ms` (0: do not wait).
 * @return a new event owned by the caller, or NULL with DEADLINE_EXCEEDED when
 *         none arrived in time (CANCELLED after tessera_client_cancel_all).
 * @since 0.2
 */
TESSERA_API tessera_event* tessera_client_event_wait(tessera_client* client, int64_t timeout_ms,
                                                     tessera_error** out_error) TESSERA_NOEXCEPT;

/** The kind of `event`; TESSERA_EVENT_TASK_CHANGED (0) on failure. @since 0.2 */
TESSERA_API tessera_event_kind_t tessera_event_kind(const tessera_event* event,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;
/** The process the event is about; TESSERA_NO_INDEX when none; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_event_process_index(const tessera_event* event,
                                               tessera_error** out_error) TESSERA_NOEXCEPT;
/** For TASK_CHANGED: the new state; TESSERA_TASK_UNSPECIFIED on failure. @since 0.2 */
TESSERA_API tessera_task_state_t tessera_event_task_state(const tessera_event* event,
                                                          tessera_error** out_error) TESSERA_NOEXCEPT;
/** For JOB_ERROR and COORDINATOR_LOST: the code; TESSERA_OK otherwise and on failure. @since 0.2 */
TESSERA_API tessera_code_t tessera_event_code(const tessera_event* event,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;
/** A description; "" when none. Lifetime of `event`; NULL on failure. @since 0.2 */
TESSERA_API const char* tessera_event_message(const tessera_event* event,
                                              tessera_error** out_error) TESSERA_NOEXCEPT;
/** Frees `event`. NULL is allowed. @since 0.2 */
TESSERA_API void tessera_event_destroy(tessera_event* event) TESSERA_NOEXCEPT;

/* ---- error details ------------------------------------------------------ */

/** Why a cluster call failed, beyond its code. */
typedef enum tessera_error_reason_t {
  /** No cluster reason: the code and message say everything. */
  TESSERA_REASON_NONE = 0,
  /** Fate sharing: another process failed (tessera_error_source_process). */
  TESSERA_REASON_JOB_FAILED = 1,
  /** No heartbeat was answered within the heartbeat timeout. */
  TESSERA_REASON_COORDINATOR_LOST = 2,
  /** A barrier failed: see the arrived and missing processes. */
  TESSERA_REASON_BARRIER_FAILED = 3,
  /** The process id is held by another live process (host and pid in the message). */
  TESSERA_REASON_DUPLICATE_PROCESS = 4,
  /** A newer incarnation of this process registered. */
  TESSERA_REASON_SUPERSEDED = 5,
  /** The coordinator serves another job id. */
  TESSERA_REASON_WRONG_JOB = 6,
  /** The job token was rejected or missing. */
  TESSERA_REASON_AUTHENTICATION = 7,
  /** Registration timed out: see the missing processes and whether each was ever seen. */
  TESSERA_REASON_NEVER_CONNECTED = 8,
  /** Not a value: makes the enum 32 bits wide on every compiler, for the ABI. */
  TESSERA_REASON_FORCE_INT32 = 0x7fffffff
} tessera_error_reason_t;

/** The reason of `error`; TESSERA_REASON_NONE for errors without one and on failure. @since 0.2 */
TESSERA_API tessera_error_reason_t tessera_error_reason(const tessera_error* error,
                                                        tessera_error** out_error) TESSERA_NOEXCEPT;
/** The process that caused `error`; TESSERA_NO_INDEX when none; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_error_source_process(const tessera_error* error,
                                                tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of processes a barrier or registration was missing; 0 when none and on failure. @since 0.2 */
TESSERA_API size_t tessera_error_num_missing(const tessera_error* error,
                                             tessera_error** out_error) TESSERA_NOEXCEPT;
/** Index of missing process `index`; 0 on failure (OUT_OF_RANGE when index >= tessera_error_num_missing). @since 0.2 */
TESSERA_API size_t tessera_error_missing_process(const tessera_error* error, size_t index,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;
/** State of missing process `index`; TESSERA_TASK_UNSPECIFIED on failure (OUT_OF_RANGE as above). @since 0.2 */
TESSERA_API tessera_task_state_t tessera_error_missing_state(const tessera_error* error, size_t index, tessera_error** out_error) TESSERA_NOEXCEPT;
/** The barrier ("id#counter") missing process `index` waits at; "" when none. Lifetime of `error`; NULL on failure (OUT_OF_RANGE as above). @since 0.2 */
TESSERA_API const char* tessera_error_missing_waiting_at(const tessera_error* error, size_t index,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;
/** Number of processes that had arrived at a failed barrier; 0 on failure. @since 0.2 */
TESSERA_API size_t tessera_error_num_arrived(const tessera_error* error,
                                             tessera_error** out_error) TESSERA_NOEXCEPT;
/** Index of arrived process `index`; 0 on failure (OUT_OF_RANGE when index >= tessera_error_num_arrived). @since 0.2 */
TESSERA_API size_t tessera_error_arrived_process(const tessera_error* error, size_t index,
                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/* ---- ending ------------------------------------------------------------- */

/**
 * Unblocks every blocking call of `client` (they return CANCELLED). The
 * client stays usable. Any thread. @since 0.2
 */
TESSERA_API void tessera_client_cancel_all(tessera_client* client) TESSERA_NOEXCEPT;
/**
 * Joins the shutdown barrier with every other process (up to the shutdown
 * timeout), then disconnects. Process 0's coordinator keeps serving until
 * every process has shut down or the barrier expired.
 * @since 0.2
 */
TESSERA_API bool tessera_client_shutdown(tessera_client* client, tessera_error** out_error) TESSERA_NOEXCEPT;
/**
 * Frees `client`. Without tessera_client_shutdown the others see this process
 * leave (a failure, not a crash): its connection closes, and within about
 * 500 ms the job fails (cluster.h, "Failure detection"). A client from
 * tessera_runtime_initialize also restores local device discovery and stops
 * the in-process coordinator once it is no longer needed, so process 0's
 * destroy blocks until then: up to the shutdown timeout after
 * tessera_client_shutdown; once the job has failed (also through this very
 * destroy), only until every process still connected holds the error
 * (milliseconds; at most 2 s); while the job is still registering, up to two
 * heartbeat timeouts. NULL is allowed.
 * @since 0.2
 */
TESSERA_API void tessera_client_destroy(tessera_client* client) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif /* TESSERA_CLIENT_H_ */
