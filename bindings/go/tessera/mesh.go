// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// Mesh is an n-dimensional grid of devices with named axes. Immutable.
type Mesh struct{ p swig.Mesh }

// NewMesh creates a mesh of the given shape and axis names over devices in
// Keras's form ("cpu:3"), row-major; nil devices means every device of the
// default type.
func NewMesh(shape []int64, axisNames []string, devices []string) (*Mesh, error) {
	if err := checkStrings("axis_names", axisNames...); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.NewMesh(shape, axisNames, devices, e[:]))
	return m, e.take()
}

// Rank is the number of dimensions.
func (m *Mesh) Rank() int { return int(keep(m, m.raw().Rank)) }

// NumDevices is the number of devices.
func (m *Mesh) NumDevices() int { return int(keep(m, m.raw().Size)) }

// Platform is the platform of the mesh's devices.
func (m *Mesh) Platform() Platform { return Platform(keep(m, m.raw().Platform)) }

// Shape is the size of every dimension.
func (m *Mesh) Shape() []int64 {
	shape := make([]int64, m.Rank())
	for i := range shape {
		shape[i] = m.raw().Dim(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return shape
}

// AxisNames is the name of every axis.
func (m *Mesh) AxisNames() []string {
	names := make([]string, m.Rank())
	for i := range names {
		names[i] = m.raw().AxisName(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return names
}

// AxisSize is the size of the axis called name (NOT_FOUND, listing the
// mesh's axes, when there is none).
func (m *Mesh) AxisSize(name string) (int64, error) {
	if err := checkStrings("name", name); err != nil {
		return 0, err
	}
	return keepErr(m, func(e []uintptr) int64 { return m.raw().AxisSize(name, e) })
}

// AxisIndex is the position of the axis called name.
func (m *Mesh) AxisIndex(name string) (int, error) {
	if err := checkStrings("name", name); err != nil {
		return 0, err
	}
	var e errSlot
	v := m.raw().AxisIndex(name, e[:])
	runtime.KeepAlive(m)
	return int(v), e.take()
}

// Device is the device at row-major position index.
func (m *Mesh) Device(index int) (*Device, error) {
	return keepErr(m, func(e []uintptr) *Device { return wrapDevice(m.raw().Device(int64(index), e)) })
}

// DeviceCoordinates are the coordinates (one position per axis) of the
// device with global id id.
func (m *Mesh) DeviceCoordinates(id int64) ([]int, error) {
	coords, err := keepErr(m, func(e []uintptr) []int64 { return m.raw().DeviceCoordinates(id, e) })
	return toInts(coords), err
}

// DeviceAt is the global id of the device at coords.
func (m *Mesh) DeviceAt(coords []int) (int64, error) {
	c := toInt64s(coords)
	return keepErr(m, func(e []uintptr) int64 { return m.raw().DeviceAt(c, e) })
}

// Equal reports whether both meshes have the same shape, names and devices.
func (m *Mesh) Equal(other *Mesh) bool {
	v := m.raw().IsEqual(other.raw())
	runtime.KeepAlive(m)
	runtime.KeepAlive(other)
	return v
}

// String is Keras's repr ("<DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>").
func (m *Mesh) String() string { return keep(m, func() string { return m.raw().ToString(nil) }) }

// ToProto is the mesh as serialized tessera.v1.Mesh bytes.
func (m *Mesh) ToProto() ([]byte, error) {
	return keepErr(m, func(e []uintptr) []byte { return m.raw().ToProto(e) })
}

// MeshFromProto parses serialized tessera.v1.Mesh bytes.
func MeshFromProto(data []byte) (*Mesh, error) {
	var e errSlot
	m := wrapMesh(swig.MeshFromProto(data, e[:]))
	return m, e.take()
}
