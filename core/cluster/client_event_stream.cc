// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client_event_stream.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/client_callback.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/cluster/client_events.h"
#include "core/cluster/client_heartbeats.h"
#include "core/cluster/client_threads.h"
#include "core/cluster/error_detail.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster::internal {

namespace {

constexpr absl::Duration kWatchRetryDelay = absl::Milliseconds(100);

// What follows the end of the stream `s` watched through (counted in
// async_in_flight; `current`: `s` had not moved to another one): a job
// failure becomes sticky; a broken stream is re-opened if a heartbeat still
// gets through, else the coordinator is lost.
void AfterStreamEnded(const std::shared_ptr<State>& s, bool current, const absl::Status& error) {
  bool probe = false;
  {
    absl::MutexLock lock(&s->mu);
    --s->async_in_flight;
    probe = current && !error.ok() && !s->stopping && !s->shut_down && !s->lost;
    if (probe && s->shutdown_in_flight && !IsJobFailure(error)) {
      s->deferred_break = error;
      probe = false;
    }
  }
  if (IsJobFailure(error)) {
    (void)AfterCall(s, error);
    return;
  }
  if (probe) ProbeAfterBrokenStream(s, error);
}

}  // namespace

class EventWatcher : public grpc::ClientReadReactor<v1::Event> {
 public:
  explicit EventWatcher(std::shared_ptr<State> state) : state_(std::move(state)) {}

  void Start(std::shared_ptr<EventWatcher> self, int64_t after_version) {
    self_ = std::move(self);
    *request_.mutable_header() = state_->header;
    request_.set_after_version(after_version);
    state_->AddMetadata(&context_);
    state_->stub->async()->WatchEvents(&context_, &request_, this);
    StartRead(&event_);
    StartCall();
  }

  void Cancel() { context_.TryCancel(); }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    HandleEvent(state_, event_);
    StartRead(&event_);
  }

  void OnDone(const grpc::Status& status) override {
    std::shared_ptr<EventWatcher> keep = std::move(self_);  // `this` lives to the end of OnDone
    std::shared_ptr<State> s = state_;
    bool ours = false;
    {
      absl::MutexLock lock(&s->mu);
      if (s->watcher.get() == this) {
        s->watcher.reset();
        ours = true;
      }
    }
    AfterStreamEnded(s, ours, FromGrpcStatus(status));
  }

 private:
  std::shared_ptr<State> state_;
  std::shared_ptr<EventWatcher> self_;
  grpc::ClientContext context_;
  v1::WatchEventsRequest request_;
  v1::Event event_;
};

// One event stream for every client of this process that shares a channel
// (and job and credential): the coordinator's event log is the same for
// every process, so 10,000 clients over 100 channels keep 100 streams open,
// not 10,000 (each open stream costs both ends memory and CPU on every
// completion). The stream carries the first subscriber's header; every event
// goes to every subscriber (each drops what it has seen, HandleEvent), and
// its end is each subscriber's end of stream (AfterStreamEnded).
class EventHub : public grpc::ClientReadReactor<v1::Event> {
 public:
  struct Key {
    const grpc::Channel* channel;
    std::string job_id;
    std::string credential;
    bool operator==(const Key& other) const {
      return channel == other.channel && job_id == other.job_id && credential == other.credential;
    }
    template <typename H>
    friend H AbslHashValue(H h, const Key& key) {
      return H::combine(std::move(h), key.channel, key.job_id, key.credential);
    }
  };
  using Registry = absl::flat_hash_map<Key, std::weak_ptr<EventHub>>;

  // Subscribes `s` (counted in its async_in_flight, s->hub set) to the hub of
  // its channel, made and started if there is none. Null when `s` must watch
  // alone: the hub already delivered events past `after_version`, or `s` is
  // stopping (then nothing was counted).
  static std::shared_ptr<EventHub> Join(const std::shared_ptr<State>& s, int64_t after_version) {
    const Key key{s->channel.get(), s->header.job_id(), s->credential};
    std::shared_ptr<EventHub> hub;
    bool fresh = false;
    {
      absl::MutexLock lock(&RegistryMu());
      std::weak_ptr<EventHub>& slot = Hubs()[key];
      hub = slot.lock();
      if (hub != nullptr && !hub->ending()) {
        if (!hub->Add(hub, s, after_version)) return nullptr;  // it is past `after_version`
      } else {
        hub = std::make_shared<EventHub>(key, s, after_version);
        if (!hub->Add(hub, s, after_version)) return nullptr;  // `s` is stopping
        slot = hub;
        fresh = true;
      }
    }
    if (fresh) hub->Start(hub);
    return hub;
  }

  EventHub(Key key, const std::shared_ptr<State>& first, int64_t after_version)
      : key_(std::move(key)), channel_(first->channel), stub_(v1::Coordinator::NewStub(channel_)) {
    *request_.mutable_header() = first->header;
    request_.set_after_version(after_version);
    delivered_ = after_version;
    first->AddMetadata(&context_);
  }

  // Unsubscribes `s` (its count dropped); the last one out ends the stream.
  void Leave(State* s) {
    bool last = false;
    {
      absl::MutexLock lock(&mu_);
      auto it = subscribers_.find(s);
      if (it == subscribers_.end()) return;  // the stream ended meanwhile
      subscribers_.erase(it);
      {
        absl::MutexLock state_lock(&s->mu);
        if (s->hub.get() == this) s->hub.reset();
        --s->async_in_flight;
      }
      last = subscribers_.empty();
      if (last) ending_ = true;
    }
    if (last) context_.TryCancel();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // OnDone follows
    std::vector<std::shared_ptr<State>> subscribers;
    {
      absl::MutexLock lock(&mu_);
      delivered_ = std::max(delivered_, event_.version());
      subscribers.reserve(subscribers_.size());
      for (const auto& [raw, s] : subscribers_) subscribers.push_back(s);
    }
    for (const std::shared_ptr<State>& s : subscribers) HandleEvent(s, event_);
    StartRead(&event_);
  }

  void OnDone(const grpc::Status& status) override {
    std::shared_ptr<EventHub> keep = std::move(self_);  // `this` lives to the end of OnDone
    {
      absl::MutexLock lock(&RegistryMu());
      auto it = Hubs().find(key_);
      if (it != Hubs().end() && it->second.lock().get() == this) Hubs().erase(it);
    }
    absl::flat_hash_map<State*, std::shared_ptr<State>> subscribers;
    {
      absl::MutexLock lock(&mu_);
      ending_ = true;
      subscribers.swap(subscribers_);
      for (auto& [raw, s] : subscribers) {
        absl::MutexLock state_lock(&s->mu);
        if (s->hub.get() == this) s->hub.reset();
      }
    }
    const absl::Status error = FromGrpcStatus(status);
    for (auto& [raw, s] : subscribers) AfterStreamEnded(s, true, error);
  }

 private:

  // Locks: RegistryMu(), then a hub's mu_, then a state's mu.
  static absl::Mutex& RegistryMu() {
    static absl::Mutex* mu = new absl::Mutex;  // never destroyed: hubs may outlive statics
    return *mu;
  }
  static Registry& Hubs() {
    static Registry* hubs = new Registry;
    return *hubs;
  }

  bool ending() {
    absl::MutexLock lock(&mu_);
    return ending_;
  }

  bool Add(const std::shared_ptr<EventHub>& self, const std::shared_ptr<State>& s,
           int64_t after_version) {
    absl::MutexLock lock(&mu_);
    if (ending_ || after_version < delivered_) return false;
    absl::MutexLock state_lock(&s->mu);
    if (s->stopping || s->shut_down || s->lost) return false;
    s->hub = self;
    ++s->async_in_flight;
    subscribers_.emplace(s.get(), s);
    return true;
  }

  void Start(std::shared_ptr<EventHub> self) {
    self_ = std::move(self);
    stub_->async()->WatchEvents(&context_, &request_, this);
    StartRead(&event_);
    StartCall();
  }

  const Key key_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Coordinator::Stub> stub_;
  std::shared_ptr<EventHub> self_;  // from Start to the end of OnDone
  grpc::ClientContext context_;
  v1::WatchEventsRequest request_;
  v1::Event event_;
  absl::Mutex mu_;
  absl::flat_hash_map<State*, std::shared_ptr<State>> subscribers_;
  int64_t delivered_ = 0;  // the newest event version handed out
  bool ending_ = false;    // cancelled or done: joins go elsewhere
};

void StartWatcher(const std::shared_ptr<State>& s) {
  if (s->channel_shared) {
    int64_t after = 0;
    {
      absl::MutexLock lock(&s->mu);
      if (s->stopping || s->shut_down || s->lost) return;
      after = s->event_version;
    }
    if (EventHub::Join(s, after) != nullptr) return;
  }
  auto watcher = std::make_shared<EventWatcher>(s);
  int64_t after = 0;
  {
    absl::MutexLock lock(&s->mu);
    if (s->stopping || s->shut_down || s->lost) return;
    s->watcher = watcher;
    ++s->async_in_flight;
    after = s->event_version;
  }
  watcher->Start(watcher, after);
}

void CancelAsync(const std::shared_ptr<State>& s) {
  std::shared_ptr<EventWatcher> watcher;
  std::shared_ptr<EventHub> hub;
  std::shared_ptr<HeartbeatCall> heartbeat;
  {
    absl::MutexLock lock(&s->mu);
    watcher = s->watcher;
    hub = s->hub;
    heartbeat = s->heartbeat;
  }
  // Outside the lock: cancelling may run reactor callbacks on this thread.
  if (watcher) watcher->Cancel();
  if (hub) hub->Leave(s.get());
  if (heartbeat) heartbeat->context.TryCancel();
}

void ProbeAfterBrokenStream(const std::shared_ptr<State>& s, const absl::Status& stream_error) {
  std::weak_ptr<State> weak = s;
  SendHeartbeat(s, [weak, stream_error](const absl::Status& status) {
    std::shared_ptr<State> s = weak.lock();
    if (!s) return;
    if (!status.ok()) {
      if (IsJobFailure(status)) {
        (void)AfterCall(s, status);
        return;
      }
      if (IsSuperseded(status)) {
        // A newer incarnation of this process registered (the coordinator
        // ended the stream rather than tell this one of the job's start):
        // no call of this one can succeed again, and it must hear why.
        absl::MutexLock lock(&s->mu);
        SetStickyLocked(*s, status);
        return;
      }
      {
        absl::MutexLock lock(&s->mu);
        if (s->shutdown_in_flight) {  // the Shutdown reply decides (AfterStreamEnded)
          s->deferred_break = stream_error;
          return;
        }
      }
      SetLost(s, absl::StrCat("the event stream broke (", stream_error.ToString(),
                              ") and a re-dial failed (", status.ToString(), ")"));
      return;
    }
    std::weak_ptr<State> w = s;
    Scheduler::Get().At(absl::Now() + kWatchRetryDelay, [w] {
      if (auto s = w.lock()) StartWatcher(s);
    });
  });
}

}  // namespace tessera::cluster::internal
