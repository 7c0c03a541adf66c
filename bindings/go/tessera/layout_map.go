// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// KeyMatch is how layout-map keys match variable paths.
type KeyMatch int32

const (
	KeyMatchSearch KeyMatch = 0 // re.search (Keras 3.0-3.13)
	KeyMatchFull   KeyMatch = 1 // re.fullmatch (Keras 3.14+)
)

// LayoutMap is insertion-ordered rules from variable paths (exact keys, else
// Python re patterns, run on RE2) to layouts. Lookups may run concurrently with each other;
// Set and Delete need exclusive use.
type LayoutMap struct{ p swig.LayoutMap }

// NewLayoutMap creates an empty map; mesh (may be nil) is given to layouts
// inserted without one.
func NewLayoutMap(mesh *Mesh, match KeyMatch) (*LayoutMap, error) {
	var e errSlot
	m := wrapLayoutMap(swig.NewLayoutMap(mesh.raw(), swig.Enum_SS_tessera_key_match_t(match), e[:]))
	runtime.KeepAlive(mesh)
	return m, e.take()
}

// Set appends the rule key -> layout (ALREADY_EXISTS for a present key,
// INVALID_ARGUMENT for a pattern Python's re refuses or RE2 cannot run).
func (m *LayoutMap) Set(key string, layout *Layout) error {
	if err := checkStrings("key", key); err != nil {
		return err
	}
	var e errSlot
	m.raw().Set(key, layout.raw(), e[:])
	runtime.KeepAlive(m)
	runtime.KeepAlive(layout)
	return e.take()
}

// Delete removes the rule whose key is exactly key (NOT_FOUND otherwise).
func (m *LayoutMap) Delete(key string) error {
	if err := checkStrings("key", key); err != nil {
		return err
	}
	return keepDo(m, func(e []uintptr) { m.raw().Remove(key, e) })
}

// Get is the layout the rules give path: nil and no error when no rule
// matches; FAILED_PRECONDITION listing the keys when several patterns match.
func (m *LayoutMap) Get(path string) (*Layout, error) {
	if err := checkStrings("path", path); err != nil {
		return nil, err
	}
	return keepErr(m, func(e []uintptr) *Layout { return wrapLayout(m.raw().Get(path, e)) })
}

// Find is the index of the rule path selects, -1 when none.
func (m *LayoutMap) Find(path string) (int, error) {
	if err := checkStrings("path", path); err != nil {
		return -1, err
	}
	var e errSlot
	v := m.raw().Find(path, e[:])
	runtime.KeepAlive(m)
	return int(v), e.take()
}

// Len is the number of rules.
func (m *LayoutMap) Len() int { return int(keep(m, m.raw().Size)) }

// Keys are the rules' keys in insertion order.
func (m *LayoutMap) Keys() []string {
	keys := make([]string, m.Len())
	for i := range keys {
		keys[i] = m.raw().Key(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return keys
}

// Layout is the layout of rule index.
func (m *LayoutMap) Layout(index int) (*Layout, error) {
	return keepErr(m, func(e []uintptr) *Layout { return wrapLayout(m.raw().Layout(int64(index), e)) })
}

// Mesh is the map's mesh, nil when it has none.
func (m *LayoutMap) Mesh() *Mesh { return wrapMesh(keep(m, m.raw().Mesh)) }

// Match is the map's key-match mode.
func (m *LayoutMap) Match() KeyMatch { return KeyMatch(keep(m, m.raw().Match)) }
