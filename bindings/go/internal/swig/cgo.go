// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Package swig is the SWIG-generated low layer of the Tessera Go binding
// (tessera.go and tessera_wrap.c, generated from bindings/tessera.i at build
// time). Use package tessera instead: it returns (T, error) and closes
// handles.
package swig

// The flags come from the installed tessera.pc, or from the build's
// meson-uninstalled/tessera-uninstalled.pc through PKG_CONFIG_PATH.

// #cgo pkg-config: tessera
import "C"
