// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// cpus is Keras's names of the first n CPU devices.
func cpus(n int) []string {
	d := make([]string, n)
	for i := range d {
		d[i] = fmt.Sprintf("cpu:%d", i)
	}
	return d
}

// must returns v, or panics (failing the test with a stack) on an error:
// for calls a test expects to succeed.
func must[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("unexpected error: %v", err))
	}
	return v
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// wantError checks that err is a *tessera.Error with exactly this code and message.
func wantError(t *testing.T, err error, code tessera.Code, message string) {
	t.Helper()
	var te *tessera.Error
	if !errors.As(err, &te) {
		t.Fatalf("error = %v (%T), want *tessera.Error", err, err)
	}
	if te.Code != code || te.Message != message {
		t.Fatalf("error = %v %q\nwant    %v %q", te.Code, te.Message, code, message)
	}
	if !errors.Is(err, code) {
		t.Fatalf("errors.Is(err, %v) = false", code)
	}
}

func mesh42(t *testing.T, names ...string) *tessera.Mesh {
	t.Helper()
	if names == nil {
		names = []string{"data", "model"}
	}
	return must(tessera.NewMesh([]int64{4, 2}, names, cpus(8)))
}

func TestEveryHandleTypeIsCreatedAndClosed(t *testing.T) {
	dev := must(tessera.ParseDevice("cpu:3"))
	list := must(tessera.NewDeviceList("cpu"))
	mesh := mesh42(t)
	layout := must(tessera.NewLayout([]string{"data", ""}, mesh))
	lm := must(tessera.NewLayoutMap(mesh, tessera.KeyMatchSearch))
	opts := tessera.NewDistributionOptions()
	dist := must(tessera.NewModelParallel(lm, "data", opts))
	plan := must(dist.PlanDataset(8))
	sharding := must(tessera.NewSharding(layout, []int64{8, 2}, tessera.ShardModeStrict))
	reshard := must(tessera.NewReshardPlan(sharding, sharding, 4))
	dt := must(tessera.DTensorMeshFromMesh(mesh, "m", 0, false))
	copyOpts := tessera.NewCopyOptions()
	closers := []interface{ Close() error }{dev, list, mesh, layout, lm, opts, dist, plan, sharding, reshard, dt, copyOpts}
	for _, c := range closers {
		if reflect.ValueOf(c).IsNil() {
			t.Fatalf("%T is nil", c)
		}
		if err := c.Close(); err != nil {
			t.Fatalf("%T.Close() = %v", c, err)
		}
		if err := c.Close(); err != nil { // idempotent
			t.Fatalf("second %T.Close() = %v", c, err)
		}
	}
}

func TestClosedHandleIsAnInvalidArgumentNotACrash(t *testing.T) {
	mesh := mesh42(t)
	mesh.Close()
	_, err := mesh.AxisSize("data")
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'mesh' is NULL; expected a valid pointer")
	if mesh.Rank() != 0 {
		t.Fatalf("Rank of a closed mesh = %d, want 0", mesh.Rank())
	}
}

func TestNullArgumentIsInvalidArgument(t *testing.T) {
	lm := must(tessera.NewLayoutMap(mesh42(t), tessera.KeyMatchSearch))
	err := lm.Set("dense/kernel", nil)
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'layout' is NULL; expected a valid pointer")
}

func TestUnknownAxisIsNotFoundListingTheAxes(t *testing.T) {
	_, err := mesh42(t).AxisSize("batch")
	wantError(t, err, tessera.CodeNotFound, "Axis 'batch' is not in the mesh; its axes are ['data', 'model']")
}

func TestInvalidPatternIsInvalidArgumentNamingIt(t *testing.T) {
	lm := must(tessera.NewLayoutMap(mesh42(t), tessera.KeyMatchSearch))
	err := lm.Set("a(b", must(tessera.NewLayout([]string{""}, nil)))
	wantError(t, err, tessera.CodeInvalidArgument,
		"Argument 'key' 'a(b' is not a valid Python regular expression: missing ), unterminated subpattern at position 1")
}

func TestBadShapeIsInvalidArgument(t *testing.T) {
	_, err := tessera.NewMesh([]int64{2, -1}, []string{"x", "y"}, nil)
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'shape' (2, -1) has dimension 1 equal to -1; expected sizes >= 1")
}

func TestNulByteInAStringIsRejectedBeforeTheCall(t *testing.T) {
	_, err := mesh42(t).AxisSize("da\x00ta")
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'name' must not contain a NUL byte, got \"da\\x00ta\"")
}

func TestErrorsIsDistinguishesCodes(t *testing.T) {
	_, err := mesh42(t).AxisSize("batch")
	if errors.Is(err, tessera.CodeInvalidArgument) {
		t.Fatal("a NOT_FOUND error matched CodeInvalidArgument")
	}
	if got := err.Error(); got != "NOT_FOUND: Axis 'batch' is not in the mesh; its axes are ['data', 'model']" {
		t.Fatalf("Error() = %q", got)
	}
}

func TestGoConstantsEqualTheCValues(t *testing.T) {
	codes := map[tessera.Code]swig.Enum_SS_tessera_code_t{
		tessera.CodeOK: swig.TESSERA_OK, tessera.CodeCancelled: swig.TESSERA_CANCELLED,
		tessera.CodeUnknown: swig.TESSERA_UNKNOWN, tessera.CodeInvalidArgument: swig.TESSERA_INVALID_ARGUMENT,
		tessera.CodeDeadlineExceeded: swig.TESSERA_DEADLINE_EXCEEDED, tessera.CodeNotFound: swig.TESSERA_NOT_FOUND,
		tessera.CodeAlreadyExists: swig.TESSERA_ALREADY_EXISTS, tessera.CodePermissionDenied: swig.TESSERA_PERMISSION_DENIED,
		tessera.CodeResourceExhausted: swig.TESSERA_RESOURCE_EXHAUSTED, tessera.CodeFailedPrecondition: swig.TESSERA_FAILED_PRECONDITION,
		tessera.CodeAborted: swig.TESSERA_ABORTED, tessera.CodeOutOfRange: swig.TESSERA_OUT_OF_RANGE,
		tessera.CodeUnimplemented: swig.TESSERA_UNIMPLEMENTED, tessera.CodeInternal: swig.TESSERA_INTERNAL,
		tessera.CodeUnavailable: swig.TESSERA_UNAVAILABLE, tessera.CodeDataLoss: swig.TESSERA_DATA_LOSS,
		tessera.CodeUnauthenticated: swig.TESSERA_UNAUTHENTICATED,
	}
	for g, c := range codes {
		if int64(g) != int64(c) {
			t.Errorf("%v = %d, C has %d", g, g, c)
		}
	}
	pairs := [][2]int64{
		{int64(tessera.PlatformTPU), int64(swig.TESSERA_PLATFORM_TPU)},
		{int64(tessera.ShapeCheckChunk), int64(swig.TESSERA_SHAPE_CHECK_CHUNK)},
		{int64(tessera.KeyMatchFull), int64(swig.TESSERA_KEY_MATCH_FULL)},
		{int64(tessera.DistributionKindModelParallel), int64(swig.TESSERA_DISTRIBUTION_MODEL_PARALLEL)},
		{int64(tessera.DatasetModeKeras3_0), int64(swig.TESSERA_DATASET_MODE_KERAS_3_0)},
		{int64(tessera.DatasetPlanKindShard), int64(swig.TESSERA_DATASET_PLAN_SHARD)},
		{int64(tessera.ShardModeChunkNested), int64(swig.TESSERA_SHARD_MODE_CHUNK_NESTED)},
		{int64(tessera.LogLevelDebug), int64(swig.TESSERA_LOG_DEBUG)},
		{int64(tessera.LogLevelError), int64(swig.TESSERA_LOG_ERROR)},
		{int64(tessera.TransferLocalityCrossProcess), int64(swig.TESSERA_TRANSFER_CROSS_PROCESS)},
		{int64(tessera.EventKindCoordinatorLost), int64(swig.TESSERA_EVENT_COORDINATOR_LOST)},
		{int64(tessera.TaskStateFailed), int64(swig.TESSERA_TASK_FAILED)},
		{int64(tessera.ErrorReasonNeverConnected), int64(swig.TESSERA_REASON_NEVER_CONNECTED)},
		{int64(tessera.PlanRecipeInference), int64(swig.TESSERA_PLAN_RECIPE_INFERENCE)},
		{int64(tessera.PlanRecipeTraining), int64(swig.TESSERA_PLAN_RECIPE_TRAINING)},
		{int64(tessera.PlanVerdictUnknown), int64(swig.TESSERA_PLAN_VERDICT_UNKNOWN)},
		{int64(tessera.PlanVerdictFits), int64(swig.TESSERA_PLAN_VERDICT_FITS)},
		{int64(tessera.PlanVerdictDoesNotFit), int64(swig.TESSERA_PLAN_VERDICT_DOES_NOT_FIT)},
	}
	for i, p := range pairs {
		if p[0] != p[1] {
			t.Errorf("constant %d: Go %d, C %d", i, p[0], p[1])
		}
	}
	if got := tessera.CodeInvalidArgument.String(); got != "INVALID_ARGUMENT" {
		t.Errorf("String() = %q", got)
	}
}

func TestArraysAndNonASCIIAxisNamesRoundTrip(t *testing.T) {
	names := []string{"données", "模型", "κ"}
	m := must(tessera.NewMesh([]int64{2, 1, 3}, names, cpus(6)))
	if got := m.AxisNames(); !reflect.DeepEqual(got, names) {
		t.Fatalf("AxisNames() = %q, want %q", got, names)
	}
	if got := m.Shape(); !reflect.DeepEqual(got, []int64{2, 1, 3}) {
		t.Fatalf("Shape() = %v", got)
	}
	if n := must(m.AxisSize("模型")); n != 1 {
		t.Fatalf("AxisSize(模型) = %d, want 1", n)
	}
	if i := must(m.AxisIndex("κ")); i != 2 {
		t.Fatalf("AxisIndex(κ) = %d, want 2", i)
	}
	id := must(m.DeviceAt([]int{1, 0, 2}))
	if id != 5 {
		t.Fatalf("DeviceAt(1,0,2) = %d, want 5", id)
	}
	if got := must(m.DeviceCoordinates(5)); !reflect.DeepEqual(got, []int{1, 0, 2}) {
		t.Fatalf("DeviceCoordinates(5) = %v", got)
	}
	if got := m.String(); got != "<DeviceMesh shape=(2, 1, 3), axis_names=['données', '模型', 'κ']>" {
		t.Fatalf("String() = %q", got)
	}
	l := must(tessera.NewLayout([]string{"κ", "", "données"}, m))
	if got := l.Axes(); !reflect.DeepEqual(got, [][]string{{"κ"}, {}, {"données"}}) {
		t.Fatalf("Axes() = %q", got)
	}
	lm := must(tessera.NewLayoutMap(m, tessera.KeyMatchSearch))
	ok(t, lm.Set("größe/κ", l))
	if got := lm.Keys(); !reflect.DeepEqual(got, []string{"größe/κ"}) {
		t.Fatalf("Keys() = %q", got)
	}
}

func TestBytesRoundTripThroughProto(t *testing.T) {
	m := mesh42(t, "données", "model")
	data := must(m.ToProto())
	if len(data) == 0 || !bytes.Contains(data, []byte("données")) {
		t.Fatalf("ToProto() = %q, want the axis name inside", data)
	}
	back := must(tessera.MeshFromProto(data))
	if !back.Equal(m) {
		t.Fatalf("MeshFromProto(ToProto()) = %v, want %v", back, m)
	}
	_, err := tessera.MeshFromProto([]byte{0xff, 0xff})
	if !errors.Is(err, tessera.CodeInvalidArgument) {
		t.Fatalf("MeshFromProto(garbage) error = %v, want INVALID_ARGUMENT", err)
	}
}

// K31: LayoutMap get on mesh (4, 2) data/model: exact key wins, regex keys,
// several matches is an error listing them, no match is nil.
func TestLayoutMapGetK31(t *testing.T) {
	mesh := mesh42(t)
	s2 := must(tessera.NewLayout([]string{"", "model"}, nil))
	s1 := must(tessera.NewLayout([]string{"model"}, nil))
	r2 := must(tessera.NewLayout([]string{"", ""}, nil))
	r1 := must(tessera.NewLayout([]string{""}, nil))
	lm := must(tessera.NewLayoutMap(mesh, tessera.KeyMatchSearch))
	for _, rule := range []struct {
		key    string
		layout *tessera.Layout
	}{{"dense/kernel", s2}, {"dense/bias", s1}, {".*dense.*kernel", r2}, {".*dense.*bias", r1}, {".*bias", s1}} {
		ok(t, lm.Set(rule.key, rule.layout))
	}
	for _, c := range []struct {
		path string
		axes [][]string
	}{
		{"dense/kernel", [][]string{{}, {"model"}}},
		{"dense/bias", [][]string{{"model"}}},
		{"dense_2/kernel", [][]string{{}, {}}},
		{"conv2d/bias", [][]string{{"model"}}},
	} {
		got := must(lm.Get(c.path))
		if !reflect.DeepEqual(got.Axes(), c.axes) {
			t.Errorf("Get(%q).Axes() = %q, want %q", c.path, got.Axes(), c.axes)
		}
		if !got.Mesh().Equal(mesh) {
			t.Errorf("Get(%q) has mesh %v, want the map's", c.path, got.Mesh())
		}
	}
	none, err := lm.Get("conv2d/kernel")
	if none != nil || err != nil {
		t.Fatalf("Get(conv2d/kernel) = %v, %v; want nil, nil", none, err)
	}
	_, err = lm.Get("dense_2/bias")
	wantError(t, err, tessera.CodeFailedPrecondition,
		"Path 'dense_2/bias' matches multiple layout specification keys: ['.*dense.*bias', '.*bias']. "+
			"Please make sure each tensor/variable path only matches at most one layout specification key in the LayoutMap.")
}

// K29: ModelParallel over (4, 2) data/model with 2 processes has 4 model
// replicas; K35-style dataset plan: S = min(R, P) = 2.
func TestModelParallelK29(t *testing.T) {
	lm := must(tessera.NewLayoutMap(mesh42(t), tessera.KeyMatchSearch))
	opts := tessera.NewDistributionOptions()
	ok(t, opts.SetProcess(2, 1))
	d := must(tessera.NewModelParallel(lm, "data", opts))
	if d.Kind() != tessera.DistributionKindModelParallel || d.NumModelReplicas() != 4 || d.NumProcesses() != 2 ||
		d.NumDataShards() != 2 || d.DataShardIndex() != 1 || d.BatchDimName() != "data" {
		t.Fatalf("kind %v replicas %d processes %d shards %d shard id %d batch %q",
			d.Kind(), d.NumModelReplicas(), d.NumProcesses(), d.NumDataShards(), d.DataShardIndex(), d.BatchDimName())
	}
	plan := must(d.PlanDataset(8))
	if plan.Kind() != tessera.DatasetPlanKindShard || plan.NumShards() != 2 || plan.ShardIndex() != 1 || plan.PerProcessBatchSize() != 4 {
		t.Fatalf("plan kind %v shards %d index %d per-process %d",
			plan.Kind(), plan.NumShards(), plan.ShardIndex(), plan.PerProcessBatchSize())
	}
}

// S3: mesh (2, 4) x/y, spec P('y', 'x'), global shape (8, 16), strict.
func TestShardRangesS3(t *testing.T) {
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"x", "y"}, cpus(8)))
	layout := must(tessera.NewLayout([]string{"y", "x"}, mesh))
	s := must(tessera.NewSharding(layout, []int64{8, 16}, tessera.ShardModeStrict))
	want := [][]tessera.Range{
		{{0, 2}, {0, 8}}, {{2, 4}, {0, 8}}, {{4, 6}, {0, 8}}, {{6, 8}, {0, 8}},
		{{0, 2}, {8, 16}}, {{2, 4}, {8, 16}}, {{4, 6}, {8, 16}}, {{6, 8}, {8, 16}},
	}
	if s.NumDevices() != 8 || s.Rank() != 2 {
		t.Fatalf("NumDevices %d Rank %d", s.NumDevices(), s.Rank())
	}
	for dev, ranges := range want {
		if got := must(s.DeviceRanges(dev)); !reflect.DeepEqual(got, ranges) {
			t.Errorf("device %d ranges %v, want %v", dev, got, ranges)
		}
		if got := must(s.ShardShape(dev)); !reflect.DeepEqual(got, []int64{2, 8}) {
			t.Errorf("device %d shard shape %v", dev, got)
		}
		if got := must(s.ReplicaID(dev)); got != 0 {
			t.Errorf("device %d replica %d", dev, got)
		}
	}
	if got := must(s.MaxShardShape()); !reflect.DeepEqual(got, []int64{2, 8}) {
		t.Errorf("MaxShardShape %v", got)
	}
	if rep := must(s.IsFullyReplicated()); rep {
		t.Error("IsFullyReplicated = true")
	}
	_, err := s.DeviceRanges(8)
	if !errors.Is(err, tessera.CodeOutOfRange) {
		t.Fatalf("DeviceRanges(8) error = %v, want OUT_OF_RANGE", err)
	}
}

func TestStrictShardingRejectsIndivisibleShape(t *testing.T) {
	mesh := must(tessera.NewMesh([]int64{2, 4}, []string{"x", "y"}, cpus(8)))
	layout := must(tessera.NewLayout([]string{"y", "x"}, mesh))
	_, err := tessera.NewSharding(layout, []int64{8, 15}, tessera.ShardModeStrict)
	if !errors.Is(err, tessera.CodeInvalidArgument) {
		t.Fatalf("error = %v, want INVALID_ARGUMENT", err)
	}
}
