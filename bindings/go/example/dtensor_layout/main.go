// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

// Command dtensor_layout reads a layout a TF DTensor job printed (the text of
// str(layout) or Layout.to_string()) with the Tessera Go binding and says how
// a tensor of a global shape is split under it.
//
//	go run ./example/dtensor_layout ['<layout text>']
package main

import (
	"fmt"
	"io"
	"log"
	"os"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

// A DTensor job's layout: rows split over "batch" on a 2x2 CPU mesh.
const printed = "sharding_specs:batch,unsharded, mesh:|batch=2,model=2|0,1,2,3|0,1,2,3|" +
	"/job:localhost/replica:0/task:0/device:CPU:0,/job:localhost/replica:0/task:0/device:CPU:1," +
	"/job:localhost/replica:0/task:0/device:CPU:2,/job:localhost/replica:0/task:0/device:CPU:3"

func main() {
	text := printed
	if len(os.Args) > 1 {
		text = os.Args[1]
	}
	if err := run(os.Stdout, text, []int64{8, 6}); err != nil {
		log.Fatal(err)
	}
}

func run(out io.Writer, text string, globalShape []int64) error {
	layout, err := tessera.ParseDTensorLayout(text)
	if err != nil {
		return err
	}
	defer layout.Close()
	mesh, err := layout.Mesh()
	if err != nil {
		return err
	}
	defer mesh.Close()
	fmt.Fprintf(out, "specs %v over mesh dims %v sizes %v\n", layout.Specs(), mesh.DimNames(), mesh.DimSizes())

	local, err := layout.LocalShapeFromGlobal(globalShape)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "global shape %v: each device holds %v\n", globalShape, local)
	shards, err := layout.ShardVectorText()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, shards)

	// Printed back byte for byte: what DTensor itself would print.
	back, err := layout.Text()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "round trip exact: %v\n", back == text)
	return nil
}
