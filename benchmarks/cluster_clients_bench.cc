// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Registration storm: N in-process clients (core tessera::cluster::Client) of
// one coordinator register and pass a first barrier. Reports the median time
// from the first connect to the last client past the barrier.
//
//   cluster_clients_bench [--clients N] [--connections C] [--runs R] [--threads]
//                         [--heartbeat-ms H (the library's 10000)] [--only tessera|floor]
//                         [--count-rpcs]
//
// C == N gives every client its own TCP connection; C < N makes C channels
// (distinct arguments, so distinct connections) that clients share
// round-robin. By default one thread starts every client with
// Client::ConnectAsync and BarrierAsync (the library's many-clients-per-thread
// path); --threads runs the blocking Connect and Barrier on one thread per
// client instead, for comparison. Targets (issue 4): 1,000 own connections
// < 2 s; 10,000 over 100 connections < 3 s.
//
// The floor (issue 14): each run also times a bare gRPC callback service of
// the same shape in the same process (Register, then one barrier answered
// when every client has arrived; the same messages, the same channels, no
// bookkeeping: no job state, heartbeats, event streams or topology; the
// same deadlines), and the summary prints Tessera's median as a multiple of
// the floor's, in wall time and in CPU time. Target: at most 2x. --only runs
// one side (to profile it alone); --count-rpcs turns the coordinator's
// metrics on and prints the RPCs it answered in each run (the interceptor
// that counts them costs time: not for timing).
//
// What the multiple is made of (perf, issue 14): Tessera's protocol makes
// the floor's two calls per client (Register, Barrier: ConnectAsync learns
// the job's start from the event stream, no WaitForJob), plus an event
// stream per connection (a client that joins after its channel's stream
// passed the job-start event opens its own), and heartbeats from clients
// whose first barrier is not answered within the heartbeat interval (the
// library's default, 10 s, unless --heartbeat-ms says otherwise: at 2 s
// every client of a 10,000-client job sends one while the job forms,
// 10,000 more calls); --threads (blocking Connect) still asks WaitForJob.
// Two checks compiled into Debian's libgrpc (built without NDEBUG) cost time per call in proportion to the calls in flight: every completion
// searches the completion queue's list of outstanding tags
// (completion_queue.cc, cq_check_tag), and every timer, so every call with a
// deadline on either end, walks a 1,009-bucket hash table of all live timers
// (timer_generic.cc, add_to_ht/remove_from_ht). The same gRPC version
// rebuilt with -DNDEBUG has neither: `apt-get source grpc`, then
// `DEB_CFLAGS_APPEND=-DNDEBUG DEB_CXXFLAGS_APPEND=-DNDEBUG dpkg-buildpackage
// -b -us -uc`, and install the rebuilt libgrpc29 and libgrpc++1.51 together.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

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
#include "core/cluster/client_connect.h"
#include "core/cluster/client_state.h"
#include "core/cluster/cluster_config.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/local_host.h"
#include "grpcpp/grpcpp.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace {

using Clock = std::chrono::steady_clock;

// Both sides' barrier timeout.
constexpr absl::Duration kBarrierTimeout = absl::Seconds(120);
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

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// The process's CPU time when the last client of the current side's run got
// past the barrier, as the wall time stops there too (not the teardown);
// 0 where not recorded (--threads): Measure then reads it at the run's end.
std::atomic<double> g_cpu_at_last_pass{0};

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
  absl::Status status = client.ok() ? (*client)->Barrier("first", kBarrierTimeout, {}) : client.status();
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
    if (--pending->remaining == 0) g_cpu_at_last_pass.store(ProcessCpuSeconds());
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
          c->BarrierAsync("first", kBarrierTimeout, {}, [&shared, one_done, i](absl::Status status) {
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

// Prints the coordinator's rpcs_total lines from its /metrics on `port`.
void PrintRpcCounts(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string body;
  if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) {
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
    if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buffer[4096];
      for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) body.append(buffer, static_cast<size_t>(n));
    }
  }
  if (fd >= 0) close(fd);
  for (size_t at = 0; at < body.size();) {
    size_t end = body.find('\n', at);
    if (end == std::string::npos) end = body.size();
    const std::string line = body.substr(at, end - at);
    if (line.find("rpcs_total{") != std::string::npos) std::printf("  %s\n", line.c_str());
    at = end + 1;
  }
}

// `connections` channels to `address` that clients share round-robin, one
// connection each (distinct arguments), for both sides.
std::vector<std::shared_ptr<grpc::Channel>> SharedChannels(const HostPort& address, int64_t connections) {
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int64_t c = 0; c < connections; ++c) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_ENABLE_HTTP_PROXY, 0);
    args.SetInt("tessera.bench.connection", static_cast<int>(c));
    channels.push_back(grpc::CreateCustomChannel(AddressText(address), grpc::InsecureChannelCredentials(), args));
  }
  return channels;
}

// One run; returns seconds to the last client past the barrier, or < 0.
double RunOnce(int64_t clients, int64_t connections, bool threads, int64_t heartbeat_ms,
               bool count_rpcs) {
  ClusterConfig server_config;
  server_config.bind_address = HostPort{"127.0.0.1", 0};
  server_config.coordinator_address = HostPort{"127.0.0.1", 0};
  server_config.num_processes = clients;
  server_config.job_id = "bench";
  server_config.init_timeout = absl::Seconds(120);
  server_config.heartbeat_interval = absl::Milliseconds(heartbeat_ms);
  server_config.heartbeat_timeout = absl::Seconds(60);
  server_config.shutdown_timeout = absl::Seconds(120);
  if (count_rpcs) server_config.metrics_bind = HostPort{"127.0.0.1", 0};
  auto server = CoordinatorServer::Start(server_config);
  if (!server.ok()) {
    std::fprintf(stderr, "coordinator: %s\n", server.status().ToString().c_str());
    return -1;
  }
  Shared shared;
  shared.config = server_config;
  shared.config.coordinator_address = HostPort{"127.0.0.1", (*server)->port()};
  if (connections < clients) shared.channels = SharedChannels(*shared.config.coordinator_address, connections);
  shared.host = tessera::cluster::LocalHostInfo();
  bool all_started = true;
  if (threads) {
    all_started = RunThreads(shared, clients);
  } else {
    RunAsync(shared, clients);
  }
  if (count_rpcs) PrintRpcCounts((*server)->metrics_port());
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

// The floor's service: Register answers at once; Barrier holds every call
// until the last client arrives, then answers them all.
class BareService final : public tessera::v1::Coordinator::CallbackService {
 public:
  explicit BareService(int64_t clients) : remaining_(clients) {}

  grpc::ServerUnaryReactor* Register(grpc::CallbackServerContext* ctx, const tessera::v1::RegisterRequest*,
                                     tessera::v1::RegisterResponse*) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  grpc::ServerUnaryReactor* Barrier(grpc::CallbackServerContext* ctx, const tessera::v1::BarrierRequest*,
                                    tessera::v1::BarrierResponse*) override {
    grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
    std::vector<grpc::ServerUnaryReactor*> release;
    {
      absl::MutexLock lock(&mu_);
      waiting_.push_back(reactor);
      if (--remaining_ == 0) release.swap(waiting_);
    }
    for (grpc::ServerUnaryReactor* r : release) r->Finish(grpc::Status::OK);
    return reactor;
  }

 private:
  absl::Mutex mu_;
  int64_t remaining_;
  std::vector<grpc::ServerUnaryReactor*> waiting_;
};

// One client of the floor: its stub and the two calls' state.
struct BareClient {
  std::unique_ptr<tessera::v1::Coordinator::Stub> stub;
  grpc::ClientContext register_ctx, barrier_ctx;
  tessera::v1::RegisterRequest register_request;
  tessera::v1::RegisterResponse register_response;
  tessera::v1::BarrierRequest barrier_request;
  tessera::v1::BarrierResponse barrier_response;
};

// One run of the floor, as RunAsync starts Tessera's clients: every call
// started from this thread or from the previous call's callback. Returns
// seconds to the last client past the barrier, or < 0.
double RunBareOnce(int64_t clients, int64_t connections) {
  BareService service(clients);
  int port = 0;
  grpc::ServerBuilder builder;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr || port == 0) {
    std::fprintf(stderr, "bare service: could not start\n");
    return -1;
  }
  // Tessera's own connections (the same channel arguments), or the same
  // shared channels as Tessera's clients.
  ClusterConfig dial;
  dial.coordinator_address = HostPort{"127.0.0.1", port};
  std::vector<std::shared_ptr<grpc::Channel>> shared_channels;
  if (connections < clients) shared_channels = SharedChannels(*dial.coordinator_address, connections);
  const tessera::v1::HostInfo host = tessera::cluster::LocalHostInfo();
  std::vector<BareClient> bare(static_cast<size_t>(clients));
  std::atomic<int> failures{0};
  std::atomic<int64_t> last_past_ns{0};
  absl::Mutex mu;
  int64_t remaining = clients;
  auto one_done = [&mu, &remaining] {
    absl::MutexLock lock(&mu);
    if (--remaining == 0) g_cpu_at_last_pass.store(ProcessCpuSeconds());
  };
  const Clock::time_point start = Clock::now();
  for (int64_t i = 0; i < clients; ++i) {
    BareClient& c = bare[static_cast<size_t>(i)];
    c.stub = tessera::v1::Coordinator::NewStub(
        shared_channels.empty() ? *tessera::cluster::internal::MakeChannel(dial, /*own_connection=*/true)
                                : shared_channels[static_cast<size_t>(i) % shared_channels.size()]);
    c.register_request.mutable_header()->set_job_id("bench");
    c.register_request.mutable_header()->set_process_id(static_cast<int32_t>(i));
    c.register_request.set_num_processes(static_cast<int32_t>(clients));
    *c.register_request.mutable_host() = host;
    c.register_request.add_devices()->set_platform("cpu");
    c.register_ctx.set_wait_for_ready(true);
    // The deadlines Tessera's calls carry (a registration attempt: the RPC
    // timeout; a barrier: its timeout and a margin): in gRPC each is a timer
    // on both ends, part of the call's cost.
    c.register_ctx.set_deadline(tessera::cluster::internal::ToDeadline(absl::Now() + tessera::cluster::kDefaultRpcTimeout));
    c.stub->async()->Register(
        &c.register_ctx, &c.register_request, &c.register_response,
        [&c, &failures, &last_past_ns, &start, one_done](grpc::Status status) {
          if (!status.ok()) {
            failures.fetch_add(1);
            return one_done();
          }
          *c.barrier_request.mutable_header() = c.register_request.header();
          c.barrier_request.set_barrier_id("first");
          c.barrier_request.set_timeout_ms(absl::ToInt64Milliseconds(kBarrierTimeout));
          c.barrier_ctx.set_deadline(tessera::cluster::internal::ToDeadline(absl::Now() + kBarrierTimeout + tessera::cluster::internal::kBlockingMargin));
          c.stub->async()->Barrier(&c.barrier_ctx, &c.barrier_request, &c.barrier_response,
                                   [&failures, &last_past_ns, &start, one_done](grpc::Status status) {
                                     if (status.ok()) {
                                       RecordLatest(last_past_ns, start);
                                     } else {
                                       failures.fetch_add(1);
                                     }
                                     one_done();
                                   });
        });
  }
  const double all_started = std::chrono::duration<double>(Clock::now() - start).count();
  {
    absl::MutexLock lock(&mu);
    mu.Await(absl::Condition(+[](int64_t* left) { return *left == 0; }, &remaining));
  }
  server->Shutdown();
  if (failures.load() > 0) {
    std::fprintf(stderr, "bare service: %d clients failed\n", failures.load());
    return -1;
  }
  std::printf("  floor: all registrations started after %.3f s\n", all_started);
  return static_cast<double>(last_past_ns.load()) * 1e-9;
}

// A side's wall time (what its run returns) and the CPU time the process
// spent until its last client passed: on a loaded machine the wall time
// follows the load, the CPU time much less.
struct Measured {
  double seconds;
  double cpu_seconds;
};

template <typename Run>
Measured Measure(Run run) {
  g_cpu_at_last_pass.store(0);
  const double cpu_before = ProcessCpuSeconds();
  const double seconds = run();
  const double cpu_at_end = g_cpu_at_last_pass.load() > 0 ? g_cpu_at_last_pass.load() : ProcessCpuSeconds();
  return {seconds, cpu_at_end - cpu_before};
}

double Median(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
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
  // Every client heartbeats this often from its registration on; by default
  // as often as a client of the library does unless told otherwise.
  int64_t heartbeat_ms = Flag(argc, argv, "--heartbeat-ms",
                              absl::ToInt64Milliseconds(tessera::cluster::kDefaultHeartbeatInterval));
  bool threads = false;
  bool tessera = true, bare = true, count_rpcs = false;
  for (int i = 1; i < argc; ++i) {
    threads = threads || std::strcmp(argv[i], "--threads") == 0;
    count_rpcs = count_rpcs || std::strcmp(argv[i], "--count-rpcs") == 0;
    if (i + 1 < argc && std::strcmp(argv[i], "--only") == 0) {
      tessera = std::strcmp(argv[i + 1], "tessera") == 0;
      bare = std::strcmp(argv[i + 1], "floor") == 0;
    }
  }
  std::vector<double> times, floors, cpus, floor_cpus;
  for (int64_t r = 0; r < runs; ++r) {
    // A side not run counts as 1 s, so the lines below stay well-formed.
    Measured tessera_run{1, 1}, floor_run{1, 1};
    // Alternately first: the first side of a run also pays for what the
    // process has not done yet (gRPC's threads, a heap grown to size).
    for (int side = 0; side < 2; ++side) {
      if ((side == r % 2) && tessera) {
        tessera_run = Measure([&] { return RunOnce(clients, connections, threads, heartbeat_ms, count_rpcs); });
        if (tessera_run.seconds < 0) return 1;
      } else if ((side != r % 2) && bare) {
        floor_run = Measure([&] { return RunBareOnce(clients, connections); });
        if (floor_run.seconds < 0) return 1;
      }
    }
    std::printf("run %lld: %.3f s (cpu %.3f s), bare gRPC floor %.3f s (cpu %.3f s): %.2fx (cpu %.2fx)\n",
                (long long)r, tessera_run.seconds, tessera_run.cpu_seconds, floor_run.seconds,
                floor_run.cpu_seconds, tessera_run.seconds / floor_run.seconds,
                tessera_run.cpu_seconds / floor_run.cpu_seconds);
    times.push_back(tessera_run.seconds);
    floors.push_back(floor_run.seconds);
    cpus.push_back(tessera_run.cpu_seconds);
    floor_cpus.push_back(floor_run.cpu_seconds);
  }
  const double median = Median(times), floor = Median(floors);
  std::printf("%lld clients over %lld connections (%s): register + first barrier, median %.3f s (%lld runs)\n",
              (long long)clients, (long long)connections, threads ? "a thread per client" : "async, one thread",
              median, (long long)runs);
  std::printf("bare gRPC floor (register + barrier, no bookkeeping): median %.3f s; Tessera %.2fx the floor "
              "(target: at most 2x)\n",
              floor, median / floor);
  std::printf("cpu (user + system, every thread): Tessera median %.3f s, floor median %.3f s: %.2fx\n",
              Median(cpus), Median(floor_cpus), Median(cpus) / Median(floor_cpus));
  return 0;
}
