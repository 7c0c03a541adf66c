// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The event stream: a callback reactor, re-opened after a break when a
// heartbeat still gets through. A client watches through a stream of its
// own, or through the one its channel's clients share (EventHub). Private to
// the client (core/cluster/client*.cc): not installed, not in the C ABI.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_EVENT_STREAM_H_
#define TESSERA_CORE_CLUSTER_CLIENT_EVENT_STREAM_H_

#include <memory>

#include "absl/status/status.h"
#include "core/cluster/client_state.h"

namespace tessera::cluster::internal {

// Opens the event stream after s->event_version (joining the channel's hub
// when the channel is shared). Shared: a registered client starts watching
// (StartRegistered).
void StartWatcher(const std::shared_ptr<State>& s);

// Cancels the stream and the heartbeat in flight. Shared: a lost
// coordinator (SetLost), Shutdown and the destructor stop them.
void CancelAsync(const std::shared_ptr<State>& s);

// After the stream broke with `stream_error`: one heartbeat decides between
// re-opening the stream and a lost coordinator. Shared: a Shutdown that
// fails gives a break it deferred this re-dial.
void ProbeAfterBrokenStream(const std::shared_ptr<State>& s, const absl::Status& stream_error);

}  // namespace tessera::cluster::internal

#endif  // TESSERA_CORE_CLUSTER_CLIENT_EVENT_STREAM_H_
