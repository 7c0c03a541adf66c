// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command planning plans how a model's variables are spread over 8 devices
// with the Tessera Go binding: a (4, 2) mesh, a layout map, a ModelParallel
// distribution, and the slice of one variable each device holds.
//
//	go run ./example/planning
package main

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(out io.Writer) error {
	devices := make([]string, 8)
	for i := range devices {
		devices[i] = fmt.Sprintf("cpu:%d", i)
	}
	mesh, err := tessera.NewMesh([]int64{4, 2}, []string{"batch", "model"}, devices)
	if err != nil {
		return err
	}
	defer mesh.Close()
	fmt.Fprintln(out, mesh)

	// Rules from variable paths (Python re patterns) to layouts.
	layoutMap, err := tessera.NewLayoutMap(mesh, tessera.KeyMatchSearch)
	if err != nil {
		return err
	}
	defer layoutMap.Close()
	rules := map[string][]string{
		"dense.*kernel": {"", "model"}, // columns split over "model"
		"dense.*bias":   {"model"},
	}
	for _, key := range []string{"dense.*kernel", "dense.*bias"} {
		layout, err := tessera.NewLayout(rules[key], nil)
		if err != nil {
			return err
		}
		err = layoutMap.Set(key, layout)
		layout.Close()
		if err != nil {
			return err
		}
	}

	// ModelParallel: batches split over "batch", variables by the map.
	dist, err := tessera.NewModelParallel(layoutMap, "batch", nil)
	if err != nil {
		return err
	}
	defer dist.Close()
	fmt.Fprintf(out, "%v: %d model replicas\n", dist, dist.NumModelReplicas())

	// Where the (16, 8) kernel of dense_1 lives.
	shape := []int64{16, 8}
	layout, err := dist.VariableLayout("dense_1/kernel", shape, nil)
	if err != nil {
		return err
	}
	defer layout.Close()
	sharding, err := tessera.NewSharding(layout, shape, tessera.ShardModeStrict)
	if err != nil {
		return err
	}
	defer sharding.Close()
	for device := 0; device < sharding.NumDevices(); device++ {
		ranges, err := sharding.DeviceRanges(device)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "device %d holds rows [%d, %d) columns [%d, %d)\n",
			device, ranges[0].Start, ranges[0].Stop, ranges[1].Start, ranges[1].Stop)
	}
	return nil
}
