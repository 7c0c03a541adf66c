package tessera

import "github.com/tessera-dev/tessera/bindings/go/internal/swig"

// Version is the library's version number: major*10000 + minor*100 + patch.
func Version() uint32 { return uint32(swig.Version()) }

// VersionString is the library's version as text ("0.2.0").
func VersionString() string { return swig.Version_string() }
