// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Shardy (MLIR sdy dialect) text for meshes and layouts (experimental in the
// C ABI: tessera/experimental/shardy.h).

import (
	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// shardyMeshName is the mesh symbol's name: "" is "mesh", the name JAX gives
// a module's mesh (Go strings have no NULL).
func shardyMeshName(name string) string {
	if name == "" {
		return "mesh"
	}
	return name
}

// ShardyText is the mesh as Shardy prints its symbol,
// sdy.mesh @mesh = <["x"=2, "y"=4]> (device_ids when the order is not iota),
// named meshName ("" for "mesh"). Experimental.
func (m *Mesh) ShardyText(meshName string) (string, error) {
	if err := checkStrings("meshName", meshName); err != nil {
		return "", err
	}
	return textOf(func(e []uintptr) string { return m.raw().ToShardyText(shardyMeshName(meshName), e) }, m)
}

// MeshFromShardyText parses a Shardy mesh symbol over its device assignment
// ("cpu:3"; nil: the default devices), device_ids indexing it. Experimental.
func MeshFromShardyText(text string, devices []string) (*Mesh, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.MeshFromShardyText(text, devices, e[:]))
	return m, e.take()
}

// ShardyText is the layout as Shardy prints a tensor sharding,
// #sdy.sharding<@mesh, [{"x"}, {}]>, on the mesh named meshName ("" for
// "mesh"). Experimental.
func (l *Layout) ShardyText(meshName string) (string, error) {
	if err := checkStrings("meshName", meshName); err != nil {
		return "", err
	}
	return textOf(func(e []uintptr) string { return l.raw().ToShardyText(shardyMeshName(meshName), e) }, l)
}

// LayoutFromShardyText parses a Shardy sharding on the mesh of a Shardy mesh
// symbol, over its device assignment (nil: the default devices). Experimental.
func LayoutFromShardyText(sharding, meshText string, devices []string) (*Layout, error) {
	if err := checkStrings("sharding", sharding); err != nil {
		return nil, err
	}
	if err := checkStrings("meshText", meshText); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	return layoutFrom(func(e []uintptr) swig.Layout {
		return swig.LayoutFromShardyText(sharding, meshText, devices, e)
	}, nil)
}
