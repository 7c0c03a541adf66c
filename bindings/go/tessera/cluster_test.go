// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// The two-process test re-executes this test binary as each process of the
// job; TestMain sends those runs to clusterWorker.
const workerEnv = "TESSERA_GO_TEST_WORKER"

func TestMain(m *testing.M) {
	if os.Getenv(logAtExitEnv) != "" {
		logAtExit() // log_test.go; exits
	}
	if id := os.Getenv(workerEnv); id != "" {
		if err := clusterWorker(id, os.Getenv("TESSERA_GO_TEST_ADDRESS")); err != nil {
			fmt.Fprintf(os.Stderr, "worker %s: %v\n", id, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// clusterWorker is one process: initialize, publish and read a KV entry,
// barrier, poll an event, shut down.
func clusterWorker(idText, address string) error {
	id, err := strconv.Atoi(idText)
	if err != nil {
		return err
	}
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	for _, err := range []error{
		opts.SetCoordinatorAddress(address),
		opts.SetNumProcesses(2),
		opts.SetProcessIndex(id),
		opts.SetJobID("go-binding-test"),
		opts.SetDetection("none"),
		opts.SetInitTimeout(20 * time.Second),
		opts.SetHeartbeat(200*time.Millisecond, 2*time.Second),
		opts.SetShutdownTimeout(20 * time.Second),
	} {
		if err != nil {
			return err
		}
	}
	ctx := context.Background()
	client, err := tessera.Initialize(ctx, opts)
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	defer client.Close()
	if !tessera.IsInitialized() || client.ProcessIndex() != id || client.NumProcesses() != 2 {
		return fmt.Errorf("initialized %v, process %d of %d", tessera.IsInitialized(), client.ProcessIndex(), client.NumProcesses())
	}
	mine := []byte(fmt.Sprintf("process %d: größe ✓", id))
	if err := client.KVSet(fmt.Sprintf("go/%d", id), mine, false); err != nil {
		return fmt.Errorf("kv set: %w", err)
	}
	other, err := client.KVGet(ctx, fmt.Sprintf("go/%d", 1-id), 20*time.Second)
	if err != nil {
		return fmt.Errorf("kv get: %w", err)
	}
	if want := []byte(fmt.Sprintf("process %d: größe ✓", 1-id)); !bytes.Equal(other, want) {
		return fmt.Errorf("kv get = %q, want %q", other, want)
	}
	if err := client.KVSet(fmt.Sprintf("go/%d", id), mine, false); !errors.Is(err, tessera.CodeAlreadyExists) {
		return fmt.Errorf("second kv set error = %v, want ALREADY_EXISTS", err)
	}
	if err := client.Barrier(ctx, "go-binding-test", 20*time.Second, nil); err != nil {
		return fmt.Errorf("barrier: %w", err)
	}
	// Polling: no event is due in a healthy job, so a zero wait reports
	// DEADLINE_EXCEEDED; an event (e.g. a peer's state change) is fine too.
	if ev, err := client.NextEvent(ctx, 0); err != nil && !errors.Is(err, tessera.CodeDeadlineExceeded) {
		return fmt.Errorf("next event: %w", err)
	} else if ev != nil && ev.Version <= 0 {
		return fmt.Errorf("event %+v has no version", ev)
	}
	if err := client.Shutdown(ctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	fmt.Printf("worker %d read %q\n", id, other)
	return nil
}

// freePort is a loopback port nothing listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func TestTwoProcessesInitializeKVBarrierShutdown(t *testing.T) {
	address := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	// Every child is killed if the test ends early, and reaped in any case.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var workers [2]*exec.Cmd
	// stdout is what the worker reports; stderr has the library's log lines
	// (e.g. the warning that this test job runs without a token) and errors.
	var outputs, logs [2]bytes.Buffer
	for id := range workers {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", workerEnv, id), "TESSERA_GO_TEST_ADDRESS="+address)
		cmd.Stdout = &outputs[id]
		cmd.Stderr = &logs[id]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		workers[id] = cmd
	}
	for id, cmd := range workers {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s%s", id, err, outputs[id].String(), logs[id].String())
		}
	}
	for id := range workers {
		want := fmt.Sprintf("worker %d read \"process %d: größe ✓\"\n", id, 1-id)
		if got := outputs[id].String(); got != want {
			t.Errorf("process %d printed %q, want %q", id, got, want)
		}
	}
}

func TestDetectEnvReadsTesseraVariables(t *testing.T) {
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	d := must(opts.DetectEnv([]string{"TESSERA_COORDINATOR_ADDRESS=10.0.0.1:1234", "TESSERA_NUM_PROCESSES=4", "TESSERA_PROCESS_ID=3"}))
	defer d.Close()
	if d.Source() != "tessera" || d.CoordinatorAddress() != "10.0.0.1:1234" || d.NumProcesses() != 4 || d.ProcessIndex() != 3 {
		t.Fatalf("source %q address %q processes %d index %d", d.Source(), d.CoordinatorAddress(), d.NumProcesses(), d.ProcessIndex())
	}
}

func TestClusterOptionsRejectBadValues(t *testing.T) {
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	err := opts.SetNumProcesses(0)
	if !errors.Is(err, tessera.CodeInvalidArgument) {
		t.Fatalf("SetNumProcesses(0) error = %v, want INVALID_ARGUMENT", err)
	}
}

// A standalone coordinator for one process, a plain client of it, the KV
// list, and the coordinator seeing the job end after the client's shutdown.
func TestCoordinatorConnectKVListShutdown(t *testing.T) {
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	for _, err := range []error{
		opts.SetBindAddress("127.0.0.1:0"),
		opts.SetCoordinatorAddress("127.0.0.1:1"), // replaced below by the chosen port
		opts.SetNumProcesses(1),
		opts.SetProcessIndex(0),
		opts.SetJobID("go-coordinator-test"),
		opts.SetDetection("none"),
		opts.SetInitTimeout(10 * time.Second),
		opts.SetHeartbeat(200*time.Millisecond, 2*time.Second),
		opts.SetShutdownTimeout(10 * time.Second),
	} {
		ok(t, err)
	}
	coordinator := must(tessera.StartCoordinator(opts))
	defer coordinator.Close()
	if coordinator.Port() <= 0 {
		t.Fatalf("Port() = %d", coordinator.Port())
	}
	ok(t, opts.SetCoordinatorAddress(fmt.Sprintf("127.0.0.1:%d", coordinator.Port())))
	ctx := context.Background()
	client := must(tessera.Connect(ctx, opts))
	defer client.Close()
	ok(t, client.KVSet("dir/a", []byte("1"), false))
	ok(t, client.KVSet("dir/b", []byte{0, 0xff}, false))
	ok(t, client.KVSet("dirx/c", []byte("not listed"), false))
	entries := must(client.KVList("dir"))
	want := map[string][]byte{"dir/a": []byte("1"), "dir/b": {0, 0xff}}
	if len(entries) != len(want) || !bytes.Equal(entries["dir/a"], want["dir/a"]) || !bytes.Equal(entries["dir/b"], want["dir/b"]) {
		t.Fatalf("KVList(dir) = %q, want %q", entries, want)
	}
	if n := must(client.KVIncrement("counter", 5)); n != 5 {
		t.Fatalf("KVIncrement = %d, want 5", n)
	}
	_, err := client.KVTryGet("absent")
	if !errors.Is(err, tessera.CodeNotFound) {
		t.Fatalf("KVTryGet(absent) error = %v, want NOT_FOUND", err)
	}
	ok(t, client.Barrier(ctx, "solo", 5*time.Second, []int{0}))
	ok(t, client.Shutdown(ctx))
	ok(t, coordinator.Wait(ctx, 10*time.Second))
}
