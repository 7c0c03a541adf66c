// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// unique_ptr for the OpenSSL objects the TLS code owns, each freed by its own
// *_free function. One deleter for all of them, so a new type is one line.
#ifndef TESSERA_CORE_CLUSTER_OPENSSL_PTR_H_
#define TESSERA_CORE_CLUSTER_OPENSSL_PTR_H_

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include <memory>

namespace tessera::cluster {

struct OpenSslFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
  void operator()(X509* cert) const { X509_free(cert); }
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
  void operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }
  void operator()(SSL* ssl) const { SSL_free(ssl); }
  void operator()(X509_STORE* store) const { X509_STORE_free(store); }
  void operator()(X509_STORE_CTX* ctx) const { X509_STORE_CTX_free(ctx); }
  void operator()(GENERAL_NAMES* names) const { GENERAL_NAMES_free(names); }
};

template <typename T>
using OpenSslPtr = std::unique_ptr<T, OpenSslFree>;

}  // namespace tessera::cluster

#endif  // TESSERA_CORE_CLUSTER_OPENSSL_PTR_H_
