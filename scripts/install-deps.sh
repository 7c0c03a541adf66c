#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Installs, on Debian 12 (bookworm) and as root, every package that building
# Tessera and running its tests need.
#
# Idempotent and fast on a re-run: a package already at its pinned version is
# skipped after one dpkg-query, so a machine that has everything needs neither
# root nor the network. Quiet unless it installs something; fails loudly,
# naming the package, when it cannot.
set -euo pipefail

# One row per package: name, then bookworm's exact version (`apt-cache policy`).
# Later issues add their rows at the marked places; keep one package a line.
readonly PINS="
# --- build ---------------------------------------------------------------
meson                 1.0.1-5
ninja-build           1.11.1-2~deb12u1
pkg-config            1.8.1-1
gcc                   4:12.2.0-3
g++                   4:12.2.0-3
clang                 1:14.0-55.7~deb12u1
libclang-rt-14-dev    1:14.0.6-12
# --- libraries -----------------------------------------------------------
libabsl-dev           20220623.1-1+deb12u2
libre2-dev            20220601+dfsg-1+b1
libprotobuf-dev       3.21.12-3+deb12u1
protobuf-compiler     3.21.12-3+deb12u1
# --- tests and benchmarks ------------------------------------------------
libgtest-dev          1.12.1-0.2
libgmock-dev          1.12.1-0.2
libbenchmark-dev      1.7.1-1
python3               3.11.2-1+b1
python3-venv          3.11.2-1+b1
# --- gRPC (multi-host coordinator, issue 4) ------------------------------
libgrpc++-dev         1.51.1-3+b1
protobuf-compiler-grpc 1.51.1-3+b1
openmpi-bin           4.1.4-3+b1
# --- bindings: SWIG, JDK, mono, Go (issue 5) -----------------------------
swig                  4.1.0-0.2
mono-mcs              6.8.0.105+dfsg-3.3+deb12u1
mono-runtime          6.8.0.105+dfsg-3.3+deb12u1
maven                 3.8.7-1
# --- C ABI 0.2: ABI gate, reference docs, compiler cache (issue 10) -------
abigail-tools         2.2-2
doxygen               1.9.4-4
ccache                4.8+really4.7.5-1
valgrind              1:3.19.0-1
# --- checkpoint loading: io_uring reads (issue 12) -------------------------
liburing-dev          2.3-3
"

die() {
  printf 'install-deps: error: %s\n' "$*" >&2
  exit 1
}

# The installed version of $1, or nothing when it is not installed.
installed_version() {
  # dpkg-query fails for a package it has never seen: that is "not installed".
  { dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$1" 2>/dev/null || true; } |
    awk '$1 == "ii" { print $2 }'
}

# A version without its Debian revision: "1:14.0-55.7~deb12u1" -> "1:14.0".
upstream() {
  printf '%s' "${1%-*}"
}

# The version apt would install for "$1=$2": the pin itself when the archive
# still has it, else the candidate when it is the same upstream release (a
# bookworm point or security update replaces the old revision on the mirror).
resolve() {
  local package=$1 pin=$2 candidate
  if apt-cache madison "$package" | awk -F' [|] ' '{ gsub(/ /, "", $2); print $2 }' |
      grep -qxF -- "$pin"; then
    printf '%s' "$pin"
    return
  fi
  candidate=$(apt-cache policy "$package" | awk '/Candidate:/ { print $2 }')
  if [[ -n $candidate && $candidate != "(none)" && $(upstream "$candidate") == $(upstream "$pin") ]]; then
    printf 'install-deps: %s %s is gone from the archive; installing %s\n' \
      "$package" "$pin" "$candidate" >&2
    printf '%s' "$candidate"
    return
  fi
  die "$package $pin is not available (candidate: ${candidate:-none}); update the table in $0"
}

main() {
  local missing=() package pin have
  while read -r package pin; do
    [[ -z $package || $package == \#* ]] && continue
    have=$(installed_version "$package")
    # Same upstream release: a newer bookworm revision already installed is kept.
    if [[ -n $have && ( $have == "$pin" || $(upstream "$have") == $(upstream "$pin") ) ]]; then
      continue
    fi
    missing+=("$package" "$pin")
  done <<<"$PINS"
  ((${#missing[@]} == 0)) && return 0

  ((EUID == 0)) || die "needs root to install: $(printf '%s ' "${missing[@]}")"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || die "apt-get update failed"

  local specs=() i
  for ((i = 0; i < ${#missing[@]}; i += 2)); do
    specs+=("${missing[i]}=$(resolve "${missing[i]}" "${missing[i + 1]}")")
  done
  printf 'install-deps: installing %s\n' "${specs[*]}"
  local log
  log=$(mktemp)
  if ! apt-get install -y -qq --no-install-recommends "${specs[@]}" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    die "apt-get install failed"
  fi
  rm -f "$log"

  for ((i = 0; i < ${#missing[@]}; i += 2)); do
    [[ -n $(installed_version "${missing[i]}") ]] || die "${missing[i]} is still not installed"
  done
}

# The JDK and Go come with the machine image (OpenJDK 17, Go >= 1.21 in
# /usr/local/go). Bookworm's JDK moves by security update, so it is not pinned:
# a machine without javac gets the archive's current OpenJDK 17.
ensure_toolchains() {
  export PATH=$PATH:/usr/local/go/bin
  if ! command -v javac >/dev/null; then
    ((EUID == 0)) || die "needs root to install openjdk-17-jdk-headless"
    apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless >/dev/null ||
      die "apt-get install openjdk-17-jdk-headless failed"
  fi
  command -v go >/dev/null || die "Go (>= 1.21) is not on PATH nor in /usr/local/go/bin: install it from go.dev"
}

# Chromium draws the HTML plan report in its layout test
# (tests/cli/check_report.py). Bookworm moves it to each new upstream release
# by security update, so it cannot be pinned like the rows above: a machine
# without it gets the archive's current chromium. Where it cannot be
# installed the layout test is skipped (exit 77), so this only warns.
ensure_chromium() {
  command -v chromium >/dev/null && return 0
  local why="not root"
  if ((EUID == 0)); then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 && return 0
    # The package lists may predate the archive's current chromium.
    apt-get update -qq >/dev/null 2>&1 &&
      apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 && return 0
    why="apt-get install chromium failed"
  fi
  printf 'install-deps: warning: chromium is not installed (%s): the HTML report layout test will be skipped\n' \
    "$why" >&2
}

main "$@"
ensure_toolchains
ensure_chromium
