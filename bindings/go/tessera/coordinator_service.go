// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// The coordinator as an operated service (tessera/experimental/
// coordinator_service.h, experimental): its /metrics endpoint, and a job's
// state as an operator queries it ("who is stuck where"). The gRPC health
// service needs no setting: every coordinator serves it.

import (
	"context"
	"runtime"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// SetMetricsBind serves the coordinator's metrics over HTTP at /metrics on
// address ("HOST:PORT"; port 0: any free port, see Coordinator.MetricsPort).
// Off by default; the endpoint has no authentication.
func (o *ClusterOptions) SetMetricsBind(address string) error {
	if err := checkStrings("address", address); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetMetricsBind(address, e) })
}

// MetricsPort is the port /metrics listens on (the chosen one for port 0);
// FAILED_PRECONDITION when the options set no metrics address.
func (c *Coordinator) MetricsPort() (int, error) {
	port, err := keepErr(c, func(e []uintptr) int { return c.raw().MetricsPort(e) })
	return port, err
}

// JobStatus is a job's state as its coordinator saw it when queried.
type JobStatus struct {
	// State is "REGISTERING", "RUNNING", "SHUTTING_DOWN", "STOPPED" or "FAILED".
	State string
	// Processes are the job's processes, by index.
	Processes []ProcessStatus
}

// ProcessStatus is one process of a JobStatus.
type ProcessStatus struct {
	// State is "never connected", "pending", "running", "disconnected" or "failed".
	State string
	// Heartbeated says whether it ever sent a heartbeat; SinceHeartbeat is
	// the time since its last one (whole milliseconds), 0 when it never did.
	Heartbeated    bool
	SinceHeartbeat time.Duration
	// WaitingOn is what it waits on: "barrier ID#COUNTER" and "key KEY"
	// parts joined by ", "; "" when nothing.
	WaitingOn string
}

// QueryJobStatus asks the coordinator at options' coordinator address for
// its job's state, as an operator (no process of the job), with options' job
// id, job token (or TESSERA_JOB_TOKEN) and TLS settings; it waits up to
// timeout or ctx's deadline, whichever comes first.
func QueryJobStatus(ctx context.Context, options *ClusterOptions, timeout time.Duration) (*JobStatus, error) {
	ms, err := callTimeout(ctx, "job status query", timeout)
	if err != nil {
		return nil, err
	}
	var e errSlot
	raw := options.raw().QueryJobStatus(ms, e[:])
	runtime.KeepAlive(options)
	if err := e.take(); err != nil {
		return nil, withContext(ctx, err)
	}
	// The handle is a snapshot: copied into Go values, then freed.
	defer swig.DeleteJobStatus(raw)
	status := &JobStatus{State: raw.JobState(nil)}
	status.Processes = make([]ProcessStatus, raw.NumProcesses(nil))
	for i := range status.Processes {
		p := &status.Processes[i]
		p.State = raw.ProcessState(int64(i), nil)
		p.WaitingOn = raw.ProcessWaitingOn(int64(i), nil)
		if ms := raw.ProcessMsSinceHeartbeat(int64(i), nil); ms >= 0 {
			p.Heartbeated = true
			p.SinceHeartbeat = time.Duration(ms) * time.Millisecond
		}
	}
	return status, nil
}
