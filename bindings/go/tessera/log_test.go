// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// The warning NewDataParallel logs, on the calling thread, for a mesh that
// is not 1-D (core/distribution.cc).
const twoDWarning = "Expect the input mesh to be 1D, but received mesh.devices.ndim=2. " +
	"The first axis will be used for data-parallel sharding."

// logRecord is one message a test handler received, with the OS thread it
// ran on.
type logRecord struct {
	level   tessera.LogLevel
	message string
	thread  int
}

// recorder is a concurrency-safe handler that keeps what it receives.
type recorder struct {
	mu      sync.Mutex
	records []logRecord
}

func (r *recorder) handle(level tessera.LogLevel, message string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.records = append(r.records, logRecord{level, message, syscall.Gettid()})
}

func (r *recorder) snapshot() []logRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]logRecord(nil), r.records...)
}

// onThisThread is what the handler received on the calling OS thread (the
// caller locks it): messages logged inside this goroutine's C calls, none of
// a library thread's.
func (r *recorder) onThisThread() []logRecord {
	var mine []logRecord
	for _, rec := range r.snapshot() {
		if rec.thread == syscall.Gettid() {
			mine = append(mine, rec)
		}
	}
	return mine
}

// withLogHandler installs handler for the test and restores the default
// when it ends.
func withLogHandler(t *testing.T, handler func(tessera.LogLevel, string), minLevel tessera.LogLevel) {
	t.Helper()
	ok(t, tessera.SetLogHandler(handler, minLevel))
	t.Cleanup(func() { ok(t, tessera.SetLogHandler(nil, tessera.LogLevelWarning)) })
}

// logTwoDWarning makes the library log twoDWarning once.
func logTwoDWarning(t *testing.T) {
	t.Helper()
	mesh := mesh42(t)
	defer mesh.Close()
	d := must(tessera.NewDataParallel(mesh, nil))
	d.Close()
}

func TestLogHandlerReceivesALibraryWarning(t *testing.T) {
	var r recorder
	withLogHandler(t, r.handle, tessera.LogLevelWarning)
	// The warning is logged on this goroutine's thread, inside the C call.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	logTwoDWarning(t)
	got := r.onThisThread()
	if len(got) != 1 || got[0].level != tessera.LogLevelWarning || got[0].message != twoDWarning {
		t.Fatalf("handler received %+v on the calling thread, want one warning %q", r.snapshot(), twoDWarning)
	}
}

// logTestJobOptions are the options of a one-process job "go-log-test"
// whose coordinator names itself configured (and binds a free port).
func logTestJobOptions(configured string) (*tessera.ClusterOptions, error) {
	opts := tessera.NewClusterOptions()
	for _, err := range []error{
		opts.SetBindAddress("127.0.0.1:0"),
		opts.SetCoordinatorAddress(configured), // the address the coordinator names itself by
		opts.SetNumProcesses(1),
		opts.SetProcessIndex(0),
		opts.SetJobID("go-log-test"),
		opts.SetDetection("none"),
		opts.SetInitTimeout(5 * time.Second),
		opts.SetHeartbeat(200*time.Millisecond, 2*time.Second),
		opts.SetShutdownTimeout(5 * time.Second),
	} {
		if err != nil {
			opts.Close()
			return nil, err
		}
	}
	return opts, nil
}

func TestLogHandlerReceivesWarningsFromALibraryThread(t *testing.T) {
	var r recorder
	withLogHandler(t, r.handle, tessera.LogLevelWarning)
	// A client of another job: the coordinator rejects its registration and
	// logs that on one of its gRPC server threads.
	const configured = "127.0.0.1:1"
	opts := must(logTestJobOptions(configured))
	defer opts.Close()
	coordinator := must(tessera.StartCoordinator(opts))
	defer coordinator.Close()
	ok(t, opts.SetCoordinatorAddress(fmt.Sprintf("127.0.0.1:%d", coordinator.Port())))
	ok(t, opts.SetJobID("another-job"))
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	client, err := tessera.Connect(context.Background(), opts)
	if client != nil {
		client.Close()
	}
	if !errors.Is(err, tessera.CodeFailedPrecondition) {
		t.Fatalf("Connect to another job's coordinator: error %v, want FAILED_PRECONDITION", err)
	}
	want := "coordinator: rejected registration of process 0: coordinator at " + configured +
		" serves job 'go-log-test', but process 0 belongs to job 'another-job'"
	for _, rec := range r.snapshot() {
		if rec.message == want {
			if rec.level != tessera.LogLevelWarning || rec.thread == syscall.Gettid() {
				t.Errorf("%+v: want a warning from a thread other than the caller's (%d)", rec, syscall.Gettid())
			}
			return
		}
	}
	t.Fatalf("handler received %+v, want a warning %q", r.snapshot(), want)
}

func TestRemovedLogHandlerReceivesNothing(t *testing.T) {
	var r recorder
	ok(t, tessera.SetLogHandler(r.handle, tessera.LogLevelWarning))
	ok(t, tessera.SetLogHandler(nil, tessera.LogLevelWarning))
	logTwoDWarning(t) // to stderr, the default
	if got := r.snapshot(); len(got) != 0 {
		t.Fatalf("removed handler received %+v", got)
	}
}

func TestLogHandlerBelowItsMinimumLevelReceivesNothing(t *testing.T) {
	var r recorder
	withLogHandler(t, r.handle, tessera.LogLevelError)
	logTwoDWarning(t)
	if got := r.snapshot(); len(got) != 0 {
		t.Fatalf("handler for errors received %+v", got)
	}
}

func TestPanickingLogHandlerDoesNotCrashTheProcess(t *testing.T) {
	calls := 0
	withLogHandler(t, func(tessera.LogLevel, string) { calls++; panic("handler bug") }, tessera.LogLevelWarning)
	logTwoDWarning(t) // returns normally: the panic stops in the trampoline
	logTwoDWarning(t) // and the handler stays installed
	if calls != 2 {
		t.Fatalf("panicking handler ran %d times, want 2", calls)
	}
}

func TestInvalidLogLevelIsInvalidArgumentAndKeepsTheHandler(t *testing.T) {
	var r recorder
	withLogHandler(t, r.handle, tessera.LogLevelWarning)
	err := tessera.SetLogHandler(func(tessera.LogLevel, string) { t.Error("the rejected handler was called") },
		tessera.LogLevel(7))
	wantError(t, err, tessera.CodeInvalidArgument, "Argument 'min_level' is 7; expected one of "+
		"TESSERA_LOG_DEBUG (0), TESSERA_LOG_INFO (1), TESSERA_LOG_WARNING (2), TESSERA_LOG_ERROR (3)")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	logTwoDWarning(t)
	if got := r.onThisThread(); len(got) != 1 || got[0].message != twoDWarning {
		t.Fatalf("the kept handler received %+v, want the warning", r.snapshot())
	}
}

// The child process of TestExitWhileLibraryThreadsLogIsClean.
const logAtExitEnv = "TESSERA_GO_TEST_LOG_AT_EXIT"

// logAtExit installs a handler, keeps the coordinator's gRPC threads logging
// (a client of another job, again and again, from another goroutine) and
// exits the process in the middle of it.
func logAtExit() {
	var received sync.WaitGroup
	received.Add(1)
	var once sync.Once
	err := tessera.SetLogHandler(func(_ tessera.LogLevel, message string) {
		if strings.HasPrefix(message, "coordinator: rejected registration") { // a gRPC thread's
			once.Do(received.Done)
		}
	}, tessera.LogLevelWarning)
	opts, err2 := logTestJobOptions("127.0.0.1:1")
	if err != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, err, err2)
		os.Exit(2)
	}
	coordinator, err := tessera.StartCoordinator(opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := opts.SetCoordinatorAddress(fmt.Sprintf("127.0.0.1:%d", coordinator.Port())); err != nil {
		os.Exit(2)
	}
	if err := opts.SetJobID("another-job"); err != nil {
		os.Exit(2)
	}
	go func() {
		for i := 0; i < 1000; i++ { // bounded: the process exits long before
			if client, _ := tessera.Connect(context.Background(), opts); client != nil {
				client.Close()
			}
		}
	}()
	received.Wait() // the handler is being called from library threads now
	fmt.Println("exiting")
	os.Exit(0)
}

// A Go program may end while library threads are inside the log handler or
// about to call it: it exits at once and cleanly (no hang, no crash).
func TestExitWhileLibraryThreadsLogIsClean(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), logAtExitEnv+"=1")
	out, err := cmd.Output()
	if ctx.Err() != nil {
		t.Fatalf("the process did not exit within 30 s (output %q)", out)
	}
	if err != nil || string(out) != "exiting\n" {
		t.Fatalf("process: %v, output %q; want status 0 and \"exiting\"", err, out)
	}
}
