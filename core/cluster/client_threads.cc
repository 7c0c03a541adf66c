// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/client_threads.h"

#include <thread>
#include <utility>
#include <vector>

namespace tessera::cluster::internal {

Scheduler& Scheduler::Get() {
  static Scheduler* scheduler = new Scheduler();  // never destroyed: threads outlive statics
  return *scheduler;
}

void Scheduler::At(absl::Time when, std::function<void()> task) {
  absl::MutexLock lock(&mu_);
  const auto added = queue_.emplace(when, std::move(task));
  const bool first = added == queue_.begin();
  if (!started_) {
    started_ = true;
    std::thread([this] { Loop(); }).detach();
  }
  // Only a new first task changes what the thread waits for: a wake-up per
  // task (every client's heartbeat, 10,000 at a registration storm) costs
  // two context switches for nothing.
  if (first) cv_.Signal();
}

void Scheduler::Loop() {
  for (;;) {
    std::vector<std::function<void()>> due;
    {
      absl::MutexLock lock(&mu_);
      for (;;) {
        if (queue_.empty()) {
          cv_.Wait(&mu_);
          continue;
        }
        const absl::Time first = queue_.begin()->first;
        if (first <= absl::Now()) break;
        cv_.WaitWithDeadline(&mu_, first);
      }
      const absl::Time now = absl::Now();
      while (!queue_.empty() && queue_.begin()->first <= now) {
        due.push_back(std::move(queue_.begin()->second));
        queue_.erase(queue_.begin());
      }
    }
    for (auto& task : due) task();
  }
}

Dispatcher& Dispatcher::Get() {
  static Dispatcher* dispatcher = new Dispatcher();
  return *dispatcher;
}

void Dispatcher::Post(std::function<void()> task) {
  absl::MutexLock lock(&mu_);
  queue_.push_back(std::move(task));
  if (!started_) {
    started_ = true;
    std::thread([this] { Loop(); }).detach();
  }
}

void Dispatcher::Loop() {
  for (;;) {
    // Everything queued at once: one lock and one wake-up per batch, not
    // per task (10,000 clients' completions come in bursts).
    std::deque<std::function<void()>> batch;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](std::deque<std::function<void()>>* q) { return !q->empty(); }, &queue_));
      batch.swap(queue_);
    }
    for (std::function<void()>& task : batch) {
      task();
      task = nullptr;  // what it holds goes now, in order, not with the batch
    }
  }
}

}  // namespace tessera::cluster::internal
