// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// More of TF DTensor's Mesh: its Python constructor, single-device and host
// meshes, dimensions by name, coordinates, hosts and equality
// (tessera/experimental/dtensor_mesh.h and dtensor_layout.h; experimental:
// may change in a minor release).

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// NewDTensorMeshFromIDs is DTensor's Python Mesh(dim_names,
// global_device_ids, local_device_ids, local_devices, mesh_name,
// use_xla_spmd): globalIDs row-major over dimSizes, localDevices 1:1 with
// localIDs.
func NewDTensorMeshFromIDs(dimNames []string, dimSizes []int64, globalIDs, localIDs []int64, localDevices []string,
	name string, useXLASPMD bool) (*DTensorMesh, error) {
	if err := checkDTensorMeshArgs(dimNames, dimSizes, localDevices, name, ""); err != nil {
		return nil, err
	}
	return dtensorMeshFrom(func(e []uintptr) swig.DTensorMesh {
		return swig.DTensorMeshCreateFromIds(dimNames, dimSizes, globalIDs, localIDs, localDevices, name, useXLASPMD, e)
	})
}

// DTensorMeshFromDevice is DTensor's Mesh.from_device: a single-device mesh
// on device, kept verbatim.
func DTensorMeshFromDevice(device string) (*DTensorMesh, error) {
	if err := checkStrings("device", device); err != nil {
		return nil, err
	}
	return dtensorMeshFrom(func(e []uintptr) swig.DTensorMesh { return swig.DTensorMeshFromDevice(device, e) })
}

// ToDeviceType is Mesh::ToDeviceType: the local devices renamed to
// deviceType, no name, no global devices.
func (m *DTensorMesh) ToDeviceType(deviceType string) (*DTensorMesh, error) {
	if err := checkStrings("device_type", deviceType); err != nil {
		return nil, err
	}
	return keepErr(m, func(e []uintptr) *DTensorMesh { return wrapDTensorMesh(m.raw().ToDeviceType(deviceType, e)) })
}

// HostMesh is DTensor's Mesh.host_mesh(): the same ids over the CPUs of the
// same tasks.
func (m *DTensorMesh) HostMesh() (*DTensorMesh, error) {
	return keepErr(m, func(e []uintptr) *DTensorMesh { return wrapDTensorMesh(m.raw().ToHostMesh(e)) })
}

// HasDim is DTensor's `name in mesh`.
func (m *DTensorMesh) HasDim(name string) (bool, error) {
	if err := checkStrings("dim_name", name); err != nil {
		return false, err
	}
	return keepErr(m, func(e []uintptr) bool { return m.raw().HasDim(name, e) })
}

// DimIndex is Mesh::idx_for_dim: the position of the dimension name.
func (m *DTensorMesh) DimIndex(name string) (int, error) {
	if err := checkStrings("dim_name", name); err != nil {
		return 0, err
	}
	i, err := keepErr(m, func(e []uintptr) int64 { return m.raw().DimIndex(name, e) })
	return int(i), err
}

// DimSize is DTensor's dim_size(name).
func (m *DTensorMesh) DimSize(name string) (int64, error) {
	if err := checkStrings("dim_name", name); err != nil {
		return 0, err
	}
	return keepErr(m, func(e []uintptr) int64 { return m.raw().DimSizeOf(name, e) })
}

// DeviceLocation is Mesh::device_location: the coordinate of row-major
// mesh position offset.
func (m *DTensorMesh) DeviceLocation(offset int) ([]int, error) {
	v, err := keepErr(m, func(e []uintptr) []int64 { return m.raw().DeviceLocation(int64(offset), e) })
	return toInts(v), err
}

// Coordinates is Python's Mesh.coords(deviceIndex): any index, wrapping as
// Python's // and % do.
func (m *DTensorMesh) Coordinates(deviceIndex int64) ([]int, error) {
	v, err := keepErr(m, func(e []uintptr) []int64 { return m.raw().Coordinates(deviceIndex, e) })
	return toInts(v), err
}

// Hosts is Mesh::hosts: the distinct "/job:J/task:T" of the local devices,
// first seen first.
func (m *DTensorMesh) Hosts() []string {
	hosts := make([]string, m.raw().NumHosts())
	for i := range hosts {
		hosts[i] = m.raw().Host(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return hosts
}

// Equal is DTensor's Mesh ==: every field of its proto.
func (m *DTensorMesh) Equal(other *DTensorMesh) bool {
	v := m.raw().IsEqual(other.raw())
	runtime.KeepAlive(m)
	runtime.KeepAlive(other)
	return v
}
