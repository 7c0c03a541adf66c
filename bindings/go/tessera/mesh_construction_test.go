// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// S45: PyTorch's init_device_mesh("cpu", (2,4), mesh_dim_names=("dp","tp")).
func dpTp(t *testing.T) *tessera.Mesh {
	t.Helper()
	m, err := tessera.MakeMesh([]int64{2, 4}, []string{"dp", "tp"}, cpus(8), "")
	ok(t, err)
	t.Cleanup(func() { m.Close() })
	return m
}

func TestTPSubmeshOfRankSixIsItsRow(t *testing.T) { // S45
	tp, err := dpTp(t).Submesh([]string{"tp"}, 6)
	ok(t, err)
	defer tp.Close()
	if got := tp.AxisNames(); !reflect.DeepEqual(got, []string{"tp"}) {
		t.Fatalf("axis names %v", got)
	}
	if got := must(tp.XLADeviceOrder()); !reflect.DeepEqual(got, []int64{4, 5, 6, 7}) {
		t.Fatalf("devices %v, want [4 5 6 7]", got)
	}
}

func TestRankSixCoordinateAndLocalRanks(t *testing.T) { // S45
	m := dpTp(t)
	coords, found, err := m.CoordinateOf(6)
	ok(t, err)
	if !found || !reflect.DeepEqual(coords, []int{1, 2}) {
		t.Fatalf("coordinate %v (found %v), want [1 2]", coords, found)
	}
	if dp, tp := must(m.LocalRank("dp", 6)), must(m.LocalRank("tp", 6)); dp != 1 || tp != 2 {
		t.Fatalf("local ranks dp %d tp %d, want 1 and 2", dp, tp)
	}
}

func TestDeviceOutsideTheMeshHasNoCoordinate(t *testing.T) { // S45
	coords, found, err := dpTp(t).CoordinateOf(42)
	ok(t, err)
	if found || coords != nil {
		t.Fatalf("coordinate %v found %v, want none", coords, found)
	}
}

func TestAxisGroupsAreTorchsProcessGroups(t *testing.T) { // S45
	m := dpTp(t)
	if got := must(m.AxisGroups("dp")); !reflect.DeepEqual(got, [][]int64{{0, 4}, {1, 5}, {2, 6}, {3, 7}}) {
		t.Fatalf("dp groups %v", got)
	}
	if got := must(m.AxisGroups("tp")); !reflect.DeepEqual(got, [][]int64{{0, 1, 2, 3}, {4, 5, 6, 7}}) {
		t.Fatalf("tp groups %v", got)
	}
}

func TestFlattenJoinsTheAxisNames(t *testing.T) { // S45
	f, err := dpTp(t).Flatten("")
	ok(t, err)
	defer f.Close()
	if got := f.AxisNames(); !reflect.DeepEqual(got, []string{"dp_tp"}) {
		t.Fatalf("axis names %v, want [dp_tp]", got)
	}
}

func TestMakeMeshWithTooFewDevicesIsJAXsMessage(t *testing.T) {
	_, err := tessera.MakeMesh([]int64{2, 4}, []string{"a", "b"}, cpus(6), "")
	wantError(t, err, tessera.CodeInvalidArgument, "Number of devices 6 must be >= the product of mesh_shape (2, 4)")
}

func TestMakeHybridMeshRejectsShapesOfDifferentLengths(t *testing.T) {
	_, err := tessera.MakeHybridMesh([]int64{2, 4}, []int64{1}, []string{"a", "b"}, cpus(8), true, "")
	wantError(t, err, tessera.CodeInvalidArgument,
		"Argument 'dcn_mesh_shape' must have as many entries as 'mesh_shape' (2), got 1")
}

func TestDTensorCreateMeshNumbersDevicesRowMajor(t *testing.T) {
	m, err := tessera.NewDTensorMesh([]string{"x", "y"}, []int64{2, 2}, "m",
		[]string{"CPU:0", "CPU:1", "CPU:2", "CPU:3"}, "CPU", false)
	ok(t, err)
	defer m.Close()
	if got := m.DimNames(); !reflect.DeepEqual(got, []string{"x", "y"}) {
		t.Fatalf("dim names %v", got)
	}
	if got := m.GlobalIDs(); !reflect.DeepEqual(got, []int64{0, 1, 2, 3}) {
		t.Fatalf("global ids %v", got)
	}
	if got := m.DeviceType(); got != "CPU" {
		t.Fatalf("device type %q", got)
	}
}

func TestTesseraDevicesGivesTwoTestGPUs(t *testing.T) {
	t.Setenv("TESSERA_DEVICES", "gpu*2:Test GPU") // cgo: Setenv reaches C's environment
	d, err := tessera.DiscoverLocalDevices()
	ok(t, err)
	defer d.Close()
	all := must(d.All())
	var gpus []tessera.LocalDevice
	for _, dev := range all {
		if dev.Platform == tessera.PlatformGPU {
			gpus = append(gpus, dev)
		}
	}
	if len(gpus) != 2 {
		t.Fatalf("%d GPUs in %+v, want 2", len(gpus), all)
	}
	for i, g := range gpus {
		if g.Kind != "Test GPU" || g.Ordinal != i {
			t.Fatalf("GPU %d is %+v, want kind \"Test GPU\" ordinal %d", i, g, i)
		}
	}
}

func TestLayoutInterchangeFormatsRoundTrip(t *testing.T) {
	m := dpTp(t)
	l := must(tessera.NewLayout([]string{"dp", "tp"}, m))
	defer l.Close()
	hlo := must(tessera.LayoutFromHLOSharding(must(l.HLOSharding(2, false)), m, 2))
	defer hlo.Close()
	torch := must(tessera.LayoutFromTorchPlacements(must(l.TorchPlacements()), m, 2))
	defer torch.Close()
	op := must(tessera.LayoutFromOpSharding(must(l.OpSharding(2, true)), m, 2))
	defer op.Close()
	for name, back := range map[string]*tessera.Layout{"hlo": hlo, "torch": torch, "op sharding": op} {
		if !back.Equal(l) {
			t.Errorf("%s round trip gave %v, want %v", name, back, l)
		}
	}
}

func TestMeshJAXTextRoundTrips(t *testing.T) {
	m := dpTp(t)
	back := must(tessera.MeshFromJAXText(must(m.JAXText()), cpus(8)))
	defer back.Close()
	if !back.Equal(m) {
		t.Fatalf("JAX text round trip gave %v, want %v", back, m)
	}
}

func TestTLSSettersAcceptTheirValues(t *testing.T) {
	o := tessera.NewClusterOptions()
	defer o.Close()
	ok(t, o.SetTLSPeerURIPrefix("spiffe://tessera/job/"))
	ok(t, o.SetTLSServerName("coordinator.example"))
	ok(t, o.SetTLSRequireClientCert(true))
	wantError(t, o.SetTLSServerName("a\x00b"), tessera.CodeInvalidArgument,
		"Argument 'name' must not contain a NUL byte, got \"a\\x00b\"")
}

func TestVersionStringMatchesTheNumber(t *testing.T) {
	v := tessera.Version()
	if want := fmt.Sprintf("%d.%d.%d", v/10000, v/100%100, v%100); tessera.VersionString() != want {
		t.Fatalf("version %q, number %d", tessera.VersionString(), v)
	}
}

func TestLoadedLibraryServesThisPackage(t *testing.T) {
	if p := tessera.VersionProblem(tessera.Version()); p != "" {
		t.Fatalf("VersionProblem(%d) = %q, want \"\"", tessera.Version(), p)
	}
}

func TestOlderMinorOrOtherMajorIsRefusedNamingBothVersions(t *testing.T) {
	for loaded, want := range map[uint32]string{
		199:   "libtessera 0.1.99 cannot serve this binding, built for tessera 0.2.0: the major version must be the same and the minor not older",
		10200: "libtessera 1.2.0 cannot serve this binding, built for tessera 0.2.0: the major version must be the same and the minor not older",
		300:   "",
	} {
		if got := tessera.VersionProblem(loaded); got != want {
			t.Errorf("VersionProblem(%d) = %q, want %q", loaded, got, want)
		}
	}
}

func TestTransferBetweenTwoDevicesOfOneProcess(t *testing.T) {
	m := must(tessera.NewMesh([]int64{2}, []string{"x"}, cpus(2)))
	defer m.Close()
	sharded := must(tessera.NewLayout([]string{"x"}, m))
	defer sharded.Close()
	replicated := must(tessera.NewReplicatedLayout(1, m))
	defer replicated.Close()
	src := must(tessera.NewSharding(sharded, []int64{4}, tessera.ShardModeStrict))
	defer src.Close()
	dst := must(tessera.NewSharding(replicated, []int64{4}, tessera.ShardModeStrict))
	defer dst.Close()
	plan := must(tessera.NewReshardPlan(src, dst, 4))
	defer plan.Close()
	var total int
	for i := 0; i < plan.NumTransfers(); i++ {
		tr := must(plan.Transfer(i))
		if tr.Locality == tessera.TransferLocalityCrossProcess || len(tr.Ranges) != 1 {
			t.Fatalf("transfer %d: %+v", i, tr)
		}
		total += tr.Bytes
	}
	// Each of the 2 replicas needs all 16 bytes: its own half stays on the
	// device, the other half comes from the other device of the process.
	if total != 32 {
		t.Fatalf("transfers move %d bytes, want 32", total)
	}
	if same, local := must(plan.TotalBytes(tessera.TransferLocalitySameDevice)), must(plan.TotalBytes(tessera.TransferLocalitySameProcess)); same != 16 || local != 16 {
		t.Fatalf("same device %d bytes, same process %d, want 16 and 16", same, local)
	}
}

func TestCreateDeviceMeshNeedsExactlyTheProductOfTheShape(t *testing.T) {
	_, err := tessera.CreateDeviceMesh([]int64{2, 2}, []string{"x", "y"}, cpus(8), "", false, false)
	wantError(t, err, tessera.CodeInvalidArgument, "Number of devices 8 must equal the product of mesh_shape (2, 2)")
}

func TestTPUAxisAssignmentIsJaxsMatrix(t *testing.T) { // S41
	got, err := tessera.TPUAxisAssignment([]int64{4, 4, 4}, []int64{1, 16, 4}, false)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int64{{1, 1, 4}, {1, 4, 1}, {1, 4, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestTPUAxisAssignmentSplitsWhenAllowed(t *testing.T) {
	got, err := tessera.TPUAxisAssignment([]int64{4, 4}, []int64{2, 8}, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int64{{1, 4}, {2, 2}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
