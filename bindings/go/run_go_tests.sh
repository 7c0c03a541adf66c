#!/bin/sh
# Runs the Go binding's tests against a freshly built libtessera (meson test
# --suite go; meson puts the build's meson-uninstalled dir, which holds
# tessera-uninstalled.pc, first in PKG_CONFIG_PATH). Usage:
#   run_go_tests.sh <swig> <go> <source dir bindings/> <build dir> <lib dir> <README.md> [go test args...]
# Generates the SWIG low layer into a copy of the module under the build dir
# (internal/swig/tessera.go + tessera_wrap.c, which `go build` compiles:
# the wrapper needs cgo's runtime symbols), then runs `go test ./...` with
# every Go cache inside the build dir, no network and no toolchain download.
set -eu
swig=$1 go=$2 src=$3 build=$4 libdir=$5 readme=$6
shift 6

module=$build/module
rm -rf "$module"
mkdir -p "$module"
cp -R "$src/go/go.mod" "$src/go/tessera" "$src/go/internal" "$src/go/example" "$module/"

"$swig" -go -cgo -intgosize 64 -package swig -module tessera \
  -I"$src" -I"$src/../capi/include" \
  -outdir "$module/internal/swig" -o "$module/internal/swig/tessera_wrap.c" "$src/tessera.i"

export GOCACHE="$build/gocache" GOPATH="$build/gopath" GOMODCACHE="$build/gopath/pkg/mod"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOPROXY=off GOSUMDB=off GOTELEMETRY=off CGO_ENABLED=1
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TESSERA_README="$readme"
cd "$module"
exec "$go" test -count=1 -v "$@" ./...
