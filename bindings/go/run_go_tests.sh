#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Tessera Authors
# SPDX-License-Identifier: Apache-2.0
# Runs the Go binding's tests against a freshly built libtessera (meson test
# --suite go; meson puts the build's meson-uninstalled dir, which holds
# tessera-uninstalled.pc, first in PKG_CONFIG_PATH). Usage:
#   run_go_tests.sh <go> <source dir bindings/go> <build dir> <lib dir> <README.md> [go test args...]
# Copies the module into <build dir>/module with the SWIG low layer Meson
# generated into <build dir> (tessera.go + tessera_wrap.c, package
# internal/swig, which `go build` compiles: the wrapper needs cgo's runtime
# symbols), then runs `go test ./...` with every Go cache inside the build
# dir, no network and no toolchain download.
set -eu
go=$1 src=$2 build=$3 libdir=$4 readme=$5
shift 5

module=$build/module
rm -rf "$module"
mkdir -p "$module"
cp -R "$src/go.mod" "$src/tessera" "$src/internal" "$src/example" "$module/"
cp "$build/tessera.go" "$build/tessera_wrap.c" "$module/internal/swig/"

export GOCACHE="$build/gocache" GOPATH="$build/gopath" GOMODCACHE="$build/gopath/pkg/mod"
export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOPROXY=off GOSUMDB=off GOTELEMETRY=off CGO_ENABLED=1
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export TESSERA_README="$readme"
cd "$module"
exec "$go" test -count=1 -v "$@" ./...
