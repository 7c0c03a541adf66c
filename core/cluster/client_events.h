// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A client's events: run by its callback on the dispatcher thread, or queued
// for NextEvent while it has none; and the loss of the coordinator, which
// ends in one. Private to the client (core/cluster/client*.cc): not
// installed, not in the C ABI.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_EVENTS_H_
#define TESSERA_CORE_CLUSTER_CLIENT_EVENTS_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"

#include "core/cluster/client.h"
#include "core/cluster/client_state.h"
#include "tessera/v1/coordinator.pb.h"

namespace tessera::cluster::internal {

// A JOB_ERROR event: the job failed because of process `source` (-1: none).
// Shared: the stream's event, a reply that brought the failure first, and a
// client without a coordinator all raise the same one.
ClientEvent JobErrorEvent(int64_t source, absl::StatusCode code, std::string message);

// Hands `event` to the callback (on the dispatcher thread) or queues it.
// Shared: failed calls, the stream, and ReportError and Shutdown of a client
// without a coordinator deliver events too.
void DeliverEvent(const std::shared_ptr<State>& s, ClientEvent event);

// One event from the stream (a client's own watcher, or the channel's hub):
// a replay is dropped; a job error becomes sticky. Shared with the stream.
void HandleEvent(const std::shared_ptr<State>& s, const v1::Event& proto);

// Waits until the event stream has handed over every event up to `version`
// (the coordinator's log at the end of this process's shutdown), the stream
// has ended, or kShutdownEventsWait has passed. Shutdown closes the stream
// next; without the wait the shutdown's own events (SHUTDOWN_STARTED) were
// lost whenever its reply overtook them.
void AwaitEventsThrough(State& s, int64_t version);

// The coordinator is lost (`why`): the sticky error unless the job failed
// first, asynchronous work cancelled, the event delivered. Shared: failed
// calls, heartbeats and a broken stream all lose the coordinator.
void SetLost(const std::shared_ptr<State>& s, const std::string& why);

}  // namespace tessera::cluster::internal

#endif  // TESSERA_CORE_CLUSTER_CLIENT_EVENTS_H_
