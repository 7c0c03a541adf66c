// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A coordinator on 127.0.0.1:0 and raw-stub helpers for its tests: one
// channel per process, every call with the job credential and a deadline.
#ifndef TESSERA_TESTS_CORE_CLUSTER_COORDINATOR_TESTING_H_
#define TESSERA_TESTS_CORE_CLUSTER_COORDINATOR_TESTING_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/cluster/auth.h"
#include "core/cluster/coordinator_server.h"
#include "core/cluster/error_detail.h"
#include "gtest/gtest.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster {

inline constexpr char kJobId[] = "job-1";
inline constexpr char kToken[] = "secret-token";

class CoordinatorServerTest : public ::testing::Test {
 protected:
  using Stub = v1::Coordinator::Stub;

  CoordinatorServerTest() {
    config_.num_processes = 2;
    config_.job_id = kJobId;
    config_.job_token = kToken;
    config_.bind_address = HostPort{"127.0.0.1", 0};
    config_.heartbeat_interval = absl::Milliseconds(200);
    config_.heartbeat_timeout = absl::Seconds(5);
    config_.init_timeout = absl::Seconds(20);
    config_.shutdown_timeout = absl::Seconds(5);
  }
  ~CoordinatorServerTest() override {
    if (server_ != nullptr) server_->Stop();
  }

  void Start() {
    auto server = CoordinatorServer::Start(config_);
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  std::string Target() const { return absl::StrCat("127.0.0.1:", server_->port()); }

  Stub& StubFor(int process) {
    while (static_cast<int>(stubs_.size()) <= process) stubs_.push_back(nullptr);
    if (stubs_[process] == nullptr) {
      grpc::ChannelArguments args;
      // One connection per process unless the test shares one between them.
      if (!shared_connection_) args.SetInt("grpc.use_local_subchannel_pool", 1);
      stubs_[process] = v1::Coordinator::NewStub(
          grpc::CreateCustomChannel(Target(), grpc::InsecureChannelCredentials(), args));
    }
    return *stubs_[process];
  }

  v1::Header Header(int process) const {
    v1::Header header;
    header.set_job_id(kJobId);
    header.set_process_id(process);
    header.set_incarnation(1000 + process);
    header.set_protocol_version(v1::PROTOCOL_VERSION_CURRENT);
    return header;
  }

  // One unary call as process `header.process_id`.
  template <typename Request, typename Response>
  absl::Status Call(grpc::Status (Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                    const Request& request, Response* response,
                    const std::string& credential = JobCredential(kToken, kJobId),
                    int process = -1) {
    grpc::ClientContext context;
    if (!credential.empty()) context.AddMetadata(kAuthMetadataKey, credential);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(20));
    const int p = process >= 0 ? process : request.header().process_id();
    return FromGrpcStatus((StubFor(p).*method)(&context, request, response));
  }

  v1::RegisterRequest RegisterRequest(int process, std::vector<std::string> platforms = {"cpu"}) {
    v1::RegisterRequest request;
    *request.mutable_header() = Header(process);
    request.set_num_processes(static_cast<int32_t>(config_.num_processes));
    request.mutable_host()->set_hostname(absl::StrCat("host-", process));
    request.mutable_host()->set_boot_id("boot-0");
    request.mutable_host()->set_pid(100 + process);
    for (size_t i = 0; i < platforms.size(); ++i) {
      v1::LocalDevice* device = request.add_devices();
      device->set_local_ordinal(static_cast<int32_t>(i));
      device->set_platform(platforms[i]);
    }
    return request;
  }

  absl::Status Register(int process, std::vector<std::string> platforms = {"cpu"}) {
    v1::RegisterResponse response;
    return Call(&Stub::Register, RegisterRequest(process, std::move(platforms)), &response);
  }

  void RegisterAll() {
    for (int p = 0; p < config_.num_processes; ++p) ASSERT_TRUE(Register(p).ok());
    v1::GlobalTopology topology;
    ASSERT_TRUE(WaitForJob(0, &topology).ok());
  }

  absl::Status WaitForJob(int process, v1::GlobalTopology* topology, int64_t timeout_ms = 10000) {
    v1::WaitForJobRequest request;
    *request.mutable_header() = Header(process);
    request.set_timeout_ms(timeout_ms);
    return Call(&Stub::WaitForJob, request, topology);
  }

  absl::Status KvSet(int process, const std::string& key, const std::string& value,
                     bool overwrite = false) {
    v1::KvSetRequest request;
    *request.mutable_header() = Header(process);
    request.set_key(key);
    request.set_value(value);
    request.set_allow_overwrite(overwrite);
    v1::KvSetResponse response;
    return Call(&Stub::KvSet, request, &response);
  }

  absl::Status KvGet(int process, const std::string& key, v1::KvEntry* entry,
                     int64_t wait_ms = -1) {
    v1::KvGetRequest request;
    *request.mutable_header() = Header(process);
    request.set_key(key);
    request.set_wait(wait_ms >= 0);
    request.set_timeout_ms(wait_ms);
    return Call(&Stub::KvGet, request, entry);
  }

  v1::BarrierRequest BarrierRequest(int process, const std::string& id, int64_t counter,
                                    int64_t timeout_ms, std::vector<int32_t> participants = {}) {
    v1::BarrierRequest request;
    *request.mutable_header() = Header(process);
    request.set_barrier_id(id);
    request.set_counter(counter);
    request.set_timeout_ms(timeout_ms);
    for (int32_t p : participants) request.add_participants(p);
    return request;
  }

  absl::Status Barrier(int process, const std::string& id, int64_t counter, int64_t timeout_ms,
                       std::vector<int32_t> participants = {}) {
    v1::BarrierResponse response;
    return Call(&Stub::Barrier,
                BarrierRequest(process, id, counter, timeout_ms, std::move(participants)),
                &response);
  }

  absl::Status Shutdown(int process, int64_t timeout_ms, v1::ShutdownResponse* response = nullptr) {
    v1::ShutdownRequest request;
    *request.mutable_header() = Header(process);
    request.set_timeout_ms(timeout_ms);
    v1::ShutdownResponse ignored;
    return Call(&Stub::Shutdown, request, response != nullptr ? response : &ignored);
  }

  // Opens WatchEvents as `process` and returns how the first read went: OK
  // with `event` filled, or the stream's final status.
  absl::Status FirstEventStatus(int process, const std::string& credential,
                                v1::Event* event = nullptr, int64_t after_version = 0) {
    grpc::ClientContext context;
    if (!credential.empty()) context.AddMetadata(kAuthMetadataKey, credential);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    v1::WatchEventsRequest request;
    *request.mutable_header() = Header(process);
    request.set_after_version(after_version);
    auto reader = StubFor(process).WatchEvents(&context, request);
    v1::Event first;
    if (reader->Read(&first)) {
      if (event != nullptr) *event = first;
      context.TryCancel();
      (void)reader->Finish();
      return absl::OkStatus();
    }
    return FromGrpcStatus(reader->Finish());
  }

  bool shared_connection_ = false;
  ClusterConfig config_;
  std::unique_ptr<CoordinatorServer> server_;
  std::vector<std::unique_ptr<Stub>> stubs_;
};

}  // namespace tessera::cluster

#endif  // TESSERA_TESTS_CORE_CLUSTER_COORDINATOR_TESTING_H_
