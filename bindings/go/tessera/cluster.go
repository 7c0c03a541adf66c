package tessera

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// readClusterDetails copies the cluster details of error handle h.
func readClusterDetails(e *Error, h uintptr) {
	e.Reason = ErrorReason(swig.GoErrorReason(h))
	e.SourceProcess = swig.GoErrorSourceProcess(h)
	if n := swig.GoErrorMissingCount(h); n > 0 {
		e.Missing = make([]MissingProcess, n)
		for i := range e.Missing {
			e.Missing[i] = MissingProcess{
				ProcessID: swig.GoErrorMissingProcess(h, int64(i)),
				State:     TaskState(swig.GoErrorMissingState(h, int64(i))),
				WaitingAt: swig.GoErrorMissingWaitingAt(h, int64(i)),
			}
		}
	}
	if n := swig.GoErrorArrivedCount(h); n > 0 {
		e.Arrived = make([]int64, n)
		for i := range e.Arrived {
			e.Arrived[i] = swig.GoErrorArrivedProcess(h, int64(i))
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
func (o *ClusterOptions) SetNumProcesses(n int64) error {
	return o.set(func(e []uintptr) { o.raw().SetNumProcesses(n, e) })
}

// SetProcessID is this process's id.
func (o *ClusterOptions) SetProcessID(id int64) error {
	return o.set(func(e []uintptr) { o.raw().SetProcessId(id, e) })
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

// SetInitTimeoutMs is the time to register and for every process to arrive.
func (o *ClusterOptions) SetInitTimeoutMs(ms int64) error {
	return o.set(func(e []uintptr) { o.raw().SetInitTimeoutMs(ms, e) })
}

// SetHeartbeat is the heartbeat period and loss timeout.
func (o *ClusterOptions) SetHeartbeat(intervalMs, timeoutMs int64) error {
	return o.set(func(e []uintptr) { o.raw().SetHeartbeat(intervalMs, timeoutMs, e) })
}

// SetShutdownTimeoutMs is the shutdown barrier's timeout.
func (o *ClusterOptions) SetShutdownTimeoutMs(ms int64) error {
	return o.set(func(e []uintptr) { o.raw().SetShutdownTimeoutMs(ms, e) })
}

// SetRPCTimeoutMs is the deadline of each non-blocking call.
func (o *ClusterOptions) SetRPCTimeoutMs(ms int64) error {
	return o.set(func(e []uintptr) { o.raw().SetRpcTimeoutMs(ms, e) })
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
func Initialize(options *ClusterOptions) (*Client, error) {
	var e errSlot
	c := wrapClient(options.raw().Initialize(e[:]))
	runtime.KeepAlive(options)
	return c, e.take()
}

// Connect is a plain client of a running coordinator; nothing process-wide
// changes.
func Connect(options *ClusterOptions) (*Client, error) {
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
func (d *Detection) NumProcesses() int64 { return keep(d, d.raw().NumProcesses) }

// ProcessID is this process's id.
func (d *Detection) ProcessID() int64 { return keep(d, d.raw().ProcessId) }

// Explanation says which source was used and why the others were skipped.
func (d *Detection) Explanation() string { return keep(d, d.raw().Explanation) }

// Client is this process's membership in a job. Safe for concurrent use,
// except Close.
type Client struct{ p swig.Client }

// ProcessID is this process's id.
func (c *Client) ProcessID() int64 { return keep(c, c.raw().ProcessId) }

// NumProcesses is the number of processes in the job.
func (c *Client) NumProcesses() int64 { return keep(c, c.raw().NumProcesses) }

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

// KVGet waits up to timeoutMs for key and returns its value.
func (c *Client) KVGet(key string, timeoutMs int64) ([]byte, error) {
	if err := checkStrings("key", key); err != nil {
		return nil, err
	}
	return keepErr(c, func(e []uintptr) []byte { return c.raw().KvGet(key, timeoutMs, e) })
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
	n := l.raw().Size()
	entries := make(map[string][]byte, n)
	for i := int64(0); i < n; i++ {
		entries[l.raw().Key(i)] = l.raw().Value(i)
	}
	runtime.KeepAlive(l)
	return entries, nil
}

// Barrier waits until every participant (none: all processes) reaches
// barrierID, up to timeoutMs from the first arrival.
func (c *Client) Barrier(barrierID string, timeoutMs int64, participants []int64) error {
	if err := checkStrings("barrier_id", barrierID); err != nil {
		return err
	}
	return keepDo(c, func(e []uintptr) { c.raw().Barrier(barrierID, timeoutMs, participants, e) })
}

// EventKind is the kind of a job event.
type EventKind int32

const (
	EventTaskChanged     EventKind = 0
	EventJobError        EventKind = 1
	EventShutdownStarted EventKind = 2
	EventTopologyChanged EventKind = 3
	EventCoordinatorLost EventKind = 4
)

// Event is one notification from the coordinator, copied out of C.
type Event struct {
	Kind       EventKind
	ProcessID  int64
	TaskState  TaskState
	Code       Code
	Message    string
	Generation int64
	Version    int64
}

// NextEvent waits up to timeoutMs for the next event (DEADLINE_EXCEEDED
// when none came). Go polls: there is no callback into Go.
func (c *Client) NextEvent(timeoutMs int64) (*Event, error) {
	var e errSlot
	h := c.raw().NextEvent(timeoutMs, e[:])
	runtime.KeepAlive(c)
	if err := e.take(); err != nil {
		swig.DeleteEvent(h)
		return nil, err
	}
	if h == nil || h.Swigcptr() == 0 {
		return nil, nil
	}
	defer swig.DeleteEvent(h)
	return &Event{
		Kind:       EventKind(h.Kind()),
		ProcessID:  h.ProcessId(),
		TaskState:  TaskState(h.TaskState()),
		Code:       Code(h.Code()),
		Message:    h.Message(),
		Generation: h.Generation(),
		Version:    h.Version(),
	}, nil
}

// CancelAll unblocks every blocking call of the client (CANCELLED).
func (c *Client) CancelAll() { c.raw().CancelAll(); runtime.KeepAlive(c) }

// Shutdown joins the shutdown barrier with every other process, then
// disconnects. Close the client afterwards.
func (c *Client) Shutdown() error {
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

// Wait waits up to timeoutMs for the job to end (DEADLINE_EXCEEDED otherwise).
func (c *Coordinator) Wait(timeoutMs int64) error {
	return keepDo(c, func(e []uintptr) { c.raw().WaitForEnd(timeoutMs, e) })
}

// Stop stops serving now.
func (c *Coordinator) Stop() { c.raw().Stop(); runtime.KeepAlive(c) }
