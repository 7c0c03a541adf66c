// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// LiveHandles is the number of handles neither closed nor finalized yet.
func LiveHandles() int64 { return liveHandles.Load() }

// Millis is the C timeout a time.Duration becomes.
var Millis = millis
