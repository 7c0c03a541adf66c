// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Up-front checks of the PEM files a TLS endpoint presents. gRPC loads a
// certificate that has expired, or whose key does not match it, without a
// word: the failure only shows on the other side, as a handshake that never
// completes. Checking before serving (the coordinator) or dialling (a client
// with a client certificate) names the file and the date instead.
#ifndef TESSERA_CORE_CLUSTER_CERTIFICATE_CHECK_H_
#define TESSERA_CORE_CLUSTER_CERTIFICATE_CHECK_H_

#include <openssl/asn1.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace tessera::cluster {

// The contents of `path`; INVALID_ARGUMENT "cannot read <option> '<path>':
// <strerror>" when it cannot be read. `option` names the setting the path came
// from (e.g. "tls_cert_file").
absl::StatusOr<std::string> ReadTlsFile(const std::string& path, absl::string_view option);

// Checks the certificate in `cert_file` (the first PEM certificate: the leaf
// of a chain) and the private key in `key_file`:
//  - both readable and parseable, else INVALID_ARGUMENT naming the file;
//  - valid at `now`, else FAILED_PRECONDITION "the certificate in
//    tls_cert_file '<path>' expired on <notAfter>" (or "is not valid until
//    <notBefore>"), dates as OpenSSL prints them ("Nov 30 06:03:07 2026 GMT");
//  - the key is the certificate's, else INVALID_ARGUMENT naming both files.
// `role` ("coordinator", "client") starts the message, so a log line says
// whose files are wrong.
absl::Status CheckKeyPairFiles(absl::string_view role, const std::string& cert_file,
                               const std::string& key_file, absl::Time now);

// A certificate date as `openssl x509 -dates` prints it: "Nov 30 06:03:07
// 2026 GMT".
std::string CertificateTimeText(const ASN1_TIME* time);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_CERTIFICATE_CHECK_H_
