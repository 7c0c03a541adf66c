// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/metrics_http.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "core/log.h"

namespace tessera::cluster {
namespace {

constexpr size_t kMaxRequestBytes = 8192;
constexpr std::chrono::milliseconds kRequestTimeout{2000};

// Writes all of `data`; false when the peer is gone or too slow.
bool SendAll(int fd, const std::string& data) {
  size_t sent = 0;
  const auto deadline = std::chrono::steady_clock::now() + kRequestTimeout;
  while (sent < data.size()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                            std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLOUT, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    const ssize_t n = send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

// Closes after the answer without resetting the connection: a client still
// sending (a refused oversized request) would otherwise get a reset instead
// of the answer. Reads what is left for a moment, bounded.
void CloseGently(int fd) {
  shutdown(fd, SHUT_WR);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  size_t drained = 0;
  char buffer[4096];
  while (drained < 65536) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                            std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    drained += static_cast<size_t>(n);
  }
  close(fd);
}

std::string Response(const char* status, const std::string& content_type, const std::string& body,
                     bool head, const char* extra_header = "") {
  return absl::StrCat("HTTP/1.1 ", status, "\r\nContent-Type: ", content_type,
                      "\r\nContent-Length: ", body.size(), "\r\n", extra_header, "Connection: close\r\n\r\n",
                      head ? "" : body);
}

}  // namespace

struct MetricsHttpServer::Thread {
  std::thread thread;
};

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(const HostPort& bind, Render render) {
  const std::string shown = bind.ToString();
  absl::StatusOr<AddrInfoList> found = ResolveTcp(bind, AI_PASSIVE);
  if (!found.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("metrics bind ", shown, ": cannot resolve '", bind.host, "': ", found.status().message()));
  }
  int listener = -1;
  int error = 0;
  for (addrinfo* ai = found->get(); ai != nullptr && listener < 0; ai = ai->ai_next) {
    const int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
    if (fd < 0) {
      error = errno;
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (::bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 16) == 0) {
      listener = fd;
      break;
    }
    error = errno;
    close(fd);
  }
  if (listener < 0) {
    return absl::UnavailableError(absl::StrCat("metrics bind ", shown, ": ", std::strerror(error)));
  }
  sockaddr_storage bound{};
  socklen_t length = sizeof(bound);
  getsockname(listener, reinterpret_cast<sockaddr*>(&bound), &length);
  const int port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                                     : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  int wake[2];
  if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    const int pipe_error = errno;
    close(listener);
    return absl::UnavailableError(absl::StrCat("metrics server: pipe: ", std::strerror(pipe_error)));
  }
  std::unique_ptr<MetricsHttpServer> server(new MetricsHttpServer(listener, wake[0], wake[1], port, std::move(render)));
  server->thread_->thread = std::thread([s = server.get()] { s->Loop(); });
  Log(LogLevel::kInfo, absl::StrCat("coordinator: metrics at http://", bind.host, ":", port, "/metrics"));
  return server;
}

MetricsHttpServer::MetricsHttpServer(int listener, int wake_read, int wake_write, int port, Render render)
    : listener_(listener),
      wake_read_(wake_read),
      wake_write_(wake_write),
      port_(port),
      render_(std::move(render)),
      thread_(std::make_unique<Thread>()) {}

MetricsHttpServer::~MetricsHttpServer() {
  const char byte = 0;
  (void)!write(wake_write_, &byte, 1);
  if (thread_->thread.joinable()) thread_->thread.join();
  close(listener_);
  close(wake_read_);
  close(wake_write_);
}

void MetricsHttpServer::Loop() {
  for (;;) {
    pollfd fds[2] = {{listener_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    const int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) continue;  // gone already, or out of descriptors for now
    Serve(fd);
    CloseGently(fd);
  }
}

void MetricsHttpServer::Serve(int fd) {
  std::string request;
  const auto deadline = std::chrono::steady_clock::now() + kRequestTimeout;
  size_t end = std::string::npos;
  while ((end = request.find("\r\n\r\n")) == std::string::npos) {
    if (request.size() >= kMaxRequestBytes) {
      SendAll(fd, Response("431 Request Header Fields Too Large", "text/plain; charset=utf-8",
                           absl::StrCat("request headers over ", kMaxRequestBytes, " bytes\n"), false));
      return;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                            std::chrono::steady_clock::now());
    if (left.count() <= 0) return;  // too slow: dropped without an answer
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return;
    char buffer[2048];
    const ssize_t n = recv(fd, buffer, std::min(sizeof(buffer), kMaxRequestBytes - request.size()), 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return;
    request.append(buffer, static_cast<size_t>(n));
  }
  std::vector<absl::string_view> lines = absl::StrSplit(absl::string_view(request).substr(0, end), "\r\n");
  std::vector<absl::string_view> first = absl::StrSplit(lines[0], ' ');
  if (first.size() != 3 || !absl::StartsWith(first[2], "HTTP/1.")) {
    SendAll(fd, Response("400 Bad Request", "text/plain; charset=utf-8",
                         "expected a request line 'GET /metrics HTTP/1.1'\n", false));
    return;
  }
  const bool head = first[0] == "HEAD";
  if (first[0] != "GET" && !head) {
    SendAll(fd, Response("405 Method Not Allowed", "text/plain; charset=utf-8",
                         absl::StrCat("method '", first[0], "' is not allowed; use GET\n"), false,
                         "Allow: GET, HEAD\r\n"));
    return;
  }
  const absl::string_view path = first[1].substr(0, first[1].find('?'));
  if (path != "/metrics") {
    SendAll(fd, Response("404 Not Found", "text/plain; charset=utf-8",
                         absl::StrCat("no page at '", path, "'; the metrics are at /metrics\n"), head));
    return;
  }
  std::string accept;
  for (size_t i = 1; i < lines.size(); ++i) {
    const size_t colon = lines[i].find(':');
    if (colon == absl::string_view::npos) continue;
    if (absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(lines[i].substr(0, colon)), "accept")) {
      absl::StrAppend(&accept, accept.empty() ? "" : ",", absl::StripAsciiWhitespace(lines[i].substr(colon + 1)));
    }
  }
  const MetricsFormat format = NegotiateMetricsFormat(accept);
  SendAll(fd, Response("200 OK", MetricsContentType(format), render_(format), head));
}

}  // namespace tessera::cluster
