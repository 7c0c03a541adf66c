// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"context"
	"fmt"
	"time"
)

// The blocking calls of the cluster API take a context.Context. The C calls
// take a timeout and cannot be interrupted from Go other than through
// tessera_client_cancel_all, which cancels every blocking call of the
// client, other goroutines' included. Wiring ctx's cancellation to it would
// make one goroutine's cancel fail another's barrier (and a cancelled
// barrier withdraws the arrival, so retrying it is not the same call), so
// the binding does not: ctx's deadline shortens the call's timeout, a ctx
// already done stops the call before it starts, and a cancel that comes
// during the call is seen when the call returns. Client.CancelAll is the
// explicit, client-wide interrupt.

// millis is d in whole milliseconds for the C timeouts, rounded away from
// zero: a positive sub-millisecond timeout still waits (0 means "do not
// wait" to some calls), and a negative one stays negative for the library
// to reject.
func millis(d time.Duration) int64 {
	ms := d / time.Millisecond
	switch r := d % time.Millisecond; {
	case r > 0:
		ms++
	case r < 0:
		ms--
	}
	return int64(ms)
}

// callTimeout is the timeout of a blocking call of operation op: the
// smaller of timeout and the time left to ctx's deadline, in milliseconds.
// A done ctx (or one whose deadline has passed) is an error wrapping
// ctx.Err(), and the call must not start.
func callTimeout(ctx context.Context, op string, timeout time.Duration) (int64, error) {
	if err := notStarted(ctx, op); err != nil {
		return 0, err
	}
	if deadline, ok := ctx.Deadline(); ok {
		left := time.Until(deadline)
		if left <= 0 {
			return 0, fmt.Errorf("tessera: %s not started: %w", op, context.DeadlineExceeded)
		}
		if left < timeout {
			timeout = left
		}
	}
	return millis(timeout), nil
}

// notStarted is an error wrapping ctx.Err() when ctx is already done.
func notStarted(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("tessera: %s not started: %w", op, err)
	}
	return nil
}

// withContext adds ctx's error to err, a blocking call's failure, when ctx
// ended during the call (its deadline was the timeout that ran out):
// errors.Is then matches both the library's code and ctx.Err().
func withContext(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctxErr := contextErr(ctx); ctxErr != nil {
		return fmt.Errorf("%w (%w)", err, ctxErr)
	}
	return err
}

// contextErr is ctx.Err(), or context.DeadlineExceeded once ctx's deadline
// has passed: a context's own timer cancels it on another goroutine, which
// on a loaded machine may not have run yet when the library's wait (timed to
// end at the same deadline) returns.
func contextErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if deadline, ok := ctx.Deadline(); ok && !time.Now().Before(deadline) {
		return context.DeadlineExceeded
	}
	return nil
}
