// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// How a client keeps dialling a coordinator that is not up yet: exponential
// backoff with full jitter, which errors are worth another try, and the
// message that explains a registration that never got through.
#ifndef TESSERA_CORE_CLUSTER_CONNECT_RETRY_H_
#define TESSERA_CORE_CLUSTER_CONNECT_RETRY_H_

#include <string>

#include "absl/random/bit_gen_ref.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "core/cluster/cluster_config.h"

namespace tessera::cluster {

inline constexpr absl::Duration kInitialBackoff = absl::Milliseconds(16);
inline constexpr absl::Duration kMaxBackoff = absl::Seconds(10);

// Delays 16 ms -> 10 s, doubling, each drawn uniformly from [0, cap] ("full
// jitter"), so a gang registering at once spreads out instead of retrying in
// lock step. The small start matters at launch: processes usually start
// before process 0 listens, and a first retry 100 ms out made a 32-process
// job wait for it (benchmarks/cluster_init_compare.sh).
class Backoff {
 public:
  explicit Backoff(absl::Duration initial = kInitialBackoff, absl::Duration max = kMaxBackoff)
      : initial_(initial), max_(max) {}

  // The cap of the next delay: min(max, initial * 2^attempts).
  absl::Duration Cap() const;
  // The next delay, in [0, Cap()]; then the cap doubles.
  absl::Duration Next(absl::BitGenRef gen);
  int attempts() const { return attempts_; }

 private:
  absl::Duration initial_;
  absl::Duration max_;
  int attempts_ = 0;
};

// Why a dial failed, as far as the status tells.
enum class ConnectFailure {
  kNone = 0,
  kRefused,     // nothing listens: coordinator not up yet, or it failed to bind
  kDns,         // the host name did not resolve (yet: K8s DNS lags)
  kNoResponse,  // the attempt's deadline passed without an answer (firewall, wrong port)
  kClosed,      // closed during set-up (TLS server and plaintext client, mTLS refusing our certificate)
  kTls,         // a TLS handshake failed for another reason
  kOther,       // another transport failure
};

ConnectFailure ClassifyConnectFailure(const absl::Status& status);

// Registration retries UNAVAILABLE (refused, DNS, reset) and attempts that
// got no answer before their deadline; it never retries an answer from the
// coordinator (UNAUTHENTICATED, INVALID_ARGUMENT, FAILED_PRECONDITION,
// ALREADY_EXISTS, ...): a wrong token fails at once.
bool IsRetryableConnectError(const absl::Status& status);

// What a TLS handshake failure in gRPC's message says.
enum class TlsRejection {
  kNone = 0,             // no TLS rejection (or none that is certain)
  kServerCertificate,    // the server's certificate did not verify (CA, validity)
  kServerName,           // the server's certificate does not name the host dialled
  kNotTls,               // the server does not speak TLS
};

// Only what is certain: a handshake cut short ("Socket closed") may be a
// server still starting, or a coordinator refusing this process's client
// certificate (TLS 1.3 tells the client nothing), so it is kNone.
TlsRejection ClassifyTlsRejection(const absl::Status& status);

// `status` unchanged unless it is a certain TLS rejection; then
// UNAUTHENTICATED "TLS handshake with <address> failed: <reason>" (not
// retried: the next attempt meets the same certificates), the reason
// explained from the server's own certificate where the rejection is about
// it (tls_probe.h), and gRPC's message after it.
absl::Status TlsHandshakeError(const std::string& address, const TlsOptions& tls,
                               const absl::Status& status);

// The error of a registration that ran out of time: names the address, the
// time allowed, the attempts, the likely cause and the last error.
// DEADLINE_EXCEEDED when the coordinator never answered, UNAVAILABLE
// otherwise.
absl::Status RegistrationTimeoutError(const std::string& address, absl::Duration init_timeout,
                                      int attempts, const absl::Status& last_error);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_CONNECT_RETRY_H_
