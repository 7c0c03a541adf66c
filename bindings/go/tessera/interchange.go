// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// The other frameworks' forms of meshes, layouts and distributions: JAX's
// mesh text and XLA device order, XLA's HLO sharding and OpSharding,
// PyTorch's placements, TF DTensor's texts, and Tessera's JSON.

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

func textOf(f func(e []uintptr) string, keep any) (string, error) {
	var e errSlot
	v := f(e[:])
	runtime.KeepAlive(keep)
	return v, e.take()
}

// JAXText is the mesh as JAX prints it.
func (m *Mesh) JAXText() (string, error) {
	return textOf(func(e []uintptr) string { return m.raw().ToJaxText(e) }, m)
}

// MeshFromJAXText parses JAX's mesh text over devices ("gpu:3"; nil: the
// default devices).
func MeshFromJAXText(text string, devices []string) (*Mesh, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.MeshFromJaxText(text, devices, e[:]))
	return m, e.take()
}

// DTensorText is the mesh in TF DTensor's text form.
func (m *Mesh) DTensorText() (string, error) {
	return textOf(func(e []uintptr) string { return m.raw().ToDtensorText(e) }, m)
}

// MeshFromDTensorText parses DTensor's mesh text.
func MeshFromDTensorText(text string) (*Mesh, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.MeshFromDtensorText(text, e[:]))
	return m, e.take()
}

// JSON is the mesh as Tessera's JSON.
func (m *Mesh) JSON() (string, error) {
	return textOf(func(e []uintptr) string { return m.raw().ToJson(e) }, m)
}

// MeshFromJSON parses Tessera's mesh JSON.
func MeshFromJSON(text string) (*Mesh, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapMesh(swig.MeshFromJson(text, e[:]))
	return m, e.take()
}

// XLADeviceOrder is the device id at each logical index (XLA's device assignment).
func (m *Mesh) XLADeviceOrder() ([]int64, error) {
	return keepErr(m, func(e []uintptr) []int64 { return m.raw().XlaDeviceOrder(e) })
}

func layoutFrom(f func(e []uintptr) swig.Layout, keep any) (*Layout, error) {
	var e errSlot
	l := wrapLayout(f(e[:]))
	runtime.KeepAlive(keep)
	return l, e.take()
}

// LayoutFromPartitionSpec parses JAX's PartitionSpec text for a rank-rank array on mesh.
func LayoutFromPartitionSpec(text string, mesh *Mesh, rank int) (*Layout, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	return layoutFrom(func(e []uintptr) swig.Layout {
		return swig.LayoutFromPartitionSpec(text, mesh.raw(), int64(rank), e)
	}, mesh)
}

// HLOSharding is XLA's HLO sharding text for a rank-rank array (v2: iota tile assignment).
func (l *Layout) HLOSharding(rank int, v2 bool) (string, error) {
	return textOf(func(e []uintptr) string { return l.raw().ToHloSharding(int64(rank), v2, e) }, l)
}

// LayoutFromHLOSharding parses XLA's HLO sharding text.
func LayoutFromHLOSharding(text string, mesh *Mesh, rank int) (*Layout, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	return layoutFrom(func(e []uintptr) swig.Layout {
		return swig.LayoutFromHloSharding(text, mesh.raw(), int64(rank), e)
	}, mesh)
}

// OpSharding is the layout as serialized xla.OpSharding bytes.
func (l *Layout) OpSharding(rank int, v2 bool) ([]byte, error) {
	return keepErr(l, func(e []uintptr) []byte { return l.raw().ToOpSharding(int64(rank), v2, e) })
}

// LayoutFromOpSharding parses serialized xla.OpSharding bytes.
func LayoutFromOpSharding(data []byte, mesh *Mesh, rank int) (*Layout, error) {
	return layoutFrom(func(e []uintptr) swig.Layout {
		return swig.LayoutFromOpSharding(data, mesh.raw(), int64(rank), e)
	}, mesh)
}

// TorchPlacements is PyTorch's placements text ("[Shard(dim=0), Replicate()]").
func (l *Layout) TorchPlacements() (string, error) {
	return textOf(func(e []uintptr) string { return l.raw().ToTorchPlacements(e) }, l)
}

// LayoutFromTorchPlacements parses PyTorch's placements text.
func LayoutFromTorchPlacements(text string, mesh *Mesh, rank int) (*Layout, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	return layoutFrom(func(e []uintptr) swig.Layout {
		return swig.LayoutFromTorchPlacements(text, mesh.raw(), int64(rank), e)
	}, mesh)
}

// DTensorText is the layout in TF DTensor's text form.
func (l *Layout) DTensorText() (string, error) {
	return textOf(func(e []uintptr) string { return l.raw().ToDtensorText(e) }, l)
}

// DTensorTextWithMesh is the layout's DTensor text over the DTensor mesh dm.
func (l *Layout) DTensorTextWithMesh(dm *DTensorMesh) (string, error) {
	v, err := textOf(func(e []uintptr) string { return l.raw().ToDtensorTextWithMesh(dm.raw(), e) }, l)
	runtime.KeepAlive(dm)
	return v, err
}

// LayoutFromDTensorText parses DTensor's layout text.
func LayoutFromDTensorText(text string) (*Layout, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	return layoutFrom(func(e []uintptr) swig.Layout { return swig.LayoutFromDtensorText(text, e) }, nil)
}

// JSON is the layout as Tessera's JSON.
func (l *Layout) JSON() (string, error) {
	return textOf(func(e []uintptr) string { return l.raw().ToJson(e) }, l)
}

// LayoutFromJSON parses Tessera's layout JSON.
func LayoutFromJSON(text string) (*Layout, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	return layoutFrom(func(e []uintptr) swig.Layout { return swig.LayoutFromJson(text, e) }, nil)
}

// ParseDTensorLayoutMesh is the mesh part of DTensor's layout text.
func ParseDTensorLayoutMesh(layoutText string) (*DTensorMesh, error) {
	if err := checkStrings("layout_text", layoutText); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapDTensorMesh(swig.DTensorMeshParseLayoutMesh(layoutText, e[:]))
	return m, e.take()
}

// Mesh is the DTensor mesh as a Tessera mesh.
func (m *DTensorMesh) Mesh() (*Mesh, error) {
	return keepErr(m, func(e []uintptr) *Mesh { return wrapMesh(m.raw().ToMesh(e)) })
}

// DeviceType is "CPU", "GPU" or "TPU".
func (m *DTensorMesh) DeviceType() string { return keep(m, m.raw().DeviceType) }

// SingleDevice is the device of a single-device mesh ("" otherwise).
func (m *DTensorMesh) SingleDevice() string {
	return keep(m, m.raw().SingleDevice)
}

// UseXLASPMD reports whether the mesh uses XLA SPMD.
func (m *DTensorMesh) UseXLASPMD() bool { return keep(m, m.raw().UseXlaSpmd) }

// DimNames are the names of the mesh dimensions.
func (m *DTensorMesh) DimNames() []string {
	names := make([]string, m.Rank())
	for i := range names {
		names[i] = m.raw().DimName(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return names
}

// DimSizes are the sizes of the mesh dimensions.
func (m *DTensorMesh) DimSizes() []int64 {
	sizes := make([]int64, m.Rank())
	for i := range sizes {
		sizes[i] = m.raw().DimSize(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return sizes
}

// GlobalIDs are the global device ids, row-major.
func (m *DTensorMesh) GlobalIDs() []int64 {
	ids := make([]int64, m.raw().NumGlobalIds())
	for i := range ids {
		ids[i] = m.raw().GlobalId(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return ids
}

// LocalIDs are this client's device ids.
func (m *DTensorMesh) LocalIDs() []int64 {
	ids := make([]int64, m.raw().NumLocalIds())
	for i := range ids {
		ids[i] = m.raw().LocalId(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return ids
}

// LocalDevices are this client's TF device names.
func (m *DTensorMesh) LocalDevices() []string {
	names := make([]string, m.raw().NumLocalIds())
	for i := range names {
		names[i] = m.raw().LocalDevice(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return names
}

// GlobalDevices are every client's TF device names (when the text has them).
func (m *DTensorMesh) GlobalDevices() []string {
	names := make([]string, m.raw().NumGlobalDevices())
	for i := range names {
		names[i] = m.raw().GlobalDevice(int64(i), nil)
	}
	runtime.KeepAlive(m)
	return names
}

// CurrentDistribution is the distribution in effect on this thread (the
// innermost scope, else the default); nil when none.
func CurrentDistribution() *Distribution { return wrapDistribution(swig.DistributionCurrent()) }

// SetDefaultDistribution makes d the process-wide default (nil clears it).
func SetDefaultDistribution(d *Distribution) {
	swig.DistributionSetDefault(d.raw())
	runtime.KeepAlive(d)
}

// PushScope makes d current on this OS thread until PopDistributionScope.
// Call runtime.LockOSThread first: the scope belongs to the thread.
func (d *Distribution) PushScope() error {
	return keepDo(d, func(e []uintptr) { d.raw().PushScope(e) })
}

// PopDistributionScope ends this thread's innermost scope.
func PopDistributionScope() error {
	var e errSlot
	swig.DistributionPopScope(e[:])
	return e.take()
}

// JSON is the distribution as Tessera's JSON.
func (d *Distribution) JSON() (string, error) {
	return textOf(func(e []uintptr) string { return d.raw().ToJson(e) }, d)
}

// DistributionFromJSON parses Tessera's distribution JSON.
func DistributionFromJSON(text string) (*Distribution, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	var e errSlot
	d := wrapDistribution(swig.DistributionFromJson(text, e[:]))
	return d, e.take()
}

// DistributionFromProto parses serialized tessera.v1.Distribution bytes.
func DistributionFromProto(data []byte) (*Distribution, error) {
	var e errSlot
	d := wrapDistribution(swig.DistributionFromProto(data, e[:]))
	return d, e.take()
}

// JSON is the layout map as Tessera's JSON.
func (m *LayoutMap) JSON() (string, error) {
	return textOf(func(e []uintptr) string { return m.raw().ToJson(e) }, m)
}

// LayoutMapFromJSON parses Tessera's layout map JSON.
func LayoutMapFromJSON(text string) (*LayoutMap, error) {
	if err := checkStrings("text", text); err != nil {
		return nil, err
	}
	var e errSlot
	m := wrapLayoutMap(swig.LayoutMapFromJson(text, e[:]))
	return m, e.take()
}

// LayoutMapFromProto parses serialized tessera.v1.LayoutMap bytes.
func LayoutMapFromProto(data []byte) (*LayoutMap, error) {
	var e errSlot
	m := wrapLayoutMap(swig.LayoutMapFromProto(data, e[:]))
	return m, e.take()
}

// TensorLayout is the layout of the intermediate tensor at path (nil when
// the distribution has none for it).
func (d *Distribution) TensorLayout(path string) (*Layout, error) {
	if err := checkStrings("path", path); err != nil {
		return nil, err
	}
	return layoutFrom(func(e []uintptr) swig.Layout { return d.raw().TensorLayout(path, e) }, d)
}

// NewDataParallelOverDevices is Keras's DataParallel(devices=...): a 1-D
// mesh over devices ("gpu:0").
func NewDataParallelOverDevices(devices []string, options *DistributionOptions) (*Distribution, error) {
	if err := checkStrings("devices", devices...); err != nil {
		return nil, err
	}
	var e errSlot
	d := wrapDistribution(swig.DistributionDataParallelOverDevices(devices, options.raw(), e[:]))
	runtime.KeepAlive(options)
	return d, e.take()
}

// GlobalBatchSize is the batch size the plan was made for.
func (p *DatasetPlan) GlobalBatchSize() int {
	return int(keep(p, p.raw().GlobalBatchSize))
}

// RebatchSizes are the per-replica batch sizes of a rebatching plan.
func (p *DatasetPlan) RebatchSizes() []int {
	sizes := make([]int, p.raw().NumRebatchSizes())
	for i := range sizes {
		sizes[i] = int(p.raw().RebatchSize(int64(i), nil))
	}
	runtime.KeepAlive(p)
	return sizes
}
