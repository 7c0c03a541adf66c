// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The process-wide threads shared by every client (no thread per client):
// the scheduler runs the heartbeats, the dispatcher runs event callbacks and
// the completions of asynchronous calls. Private to the client
// (core/cluster/client*.cc): not installed, not in the C ABI.
#ifndef TESSERA_CORE_CLUSTER_CLIENT_THREADS_H_
#define TESSERA_CORE_CLUSTER_CLIENT_THREADS_H_

#include <deque>
#include <functional>
#include <map>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace tessera::cluster::internal {

// Runs closures at given times on one thread: the heartbeats of every client
// in the process. Closures must be short and must not block.
class Scheduler {
 public:
  static Scheduler& Get();

  void At(absl::Time when, std::function<void()> task);

 private:
  void Loop();

  absl::Mutex mu_;
  absl::CondVar cv_;
  std::multimap<absl::Time, std::function<void()>> queue_;
  bool started_ = false;
};

// Runs closures in order on one thread: the event callbacks of every client,
// so user code never runs on (or blocks) gRPC's threads.
class Dispatcher {
 public:
  static Dispatcher& Get();

  void Post(std::function<void()> task);

 private:
  void Loop();

  absl::Mutex mu_;
  std::deque<std::function<void()>> queue_;
  bool started_ = false;
};

}  // namespace tessera::cluster::internal

#endif  // TESSERA_CORE_CLUSTER_CLIENT_THREADS_H_
