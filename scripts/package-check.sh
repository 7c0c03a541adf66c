#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The Debian packaging check: builds the packages from a copy of this tree
# (dpkg-buildpackage -us -uc -b, tests off), runs lintian on them (no error or
# warning allowed), installs them with apt-get, builds README.md's C example
# with nothing but `pkg-config --cflags --libs tessera` against the installed
# copy, runs it, checks its output, compiles and runs README.md's Java example
# against the installed libtessera-java (same output), and removes the
# packages again.
#
# Usage (as root, or with sudo available; on Debian 12 or later):
#   scripts/package-check.sh [WORKDIR]
# WORKDIR (default: a new temporary directory, removed afterwards) receives the
# copy of the tree and the built packages; pass a fixed one to reuse compiler
# cache entries between runs. The build-dependencies, dpkg-dev and lintian are
# installed with apt-get when missing. Not part of `meson test`: it needs root
# and takes minutes (see README.md, "Checks").
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fail() {
  printf 'package-check: FAIL: %s\n' "$*" >&2
  exit 1
}
step() { printf '== %s\n' "$*"; }

sudo=
if ((EUID != 0)); then
  command -v sudo >/dev/null || fail "needs root (apt-get install) or sudo"
  sudo=sudo
fi
apt_get() { $sudo env DEBIAN_FRONTEND=noninteractive apt-get -y -q "$@"; }

if (($# > 0)); then
  workdir=$1
  mkdir -p "$workdir"
else
  workdir=$(mktemp -d)
  trap 'rm -rf "$workdir"' EXIT
fi
workdir=$(cd "$workdir" && pwd)

packages=(libtessera0 libtessera-dev tessera-tools libtessera-java)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

# dpkg-buildpackage writes into the source tree's parent: the copy keeps the
# packages in WORKDIR. The copy is the working tree as git sees it (tracked
# and untracked files, ignored ones left out), so uncommitted changes count.
step "copying the tree to $workdir/tessera"
rm -rf "$workdir/tessera" "$workdir"/*.deb "$workdir"/*.changes "$workdir"/*.buildinfo
mkdir "$workdir/tessera"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
  xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
  tar --null -T - -cf -) | tar -xf - -C "$workdir/tessera"

cd "$workdir/tessera"
export DEB_BUILD_PROFILES=nocheck
export DEB_BUILD_OPTIONS="nocheck parallel=${PACKAGE_CHECK_JOBS:-$(nproc)}"
if ! command -v dpkg-checkbuilddeps >/dev/null || ! command -v lintian >/dev/null ||
  ! dpkg-checkbuilddeps 2>/dev/null; then
  step "installing dpkg-dev, lintian and the build-dependencies"
  apt_get update
  apt_get install --no-install-recommends dpkg-dev lintian
  apt_get build-dep --no-install-recommends -P nocheck ./
fi

# debhelper gives the build a private HOME: point ccache, when the machine
# has it configured, at the real cache so a rebuild is fast.
if [[ -z ${CCACHE_DIR:-} && -d ${HOME:-/nonexistent}/.cache/ccache ]]; then
  export CCACHE_DIR=$HOME/.cache/ccache
fi
if [[ -z ${CCACHE_CONFIGPATH:-} && -f ${HOME:-/nonexistent}/.config/ccache/ccache.conf ]]; then
  export CCACHE_CONFIGPATH=$HOME/.config/ccache/ccache.conf
fi

step "dpkg-buildpackage -us -uc -b"
start=$SECONDS
dpkg-buildpackage -us -uc -b >"$workdir/build.log" 2>&1 ||
  { tail -n 40 "$workdir/build.log" >&2; fail "dpkg-buildpackage failed (log: $workdir/build.log)"; }
echo "built in $((SECONDS - start)) s:"
(cd "$workdir" && for deb in *.deb; do printf '  %-40s %8s bytes\n' "$deb" "$(stat -c %s "$deb")"; done)

step "lintian"
changes=("$workdir"/tessera_*.changes)
# Root is the norm on a build container: lintian's note about it is no finding.
lintian_ok=true
lintian --fail-on error,warning "${changes[0]}" >"$workdir/lintian.txt" 2>&1 || lintian_ok=false
grep -v '^running with root privileges' "$workdir/lintian.txt" || true
$lintian_ok || fail "lintian reports errors or warnings"
echo "lintian: no errors, no warnings"

for package in "${packages[@]}"; do
  if dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^ii'; then
    fail "$package is already installed; the check installs and removes it, so remove it first"
  fi
done

step "apt-get install"
debs=()
for package in "${packages[@]}"; do
  debs+=("$(ls "$workdir/${package}"_*.deb)")
done
remove() { apt_get purge "${packages[@]}" >/dev/null; }
trap 'remove || true; [[ $# -gt 0 ]] || rm -rf "$workdir"' EXIT
apt_get install --no-install-recommends "${debs[@]}" >"$workdir/install.log" 2>&1 ||
  { cat "$workdir/install.log" >&2; fail "apt-get install of the built packages failed"; }
for package in "${packages[@]}"; do
  echo "  $(dpkg-query -W -f='${Package} ${Version} ${db:Status-Abbrev}' "$package")"
done

step "README.md's C example against the installed packages"
example=$workdir/example
mkdir -p "$example"
awk -f "$root/pkgconfig/readme_example.awk" "$root/README.md" >"$example/consumer.c"
[[ -s $example/consumer.c ]] || fail "README.md has no C example"
# The system's pkg-config directories only: a copy under /usr/local must not stand in.
export PKG_CONFIG_LIBDIR=/usr/lib/$multiarch/pkgconfig:/usr/lib/pkgconfig:/usr/share/pkgconfig
unset PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs tessera) || fail "pkg-config finds no tessera"
echo "pkg-config --cflags --libs tessera: $flags"
# shellcheck disable=SC2086  # the flags are words
"${CC:-cc}" -std=c99 -Wall -Wextra -pedantic -Werror -o "$example/consumer" "$example/consumer.c" $flags ||
  fail "README.md's C example does not build against the installed package"
ldd "$example/consumer" >"$example/ldd.txt"
# ldd may name it through /lib, a link to /usr/lib on a merged-/usr system.
loaded=$(awk '$1 == "libtessera.so.0" { print $3 }' "$example/ldd.txt")
[[ -n $loaded && $(readlink -f "$loaded") == "$(readlink -f "/usr/lib/$multiarch/libtessera.so.0")" ]] ||
  fail "the example does not load the packaged library: $(grep tessera "$example/ldd.txt")"
version=$(dpkg-query -W -f='${Version}' libtessera0)
expected="tessera ${version%%-*}
$(<"$root/pkgconfig/consumer.expected")"
actual=$("$example/consumer") || fail "the example exited with status $? (output: $actual)"
if [[ $actual != "$expected" ]]; then
  diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2 || true
  fail "the example's output is not the expected one (diff above: expected < > actual)"
fi
printf '%s\n' "$actual" | sed 's/^/  /'
tessera --version >/dev/null || fail "the installed tessera command does not run"

step "README.md's Java example against the installed libtessera-java"
# The block after the `readme-test: java` marker; no -D option: the JVM's
# default library path has Debian's /usr/lib/<multiarch>/jni.
awk '/<!-- readme-test: java /{marked=1; next} marked && /^```java$/{inside=1; next}
     inside && /^```$/{exit} inside' "$root/README.md" >"$example/ReadmeExample.java"
[[ -s $example/ReadmeExample.java ]] || fail "README.md has no Java example"
javac -d "$example" -cp /usr/share/java/tessera.jar "$example/ReadmeExample.java" ||
  fail "README.md's Java example does not compile against /usr/share/java/tessera.jar"
java_actual=$(java -cp "/usr/share/java/tessera.jar:$example" ReadmeExample) ||
  fail "the Java example exited with status $? (output: $java_actual)"
if [[ $java_actual != "$actual" ]]; then
  diff <(printf '%s\n' "$actual") <(printf '%s\n' "$java_actual") >&2 || true
  fail "the Java example's output differs from the C example's (diff above: C < > Java)"
fi
echo "  the Java example prints what the C example does"
man -w tessera-plan >/dev/null 2>&1 || [[ -f /usr/share/man/man1/tessera-plan.1.gz ]] ||
  fail "no man page for tessera plan"

step "apt-get purge"
remove
trap '[[ $# -gt 0 ]] || rm -rf "$workdir"' EXIT
for package in "${packages[@]}"; do
  if dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^ii'; then
    fail "$package is still installed after apt-get purge"
  fi
done
[[ ! -e /usr/lib/$multiarch/libtessera.so.0 ]] || fail "libtessera.so.0 is still there after apt-get purge"
echo "package-check: OK (${packages[*]} built, lint-clean, installed, used and removed)"
