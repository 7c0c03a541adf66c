// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Registration storm: N in-process clients (core tessera::cluster::Client) of
// one coordinator register and pass a first barrier. Reports the median time
// from the first connect to the last client past the barrier.
//
//   cluster_clients_bench [--clients N] [--connections C] [--runs R] [--threads]
//                         [--heartbeat-ms H (2000)]
//
// C == N gives every client its own TCP connection; C < N makes C channels
// (distinct arguments, so distinct connections) that clients share
// round-robin. By default one thread starts every client with
// Client::ConnectAsync and BarrierAsync (the library's many-clients-per-thread
// path); --threads runs the blocking Connect and Barrier on one thread per
// client instead, for comparison. Targets (issue 4): 1,000 own connections
// < 2 s; 10,000 over 100 connections < 3 s.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "core/cluster/client.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/local_host.h"
#include "grpcpp/grpcpp.h"

namespace {

using Clock = std::chrono::steady_clock;
using tessera::cluster::Client;
using tessera::cluster::ClientOptions;
using tessera::cluster::ClusterConfig;
using tessera::cluster::AddressText;
using tessera::cluster::CoordinatorServer;
using tessera::cluster::HostPort;

struct Shared {
  ClusterConfig config;
  std::vector<std::shared_ptr<grpc::Channel>> channels;  // empty: own connections
  tessera::v1::HostInfo host;  // this host, read once rather than by every client
  std::atomic<int> failures{0};
  int64_t all_started_ns = 0;  // async: every ConnectAsync returned
  std::atomic<int64_t> last_connected_ns{0};  // past Connect (registered, job formed)
  std::atomic<int64_t> last_past_ns{0};
  Clock::time_point start;
};

struct Task {
  Shared* shared;
  int64_t id;
};

void RecordLatest(std::atomic<int64_t>& latest, Clock::time_point start) {
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  int64_t seen = latest.load();
  while (now > seen && !latest.compare_exchange_weak(seen, now)) {
  }
}

ClientOptions OptionsFor(const Shared& shared, int64_t id) {
  ClientOptions options;
  if (shared.channels.empty()) {
    options.own_connection = true;
  } else {
    options.channel = shared.channels[static_cast<size_t>(id) % shared.channels.size()];
  }
  tessera::v1::LocalDevice device;
  device.set_local_ordinal(0);
  device.set_platform("cpu");
  options.devices = std::vector<tessera::v1::LocalDevice>{device};
  options.host = shared.host;
  return options;
}

ClusterConfig ConfigFor(const Shared& shared, int64_t id) {
  ClusterConfig config = shared.config;
  config.process_id = id;
  return config;
}

void Fail(Shared& shared, int64_t id, const absl::Status& status) {
  if (shared.failures.fetch_add(1) < 3) {
    std::fprintf(stderr, "client %lld: %s\n", (long long)id, status.ToString().c_str());
  }
}

void* RunClient(void* arg) {
  Task* task = static_cast<Task*>(arg);
  Shared& shared = *task->shared;
  auto client = Client::Connect(ConfigFor(shared, task->id), OptionsFor(shared, task->id));
  if (client.ok()) RecordLatest(shared.last_connected_ns, shared.start);
  absl::Status status = client.ok() ? (*client)->Barrier("first", absl::Seconds(120), {}) : client.status();
  if (status.ok()) {
    RecordLatest(shared.last_past_ns, shared.start);
    status = (*client)->Shutdown();
  }
  if (!status.ok()) Fail(shared, task->id, status);
  return nullptr;
}

// One thread per client, each blocked in Connect, Barrier and Shutdown.
bool RunThreads(Shared& shared, int64_t clients) {
  std::vector<Task> tasks(static_cast<size_t>(clients));
  std::vector<pthread_t> threads(static_cast<size_t>(clients));
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  shared.start = Clock::now();
  size_t started = 0;
  for (int64_t i = 0; i < clients; ++i) {
    tasks[static_cast<size_t>(i)] = {&shared, i};
    if (pthread_create(&threads[static_cast<size_t>(i)], &attr, RunClient, &tasks[static_cast<size_t>(i)]) != 0) {
      std::fprintf(stderr, "pthread_create failed at %lld\n", (long long)i);
      break;
    }
    ++started;
  }
  for (size_t i = 0; i < started; ++i) pthread_join(threads[i], nullptr);
  pthread_attr_destroy(&attr);
  return started == static_cast<size_t>(clients);
}

// Every client from this thread: ConnectAsync, then BarrierAsync from its
// callback (on the library's dispatcher thread).
void RunAsync(Shared& shared, int64_t clients) {
  std::vector<std::unique_ptr<Client>> connected(static_cast<size_t>(clients));
  // Shared with the callbacks: the last one may still be unlocking it when
  // this thread wakes.
  struct Pending {
    absl::Mutex mu;
    int64_t remaining;
  };
  auto pending = std::make_shared<Pending>();
  pending->remaining = clients;
  auto one_done = [pending] {
    absl::MutexLock lock(&pending->mu);
    --pending->remaining;
  };
  shared.start = Clock::now();
  for (int64_t i = 0; i < clients; ++i) {
    Client::ConnectAsync(
        ConfigFor(shared, i), OptionsFor(shared, i),
        [&shared, &connected, one_done, i](absl::StatusOr<std::unique_ptr<Client>> client) {
          if (!client.ok()) {
            Fail(shared, i, client.status());
            return one_done();
          }
          RecordLatest(shared.last_connected_ns, shared.start);
          Client* c = client->get();
          connected[static_cast<size_t>(i)] = *std::move(client);
          c->BarrierAsync("first", absl::Seconds(120), {}, [&shared, one_done, i](absl::Status status) {
            if (status.ok()) {
              RecordLatest(shared.last_past_ns, shared.start);
            } else {
              Fail(shared, i, status);
            }
            one_done();
          });
        });
  }
  shared.all_started_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - shared.start).count();
  {
    absl::MutexLock lock(&pending->mu);
    pending->mu.Await(absl::Condition(+[](int64_t* left) { return *left == 0; }, &pending->remaining));
  }
  connected.clear();  // no shutdown barrier: the coordinator stops next
}

// One run; returns seconds to the last client past the barrier, or < 0.
double RunOnce(int64_t clients, int64_t connections, bool threads, int64_t heartbeat_ms) {
  ClusterConfig server_config;
  server_config.bind_address = HostPort{"127.0.0.1", 0};
  server_config.coordinator_address = HostPort{"127.0.0.1", 0};
  server_config.num_processes = clients;
  server_config.job_id = "bench";
  server_config.init_timeout = absl::Seconds(120);
  server_config.heartbeat_interval = absl::Milliseconds(heartbeat_ms);
  server_config.heartbeat_timeout = absl::Seconds(60);
  server_config.shutdown_timeout = absl::Seconds(120);
  auto server = CoordinatorServer::Start(server_config);
  if (!server.ok()) {
    std::fprintf(stderr, "coordinator: %s\n", server.status().ToString().c_str());
    return -1;
  }
  Shared shared;
  shared.config = server_config;
  shared.config.coordinator_address = HostPort{"127.0.0.1", (*server)->port()};
  if (connections < clients) {
    for (int64_t c = 0; c < connections; ++c) {
      grpc::ChannelArguments args;
      args.SetInt("grpc.enable_http_proxy", 0);
      args.SetInt("tessera.bench.connection", static_cast<int>(c));  // distinct args: distinct connection
      shared.channels.push_back(
          grpc::CreateCustomChannel(AddressText(shared.config.coordinator_address), grpc::InsecureChannelCredentials(), args));
    }
  }
  shared.host = tessera::cluster::LocalHostInfo();
  bool all_started = true;
  if (threads) {
    all_started = RunThreads(shared, clients);
  } else {
    RunAsync(shared, clients);
  }
  (*server)->Stop();
  if (shared.failures.load() > 0 || !all_started) {
    std::fprintf(stderr, "%d clients failed\n", shared.failures.load());
    return -1;
  }
  if (!threads) {
    std::printf("  all connects started after %.3f s\n", static_cast<double>(shared.all_started_ns) * 1e-9);
  }
  std::printf("  all connected (job formed) after %.3f s\n",
              static_cast<double>(shared.last_connected_ns.load()) * 1e-9);
  return static_cast<double>(shared.last_past_ns.load()) * 1e-9;
}

int64_t Flag(int argc, char** argv, const char* name, int64_t fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::strtoll(argv[i + 1], nullptr, 10);
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef NDEBUG
  // Debian's Abseil is built without NDEBUG, so its Mutex deadlock detector
  // (a global lock-order graph updated on every lock) stays on even in a
  // release build of Tessera; measured, it is ~10% of the 10,000-client run
  // and serializes the lock-heavy paths. A release benchmark measures
  // Tessera, not the detector.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
#endif
  int64_t clients = Flag(argc, argv, "--clients", 1000);
  int64_t connections = std::min(clients, Flag(argc, argv, "--connections", clients));
  int64_t runs = Flag(argc, argv, "--runs", 3);
  // Every client heartbeats this often from its registration on.
  int64_t heartbeat_ms = Flag(argc, argv, "--heartbeat-ms", 2000);
  bool threads = false;
  for (int i = 1; i < argc; ++i) threads = threads || std::strcmp(argv[i], "--threads") == 0;
  std::vector<double> times;
  for (int64_t r = 0; r < runs; ++r) {
    double seconds = RunOnce(clients, connections, threads, heartbeat_ms);
    if (seconds < 0) return 1;
    std::printf("run %lld: %.3f s\n", (long long)r, seconds);
    times.push_back(seconds);
  }
  std::sort(times.begin(), times.end());
  std::printf("%lld clients over %lld connections (%s): register + first barrier, median %.3f s (%lld runs)\n",
              (long long)clients, (long long)connections, threads ? "a thread per client" : "async, one thread",
              times[times.size() / 2], (long long)runs);
  return 0;
}
