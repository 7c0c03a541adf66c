#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Writes abi/libtessera-<version>.abi, the ABI gate's baseline: the stable
# tier of the libtessera built in <builddir> (abi/check_abi.py dump).
#
#   abi/update-baseline.sh <builddir> <major.minor>
#
# Run it when a release fixes its stable ABI (the version must be the build's
# project version without the patch), and commit the file: the gate compares
# every later build with the newest baseline in abi/. The build needs debug
# information (debugoptimized or debug).
set -euo pipefail

die() {
  printf 'update-baseline: error: %s\n' "$*" >&2
  exit 1
}

(($# == 2)) || die "usage: $0 <builddir> <major.minor>"
builddir=$1 version=$2
[[ $version =~ ^[0-9]+\.[0-9]+$ ]] || die "version '$version' is not <major>.<minor> (e.g. 0.2)"
[[ -f $builddir/meson-private/coredata.dat ]] || die "'$builddir' is not a Meson build directory"
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

built=$(meson introspect --projectinfo "$builddir" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
[[ ${built%.*} == "$version" ]] ||
  die "'$builddir' builds version $built; its baseline is named ${built%.*}, not $version"

meson compile -C "$builddir" capi/tessera:shared_library
python3 "$root/abi/check_abi.py" dump \
  --lib "$builddir/capi/libtessera.so.0" \
  --map "$root/capi/tessera.map" \
  --headers-dir "$root/capi/include/tessera" \
  --header-file "$builddir/capi/include/tessera/version.h" \
  --out "$root/abi/libtessera-$version.abi"
