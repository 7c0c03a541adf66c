// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// Platform is a device platform.
type Platform int32

const (
	PlatformCPU Platform = 0
	PlatformGPU Platform = 1
	PlatformTPU Platform = 2
)

// String is "cpu", "gpu" or "tpu" ("" for an unknown value).
func (p Platform) String() string { return swig.Platform_name(swig.Enum_SS_tessera_platform_t(p)) }

// Device is one device. Immutable.
type Device struct{ p swig.Device }

// ParseDevice parses Keras's "<platform>:<id>" form ("gpu:3").
func ParseDevice(text string) (*Device, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	var e errSlot
	d := wrapDevice(swig.DeviceParse(text, e[:]))
	return d, e.take()
}

// ID is the device's global id.
func (d *Device) ID() int64 { v := d.raw().Id(); runtime.KeepAlive(d); return v }

// Platform is the device's platform.
func (d *Device) Platform() Platform {
	v := Platform(d.raw().Platform())
	runtime.KeepAlive(d)
	return v
}

// ProcessIndex is the index of the process that owns the device.
func (d *Device) ProcessIndex() int { return int(keep(d, d.raw().ProcessIndex)) }

// LocalOrdinal is the device's index among its process's devices.
func (d *Device) LocalOrdinal() int { return int(keep(d, d.raw().LocalOrdinal)) }

// Name is Keras's string form ("gpu:3").
func (d *Device) Name() string { v := d.raw().Name(); runtime.KeepAlive(d); return v }

// HasCoords reports whether the device knows its chip's place in a TPU slice.
func (d *Device) HasCoords() bool { v := d.raw().HasCoords(); runtime.KeepAlive(d); return v }

// Coord is coordinate axis (0 = x, 1 = y, 2 = z) of the device's TPU chip.
func (d *Device) Coord(axis int) (int, error) {
	v, err := keepErr(d, func(e []uintptr) int64 { return d.raw().Coord(int64(axis), e) })
	return int(v), err
}

// CoreOnChip is the device's core on its chip (0 when unknown).
func (d *Device) CoreOnChip() int { return int(keep(d, d.raw().CoreOnChip)) }

// DeviceList is the devices of one platform. Immutable.
type DeviceList struct{ p swig.DeviceList }

// NewDeviceList lists the devices of platformType ("" for accelerators if
// any, else CPU; "cpu", "gpu" or "tpu").
func NewDeviceList(platformType string) (*DeviceList, error) {
	if err := checkStrings("type", platformType); err != nil {
		return nil, err
	}
	var e errSlot
	l := wrapDeviceList(swig.NewDeviceList(platformType, e[:]))
	return l, e.take()
}

// Len is the number of devices.
func (l *DeviceList) Len() int { v := l.raw().Size(); runtime.KeepAlive(l); return int(v) }

// Get is device index of the list.
func (l *DeviceList) Get(index int) (*Device, error) {
	var e errSlot
	d := wrapDevice(l.raw().Get(int64(index), e[:]))
	runtime.KeepAlive(l)
	return d, e.take()
}

// DeviceCount is the number of devices of platformType (as NewDeviceList).
func DeviceCount(platformType string) (int, error) {
	if err := checkStrings("type", platformType); err != nil {
		return 0, err
	}
	var e errSlot
	n := swig.DeviceListCount(platformType, e[:])
	return int(n), e.take()
}
