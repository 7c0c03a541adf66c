// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A minimal HTTP/1.1 server for the coordinator's `/metrics` (issue 14):
// GET or HEAD of /metrics answers what `render` makes, in the format the
// Accept header asks for (coordinator_metrics.h); every answer closes its
// connection. One thread serves one connection at a time: requests are
// bounded (8 KiB of request line and headers) and a connection gets 2 s to
// send it, so a slow or hostile client delays scrapes at most that long and
// never takes the coordinator down.
#ifndef TESSERA_CORE_CLUSTER_METRICS_HTTP_H_
#define TESSERA_CORE_CLUSTER_METRICS_HTTP_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "core/cluster/coordinator_metrics.h"
#include "core/cluster/host_port.h"

namespace tessera::cluster {

class MetricsHttpServer {
 public:
  using Render = std::function<std::string(MetricsFormat format)>;

  // Listens on `bind` (port 0: any free port). UNAVAILABLE "metrics bind
  // HOST:PORT: Address already in use" when it cannot.
  static absl::StatusOr<std::unique_ptr<MetricsHttpServer>> Start(const HostPort& bind, Render render);

  ~MetricsHttpServer();  // stops serving and joins the thread
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  int port() const { return port_; }

 private:
  MetricsHttpServer(int listener, int wake_read, int wake_write, int port, Render render);
  void Loop();
  void Serve(int fd);

  const int listener_;
  const int wake_read_;   // readable once the destructor asks the loop to end
  const int wake_write_;
  const int port_;
  const Render render_;
  struct Thread;
  std::unique_ptr<Thread> thread_;
};

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_METRICS_HTTP_H_
