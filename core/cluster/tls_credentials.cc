// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/tls_credentials.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>

#include "absl/strings/str_cat.h"
#include "core/cluster/certificate_check.h"

namespace tessera::cluster {
namespace {

using grpc::experimental::FileWatcherCertificateProvider;

// gRPC's watcher counts whole seconds and re-reads at most once a second.
unsigned int ReloadSeconds(absl::Duration interval) {
  return static_cast<unsigned int>(
      std::clamp<int64_t>(absl::ToInt64Seconds(interval), 1, int64_t{24} * 3600 * 365));
}

// A CA file gRPC could not read would only show as handshakes failing later.
absl::Status CheckReadable(const std::string& path, absl::string_view option,
                           absl::string_view role) {
  absl::StatusOr<std::string> text = ReadTlsFile(path, option);
  if (!text.ok()) return absl::InvalidArgumentError(absl::StrCat(role, ": ", text.status().message()));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentials(const TlsOptions& tls,
                                                                           absl::Time now) {
  if (tls.cert_file.empty() && tls.key_file.empty()) {
    if (tls.require_client_cert) {
      return absl::InvalidArgumentError(
          "tls_require_client_cert needs tls_cert_file and tls_key_file on the coordinator");
    }
    return grpc::InsecureServerCredentials();
  }
  if (tls.cert_file.empty() || tls.key_file.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the coordinator needs both tls_cert_file and tls_key_file; got cert '", tls.cert_file,
        "' and key '", tls.key_file, "'"));
  }
  if (tls.require_client_cert && tls.ca_file.empty()) {
    return absl::InvalidArgumentError(
        "tls_require_client_cert needs tls_ca_file to verify client certificates with");
  }
  if (absl::Status status = CheckKeyPairFiles("coordinator", tls.cert_file, tls.key_file, now);
      !status.ok()) {
    return status;
  }
  if (tls.require_client_cert) {
    if (absl::Status status = CheckReadable(tls.ca_file, "tls_ca_file", "coordinator");
        !status.ok()) {
      return status;
    }
  }
  auto provider = std::make_shared<FileWatcherCertificateProvider>(
      tls.key_file, tls.cert_file, tls.require_client_cert ? tls.ca_file : std::string(),
      ReloadSeconds(tls.reload_interval));
  grpc::experimental::TlsServerCredentialsOptions options(provider);
  options.watch_identity_key_cert_pairs();
  if (tls.require_client_cert) {
    options.watch_root_certs();
    options.set_cert_request_type(GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
  } else {
    options.set_cert_request_type(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  }
  return grpc::experimental::TlsServerCredentials(options);
}

absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentials(const TlsOptions& tls,
                                                                             absl::Time now) {
  if (!tls.enabled()) return grpc::InsecureChannelCredentials();
  const bool present_certificate = !tls.cert_file.empty() && !tls.key_file.empty();
  if (present_certificate) {
    if (absl::Status status = CheckKeyPairFiles("client", tls.cert_file, tls.key_file, now);
        !status.ok()) {
      return status;
    }
  }
  if (!tls.ca_file.empty()) {
    if (absl::Status status = CheckReadable(tls.ca_file, "tls_ca_file", "client"); !status.ok()) {
      return status;
    }
  }
  grpc::experimental::TlsChannelCredentialsOptions options;
  if (present_certificate || !tls.ca_file.empty()) {
    options.set_certificate_provider(std::make_shared<FileWatcherCertificateProvider>(
        present_certificate ? tls.key_file : std::string(),
        present_certificate ? tls.cert_file : std::string(), tls.ca_file,
        ReloadSeconds(tls.reload_interval)));
    if (!tls.ca_file.empty()) options.watch_root_certs();
    if (present_certificate) options.watch_identity_key_cert_pairs();
  }
  options.set_verify_server_certs(true);
  // Explicit, though gRPC defaults to it: the server's certificate must name
  // the host dialled (or the target name override).
  options.set_certificate_verifier(
      std::make_shared<grpc::experimental::HostNameCertificateVerifier>());
  return grpc::experimental::TlsCredentials(options);
}

}  // namespace tessera::cluster
