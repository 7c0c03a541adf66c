// SPDX-FileCopyrightText: 2026 The Tessera Authors
// SPDX-License-Identifier: Apache-2.0

package main

import (
	"errors"
	"fmt"
	"log"

	"github.com/tessera-dev/tessera/bindings/go/tessera"
)

func main() {
	// Eight devices named explicitly: the program needs no environment.
	devices := []string{"cpu:0", "cpu:1", "cpu:2", "cpu:3", "cpu:4", "cpu:5", "cpu:6", "cpu:7"}
	mesh, err := tessera.NewMesh([]int64{4, 2}, []string{"batch", "model"}, devices)
	if err != nil {
		log.Fatal(err) // *tessera.Error: code and message
	}
	defer mesh.Close()

	layout, err := tessera.NewLayout([]string{"", "model"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer layout.Close()
	layoutMap, err := tessera.NewLayoutMap(mesh, tessera.KeyMatchSearch)
	if err != nil {
		log.Fatal(err)
	}
	defer layoutMap.Close()
	if err := layoutMap.Set("dense.*kernel", layout); err != nil {
		log.Fatal(err)
	}

	kernel, err := layoutMap.Get("dense_1/kernel")
	if err != nil {
		log.Fatal(err)
	}
	defer kernel.Close()
	fmt.Println(kernel) // <TensorLayout axes=(None, 'model'), device_mesh=...>

	if _, err := mesh.AxisSize("data"); errors.Is(err, tessera.CodeNotFound) {
		fmt.Println(err) // NOT_FOUND: Axis 'data' is not in the mesh; ...
	}
}
