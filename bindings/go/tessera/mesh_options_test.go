// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"reflect"
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// S43: eight GPUs of a job not running here, process 0 owning ids 0-3 and
// process 1 ids 4-7; each process is a granule of the hybrid mesh, and its
// devices keep the process given.
func TestDeviceProcessesAreTheHybridMeshsGranules(t *testing.T) {
	o := tessera.NewMeshOptions()
	defer o.Close()
	ok(t, o.SetDevices([]string{"gpu:0", "gpu:1", "gpu:2", "gpu:3", "gpu:4", "gpu:5", "gpu:6", "gpu:7"}))
	ok(t, o.SetDeviceProcesses([]int{0, 0, 0, 0, 1, 1, 1, 1}))
	m, err := tessera.MakeHybridMeshWithOptions([]int64{2, 2}, []int64{1, 2}, []string{"a", "b"}, o)
	ok(t, err)
	defer m.Close()
	if got, want := must(m.XLADeviceOrder()), []int64{0, 1, 4, 5, 2, 3, 6, 7}; !reflect.DeepEqual(got, want) {
		t.Fatalf("devices %v, want %v", got, want)
	}
	var processes []int
	for i := 0; i < 8; i++ {
		d := must(m.Device(i))
		processes = append(processes, d.ProcessIndex())
		d.Close()
	}
	if want := []int{0, 0, 1, 1, 0, 0, 1, 1}; !reflect.DeepEqual(processes, want) {
		t.Fatalf("processes %v, want %v", processes, want)
	}
}
