// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import (
	"strconv"
	"sync"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

// LogLevel is the severity of a library log message (tessera_log_level_t).
type LogLevel int32

const (
	LogLevelDebug   LogLevel = 0
	LogLevelInfo    LogLevel = 1
	LogLevelWarning LogLevel = 2
	LogLevelError   LogLevel = 3
)

// String is the level's lower-case name ("warning").
func (l LogLevel) String() string {
	switch l {
	case LogLevelDebug:
		return "debug"
	case LogLevelInfo:
		return "info"
	case LogLevelWarning:
		return "warning"
	case LogLevelError:
		return "error"
	}
	return "LogLevel(" + strconv.Itoa(int(l)) + ")"
}

// logMu orders SetLogHandler calls, so the Go handler and the C callback
// that feeds it are replaced together.
var logMu sync.Mutex

// SetLogHandler routes the library's log messages of minLevel and above to
// handler instead of stderr; a nil handler restores the default (stderr,
// warnings and above, minLevel ignored).
//
// The handler runs on the thread that logs: a goroutine that called into
// the library, or one of the library's own threads (the coordinator's
// server threads), possibly several at once, so it must be safe for
// concurrent use. It must not call SetLogHandler. A handler that panics
// does not crash the process: the panic is recovered and reported on
// stderr, and that message is dropped. A message being delivered while the
// handler is replaced may still reach the old handler.
//
// Errors: INVALID_ARGUMENT (from the library) when minLevel is not a
// LogLevel; the previous handler then stays in place.
func SetLogHandler(handler func(level LogLevel, message string), minLevel LogLevel) error {
	logMu.Lock()
	defer logMu.Unlock()
	var e errSlot
	if handler == nil {
		// C first: once it returns, no new message reaches the trampoline.
		swig.GoSetLogCallback(false, int(LogLevelWarning), e[:])
		swig.SetLogHook(nil)
		return e.take()
	}
	previous := swig.LogHook()
	swig.SetLogHook(func(level int32, message string) { handler(LogLevel(level), message) })
	swig.GoSetLogCallback(true, int(minLevel), e[:])
	err := e.take()
	if err != nil {
		swig.SetLogHook(previous) // the C callback did not change either
	}
	return err
}
