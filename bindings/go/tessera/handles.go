// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Handle plumbing, one block per type: wrap (nil for a NULL handle, else a
// finalizer as the safety net), Close (frees now, idempotent) and raw (the
// NULL proxy for a nil or closed handle, which the C library answers with
// INVALID_ARGUMENT naming the argument instead of crashing).

import (
	"runtime"
	"sync/atomic"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// liveHandles counts handles wrapped and not yet closed or finalized (the
// tests wait on it for the finalizers to catch up).
var liveHandles atomic.Int64

func wrapDevice(p swig.Device) *Device {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Device{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Device).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Device) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDevice(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Device) raw() swig.Device {
	if h == nil || h.p == nil {
		return swig.SwigcptrDevice(0)
	}
	return h.p
}

func wrapDeviceList(p swig.DeviceList) *DeviceList {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &DeviceList{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*DeviceList).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *DeviceList) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDeviceList(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *DeviceList) raw() swig.DeviceList {
	if h == nil || h.p == nil {
		return swig.SwigcptrDeviceList(0)
	}
	return h.p
}

func wrapLocalDevices(p swig.LocalDevices) *LocalDevices {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &LocalDevices{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*LocalDevices).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *LocalDevices) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteLocalDevices(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *LocalDevices) raw() swig.LocalDevices {
	if h == nil || h.p == nil {
		return swig.SwigcptrLocalDevices(0)
	}
	return h.p
}

func wrapMesh(p swig.Mesh) *Mesh {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Mesh{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Mesh).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Mesh) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteMesh(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Mesh) raw() swig.Mesh {
	if h == nil || h.p == nil {
		return swig.SwigcptrMesh(0)
	}
	return h.p
}

func wrapLayout(p swig.Layout) *Layout {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Layout{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Layout).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Layout) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteLayout(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Layout) raw() swig.Layout {
	if h == nil || h.p == nil {
		return swig.SwigcptrLayout(0)
	}
	return h.p
}

func wrapLayoutMap(p swig.LayoutMap) *LayoutMap {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &LayoutMap{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*LayoutMap).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *LayoutMap) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteLayoutMap(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *LayoutMap) raw() swig.LayoutMap {
	if h == nil || h.p == nil {
		return swig.SwigcptrLayoutMap(0)
	}
	return h.p
}

func wrapDistributionOptions(p swig.DistributionOptions) *DistributionOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &DistributionOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*DistributionOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *DistributionOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDistributionOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *DistributionOptions) raw() swig.DistributionOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrDistributionOptions(0)
	}
	return h.p
}

func wrapDistribution(p swig.Distribution) *Distribution {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Distribution{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Distribution).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Distribution) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDistribution(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Distribution) raw() swig.Distribution {
	if h == nil || h.p == nil {
		return swig.SwigcptrDistribution(0)
	}
	return h.p
}

func wrapDatasetPlan(p swig.DatasetPlan) *DatasetPlan {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &DatasetPlan{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*DatasetPlan).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *DatasetPlan) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDatasetPlan(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *DatasetPlan) raw() swig.DatasetPlan {
	if h == nil || h.p == nil {
		return swig.SwigcptrDatasetPlan(0)
	}
	return h.p
}

func wrapSharding(p swig.Sharding) *Sharding {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Sharding{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Sharding).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Sharding) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteSharding(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Sharding) raw() swig.Sharding {
	if h == nil || h.p == nil {
		return swig.SwigcptrSharding(0)
	}
	return h.p
}

func wrapReshardPlan(p swig.ReshardPlan) *ReshardPlan {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &ReshardPlan{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*ReshardPlan).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *ReshardPlan) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteReshardPlan(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *ReshardPlan) raw() swig.ReshardPlan {
	if h == nil || h.p == nil {
		return swig.SwigcptrReshardPlan(0)
	}
	return h.p
}

func wrapDTensorMesh(p swig.DTensorMesh) *DTensorMesh {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &DTensorMesh{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*DTensorMesh).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *DTensorMesh) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDTensorMesh(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *DTensorMesh) raw() swig.DTensorMesh {
	if h == nil || h.p == nil {
		return swig.SwigcptrDTensorMesh(0)
	}
	return h.p
}

func wrapCopyOptions(p swig.CopyOptions) *CopyOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &CopyOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*CopyOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *CopyOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteCopyOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *CopyOptions) raw() swig.CopyOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrCopyOptions(0)
	}
	return h.p
}

func wrapHloSharding(p swig.HloSharding) *HloSharding {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &HloSharding{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*HloSharding).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *HloSharding) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteHloSharding(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *HloSharding) raw() swig.HloSharding {
	if h == nil || h.p == nil {
		return swig.SwigcptrHloSharding(0)
	}
	return h.p
}

// The experimental DTensor layout and config handles (issue 11).

func wrapDTensorLayout(p swig.DTensorLayout) *DTensorLayout {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &DTensorLayout{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*DTensorLayout).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *DTensorLayout) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDTensorLayout(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *DTensorLayout) raw() swig.DTensorLayout {
	if h == nil || h.p == nil {
		return swig.SwigcptrDTensorLayout(0)
	}
	return h.p
}

func wrapDTensorConfig(p swig.DTensorConfig) *DTensorConfig {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &DTensorConfig{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*DTensorConfig).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *DTensorConfig) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDTensorConfig(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *DTensorConfig) raw() swig.DTensorConfig {
	if h == nil || h.p == nil {
		return swig.SwigcptrDTensorConfig(0)
	}
	return h.p
}

func wrapDTensorConfigOptions(p swig.DTensorConfigOptions) *DTensorConfigOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &DTensorConfigOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*DTensorConfigOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *DTensorConfigOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDTensorConfigOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *DTensorConfigOptions) raw() swig.DTensorConfigOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrDTensorConfigOptions(0)
	}
	return h.p
}

func wrapMeshOptions(p swig.MeshOptions) *MeshOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &MeshOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*MeshOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *MeshOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteMeshOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *MeshOptions) raw() swig.MeshOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrMeshOptions(0)
	}
	return h.p
}

func wrapCheckpoint(p swig.Checkpoint) *Checkpoint {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Checkpoint{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Checkpoint).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Checkpoint) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteCheckpoint(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Checkpoint) raw() swig.Checkpoint {
	if h == nil || h.p == nil {
		return swig.SwigcptrCheckpoint(0)
	}
	return h.p
}

func wrapReadOptions(p swig.ReadOptions) *ReadOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &ReadOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*ReadOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *ReadOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteReadOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *ReadOptions) raw() swig.ReadOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrReadOptions(0)
	}
	return h.p
}

func wrapReadPlan(p swig.ReadPlan) *ReadPlan {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &ReadPlan{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*ReadPlan).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *ReadPlan) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteReadPlan(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *ReadPlan) raw() swig.ReadPlan {
	if h == nil || h.p == nil {
		return swig.SwigcptrReadPlan(0)
	}
	return h.p
}

func wrapCheckpointPlan(p swig.CheckpointPlan) *CheckpointPlan {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &CheckpointPlan{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*CheckpointPlan).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *CheckpointPlan) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteCheckpointPlan(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *CheckpointPlan) raw() swig.CheckpointPlan {
	if h == nil || h.p == nil {
		return swig.SwigcptrCheckpointPlan(0)
	}
	return h.p
}

func wrapSaveOptions(p swig.SaveOptions) *SaveOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &SaveOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*SaveOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *SaveOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteSaveOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *SaveOptions) raw() swig.SaveOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrSaveOptions(0)
	}
	return h.p
}

func wrapSaver(p swig.CheckpointSaver) *Saver {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Saver{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Saver).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Saver) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteCheckpointSaver(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Saver) raw() swig.CheckpointSaver {
	if h == nil || h.p == nil {
		return swig.SwigcptrCheckpointSaver(0)
	}
	return h.p
}

func wrapCheckpointIndex(p swig.CheckpointIndex) *CheckpointIndex {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &CheckpointIndex{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*CheckpointIndex).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *CheckpointIndex) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteCheckpointIndex(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *CheckpointIndex) raw() swig.CheckpointIndex {
	if h == nil || h.p == nil {
		return swig.SwigcptrCheckpointIndex(0)
	}
	return h.p
}

func wrapRestoreRequest(p swig.RestoreRequest) *RestoreRequest {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &RestoreRequest{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*RestoreRequest).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *RestoreRequest) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteRestoreRequest(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *RestoreRequest) raw() swig.RestoreRequest {
	if h == nil || h.p == nil {
		return swig.SwigcptrRestoreRequest(0)
	}
	return h.p
}
