// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

// Handle plumbing, one block per type: wrap (nil for a NULL handle, else a
// finalizer as the safety net), Close (frees now, idempotent) and raw (the
// NULL proxy for a nil or closed handle, which the C library answers with
// INVALID_ARGUMENT naming the argument instead of crashing).

import (
	"runtime"

	"github.com/tessera-dev/tessera/bindings/go/internal/swig"
)

func wrapClusterOptions(p swig.ClusterOptions) *ClusterOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &ClusterOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*ClusterOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *ClusterOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteClusterOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *ClusterOptions) raw() swig.ClusterOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrClusterOptions(0)
	}
	return h.p
}

func wrapDetection(p swig.Detection) *Detection {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Detection{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Detection).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Detection) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteDetection(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Detection) raw() swig.Detection {
	if h == nil || h.p == nil {
		return swig.SwigcptrDetection(0)
	}
	return h.p
}

func wrapClient(p swig.Client) *Client {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Client{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Client).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Client) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteClient(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Client) raw() swig.Client {
	if h == nil || h.p == nil {
		return swig.SwigcptrClient(0)
	}
	return h.p
}

func wrapKvList(p swig.KvList) *KvList {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &KvList{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*KvList).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *KvList) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteKvList(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *KvList) raw() swig.KvList {
	if h == nil || h.p == nil {
		return swig.SwigcptrKvList(0)
	}
	return h.p
}

func wrapCoordinator(p swig.Coordinator) *Coordinator {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &Coordinator{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*Coordinator).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *Coordinator) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteCoordinator(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *Coordinator) raw() swig.Coordinator {
	if h == nil || h.p == nil {
		return swig.SwigcptrCoordinator(0)
	}
	return h.p
}

func wrapKerasInitializeOptions(p swig.KerasInitializeOptions) *KerasInitializeOptions {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &KerasInitializeOptions{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*KerasInitializeOptions).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *KerasInitializeOptions) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteKerasInitializeOptions(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *KerasInitializeOptions) raw() swig.KerasInitializeOptions {
	if h == nil || h.p == nil {
		return swig.SwigcptrKerasInitializeOptions(0)
	}
	return h.p
}

func wrapKerasInitialize(p swig.KerasInitialize) *KerasInitialize {
	if p == nil || p.Swigcptr() == 0 {
		return nil
	}
	h := &KerasInitialize{p: p}
	liveHandles.Add(1)
	runtime.SetFinalizer(h, (*KerasInitialize).Close)
	return h
}

// Close frees the handle (tessera_*_destroy). Calling it again, or on nil,
// does nothing. Always returns nil.
func (h *KerasInitialize) Close() error {
	if h == nil || h.p == nil {
		return nil
	}
	runtime.SetFinalizer(h, nil)
	swig.DeleteKerasInitialize(h.p)
	h.p = nil
	liveHandles.Add(-1)
	return nil
}

func (h *KerasInitialize) raw() swig.KerasInitialize {
	if h == nil || h.p == nil {
		return swig.SwigcptrKerasInitialize(0)
	}
	return h.p
}
