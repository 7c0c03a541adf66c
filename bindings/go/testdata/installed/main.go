// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// A program of a Go user of an installed Tessera: check_install.sh builds it
// outside the source tree, in its own module whose go.mod points
// github.com/tessera-dev/tessera/bindings/go at the installed module
// (a replace directive), and checks its output. It touches each part of the
// installed module: the idiomatic package, the SWIG wrapper (compiled by
// `go build` with the flags of the installed tessera.pc), the library, and
// the log trampoline (an //export'ed Go function called from C).
package main

import (
	"fmt"
	"log"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

func main() {
	var warnings []string
	if err := tessera.SetLogHandler(func(level tessera.LogLevel, message string) {
		warnings = append(warnings, level.String()+": "+message)
	}, tessera.LogLevelWarning); err != nil {
		log.Fatal(err)
	}
	defer tessera.SetLogHandler(nil, tessera.LogLevelWarning)

	fmt.Println("tessera", tessera.VersionString())
	devices := []string{"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5", "cpu:6", "cpu:7"}
	mesh, err := tessera.NewMesh([]int64{4, 2}, []string{"batch", "model"}, devices)
	if err != nil {
		log.Fatal(err)
	}
	defer mesh.Close()
	fmt.Println(mesh)

	// DataParallel over a 2-D mesh: the library warns (through the handler).
	dp, err := tessera.NewDataParallel(mesh, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer dp.Close()
	fmt.Println("batch axis", dp.BatchDimName(), "warnings", warnings)

	layout, err := tessera.NewLayout([]string{"", "model"}, mesh)
	if err != nil {
		log.Fatal(err)
	}
	defer layout.Close()
	sharding, err := tessera.NewSharding(layout, []int64{8, 6}, tessera.ShardModeStrict)
	if err != nil {
		log.Fatal(err)
	}
	defer sharding.Close()
	shape, err := sharding.ShardShape(1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("device 1 holds", shape)
}
