// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// A DTensor job's 2-device CPU mesh, as DTensor prints it.
const dtMeshX2 = "|x=2|0,1|0,1|/job:localhost/task:0/device:CPU:0,/job:localhost/task:0/device:CPU:1"

// A 2x2 CPU mesh in DTensor's short form.
const dtMeshXY = "|x=2,y=2|*CPU"

func parseDT(t *testing.T, text string) *tessera.DTensorLayout {
	t.Helper()
	l, err := tessera.ParseDTensorLayout(text)
	ok(t, err)
	t.Cleanup(func() { l.Close() })
	return l
}

func dtConfig(t *testing.T, variables ...string) *tessera.DTensorConfig {
	t.Helper()
	options := tessera.NewDTensorConfigOptions()
	defer options.Close()
	ok(t, options.SetVariables(variables))
	ok(t, options.SetNumLocalDevices("CPU", 2))
	c, err := tessera.NewDTensorConfig(options)
	ok(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestDTensorPartedLayoutPrintsBackByteForByte(t *testing.T) {
	text := "parted:x, mesh:" + dtMeshX2
	l := parseDT(t, text)
	if l.Type() != tessera.DTensorLayoutParted || l.Rank() != 1 || !reflect.DeepEqual(l.Specs(), []string{"x"}) {
		t.Fatalf("type %v rank %d specs %v, want parted, 1, [x]", l.Type(), l.Rank(), l.Specs())
	}
	if got := must(l.Text()); got != text {
		t.Fatalf("text %q, want %q", got, text)
	}
}

func TestDTensorSingleDeviceLayoutPrintsBackByteForByte(t *testing.T) {
	text := "maximal:true, mesh:/job:localhost/task:1/device:CPU:0"
	l := parseDT(t, text)
	if l.Type() != tessera.DTensorLayoutSingleDevice || l.Rank() != 0 {
		t.Fatalf("type %v rank %d, want single device, 0", l.Type(), l.Rank())
	}
	if got := must(l.Text()); got != text {
		t.Fatalf("text %q, want %q", got, text)
	}
	mesh := must(l.Mesh())
	defer mesh.Close()
	if got := mesh.SingleDevice(); got != "/job:localhost/task:1/device:CPU:0" {
		t.Fatalf("mesh's device %q", got)
	}
}

func TestDTensorUnknownLayoutPrefixIsDTensorsError(t *testing.T) {
	_, err := tessera.ParseDTensorLayout("sharded:x, mesh:" + dtMeshX2)
	var e *tessera.Error
	if !errors.As(err, &e) || e.Code != tessera.CodeInvalidArgument || !strings.Contains(e.Message, "Unknown layout type prefix") {
		t.Fatalf("error %v, want INVALID_ARGUMENT Unknown layout type prefix", err)
	}
}

func TestDTensorToPartedKeepsSpecsAndMesh(t *testing.T) {
	parted := must(parseDT(t, "sharding_specs:x, mesh:"+dtMeshX2).ToParted())
	defer parted.Close()
	if got := must(parted.Text()); got != "parted:x, mesh:"+dtMeshX2 {
		t.Fatalf("text %q", got)
	}
}

func TestDTensorReduceDimsKeepingDimsReplicatesThem(t *testing.T) {
	reduced := must(parseDT(t, "sharding_specs:x,y, mesh:"+dtMeshXY).ReduceDims([]int{0}, true))
	defer reduced.Close()
	if got := reduced.Specs(); !reflect.DeepEqual(got, []string{"unsharded", "y"}) {
		t.Fatalf("specs %v, want [unsharded y]", got)
	}
}

func TestDTensorTruncatePastTheRankIsOutOfRange(t *testing.T) {
	_, err := parseDT(t, "sharding_specs:x, mesh:"+dtMeshXY).Truncate(2, false)
	if !errors.Is(err, tessera.CodeOutOfRange) {
		t.Fatalf("error %v, want OUT_OF_RANGE", err)
	}
}

func TestDTensorLocalShapeDividesByTheShardCount(t *testing.T) {
	// DTensor's integer division: 10 over 2 shards is 5, 7 unsharded stays 7.
	got := must(parseDT(t, "sharding_specs:x,unsharded, mesh:"+dtMeshXY).LocalShapeFromGlobal([]int64{10, 7}))
	if !reflect.DeepEqual(got, []int64{5, 7}) {
		t.Fatalf("local shape %v, want [5 7]", got)
	}
}

func TestDTensorGlobalShapeSumsDynamicLocalShapes(t *testing.T) {
	// x,unsharded on x=2,y=2: local devices 0 and 2 hold the two x shards.
	l := parseDT(t, "sharding_specs:x,unsharded, mesh:"+dtMeshXY)
	got := must(l.GlobalShapeFromLocal([]int64{-1, 5}, [][]int64{{3, 5}, {3, 5}, {4, 5}, {4, 5}}))
	if !reflect.DeepEqual(got, []int64{7, 5}) {
		t.Fatalf("global shape %v, want [7 5]", got)
	}
}

func TestDTensorMostShardedMergesTheAxes(t *testing.T) {
	a := parseDT(t, "sharding_specs:x,unsharded, mesh:"+dtMeshXY)
	b := parseDT(t, "sharding_specs:unsharded,y, mesh:"+dtMeshXY)
	merged := must(tessera.MostShardedDTensorLayout(a, b))
	defer merged.Close()
	if got := merged.Specs(); !reflect.DeepEqual(got, []string{"x", "y"}) {
		t.Fatalf("specs %v, want [x y]", got)
	}
}

func TestDTensorLeastShardedOfANilLayoutNamesTheEntry(t *testing.T) {
	_, err := tessera.LeastShardedDTensorLayout(nil)
	var e *tessera.Error
	if !errors.As(err, &e) || e.Code != tessera.CodeInvalidArgument || e.Message != "Argument 'layouts' entry 0 is NULL; expected a valid pointer" {
		t.Fatalf("error %v", err)
	}
}

func TestDTensorLayoutsOfTheSameTextAreEqual(t *testing.T) {
	a := parseDT(t, "sharding_specs:x, mesh:"+dtMeshX2)
	b := parseDT(t, "sharding_specs:x, mesh:"+dtMeshX2)
	parted := parseDT(t, "parted:x, mesh:"+dtMeshX2)
	if !a.Equal(b) || a.Equal(parted) {
		t.Fatalf("a == b %v, a == parted %v; want true, false", a.Equal(b), a.Equal(parted))
	}
}

func TestDTensorMeshesEqualFieldByField(t *testing.T) {
	a := must(tessera.ParseDTensorMesh(dtMeshX2))
	defer a.Close()
	b := must(tessera.ParseDTensorMesh(dtMeshX2))
	defer b.Close()
	host := must(a.ToDeviceType("GPU"))
	defer host.Close()
	if !a.Equal(b) || a.Equal(host) {
		t.Fatalf("a == b %v, a == GPU mesh %v; want true, false", a.Equal(b), a.Equal(host))
	}
}

func TestDTensorMeshQueriesByName(t *testing.T) {
	m := must(tessera.ParseDTensorMesh(dtMeshXY))
	defer m.Close()
	if !must(m.HasDim("y")) || must(m.HasDim("z")) || must(m.DimIndex("y")) != 1 || must(m.DimSize("y")) != 2 {
		t.Fatal("has y, not z, y at 1 of size 2")
	}
	if got := must(m.Coordinates(3)); !reflect.DeepEqual(got, []int{1, 1}) {
		t.Fatalf("coordinates of 3: %v", got)
	}
	if got := m.Hosts(); !reflect.DeepEqual(got, []string{"/job:localhost/task:0"}) {
		t.Fatalf("hosts %v", got)
	}
}

func TestDTensorConfigReadsClientIDAndJobs(t *testing.T) {
	c := dtConfig(t, "DTENSOR_JOBS=h0:1,h1:1", "DTENSOR_CLIENT_ID=1")
	if id, jobs := must(c.ClientID()), must(c.Jobs()); id != 1 || !reflect.DeepEqual(jobs, []string{"h0:1", "h1:1"}) {
		t.Fatalf("client id %d jobs %v, want 1 [h0:1 h1:1]", id, jobs)
	}
	if n, local := must(c.NumClients()), must(c.IsLocalMode()); n != 2 || local {
		t.Fatalf("clients %d local %v, want 2 false", n, local)
	}
	if got := must(c.LocalDevices("CPU", -1)); !reflect.DeepEqual(got, []string{
		"/job:worker/replica:0/task:1/device:CPU:0", "/job:worker/replica:0/task:1/device:CPU:1"}) {
		t.Fatalf("local devices %v", got)
	}
}

func TestDTensorConfigClientIDPastTheClientsIsDTensorsError(t *testing.T) {
	_, err := dtConfig(t, "DTENSOR_CLIENT_ID=1").ClientID()
	var e *tessera.Error
	if !errors.As(err, &e) || e.Code != tessera.CodeInvalidArgument ||
		e.Message != "Environment variable DTENSOR_CLIENT_ID must be < 1, got 1" {
		t.Fatalf("error %v", err)
	}
}

func TestDTensorMeshWithConfigNamesItsDevicesForTheJob(t *testing.T) {
	c := dtConfig(t, "DTENSOR_JOBS=h0:1,h1:1", "DTENSOR_CLIENT_ID=1")
	m := must(tessera.NewDistributedDTensorMeshWithConfig([]string{"x"}, []int64{4}, "", nil, "CPU", false, c))
	defer m.Close()
	if got := m.LocalIDs(); !reflect.DeepEqual(got, []int64{2, 3}) {
		t.Fatalf("local ids %v, want [2 3]", got)
	}
}

func TestDTensorLayoutTypeConstantsEqualTheCValues(t *testing.T) {
	pairs := [][2]int64{
		{int64(tessera.DTensorLayoutEmpty), int64(swig.TESSERA_DTENSOR_LAYOUT_EMPTY)},
		{int64(tessera.DTensorLayoutStatic), int64(swig.TESSERA_DTENSOR_LAYOUT_STATIC)},
		{int64(tessera.DTensorLayoutParted), int64(swig.TESSERA_DTENSOR_LAYOUT_PARTED)},
		{int64(tessera.DTensorLayoutSingleDevice), int64(swig.TESSERA_DTENSOR_LAYOUT_SINGLE_DEVICE)},
	}
	for _, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("Go %d, C %d", p[0], p[1])
		}
	}
}
