// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// TF DTensor's configuration (config.py) read from DTENSOR_* variables, and
// the DTensor mesh creators over it (tessera/experimental/dtensor_config.h;
// experimental: may change in a minor release).

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// DTensorConfigOptions say where a DTensorConfig reads from; unset fields
// read this process. Mutable; one goroutine at a time.
type DTensorConfigOptions struct{ p swig.DTensorConfigOptions }

// NewDTensorConfigOptions has every field unset.
func NewDTensorConfigOptions() *DTensorConfigOptions {
	return wrapDTensorConfigOptions(swig.NewDTensorConfigOptions())
}

// SetVariables reads these "NAME=VALUE" entries instead of the environment
// ("DTENSOR_JOBS=a:1,b:1", "DTENSOR_CLIENT_ID=1"); a later entry for a name wins.
func (o *DTensorConfigOptions) SetVariables(variables []string) error {
	if err := checkStrings("variables", variables...); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetVariables(variables, e) })
}

// SetNumLocalDevices is how many devices of deviceType ("CPU", "GPU",
// "TPU") this client has.
func (o *DTensorConfigOptions) SetNumLocalDevices(deviceType string, numDevices int) error {
	if err := checkStrings("device_type", deviceType); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetNumLocalDevices(deviceType, int64(numDevices), e) })
}

// SetAcceleratorsInitialized is whether initialize_accelerator_system() has
// run (unset: true).
func (o *DTensorConfigOptions) SetAcceleratorsInitialized(initialized bool) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetAcceleratorsInitialized(initialized, e) })
}

// DTensorConfig answers what tf.experimental.dtensor's config functions
// answer; each query fails where DTensor raises, with its message. Immutable.
type DTensorConfig struct{ p swig.DTensorConfig }

// NewDTensorConfig reads DTensor's configuration as options say (nil: this
// process's environment and devices).
func NewDTensorConfig(options *DTensorConfigOptions) (*DTensorConfig, error) {
	var e errSlot
	c := wrapDTensorConfig(swig.NewDTensorConfig(options.raw(), e[:]))
	runtime.KeepAlive(options)
	return c, e.take()
}

func (c *DTensorConfig) count(f func(e []uintptr) int64) (int, error) {
	n, err := keepErr(c, f)
	return int(n), err
}

// ClientID is DTensor's client_id().
func (c *DTensorConfig) ClientID() (int, error) {
	return c.count(func(e []uintptr) int64 { return c.raw().ClientId(e) })
}

// NumClients is DTensor's num_clients().
func (c *DTensorConfig) NumClients() (int, error) {
	return c.count(func(e []uintptr) int64 { return c.raw().NumClients(e) })
}

// JobName is DTensor's job_name().
func (c *DTensorConfig) JobName() (string, error) {
	return keepErr(c, func(e []uintptr) string { return c.raw().JobName(e) })
}

// FullJobName is DTensor's full_job_name(task) ("<job>/replica:0/task:<task>");
// a negative task is this client's id.
func (c *DTensorConfig) FullJobName(task int) (string, error) {
	return keepErr(c, func(e []uintptr) string { return c.raw().FullJobName(int64(task), e) })
}

// Jobs is DTensor's jobs(): DTENSOR_JOBS split on ',' (empty in local mode).
func (c *DTensorConfig) Jobs() ([]string, error) {
	n, err := c.count(func(e []uintptr) int64 { return c.raw().NumJobs(e) })
	if err != nil {
		return nil, err
	}
	jobs := make([]string, n)
	for i := range jobs {
		jobs[i] = c.raw().Job(int64(i), nil)
	}
	runtime.KeepAlive(c)
	return jobs, nil
}

// HeartbeatEnabled is DTensor's heartbeat_enabled().
func (c *DTensorConfig) HeartbeatEnabled() bool { return keep(c, c.raw().HeartbeatEnabled) }

// IsLocalMode is DTensor's is_local_mode(): no jobs.
func (c *DTensorConfig) IsLocalMode() (bool, error) {
	return keepErr(c, func(e []uintptr) bool { return c.raw().IsLocalMode(e) })
}

// AcceleratorsInitialized is whether the accelerators were initialised.
func (c *DTensorConfig) AcceleratorsInitialized() bool {
	return keep(c, c.raw().AcceleratorsInitialized)
}

// NumLocalDevices is DTensor's num_local_devices(deviceType).
func (c *DTensorConfig) NumLocalDevices(deviceType string) (int, error) {
	if err := checkStrings("device_type", deviceType); err != nil {
		return 0, err
	}
	return c.count(func(e []uintptr) int64 { return c.raw().NumLocalDevices(deviceType, e) })
}

// NumGlobalDevices is DTensor's num_global_devices(deviceType).
func (c *DTensorConfig) NumGlobalDevices(deviceType string) (int, error) {
	if err := checkStrings("device_type", deviceType); err != nil {
		return 0, err
	}
	return c.count(func(e []uintptr) int64 { return c.raw().NumGlobalDevices(deviceType, e) })
}

// LocalDevices is DTensor's local_devices(deviceType, client)
// ("/job:<job>/replica:0/task:<client>/device:<TYPE>:<i>"); a negative
// client is this client's id.
func (c *DTensorConfig) LocalDevices(deviceType string, client int) ([]string, error) {
	n, err := c.NumLocalDevices(deviceType)
	if err != nil {
		return nil, err
	}
	devices := make([]string, n)
	for i := range devices {
		d, err := keepErr(c, func(e []uintptr) string { return c.raw().LocalDevice(deviceType, int64(client), int64(i), e) })
		if err != nil {
			return nil, err
		}
		devices[i] = d
	}
	return devices, nil
}

// NewDistributedDTensorMeshWithConfig is NewDistributedDTensorMesh over the
// job config describes (its clients, client id, job name and devices)
// instead of the runtime.
func NewDistributedDTensorMeshWithConfig(dimNames []string, dimSizes []int64, name string, localDevices []string,
	deviceType string, useXLASPMD bool, config *DTensorConfig) (*DTensorMesh, error) {
	if err := checkDTensorMeshArgs(dimNames, dimSizes, localDevices, name, deviceType); err != nil {
		return nil, err
	}
	return dtensorMeshFrom(func(e []uintptr) swig.DTensorMesh {
		return swig.DTensorMeshCreateDistributedWithConfig(dimNames, dimSizes, name, localDevices, deviceType,
			useXLASPMD, config.raw(), e)
	}, config)
}

// NewDistributedDTensorMeshLegacyWithConfig is NewDistributedDTensorMeshLegacy
// over the job config describes, as TF 2.9-2.11's api.py read it.
func NewDistributedDTensorMeshLegacyWithConfig(dimNames []string, dimSizes []int64, name string,
	numGlobalDevices, numClients, clientID int, deviceType string, config *DTensorConfig) (*DTensorMesh, error) {
	if err := checkDTensorMeshArgs(dimNames, dimSizes, nil, name, deviceType); err != nil {
		return nil, err
	}
	return dtensorMeshFrom(func(e []uintptr) swig.DTensorMesh {
		return swig.DTensorMeshCreateDistributedLegacyWithConfig(dimNames, dimSizes, name, int64(numGlobalDevices),
			int64(numClients), int64(clientID), deviceType, config.raw(), e)
	}, config)
}
