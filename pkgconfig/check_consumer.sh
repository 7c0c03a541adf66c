#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The packaging check: install the build into a staging tree, compile
# consumer.c with nothing but the flags `pkg-config --cflags --libs tessera`
# gives for that tree, run it against the staged library and check its output.
# Also checks that README.md's C example is consumer.c, so the README's code
# is the code this test compiles, and that tessera.pc's directory variables
# (jardir, jnidir, ...) name where the staged files are.
#
# Usage: check_consumer.sh BUILDDIR PREFIX LIBDIR DATADIR CONSUMER_C README VERSION
#   PREFIX, LIBDIR, DATADIR: Meson's `prefix`, `libdir` and `datadir` options
#   (LIBDIR and DATADIR may be relative to PREFIX); VERSION: the project version.
set -euo pipefail

if (($# != 7)); then
  echo "usage: $0 BUILDDIR PREFIX LIBDIR DATADIR CONSUMER_C README VERSION" >&2
  exit 2
fi
builddir=$1 prefix=$2 libdir=$3 datadir=$4 consumer=$5 readme=$6 version=$7

fail() {
  printf 'check_consumer: FAIL: %s\n' "$*" >&2
  exit 1
}

# The README's ```c block after the "<!-- pkgconfig/consumer.c -->" marker
# must be consumer.c from its first #include on.
check_readme() {
  local shown actual
  shown=$(awk -f "$(dirname "$0")/readme_example.awk" "$readme")
  actual=$(sed -n '/^#include/,$p' "$consumer")
  [[ -n $shown ]] || fail "$readme has no C block after <!-- pkgconfig/consumer.c -->"
  if [[ $shown != "$actual" ]]; then
    diff <(printf '%s\n' "$shown") <(printf '%s\n' "$actual") >&2 || true
    fail "README.md's C example differs from $consumer (diff above: README < > consumer.c)"
  fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
[[ $libdir == /* ]] || libdir=$prefix/$libdir
[[ $datadir == /* ]] || datadir=$prefix/$datadir
staged_libdir=$stage$libdir

check_readme

meson install --quiet --no-rebuild --destdir "$stage" -C "$builddir" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "meson install --destdir failed"; }
[[ -f $staged_libdir/pkgconfig/tessera.pc ]] ||
  fail "no tessera.pc in $staged_libdir/pkgconfig (installed: $(cd "$stage" && find . -name '*.pc'))"

# The staged .pc file and only it: the sysroot maps its absolute paths into the stage.
export PKG_CONFIG_PATH=$staged_libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage
flags=$(pkg-config --cflags --libs tessera) || fail "pkg-config --cflags --libs tessera failed"
echo "pkg-config flags: $flags"

# Each directory variable, read through the sysroot, is the staged directory; the
# file that lives there (PATH under it), when this build installs one, is there
# and nowhere else.
check_variable() {
  local name=$1 expected=$2 path=${3:-} value found
  value=$(pkg-config --variable="$name" tessera) || fail "pkg-config --variable=$name tessera failed"
  [[ $value == "$expected" ]] || fail "tessera.pc: $name is '$value', expected '$expected'"
  [[ -n $path ]] || return 0
  found=$(find "$stage" -name "${path##*/}")
  [[ -z $found || $found == "$expected/$path" ]] ||
    fail "tessera.pc: $name is '$value', but ${path##*/} is installed at $found"
}
check_variable jardir "$stage$datadir/java" tessera.jar
check_variable jnidir "$staged_libdir/jni" libtessera_jni.so
check_variable csharpdir "$staged_libdir/tessera/csharp" Tessera.dll
check_variable gomoduledir "$stage$datadir/gocode/src/github.com/tessera-dev/tessera/bindings/go" go.mod
check_variable protodir "$stage$datadir/tessera/proto" tessera/v1/mesh.proto
check_variable docdir "$stage$datadir/doc/tessera"
supp=$(pkg-config --variable=valgrind_suppressions tessera)
[[ $supp == "$stage$datadir/tessera/valgrind/tessera.supp" && -f $supp ]] ||
  fail "tessera.pc: valgrind_suppressions is '$supp', expected the installed $stage$datadir/tessera/valgrind/tessera.supp"

# -std=c99 and the warnings check the headers' promise; locations come only from pkg-config.
# shellcheck disable=SC2086  # the flags are words
"${CC:-cc}" -std=c99 -Wall -Wextra -pedantic -Werror -o "$tmp/consumer" "$consumer" $flags ||
  fail "consumer.c does not build with pkg-config's flags"

export LD_LIBRARY_PATH=$staged_libdir
# ldd into a file, not a pipe: under pipefail, grep -q quitting early can
# SIGPIPE ldd and fail the check although the library was found.
ldd "$tmp/consumer" >"$tmp/ldd.txt"
grep -qF "$staged_libdir/libtessera.so.0" "$tmp/ldd.txt" ||
  fail "consumer does not load the staged library: $(grep tessera "$tmp/ldd.txt")"

# The version line, then what consumer.expected says (package-check.sh checks the same).
expected="tessera $version
$(<"${consumer%.c}.expected")"
actual=$("$tmp/consumer") || fail "consumer exited with status $? (output: $actual)"
if [[ $actual != "$expected" ]]; then
  diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2 || true
  fail "consumer's output is not the expected one (diff above: expected < > actual)"
fi
echo "consumer built with pkg-config alone and printed the expected output"
