// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator service over real gRPC on 127.0.0.1: clients are the raw
// generated stub, so these tests pin the wire behaviour the client library and
// every binding rely on (codes, messages, error details, auth, TLS, bind).
#include <grpcpp/grpcpp.h>

#include <unistd.h>

#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <sstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cluster/auth.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/error_detail.h"
#include "tessera/v1/coordinator.grpc.pb.h"
#include "tests/core/cluster_coordinator_testing.h"
#include "tests/core/coordinator_tls_files.h"
#include "tests/core/testing.h"

namespace tessera::cluster {
namespace {

using ::tessera::testing::IsOk;
using ::tessera::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(CoordinatorServerTest, TwoProcessesRegisterAndGetOneTopology) {
  Start();
  ASSERT_THAT(Register(0, {"cpu", "cpu"}), IsOk());
  ASSERT_THAT(Register(1, {"cpu", "cpu"}), IsOk());
  v1::GlobalTopology t0, t1;
  ASSERT_THAT(WaitForJob(0, &t0), IsOk());
  ASSERT_THAT(WaitForJob(1, &t1), IsOk());
  ASSERT_EQ(t0.devices_size(), 4);
  EXPECT_EQ(t0.devices(2).global_id(), 2);
  EXPECT_EQ(t0.devices(2).process_id(), 1);
  EXPECT_EQ(t0.devices(2).local().local_ordinal(), 0);
  EXPECT_EQ(t0.generation(), 1);
  EXPECT_NE(t0.fingerprint(), 0u);
  EXPECT_EQ(t0.fingerprint(), t1.fingerprint());
}

TEST_F(CoordinatorServerTest, WaitForJobOmittingDevicesCarriesTheFingerprintOnly) {
  Start();
  ASSERT_THAT(Register(0, {"cpu", "cpu"}), IsOk());
  ASSERT_THAT(Register(1, {"cpu", "cpu"}), IsOk());
  v1::WaitForJobRequest request;
  *request.mutable_header() = Header(1);
  request.set_timeout_ms(10000);
  request.set_omit_devices(true);
  v1::GlobalTopology summary, full;
  ASSERT_THAT(Call(&Stub::WaitForJob, request, &summary), IsOk());
  ASSERT_THAT(WaitForJob(0, &full), IsOk());  // the shared bytes stay the whole topology
  EXPECT_EQ(summary.devices_size(), 0);
  EXPECT_EQ(summary.hosts_size(), 0);
  EXPECT_EQ(summary.generation(), 1);
  EXPECT_EQ(summary.fingerprint(), full.fingerprint());
  EXPECT_EQ(full.devices_size(), 4);
}

TEST_F(CoordinatorServerTest, WaitForJobBlocksUntilTheLastProcessRegisters) {
  Start();
  StubFor(1);  // before the waiter starts: StubFor grows stubs_, which it reads
  ASSERT_THAT(Register(0), IsOk());
  v1::GlobalTopology topology;
  auto waiting = std::async(std::launch::async, [&] { return WaitForJob(0, &topology); });
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  ASSERT_THAT(Register(1), IsOk());
  EXPECT_THAT(waiting.get(), IsOk());
  EXPECT_EQ(topology.hosts_size(), 2);
}

TEST_F(CoordinatorServerTest, ConcurrentJoinersAllReceiveTheWholeTopology) {
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE(round);
    shared_connection_ = round % 2 == 1;  // also two calls on one connection
    if (server_ != nullptr) server_->Stop();
    server_.reset();
    stubs_.clear();
    Start();
    std::vector<v1::GlobalTopology> topologies(2);
    // Both stubs before the threads start: StubFor grows stubs_, which they share.
    for (int p = 0; p < 2; ++p) StubFor(p);
    std::vector<std::future<absl::Status>> joins;
    for (int p = 0; p < 2; ++p) {
      joins.push_back(std::async(std::launch::async, [&, p] {
        absl::Status s = Register(p);
        return s.ok() ? WaitForJob(p, &topologies[p]) : s;
      }));
    }
    for (auto& j : joins) ASSERT_THAT(j.get(), IsOk());
    EXPECT_EQ(topologies[0].devices_size(), 2);
    EXPECT_EQ(topologies[1].devices_size(), 2);
    EXPECT_NE(topologies[0].fingerprint(), 0u);
    EXPECT_EQ(topologies[0].fingerprint(), topologies[1].fingerprint());
  }
}

TEST_F(CoordinatorServerTest, WrongJobIdIsFailedPreconditionNamingBothIds) {
  Start();
  v1::RegisterRequest request = RegisterRequest(0);
  request.mutable_header()->set_job_id("other-job");
  // The credential binds the job id too, so a token shared by two jobs still
  // keeps them apart; the caller is told its job is the wrong one (issue 15),
  // with the same token, with this job's credential, or with none.
  for (const std::string& credential :
       {JobCredential(kToken, "other-job"), JobCredential(kToken, kJobId), std::string()}) {
    absl::Status status =
        Call(&Stub::Register, request, std::make_unique<v1::RegisterResponse>().get(), credential);
    EXPECT_THAT(status, StatusIs(absl::StatusCode::kFailedPrecondition,
                                 HasSubstr("serves job 'job-1', but process 0 belongs to job "
                                           "'other-job'")));
    EXPECT_EQ(DetailOf(status)->reason(), v1::CoordinatorErrorDetail::REASON_WRONG_JOB);
  }
}

TEST_F(CoordinatorServerTest, WrongTokenIsUnauthenticatedOnEveryCall) {
  Start();
  ASSERT_THAT(Register(0), IsOk());
  const std::string wrong = JobCredential("not-the-token", kJobId);
  v1::RegisterResponse registered;
  EXPECT_THAT(Call(&Stub::Register, RegisterRequest(1), &registered, wrong),
              StatusIs(absl::StatusCode::kUnauthenticated,
                       HasSubstr("job token rejected by coordinator at")));
  v1::KvGetRequest get;
  *get.mutable_header() = Header(0);
  get.set_key("k");
  v1::KvEntry entry;
  EXPECT_THAT(Call(&Stub::KvGet, get, &entry, wrong),
              StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("(job 'job-1')")));
  v1::BarrierRequest barrier = BarrierRequest(0, "b", 0, 1000);
  v1::BarrierResponse passed;
  EXPECT_THAT(Call(&Stub::Barrier, barrier, &passed, ""),
              StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("job token rejected")));
  absl::Status watch = FirstEventStatus(0, wrong);
  EXPECT_THAT(watch, StatusIs(absl::StatusCode::kUnauthenticated, HasSubstr("job token")));
  EXPECT_EQ(DetailOf(watch)->reason(), v1::CoordinatorErrorDetail::REASON_AUTHENTICATION);
}

TEST_F(CoordinatorServerTest, BlockingKvGetWakesWhenTheKeyIsSet) {
  Start();
  RegisterAll();
  v1::KvEntry entry;
  auto waiting = std::async(std::launch::async, [&] { return KvGet(1, "a/b", &entry, 5000); });
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  ASSERT_THAT(KvSet(0, "a/b", "value"), IsOk());
  EXPECT_THAT(waiting.get(), IsOk());
  EXPECT_EQ(entry.value(), "value");
  EXPECT_EQ(entry.key(), "a/b");
}

TEST_F(CoordinatorServerTest, BarrierPassesWhenEveryProcessArrives) {
  Start();
  RegisterAll();
  auto first = std::async(std::launch::async, [&] { return Barrier(0, "step", 0, 5000); });
  EXPECT_EQ(first.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  EXPECT_THAT(Barrier(1, "step", 0, 5000), IsOk());
  EXPECT_THAT(first.get(), IsOk());
}

TEST_F(CoordinatorServerTest, HeartbeatLossFailsTheJobAndReleasesAParkedBarrier) {
  config_.heartbeat_interval = absl::Milliseconds(50);
  config_.heartbeat_timeout = absl::Milliseconds(200);
  Start();
  RegisterAll();
  // Process 0 keeps heartbeating while it waits; process 1 goes silent.
  std::atomic<bool> waiting{true};
  std::thread beats([&] {
    while (waiting) {
      v1::HeartbeatRequest request;
      *request.mutable_header() = Header(0);
      v1::HeartbeatResponse response;
      (void)Call(&Stub::Heartbeat, request, &response);
      std::this_thread::sleep_for(std::chrono::milliseconds(40));
    }
  });
  absl::Status status = Barrier(0, "step", 0, 10000);
  waiting = false;
  beats.join();
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kAborted,
                               HasSubstr("process 1 (host host-1, pid 101) sent no heartbeat")));
  ASSERT_TRUE(DetailOf(status).has_value());
  EXPECT_EQ(DetailOf(status)->reason(), v1::CoordinatorErrorDetail::REASON_JOB_FAILED);
  EXPECT_EQ(DetailOf(status)->source_process_id(), 1);
}

TEST_F(CoordinatorServerTest, ServerEndsWhenEveryProcessShutsDown) {
  Start();
  RegisterAll();
  auto first = std::async(std::launch::async, [&] { return Shutdown(0, 5000); });
  EXPECT_THAT(server_->Wait(absl::Milliseconds(50)),
              StatusIs(absl::StatusCode::kDeadlineExceeded, HasSubstr("still running")));
  EXPECT_THAT(Shutdown(1, 5000), IsOk());
  EXPECT_THAT(first.get(), IsOk());
  EXPECT_THAT(server_->Wait(absl::Seconds(5)), IsOk());
  EXPECT_THAT(server_->JobStatus(), IsOk());
}

TEST_F(CoordinatorServerTest, BindingAUsedPortNamesAddressAndErrno) {
  Start();
  ClusterConfig second = config_;
  second.bind_address = HostPort{"127.0.0.1", server_->port()};
  EXPECT_THAT(CoordinatorServer::Start(second).status(),
              StatusIs(absl::StatusCode::kUnavailable,
                       absl::StrCat("bind 127.0.0.1:", server_->port(),
                                    ": Address already in use (EADDRINUSE)")));
}

TEST_F(CoordinatorServerTest, RequireAuthWithoutTokenRefusesToStart) {
  config_.job_token.clear();
  config_.require_auth = true;
  EXPECT_THAT(CoordinatorServer::Start(config_).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("require_auth")));
}


// --- Events -------------------------------------------------------------------

TEST_F(CoordinatorServerTest, WatchEventsStreamsTheStartAndResumesByVersion) {
  Start();
  RegisterAll();
  v1::Event first;
  ASSERT_THAT(FirstEventStatus(0, JobCredential(kToken, kJobId), &first), IsOk());
  EXPECT_EQ(first.topology_generation(), 1);
  // Resuming after that version waits for the next event: the shutdown.
  auto next = std::async(std::launch::async, [&] {
    v1::Event event;
    absl::Status status = FirstEventStatus(1, JobCredential(kToken, kJobId), &event,
                                           first.version());
    return std::make_pair(status, event);
  });
  EXPECT_EQ(next.wait_for(std::chrono::milliseconds(50)), std::future_status::timeout);
  auto shutdown = std::async(std::launch::async, [&] { return Shutdown(0, 5000); });
  auto [status, event] = next.get();
  EXPECT_THAT(status, IsOk());
  EXPECT_TRUE(event.shutdown_started());
  EXPECT_GT(event.version(), first.version());
  EXPECT_THAT(Shutdown(1, 5000), IsOk());
  EXPECT_THAT(shutdown.get(), IsOk());
}

// Each Shutdown reply names how far the event log reached when the shutdown
// completed, so a client reads its stream through the shutdown's own events.
TEST_F(CoordinatorServerTest, ShutdownRepliesNameTheVersionOfTheShutdownStartedEvent) {
  Start();
  RegisterAll();
  v1::Event topology;
  ASSERT_THAT(FirstEventStatus(0, JobCredential(kToken, kJobId), &topology), IsOk());
  v1::ShutdownResponse reply0;
  v1::ShutdownResponse reply1;
  auto first = std::async(std::launch::async, [&] { return Shutdown(0, 5000, &reply0); });
  EXPECT_THAT(Shutdown(1, 5000, &reply1), IsOk());
  EXPECT_THAT(first.get(), IsOk());
  v1::Event started;
  ASSERT_THAT(FirstEventStatus(0, JobCredential(kToken, kJobId), &started, topology.version()),
              IsOk());
  ASSERT_TRUE(started.shutdown_started());
  EXPECT_EQ(started.version(), topology.version() + 1);
  EXPECT_EQ(reply0.events_version(), started.version());
  EXPECT_EQ(reply1.events_version(), started.version());
}

TEST_F(CoordinatorServerTest, StopEndsOpenStreamsAndCancelsParkedCalls) {
  Start();
  RegisterAll();
  auto stream = std::async(std::launch::async, [&] {
    return FirstEventStatus(0, JobCredential(kToken, kJobId), nullptr, /*after_version=*/1000);
  });
  auto barrier = std::async(std::launch::async, [&] { return Barrier(1, "never", 0, 60000); });
  EXPECT_EQ(barrier.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  server_->Stop();
  EXPECT_THAT(stream.get(), StatusIs(absl::StatusCode::kCancelled, ::testing::_));
  EXPECT_THAT(barrier.get(), StatusIs(absl::StatusCode::kCancelled, HasSubstr("stopped")));
}

// --- Cancelled calls -------------------------------------------------------------

// Polls `parked_calls` (bounded: 5 s in 5 ms steps) until it equals `want`.
bool ParkedCallsReach(const CoordinatorServer& server, int64_t want) {
  for (int i = 0; i < 1000; ++i) {
    if (server.parked_calls() == want) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return server.parked_calls() == want;
}

TEST_F(CoordinatorServerTest, ACancelledBlockingGetLeavesTheServerAtOnce) {
  config_.max_pending_calls = 1;
  Start();
  RegisterAll();
  v1::KvGetRequest request;
  *request.mutable_header() = Header(0);
  request.set_key("never");
  request.set_wait(true);
  request.set_timeout_ms(60000);  // far beyond the test: only the cancel can release it
  grpc::ClientContext context;
  context.AddMetadata(kAuthMetadataKey, JobCredential(kToken, kJobId));
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  v1::KvEntry entry;
  auto parked = std::async(std::launch::async, [&] {
    return FromGrpcStatus(StubFor(0).KvGet(&context, request, &entry));
  });
  ASSERT_TRUE(ParkedCallsReach(*server_, 1));
  context.TryCancel();
  EXPECT_THAT(parked.get(), StatusIs(absl::StatusCode::kCancelled, ::testing::_));
  ASSERT_TRUE(ParkedCallsReach(*server_, 0));
  // The only slot is free again: a new blocking get is admitted and answered.
  v1::KvEntry later;
  auto admitted = std::async(std::launch::async, [&] { return KvGet(1, "never", &later, 10000); });
  ASSERT_TRUE(ParkedCallsReach(*server_, 1));
  ASSERT_THAT(KvSet(0, "never", "set"), IsOk());
  EXPECT_THAT(admitted.get(), IsOk());
  EXPECT_EQ(later.value(), "set");
  EXPECT_EQ(server_->parked_calls(), 0);
}

TEST_F(CoordinatorServerTest, ABarrierCallPastItsClientDeadlineNoLongerCountsAsArrived) {
  Start();
  RegisterAll();
  grpc::ClientContext context;  // the client gives up after 200 ms; the barrier allows 60 s
  context.AddMetadata(kAuthMetadataKey, JobCredential(kToken, kJobId));
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
  v1::BarrierResponse response;
  EXPECT_THAT(FromGrpcStatus(StubFor(0).Barrier(&context, BarrierRequest(0, "b", 0, 60000),
                                                &response)),
              StatusIs(absl::StatusCode::kDeadlineExceeded, ::testing::_));
  ASSERT_TRUE(ParkedCallsReach(*server_, 0));
  // Process 0 left, so process 1 alone cannot pass; both then meet again.
  auto second = std::async(std::launch::async, [&] { return Barrier(1, "b", 0, 60000); });
  EXPECT_EQ(second.wait_for(std::chrono::milliseconds(100)), std::future_status::timeout);
  EXPECT_THAT(Barrier(0, "b", 0, 60000), IsOk());
  EXPECT_THAT(second.get(), IsOk());
}

// --- TLS ----------------------------------------------------------------------

class CoordinatorTlsTest : public CoordinatorServerTest {
 protected:
  CoordinatorTlsTest() {
    config_.tls.cert_file = TlsFile("server.pem");
    config_.tls.key_file = TlsFile("server.key");
    config_.tls.ca_file = TlsFile("ca.pem");
  }

  // Registers process 0 over a channel with `credentials`.
  absl::Status RegisterWith(std::shared_ptr<grpc::ChannelCredentials> credentials) {
    grpc::ChannelArguments args;
    args.SetSslTargetNameOverride("localhost");
    args.SetInt("grpc.use_local_subchannel_pool", 1);
    auto stub = v1::Coordinator::NewStub(grpc::CreateCustomChannel(Target(), credentials, args));
    grpc::ClientContext context;
    context.AddMetadata(kAuthMetadataKey, JobCredential(kToken, kJobId));
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::RegisterResponse response;
    return FromGrpcStatus(stub->Register(&context, RegisterRequest(0), &response));
  }

  std::shared_ptr<grpc::ChannelCredentials> Tls(const std::string& ca,
                                                const std::string& client = "") {
    grpc::SslCredentialsOptions options;
    options.pem_root_certs = Pem(ca);
    if (!client.empty()) {
      options.pem_cert_chain = Pem(client + ".pem");
      options.pem_private_key = Pem(client + ".key");
    }
    return grpc::SslCredentials(options);
  }
};

TEST_F(CoordinatorTlsTest, ClientTrustingTheCaRegisters) {
  Start();
  EXPECT_THAT(RegisterWith(Tls("ca.pem")), IsOk());
}

TEST_F(CoordinatorTlsTest, ClientTrustingAnotherCaIsRefused) {
  Start();
  EXPECT_THAT(RegisterWith(Tls("other_ca.pem")), StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
}

TEST_F(CoordinatorTlsTest, PlaintextClientGetsAnErrorNotAHang) {
  Start();
  EXPECT_THAT(RegisterWith(grpc::InsecureChannelCredentials()),
              StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
}

TEST_F(CoordinatorTlsTest, MutualTlsAcceptsAClientCertificateUnderTheUriPrefix) {
  config_.tls.require_client_cert = true;
  config_.tls.peer_uri_prefix = "spiffe://example.org/";
  Start();
  EXPECT_THAT(RegisterWith(Tls("ca.pem", "client")), IsOk());
}

TEST_F(CoordinatorTlsTest, MutualTlsRejectsALookAlikeUriPrefix) {
  config_.tls.require_client_cert = true;
  config_.tls.peer_uri_prefix = "spiffe://example.org/";
  Start();
  // "spiffe://example.org.evil/..." shares the prefix without the slash.
  absl::Status status = RegisterWith(Tls("ca.pem", "evil_client"));
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kUnauthenticated,
                               HasSubstr("the client certificate has no URI SAN starting with "
                                         "'spiffe://example.org/'")));
}

TEST_F(CoordinatorTlsTest, MutualTlsRefusesAClientWithoutCertificate) {
  config_.tls.require_client_cert = true;
  Start();
  EXPECT_THAT(RegisterWith(Tls("ca.pem")), StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
}

TEST_F(CoordinatorTlsTest, UnreadableCertificateFileIsInvalidArgument) {
  config_.tls.cert_file = TlsFile("missing.pem");
  EXPECT_THAT(CoordinatorServer::Start(config_).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("cannot read tls_cert_file '")));
}

// gen.sh made expired_server.pem with this notAfter (a day before its
// notBefore); regenerating the files means updating it.
constexpr char kExpiredNotAfter[] = "Nov 29 08:53:18 2026 GMT";

TEST_F(CoordinatorTlsTest, ExpiredCertificateRefusesToStartNamingTheFileAndDate) {
  config_.tls.cert_file = TlsFile("expired_server.pem");
  EXPECT_THAT(CoordinatorServer::Start(config_).status(),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       absl::StrCat("coordinator: the certificate in tls_cert_file '",
                                    TlsFile("expired_server.pem"), "' expired on ",
                                    kExpiredNotAfter, " (notAfter)")));
}

TEST_F(CoordinatorTlsTest, KeyOfAnotherCertificateRefusesToStart) {
  config_.tls.key_file = TlsFile("client.key");
  EXPECT_THAT(CoordinatorServer::Start(config_).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("coordinator: the key in tls_key_file '", TlsFile("client.key"),
                                    "' does not match the certificate in tls_cert_file '",
                                    TlsFile("server.pem"), "'")));
}

// A directory of copies the test may replace, removed afterwards.
class ScopedTlsCopies {
 public:
  ScopedTlsCopies() {
    char pattern[] = "/tmp/tessera-tls-XXXXXX";
    dir_ = mkdtemp(pattern) != nullptr ? pattern : "";
  }
  ~ScopedTlsCopies() {
    for (const std::string& name : written_) std::remove(Path(name).c_str());
    rmdir(dir_.c_str());
  }
  std::string Path(const std::string& name) const { return absl::StrCat(dir_, "/", name); }
  // Writes `name` as a copy of testdata file `source`, by rename as a
  // rotation should, so a reload never reads half a file.
  void Put(const std::string& name, const std::string& source) {
    const std::string staged = Path(name + ".new");
    std::ofstream(staged, std::ios::binary) << Pem(source);
    ASSERT_EQ(std::rename(staged.c_str(), Path(name).c_str()), 0) << name;
    written_.push_back(name);
  }

 private:
  std::string dir_;
  std::vector<std::string> written_;
};

TEST_F(CoordinatorTlsTest, ReplacedCertificateIsServedAfterTheReloadInterval) {
  ScopedTlsCopies files;
  files.Put("key.pem", "server.key");
  files.Put("cert.pem", "server.pem");
  config_.tls.cert_file = files.Path("cert.pem");
  config_.tls.key_file = files.Path("key.pem");
  config_.tls.reload_interval = absl::Seconds(1);
  Start();
  ASSERT_THAT(RegisterWith(Tls("ca.pem")), IsOk());
  // Rotation to a certificate from another CA: key first, then certificate.
  files.Put("key.pem", "other_server.key");
  files.Put("cert.pem", "other_server.pem");
  // gRPC re-reads once a second; 20 tries 100 ms apart bound the wait.
  absl::Status trusting_new_ca = absl::UnknownError("not tried");
  for (int attempt = 0; attempt < 20 && !trusting_new_ca.ok(); ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    trusting_new_ca = RegisterWith(Tls("other_ca.pem"));
  }
  EXPECT_THAT(trusting_new_ca, IsOk());
  EXPECT_THAT(RegisterWith(Tls("ca.pem")), StatusIs(absl::StatusCode::kUnavailable, ::testing::_));
}

// ---- issue 15: the coordinator's own checks, for clients that skip theirs ----

// The wire's keys are bytes, so a key that is not UTF-8 (from a client that
// does not check) reaches the coordinator, which refuses it on every key-value
// call with INVALID_ARGUMENT naming it, instead of a parse failure.
TEST_F(CoordinatorServerTest, KeyThatIsNotUtf8IsInvalidArgumentOnEveryKvCall) {
  Start();
  RegisterAll();
  const std::string bad = "\xff\xfe" "A";
  const std::string message = "Argument 'key' is \"\\xff\\xfeA\", which is not UTF-8 text; expected valid UTF-8";
  EXPECT_THAT(KvSet(0, bad, "v"), StatusIs(absl::StatusCode::kInvalidArgument, message));
  v1::KvEntry entry;
  EXPECT_THAT(KvGet(0, bad, &entry), StatusIs(absl::StatusCode::kInvalidArgument, message));
  // The other calls with `bad` as the key of a `request` of their own type.
  auto with_bad_key = [&](auto method, auto request, auto response) {
    *request.mutable_header() = Header(0);
    request.set_key(bad);
    return Call(method, request, &response);
  };
  EXPECT_THAT(with_bad_key(&Stub::KvDelete, v1::KvDeleteRequest(), v1::KvDeleteResponse()),
              StatusIs(absl::StatusCode::kInvalidArgument, message));
  EXPECT_THAT(with_bad_key(&Stub::KvIncrement, v1::KvIncrementRequest(), v1::KvIncrementResponse()),
              StatusIs(absl::StatusCode::kInvalidArgument, message));
  EXPECT_THAT(with_bad_key(&Stub::KvCompareAndSwap, v1::KvCasRequest(), v1::KvCasResponse()),
              StatusIs(absl::StatusCode::kInvalidArgument, message));
  v1::KvListRequest list;
  *list.mutable_header() = Header(0);
  list.set_prefix(bad);
  v1::KvListResponse listed;
  EXPECT_THAT(Call(&Stub::KvList, list, &listed),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Argument 'prefix' is \"\\xff\\xfeA\", which is not UTF-8 text; expected valid UTF-8"));
  ASSERT_THAT(KvSet(0, "ok", "v"), IsOk());  // the job goes on
}

// A barrier id that is not UTF-8 is refused as a key is, for a barrier and
// for its cancellation.
TEST_F(CoordinatorServerTest, BarrierIdThatIsNotUtf8IsInvalidArgument) {
  Start();
  RegisterAll();
  const std::string message =
      "Argument 'barrier_id' is \"b\\xff\", which is not UTF-8 text; expected valid UTF-8";
  EXPECT_THAT(Barrier(0, "b\xff", 0, 1000), StatusIs(absl::StatusCode::kInvalidArgument, message));
  v1::CancelBarrierRequest cancel;
  *cancel.mutable_header() = Header(0);
  cancel.set_barrier_id("b\xff");
  v1::CancelBarrierResponse cancelled;
  EXPECT_THAT(Call(&Stub::CancelBarrier, cancel, &cancelled), StatusIs(absl::StatusCode::kInvalidArgument, message));
}

// kMaxIdBytes (4096) is the longest key; one byte more is INVALID_ARGUMENT
// naming the key's start, its length and the limit.
TEST_F(CoordinatorServerTest, KeyOverTheLengthLimitIsInvalidArgument) {
  Start();
  RegisterAll();
  EXPECT_THAT(KvSet(0, std::string(4096, 'k'), "v"), IsOk());
  EXPECT_THAT(KvSet(0, std::string(4097, 'k'), "v"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("Argument 'key' \"", std::string(64, 'k'),
                                    "\"... has 4097 bytes; expected at most 4096 bytes (the length limit of "
                                    "keys and ids)")));
}

// Registration tells the client the coordinator's value limit, which the
// client then applies before sending.
TEST_F(CoordinatorServerTest, RegistrationAnswersTheValueLimit) {
  config_.max_value_bytes = 12345;
  Start();
  v1::RegisterResponse registered;
  ASSERT_THAT(Call(&Stub::Register, RegisterRequest(0), &registered), IsOk());
  EXPECT_EQ(registered.max_value_bytes(), 12345);
}

// Issue 15: listings come in pages that the stub's own parser reads back
// exactly (the server builds them from the stored values, not through
// protobuf): key order, values, versions, and `truncated` until the last.
TEST_F(CoordinatorServerTest, KvListPagesWithinTheByteBudgetAndResumesAfterTheLastKey) {
  Start();
  RegisterAll();
  for (const char* key : {"p/a", "p/b", "p/c", "q/z"}) {
    ASSERT_THAT(KvSet(0, key, std::string(1000, key[2])), IsOk());
  }
  v1::KvListRequest request;
  *request.mutable_header() = Header(1);
  request.set_prefix("p");
  request.set_max_response_bytes(2100);  // two 1,003-byte entries fit, not three
  v1::KvListResponse first;
  ASSERT_THAT(Call(&Stub::KvList, request, &first), IsOk());
  ASSERT_EQ(first.entries_size(), 2);
  EXPECT_EQ(first.entries(0).key(), "p/a");
  EXPECT_EQ(first.entries(0).value(), std::string(1000, 'a'));
  EXPECT_GT(first.entries(0).version(), 0);
  EXPECT_EQ(first.entries(1).key(), "p/b");
  EXPECT_EQ(first.entries(1).version(), first.entries(0).version() + 1);
  EXPECT_TRUE(first.truncated());
  request.set_start_after("p/b");
  v1::KvListResponse second;
  ASSERT_THAT(Call(&Stub::KvList, request, &second), IsOk());
  ASSERT_EQ(second.entries_size(), 1);
  EXPECT_EQ(second.entries(0).key(), "p/c");
  EXPECT_EQ(second.entries(0).value(), std::string(1000, 'c'));
  EXPECT_FALSE(second.truncated());
}

TEST_F(CoordinatorServerTest, KvListPageHoldsOneEntryLargerThanTheBudget) {
  Start();
  RegisterAll();
  ASSERT_THAT(KvSet(0, "big", std::string(5000, 'x')), IsOk());
  ASSERT_THAT(KvSet(0, "small", "y"), IsOk());
  v1::KvListRequest request;
  *request.mutable_header() = Header(0);
  request.set_max_response_bytes(100);
  v1::KvListResponse response;
  ASSERT_THAT(Call(&Stub::KvList, request, &response), IsOk());
  ASSERT_EQ(response.entries_size(), 1);
  EXPECT_EQ(response.entries(0).value().size(), 5000u);
  EXPECT_TRUE(response.truncated());
}

TEST_F(CoordinatorServerTest, KvListWithoutABudgetAnswersEverythingAtOnce) {
  Start();
  RegisterAll();
  ASSERT_THAT(KvSet(0, "a", ""), IsOk());
  ASSERT_THAT(KvSet(0, "b", std::string(3 << 20, 'b')), IsOk());
  v1::KvListRequest request;
  *request.mutable_header() = Header(0);
  v1::KvListResponse response;
  ASSERT_THAT(Call(&Stub::KvList, request, &response), IsOk());
  ASSERT_EQ(response.entries_size(), 2);
  EXPECT_EQ(response.entries(0).value(), "");
  EXPECT_EQ(response.entries(1).value().size(), size_t{3} << 20);
  EXPECT_FALSE(response.truncated());
}

TEST_F(CoordinatorServerTest, KvListKeysOnlyLeavesTheValuesOut) {
  Start();
  RegisterAll();
  ASSERT_THAT(KvSet(0, "a", "value"), IsOk());
  v1::KvListRequest request;
  *request.mutable_header() = Header(0);
  request.set_keys_only(true);
  v1::KvListResponse response;
  ASSERT_THAT(Call(&Stub::KvList, request, &response), IsOk());
  ASSERT_EQ(response.entries_size(), 1);
  EXPECT_EQ(response.entries(0).key(), "a");
  EXPECT_EQ(response.entries(0).value(), "");
  EXPECT_GT(response.entries(0).version(), 0);
}

}  // namespace
}  // namespace tessera::cluster
