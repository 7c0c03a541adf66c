#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Regenerates debian/libtessera0.symbols from a built libtessera.so.0: one line
# per exported symbol with its version node (capi/tessera.map), the version it
# first appeared in, and the Build-Depends-Package header. Symbols already in
# the file keep their version; new ones get the version in debian/changelog.
# Run it after adding or removing an exported function and commit the result:
# the package build runs dpkg-gensymbols -c4, which fails on any difference.
#
# Usage: scripts/debian-symbols.sh BUILDDIR   (from anywhere; BUILDDIR is a
# Meson build directory with capi/libtessera.so.0 built)
set -euo pipefail

if (($# != 1)); then
  echo "usage: $0 BUILDDIR" >&2
  exit 2
fi
library=$(realpath "$1/capi/libtessera.so.0")
cd "$(dirname "$0")/.."
symbols=debian/libtessera0.symbols
version=$(dpkg-parsechangelog -SVersion)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The symbols a package built from the library would have; the current file
# is the template, so it keeps the versions already recorded.
dpkg-gensymbols -plibtessera0 -v"$version" -e"$library" -I"$symbols" -O"$tmp/out" -q || true
{
  echo "libtessera.so.0 libtessera0 #MINVER#"
  echo "* Build-Depends-Package: libtessera-dev"
  # Removed symbols come back as "#MISSING: ..." comments: an ABI break, not
  # something to record.
  grep -E '^ ' "$tmp/out" | LC_ALL=C sort
} >"$symbols"
if grep -q '^#MISSING' "$tmp/out"; then
  echo "debian-symbols: symbols removed from the library (an ABI break):" >&2
  grep '^#MISSING' "$tmp/out" >&2
  exit 1
fi
printf 'debian-symbols: %s symbols (' "$(grep -c '^ ' "$symbols")"
grep -oE '@[A-Z_0-9.]+ ' "$symbols" | sort | uniq -c | awk '{ printf "%s%s %s", sep, $1, substr($2, 2); sep = ", " }'
echo ") in $symbols"
