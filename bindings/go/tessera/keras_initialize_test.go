// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"testing"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// K67: the coordinator is the first job address; the count Keras was not
// given stays None (JAX detects it).
func TestKerasInitializeK67(t *testing.T) {
	opts := tessera.NewKerasInitializeOptions()
	ok(t, opts.SetProcessIndex(1))
	r := must(opts.ResolveEnv([]string{"KERAS_DISTRIBUTION_JOB_ADDRESSES=10.0.0.1:1234,10.0.0.2:2345"}))
	if c, set := r.CoordinatorAddress(); !set || c != "10.0.0.1:1234" {
		t.Fatalf("coordinator %q %v", c, set)
	}
	if a := must(r.JobAddress(1)); a != "10.0.0.2:2345" || r.NumJobAddresses() != 2 {
		t.Fatalf("job address %q of %d", a, r.NumJobAddresses())
	}
	if _, set := r.NumProcesses(); set {
		t.Fatal("num_processes is set")
	}
	if i, set := r.ProcessIndex(); !set || i != 1 {
		t.Fatalf("process index %d %v", i, set)
	}
	if s, set := r.JobAddresses(); !set || s != "10.0.0.1:1234,10.0.0.2:2345" {
		t.Fatalf("job addresses %q", s)
	}
	ok(t, r.Close())
	ok(t, opts.Close())
}

func TestKerasInitializeExplicitArgumentsWin(t *testing.T) {
	opts := tessera.NewKerasInitializeOptions()
	ok(t, opts.SetJobAddresses("a:1"))
	ok(t, opts.SetNumProcesses(2))
	r := must(opts.ResolveEnv([]string{"KERAS_DISTRIBUTION_NUM_PROCESSES=4"}))
	if n, _ := r.NumProcesses(); n != 2 {
		t.Fatalf("num_processes %d", n)
	}
	if _, err := opts.ResolveEnv([]string{"KERAS_DISTRIBUTION_PROCESS_ID=abc"}); err == nil {
		t.Fatal("int() accepted abc")
	}
	if r2, err := tessera.NewKerasInitializeOptions().Resolve(); err != nil || r2 == nil {
		t.Fatalf("resolve %v", err)
	}
}
