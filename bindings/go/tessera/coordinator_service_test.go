// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// serviceOptions are options for a coordinator of n processes on a free
// loopback port, without a job token.
func serviceOptions(t *testing.T, n int) *tessera.ClusterOptions {
	t.Helper()
	opts := tessera.NewClusterOptions()
	for _, err := range []error{
		opts.SetDetection("none"),
		opts.SetBindAddress("127.0.0.1:0"),
		opts.SetNumProcesses(n),
		opts.SetProcessIndex(0),
		opts.SetJobID("go-service-test"),
		opts.SetInitTimeout(20 * time.Second),
		opts.SetHeartbeat(100*time.Millisecond, 5*time.Second),
		opts.SetShutdownTimeout(20 * time.Second),
	} {
		ok(t, err)
	}
	return opts
}

// startService starts the coordinator opts describe and points opts at it.
func startService(t *testing.T, opts *tessera.ClusterOptions) *tessera.Coordinator {
	t.Helper()
	coordinator := must(tessera.StartCoordinator(opts))
	ok(t, opts.SetCoordinatorAddress(fmt.Sprintf("127.0.0.1:%d", coordinator.Port())))
	return coordinator
}

func TestMetricsBindServesOpenMetricsOnTheChosenPort(t *testing.T) {
	opts := serviceOptions(t, 2)
	defer opts.Close()
	ok(t, opts.SetMetricsBind("127.0.0.1:0"))
	coordinator := startService(t, opts)
	defer coordinator.Close()
	port := must(coordinator.MetricsPort())
	if port <= 0 || port == coordinator.Port() {
		t.Fatalf("MetricsPort() = %d (the coordinator's port is %d), want another port above 0", port, coordinator.Port())
	}
	request := must(http.NewRequest("GET", fmt.Sprintf("http://127.0.0.1:%d/metrics", port), nil))
	request.Header.Set("Accept", "application/openmetrics-text; version=1.0.0")
	response := must(http.DefaultClient.Do(request))
	defer response.Body.Close()
	body := string(must(io.ReadAll(response.Body)))
	if response.StatusCode != 200 || !strings.Contains(body, "\ntessera_coordinator_processes_expected 2\n") ||
		!strings.HasSuffix(body, "\n# EOF\n") {
		t.Fatalf("GET /metrics: %d\n%s", response.StatusCode, body)
	}
}

func TestMetricsPortWithoutMetricsBindIsFailedPrecondition(t *testing.T) {
	opts := serviceOptions(t, 2)
	defer opts.Close()
	coordinator := startService(t, opts)
	defer coordinator.Close()
	_, err := coordinator.MetricsPort()
	wantError(t, err, tessera.CodeFailedPrecondition,
		"the coordinator serves no metrics: its options set no metrics address "+
			"(tessera_cluster_options_set_metrics_bind)")
}

func TestMetricsBindWithoutPortIsInvalidArgument(t *testing.T) {
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	wantError(t, opts.SetMetricsBind("127.0.0.1"), tessera.CodeInvalidArgument,
		"Argument 'address' must be HOST:PORT (port 0: any free port), got '127.0.0.1'")
}

// Before any process registers: every process never connected, no heartbeat.
func TestQueryJobStatusOfAJobNobodyJoinedYet(t *testing.T) {
	opts := serviceOptions(t, 2)
	defer opts.Close()
	coordinator := startService(t, opts)
	defer coordinator.Close()
	status := must(tessera.QueryJobStatus(context.Background(), opts, 10*time.Second))
	never := tessera.ProcessStatus{State: "never connected"}
	want := &tessera.JobStatus{State: "REGISTERING", Processes: []tessera.ProcessStatus{never, never}}
	if !reflect.DeepEqual(status, want) {
		t.Fatalf("QueryJobStatus = %+v, want %+v", status, want)
	}
}

// The operator's question: process 0 is stuck waiting for key "ready".
func TestQueryJobStatusShowsTheKeyAProcessWaitsOn(t *testing.T) {
	opts := serviceOptions(t, 1)
	defer opts.Close()
	coordinator := startService(t, opts)
	defer coordinator.Close()
	ctx := context.Background()
	client := must(tessera.Connect(ctx, opts))
	defer client.Close()
	got := make(chan error, 1)
	go func() {
		_, err := client.KVGet(ctx, "ready", 20*time.Second)
		got <- err
	}()
	var status *tessera.JobStatus
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		status = must(tessera.QueryJobStatus(ctx, opts, 10*time.Second))
		if status.Processes[0].WaitingOn != "" {
			break
		}
	}
	p := status.Processes[0]
	if status.State != "RUNNING" || len(status.Processes) != 1 || p.State != "running" || p.WaitingOn != "key ready" ||
		!p.Heartbeated || p.SinceHeartbeat < 0 || p.SinceHeartbeat > 5*time.Second {
		t.Fatalf("QueryJobStatus = %+v", status)
	}
	ok(t, client.KVSet("ready", []byte("1"), false))
	ok(t, <-got)
	ok(t, client.Shutdown(ctx))
}

func TestQueryJobStatusOfAnAddressNobodyServesIsUnavailable(t *testing.T) {
	opts := tessera.NewClusterOptions()
	defer opts.Close()
	ok(t, opts.SetCoordinatorAddress("127.0.0.1:1"))
	_, err := tessera.QueryJobStatus(context.Background(), opts, 10*time.Second)
	if !errors.Is(err, tessera.CodeUnavailable) {
		t.Fatalf("QueryJobStatus error = %v, want UNAVAILABLE", err)
	}
}
