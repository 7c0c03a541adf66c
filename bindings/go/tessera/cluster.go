// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"context"
	"runtime"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// readClusterDetails copies the cluster details of error handle h.
func readClusterDetails(e *Error, h uintptr) {
	e.Reason = ErrorReason(swig.GoErrorReason(h))
	e.SourceProcess = int(swig.GoErrorSourceProcess(h))
	if n := swig.GoErrorMissingCount(h); n > 0 {
		e.Missing = make([]MissingProcess, n)
		for i := range e.Missing {
			e.Missing[i] = MissingProcess{
				ProcessIndex: int(swig.GoErrorMissingProcess(h, int64(i))),
				State:        TaskState(swig.GoErrorMissingState(h, int64(i))),
				WaitingAt:    swig.GoErrorMissingWaitingAt(h, int64(i)),
			}
		}
	}
	if n := swig.GoErrorArrivedCount(h); n > 0 {
		e.Arrived = make([]int, n)
		for i := range e.Arrived {
			e.Arrived[i] = int(swig.GoErrorArrivedProcess(h, int64(i)))
		}
	}
}

// ClusterOptions say how a job starts; unset fields come from TESSERA_*,
// Keras, DTensor and launcher variables (tessera/cluster.h). Mutable; one
// goroutine at a time.
type ClusterOptions struct{ p swig.ClusterOptions }

// NewClusterOptions is options with every field unset.
func NewClusterOptions() *ClusterOptions { return wrapClusterOptions(swig.NewClusterOptions()) }

func (o *ClusterOptions) set(f func(e []uintptr)) error { return keepDo(o, f) }

// SetCoordinatorAddress is the "host:port" the coordinator is reached at.
func (o *ClusterOptions) SetCoordinatorAddress(address string) error {
	if err := checkStrings("address", address); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetCoordinatorAddress(address, e) })
}

// SetBindAddress is the "host:port" process 0 listens on (port 0: any free).
func (o *ClusterOptions) SetBindAddress(address string) error {
	if err := checkStrings("address", address); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetBindAddress(address, e) })
}

// SetNumProcesses is the number of processes in the job.
func (o *ClusterOptions) SetNumProcesses(n int) error {
	return o.set(func(e []uintptr) { o.raw().SetNumProcesses(int64(n), e) })
}

// SetProcessIndex is this process's index in the job (0 runs the coordinator).
func (o *ClusterOptions) SetProcessIndex(index int) error {
	return o.set(func(e []uintptr) { o.raw().SetProcessIndex(int64(index), e) })
}

// SetJobID is the job id (not secret).
func (o *ClusterOptions) SetJobID(id string) error {
	if err := checkStrings("job_id", id); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetJobId(id, e) })
}

// SetJobToken is the shared secret proven by HMAC ("" clears it).
func (o *ClusterOptions) SetJobToken(token string) error {
	if err := checkStrings("token", token); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetJobToken(token, e) })
}

// SetInitTimeout is the time to register and for every process to arrive
// (default 5 minutes), counted in whole milliseconds.
func (o *ClusterOptions) SetInitTimeout(timeout time.Duration) error {
	return o.set(func(e []uintptr) { o.raw().SetInitTimeoutMs(millis(timeout), e) })
}

// SetHeartbeat is the heartbeat period and loss timeout.
func (o *ClusterOptions) SetHeartbeat(interval, timeout time.Duration) error {
	return o.set(func(e []uintptr) { o.raw().SetHeartbeat(millis(interval), millis(timeout), e) })
}

// SetShutdownTimeout is the shutdown barrier's timeout (default 5 minutes).
func (o *ClusterOptions) SetShutdownTimeout(timeout time.Duration) error {
	return o.set(func(e []uintptr) { o.raw().SetShutdownTimeoutMs(millis(timeout), e) })
}

// SetRPCTimeout is the deadline of each non-blocking call (default 1 minute).
func (o *ClusterOptions) SetRPCTimeout(timeout time.Duration) error {
	return o.set(func(e []uintptr) { o.raw().SetRpcTimeoutMs(millis(timeout), e) })
}

// SetDetection picks the detection: "auto", "none", or one launcher.
func (o *ClusterOptions) SetDetection(method string) error {
	if err := checkStrings("method", method); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetDetection(method, e) })
}

// Detect resolves the configuration without connecting anywhere.
func (o *ClusterOptions) Detect() (*Detection, error) {
	return keepErr(o, func(e []uintptr) *Detection { return wrapDetection(o.raw().Detect(e)) })
}

// DetectEnv is Detect over env ("NAME=VALUE" strings) instead of the
// process's environment.
func (o *ClusterOptions) DetectEnv(env []string) (*Detection, error) {
	if err := checkStrings("env", env...); err != nil {
		return nil, err
	}
	return keepErr(o, func(e []uintptr) *Detection { return wrapDetection(o.raw().DetectEnv(env, e)) })
}

// Initialize joins the job (jax.distributed.initialize): process 0 also
// runs the coordinator. End with Shutdown, then Close.
//
// It blocks until every process has arrived, up to the options' init
// timeout (SetInitTimeout, or TESSERA_INIT_TIMEOUT_MS): ctx is checked before
// the call starts, but neither its deadline nor its cancellation can
// shorten the wait, which the C call does not let a caller interrupt.
func Initialize(ctx context.Context, options *ClusterOptions) (*Client, error) {
	if err := notStarted(ctx, "initialize"); err != nil {
		return nil, err
	}
	var e errSlot
	c := wrapClient(options.raw().Initialize(e[:]))
	runtime.KeepAlive(options)
	return c, e.take()
}

// Connect is a plain client of a running coordinator; nothing process-wide
// changes. It blocks as Initialize does, with the same ctx limits.
func Connect(ctx context.Context, options *ClusterOptions) (*Client, error) {
	if err := notStarted(ctx, "connect"); err != nil {
		return nil, err
	}
	var e errSlot
	c := wrapClient(options.raw().Connect(e[:]))
	runtime.KeepAlive(options)
	return c, e.take()
}

// IsInitialized reports whether this process has joined a job.
func IsInitialized() bool { return swig.ClientIsInitialized() }

// Detection is a resolved configuration and why. Immutable.
type Detection struct{ p swig.Detection }

// Source is where the configuration came from ("options", "slurm", ...).
func (d *Detection) Source() string { return keep(d, d.raw().Source) }

// CoordinatorAddress is the "host:port" clients dial.
func (d *Detection) CoordinatorAddress() string {
	return keep(d, d.raw().CoordinatorAddress)
}

// NumProcesses is the number of processes.
func (d *Detection) NumProcesses() int { return int(keep(d, d.raw().NumProcesses)) }

// ProcessIndex is this process's index in the job.
func (d *Detection) ProcessIndex() int { return int(keep(d, d.raw().ProcessIndex)) }

// Explanation says which source was used and why the others were skipped.
func (d *Detection) Explanation() string { return keep(d, d.raw().Explanation) }

// Client is this process's membership in a job. Safe for concurrent use,
// except Close.
type Client struct{ p swig.Client }

// ProcessIndex is this process's index in the job.
func (c *Client) ProcessIndex() int { return int(keep(c, c.raw().ProcessIndex)) }

// NumProcesses is the number of processes in the job.
func (c *Client) NumProcesses() int { return int(keep(c, c.raw().NumProcesses)) }

// CoordinatorAddress is the "host:port" this client talks to.
func (c *Client) CoordinatorAddress() string {
	return keep(c, c.raw().CoordinatorAddress)
}

// Devices is the job's devices.
func (c *Client) Devices() (*DeviceList, error) {
	return keepErr(c, func(e []uintptr) *DeviceList { return wrapDeviceList(c.raw().Devices(e)) })
}

// KVSet stores value under key (ALREADY_EXISTS without allowOverwrite when
// the key exists).
func (c *Client) KVSet(key string, value []byte, allowOverwrite bool) error {
	if err := checkStrings("key", key); err != nil {
		return err
	}
	return keepDo(c, func(e []uintptr) { c.raw().KvSet(key, value, allowOverwrite, e) })
}

// KVGet waits for key and returns its value: up to timeout or ctx's
// deadline, whichever comes first (DEADLINE_EXCEEDED naming the key, which
// also matches ctx.Err() when ctx's deadline was the one). A cancel of ctx
// during the wait is not seen before it ends (see CancelAll).
func (c *Client) KVGet(ctx context.Context, key string, timeout time.Duration) ([]byte, error) {
	if err := checkStrings("key", key); err != nil {
		return nil, err
	}
	ms, err := callTimeout(ctx, "kv get", timeout)
	if err != nil {
		return nil, err
	}
	v, err := keepErr(c, func(e []uintptr) []byte { return c.raw().KvGet(key, ms, e) })
	return v, withContext(ctx, err)
}

// KVTryGet is the value of key now (NOT_FOUND when absent).
func (c *Client) KVTryGet(key string) ([]byte, error) {
	if err := checkStrings("key", key); err != nil {
		return nil, err
	}
	return keepErr(c, func(e []uintptr) []byte { return c.raw().KvTryGet(key, e) })
}

// KVIncrement adds delta to key (absent counts as 0) and returns the sum.
func (c *Client) KVIncrement(key string, delta int64) (int64, error) {
	if err := checkStrings("key", key); err != nil {
		return 0, err
	}
	return keepErr(c, func(e []uintptr) int64 { return c.raw().KvIncrement(key, delta, e) })
}

// KVDelete deletes key (and, when recursive, everything under key + "/").
func (c *Client) KVDelete(key string, recursive bool) error {
	if err := checkStrings("key", key); err != nil {
		return err
	}
	return keepDo(c, func(e []uintptr) { c.raw().KvDelete(key, recursive, e) })
}

// KVList is every entry under prefix + "/".
func (c *Client) KVList(prefix string) (map[string][]byte, error) {
	if err := checkStrings("prefix", prefix); err != nil {
		return nil, err
	}
	var e errSlot
	l := wrapKvList(c.raw().KvList(prefix, e[:]))
	runtime.KeepAlive(c)
	if err := e.take(); err != nil {
		return nil, err
	}
	defer l.Close()
	n := int(l.raw().Size())
	entries := make(map[string][]byte, n)
	for i := 0; i < n; i++ {
		entries[l.raw().Key(int64(i))] = l.raw().Value(int64(i))
	}
	runtime.KeepAlive(l)
	return entries, nil
}

// Barrier waits until every participant (process indices; none: all
// processes) reaches barrierID, up to timeout from the first arrival or
// ctx's deadline, whichever comes first. A cancel of ctx during the wait
// is not seen before it ends (see CancelAll).
func (c *Client) Barrier(ctx context.Context, barrierID string, timeout time.Duration, participants []int) error {
	if err := checkStrings("barrier_id", barrierID); err != nil {
		return err
	}
	ms, err := callTimeout(ctx, "barrier", timeout)
	if err != nil {
		return err
	}
	ids := toInt64s(participants)
	return withContext(ctx, keepDo(c, func(e []uintptr) { c.raw().Barrier(barrierID, ms, ids, e) }))
}

// EventKind is the kind of a job event.
type EventKind int32

const (
	EventKindTaskChanged     EventKind = 0
	EventKindJobError        EventKind = 1
	EventKindShutdownStarted EventKind = 2
	EventKindTopologyChanged EventKind = 3
	EventKindCoordinatorLost EventKind = 4
)

// Event is one notification from the coordinator, copied out of C.
type Event struct {
	Kind         EventKind
	ProcessIndex int // -1 when none
	TaskState    TaskState
	Code         Code
	Message      string
	Generation   int64
	Version      int64
}

// NextEvent waits for the next event up to timeout (0: do not wait) or
// ctx's deadline, whichever comes first (DEADLINE_EXCEEDED when none came).
// Go polls: there is no callback into Go. A cancel of ctx during the wait
// is not seen before it ends (see CancelAll).
func (c *Client) NextEvent(ctx context.Context, timeout time.Duration) (*Event, error) {
	ms, err := callTimeout(ctx, "event wait", timeout)
	if err != nil {
		return nil, err
	}
	var e errSlot
	h := c.raw().NextEvent(ms, e[:])
	runtime.KeepAlive(c)
	if err := e.take(); err != nil {
		swig.DeleteEvent(h)
		return nil, withContext(ctx, err)
	}
	if h == nil || h.Swigcptr() == 0 {
		return nil, nil
	}
	defer swig.DeleteEvent(h)
	return &Event{
		Kind:         EventKind(h.Kind()),
		ProcessIndex: int(h.ProcessIndex()),
		TaskState:    TaskState(h.TaskState()),
		Code:         Code(h.Code()),
		Message:      h.Message(),
		Generation:   h.Generation(),
		Version:      h.Version(),
	}, nil
}

// CancelAll unblocks every blocking call of the client, every goroutine's
// (CANCELLED). The client stays usable.
func (c *Client) CancelAll() { c.raw().CancelAll(); runtime.KeepAlive(c) }

// Shutdown joins the shutdown barrier with every other process, then
// disconnects. Close the client afterwards. It blocks up to the options'
// shutdown timeout (SetShutdownTimeout): ctx is checked before the call
// starts, but neither its deadline nor its cancellation can shorten the
// wait.
func (c *Client) Shutdown(ctx context.Context) error {
	if err := notStarted(ctx, "shutdown"); err != nil {
		return err
	}
	return keepDo(c, func(e []uintptr) { c.raw().Shutdown(e) })
}

// KvList is a KV snapshot; KVList copies it into a map and closes it.
type KvList struct{ p swig.KvList }

// Coordinator is a coordinator service run on its own.
type Coordinator struct{ p swig.Coordinator }

// StartCoordinator serves the job options describe.
func StartCoordinator(options *ClusterOptions) (*Coordinator, error) {
	var e errSlot
	c := wrapCoordinator(swig.NewCoordinator(options.raw(), e[:]))
	runtime.KeepAlive(options)
	return c, e.take()
}

// Port is the port it listens on.
func (c *Coordinator) Port() int { return keep(c, c.raw().Port) }

// Wait waits for the job to end up to timeout or ctx's deadline, whichever
// comes first (DEADLINE_EXCEEDED otherwise). A cancel of ctx during the
// wait is not seen before it ends; Stop ends it from another goroutine.
func (c *Coordinator) Wait(ctx context.Context, timeout time.Duration) error {
	ms, err := callTimeout(ctx, "coordinator wait", timeout)
	if err != nil {
		return err
	}
	return withContext(ctx, keepDo(c, func(e []uintptr) { c.raw().WaitForEnd(ms, e) }))
}

// Stop stops serving now.
func (c *Coordinator) Stop() { c.raw().Stop(); runtime.KeepAlive(c) }
