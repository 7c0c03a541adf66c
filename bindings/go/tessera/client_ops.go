// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// The client operations beyond cluster.go: topology, compare-and-swap,
// barrier cancellation, agreement on the live processes, error reports, and
// the detection's remaining fields.

import (
	"context"
	"runtime"
	"time"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// TopologyFingerprint identifies the job's device topology (the uint64's bits).
func (c *Client) TopologyFingerprint() uint64 {
	return uint64(keep(c, c.raw().TopologyFingerprint))
}

// TopologyGeneration counts topology changes (restarts) since the job began.
func (c *Client) TopologyGeneration() int64 {
	return keep(c, c.raw().TopologyGeneration)
}

// KVCompareAndSwap sets key to desired when it holds expected (nil: only
// when absent); reports whether it swapped.
func (c *Client) KVCompareAndSwap(key string, expected, desired []byte) (bool, error) {
	if err := checkStrings("key", key); err != nil {
		return false, err
	}
	return keepErr(c, func(e []uintptr) bool { return c.raw().KvCompareAndSwap(key, expected, desired, e) })
}

// CancelBarrier makes every waiter of barrierID fail with CANCELLED.
func (c *Client) CancelBarrier(barrierID string) error {
	if err := checkStrings("barrier_id", barrierID); err != nil {
		return err
	}
	return keepDo(c, func(e []uintptr) { c.raw().CancelBarrier(barrierID, e) })
}

// AgreeLiveProcesses is the set of candidates (process indices) every live
// candidate agrees is alive, waiting up to timeout or ctx's deadline,
// whichever comes first. A cancel of ctx during the wait is not seen
// before it ends (see CancelAll).
func (c *Client) AgreeLiveProcesses(ctx context.Context, candidates []int, timeout time.Duration) ([]int, error) {
	ms, err := callTimeout(ctx, "agree live processes", timeout)
	if err != nil {
		return nil, err
	}
	ids := toInt64s(candidates)
	live, err := keepErr(c, func(e []uintptr) []int64 { return c.raw().AgreeLiveProcesses(ids, ms, e) })
	if err != nil {
		return nil, withContext(ctx, err)
	}
	return toInts(live), nil
}

// ReportError tells the coordinator this process failed with code and message.
func (c *Client) ReportError(code Code, message string) error {
	if err := checkStrings("message", message); err != nil {
		return err
	}
	return keepDo(c, func(e []uintptr) { c.raw().ReportError(swig.Enum_SS_tessera_code_t(code), message, e) })
}

// BindAddress is the address process 0's coordinator listens on.
func (d *Detection) BindAddress() string { return keep(d, d.raw().BindAddress) }

// JobID is the detected job id.
func (d *Detection) JobID() string { return keep(d, d.raw().JobId) }

// LocalDeviceIDs are the global ids of this process's devices (empty: all).
func (d *Detection) LocalDeviceIDs() []int64 {
	ids := make([]int64, d.raw().LocalDeviceIdCount())
	for i := range ids {
		ids[i] = d.raw().LocalDeviceId(int64(i))
	}
	runtime.KeepAlive(d)
	return ids
}
