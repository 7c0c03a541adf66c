// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

#include "core/cluster/certificate_check.h"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "core/cluster/openssl_ptr.h"

namespace tessera::cluster {
namespace {

OpenSslPtr<BIO> MemoryBio(const std::string& text) {
  return OpenSslPtr<BIO>(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

// An encrypted key must fail, not prompt on the terminal (OpenSSL's default
// with a NULL callback).
int NoPassword(char* /*buf*/, int /*size*/, int /*rwflag*/, void* /*user*/) { return 0; }

absl::StatusOr<OpenSslPtr<X509>> ParseCertificate(absl::string_view role, const std::string& path) {
  absl::StatusOr<std::string> text = ReadTlsFile(path, "tls_cert_file");
  if (!text.ok()) return absl::InvalidArgumentError(absl::StrCat(role, ": ", text.status().message()));
  OpenSslPtr<BIO> bio = MemoryBio(*text);
  OpenSslPtr<X509> cert(PEM_read_bio_X509(bio.get(), nullptr, NoPassword, nullptr));
  if (cert == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(role, ": tls_cert_file '", path, "' holds no PEM certificate"));
  }
  return cert;
}

absl::StatusOr<OpenSslPtr<EVP_PKEY>> ParseKey(absl::string_view role, const std::string& path) {
  absl::StatusOr<std::string> text = ReadTlsFile(path, "tls_key_file");
  if (!text.ok()) return absl::InvalidArgumentError(absl::StrCat(role, ": ", text.status().message()));
  OpenSslPtr<BIO> bio = MemoryBio(*text);
  OpenSslPtr<EVP_PKEY> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, NoPassword, nullptr));
  if (key == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        role, ": tls_key_file '", path, "' holds no unencrypted PEM private key"));
  }
  return key;
}

absl::Status CheckValidity(absl::string_view role, const std::string& path, X509* cert,
                           absl::Time now) {
  time_t when = absl::ToTimeT(now);
  const ASN1_TIME* not_before = X509_get0_notBefore(cert);
  const ASN1_TIME* not_after = X509_get0_notAfter(cert);
  // X509_cmp_time: -1 when the certificate's time is <= `when`, 1 when later.
  if (X509_cmp_time(not_before, &when) > 0) {
    return absl::FailedPreconditionError(
        absl::StrCat(role, ": the certificate in tls_cert_file '", path, "' is not valid until ",
                     CertificateTimeText(not_before), " (notBefore); is this host's clock right?"));
  }
  if (X509_cmp_time(not_after, &when) < 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        role, ": the certificate in tls_cert_file '", path, "' expired on ", CertificateTimeText(not_after),
        " (notAfter)"));
  }
  return absl::OkStatus();
}

absl::Status CheckFiles(absl::string_view role, const std::string& cert_file,
                        const std::string& key_file, absl::Time now) {
  absl::StatusOr<OpenSslPtr<X509>> cert = ParseCertificate(role, cert_file);
  if (!cert.ok()) return cert.status();
  absl::StatusOr<OpenSslPtr<EVP_PKEY>> key = ParseKey(role, key_file);
  if (!key.ok()) return key.status();
  if (absl::Status valid = CheckValidity(role, cert_file, cert->get(), now); !valid.ok()) {
    return valid;
  }
  if (X509_check_private_key(cert->get(), key->get()) != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(role, ": the key in tls_key_file '", key_file,
                     "' does not match the certificate in tls_cert_file '", cert_file, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::string> ReadTlsFile(const std::string& path, absl::string_view option) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read ", option, " '", path, "': ", std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string CertificateTimeText(const ASN1_TIME* time) {
  OpenSslPtr<BIO> bio(BIO_new(BIO_s_mem()));
  if (bio == nullptr || ASN1_TIME_print(bio.get(), time) != 1) return "(unreadable date)";
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<size_t>(size));
}

absl::Status CheckKeyPairFiles(absl::string_view role, const std::string& cert_file,
                               const std::string& key_file, absl::Time now) {
  absl::Status status = CheckFiles(role, cert_file, key_file, now);
  // Failed parses leave entries on this thread's OpenSSL error queue; the
  // next TLS handshake on it must not report them as its own.
  ERR_clear_error();
  return status;
}

}  // namespace tessera::cluster
