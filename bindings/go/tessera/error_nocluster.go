//go:build !tessera_cluster

package tessera

// Without the cluster ABI there are no cluster details to read.
func readClusterDetails(e *Error, h uintptr) {}
