// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// LocalDevices are this host's accelerators and CPUs as discovery found them
// (TESSERA_DEVICES, NVML, or the CPU count), accelerators first. Immutable.
type LocalDevices struct{ p swig.LocalDevices }

// LocalDevice is one discovered device.
type LocalDevice struct {
	Platform    Platform
	Ordinal     int
	MemoryBytes int64
	Kind        string // e.g. "NVIDIA H100 80GB HBM3"
	PhysicalID  string
	PCIBusID    string
}

// DiscoverLocalDevices runs device discovery on this host.
func DiscoverLocalDevices() (*LocalDevices, error) {
	var e errSlot
	d := wrapLocalDevices(swig.NewLocalDevices(e[:]))
	return d, e.take()
}

// Len is the number of devices.
func (d *LocalDevices) Len() int { return int(keep(d, d.raw().Size)) }

// Provider names where the devices came from.
func (d *LocalDevices) Provider() string { return keep(d, d.raw().Provider) }

// NVMLUnavailableReason says why NVML was not used ("" when it was).
func (d *LocalDevices) NVMLUnavailableReason() string {
	return keep(d, d.raw().NvmlUnavailableReason)
}

// Get is device index (OUT_OF_RANGE past Len).
func (d *LocalDevices) Get(index int) (LocalDevice, error) {
	var out LocalDevice
	var e errSlot
	raw := d.raw()
	out.Platform = Platform(raw.Platform(int64(index), e[:]))
	if err := e.take(); err != nil {
		return LocalDevice{}, err
	}
	out.Ordinal = int(raw.Ordinal(int64(index), nil))
	out.MemoryBytes = raw.MemoryBytes(int64(index), nil)
	out.Kind = raw.Kind(int64(index), nil)
	out.PhysicalID = raw.PhysicalId(int64(index), nil)
	out.PCIBusID = raw.PciBusId(int64(index), nil)
	runtime.KeepAlive(d)
	return out, nil
}

// All are every device, in order.
func (d *LocalDevices) All() ([]LocalDevice, error) {
	all := make([]LocalDevice, d.Len())
	for i := range all {
		v, err := d.Get(i)
		if err != nil {
			return nil, err
		}
		all[i] = v
	}
	return all, nil
}
