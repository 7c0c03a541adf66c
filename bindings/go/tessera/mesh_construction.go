// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Mesh construction the way each framework builds its meshes
// (tessera/mesh_construction.h): JAX's make_mesh and
// create_hybrid_device_mesh, PyTorch's mesh[names], _flatten,
// get_coordinate, get_local_rank and process groups, TF DTensor's
// create_mesh and create_distributed_mesh.

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// MakeMesh is JAX's make_mesh: the first prod(shape) devices ("gpu:3"; nil:
// every device of the default type) in create_device_mesh's order.
// deviceKind is JAX's device_kind ("" for none; "TPU v2"/"TPU v3" pick the
// tray ring).
func MakeMesh(shape []int64, axisNames []string, devices []string, deviceKind string) (*Mesh, error) {
	if err := checkStrings("axis_names", axisNames...); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	if err := checkStrings("device_kind", deviceKind); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.MeshMake(shape, axisNames, devices, deviceKind, e[:]))
	return m, e.take()
}

// MakeHybridMesh is JAX's create_hybrid_device_mesh with process_is_granule:
// one meshShape mesh per process, the processes in the grid dcnMeshShape
// (as long as meshShape). sortGranulesByKey orders processes by index.
func MakeHybridMesh(meshShape, dcnMeshShape []int64, axisNames []string, devices []string,
	sortGranulesByKey bool, deviceKind string) (*Mesh, error) {
	if err := checkHybridArgs(meshShape, dcnMeshShape, axisNames); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	if err := checkStrings("device_kind", deviceKind); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.MeshMakeHybrid(meshShape, dcnMeshShape, axisNames, devices, sortGranulesByKey,
		deviceKind, e[:]))
	return m, e.take()
}

// checkHybridArgs rejects what the hybrid creators cannot pass to C: shapes
// of different lengths, NUL bytes in an axis name.
func checkHybridArgs(meshShape, dcnMeshShape []int64, axisNames []string) error {
	if len(meshShape) != len(dcnMeshShape) {
		return invalidArgument("Argument 'dcn_mesh_shape' must have as many entries as 'mesh_shape' (%d), got %d",
			len(meshShape), len(dcnMeshShape))
	}
	return checkStrings("axis_names", axisNames...)
}

// Submesh is PyTorch's mesh[axisNames...] as device deviceID sees it: the
// mesh over those axes (in the mesh's order) that holds the device.
func (m *Mesh) Submesh(axisNames []string, deviceID int64) (*Mesh, error) {
	if err := checkStrings("axis_names", axisNames...); err != nil {
		return nil, err
	}
	return keepErr(m, func(e []uintptr) *Mesh { return wrapMesh(m.raw().Submesh(axisNames, deviceID, e)) })
}

// Flatten is PyTorch's _flatten: a 1-D mesh over the devices in row-major
// order; name "" joins the axis names with "_".
func (m *Mesh) Flatten(name string) (*Mesh, error) {
	if err := checkStrings("name", name); err != nil {
		return nil, err
	}
	return keepErr(m, func(e []uintptr) *Mesh { return wrapMesh(m.raw().Flatten(name, e)) })
}

// CoordinateOf is PyTorch's get_coordinate: the device's coordinates, and
// false (PyTorch's None) when the mesh lacks the device.
func (m *Mesh) CoordinateOf(deviceID int64) ([]int, bool, error) {
	var e errSlot
	v := m.raw().CoordinateOf(deviceID, e[:])
	runtime.KeepAlive(m)
	if err := e.take(); err != nil {
		return nil, false, err
	}
	if len(v) == 0 {
		return nil, false, nil
	}
	return toInts(v), true, nil
}

// LocalRank is PyTorch's get_local_rank(axisName) for device deviceID.
func (m *Mesh) LocalRank(axisName string, deviceID int64) (int, error) {
	if err := checkStrings("axis_name", axisName); err != nil {
		return 0, err
	}
	rank, err := keepErr(m, func(e []uintptr) int64 { return m.raw().LocalRank(axisName, deviceID, e) })
	return int(rank), err
}

// AxisGroups are the process groups along axisName as PyTorch builds them:
// each group the device ids that differ only in that axis.
func (m *Mesh) AxisGroups(axisName string) ([][]int64, error) {
	size, err := m.AxisSize(axisName)
	if err != nil {
		return nil, err
	}
	var e errSlot
	ids := m.raw().AxisGroups(axisName, e[:])
	runtime.KeepAlive(m)
	if err := e.take(); err != nil {
		return nil, err
	}
	groups := make([][]int64, 0, len(ids)/int(size))
	for start := 0; start+int(size) <= len(ids); start += int(size) {
		groups = append(groups, ids[start:start+int(size)])
	}
	return groups, nil
}

func checkDims(dimNames []string, dimSizes []int64) error {
	if len(dimNames) != len(dimSizes) {
		return invalidArgument("Argument 'dim_sizes' must have as many entries as 'dim_names' (%d), got %d",
			len(dimNames), len(dimSizes))
	}
	return checkStrings("dim_names", dimNames...)
}

// NewDTensorMesh is DTensor's create_mesh on one client: global ids
// 0..n-1 row-major, all local. No dims means DTensor's default [("x", n)];
// nil devices ("CPU:0", "/device:GPU:1") means this process's devices of
// deviceType ("CPU", "GPU", "TPU"; "" takes the first device's type).
func NewDTensorMesh(dimNames []string, dimSizes []int64, name string, devices []string,
	deviceType string, useXLASPMD bool) (*DTensorMesh, error) {
	if err := checkDims(dimNames, dimSizes); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	if err := checkStrings("name", name, deviceType); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapDTensorMesh(swig.DTensorMeshCreate(dimNames, dimSizes, name, devices, deviceType, useXLASPMD, e[:]))
	return m, e.take()
}

// checkDTensorMeshArgs rejects what the DTensor mesh creators cannot pass
// to C: dimension lists of different lengths, NUL bytes in any string.
func checkDTensorMeshArgs(dimNames []string, dimSizes []int64, localDevices []string, name, deviceType string) error {
	if err := checkDims(dimNames, dimSizes); err != nil {
		return err
	}
	if err := checkStrings("local_devices", localDevices...); err != nil {
		return err
	}
	return checkStrings("name", name, deviceType)
}

// dtensorMeshFrom wraps the mesh f returns, keeping keep alive for the call.
func dtensorMeshFrom(f func(e []uintptr) swig.DTensorMesh, keep ...any) (*DTensorMesh, error) {
	var e errSlot
	m := wrapDTensorMesh(f(e[:]))
	runtime.KeepAlive(keep)
	return m, e.take()
}

// NewDistributedDTensorMesh is DTensor's create_distributed_mesh: the
// clients and this client's id are the runtime's (Initialize); localDevices
// are this client's (nil: all of deviceType).
func NewDistributedDTensorMesh(dimNames []string, dimSizes []int64, name string, localDevices []string,
	deviceType string, useXLASPMD bool) (*DTensorMesh, error) {
	if err := checkDTensorMeshArgs(dimNames, dimSizes, localDevices, name, deviceType); err != nil {
		return nil, err
	}
	return dtensorMeshFrom(func(e []uintptr) swig.DTensorMesh {
		return swig.DTensorMeshCreateDistributed(dimNames, dimSizes, name, localDevices, deviceType, useXLASPMD, e)
	})
}

// NewDistributedDTensorMeshLegacy is the legacy create_distributed_mesh
// (TF 2.9-2.11) with explicit counts; a negative numGlobalDevices,
// numClients or clientID means "not given" (the runtime's value).
// deviceType is "CPU" or "GPU".
func NewDistributedDTensorMeshLegacy(dimNames []string, dimSizes []int64, name string,
	numGlobalDevices, numClients, clientID int, deviceType string) (*DTensorMesh, error) {
	if err := checkDTensorMeshArgs(dimNames, dimSizes, nil, name, deviceType); err != nil {
		return nil, err
	}
	return dtensorMeshFrom(func(e []uintptr) swig.DTensorMesh {
		return swig.DTensorMeshCreateDistributedLegacy(dimNames, dimSizes, name, int64(numGlobalDevices),
			int64(numClients), int64(clientID), deviceType, e)
	})
}

// CreateDeviceMesh is JAX's create_device_mesh: exactly prod(shape) devices
// (nil: every device of the default type), ordered as MakeMesh orders them,
// with JAX's allow_split_physical_axes and contiguous_submeshes.
func CreateDeviceMesh(shape []int64, axisNames []string, devices []string, deviceKind string,
	allowSplitPhysicalAxes, contiguousSubmeshes bool) (*Mesh, error) {
	if err := checkStrings("axis_names", axisNames...); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	if err := checkStrings("device_kind", deviceKind); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.MeshCreateDeviceMesh(shape, axisNames, devices, deviceKind, allowSplitPhysicalAxes,
		contiguousSubmeshes, e[:]))
	return m, e.take()
}

// TPUAxisAssignment is the physical-to-logical axis assignment of JAX's TPU
// torus placement: row p, column l is the size physical axis p gives
// logical axis l (1 where it gives none).
func TPUAxisAssignment(physicalShape, meshShape []int64, allowSplitPhysicalAxes bool) ([][]int64, error) {
	var e errSlot
	flat := swig.MeshTpuAxisAssignment(physicalShape, meshShape, allowSplitPhysicalAxes, e[:])
	if err := e.take(); err != nil {
		return nil, err
	}
	rows := make([][]int64, len(physicalShape))
	for p := range rows {
		rows[p] = flat[p*len(meshShape) : (p+1)*len(meshShape)]
	}
	return rows, nil
}
