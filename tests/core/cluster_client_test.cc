// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The client agent (core/cluster/client.h): backoff and error classification
// on their own, the single-process local mode, and whole jobs against an
// in-process coordinator on 127.0.0.1.
#include "core/cluster/client.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <grpcpp/grpcpp.h>
#include <grpcpp/support/client_interceptor.h>

#include <atomic>
#include <fstream>
#include <functional>
#include <map>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/random/random.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "core/cluster/connect_retry.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/error_detail.h"
#include "core/cluster/job_status.h"
#include "core/cluster/local_host.h"
#include "core/cluster/runtime.h"
#include "core/distribution.h"
#include "tests/core/testing.h"

namespace tessera::cluster {
namespace {

using ::tessera::testing::IsOk;
using ::tessera::testing::ScopedEnv;
using ::tessera::testing::StatusIs;
using ::testing::HasSubstr;

v1::CoordinatorErrorDetail::Reason ReasonOf(const absl::Status& status) {
  auto detail = DetailOf(status);
  return detail ? detail->reason() : v1::CoordinatorErrorDetail::REASON_UNSPECIFIED;
}

// ---- backoff and classification ------------------------------------------

TEST(BackoffTest, CapDoublesFrom16MillisecondsUpTo10Seconds) {
  Backoff backoff;
  absl::BitGen gen;
  std::vector<absl::Duration> caps;
  for (int i = 0; i < 12; ++i) {
    caps.push_back(backoff.Cap());
    backoff.Next(gen);
  }
  EXPECT_EQ(caps, (std::vector<absl::Duration>{
                      absl::Milliseconds(16), absl::Milliseconds(32), absl::Milliseconds(64),
                      absl::Milliseconds(128), absl::Milliseconds(256), absl::Milliseconds(512),
                      absl::Milliseconds(1024), absl::Milliseconds(2048), absl::Milliseconds(4096),
                      absl::Milliseconds(8192), absl::Seconds(10), absl::Seconds(10)}));
}

TEST(BackoffTest, EachDelayIsDrawnFromZeroToTheCap) {
  Backoff backoff;
  absl::BitGen gen;
  for (int i = 0; i < 50; ++i) {
    const absl::Duration cap = backoff.Cap();
    const absl::Duration delay = backoff.Next(gen);
    EXPECT_GE(delay, absl::ZeroDuration());
    EXPECT_LE(delay, cap);
  }
  EXPECT_EQ(backoff.attempts(), 50);
}

TEST(ConnectRetryTest, ClassifiesRefusedDnsAndSilence) {
  EXPECT_EQ(ClassifyConnectFailure(absl::UnavailableError(
                "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:1: "
                "Failed to connect to remote host: Connection refused")),
            ConnectFailure::kRefused);
  EXPECT_EQ(ClassifyConnectFailure(
                absl::UnavailableError("DNS resolution failed for nohost.invalid:1234")),
            ConnectFailure::kDns);
  EXPECT_EQ(ClassifyConnectFailure(absl::DeadlineExceededError("Deadline Exceeded")),
            ConnectFailure::kNoResponse);
  EXPECT_EQ(ClassifyConnectFailure(absl::OkStatus()), ConnectFailure::kNone);
}

TEST(ConnectRetryTest, RetriesOnlyTransportFailures) {
  EXPECT_TRUE(IsRetryableConnectError(absl::UnavailableError("refused")));
  EXPECT_TRUE(IsRetryableConnectError(absl::DeadlineExceededError("silence")));
  EXPECT_FALSE(IsRetryableConnectError(absl::UnauthenticatedError("token")));
  EXPECT_FALSE(IsRetryableConnectError(absl::InvalidArgumentError("id")));
  EXPECT_FALSE(IsRetryableConnectError(absl::FailedPreconditionError("job")));
  EXPECT_FALSE(IsRetryableConnectError(absl::AlreadyExistsError("duplicate")));
}

TEST(ConnectRetryTest, TimeoutMessageSaysRefusedMeansNotUpOrFailedToBind) {
  const absl::Status error = RegistrationTimeoutError(
      "10.0.0.1:8476", absl::Seconds(3), 7,
      absl::UnavailableError("failed to connect: Connection refused"));
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kUnavailable,
                              HasSubstr("coordinator at 10.0.0.1:8476 within 3s (7 attempts): "
                                        "connection refused (coordinator not up yet, or it "
                                        "failed to bind?)")));
}

TEST(ConnectRetryTest, TimeoutMessageSaysSilenceMeansFirewall) {
  const absl::Status error = RegistrationTimeoutError(
      "10.0.0.1:8476", absl::Seconds(3), 1, absl::DeadlineExceededError("Deadline Exceeded"));
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kDeadlineExceeded,
                              HasSubstr("(1 attempt): no response (firewall? wrong port?)")));
}

TEST(CoordinatorLostErrorTest, IsUnavailableWithTheReasonAndTheAddress) {
  const absl::Status error = CoordinatorLostError("h:1", absl::Seconds(2), absl::Seconds(1),
                                                  absl::UnavailableError("refused"));
  EXPECT_THAT(error, StatusIs(absl::StatusCode::kUnavailable,
                              HasSubstr("lost the coordinator at h:1: no heartbeat answered for 2s "
                                        "(heartbeat timeout 1s)")));
  EXPECT_EQ(ReasonOf(error), v1::CoordinatorErrorDetail::REASON_COORDINATOR_LOST);
}

// ---- local mode (one process, no coordinator) ------------------------------

std::unique_ptr<Client> LocalClient() {
  ClusterConfig config;  // one process, no address
  return ::tessera::testing::Unwrap(Client::Connect(config));
}

TEST(LocalClientTest, TopologyIsThisProcessesDevices) {
  ::tessera::testing::ScopedCpuDevices devices(3);
  auto client = LocalClient();
  auto list = ::tessera::testing::Unwrap(client->Devices());
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[2], (Device{2, Platform::kCpu, 0, 2}));
  EXPECT_EQ(client->generation(), 1);
  EXPECT_NE(client->fingerprint(), 0u);
}

TEST(LocalClientTest, TopologyKeepsTpuChipCoordinates) {
  // Registration carries them (LocalDevice.coords, "core_on_chip"), so the
  // job's devices can be placed on the torus (S41).
  ::tessera::testing::ScopedEnv tpus("TESSERA_DEVICES", "tpu*4:TPU v3@2x1x1x2+0.3.0");
  auto client = LocalClient();
  auto list = ::tessera::testing::Unwrap(client->Devices());
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(list[3].coords, (ChipCoords{1, 3, 0}));
  EXPECT_EQ(list[3].core_on_chip, 1);
  EXPECT_EQ(list[0].coords, (ChipCoords{0, 3, 0}));
  EXPECT_EQ(list[0].core_on_chip, 0);
}

TEST(LocalClientTest, KeyValueStoreFollowsTheCoordinatorRules) {
  auto client = LocalClient();
  ASSERT_THAT(client->KvSet("a/b", "1", false), IsOk());
  EXPECT_THAT(client->KvSet("a/b", "2", false), StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("a/b")));
  ASSERT_THAT(client->KvSet("a/bc", "3", false), IsOk());
  ASSERT_THAT(client->KvSet("a/b/c", "4", false), IsOk());
  EXPECT_EQ(*client->KvTryGet("a/b"), "1");
  auto listed = ::tessera::testing::Unwrap(client->KvList("a/b"));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].key, "a/b/c");
  ASSERT_THAT(client->KvDelete("a/b", true), IsOk());
  EXPECT_THAT(client->KvTryGet("a/b/c"), StatusIs(absl::StatusCode::kNotFound, HasSubstr("a/b/c")));
  EXPECT_EQ(*client->KvTryGet("a/bc"), "3");
  EXPECT_EQ(*client->KvIncrement("n", 5), 5);
  EXPECT_EQ(*client->KvIncrement("n", -2), 3);
  auto cas = ::tessera::testing::Unwrap(client->KvCompareAndSwap("n", std::string("3"), "x"));
  EXPECT_TRUE(cas.swapped);
  EXPECT_EQ(cas.current, "x");
  cas = ::tessera::testing::Unwrap(client->KvCompareAndSwap("n", std::nullopt, "y"));
  EXPECT_FALSE(cas.swapped);
  EXPECT_EQ(cas.current, "x");
}

TEST(LocalClientTest, EverySpellingOfAKeyIsOneKey) {
  auto client = LocalClient();
  ASSERT_THAT(client->KvSet("/a//b/", "1", false), IsOk());
  EXPECT_EQ(*client->KvTryGet("a/b"), "1");
  EXPECT_THAT(client->KvSet("a/b", "2", false),
              StatusIs(absl::StatusCode::kAlreadyExists, HasSubstr("'a/b'")));
}

TEST(LocalClientTest, ReservedKeySpaceIsPermissionDenied) {
  auto client = LocalClient();
  EXPECT_THAT(client->KvSet("//_tessera/x", "1", true),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("'/_tessera/'")));
  EXPECT_THAT(client->KvTryGet("_tessera/x"),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("'/_tessera/'")));
  EXPECT_THAT(client->KvIncrement("/_tessera", 1),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("'/_tessera/'")));
  EXPECT_THAT(client->KvList("_tessera"),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("'/_tessera/'")));
}

TEST(LocalClientTest, ValueLargerThanTheLimitIsResourceExhausted) {
  ClusterConfig config;  // one process, no address
  config.max_value_bytes = 4;
  auto client = ::tessera::testing::Unwrap(Client::Connect(config));
  EXPECT_THAT(client->KvSet("k", "12345", false),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("4")));
}

TEST(LocalClientTest, BlockingGetTimesOutNamingTheKey) {
  auto client = LocalClient();
  EXPECT_THAT(client->KvGet("never", absl::Milliseconds(20)),
              StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr("'never'")));
}

TEST(LocalClientTest, CancelAllUnblocksAGet) {
  auto client = LocalClient();
  auto pending = std::async(std::launch::async,
                            [&] { return client->KvGet("never", absl::Seconds(30)).status(); });
  while (pending.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
    client->CancelAll();
  }
  EXPECT_THAT(pending.get(), StatusIs(absl::StatusCode::kCancelled, HasSubstr("cancel_all")));
}

TEST(LocalClientTest, BarrierAndAgreementOfOneProcess) {
  auto client = LocalClient();
  EXPECT_THAT(client->Barrier("b", absl::Seconds(1), {}), IsOk());
  EXPECT_THAT(client->Barrier("b", absl::Seconds(1), {0}), IsOk());
  EXPECT_THAT(client->Barrier("b", absl::Seconds(1), {1}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("process 1")));
  auto live = ::tessera::testing::Unwrap(client->AgreeLiveProcesses({0}, absl::Seconds(1)));
  EXPECT_EQ(live.live, std::vector<int64_t>{0});
  EXPECT_EQ(live.incarnations, std::vector<uint64_t>{client->incarnation()});
}

TEST(LocalClientTest, ReportedErrorFailsTheJobStickily) {
  auto client = LocalClient();
  ASSERT_THAT(client->ReportError(absl::StatusCode::kInternal, "disk full"), IsOk());
  const absl::Status after = client->KvSet("k", "v", false);
  EXPECT_THAT(after, StatusIs(absl::StatusCode::kAborted, HasSubstr("disk full")));
  EXPECT_EQ(ReasonOf(after), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
  EXPECT_EQ(DetailOf(after)->source_process_id(), 0);
  auto event = ::tessera::testing::Unwrap(client->NextEvent(absl::ZeroDuration()));
  EXPECT_EQ(event.kind, ClientEvent::Kind::kJobError);
  EXPECT_EQ(event.message, "disk full");
}

TEST(LocalClientTest, NextEventTimesOutWhenNothingHappened) {
  auto client = LocalClient();
  EXPECT_THAT(client->NextEvent(absl::Milliseconds(10)),
              StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr("no event")));
}

TEST(LocalClientTest, ShutdownDeliversShutdownStartedOnce) {
  auto client = LocalClient();
  ASSERT_THAT(client->Shutdown(), IsOk());
  ASSERT_THAT(client->Shutdown(), IsOk());
  auto event = ::tessera::testing::Unwrap(client->NextEvent(absl::ZeroDuration()));
  EXPECT_EQ(event.kind, ClientEvent::Kind::kShutdownStarted);
  EXPECT_THAT(client->NextEvent(absl::ZeroDuration()),
              StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr("no event")));
}

TEST(LocalClientTest, CallsAfterShutdownAreFailedPrecondition) {
  auto client = LocalClient();
  ASSERT_THAT(client->Shutdown(), IsOk());
  EXPECT_THAT(client->Shutdown(), IsOk());
  EXPECT_THAT(client->KvSet("k", "v", false),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("shut down")));
}

TEST(ClientConfigTest, MultiProcessJobNeedsAnAddress) {
  ClusterConfig config;
  config.num_processes = 2;
  EXPECT_THAT(Client::Connect(config),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("no coordinator address")));
}

TEST(ClientConfigTest, ProcessIdMustBeBelowTheCount) {
  ClusterConfig config;
  config.num_processes = 2;
  config.process_id = 2;
  config.coordinator_address = HostPort{"127.0.0.1", 1};
  EXPECT_THAT(Client::Connect(config),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("process_id is 2")));
}

// ---- against an in-process coordinator --------------------------------------

constexpr char kJob[] = "job-client-test";
constexpr char kToken[] = "client-test-token";

// A port nothing listens on (bound, then closed).
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

// An insecure channel to `address` through a new `Factory` interceptor,
// which the channel owns; `*factory` points at it.
template <typename Factory>
std::shared_ptr<grpc::Channel> InterceptedChannel(const std::string& address, Factory** factory) {
  auto owned = std::make_unique<Factory>();
  *factory = owned.get();
  std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> creators;
  creators.push_back(std::move(owned));
  return grpc::experimental::CreateCustomChannelWithInterceptors(
      address, grpc::InsecureChannelCredentials(), grpc::ChannelArguments(), std::move(creators));
}

class ClientJobTest : public ::testing::Test {
 protected:
  ClientJobTest() {
    server_config_.num_processes = 2;
    server_config_.job_id = kJob;
    server_config_.job_token = kToken;
    server_config_.bind_address = HostPort{"127.0.0.1", 0};
    server_config_.heartbeat_interval = absl::Milliseconds(100);
    server_config_.heartbeat_timeout = absl::Seconds(2);
    server_config_.init_timeout = absl::Seconds(20);
    server_config_.shutdown_timeout = absl::Seconds(5);
  }
  ~ClientJobTest() override {
    clients_.clear();
    if (server_ != nullptr) server_->Stop();
  }

  void StartServer() {
    auto server = CoordinatorServer::Start(server_config_);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  ClusterConfig ClientConfig(int process_id) const {
    ClusterConfig config = server_config_;
    config.process_id = process_id;
    config.coordinator_address = HostPort{"127.0.0.1", server_->port()};
    config.rpc_timeout = absl::Seconds(10);
    return config;
  }

  // Connects every process concurrently (each Connect waits for all).
  void ConnectAll(bool devices_with_job = false) {
    std::vector<std::future<absl::StatusOr<std::unique_ptr<Client>>>> pending;
    for (int p = 0; p < server_config_.num_processes; ++p) {
      pending.push_back(std::async(std::launch::async, [this, p, devices_with_job] {
        ClientOptions options;
        options.devices_with_job = devices_with_job;
        return Client::Connect(ClientConfig(p), std::move(options));
      }));
    }
    for (auto& f : pending) {
      auto client = f.get();
      ASSERT_TRUE(client.ok()) << client.status();
      clients_.push_back(*std::move(client));
    }
  }

  Client& client(int p) { return *clients_[static_cast<size_t>(p)]; }

  // Connects process 0 plainly and process 1 through a channel with a new
  // `Factory` interceptor (`*factory` points at it), at once: each Connect
  // waits for the other. Returns {process 0, process 1}.
  template <typename Factory>
  std::pair<std::unique_ptr<Client>, std::unique_ptr<Client>> ConnectSecondThrough(
      Factory** factory) {
    ClientOptions options;
    options.channel = InterceptedChannel(AddressText(ClientConfig(1).coordinator_address), factory);
    auto first = std::async(std::launch::async, [this] { return Client::Connect(ClientConfig(0)); });
    auto second = ::tessera::testing::Unwrap(Client::Connect(ClientConfig(1), std::move(options)));
    return {::tessera::testing::Unwrap(first.get()), std::move(second)};
  }

  ClusterConfig server_config_;
  std::unique_ptr<CoordinatorServer> server_;
  std::vector<std::unique_ptr<Client>> clients_;
};

TEST_F(ClientJobTest, DevicesFetchedAfterTheJobStartedAreTheCoordinatorsWholeTopology) {
  ::tessera::testing::ScopedCpuDevices devices(2);
  StartServer();
  ConnectAll();
  auto topology = ::tessera::testing::Unwrap(client(0).topology());
  ASSERT_EQ(topology.devices_size(), 4);
  ASSERT_EQ(topology.hosts_size(), 2);
  EXPECT_EQ(topology.fingerprint(), client(0).fingerprint());
  EXPECT_EQ(topology.generation(), 1);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(topology.devices(i).global_id(), i);
    EXPECT_EQ(topology.devices(i).process_id(), i / 2);
    EXPECT_EQ(topology.devices(i).local().local_ordinal(), i % 2);
  }
  // A second call copies what the first fetched.
  auto again = ::tessera::testing::Unwrap(client(0).topology());
  EXPECT_EQ(again.SerializeAsString(), topology.SerializeAsString());
}

TEST_F(ClientJobTest, DevicesThatCameWithTheJobNeedNoCallOfTheirOwn) {
  ::tessera::testing::ScopedCpuDevices devices(2);
  StartServer();
  ConnectAll(/*devices_with_job=*/true);
  server_->Stop();  // a topology() that still asked the coordinator would fail now
  auto topology = ::tessera::testing::Unwrap(client(1).topology());
  ASSERT_EQ(topology.devices_size(), 4);
  ASSERT_EQ(topology.hosts_size(), 2);
  EXPECT_EQ(topology.fingerprint(), client(1).fingerprint());
  EXPECT_EQ(topology.generation(), 1);
  EXPECT_EQ(topology.devices(3).process_id(), 1);
  EXPECT_EQ(topology.devices(3).local().local_ordinal(), 1);
}

TEST_F(ClientJobTest, EveryProcessSeesTheSameTopology) {
  ::tessera::testing::ScopedCpuDevices devices(2);
  StartServer();
  ConnectAll();
  EXPECT_EQ(client(0).fingerprint(), client(1).fingerprint());
  auto list = ::tessera::testing::Unwrap(client(1).Devices());
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(list[0].process_index, 0);
  EXPECT_EQ(list[3].process_index, 1);
  EXPECT_EQ(list[3].local_ordinal, 1);
}

TEST_F(ClientJobTest, BlockingGetWakesOnAnotherProcessesSet) {
  StartServer();
  ConnectAll();
  auto pending = std::async(std::launch::async,
                            [&] { return client(0).KvGet("ready", absl::Seconds(10)); });
  ASSERT_THAT(client(1).KvSet("ready", "yes", false), IsOk());
  auto value = pending.get();
  ASSERT_THAT(value, IsOk());
  EXPECT_EQ(*value, "yes");
}

TEST_F(ClientJobTest, TryGetOfAnAbsentKeyIsNotFound) {
  StartServer();
  ConnectAll();
  EXPECT_THAT(client(0).KvTryGet("absent"), StatusIs(absl::StatusCode::kNotFound, ::testing::_));
}

TEST_F(ClientJobTest, BlockingGetTimesOut) {
  StartServer();
  ConnectAll();
  EXPECT_THAT(client(0).KvGet("never", absl::Milliseconds(100)),
              StatusIs(absl::StatusCode::kDeadlineExceeded, ::testing::_));
}

TEST_F(ClientJobTest, BarrierIdsAreReusableThroughCounters) {
  StartServer();
  ConnectAll();
  for (int round = 0; round < 3; ++round) {
    auto other = std::async(std::launch::async,
                            [&] { return client(1).Barrier("step", absl::Seconds(10), {}); });
    EXPECT_THAT(client(0).Barrier("step", absl::Seconds(10), {}), IsOk()) << "round " << round;
    EXPECT_THAT(other.get(), IsOk()) << "round " << round;
  }
}

TEST_F(ClientJobTest, CancelAllUnblocksABarrier) {
  StartServer();
  ConnectAll();
  auto pending = std::async(std::launch::async,
                            [&] { return client(0).Barrier("lonely", absl::Seconds(30), {}); });
  while (pending.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
    client(0).CancelAll();
  }
  EXPECT_THAT(pending.get(), StatusIs(absl::StatusCode::kCancelled, ::testing::_));
}

TEST_F(ClientJobTest, ReportedErrorFailsEveryProcess) {
  StartServer();
  ConnectAll();
  ASSERT_THAT(client(1).ReportError(absl::StatusCode::kInternal, "out of memory on rank 1"), IsOk());
  // Process 0 learns it from the event stream; its next call fails with it.
  auto event = client(0).NextEvent(absl::Seconds(10));
  while (event.ok() && event->kind != ClientEvent::Kind::kJobError) {
    event = client(0).NextEvent(absl::Seconds(10));
  }
  ASSERT_THAT(event, IsOk());
  EXPECT_EQ(event->process_id, 1);
  const absl::Status after = client(0).KvSet("k", "v", false);
  EXPECT_EQ(after.code(), absl::StatusCode::kAborted);
  EXPECT_EQ(ReasonOf(after), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
  EXPECT_EQ(DetailOf(after)->source_process_id(), 1);
}

TEST_F(ClientJobTest, StoppedCoordinatorIsLostWithinTheHeartbeatTimeout) {
  StartServer();
  ConnectAll();
  server_->Stop();
  for (int p = 0; p < 2; ++p) {
    auto event = client(p).NextEvent(absl::Seconds(10));
    while (event.ok() && event->kind != ClientEvent::Kind::kCoordinatorLost) {
      event = client(p).NextEvent(absl::Seconds(10));
    }
    ASSERT_THAT(event, IsOk()) << "process " << p;
    const absl::Status after = client(p).KvSet("k", "v", false);
    EXPECT_THAT(after, StatusIs(absl::StatusCode::kUnavailable, HasSubstr("lost the coordinator")));
    EXPECT_EQ(ReasonOf(after), v1::CoordinatorErrorDetail::REASON_COORDINATOR_LOST);
  }
}

TEST_F(ClientJobTest, HeartbeatsKeepTheJobAliveBeyondTheHeartbeatTimeout) {
  server_config_.heartbeat_timeout = absl::Milliseconds(600);
  StartServer();
  ConnectAll();
  absl::SleepFor(absl::Milliseconds(1500));  // 2.5 timeouts: only heartbeats keep both alive
  EXPECT_THAT(client(0).KvSet("alive", "yes", false), IsOk());
  EXPECT_THAT(client(1).sticky_error(), IsOk());
}

TEST_F(ClientJobTest, EventCallbackRunsOnALibraryThread) {
  StartServer();
  ConnectAll();
  std::promise<ClientEvent> seen;
  std::atomic<bool> once{false};
  client(0).SetEventCallback([&](const ClientEvent& event) {
    if (event.kind == ClientEvent::Kind::kJobError && !once.exchange(true)) seen.set_value(event);
  });
  ASSERT_THAT(client(1).ReportError(absl::StatusCode::kInternal, "boom"), IsOk());
  auto future = seen.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(10)), std::future_status::ready);
  EXPECT_EQ(future.get().process_id, 1);
  client(0).SetEventCallback(nullptr);
}

// The coordinator answers the shutdown call with the barrier's own code
// (DEADLINE_EXCEEDED) while the job_error event races it: either way the
// caller gets the one job-failure error, and so does every later call.
TEST_F(ClientJobTest, JobFailureReachesTheCallerAsAbortedWhicheverArrivesFirst) {
  server_config_.shutdown_timeout = absl::Milliseconds(300);
  StartServer();
  ConnectAll();
  const absl::Status shutdown = client(0).Shutdown();  // process 1 never joins it
  EXPECT_THAT(shutdown, StatusIs(absl::StatusCode::kAborted,
                                 ::testing::AllOf(HasSubstr("the job failed: "),
                                                  HasSubstr("the shutdown barrier timed out"))));
  EXPECT_EQ(ReasonOf(shutdown), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
  EXPECT_EQ(client(0).sticky_error(), shutdown);
}

TEST_F(ClientJobTest, RegistrationAfterTheJobFailedIsAbortedWithJobFailed) {
  server_config_.num_processes = 3;
  StartServer();
  auto reporter = ::tessera::testing::Unwrap(Client::Register(ClientConfig(1)));
  ASSERT_THAT(reporter->ReportError(absl::StatusCode::kInternal, "bad node"), IsOk());
  const absl::StatusOr<std::unique_ptr<Client>> late = Client::Connect(ClientConfig(0));
  EXPECT_THAT(late, StatusIs(absl::StatusCode::kAborted,
                             ::testing::AllOf(HasSubstr("registration with the coordinator at "),
                                              HasSubstr("the job failed (source: process 1): "),
                                              HasSubstr("bad node"))));
  EXPECT_EQ(ReasonOf(late.status()), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
}

TEST_F(ClientJobTest, ShutdownOfEveryProcessSucceeds) {
  StartServer();
  ConnectAll();
  auto other = std::async(std::launch::async, [&] { return client(1).Shutdown(); });
  EXPECT_THAT(client(0).Shutdown(), IsOk());
  EXPECT_THAT(other.get(), IsOk());
  EXPECT_THAT(client(0).KvTryGet("k"), StatusIs(absl::StatusCode::kFailedPrecondition, ::testing::_));
}

// A channel whose event stream the test breaks as a stopping coordinator
// does (CANCELLED "coordinator stopped"), after which every heartbeat fails
// as a refused re-dial would; the other calls go through.
class StoppingCoordinatorChannel : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    return new Interceptor(this, info);
  }

  // Ends the open event streams; heartbeats fail from now on.
  void Break() {
    absl::MutexLock lock(&mu_);
    broken_ = true;
    for (Interceptor* stream : streams_) stream->info()->client_context()->TryCancel();
  }

  int failed_heartbeats() {
    absl::MutexLock lock(&mu_);
    return failed_heartbeats_;
  }

 private:
  class Interceptor : public grpc::experimental::Interceptor {
   public:
    Interceptor(StoppingCoordinatorChannel* channel, grpc::experimental::ClientRpcInfo* info)
        : channel_(channel), info_(info), method_(info->method()) {
      if (absl::EndsWith(method_, "/WatchEvents")) {
        absl::MutexLock lock(&channel_->mu_);
        channel_->streams_.insert(this);
      }
    }
    ~Interceptor() override {
      absl::MutexLock lock(&channel_->mu_);
      channel_->streams_.erase(this);
    }
    grpc::experimental::ClientRpcInfo* info() { return info_; }

    void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
      if (methods->QueryInterceptionHookPoint(
              grpc::experimental::InterceptionHookPoints::POST_RECV_STATUS)) {
        absl::MutexLock lock(&channel_->mu_);
        if (channel_->broken_ && absl::EndsWith(method_, "/WatchEvents")) {
          *methods->GetRecvStatus() = grpc::Status(grpc::StatusCode::CANCELLED, "coordinator stopped");
        } else if (channel_->broken_ && absl::EndsWith(method_, "/Heartbeat")) {
          *methods->GetRecvStatus() = grpc::Status(grpc::StatusCode::UNAVAILABLE, "Connection refused");
          ++channel_->failed_heartbeats_;
        }
      }
      methods->Proceed();
    }

   private:
    StoppingCoordinatorChannel* const channel_;
    grpc::experimental::ClientRpcInfo* const info_;
    const std::string method_;
  };

  absl::Mutex mu_;
  bool broken_ = false;
  absl::flat_hash_set<Interceptor*> streams_;
  int failed_heartbeats_ = 0;
};

// P12: the coordinator stops once the shutdown barrier passed, so its event
// stream may break (and a re-dial fail) before this process has read its own
// Shutdown reply; that reply, not the break, decides the shutdown.
TEST_F(ClientJobTest, EventStreamBreakingDuringShutdownLeavesTheReplyToDecide) {
  StartServer();
  StoppingCoordinatorChannel* breaker = nullptr;
  auto clients = ConnectSecondThrough(&breaker);
  std::unique_ptr<Client>& c0 = clients.first;
  std::unique_ptr<Client>& p1 = clients.second;

  auto shutdown = std::async(std::launch::async, [&] { return p1->Shutdown(); });
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (server_->parked_calls() < 1 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(5));
  ASSERT_EQ(server_->parked_calls(), 1) << "process 1's Shutdown never reached the barrier";
  breaker->Break();
  // A failed heartbeat: the re-dial after the break (without the fix) or a
  // tick's; the client had 200 ms more to (wrongly) give up on the shutdown.
  while (breaker->failed_heartbeats() < 1 && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(5));
  }
  ASSERT_GE(breaker->failed_heartbeats(), 1);
  ASSERT_EQ(shutdown.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
      << shutdown.get();
  EXPECT_THAT(c0->Shutdown(), IsOk());  // the barrier passes
  EXPECT_THAT(shutdown.get(), IsOk());
  EXPECT_THAT(p1->sticky_error(), IsOk());
}

// A channel that holds the first message of its event stream after the
// job's start (which connecting waits for) until the test releases it, as a
// slow stream would: replies on the channel's other calls overtake the
// events behind it.
class HeldEventStreamChannel : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    return new Interceptor(this, absl::EndsWith(info->method(), "/WatchEvents"));
  }

  bool WaitUntilHolding(absl::Duration timeout) {
    return holding_.WaitForNotificationWithTimeout(timeout);
  }
  void Release() { released_.Notify(); }

 private:
  class Interceptor : public grpc::experimental::Interceptor {
   public:
    Interceptor(HeldEventStreamChannel* channel, bool events) : channel_(channel), events_(events) {}

    void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
      if (events_ && methods->QueryInterceptionHookPoint(
                         grpc::experimental::InterceptionHookPoints::POST_RECV_MESSAGE)) {
        if (channel_->received_.fetch_add(1) == 1) {
          channel_->holding_.Notify();
          // Bounded: a test that never releases still ends.
          (void)channel_->released_.WaitForNotificationWithTimeout(absl::Seconds(10));
        }
      }
      methods->Proceed();
    }

   private:
    HeldEventStreamChannel* const channel_;
    const bool events_;
  };

  std::atomic<int> received_{0};  // messages of the event stream
  absl::Notification holding_;
  absl::Notification released_;
};

// The Shutdown reply can overtake the SHUTDOWN_STARTED event on the stream;
// the client reads the stream up to the version the reply names before it
// closes it, so the event is never lost (it was in about 2% of runs under
// load).
TEST_F(ClientJobTest, ShutdownWaitsForItsOwnShutdownStartedEvent) {
  server_config_.num_processes = 1;
  StartServer();
  HeldEventStreamChannel* stream = nullptr;
  ClientOptions options;
  options.channel = InterceptedChannel(AddressText(ClientConfig(0).coordinator_address), &stream);
  auto client = ::tessera::testing::Unwrap(Client::Connect(ClientConfig(0), std::move(options)));

  auto shutdown = std::async(std::launch::async, [&] { return client->Shutdown(); });
  ASSERT_TRUE(stream->WaitUntilHolding(absl::Seconds(10)))
      << "the SHUTDOWN_STARTED event never reached the stream";
  EXPECT_EQ(shutdown.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout)
      << "Shutdown returned before its events were read";
  stream->Release();
  EXPECT_THAT(shutdown.get(), IsOk());
  auto first = ::tessera::testing::Unwrap(client->NextEvent(absl::Seconds(5)));
  EXPECT_EQ(first.kind, ClientEvent::Kind::kTopologyChanged);
  auto second = ::tessera::testing::Unwrap(client->NextEvent(absl::Seconds(5)));
  EXPECT_EQ(second.kind, ClientEvent::Kind::kShutdownStarted);
}

// A process whose stream lags learns of the failure from a call's reply; the
// JOB_ERROR event it raises carries the reported code, as the stream's would,
// and the stream's own copy does not raise a second one.
TEST_F(ClientJobTest, JobErrorLearnedFromAReplyCarriesTheReportedCodeOnce) {
  StartServer();
  HeldEventStreamChannel* stream = nullptr;
  auto clients = ConnectSecondThrough(&stream);
  std::unique_ptr<Client>& reporter = clients.first;
  std::unique_ptr<Client>& lagging = clients.second;
  auto started = ::tessera::testing::Unwrap(lagging->NextEvent(absl::Seconds(5)));
  ASSERT_EQ(started.kind, ClientEvent::Kind::kTopologyChanged);

  ASSERT_THAT(reporter->ReportError(absl::StatusCode::kDataLoss, "checksum mismatch"), IsOk());
  ASSERT_TRUE(stream->WaitUntilHolding(absl::Seconds(10)))
      << "the JOB_ERROR event never reached the stream";
  EXPECT_THAT(lagging->KvSet("k", "v", false),
              StatusIs(absl::StatusCode::kAborted, HasSubstr("checksum mismatch")));
  auto from_reply = ::tessera::testing::Unwrap(lagging->NextEvent(absl::ZeroDuration()));
  EXPECT_EQ(from_reply.kind, ClientEvent::Kind::kJobError);
  EXPECT_EQ(from_reply.code, absl::StatusCode::kDataLoss);
  EXPECT_EQ(from_reply.process_id, 0);

  stream->Release();  // the stream's own JOB_ERROR
  std::vector<ClientEvent::Kind> later;
  for (auto event = lagging->NextEvent(absl::Seconds(2)); event.ok();
       event = lagging->NextEvent(absl::Milliseconds(500))) {
    later.push_back(event->kind);
  }
  EXPECT_EQ(later, std::vector<ClientEvent::Kind>{});
}

TEST_F(ClientJobTest, WrongTokenFailsAtOnceWithoutRetrying) {
  StartServer();
  ClusterConfig config = ClientConfig(0);
  config.job_token = "not-the-token";
  // An init timeout far above the test's budget: only a refusal without
  // retries returns UNAUTHENTICATED (retries would end in a timeout error).
  config.init_timeout = absl::Seconds(600);
  EXPECT_THAT(Client::Connect(config),
              StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("127.0.0.1")));
}

TEST_F(ClientJobTest, DeadHttpProxyInTheEnvironmentIsIgnored) {
  const std::string dead = absl::StrCat("http://127.0.0.1:", FreePort());
  ScopedEnv http("http_proxy", dead);
  ScopedEnv https("https_proxy", dead);
  ScopedEnv grpc_proxy("grpc_proxy", dead);
  StartServer();
  ConnectAll();
  EXPECT_THAT(client(0).KvSet("through", "direct", false), IsOk());
}

TEST_F(ClientJobTest, NothingListeningTimesOutSayingConnectionRefused) {
  ClusterConfig config;
  config.num_processes = 2;
  config.coordinator_address = HostPort{"127.0.0.1", FreePort()};
  config.init_timeout = absl::Milliseconds(800);
  EXPECT_THAT(Client::Connect(config),
              StatusIs(absl::StatusCode::kUnavailable,
                       ::testing::AllOf(HasSubstr(AddressText(config.coordinator_address)),
                                        HasSubstr("connection refused (coordinator not up yet"))));
}

TEST_F(ClientJobTest, SilentListenerTimesOutSayingNoResponse) {
  // Accepts TCP connections in the kernel but never speaks HTTP/2.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ClusterConfig config;
  config.num_processes = 2;
  config.coordinator_address = HostPort{"127.0.0.1", ntohs(address.sin_port)};
  config.init_timeout = absl::Milliseconds(800);
  const auto result = Client::Connect(config);
  close(fd);
  EXPECT_THAT(result, StatusIs(absl::StatusCode::kDeadlineExceeded,
                               HasSubstr("no response (firewall?")));
}

TEST_F(ClientJobTest, CoordinatorStartingLateStillSucceeds) {
  const int port = FreePort();
  server_config_.bind_address = HostPort{"127.0.0.1", port};
  std::vector<std::future<absl::StatusOr<std::unique_ptr<Client>>>> pending;
  for (int p = 0; p < 2; ++p) {
    pending.push_back(std::async(std::launch::async, [this, p, port] {
      ClusterConfig config = server_config_;
      config.process_id = p;
      config.coordinator_address = HostPort{"127.0.0.1", port};
      return Client::Connect(config);
    }));
  }
  absl::SleepFor(absl::Milliseconds(300));  // the clients are dialling a closed port
  StartServer();
  for (auto& f : pending) {
    auto client = f.get();
    ASSERT_THAT(client, IsOk());
    clients_.push_back(*std::move(client));
  }
}

// The threads of this process (Linux /proc/self/status).
int ThreadCount() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Threads:", 0) == 0) return std::stoi(line.substr(8));
  }
  return -1;
}

TEST_F(ClientJobTest, ManyClientsOnOneThreadAddNoThreadPerClient) {
  constexpr int kClients = 64;
  server_config_.num_processes = kClients;
  StartServer();
  ClientOptions shared;
  shared.channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                       grpc::InsecureChannelCredentials());
  // Warm-up: the shared scheduler and dispatcher threads and gRPC's pool.
  auto first = Client::Register(ClientConfig(0), ClientOptions{shared.channel});
  ASSERT_THAT(first, IsOk());
  const int threads_before = ThreadCount();
  clients_.push_back(*std::move(first));
  const auto devices = ::tessera::testing::Unwrap(LocalDevices({}));
  for (int p = 1; p < kClients; ++p) {
    ClientOptions options;
    options.channel = shared.channel;
    options.devices = devices;  // discovery once, not per client
    auto client = Client::Register(ClientConfig(p), std::move(options));
    ASSERT_THAT(client, IsOk()) << "process " << p;
    clients_.push_back(*std::move(client));
  }
  for (auto& client : clients_) ASSERT_THAT(client->WaitForJob(), IsOk());
  EXPECT_EQ(clients_[0]->fingerprint(), clients_[kClients - 1]->fingerprint());
  // gRPC may grow its executor a little; a thread per client would add 63.
  EXPECT_LT(ThreadCount() - threads_before, 16);
}

// Clients that share a channel share one event stream (EventHub); the
// first of them, whose header opened it, leaving must not end it for the rest.
TEST_F(ClientJobTest, SharedChannelEventsStillReachTheOthersAfterTheFirstClientLeaves) {
  constexpr int kClients = 3;
  server_config_.num_processes = kClients;
  StartServer();
  auto channel = grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                     grpc::InsecureChannelCredentials());
  std::vector<std::future<absl::StatusOr<std::unique_ptr<Client>>>> pending;
  for (int p = 0; p < kClients; ++p) {
    pending.push_back(std::async(std::launch::async, [this, p, channel] {
      ClientOptions options;
      options.channel = channel;
      return Client::Connect(ClientConfig(p), std::move(options));
    }));
  }
  for (auto& f : pending) clients_.push_back(::tessera::testing::Unwrap(f.get()));
  clients_[0].reset();
  ASSERT_THAT(client(2).ReportError(absl::StatusCode::kInternal, "rank 2 gave up"), IsOk());
  absl::StatusOr<ClientEvent> event = client(1).NextEvent(absl::Seconds(10));
  while (event.ok() && event->kind != ClientEvent::Kind::kJobError) {
    event = client(1).NextEvent(absl::Seconds(10));
  }
  ASSERT_THAT(event, IsOk());
  EXPECT_EQ(event->process_id, 2);
  EXPECT_THAT(event->message, HasSubstr("rank 2 gave up"));
}

// ---- asynchronous connect and barrier --------------------------------------

// What one asynchronous call delivered, waited for with a bound.
template <typename T>
class Delivered {
 public:
  Delivered() : future_(promise_.get_future()) {}
  // The callback to hand the call (copyable; runs once).
  std::function<void(T)> Callback() {
    auto promise = promise_holder_;
    return [promise](T value) { promise->set_value(std::move(value)); };
  }
  // The value, or nullopt after `timeout`.
  std::optional<T> Get(absl::Duration timeout) {
    if (future_.wait_for(absl::ToChronoSeconds(timeout)) != std::future_status::ready) {
      return std::nullopt;
    }
    return future_.get();
  }

 private:
  std::shared_ptr<std::promise<T>> promise_holder_ = std::make_shared<std::promise<T>>();
  std::promise<T>& promise_ = *promise_holder_;
  std::future<T> future_;
};

using ConnectResult = absl::StatusOr<std::unique_ptr<Client>>;

TEST_F(ClientJobTest, AsyncConnectAndBarrierOf64ClientsOnFourChannelsPass) {
  constexpr int kClients = 64;
  server_config_.num_processes = kClients;
  StartServer();
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  for (int c = 0; c < 4; ++c) {
    grpc::ChannelArguments args;
    args.SetInt("tessera.test.channel", c);  // distinct arguments: distinct connections
    channels.push_back(grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                                 grpc::InsecureChannelCredentials(), args));
  }
  const auto devices = ::tessera::testing::Unwrap(LocalDevices({}));
  std::vector<Delivered<ConnectResult>> connected(kClients);
  for (int p = 0; p < kClients; ++p) {
    ClientOptions options;
    options.channel = channels[static_cast<size_t>(p % 4)];
    options.devices = devices;
    Client::ConnectAsync(ClientConfig(p), std::move(options), connected[p].Callback());
  }
  for (int p = 0; p < kClients; ++p) {
    std::optional<ConnectResult> client = connected[p].Get(absl::Seconds(20));
    ASSERT_TRUE(client.has_value()) << "process " << p << " never called back";
    ASSERT_THAT(*client, IsOk()) << "process " << p;
    clients_.push_back(**std::move(client));
  }
  std::vector<Delivered<absl::Status>> passed(kClients);
  for (int p = 0; p < kClients; ++p) {
    client(p).BarrierAsync("first", absl::Seconds(10), {}, passed[p].Callback());
  }
  for (int p = 0; p < kClients; ++p) {
    EXPECT_THAT(passed[p].Get(absl::Seconds(20)), ::testing::Optional(IsOk())) << "process " << p;
  }
  EXPECT_EQ(client(0).fingerprint(), client(kClients - 1).fingerprint());
}

TEST_F(ClientJobTest, AsyncConnectWithoutACoordinatorReportsTheTimeoutToTheCallback) {
  ClusterConfig config;
  config.num_processes = 2;
  config.coordinator_address = HostPort{"127.0.0.1", FreePort()};
  config.init_timeout = absl::Milliseconds(800);
  Delivered<ConnectResult> result;
  Client::ConnectAsync(config, {}, result.Callback());
  EXPECT_THAT(result.Get(absl::Seconds(10)),
              ::testing::Optional(StatusIs(
                  absl::StatusCode::kUnavailable,
                  ::testing::AllOf(HasSubstr(AddressText(config.coordinator_address)),
                                   HasSubstr("connection refused (coordinator not up yet")))));
}

TEST_F(ClientJobTest, AsyncConnectReportsAnInvalidConfigToTheCallback) {
  ClusterConfig config;
  config.num_processes = 2;
  config.process_id = 5;
  config.coordinator_address = HostPort{"127.0.0.1", 1};
  Delivered<ConnectResult> result;
  Client::ConnectAsync(config, {}, result.Callback());
  EXPECT_THAT(result.Get(absl::Seconds(10)),
              ::testing::Optional(StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("process_id is 5; expected 0 <= id < 2"))));
}

TEST_F(ClientJobTest, AsyncConnectReportsAJobThatFailedBeforeItStarted) {
  server_config_.num_processes = 3;  // process 2 never comes: the job cannot start
  StartServer();
  Delivered<ConnectResult> first;
  Client::ConnectAsync(ClientConfig(0), {}, first.Callback());
  auto second = ::tessera::testing::Unwrap(Client::Register(ClientConfig(1)));
  ASSERT_THAT(second->ReportError(absl::StatusCode::kInternal, "no devices here"), IsOk());
  std::optional<ConnectResult> result = first.Get(absl::Seconds(10));
  ASSERT_TRUE(result.has_value());
  EXPECT_THAT(*result, StatusIs(absl::StatusCode::kAborted, HasSubstr("no devices here")));
  EXPECT_EQ(ReasonOf(result->status()), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
}

// Counts the calls of each method made through its channel.
class MethodCountingChannel : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    {
      absl::MutexLock lock(&mu_);
      ++calls_[info->method()];
    }
    return new PassThrough;
  }

  int Calls(absl::string_view method_suffix) {
    absl::MutexLock lock(&mu_);
    int total = 0;
    for (const auto& [method, count] : calls_) {
      if (absl::EndsWith(method, method_suffix)) total += count;
    }
    return total;
  }

 private:
  struct PassThrough : grpc::experimental::Interceptor {
    void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
      methods->Proceed();
    }
  };
  absl::Mutex mu_;
  std::map<std::string, int> calls_;
};

// 10,000 clients would park 10,000 WaitForJob calls: the job-start event on
// the stream they already watch tells them instead, with the fingerprint.
TEST_F(ClientJobTest, AsyncConnectLearnsTheJobsStartFromTheEventStreamWithoutWaitForJob) {
  StartServer();
  MethodCountingChannel* counting = nullptr;
  auto channel = InterceptedChannel(AddressText(ClientConfig(0).coordinator_address), &counting);
  std::vector<Delivered<ConnectResult>> connected(2);
  for (int p = 0; p < 2; ++p) {
    ClientOptions options;
    options.channel = channel;
    Client::ConnectAsync(ClientConfig(p), std::move(options), connected[p].Callback());
  }
  for (int p = 0; p < 2; ++p) {
    std::optional<ConnectResult> client = connected[p].Get(absl::Seconds(20));
    ASSERT_TRUE(client.has_value()) << "process " << p << " never called back";
    ASSERT_THAT(*client, IsOk()) << "process " << p;
    clients_.push_back(**std::move(client));
  }
  EXPECT_EQ(counting->Calls("/Register"), 2);
  EXPECT_EQ(counting->Calls("/WaitForJob"), 0);
  const uint64_t from_event = client(0).fingerprint();
  // The whole topology, fetched now (WaitForJob), has the same fingerprint.
  auto topology = ::tessera::testing::Unwrap(client(0).topology());
  EXPECT_NE(from_event, 0u);
  EXPECT_EQ(from_event, topology.fingerprint());
  EXPECT_EQ(client(1).fingerprint(), topology.fingerprint());
  EXPECT_EQ(client(0).generation(), 1);
}

// A channel whose event stream drops the topology's fingerprint from every
// event, as an older coordinator's events lack it; counts WaitForJob calls.
class FingerprintlessEventsChannel : public grpc::experimental::ClientInterceptorFactoryInterface {
 public:
  grpc::experimental::Interceptor* CreateClientInterceptor(
      grpc::experimental::ClientRpcInfo* info) override {
    if (absl::EndsWith(info->method(), "/WaitForJob")) ++wait_for_job_calls;
    return new Interceptor(absl::EndsWith(info->method(), "/WatchEvents"));
  }

  std::atomic<int> wait_for_job_calls{0};

 private:
  class Interceptor : public grpc::experimental::Interceptor {
   public:
    explicit Interceptor(bool events) : events_(events) {}
    void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
      if (events_ && methods->QueryInterceptionHookPoint(
                         grpc::experimental::InterceptionHookPoints::POST_RECV_MESSAGE)) {
        // Null for the read that finds the stream's end.
        if (auto* event = static_cast<v1::Event*>(methods->GetRecvMessage())) {
          event->clear_topology_fingerprint();
        }
      }
      methods->Proceed();
    }

   private:
    const bool events_;
  };
};

TEST_F(ClientJobTest, AsyncConnectAsksWaitForJobWhenTheJobStartEventLacksTheFingerprint) {
  StartServer();
  FingerprintlessEventsChannel* channel = nullptr;
  ClientOptions options;
  options.channel = InterceptedChannel(AddressText(ClientConfig(0).coordinator_address), &channel);
  Delivered<ConnectResult> connected;
  Client::ConnectAsync(ClientConfig(0), std::move(options), connected.Callback());
  auto other = ::tessera::testing::Unwrap(Client::Connect(ClientConfig(1)));
  std::optional<ConnectResult> client = connected.Get(absl::Seconds(10));
  ASSERT_TRUE(client.has_value()) << "never called back (it waits for the init deadline?)";
  ASSERT_THAT(*client, IsOk());
  EXPECT_EQ(channel->wait_for_job_calls.load(), 1);
  EXPECT_EQ((**client)->fingerprint(), other->fingerprint());
  EXPECT_NE(other->fingerprint(), 0u);
}

// Near the init deadline a client still waiting asks WaitForJob, whose
// answer names the processes that never came.
TEST_F(ClientJobTest, AsyncConnectOfAJobThatNeverFormsNamesTheMissingProcess) {
  StartServer();
  MethodCountingChannel* counting = nullptr;  // owned by the channel, kept past the client
  auto channel = InterceptedChannel(AddressText(ClientConfig(0).coordinator_address), &counting);
  ClientOptions options;
  options.channel = channel;
  ClusterConfig config = ClientConfig(0);
  config.init_timeout = absl::Seconds(1);  // the coordinator's stays 20 s
  Delivered<ConnectResult> result;
  Client::ConnectAsync(config, std::move(options), result.Callback());
  EXPECT_THAT(result.Get(absl::Seconds(10)),
              ::testing::Optional(StatusIs(
                  absl::StatusCode::kDeadlineExceeded,
                  ::testing::AllOf(HasSubstr("waiting for job 'job-client-test' to start timed out"),
                                   HasSubstr("1 of 2 processes never connected; were they "
                                             "launched? (process ids 1)")))));
  EXPECT_EQ(counting->Calls("/WaitForJob"), 1);
}

TEST_F(ClientJobTest, CancelAllEndsAWaitForTheJob) {
  StartServer();
  auto registered = ::tessera::testing::Unwrap(Client::Register(ClientConfig(0)));
  auto waiting = std::async(std::launch::async, [&] { return registered->WaitForJob(); });
  ASSERT_EQ(waiting.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
      << "WaitForJob returned before process 1 registered";
  // CancelAll reaches only waits in progress: again until this one ended
  // (under load the thread may not have begun waiting yet).
  for (int i = 0; i < 200; ++i) {
    registered->CancelAll();
    if (waiting.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready) break;
  }
  EXPECT_THAT(waiting.get(),
              StatusIs(absl::StatusCode::kCancelled,
                       HasSubstr("waiting for the job to start was cancelled (cancel_all)")));
}

// A registrant replaced by a newer incarnation of its process while the job
// formed is told so, not connected: the coordinator ends its stream instead
// of sending it the job's start.
TEST_F(ClientJobTest, AsyncConnectOfASupersededIncarnationReportsItWasSuperseded) {
  StartServer();
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  ClientOptions old_options;
  old_options.incarnation = 0x01d;
  old_options.host = LocalHostInfo();
  old_options.host->set_pid(child);  // exited: a restart may take its id
  Delivered<ConnectResult> old_result;
  Client::ConnectAsync(ClientConfig(0), std::move(old_options), old_result.Callback());
  // The restart registers once the coordinator holds the old incarnation.
  for (absl::Time until = absl::Now() + absl::Seconds(10);;) {
    auto job = ::tessera::testing::Unwrap(QueryJobState(ClientConfig(0), absl::Seconds(5)));
    if (job.tasks(0).state() == v1::TASK_STATE_PENDING) break;
    ASSERT_LT(absl::Now(), until) << "process 0 never registered";
    absl::SleepFor(absl::Milliseconds(20));
  }
  ClientOptions new_options;
  new_options.incarnation = 0x2e;
  auto restarted =
      ::tessera::testing::Unwrap(Client::Register(ClientConfig(0), std::move(new_options)));
  auto other = ::tessera::testing::Unwrap(Client::Connect(ClientConfig(1)));
  std::optional<ConnectResult> old = old_result.Get(absl::Seconds(10));
  ASSERT_TRUE(old.has_value()) << "the superseded incarnation never called back";
  EXPECT_THAT(*old, StatusIs(absl::StatusCode::kAborted, HasSubstr("was superseded")));
  EXPECT_EQ(ReasonOf(old->status()), v1::CoordinatorErrorDetail::REASON_SUPERSEDED);
  EXPECT_THAT(restarted->WaitForJob(), IsOk());
}

TEST_F(ClientJobTest, AsyncBarrierReportsTheJobFailure) {
  StartServer();
  ConnectAll();
  Delivered<absl::Status> waiting;
  client(0).BarrierAsync("never", absl::Seconds(10), {}, waiting.Callback());
  ASSERT_THAT(client(1).ReportError(absl::StatusCode::kInternal, "disk full"), IsOk());
  std::optional<absl::Status> status = waiting.Get(absl::Seconds(10));
  ASSERT_TRUE(status.has_value());
  EXPECT_THAT(*status, StatusIs(absl::StatusCode::kAborted, HasSubstr("disk full")));
  EXPECT_EQ(ReasonOf(*status), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
}

TEST_F(ClientJobTest, AsyncBarrierAlreadyInProgressIsFailedPrecondition) {
  StartServer();
  ConnectAll();
  Delivered<absl::Status> first;
  Delivered<absl::Status> second;
  client(0).BarrierAsync("b", absl::Seconds(10), {}, first.Callback());
  client(0).BarrierAsync("b", absl::Seconds(10), {}, second.Callback());
  EXPECT_THAT(second.Get(absl::Seconds(10)),
              ::testing::Optional(StatusIs(absl::StatusCode::kFailedPrecondition,
                                           HasSubstr("barrier 'b#0' is already in progress"))));
  ASSERT_THAT(client(1).Barrier("b", absl::Seconds(10), {}), IsOk());
  EXPECT_THAT(first.Get(absl::Seconds(10)), ::testing::Optional(IsOk()));
}

TEST_F(ClientJobTest, AsyncBarrierOfADestroyedClientEndsCancelledBeforeTheDestructorReturns) {
  StartServer();
  ConnectAll();
  Delivered<absl::Status> waiting;
  client(0).BarrierAsync("never", absl::Seconds(10), {}, waiting.Callback());
  clients_[0].reset();
  EXPECT_THAT(waiting.Get(absl::ZeroDuration()),
              ::testing::Optional(StatusIs(absl::StatusCode::kCancelled, ::testing::_)));
}

// ---- local devices -------------------------------------------------------------

TEST(LocalDevicesTest, LauncherLocalRankIdsAreIgnoredOnACpuOnlyHost) {
  ::tessera::testing::ScopedEnv devices("TESSERA_DEVICES", std::nullopt);
  ::tessera::testing::ScopedEnv cpus("TESSERA_CPU_DEVICE_COUNT", "2");
  const std::vector<int64_t> rank3 = {3};
  const auto all = ::tessera::testing::Unwrap(LocalDevices(rank3, /*accelerators_only=*/true));
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].local_ordinal(), 1);
  EXPECT_EQ(all[1].platform(), "cpu");
}

TEST(LocalDevicesTest, UserGivenIdsOutOfRangeOnACpuOnlyHostAreInvalid) {
  ::tessera::testing::ScopedEnv devices("TESSERA_DEVICES", std::nullopt);
  ::tessera::testing::ScopedEnv cpus("TESSERA_CPU_DEVICE_COUNT", "2");
  const std::vector<int64_t> rank3 = {3};
  EXPECT_THAT(LocalDevices(rank3, /*accelerators_only=*/false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "local_device_ids[0] is 3; expected 0 <= id < 2 (the number of local devices found)"));
}

TEST(LocalDevicesTest, LauncherIdsPickAcceleratorsWhenTheHostHasThem) {
  ::tessera::testing::ScopedEnv devices("TESSERA_DEVICES", "gpu*4:Test GPU");
  const std::vector<int64_t> rank2 = {2};
  const auto picked = ::tessera::testing::Unwrap(LocalDevices(rank2, /*accelerators_only=*/true));
  ASSERT_EQ(picked.size(), 1u);
  EXPECT_EQ(picked[0].platform(), "gpu");
  EXPECT_EQ(picked[0].local_ordinal(), 0);
}

// ---- initialize() ------------------------------------------------------------

TEST(InitializeTest, SingleProcessConnectsNowhereAndRestoresOnDestroy) {
  ::tessera::testing::ScopedCpuDevices devices(2);
  ClusterOptions options;
  options.detection = "none";
  auto client = Initialize(options);
  ASSERT_THAT(client, IsOk());
  EXPECT_TRUE(IsInitialized());
  EXPECT_EQ((*client)->coordinator_address(), "");
  EXPECT_THAT(Initialize(options),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("already")));
  client->reset();
  EXPECT_FALSE(IsInitialized());
}

TEST(InitializeTest, ProcessZeroHostsTheCoordinatorAndInstallsTheJobsDevices) {
  ::tessera::testing::ScopedCpuDevices devices(2);
  const int port = FreePort();
  ClusterOptions options;
  options.detection = "none";
  options.coordinator_address = HostPort{"127.0.0.1", port};
  options.bind_address = HostPort{"127.0.0.1", port};
  options.num_processes = 2;
  options.process_id = 0;
  options.job_id = kJob;
  options.heartbeat_interval = absl::Milliseconds(100);
  options.heartbeat_timeout = absl::Seconds(2);
  options.init_timeout = absl::Seconds(20);
  options.shutdown_timeout = absl::Seconds(5);
  auto other = std::async(std::launch::async, [&] {
    ClusterOptions mine = options;
    mine.process_id = 1;
    return Client::Connect(::tessera::testing::Unwrap(ResolveConfig(mine)));
  });
  auto client = Initialize(options);
  ASSERT_THAT(client, IsOk());
  auto peer = other.get();
  ASSERT_THAT(peer, IsOk());
  EXPECT_EQ(RuntimeProcessInfo().num_processes, 2);
  auto list = ::tessera::testing::Unwrap(ListDevices(""));
  ASSERT_EQ(list.size(), 4u);
  EXPECT_EQ(list[2].process_index, 1);
  auto peer_shutdown = std::async(std::launch::async, [&] { return (*peer)->Shutdown(); });
  EXPECT_THAT((*client)->Shutdown(), IsOk());
  EXPECT_THAT(peer_shutdown.get(), IsOk());
  client->reset();
  EXPECT_EQ(RuntimeProcessInfo().num_processes, 1);
  EXPECT_EQ(::tessera::testing::Unwrap(ListDevices("")).size(), 2u);
}

// Issue 15: an `expected` larger than any value the coordinator stores
// cannot match, so the answer is "not swapped" and the current value, as in
// a single process, without sending a request over the coordinator's size
// limit (2 MiB here, against an 8-byte limit, would be refused by gRPC).
TEST_F(ClientJobTest, CompareAndSwapExpectingAValueOverTheLimitIsNotSwappedAndAnswersTheCurrentValue) {
  server_config_.max_value_bytes = 8;
  StartServer();
  ConnectAll();
  ASSERT_THAT(client(0).KvSet("k", "12345678", false), IsOk());
  const std::string huge(2 << 20, 'x');
  auto present = ::tessera::testing::Unwrap(client(1).KvCompareAndSwap("k", huge, "new"));
  EXPECT_FALSE(present.swapped);
  EXPECT_EQ(present.current, std::optional<std::string>("12345678"));
  auto absent = ::tessera::testing::Unwrap(client(1).KvCompareAndSwap("absent", huge, "new"));
  EXPECT_FALSE(absent.swapped);
  EXPECT_EQ(absent.current, std::nullopt);
  EXPECT_THAT(client(1).KvTryGet("k"), IsOk());
}

}  // namespace
}  // namespace tessera::cluster
