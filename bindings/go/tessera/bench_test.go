// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/internal/ctest"
	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// k31Map is the K31 rules through the binding (the same map ctest builds in C).
func k31Map(b *testing.B) *tessera.LayoutMap {
	mesh := must(tessera.NewMesh([]int64{4, 2}, []string{"data", "model"}, cpus(8)))
	lm := must(tessera.NewLayoutMap(mesh, tessera.KeyMatchSearch))
	for _, rule := range []struct {
		key  string
		axes []string
	}{{"dense/kernel", []string{"", "model"}}, {"dense/bias", []string{"model"}},
		{".*dense.*kernel", []string{"", ""}}, {".*dense.*bias", []string{""}}, {".*bias", []string{"model"}}} {
		if err := lm.Set(rule.key, must(tessera.NewLayout(rule.axes, nil))); err != nil {
			b.Fatal(err)
		}
	}
	return lm
}

// A regex path (one RE2::Set pass) and an exact key.
var lookupPaths = []struct{ name, path string }{{"regex", "dense_2/kernel"}, {"exact", "dense/kernel"}}

// BenchmarkLayoutMapGetBinding: Get + Close through the Go binding (two cgo
// calls, and a finalizer registered and cleared for the layout handle).
func BenchmarkLayoutMapGetBinding(b *testing.B) {
	lm := k31Map(b)
	for _, p := range lookupPaths {
		b.Run(p.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				l, err := lm.Get(p.path)
				if l == nil || err != nil {
					b.Fatal(l, err)
				}
				l.Close()
			}
		})
	}
}

// BenchmarkLayoutMapGetC: the same lookups as a C loop (one cgo call for
// all b.N), the baseline of the binding's overhead.
func BenchmarkLayoutMapGetC(b *testing.B) {
	m := ctest.NewK31Map()
	defer m.Free()
	for _, p := range lookupPaths {
		b.Run(p.name, func(b *testing.B) {
			if found := m.Lookups(p.path, int64(b.N)); found != int64(b.N) {
				b.Fatalf("found %d of %d", found, b.N)
			}
		})
	}
}

// BenchmarkLayoutMapFindBinding: Find (the rule's index, no handle made)
// through the binding: the call overhead without a finalizer to register.
func BenchmarkLayoutMapFindBinding(b *testing.B) {
	lm := k31Map(b)
	for _, p := range lookupPaths {
		b.Run(p.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if index, err := lm.Find(p.path); index < 0 || err != nil {
					b.Fatal(index, err)
				}
			}
		})
	}
}

// BenchmarkLayoutMapFindC: the same finds as a C loop.
func BenchmarkLayoutMapFindC(b *testing.B) {
	m := ctest.NewK31Map()
	defer m.Free()
	for _, p := range lookupPaths {
		b.Run(p.name, func(b *testing.B) {
			if found := m.Finds(p.path, int64(b.N)); found != int64(b.N) {
				b.Fatalf("found %d of %d", found, b.N)
			}
		})
	}
}

// The cgo decision: one C function through SWIG's generated wrapper
// (internal/swig), through the idiomatic layer over it, and through cgo
// directly (internal/ctest/direct.go), for a trivial getter, a lookup plus
// destroy, and a string-returning call (meson test --benchmark --suite go,
// or go test -bench Call). The results and the decision are in doc.go.

// benchMesh is a (4, 2) mesh made through the SWIG layer and the same mesh
// through the idiomatic layer.
func benchMesh(b *testing.B) (swig.Mesh, *tessera.Mesh) {
	var e [1]uintptr
	raw := swig.NewMesh([]int64{4, 2}, []string{"data", "model"}, cpus(8), e[:])
	if e[0] != 0 || raw.Swigcptr() == 0 {
		b.Fatal("mesh creation failed")
	}
	b.Cleanup(func() { swig.DeleteMesh(raw) })
	mesh := must(tessera.NewMesh([]int64{4, 2}, []string{"data", "model"}, cpus(8)))
	b.Cleanup(func() { mesh.Close() })
	return raw, mesh
}

// BenchmarkCallGetter: tessera_mesh_num_axes.
func BenchmarkCallGetter(b *testing.B) {
	raw, mesh := benchMesh(b)
	b.Run("swig", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if raw.Rank() != 2 {
				b.Fatal("rank")
			}
		}
	})
	b.Run("idiomatic", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if mesh.Rank() != 2 {
				b.Fatal("rank")
			}
		}
	})
	b.Run("cgo", func(b *testing.B) {
		h := raw.Swigcptr()
		for i := 0; i < b.N; i++ {
			if ctest.MeshNumAxes(h) != 2 {
				b.Fatal("rank")
			}
		}
	})
}

// BenchmarkCallLookupDestroy: tessera_layout_map_lookup then
// tessera_layout_destroy (an exact key), two cgo calls each way.
func BenchmarkCallLookupDestroy(b *testing.B) {
	m := ctest.NewK31Map()
	b.Cleanup(m.Free)
	const path = "dense/kernel"
	b.Run("swig", func(b *testing.B) {
		raw := swig.SwigcptrLayoutMap(m.Handle())
		var e [1]uintptr
		for i := 0; i < b.N; i++ {
			l := raw.Get(path, e[:])
			if e[0] != 0 || l.Swigcptr() == 0 {
				b.Fatal("lookup")
			}
			swig.DeleteLayout(l)
		}
	})
	b.Run("cgo", func(b *testing.B) {
		h := m.Handle()
		for i := 0; i < b.N; i++ {
			if !ctest.LayoutMapLookupDestroy(h, path) {
				b.Fatal("lookup")
			}
		}
	})
}

// BenchmarkCallString: tessera_mesh_axis_name, copied into a Go string
// (the idiomatic layer has only AxisNames, which calls it once per axis).
func BenchmarkCallString(b *testing.B) {
	raw, _ := benchMesh(b)
	b.Run("swig", func(b *testing.B) {
		var e [1]uintptr
		for i := 0; i < b.N; i++ {
			if raw.AxisName(1, e[:]) != "model" {
				b.Fatal("name")
			}
		}
	})
	b.Run("cgo", func(b *testing.B) {
		h := raw.Swigcptr()
		for i := 0; i < b.N; i++ {
			if ctest.MeshAxisName(h, 1) != "model" {
				b.Fatal("name")
			}
		}
	})
}
