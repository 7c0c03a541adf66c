// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package tessera

import "time"

// The cluster settings beyond the basics of cluster.go: devices, auth, TLS,
// recovery, partitions and key-value limits (tessera/cluster.h).

// SetLocalDeviceIDs are the global ids of this process's devices (empty:
// the detected ones).
func (o *ClusterOptions) SetLocalDeviceIDs(ids []int64) error {
	return o.set(func(e []uintptr) { o.raw().SetLocalDeviceIds(ids, e) })
}

// SetRequireAuth makes a job token mandatory.
func (o *ClusterOptions) SetRequireAuth(require bool) error {
	return o.set(func(e []uintptr) { o.raw().SetRequireAuth(require, e) })
}

// SetTLS turns on TLS with this process's certificate and key and the CA
// that signs its peers (PEM file paths).
func (o *ClusterOptions) SetTLS(certFile, keyFile, caFile string) error {
	if err := checkStrings("file", certFile, keyFile, caFile); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetTls(certFile, keyFile, caFile, e) })
}

// SetTLSRequireClientCert makes the coordinator demand client certificates (mTLS).
func (o *ClusterOptions) SetTLSRequireClientCert(require bool) error {
	return o.set(func(e []uintptr) { o.raw().SetTlsRequireClientCert(require, e) })
}

// SetTLSPeerURIPrefix is the URI SAN prefix a peer certificate must carry.
func (o *ClusterOptions) SetTLSPeerURIPrefix(prefix string) error {
	if err := checkStrings("prefix", prefix); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetTlsPeerUriPrefix(prefix, e) })
}

// SetTLSServerName is the name the coordinator's certificate is checked against.
func (o *ClusterOptions) SetTLSServerName(name string) error {
	if err := checkStrings("name", name); err != nil {
		return err
	}
	return o.set(func(e []uintptr) { o.raw().SetTlsServerName(name, e) })
}

// SetTLSReloadInterval is how often the TLS files are re-read, so rotating
// them needs no restart (a second to a year, counted in whole seconds).
func (o *ClusterOptions) SetTLSReloadInterval(interval time.Duration) error {
	return o.set(func(e []uintptr) { o.raw().SetTlsReloadIntervalMs(millis(interval), e) })
}

// SetRecoverable lets the job survive a process failure (others get events).
func (o *ClusterOptions) SetRecoverable(recoverable bool) error {
	return o.set(func(e []uintptr) { o.raw().SetRecoverable(recoverable, e) })
}

// SetFailJobOnDuplicateID fails the job when two processes claim one id.
func (o *ClusterOptions) SetFailJobOnDuplicateID(fail bool) error {
	return o.set(func(e []uintptr) { o.raw().SetFailJobOnDuplicateId(fail, e) })
}

// SetPartitionIndex is this process's partition (slice) index.
func (o *ClusterOptions) SetPartitionIndex(index int) error {
	return o.set(func(e []uintptr) { o.raw().SetPartitionIndex(int64(index), e) })
}

// SetKVLimits bounds one key-value entry and the whole store, in bytes.
func (o *ClusterOptions) SetKVLimits(maxValueBytes, maxStoreBytes int64) error {
	return o.set(func(e []uintptr) { o.raw().SetKvLimits(maxValueBytes, maxStoreBytes, e) })
}

// SetConnectionTimeouts bounds how long the coordinator keeps a connection
// that has not finished its handshake, and one that carries no call.
func (o *ClusterOptions) SetConnectionTimeouts(handshake, idle time.Duration) error {
	return o.set(func(e []uintptr) { o.raw().SetConnectionTimeouts(millis(handshake), millis(idle), e) })
}
