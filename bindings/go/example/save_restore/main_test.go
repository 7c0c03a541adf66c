// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveRestoreExampleRestoresEachDevicesShardOnTheNewMesh(t *testing.T) {
	var out strings.Builder
	if err := run(&out, filepath.Join(t.TempDir(), "checkpoint")); err != nil {
		t.Fatal(err)
	}
	want := "saved w[0:2, 0:3] in file 0\n" +
		"saved w[0:2, 3:6] in file 0\n" +
		"saved w[2:4, 0:3] in file 1\n" +
		"saved w[2:4, 3:6] in file 1\n" +
		"saved b[0:6] in file 0\n" +
		"device 0 w[0:4, 0:2]: [0 1 6 7 12 13 18 19]\n" +
		"device 0 b[0:6]: [100 101 102 103 104 105]\n" +
		"device 1 w[0:4, 2:4]: [2 3 8 9 14 15 20 21]\n" +
		"device 1 b[0:6]: [100 101 102 103 104 105]\n" +
		"device 2 w[0:4, 4:6]: [4 5 10 11 16 17 22 23]\n" +
		"device 2 b[0:6]: [100 101 102 103 104 105]\n" +
		"restored on 3 devices, read 30 bytes\n"
	if out.String() != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
