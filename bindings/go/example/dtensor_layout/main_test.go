// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"strings"
	"testing"
)

func TestDTensorLayoutExampleSaysWhatEachDeviceHolds(t *testing.T) {
	var out strings.Builder
	if err := run(&out, printed, []int64{8, 6}); err != nil {
		t.Fatal(err)
	}
	want := "specs [batch unsharded] over mesh dims [batch model] sizes [2 2]\n" +
		"global shape [8 6]: each device holds [4 6]\n" +
		"shards:[(1,1),(1,1),(2,1),(2,1)] num_shards_per_dim:(2,1)\n" +
		"round trip exact: true\n"
	if out.String() != want {
		t.Fatalf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
