// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/internal/ctest"
	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// residentKiB is VmRSS from /proc/self/status.
func residentKiB(t *testing.T) int64 {
	t.Helper()
	return statusKiB(t, "VmRSS:")
}

// statusKiB is one numeric field (KiB or a count) of /proc/self/status.
func statusKiB(t *testing.T, field string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), field); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kib
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// settle collects until the finalizers have destroyed the dropped handles
// (at most `live` may remain; bounded by 20 s).
func settle(t *testing.T, live int64) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for tessera.LiveHandles() > live {
		if time.Now().After(deadline) {
			t.Fatalf("%d handles still alive after 20 s of collections, want <= %d", tessera.LiveHandles(), live)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// quiesce settles to `live` handles and returns freed Go and malloc pages to
// the OS, so the resident size reflects live memory rather than where the
// allocators' free lists happen to stand.
func quiesce(t *testing.T, live int64) {
	settle(t, live)
	runtime.GC()
	debug.FreeOSMemory()
	ctest.MallocTrim()
}

// dropHandles creates n handles of four kinds (a mesh, a layout and a
// sharding that keep a shared mesh alive, and a layout map) and drops them
// all without Close: only the finalizers free them, on the collector's
// goroutine, in whatever order it picks.
func dropHandles(t *testing.T, shared *tessera.Mesh, n int) {
	base := tessera.LiveHandles()
	dims := []int64{8, 2}
	for i := 0; i < n; i++ {
		// The collector does not see C memory, so left alone it lets
		// hundreds of thousands of dropped handles wait between cycles, and
		// on a loaded machine the finalizer goroutine falls further behind.
		// A collection every 10,000 handles, and a pause while more than
		// 20,000 wait, keep that peak (and so the resident size) steady;
		// the finalizers still free every handle.
		if i%10_000 == 0 {
			runtime.GC()
			settle(t, base+20_000)
		}
		var err error
		switch i % 4 {
		case 0:
			_, err = tessera.NewMesh([]int64{1}, []string{"x"}, []string{"cpu:0"})
		case 1:
			_, err = tessera.NewLayout([]string{"data", ""}, shared)
		case 2:
			_, err = tessera.NewLayoutMap(shared, tessera.KeyMatchSearch)
		case 3:
			var l *tessera.Layout
			l, err = tessera.NewLayout([]string{"data", "model"}, shared)
			if err == nil {
				_, err = tessera.NewSharding(l, dims, tessera.ShardModeStrict)
			}
		}
		if err != nil {
			t.Fatalf("handle %d: %v", i, err)
		}
	}
}

func TestMillionDroppedHandlesLeaveMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	// One creating thread, so the handles come from one malloc arena and the
	// measurement is not how many arenas the goroutine happened to visit.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	shared := mesh42(t)
	// Warm up with as many: the Go heap, malloc's per-thread arenas (handles
	// are created on one thread and destroyed on the finalizer's) and the
	// peak of not-yet-finalized handles between two collections (the Go
	// collector does not see C memory) reach their working size before the
	// baseline. A leak would then show as growth: the resident size is
	// ~20 MiB, so 1,000,000 handles leaking 2 bytes each would fail.
	live := tessera.LiveHandles()
	dropHandles(t, shared, 1_000_000)
	quiesce(t, live)
	before, beforeAnon := residentKiB(t), statusKiB(t, "RssAnon:")
	dropHandles(t, shared, 1_000_000)
	quiesce(t, live)
	after, afterAnon := residentKiB(t), statusKiB(t, "RssAnon:")
	t.Logf("1,000,000 handles dropped without Close: VmRSS %d -> %d KiB (%+.1f%%), RssAnon %d -> %d KiB, %d threads",
		before, after, 100*float64(after-before)/float64(before), beforeAnon, afterAnon, statusKiB(t, "Threads:"))
	if float64(after) > 1.10*float64(before) {
		t.Fatalf("VmRSS grew from %d KiB to %d KiB (> 10%%): dropped handles are not freed", before, after)
	}
	// The shared mesh outlived every layout made from it.
	if got := must(shared.AxisSize("model")); got != 2 {
		t.Fatalf("shared mesh AxisSize(model) = %d", got)
	}
}
