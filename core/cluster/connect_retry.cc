// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/connect_retry.h"

#include <algorithm>
#include <optional>

#include "absl/random/distributions.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/cluster/host_port.h"
#include "core/cluster/tls_probe.h"

namespace tessera::cluster {

absl::Duration Backoff::Cap() const {
  absl::Duration cap = initial_;
  for (int i = 0; i < attempts_ && cap < max_; ++i) cap *= 2;
  return std::min(cap, max_);
}

absl::Duration Backoff::Next(absl::BitGenRef gen) {
  const absl::Duration cap = Cap();
  ++attempts_;
  const double fraction = absl::Uniform(absl::IntervalClosedClosed, gen, 0.0, 1.0);
  return cap * fraction;
}

ConnectFailure ClassifyConnectFailure(const absl::Status& status) {
  if (status.ok()) return ConnectFailure::kNone;
  if (status.code() == absl::StatusCode::kDeadlineExceeded) return ConnectFailure::kNoResponse;
  if (status.code() != absl::StatusCode::kUnavailable) return ConnectFailure::kOther;
  const std::string message = absl::AsciiStrToLower(status.message());
  if (absl::StrContains(message, "connection refused")) return ConnectFailure::kRefused;
  if (absl::StrContains(message, "dns") ||
      absl::StrContains(message, "resolution failed") ||
      absl::StrContains(message, "resolve")) {
    return ConnectFailure::kDns;
  }
  if (absl::StrContains(message, "tls handshake failed") ||
      absl::StrContains(message, "ssl handshake failed")) {
    return ConnectFailure::kTls;
  }
  if (absl::StrContains(message, "timed out") || absl::StrContains(message, "timeout")) {
    return ConnectFailure::kNoResponse;
  }
  if (absl::StrContains(message, "socket closed")) return ConnectFailure::kClosed;
  return ConnectFailure::kOther;
}

bool IsRetryableConnectError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kUnavailable ||
         status.code() == absl::StatusCode::kDeadlineExceeded;
}

TlsRejection ClassifyTlsRejection(const absl::Status& status) {
  if (status.ok()) return TlsRejection::kNone;
  const std::string message = absl::AsciiStrToLower(status.message());
  // gRPC 1.51 with OpenSSL: "Tls handshake failed: SSL_ERROR_SSL:
  // error:0A000086:SSL routines::certificate verify failed" (BoringSSL spells
  // it CERTIFICATE_VERIFY_FAILED; SslCredentials say "Ssl handshake").
  if (absl::StrContains(message, "certificate verify failed") ||
      absl::StrContains(message, "certificate_verify_failed")) {
    return TlsRejection::kServerCertificate;
  }
  // TlsCredentials' host name verifier, and SslCredentials' own check.
  if (absl::StrContains(message, "hostname verification check failed") ||
      (absl::StrContains(message, "peer name ") &&
       absl::StrContains(message, " is not in peer certificate"))) {
    return TlsRejection::kServerName;
  }
  // A plaintext HTTP/2 server answering a ClientHello.
  if (absl::StrContains(message, "wrong version number") ||
      absl::StrContains(message, "wrong_version_number")) {
    return TlsRejection::kNotTls;
  }
  return TlsRejection::kNone;
}

namespace {

constexpr absl::Duration kProbeTimeout = absl::Seconds(2);

std::string CaText(const TlsOptions& tls) {
  return tls.ca_file.empty() ? std::string("the system's CA certificates")
                             : absl::StrCat("tls_ca_file '", tls.ca_file, "'");
}

std::string ServerCertificateReason(const std::string& address, const TlsOptions& tls) {
  const std::optional<ServerCertificateReport> report =
      ProbeServerCertificate(address, tls.ca_file, kProbeTimeout);
  if (!report.has_value() || report->verify_error.empty()) {
    return absl::StrCat("the coordinator's certificate did not verify against ", CaText(tls),
                        " (expired, not yet valid, or from another CA?)");
  }
  return absl::StrCat("the coordinator's certificate was refused: ", report->verify_error,
                      ", checked against ", CaText(tls));
}

std::string ServerNameReason(const std::string& address, const TlsOptions& tls) {
  std::string name = tls.server_name;
  if (name.empty()) {
    absl::StatusOr<HostPort> parsed = ParseHostPort(address, "address");
    name = parsed.ok() ? parsed->host : address;
  }
  std::string reason = absl::StrCat("the coordinator's certificate is not for '", name, "'");
  const std::optional<ServerCertificateReport> report =
      ProbeServerCertificate(address, tls.ca_file, kProbeTimeout);
  if (report.has_value()) {
    absl::StrAppend(&reason, " (it names ", report->names.empty() ? "no host" : report->names, ")");
  }
  absl::StrAppend(&reason, "; dial a name it carries, or set tls_server_name to one");
  return reason;
}

}  // namespace

absl::Status TlsHandshakeError(const std::string& address, const TlsOptions& tls,
                               const absl::Status& status) {
  std::string reason;
  switch (ClassifyTlsRejection(status)) {
    case TlsRejection::kNone:
      return status;
    case TlsRejection::kServerCertificate:
      reason = ServerCertificateReason(address, tls);
      break;
    case TlsRejection::kServerName:
      reason = ServerNameReason(address, tls);
      break;
    case TlsRejection::kNotTls:
      reason = "the server does not speak TLS (a coordinator started without tls_cert_file?)";
      break;
  }
  return absl::UnauthenticatedError(absl::StrCat("TLS handshake with ", address, " failed: ", reason,
                                                 " [gRPC: ", status.message(), "]"));
}

absl::Status RegistrationTimeoutError(const std::string& address, absl::Duration init_timeout,
                                      int attempts, const absl::Status& last_error) {
  const ConnectFailure failure = ClassifyConnectFailure(last_error);
  std::string cause;
  switch (failure) {
    case ConnectFailure::kRefused:
      cause = "connection refused (coordinator not up yet, or it failed to bind?)";
      break;
    case ConnectFailure::kDns:
      cause = absl::StrCat("the host name of '", address, "' did not resolve (DNS)");
      break;
    case ConnectFailure::kNoResponse:
      cause = "no response (firewall? wrong port?)";
      break;
    case ConnectFailure::kClosed:
      cause =
          "the coordinator closed the connection during set-up (a TLS coordinator does so to a "
          "client without TLS, and one requiring client certificates when it refuses this "
          "process's: check tls_ca_file, tls_cert_file and the coordinator's tls_ca_file)";
      break;
    case ConnectFailure::kTls:
      cause = "the TLS handshake failed";
      break;
    default:
      cause = "the coordinator could not be reached";
      break;
  }
  const std::string message = absl::StrCat(
      "could not register with the coordinator at ", address, " within ",
      absl::FormatDuration(init_timeout), " (", attempts, attempts == 1 ? " attempt" : " attempts",
      "): ", cause, "; last error: ", absl::StatusCodeToString(last_error.code()), ": ",
      last_error.message());
  if (failure == ConnectFailure::kNoResponse) return absl::DeadlineExceededError(message);
  return absl::UnavailableError(message);
}

}  // namespace tessera::cluster
