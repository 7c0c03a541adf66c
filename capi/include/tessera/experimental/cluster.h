/* SPDX-FileCopyrightText: 2026 The Tessera Authors */
/* SPDX-License-Identifier: Apache-2.0 */

/**
 * @file tessera/experimental/cluster.h
 * @brief Experimental: the coordinator's niche options and the client's extras
 *
 * Why experimental: recovery, partitions, duplicate-id policy, key-value
 * limits, TLS reload and peer-URI checks, live-process agreement, topology
 * generations and atomic key-value updates follow a coordination protocol
 * that is still settling (jax.distributed and TF's coordination service
 * changed these between 2023 and 2025); the core multi-host start-up in
 * cluster.h and client.h is stable.
 *
 * Experimental functions are exported under the version node
 * TESSERA_EXPERIMENTAL_0.2, outside the ABI promise: a minor release may
 * change or remove them. Define TESSERA_EXPERIMENTAL_API before including
 * this header (or <tessera/tessera.h>) to use them.
 */
#ifndef TESSERA_EXPERIMENTAL_CLUSTER_H_
#define TESSERA_EXPERIMENTAL_CLUSTER_H_

#ifndef TESSERA_EXPERIMENTAL_API
#error "tessera/experimental/cluster.h is outside Tessera's stable ABI: define TESSERA_EXPERIMENTAL_API before including it"
#endif

#include "tessera/client.h"
#include "tessera/cluster.h"
#include "tessera/error.h"
#include "tessera/export.h"

TESSERA_BEGIN_DECLS

/** Recoverable mode: a failed process is an event, not the job's end (default: fate sharing). */
TESSERA_API bool tessera_cluster_options_set_recoverable(tessera_cluster_options* options, bool recoverable,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/** Fail the whole job when a second live process claims a held id (default: reject only the newcomer). */
TESSERA_API bool tessera_cluster_options_set_fail_job_on_duplicate_id(tessera_cluster_options* options, bool fail,
                                                                      tessera_error** out_error) TESSERA_NOEXCEPT;

/** Partition (slice) index of this process; all processes or none set it. */
TESSERA_API bool tessera_cluster_options_set_partition_index(tessera_cluster_options* options, size_t partition_index,
                                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * KV limits: one value (default 64 MiB) and the whole store (default 1 GiB,
 * keys and values). The coordinator's apply: every client learns them when it
 * registers and refuses a larger value before sending it. Keys have a fixed
 * limit of 4096 bytes (client.h).
 */
TESSERA_API bool tessera_cluster_options_set_kv_limits(tessera_cluster_options* options, int64_t max_value_bytes,
                                                       int64_t max_store_bytes, tessera_error** out_error) TESSERA_NOEXCEPT;

/** Accept a peer only if one of its URI SANs starts with `prefix` (end it with "/"). */
TESSERA_API bool tessera_cluster_options_set_tls_peer_uri_prefix(tessera_cluster_options* options, const char* prefix,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * How often the coordinator and the clients re-read their TLS certificate, key
 * and CA files, in milliseconds (default 600000; 1000 to 31536000000, counted
 * in whole seconds, rounded up): replacing the files rotates them without a
 * restart. New connections use what was read last. Out of range:
 * INVALID_ARGUMENT naming `interval_ms`.
 */
TESSERA_API bool tessera_cluster_options_set_tls_reload_interval_ms(tessera_cluster_options* options,
                                                                   int64_t interval_ms,
                                                                   tessera_error** out_error) TESSERA_NOEXCEPT;

/** The topology's fingerprint, equal on every process; 0 on failure. @since 0.2 */
TESSERA_API uint64_t tessera_client_topology_fingerprint(const tessera_client* client,
                                                         tessera_error** out_error) TESSERA_NOEXCEPT;

/** The topology's generation (starts at 1); 0 on failure. @since 0.2 */
TESSERA_API int64_t tessera_client_topology_generation(const tessera_client* client,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Agrees with the other live processes among `candidates` on who is alive:
 * every caller gets the same set, at most num_candidates process indices.
 * A size query (out NULL, capacity 0) runs the agreement too: pass room for
 * num_candidates instead.
 * @param client          the client.
 * @param candidates      the process indices to ask, this process among them.
 * @param num_candidates  entries in `candidates`, at least 1.
 * @param timeout_ms      how long to wait for the others.
 * @param out, capacity  the array and its room, in tessera.h's one shape
 *                  (Vocabulary): NULL and 0 ask for the number.
 * @param out_error  receives a new error on failure (see error.h); may be NULL.
 * @return the number of live processes.
 * @since 0.2
 */
TESSERA_API size_t tessera_client_agree_live_processes(tessera_client* client, const size_t* candidates,
                                                       size_t num_candidates, int64_t timeout_ms,
                                                       size_t* out, size_t capacity,
                                                       tessera_error** out_error) TESSERA_NOEXCEPT;

/** Atomically adds `delta` (an absent key counts as 0); the new value goes to *out_value. @since 0.2 */
TESSERA_API bool tessera_client_kv_increment(tessera_client* client, const char* key, int64_t delta,
                                             int64_t* out_value, tessera_error** out_error) TESSERA_NOEXCEPT;

/**
 * Atomically replaces the value of `key` with `desired` if it equals
 * `expected`; `expected` NULL means "only if absent". *out_swapped says
 * whether it did; *out_current (may be NULL) receives the value after the
 * call (NULL when the key is absent), owned by the caller.
 * @since 0.2
 */
TESSERA_API bool tessera_client_kv_compare_and_swap(tessera_client* client, const char* key, const void* expected,
                                                    size_t expected_size, const void* desired, size_t desired_size,
                                                    bool* out_swapped, tessera_buffer** out_current,
                                                    tessera_error** out_error) TESSERA_NOEXCEPT;

/** For TOPOLOGY_CHANGED: the generation; 0 otherwise and on failure. @since 0.2 */
TESSERA_API int64_t tessera_event_generation(const tessera_event* event,
                                             tessera_error** out_error) TESSERA_NOEXCEPT;

/** The coordinator's event version (increasing); 0 on failure. @since 0.2 */
TESSERA_API int64_t tessera_event_version(const tessera_event* event,
                                          tessera_error** out_error) TESSERA_NOEXCEPT;

/* ---- connection limits (issue 15) --------------------------------------- */

/**
 * How long the coordinator keeps connections that are not a job's clients.
 * @param options               the options.
 * @param handshake_timeout_ms  a connection that has not finished its TLS and
 *                              HTTP/2 handshake this long after it was
 *                              accepted is closed (default 10000; 100 to
 *                              600000): a port scan or a client that connects
 *                              and never speaks holds a descriptor no longer.
 *                              At most 1024 connections that have not sent a
 *                              byte are held at once; past that the oldest is
 *                              closed.
 * @param idle_timeout_ms       a connection that carries no call this long is
 *                              closed (default 300000; 1000 to 86400000). A
 *                              job's clients always hold a call open, so this
 *                              never closes theirs.
 * @param out_error             receives INVALID_ARGUMENT naming the argument
 *                              out of range; may be NULL.
 * @return false on failure.
 * @since 0.3
 */
TESSERA_API bool tessera_cluster_options_set_connection_timeouts(tessera_cluster_options* options,
                                                                 int64_t handshake_timeout_ms,
                                                                 int64_t idle_timeout_ms,
                                                                 tessera_error** out_error) TESSERA_NOEXCEPT;

TESSERA_END_DECLS

#endif  /* TESSERA_EXPERIMENTAL_CLUSTER_H_ */
