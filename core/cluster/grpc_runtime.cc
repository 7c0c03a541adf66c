// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/grpc_runtime.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <memory>

#include "absl/base/call_once.h"
#include "tessera/v1/coordinator.grpc.pb.h"

namespace tessera::cluster {
namespace {

// Never destroyed: what the pin consists of.
struct Pin {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<v1::Coordinator::Stub> stub;
  grpc::ClientContext context;
  v1::HeartbeatRequest request;
  v1::HeartbeatResponse response;
};

}  // namespace

// Reachable from here for ever, so leak checkers see it as held, not lost.
// External linkage: a write-only internal global would be optimized away.
extern Pin* g_pinned_callback_queue;
Pin* g_pinned_callback_queue = nullptr;

void PinCallbackQueue() {
  static absl::once_flag once;
  absl::call_once(once, [] {
    Pin* pin = g_pinned_callback_queue = new Pin;
    // An address nothing serves: the call fails at once, but it made the
    // channel take its reference on the callback queue, held until the
    // channel is destroyed, which is never.
    pin->channel = grpc::CreateChannel("unix:/nonexistent/tessera-callback-queue-pin",
                                       grpc::InsecureChannelCredentials());
    pin->stub = v1::Coordinator::NewStub(pin->channel);
    pin->context.set_deadline(std::chrono::system_clock::now());
    pin->stub->async()->Heartbeat(&pin->context, &pin->request, &pin->response,
                                  [](grpc::Status) {});
  });
}

}  // namespace tessera::cluster
