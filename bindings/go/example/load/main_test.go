// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadExamplePrintsEachDevicesShard(t *testing.T) {
	path := filepath.Join(t.TempDir(), "model.safetensors")
	if err := writeCheckpoint(path); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := run(&out, path); err != nil {
		t.Fatal(err)
	}
	want := "process 0 of 2 reads 30 of the file's data bytes\n" +
		"device 0 w [2 3]: [0 1 2 6 7 8]\n" +
		"device 0 b [6]: [24 25 26 27 28 29]\n" +
		"device 1 w [2 3]: [3 4 5 9 10 11]\n" +
		"device 1 b [6]: [24 25 26 27 28 29]\n" +
		"read 30 bytes\n"
	if out.String() != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
