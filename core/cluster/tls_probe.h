// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Why a server's certificate fails verification. gRPC reports only
// "certificate verify failed", the same words for an expired certificate, one
// not yet valid and one from another CA; the probe makes a TLS connection of
// its own that accepts any certificate, then verifies the chain it received
// the way the handshake did, and returns OpenSSL's verdict with the dates or
// names that explain it.
#ifndef TESSERA_CORE_CLUSTER_TLS_PROBE_H_
#define TESSERA_CORE_CLUSTER_TLS_PROBE_H_

#include <optional>
#include <string>

#include "absl/time/time.h"

namespace tessera::cluster {

inline constexpr absl::Duration kProbeReuse = absl::Seconds(5);

struct ServerCertificateReport {
  // OpenSSL's verdict on the chain against the CA ("" when it verifies), with
  // the date when it is about one: "certificate has expired (notAfter Nov 29
  // 08:53:18 2026 GMT)", "certificate is not yet valid (notBefore ...)",
  // "unable to get local issuer certificate".
  std::string verify_error;
  // The leaf's subject alternative names: "DNS:localhost, IP:127.0.0.1".
  std::string names;
};

// Connects to `address` ("host:port"), completes a TLS handshake without
// verifying, and checks the server's chain against `ca_file` (the system's
// roots when ""). nullopt when the probe got no certificate (no connection,
// no TLS, nothing within `timeout`): the caller then says what gRPC said.
// An answer is reused for the same address and CA file for kProbeReuse, so
// many clients of one process refused at once (ConnectAsync runs them on one
// thread) cost one probe, not one each.
std::optional<ServerCertificateReport> ProbeServerCertificate(const std::string& address,
                                                              const std::string& ca_file,
                                                              absl::Duration timeout);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_TLS_PROBE_H_
