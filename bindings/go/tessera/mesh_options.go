// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Mesh options as a value: JAX's creators with every setting of
// tessera_mesh_options, among them the process of each listed device, which
// plans the mesh of a job that is not running here (MakeMesh and its
// siblings build their options from their arguments and cannot say it).

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// MeshOptions are the settings of MakeMeshWithOptions,
// MakeHybridMeshWithOptions and CreateDeviceMeshWithOptions; an unset field
// takes the creator's default. Mutable; one goroutine at a time.
type MeshOptions struct{ p swig.MeshOptions }

// NewMeshOptions has every field unset.
func NewMeshOptions() *MeshOptions { return wrapMeshOptions(swig.NewMeshOptions()) }

// SetDevices lists the mesh's devices ("gpu:3"); nil: every device of the
// default type.
func (o *MeshOptions) SetDevices(devices []string) error {
	if err := checkStrings("devices", devices...); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetDevices(devices, e) })
}

// SetDeviceKind is JAX's device_kind ("TPU v4"), which picks the device order.
func (o *MeshOptions) SetDeviceKind(deviceKind string) error {
	if err := checkStrings("device_kind", deviceKind); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetDeviceKind(deviceKind, e) })
}

// SetSortGranulesByKey orders MakeHybridMeshWithOptions's processes by
// index (true, JAX's default) or by first appearance.
func (o *MeshOptions) SetSortGranulesByKey(sort bool) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetSortGranulesByKey(sort, e) })
}

// SetAllowSplitPhysicalAxes is JAX's allow_split_physical_axes.
func (o *MeshOptions) SetAllowSplitPhysicalAxes(allow bool) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetAllowSplitPhysicalAxes(allow, e) })
}

// SetContiguousSubmeshes is JAX's contiguous_submeshes.
func (o *MeshOptions) SetContiguousSubmeshes(contiguous bool) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetContiguousSubmeshes(contiguous, e) })
}

// SetDeviceProcesses gives the process (JAX's device.process_index) of each
// device SetDevices lists, in order; each device's local ordinal becomes
// its index among its process's listed devices. nil unsets.
func (o *MeshOptions) SetDeviceProcesses(processIndices []int) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetDeviceProcesses(toInt64s(processIndices), e) })
}

// meshWithOptions wraps the mesh f returns, keeping options alive for the call.
func meshWithOptions(options *MeshOptions, f func(o swig.MeshOptions, e []uintptr) swig.Mesh) (*Mesh, error) {
	var e errSlot
	m := wrapMesh(f(options.raw(), e[:]))
	runtime.KeepAlive(options)
	return m, e.take()
}

// MakeMeshWithOptions is MakeMesh with options (nil: the defaults).
func MakeMeshWithOptions(shape []int64, axisNames []string, options *MeshOptions) (*Mesh, error) {
	if err := checkStrings("axis_names", axisNames...); err != nil {
		return nil, err
	}
	return meshWithOptions(options, func(o swig.MeshOptions, e []uintptr) swig.Mesh {
		return swig.MeshMakeWithOptions(shape, axisNames, o, e)
	})
}

// MakeHybridMeshWithOptions is MakeHybridMesh with options (nil: the
// defaults); dcnMeshShape as long as meshShape.
func MakeHybridMeshWithOptions(meshShape, dcnMeshShape []int64, axisNames []string,
	options *MeshOptions) (*Mesh, error) {
	if err := checkHybridArgs(meshShape, dcnMeshShape, axisNames); err != nil {
		return nil, err
	}
	return meshWithOptions(options, func(o swig.MeshOptions, e []uintptr) swig.Mesh {
		return swig.MeshMakeHybridWithOptions(meshShape, dcnMeshShape, axisNames, o, e)
	})
}

// CreateDeviceMeshWithOptions is CreateDeviceMesh with options (nil: the
// defaults).
func CreateDeviceMeshWithOptions(shape []int64, axisNames []string, options *MeshOptions) (*Mesh, error) {
	if err := checkStrings("axis_names", axisNames...); err != nil {
		return nil, err
	}
	return meshWithOptions(options, func(o swig.MeshOptions, e []uintptr) swig.Mesh {
		return swig.MeshCreateDeviceMeshWithOptions(shape, axisNames, o, e)
	})
}
