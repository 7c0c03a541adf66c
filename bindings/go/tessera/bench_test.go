package tessera_test

import (
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/internal/ctest"
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
