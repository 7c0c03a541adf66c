// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client_events.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/cluster/client_event_stream.h"
#include "core/cluster/client_threads.h"
#include "core/log.h"

namespace tessera::cluster::internal {

namespace {

constexpr absl::Duration kShutdownEventsWait = absl::Seconds(5);

}  // namespace

ClientEvent JobErrorEvent(int64_t source, absl::StatusCode code, std::string message) {
  ClientEvent event;
  event.kind = ClientEvent::Kind::kJobError;
  event.process_id = source;
  event.code = code;
  event.message = std::move(message);
  return event;
}

void DeliverEvent(const std::shared_ptr<State>& s, ClientEvent event) {
  {
    absl::MutexLock lock(&s->mu);
    if (s->stopping) return;
    if (!s->has_callback) {
      s->events.push_back(std::move(event));
      return;
    }
  }
  std::weak_ptr<State> weak = s;
  Dispatcher::Get().Post([weak, event = std::move(event)]() mutable {
    std::shared_ptr<State> s = weak.lock();
    if (!s) return;
    absl::MutexLock callback_lock(&s->callback_mu);
    {
      absl::MutexLock lock(&s->mu);
      if (s->stopping) return;
      if (!s->callback) {  // removed since: keep it for NextEvent
        s->events.push_back(std::move(event));
        return;
      }
    }
    s->callback(event);
  });
}

namespace {

ClientEvent FromProto(const v1::Event& proto) {
  ClientEvent event;
  event.version = proto.version();
  switch (proto.kind_case()) {
    case v1::Event::kTaskChanged:
      event.kind = ClientEvent::Kind::kTaskChanged;
      event.process_id = proto.task_changed().process_id();
      event.task_state = proto.task_changed().state();
      event.message = proto.task_changed().error().message();
      break;
    case v1::Event::kJobError:
      event = JobErrorEvent(proto.job_error().source_process_id(),
                            static_cast<absl::StatusCode>(proto.job_error().code()),
                            proto.job_error().message());
      break;
    case v1::Event::kShutdownStarted:
      event.kind = ClientEvent::Kind::kShutdownStarted;
      break;
    case v1::Event::kTopologyGeneration:
      event.kind = ClientEvent::Kind::kTopologyChanged;
      event.generation = proto.topology_generation();
      break;
    default:
      event.kind = ClientEvent::Kind::kTaskChanged;
      break;
  }
  return event;
}

}  // namespace

void HandleEvent(const std::shared_ptr<State>& s, const v1::Event& proto) {
  {
    absl::MutexLock lock(&s->mu);
    if (proto.version() <= s->event_version && proto.version() != 0) return;  // replayed
    s->event_version = std::max(s->event_version, proto.version());
    if (proto.kind_case() == v1::Event::kJobError) {
      // Every path that makes the sticky error a job failure raises this
      // event; the reply that brought the failure first already did.
      if (IsJobFailure(s->sticky)) return;
      SetStickyLocked(*s, JobFailedError(proto.job_error()));
    }
    if (proto.kind_case() == v1::Event::kTopologyGeneration) {
      s->topology.set_generation(proto.topology_generation());
      // The job's start, for a client that waits for it on the stream (all
      // but devices_with_job, AwaitJob): the answer WaitForJob would give.
      if (!s->have_topology && !s->devices_with_job) {
        if (proto.topology_fingerprint() != 0) {
          s->topology.set_fingerprint(proto.topology_fingerprint());
          s->have_topology = true;
          WakeJobWaiterLocked(*s, absl::OkStatus());
        } else {  // an older coordinator's event: WaitForJob tells
          s->job_start_unconfirmed = true;
          WakeJobWaiterLocked(*s, std::nullopt);
        }
      }
    }
  }
  DeliverEvent(s, FromProto(proto));
}

void AwaitEventsThrough(State& s, int64_t version) {
  absl::MutexLock lock(&s.mu);
  auto caught_up = [&s, version] {
    return s.event_version >= version || (s.watcher == nullptr && s.hub == nullptr) ||
           s.stopping || s.lost;
  };
  s.mu.AwaitWithTimeout(absl::Condition(&caught_up, &decltype(caught_up)::operator()),
                        kShutdownEventsWait);
}

void SetLost(const std::shared_ptr<State>& s, const std::string& why) {
  const absl::Status error = LostError(s->address, why);
  const std::string message(error.message());
  bool job_failed = false;
  {
    absl::MutexLock lock(&s->mu);
    if (s->lost || s->stopping || s->shut_down) return;
    s->lost = true;
    // A job failure seen first stays the sticky error.
    job_failed = IsJobFailure(s->sticky);
    SetStickyLocked(*s, error);
  }
  CancelAsync(s);
  if (job_failed) {
    // Expected, not news: the coordinator process 0 hosts stops once every
    // connected process holds the job's failure.
    Log(LogLevel::kInfo, absl::StrCat("tessera: process ", s->header.process_id(),
                                      ": the coordinator went away after the job failed: ",
                                      message));
    return;
  }
  Log(LogLevel::kError, absl::StrCat("tessera: process ", s->header.process_id(), ": ", message));
  ClientEvent event;
  event.kind = ClientEvent::Kind::kCoordinatorLost;
  event.code = absl::StatusCode::kUnavailable;
  event.message = message;
  DeliverEvent(s, std::move(event));
}

}  // namespace tessera::cluster::internal
