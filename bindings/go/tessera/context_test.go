// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

func TestTimeoutsRoundAwayFromZeroToWholeMilliseconds(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want int64
	}{{0, 0}, {time.Nanosecond, 1}, {1500 * time.Microsecond, 2}, {2 * time.Second, 2000},
		{-time.Nanosecond, -1}, {-3 * time.Millisecond, -3}} {
		if got := tessera.Millis(c.d); got != c.want {
			t.Errorf("Millis(%v) = %d, want %d", c.d, got, c.want)
		}
	}
}

// soloClient is a plain client of a one-process job's standalone coordinator.
func soloClient(t *testing.T) *tessera.Client {
	t.Helper()
	opts := tessera.NewClusterOptions()
	t.Cleanup(func() { opts.Close() })
	for _, err := range []error{
		opts.SetBindAddress("127.0.0.1:0"),
		opts.SetCoordinatorAddress("127.0.0.1:1"), // replaced below by the chosen port
		opts.SetNumProcesses(1),
		opts.SetProcessIndex(0),
		opts.SetJobID("go-context-test"),
		opts.SetDetection("none"),
		opts.SetInitTimeout(10 * time.Second),
		opts.SetShutdownTimeout(10 * time.Second),
	} {
		ok(t, err)
	}
	coordinator := must(tessera.StartCoordinator(opts))
	t.Cleanup(func() { coordinator.Close() })
	ok(t, opts.SetCoordinatorAddress(fmt.Sprintf("127.0.0.1:%d", coordinator.Port())))
	client := must(tessera.Connect(context.Background(), opts))
	t.Cleanup(func() { client.Close() })
	return client
}

func TestKVGetWithACancelledContextFailsBeforeTheCall(t *testing.T) {
	client := soloClient(t)
	ok(t, client.KVSet("present", []byte("v"), false))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := client.KVGet(ctx, "present", time.Second)
	var te *tessera.Error
	if !errors.Is(err, context.Canceled) || errors.As(err, &te) {
		t.Fatalf("error = %v, want context.Canceled from the binding, not the library", err)
	}
}

func TestKVGetWaitsNoLongerThanTheContextDeadline(t *testing.T) {
	client := soloClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := client.KVGet(ctx, "absent", time.Minute)
	if elapsed := time.Since(start); elapsed > 20*time.Second {
		t.Fatalf("KVGet returned after %v; the context allowed 300ms", elapsed)
	}
	if !errors.Is(err, tessera.CodeDeadlineExceeded) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want DEADLINE_EXCEEDED matching context.DeadlineExceeded", err)
	}
}

func TestKVGetTimeoutShorterThanTheContextIsTheLibrarysError(t *testing.T) {
	client := soloClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := client.KVGet(ctx, "absent", 100*time.Millisecond)
	if !errors.Is(err, tessera.CodeDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error = %v, want DEADLINE_EXCEEDED not matching the live context", err)
	}
}

func TestBarrierWithAPassedDeadlineFailsBeforeTheCall(t *testing.T) {
	client := soloClient(t)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	err := client.Barrier(ctx, "late", time.Minute, nil)
	var te *tessera.Error
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) {
		t.Fatalf("error = %v, want context.DeadlineExceeded from the binding", err)
	}
}

func TestNextEventWithACancelledContextFailsBeforeTheCall(t *testing.T) {
	client := soloClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := client.NextEvent(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}

func TestInitializeWithACancelledContextDoesNotJoin(t *testing.T) {
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	client, err := tessera.Initialize(ctx, opts)
	if client != nil || !errors.Is(err, context.Canceled) || tessera.IsInitialized() {
		t.Fatalf("Initialize = %v, %v (initialized %v), want nil, context.Canceled", client, err, tessera.IsInitialized())
	}
}
