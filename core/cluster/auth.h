// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// The job credential: proof of the job token without sending it.
//
// Each call carries metadata kAuthMetadataKey = hex(HMAC-SHA256(token,
// "tessera/v1" || job_id)): the raw token never travels, and jobs that share a
// token still cannot reach each other. Without TLS an on-path attacker can
// replay it; it stops wrong-job and stale processes, not a hostile network.
#ifndef TESSERA_CORE_CLUSTER_AUTH_H_
#define TESSERA_CORE_CLUSTER_AUTH_H_

#include <string>

#include "absl/strings/string_view.h"

namespace tessera::cluster {

inline constexpr char kAuthMetadataKey[] = "x-tessera-auth";

// Lowercase hex of HMAC-SHA256(token, "tessera/v1" + job_id): 64 characters.
std::string JobCredential(absl::string_view token, absl::string_view job_id);

// Constant-time comparison (the time does not depend on where they differ).
bool CredentialsEqual(absl::string_view a, absl::string_view b);

// The first 8 hex characters of SHA-256(credential): what logs may show of a
// rejected credential.
std::string CredentialFingerprint(absl::string_view credential);

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_AUTH_H_
