// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The coordinator as a service (issue 14): the standard gRPC health service
// (grpc.health.v1.Health) as Kubernetes' gRPC probes and grpc_health_probe
// use it, checked with a client generated from the published health.proto.
// SERVING once the coordinator accepts registrations; NOT_SERVING once the
// job ended or the coordinator is stopping.

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "gtest/gtest.h"
#include "health.grpc.pb.h"
#include "tessera/cluster.h"
#include "tessera/coordinator.h"
#include "tests/cluster/cluster_harness.h"

namespace tessera::cluster_test {
namespace {

using grpc::health::v1::Health;
using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

constexpr char kJobId[] = "job-health";

struct CoordinatorDeleter {
  void operator()(tessera_coordinator* c) const { tessera_coordinator_destroy(c); }
};
using CoordinatorPtr = std::unique_ptr<tessera_coordinator, CoordinatorDeleter>;

// A coordinator for `num_processes` on a free loopback port; `token`, when
// not empty, is the job token (and authentication is required).
CoordinatorPtr StartCoordinator(int num_processes, const std::string& token = "") {
  tessera_cluster_options* options = tessera_cluster_options_create();
  const std::string address = "127.0.0.1:" + std::to_string(FreePort());
  tessera_cluster_options_set_detection(options, "none", nullptr);
  tessera_cluster_options_set_coordinator_address(options, address.c_str(), nullptr);
  tessera_cluster_options_set_bind_address(options, address.c_str(), nullptr);
  tessera_cluster_options_set_num_processes(options, num_processes, nullptr);
  tessera_cluster_options_set_job_id(options, kJobId, nullptr);
  tessera_cluster_options_set_init_timeout_ms(options, 15000, nullptr);
  tessera_cluster_options_set_shutdown_timeout_ms(options, 5000, nullptr);
  if (!token.empty()) {
    tessera_cluster_options_set_job_token(options, token.c_str(), nullptr);
    tessera_cluster_options_set_require_auth(options, true, nullptr);
  }
  tessera_coordinator* coordinator = tessera_coordinator_start(options, nullptr);
  tessera_cluster_options_destroy(options);
  return CoordinatorPtr(coordinator);
}

std::unique_ptr<Health::Stub> HealthStub(const tessera_coordinator* coordinator) {
  const std::string target = "127.0.0.1:" + std::to_string(tessera_coordinator_port(coordinator, nullptr));
  return Health::NewStub(grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
}

// One Check call for `service`; the response's status, or the call's code
// (as a negative number) when the call failed.
int Check(Health::Stub& stub, const std::string& service) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  HealthCheckRequest request;
  request.set_service(service);
  HealthCheckResponse response;
  const grpc::Status status = stub.Check(&context, request, &response);
  return status.ok() ? static_cast<int>(response.status()) : -static_cast<int>(status.error_code());
}

TEST(ClusterHealth, CheckOfTheServerAnswersServingOnceTheCoordinatorStarted) {
  CoordinatorPtr coordinator = StartCoordinator(2);
  ASSERT_NE(coordinator, nullptr);
  auto stub = HealthStub(coordinator.get());
  EXPECT_EQ(Check(*stub, ""), HealthCheckResponse::SERVING);
}

TEST(ClusterHealth, CheckOfTheCoordinatorServiceAnswersServing) {
  CoordinatorPtr coordinator = StartCoordinator(2);
  ASSERT_NE(coordinator, nullptr);
  auto stub = HealthStub(coordinator.get());
  EXPECT_EQ(Check(*stub, "tessera.v1.Coordinator"), HealthCheckResponse::SERVING);
}

TEST(ClusterHealth, CheckOfAnUnknownServiceFailsWithNotFound) {
  CoordinatorPtr coordinator = StartCoordinator(2);
  ASSERT_NE(coordinator, nullptr);
  auto stub = HealthStub(coordinator.get());
  EXPECT_EQ(Check(*stub, "no.such.Service"), -static_cast<int>(grpc::StatusCode::NOT_FOUND));
}

// Probes carry no job credential: the health service answers them even when
// every coordinator call needs the job token.
TEST(ClusterHealth, CheckNeedsNoJobToken) {
  CoordinatorPtr coordinator = StartCoordinator(2, "health-test-token");
  ASSERT_NE(coordinator, nullptr);
  auto stub = HealthStub(coordinator.get());
  EXPECT_EQ(Check(*stub, ""), HealthCheckResponse::SERVING);
}

TEST(ClusterHealth, WatchHearsNotServingWhenTheCoordinatorStops) {
  CoordinatorPtr coordinator = StartCoordinator(2);
  ASSERT_NE(coordinator, nullptr);
  auto stub = HealthStub(coordinator.get());
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
  HealthCheckRequest request;
  auto stream = stub->Watch(&context, request);
  std::vector<int> seen;
  HealthCheckResponse response;
  ASSERT_TRUE(stream->Read(&response));
  seen.push_back(response.status());
  std::thread stopper([&] { tessera_coordinator_stop(coordinator.get()); });
  while (stream->Read(&response)) seen.push_back(response.status());
  stopper.join();
  EXPECT_EQ(seen, (std::vector<int>{HealthCheckResponse::SERVING, HealthCheckResponse::NOT_SERVING}));
}

// A job that ended (its one process shut down) takes no registrations: the
// coordinator says so before its host stops it.
TEST(ClusterHealth, CheckAnswersNotServingOnceTheJobEnded) {
  CoordinatorPtr coordinator = StartCoordinator(1);
  ASSERT_NE(coordinator, nullptr);
  const int port = tessera_coordinator_port(coordinator.get(), nullptr);
  const std::string address = "127.0.0.1:" + std::to_string(port);
  Worker worker("p0", {"addr=" + address, "n=1", "id=0", std::string("job=") + kJobId, "alarm=45", "--",
                       "connect", "shutdown"});
  ASSERT_TRUE(worker.WaitResult(1, kJoinMs).has_value());
  ASSERT_TRUE(tessera_coordinator_wait(coordinator.get(), kStepMs, nullptr));
  auto stub = HealthStub(coordinator.get());
  EXPECT_EQ(Check(*stub, ""), HealthCheckResponse::NOT_SERVING);
}

}  // namespace
}  // namespace tessera::cluster_test
