#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Regenerates the coordinator TLS test certificates (valid for 100 years):
#   ca.pem            test CA; server.pem (localhost, 127.0.0.1) and
#                     client.pem (URI SAN spiffe://example.org/worker) chain to it
#   evil_client.pem   chains to ca.pem, URI SAN spiffe://example.org.evil/worker
#   other_ca.pem      an unrelated CA (for "wrong CA" tests)
#   other_server.pem  (localhost, 127.0.0.1) chains to other_ca.pem: the
#                     certificate a rotation replaces server.pem with
#   expired_server.pem  server.key's certificate from ca.pem whose validity
#                     ended a day before it began (OpenSSL 3.0's x509 has no
#                     -not_after; -days -1 does that)
# Usage: sh gen.sh   (needs the openssl CLI; run from any directory)
set -eu
cd "$(dirname "$0")"
days=36500
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ca() {  # name subject
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days $days \
    -subj "$2" -keyout "$1.key" -out "$1.pem" 2>/dev/null
}
leaf() {  # name subject san ca
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "$2" \
    -keyout "$1.key" -out "$tmp/$1.csr" 2>/dev/null
  printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\n' "$3" > "$tmp/$1.ext"
  openssl x509 -req -in "$tmp/$1.csr" -CA "$4.pem" -CAkey "$4.key" -CAcreateserial \
    -CAserial "$tmp/serial" -days $days -extfile "$tmp/$1.ext" -out "$1.pem" 2>/dev/null
}

ca ca "/CN=Tessera Test CA"
ca other_ca "/CN=Unrelated Test CA"
leaf server "/CN=localhost" "DNS:localhost,IP:127.0.0.1" ca
leaf client "/CN=worker" "URI:spiffe://example.org/worker" ca
leaf evil_client "/CN=evil" "URI:spiffe://example.org.evil/worker" ca
leaf other_server "/CN=localhost" "DNS:localhost,IP:127.0.0.1" other_ca
# The same key as server.pem, re-signed with a validity that is over.
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' > "$tmp/expired.ext"
openssl req -new -key server.key -subj /CN=localhost -out "$tmp/expired.csr" 2>/dev/null
openssl x509 -req -in "$tmp/expired.csr" -CA ca.pem -CAkey ca.key -CAserial "$tmp/serial" \
  -days -1 -extfile "$tmp/expired.ext" -out expired_server.pem 2>/dev/null
rm -f ca.key other_ca.key  # private keys of the CAs are not needed afterwards
