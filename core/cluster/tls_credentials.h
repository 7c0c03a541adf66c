// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The gRPC credentials of the coordinator and its clients, built from
// TlsOptions (coordinator.md §6.7).
//
// The certificate, key and CA files are watched, not read once: gRPC re-reads
// them every tls.reload_interval, so a rotated certificate is served, and a
// rotated CA trusted, without a restart. New connections use what was read
// last; connections already open keep the certificates they were made with.
// Replace the files by rename (write elsewhere, then mv) so a reload never
// sees half a file, and the key and certificate together: a reload that
// reads a new key with the old certificate serves a pair that cannot
// complete a handshake until the next reload.
#ifndef TESSERA_CORE_CLUSTER_TLS_CREDENTIALS_H_
#define TESSERA_CORE_CLUSTER_TLS_CREDENTIALS_H_

#include <memory>

#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/cluster/cluster_config.h"

namespace tessera::cluster {

// The coordinator's credentials. Without cert_file and key_file: plaintext.
// With them: TLS serving that pair; with require_client_cert, clients must
// present a certificate that chains to ca_file (the URI-SAN prefix is checked
// per call, by the server, not here).
// Refuses, naming the file, a certificate that is not valid at `now`, a key
// that is not the certificate's, an unreadable file, and mTLS without a CA
// (CheckKeyPairFiles, certificate_check.h).
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> ServerCredentials(
    const TlsOptions& tls, absl::Time now = absl::Now());

// A client's credentials. Without TLS (tls.enabled() false): plaintext.
// With it: the server's certificate must chain to ca_file (the system's roots
// when ca_file is "") and name the host dialled, or tls.server_name when set
// (the caller passes that as the channel's target name override); cert_file
// and key_file, when set, are presented as the client certificate and checked
// first as the coordinator's are.
absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentials(
    const TlsOptions& tls, absl::Time now = absl::Now());

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_TLS_CREDENTIALS_H_
