// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"fmt"
	"strings"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// Code is a Tessera error code: absl's canonical codes, same numbers as
// tessera_code_t. A Code is also an error, so errors.Is(err, CodeNotFound)
// asks whether err is a *Error with that code.
type Code int32

const (
	CodeOK                 Code = 0
	CodeCancelled          Code = 1
	CodeUnknown            Code = 2
	CodeInvalidArgument    Code = 3
	CodeDeadlineExceeded   Code = 4
	CodeNotFound           Code = 5
	CodeAlreadyExists      Code = 6
	CodePermissionDenied   Code = 7
	CodeResourceExhausted  Code = 8
	CodeFailedPrecondition Code = 9
	CodeAborted            Code = 10
	CodeOutOfRange         Code = 11
	CodeUnimplemented      Code = 12
	CodeInternal           Code = 13
	CodeUnavailable        Code = 14
	CodeDataLoss           Code = 15
	CodeUnauthenticated    Code = 16
)

// String is the C library's upper-case name ("INVALID_ARGUMENT").
func (c Code) String() string { return swig.Code_name(swig.Enum_SS_tessera_code_t(c)) }

// Error makes a Code usable as an errors.Is target.
func (c Code) Error() string { return c.String() }

// Error is an error returned by the C library (or rejected by the binding
// before the call, with the same codes and message style).
type Error struct {
	Code    Code
	Message string
	// Cluster details (zero values elsewhere): see tessera/client.h.
	Reason        ErrorReason
	SourceProcess int // -1 when none
	Missing       []MissingProcess
	Arrived       []int
}

// MissingProcess is a process a barrier or registration waited for.
type MissingProcess struct {
	ProcessIndex int
	State        TaskState
	WaitingAt    string // the barrier it waits at ("id#counter"), "" when none
}

// ErrorReason says why a cluster call failed, beyond its code.
type ErrorReason int32

const (
	ErrorReasonNone             ErrorReason = 0
	ErrorReasonJobFailed        ErrorReason = 1
	ErrorReasonCoordinatorLost  ErrorReason = 2
	ErrorReasonBarrierFailed    ErrorReason = 3
	ErrorReasonDuplicateProcess ErrorReason = 4
	ErrorReasonSuperseded       ErrorReason = 5
	ErrorReasonWrongJob         ErrorReason = 6
	ErrorReasonAuthentication   ErrorReason = 7
	ErrorReasonNeverConnected   ErrorReason = 8
)

// TaskState is the state of a process in a job.
type TaskState int32

const (
	TaskStateNeverConnected TaskState = 1
	TaskStatePending        TaskState = 2
	TaskStateRunning        TaskState = 3
	TaskStateDisconnected   TaskState = 4
	TaskStateFailed         TaskState = 5
)

// Error formats as "INVALID_ARGUMENT: <message>".
func (e *Error) Error() string { return e.Code.String() + ": " + e.Message }

// Is matches a Code with the same value, or a *Error with the same code and
// message.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Code:
		return e.Code == t
	case *Error:
		return t != nil && e.Code == t.Code && e.Message == t.Message
	}
	return false
}

// errSlot is where a C call stores its error: element 0 of the []uintptr
// the SWIG layer passes as tessera_error**.
type errSlot [1]uintptr

// take turns the stored error (if any) into a *Error and destroys it.
func (s *errSlot) take() error {
	h := s[0]
	if h == 0 {
		return nil
	}
	s[0] = 0
	e := &Error{
		Code:          Code(swig.GoErrorCode(h)),
		Message:       swig.GoErrorMessage(h),
		SourceProcess: -1,
	}
	readClusterDetails(e, h)
	swig.GoErrorDestroy(h)
	return e
}

// invalidArgument is an error the binding raises before calling C, worded as
// the library words its own.
func invalidArgument(format string, args ...any) error {
	return &Error{Code: CodeInvalidArgument, Message: fmt.Sprintf(format, args...), SourceProcess: -1}
}

// checkStrings rejects strings C cannot receive (an embedded NUL byte would
// silently cut them).
func checkStrings(name string, values ...string) error {
	for i, v := range values {
		if strings.IndexByte(v, 0) >= 0 {
			if len(values) == 1 {
				return invalidArgument("Argument '%s' must not contain a NUL byte, got %q", name, v)
			}
			return invalidArgument("Argument '%s' entry %d must not contain a NUL byte, got %q", name, i, v)
		}
	}
	return nil
}
