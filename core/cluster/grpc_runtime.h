// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Process-wide gRPC set-up shared by the coordinator server and the client.
#ifndef TESSERA_CORE_CLUSTER_GRPC_RUNTIME_H_
#define TESSERA_CORE_CLUSTER_GRPC_RUNTIME_H_

namespace tessera::cluster {

// Keeps gRPC's callback completion queue alive for the life of the process.
//
// Where gRPC's poller does not run in the background (Debian's 1.51 build),
// the callback API runs on a shared "CallbackAlternativeCQ" whose threads are
// created on its first reference and joined on its last. When the last
// reference is a channel destroyed from one of those threads (a callback
// dropping the final owner of a client), the thread joins itself, the join
// fails silently and the queue is freed under it: "ref_counted.h:183
// assertion failed: prior > 0" aborts the process (grpc/grpc#32584). One
// channel that is never destroyed holds a reference forever, so the queue is
// never torn down. Idempotent and thread-safe; call before any channel or
// server is made.
void PinCallbackQueue();

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_GRPC_RUNTIME_H_
