#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# The Go packaging check (meson test go_install): what `meson install` puts in
# <datadir>/gocode/src/<module path> is a module a Go program outside the tree
# builds and runs with, and with nothing else than, the installed files:
#   1. `meson install --tags runtime,devel,go --destdir STAGE` (the library,
#      headers, tessera.pc and the Go module; no rebuild);
#   2. the installed module holds the idiomatic package (exactly the
#      non-test .go files of bindings/go/tessera), internal/swig with the
#      SWIG-generated files, go.mod, and no test file;
#   3. testdata/installed/main.go is copied to a scratch dir, made a module
#      (`go mod init`, then `go mod edit -require -replace` to the installed
#      module, as the README tells users) and built offline (GOPROXY=off,
#      GOFLAGS=-mod=mod) with cgo's flags from the staged tessera.pc only
#      (PKG_CONFIG_PATH + PKG_CONFIG_SYSROOT_DIR, as pkgconfig/check_consumer.sh);
#      The same program is also built in GOPATH mode (GO111MODULE=off,
#      GOPATH=<datadir>/gocode, Debian's convention);
#   4. both load the staged libtessera.so.0 (ldd) and print the expected
#      output, a warning received by the Go log handler included.
#
# Usage: check_install.sh BUILDDIR PREFIX DATADIR LIBDIR MODULE_PATH GO SRC_GO BUILD_GO
#   DATADIR, LIBDIR: Meson's options (relative to PREFIX or absolute);
#   SRC_GO: bindings/go in the source tree; BUILD_GO: its build dir (the
#   staging tree lives there at a fixed path, so Go's build cache, shared
#   with the go test, is reused on the next run).
set -euo pipefail

if (($# != 8)); then
  echo "usage: $0 BUILDDIR PREFIX DATADIR LIBDIR MODULE_PATH GO SRC_GO BUILD_GO" >&2
  exit 2
fi
builddir=$1 prefix=$2 datadir=$3 libdir=$4 module_path=$5 go=$6 src=$7 build=$8

fail() {
  printf 'check_install: FAIL: %s\n' "$*" >&2
  exit 1
}

[[ $datadir == /* ]] || datadir=$prefix/$datadir
[[ $libdir == /* ]] || libdir=$prefix/$libdir
work=$build/install-test
stage=$work/stage
staged_libdir=$stage$libdir
installed=$stage$datadir/gocode/src/$module_path
rm -rf "$work"
mkdir -p "$work"

# 1. Install.
meson install --quiet --no-rebuild --tags runtime,devel,go --destdir "$stage" -C "$builddir" \
  >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "meson install --destdir failed"; }
[[ -f $staged_libdir/pkgconfig/tessera.pc ]] || fail "no tessera.pc in $staged_libdir/pkgconfig"
[[ -d $installed ]] ||
  fail "no Go module at $installed (installed: $(cd "$stage" && find . -name go.mod))"

# 2. What the module holds.
for f in go.mod internal/swig/cgo.go internal/swig/log.go internal/swig/tessera.go \
         internal/swig/tessera_wrap.c; do
  [[ -f $installed/$f ]] || fail "the installed module has no $f"
done
expected_files=$(cd "$src/tessera" && ls -- *.go | grep -v '_test\.go$')
installed_files=$(cd "$installed/tessera" && ls)
if [[ $installed_files != "$expected_files" ]]; then
  diff <(printf '%s\n' "$expected_files") <(printf '%s\n' "$installed_files") >&2 || true
  fail "installed package tessera differs from the source's non-test files (diff above: source < > installed);" \
       "a new _test.go file belongs in go_test_files in bindings/go/meson.build"
fi
stray=$(cd "$installed" && find . -name '*_test.go')
[[ -z $stray ]] || fail "test files installed: $stray"

# 3. A user's module outside the tree, offline.
consumer=$work/consumer
mkdir -p "$consumer"
cp "$src/testdata/installed/main.go" "$consumer/"
export GOCACHE="$build/gocache" GOPATH="$work/gopath" GOMODCACHE="$work/gopath/pkg/mod"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOPROXY=off GOSUMDB=off GOTELEMETRY=off CGO_ENABLED=1
export PKG_CONFIG_PATH=$staged_libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$stage
unset LD_LIBRARY_PATH
(
  cd "$consumer"
  "$go" mod init example.com/tessera-consumer >/dev/null 2>&1
  "$go" mod edit -require="$module_path@v0.2.0" -replace="$module_path=$installed"
  "$go" build -o consumer .
) >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "the consumer does not build against the installed module"; }

# ... and in GOPATH mode, Debian's convention: GOPATH=<datadir>/gocode.
gopath_consumer=$work/gopath-consumer
mkdir -p "$gopath_consumer"
cp "$src/testdata/installed/main.go" "$gopath_consumer/"
(
  cd "$gopath_consumer"
  GO111MODULE=off GOFLAGS= GOPATH=$stage$datadir/gocode "$go" build -o consumer .
) >"$work/build-gopath.log" 2>&1 ||
  { cat "$work/build-gopath.log" >&2; fail "the consumer does not build in GOPATH mode with GOPATH=$stage$datadir/gocode"; }

# 4. Both run against the staged library.
export LD_LIBRARY_PATH=$staged_libdir
version=$(sed -n 's/^Version: //p' "$staged_libdir/pkgconfig/tessera.pc")
expected="tessera $version
<DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>
batch axis batch warnings [warning: Expect the input mesh to be 1D, but received mesh.devices.ndim=2. The first axis will be used for data-parallel sharding.]
device 1 holds [8 3]"
for program in "$consumer/consumer" "$gopath_consumer/consumer"; do
  # Captured first: `ldd | grep -q` fails under pipefail when grep's early
  # exit kills ldd with SIGPIPE.
  libs=$(ldd "$program")
  [[ $libs == *"$staged_libdir/libtessera.so.0 "* ]] ||
    fail "$program does not load the staged library: $(grep tessera <<<"$libs")"
  actual=$("$program" 2>&1) || fail "$program exited with status $? (output: $actual)"
  if [[ $actual != "$expected" ]]; then
    diff <(printf '%s\n' "$expected") <(printf '%s\n' "$actual") >&2 || true
    fail "$program's output is not the expected one (diff above: expected < > actual)"
  fi
done
echo "a Go module outside the tree (replace directive) and a GOPATH-mode program built against the" \
     "installed module ($installed) and ran with the staged library"
