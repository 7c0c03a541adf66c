// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import "github.com/tessera-dev/tessera/bindings/go/internal/swig"

// Version is the library's version number: major*10000 + minor*100 + patch.
func Version() uint32 { return uint32(swig.Version()) }

// VersionString is the library's version as text ("0.2.0").
func VersionString() string { return swig.Version_string() }

// VersionProblem says why a library of version loaded (major*10000 +
// minor*100 + patch) cannot serve this package, or "" when it can: the same
// major, a minor not older than the one the package was built for.
func VersionProblem(loaded uint32) string { return swig.Binding_version_problem(uint(loaded)) }

// The package refuses to run against a library it was not built for: a
// mismatch would surface later as wrong answers or a crash.
func init() {
	if problem := VersionProblem(Version()); problem != "" {
		panic("tessera: " + problem)
	}
}
