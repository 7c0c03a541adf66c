// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
)

func TestPlanningExamplePrintsEveryDevicesSlice(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"<DeviceMesh shape=(4, 2), axis_names=['batch', 'model']>",
		": 4 model replicas",
		"device 0 holds rows [0, 16) columns [0, 4)",
		"device 1 holds rows [0, 16) columns [4, 8)",
		"device 7 holds rows [0, 16) columns [4, 8)",
	} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("output lacks %q:\n%s", line, out.String())
		}
	}
}
