// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import "github.com/tessera-dev/tessera/bindings/go/internal/swig"

// keras.distribution.initialize's argument resolution as a pure query
// (experimental: tessera/experimental/keras_initialize.h).

// KerasInitializeOptions are the explicit arguments of
// keras.distribution.initialize; an argument never set is None. Mutable; one
// goroutine at a time.
type KerasInitializeOptions struct{ p swig.KerasInitializeOptions }

// KerasInitialize is what Keras hands its JAX backend, and the coordinator
// address that backend derives. Immutable.
type KerasInitialize struct{ p swig.KerasInitialize }

// NewKerasInitializeOptions has every argument None.
func NewKerasInitializeOptions() *KerasInitializeOptions {
	return wrapKerasInitializeOptions(swig.NewKerasInitializeOptions())
}

// SetJobAddresses is the job_addresses argument ("a:1,b:2", or one address).
func (o *KerasInitializeOptions) SetJobAddresses(jobAddresses string) error {
	if err := checkStrings("job_addresses", jobAddresses); err != nil {
		return err
	}
	return keepDo(o, func(e []uintptr) { o.raw().SetJobAddresses(jobAddresses, e) })
}

// SetNumProcesses is the num_processes argument, passed on unchecked.
func (o *KerasInitializeOptions) SetNumProcesses(numProcesses int) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetNumProcesses(int64(numProcesses), e) })
}

// SetProcessIndex is the process_id argument, passed on unchecked.
func (o *KerasInitializeOptions) SetProcessIndex(processIndex int) error {
	return keepDo(o, func(e []uintptr) { o.raw().SetProcessIndex(int64(processIndex), e) })
}

// Resolve reads the KERAS_DISTRIBUTION_* variables of this process for the
// arguments that are None.
func (o *KerasInitializeOptions) Resolve() (*KerasInitialize, error) {
	return keepErr(o, func(e []uintptr) *KerasInitialize { return wrapKerasInitialize(o.raw().Resolve(e)) })
}

// ResolveEnv is Resolve over env ("NAME=VALUE" strings).
func (o *KerasInitializeOptions) ResolveEnv(env []string) (*KerasInitialize, error) {
	if err := checkStrings("env", env...); err != nil {
		return nil, err
	}
	return keepErr(o, func(e []uintptr) *KerasInitialize { return wrapKerasInitialize(o.raw().ResolveEnv(env, e)) })
}

// JobAddresses is the job_addresses Keras passes on; false when None.
func (r *KerasInitialize) JobAddresses() (string, bool) {
	if r.NumJobAddresses() == 0 {
		return "", false
	}
	return keep(r, r.raw().JobAddresses), true
}

// NumJobAddresses is the comma list's length, 1 for one address, 0 for None.
func (r *KerasInitialize) NumJobAddresses() int { return int(keep(r, r.raw().NumJobAddresses)) }

// JobAddress is job address index.
func (r *KerasInitialize) JobAddress(index int) (string, error) {
	return keepErr(r, func(e []uintptr) string { return r.raw().JobAddress(int64(index), e) })
}

// CoordinatorAddress is the address JAX's backend passes to
// jax.distributed.initialize (the first job address); false when None.
func (r *KerasInitialize) CoordinatorAddress() (string, bool) {
	if r.NumJobAddresses() == 0 {
		return "", false
	}
	return keep(r, r.raw().CoordinatorAddress), true
}

// NumProcesses is num_processes as Keras passes it on; false when None (JAX
// detects it).
func (r *KerasInitialize) NumProcesses() (int, bool) {
	if !keep(r, r.raw().HasNumProcesses) {
		return 0, false
	}
	return int(keep(r, r.raw().NumProcesses)), true
}

// ProcessIndex is process_id as Keras passes it on; false when None.
func (r *KerasInitialize) ProcessIndex() (int, bool) {
	if !keep(r, r.raw().HasProcessIndex) {
		return 0, false
	}
	return int(keep(r, r.raw().ProcessIndex)), true
}
