// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/tls_probe.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "core/cluster/certificate_check.h"
#include "core/cluster/host_port.h"
#include "core/cluster/openssl_ptr.h"

namespace tessera::cluster {
namespace {

// Closes the socket when the probe is done with it.
class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() {
    if (fd_ >= 0) close(fd_);
  }
  int fd() const { return fd_; }

 private:
  int fd_;
};

// A write to a server that closed raises SIGPIPE, whose default action ends
// the process; this thread holds it blocked while probing and discards one
// raised meanwhile.
class ScopedSigpipeBlock {
 public:
  ScopedSigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &previous_);
  }
  ScopedSigpipeBlock(const ScopedSigpipeBlock&) = delete;
  ScopedSigpipeBlock& operator=(const ScopedSigpipeBlock&) = delete;
  ~ScopedSigpipeBlock() {
    if (!sigismember(&previous_, SIGPIPE)) {
      const timespec now = {0, 0};
      while (sigtimedwait(&pipe_, nullptr, &now) > 0) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }

 private:
  sigset_t pipe_;
  sigset_t previous_;
};

// A blocking TCP connection whose connect, reads and writes each give up
// after `timeout`; -1 when no address of `host` accepts one.
int Connect(const HostPort& address, absl::Duration timeout) {
  absl::StatusOr<AddrInfoList> found = ResolveTcp(address, 0);
  if (!found.ok()) return -1;
  const timeval limit = absl::ToTimeval(timeout);
  int connected = -1;
  for (addrinfo* ai = found->get(); ai != nullptr && connected < 0; ai = ai->ai_next) {
    const int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));  // bounds connect() too
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
      connected = fd;
    } else {
      close(fd);
    }
  }
  return connected;
}

std::string GeneralName(const GENERAL_NAME* name) {
  int type = 0;
  const void* value = GENERAL_NAME_get0_value(name, &type);
  const auto* text = static_cast<const ASN1_STRING*>(value);
  auto bytes = [&] {
    return std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(text)),
                       static_cast<size_t>(ASN1_STRING_length(text)));
  };
  switch (type) {
    case GEN_DNS: return absl::StrCat("DNS:", bytes());
    case GEN_URI: return absl::StrCat("URI:", bytes());
    case GEN_IPADD: {
      const std::string raw = bytes();
      char shown[INET6_ADDRSTRLEN] = {};
      const int family = raw.size() == 4 ? AF_INET : raw.size() == 16 ? AF_INET6 : -1;
      if (family < 0 || inet_ntop(family, raw.data(), shown, sizeof(shown)) == nullptr) {
        return "IP:?";
      }
      return absl::StrCat("IP:", shown);
    }
    default: return "";
  }
}

std::string SubjectAltNames(X509* cert) {
  OpenSslPtr<GENERAL_NAMES> names(static_cast<GENERAL_NAMES*>(
      X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr)));
  if (names == nullptr) return "";
  std::vector<std::string> shown;
  for (int i = 0; i < sk_GENERAL_NAME_num(names.get()); ++i) {
    std::string one = GeneralName(sk_GENERAL_NAME_value(names.get(), i));
    if (!one.empty()) shown.push_back(std::move(one));
  }
  return absl::StrJoin(shown, ", ");
}

// OpenSSL's reason the chain does not verify against the CA, "" if it does.
std::string VerifyError(X509* leaf, STACK_OF(X509)* chain, const std::string& ca_file) {
  OpenSslPtr<X509_STORE> store(X509_STORE_new());
  OpenSslPtr<X509_STORE_CTX> context(X509_STORE_CTX_new());
  if (store == nullptr || context == nullptr) return "";
  const int loaded = ca_file.empty() ? X509_STORE_set_default_paths(store.get())
                                     : X509_STORE_load_file(store.get(), ca_file.c_str());
  if (loaded != 1) return absl::StrCat("the CA file '", ca_file, "' could not be loaded");
  if (X509_STORE_CTX_init(context.get(), store.get(), leaf, chain) != 1) return "";
  X509_STORE_CTX_set_purpose(context.get(), X509_PURPOSE_SSL_SERVER);
  if (X509_verify_cert(context.get()) == 1) return "";
  const int error = X509_STORE_CTX_get_error(context.get());
  std::string verdict = X509_verify_cert_error_string(error);
  X509* culprit = X509_STORE_CTX_get_current_cert(context.get());
  if (culprit == nullptr) culprit = leaf;
  if (error == X509_V_ERR_CERT_HAS_EXPIRED) {
    absl::StrAppend(&verdict, " (notAfter ", CertificateTimeText(X509_get0_notAfter(culprit)), ")");
  } else if (error == X509_V_ERR_CERT_NOT_YET_VALID) {
    absl::StrAppend(&verdict, " (notBefore ", CertificateTimeText(X509_get0_notBefore(culprit)),
                    ")");
  }
  return verdict;
}

std::optional<ServerCertificateReport> Probe(const std::string& address,
                                             const std::string& ca_file, absl::Duration timeout) {
  absl::StatusOr<HostPort> parsed = ParseHostPort(address, "address");
  if (!parsed.ok() || !parsed->port.has_value()) return std::nullopt;
  Socket socket(Connect(*parsed, timeout));
  if (socket.fd() < 0) return std::nullopt;
  OpenSslPtr<SSL_CTX> context(SSL_CTX_new(TLS_client_method()));
  if (context == nullptr) return std::nullopt;
  // Accept whatever the server presents: what is wrong with it is the point.
  SSL_CTX_set_verify(context.get(), SSL_VERIFY_NONE, nullptr);
  OpenSslPtr<SSL> ssl(SSL_new(context.get()));
  if (ssl == nullptr || SSL_set_fd(ssl.get(), socket.fd()) != 1) return std::nullopt;
  in6_addr numeric;
  const bool is_ip = inet_pton(AF_INET, parsed->host.c_str(), &numeric) == 1 ||
                     inet_pton(AF_INET6, parsed->host.c_str(), &numeric) == 1;
  if (!is_ip) SSL_set_tlsext_host_name(ssl.get(), parsed->host.c_str());
  if (SSL_connect(ssl.get()) != 1) return std::nullopt;
  X509* leaf = SSL_get0_peer_certificate(ssl.get());
  if (leaf == nullptr) return std::nullopt;
  ServerCertificateReport report;
  report.verify_error = VerifyError(leaf, SSL_get_peer_cert_chain(ssl.get()), ca_file);
  report.names = SubjectAltNames(leaf);
  SSL_shutdown(ssl.get());
  return report;
}

// Recent answers by (address, CA file).
class ProbeMemo {
 public:
  static ProbeMemo& Get() {
    static ProbeMemo* memo = new ProbeMemo();  // never destroyed: usable at exit
    return *memo;
  }

  std::optional<std::optional<ServerCertificateReport>> Find(const std::string& key,
                                                             absl::Time now) {
    absl::MutexLock lock(&mu_);
    auto it = answers_.find(key);
    if (it == answers_.end() || now - it->second.when > kProbeReuse) return std::nullopt;
    return it->second.report;
  }

  void Put(const std::string& key, absl::Time now,
           const std::optional<ServerCertificateReport>& report) {
    absl::MutexLock lock(&mu_);
    // Stale entries go when one is added: the map holds the last few seconds.
    for (auto it = answers_.begin(); it != answers_.end();) {
      if (now - it->second.when > kProbeReuse) {
        answers_.erase(it++);
      } else {
        ++it;
      }
    }
    answers_[key] = Answer{now, report};
  }

 private:
  struct Answer {
    absl::Time when;
    std::optional<ServerCertificateReport> report;
  };
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, Answer> answers_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

std::optional<ServerCertificateReport> ProbeServerCertificate(const std::string& address,
                                                              const std::string& ca_file,
                                                              absl::Duration timeout) {
  const std::string key = absl::StrCat(address, "\n", ca_file);
  if (auto known = ProbeMemo::Get().Find(key, absl::Now())) return *known;
  std::optional<ServerCertificateReport> report;
  {
    ScopedSigpipeBlock no_sigpipe;
    report = Probe(address, ca_file, timeout);
  }
  // The probe's failures stay on this thread's error queue otherwise, where
  // the next TLS call on it would find them.
  ERR_clear_error();
  ProbeMemo::Get().Put(key, absl::Now(), report);
  return report;
}

}  // namespace tessera::cluster
